#include "rules/notation.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <vector>

#include "rules/error.hpp"
#include "rules/printable.hpp"

namespace damas {
namespace {

const GeometryTables& tables_of(const VariantInfo& v) {
    return geometry_tables(v);
}

// The numbering used for numeric squares: algebraic variants read numbers as english does.
Numbering numeric_scheme(const VariantInfo& v) {
    return v.numbering == Numbering::bottom_right ? Numbering::bottom_right : Numbering::top_left;
}

// Bit index of numeric square n (1-based), or -1.
int bit_of_number(const VariantInfo& v, int n) {
    const GeometryTables& t = tables_of(v);
    if (n < 1 || n > t.squares) return -1;
    int k = 0;
    const bool top_left = numeric_scheme(v) == Numbering::top_left;
    for (int r = 0; r < t.height; ++r) {
        const int y = top_left ? t.height - 1 - r : r;
        for (int c = 0; c < t.width; ++c) {
            const int x = top_left ? c : t.width - 1 - c;
            const int b = t.bit_at(x, y);
            if (b >= 0 && ++k == n) return b;
        }
    }
    return -1;
}

std::string_view trim(std::string_view s) {
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
    return s;
}

std::vector<std::string_view> split(std::string_view s, char sep) {
    std::vector<std::string_view> parts;
    for (;;) {
        const auto pos = s.find(sep);
        parts.push_back(s.substr(0, pos));
        if (pos == std::string_view::npos) return parts;
        s.remove_prefix(pos + 1);
    }
}

bool all_digits(std::string_view s) {
    return !s.empty() && s.size() <= 3 &&
           std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

int to_int(std::string_view s) {
    int n = 0;
    for (char c : s) n = n * 10 + (c - '0');
    return n;
}

int parse_square_or_throw(const VariantInfo& v, std::string_view text) {
    const auto b = parse_square(v, text);
    if (!b) {
        throw Error("square '" + printable(text, 80) + "' is not a playable square of the " +
                    std::string(v.name) + " board");
    }
    return *b;
}

void add_piece(Position& p, Color c, int b, bool king, std::string_view item) {
    if (p.occupied() & bit(b))
        throw Error("two pieces on one square ('" + printable(item, 80) + "')");
    p.pieces[index_of(c)] |= bit(b);
    if (king) p.kings |= bit(b);
}

void parse_colour_section(const VariantInfo& v, Position& p, Color c, std::string_view list) {
    list = trim(list);
    if (list.empty()) return;
    for (std::string_view item : split(list, ',')) {
        item = trim(item);
        const std::string_view original = item;
        if (item.empty()) throw Error("empty square in the list '" + printable(list, 80) + "'");
        const bool king = item.front() == 'K' || item.front() == 'k';
        if (king) item.remove_prefix(1);
        const auto dash = item.find('-');
        if (dash == std::string_view::npos) {
            add_piece(p, c, parse_square_or_throw(v, item), king, original);
            continue;
        }
        const std::string_view lo = item.substr(0, dash), hi = item.substr(dash + 1);
        if (!all_digits(lo) || !all_digits(hi) ||
            (v.numbering == Numbering::algebraic && !v.accepts_numeric))
            throw Error("bad range '" + printable(original, 80) +
                        "' (ranges need numeric squares)");
        const int a = to_int(lo), z = to_int(hi);
        if (a > z) throw Error("empty range '" + printable(original, 80) + "'");
        for (int n = a; n <= z; ++n) {
            const int b = bit_of_number(v, n);
            if (b < 0)
                throw Error("square " + std::to_string(n) + " is not on the " +
                            std::string(v.name) + " board");
            add_piece(p, c, b, king, original);
        }
    }
}

Color parse_colour(std::string_view s, std::string_view what) {
    if (s == "W" || s == "w") return Color::white;
    if (s == "B" || s == "b") return Color::black;
    throw Error("bad " + std::string(what) + " '" + printable(s, 80) + "' (expected W or B)");
}

}  // namespace

const GeometryTables& geometry_tables(const VariantInfo& v) {
    static const std::array<GeometryTables, base_variant_count> all = [] {
        std::array<GeometryTables, base_variant_count> t{};
        for (int i = 0; i < base_variant_count; ++i)
            t[i] = make_tables(info(static_cast<BaseVariant>(i)).board);
        return t;
    }();
    return all[static_cast<int>(v.base)];
}

int square_number(const VariantInfo& v, int bit_index) {
    // Per base variant, the number of each bit (-1: no square), computed once: move lists are
    // sorted and printed by number, and a root probe prints every move.
    static const auto numbers = [] {
        std::array<std::array<std::int8_t, 64>, base_variant_count> all{};
        for (int i = 0; i < base_variant_count; ++i) {
            const VariantInfo& vi = info(static_cast<BaseVariant>(i));
            all[i].fill(-1);
            for (int n = 1; n <= tables_of(vi).squares; ++n)
                if (const int b = bit_of_number(vi, n); b >= 0)
                    all[i][b] = static_cast<std::int8_t>(n);
        }
        return all;
    }();
    if (bit_index < 0 || bit_index >= 64) return -1;
    return numbers[static_cast<int>(v.base)][bit_index];
}

std::string square_name(const VariantInfo& v, int bit_index) {
    if (v.numbering != Numbering::algebraic) return std::to_string(square_number(v, bit_index));
    const GeometryTables& t = tables_of(v);
    const int sq = t.square_of_bit[bit_index];
    std::string s;
    s += static_cast<char>('a' + t.x_of_square[sq]);
    s += std::to_string(t.y_of_square[sq] + 1);
    return s;
}

std::optional<int> parse_square(const VariantInfo& v, std::string_view text) {
    text = trim(text);
    const GeometryTables& t = tables_of(v);
    if (all_digits(text)) {
        if (v.numbering == Numbering::algebraic && !v.accepts_numeric) return std::nullopt;
        const int b = bit_of_number(v, to_int(text));
        if (b < 0) return std::nullopt;
        return b;
    }
    if (text.size() < 2 || text.size() > 3 || v.numbering != Numbering::algebraic)
        return std::nullopt;
    const char file = static_cast<char>(std::tolower(static_cast<unsigned char>(text[0])));
    const std::string_view rank = text.substr(1);
    if (file < 'a' || file >= 'a' + t.width || !all_digits(rank)) return std::nullopt;
    const int b = t.bit_at(file - 'a', to_int(rank) - 1);
    if (b < 0) return std::nullopt;
    return b;
}

void validate(const Variant& v, const Position& p) {
    const VariantInfo& vi = v.info();
    const GeometryTables& t = tables_of(vi);
    if (p.pieces[0] & p.pieces[1]) throw Error("two pieces on one square");
    if ((p.occupied() | p.kings) & ~t.mask) throw Error("a piece is off the board");
    if (p.kings & ~p.occupied()) throw Error("a king without a piece");
    if (p.men(Color::white) & t.row(t.height - 1))
        throw Error("a white man stands on its promotion row");
    if (p.men(Color::black) & t.row(0)) throw Error("a black man stands on its promotion row");
    for (Color c : {Color::white, Color::black})
        if (popcount(p.of(c)) > vi.pieces_per_side)
            throw Error(std::string("too many ") + color_name(c) + " pieces (" +
                        std::to_string(popcount(p.of(c))) + ", at most " +
                        std::to_string(vi.pieces_per_side) + ")");
}

namespace {

// The PDN tag form, [FEN "W:W31-50:B1-20"], gives the FEN between the quotes (the tag's name
// in any case, as games are written by hand).
std::string_view untagged(std::string_view fen) {
    if (fen.size() < 5 || fen.front() != '[' || fen.back() != ']') return fen;
    const std::string_view inner = trim(fen.substr(1, fen.size() - 2));
    if (inner.size() < 3 || (inner[0] | 0x20) != 'f' || (inner[1] | 0x20) != 'e' ||
        (inner[2] | 0x20) != 'n')
        return fen;
    const std::string_view value = trim(inner.substr(3));
    if (value.size() < 2 || value.front() != '"' || value.back() != '"') return fen;
    return value;  // the quotes go below, as for a bare quoted FEN
}

}  // namespace

Position parse_fen(const Variant& v, std::string_view fen) {
    const VariantInfo& vi = v.info();
    fen = untagged(trim(fen));
    if (fen.size() >= 2 && fen.front() == '"' && fen.back() == '"')
        fen = trim(fen.substr(1, fen.size() - 2));
    if (!fen.empty() && fen.back() == '.') fen.remove_suffix(1);
    const std::vector<std::string_view> fields = split(fen, ':');
    if (fields.size() != 3)
        throw Error("malformed FEN '" + printable(fen, 80) +
                    "' (expected side:Wsquares:Bsquares, e.g. W:W31-50:B1-20)");
    Position p;
    p.side = parse_colour(trim(fields[0]), "side to move");
    bool seen[2] = {false, false};
    for (int i = 1; i <= 2; ++i) {
        const std::string_view f = trim(fields[i]);
        if (f.empty()) throw Error("malformed FEN: empty colour field");
        const Color c = parse_colour(f.substr(0, 1), "colour");
        if (seen[index_of(c)]) throw Error("malformed FEN: a colour is listed twice");
        seen[index_of(c)] = true;
        parse_colour_section(vi, p, c, f.substr(1));
    }
    validate(v, p);
    return p;
}

std::string to_fen(const Variant& v, const Position& p) {
    const VariantInfo& vi = v.info();
    const GeometryTables& t = tables_of(vi);
    std::string s = p.side == Color::white ? "W" : "B";
    const bool numeric = vi.numbering != Numbering::algebraic;
    for (Color c : {Color::white, Color::black}) {
        s += c == Color::white ? ":W" : ":B";
        // Squares in notation order, kings marked.
        std::vector<std::pair<int, int>> items;  // (number or dense square, bit)
        for_each_bit(p.of(c), [&](int b) {
            items.emplace_back(numeric ? square_number(vi, b) : t.square_of_bit[b], b);
        });
        std::sort(items.begin(), items.end());
        bool first = true;
        for (std::size_t i = 0; i < items.size();) {
            const int b = items[i].second;
            const bool king = (p.kings & bit(b)) != 0;
            std::size_t j = i;
            // Compress runs of three or more consecutive numeric men into a range.
            if (numeric && !king)
                while (j + 1 < items.size() && items[j + 1].first == items[j].first + 1 &&
                       !(p.kings & bit(items[j + 1].second)))
                    ++j;
            if (!first) s += ',';
            first = false;
            if (j >= i + 2) {
                s += std::to_string(items[i].first) + '-' + std::to_string(items[j].first);
                i = j + 1;
                continue;
            }
            if (king) s += 'K';
            s += square_name(vi, b);
            ++i;
        }
    }
    return s;
}

Position initial_position(const Variant& v) {
    return parse_fen(v, v.info().initial_fen);
}

void sort_by_square(const VariantInfo& v, MoveList& moves) {
    const GeometryTables& t = tables_of(v);
    const bool numeric = v.numbering != Numbering::algebraic;
    const auto key = [&](int b) { return numeric ? square_number(v, b) : int{t.square_of_bit[b]}; };
    // Each move's squares once: from, to, then the captured ones in order.
    std::vector<std::pair<std::vector<int>, Move>> keyed;
    keyed.reserve(static_cast<std::size_t>(moves.size()));
    for (const Move& m : moves) {
        std::vector<int> captured;
        for_each_bit(m.captured, [&](int b) { captured.push_back(key(b)); });
        std::sort(captured.begin(), captured.end());
        std::vector<int> squares{key(m.from), key(m.to)};
        squares.insert(squares.end(), captured.begin(), captured.end());
        keyed.emplace_back(std::move(squares), m);
    }
    std::stable_sort(keyed.begin(), keyed.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    for (int i = 0; i < moves.size(); ++i) moves[i] = keyed[static_cast<std::size_t>(i)].second;
}

std::string move_text(const VariantInfo& v, const Move& m) {
    const bool algebraic = v.numbering == Numbering::algebraic;
    const char sep = m.is_capture() ? (algebraic ? ':' : 'x') : '-';
    return square_name(v, m.from) + sep + square_name(v, m.to);
}

std::string move_text_with_captures(const VariantInfo& v, const Move& m) {
    std::string s = move_text(v, m) + '[';
    std::vector<std::pair<int, int>> caps;
    for_each_bit(m.captured, [&](int b) { caps.emplace_back(square_number(v, b), b); });
    std::sort(caps.begin(), caps.end());
    for (std::size_t i = 0; i < caps.size(); ++i) {
        if (i) s += ',';
        s += square_name(v, caps[i].second);
    }
    return s + ']';
}

std::string move_notation(const VariantInfo& v, const Move& m, const MoveList& legal) {
    int sharing = 0;
    for (const Move& other : legal) sharing += other.from == m.from && other.to == m.to;
    return sharing > 1 ? move_text_with_captures(v, m) : move_text(v, m);
}

std::string move_uci(const VariantInfo& v, const Move& m) {
    const bool algebraic = v.numbering == Numbering::algebraic && !v.accepts_numeric;
    const auto key = [&](int b) {
        if (algebraic) return square_name(v, b);
        const int n = square_number(v, b);  // 1..50
        return std::string{static_cast<char>('0' + n / 10), static_cast<char>('0' + n % 10)};
    };
    // Captured squares in the notation's order: numbers, or a1, c1, ..., b2 as sort_by_square.
    const GeometryTables& t = tables_of(v);
    std::vector<std::pair<int, int>> captured;
    for_each_bit(m.captured, [&](int b) {
        captured.emplace_back(algebraic ? int{t.square_of_bit[b]} : square_number(v, b), b);
    });
    std::sort(captured.begin(), captured.end());
    std::string s = key(m.from) + key(m.to);
    for (const auto& [number, b] : captured) s += key(b);
    return s;
}

}  // namespace damas
