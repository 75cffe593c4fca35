// The root analysis (see root_analysis.hpp).
#include "tools/root_analysis.hpp"

#include <algorithm>

#include "index/material.hpp"
#include "rules/movegen.hpp"
#include "rules/notation.hpp"

namespace damas::cli {
namespace {

// An outcome after a move, seen by the side that made it, counting the move.
Outcome for_mover(Outcome after) {
    if (after.value == Value::win)
        return {Value::loss, static_cast<std::uint16_t>(after.plies + 1)};
    if (after.value == Value::loss)
        return {Value::win, static_cast<std::uint16_t>(after.plies + 1)};
    return after;
}

// Best first: wins by shortest distance, then draws, then losses by longest distance.
int rank_key(Outcome o) {
    if (o.value == Value::win) return o.plies;
    if (o.value == Value::draw) return 100000;
    if (o.value == Value::loss) return 300000 - o.plies;
    return 400000;
}

std::string missing_hint(const std::filesystem::path& missing, const DrawRules& rules,
                         const Position& p, const Tablebase& tb) {
    std::string hint = "no rule table ";
    hint += missing.filename().string();
    hint += ": for the value under the move-limit draw rules run damas gen-rules -v ";
    hint += rules.variant.name();
    hint += " -p ";
    hint += std::to_string(Material::of(p).pieces());
    hint += " -d ";
    hint += tb.dir().string();
    if (rules.edition == Edition::fmjd) hint += " --edition fmjd";
    return hint;
}

}  // namespace

RuleCounters counters_after(const DrawRules& rules, const Position& before, const Move& m,
                            const Position& after, const RuleCounters& c) {
    const bool capture = m.is_capture();
    const bool man_move = (before.kings & bit(m.from)) == 0;
    RuleCounters n;
    n.plies_since_capture = capture || man_move ? 0 : c.plies_since_capture + 1;
    n.plies_in_ending = capture || m.promotes ? 0 : c.plies_in_ending + 1;
    const EndingRow* row = rules.row_of(Material::of(after));
    if (row && row->kind == RowKind::forcada && !capture && !m.promotes) {
        const bool started = c.forcada_started.value_or(false) || forcada_diagonal_occupied(before);
        if (started) {
            n.forcada_started = true;
            n.forcada_plies = c.forcada_plies + 1;
        }
        // Else the count starts when a king reaches the diagonal (count_at looks at `after`).
    }
    return n;
}

RootAnalysis analyse_root(const Tablebase& tb, Variant v, const Position& p, const RootQuery& q) {
    RootAnalysis a;
    a.root = tb.probe_dtw(v, p);
    if (!a.root.ok()) return a;
    a.game_over = a.root.value != Value::draw && a.root.plies == 0;
    if (q.rules.any()) {
        const RulesResult r = tb.probe_rules(q.rules, p, q.counters);
        if (r.ok())
            a.rules = r.answer;
        else if (r.status == ProbeStatus::no_rule_table)
            a.rules_missing = missing_hint(r.missing_table, q.rules, p, tb);
        else
            a.rules_missing = probe_status_name(r.status);
    }
    if (a.game_over) return a;
    MoveList moves;
    dispatch(v.base, [&](auto r) { MoveGenerator<decltype(r)>::generate(p, moves); });
    const VariantInfo& vi = v.info();
    sort_by_square(vi, moves);  // equal moves stay in this order below
    for (const Move& m : moves) {
        RootMove rm{m, "", make_move(p, m), {}, std::nullopt, {}};
        const bool ambiguous = std::any_of(moves.begin(), moves.end(), [&](const Move& o) {
            return !(o == m) && o.from == m.from && o.to == m.to;
        });
        rm.text = ambiguous ? move_text_with_captures(vi, m) : move_text(vi, m);
        const ProbeResult after = tb.probe_dtw(v, rm.after);
        if (!after.ok()) {
            a.root.status = after.status;  // a class a move leads to is missing or damaged
            a.moves.clear();
            return a;
        }
        const Outcome pure = for_mover({after.value, after.plies});
        rm.pure = {after.status, pure.value, pure.plies};
        rm.counters = counters_after(q.rules, p, m, rm.after, q.counters);
        if (a.rules) {
            // A class after a promotion may lack its rule table: that move shows none.
            const RulesResult r = tb.probe_rules(q.rules, rm.after, rm.counters);
            if (r.ok()) rm.rule = for_mover(r.answer.rule);
        }
        a.moves.push_back(rm);
    }
    std::stable_sort(a.moves.begin(), a.moves.end(), [](const RootMove& x, const RootMove& y) {
        const int px = rank_key({x.pure.value, x.pure.plies});
        const int py = rank_key({y.pure.value, y.pure.plies});
        if (px != py) return px < py;
        return rank_key(x.rule.value_or(Outcome{})) < rank_key(y.rule.value_or(Outcome{}));
    });
    return a;
}

}  // namespace damas::cli
