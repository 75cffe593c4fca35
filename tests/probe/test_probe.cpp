// The probing library against an independent solver (test_probe_fixtures.hpp): every position
// (both sides to move) of every class with at most 3 pieces (2 for turkish and international),
// probed for WDL and DTW; capture positions, which the files do not store, included. Compiled a
// second time with DAMAS_TEST_SLOW as test_probe_slow (label slow): the same comparison on the
// larger sets, turkish and international with 3 pieces.
#include <gtest/gtest.h>

#include "test_probe_fixtures.hpp"

namespace damas {
namespace {

using test::Case;

class ProbeAgainstReference : public testing::TestWithParam<Case> {};

TEST_P(ProbeAgainstReference, EveryPositionOfSmallClasses) {
    test::check_against_reference(GetParam());
}

#ifndef DAMAS_TEST_SLOW
INSTANTIATE_TEST_SUITE_P(Variants, ProbeAgainstReference,
                         testing::Values(Case{"english", 3}, Case{"brazilian", 3},
                                         Case{"italian", 3}, Case{"russian", 3},
                                         Case{"portuguese", 3}, Case{"english-giveaway", 3},
                                         Case{"turkish", 2}, Case{"turkish-giveaway", 2},
                                         Case{"international", 2}),
                         test::case_name);
#else
INSTANTIATE_TEST_SUITE_P(Variants, ProbeAgainstReference,
                         testing::Values(Case{"turkish", 3}, Case{"turkish-giveaway", 3},
                                         Case{"international", 3}),
                         test::case_name);
#endif

}  // namespace
}  // namespace damas
