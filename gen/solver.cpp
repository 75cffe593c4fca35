#include "gen/solver.hpp"

#include <tbb/blocked_range.h>
#include <tbb/concurrent_vector.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <string>

#include "rules/error.hpp"
#include "rules/unmove.hpp"

namespace damas {
namespace {

constexpr std::uint16_t no_distance = 0xFFFF;

// status bits
constexpr std::uint8_t resolved_bit = 1;
constexpr std::uint8_t draw_exit_bit = 2;
constexpr std::uint8_t capture_bit = 4;
constexpr int value_shift = 3;

template <class T>
bool store_min(std::atomic<T>& a, T v) {
    T cur = a.load(std::memory_order_relaxed);
    while (v < cur)
        if (a.compare_exchange_weak(cur, v, std::memory_order_relaxed)) return true;
    return false;
}
template <class T>
void store_max(std::atomic<T>& a, T v) {
    T cur = a.load(std::memory_order_relaxed);
    while (v > cur && !a.compare_exchange_weak(cur, v, std::memory_order_relaxed)) {
    }
}

template <class R>
class PairSolver {
  public:
    PairSolver(const Variant& v, Material m, const SolvedStore& store, const ProgressFn& progress)
        : variant_(v),
          board_(v.info().board),
          store_(store),
          progress_(progress),
          single_(m == m.mirrored()),
          materials_{m, m.mirrored()},
          indices_{ClassIndex(board_, m), ClassIndex(board_, m.mirrored())} {
        offset_ = indices_[0].size();
        total_ = single_ ? offset_ : offset_ + indices_[1].size();
        if (total_ >= (std::uint64_t{1} << 32))
            throw Error("class " + m.name() + " is too large for the solver (2^32 positions)");
        states_ = std::vector<State>(total_);
        buckets_ = std::vector<tbb::concurrent_vector<std::uint32_t>>(max_plies + 2);
    }

    std::vector<PairResult> run() {
        // Positions come from stepping through each class in index order, much cheaper than
        // unindexing each one.
        for (int c = 0; c < (single_ ? 1 : 2); ++c) {
            const std::uint64_t base = c == 0 ? 0 : offset_;
            tbb::parallel_for(
                tbb::blocked_range<std::uint64_t>(0, indices_[c].size(), 4096), [&](const auto& r) {
                    indices_[c].for_each_position(
                        r.begin(), r.end(),
                        [&](std::uint64_t i, const Position& p) { initialise(base + i, p); });
                });
        }
        report(0);
        for (int d = 0; d <= highest_.load(); ++d) resolve_level(d);
        return results();
    }

  private:
    Position position(std::uint64_t s) const {
        return s < offset_ ? indices_[0].unindex(s) : indices_[1].unindex(s - offset_);
    }
    std::uint64_t state(const Position& white_to_move) const {
        if (single_ || Material::of(white_to_move) == materials_[0])
            return indices_[0].index(white_to_move);
        return offset_ + indices_[1].index(white_to_move);
    }

    void push(std::uint64_t s, int d) {
        if (d > max_plies) throw Error("distance beyond " + std::to_string(max_plies) + " plies");
        buckets_[d].push_back(static_cast<std::uint32_t>(s));
        store_max(highest_, d);
    }

    void initialise(std::uint64_t s, const Position& p) {
        states_[s].win.store(no_distance, std::memory_order_relaxed);
        if (const Outcome m = material_outcome<R>(p, variant_.giveaway);
            m.value != Value::unknown) {
            // The whole pair ends the game on the spot: nothing to propagate. DTW 0 either way.
            states_[s].win.store(0, std::memory_order_relaxed);
            states_[s].status = static_cast<std::uint8_t>(
                resolved_bit | (static_cast<int>(m.value) << value_shift));
            return;
        }
        MoveList moves;
        MoveGenerator<R>::generate(p, moves);
        if (moves.empty()) {
            if (variant_.giveaway) states_[s].win = 0;
            push(s, 0);
            return;
        }
        std::uint8_t flags = moves[0].is_capture() ? capture_bit : 0;
        int pending = 0, win = no_distance, loss = 0;
        for (const Move& m : moves) {
            if (!m.is_capture() && !m.promotes) {
                ++pending;
                continue;
            }
            const Outcome after = store_.lookup<R>(make_move(p, m));
            switch (after.value) {
                case Value::loss:
                    win = std::min(win, after.plies + 1);
                    break;
                case Value::win:
                    loss = std::max(loss, after.plies + 1);
                    break;
                case Value::draw:
                    flags |= draw_exit_bit;
                    break;
                case Value::unknown:
                    throw Error("a smaller class has no value for a position");
            }
        }
        if (pending > 255) throw Error("too many quiet moves in one position");
        states_[s].pending.store(static_cast<std::uint8_t>(pending), std::memory_order_relaxed);
        states_[s].loss.store(static_cast<std::uint16_t>(loss), std::memory_order_relaxed);
        states_[s].win.store(static_cast<std::uint16_t>(win), std::memory_order_relaxed);
        if (win != no_distance) {
            push(s, win);
        } else if (pending == 0) {
            if (flags & draw_exit_bit)
                flags |= resolved_bit | (static_cast<int>(Value::draw) << value_shift);
            else
                push(s, loss);
        }
        states_[s].status.store(flags, std::memory_order_relaxed);
    }

