#include "gen/limits/rule_solver.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <span>
#include <string>

#include "index/flip.hpp"
#include "rules/error.hpp"
#include "rules/unmove.hpp"

namespace damas {

void RuleStore::add(RuleClass c) {
    const Material m = c.material;
    Entry e{std::move(c), std::make_unique<ClassIndex>(rules_.variant.info().board, m)};
    classes_.insert_or_assign(m, std::move(e));
}

const RuleClass& RuleStore::get(Material m) const {
    const auto it = classes_.find(m);
    if (it == classes_.end()) throw Error("rule values of class " + m.name() + " are not solved");
    return it->second.values;
}

std::uint16_t RuleStore::lookup(const Position& p, Regime r) const {
    const auto it = classes_.find(Material::of(p));
    if (it == classes_.end())
        throw Error("rule values of class " + Material::of(p).name() + " are not solved");
    const RuleClass& c = it->second.values;
    for (std::size_t i = 0; i < c.regimes.size(); ++i)
        if (c.regimes[i] == r) return c.dtr[i][it->second.index->index(p)];
    throw Error("class " + c.material.name() + " has no such count regime");
}

namespace {

constexpr int infinite = 0x7FFF;

// What the moves leaving a pass tell a state.
struct ExitScore {
    int win = infinite;   // cheapest win
    int loss = 0;         // dearest loss
    bool escape = false;  // some move never loses
};

// Scores one move by its transition and the opponent's dtr value after it.
void score_exit(const Transition& t, std::uint16_t after, ExitScore& s) {
    if (after == dtw_unknown) throw Error("rule solver: a value it needs is missing");
    if (after == dtr_none) {
        s.escape = true;
        return;
    }
    const int d = dtr_distance(after);
    const bool opponent_wins = (after & 1) != 0;
    const int cap = t.kind == Transition::Kind::continue_count ? infinite : t.limit;
    if (d > cap) {
        s.escape = true;
        return;
    }
    const int cost = t.kind == Transition::Kind::fresh ? 1 : 1 + d;
    if (opponent_wins)
        s.loss = std::max(s.loss, cost);
    else
        s.win = std::min(s.win, cost);
}

// Scores the moves of p (in `regime`) that leave the pass, each by its transition and the
// opponent's value after it (value_after(after, regime after)); counts the internal ones.
template <class Internal, class After>
ExitScore score_moves(const DrawRules& rules, const Position& p, Regime regime,
                      const MoveList& moves, Internal&& internal, After&& value_after,
                      int& pending) {
    ExitScore exits;
    pending = 0;
    for (const Move& m : moves) {
        const Position after = make_move(p, m);
        if (!after.of(after.side)) {  // captured everything
            score_exit({Transition::Kind::fresh, regime, 0}, dtr_encode(rules.variant.giveaway, 0),
                       exits);
            continue;
        }
        const Transition t = transition(rules, p, regime, m, after);
        if (internal(m, t)) {
            ++pending;
            continue;
        }
        score_exit(t, value_after(after, t.regime), exits);
    }
    return exits;
}

// The value of a state whose every move leaves the pass (a capture position, say).
std::uint16_t exits_only_value(const ExitScore& e) {
    if (e.win < infinite) return dtr_encode(true, e.win);
    if (!e.escape) return dtr_encode(false, e.loss);
    return dtr_none;
}

template <class R>
class RulePairSolver {
  public:
    RulePairSolver(const DrawRules& rules, Material m, const RuleStore& store)
        : rules_(rules),
          board_(rules.variant.info().board),
          store_(store),
          single_(m == m.mirrored()),
          materials_{m, m.mirrored()},
          indices_{ClassIndex(board_, m), ClassIndex(board_, m.mirrored())},
          regimes_(regimes_of(rules, m)) {
        offset_ = indices_[0].size();
        total_ = single_ ? offset_ : offset_ + indices_[1].size();
        if (total_ >= (std::uint64_t{1} << 32))
            throw Error("class " + m.name() + " is too large for the rule solver");
        results_.assign(regimes_.size(), std::vector<std::uint16_t>(total_, dtw_unknown));
        work_.resize(total_);
    }

