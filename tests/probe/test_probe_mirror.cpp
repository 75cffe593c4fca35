// The mirror layout against the full one (mirror_fixtures.hpp): small classes here, classes of 4
// pieces in test_probe_mirror_slow. Also: a pair with both wdl files mirrored is reported corrupt.
#include <gtest/gtest.h>

#include "gen/write/writer.hpp"
#include "mirror_fixtures.hpp"
#include "rules/movegen.hpp"

namespace damas {
namespace {

using test::Case;

class MirrorLayout : public testing::TestWithParam<Case> {};

TEST_P(MirrorLayout, AnswersLikeTheFullLayout) {
    test::check_mirror_layout(GetParam());
}

INSTANTIATE_TEST_SUITE_P(Variants, MirrorLayout,
                         testing::Values(Case{"english", 3}, Case{"brazilian", 3},
                                         Case{"english-giveaway", 3}, Case{"turkish", 3},
                                         Case{"international", 2}),
                         test::case_name);

// Every pair as the generator writes large ones: the class that keeps the wdl values and its
// codec chosen from estimates, one wdl file written.
class ChosenByEstimate : public testing::TestWithParam<Case> {};

TEST_P(ChosenByEstimate, AnswersLikeTheFullLayout) {
    test::check_mirror_layout(GetParam(), automatic_wdl_codec, false, 0);
}

INSTANTIATE_TEST_SUITE_P(Variants, ChosenByEstimate,
                         testing::Values(Case{"english", 3}, Case{"turkish", 3}), test::case_name);

// The context codecs (table/codecs/wdl_context.hpp, table/codecs/wdl_mix.hpp) wherever they apply,
// on top of the mirror layout.
class ContextCodec : public testing::TestWithParam<Case> {};

TEST_P(ContextCodec, AnswersLikeZstd) {
    test::check_mirror_layout(GetParam(), Codec::context);
}

TEST_P(ContextCodec, MixedModelAnswersLikeZstd) {
    test::check_mirror_layout(GetParam(), Codec::context_mix);
}

INSTANTIATE_TEST_SUITE_P(Variants, ContextCodec,
                         testing::Values(Case{"english", 3}, Case{"brazilian", 3},
                                         Case{"english-giveaway", 3}, Case{"turkish", 3}),
                         test::case_name);

// The half layout (format.hpp) of the 4-piece classes that are their own mirror.
TEST(HalfLayout, AnswersLikeZstd) {
    test::check_mirror_layout(Case{"english", 4}, Codec::context, true);
    test::check_mirror_layout(Case{"english", 4}, Codec::context_mix, true);
}

// A pair whose two wdl files both have the mirror layout cannot be answered (the search would
// never end): the probe says the database is corrupt instead.
TEST(MirrorLayout, BothFilesMirroredIsCorrupt) {
    const Variant v = *parse_variant("english");
    test::ScratchDir dir("mirror-both");
    test::generate_quietly(v, 3, dir.path);
    const Material m = *Material::parse("0201");
    const std::filesystem::path a = table_path(dir.path, v, m.name(), Metric::wdl);
    const std::filesystem::path b = table_path(dir.path, v, m.mirrored().name(), Metric::wdl);
    const std::filesystem::path stored = TableFile(a).holds_values() ? a : b;
    ASSERT_TRUE(TableFile(a).holds_values() != TableFile(b).holds_values());
    const TableHeader h = TableFile(stored).header();
    write_wdl_mirror_table(stored, TableInfo{v, h.material, "test"}, h, false);

    const auto tb = Tablebase::open(dir.path, 16);
    const std::vector<Position> quiet = test::first_quiet_english_positions(m, 50);
    EXPECT_EQ(quiet.size(), 50u);
    for (const Position& p : quiet)
        EXPECT_EQ(tb->probe_wdl(v, p).status, ProbeStatus::error_corrupt) << to_fen(v, p);
}

}  // namespace
}  // namespace damas
