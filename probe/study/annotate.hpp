// Games annotated with the tablebase: `damas annotate` and the Python package's
// Tablebase.annotate both call this, so that they say the same thing.
//
// Owns: the replay of PDN games (rules/pdn.hpp) and what is said about them. A game starts at its
// [FEN] tag, else at the variant's initial position, with the move-limit counts at 0 (the count
// starts there); each move is matched against the legal moves, the counts are kept move by move
// (counters_after), and every position is probed: its value and DTW, and its value under the
// move-limit rules with the counts of the game. A position outside the tablebase (more pieces
// than its tables, or a class not in the folder) gets nothing. A move is marked when it changes
// the value for the side that plays it: `?` from a win to a draw, `??` from a win or a draw to a
// loss; the values compared are those under the move-limit rules when both positions have them
// (the rules the game is played by), else the pure ones.
//
// The annotated PDN keeps the game as written (tags, comments, variations; move numbers are
// written again) and adds: an [Annotator "damas annotate"] tag when the game has none, a comment
// on every position inside the tablebase, for the side it favours, right after the move that
// reaches it (the start position's before the first move):
//   {White wins, dtw 23, dtr 9}               the pure value and DTW, and the rules' dtr (plies
//                                             to the rule's goal) when they agree
//   {White wins, mtc 3}                       MTC in place of DTW where the class has it
//                                             (`damas gen --metric mtc`; no rule value)
//   {White wins, dtw 23; drawn by the 40-move king rule}   when the rules make it a draw
//   {draw}   {Black wins, game over}
// the marks (replacing a mark written on that move), and the game's summary as a last comment
// {damas: entered the tablebase after 41. 23-18 (White wins, dtw 17); 45. 23-18? throws the win
// away}; past annotate_max_marks_listed marked moves the summary gives their number only.
//
// A game streams: GameAnnotator takes its header, then its moves one by one, and hands the
// annotated PDN over as it grows; it keeps no move, so that memory does not grow with the game.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "limits/draw_rules.hpp"
#include "probe/probe.hpp"
#include "rules/pdn.hpp"

namespace damas {

// A position of a game inside the tablebase.
struct PositionValue {
    ProbeResult pure;                  // value and DTW (or MTC: pure.metric) for the side to move
    std::optional<RulesAnswer> rules;  // under the rules with the game's counts, when known
};

enum class MoveMark : std::uint8_t {
    none,
    mistake,  // "?": a win to a draw
    blunder,  // "??": a win or a draw to a loss
};
const char* mark_text(MoveMark m);  // "", "?", "??"

struct AnnotatedMove {
    std::string label;     // "12." or "12..."
    Color side;            // who played it
    std::string written;   // as the PDN has it
    std::string notation;  // as damas writes it (move_text, or with its captures when needed)
    Move move;
    Position after;
    RuleCounters counters_after;
    std::optional<PositionValue> value;  // of `after`; nullopt: outside the tablebase
    MoveMark mark = MoveMark::none;
};

struct AnnotatedGame {
    int number = 0;  // in the file, from 1
    // Collected by annotate_game only (GameAnnotator keeps none).
    std::string players;
    Position start;
    std::optional<PositionValue> start_value;
    std::vector<AnnotatedMove> moves;
    // Plies played when the game first stood inside the tablebase (0: at the start), if ever.
    std::optional<int> entered;
    bool marks_by_rules = false;  // some mark compared the values under the rules
    std::string rules_missing;    // the first missing rule table's hint (pure values only)
    std::string summary;          // one line: "game 3 (A vs B): entered the tablebase ..."
    std::string pdn;              // the annotated game (annotate_game; GameAnnotator hands it over)
};

// The marked moves the summary names; the rest are counted ("and 12 more marked moves").
inline constexpr int annotate_max_marks_listed = 100;

struct AnnotateOptions {
    Variant variant;
    Edition edition = Edition::seed;
    // The message of a probe that failed other than by a class not being in the folder;
    // probe_failure_message when empty.
    std::function<std::string(const Position&, ProbeStatus)> describe_failure;
};

// "White wins, dtw 23, dtr 9", "draw", ... (see the top of this file).
std::string value_comment(const PositionValue& v, Color side_to_move);

// One game annotated as it is read (number: its place in the file, for messages). Errors are
// damas::Error naming the game: a move that is not legal (and its move number), a [FEN] tag that
// does not parse, a [GameType] of another variant or none known, a table that is damaged or
// unreadable. With tb null the game is only checked: its moves are matched and played, nothing
// is probed and no PDN is written (`damas annotate` checks a whole file so before it writes).
class GameAnnotator {
  public:
    // header: the game's tags, comments before its first move and first move number (its moves
    // and result are not read). Checks [GameType], starts from [FEN] and probes the start.
    GameAnnotator(const Tablebase* tb, const AnnotateOptions& o, const PdnGame& header, int number);
    ~GameAnnotator();
    GameAnnotator(const GameAnnotator&) = delete;
    GameAnnotator& operator=(const GameAnnotator&) = delete;

    // The game's next move: matched, played, probed, marked, and written to the PDN.
    const AnnotatedMove& play(const PdnMove& written);
    // The game's end: the summary, and the rest of the PDN.
    void finish(const std::string& result);
    // The game so far (its moves not kept; the summary once finished).
    const AnnotatedGame& game() const;
    // The annotated PDN written since the last call.
    std::string take_pdn();

  private:
    class Replay;
    std::unique_ptr<Replay> replay_;
};

// Annotates one game whole, its moves and PDN collected. Thread-safe.
AnnotatedGame annotate_game(const Tablebase& tb, const AnnotateOptions& o, const PdnGame& game,
                            int number);
std::vector<AnnotatedGame> annotate_games(const Tablebase& tb, const AnnotateOptions& o,
                                          const std::vector<PdnGame>& games);

}  // namespace damas
