#include "rules/pdn.hpp"

#include <algorithm>
#include <array>
#include <cctype>

#include "rules/bitboard.hpp"
#include "rules/movegen.hpp"
#include "rules/notation.hpp"
#include "rules/printable.hpp"

namespace damas {
namespace {

constexpr std::array<std::string_view, 8> results{"2-0", "0-2", "1-1",     "1-0",
                                                  "0-1", "0-0", "1/2-1/2", "*"};

bool is_result(std::string_view s) {
    return std::find(results.begin(), results.end(), s) != results.end();
}

bool is_space(char c) {
    return std::isspace(static_cast<unsigned char>(c)) != 0;
}

bool is_digit(char c) {
    return c >= '0' && c <= '9';
}

bool is_mark_char(char c) {
    return c == '!' || c == '?';
}

bool is_separator(char c) {
    return c == '-' || c == 'x' || c == 'X' || c == ':';
}

// Characters that end a token (and start something else).
bool ends_token(char c) {
    return is_space(c) || std::string_view("{}()[];$").find(c) != std::string_view::npos;
}

// The squares of a move's text, split at its separators; false if a part is empty.
bool split_squares(std::string_view text, std::vector<std::string_view>& parts) {
    parts.clear();
    std::size_t start = 0;
    for (std::size_t i = 0; i <= text.size(); ++i) {
        if (i < text.size() && !is_separator(text[i])) continue;
        if (i == start) return false;
        parts.push_back(text.substr(start, i - start));
        start = i + 1;
    }
    return parts.size() >= 2;
}

// A square as PDN writes it: a number, or a file letter and a rank number ("c3").
bool looks_like_square(std::string_view s) {
    if (!s.empty() && std::isalpha(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
    return !s.empty() && s.size() <= 3 && std::all_of(s.begin(), s.end(), is_digit);
}

bool looks_like_move(std::string_view text) {
    std::vector<std::string_view> parts;
    return split_squares(text, parts) && std::all_of(parts.begin(), parts.end(), looks_like_square);
}

bool same_name(std::string_view a, std::string_view b) {
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
               return std::tolower(static_cast<unsigned char>(x)) ==
                      std::tolower(static_cast<unsigned char>(y));
           });
}

// Reads a PDN text game by game (see pdn.hpp for what is kept).
class Reader {
  public:
    explicit Reader(std::string_view text) : text_(text) {}

    std::vector<PdnGame> run() {
        while (skip_space()) {
            const char c = text_[pos_];
            if (c == '%' && at_line_start())
                skip_line();
            else if (c == '[')
                read_tag();
            else if (c == '{')
                attach(read_comment());
            else if (c == '(')
                attach(read_variation());
            else if (c == ';')
                attach(read_line_comment());
            else if (c == '$')
                attach(read_nag());
            else if (c == ')' || c == '}' || c == ']')
                throw PdnError(line_, std::string("'") + c + "' closes nothing");
            else
                read_token();
        }
        finish_game();
        return std::move(games_);
    }

  private:
    bool at_end() const { return pos_ >= text_.size(); }
    bool at_line_start() const { return pos_ == 0 || text_[pos_ - 1] == '\n'; }
    char get() {
        const char c = text_[pos_++];
        if (c == '\n') ++line_;
        return c;
    }
    // Skips white space; false at the end of the text.
    bool skip_space() {
        while (!at_end() && is_space(text_[pos_])) get();
        return !at_end();
    }
    void skip_line() {
        while (!at_end() && text_[pos_] != '\n') get();
    }

    void finish_game() {
        if (open_) games_.push_back(std::move(game_));
        game_ = PdnGame{};
        open_ = ended_ = moved_ = false;
    }
    // Before a tag pair: a game with movetext ends there (comments before a game's first tag
    // pair are its own).
    void begin_tags() {
        if (moved_ || ended_ || (!game_.before.empty() && !game_.tags.empty())) finish_game();
        begin();
    }
    // Before movetext: a game that ended with its result is followed by a new one.
    void begin_movetext() {
        if (ended_) finish_game();
        begin();
    }
    void begin() {
        if (!open_) game_.line = line_;
        open_ = true;
    }

