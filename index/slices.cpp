// ClassIndex slices: the men configurations grouped by total advancement (class_index.hpp).
#include <algorithm>
#include <cmath>

#include "index/class_index.hpp"
#include "index/man_rows.hpp"
#include "index/subset_sums.hpp"

namespace damas {

int ClassIndex::advancement(Bitboard white_men, Bitboard black_men) const {
    int sum = 0;
    for_each_bit(white_men, [&](int b) { sum += white_advancement_[b]; });
    for_each_bit(black_men, [&](int b) { sum += black_advancement_[b]; });
    return sum;
}

// Men configurations by total advancement, row by row: on a row of n squares, i White men and
// j Black men can stand in C(n, i) * C(n - i, j) ways.
std::vector<std::uint64_t> ClassIndex::men_per_advancement() const {
    const int wm = material_.white_men, bm = material_.black_men, h = board_.height;
    const int max_adv = (wm + bm) * (h - 1);
    const auto at = [&](int i, int j, int adv) { return (i * (bm + 1) + j) * (max_adv + 1) + adv; };
    std::vector<std::uint64_t> ways(static_cast<std::size_t>((wm + 1) * (bm + 1) * (max_adv + 1)));
    ways[at(0, 0, 0)] = 1;
    const GeometryTables t = make_tables(board_);
    for (int y = 0; y < h; ++y) {
        const int n = count_bits(t.row(y));
        const int white_max = man_rows(board_, Color::white).contains(y) ? n : 0;
        const int black_max = man_rows(board_, Color::black).contains(y) ? n : 0;
        const int white_step = man_advancement(board_, Color::white, y);
        const int black_step = man_advancement(board_, Color::black, y);
        std::vector<std::uint64_t> next(ways.size());
        for (int i = 0; i <= wm; ++i)
            for (int j = 0; j <= bm; ++j)
                for (int adv = 0; adv <= max_adv; ++adv) {
                    const std::uint64_t w = ways[at(i, j, adv)];
                    if (w == 0) continue;
                    for (int x = 0; x <= std::min(white_max, wm - i); ++x)
                        for (int z = 0; z <= std::min(std::max(black_max - x, 0), bm - j); ++z)
                            next[at(i + x, j + z, adv + x * white_step + z * black_step)] +=
                                w * binomial(n, x) * binomial(n - x, z);
                }
        ways.swap(next);
    }
    std::vector<std::uint64_t> out(static_cast<std::size_t>(max_adv + 1));
    for (int adv = 0; adv <= max_adv; ++adv) out[adv] = ways[at(wm, bm, adv)];
    return out;
}

void ClassIndex::init_slices() {
    const std::vector<std::uint64_t> counts = men_per_advancement();
    slice_of_advancement_.assign(counts.size(), -1);
    for (int adv = static_cast<int>(counts.size()) - 1; adv >= 0; --adv) {
        if (counts[adv] == 0) continue;
        slice_of_advancement_[adv] = static_cast<int>(slice_advancement_.size());
        slice_advancement_.push_back(adv);
        men_in_slice_.push_back(counts[adv]);
    }
}

int ClassIndex::slice_of_men(Bitboard white_men, Bitboard black_men) const {
    return slice_of_advancement_[advancement(white_men, black_men)];
}

int ClassIndex::slice_of_advancement(int advancement) const {
    if (advancement < 0 || advancement >= static_cast<int>(slice_of_advancement_.size())) return -1;
    return slice_of_advancement_[advancement];
}

int ClassIndex::slice_of(const Position& p) const {
    return slice_of_men(p.men(Color::white), p.men(Color::black));
}

std::uint64_t ClassIndex::positions_in_slice(int slice) const {
    return size_ == 0 ? 0 : men_in_slice_[slice] * kings_per_men();
}

std::uint64_t ClassIndex::largest_slice_bytes(double bytes_per_position) const {
    std::uint64_t largest = 0;
    for (int s = 0; s < slice_count(); ++s) largest = std::max(largest, positions_in_slice(s));
    return static_cast<std::uint64_t>(std::ceil(static_cast<double>(largest) * bytes_per_position));
}

bool ClassIndex::slices_fit(std::uint64_t budget_bytes, double bytes_per_position) const {
    return largest_slice_bytes(bytes_per_position) <= budget_bytes;
}

namespace {

// The squares of [lo, hi) not in dense_taken, by decreasing value of `value_of_bit` (the lists
// are built so that the values never grow: reversed for White, whose advancement grows with the
// row), with their values.
void list_squares(int lo, int hi, bool reverse, Bitboard dense_taken,
                  const std::array<Bitboard, 64>& bit_of_dense,
                  const std::array<std::int8_t, 64>& value_of_bit, std::vector<Bitboard>& square,
                  std::vector<std::int8_t>& value) {
    square.clear();
    value.clear();
    for (int d = lo; d < hi; ++d)
        if ((dense_taken & bit(d)) == 0) square.push_back(bit_of_dense[d]);
    if (reverse) std::reverse(square.begin(), square.end());
    for (Bitboard s : square) value.push_back(value_of_bit[lowest_bit(s)]);
}

}  // namespace

// The placements of each side's men of a given advancement, by the search of
// index/subset_sums.hpp over its squares, each side's largest square first.
void ClassIndex::for_each_men_in_slice(
    int slice, const std::function<void(std::uint64_t, const MenPlacement&)>& f) const {
    constexpr SubsetOrder order = SubsetOrder::reverse_colex;
    const int target = slice_advancement_[slice];
    const int wm = material_.white_men, bm = material_.black_men;
    std::vector<Bitboard> white_square, black_square;
    std::vector<std::int8_t> white_value, black_value;
    list_squares(white_lo_, white_hi_, true, 0, bit_of_dense_, white_advancement_, white_square,
                 white_value);
    const SubsetSums white_sums(white_value);
    SubsetSums black_sums;
    const auto add_white = [&](Bitboard chosen, int e, int) { return chosen | white_square[e]; };
    const auto add_black = [&](Bitboard chosen, int e, int) { return chosen | black_square[e]; };
    const auto on_white = [&](Bitboard white) {
        Bitboard dense_white = 0;
        for_each_bit(white, [&](int b) { dense_white |= bit(dense(b)); });
        list_squares(black_lo_, black_hi_, false, dense_white, bit_of_dense_, black_advancement_,
                     black_square, black_value);
        black_sums.reset(black_value);
        const int need = target - advancement(white, 0);
        black_sums.search<order>(bm, need, Bitboard{0}, add_black, [&](const auto& run) {
            run.for_each(add_black, [&](Bitboard black) {
                f(men_index(white, black), MenPlacement{white, black});
            });
        });
    };
    for (int white_need = 0; white_need <= target; ++white_need)
        white_sums.search<order>(wm, white_need, Bitboard{0}, add_white,
                                 [&](const auto& run) { run.for_each(add_white, on_white); });
}

}  // namespace damas
