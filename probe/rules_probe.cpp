#include "probe/rules_probe.hpp"

#include <algorithm>

#include "index/class_index.hpp"
#include "index/flip.hpp"
#include "probe/probe.hpp"
#include "rules/error.hpp"

namespace damas {
namespace {

std::array<std::uint8_t, 4> counts_of(Material m) {
    return {static_cast<std::uint8_t>(m.white_men), static_cast<std::uint8_t>(m.white_kings),
            static_cast<std::uint8_t>(m.black_men), static_cast<std::uint8_t>(m.black_kings)};
}

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

CountState count_at(const DrawRules& rules, const Position& p, const RuleCounters& c, bool& exact) {
    exact = true;
    const int kings = rules.king_limit_plies > 0 ? rules.king_limit_plies : unlimited_plies;
    const int king_left = kings - c.plies_since_capture;
    const EndingRow* row = rules.row_of(Material::of(p));
    CountState s{Regime::king_moves, king_left};
    if (row && row->kind == RowKind::ending) {
        const int ending_left = row->limit_plies - c.plies_in_ending;
        exact = ending_left <= king_left;
        s = {Regime::ending, std::min(ending_left, king_left)};
    } else if (row) {
        const bool started = c.forcada_started.value_or(false) || forcada_diagonal_occupied(p);
        if (!started) {
            s = {Regime::forcada_waiting, king_left};
        } else {
            // The side to move when the count started: the same as now after an even number of
            // plies. forcada_limit_from gives 23 when the three kings were to move, else 24.
            Position at_start = p;
            if (c.forcada_plies % 2 != 0) at_start.side = ~p.side;
            s = {Regime::forcada_running,
                 std::min(king_left, forcada_limit_from(at_start) - c.forcada_plies)};
        }
    }
    s.plies_left = std::max(0, s.plies_left);
    return s;
}

RulesProbe::RulesProbe(std::filesystem::path dir, std::size_t cache_mib)
    : dir_(std::move(dir)), cache_(cache_mib << 20) {}

RulesProbe::~RulesProbe() = default;

const TableFile& RulesProbe::table(Variant v, Material m, Metric metric) const {
    const std::filesystem::path path = table_path(dir_, v, m.name(), metric);
    std::lock_guard lock(mutex_);
    auto it = tables_.find(path);
    if (it == tables_.end()) {
        if (is_dtr(metric) && !std::filesystem::exists(path)) throw MissingRuleTable(path, m);
        auto file = std::make_unique<TableFile>(path);  // throws Error naming the problem
        const TableHeader& h = file->header();
        if (!(h.variant == v) || h.material != counts_of(m) || h.metric != metric)
            throw Error(path.string() + ": the header does not match (variant, class or metric)");
        it = tables_.emplace(path, std::move(file)).first;
    }
    return *it->second;
}

std::uint16_t RulesProbe::read(const TableFile& t, const Position& w) const {
    const ClassIndex index(t.header().variant.info().board, Material::of(w));
    if (const auto why = index.why_not_indexable(w)) throw Error(*why);
    const ReadResult r = t.value(index.index(w), cache_);
    if (!r.ok()) throw Error(t.path().string() + ": " + read_status_name(r.status));
    return r.value;
}

std::uint16_t RulesProbe::dtr(const DrawRules& rules, const Position& w, Regime r) const {
    return read(table(rules.variant, Material::of(w), metric_of(rules, r)), w);
}

namespace {

template <class R>
struct RuleSearch {
    const RulesProbe& probe;
    const DrawRules& rules;

    Outcome pure(const Position& p,
                 const std::function<std::uint16_t(const Position&, Metric)>& read) const {
        const bool giveaway = rules.variant.giveaway;
        return resolve_outcome<R>(p, giveaway, [&](const Position& q) {
            const Position w = q.side == Color::white ? q : flip(rules.variant.info().board, q);
            // The dtw alone: its parity gives the value (the positions a rule ends on the spot
            // never get here), and wdl files may have the mirror layout (format.hpp).
            const std::uint16_t plies = read(w, Metric::dtw);
            if (plies == dtw_draw) return Outcome{Value::draw, 0};
            return Outcome{static_cast<Value>(dtw_outcome(plies, giveaway)), plies};
        });
    }

