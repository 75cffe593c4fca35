#include "probe/limits_probe.hpp"

#include <algorithm>

#include "index/class_index.hpp"
#include "index/flip.hpp"
#include "probe/probe.hpp"
#include "rules/error.hpp"
#include "rules/notation.hpp"
#include "rules/printable.hpp"
#include "table/table_file.hpp"

namespace damas {
namespace {

// The best result for the side to move under the rules, move by move: a win takes the cheapest
// goal, a loss the dearest, any move that does not lose makes it at least a draw.
class BestRuleOutcome {
  public:
    void add(Outcome after, bool fresh) {
        const int cost = fresh ? 1 : after.plies + 1;
        if (after.value == Value::loss)
            win_ = std::min(win_, cost);
        else if (after.value == Value::win)
            loss_ = std::max(loss_, cost);
        else
            escape_ = true;
    }
    Outcome result() const {
        if (win_ < no_win) return {Value::win, static_cast<std::uint16_t>(win_)};
        if (escape_) return {Value::draw, 0};
        return {Value::loss, static_cast<std::uint16_t>(loss_)};
    }

  private:
    static constexpr int no_win = 1 << 20;
    int win_ = no_win, loss_ = 0;
    bool escape_ = false;
};

// Whether the forcada count runs at p with the counts c: in 3 kings against 1 once started (or
// with a king on the long diagonal), and after the lone king's captures once started.
bool forcada_running_at(const DrawRules& rules, const Position& p, const RuleCounters& c) {
    const Material m = Material::of(p);
    const EndingRow* row = rules.row_of(m);
    const bool started = c.forcada_started.value_or(false);
    if (row && row->kind == RowKind::forcada) return started || forcada_diagonal_occupied(p);
    return started && rules.forcada_runs_on(m);
}

// Whether a running forcada count runs on at p: a quiet move in 3 kings against 1, or the lone
// king's capture that leaves 2 kings or 1 against 1 (S002 3.2.1b: "incluindo o da captura").
bool forcada_runs_through(const DrawRules& rules, const Position& p) {
    const Material m = Material::of(p);
    const EndingRow* row = rules.row_of(m);
    return (row && row->kind == RowKind::forcada) || rules.forcada_runs_on(m);
}

// No negative count, and the forcada's counts only in portuguese.
bool counts_valid(const DrawRules& rules, const RuleCounters& c) {
    if (c.plies_since_capture < 0 || c.plies_in_ending < 0 || c.forcada_plies < 0) return false;
    const bool forcada = c.forcada_started.value_or(false) || c.forcada_plies > 0 || c.forcada_side;
    return !forcada || rules.variant.base == BaseVariant::portuguese;
}

}  // namespace

MissingRuleTable::MissingRuleTable(const std::filesystem::path& file, Material m)
    : Error("no rule table " + file.string() + " (run damas gen-rules)"), path(file), material(m) {}

std::string RulesAnswer::summary() const {
    std::string s = value_name(pure.value);
    if (!differs()) return s;
    s += ", ";
    s += rule.value == Value::draw ? "drawn by " : "under ";
    s += count;
    if (rule.value != Value::draw) {
        s += ": ";
        s += value_name(rule.value);
    }
    return s;
}

CountAt count_at(const DrawRules& rules, const Position& p, const RuleCounters& c) {
    CountAt at;
    const int kings = rules.king_limit_plies > 0 ? rules.king_limit_plies : unlimited_plies;
    const int king_left = kings - c.plies_since_capture;
    const Material m = Material::of(p);
    const EndingRow* row = rules.row_of(m);
    const bool forcada_started = c.forcada_started.value_or(false);
    CountState& s = at.state;
    s = {Regime::king_moves, king_left};
    if (row && row->kind == RowKind::ending) {
        if (c.plies_since_capture > c.plies_in_ending)
            at.unreachable =
                "the ending's count restarts whenever the king-move count does, so no game has "
                "more plies since the last capture or man move than in the ending";
        s = {Regime::ending, std::min(row->limit_plies - c.plies_in_ending, king_left)};
    } else if (row) {
        if (!forcada_started && !forcada_diagonal_occupied(p)) {
            s = {Regime::forcada_waiting, king_left};
        } else {
            if (c.forcada_plies > c.plies_since_capture)
                at.unreachable =
                    "3 kings against 1 begins with a capture or a promotion, which restart the "
                    "king-move count, so the forcada cannot have started before it";
            s = forcada_running_state(king_left,
                                      forcada_limit_from(p, c.forcada_plies) - c.forcada_plies);
        }
    } else if (forcada_started && rules.forcada_runs_on(m)) {
        // The forcada started in 3 kings against 1 and the lone king has captured since: its
        // count runs on (S002 3.2.1b) and binds (the capture restarted the king-move count).
        if (c.plies_since_capture >= c.forcada_plies)
            at.unreachable =
                "the lone king's capture that left 3 kings against 1 came after the forcada "
                "started, so fewer plies have passed since it than since the forcada's start";
        const auto running = [&](Color kings_side) {
            const int left = forcada_limit_from(p, c.forcada_plies, kings_side) - c.forcada_plies;
            return CountState{Regime::forcada_running, std::min(king_left, left)};
        };
        if (!forcada_start_ambiguous(p)) {
            s = running(forcada_kings_side(p));
        } else if (c.forcada_side) {
            s = running(*c.forcada_side);
        } else {  // 1 king against 1, the side not given: both answered, 24 plies first
            const Color to_move_at_start = c.forcada_plies % 2 == 0 ? p.side : ~p.side;
            s = running(~to_move_at_start);
            at.alternative = running(to_move_at_start);
        }
    }
    if (c.forcada_side && forcada_runs_through(rules, p) && !forcada_start_ambiguous(p) &&
        *c.forcada_side != forcada_kings_side(p))
        at.unreachable =
            "the forcada's side is the one with the three kings, which keeps more kings than the "
            "lone king until 1 king against 1";
    s.plies_left = std::max(0, s.plies_left);
    if (at.alternative) at.alternative->plies_left = std::max(0, at.alternative->plies_left);
    return at;
}

RuleCounters counters_stated(Variant v, const StatedCounts& s) {
    if (s.plies_since_capture < 0 || s.plies_in_ending < 0 || s.forcada_plies.value_or(0) < 0)
        throw Error("the plies counts must not be negative");
    RuleCounters c;
    c.plies_since_capture = s.plies_since_capture;
    c.plies_in_ending = s.plies_in_ending;
    if ((s.forcada_plies || s.forcada_side) && v.base != BaseVariant::portuguese)
        throw Error("the forcada is a portuguese rule (not " + v.name() + ")");
    if (s.forcada_plies) {
        c.forcada_started = true;
        c.forcada_plies = *s.forcada_plies;
    }
    if (s.forcada_side) {
        const std::string& side = *s.forcada_side;
        if (side != "white" && side != "black")
            throw Error(
                "the forcada's side is white or black (the side with the three kings), not '" +
                printable(side) + "'");
        c.forcada_side = side == "white" ? Color::white : Color::black;
    }
    return c;
}

RuleCounters counters_after(const DrawRules& rules, const Position& before, const Move& m,
                            const Position& after, const RuleCounters& c) {
    const bool capture = m.is_capture();
    const bool man_move = (before.kings & bit(m.from)) == 0;
    RuleCounters n;
    n.plies_since_capture = capture || man_move ? 0 : c.plies_since_capture + 1;
    n.plies_in_ending = capture || m.promotes ? 0 : c.plies_in_ending + 1;
    if (forcada_running_at(rules, before, c) && forcada_runs_through(rules, after)) {
        n.forcada_started = true;
        n.forcada_plies = c.forcada_plies + 1;
        n.forcada_side = forcada_start_ambiguous(before)
                             ? c.forcada_side
                             : std::optional<Color>(forcada_kings_side(before));
    }
    // Else a forcada starts when a king reaches the diagonal (count_at looks at `after`).
    return n;
}

namespace {

// The search under the rules; a failure (a missing table, a damaged file) stops it with its
// status and, for a missing rule table, the file's path.
template <class R>
struct RuleSearch {
    const Tablebase& tb;
    const DrawRules& rules;
    RulesResult& result;