    void resolve_level(int d) {
        auto& bucket = buckets_[d];
        tbb::parallel_for(tbb::blocked_range<std::size_t>(0, bucket.size(), 256),
                          [&](const auto& r) {
                              std::vector<Update> updates;
                              updates.reserve(chunk * 32);
                              for (std::size_t begin = r.begin(); begin < r.end(); begin += chunk) {
                                  const std::size_t end = std::min(r.end(), begin + chunk);
                                  updates.clear();
                                  for (std::size_t i = begin; i != end; ++i) {
                                      if (i + 8 < end) __builtin_prefetch(&states_[bucket[i + 8]]);
                                      resolve(bucket[i], d, updates);
                                  }
                                  for (const Update& u : updates) apply(u, d);
                              }
                          });
        report(bucket.size());
        tbb::concurrent_vector<std::uint32_t>().swap(bucket);
    }

    // What a resolved position tells one predecessor.
    struct Update {
        std::uint32_t predecessor;
        bool offers_win;  // the resolved position is lost: the predecessor wins in d + 1
    };
    // Positions resolved together before their predecessors are updated: the predecessors are
    // scattered over the pair, so they are prefetched while the next positions are resolved.
    static constexpr std::size_t chunk = 32;

    void resolve(std::uint64_t s, int d, std::vector<Update>& updates) {
        State& state = states_[s];
        std::uint8_t st = state.status.load();
        if (st & resolved_bit) return;
        Value value;
        if (state.win.load() == d)
            value = Value::win;
        else if (state.pending.load() == 0 && !(st & draw_exit_bit) &&
                 state.win.load() == no_distance && state.loss.load() == d)
            value = Value::loss;
        else
            return;
        const auto done =
            static_cast<std::uint8_t>(st | resolved_bit | (static_cast<int>(value) << value_shift));
        if (!state.status.compare_exchange_strong(st, done)) return;
        // s's position after White's move, seen with Black to move, is flip(s).
        UnmoveList unmoves;
        UnmoveGenerator<R>::generate(flip(board_, position(s)), unmoves);
        unmoves.for_each([&](const Unmove& u) {
            const auto q = static_cast<std::uint32_t>(this->state(u.before));
            __builtin_prefetch(&states_[q], 1);
            updates.push_back({q, value == Value::loss});
        });
    }

    void apply(const Update& u, int d) {
        State& q = states_[u.predecessor];
        if (q.status.load(std::memory_order_relaxed) & resolved_bit) return;
        const auto next = static_cast<std::uint16_t>(d + 1);
        if (u.offers_win) {
            if (store_min(q.win, next)) push(u.predecessor, next);
            return;
        }
        store_max(q.loss, next);
        if (q.pending.fetch_sub(1) == 1 && !(q.status.load() & draw_exit_bit) &&
            q.win.load() == no_distance)
            push(u.predecessor, q.loss.load());
    }

    std::vector<PairResult> results() const {
        std::vector<PairResult> out(single_ ? 1 : 2);
        for (std::size_t c = 0; c < out.size(); ++c) {
            const std::uint64_t begin = c == 0 ? 0 : offset_, end = c == 0 ? offset_ : total_;
            out[c].material = materials_[c];
            out[c].outcomes.resize(end - begin);
            out[c].capture.resize(end - begin);
            tbb::parallel_for(
                tbb::blocked_range<std::uint64_t>(begin, end, 4096), [&](const auto& r) {
                    for (std::uint64_t s = r.begin(); s != r.end(); ++s) {
                        const std::uint8_t st = states_[s].status.load(std::memory_order_relaxed);
                        Outcome o{Value::draw, 0};
                        if (st & resolved_bit) {
                            o.value = static_cast<Value>((st >> value_shift) & 3);
                            if (o.value == Value::win)
                                o.plies = states_[s].win.load(std::memory_order_relaxed);
                            if (o.value == Value::loss)
                                o.plies = states_[s].loss.load(std::memory_order_relaxed);
                        }
                        out[c].outcomes[s - begin] = pack_outcome(o);
                        out[c].capture[s - begin] = (st & capture_bit) ? 1 : 0;
                    }
                });
        }
        return out;
    }

    void report(std::uint64_t n) {
        done_ += n;
        if (progress_) progress_(std::min(done_, total_), total_);
    }

    const Variant variant_;
    const BoardSpec board_;
    const SolvedStore& store_;
    const ProgressFn& progress_;
    const bool single_;
    const Material materials_[2];
    const ClassIndex indices_[2];
    std::uint64_t offset_ = 0, total_ = 0, done_ = 0;
    // All the state of one position in 8 bytes, so that an update touches one cache line: the
    // predecessors of a position are scattered over the whole pair.
    struct alignas(8) State {
        std::atomic<std::uint8_t> status{0};
        std::atomic<std::uint8_t> pending{0};
        std::atomic<std::uint16_t> win{0};   // shortest known win, no_distance if none
        std::atomic<std::uint16_t> loss{0};  // longest known loss
    };
    std::vector<State> states_;
    std::vector<tbb::concurrent_vector<std::uint32_t>> buckets_;
    std::atomic<int> highest_{0};
};

}  // namespace

std::vector<PairResult> solve_pair(const Variant& v, Material m, const SolvedStore& store,
                                   const ProgressFn& progress) {
    return dispatch(v.base, [&](auto rules) {
        return PairSolver<decltype(rules)>(v, m, store, progress).run();
    });
}

}  // namespace damas
