// PairLayout (gen/units/pair_layout.hpp): the computed mode gives the tabled mode's slices, lists
// and ranks, for every class of small sets of each board (both classes of a pair, classes that are
// their own mirror, without men, without kings), and pairs solved on it in units (both solvers)
// write the same files as pairs held whole on the tabled one.
#include <gtest/gtest.h>

#include <vector>

#include "gen/units/pair_layout.hpp"
#include "units_compare.hpp"

namespace damas {
namespace {

// A run's tuning that forces the layout mode.
GenerationTuning forced(LayoutMode mode) {
    GenerationTuning tuning;
    tuning.layout_mode = mode;
    return tuning;
}

PairLayout layout_in(LayoutMode mode, const BoardSpec& board, Material m) {
    PairLayout layout(board, m, forced(mode));
    EXPECT_EQ(layout.mode(), mode);
    return layout;
}

// Both modes of one pair agree on everything a caller can ask.
void expect_same_layout(const BoardSpec& board, Material m) {
    const PairLayout tabled = layout_in(LayoutMode::tabled, board, m);
    const PairLayout computed = layout_in(LayoutMode::computed, board, m);
    ASSERT_EQ(computed.classes(), tabled.classes());
    ASSERT_EQ(computed.slice_count(), tabled.slice_count());
    for (int c = 0; c < tabled.classes(); ++c) {
        const std::uint64_t men_count = tabled.index(c).men_count();
        std::vector<int> slice_of(men_count);
        PairLayout::SliceWalk walks[2] = {tabled.walk_slices(c), computed.walk_slices(c)};
        for (std::uint64_t men = 0; men < men_count; ++men) {
            slice_of[men] = tabled.slice_of_men(c, men);
            ASSERT_EQ(computed.slice_of_men(c, men), slice_of[men]) << m.name() << " " << men;
            for (PairLayout::SliceWalk& walk : walks) {
                ASSERT_EQ(walk.slice(), slice_of[men]) << m.name() << " " << men;
                walk.next();
            }
        }
        for (const PairLayout::SliceWalk& walk : walks) EXPECT_EQ(walk.slice(), -1);
        std::uint64_t listed = 0;
        for (int s = 0; s < tabled.slice_count(); ++s) {
            const SliceMen expected = tabled.slice_men(c, s), got = computed.slice_men(c, s);
            ASSERT_EQ(got.size(), expected.size()) << m.name() << " class " << c << " slice " << s;
            ASSERT_EQ(got.size(), computed.men_in_slice(c, s));
            ASSERT_EQ(computed.slice_positions(c, s), tabled.slice_positions(c, s));
            for (std::uint64_t j = 0; j < got.size(); ++j) {
                ASSERT_EQ(got[j], expected[j]) << m.name() << " slice " << s << " at " << j;
                ASSERT_EQ(slice_of[got[j]], s);
                ASSERT_EQ(got.rank(got[j]), j);
                ASSERT_EQ(expected.rank(expected[j]), j);
                if (j > 0) {
                    ASSERT_LT(got[j - 1], got[j]);
                }
            }
            listed += got.size();
        }
        EXPECT_EQ(listed, men_count) << m.name();
    }
}

void expect_same_layouts(const BoardSpec& board, int min_pieces, int max_pieces) {
    for (int n = min_pieces; n <= max_pieces; ++n)
        for (const Material& m : classes_with_pieces(n))
            if (!(m.mirrored() < m)) expect_same_layout(board, m);
}

TEST(PairLayout, ComputedEqualsTabledEnglishAndRussianBoards) {
    expect_same_layouts(board_8x8, 1, 5);
    expect_same_layouts(board_8x8_a1_light, 1, 5);
}

TEST(PairLayout, ComputedEqualsTabledInternational) {
    expect_same_layouts(board_10x10, 1, 4);
}

TEST(PairLayout, ComputedEqualsTabledTurkish) {
    expect_same_layouts(board_8x8_orthogonal, 1, 4);
}

// The kinds of class the sets above must hold.
TEST(PairLayout, SetsHoldEveryKindOfClass) {
    const BoardSpec& b = board_10x10;
    for (const Material m : {Material{1, 0, 1, 0}, Material{2, 0, 1, 0}, Material{0, 2, 0, 1},
                             Material{2, 1, 1, 0}, Material{0, 0, 2, 0}})
        expect_same_layout(b, m);
    EXPECT_EQ(PairLayout(b, {0, 2, 0, 1}).index(0).men_count(), 1u);  // no men
    EXPECT_EQ(PairLayout(b, {2, 0, 1, 0}).kings_per_men(), 1u);       // no kings
    EXPECT_EQ(PairLayout(b, {1, 0, 1, 0}).classes(), 1);              // its own mirror
}

// The mode follows the size of the tables, unless the tuning forces it.
TEST(PairLayout, ModeBySize) {
    const Material small{2, 0, 2, 0}, large{3, 0, 4, 0};  // large: 1.64 G configurations
    EXPECT_EQ(PairLayout::mode_for(board_10x10, small), LayoutMode::tabled);
    EXPECT_LE(PairLayout::tabled_bytes(board_10x10, small), max_tabled_layout_bytes);
    EXPECT_GT(PairLayout::tabled_bytes(board_10x10, large), max_tabled_layout_bytes);
    EXPECT_EQ(PairLayout::mode_for(board_10x10, large), LayoutMode::computed);
    EXPECT_EQ(PairLayout(board_10x10, small).mode(), LayoutMode::tabled);
    EXPECT_EQ(PairLayout::mode_for(board_10x10, small, forced(LayoutMode::computed)),
              LayoutMode::computed);
    EXPECT_EQ(PairLayout::mode_for(board_10x10, large, forced(LayoutMode::tabled)),
              LayoutMode::tabled);
}

TEST(PairLayout, ComputedLayoutWritesTheSameFiles) {
    for (const char* name : {"english", "international", "turkish"}) {
        const Variant v = parse_variant(name).value();
        const int pieces = test::small_set(v) ? 3 : 4;
        const auto expected = test::tree_bytes(test::shared_database(v, pieces));  // tabled
        for (const PairSolving how : {PairSolving::units, PairSolving::units_compact}) {
            test::ScratchDir computed("layout-" + v.name());
            test::generate_in_units(v, pieces, computed.path, how, automatic_wdl_codec, 0,
                                    std::nullopt, forced(LayoutMode::computed));
            const auto got = test::tree_bytes(computed.path);
            EXPECT_EQ(got.size(), expected.size());
            for (const auto& [file, bytes] : expected) {
                const auto it = got.find(file);
                ASSERT_NE(it, got.end()) << file;
                EXPECT_TRUE(it->second == bytes) << v.name() << ": " << file << " differs";
            }
        }
    }
}

}  // namespace
}  // namespace damas
