#include "gen/solve/whole_slice_solver.hpp"

#include <tbb/blocked_range.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <mutex>
#include <type_traits>
#include <vector>

#include "gen/process/huge_pages.hpp"
#include "gen/solve/position_initialiser.hpp"
#include "gen/solve/predecessors.hpp"

namespace damas::solving {
namespace {

template <class R>
class WholeSlice final : public WholeSliceSolver {
  public:
    WholeSlice(const PairTables& tables, const PreviousSlice& previous, std::uint64_t largest)
        : tables_(tables),
          initialiser_(tables, previous),
          predecessors_(tables),
          states_(make_huge_array<State>(largest)),
          level_(make_huge_array<std::atomic<std::uint64_t>>((largest + 63) / 64)),
          next_level_(make_huge_array<std::atomic<std::uint64_t>>((largest + 63) / 64)) {}

    void solve(const SliceLayout& slice, SliceOutput& output, SolveProgress& progress,
               SolveTimes& times) override {
        const auto t0 = std::chrono::steady_clock::now();
        slice_ = &slice;
        progress_ = &progress;
        slice_size_ = tables_.layout.slice_positions(slice.slice);
        buckets_.assign(static_cast<std::size_t>(max_plies) + 2, {});
        highest_ = 0;
        make_blocks();
        initialise();
        const auto t1 = std::chrono::steady_clock::now();
        for (int d = 0; d <= highest_.load(); ++d) resolve_level(d);
        const auto t2 = std::chrono::steady_clock::now();
        store_results(output);
        times.initialise += std::chrono::duration<double>(t1 - t0).count();
        times.resolve += std::chrono::duration<double>(t2 - t1).count();
    }

  private:
    std::uint64_t kings_per_men() const { return tables_.kings_per_men(); }

    void make_blocks();
    void initialise();

    // Bucket entries are staged per thread and moved to the buckets in batches: a shared
    // concurrent vector made both threads fight for its size counter on every entry.
    struct Pushed {
        std::uint32_t state;
        std::uint16_t level;
    };
    static constexpr std::size_t staged_batch = 4096;
    void push(std::uint64_t s, int d) {
        check_distance(d);
        std::vector<Pushed>& staged = staged_.local();
        staged.push_back({static_cast<std::uint32_t>(s), static_cast<std::uint16_t>(d)});
        if (staged.size() == staged_batch) move_to_buckets(staged);
    }
    void move_to_buckets(std::vector<Pushed>& staged) {
        std::lock_guard lock(buckets_mutex_);
        int highest = highest_.load(std::memory_order_relaxed);
        for (const Pushed& e : staged) {
            buckets_[e.level].push_back(e.state);
            highest = std::max(highest, static_cast<int>(e.level));
        }
        highest_.store(highest, std::memory_order_relaxed);
        staged.clear();
    }
    // After a parallel phase: every staged entry into the buckets.
    void flush_staged() {
        for (std::vector<Pushed>& staged : staged_) move_to_buckets(staged);
    }
    // Where the initialiser leaves the states.
    struct Sink {
        WholeSlice& solver;
        State& state(std::uint64_t s) { return solver.states_[s]; }
        void push(std::uint64_t s, int d) { solver.push(s, d); }
    };

    void resolve_level(int d);
    template <bool exclusive>
    bool walk_level(int d, std::uint64_t first, std::uint64_t last,
                    std::atomic<std::uint64_t>& entries);

    static void mark(const HugeArray<std::atomic<std::uint64_t>>& bitmap, std::uint32_t s) {
        bitmap[s / 64].fetch_or(std::uint64_t{1} << (s % 64), std::memory_order_relaxed);
    }

    // What a resolved position tells one predecessor.
    struct Update {
        std::uint32_t predecessor;
        bool offers_win;  // the resolved position is lost: the predecessor wins in d + 1
    };
    // Positions resolved together before their predecessors are updated: the predecessors are
    // scattered over the slice, so they are prefetched while the next positions are resolved.
    static constexpr std::size_t chunk = 32;
    // What a task keeps from one resolved position to the next: the free squares of the men
    // block it is in (consecutive positions of a level are mostly in the same block).
    struct BlockCache {
        std::uint64_t block = ~std::uint64_t{0};
        FreeSquares free;
    };
    template <bool exclusive>
    void resolve(std::uint64_t s, int d, std::vector<Update>& updates, BlockCache& cache);
    template <bool exclusive>
    bool apply(const Update& u, int d);

