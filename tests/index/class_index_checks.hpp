// Shared checks for the class index tests: the closed form of a class's size, computed apart
// from the index, and what a valid placement of a class is.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "index/class_index.hpp"
#include "rules/geometry.hpp"

namespace damas::test {

inline std::uint64_t binomial_product(int n, int k) {
    if (k < 0 || k > n) return 0;
    std::uint64_t c = 1;
    for (int i = 1; i <= k; ++i)
        c = c * static_cast<std::uint64_t>(n - k + i) / static_cast<std::uint64_t>(i);
    return c;
}

// The number of placements, summed over how many men stand on each back row. On diagonal boards
// White men may stand on row 0 (not Black's) and Black men on the top row (not White's); the
// other rows except the promotion rows are shared. Turkish men never stand on either back row.
inline std::uint64_t closed_form_size(const BoardSpec& b, const Material& m) {
    const GeometryTables t = make_tables(b);
    const int row = b.grid == Grid::orthogonal ? 0 : b.width / 2;  // squares on a back row
    const int shared = b.grid == Grid::orthogonal ? t.squares - 2 * b.width : t.squares - 2 * row;
    const int free = t.squares - m.white_men - m.black_men;
    const std::uint64_t kings = binomial_product(free, m.white_kings) *
                                binomial_product(free - m.white_kings, m.black_kings);
    std::uint64_t total = 0;
    for (int a = 0; a <= m.white_men; ++a)
        for (int c = 0; c <= m.black_men; ++c)
            total += binomial_product(row, a) * binomial_product(row, c) *
                     binomial_product(shared, m.white_men - a) *
                     binomial_product(shared - (m.white_men - a), m.black_men - c);
    return total * kings;
}

// Whether p is a White-to-move placement of exactly the class of `index`.
inline bool valid_placement(const ClassIndex& index, const Position& p) {
    return !index.why_not_indexable(p).has_value();
}

}  // namespace damas::test