    std::vector<RuleClass> run() {
        // forcada_running first: the waiting pass exits into it.
        std::vector<std::size_t> order(regimes_.size());
        for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
        std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
            return (regimes_[a] == Regime::forcada_running) >
                   (regimes_[b] == Regime::forcada_running);
        });
        for (std::size_t r : order) {
            if (regimes_[r] == Regime::forcada_waiting) solve_gap_passes();
            for (int slice = 0; slice < indices_[0].slice_count(); ++slice)
                solve_pass(Pass{regimes_[r], 0, &results_[r]}, slice);
        }
        std::vector<RuleClass> out(single_ ? 1 : 2);
        for (std::size_t c = 0; c < out.size(); ++c) {
            const std::uint64_t begin = c == 0 ? 0 : offset_, end = c == 0 ? offset_ : total_;
            out[c].material = materials_[c];
            out[c].regimes = regimes_;
            const auto part = [&](const std::vector<std::uint16_t>& values) {
                return std::span(values).subspan(begin, end - begin);
            };
            for (const auto& values : results_) {
                const auto own = part(values);
                out[c].dtr.emplace_back(own.begin(), own.end());
            }
            for (const auto& values : gap_results_) {
                const auto own = part(values);
                out[c].forcada_gaps.insert(out[c].forcada_gaps.end(), own.begin(), own.end());
            }
        }
        return out;
    }

  private:
    struct Work {
        std::uint16_t win = infinite;
        std::uint16_t loss = 0;
        std::uint8_t pending = 0;
        bool escape = false;
        bool resolved = false;
    };

    Position position(std::uint64_t s) const {
        return s < offset_ ? indices_[0].unindex(s) : indices_[1].unindex(s - offset_);
    }
    bool in_pair(Material m) const { return m == materials_[0] || m == materials_[1]; }
    std::uint64_t state(const Position& white_to_move) const {
        if (single_ || Material::of(white_to_move) == materials_[0])
            return indices_[0].index(white_to_move);
        return offset_ + indices_[1].index(white_to_move);
    }
    bool member(const Position& white_to_move, Regime r) const {
        return r != Regime::forcada_waiting || !forcada_diagonal_occupied(white_to_move);
    }
    std::size_t regime_slot(Regime r) const {
        for (std::size_t i = 0; i < regimes_.size(); ++i)
            if (regimes_[i] == r) return i;
        throw Error("rule solver: a move reaches a regime the pair does not have");
    }

    // The internal moves of a pass: quiet king moves that keep the count and the regime.
    bool internal(const Position& before, const Move& m, const Transition& t, Regime r) const {
        return !m.is_capture() && !m.promotes && (before.kings & bit(m.from)) != 0 &&
               t.kind == Transition::Kind::continue_count && t.regime == r;
    }

    // The opponent's dtr value after a move leaving the pass.
    std::uint16_t value_after(const Position& after, Regime r) const {
        if (!after.of(after.side))  // the game is over: the opponent has no piece
            return dtr_encode(rules_.variant.giveaway, 0);
        const Position w = flip(board_, after);
        if (in_pair(Material::of(w))) return results_[regime_slot(r)][state(w)];
        return store_.lookup(w, r);
    }

    // One retrograde pass: the states of a regime (or, gap > 0, of forcada_running with a
    // king-move count `gap` plies shorter than the forcada's), written to *out.
    struct Pass {
        Regime regime;
        int gap;
        std::vector<std::uint16_t>* out;
    };

    // Portuguese forcada (limits/draw_rules.hpp): when the three kings occupy the diagonal with
    // fewer king-move plies left than the forcada's 24, the lone king's capture of a sacrificed
    // king restarts the king-move count while the forcada's runs on, so the running values
    // depend on the gap between the two counts. One pass per gap: the waiting pass reads them
    // for its moves onto the diagonal, and they are written (dtr-forcada-gaps) for the probe.
    void solve_gap_passes() {
        const int max_gap = forcada_gaps;
        gap_results_.assign(max_gap, std::vector<std::uint16_t>(total_, dtw_unknown));
        for (int g = 1; g <= max_gap; ++g)
            for (int slice = 0; slice < indices_[0].slice_count(); ++slice)
                solve_pass(Pass{Regime::forcada_running, g, &gap_results_[g - 1]}, slice);
    }

    void solve_pass(const Pass& pass, int slice) {
        const Regime regime = pass.regime;
        std::vector<std::uint32_t> members;
        for (int c = 0; c < (single_ ? 1 : 2); ++c) {
            const ClassIndex& index = indices_[c];
            const std::uint64_t base = c == 0 ? 0 : offset_;
            index.for_each_men_in_slice(slice, [&](std::uint64_t men, const MenPlacement&) {
                const std::uint64_t first = men * index.kings_per_men();
                for (std::uint64_t k = 0; k < index.kings_per_men(); ++k)
                    members.push_back(static_cast<std::uint32_t>(base + first + k));
            });
        }
        buckets_.assign(1, {});
        if (is_member_.size() != total_) is_member_.assign(total_, 0);
        // The states' first scores are independent of each other: in parallel. The buckets are
        // then filled in member order, so the result does not depend on the thread count.
        tbb::parallel_for(tbb::blocked_range<std::size_t>(0, members.size(), 1024),
                          [&](const tbb::blocked_range<std::size_t>& range) {
                              for (std::size_t i = range.begin(); i != range.end(); ++i)
                                  initialise(members[i], pass);
                          });
        for (const std::uint32_t s : members) seed(s);
        std::vector<std::uint16_t>& out = *pass.out;
        for (std::size_t d = 0; d < buckets_.size(); ++d)
            for (std::size_t i = 0; i < buckets_[d].size(); ++i)
                resolve(buckets_[d][i], static_cast<int>(d), regime, out);
        for (const std::uint32_t s : members)
            if (out[s] == dtw_unknown && is_member_[s]) out[s] = dtr_none;
    }

