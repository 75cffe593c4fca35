#include "gen/solver.hpp"

#include <tbb/blocked_range.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/global_control.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <new>
#include <string>
#include <type_traits>

#include "gen/huge_pages.hpp"
#include "gen/king_ranks.hpp"
#include "gen/unit_file.hpp"
#include "rules/error.hpp"
#include "rules/unmove.hpp"

#ifndef DAMAS_SPECIALISE_KINGS
#define DAMAS_SPECIALISE_KINGS 1
#endif

namespace damas {
namespace {

constexpr std::uint16_t no_distance = 0xFFFF;

// status bits
constexpr std::uint8_t resolved_bit = 1;
constexpr std::uint8_t draw_exit_bit = 2;
constexpr std::uint8_t capture_bit = 4;
constexpr int value_shift = 3;        // 2 bits: the value once resolved
constexpr std::uint8_t win_bit = 32;  // a win is known: the distance is the shortest one

// All the state of one position in 4 bytes, so that an update touches one cache line and twice
// as many positions fit in the caches: the status bits, the number of quiet moves in the slice
// not known yet to lose (pending), and a distance: with win_bit the shortest known win, else
// the longest known loss (which no longer matters once a win is known).
struct StateWord {
    std::uint8_t status = 0;
    std::uint8_t pending = 0;
    std::uint16_t distance = 0;

    static StateWord of(std::uint32_t w) {
        return {static_cast<std::uint8_t>(w), static_cast<std::uint8_t>(w >> 8),
                static_cast<std::uint16_t>(w >> 16)};
    }
    std::uint32_t word() const {
        return status | (std::uint32_t{pending} << 8) | (std::uint32_t{distance} << 16);
    }
};

// Whether a slice is solved as components of two men configurations (PairSolver::Component):
// where men only move forward, when it has enough of them to keep the threads busy, and they
// are small enough for a buffer per thread.
constexpr std::uint64_t largest_component_kings = std::uint64_t{1} << 20;
bool solved_by_components(bool men_move_sideways, std::uint64_t men_in_slice,
                          std::uint64_t kings_per_men, int threads, bool in_units) {
    const std::uint64_t t = static_cast<std::uint64_t>(threads);
    if (men_move_sideways || men_in_slice < 4 * t) return false;
    // In units, wherever a thread's buffers (96 bytes a kings placement) take less than the
    // slice solved whole would (8 bytes a position of both classes).
    return kings_per_men <= largest_component_kings ||
           (in_units && kings_per_men < (std::uint64_t{1} << 31) && 6 * t <= men_in_slice);
}

// A thread's decoded chunks of the unit file of the slice before the one being solved
// (gen/unit_file.hpp), the least recently used replaced: a men configuration's outcomes stay
// where man_moves() points until `capacity` other chunks were asked for, and the man moves of
// one men configuration (at most 24) ask for fewer.
class PreviousChunks {
  public:
    static constexpr int capacity = 32;

    // The `count` outcomes of a men configuration from slice position `local` on.
    const std::uint16_t* outcomes(const UnitReader& unit, int slice, std::uint64_t local,
                                  std::uint64_t count) {
        ++clock_;
        if (Entry& e = entries_[last_]; e.holds(slice, local)) return e.at(clock_, local);
        for (int i = 0; i < capacity; ++i)
            if (entries_[i].holds(slice, local)) return entries_[last_ = i].at(clock_, local);
        int victim = 0;
        for (int i = 1; i < capacity; ++i)
            if (entries_[i].used < entries_[victim].used) victim = i;
        Entry& e = entries_[last_ = victim];
        const std::size_t chunk = unit.chunk_at(local);
        // Written in parts of a men configuration (gen/compact_solver.hpp, by a run with
        // another budget): this solver reads whole ones, so the slice is solved again.
        if (local + count > unit.chunk(chunk).first + unit.chunk(chunk).positions)
            throw DamagedUnit{slice};
        unit.read(chunk, e.values, capture_);
        e.slice = slice;
        e.first = unit.chunk(chunk).first;
        return e.at(clock_, local);
    }

  private:
    struct Entry {
        int slice = -1;
        std::uint64_t first = 0, used = 0;
        std::vector<std::uint16_t> values;
        bool holds(int s, std::uint64_t local) const {
            return slice == s && local >= first && local - first < values.size();
        }
        const std::uint16_t* at(std::uint64_t clock, std::uint64_t local) {
            used = clock;
            return values.data() + (local - first);
        }
    };
    std::array<Entry, capacity> entries_;
    std::vector<std::uint8_t> capture_;
    std::uint64_t clock_ = 0;
    int last_ = 0;
};

template <class T>
void store_max(std::atomic<T>& a, T v) {
    T cur = a.load(std::memory_order_relaxed);
    while (v > cur && !a.compare_exchange_weak(cur, v, std::memory_order_relaxed)) {
    }
}

template <class R>
class PairSolver {
    using B = typename R::Board;

  public:
    PairSolver(const Variant& v, const PairLayout& layout, const SolvedStore& store,
               const ProgressFn& progress, SliceSolving solving, OpenUnit open_unit,
               OpenUnitStream stream_unit = {})
        : variant_(v),
          solving_(solving),
          board_(v.info().board),
          layout_(layout),
          store_(store),
          progress_(progress),
          classes_(layout.classes()),
          materials_{layout.material(0), layout.material(1)},
          indices_{layout.index(0), layout.index(1)},
          kings_per_men_(indices_[0].kings_per_men()),
          free_squares_(make_tables(board_).squares - materials_[0].men()) {
        open_unit_ = std::move(open_unit);
        stream_unit_ = std::move(stream_unit);
        const Material m = materials_[0];
        // The kings' rank arrays of the hot loops hold 8 kings a side (gen/king_ranks.hpp).
        for (const Material c : materials_)
            if (c.white_kings > 8 || c.black_kings > 8)
                throw Error("class " + c.name() + " has more kings than the solver handles (8)");
        for (int c = 0; c < 2; ++c) {
            const int wk = materials_[c].white_kings, bk = materials_[c].black_kings;
            kings_radix_[c] = FastDivisor(choose(free_squares_ - wk, bk));
            white_subsets_.emplace_back(wk, free_squares_);
            black_subsets_.emplace_back(bk, free_squares_ - wk);
        }
        total_ = layout_.positions();
        // The states of the largest slice solved whole (none if every one is in components).
        std::uint64_t largest = 0;
        for (int s = 0; s < indices_[0].slice_count(); ++s) {
            if (!by_components(s)) largest = std::max(largest, layout_.slice_positions(s));
        }
        if (largest >= (std::uint64_t{1} << 32))
            throw Error("class " + m.name() + " has a slice too large for the solver (2^32)");
        if (largest == 0) return;
        states_ = make_huge_array<State>(largest);
        level_ = make_huge_array<std::atomic<std::uint64_t>>((largest + 63) / 64);
        next_level_ = make_huge_array<std::atomic<std::uint64_t>>((largest + 63) / 64);
    }

