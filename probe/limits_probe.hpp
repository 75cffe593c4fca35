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

#include "probe/probe.hpp"
#include "rules/error.hpp"
#include "limits/draw_rules.hpp"

namespace damas {

// Thrown by study::rule_class_stats (probe/study/class_stats.hpp) when a rule table (.dtr, .dtr-fmjd, .dtr-forcada) is not in the
// folder: `damas gen-rules` has not been run for its class (a damaged file is a plain Error).
struct MissingRuleTable : Error {
    MissingRuleTable(const std::filesystem::path& file, Material m);
    std::filesystem::path path;
    Material material;
};

// The count in force at p with the counts given: its regime, the plies it has left and the gap
// between two counts (limits/draw_rules.hpp), or why no game reaches those counts.
struct CountAt {
    CountState state;
    // Portuguese 1 king against 1 with the forcada running: which king was the lone one decides
    // whether the forcada's 12 moves end 23 or 24 plies after its start; `state` takes the side
    // to move at the start to have had the three kings, this the other one.
    std::optional<CountState> alternative;
    std::string unreachable;  // empty: a game reaches these counts
};
CountAt count_at(const DrawRules& rules, const Position& p, const RuleCounters& counters);

// The counts after a move from `before` to `after` (captures and man moves restart the
// king-move count, captures and promotions the ending count; the forcada count runs once the
// three kings hold the long diagonal).
RuleCounters counters_after(const DrawRules& rules, const Position& before, const Move& m,
                            const Position& after, const RuleCounters& c);

}  // namespace damas