    void push(std::uint32_t s, int d) {
        if (d >= infinite) return;
        if (static_cast<std::size_t>(d) >= buckets_.size()) buckets_.resize(d + 1);
        buckets_[d].push_back(s);
    }

    // The first score of state s from its moves; no bucket yet (see seed).
    void initialise(std::uint32_t s, const Pass& pass) {
        const Regime regime = pass.regime;
        const Position p = position(s);
        Work& w = work_[s];
        w = Work{};
        is_member_[s] = member(p, regime) ? 1 : 0;
        if (!is_member_[s]) return;
        MoveList moves;
        MoveGenerator<R>::generate(p, moves);
        if (moves.empty()) {  // the game is over: the side to move loses (wins in giveaway)
            if (rules_.variant.giveaway) w.win = 0;
            return;  // else a loss at 0: no pending move, no escape
        }
        int pending = 0;
        ExitScore exits;
        for (const Move& m : moves) {
            const Position after = make_move(p, m);
            if (!after.of(after.side)) {  // captured everything
                score_exit({Transition::Kind::fresh, regime, 0},
                           dtr_encode(rules_.variant.giveaway, 0), exits);
                continue;
            }
            const Transition t = transition(rules_, p, regime, m, after);
            if (internal(p, m, t, regime)) {
                ++pending;
                continue;
            }
            if (pass.gap > 0 && m.is_capture()) {
                score_gap_capture(pass.gap, value_after(after, t.regime), exits);
                continue;
            }
            if (t.kind == Transition::Kind::capped && !gap_results_.empty()) {
                score_onto_diagonal(after, t.limit, exits);
                continue;
            }
            score_exit(t, value_after(after, t.regime), exits);
        }
        if (pending > 255) throw Error("too many quiet moves in one position");
        w.pending = static_cast<std::uint8_t>(pending);
        w.escape = exits.escape;
        w.loss = static_cast<std::uint16_t>(exits.loss);
        w.win = static_cast<std::uint16_t>(exits.win);
    }

    // A capture in a gap pass (king-move count `gap` plies shorter than the forcada's): the
    // king-move count restarts, the forcada runs on, so the position after is decided with
    // `gap` plies more than the king-move count had: cost max(1, 1 + d - gap).
    static void score_gap_capture(int gap, std::uint16_t after, ExitScore& s) {
        if (after == dtw_unknown) throw Error("rule solver: a value it needs is missing");
        if (after == dtr_none) {
            s.escape = true;
            return;
        }
        const int cost = std::max(1, 1 + dtr_distance(after) - gap);
        if ((after & 1) != 0)
            s.loss = std::max(s.loss, cost);
        else
            s.win = std::min(s.win, cost);
    }

    // A move of the waiting pass onto the diagonal: the forcada starts with `limit` plies while
    // the king-move count has r - 1 left. The least r with which the position after is decided:
    // from the gap passes while r - 1 < limit, from the running values beyond.
    void score_onto_diagonal(const Position& after, int limit, ExitScore& s) const {
        const std::uint64_t a = state(flip(board_, after));
        const std::size_t running = regime_slot(Regime::forcada_running);
        for (int r = 2; r <= limit + 1; ++r) {
            const int king_left = r - 1;
            const int gap = limit - king_left;
            const std::uint16_t v =
                gap > 0 ? gap_results_[static_cast<std::size_t>(gap - 1)][a] : results_[running][a];
            if (v == dtw_unknown) throw Error("rule solver: a value it needs is missing");
            if (v == dtr_none || dtr_distance(v) > std::min(king_left, limit)) continue;
            if ((v & 1) != 0)
                s.loss = std::max(s.loss, r);
            else
                s.win = std::min(s.win, r);
            return;
        }
        s.escape = true;
    }

