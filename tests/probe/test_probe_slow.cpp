// The slow part of test_probe: the same comparison with the independent solver on larger
// sets (turkish and international with 3 pieces). ctest -L slow.
#include <gtest/gtest.h>

#include "test_probe_fixtures.hpp"

namespace damas {
namespace {

using test::Case;

class ProbeAgainstReference : public testing::TestWithParam<Case> {};

TEST_P(ProbeAgainstReference, EveryPositionOfSmallClasses) {
    test::check_against_reference(GetParam());
}

INSTANTIATE_TEST_SUITE_P(Variants, ProbeAgainstReference,
                         testing::Values(Case{"turkish", 3}, Case{"turkish-giveaway", 3},
                                         Case{"international", 3}),
                         test::case_name);

}  // namespace
}  // namespace damas
