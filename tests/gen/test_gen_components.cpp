// The solver's two ways of solving a slice give the same values: as components of two men
// configurations (where men only move forward) and as a whole (gen/solve/solver.hpp). Every class
// with men of 4 pieces (3 on 10x10 and in turkish) of every variant.
#include <gtest/gtest.h>

#include <string>

#include "gen/solve/solver.hpp"
#include "gen/store/solved_store.hpp"
#include "gen_fixtures.hpp"
#include "index/material.hpp"

namespace damas {
namespace {

class SliceSolvingAgree : public ::testing::TestWithParam<Variant> {};

TEST_P(SliceSolvingAgree, ComponentsAndWholeSlicesGiveTheSameValues) {
    const Variant v = GetParam();
    const bool men_move_sideways = v.base == BaseVariant::turkish;
    // Turkish (64 squares, never in components) and 10x10 take 3 pieces to keep the test short.
    const int pieces = v.info().board.width == 10 || men_move_sideways ? 3 : 4;
    // A class needs smaller ones, and crowning ones of its size.
    const std::filesystem::path& dir = test::shared_database(v, pieces);
    std::uint64_t components = 0;
    for (const Material m : classes_with_pieces(pieces)) {
        if (m.men() == 0 || m.mirrored() < m) continue;
        SolvedStore store(v, dir);
        store.load_below(m);
        store.load_below(m.mirrored());
        SolveTimes automatic, whole;
        const auto a = solve_pair(v, m, store, {}, &automatic, SliceSolving::automatic);
        const auto b = solve_pair(v, m, store, {}, &whole, SliceSolving::whole);
        EXPECT_EQ(whole.components, 0u);
        components += automatic.components;
        ASSERT_EQ(a.size(), b.size());
        for (std::size_t c = 0; c < a.size(); ++c) {
            EXPECT_EQ(a[c].outcomes, b[c].outcomes) << m.name();
            EXPECT_EQ(a[c].capture, b[c].capture) << m.name();
        }
    }
    // Where men only move forward, the comparison is not empty.
    if (men_move_sideways)
        EXPECT_EQ(components, 0u);
    else
        EXPECT_GT(components, 0u);
}

INSTANTIATE_TEST_SUITE_P(AllVariants, SliceSolvingAgree, ::testing::ValuesIn(all_variants()),
                         test::variant_test_name);

}  // namespace
}  // namespace damas
