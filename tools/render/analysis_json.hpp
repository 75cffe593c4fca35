// The JSON of the study commands and the explorer: `damas probe/best/line --json` and
// `damas serve`'s /api/v1/{variant}/position write a position's analysis with the same keys.
//
// Owns: the key names. A value is "win", "draw" or "loss"; its distance ("dtw", or "dtr" under
// the move-limit rules) is a number of plies for a win or a loss (0: the game is over) and null
// for a draw. Moves carry the value for the side that plays them, counting the move.
#pragma once

#include <nlohmann/json.hpp>

#include "probe/limits_probe.hpp"
#include "probe/probe.hpp"
#include "probe/study/class_stats.hpp"
#include "probe/study/root_analysis.hpp"

namespace damas::cli {

// Keys in the order written.
using Json = nlohmann::ordered_json;

// The study of positions (probe/study/), as the command line and the server print it.
using study::ClassStats;
using study::RootAnalysis;
using study::RootMove;
using study::RootQuery;

// The key of a distance: "dtw", or "mtc" where the class holds MTC (ProbeResult::metric), so
// that no reader takes one for the other.
inline const char* distance_key(Metric m) {
    return m == Metric::mtc ? "mtc" : "dtw";
}
// The distance of a value: plies for a win or a loss, null for a draw (or an unknown value).
inline Json distance_json(Value v, int plies) {
    return v == Value::win || v == Value::loss ? Json(plies) : Json(nullptr);
}

// The class whose table holds p (the tables store White to move), e.g. "0201".
std::string class_of(Variant v, const Position& p);

// The answer under the rules: edition, value, dtr, count, plies_left, differs, exact, summary.
Json rules_json(const DrawRules& rules, const RulesAnswer& a);

// The counts after a move: plies_since_capture, plies_in_ending (and forcada_plies once it runs).
Json counts_json(const RuleCounters& c);

// A move of the root analysis: move, from, to, captured, fen_after, value, dtw, counts_after,
// rules {value, dtr} (when the rule tables are there).
Json move_json(Variant v, const RootMove& m);

// The analysis of a position: variant, fen, class, value, dtw, game_over, rules (or
// rules_missing, when the variant has rules), moves (best first).
Json root_json(Variant v, const Position& p, const RootQuery& q, const RootAnalysis& a);

// `damas stats --json`'s object for a class (without the longest wins).
Json stats_json(const ClassStats& s, const DrawRules& rules);

}  // namespace damas::cli