    // Whether each predecessor is updated by one task only, so that updates need no atomic
    // read-modify-write: in-slice un-moves are king un-moves, which lead from a men block to its
    // flip's block only (resolve_level gives each task whole blocks). Turkish sideways man
    // un-moves lead elsewhere.
    static constexpr bool exclusive_updates = !R::men_move_sideways;

    template <class F>
    void for_each_men_block(F&& f) const;
    static constexpr std::uint64_t part_positions = std::uint64_t{1} << 16;
    template <class F>
    void for_each_men_part(F&& f) const;

    void store_results(SliceOutput& output) {
        for_each_men_part(
            [&](int, std::uint64_t, std::uint64_t local, std::uint64_t begin, std::uint64_t end) {
                for (std::uint64_t k = begin; k < end; ++k)
                    output.put(local + k, states_[local + k]);
            });
    }

    const PairTables& tables_;
    const PositionInitialiser<R> initialiser_;
    const Predecessors<R> predecessors_;
    const SliceLayout* slice_ = nullptr;  // the slice being solved
    SolveProgress* progress_ = nullptr;
    std::uint64_t slice_size_ = 0;
    // Its men configurations in state order (kings_per_men() states each), so that resolving a
    // state needs neither unindexing its men nor indexing its predecessors' men.
    std::vector<MenBlock> blocks_;
    // Per position of the slice, a StateWord (the predecessors of a position are scattered over
    // the whole slice).
    HugeArray<State> states_;
    std::vector<std::vector<std::uint32_t>> buckets_;
    std::mutex buckets_mutex_;
    tbb::enumerable_thread_specific<std::vector<Pushed>> staged_;
    // The positions of the level being resolved and of the next one, a bit per state (all zero
    // between levels but for the next one's).
    HugeArray<std::atomic<std::uint64_t>> level_, next_level_;
    bool level_marked_ = false;
    std::atomic<int> highest_{0};
};

template <class R>
void WholeSlice<R>::make_blocks() {
    blocks_.resize(slice_size_ / kings_per_men());
    for_each_men_block([&](int c, std::uint64_t men, std::uint64_t local) {
        MenBlock& block = blocks_[local / kings_per_men()];
        block.c = c;
        block.men = tables_.indices[c].men(men);
        // Predecessors are the flip's (in the mirror class, the same slice), and a king un-move
        // keeps the men.
        const int c_after = tables_.mirror(c);
        const std::uint64_t men_after = tables_.indices[c_after].men_index(
            tables_.flip.rotate(block.men.black), tables_.flip.rotate(block.men.white));
        block.king_predecessors = slice_->configuration_start(c_after, men_after);
    });
}

template <class R>
void WholeSlice<R>::initialise() {
    for_each_men_part(
        [&](int c, std::uint64_t men, std::uint64_t local, std::uint64_t begin, std::uint64_t end) {
            const MenBlock& block = blocks_[local / kings_per_men()];
            const ManMoves moves = initialiser_.man_moves(c, block.men, slice_->slice);
            if (begin == 0) initialiser_.prefetch_successor_results(moves);
            FreeSquares free;
            free.set(tables_.board_mask, block.men.white | block.men.black);
            const std::uint64_t first = men * kings_per_men();
            DeferredExits deferred;
            Sink sink{*this};
            tables_.indices[c].for_each_position(
                first + begin, first + end, [&](std::uint64_t i, const Position& p) {
                    initialiser_.initialise(local + (i - first), p, moves, free, deferred, sink);
                });
            initialiser_.finish_deferred(deferred, sink);
        });
    flush_staged();
}

// One level: this level's positions are the bits of level_ (set by the level before) and the
// entries of the bucket. Walking a bitmap visits them once each, in state order: the states are
// then read in order and the predecessors of consecutive positions share men configurations
// (state blocks), which keeps the random accesses mostly in the cache.
template <class R>
void WholeSlice<R>::resolve_level(int d) {
    auto& bucket = buckets_[d];
    if (bucket.empty() && !level_marked_) return;  // no scan of an empty level
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, bucket.size(), 4096), [&](const auto& r) {
        for (std::size_t i = r.begin(); i != r.end(); ++i) mark(level_, bucket[i]);
    });
    std::vector<std::uint32_t>().swap(bucket);
    std::atomic<std::uint64_t> entries{0};
    std::atomic<bool> any_next{false};
    // With exclusive updates tasks take whole men blocks: a king un-move leads from a block to
    // its flip's block only, so no two tasks touch the same predecessor. A slice of few blocks
    // (few men: kings-only classes are one block) is split by words instead, with atomic
    // updates, or a level would run on one thread.
    const std::uint64_t blocks = slice_size_ / kings_per_men();
    const auto walk = [&](auto exclusive, std::uint64_t first, std::uint64_t last) {
        const bool next = walk_level<decltype(exclusive)::value>(d, first, last, entries);
        if (next) any_next = true;
    };
    if (exclusive_updates && blocks >= 64) {
        const std::size_t grain =
            static_cast<std::size_t>(std::max<std::uint64_t>(1, 65536 / kings_per_men()));
        tbb::parallel_for(tbb::blocked_range<std::size_t>(0, blocks, grain), [&](const auto& r) {
            walk(std::true_type{}, r.begin() * kings_per_men(), r.end() * kings_per_men());
        });
    } else {
        tbb::parallel_for(
            tbb::blocked_range<std::size_t>(0, (slice_size_ + 63) / 64, 1024), [&](const auto& r) {
                walk(std::false_type{}, r.begin() * 64, std::min(r.end() * 64, slice_size_));
            });
    }
    flush_staged();  // longer losses, for later levels
    progress_->add(entries);
    if (any_next) store_max(highest_, d + 1);
    std::swap(level_, next_level_);
    level_marked_ = any_next;
}

