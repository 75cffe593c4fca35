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
                         [](const testing::TestParamInfo<Case>& param_info) {
                             std::string name = param_info.param.variant;
                             for (char& ch : name)
                                 if (ch == '-') ch = '_';
                             return name + "_" + std::to_string(param_info.param.pieces);
                         });

}  // namespace
}  // namespace damas