    bool failed(ProbeStatus s, const Position& w, const CountState& count) const {
        result.status = s;
        if (s == ProbeStatus::no_rule_table)
            result.missing_table = table_path(tb.dir(), rules.variant, Material::of(w).name(),
                                              metric_of(rules, count.regime, count.gap));
        return false;
    }

    // The value under the rules of p under `count`.
    bool rule(const Position& p, const CountState& count, Outcome& out) const {
        const int left = count.plies_left;
        const bool giveaway = rules.variant.giveaway;
        if (!p.of(p.side)) {
            out = no_move_outcome(giveaway);
            return true;
        }
        MoveList captures;
        if (MoveGenerator<R>::has_capture(p)) MoveGenerator<R>::generate_captures(p, captures);
        if (captures.empty()) {
            const Position w = p.side == Color::white ? p : flip(rules.variant.info().board, p);
            std::uint16_t d = 0;
            if (const ProbeStatus s = tb.read_rule_value(rules, w, count.regime, d, count.gap);
                s != ProbeStatus::ok)
                return failed(s, w, count);
            if (d == dtw_unknown) return failed(ProbeStatus::error_corrupt, w, count);
            const Value v = static_cast<Value>(dtr_outcome(d));
            if (v == Value::draw || dtr_distance(d) > left)
                out = {Value::draw, 0};
            else
                out = {v, static_cast<std::uint16_t>(dtr_distance(d))};
            return true;
        }
        if (left <= 0) {  // the count has run out and the game goes on
            out = {Value::draw, 0};
            return true;
        }
        BestRuleOutcome best;
        for (const Move& m : captures) {
            const Position after = make_move(p, m);
            if (!after.of(after.side)) {
                best.add(no_move_outcome(giveaway), true);
                continue;
            }
            const Transition t = transition(rules, p, count.regime, m, after);
            Outcome o;
            if (!rule(after, count_after(t, count, m.is_capture()), o)) return false;
            best.add(o, t.kind == Transition::Kind::fresh);
        }
        out = best.result();
        return true;
    }
};

}  // namespace

RulesResult Tablebase::probe_rules(const DrawRules& rules, const Position& p,
                                   const RuleCounters& c) const noexcept {
    RulesResult result;
    try {
        if (!counts_valid(rules, c)) return {ProbeStatus::invalid_argument, {}, {}, {}};
        const ProbeResult pure = probe_dtw(rules.variant, p);
        if (!pure.ok()) return {pure.status, {}, {}, {}};
        RulesAnswer& a = result.answer;
        a.pure = {pure.value, pure.plies};
        if (!rules.any()) {
            a.rule = a.pure;
            a.count = "no move-limit rule";
            a.plies_left = unlimited_plies;
            return result;
        }
        const CountAt at = count_at(rules, p, c);
        if (!at.unreachable.empty()) {
            result.status = ProbeStatus::unreachable_counts;
            result.unreachable = at.unreachable;
            return result;
        }
        a.count = count_name(rules, Material::of(p), at.state);
        a.plies_left = at.state.plies_left;
        dispatch(rules.variant.base, [&](auto r) {
            const RuleSearch<decltype(r)> search{*this, rules, result};
            Outcome other;
            if (search.rule(p, at.state, a.rule) && at.alternative &&
                search.rule(p, *at.alternative, other) && other.value != a.rule.value) {
                a.exact = false;  // which king was the lone one decides: nothing is certain
                a.rule = {Value::draw, 0};
            }
        });
    } catch (...) {  // out of memory for the count's name or the missing file's path
        result.status = ProbeStatus::error_io;
    }
    return result;
}

namespace {

// The outcome of a move for the side that makes it, from the outcome after it.
Outcome for_mover(Outcome after, bool fresh) {
    const auto cost = static_cast<std::uint16_t>(fresh ? 1 : after.plies + 1);
    if (after.value == Value::loss) return {Value::win, cost};
    if (after.value == Value::win) return {Value::loss, cost};
    return {after.value, 0};
}

// Best first: wins by shortest distance, then draws, then losses by longest distance.
int rank_key(const ProbeResult& r) {
    if (r.value == Value::win) return r.plies;
    if (r.value == Value::draw) return 100000;
    return 300000 - r.plies;
}

}  // namespace

ProbeStatus Tablebase::probe_root(Variant v, const Position& p, std::vector<RootMove>& moves,
                                  const DrawRules* rules, const RuleCounters& c,
                                  bool skip_missing_rule_tables) const noexcept {
    moves.clear();
    try {
        const ProbeResult root = probe_distance(v, p);
        if (!root.ok()) return root.status;
        // Where the distance is MTC, a move that converts (a capture or a man move) counts 1
        // whatever follows; a king move adds one ply to the MTC after it (same pair of classes).
        const bool mtc = root.metric == Metric::mtc;
        if (root.value != Value::draw && root.plies == 0) return ProbeStatus::ok;  // game over
        if (rules && !(rules->variant == v)) return ProbeStatus::invalid_argument;
        RulesResult failure;
        CountAt at;
        if (rules) {
            if (!counts_valid(*rules, c)) return ProbeStatus::invalid_argument;
            at = count_at(*rules, p, c);
            if (!at.unreachable.empty()) return ProbeStatus::unreachable_counts;
        }
        const CountState& count = at.state;
        const VariantInfo& vi = v.info();
        return dispatch(v.base, [&](auto r) {
            using R = decltype(r);
            MoveList list;
            MoveGenerator<R>::generate(p, list);
            sort_by_square(vi, list);  // moves of equal value stay in this order below
            for (const Move& m : list) {
                RootMove rm;
                rm.move = m;
                rm.notation = move_notation(vi, m, list);
                rm.after = make_move(p, m);
                const bool converts = m.is_capture() || !(p.kings & bit(m.from));
                const ProbeResult after =
                    mtc && converts ? probe_wdl(v, rm.after) : probe_distance(v, rm.after);
                if (!after.ok()) return after.status;
                if (mtc && !converts && after.metric != Metric::mtc)
                    return ProbeStatus::error_corrupt;  // a king move left the pair
                const Outcome mover = for_mover({after.value, after.plies}, mtc && converts);
                rm.result = {ProbeStatus::ok, mover.value, mover.plies, root.metric};
                if (rules) {
                    if (!rm.after.of(rm.after.side)) {
                        rm.rule = for_mover(no_move_outcome(v.giveaway), true);
                    } else if (count.plies_left <= 0 && rules->any()) {
                        rm.rule = Outcome{Value::draw, 0};  // the count ran out: drawn
                    } else if (!rules->any()) {
                        rm.rule = mover;
                    } else {
                        const Transition t = transition(*rules, p, count.regime, m, rm.after);
                        const CountState next = count_after(t, count, m.is_capture());
                        const RuleSearch<R> search{*this, *rules, failure};
                        Outcome o, other;
                        const bool found =
                            search.rule(rm.after, next, o) &&
                            (!at.alternative ||
                             search.rule(rm.after, count_after(t, *at.alternative, m.is_capture()),
                                         other));
                        if (found) {
                            // As probe_rules: a draw where the side of the lone king matters.
                            if (at.alternative && other.value != o.value) o = {Value::draw, 0};
                            rm.rule = for_mover(o, t.kind == Transition::Kind::fresh);
                            rm.rule_count = count_name(*rules, Material::of(rm.after), next);
                            rm.rule_plies_left = next.plies_left;
                        } else if (skip_missing_rule_tables &&
                                   failure.status == ProbeStatus::no_rule_table) {
                            failure = {};  // this move shows no rule value; the next is asked
                        } else {
                            return failure.status;
                        }
                    }
                }
                moves.push_back(std::move(rm));
            }
            std::stable_sort(moves.begin(), moves.end(), [](const RootMove& a, const RootMove& b) {
                return rank_key(a.result) < rank_key(b.result);
            });
            return ProbeStatus::ok;
        });
    } catch (...) {
        return ProbeStatus::error_io;  // out of memory
    }
}

}  // namespace damas
