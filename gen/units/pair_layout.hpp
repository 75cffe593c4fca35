// Where the positions of a class pair go when it is solved slice by slice.
//
// Owns: for a class and its mirror (index/class_index.hpp), which men configurations form each
// slice and in what order a slice lays out its positions: the class's configurations of the
// slice in ascending men index, kings_per_men() positions each, then the mirror's. The solver
// keeps a slice's states in that order, a solved slice's values (SliceValues) come in it, and
// the unit files (gen/units/unit_file.hpp) store it, so a slice can be solved, written, read back
// and scattered into class order without the solver.
//
// Two modes, one order (the same slices, lists and ranks):
// * Tabled: 6 bytes per men configuration of each class, its slice (2 bytes) and its rank there
//   (4). A slice's list is built by a scan of the slice table (2 bytes a configuration, read
//   once per slice solved); a rank is one read.
// * Computed, where those tables would take more than max_tabled_layout_bytes: nothing per
//   configuration. A men group (ClassIndex::MenGroup: one placement of the White men) is a run
//   of consecutive men indices with one White advancement, so a configuration's slice is its
//   group's White advancement plus its Black men's. A slice's list is enumerated group by group
//   (the Black placements of the advancement the group needs, in colex order, by a depth-first
//   search that only visits choices leading to one), with where each group starts in it (a
//   directory, 4 bytes a group); a rank is a binary search within its group's part of the list.
//   Memory: 3 bytes a group (its White advancement, the least and most of its Black men's).
// Why 4 GiB: a tabled rank is one read (8 ns), a computed one a search (about 150 ns: a pair
// without kings takes up to a tenth more CPU; docs/performance.md), and below 4 GiB the
// tables are at most a quarter of a 16 GiB machine; above, they are most of a pair's memory
// (international 3040 + 4030: 19.7 GB of tables against 6 GB of lists). Every pair of english
// 2-7 and international 2-6 stays tabled. A run's tuning (gen/options.hpp) may force either mode
// (tests: the computed one on small classes).
//
// Lists, both modes: those of the few slices last asked for are kept (8 bytes per configuration
// of those, the directory too when computed), and handed out as SliceMen handles: the solvers
// take the handles of the slice they solve and of the one before once per slice, then ask them
// for configurations and ranks per position, with no lock and no allocation. Keeping every
// slice's list took 8 more bytes per configuration, 350 GiB for international 3050 + 5030.
//
// The layout also carries the run's unit chunk size (GenerationTuning::unit_chunk_positions),
// so that the unit files of the pair's slices, their readers and writers, and the solvers that
// stream to them cut the same chunks.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <memory>
#include <mutex>
#include <span>
#include <tuple>
#include <vector>

#include "gen/options.hpp"
#include "index/class_index.hpp"

namespace damas {

// The most bytes of per-configuration tables a pair's layout takes before it is computed.
inline constexpr std::uint64_t max_tabled_layout_bytes = std::uint64_t{4} << 30;

class PairLayout;

// Class c's men configurations in slice s, ascending, and their ranks among them: a handle
// taken once per slice (PairLayout::slice_men), asked per position. Safe to use from any number
// of threads; it keeps the slice's list alive.
class SliceMen {
  public:
    SliceMen() = default;
    std::uint64_t size() const { return size_; }
    // The j-th configuration (men index) of the slice.
    std::uint64_t operator[](std::uint64_t j) const { return men_[j]; }
    std::span<const std::uint64_t> all() const { return {men_, size_}; }
    // The rank of `men` among the slice's configurations: `men` must be one of them.
    std::uint64_t rank(std::uint64_t men) const {
        if (tabled_ranks_) return tabled_ranks_[men];
        const std::uint64_t g = index_->men_group_of(men);
        return static_cast<std::uint64_t>(
            std::lower_bound(men_ + group_start_[g], men_ + group_start_[g + 1], men) - men_);
    }

  private:
    friend class PairLayout;
    struct List {
        std::vector<std::uint64_t> men;
        std::vector<std::uint32_t> group_start;  // computed mode: by group, and the end
    };
    std::shared_ptr<const List> list_;
    const std::uint64_t* men_ = nullptr;
    std::uint64_t size_ = 0;
    const std::uint32_t* tabled_ranks_ = nullptr;  // by men index (tabled mode)
    const std::uint32_t* group_start_ = nullptr;   // computed mode
    const ClassIndex* index_ = nullptr;
};

class PairLayout {
  public:
    // The mode and the unit chunk size as `tuning` says (the defaults: by size, 64 Ki).
    PairLayout(const BoardSpec& board, Material m, const GenerationTuning& tuning = {});

