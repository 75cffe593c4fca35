#include "gen/solve/compact/compact_solver.hpp"

#include <tbb/parallel_for.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "gen/process/huge_pages.hpp"
#include "gen/solve/compact/byte_code.hpp"
#include "gen/solve/compact/deferred_losses.hpp"
#include "gen/solve/compact/group_index.hpp"
#include "gen/solve/compact/group_progress.hpp"
#include "gen/solve/compact/overflow.hpp"
#include "gen/solve/compact/previous_unit.hpp"
#include "gen/solve/exits.hpp"
#include "index/flip.hpp"
#include "rules/error.hpp"
#include "rules/movegen.hpp"
#include "rules/unmove.hpp"
#include "table/outcome.hpp"

namespace damas {
namespace compact {
namespace {

// f(begin, end) over the positions 0..n in parallel, in parts of 64 Ki.
template <class F>
void for_ranges(std::uint64_t n, F&& f) {
    constexpr std::uint64_t part = std::uint64_t{1} << 16;
    tbb::parallel_for(std::uint64_t{0}, (n + part - 1) / part,
                      [&](std::uint64_t j) { f(j * part, std::min(n, (j + 1) * part)); });
}

// The byte-a-position solver (see the header): a group at a time, its bytes set from the exits,
// then resolved level by level.
template <class R>
class CompactSolver {
  public:
    CompactSolver(const Variant& v, const PairLayout& layout, const SolvedStore& store,
                  const GenerationTuning& tuning, const ProgressFn& progress, Metric metric)
        : variant_(v),
          conversions_((check_solvable(v, metric), metric == Metric::mtc)),
          flip_(v.info().board),
          layout_(layout),
          store_(store),
          k_(layout.kings_per_men()),
          distances_(tuning.compact_byte_distances),
          split_(compact_splits_configurations(k_, layout.unit_chunk_positions())),
          capture_bits_(tuning.compact_capture_bits),
          index_(layout, v.info().board, R::men_move_sideways),
          progress_(progress, layout.positions()),
          overflow_(distances_),
          deferred_(tuning.compact_deferred_batch) {}

    // range of ranges: of the groups of the one slice asked for (SlicesToSolve::ranges).
    void run(int first, int end, const CompactSliceFn& solved, const OpenUnit& open_unit,
             const OpenUnitStream& stream_unit, SolveTimes* times, int range, int ranges) {
        if (ranges > 1 && end != first + 1)
            throw Error("a range of configurations is of one slice");
        for (int s = 0; s < first; ++s) progress_.skip(layout_.slice_positions(s));
        if (first > 0) read_previous(open_unit, first - 1);
        for (int s = first; s < end; ++s) {
            // By groups where configurations have at least 4 Ki positions and the unit streams.
            const bool by_groups =
                stream_unit && UnitStream::streams(k_, layout_.unit_chunk_positions());
            if (ranges > 1 && !by_groups)
                throw Error("slice " + std::to_string(s) + " of " + layout_.material(0).name() +
                            " is not solved by groups: it cannot be cut into ranges");
            index_.start_slice(s, by_groups);
            if (by_groups)
                solve_by_groups(s, stream_unit, range, ranges);
            else
                solve_whole(s, solved);
            if (s + 1 < end) read_previous(open_unit, s);
        }
        if (times) *times = times_;
    }

  private:
    int mirror(int c) const { return layout_.classes() == 1 ? 0 : 1 - c; }

    // The slice's groups (those of range `range` of `ranges`), each put into the slice's unit
    // once solved.
    void solve_by_groups(int s, const OpenUnitStream& stream_unit, int range, int ranges) {
        const std::unique_ptr<UnitStream> unit = stream_unit(s);
        const ConfigurationRange groups = configuration_range(index_.group_count(), range, ranges);
        for (auto g = static_cast<std::uint32_t>(groups.first); g < groups.end; ++g) {
            solve_group(g);
            put_group(*unit);
            end_group();
        }
        unit->close();
    }
    // The slice as one group, its values handed to `solved`.
    void solve_whole(int s, const CompactSliceFn& solved) {
        solve_group(0);
        solved(s, [this](std::uint64_t from, std::span<std::uint16_t> outcomes,
                         std::span<std::uint8_t> capture) { values(from, outcomes, capture); });
        end_group();
    }