// Resolves the positions of level d among states [first, last) and updates their predecessors;
// returns whether some go to level d + 1.
template <class R>
template <bool exclusive>
bool WholeSlice<R>::walk_level(int d, std::uint64_t first, std::uint64_t last,
                               std::atomic<std::uint64_t>& entries) {
    std::vector<Update> updates;
    updates.reserve(chunk * 32);
    BlockCache cache;
    std::uint32_t batch[chunk];
    std::size_t size = 0;
    std::uint64_t seen = 0;
    bool next = false;
    const auto resolve_batch = [&] {
        updates.clear();
        for (std::size_t i = 0; i != size; ++i) resolve<exclusive>(batch[i], d, updates, cache);
        for (const Update& u : updates) next |= apply<exclusive>(u, d);
        size = 0;
    };
    for (std::uint64_t w = first / 64; w * 64 < last; ++w) {
        // The bits of these states (a word at either end may be shared).
        std::uint64_t mask = ~std::uint64_t{0};
        if (w * 64 < first) mask &= ~std::uint64_t{0} << (first % 64);
        if (w * 64 + 64 > last) mask &= ~(~std::uint64_t{0} << (last % 64));
        const std::uint64_t bits = level_[w].load(std::memory_order_relaxed) & mask;
        if (!bits) continue;
        // Cleared, ready for level d + 2.
        if (mask == ~std::uint64_t{0})
            level_[w].store(0, std::memory_order_relaxed);
        else
            level_[w].fetch_and(~mask, std::memory_order_relaxed);
        seen += static_cast<std::uint64_t>(popcount(bits));
        for_each_bit(bits, [&](int b) {
            const auto s = static_cast<std::uint32_t>(w * 64 + b);
            __builtin_prefetch(&states_[s]);
            batch[size++] = s;
            if (size == chunk) resolve_batch();
        });
    }
    resolve_batch();
    entries += seen;
    return next;
}

