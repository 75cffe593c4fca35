// The mirror layout with the context codec wherever it applies (and so the half layout for
// english, italian and english-giveaway) against the full zstd layout (mirror_fixtures.hpp), on
// every class of 4 pieces of five 8x8 variants and 3 pieces on 10x10 (turkish: 3 pieces in
// test_probe_mirror; its 4-piece set takes most of an hour here). Label slow.
#include <gtest/gtest.h>

#include "mirror_fixtures.hpp"

namespace damas {
namespace {

using test::Case;

class MirrorLayoutSlow : public testing::TestWithParam<Case> {};

TEST_P(MirrorLayoutSlow, AnswersLikeTheFullLayout) {
    test::check_mirror_layout(GetParam(), Codec::context);
}

INSTANTIATE_TEST_SUITE_P(Variants, MirrorLayoutSlow,
                         testing::Values(Case{"english", 4}, Case{"brazilian", 4},
                                         Case{"italian", 4}, Case{"english-giveaway", 4},
                                         Case{"russian", 4}, Case{"international", 3}),
                         test::case_name);

}  // namespace
}  // namespace damas