    void read_tag() {
        begin_tags();
        const int line = line_;
        get();  // '['
        while (!at_end() && (text_[pos_] == ' ' || text_[pos_] == '\t')) get();
        PdnTag tag;
        while (!at_end() &&
               (std::isalnum(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '_'))
            tag.name += get();
        while (!at_end() && (text_[pos_] == ' ' || text_[pos_] == '\t')) get();
        if (tag.name.empty() || at_end() || text_[pos_] != '"')
            throw PdnError(line, "malformed tag pair (expected [Name \"value\"])");
        get();  // '"'
        for (;;) {
            if (at_end() || text_[pos_] == '\n')
                throw PdnError(line, "the value of the tag " + printable(tag.name, 40) +
                                         " is not closed by '\"'");
            const char c = get();
            if (c == '"') break;
            if (c == '\\' && !at_end() && text_[pos_] != '\n') {
                tag.value += get();
                continue;
            }
            tag.value += c;
        }
        while (!at_end() && (text_[pos_] == ' ' || text_[pos_] == '\t')) get();
        if (at_end() || text_[pos_] != ']')
            throw PdnError(line,
                           "the tag pair " + printable(tag.name, 40) + " is not closed by ']'");
        get();
        game_.tags.push_back(std::move(tag));
    }

    std::string read_comment() {
        const int line = line_;
        const std::size_t start = pos_;
        get();  // '{'
        while (!at_end() && text_[pos_] != '}') get();
        if (at_end()) throw PdnError(line, "a comment '{' is not closed by '}'");
        get();
        return std::string(text_.substr(start, pos_ - start));
    }

    // A variation, nested ones and comments inside it included, verbatim.
    std::string read_variation() {
        const int line = line_;
        const std::size_t start = pos_;
        int depth = 0;
        do {
            if (at_end()) throw PdnError(line, "a variation '(' is not closed by ')'");
            const char c = text_[pos_];
            if (c == '{') {
                read_comment();
                continue;
            }
            get();
            depth += c == '(' ? 1 : c == ')' ? -1 : 0;
        } while (depth > 0);
        return std::string(text_.substr(start, pos_ - start));
    }

    // "; text" to the end of the line, kept as a {text} comment.
    std::string read_line_comment() {
        get();  // ';'
        std::string text;
        while (!at_end() && text_[pos_] != '\n') text += get();
        std::erase(text, '}');
        return "{" + text + "}";
    }

    std::string read_nag() {
        std::string nag(1, get());
        while (!at_end() && is_digit(text_[pos_])) nag += get();
        if (nag.size() == 1) throw PdnError(line_, "'$' without a number");
        return nag;
    }

    // Comments, variations and NAGs go after the last move, or before the first one.
    void attach(std::string item) {
        if (ended_) return;  // text after the result: left out
        begin();
        if (game_.moves.empty())
            game_.before.push_back(std::move(item));
        else
            game_.moves.back().after.push_back(std::move(item));
    }

    void read_token() {
        const int line = line_;
        std::string token;
        while (!at_end() && !ends_token(text_[pos_])) token += get();
        if (is_result(token)) {
            begin_movetext();
            game_.result = token;
            ended_ = true;
            return;
        }
        std::string_view rest = token;
        read_move_number(rest);
        while (!rest.empty() && rest.front() == '.') rest.remove_prefix(1);  // "..." alone
        if (rest.empty()) return;
        std::string_view mark = rest;
        while (!rest.empty() && is_mark_char(rest.back())) rest.remove_suffix(1);
        mark.remove_prefix(rest.size());
        if (rest.empty()) {  // a mark written apart from its move
            if (!ended_ && !game_.moves.empty()) game_.moves.back().mark = mark;
            return;
        }
        if (!looks_like_move(rest))
            throw PdnError(line, "'" + printable(token, 40) +
                                     "' is neither a move, a move number nor a result");
        begin_movetext();
        moved_ = true;
        game_.moves.push_back({std::string(rest), std::string(mark), {}, line});
    }

    // "12." or "12..." at the front of a token: the first one sets the game's first number.
    void read_move_number(std::string_view& rest) {
        std::size_t digits = 0;
        while (digits < rest.size() && is_digit(rest[digits])) ++digits;
        if (digits == 0 || digits == rest.size() || rest[digits] != '.') return;
        begin_movetext();
        if (!moved_ && digits <= 6) {
            int n = 0;
            for (std::size_t i = 0; i < digits; ++i) n = n * 10 + (rest[i] - '0');
            game_.first_number = std::max(1, n);
        }
        rest.remove_prefix(digits);
    }

    std::string_view text_;
    std::size_t pos_ = 0;
    int line_ = 1;
    std::vector<PdnGame> games_;
    PdnGame game_;
    bool open_ = false;   // the game has begun (a tag, a comment or movetext)
    bool ended_ = false;  // its result was read
    bool moved_ = false;  // it has a move
};

std::string escaped_tag_value(std::string_view value) {
    std::string out;
    for (char c : value) {
        if (c == '"' || c == '\\') out += '\\';
        out += c == '\n' ? ' ' : c;
    }
    return out;
}

// Movetext in lines of at most `width` characters where its tokens allow.
class LineWriter {
  public:
    static constexpr std::size_t width = 79;

