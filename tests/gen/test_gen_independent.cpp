// The generator against an independent solver (reference_solver.hpp): every position of every
// 2- and 3-piece class of every variant, giveaway included, both sides to move, value and DTW
// (independent_compare.hpp). International with 3 pieces is in test_gen_independent_slow; its
// 2-piece set is here.
#include <gtest/gtest.h>

#include "independent_compare.hpp"

namespace damas {
namespace {

int pieces_for(const Variant& v) {
    return v.base == BaseVariant::international ? 2 : 3;
}

class Independent : public ::testing::TestWithParam<Variant> {};

TEST_P(Independent, EveryPositionUpTo3Pieces) {
    const Variant v = GetParam();
    test::compare(v, pieces_for(v));
}

TEST_P(Independent, IndexCoversReferencePositions) {
    const Variant v = GetParam();
    dispatch(v.base, [&](auto rules) {
        test::expect_indices_cover_reference<decltype(rules)>(v, pieces_for(v));
    });
}

INSTANTIATE_TEST_SUITE_P(AllVariants, Independent, ::testing::ValuesIn(all_variants()),
                         test::variant_test_name);

}  // namespace
}  // namespace damas
