#include "rules/pdn.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <deque>
#include <utility>

#include "rules/bitboard.hpp"
#include "rules/legal_moves.hpp"
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

// The characters of a PDN text, from a string or a stream read a block at a time, with the line
// of the next one.
class Source {
  public:
    explicit Source(std::istream& in) : in_(&in) {}
    explicit Source(std::string_view text) : data_(text) {}

    bool at_end() { return pos_ >= data_.size() && !fill(); }
    char peek() const { return data_[pos_]; }  // when !at_end()
    char get() {
        previous_ = data_[pos_++];
        if (previous_ == '\n') ++line_;
        return previous_;
    }
    bool at_line_start() const { return previous_ == '\n'; }
    int line() const { return line_; }

  private:
    bool fill() {
        if (!in_) return false;
        buffer_.resize(64 * 1024);
        in_->read(buffer_.data(), static_cast<std::streamsize>(buffer_.size()));
        buffer_.resize(static_cast<std::size_t>(in_->gcount()));
        if (in_->bad()) throw Error("cannot read the PDN text");
        data_ = buffer_;
        pos_ = 0;
        return !data_.empty();
    }

    std::istream* in_ = nullptr;
    std::string buffer_;
    std::string_view data_;
    std::size_t pos_ = 0;
    char previous_ = '\n';
    int line_ = 1;
};

// A square list in brackets after a move ("15,22", "c3,e5"): squares joined by commas.
bool looks_like_capture_list(std::string_view list) {
    if (list.empty()) return false;
    for (;;) {
        const std::size_t comma = list.find(',');
        if (!looks_like_square(list.substr(0, comma))) return false;
        if (comma == std::string_view::npos) return true;
        list.remove_prefix(comma + 1);
    }
}

}  // namespace

// Reads a PDN text item by item (see pdn.hpp for what is kept) into a queue of events: a game's
// header when its first move (or its end) is read, a move when what follows it is complete (the
// next move, the game's end), the game's end.
class PdnReader::Parser {
  public:
    struct Event {
        enum Kind { header, move, end } kind;
        PdnGame game;    // header: the header; end: its result
        PdnMove played;  // move: the move
    };

    explicit Parser(std::istream& in) : in_(in) {}
    explicit Parser(std::string_view text) : in_(text) {}

    // The next event, reading as far as it takes; nullptr at the end of the text.
    Event* next() {
        while (events_.empty()) {
            if (!step()) {
                if (finished_) return nullptr;
                finished_ = true;
                finish_game();
            }
        }
        return &events_.front();
    }
    void pop() { events_.pop_front(); }

  private:
    // Reads one item; false at the end of the text.
    bool step() {
        if (!skip_space()) return false;
        const char c = in_.peek();
        if (c == '%' && in_.at_line_start())
            skip_line();
        else if (c == '[')
            read_bracket();
        else if (c == '{')
            attach(read_comment());
        else if (c == '(')
            attach(read_variation());
        else if (c == ';')
            attach(read_line_comment());
        else if (c == '$')
            attach(read_nag());
        else if (c == ')' || c == '}' || c == ']')
            throw PdnError(in_.line(), std::string("'") + c + "' closes nothing");
        else
            read_token();
        return true;
    }

    // Skips white space; false at the end of the text.
    bool skip_space() {
        while (!in_.at_end() && is_space(in_.peek())) in_.get();
        return !in_.at_end();
    }
    void skip_line() {
        while (!in_.at_end() && in_.peek() != '\n') in_.get();
    }
    void skip_blanks() {
        while (!in_.at_end() && (in_.peek() == ' ' || in_.peek() == '\t')) in_.get();
    }
    bool next_is(char c) { return !in_.at_end() && in_.peek() == c; }

