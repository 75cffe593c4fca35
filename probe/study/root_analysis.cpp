// The root analysis (see root_analysis.hpp).
#include "probe/study/root_analysis.hpp"

#include "index/material.hpp"
#include "probe/messages.hpp"

namespace damas::study {

RootAnalysis analyse_root(const Tablebase& tb, Variant v, const Position& p, const RootQuery& q) {
    RootAnalysis a;
    a.root = tb.probe_distance(v, p);
    if (!a.root.ok()) return a;
    a.game_over = a.root.value != Value::draw && a.root.plies == 0;
    if (q.rules.any() && a.root.metric == Metric::mtc) {
        // The rule tables are made from dtw files (damas gen-rules), which an mtc class has not.
        a.rules_missing = mtc_rules_missing;
    } else if (q.rules.any()) {
        const RulesResult r = tb.probe_rules(q.rules, p, q.counters);
        if (r.ok()) {
            a.rules = r.answer;
        } else if (r.status == ProbeStatus::unreachable_counts) {
            a.root.status = r.status;  // no value to give: the request is impossible
            return a;
        } else if (r.status == ProbeStatus::no_rule_table) {
            a.rules_missing = missing_rule_table_hint(tb, q.rules, p, r.missing_table);
            a.missing_rule_table = r.missing_table;
        } else {
            a.rules_missing = probe_status_name(r.status);
        }
    }
    if (a.game_over) return a;
    std::vector<damas::RootMove> moves;
    // A class after a promotion or a capture may lack its rule table: that move then shows no
    // rule value, the others keep theirs.
    const ProbeStatus status =
        tb.probe_root(v, p, moves, a.rules ? &q.rules : nullptr, q.counters, true);
    if (status != ProbeStatus::ok) {
        a.root.status = status;  // a class a move leads to is missing or damaged
        return a;
    }
    for (damas::RootMove& m : moves) {
        const RuleCounters counters = counters_after(q.rules, p, m.move, m.after, q.counters);
        a.moves.push_back({m.move, std::move(m.notation), m.after, m.result, m.rule, counters});
    }
    return a;
}

}  // namespace damas::study