    void solve_group(std::uint32_t g) {
        const auto t0 = std::chrono::steady_clock::now();
        size_ = index_.enter_group(g);
        progress_.begin_group(size_);
        bytes_ = make_huge_array<std::atomic<std::uint8_t>>(size_);
        if (capture_bits_)
            capture_ = make_huge_array<std::atomic<std::uint64_t>>((size_ + 63) / 64);
        highest_ = 0;
        deferred_.start_group(size_);
        for_ranges(size_, [&](std::uint64_t begin, std::uint64_t end) {
            for (std::uint64_t local = begin; local < end; ++local) initialise(local);
        });
        progress_.add(size_ / 2);
        const auto t1 = std::chrono::steady_clock::now();
        for (int d = 0; d <= highest_.load(); ++d) resolve_level(d);
        const auto t2 = std::chrono::steady_clock::now();
        times_.initialise += std::chrono::duration<double>(t1 - t0).count();
        times_.resolve += std::chrono::duration<double>(t2 - t1).count();
    }
    void end_group() {
        progress_.group_finished(index_.positions_given());
        bytes_.reset();
        overflow_.clear();
        capture_.reset();
    }

    // The solved group's values to the slice's unit, a configuration (or a part of a large one)
    // a chunk, in parallel: each member's from the bytes, and each configuration a held
    // position stands for (a halved group's mirrors, a quartered pair's classes) position by
    // position, located.
    void put_group(UnitStream& unit) const {
        const std::vector<GroupIndex::Destination> puts = index_.destinations();
        const std::uint64_t part = split_ ? std::min(k_, layout_.unit_chunk_positions()) : k_;
        const std::uint64_t parts = (k_ + part - 1) / part;
        tbb::parallel_for(std::uint64_t{0}, puts.size() * parts, [&](std::uint64_t i) {
            const GroupIndex::Destination& put = puts[i / parts];
            const std::uint64_t at = (i % parts) * part, n = std::min(part, k_ - at);
            thread_local std::vector<std::uint16_t> outcomes;
            thread_local std::vector<std::uint8_t> capture;
            outcomes.resize(n);
            capture.resize(n);
            if (put.located)
                located_values(put, at, outcomes, capture);
            else
                values(put.local + at, outcomes, capture);
            unit.put(layout_.slice_base(put.c, index_.slice()) + put.j * k_ + at, outcomes,
                     capture);
        });
    }
    // The values of a configuration the group does not hold, from its position `at` on: each
    // position's from the held one that stands for it.
    void located_values(const GroupIndex::Destination& put, std::uint64_t at,
                        std::span<std::uint16_t> outcomes, std::span<std::uint8_t> capture) const {
        const std::uint64_t first = index_.men(put.c)[put.j] * k_ + at;
        layout_.index(put.c).for_each_position(
            first, first + outcomes.size(), [&](std::uint64_t x, const Position& p) {
                std::uint64_t local = 0;
                index_.locate(put.c, p, local);
                values(local, outcomes.subspan(x - first, 1), capture.subspan(x - first, 1));
            });
    }

    // The solved group's values from position `from` on (unresolved positions are draws).
    void values(std::uint64_t from, std::span<std::uint16_t> outcomes,
                std::span<std::uint8_t> capture) const {
        for (std::size_t i = 0; i < outcomes.size(); ++i) {
            const std::uint64_t local = from + i;
            const std::uint8_t b = bytes_[local].load(std::memory_order_relaxed);
            outcomes[i] = b == overflowed ? overflow_.packed(local) : pack_outcome(outcome_of(b));
            capture[i] = must_capture(local) ? 1 : 0;
        }
    }