    // Solves the slices from `first` on, handing each to `solved` once solved; `previous` holds
    // the values of slice first - 1 (none when first is 0).
    // With open_unit, the slice before is read from its unit file instead (`previous` unused).
    void run(int first, int end, SliceValues previous, const SliceFn& solved, SolveTimes* times) {
        previous_ = std::move(previous);
        previous_slice_ = previous_.slice;
        if (open_unit_ && first > 0) previous_unit_ = open_unit_(previous_slice_ = first - 1);
        if (previous_slice_ >= 0) previous_men_ = men_of_slice(previous_slice_);
        for (int s = 0; s < first; ++s) slices_done_ += layout_.slice_positions(s);
        done_ = slices_done_;
        report(0);
        for (int s = first; s < end; ++s) {
            current_men_ = men_of_slice(s);
            if (stream_unit_ && open_unit_ && by_components(s) &&
                UnitStream::streams(kings_per_men())) {
                stream_ = stream_unit_(s);
                solve_slice(s);
                stream_->close();
                stream_.reset();
            } else {
                current_.slice = s;
                const std::uint64_t n = layout_.slice_positions(s);
                current_.outcomes = huge_vector<std::uint16_t>(n);
                current_.capture.assign(n, 0);
                solve_slice(s);
                solved(current_);
            }
            // Only the slice just solved is read by the next one's man moves.
            previous_slice_ = s;
            previous_men_ = std::move(current_men_);
            if (open_unit_) {
                current_ = {};
                previous_unit_ = open_unit_(s);
            } else {
                previous_ = std::move(current_);
                current_ = {};
            }
        }
        if (times) *times = times_;
    }

  private:
    // A men configuration whose positions are consecutive states (kings_per_men() of them).
    struct Block {
        MenPlacement men;
        std::uint64_t king_predecessors;  // the first state of the men of the flip (the
                                          // predecessors by a king un-move)
        int c;
    };

    std::uint64_t kings_per_men() const { return kings_per_men_.divisor(); }

    // The men configurations of slice s of each class (the second empty for a class that is
    // its own mirror).
    std::array<SliceMen, 2> men_of_slice(int s) const {
        return {layout_.slice_men(0, s), classes_ == 2 ? layout_.slice_men(1, s) : SliceMen{}};
    }

    bool by_components(int s) const {
        return solving_ == SliceSolving::automatic &&
               solved_by_components(R::men_move_sideways, indices_[0].men_in_slice(s),
                                    kings_per_men(), threads_, static_cast<bool>(open_unit_));
    }

    void solve_slice(int s) {
        slice_ = s;
        if (by_components(s)) {
            solve_slice_by_components(s);
            return;
        }
        const auto t0 = std::chrono::steady_clock::now();
        for (int c = 0; c < classes_; ++c) base_[c] = layout_.slice_base(c, s);
        slice_size_ = layout_.slice_positions(s);
        buckets_.assign(static_cast<std::size_t>(max_plies) + 2, {});
        highest_ = 0;
        blocks_.resize(slice_size_ / kings_per_men());
        for_each_men_block([&](int c, std::uint64_t men, std::uint64_t local) {
            Block& block = blocks_[local / kings_per_men()];
            block.c = c;
            block.men = indices_[c].men(men);
            // Predecessors are the flip's (in the mirror class, the same slice), and a king
            // un-move keeps the men.
            const int c_after = mirror(c);
            const std::uint64_t men_after = indices_[c_after].men_index(
                flip_.rotate(block.men.black), flip_.rotate(block.men.white));
            block.king_predecessors =
                base_[c_after] + current_men_[c_after].rank(men_after) * kings_per_men();
        });
        for_each_men_part([&](int c, std::uint64_t men, std::uint64_t local, std::uint64_t begin,
                              std::uint64_t end) {
            const Block& block = blocks_[local / kings_per_men()];
            const ManMoves moves = man_moves(c, block.men);
            if (begin == 0) prefetch_successor_results(moves);
            FreeSquares free;
            free.set(board_mask_, block.men.white | block.men.black);
            const std::uint64_t first = men * kings_per_men();
            DeferredExits deferred;
            SliceSink sink{*this};
            indices_[c].for_each_position(
                first + begin, first + end, [&](std::uint64_t i, const Position& p) {
                    initialise(local + (i - first), p, moves, free, deferred, sink);
                });
            finish_deferred(deferred, sink);
        });
        flush_staged();
        const auto t1 = std::chrono::steady_clock::now();
        for (int d = 0; d <= highest_.load(); ++d) resolve_level(d);
        const auto t2 = std::chrono::steady_clock::now();
        store_results();
        times_.initialise += std::chrono::duration<double>(t1 - t0).count();
        times_.resolve += std::chrono::duration<double>(t2 - t1).count();
        slice_finished();
    }

    // The class of a position's colour flip: a move keeps the material, so a successor (after
    // the flip) or a predecessor (before it) of a position of class c is in the mirror class.
    int mirror(int c) const { return classes_ == 1 ? 0 : 1 - c; }
    // The slice-local state of a White-to-move position of class c in the slice.
    std::uint64_t local(int c, const Position& white_to_move) const {
        std::uint64_t men = 0, kings = 0;
        kings_per_men_.divide(indices_[c].index(white_to_move), men, kings);
        return base_[c] + current_men_[c].rank(men) * kings_per_men() + kings;
    }

    struct Pushed {
        std::uint32_t state;
        std::uint16_t level;
    };
    static constexpr std::size_t staged_batch = 4096;
    // Bucket entries are staged per thread and moved to the buckets in batches: a shared
    // concurrent vector made both threads fight for its size counter on every entry.
    static void check_distance(int d) {
        if (d > max_plies) throw Error("distance beyond " + std::to_string(max_plies) + " plies");
    }
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
    // Where initialise leaves the states of a slice solved as a whole.
    struct SliceSink {
        PairSolver& solver;
        std::atomic<std::uint32_t>& state(std::uint64_t s) { return solver.states_[s]; }
        void push(std::uint64_t s, int d) { solver.push(s, d); }
    };
    // After a parallel phase: every staged entry into the buckets.
    void flush_staged() {
        for (std::vector<Pushed>& staged : staged_) move_to_buckets(staged);
    }

    // White's quiet man moves in one men configuration and where they lead: the same for every
    // placement of the kings, except that a king on the arrival square blocks the move.
    struct ManMove {
        Bitboard to;  // the arrival square
        Move move;    // for a crowning move, looked up in the store
        // The results of the successor's men configuration (solved before), or null when it is
        // in this slice (turkish sideways moves) or the move crowns.
        const std::uint16_t* results;
        int c_after;  // the successor's class
    };
    struct ManMoves {
        // At most 8 pieces, at most 3 directions per man (turkish: forward and sideways).
        std::array<ManMove, 24> items;
        int size = 0;
    };
    ManMoves man_moves(int c, const MenPlacement& placement) const {
        Position only_men;
        only_men.pieces = {placement.white, placement.black};
        MoveList list;
        MoveGenerator<R>::generate_man_moves(only_men, list);
        if (list.size() > static_cast<int>(ManMoves{}.items.size()))
            throw Error("too many man moves in one position");
        ManMoves out;
        const int c_after = mirror(c);
        for (const Move& m : list) {
            ManMove& mm = out.items[out.size++];
            mm = {bit(m.to), m, nullptr, c_after};
            if (m.promotes) continue;
            const Bitboard white_after = (placement.white & ~bit(m.from)) | bit(m.to);
            const Bitboard new_white = flip_.rotate(placement.black);
            const Bitboard new_black = flip_.rotate(white_after);
            const std::uint64_t men_after = indices_[c_after].men_index(new_white, new_black);
            // A forward move advances a man, so it leaves the slice (slices.cpp) for the one
            // solved just before (one step more advanced); a turkish sideways move may stay.
            if (!R::men_move_sideways ||
                indices_[c_after].slice_of_men(new_white, new_black) != slice_)
                mm.results = previous_outcomes(c_after, men_after);
        }
        return out;
    }

