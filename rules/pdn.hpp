// PDN games: the game text of PDN 3.0 files read into games and written back, and the legal move
// a PDN move names.
//
// Owns: the game model `damas annotate` needs, no more. A file is a list of games; a game is its
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
#pragma once

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

// Every game of a PDN text; throws PdnError for text that is no PDN (an unclosed comment or
// variation, a malformed tag pair, a token that is neither a move, a move number nor a result).
std::vector<PdnGame> read_pdn(std::string_view text);

// The game as PDN: the tag pairs, an empty line, the movetext (numbered from first_number, the
// first move by the variant's first player iff first_move_by_first_player) in lines of at most
// 79 characters where its tokens allow, the result, and an empty line.
std::string write_pdn(const PdnGame& game, bool first_move_by_first_player);

// The move number label of a ply: "12." for the first player's moves, "12..." for the other's.
struct PdnNumber {
    int number = 1;
    bool first_player = true;
    std::string label() const;
    void next();
};

// The legal move of p that a PDN move names: its squares separated by '-', 'x' or ':' (any of
// them for any move), the first the square it leaves, the last the square it reaches, and any in
// between the squares a capture lands on, each leg taking one piece. From and to alone suffice
// when one legal move has them.
enum class MoveMatch { found, malformed, illegal, ambiguous };
MoveMatch match_pdn_move(const Variant& v, const Position& p, std::string_view text, Move& out);

// Why a move did not match, for an error message: "22-18 is not a legal move in B:W18:B11,K3",
// "15x24 is ambiguous in ... (give the squares its captures land on)", "'2z-1' is not a move".
std::string move_match_problem(MoveMatch m, std::string_view text, std::string_view fen);

}  // namespace damas