    // Whether the position held at `local` must capture: its bit, or without bits
    // (GenerationTuning::compact_capture_bits) the position tested again as initialise marks it,
    // a position that a rule ends not (turkish's king against a lone man that can capture it).
    bool must_capture(std::uint64_t local) const {
        if (!capture_bits_) {
            int c = 0;
            return capture_not_stored<R>(index_.position_at(local, c), variant_.giveaway);
        }
        return (capture_[local / 64].load(std::memory_order_relaxed) >> (local % 64)) & 1;
    }
    // The same for position p, held at `local`.
    bool must_capture(std::uint64_t local, const Position& p) const {
        return capture_bits_ ? must_capture(local) : capture_not_stored<R>(p, variant_.giveaway);
    }
    void mark_capture(std::uint64_t local) {
        if (!capture_bits_) return;
        capture_[local / 64].fetch_or(std::uint64_t{1} << (local % 64), std::memory_order_relaxed);
    }

    // A position's first byte, from its exits.
    void initialise(std::uint64_t local) {
        int c = 0;
        const Position p = index_.position_at(local, c);
        if (const Outcome m = material_outcome<R>(p, variant_.giveaway);
            m.value != Value::unknown) {
            schedule(local, m);  // the whole pair ends the game on the spot
            return;
        }
        MoveList moves;
        solving::Exits exits = solving::Exits::none(conversions_);
        int pending = 0;
        if (MoveGenerator<R>::has_capture(p)) {
            mark_capture(local);
            MoveGenerator<R>::generate_captures(p, moves);
            for (const Move& m : moves) exits.add(store_.lookup<R>(make_move(p, m)));
        } else {
            MoveGenerator<R>::generate(p, moves);
            if (moves.size() == 0) {  // no move: lost, or won in giveaway, at once
                schedule(local, {variant_.giveaway ? Value::win : Value::loss, 0});
                return;
            }
            pending = add_quiet_exits(c, p, moves, exits);
        }
        start_byte(local, exits, pending);
    }
    // The exits among quiet `moves` of position p of class c (crowning moves, man moves to the
    // slice before) added to `exits`; returns how many moves stay in the slice.
    int add_quiet_exits(int c, const Position& p, const MoveList& moves,
                        solving::Exits& exits) const {
        int pending = 0;
        for (const Move& m : moves) {
            Outcome exit;
            if (m.promotes)
                exits.add(store_.lookup<R>(make_move(p, m)));
            else if (p.kings & bit(m.from))
                ++pending;  // a king move keeps the men, so the slice: nothing to locate
            else if (in_slice(c, p, m, exit))
                ++pending;
            else
                exits.add(exit);
        }
        return pending;
    }
    // Whether a quiet move's successor stays in the slice; if not (a man move to the slice
    // before), its outcome goes to `exit`.
    bool in_slice(int c, const Position& p, const Move& m, Outcome& exit) const {
        const Position after = flip_(make_move(p, m));
        std::uint64_t local = 0;
        const int s = index_.locate(mirror(c), after, local);
        if (s == index_.slice()) return true;
        if (s != index_.previous_slice())
            throw Error("a man move leads to slice " + std::to_string(s) + ", not the one before");
        exit = previous_.outcome(local);
        return false;
    }
    // The byte of a position whose exits are known and `pending` quiet moves stay in the slice.
    void start_byte(std::uint64_t local, const solving::Exits& exits, int pending) {
        if (exits.win != solving::Exits::no_win)
            schedule(local, {Value::win, static_cast<std::uint16_t>(exits.win)});
        else if (pending == 0)
            schedule(local, exits.draw
                                ? Outcome{Value::draw, 0}
                                : Outcome{Value::loss, static_cast<std::uint16_t>(exits.loss)});
        else if (exits.draw)
            bytes_[local].store(draw_exit, std::memory_order_relaxed);
        else if (pending > max_pending)
            throw Error("too many quiet moves in one position");
        else
            bytes_[local].store(static_cast<std::uint8_t>(pending), std::memory_order_relaxed);
    }

    // Sets a position's first byte (one thread per position): its value, or the level it may
    // resolve at.
    void schedule(std::uint64_t local, Outcome o) {
        if (o.plies > max_plies) throw Error("distance beyond " + std::to_string(max_plies));
        if (distances_.fits(o))
            bytes_[local].store(code_of(o), std::memory_order_relaxed);
        else
            overflow_.hold(local, o, bytes_[local]);
        if (o.value != Value::draw) raise_highest(o.plies);
    }
    void raise_highest(int d) {
        int cur = highest_.load(std::memory_order_relaxed);
        while (d > cur && !highest_.compare_exchange_weak(cur, d, std::memory_order_relaxed)) {
        }
    }

