// Probing under the move-limit draw rules: Tablebase::probe_rules (declared in probe.hpp, defined
// in limits_probe.cpp), the count at a position, the counts after a move (kept move by move by
// `damas best`, `line` and `annotate`).
//
// Owns: the search under the rules over the pure tables (wdl, dtw) and the dtr tables
// (table/format.hpp; gen/limits/rule_generate writes them), all read through the Tablebase's one
// registry of open files. The counts are turned into the plies r the binding count has left
// (limits/draw_rules.hpp); at a quiet position the side to move wins under the rules iff its dtr
// value is a win at distance <= r (loses likewise); a position where the side to move must
// capture is not stored and is searched capture by capture, each capture changing the count as
// the rules say.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>

#include "limits/draw_rules.hpp"
#include "probe/probe.hpp"
#include "rules/error.hpp"

namespace damas {

// Why a class generated with --metric mtc has no rule value: the rule tables are made from dtw
// files (damas gen-rules), which it has not.
inline constexpr char mtc_rules_missing[] =
    "the move-limit rules need the class's dtw file; it has mtc";

// Thrown by study::rule_class_stats (probe/study/class_stats.hpp) when a rule table (.dtr,
// .dtr-fmjd, .dtr-forcada) is not in the folder: `damas gen-rules` has not been run for its class
// (a damaged file is a plain Error).
struct MissingRuleTable : Error {
    MissingRuleTable(const std::filesystem::path& file, Material m);
    std::filesystem::path path;
    Material material;
};

// The count in force at p with the counts given: its regime, the plies it has left and the gap
// between two counts (limits/draw_rules.hpp), or why no game reaches those counts.
struct CountAt {
    CountState state;
    // Portuguese 1 king against 1 with the forcada running and RuleCounters::forcada_side not
    // given: which king was the lone one decides whether the forcada's 12 moves end 23 or 24
    // plies after its start; `state` takes the side to move at the start to have had the lone
    // king (24 plies), this the other one (23).
    std::optional<CountState> alternative;
    std::string unreachable;  // empty: a game reaches these counts
};
CountAt count_at(const DrawRules& rules, const Position& p, const RuleCounters& counters);

// Counts as a user states them (the CLI's options, the server's parameters, Python's
// arguments); an unset one is not given.
struct StatedCounts {
    int plies_since_capture = 0;
    int plies_in_ending = 0;
    std::optional<int> forcada_plies;
    std::optional<std::string> forcada_side;  // "white" or "black"
};
// The counters they state for a position of variant v. Throws Error with the reason where they
// cannot be: a negative count, a forcada count outside portuguese, a side that is not a colour.
RuleCounters counters_stated(Variant v, const StatedCounts& s);

// The counts after a move from `before` to `after` (captures and man moves restart the
// king-move count, captures and promotions the ending count; the forcada count runs once the
// three kings hold the long diagonal, through the lone king's captures, and keeps its side).
RuleCounters counters_after(const DrawRules& rules, const Position& before, const Move& m,
                            const Position& after, const RuleCounters& c);

}  // namespace damas
