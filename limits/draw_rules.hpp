// The move-limit draw rules of shared/RULES.md ("Draw rules with move limits", "How the counts
// are kept") as data, and the one place that says how a move changes the counts.
//
// Owns: per variant (and, for international, per edition) the king-move limit and the table of
// limited endings; which count a position is under (its Regime); what a move does to the plies
// the count has left (Transition). The generator (gen/limits/rule_solver) and the probe
// (probe/limits_probe) both follow this file, so they cannot disagree.
//
// The model. Every count is "plies used" against a limit in plies (N moves = 2N plies). In any
// game the counts that run at once keep one order (see below), so a state of the game is a
// position, its regime and one number: the plies `r` the binding count has left (and, in one
// case, the gap between two counts). A position is drawn when r == 0 and the side to move can
// still move; a move that ends the game needs r >= 1.
//  * king_moves: c = plies since the last capture or man move, r = king_limit - c.
//  * ending: e = plies since the current ending (a row of the table) began, r = row limit - e.
//    The king-move count also runs, but an ending begins with a capture or a promotion (c = 0
//    too), whatever restarts e restarts c, and every row's limit is at most the king-move
//    limit, so e binds for the whole ending. Counts with c > e no game reaches (the probe refuses
//    them: probe/limits_probe.hpp, count_at).
//  * forcada_waiting / forcada_running: portuguese 3 kings against 1 king before and after the
//    three kings have occupied the long diagonal 1-32. Waiting: r = king_limit - c. Running:
//    r = min(king_limit - c, forcada limit - f). The forcada limit is the three-king side's 12th
//    move: 24 plies if the count started with the lone king to move, 23 if the three kings were
//    to move. S002 3.2.1b: "o jogo nao seja ganho ate 12 lances": the game must be won within
//    them, so once started the forcada count runs to the end of the game, through the lone
//    king's captures (3K v 1K -> 2K v 1K -> 1K v 1K: forcada_running in those classes too,
//    forcada_runs_on). Such a capture restarts the king-move count (40 plies), which then can
//    no longer bind before the forcada's (at most 24). Where the forcada's count has no more
//    plies left than the king-move count's, r = the forcada's (dtr-forcada). Where it has g
//    more (the three kings waited more than 16 plies before occupying the diagonal; both counts
//    then run together, so g stays until a capture), a sacrifice that restarts the king-move
//    count lets them win after it would have run out: the state is (position, r = king-move
//    plies left, gap g), g = 1..23 (dtr-forcada-gaps, one table per gap; beyond 23 the
//    king-move count has no ply left). After the lone king's capture, r = the forcada's
//    plies left and g = 0 (count_after). In 2K v 1K and 1K v 1K the capture came after the
//    start, so the king-move count is the younger: counts with c >= f there no game reaches.
// A move keeps the count (continue_count: r - 1), restarts it (fresh: r = F, whatever was left)
// or starts a second count while the first runs on (capped: r = min(r - 1, F), only the start
// of the forcada).
//
// Choices where RULES.md leaves room, each one named value:
//  * a capture or promotion that stays inside the same row (russian 4K v 1K -> 3K v 1K,
//    international 2K+M v K -> 3K v K) does not restart the ending count: RULES.md
//    restarts it when "the material moves to a different ending of the table", and a row is one
//    ending (capture_inside_row_restarts). International's rows are one ending each (S000 6.3,
//    6.4 name one ending with alternatives); brazilian's five 5-move endings are five rows
//    (S001 lists them one per line), so 2K v 2K -> 2K v 1K starts a fresh 5-move count;
//  * giveaway variants keep their base variant's draw rules: the rule texts give only the
//    result reversal (giveaway_keeps_draw_rules);
//  * russian "3 or more kings": the strong side has kings only (no men), the lone side one king.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "index/material.hpp"
#include "rules/move.hpp"
#include "rules/position.hpp"
#include "rules/variant.hpp"
#include "table/format.hpp"

namespace damas {

namespace uncertain {
inline constexpr bool capture_inside_row_restarts = false;
inline constexpr bool giveaway_keeps_draw_rules = true;
}  // namespace uncertain

// International's limited endings exist in two editions (RULES.md, S000 6.3).
enum class Edition : std::uint8_t {
    seed,  // the seed text: 3 pieces against 1 king, 10 moves
    fmjd,  // FMJD's current text: 16 moves
};
std::optional<Edition> parse_edition(std::string_view name);  // "seed" / "fmjd"
const char* edition_name(Edition e);

// One side's pieces in a row of the table.
struct SideCount {
    int men = 0;
    int kings = 0;
    bool kings_or_more = false;  // russian: "3 or more kings"
    bool matches(int m, int k) const {
        return men == m && (kings_or_more ? k >= kings : k == kings);
    }
};

enum class RowKind : std::uint8_t { ending, forcada };

// A row of the table: the material it covers (either colour may be either side), its limit.
struct EndingRow {
    std::string name;  // "2 kings, 1 king + 1 man or 1 king against 1 king"
    std::string rule;  // "the 5-move rule"
    RowKind kind = RowKind::ending;
    int limit_plies = 0;  // forcada: 24 (the three-king side's 12 moves)
    std::vector<std::pair<SideCount, SideCount>> materials;
    bool covers(Material m) const;
};

struct DrawRules {
    Variant variant;
    Edition edition = Edition::seed;
    int king_limit_plies = 0;  // 0: no king-move rule (italian, turkish)
    std::vector<EndingRow> rows;