    // The mode a pair's layout takes (what the plan models): the tuning's, else by the size of
    // its tables; and its tables' bytes if tabled.
    static LayoutMode mode_for(const BoardSpec& board, Material m,
                               const GenerationTuning& tuning = {});
    static std::uint64_t tabled_bytes(const BoardSpec& board, Material m);
    LayoutMode mode() const { return mode_; }
    // The positions a chunk of the pair's unit files holds (gen/units/unit_file.hpp).
    std::uint64_t unit_chunk_positions() const { return unit_chunk_positions_; }

    int classes() const { return classes_; }  // 1 when the class is its own mirror
    Material material(int c) const { return indices_[c].material(); }
    const ClassIndex& index(int c) const { return indices_[c]; }
    std::uint64_t kings_per_men() const { return indices_[0].kings_per_men(); }
    int slice_count() const { return indices_[0].slice_count(); }
    // The positions of the pair (both classes).
    std::uint64_t positions() const;

    // Class c's men configurations in slice s (thread-safe; once per slice, not per position:
    // it may scan or enumerate the class).
    SliceMen slice_men(int c, int s) const;
    std::uint64_t men_in_slice(int c, int s) const { return indices_[c].men_in_slice(s); }
    int slice_of_men(int c, std::uint64_t men) const;
    // Slice s's positions of class c, and where they start in the slice's layout.
    std::uint64_t slice_positions(int c, int s) const {
        return men_in_slice(c, s) * kings_per_men();
    }
    std::uint64_t slice_base(int c, int s) const { return c == 0 ? 0 : slice_positions(0, s); }
    std::uint64_t slice_positions(int s) const;  // both classes

    // Class c's men configurations in men index order from the first, each with its slice (the
    // unit files' writer reads a class in that order: gen/units/class_stream.hpp).
    class SliceWalk {
      public:
        int slice() const { return slice_; }  // -1 after the last configuration
        void next();

      private:
        friend class PairLayout;
        void enter_group();
        const PairLayout* layout_ = nullptr;
        int c_ = 0;
        int slice_ = -1;
        std::uint64_t men_ = 0;    // tabled mode
        std::uint64_t group_ = 0;  // computed mode: the group, and its Black men's squares
        ClassIndex::MenGroup squares_;
        std::array<int, 64> black_{};
    };
    SliceWalk walk_slices(int c) const;

  private:
    struct GroupAdvancement {  // computed mode, per men group
        std::uint8_t white, black_least, black_most;
    };
    std::shared_ptr<const SliceMen::List> tabled_list(int c, int s) const;
    std::shared_ptr<const SliceMen::List> computed_list(int c, int s) const;
    void make_tables();
    void make_group_advancements();

    int classes_;
    LayoutMode mode_;
    std::uint64_t unit_chunk_positions_;
    ClassIndex indices_[2];
    std::vector<std::uint16_t> slice_of_men_[2];     // tabled mode
    std::vector<std::uint32_t> local_men_[2];        // tabled mode
    std::vector<GroupAdvancement> advancements_[2];  // computed mode
    struct ListCache {
        std::mutex mutex;
        // (class, slice, list), newest last
        std::vector<std::tuple<int, int, std::shared_ptr<const SliceMen::List>>> lists;
    };
    std::unique_ptr<ListCache> cache_ = std::make_unique<ListCache>();
};

// The solved values of one slice of a pair, in the slice's layout (PairLayout).
struct SliceValues {
    int slice = -1;                       // -1: none
    std::vector<std::uint16_t> outcomes;  // packed (gen/store/solved_store.hpp)
    std::vector<std::uint8_t> capture;    // 1 where the side to move must capture
};

// Copies a slice's values of class c into arrays in class index order.
void scatter_slice(const PairLayout& layout, int c, const SliceValues& values,
                   std::span<std::uint16_t> outcomes, std::span<std::uint8_t> capture);

}  // namespace damas