    // The outcomes of men configuration `men` of class c in the slice before, kings_per_men() of
    // them: held, or from the unit file (valid until this thread asks for many other chunks).
    const std::uint16_t* previous_outcomes(int c, std::uint64_t men) const {
        const std::uint64_t local =
            layout_.slice_base(c, previous_slice_) + previous_men_[c].rank(men) * kings_per_men();
        if (!previous_unit_) return previous_.outcomes.data() + local;
        return previous_chunks_.local().outcomes(*previous_unit_, previous_slice_, local,
                                                 kings_per_men());
    }

    // What a position's exits tell so far: the best exit win gives a tentative win distance,
    // exit losses the longest loss, an exit draw rules out a loss.
    struct Exits {
        static Exits of_captures() { return {capture_bit, no_distance, 0}; }

        std::uint8_t flags = 0;
        int win = no_distance, loss = 0;

        void add(const Outcome after) {
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
    };

    // Positions whose exits into smaller classes (captures, crowning moves) are looked up in
    // batches: located and prefetched first (the classes are read at random), read once the
    // whole batch is in flight. Each keeps what its other exits told and its pending count.
    struct DeferredExits {
        static constexpr int positions = 32, max_exits = 512;
        std::uint64_t state[positions];
        Exits known[positions];
        std::uint8_t pending[positions];
        std::uint16_t first[positions + 1];
        // Where each exit's outcome is, or the outcome itself (packed) when no slot holds it.
        // Trivial members: the batch is made per men configuration, and initialising 512
        // entries took a fifth of the time in the classes without kings (one position each).
        struct Exit {
            const std::uint16_t* slot;
            std::uint16_t packed;
        };
        Exit exits[max_exits];
        int count = 0, exit_count = 0;

        // Whether position s with n such exits joins the batch (else they are looked up at once).
        bool add(std::uint64_t s, int n, const Exits& so_far, int pending_moves) {
            if (n > max_exits / positions || pending_moves > 255) return false;
            state[count] = s;
            known[count] = so_far;
            pending[count] = static_cast<std::uint8_t>(pending_moves);
            first[count++] = static_cast<std::uint16_t>(exit_count);
            return true;
        }
        void locate(const SolvedStore& store, const Position& p, const Move& m) {
            const auto at = store.locate<R>(make_move(p, m));
            if (at.slot) __builtin_prefetch(at.slot);
            exits[exit_count++] = {at.slot, at.slot ? std::uint16_t{0} : pack_outcome(at.outcome)};
        }
        bool full() const { return count == positions; }
    };

    template <class Sink>
    void finish_deferred(DeferredExits& deferred, Sink& sink) {
        deferred.first[deferred.count] = static_cast<std::uint16_t>(deferred.exit_count);
        for (int k = 0; k < deferred.count; ++k) {
            Exits exits = deferred.known[k];
            for (int e = deferred.first[k]; e < deferred.first[k + 1]; ++e) {
                const auto& at = deferred.exits[e];
                exits.add(unpack_outcome(at.slot ? *at.slot : at.packed));
            }
            finish(deferred.state[k], exits, deferred.pending[k], sink);
        }
        deferred.count = deferred.exit_count = 0;
    }

    // The results of the men configurations the man moves lead to are read at random, a few
    // per position, by every position of the block: asked for at once (whole lines in flight
    // together) instead of one missed line at a time.
    void prefetch_successor_results(const ManMoves& moves) const {
        const std::size_t bytes = kings_per_men() * sizeof(std::uint16_t);
        for (int j = 0; j < moves.size; ++j) {
            if (!moves.items[j].results) continue;
            const char* p = reinterpret_cast<const char*>(moves.items[j].results);
            for (std::size_t at = 0; at < bytes; at += 64) __builtin_prefetch(p + at);
        }
    }

    // Sets state s (of sink: the slice's states or a component's) of position p, and pushes it
    // to the level it may resolve at.
    // WK and BK: the class's kings when known at compile time (the loops unroll), else -1.
    template <int WK = -1, int BK = -1, class Sink>
    void initialise(std::uint64_t s, const Position& p, const ManMoves& man_moves,
                    const FreeSquares& free, DeferredExits& deferred, Sink& sink) {
        std::atomic<std::uint32_t>& state = sink.state(s);
        if (const Outcome m = material_outcome<R>(p, variant_.giveaway);
            m.value != Value::unknown) {
            // The whole pair ends the game on the spot: nothing to propagate. DTW 0 either way.
            state.store(StateWord{static_cast<std::uint8_t>(
                                      resolved_bit | (static_cast<int>(m.value) << value_shift)),
                                  0, 0}
                            .word(),
                        std::memory_order_relaxed);
            return;
        }
        // Only the moves that leave the slice are generated and looked up; the quiet moves that
        // stay in it are just counted.
        MoveList moves;
        int pending = 0;
        Exits exits;
        if (MoveGenerator<R>::has_capture(p)) {
            MoveGenerator<R>::generate_captures(p, moves);
            if (deferred.add(s, moves.size(), Exits::of_captures(), 0)) {
                for (const Move& m : moves) deferred.locate(store_, p, m);
                if (deferred.full()) finish_deferred(deferred, sink);
                return;
            }
            exits = Exits::of_captures();
            for (const Move& m : moves) exits.add(store_.lookup<R>(make_move(p, m)));
        } else {
            pending = MoveGenerator<R>::count_quiet(p);
            if (pending == 0) {  // no move: lost, or won in giveaway, at once
                state.store(StateWord{variant_.giveaway ? win_bit : std::uint8_t{0}, 0, 0}.word(),
                            std::memory_order_relaxed);
                sink.push(s, 0);
                return;
            }
            // The kings by rank among the free squares: a man move does not move them, and the
            // successor is the flip (gen/king_ranks.hpp).
            int white[8], black[8], white_at[8], black_at[8];
            const int wk = kings_by_rank<WK>(p.kings_of(Color::white), free, white_at, white);
            const int bk = kings_by_rank<BK>(p.kings_of(Color::black), free, black_at, black);
            const Move* crowning[24];
            int crownings = 0;
            for (int j = 0; j < man_moves.size; ++j) {
                const ManMove& m = man_moves.items[j];
                if (p.kings & m.to) continue;
                if (m.move.promotes) {
                    crowning[crownings++] = &m.move;
                    --pending;
                    continue;
                }
                // A man move to a more advanced slice, solved before this one.
                if (!m.results) continue;
                // The move frees `from` and takes `to`: the ranks of the squares between shift.
                const int from = m.move.from, to = m.move.to;
                int white_after[8], black_after[8];
                for (int t = 0; t < wk; ++t)
                    white_after[t] = white[t] + (white_at[t] > from) - (white_at[t] > to);
                for (int t = 0; t < bk; ++t)
                    black_after[t] = black[t] + (black_at[t] > from) - (black_at[t] > to);
                exits.add(unpack_outcome(
                    m.results[flipped_kings_index(white_after, wk, black_after, bk, free.count,
                                                  kings_radix_[m.c_after].divisor())]));
                --pending;
            }
            if (crownings > 0) {
                if (deferred.add(s, crownings, exits, pending)) {
                    for (int j = 0; j < crownings; ++j) deferred.locate(store_, p, *crowning[j]);
                    if (deferred.full()) finish_deferred(deferred, sink);
                    return;
                }
                for (int j = 0; j < crownings; ++j)
                    exits.add(store_.lookup<R>(make_move(p, *crowning[j])));
            }
        }
        finish(s, exits, pending, sink);
    }

