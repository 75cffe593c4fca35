// The generator against an independent solver (reference_solver.hpp): every position of every
// 2- and 3-piece class of every variant, giveaway included, both sides to move, value and DTW
// (independent_compare.hpp).
#include <gtest/gtest.h>

#include "independent_compare.hpp"

namespace damas {
namespace {

class Independent : public ::testing::TestWithParam<Variant> {};

TEST_P(Independent, EveryPositionUpTo3Pieces) {
    const Variant v = GetParam();
    test::compare(v, 3);
}

TEST_P(Independent, IndexCoversReferencePositions) {
    const Variant v = GetParam();
    dispatch(v.base,
             [&](auto rules) { test::expect_indices_cover_reference<decltype(rules)>(v, 3); });
}

INSTANTIATE_TEST_SUITE_P(AllVariants, Independent, ::testing::ValuesIn(all_variants()),
                         test::variant_test_name);

}  // namespace
}  // namespace damas
