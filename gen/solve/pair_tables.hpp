// What the solvers of one class pair share (gen/solve/solver.hpp): the pair's classes and the
// tables their hot loops read, and where a slice's men configurations lay out their positions.
//
// Owns: per class (a class and its mirror, one when the class is its own mirror) its index, the
// radix of its kings index (placements of its Black kings for one of its White kings) and its
// kings' colex subsets among the free squares (gen/solve/king_ranks.hpp); the pair's board geometry
// and colour flip. Built once per pair, read by every task: plain values, no locks.
// A SliceLayout is one slice's men configurations of both classes (PairLayout's lists, taken
// once per slice) and where each starts in the slice's layout: class 0's configurations in
// ascending order, kings_per_men() positions each, then the mirror's (gen/units/pair_layout.hpp).
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "gen/solve/king_ranks.hpp"
#include "gen/store/solved_store.hpp"
#include "gen/units/pair_layout.hpp"
#include "index/class_index.hpp"
#include "index/fast_divide.hpp"
#include "index/flip.hpp"
#include "rules/variant.hpp"

namespace damas::solving {

struct SliceLayout {
    int slice = -1;
    std::array<SliceMen, 2> men;     // the second empty for a class that is its own mirror
    std::uint64_t base[2] = {0, 0};  // where each class's positions start
    std::uint64_t kings_per_men = 0;

    // Where the positions of men configuration `men` of class c start in the slice's layout.
    std::uint64_t configuration_start(int c, std::uint64_t men_index) const {
        return rank_start(c, men[c].rank(men_index));
    }
    // The same for the configuration of rank `rank` among class c's in the slice.
    std::uint64_t rank_start(int c, std::uint64_t rank) const {
        return base[c] + rank * kings_per_men;
    }
};

class PairTables {
  public:
    // metric: the distance solved, dtw or mtc (gen/solve/solver.hpp).
    PairTables(const Variant& v, const PairLayout& layout, const SolvedStore& store,
               Metric metric = Metric::dtw);

    std::uint64_t kings_per_men() const { return kings_per_men_divisor.divisor(); }
    // The class of a position's colour flip: a move keeps the material, so a successor (after
    // the flip) or a predecessor (before it) of a position of class c is in the mirror class.
    int mirror(int c) const { return classes == 1 ? 0 : 1 - c; }
    SliceLayout slice_layout(int s) const;

    const Variant variant;
    const BoardSpec board;
    const Flipper flip{board};
    const PairLayout& layout;
    const SolvedStore& store;
    const int classes;       // 1 when the class is its own mirror
    const bool conversions;  // mtc: every exit counts 1 (solving::Exits)
    const Material materials[2];
    const ClassIndex indices[2];
    const FastDivisor kings_per_men_divisor;  // the same for a class and its mirror
    // Per class: the number of placements of its Black kings for one of its White kings
    // (index/class_index.hpp).
    FastDivisor kings_radix[2];
    // Per class: its White kings' ranks among the free squares and its Black kings' among
    // those White's leave, by colex rank.
    std::vector<SubsetTable> white_subsets, black_subsets;
    const int free_squares;  // the squares the men leave
    const Bitboard board_mask;
};

}  // namespace damas::solving