    void add(std::string_view token) {
        const std::size_t first_line = std::min(token.find('\n'), token.size());
        if (!line_.empty() && line_.size() + 1 + first_line > width) flush();
        if (!line_.empty()) line_ += ' ';
        line_ += token;
        if (const auto last = line_.rfind('\n'); last != std::string::npos) {
            out_ += line_.substr(0, last + 1);
            line_.erase(0, last + 1);
        }
    }
    // A comment, variation or NAG: a one-line comment longer than a line is broken between its
    // words (PDN comments may span lines); anything else goes whole.
    void add_item(std::string_view item) {
        if (item.size() <= width || item.front() != '{' ||
            item.find('\n') != std::string_view::npos) {
            add(item);
            return;
        }
        while (!item.empty()) {
            const std::size_t space = std::min(item.find(' '), item.size());
            if (space > 0) add(item.substr(0, space));
            item.remove_prefix(std::min(space + 1, item.size()));
        }
    }
    std::string finish() {
        flush();
        return std::move(out_);
    }

  private:
    void flush() {
        if (line_.empty()) return;
        out_ += line_;
        out_ += '\n';
        line_.clear();
    }
    std::string out_, line_;
};

// Whether the squares a..b (bits) of a capture each take one of its pieces: every leg is a
// straight line of the board with exactly one captured piece strictly inside it.
bool path_fits(const GeometryTables& g, const Move& m, const std::vector<int>& squares) {
    int taken = 0;
    for (std::size_t i = 0; i + 1 < squares.size(); ++i) {
        const int a = g.square_of_bit[squares[i]], b = g.square_of_bit[squares[i + 1]];
        const int dx = g.x_of_square[b] - g.x_of_square[a];
        const int dy = g.y_of_square[b] - g.y_of_square[a];
        const bool line = g.grid == Grid::orthogonal ? (dx == 0) != (dy == 0)
                                                     : dx != 0 && (dx == dy || dx == -dy);
        if (!line) return false;
        const int sx = (dx > 0) - (dx < 0), sy = (dy > 0) - (dy < 0);
        int inside = 0;
        for (int x = g.x_of_square[a] + sx, y = g.y_of_square[a] + sy;
             x != g.x_of_square[b] || y != g.y_of_square[b]; x += sx, y += sy)
            if (const int square = g.bit_at(x, y); square >= 0)
                inside += (m.captured & bit(square)) != 0;
        if (inside != 1) return false;
        ++taken;
    }
    return taken == popcount(m.captured);
}

}  // namespace

PdnError::PdnError(int at, const std::string& what)
    : Error("line " + std::to_string(at) + ": " + what), line(at) {}

std::optional<std::string> PdnGame::tag(std::string_view name) const {
    for (const PdnTag& t : tags)
        if (same_name(t.name, name)) return t.value;
    return std::nullopt;
}

std::string PdnGame::players() const {
    const auto white = tag("White"), black = tag("Black");
    if (!white && !black) return "";
    const auto name = [](const std::optional<std::string>& s) {
        return s && !s->empty() ? printable(*s, 60) : std::string("?");
    };
    return name(white) + " vs " + name(black);
}

std::vector<PdnGame> read_pdn(std::string_view text) {
    return Reader(text).run();
}

std::string PdnNumber::label() const {
    return std::to_string(number) + (first_player ? "." : "...");
}

void PdnNumber::next() {
    if (!first_player) ++number;
    first_player = !first_player;
}

std::string write_pdn(const PdnGame& game, bool first_move_by_first_player) {
    std::string out;
    for (const PdnTag& t : game.tags)
        out += "[" + t.name + " \"" + escaped_tag_value(t.value) + "\"]\n";
    if (!game.tags.empty()) out += '\n';
    LineWriter text;
    for (const std::string& item : game.before) text.add_item(item);
    PdnNumber number{game.first_number, first_move_by_first_player};
    bool numbered = false;  // the next move needs no number of its own
    for (const PdnMove& m : game.moves) {
        // A move number stays on the line of its move.
        text.add(number.first_player || !numbered ? number.label() + " " + m.text + m.mark
                                                  : m.text + m.mark);
        for (const std::string& item : m.after) text.add_item(item);
        // A comment or a variation in between: the next move is numbered again (not a NAG).
        numbered = std::none_of(m.after.begin(), m.after.end(), [](const std::string& item) {
            return item.front() == '{' || item.front() == '(';
        });
        number.next();
    }
    text.add(game.result.empty() ? "*" : game.result);
    return out + text.finish() + '\n';
}

MoveMatch match_pdn_move(const Variant& v, const Position& p, std::string_view text, Move& out) {
    std::vector<std::string_view> parts;
    if (!split_squares(text, parts)) return MoveMatch::malformed;
    std::vector<int> squares;
    for (std::string_view part : parts) {
        const auto b = parse_square(v.info(), part);
        if (!b) return MoveMatch::malformed;
        squares.push_back(*b);
    }
    MoveList moves;
    dispatch(v.base, [&](auto rules) { MoveGenerator<decltype(rules)>::generate(p, moves); });
    const GeometryTables& g = geometry_tables(v.info());
    int found = 0;
    for (const Move& m : moves) {
        if (m.from != squares.front() || m.to != squares.back()) continue;
        if (squares.size() > 2 && !path_fits(g, m, squares)) continue;
        out = m;
        ++found;
    }
    return found == 0 ? MoveMatch::illegal : found == 1 ? MoveMatch::found : MoveMatch::ambiguous;
}

std::string move_match_problem(MoveMatch m, std::string_view text, std::string_view fen) {
    const std::string move = printable(text, 40);
    switch (m) {
        case MoveMatch::found:
            return "";
        case MoveMatch::malformed:
            return "'" + move + "' is not a move (squares of the board joined by -, x or :)";
        case MoveMatch::illegal:
            return move + " is not a legal move in " + std::string(fen);
        case MoveMatch::ambiguous:
            return move + " is ambiguous in " + std::string(fen) +
                   " (give the squares its captures land on, e.g. 1x10x19)";
    }
    return "";
}

}  // namespace damas