    // The squares of `kings` (K of them if K >= 0) into at, their ranks among the free squares
    // into rank; returns how many.
    template <int K>
    [[gnu::always_inline]] static int kings_by_rank(Bitboard kings, const FreeSquares& free,
                                                    int* at, int* rank) {
        if constexpr (K >= 0) {
            for (int t = 0; t < K; ++t, kings &= kings - 1) {
                at[t] = lowest_bit(kings);
                rank[t] = free.rank[at[t]];
            }
            return K;
        } else {
            int n = 0;
            for_each_bit(kings, [&](int b) {
                at[n] = b;
                rank[n++] = free.rank[b];
            });
            return n;
        }
    }

    // A position's state once its exits are known; pushed to the level it may resolve at.
    template <class Sink>
    void finish(std::uint64_t s, const Exits& exits, int pending, Sink& sink) {
        std::atomic<std::uint32_t>& state = sink.state(s);
        if (pending > 255) throw Error("too many quiet moves in one position");
        std::uint8_t flags = exits.flags;
        const int win = exits.win, loss = exits.loss;
        int distance = loss;
        if (win != no_distance) {
            flags |= win_bit;
            distance = win;
            sink.push(s, win);
        } else if (pending == 0) {
            if (flags & draw_exit_bit)
                flags |= resolved_bit | (static_cast<int>(Value::draw) << value_shift);
            else
                sink.push(s, loss);
        }
        state.store(StateWord{flags, static_cast<std::uint8_t>(pending),
                              static_cast<std::uint16_t>(distance)}
                        .word(),
                    std::memory_order_relaxed);
    }

    // One level: this level's positions are the bits of level_ (set by the level before) and
    // the entries of the bucket. Walking a bitmap visits them once each, in state order: the
    // states are then read in order and the predecessors of consecutive positions share men
    // configurations (state blocks), which keeps the random accesses mostly in the cache.
    void resolve_level(int d) {
        auto& bucket = buckets_[d];
        if (bucket.empty() && !level_marked_) return;  // no scan of an empty level
        tbb::parallel_for(tbb::blocked_range<std::size_t>(0, bucket.size(), 4096),
                          [&](const auto& r) {
                              for (std::size_t i = r.begin(); i != r.end(); ++i)
                                  mark(level_, bucket[i]);
                          });
        std::vector<std::uint32_t>().swap(bucket);
        std::atomic<std::uint64_t> entries{0};
        std::atomic<bool> any_next{false};
        // With exclusive updates tasks take whole men blocks: a king un-move leads from a block
        // to its flip's block only, so no two tasks touch the same predecessor. A slice of few
        // blocks (few men: kings-only classes are one block) is split by words instead, with
        // atomic updates, or a level would run on one thread.
        const std::uint64_t blocks = slice_size_ / kings_per_men();
        const auto walk = [&](auto exclusive, std::uint64_t first, std::uint64_t last) {
            const bool next = walk_level<decltype(exclusive)::value>(d, first, last, entries);
            if (next) any_next = true;
        };
        if (exclusive_updates && blocks >= 64) {
            const std::size_t grain =
                static_cast<std::size_t>(std::max<std::uint64_t>(1, 65536 / kings_per_men()));
            tbb::parallel_for(
                tbb::blocked_range<std::size_t>(0, blocks, grain), [&](const auto& r) {
                    walk(std::true_type{}, r.begin() * kings_per_men(), r.end() * kings_per_men());
                });
        } else {
            tbb::parallel_for(tbb::blocked_range<std::size_t>(0, (slice_size_ + 63) / 64, 1024),
                              [&](const auto& r) {
                                  walk(std::false_type{}, r.begin() * 64,
                                       std::min(r.end() * 64, slice_size_));
                              });
        }
        flush_staged();  // longer losses, for later levels
        report(entries);
        if (any_next) store_max(highest_, d + 1);
        std::swap(level_, next_level_);
        level_marked_ = any_next;
    }

