// Where the positions of a class pair go when it is solved slice by slice.
//
// Owns: for a class and its mirror (index/class_index.hpp), which men configurations form each
// slice and in what order a slice lays out its positions: the class's configurations of the
// slice in ascending men index, kings_per_men() positions each, then the mirror's. The solver
// keeps a slice's states in that order, a solved slice's values (SliceValues) come in it, and
// the unit files (gen/unit_file.hpp) store it, so a slice can be solved, written, read back and
// scattered into class order without the solver.
//
// Memory: 14 bytes per men configuration of each class (its slice, its rank there, and the
// slices' lists).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "index/class_index.hpp"

namespace damas {

class PairLayout {
  public:
    PairLayout(const BoardSpec& board, Material m);

    int classes() const { return classes_; }  // 1 when the class is its own mirror
    Material material(int c) const { return indices_[c].material(); }
    const ClassIndex& index(int c) const { return indices_[c]; }
    std::uint64_t kings_per_men() const { return indices_[0].kings_per_men(); }
    int slice_count() const { return indices_[0].slice_count(); }
    // The positions of the pair (both classes).
    std::uint64_t positions() const;

    // Class c's men configurations in slice s, ascending.
    const std::vector<std::uint64_t>& men(int c, int s) const { return slice_men_[c][s]; }
    int slice_of_men(int c, std::uint64_t men) const { return slice_of_men_[c][men]; }
    // The rank of a men configuration among those of its slice (and class).
    std::uint64_t rank_in_slice(int c, std::uint64_t men) const { return local_men_[c][men]; }
    // Slice s's positions of class c, and where they start in the slice's layout.
    std::uint64_t slice_positions(int c, int s) const {
        return slice_men_[c][s].size() * kings_per_men();
    }
    std::uint64_t slice_base(int c, int s) const { return c == 0 ? 0 : slice_positions(0, s); }
    std::uint64_t slice_positions(int s) const;  // both classes
    // The slice-local position of class c's men configuration `men`, kings placement 0.
    std::uint64_t slice_local(int c, int s, std::uint64_t men) const {
        return slice_base(c, s) + rank_in_slice(c, men) * kings_per_men();
    }

  private:
    int classes_;
    ClassIndex indices_[2];
    std::vector<std::uint16_t> slice_of_men_[2];
    std::vector<std::uint32_t> local_men_[2];
    std::vector<std::vector<std::uint64_t>> slice_men_[2];
};

// The solved values of one slice of a pair, in the slice's layout (PairLayout).
struct SliceValues {
    int slice = -1;                       // -1: none
    std::vector<std::uint16_t> outcomes;  // packed (gen/solved_store.hpp)
    std::vector<std::uint8_t> capture;    // 1 where the side to move must capture
};

// Copies a slice's values of class c into arrays in class index order.
void scatter_slice(const PairLayout& layout, int c, const SliceValues& values,
                   std::span<std::uint16_t> outcomes, std::span<std::uint8_t> capture);

}  // namespace damas
