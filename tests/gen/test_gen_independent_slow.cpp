// The generator against the independent solver on 10x10 with 3 pieces (slow label; the fast
// suite checks 10x10 with 2 pieces and every 8x8 variant with 3): see independent_compare.hpp.
#include <gtest/gtest.h>

#include "independent_compare.hpp"

namespace damas {
namespace {

TEST(IndependentSlow, International3Pieces) {
    test::compare(*parse_variant("international"), 3);
}

TEST(IndependentSlow, InternationalGiveaway3Pieces) {
    test::compare(*parse_variant("international-giveaway"), 3);
}

TEST(IndependentSlow, International3PiecesIndexCoversReference) {
    const Variant v = *parse_variant("international");
    test::expect_indices_cover_reference<International>(v, 3);
}

}  // namespace
}  // namespace damas