    void emit_header() {
        if (header_sent_) return;
        header_sent_ = true;
        events_.push_back({Event::header, game_, {}});
    }
    void emit_pending() {
        if (!pending_) return;
        events_.push_back({Event::move, {}, std::move(*pending_)});
        pending_.reset();
    }
    void finish_game() {
        if (open_) {
            emit_header();
            emit_pending();
            PdnGame end;
            end.result = game_.result;
            events_.push_back({Event::end, std::move(end), {}});
        }
        game_ = PdnGame{};
        pending_.reset();
        open_ = ended_ = moved_ = header_sent_ = false;
    }
    // Before a tag pair: a game with movetext ends there (comments before a game's first tag
    // pair are its own).
    void begin_tags(int line) {
        if (moved_ || ended_ || (!game_.before.empty() && !game_.tags.empty())) finish_game();
        begin(line);
    }
    // Before movetext: a game that ended with its result is followed by a new one.
    void begin_movetext() {
        if (ended_) finish_game();
        begin(in_.line());
    }
    void begin(int line) {
        if (!open_) game_.line = line;
        open_ = true;
    }

    // '[' opens a tag pair, or the captured squares of the move before it ("11x25[15,22]").
    void read_bracket() {
        const int line = in_.line();
        in_.get();  // '['
        skip_blanks();
        std::string name;
        while (!in_.at_end() &&
               (std::isalnum(static_cast<unsigned char>(in_.peek())) || in_.peek() == '_'))
            name += in_.get();
        skip_blanks();
        if (next_is(',') || next_is(']')) {
            read_captured(line, std::move(name));
            return;
        }
        read_tag(line, std::move(name));
    }

    void read_captured(int line, std::string list) {
        while (!in_.at_end() && list.size() < 200) {
            const char c = in_.peek();
            if (c != ' ' && c != ',' && !std::isalnum(static_cast<unsigned char>(c))) break;
            in_.get();
            if (c != ' ') list += c;
        }
        if (!next_is(']') || !looks_like_capture_list(list))
            throw PdnError(line,
                           "malformed tag pair (expected [Name \"value\"]) or captured "
                           "squares (expected [15,22] after a move)");
        in_.get();  // ']'
        if (!pending_ || ended_ || !pending_->after.empty() ||
            pending_->text.find('[') != std::string::npos)
            throw PdnError(line, "captured squares [" + printable(list, 40) +
                                     "] follow no move (write them right after it: 11x25[15,22])");
        pending_->text += '[' + list + ']';
    }

    void read_tag(int line, std::string name) {
        begin_tags(line);
        PdnTag tag{std::move(name), {}};
        if (tag.name.empty() || !next_is('"'))
            throw PdnError(line, "malformed tag pair (expected [Name \"value\"])");
        in_.get();  // '"'
        for (;;) {
            if (in_.at_end() || in_.peek() == '\n')
                throw PdnError(line, "the value of the tag " + printable(tag.name, 40) +
                                         " is not closed by '\"'");
            const char c = in_.get();
            if (c == '"') break;
            if (c == '\\' && !in_.at_end() && in_.peek() != '\n') {
                tag.value += in_.get();
                continue;
            }
            tag.value += c;
        }
        skip_blanks();
        if (!next_is(']'))
            throw PdnError(line,
                           "the tag pair " + printable(tag.name, 40) + " is not closed by ']'");
        in_.get();
        if (game_.tags.size() >= static_cast<std::size_t>(pdn_max_tags))
            throw PdnError(line,
                           "more than " + std::to_string(pdn_max_tags) + " tag pairs in one game");
        game_.tags.push_back(std::move(tag));
    }

    std::string read_comment() {
        const int line = in_.line();
        std::string text(1, in_.get());  // '{'
        while (!in_.at_end() && in_.peek() != '}') text += in_.get();
        if (in_.at_end()) throw PdnError(line, "a comment '{' is not closed by '}'");
        text += in_.get();
        return text;
    }

    // A variation, nested ones and comments inside it included, verbatim.
    std::string read_variation() {
        const int line = in_.line();
        std::string text;
        int depth = 0;
        do {
            if (in_.at_end()) throw PdnError(line, "a variation '(' is not closed by ')'");
            const char c = in_.peek();
            if (c == '{') {
                text += read_comment();
                continue;
            }
            text += in_.get();
            depth += c == '(' ? 1 : c == ')' ? -1 : 0;
        } while (depth > 0);
        return text;
    }

