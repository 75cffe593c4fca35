#include "gen/units/pair_layout.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>

#include "index/subset_sums.hpp"
#include "rules/error.hpp"

namespace damas {
namespace {

// The Black placements of one men group whose Black advancement is `need`, in colex order, as
// runs of colex ranks: base + e for e in [begin, end) (placements that differ in their least
// square only). The search is index/subset_sums.hpp's over the group's Black squares (whose
// advancement never grows along them), choosing the largest square first as colex order
// compares them; where White's men fill a row of the Black domain it visits a few choices that
// lead to no placement.
class BlackPlacements {
  public:
    explicit BlackPlacements(const ClassIndex::MenGroup& group)
        : sums_(std::span(group.black_advancement.data(),
                          static_cast<std::size_t>(group.black_squares))) {}

    // Calls run(base, begin, end) for the placements of `men` men with advancement `need`.
    template <class F>
    void for_each_run(int men, int need, F&& run) const {
        const auto add = [](std::uint64_t rank, int e, int k) { return rank + choose(e, k); };
        sums_.search<SubsetOrder::colex>(men, need, std::uint64_t{0}, add,
                                         [&](const auto& r) { run(r.chosen, r.begin, r.end); });
    }

  private:
    SubsetSums sums_;
};

}  // namespace

std::uint64_t PairLayout::tabled_bytes(const BoardSpec& board, Material m) {
    const std::uint64_t per_class = 6 * ClassIndex(board, m).men_count();
    return m == m.mirrored() ? per_class : 2 * per_class;
}

LayoutMode PairLayout::mode_for(const BoardSpec& board, Material m,
                                const GenerationTuning& tuning) {
    if (tuning.layout_mode) return *tuning.layout_mode;
    return tabled_bytes(board, m) > max_tabled_layout_bytes ? LayoutMode::computed
                                                            : LayoutMode::tabled;
}

PairLayout::PairLayout(const BoardSpec& board, Material m, const GenerationTuning& tuning)
    : classes_(m == m.mirrored() ? 1 : 2),
      mode_(mode_for(board, m, tuning)),
      unit_chunk_positions_(tuning.unit_chunk_positions),
      indices_{ClassIndex(board, m), ClassIndex(board, m.mirrored())} {
    const ClassIndex& index = indices_[0];
    if (index.slice_count() > 0xFFFF) throw Error("class " + m.name() + " has too many slices");
    for (int c = 0; c < classes_; ++c)
        for (int s = 0; s < index.slice_count(); ++s)
            if (men_in_slice(c, s) > 0xFFFFFFFFu)
                throw Error("class " + material(c).name() +
                            " has a slice of more than 2^32 men configurations");
    if (mode_ == LayoutMode::tabled)
        make_tables();
    else
        make_group_advancements();
}

void PairLayout::make_tables() {
    for (int c = 0; c < classes_; ++c) {
        const ClassIndex& index = indices_[c];
        slice_of_men_[c].resize(index.men_count());
        local_men_[c].resize(index.men_count());
        std::vector<std::uint32_t> seen(static_cast<std::size_t>(index.slice_count()), 0);
        for (std::uint64_t men = 0; men < index.men_count(); ++men) {
            const MenPlacement p = index.men(men);
            const int s = index.slice_of_men(p.white, p.black);
            slice_of_men_[c][men] = static_cast<std::uint16_t>(s);
            local_men_[c][men] = seen[s]++;
        }
    }
}

void PairLayout::make_group_advancements() {
    const Material m = material(0);
    if ((m.white_men + m.black_men) * (indices_[0].board().height - 1) > 0xFF)
        throw Error("class " + m.name() + " is too advanced for the computed layout");
    for (int c = 0; c < classes_; ++c) {
        const ClassIndex& index = indices_[c];
        const int black_men = index.material().black_men;
        std::vector<GroupAdvancement>& out = advancements_[c];
        out.resize(index.men_group_count());
        tbb::parallel_for(tbb::blocked_range<std::uint64_t>(0, out.size()), [&](const auto& r) {
            for (std::uint64_t g = r.begin(); g != r.end(); ++g) {
                const ClassIndex::MenGroup group = index.men_group(g);
                const int n = group.black_squares;
                int most = 0, least = 0;
                for (int i = 0; i < black_men; ++i) {
                    most += group.black_advancement[i];
                    least += group.black_advancement[n - 1 - i];
                }
                out[g] = {static_cast<std::uint8_t>(group.white_advancement),
                          static_cast<std::uint8_t>(least), static_cast<std::uint8_t>(most)};
            }
        });
    }
}

int PairLayout::slice_of_men(int c, std::uint64_t men) const {
    if (mode_ == LayoutMode::tabled) return slice_of_men_[c][men];
    const MenPlacement p = indices_[c].men(men);
    return indices_[c].slice_of_men(p.white, p.black);
}

SliceMen PairLayout::slice_men(int c, int s) const {
    // The solver asks for the slice it solves (both classes) and the one before: a few lists
    // cover them.
    constexpr std::size_t lists_kept = 4;
    std::shared_ptr<const SliceMen::List> list;
    {
        std::lock_guard lock(cache_->mutex);
        auto& lists = cache_->lists;
        for (const auto& [lc, ls, kept] : lists)
            if (lc == c && ls == s) list = kept;
        if (!list) {
            list = mode_ == LayoutMode::tabled ? tabled_list(c, s) : computed_list(c, s);
            if (lists.size() == lists_kept) lists.erase(lists.begin());
            lists.emplace_back(c, s, list);
        }
    }
    SliceMen handle;
    handle.list_ = list;
    handle.men_ = list->men.data();
    handle.size_ = list->men.size();
    handle.index_ = &indices_[c];
    if (mode_ == LayoutMode::tabled)
        handle.tabled_ranks_ = local_men_[c].data();
    else
        handle.group_start_ = list->group_start.data();
    return handle;
}

std::shared_ptr<const SliceMen::List> PairLayout::tabled_list(int c, int s) const {
    auto list = std::make_shared<SliceMen::List>();
    list->men.reserve(men_in_slice(c, s));
    const std::vector<std::uint16_t>& slices = slice_of_men_[c];
    for (std::uint64_t men = 0; men < slices.size(); ++men)
        if (slices[men] == s) list->men.push_back(men);
    return list;
}

// Group by group, in parallel: each group's count first (the directory), then its
// configurations where the directory puts them.
std::shared_ptr<const SliceMen::List> PairLayout::computed_list(int c, int s) const {
    const ClassIndex& index = indices_[c];
    const std::vector<GroupAdvancement>& advancements = advancements_[c];
    const int target = index.slice_advancement(s), black_men = index.material().black_men;
    const std::uint64_t groups = advancements.size();
    const auto for_each_group = [&](auto&& f) {
        tbb::parallel_for(tbb::blocked_range<std::uint64_t>(0, groups), [&](const auto& r) {
            for (std::uint64_t g = r.begin(); g != r.end(); ++g) {
                const GroupAdvancement a = advancements[g];
                const int need = target - a.white;
                if (need < a.black_least || need > a.black_most) continue;
                const ClassIndex::MenGroup group = index.men_group(g);
                f(g, group, BlackPlacements(group), need);
            }
        });
    };
    auto list = std::make_shared<SliceMen::List>();
    std::vector<std::uint32_t>& start = list->group_start;
    start.assign(groups + 1, 0);
    for_each_group(
        [&](std::uint64_t g, const ClassIndex::MenGroup&, const BlackPlacements& black, int need) {
            std::uint32_t count = 0;
            black.for_each_run(black_men, need, [&](std::uint64_t, int begin, int end) {
                count += static_cast<std::uint32_t>(end - begin);
            });
            start[g + 1] = count;
        });
    std::uint64_t total = 0;
    for (std::uint64_t g = 0; g <= groups; ++g) {
        total += start[g];
        start[g] = static_cast<std::uint32_t>(total);
    }
    if (total != men_in_slice(c, s))
        throw Error("class " + index.material().name() + ": the computed layout of slice " +
                    std::to_string(s) + " has " + std::to_string(total) + " configurations, not " +
                    std::to_string(men_in_slice(c, s)));
    list->men.resize(total);
    for_each_group([&](std::uint64_t g, const ClassIndex::MenGroup& group,
                       const BlackPlacements& black, int need) {
        std::uint64_t* out = list->men.data() + start[g];
        black.for_each_run(black_men, need, [&](std::uint64_t rank, int begin, int end) {
            for (int e = begin; e < end; ++e) *out++ = group.first_men + rank + e;
        });
    });
    return list;
}

PairLayout::SliceWalk PairLayout::walk_slices(int c) const {
    SliceWalk walk;
    walk.layout_ = this;
    walk.c_ = c;
    if (mode_ == LayoutMode::tabled)
        walk.slice_ = slice_of_men_[c].empty() ? -1 : slice_of_men_[c][0];
    else if (indices_[c].men_group_count() > 0)
        walk.enter_group();
    return walk;
}

void PairLayout::SliceWalk::enter_group() {
    const ClassIndex& index = layout_->indices_[c_];
    squares_ = index.men_group(group_);
    const int black_men = index.material().black_men;
    int advancement = squares_.white_advancement;
    for (int j = 0; j < black_men; ++j) {
        black_[j] = j;
        advancement += squares_.black_advancement[j];
    }
    slice_ = index.slice_of_advancement(advancement);
}

void PairLayout::SliceWalk::next() {
    if (layout_->mode_ == LayoutMode::tabled) {
        const std::vector<std::uint16_t>& slices = layout_->slice_of_men_[c_];
        slice_ = ++men_ < slices.size() ? slices[men_] : -1;
        return;
    }
    const ClassIndex& index = layout_->indices_[c_];
    const int black_men = index.material().black_men;
    if (next_colex(black_.data(), black_men, squares_.black_squares)) {
        int advancement = squares_.white_advancement;
        for (int j = 0; j < black_men; ++j) advancement += squares_.black_advancement[black_[j]];
        slice_ = index.slice_of_advancement(advancement);
    } else if (++group_ < index.men_group_count()) {
        enter_group();
    } else {
        slice_ = -1;
    }
}

std::uint64_t PairLayout::positions() const {
    return indices_[0].size() + (classes_ == 2 ? indices_[1].size() : 0);
}

std::uint64_t PairLayout::slice_positions(int s) const {
    return slice_positions(0, s) + (classes_ == 2 ? slice_positions(1, s) : 0);
}

void scatter_slice(const PairLayout& layout, int c, const SliceValues& values,
                   std::span<std::uint16_t> outcomes, std::span<std::uint8_t> capture) {
    const std::uint64_t k = layout.kings_per_men();
    const SliceMen men = layout.slice_men(c, values.slice);
    const std::uint64_t base = layout.slice_base(c, values.slice);
    for (std::size_t j = 0; j < men.size(); ++j) {
        const std::uint64_t from = base + j * k, to = men[j] * k;
        std::copy_n(values.outcomes.begin() + static_cast<std::ptrdiff_t>(from), k,
                    outcomes.begin() + static_cast<std::ptrdiff_t>(to));
        std::copy_n(values.capture.begin() + static_cast<std::ptrdiff_t>(from), k,
                    capture.begin() + static_cast<std::ptrdiff_t>(to));
    }
}

}  // namespace damas