    bool any() const { return king_limit_plies > 0 || !rows.empty(); }
    // The row covering m, or nullptr.
    const EndingRow* row_of(Material m) const;
    bool has_forcada() const;
    // Whether a started forcada can run on in class m after the lone king's captures (S002
    // 3.2.1b: the game must be won within the 12 moves): 2 kings against 1, 1 king against 1.
    bool forcada_runs_on(Material m) const;
    // The dtr metric holding this edition's values ("waiting" values for forcada classes).
    Metric metric() const { return edition == Edition::fmjd ? Metric::dtr_fmjd : Metric::dtr; }
};

// The rules of a variant; throws Error for the fmjd edition of a variant other than
// international.
DrawRules draw_rules(Variant v, Edition e = Edition::seed);

// Plies counted as "no limit" (variants without rules).
inline constexpr int unlimited_plies = 1 << 14;

enum class Regime : std::uint8_t { king_moves, ending, forcada_waiting, forcada_running };

// Portuguese forcada: the long diagonal 1-32 (h1-a8) of the portuguese board.
Bitboard forcada_diagonal();
// Whether the three-king side of a forcada position has a king on the long diagonal.
bool forcada_diagonal_occupied(const Position& p);
// The forcada limit for a count that starts at p: 24 plies if the lone king is to move, else 23.
int forcada_limit_from(const Position& p);
// The same for a count that started `plies_since_start` plies before p. The three-king side is
// the side with more kings; in 1 king against 1 (forcada_start_ambiguous) the lone king's side
// is unknown and is taken to be the side that was to move at the start (24 plies).
int forcada_limit_from(const Position& p, int plies_since_start);
// The same when the side with the three kings at the start, `kings_side`, is known.
int forcada_limit_from(const Position& p, int plies_since_start, Color kings_side);
bool forcada_start_ambiguous(const Position& p);
// The side with more kings: the three-king side of 3 kings against 1, and of 2 kings against 1
// after the lone king's capture (in 1 king against 1, Black: see forcada_start_ambiguous).
Color forcada_kings_side(const Position& p);

// The regime of a position reached with a fresh count (after a capture or a promotion, or at
// the start of a count), and the plies it then has left.
struct CountState {
    Regime regime = Regime::king_moves;
    int plies_left = 0;
    // forcada_running in 3 kings against 1: the forcada's count has `gap` plies more left than
    // the king-move count, whose plies plies_left is (0: the forcada's count binds).
    int gap = 0;
};
CountState fresh_count(const DrawRules& rules, const Position& p);

struct Transition {
    enum class Kind : std::uint8_t { continue_count, fresh, capped } kind = Kind::continue_count;
    Regime regime = Regime::king_moves;  // of the position after the move
    int limit = 0;                       // fresh: plies left after the move; capped: the cap
};
// What the move from `before` (with regime `regime`) to `after` does to the count. `after`
// still has pieces of both colours (else the game is over and no count matters).
Transition transition(const DrawRules& rules, const Position& before, Regime regime,
                      const Move& move, const Position& after);
// The plies left after a transition, from the plies left before the move.
int plies_left_after(const Transition& t, int plies_left_before);
// The count after a move of transition t (`capture`: the move captures) from `before`, the gap
// kept: a capture in a gap state restarts the king-move count, so the forcada's binds after it.
CountState count_after(const Transition& t, const CountState& before, bool capture);
// The forcada state whose king-move count has king_left plies and the forcada's forcada_left:
// r the smaller, with the gap where the king-move count is the smaller (at most forcada_gaps;
// beyond, the king-move count has no ply left).
CountState forcada_running_state(int king_left, int forcada_left);

// The regimes a class's positions can have: forcada classes have two, every other one.
std::vector<Regime> regimes_of(const DrawRules& rules, Material m);

// Whether a quiet position p is decided under the rules when its count starts at p: its dtr
// value in the regime of its fresh count (dtr[slot][index], the slot of that regime in
// `regimes`) is a win or a loss within the plies that count leaves. A pure win that is not
// decided so is one the rules draw (`damas gen-rules` and `damas stats` count them).
bool decided_by_fresh_count(const DrawRules& rules, const Position& p,
                            const std::vector<Regime>& regimes,
                            const std::vector<std::vector<std::uint16_t>>& dtr,
                            std::uint64_t index);
// The metric whose file holds a regime's values; with a gap (CountState::gap), the gap tables.
Metric metric_of(const DrawRules& rules, Regime r, int gap = 0);
// The metrics of class m's rule files: its regimes', and for 3 kings against 1 king in
// portuguese the gap tables (dtr-forcada-gaps).
std::vector<Metric> rule_metrics(const DrawRules& rules, Material m);
bool has_forcada_gaps(const DrawRules& rules, Material m);

// "the 25-move king rule", "the 5-move rule": the count a regime is under, for messages.
std::string count_name(const DrawRules& rules, Material m, Regime r);
// The same for a count state: with a gap, "the 20-move king rule, the forcada 8 plies later".
std::string count_name(const DrawRules& rules, Material m, const CountState& s);

}  // namespace damas
