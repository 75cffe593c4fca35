// The answer in lichess's shape (see tablebase_answer.hpp).
#include "probe/study/tablebase_answer.hpp"

#include <algorithm>

#include "rules/legal_moves.hpp"
#include "rules/movegen.hpp"
#include "rules/notation.hpp"

namespace damas::study {

const char* category_name(Category c) {
    switch (c) {
        case Category::loss:
            return "loss";
        case Category::unknown:
            return "unknown";
        case Category::maybe_loss:
            return "maybe-loss";
        case Category::blessed_loss:
            return "blessed-loss";
        case Category::draw:
            return "draw";
        case Category::cursed_win:
            return "cursed-win";
        case Category::maybe_win:
            return "maybe-win";
        case Category::win:
            return "win";
    }
    return "unknown";
}

Category opposite(Category c) {
    switch (c) {
        case Category::loss:
            return Category::win;
        case Category::maybe_loss:
            return Category::maybe_win;
        case Category::blessed_loss:
            return Category::cursed_win;
        case Category::cursed_win:
            return Category::blessed_loss;
        case Category::maybe_win:
            return Category::maybe_loss;
        case Category::win:
            return Category::loss;
        default:
            return c;  // draw, unknown
    }
}

bool is_positive(Category c) {
    return c == Category::cursed_win || c == Category::maybe_win || c == Category::win;
}

Category category_of(const ProbeResult& pure, const std::optional<RulesAnswer>& rules) {
    if (!pure.ok() || pure.value == Value::unknown) return Category::unknown;
    if (pure.value == Value::draw) return Category::draw;
    const bool win = pure.value == Value::win;
    if (!rules || rules->rule.value == pure.value) return win ? Category::win : Category::loss;
    if (!rules->exact) return win ? Category::maybe_win : Category::maybe_loss;
    return win ? Category::cursed_win : Category::blessed_loss;
}

namespace {

std::optional<int> signed_distance(const ProbeResult& r);

// The distance of r signed (see tablebase_answer.hpp), in the field of its metric.
void set_distances(const ProbeResult& r, std::optional<int>& dtw, std::optional<int>& mtc) {
    dtw.reset();
    mtc.reset();
    (r.ok() && r.metric == Metric::mtc ? mtc : dtw) = signed_distance(r);
}

std::optional<int> signed_distance(const ProbeResult& r) {
    if (!r.ok()) return std::nullopt;
    switch (r.value) {
        case Value::win:
            return r.plies;
        case Value::loss:
            return -static_cast<int>(r.plies);
        case Value::draw:
            return 0;
        default:
            return std::nullopt;
    }
}

bool over(const ProbeResult& r) {
    return r.ok() && r.value != Value::draw && r.plies == 0;
}

// The value under the rules at p, when the rule tables answer; a missing table is recorded in
// `a`, a failure other than a missing class or rule table is returned.
ProbeStatus rules_at(const Tablebase& tb, const RootQuery& q, const Position& p,
                     const RuleCounters& counters, std::optional<RulesAnswer>& out,
                     TablebaseAnswer& a) {
    if (!q.rules.any()) return ProbeStatus::ok;
    const RulesResult r = tb.probe_rules(q.rules, p, counters);
    switch (r.status) {
        case ProbeStatus::ok:
            out = r.answer;
            return ProbeStatus::ok;
        case ProbeStatus::no_rule_table:
            a.rules_missing = true;
            if (a.missing_rule_table.empty()) a.missing_rule_table = r.missing_table;
            return ProbeStatus::ok;
        case ProbeStatus::not_in_database:
            return ProbeStatus::ok;  // unknown: the pure probe says so
        default:
            return r.status;
    }
}

}  // namespace

std::array<int, 6> lichess_sort_key(const TablebaseMove& m) {
    const bool ends_won = m.game_over && m.pure.value == Value::loss;
    const bool ends_lost = m.game_over && m.pure.value == Value::win;
    const int d = m.dtw ? *m.dtw : m.mtc.value_or(0);
    const bool losing = is_positive(m.category);  // the opponent wins after the move
    return {static_cast<int>(m.category),      ends_won ? 0 : ends_lost ? 2 : 1,
            d < 0 ? 0 : d > 0 ? 2 : 1,         -d,
            (m.conversion != !losing) ? 1 : 0, (m.zeroing != !losing) ? 1 : 0};
}

TablebaseAnswer tablebase_answer(const Tablebase& tb, Variant v, const Position& p,
                                 const RootQuery& q) {
    TablebaseAnswer a;
    const VariantInfo& vi = v.info();
    MoveList legal;
    generate_legal_moves(v, p, legal);

    a.root = tb.probe_distance(v, p);
    if (!a.root.ok() && a.root.status != ProbeStatus::not_in_database) {
        a.status = a.root.status;
        return a;
    }
    if (a.root.ok()) {
        if (const ProbeStatus s = rules_at(tb, q, p, q.counters, a.rules, a);
            s != ProbeStatus::ok) {
            a.status = s;
            return a;
        }
    }
    a.game_over = over(a.root) || legal.empty();
    set_distances(a.root, a.dtw, a.mtc);
    a.category = category_of(a.root, a.rules);
    if (legal.empty() && !a.root.ok()) {
        // No legal move: the game is over whatever the tables say (won in giveaway).
        a.category = v.giveaway ? Category::win : Category::loss;
        a.dtw = 0;
        a.mtc.reset();
    }
    if (a.game_over) return a;

    sort_by_square(vi, legal);
    for (const Move& m : legal) {
        TablebaseMove t;
        t.move = m;
        t.notation = move_notation(vi, m, legal);
        t.uci = move_uci(vi, m);
        t.after = make_move(p, m);
        t.zeroing = m.is_capture() || (p.kings & bit(m.from)) == 0;
        t.conversion = m.is_capture() || m.promotes;
        t.pure = tb.probe_distance(v, t.after);
        if (!t.pure.ok() && t.pure.status != ProbeStatus::not_in_database) {
            a.status = t.pure.status;
            return a;
        }
        if (t.pure.ok()) {
            // The rules at the root's side: without the root's rule value, none of the moves'.
            if (a.rules) {
                const RuleCounters c = counters_after(q.rules, p, m, t.after, q.counters);
                if (const ProbeStatus s = rules_at(tb, q, t.after, c, t.rules, a);
                    s != ProbeStatus::ok) {
                    a.status = s;
                    return a;
                }
            }
        }
        t.game_over = over(t.pure);
        t.category = category_of(t.pure, t.rules);
        set_distances(t.pure, t.dtw, t.mtc);
        a.moves.push_back(std::move(t));
    }
    std::stable_sort(a.moves.begin(), a.moves.end(),
                     [](const TablebaseMove& x, const TablebaseMove& y) {
                         return lichess_sort_key(x) < lichess_sort_key(y);
                     });
    // The root's own category when known; else the best move's, turned over (lichess's rule, so
    // a known win among unknown moves is a win).
    if (a.category == Category::unknown && !a.moves.empty())
        a.category = opposite(a.moves.front().category);
    return a;
}

}  // namespace damas::study
