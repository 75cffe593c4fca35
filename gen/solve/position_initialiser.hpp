// The first step of solving a slice (gen/solve/solver.hpp): every position's state from its exits,
// the moves that leave the slice.
//
// Owns: generating and looking up the exits, and counting the quiet moves that stay (pending).
// Captures and crowning moves lead to smaller classes (the store); man moves to the slice solved
// before (PreviousSlice). The man moves and their successors' men configurations are found once
// per men configuration (ManMoves), for all its kings_per_men() positions: a position only needs
// the kings index of each successor (and skips the moves a king blocks), worked out from the
// ranks of its kings among the free squares (gen/solve/king_ranks.hpp). The captures' outcomes in
// smaller classes are located for 32 positions at a time and prefetched before they are read
// (DeferredExits). The states go to a Sink (the slice's states, or a component's): state(s) and
// push(s, level), so both ways of solving share this code, inlined into their loops.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>

#include "gen/solve/exits.hpp"
#include "gen/solve/king_ranks.hpp"
#include "gen/solve/pair_tables.hpp"
#include "gen/solve/position_state.hpp"
#include "gen/solve/previous_slice.hpp"
#include "rules/error.hpp"
#include "rules/movegen.hpp"

namespace damas::solving {

// White's quiet man moves in one men configuration and where they lead: the same for every
// placement of the kings, except that a king on the arrival square blocks the move.
struct ManMove {
    Bitboard to;  // the arrival square
    Move move;    // for a crowning move, looked up in the store
    // The results of the successor's men configuration (solved before), or null when it is in
    // the slice being solved (turkish sideways moves) or the move crowns.
    const std::uint16_t* results;
    int c_after;  // the successor's class
};
struct ManMoves {
    // At most max_side_pieces men, at most 3 directions each (turkish: forward and sideways).
    std::array<ManMove, 3 * max_side_pieces> items;
    int size = 0;
};

// Positions whose exits into smaller classes (captures, crowning moves) are looked up in
// batches: located and prefetched first (the classes are read at random), read once the whole
// batch is in flight. Each keeps what its other exits told and its pending count.
struct DeferredExits {
    static constexpr int positions = 32, max_exits = 512;
    std::uint64_t state[positions];
    Exits known[positions];
    std::uint8_t pending[positions];
    std::uint16_t first[positions + 1];
    // Where each exit's outcome is, or the outcome itself (packed) when no slot holds it.
    // Trivial members: the batch is made per men configuration, and initialising 512 entries
    // took a fifth of the time in the classes without kings (one position each).
    SolvedStore::Located exits[max_exits];
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
    template <class R>
    void locate(const SolvedStore& store, const Position& p, const Move& m) {
        const SolvedStore::Located at = store.locate<R>(make_move(p, m));
        if (at.at) __builtin_prefetch(at.at);
        exits[exit_count++] = at;
    }
    bool full() const { return count == positions; }
};

template <class R>
class PositionInitialiser {
  public:
    PositionInitialiser(const PairTables& tables, const PreviousSlice& previous)
        : tables_(tables), store_(tables.store), previous_(previous) {}

    // The man moves of men configuration `placement` of class c, in slice `slice`.
    ManMoves man_moves(int c, const MenPlacement& placement, int slice) const;

    // The results of the men configurations the man moves lead to are read at random, a few
    // per position, by every position of the block: asked for at once (whole lines in flight
    // together) instead of one missed line at a time.
    void prefetch_successor_results(const ManMoves& moves) const {
        const std::size_t bytes = tables_.kings_per_men() * sizeof(std::uint16_t);
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
                    const FreeSquares& free, DeferredExits& deferred, Sink& sink) const;

    // The positions left in the batch (after a men configuration, or when it is full).
    template <class Sink>
    void finish_deferred(DeferredExits& deferred, Sink& sink) const {
        deferred.first[deferred.count] = static_cast<std::uint16_t>(deferred.exit_count);
        for (int k = 0; k < deferred.count; ++k) {
            Exits exits = deferred.known[k];
            for (int e = deferred.first[k]; e < deferred.first[k + 1]; ++e)
                exits.add(deferred.exits[e].read());
            finish(deferred.state[k], exits, deferred.pending[k], sink);
        }
        deferred.count = deferred.exit_count = 0;
    }

  private:
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
    static void finish(std::uint64_t s, const Exits& exits, int pending, Sink& sink) {
        std::atomic<std::uint32_t>& state = sink.state(s);
        if (pending > 255) throw Error("too many quiet moves in one position");
        std::uint8_t flags = exit_status_bits(exits);
        const int win = exits.win, loss = exits.loss;
        int distance = loss;
        if (win != Exits::no_win) {
            flags |= win_bit;
            distance = win;
            sink.push(s, win);
        } else if (pending == 0) {
            if (exits.draw)
                flags |= resolved_bit | (static_cast<int>(Value::draw) << value_shift);
            else
                sink.push(s, loss);
        }
        state.store(StateWord{flags, static_cast<std::uint8_t>(pending),
                              static_cast<std::uint16_t>(distance)}
                        .word(),
                    std::memory_order_relaxed);
    }