    // Resolves the positions of level d among states [first, last) and updates their
    // predecessors; returns whether some go to level d + 1.
    template <bool exclusive>
    bool walk_level(int d, std::uint64_t first, std::uint64_t last,
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
    void resolve(std::uint64_t s, int d, std::vector<Update>& updates, BlockCache& cache) {
        std::atomic<std::uint32_t>& state = states_[s];
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
        kings_per_men_.divide(s, j, kings_index);
        if constexpr (R::men_move_sideways) {
            predecessors_by_unmoves(j, kings_index, value, updates);
        } else {
            if (cache.block != j) {
                cache.free.set(board_mask_, blocks_[j].men.white | blocks_[j].men.black);
                cache.block = j;
            }
            const bool offers_win = value == Value::loss;
            predecessors_by_king_unmoves(blocks_[j], kings_index, cache.free, [&](std::uint32_t q) {
                __builtin_prefetch(&states_[q], 1);
                updates.push_back({q, offers_win});
            });
        }
    }

    // The value a position resolves to at level d (unknown if it does not): a win if its best
    // win is in d, a loss if every move is known to lose and the longest loss is d.
    static Value resolution(StateWord w, int d) {
        if (w.status & resolved_bit) return Value::unknown;
        if (w.status & win_bit) return w.distance == d ? Value::win : Value::unknown;
        if (w.pending == 0 && !(w.status & draw_exit_bit) && w.distance == d) return Value::loss;
        return Value::unknown;
    }
    static std::uint8_t resolved_status(Value v) {
        return static_cast<std::uint8_t>(resolved_bit | (static_cast<int>(v) << value_shift));
    }

    // Any rules: s's position after White's move, seen with Black to move, is flip(s); its
    // un-moves (rules/unmove.hpp) in the slice.
    void predecessors_by_unmoves(std::uint64_t j, std::uint64_t kings_index, Value value,
                                 std::vector<Update>& updates) const {
        const Block& block = blocks_[j];
        Bitboard white_kings = 0, black_kings = 0;
        indices_[block.c].unindex_kings(kings_index, block.men.white | block.men.black, white_kings,
                                        black_kings);
        Position p;
        p.pieces = {block.men.white | white_kings, block.men.black | black_kings};
        p.kings = white_kings | black_kings;
        const Position after = flip_(p);
        const int c = mirror(block.c);
        UnmoveGenerator<R>::template for_each<false, true>(after, [&](const Unmove& u) {
            const std::uint64_t q =
                (u.before.kings & bit(u.move.from))
                    ? block.king_predecessors + indices_[c].kings_index(u.before)
                    : local(c, u.before);
            __builtin_prefetch(&states_[q], 1);
            updates.push_back({static_cast<std::uint32_t>(q), value == Value::loss});
        });
    }

    // The same where men only move forward: the only un-moves in the slice are Black's king
    // un-moves, each to the flip's men block. Worked out on ranks among the block's free squares
    // (gen/king_ranks.hpp) instead of positions and bitboards: the predecessor, flipped, has
    // White kings where s has Black ones (one moved back) and Black kings where s has White
    // ones, and a free square of rank r has rank free.count - 1 - r there.
    // WK and BK: the block's class's kings when known at compile time (the loops unroll),
    // else -1.
    template <int WK = -1, int BK = -1, class Emit>
    [[gnu::always_inline]] void predecessors_by_king_unmoves(const Block& block,
                                                             std::uint64_t kings_index,
                                                             const FreeSquares& free,
                                                             Emit&& emit) const {
        const Material& m = materials_[block.c];
        const int wk = WK >= 0 ? WK : m.white_kings, bk = BK >= 0 ? BK : m.black_kings;
        const int n = free.count;
        std::uint64_t white_rank = 0, black_rank = 0;
        kings_radix_[block.c].divide(kings_index, white_rank, black_rank);
        int white[8], black[8];
        white_subsets_[static_cast<std::size_t>(block.c)].unrank(white_rank, wk, white);
        black_subsets_[static_cast<std::size_t>(block.c)].unrank(black_rank, bk, black);
        skip_ranks(black, bk, white, wk);  // ranks among all the free squares
        Bitboard kings = 0;
        for (int i = 0; i < wk; ++i) kings |= free.square[white[i]];
        for (int i = 0; i < bk; ++i) kings |= free.square[black[i]];
        const Bitboard empty = board_mask_ & ~(block.men.white | block.men.black | kings);
        const std::uint64_t radix = kings_radix_[mirror(block.c)].divisor();
        for (int i = 0; i < bk; ++i) {
            const Bitboard to = free.square[black[i]];
            for (int dir = 0; dir < 4; ++dir)
                for (Bitboard from = B::step(to, dir) & empty; from;
                     from = B::step(from, dir) & empty) {
                    int moved[8];
                    for (int t = 0; t < bk; ++t)
                        moved[t] = t == i ? free.rank[lowest_bit(from)] : black[t];
                    sort_short(moved, bk);
                    emit(static_cast<std::uint32_t>(
                        block.king_predecessors +
                        flipped_kings_index(white, wk, moved, bk, n, radix)));
                    if (!R::flying_kings) break;
                }
        }
    }

    // Per class, the kings index of each kings index's colour flip (flipped_kings_index): it
    // depends on the kings' ranks among the free squares alone, not on where the men are.
    void make_flipped_kings() {
        const int n = free_squares_;
        for (int c = 0; c < classes_; ++c) {  // a class its own mirror needs one
            const int wk = materials_[c].white_kings, bk = materials_[c].black_kings;
            const std::uint64_t radix = kings_radix_[mirror(c)].divisor();
            flipped_kings_[c].resize(kings_per_men());
            tbb::parallel_for(tbb::blocked_range<std::uint64_t>(0, kings_per_men(), 4096),
                              [&](const auto& r) {
                                  for (std::uint64_t k = r.begin(); k != r.end(); ++k) {
                                      std::uint64_t white_rank = 0, black_rank = 0;
                                      kings_radix_[c].divide(k, white_rank, black_rank);
                                      int white[8], black[8];
                                      white_subsets_[c].unrank(white_rank, wk, white);
                                      black_subsets_[c].unrank(black_rank, bk, black);
                                      skip_ranks(black, bk, white, wk);
                                      flipped_kings_[c][k] = static_cast<std::uint32_t>(
                                          flipped_kings_index(white, wk, black, bk, n, radix));
                                  }
                              });
        }
    }

    // predecessors_by_king_unmoves for a component: each predecessor is the flip of s with one
    // Black king moved back, whose kings index is found on the Black kings' ranks among the
    // squares the White kings leave, then flipped by table (flipped_kings_).
    template <int WK, int BK, class Emit>
    [[gnu::always_inline]] void predecessors_by_flip_table(const Block& block,
                                                           std::uint64_t kings_index,
                                                           const FreeSquares& free,
                                                           Emit&& emit) const {
        const auto c = static_cast<std::size_t>(block.c);
        const Material& m = materials_[c];
        const int wk = WK >= 0 ? WK : m.white_kings, bk = BK >= 0 ? BK : m.black_kings;
        std::uint64_t white_rank = 0, black_rank = 0;
        kings_radix_[c].divide(kings_index, white_rank, black_rank);
        int white[8], black[8], black_square[8];
        white_subsets_[c].unrank(white_rank, wk, white);
        black_subsets_[c].unrank(black_rank, bk, black);
        for (int i = 0; i < bk; ++i) black_square[i] = black[i];
        skip_ranks(black_square, bk, white, wk);  // ranks among all the free squares
        Bitboard kings = 0;
        for (int i = 0; i < wk; ++i) kings |= free.square[white[i]];
        for (int i = 0; i < bk; ++i) kings |= free.square[black_square[i]];
        const Bitboard empty = board_mask_ & ~(block.men.white | block.men.black | kings);
        const std::uint64_t first = white_rank * kings_radix_[c].divisor();
        const std::uint32_t* flipped = flipped_kings_[c].data();
        for (int i = 0; i < bk; ++i) {
            const Bitboard to = free.square[black_square[i]];
            for (int dir = 0; dir < 4; ++dir)
                for (Bitboard from = B::step(to, dir) & empty; from;
                     from = B::step(from, dir) & empty) {
                    // The from square's rank among the squares the White kings leave.
                    int rank = free.rank[lowest_bit(from)];
                    int below = 0;
                    for (int t = 0; t < wk; ++t) below += white[t] < rank ? 1 : 0;
                    rank -= below;
                    int moved[8];
                    for (int t = 0; t < bk; ++t) moved[t] = t == i ? rank : black[t];
                    sort_short(moved, bk);
                    emit(static_cast<std::uint32_t>(block.king_predecessors +
                                                    flipped[first + colex_rank(moved, bk)]));
                    if (!R::flying_kings) break;
                }
        }
    }

    // Whether each predecessor is updated by one task only, so that updates need no atomic
    // read-modify-write: in-slice un-moves are king un-moves, which lead from a men block to its
    // flip's block only (resolve_level gives each task whole blocks). Turkish sideways man
    // un-moves lead elsewhere.
    static constexpr bool exclusive_updates = !R::men_move_sideways;

    // What a position resolved at d tells a predecessor in state w: the predecessor's new state,
    // and the level it may now resolve at (no_level if none). A loss offers a win in d + 1; a win
    // takes one from the pending count and may complete a loss (in d + 1, or longer when known
    // since an earlier level). A resolved predecessor is left alone, and so is one that must
    // capture (it cannot have made the quiet move), or one offered no shorter win, or one with a
    // win known when told of a loss. Without branches: which case applies is unpredictable (most
    // predecessors are already resolved), and mispredicted branches cost more than the update.
    struct Told {
        std::uint32_t word;
        int level;
    };
    static constexpr int no_level = -1;
    [[gnu::always_inline]] static Told told_lost(std::uint32_t w, int d) {
        const auto next = static_cast<std::uint32_t>(d + 1);
        const bool skip = ((w & (resolved_bit | capture_bit)) != 0) |
                          (((w & win_bit) != 0) & ((w >> 16) <= next));
        const std::uint32_t offered = (w & 0xFFFF) | win_bit | (next << 16);
        return {skip ? w : offered, skip ? no_level : d + 1};
    }
    [[gnu::always_inline]] static Told told_won(std::uint32_t w, int d) {
        const auto next = static_cast<std::uint32_t>(d + 1);
        const bool skip = (w & (resolved_bit | capture_bit | win_bit)) != 0;
        const std::uint32_t pending = ((w >> 8) & 0xFF) - 1;  // unused when skipped
        const std::uint32_t distance = std::max(w >> 16, next);
        const std::uint32_t taken = (w & 0xFF) | ((pending & 0xFF) << 8) | (distance << 16);
        const bool loses = !skip & (pending == 0) & ((w & draw_exit_bit) == 0);
        return {skip ? w : taken, loses ? static_cast<int>(distance) : no_level};
    }

    // Returns whether the predecessor goes to level d + 1.
    template <bool exclusive>
    bool apply(const Update& u, int d) {
        std::atomic<std::uint32_t>& state = states_[u.predecessor];
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

    // Calls f(class, men index, first slice-local state) for every men configuration of the
    // slice being solved, in parallel: each is kings_per_men() consecutive positions.
    template <class F>
    void for_each_men_block(F&& f) const {
        for (int c = 0; c < classes_; ++c) {
            const SliceMen& men = current_men_[c];
            tbb::parallel_for(tbb::blocked_range<std::size_t>(0, men.size(), 1),
                              [&](const auto& r) {
                                  for (std::size_t j = r.begin(); j != r.end(); ++j)
                                      f(c, men[j], base_[c] + j * kings_per_men());
                              });
        }
    }

    // Calls f(class, men index, first slice-local state, first and end kings index) for parts
    // of every men configuration of the slice being solved, in parallel, both classes in one
    // loop: a configuration is split into parts of at most part_positions positions, so that a
    // slice of few configurations keeps every thread busy (a class without men has one; whole
    // configurations left one of two threads idle through most of such a class).
    static constexpr std::uint64_t part_positions = std::uint64_t{1} << 16;
    template <class F>
    void for_each_men_part(F&& f) const {
        const std::uint64_t k = kings_per_men();
        const std::uint64_t parts = (k + part_positions - 1) / part_positions;  // per configuration
        const std::size_t first_class_men = current_men_[0].size();
        const std::size_t men = first_class_men + current_men_[1].size();
        tbb::parallel_for(tbb::blocked_range<std::size_t>(0, men * parts, 1), [&](const auto& r) {
            for (std::size_t i = r.begin(); i != r.end(); ++i) {
                const std::size_t j = i / parts;
                const int c = j < first_class_men ? 0 : 1;
                const std::size_t m = c == 0 ? j : j - first_class_men;
                const std::uint64_t begin = (i % parts) * part_positions;
                f(c, current_men_[c][m], base_[c] + m * k, begin,
                  std::min(k, begin + part_positions));
            }
        });
    }

    // The slice's values, from its states (the same layout).
    void store_results() {
        for_each_men_part(
            [&](int, std::uint64_t, std::uint64_t local, std::uint64_t begin, std::uint64_t end) {
                for (std::uint64_t k = begin; k < end; ++k)
                    store_result(local + k, states_[local + k]);
            });
    }
    // Slice-local position `local`'s final state into the slice's values (unresolved: a draw).
    void store_result(std::uint64_t local, const std::atomic<std::uint32_t>& state) {
        result_of(state, current_.outcomes[local], current_.capture[local]);
    }
    static void result_of(const std::atomic<std::uint32_t>& state, std::uint16_t& outcome,
                          std::uint8_t& capture) {
        const StateWord w = StateWord::of(state.load(std::memory_order_relaxed));
        Outcome o{Value::draw, 0};
        if (w.status & resolved_bit) {
            o.value = static_cast<Value>((w.status >> value_shift) & 3);
            if (o.value == Value::win || o.value == Value::loss) o.plies = w.distance;
        }
        outcome = pack_outcome(o);
        capture = (w.status & capture_bit) ? 1 : 0;
    }

    // Where men only move forward, the quiet moves that stay in a slice are king moves, which
    // keep the men: they lead from a men configuration to its flip's (in the mirror class) and
    // back. The slice falls apart into components of two men configurations (one where a
    // configuration is its own flip), each solved whole by one task, level after level: its
    // 2 x kings_per_men() states stay in the core's cache, and tasks share nothing. The same
    // rules (initialise, resolution, update) as a slice solved whole, so the same values.
    struct Component {
        std::unique_ptr<std::atomic<std::uint32_t>[]> states;
        std::vector<std::vector<std::uint32_t>> buckets;  // the states pushed, by distance
        int highest = 0;                                  // the highest level pushed
        int touched = 0;  // the highest level that may have room left from earlier components
        double initialise = 0, resolve = 0;  // seconds of this thread, over the slice
        // When the component being solved started: two clock reads per component, not three
        // (a component of the classes without kings is one or two positions).
        std::chrono::steady_clock::time_point clock;
        // A men configuration's values on their way to a streamed unit file.
        std::vector<std::uint16_t> outcomes;
        std::vector<std::uint8_t> capture;

        std::atomic<std::uint32_t>& state(std::uint64_t s) { return states[s]; }
        void push(std::uint64_t s, int d) {
            check_distance(d);
            buckets[static_cast<std::size_t>(d)].push_back(static_cast<std::uint32_t>(s));
            highest = std::max(highest, d);
        }
    };
    struct ComponentMen {
        std::uint64_t men[2];    // the men index of each configuration: class 0's, its flip's
        std::uint64_t rank;      // class 0's configuration's rank in the slice
        int blocks;              // 1 when the class is its own mirror and men[0] its own flip
        MenPlacement placement;  // class 0's men
    };

    // The component of the j-th men configuration of class 0 in the slice being solved, or
    // false where it is another one's (a class that is its own mirror: the flip's).
    bool component_at(std::uint64_t j, ComponentMen& out) const {
        const std::uint64_t men = current_men_[0][j];
        const MenPlacement p = indices_[0].men(men);
        const std::uint64_t flipped =
            indices_[mirror(0)].men_index(flip_.rotate(p.black), flip_.rotate(p.white));
        if (classes_ == 1 && flipped < men) return false;  // in flipped's component
        out = {{men, flipped}, j, classes_ == 1 && flipped == men ? 1 : 2, p};
        return true;
    }

    void solve_slice_by_components(int s) {
        const auto t0 = std::chrono::steady_clock::now();
        if (flipped_kings_[0].empty()) make_flipped_kings();
        // Made as they are solved: a list of the slice's components took 48 bytes a
        // configuration (4.5 GB for the largest slice of international 3040, 93 M).
        std::atomic<std::uint64_t> components{0};
        tbb::parallel_for(
            tbb::blocked_range<std::uint64_t>(0, current_men_[0].size(), 1), [&](const auto& r) {
                Component& component = components_.local();
                if (!component.states) {
                    component.states =
                        std::make_unique<std::atomic<std::uint32_t>[]>(2 * kings_per_men());
                    component.buckets.resize(max_plies + 1);
                }
                component.clock = std::chrono::steady_clock::now();
                std::uint64_t solved = 0;
                for (std::uint64_t j = r.begin(); j != r.end(); ++j) {
                    ComponentMen men;
                    if (!component_at(j, men)) continue;
                    solve_component(men, component);
                    ++solved;
                }
                components.fetch_add(solved, std::memory_order_relaxed);
            });
        times_.components += components.load();
        // The threads' time split in the proportion of their phases.
        double initialise = 0, resolve = 0;
        for (Component& component : components_) {
            initialise += component.initialise;
            resolve += component.resolve;
            component.initialise = component.resolve = 0;
        }
        const double wall =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        const double share = initialise + resolve > 0 ? initialise / (initialise + resolve) : 0;
        times_.initialise += wall * share;
        times_.resolve += wall * (1 - share);
        slice_size_ = layout_.slice_positions(s);
        slice_finished();
    }

    void solve_component(const ComponentMen& men, Component& component) {
        const auto t0 = component.clock;  // the previous component's end
        const std::uint64_t k = kings_per_men();
        Block blocks[2];
        FreeSquares free[2];
        for (int b = 0; b < men.blocks; ++b) {
            const int c = b == 0 ? 0 : mirror(0);
            // The flip's men are class 0's rotated (no unranking).
            const MenPlacement placement = b == 0 ? men.placement
                                                  : MenPlacement{flip_.rotate(men.placement.black),
                                                                 flip_.rotate(men.placement.white)};
            blocks[b] = {placement, men.blocks == 2 ? (1 - b) * k : 0, c};
            free[b].set(board_mask_, blocks[b].men.white | blocks[b].men.black);
            const ManMoves moves = man_moves(c, placement);
            prefetch_successor_results(moves);
            const std::uint64_t first = men.men[b] * k;
            DeferredExits deferred;
            with_kings(materials_[c], [&](auto white_kings, auto black_kings) {
                indices_[c].for_each_position(
                    first, first + k, [&](std::uint64_t i, const Position& p) {
                        initialise<white_kings, black_kings>(b * k + (i - first), p, moves, free[b],
                                                             deferred, component);
                    });
            });
            finish_deferred(deferred, component);
        }
        const auto t1 = std::chrono::steady_clock::now();
        with_kings(materials_[0], [&](auto white_kings, auto black_kings) {
            resolve_component<white_kings, black_kings>(blocks, free, component);
        });
        for (int b = 0; b < men.blocks; ++b) {
            // Class 0's rank is known from the list (a computed layout's rank is a search).
            const std::uint64_t rank =
                b == 0 ? men.rank : current_men_[blocks[b].c].rank(men.men[b]);
            const std::uint64_t local = layout_.slice_base(blocks[b].c, slice_) + rank * k;
            if (stream_) {
                component.outcomes.resize(k);
                component.capture.resize(k);
                for (std::uint64_t i = 0; i < k; ++i)
                    result_of(component.states[b * k + i], component.outcomes[i],
                              component.capture[i]);
                stream_->put(local, component.outcomes, component.capture);
            } else {
                for (std::uint64_t i = 0; i < k; ++i)
                    store_result(local + i, component.states[b * k + i]);
            }
        }
        const auto t2 = std::chrono::steady_clock::now();
        component.initialise += std::chrono::duration<double>(t1 - t0).count();
        component.resolve += std::chrono::duration<double>(t2 - t1).count();
        component.clock = t2;
    }

    // Calls f with m's White and Black kings as compile-time constants (std::integral_constant)
    // up to 3 a side, else with -1 for both. Builds that only check the code (sanitizers) turn
    // this off: the 16 copies of the hot loops per variant made solver.cpp take 4 minutes
    // under ThreadSanitizer.
    template <int W = 0, int B = 0, class F>
    static void with_kings(const Material& m, F&& f) {
        if constexpr (W > 3 || !DAMAS_SPECIALISE_KINGS) {
            f(std::integral_constant<int, -1>{}, std::integral_constant<int, -1>{});
        } else if constexpr (B > 3) {
            with_kings<W + 1, 0>(m, f);
        } else if (m.white_kings == W && m.black_kings == B) {
            f(std::integral_constant<int, W>{}, std::integral_constant<int, B>{});
        } else {
            with_kings<W, B + 1>(m, f);
        }
    }

    // WK and BK: class 0's kings (-1: not known at compile time); the mirror's are BK and WK.
    template <int WK, int BK>
    void resolve_component(const Block* blocks, const FreeSquares* free, Component& component) {
        for (int d = 0; d <= component.highest; ++d) {
            // Resolving d pushes to later levels only: the bucket does not grow meanwhile.
            std::vector<std::uint32_t>& bucket = component.buckets[static_cast<std::size_t>(d)];
            for (const std::uint32_t s : bucket) {
                std::atomic<std::uint32_t>& state = component.states[s];
                const StateWord w = StateWord::of(state.load(std::memory_order_relaxed));
                const Value value = resolution(w, d);
                if (value == Value::unknown) continue;
                state.store(w.word() | resolved_status(value), std::memory_order_relaxed);
                std::uint64_t j = 0, kings_index = 0;
                kings_per_men_.divide(s, j, kings_index);
                // One store per predecessor, needed or not: a branch on it mispredicts.
                const auto tell = [&](std::uint32_t q, auto told_by) {
                    std::atomic<std::uint32_t>& predecessor = component.states[q];
                    const Told told = told_by(predecessor.load(std::memory_order_relaxed), d);
                    predecessor.store(told.word, std::memory_order_relaxed);
                    if (told.level != no_level) component.push(q, told.level);
                };
                const auto for_each_predecessor = [&](auto&& f) {
                    if (j == 0)
                        predecessors_by_flip_table<WK, BK>(blocks[0], kings_index, free[0], f);
                    else
                        predecessors_by_flip_table<BK, WK>(blocks[1], kings_index, free[1], f);
                };
                if (value == Value::loss)
                    for_each_predecessor([&](std::uint32_t q) {
                        tell(q, [](std::uint32_t old, int at) { return told_lost(old, at); });
                    });
                else
                    for_each_predecessor([&](std::uint32_t q) {
                        tell(q, [](std::uint32_t old, int at) { return told_won(old, at); });
                    });
            }
            bucket.clear();
        }
        // Bounded memory: the buckets keep their room for the next components unless it grew
        // beyond a few entries per state.
        component.touched = std::max(component.touched, component.highest);
        component.highest = 0;
        std::size_t room = 0;
        for (int d = 0; d <= component.touched; ++d) room += component.buckets[d].capacity();
        if (room > 8 * kings_per_men()) {
            for (int d = 0; d <= component.touched; ++d)
                std::vector<std::uint32_t>().swap(component.buckets[d]);
            component.touched = 0;
        }
    }

    // Progress: the positions of the slices solved, plus the bucket entries of this one so far
    // (capped: an entry may be stale, and draws are never in a bucket).
    void report(std::uint64_t n) {
        done_ = std::min(done_ + n, slices_done_ + slice_size_);
        if (progress_) progress_(std::min(done_, total_), total_);
    }
    void slice_finished() {
        slices_done_ += slice_size_;
        done_ = slices_done_;
        if (progress_) progress_(std::min(done_, total_), total_);
    }

    const Variant variant_;
    const SliceSolving solving_;
    const BoardSpec board_;
    const Flipper flip_{board_};
    const PairLayout& layout_;
    const SolvedStore& store_;
    const ProgressFn& progress_;
    const int classes_;  // 1 when the class is its own mirror
    const Material materials_[2];
    const ClassIndex indices_[2];
    const FastDivisor kings_per_men_;  // the same for a class and its mirror
    // Per class: the number of placements of its Black kings for one of its White kings
    // (index/class_index.hpp).
    FastDivisor kings_radix_[2];
    // Per class: its White kings' ranks among the free squares and its Black kings' among
    // those White's leave, by colex rank.
    std::vector<SubsetTable> white_subsets_, black_subsets_;
    std::vector<std::uint32_t> flipped_kings_[2];  // per class, by kings index (components)
    const int free_squares_;                       // the squares the men leave
    const Bitboard board_mask_ = make_tables(board_).mask;
    const int threads_ = static_cast<int>(
        tbb::global_control::active_value(tbb::global_control::max_allowed_parallelism));
    tbb::enumerable_thread_specific<Component> components_;
    std::uint64_t total_ = 0, done_ = 0, slices_done_ = 0;
    // The values of the slice being solved and of the one before it (its man moves' successors),
    // or the unit file of that one (open_unit_) read a chunk at a time.
    SliceValues current_, previous_;
    OpenUnit open_unit_;
    OpenUnitStream stream_unit_;
    std::unique_ptr<UnitStream> stream_;  // the unit of the slice being solved, if streamed
    std::unique_ptr<UnitReader> previous_unit_;
    int previous_slice_ = -1;
    // The men configurations of the slice being solved and of the one before, by class: taken
    // once per slice, asked per position.
    std::array<SliceMen, 2> current_men_, previous_men_;
    mutable tbb::enumerable_thread_specific<PreviousChunks> previous_chunks_;
    // The slice being solved: its states are the class's configurations, then the mirror's.
    int slice_ = 0;
    std::uint64_t base_[2] = {0, 0}, slice_size_ = 0;
    // Its men configurations in state order (kings_per_men() states each), so that resolving a
    // state needs neither unindexing its men nor indexing its predecessors' men.
    std::vector<Block> blocks_;
    // Per position of the slice, a StateWord (the predecessors of a position are scattered over
    // the whole slice).
    using State = std::atomic<std::uint32_t>;
    HugeArray<State> states_;
    std::vector<std::vector<std::uint32_t>> buckets_;
    std::mutex buckets_mutex_;
    tbb::enumerable_thread_specific<std::vector<Pushed>> staged_;
    // The positions of the level being resolved and of the next one, a bit per state (all
    // zero between levels but for the next one's).
    HugeArray<std::atomic<std::uint64_t>> level_, next_level_;
    bool level_marked_ = false;
    SolveTimes times_;
    std::atomic<int> highest_{0};
};

}  // namespace

std::uint64_t solver_result_bytes(const BoardSpec& board, Material m) {
    const std::uint64_t n = ClassIndex(board, m).size();
    return 3 * (m == m.mirrored() ? n : 2 * n);  // a class and its mirror have the same size
}

std::uint64_t solver_bytes(const Variant& v, Material m, int threads, bool in_units,
                           bool whole_slices_compact) {
    const BoardSpec board = v.info().board;
    const ClassIndex index(board, m), mirror(board, m.mirrored());
    const bool single = m == m.mirrored();
    const bool sideways =
        dispatch(v.base, [](auto rules) { return decltype(rules)::men_move_sideways; });
    const std::uint64_t kings_per_men = index.kings_per_men();
    std::uint64_t pair = index.size() + (single ? 0 : mirror.size()), largest = 0, per_thread = 0;
    for (int s = 0; s < index.slice_count(); ++s) {
        if (solved_by_components(sideways, index.men_in_slice(s), kings_per_men, threads, in_units))
            // A component buffer: 4 bytes of state for each of 2 x kings_per_men positions (8),
            // the buckets' room kept between components (up to 8 entries: 32), and their entries
            // within a component (about 3 per position, with the vectors' slack: 48).
            per_thread = 96 * kings_per_men;
        else if (!whole_slices_compact)
            largest = std::max(
                largest, index.positions_in_slice(s) + (single ? 0 : mirror.positions_in_slice(s)));
    }
    // Plus, with components, each class's table of flipped kings indices (4 bytes per index).
    const std::uint64_t flipped = per_thread > 0 ? 8 * kings_per_men : 0;
    // In units, the results are not held, and each thread keeps decoded chunks of the slice
    // before (PreviousChunks: 2 bytes a position, 64 Ki positions or one men configuration each).
    const std::uint64_t results = in_units ? 0 : 3 * pair;
    const std::uint64_t chunks =
        in_units && index.slice_count() > 1
            ? PreviousChunks::capacity * 2 * std::max<std::uint64_t>(kings_per_men, 1 << 16)
            : 0;
    return results + 8 * largest + largest / 4 + flipped +
           static_cast<std::uint64_t>(threads) * (per_thread + chunks);
}

void solve_slices(const Variant& v, const PairLayout& layout, const SolvedStore& store, int first,
                  SliceValues previous, const SliceFn& solved, const ProgressFn& progress,
                  SolveTimes* times, SliceSolving solving, const OpenUnit& open_unit,
                  const OpenUnitStream& stream_unit, int end) {
    dispatch(v.base, [&](auto rules) {
        PairSolver<decltype(rules)>(v, layout, store, progress, solving, open_unit, stream_unit)
            .run(first, end < 0 ? layout.slice_count() : end, std::move(previous), solved, times);
    });
}

bool slice_in_components(const Variant& v, const ClassIndex& index, int slice, int threads) {
    const bool sideways =
        dispatch(v.base, [](auto rules) { return decltype(rules)::men_move_sideways; });
    return solved_by_components(sideways, index.men_in_slice(slice), index.kings_per_men(), threads,
                                true);
}

std::uint64_t held_slice_positions(const Variant& v, Material m, int threads,
                                   bool whole_slices_compact) {
    const BoardSpec board = v.info().board;
    const ClassIndex index(board, m), mirror(board, m.mirrored());
    const bool sideways =
        dispatch(v.base, [](auto rules) { return decltype(rules)::men_move_sideways; });
    std::uint64_t largest = 0;
    for (int s = 0; s < index.slice_count(); ++s) {
        const bool components = solved_by_components(sideways, index.men_in_slice(s),
                                                     index.kings_per_men(), threads, true);
        const bool streamed = UnitStream::streams(index.kings_per_men()) && components;
        if (!streamed && (components || !whole_slices_compact))
            largest = std::max(largest, index.positions_in_slice(s) +
                                            (m == m.mirrored() ? 0 : mirror.positions_in_slice(s)));
    }
    return largest;
}

std::vector<PairResult> solve_pair(const Variant& v, Material m, const SolvedStore& store,
                                   const ProgressFn& progress, SolveTimes* times,
                                   SliceSolving solving) {
    const PairLayout layout(v.info().board, m);
    std::vector<PairResult> results;
    for (int c = 0; c < layout.classes(); ++c) {
        const std::uint64_t n = layout.index(c).size();
        results.push_back(
            {layout.material(c), huge_vector<std::uint16_t>(n), std::vector<std::uint8_t>(n)});
    }
    solve_slices(
        v, layout, store, 0, {},
        [&](const SliceValues& slice) {
            for (int c = 0; c < layout.classes(); ++c)
                scatter_slice(layout, c, slice, results[c].outcomes, results[c].capture);
        },
        progress, times, solving);
    return results;
}

}  // namespace damas
