#include "gen/pair_layout.hpp"

#include <algorithm>

#include "rules/error.hpp"

namespace damas {

PairLayout::PairLayout(const BoardSpec& board, Material m)
    : classes_(m == m.mirrored() ? 1 : 2),
      indices_{ClassIndex(board, m), ClassIndex(board, m.mirrored())} {
    for (int c = 0; c < 2; ++c) {
        const ClassIndex& index = indices_[c];
        if (index.slice_count() > 0xFFFF) throw Error("class " + m.name() + " has too many slices");
        slice_of_men_[c].resize(index.men_count());
        local_men_[c].resize(index.men_count());
        slice_sizes_[c].assign(static_cast<std::size_t>(index.slice_count()), 0);
        for (std::uint64_t men = 0; men < index.men_count(); ++men) {
            const MenPlacement p = index.men(men);
            const int s = index.slice_of_men(p.white, p.black);
            if (slice_sizes_[c][s] > 0xFFFFFFFFu)
                throw Error("class " + index.material().name() +
                            " has a slice of more than 2^32 men configurations");
            slice_of_men_[c][men] = static_cast<std::uint16_t>(s);
            local_men_[c][men] = static_cast<std::uint32_t>(slice_sizes_[c][s]++);
        }
    }
}

PairLayout::MenList PairLayout::men(int c, int s) const {
    // The solver asks for the slice it solves (both classes) and the unit reader for the one
    // before: a few lists cover them.
    constexpr std::size_t lists_kept = 4;
    std::lock_guard lock(cache_->mutex);
    auto& lists = cache_->lists;
    for (const auto& [lc, ls, list] : lists)
        if (lc == c && ls == s) return list;
    auto list = std::make_shared<std::vector<std::uint64_t>>();
    list->reserve(slice_sizes_[c][s]);
    const std::vector<std::uint16_t>& slices = slice_of_men_[c];
    for (std::uint64_t men = 0; men < slices.size(); ++men)
        if (slices[men] == s) list->push_back(men);
    if (lists.size() == lists_kept) lists.erase(lists.begin());
    lists.emplace_back(c, s, list);
    return list;
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
    const PairLayout::MenList list = layout.men(c, values.slice);
    const std::vector<std::uint64_t>& men = *list;
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