    const PairTables& tables_;
    const SolvedStore& store_;
    const PreviousSlice& previous_;
};

template <class R>
ManMoves PositionInitialiser<R>::man_moves(int c, const MenPlacement& placement, int slice) const {
    Position only_men;
    only_men.pieces = {placement.white, placement.black};
    MoveList list;
    MoveGenerator<R>::generate_man_moves(only_men, list);
    if (list.size() > static_cast<int>(ManMoves{}.items.size()))
        throw Error("too many man moves in one position");
    ManMoves out;
    const int c_after = tables_.mirror(c);
    const ClassIndex& after = tables_.indices[c_after];
    for (const Move& m : list) {
        ManMove& mm = out.items[out.size++];
        mm = {bit(m.to), m, nullptr, c_after};
        if (m.promotes) continue;
        const Bitboard white_after = (placement.white & ~bit(m.from)) | bit(m.to);
        const Bitboard new_white = tables_.flip.rotate(placement.black);
        const Bitboard new_black = tables_.flip.rotate(white_after);
        const std::uint64_t men_after = after.men_index(new_white, new_black);
        // A forward move advances a man, so it leaves the slice (slices.cpp) for the one solved
        // just before (one step more advanced); a turkish sideways move may stay.
        if (!R::men_move_sideways || after.slice_of_men(new_white, new_black) != slice)
            mm.results = previous_.outcomes(c_after, men_after);
    }
    return out;
}

template <class R>
template <int WK, int BK, class Sink>
void PositionInitialiser<R>::initialise(std::uint64_t s, const Position& p,
                                        const ManMoves& man_moves, const FreeSquares& free,
                                        DeferredExits& deferred, Sink& sink) const {
    std::atomic<std::uint32_t>& state = sink.state(s);
    const bool giveaway = tables_.variant.giveaway;
    if (const Outcome m = material_outcome<R>(p, giveaway); m.value != Value::unknown) {
        // The whole pair ends the game on the spot: nothing to propagate. DTW 0 either way.
        state.store(StateWord{static_cast<std::uint8_t>(resolved_bit |
                                                        (static_cast<int>(m.value) << value_shift)),
                              0, 0}
                        .word(),
                    std::memory_order_relaxed);
        return;
    }
    // Only the moves that leave the slice are generated and looked up; the quiet moves that
    // stay in it are just counted.
    MoveList moves;
    int pending = 0;
    Exits exits = Exits::none(tables_.conversions);
    if (MoveGenerator<R>::has_capture(p)) {
        MoveGenerator<R>::generate_captures(p, moves);
        if (deferred.add(s, moves.size(), Exits::of_captures(tables_.conversions), 0)) {
            for (const Move& m : moves) deferred.locate<R>(store_, p, m);
            if (deferred.full()) finish_deferred(deferred, sink);
            return;
        }
        exits = Exits::of_captures(tables_.conversions);
        for (const Move& m : moves) exits.add(store_.lookup<R>(make_move(p, m)));
    } else {
        pending = MoveGenerator<R>::count_quiet(p);
        if (pending == 0) {  // no move: lost, or won in giveaway, at once
            state.store(StateWord{giveaway ? win_bit : std::uint8_t{0}, 0, 0}.word(),
                        std::memory_order_relaxed);
            sink.push(s, 0);
            return;
        }
        // The kings by rank among the free squares: a man move does not move them, and the
        // successor is the flip (gen/solve/king_ranks.hpp).
        int white[max_side_pieces], black[max_side_pieces], white_at[max_side_pieces],
            black_at[max_side_pieces];
        const int wk = kings_by_rank<WK>(p.kings_of(Color::white), free, white_at, white);
        const int bk = kings_by_rank<BK>(p.kings_of(Color::black), free, black_at, black);
        const Move* crowning[3 * max_side_pieces];
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
            int white_after[max_side_pieces], black_after[max_side_pieces];
            for (int t = 0; t < wk; ++t)
                white_after[t] = white[t] + (white_at[t] > from) - (white_at[t] > to);
            for (int t = 0; t < bk; ++t)
                black_after[t] = black[t] + (black_at[t] > from) - (black_at[t] > to);
            exits.add(unpack_outcome(
                m.results[flipped_kings_index(white_after, wk, black_after, bk, free.count,
                                              tables_.kings_radix[m.c_after].divisor())]));
            --pending;
        }
        if (crownings > 0) {
            if (deferred.add(s, crownings, exits, pending)) {
                for (int j = 0; j < crownings; ++j) deferred.locate<R>(store_, p, *crowning[j]);
                if (deferred.full()) finish_deferred(deferred, sink);
                return;
            }
            for (int j = 0; j < crownings; ++j)
                exits.add(store_.lookup<R>(make_move(p, *crowning[j])));
        }
    }
    finish(s, exits, pending, sink);
}

}  // namespace damas::solving
