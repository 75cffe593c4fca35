// Where the positions of a class pair go when it is solved slice by slice.
//
// Owns: for a class and its mirror (index/class_index.hpp), which men configurations form each
// slice and in what order a slice lays out its positions: the class's configurations of the
// slice in ascending men index, kings_per_men() positions each, then the mirror's. The solver
// keeps a slice's states in that order, a solved slice's values (SliceValues) come in it, and
// the unit files (gen/unit_file.hpp) store it, so a slice can be solved, written, read back and
// scattered into class order without the solver.
//
// Memory: 6 bytes per men configuration of each class (its slice, 2 bytes, and its rank there,
// 4), and the lists of the few slices last asked for (8 bytes per configuration of those). A
// slice's list is built when asked, by a scan of every configuration's slice (2 bytes each, read
// once per slice solved): keeping every slice's list took 8 more bytes per configuration, 350 GiB
// for international 3050 + 5030 (25 G configurations, no kings).
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <span>
#include <tuple>
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

    using MenList = std::shared_ptr<const std::vector<std::uint64_t>>;
    // Class c's men configurations in slice s, ascending (thread-safe; call it once per slice,
    // not per position: it may scan the class).
    MenList men(int c, int s) const;
    std::uint64_t men_in_slice(int c, int s) const { return slice_sizes_[c][s]; }
    int slice_of_men(int c, std::uint64_t men) const { return slice_of_men_[c][men]; }
    // The rank of a men configuration among those of its slice (and class).
    std::uint64_t rank_in_slice(int c, std::uint64_t men) const { return local_men_[c][men]; }
    // Slice s's positions of class c, and where they start in the slice's layout.
    std::uint64_t slice_positions(int c, int s) const {
        return slice_sizes_[c][s] * kings_per_men();
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
    std::vector<std::uint64_t> slice_sizes_[2];
    struct ListCache {
        std::mutex mutex;
        std::vector<std::tuple<int, int, MenList>> lists;  // (class, slice, list), newest last
    };
    std::unique_ptr<ListCache> cache_ = std::make_unique<ListCache>();
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