    // The value under the rules of p with `left` plies on the count of `regime`.
    Outcome rule(const Position& p, Regime regime, int left) const {
        const bool giveaway = rules.variant.giveaway;
        if (!p.of(p.side)) return no_move_outcome(giveaway);
        MoveList captures;
        if (MoveGenerator<R>::has_capture(p)) MoveGenerator<R>::generate_captures(p, captures);
        if (captures.empty()) {
            const Position w = p.side == Color::white ? p : flip(rules.variant.info().board, p);
            const std::uint16_t d = probe.dtr(rules, w, regime);
            if (d == dtw_unknown) throw Error("a dtr table has no value for a quiet position");
            const Value v = static_cast<Value>(dtr_outcome(d));
            if (v == Value::draw || dtr_distance(d) > left) return {Value::draw, 0};
            return {v, static_cast<std::uint16_t>(dtr_distance(d))};
        }
        if (left <= 0) return {Value::draw, 0};  // the count has run out and the game goes on
        BestRuleOutcome best;
        for (const Move& m : captures) {
            const Position after = make_move(p, m);
            if (!after.of(after.side)) {
                best.add(no_move_outcome(giveaway), true);
                continue;
            }
            const Transition t = transition(rules, p, regime, m, after);
            best.add(rule(after, t.regime, plies_left_after(t, left)),
                     t.kind == Transition::Kind::fresh);
        }
        return best.result();
    }
};

}  // namespace

RulesAnswer RulesProbe::probe(const DrawRules& rules, const Position& p,
                              const RuleCounters& c) const {
    RulesAnswer a;
    const Variant v = rules.variant;
    const auto read_pure = [&](const Position& w, Metric metric) {
        return read(table(v, Material::of(w), metric), w);
    };
    return dispatch(v.base, [&](auto r) {
        const RuleSearch<decltype(r)> search{*this, rules};
        a.pure = search.pure(p, read_pure);
        if (!rules.any()) {
            a.rule = a.pure;
            a.count = "no move-limit rule";
            a.plies_left = unlimited_plies;
            return a;
        }
        const CountState s = count_at(rules, p, c, a.exact);
        a.count = count_name(rules, Material::of(p), s.regime);
        a.plies_left = s.plies_left;
        a.rule = search.rule(p, s.regime, s.plies_left);
        return a;
    });
}

RuleClassStats rule_class_stats(const std::filesystem::path& dir, const DrawRules& rules,
                                Material m) {
    const Variant v = rules.variant;
    const TableFile wdl(table_path(dir, v, m.name(), Metric::wdl));
    const TableFile dtw(table_path(dir, v, m.name(), Metric::dtw));
    const std::vector<Regime> regimes = regimes_of(rules, m);
    std::vector<std::vector<std::uint16_t>> dtr;
    for (const Regime r : regimes) {
        const std::filesystem::path path = table_path(dir, v, m.name(), metric_of(rules, r));
        if (!std::filesystem::exists(path)) throw MissingRuleTable(path, m);
        const TableFile f(path);
        if (f.size() != wdl.size()) throw Error(f.path().string() + ": wrong size");
        dtr.emplace_back(f.size());
        f.read_all(dtr.back());
    }
    const std::vector<std::uint8_t> pure = read_wdl_values(wdl, dtw);
    const ClassIndex index(v.info().board, m);
    RuleClassStats s;
    // The files hold a filler where the side to move must capture: those are skipped.
    const std::vector<std::uint8_t> capture = dispatch(v.base, [&](auto r) {
        std::vector<std::uint8_t> flags(index.size());
        index.for_each_position(0, index.size(), [&](std::uint64_t i, const Position& p) {
            flags[i] = MoveGenerator<decltype(r)>::has_capture(p) ? 1 : 0;
        });
        return flags;
    });
    index.for_each_position(0, index.size(), [&](std::uint64_t i, const Position& p) {
        if (capture[i]) return;
        ++s.quiet_positions;
        const CountState fresh = fresh_count(rules, p);
        const std::uint16_t d = fresh.regime == Regime::forcada_running ? dtr[1][i] : dtr[0][i];
        const bool decided = dtr_outcome(d) != wdl_draw && dtr_distance(d) <= fresh.plies_left;
        if (pure[i] == wdl_win) {
            ++s.pure_wins;
            if (!decided) ++s.wins_drawn;
        } else if (pure[i] == wdl_loss) {
            ++s.pure_losses;
            if (!decided) ++s.losses_drawn;
        }
    });
    return s;
}

}  // namespace damas