    // "; text" to the end of the line, kept as a {text} comment.
    std::string read_line_comment() {
        in_.get();  // ';'
        std::string text;
        while (!in_.at_end() && in_.peek() != '\n') text += in_.get();
        std::erase(text, '}');
        return "{" + text + "}";
    }

    std::string read_nag() {
        std::string nag(1, in_.get());
        while (!in_.at_end() && is_digit(in_.peek())) nag += in_.get();
        if (nag.size() == 1) throw PdnError(in_.line(), "'$' without a number");
        return nag;
    }

    // Comments, variations and NAGs go after the last move, or before the first one.
    void attach(std::string item) {
        if (ended_) return;  // text after the result: left out
        begin(in_.line());
        std::vector<std::string>& items = pending_ ? pending_->after : game_.before;
        if (items.size() >= static_cast<std::size_t>(pdn_max_items))
            throw PdnError(in_.line(), "more than " + std::to_string(pdn_max_items) +
                                           " comments, variations and NAGs in a row");
        items.push_back(std::move(item));
    }

    void read_token() {
        const int line = in_.line();
        std::string token;
        while (!in_.at_end() && !ends_token(in_.peek())) token += in_.get();
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
        if (is_result(rest)) {  // "12.1-0": a result, never a move (there is no square 0)
            game_.result = std::string(rest);
            ended_ = true;
            return;
        }
        std::string_view mark = rest;
        while (!rest.empty() && is_mark_char(rest.back())) rest.remove_suffix(1);
        mark.remove_prefix(rest.size());
        if (rest.empty()) {  // a mark written apart from its move
            if (!ended_ && pending_) pending_->mark = mark;
            return;
        }
        if (!looks_like_move(rest))
            throw PdnError(line, "'" + printable(token, 40) +
                                     "' is neither a move, a move number nor a result");
        begin_movetext();
        moved_ = true;
        emit_header();
        emit_pending();
        pending_ = PdnMove{std::string(rest), std::string(mark), {}, line};
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

    Source in_;
    std::deque<Event> events_;
    PdnGame game_;                    // its header, and its result once read
    std::optional<PdnMove> pending_;  // the last move read, while what follows it may grow
    bool open_ = false;               // the game has begun (a tag, a comment or movetext)
    bool ended_ = false;              // its result was read
    bool moved_ = false;              // it has a move
    bool header_sent_ = false;
    bool finished_ = false;  // the end of the text was reached
};

namespace {

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
    // Text that is no movetext (tag pairs, the empty line after a game), after the last line.
    void raw(std::string_view text) { out_ += text; }
    void flush() {
        if (line_.empty()) return;
        out_ += line_;
        out_ += '\n';
        line_.clear();
    }
    // The whole lines written so far.
    std::string take() { return std::exchange(out_, {}); }

