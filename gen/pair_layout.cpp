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
        slice_men_[c].resize(static_cast<std::size_t>(index.slice_count()));
        for (std::uint64_t men = 0; men < index.men_count(); ++men) {
            const MenPlacement p = index.men(men);
            const int s = index.slice_of_men(p.white, p.black);
            slice_of_men_[c][men] = static_cast<std::uint16_t>(s);
            local_men_[c][men] = static_cast<std::uint32_t>(slice_men_[c][s].size());
            slice_men_[c][s].push_back(men);
        }
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
    const std::vector<std::uint64_t>& men = layout.men(c, values.slice);
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
