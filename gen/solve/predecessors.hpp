// The un-moves inside a slice (gen/solve/solver.hpp): the predecessors a resolved position tells
// its value, as slice-local states (gen/solve/pair_tables.hpp's SliceLayout).
//
// Owns: three generators, fastest last. Any rules (by_unmoves): the position is rebuilt from its
// men block and kings index, flipped, and its un-moves (rules/unmove.hpp) indexed. Where men only
// move forward, the un-moves in the slice are Black's king un-moves, each to the flip's men block
// (by_king_unmoves): worked out on ranks among the block's free squares (gen/solve/king_ranks.hpp),
// no position built. For components (by_flip_table): the predecessor's kings index before the flip
// from the Black kings' ranks among the squares White's leave, then the flip by a per-class table
// (FlippedKings: the flip of a kings index depends on the ranks alone, 4 bytes per index).
// Why a block: the solvers keep, per men configuration, its men and the first state of its flip's
// men, so a resolved position needs neither unindexing its men nor indexing its predecessors'.
#pragma once

#include <cstdint>
#include <vector>

#include "gen/solve/king_ranks.hpp"
#include "gen/solve/pair_tables.hpp"
#include "rules/unmove.hpp"

namespace damas::solving {

// A men configuration whose positions are consecutive states (kings_per_men() of them).
struct MenBlock {
    MenPlacement men;
    std::uint64_t king_predecessors;  // the first state of the men of the flip (the
                                      // predecessors by a king un-move)
    int c;
};

// Per class, the kings index of each kings index's colour flip (flipped_kings_index).
struct FlippedKings {
    std::vector<std::uint32_t> of_class[2];
    bool empty() const { return of_class[0].empty(); }
};
FlippedKings make_flipped_kings(const PairTables& tables);

template <class R>
class Predecessors {
    using B = typename R::Board;

  public:
    explicit Predecessors(const PairTables& tables) : tables_(tables) {}

    // Any rules: s's position after White's move, seen with Black to move, is the flip of s;
    // emit(q) for each of its un-moves in the slice (`slice`'s layout).
    template <class Emit>
    void by_unmoves(const MenBlock& block, std::uint64_t kings_index, const SliceLayout& slice,
                    Emit&& emit) const {
        const ClassIndex& index = tables_.indices[block.c];
        Bitboard white_kings = 0, black_kings = 0;
        index.unindex_kings(kings_index, block.men.white | block.men.black, white_kings,
                            black_kings);
        Position p;
        p.pieces = {block.men.white | white_kings, block.men.black | black_kings};
        p.kings = white_kings | black_kings;
        const Position after = tables_.flip(p);
        const int c = tables_.mirror(block.c);
        const ClassIndex& before = tables_.indices[c];
        UnmoveGenerator<R>::template for_each<false, true>(after, [&](const Unmove& u) {
            emit((u.before.kings & bit(u.move.from))
                     ? block.king_predecessors + before.kings_index(u.before)
                     : local(c, u.before, slice));
        });
    }

    // The same where men only move forward: the only un-moves in the slice are Black's king
    // un-moves, each to the flip's men block. The predecessor, flipped, has White kings where s
    // has Black ones (one moved back) and Black kings where s has White ones, and a free square
    // of rank r has rank free.count - 1 - r there.
    // WK and BK: the block's class's kings when known at compile time (the loops unroll),
    // else -1.
    template <int WK = -1, int BK = -1, class Emit>
    [[gnu::always_inline]] void by_king_unmoves(const MenBlock& block, std::uint64_t kings_index,
                                                const FreeSquares& free, Emit&& emit) const {
        const Material& m = tables_.materials[block.c];
        const int wk = WK >= 0 ? WK : m.white_kings, bk = BK >= 0 ? BK : m.black_kings;
        const int n = free.count;
        std::uint64_t white_rank = 0, black_rank = 0;
        tables_.kings_radix[block.c].divide(kings_index, white_rank, black_rank);
        int white[max_side_pieces], black[max_side_pieces];
        tables_.white_subsets[static_cast<std::size_t>(block.c)].unrank(white_rank, wk, white);
        tables_.black_subsets[static_cast<std::size_t>(block.c)].unrank(black_rank, bk, black);
        skip_ranks(black, bk, white, wk);  // ranks among all the free squares
        Bitboard kings = 0;
        for (int i = 0; i < wk; ++i) kings |= free.square[white[i]];
        for (int i = 0; i < bk; ++i) kings |= free.square[black[i]];
        const Bitboard empty = tables_.board_mask & ~(block.men.white | block.men.black | kings);
        const std::uint64_t radix = tables_.kings_radix[tables_.mirror(block.c)].divisor();
        for (int i = 0; i < bk; ++i) {
            const Bitboard to = free.square[black[i]];
            for (int dir = 0; dir < 4; ++dir)
                for (Bitboard from = B::step(to, dir) & empty; from;
                     from = B::step(from, dir) & empty) {
                    int moved[max_side_pieces];
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

    // by_king_unmoves for a component: each predecessor is the flip of s with one Black king
    // moved back, whose kings index is found on the Black kings' ranks among the squares the
    // White kings leave, then flipped by table.
    template <int WK, int BK, class Emit>
    [[gnu::always_inline]] void by_flip_table(const MenBlock& block, std::uint64_t kings_index,
                                              const FreeSquares& free, const FlippedKings& table,
                                              Emit&& emit) const {
        const auto c = static_cast<std::size_t>(block.c);
        const Material& m = tables_.materials[c];
        const int wk = WK >= 0 ? WK : m.white_kings, bk = BK >= 0 ? BK : m.black_kings;
        std::uint64_t white_rank = 0, black_rank = 0;
        tables_.kings_radix[c].divide(kings_index, white_rank, black_rank);
        int white[max_side_pieces], black[max_side_pieces], black_square[max_side_pieces];
        tables_.white_subsets[c].unrank(white_rank, wk, white);
        tables_.black_subsets[c].unrank(black_rank, bk, black);
        for (int i = 0; i < bk; ++i) black_square[i] = black[i];
        skip_ranks(black_square, bk, white, wk);  // ranks among all the free squares
        Bitboard kings = 0;
        for (int i = 0; i < wk; ++i) kings |= free.square[white[i]];
        for (int i = 0; i < bk; ++i) kings |= free.square[black_square[i]];
        const Bitboard empty = tables_.board_mask & ~(block.men.white | block.men.black | kings);
        const std::uint64_t first = white_rank * tables_.kings_radix[c].divisor();
        const std::uint32_t* flipped = table.of_class[c].data();
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
                    int moved[max_side_pieces];
                    for (int t = 0; t < bk; ++t) moved[t] = t == i ? rank : black[t];
                    sort_short(moved, bk);
                    emit(static_cast<std::uint32_t>(block.king_predecessors +
                                                    flipped[first + colex_rank(moved, bk)]));
                    if (!R::flying_kings) break;
                }
        }
    }

  private:
    // The slice-local state of a White-to-move position of class c in the slice.
    std::uint64_t local(int c, const Position& white_to_move, const SliceLayout& slice) const {
        std::uint64_t men = 0, kings = 0;
        tables_.kings_per_men_divisor.divide(tables_.indices[c].index(white_to_move), men, kings);
        return slice.configuration_start(c, men) + kings;
    }

    const PairTables& tables_;
};

}  // namespace damas::solving