    // Level d: every position whose byte (or overflow entry) names a win or a loss in d tells
    // its predecessors, then the losses this completed are settled.
    void resolve_level(int d) {
        std::uint64_t resolved = d < distances_.count() ? resolve_coded(d) : 0;
        resolved += resolve_overflowed(d);
        deferred_.settle_all(
            [&](std::span<const std::uint64_t> positions) { settle_losses(positions, d); });
        progress_.add(resolved);
    }
    // The positions whose byte names a win or a loss in d; returns how many.
    std::uint64_t resolve_coded(int d) {
        const auto win = static_cast<std::uint8_t>(win_code + d),
                   loss = static_cast<std::uint8_t>(loss_code + d);
        std::atomic<std::uint64_t> resolved{0};
        for_ranges(size_, [&](std::uint64_t begin, std::uint64_t end) {
            std::uint64_t n = 0;
            for (std::uint64_t local = begin; local < end; ++local) {
                const std::uint8_t b = bytes_[local].load(std::memory_order_relaxed);
                if (b != win && b != loss) continue;
                ++n;
                tell_predecessors(local, b == win ? Value::win : Value::loss, d);
            }
            resolved += n;
        });
        return resolved.load();
    }
    // The positions the overflow map lists at level d and still holds a win or loss in d for;
    // returns how many.
    std::uint64_t resolve_overflowed(int d) {
        const std::vector<std::uint64_t> listed = overflow_.take_level(d);
        std::atomic<std::uint64_t> resolved{0};
        tbb::parallel_for(std::size_t{0}, listed.size(), [&](std::size_t i) {
            const std::uint64_t local = listed[i];
            const std::optional<Outcome> o = overflow_.held(local, bytes_[local]);
            if (!o || o->value == Value::draw || o->plies != d) return;  // bettered since
            ++resolved;
            tell_predecessors(local, o->value, d);
        });
        return resolved.load();
    }

    // A position resolved at d tells its predecessors in the slice (un-moves of the side that
    // moved, kings and turkish sideways men): a loss offers a win in d + 1, a win takes one
    // from their pending count. Predecessors that must capture are left alone (they cannot
    // have made the quiet move).
    void tell_predecessors(std::uint64_t local, Value value, int d) {
        int c = 0;
        const Position after = flip_(index_.position_at(local, c));
        const int before_class = mirror(c);
        const ClassIndex& before_index = layout_.index(before_class);
        // King un-moves keep the men: their predecessors share a configuration, located once.
        enum class Start : std::uint8_t { unknown, known, none } start_state = Start::unknown;
        std::uint64_t start = 0;
        UnmoveGenerator<R>::template for_each<false, true>(after, [&](const Unmove& u) {
            std::uint64_t q = 0;
            const bool king = u.before.kings & bit(u.move.from);
            if (king && start_state == Start::unknown)
                start_state = index_.configuration_start(before_class, u.before, start)
                                  ? Start::known
                                  : Start::none;
            if (king && start_state == Start::known)
                q = start + before_index.kings_index(u.before);
            else if (index_.locate(before_class, u.before, q) != index_.slice())
                throw Error("an un-move leaves the slice");
            if (value == Value::loss)
                offer_win(q, d, u.before);
            else
                take_pending(q, d);
        });
    }

    // A predecessor that must capture cannot have made the quiet move, so it takes no win. It is
    // asked only when the win would better its byte: its capture bit is a second random read.
    void offer_win(std::uint64_t q, int d, const Position& before) {
        const Outcome win{Value::win, static_cast<std::uint16_t>(d + 1)};
        std::uint8_t b = bytes_[q].load(std::memory_order_relaxed);
        bool may_take = false;
        for (;;) {
            if (b != overflowed && distances_.fits(win) &&
                !bettered_by_win(outcome_of(b), is_open(b), d + 1))
                return;
            if (!may_take) {
                if (must_capture(q, before)) return;
                may_take = true;
            }
            if (b == overflowed || !distances_.fits(win)) return settle_overflowing(q, win);
            if (bytes_[q].compare_exchange_weak(b, code_of(win), std::memory_order_relaxed))
                return raise_highest(d + 1);
        }
    }