    // Puts an initialised state in the bucket of its first known distance, if any.
    void seed(std::uint32_t s) {
        if (!is_member_[s]) return;
        const Work& w = work_[s];
        if (w.win < infinite)
            push(s, w.win);
        else if (w.pending == 0 && !w.escape)
            push(s, w.loss);
    }

    void resolve(std::uint32_t s, int d, Regime regime, std::vector<std::uint16_t>& out) {
        Work& w = work_[s];
        if (w.resolved) return;
        bool win;
        if (w.win == d)
            win = true;
        else if (w.win == infinite && w.pending == 0 && !w.escape && w.loss == d)
            win = false;
        else
            return;
        w.resolved = true;
        out[s] = dtr_encode(win, d);
        UnmoveList unmoves;
        const Position after = flip(board_, position(s));
        UnmoveGenerator<R>::generate(after, unmoves);
        unmoves.for_each([&](const Unmove& u) {
            if (!member(u.before, regime)) return;
            if (!internal(u.before, u.move, transition(rules_, u.before, regime, u.move, after),
                          regime))
                return;
            const std::uint32_t q = static_cast<std::uint32_t>(state(u.before));
            Work& pred = work_[q];
            if (pred.resolved) return;
            if (!win) {  // we lose: the predecessor wins in d + 1
                if (d + 1 < pred.win) {
                    pred.win = static_cast<std::uint16_t>(d + 1);
                    push(q, d + 1);
                }
                return;
            }
            pred.loss = std::max<std::uint16_t>(pred.loss, static_cast<std::uint16_t>(d + 1));
            if (--pred.pending == 0 && !pred.escape && pred.win == infinite) push(q, pred.loss);
        });
    }

    const DrawRules& rules_;
    const BoardSpec board_;
    const RuleStore& store_;
    const bool single_;
    const Material materials_[2];
    const ClassIndex indices_[2];
    const std::vector<Regime> regimes_;
    std::uint64_t offset_ = 0, total_ = 0;
    std::vector<std::vector<std::uint16_t>> results_;      // [regime slot][pair state]
    std::vector<std::vector<std::uint16_t>> gap_results_;  // [gap - 1][pair state] (forcada)
    std::vector<Work> work_;
    std::vector<std::uint8_t> is_member_;
    std::vector<std::vector<std::uint32_t>> buckets_;
};

}  // namespace

namespace {

template <class R>
void restore_class(const DrawRules& rules, RuleClass& c, const RuleStore& store) {
    const BoardSpec board = rules.variant.info().board;
    const ClassIndex index(board, c.material);
    for (std::size_t slot = 0; slot < c.regimes.size(); ++slot) {
        const Regime regime = c.regimes[slot];
        std::vector<std::uint16_t>& values = c.dtr[slot];
        if (values.size() != index.size())
            throw Error("rule values of class " + c.material.name() + " have the wrong size");
        tbb::parallel_for(
            tbb::blocked_range<std::uint64_t>(0, index.size(), 4096),
            [&](const tbb::blocked_range<std::uint64_t>& range) {
                index.for_each_position(
                    range.begin(), range.end(), [&](std::uint64_t i, const Position& p) {
                        if (regime == Regime::forcada_waiting && forcada_diagonal_occupied(p)) {
                            values[i] = dtw_unknown;  // not a state of this regime
                            return;
                        }
                        if (!MoveGenerator<R>::has_capture(p)) return;
                        MoveList moves;
                        MoveGenerator<R>::generate_captures(p, moves);
                        int pending = 0;
                        const ExitScore exits = score_moves(
                            rules, p, regime, moves,
                            [](const Move&, const Transition&) { return false; },
                            [&](const Position& after, Regime r) {
                                return store.lookup(flip(board, after), r);
                            },
                            pending);
                        values[i] = exits_only_value(exits);
                    });
            });
    }
}

}  // namespace

RuleClass restore_rule_class(const DrawRules& rules, Material m,
                             std::vector<std::vector<std::uint16_t>> stored,
                             const RuleStore& store) {
    RuleClass c{m, regimes_of(rules, m), std::move(stored), {}};
    if (c.dtr.size() != c.regimes.size())
        throw Error("rule values of class " + m.name() + ": wrong number of regimes");
    dispatch(rules.variant.base, [&](auto r) { restore_class<decltype(r)>(rules, c, store); });
    return c;
}

std::vector<RuleClass> solve_rule_pair(const DrawRules& rules, Material m, const RuleStore& store) {
    if (!rules.any()) throw Error(rules.variant.name() + " has no move-limit draw rules");
    return dispatch(rules.variant.base,
                    [&](auto r) { return RulePairSolver<decltype(r)>(rules, m, store).run(); });
}

}  // namespace damas
