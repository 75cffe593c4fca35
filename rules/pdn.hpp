// PDN games: the game text of PDN 3.0 files read into games and written back, game by game and
// move by move, and the legal move a PDN move names.
//
// Owns: the game model `damas annotate` needs, no more. Reading and writing stream: PdnReader
// holds one game's tags and one move at a time, PdnWriter one line, so that a game of millions
// of plies is read and written in bounded memory. A file is a list of games; a game is its
// tag pairs ([Event "..."], [FEN "W:..."], ...), the main line's moves as written, and the text
// that follows each move up to the next one (comments {...}, ; comments, variations (...),
// NAGs $n) kept verbatim so that writing the game back loses none of it (a one-line comment too
// long for its line is broken between its words, where PDN allows). Move numbers are not
// kept: the writer numbers the moves again from the first number written (PDN: a full move
// begins with the variant's first player's move, `1.`; the other side's move opens with `1...`
// after a comment). Marks written on a move (! ? !! ?? !? ?!) are kept apart from its squares.
// Read leniently, as games are typed by hand: moves with `-`, `x` or `:` between any of their
// squares, move numbers glued to moves ("1.11-15"), a game without tags, a game ended by the
// next tag pair instead of a result; text after a result up to the next game is left out.
// A move may end with its captured squares in brackets, "28x19[23,32]", as damas prints a
// capture that shares its from and to squares with another (rules/notation.hpp): a bracket after
// a move that holds squares, not a name and a quoted value, is read as part of the move.
#pragma once

#include <istream>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "rules/error.hpp"
#include "rules/move.hpp"
#include "rules/position.hpp"
#include "rules/variant.hpp"

namespace damas {

// Malformed PDN; the message starts with "line N: ".
struct PdnError : Error {
    PdnError(int line, const std::string& what);
    int line;
};

struct PdnTag {
    std::string name;
    std::string value;  // unescaped
};

struct PdnMove {
    std::string text;                // "11-15", "18x11x4", "c3:e5", as written, without marks
    std::string mark;                // "!", "?", "!?", ... as written, or empty
    std::vector<std::string> after;  // "{a comment}", "(a variation)", "$2", in order
    int line = 0;                    // where the move is written
};

struct PdnGame {
    std::vector<PdnTag> tags;
    std::vector<std::string> before;  // comments before the first move
    std::vector<PdnMove> moves;       // the main line
    int first_number = 1;             // the number written before the first move
    std::string result;               // "2-0", "1-1", "0-2", "1-0", "0-1", "*", or empty
    int line = 0;                     // where the game starts

    // The value of the first tag of that name (any case), or nullopt.
    std::optional<std::string> tag(std::string_view name) const;
    // "White vs Black" from the White and Black tags (an unknown player as "?"), or empty.
    std::string players() const;
};

// The move number label of a ply: "12." for the first player's moves, "12..." for the other's.
struct PdnNumber {
    int number = 1;
    bool first_player = true;
    std::string label() const;
    void next();
};

// What one game may hold at a time, so that a hostile file cannot grow the reader without bound:
// tag pairs in a game, and comments, variations and NAGs before its first move or after a move.
// Beyond them, PdnError.
inline constexpr int pdn_max_tags = 10'000;
inline constexpr int pdn_max_items = 10'000;

// The games of a PDN text, read as they come. next_game gives a game's header (tags, comments
// before its first move, the first move number, its line; `moves` and `result` empty), then
// next_move each of its moves with what follows it, until next_move returns false: the game has
// ended, and result() is its result. Throws PdnError for text that is no PDN (an unclosed
// comment or variation, a malformed tag pair, a token that is neither a move, a move number nor
// a result) when the reading reaches it. Holds one game's header and a move or two.
class PdnReader {
  public:
    explicit PdnReader(std::istream& in);       // in must outlive the reader
    explicit PdnReader(std::string_view text);  // so must text
    ~PdnReader();
    PdnReader(const PdnReader&) = delete;
    PdnReader& operator=(const PdnReader&) = delete;

    // The next game's header; false when the text has no more games. The moves of the game
    // before, if next_move did not reach its end, are skipped.
    bool next_game(PdnGame& header);
    // The game's next move; false at its end.
    bool next_move(PdnMove& move);
    // The result of the game whose end next_move reached ("2-0", ..., "*", or empty).
    const std::string& result() const { return result_; }

  private:
    class Parser;
    std::unique_ptr<Parser> parser_;
    std::string result_;
};

// Every game of a PDN text, whole (PdnReader's games with their moves and results).
std::vector<PdnGame> read_pdn(std::string_view text);

// A game written as PDN as it is played: the tag pairs, an empty line, the movetext (numbered
// from first_number, the first move by the variant's first player iff
// first_move_by_first_player) in lines of at most 79 characters where its tokens allow, the
// result, and an empty line. take() hands over the text written so far (whole lines until
// finish), so that a long game never is one string.
class PdnWriter {
  public:
    // header's tags and comments before the first move (its moves are not written).
    PdnWriter(const PdnGame& header, bool first_move_by_first_player);
    ~PdnWriter();
    PdnWriter(PdnWriter&&) noexcept;
    PdnWriter& operator=(PdnWriter&&) noexcept;

    void move(const PdnMove& m);           // the move, its number when it needs one, its items
    void item(std::string_view item);      // a comment, variation or NAG after the last move
    void finish(std::string_view result);  // the result ("*" when empty) and the empty line
    std::string take();

  private:
    class Lines;
    void item_after(std::string_view item);
    std::unique_ptr<Lines> lines_;
    PdnNumber number_;
    bool numbered_ = false;  // the next move needs no number of its own
};

// The game as PDN (PdnWriter over the whole game).
std::string write_pdn(const PdnGame& game, bool first_move_by_first_player);

// The legal move of p that a PDN move names: its squares separated by '-', 'x' or ':' (any of
// them for any move), the first the square it leaves, the last the square it reaches, and any in
// between the squares a capture lands on, each leg taking one piece; then, optionally, the
// squares it captures in brackets, in any order ("28x19[23,32]", as move_text_with_captures
// writes them). From and to alone suffice when one legal move has them. The one reader of moves:
// annotate, the svg command and the explorer's server all read moves through it.
enum class MoveMatch { found, malformed, illegal, ambiguous };
MoveMatch match_pdn_move(const Variant& v, const Position& p, std::string_view text, Move& out);

// Why a move did not match, for an error message: "22-18 is not a legal move in B:W18:B11,K3",
// "15x24 is ambiguous in ... (give the squares its captures land on)", "'2z-1' is not a move".
std::string move_match_problem(MoveMatch m, std::string_view text, std::string_view fen);

}  // namespace damas