    // A predecessor that must capture is never pending (initialise settles it from its
    // captures), so a pending byte is one that made the quiet move.
    void take_pending(std::uint64_t q, int d) {
        std::uint8_t b = bytes_[q].load(std::memory_order_relaxed);
        for (;;) {
            if (!is_pending(b)) return;  // a win known, a draw exit, resolved or scheduled
            if (b > 1) {
                if (bytes_[q].compare_exchange_weak(b, static_cast<std::uint8_t>(b - 1),
                                                    std::memory_order_relaxed))
                    return;
                continue;
            }
            // Every quiet move in the slice loses: a loss in the longest of d + 1 and the exits'.
            // The exits are read later, in order.
            deferred_.add(
                q, [&](std::span<const std::uint64_t> positions) { settle_losses(positions, d); });
            return;
        }
    }

    // Positions whose last pending move lost at level d, in order: each a loss in the longest
    // of d + 1 and its exits' losses.
    void settle_losses(std::span<const std::uint64_t> positions, int d) {
        for (const std::uint64_t q : positions) {
            int c = 0;
            const Position p = index_.position_at(q, c);
            const Outcome loss{
                Value::loss, static_cast<std::uint16_t>(std::max(d + 1, longest_exit_loss(c, p)))};
            if (!distances_.fits(loss)) {
                settle_overflowing(q, loss);
                continue;
            }
            std::uint8_t b = 1;
            if (bytes_[q].compare_exchange_strong(b, code_of(loss), std::memory_order_relaxed))
                raise_highest(loss.plies);
            else
                throw Error("a position's pending count changed after its last move lost");
        }
    }
    // The longest loss among the exits of a quiet position with no exit that wins or draws.
    int longest_exit_loss(int c, const Position& p) const {
        MoveList moves;
        MoveGenerator<R>::generate(p, moves);
        solving::Exits exits = solving::Exits::none(conversions_);
        add_quiet_exits(c, p, moves, exits);
        return exits.loss;
    }

    // A win or loss where it or the position's value is beyond a byte
    // (gen/solve/compact/overflow.hpp).
    void settle_overflowing(std::uint64_t q, Outcome proposed) {
        if (overflow_.settle(q, proposed, bytes_[q])) raise_highest(proposed.plies);
    }

    void read_previous(const OpenUnit& open_unit, int slice) {
        previous_.open(open_unit, slice, chunks_kept(k_, layout_.unit_chunk_positions()));
        index_.set_previous(slice);
    }

    const Variant variant_;
    const bool conversions_;  // mtc: every exit counts 1 (solving::Exits)
    const Flipper flip_;
    const PairLayout& layout_;
    const SolvedStore& store_;
    const std::uint64_t k_;  // kings placements per men configuration
    const ByteDistances distances_;
    const bool split_;         // the unit's chunks split configurations (gen/units/unit_file.hpp)
    const bool capture_bits_;  // GenerationTuning::compact_capture_bits
    GroupIndex index_;
    PreviousUnit previous_;
    GroupProgress progress_;
    std::uint64_t size_ = 0;  // the positions of the group being solved
    HugeArray<std::atomic<std::uint8_t>> bytes_;
    HugeArray<std::atomic<std::uint64_t>>
        capture_;  // a bit per position: it must capture (or none)
    Overflow overflow_;
    std::atomic<int> highest_{0};  // the furthest level a position is scheduled at
    DeferredLosses deferred_;
    SolveTimes times_;
};

}  // namespace
}  // namespace compact

void solve_slices_compact(const Variant& v, const PairLayout& layout, const SolvedStore& store,
                          const GenerationTuning& tuning, const SlicesToSolve& slices,
                          const CompactSliceFn& solved) {
    const int end = slices.end < 0 ? layout.slice_count() : slices.end;
    dispatch(v.base, [&](auto rules) {
        compact::CompactSolver<decltype(rules)>(v, layout, store, tuning, slices.progress,
                                                slices.metric)
            .run(slices.first, end, solved, slices.open_unit, slices.stream_unit, slices.times,
                 slices.range, slices.ranges);
    });
}

}  // namespace damas
