// The probing library against an independent solver (test_probe_fixtures.hpp): every position
// (both sides to move) of every class with at most 3 pieces (2 for turkish and international;
// test_probe_slow goes further), probed for WDL and DTW; capture positions, which the files do
// not store, included.
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
                         testing::Values(Case{"english", 3}, Case{"brazilian", 3},
                                         Case{"italian", 3}, Case{"russian", 3},
                                         Case{"portuguese", 3}, Case{"english-giveaway", 3},
                                         Case{"turkish", 2}, Case{"turkish-giveaway", 2},
                                         Case{"international", 2}),
                         test::case_name);

}  // namespace
}  // namespace damas
