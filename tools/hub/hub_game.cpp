// A game as a Hub GUI sends it (see hub_game.hpp).
#include "tools/hub/hub_game.hpp"
#include "rules/legal_moves.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <vector>

#include "rules/error.hpp"
#include "rules/notation.hpp"
#include "rules/printable.hpp"

namespace damas::hub {
namespace {

int square_count(Variant v) {
    return geometry_tables(v.info()).squares;
}

// pydraughts' name of square n (1..32, or 1..64 in turkish) counted on ranks from a1: a1 c1 e1
// g1 b2 ... on diagonal boards, a1 b1 ... h1 a2 ... in turkish (its convert.py).
std::string name_counted_from_a1(Variant v, int n) {
    const bool orthogonal = v.base == BaseVariant::turkish;
    const int per_rank = orthogonal ? 8 : 4;
    const int rank = (n - 1) / per_rank;
    int file = (n - 1) % per_rank;
    if (!orthogonal) file = 2 * file + (rank % 2);
    return std::string(1, static_cast<char>('a' + file)) + std::to_string(rank + 1);
}

// pydraughts' name of square n of its position string, counted on ranks from the top: b8 d8 f8
// h8 a7 ... on diagonal boards, a8 b8 ... in turkish.
std::string name_counted_from_top(Variant v, int n) {
    const bool orthogonal = v.base == BaseVariant::turkish;
    const int per_rank = orthogonal ? 8 : 4;
    const int row = (n - 1) / per_rank;  // from the top
    int file = (n - 1) % per_rank;
    if (!orthogonal) file = 2 * file + (row % 2 == 0 ? 1 : 0);
    return std::string(1, static_cast<char>('a' + file)) + std::to_string(8 - row);
}

// The variants whose PDN names squares by letter and rank (russian, brazilian, turkish):
// pydraughts numbers them on its own (below). Portuguese, which pydraughts lacks, keeps its
// PDN numbers, as international, italian and english do.
bool counted_by_pydraughts(Variant v) {
    return v.base == BaseVariant::russian || v.base == BaseVariant::brazilian ||
           v.base == BaseVariant::turkish;
}

int bit_of_named_square(Variant v, const std::string& name) {
    const auto b = parse_square(v.info(), name);
    return b ? *b : -1;
}

// The bit of the square numbered n (1..square_count) in the variant's own numbering, or -1.
int bit_of_numbered_square(Variant v, int n) {
    for (int b = 0; b < 64; ++b)
        if (square_number(v.info(), b) == n) return b;
    return -1;
}

// The bit of the n-th square of a position string, as pydraughts' HubEngine writes it
// (Game.initial_hub_fen, from its internal board): the square numbers on 10x10 and in italian;
// english turned round (n is square 33 - n) with the colours exchanged (colours_exchanged);
// russian, brazilian and turkish counted from the top left; portuguese by its square numbers.
int bit_of_position_square(Variant v, int n) {
    if (v.base == BaseVariant::english) return bit_of_numbered_square(v, square_count(v) + 1 - n);
    return counted_by_pydraughts(v) ? bit_of_named_square(v, name_counted_from_top(v, n))
                                    : bit_of_numbered_square(v, n);
}

// pydraughts' internal board has the side that moves first as White: in english, Black.
bool colours_exchanged(Variant v) {
    return v.base == BaseVariant::english;
}

// The bit of square number n of a Hub move, as pydraughts' HubEngine writes and reads moves
// (Move.hub_move): the variant's PDN numbers; in russian, brazilian and turkish, counted on
// ranks from a1.
int bit_of_move_square(Variant v, int n) {
    if (n < 1 || n > square_count(v)) return -1;
    return counted_by_pydraughts(v) ? bit_of_named_square(v, name_counted_from_a1(v, n))
                                    : bit_of_numbered_square(v, n);
}

// The Hub number of every bit (0: none), per base variant, made once: hub_move numbers each square
// of every move of a pv, and the inverse of bit_of_move_square is a search over the squares.
using MoveNumbers = std::array<int, 64>;
const MoveNumbers& move_numbers(Variant v) {
    static const auto all = [] {
        std::array<MoveNumbers, base_variant_count> numbers{};
        for (int base = 0; base < base_variant_count; ++base) {
            const Variant bv{static_cast<BaseVariant>(base), false};
            for (int n = 1; n <= square_count(bv); ++n)
                if (const int b = bit_of_move_square(bv, n); b >= 0) numbers[base][b] = n;
        }
        return numbers;
    }();
    return all[static_cast<std::size_t>(v.base)];
}

int move_square_number(Variant v, int b) {
    const int n = b >= 0 && b < 64 ? move_numbers(v)[static_cast<std::size_t>(b)] : 0;
    if (n == 0) throw Error("square " + square_name(v.info(), b) + " has no Hub number");
    return n;
}

bool all_digits(std::string_view s) {
    return !s.empty() &&
           std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// A square of a Hub move: its number, or its name in the variant's notation.
std::optional<int> hub_square(Variant v, std::string_view text) {
    if (all_digits(text)) {
        if (text.size() > 3) return std::nullopt;
        const int b = bit_of_move_square(v, std::stoi(std::string(text)));
        return b < 0 ? std::nullopt : std::optional<int>(b);
    }
    return parse_square(v.info(), text);
}

MoveList legal_moves(Variant v, const Position& p) {
    MoveList list;
    generate_legal_moves(v, p, list);
    return list;
}

std::string square_text(Variant v, int b) {
    return std::to_string(move_square_number(v, b));
}

std::vector<std::string_view> split_moves(std::string_view text) {
    std::vector<std::string_view> out;
    std::size_t i = 0;
    while (i < text.size()) {
        while (i < text.size() && (text[i] == ' ' || text[i] == '\t')) ++i;
        const std::size_t start = i;
        while (i < text.size() && text[i] != ' ' && text[i] != '\t') ++i;
        if (i > start) out.push_back(text.substr(start, i - start));
    }
    return out;
}

}  // namespace

std::optional<Variant> variant_of_hub_name(std::string_view name) {
    if (name == "normal") return Variant{BaseVariant::international, false};
    if (name == "losing") return Variant{BaseVariant::international, true};
    const auto v = parse_variant(name);
    if (v && v->base == BaseVariant::international) return std::nullopt;  // Hub's names only
    return v;
}

std::string hub_name(Variant v) {
    if (v.base == BaseVariant::international) return v.giveaway ? "losing" : "normal";
    return v.name();
}

std::string hub_variant_names() {
    std::string s;
    for (const Variant& v : all_variants()) {
        if (!s.empty()) s += ' ';
        s += hub_name(v);
    }
    return s;
}

std::string hub_position(Variant v, const Position& p) {
    const Color first = colours_exchanged(v) ? Color::black : Color::white;
    std::string s(1, p.side == first ? 'W' : 'B');
    for (int n = 1; n <= square_count(v); ++n) {
        const int b = bit_of_position_square(v, n);
        const Bitboard m = b < 0 ? 0 : bit(b);
        const bool king = (p.kings & m) != 0;
        s += (p.of(first) & m) ? (king ? 'W' : 'w') : (p.of(~first) & m) ? (king ? 'B' : 'b') : 'e';
    }
    return s;
}

Position parse_hub_position(Variant v, std::string_view text) {
    if (text.find(':') != std::string_view::npos) return parse_fen(v, text);
    const int n = square_count(v);
    if (static_cast<int>(text.size()) != n + 1)
        throw Error("the position string of " + v.name() + " has " + std::to_string(n + 1) +
                    " characters (the side to move and " + std::to_string(n) + " squares), not " +
                    std::to_string(text.size()));
    Position p;
    if (text[0] != 'W' && text[0] != 'B')
        throw Error("the position string starts with the side to move, W or B, not '" +
                    printable(text.substr(0, 1)) + "'");
    const Color first = colours_exchanged(v) ? Color::black : Color::white;
    p.side = text[0] == 'W' ? first : ~first;
    for (int i = 1; i <= n; ++i) {
        const char c = text[static_cast<std::size_t>(i)];
        if (c == 'e') continue;
        if (c != 'w' && c != 'b' && c != 'W' && c != 'B')
            throw Error("square " + std::to_string(i) + " of the position string is '" +
                        printable(text.substr(static_cast<std::size_t>(i), 1)) +
                        "' (w, b, W, B or e)");
        const int b = bit_of_position_square(v, i);
        if (b < 0) throw Error("square " + std::to_string(i) + " is not on the board");
        const Color colour = (c == 'w' || c == 'W') ? first : ~first;
        p.pieces[index_of(colour)] |= bit(b);
        if (c == 'W' || c == 'B') p.kings |= bit(b);
    }
    validate(v, p);
    return p;
}

std::string hub_move(Variant v, const Move& m) {
    std::string s = square_text(v, m.from);
    s += m.is_capture() ? 'x' : '-';
    s += square_text(v, m.to);
    std::vector<int> captured;
    for (Bitboard c = m.captured; c; c &= c - 1) captured.push_back(std::countr_zero(c));
    std::sort(captured.begin(), captured.end(),
              [&](int a, int b) { return move_square_number(v, a) < move_square_number(v, b); });
    for (int b : captured) s += 'x' + square_text(v, b);
    return s;
}

Move parse_hub_move(Variant v, const Position& p, std::string_view text) {
    std::vector<int> squares;
    std::size_t start = 0;
    for (std::size_t i = 0; i <= text.size(); ++i) {
        if (i < text.size() && text[i] != '-' && text[i] != 'x' && text[i] != 'X' && text[i] != ':')
            continue;
        const auto square = hub_square(v, text.substr(start, i - start));
        if (!square) throw Error("'" + printable(text, 80) + "' is not a move");
        squares.push_back(*square);
        start = i + 1;
    }
    if (squares.size() < 2) throw Error("'" + printable(text, 80) + "' is not a move");
    Bitboard captured = 0;
    for (std::size_t i = 2; i < squares.size(); ++i) captured |= bit(squares[i]);
    const bool captures_given = squares.size() > 2;
    std::optional<Move> found;
    for (const Move& m : legal_moves(v, p)) {
        if (m.from != squares[0] || m.to != squares[1]) continue;
        if (captures_given && m.captured != captured) continue;
        if (found)
            throw Error(printable(text, 80) + " is ambiguous in " + to_fen(v, p) +
                        " (give every square it captures)");
        found = m;
    }
    if (!found) throw Error(printable(text, 80) + " is not a legal move in " + to_fen(v, p));
    return *found;
}

HubGame replay_hub_game(Variant v, const DrawRules& rules, std::string_view position,
                        std::string_view moves) {
    HubGame g{parse_hub_position(v, position), {}, 0};
    for (std::string_view text : split_moves(moves)) {
        Move m{};
        try {
            m = parse_hub_move(v, g.position, text);
        } catch (const Error& e) {
            throw Error("move " + std::to_string(g.plies + 1) + ": " + e.what());
        }
        g.play(rules, m);
    }
    return g;
}

}  // namespace damas::hub