  private:
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

PdnReader::PdnReader(std::istream& in) : parser_(std::make_unique<Parser>(in)) {}
PdnReader::PdnReader(std::string_view text) : parser_(std::make_unique<Parser>(text)) {}
PdnReader::~PdnReader() = default;

bool PdnReader::next_game(PdnGame& header) {
    while (Parser::Event* e = parser_->next()) {
        if (e->kind == Parser::Event::header) {
            header = std::move(e->game);
            parser_->pop();
            return true;
        }
        parser_->pop();  // the rest of a game not read to its end
    }
    return false;
}

bool PdnReader::next_move(PdnMove& move) {
    Parser::Event* e = parser_->next();
    if (!e || e->kind == Parser::Event::header) return false;  // no game is being read
    if (e->kind == Parser::Event::end) {
        result_ = std::move(e->game.result);
        parser_->pop();
        return false;
    }
    move = std::move(e->played);
    parser_->pop();
    return true;
}

std::vector<PdnGame> read_pdn(std::string_view text) {
    PdnReader reader(text);
    std::vector<PdnGame> games;
    PdnGame game;
    while (reader.next_game(game)) {
        PdnMove move;
        while (reader.next_move(move)) game.moves.push_back(std::move(move));
        game.result = reader.result();
        games.push_back(std::move(game));
        game = PdnGame{};
    }
    return games;
}

std::string PdnNumber::label() const {
    return std::to_string(number) + (first_player ? "." : "...");
}

void PdnNumber::next() {
    if (!first_player) ++number;
    first_player = !first_player;
}

class PdnWriter::Lines : public LineWriter {};

PdnWriter::PdnWriter(const PdnGame& header, bool first_move_by_first_player)
    : lines_(std::make_unique<Lines>()), number_{header.first_number, first_move_by_first_player} {
    std::string tags;
    for (const PdnTag& t : header.tags)
        tags += "[" + t.name + " \"" + escaped_tag_value(t.value) + "\"]\n";
    if (!header.tags.empty()) tags += '\n';
    lines_->raw(tags);
    for (const std::string& item : header.before) lines_->add_item(item);
}

PdnWriter::~PdnWriter() = default;
PdnWriter::PdnWriter(PdnWriter&&) noexcept = default;
PdnWriter& PdnWriter::operator=(PdnWriter&&) noexcept = default;

void PdnWriter::move(const PdnMove& m) {
    // A move number stays on the line of its move.
    lines_->add(number_.first_player || !numbered_ ? number_.label() + " " + m.text + m.mark
                                                   : m.text + m.mark);
    numbered_ = true;
    for (const std::string& item : m.after) item_after(item);
    number_.next();
}

void PdnWriter::item(std::string_view item) {
    item_after(item);
}

// A comment or a variation in between: the next move is numbered again (not a NAG).
void PdnWriter::item_after(std::string_view item) {
    lines_->add_item(item);
    if (!item.empty() && (item.front() == '{' || item.front() == '(')) numbered_ = false;
}

void PdnWriter::finish(std::string_view result) {
    lines_->add(result.empty() ? "*" : result);
    lines_->flush();
    lines_->raw("\n");
}

std::string PdnWriter::take() {
    return lines_->take();
}

std::string write_pdn(const PdnGame& game, bool first_move_by_first_player) {
    PdnWriter writer(game, first_move_by_first_player);
    for (const PdnMove& m : game.moves) writer.move(m);
    writer.finish(game.result);
    return writer.take();
}

MoveMatch match_pdn_move(const Variant& v, const Position& p, std::string_view text, Move& out) {
    // The captured squares in brackets at the end, if any.
    std::optional<Bitboard> captured;
    if (const std::size_t open = text.find('['); open != std::string_view::npos) {
        if (text.back() != ']') return MoveMatch::malformed;
        const std::string_view list = text.substr(open + 1, text.size() - open - 2);
        text = text.substr(0, open);
        if (!looks_like_capture_list(list)) return MoveMatch::malformed;
        Bitboard set = 0;
        for (std::size_t start = 0; start <= list.size();) {
            const std::size_t comma = std::min(list.find(',', start), list.size());
            const auto b = parse_square(v.info(), list.substr(start, comma - start));
            if (!b || (set & bit(*b))) return MoveMatch::malformed;
            set |= bit(*b);
            start = comma + 1;
        }
        captured = set;
    }
    std::vector<std::string_view> parts;
    if (!split_squares(text, parts)) return MoveMatch::malformed;
    std::vector<int> squares;
    for (std::string_view part : parts) {
        const auto b = parse_square(v.info(), part);
        if (!b) return MoveMatch::malformed;
        squares.push_back(*b);
    }
    MoveList moves;
    generate_legal_moves(v, p, moves);
    const GeometryTables& g = geometry_tables(v.info());
    int found = 0;
    for (const Move& m : moves) {
        if (m.from != squares.front() || m.to != squares.back()) continue;
        if (captured && m.captured != *captured) continue;
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
            return "'" + move +
                   "' is not a move (squares of the board joined by -, x or :, then perhaps the "
                   "captured squares in brackets)";
        case MoveMatch::illegal:
            return move + " is not a legal move in " + std::string(fen);
        case MoveMatch::ambiguous:
            return move + " is ambiguous in " + std::string(fen) +
                   " (give the squares its captures land on, e.g. 1x10x19, or the squares it "
                   "captures, e.g. 1x19[6,15])";
    }
    return "";
}

}  // namespace damas
