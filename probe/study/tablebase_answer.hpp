// A position's answer in the shape of lichess's tablebase API (lichess-org/lila-tablebase,
// src/response.rs and src/tablebases.rs): the category of the position for the side to move,
// its signed DTW, and every legal move with the category of the position it leads to, for the
// opponent who moves there, in lichess's order (best first).
//
// Owns: the categories and the order. A category is lichess's word for a value under the
// move-limit draw rules (limits/draw_rules.hpp), lichess's 50-move rule here:
//   win, loss           the pure value, and the rules agree;
//   cursed-win          a pure win that the rules draw with the counts given;
//   blessed-loss        a pure loss that the rules draw;
//   maybe-win/-loss     a pure win (loss) whose value under the rules is not exact
//                       (RulesAnswer::exact: portuguese 1 king against 1 with the forcada's side
//                       not given);
//   draw;
//   unknown             a class the answer needs is not in the folder.
// A variant without move-limit rules, or whose rule tables are missing, has the pure categories.
// The DTW is signed as lichess signs dtm and dtw: plies to the end of the game, positive when the
// side to move wins, negative when it loses, 0 for a draw and for a game already over; nullopt
// when unknown. A class generated with --metric mtc has its MTC (plies to the next capture or man
// move, or the end of the game: lichess's dtc) signed the same way in `mtc`, and no DTW. A move's
// values are those of the position after it, for the opponent (lichess's convention): the best move
// leads to a "loss".
//
// Each move's values are probed at the position it leads to, with the counts after the move
// (counters_after): a second method beside Tablebase::probe_root's, which the /api/v1 answer
// uses, so the two answers check each other (tests/serve/test_serve_tablebase_api.cpp).
#pragma once

#include <array>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "probe/limits_probe.hpp"
#include "probe/probe.hpp"
#include "probe/study/root_analysis.hpp"
#include "rules/move.hpp"

namespace damas::study {

// lichess's categories in its order for sorting moves (PessimisticUnknown: an unknown result
// ranks just above a loss). lichess's syzygy-win and syzygy-loss (DTZ rounding) have no analogue.
enum class Category : std::uint8_t {
    loss,
    unknown,
    maybe_loss,
    blessed_loss,
    draw,
    cursed_win,
    maybe_win,
    win,
};
const char* category_name(Category c);  // "cursed-win", ...
Category opposite(Category c);          // for the other side: win <-> loss, cursed <-> blessed
bool is_positive(Category c);           // a win of any kind for the side to move

// The category of a value for the side to move, from its pure value and, when the rule tables
// answered, its answer under the rules.
Category category_of(const ProbeResult& pure, const std::optional<RulesAnswer>& rules);

struct TablebaseMove {
    Move move;
    std::string notation;  // PDN, as `damas best` prints it (move_notation)
    std::string uci;       // move_uci (rules/notation.hpp)
    Position after;
    bool zeroing = false;     // a capture or a man move: restarts the king-move count
    bool conversion = false;  // a capture or a crowning: changes the material
    // At the position after the move, for the side to move there:
    ProbeResult pure;                  // not_in_database: unknown
    std::optional<RulesAnswer> rules;  // when the rule tables answered
    bool game_over = false;            // the game ends with the move
    Category category = Category::unknown;
    std::optional<int> dtw;  // signed (see the top of the file)
    std::optional<int> mtc;  // signed, where the class has MTC
};

struct TablebaseAnswer {
    // ok, or the first failure that is not a missing class (a damaged file, counts that no game
    // reaches): the rest is then empty.
    ProbeStatus status = ProbeStatus::ok;
    ProbeResult root;  // not_in_database: unknown
    std::optional<RulesAnswer> rules;
    // When the variant has rules and a rule table the answer needs is missing: which (the server
    // says so without the folder), and that the categories are the pure ones where it is missing.
    std::filesystem::path missing_rule_table;
    bool rules_missing = false;
    bool game_over = false;  // no legal move, or the game is over by a rule (turkish)
    Category category = Category::unknown;
    std::optional<int> dtw;
    std::optional<int> mtc;
    std::vector<TablebaseMove> moves;  // lichess's order; empty when the game is over
};

// The answer at p with the counts of q. The root's category is its own; when its class is
// missing, the opposite of the best move's (lichess takes the best move's always: where both are
// known they are equal, and where a rule table of a move is missing the root's own is exact).
// Thread-safe (the engine is).
TablebaseAnswer tablebase_answer(const Tablebase& tb, Variant v, const Position& p,
                                 const RootQuery& q);

// lichess's sort key of a move (MoveInfo::sort_key), as a tuple compared lexicographically,
// smaller first: the category; a move that ends the game by winning first; the DTW tightened
// (lichess's tightening_metric_sort_key: the opponent's losses by fewest plies, then draws and
// unknowns, then its wins by most plies); then, when the mover is not losing, conversions and
// zeroing moves first (when losing, last). The distance is the DTW, or the MTC where the class
// has MTC. lichess's last key, captures first, is constant in
// draughts (captures are compulsory); moves equal in every key keep the order of the squares.
std::array<int, 6> lichess_sort_key(const TablebaseMove& m);

}  // namespace damas::study