template <class R>
template <bool exclusive>
void WholeSlice<R>::resolve(std::uint64_t s, int d, std::vector<Update>& updates,
                            BlockCache& cache) {
    State& state = states_[s];
    const StateWord w = StateWord::of(state.load(std::memory_order_relaxed));
    const Value value = resolution(w, d);
    if (value == Value::unknown) return;
    // A position is in a level once (a bitmap), so no other thread resolves it now; with
    // exclusive updates, none updates it either (apply), so a plain store is enough.
    const std::uint8_t resolved = resolved_status(value);
    if constexpr (exclusive)
        state.store(w.word() | resolved, std::memory_order_relaxed);
    else
        state.fetch_or(resolved, std::memory_order_relaxed);
    // Predecessors in a less advanced slice (man un-moves, but turkish sideways ones) are
    // solved later and read this one's value then.
    std::uint64_t j = 0, kings_index = 0;
    tables_.kings_per_men_divisor.divide(s, j, kings_index);
    const bool offers_win = value == Value::loss;
    const auto emit = [&](std::uint64_t q) {
        __builtin_prefetch(&states_[q], 1);
        updates.push_back({static_cast<std::uint32_t>(q), offers_win});
    };
    if constexpr (R::men_move_sideways) {
        predecessors_.by_unmoves(blocks_[j], kings_index, *slice_, emit);
    } else {
        if (cache.block != j) {
            cache.free.set(tables_.board_mask, blocks_[j].men.white | blocks_[j].men.black);
            cache.block = j;
        }
        predecessors_.by_king_unmoves(blocks_[j], kings_index, cache.free, emit);
    }
}

// Returns whether the predecessor goes to level d + 1.
template <class R>
template <bool exclusive>
bool WholeSlice<R>::apply(const Update& u, int d) {
    State& state = states_[u.predecessor];
    std::uint32_t old = state.load(std::memory_order_relaxed);
    Told told;
    for (;;) {
        told = u.offers_win ? told_lost(old, d) : told_won(old, d);
        if (told.word == old) return false;  // left alone
        if constexpr (exclusive) {
            // Only this task updates the predecessor, and nobody resolves it meanwhile (a
            // position resolved at d has a win at d or every move known to lose).
            state.store(told.word, std::memory_order_relaxed);
            break;
        } else if (state.compare_exchange_weak(old, told.word, std::memory_order_relaxed)) {
            break;
        }
    }
    if (told.level == d + 1) {
        mark(next_level_, u.predecessor);
        return true;
    }
    if (told.level != no_level) push(u.predecessor, told.level);
    return false;
}

// Calls f(class, men index, first slice-local state) for every men configuration of the slice,
// in parallel: each is kings_per_men() consecutive positions.
template <class R>
template <class F>
void WholeSlice<R>::for_each_men_block(F&& f) const {
    for (int c = 0; c < tables_.classes; ++c) {
        const SliceMen& men = slice_->men[c];
        tbb::parallel_for(tbb::blocked_range<std::size_t>(0, men.size(), 1), [&](const auto& r) {
            for (std::size_t j = r.begin(); j != r.end(); ++j)
                f(c, men[j], slice_->rank_start(c, j));
        });
    }
}

// Calls f(class, men index, first slice-local state, first and end kings index) for parts of
// every men configuration of the slice, in parallel, both classes in one loop: a configuration
// is split into parts of at most part_positions positions, so that a slice of few
// configurations keeps every thread busy (a class without men has one; whole configurations
// left one of two threads idle through most of such a class).
template <class R>
template <class F>
void WholeSlice<R>::for_each_men_part(F&& f) const {
    const std::uint64_t k = kings_per_men();
    const std::uint64_t parts = (k + part_positions - 1) / part_positions;  // per configuration
    const std::size_t first_class_men = slice_->men[0].size();
    const std::size_t men = first_class_men + slice_->men[1].size();
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, men * parts, 1), [&](const auto& r) {
        for (std::size_t i = r.begin(); i != r.end(); ++i) {
            const std::size_t j = i / parts;
            const int c = j < first_class_men ? 0 : 1;
            const std::size_t m = c == 0 ? j : j - first_class_men;
            const std::uint64_t begin = (i % parts) * part_positions;
            f(c, slice_->men[c][m], slice_->rank_start(c, m), begin,
              std::min(k, begin + part_positions));
        }
    });
}

}  // namespace

std::unique_ptr<WholeSliceSolver> make_whole_slice_solver(const PairTables& tables,
                                                          const PreviousSlice& previous,
                                                          std::uint64_t largest) {
    return dispatch(tables.variant.base, [&](auto rules) -> std::unique_ptr<WholeSliceSolver> {
        return std::make_unique<WholeSlice<decltype(rules)>>(tables, previous, largest);
    });
}

}  // namespace damas::solving
