// The mirror layout against the full one (mirror_fixtures.hpp) on every class of 4 pieces (3 on
// 10x10). Label slow.
#include <gtest/gtest.h>

#include "mirror_fixtures.hpp"

namespace damas {
namespace {

using test::Case;

class MirrorLayoutSlow : public testing::TestWithParam<Case> {};

TEST_P(MirrorLayoutSlow, AnswersLikeTheFullLayout) {
    test::check_mirror_layout(GetParam());
}

INSTANTIATE_TEST_SUITE_P(Variants, MirrorLayoutSlow,
                         testing::Values(Case{"english", 4}, Case{"brazilian", 4},
                                         Case{"italian", 4}, Case{"english-giveaway", 4},
                                         Case{"turkish", 4}, Case{"international", 3}),
                         test::case_name);

}  // namespace
}  // namespace damas
