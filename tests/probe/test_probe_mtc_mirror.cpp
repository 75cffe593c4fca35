// The mtc mirror layout (table/format.hpp): a folder whose mirror-layout classes have no mtc values
// answers every MTC probe, the best moves and the class statistics exactly as one made with
// --full-mtc (up to 3 pieces here, 4 in test_probe_mtc_mirror_slow); and a pair whose two mtc
// files both have the mirror layout is reported corrupt.
#include <gtest/gtest.h>

#include "gen/write/pair_writer.hpp"
#include "gen/write/writer.hpp"
#include "index/class_index.hpp"
#include "index/flip.hpp"
#include "probe/probe.hpp"
#include "probe/study/class_stats.hpp"
#include "rules/movegen.hpp"
#include "rules/notation.hpp"
#include "table/table_file.hpp"
#include "test_probe_fixtures.hpp"

namespace damas {
namespace {

using test::Case;

struct MtcFiles {
    std::uint64_t bytes = 0;
    int mirror = 0;
};
MtcFiles mtc_files(const std::filesystem::path& folder) {
    MtcFiles f;
    for (const auto& e : std::filesystem::directory_iterator(folder)) {
        if (e.path().extension() != ".mtc") continue;
        f.bytes += e.file_size();
        f.mirror += !TableFile(e.path()).holds_values();
    }
    return f;
}

GenerateOptions mtc_options(const Variant& v, int pieces, const std::filesystem::path& dir,
                            bool mirror_mtc) {
    GenerateOptions o = test::generate_options(v, pieces, dir);
    o.metric = Metric::mtc;
    o.mirror_mtc = mirror_mtc;
    return o;
}

class MtcMirrorLayout : public testing::TestWithParam<Case> {};

TEST_P(MtcMirrorLayout, AnswersLikeTheFullLayout) {
    const Variant v = *parse_variant(GetParam().variant);
    const int pieces = GetParam().pieces;
    test::ScratchDir mirror_dir("mtc-mirror"), full_dir("mtc-full");
    test::generate_quietly(mtc_options(v, pieces, mirror_dir.path, true));
    test::generate_quietly(mtc_options(v, pieces, full_dir.path, false));
    const MtcFiles layout = mtc_files(mirror_dir.path / v.name());
    const MtcFiles full = mtc_files(full_dir.path / v.name());
    EXPECT_EQ(full.mirror, 0);
    EXPECT_GT(layout.mirror, 0);
    EXPECT_LT(layout.bytes, full.bytes);

    const auto mirror = Tablebase::open(mirror_dir.path, 16);
    const auto reference = Tablebase::open(full_dir.path, 16);
    const BoardSpec board = v.info().board;
    std::uint64_t searched = 0;
    for (const Material m : classes_up_to(pieces)) {
        const bool mirrored =
            !TableFile(table_path(mirror_dir.path, v, m.name(), Metric::mtc)).holds_values();
        const ClassIndex index(board, m);
        for (std::uint64_t i = 0; i < index.size(); ++i) {
            const Position white = index.unindex(i);
            for (const Position& p : {white, flip(board, white)}) {
                const ProbeResult expected = reference->probe_distance(v, p);
                ASSERT_TRUE(expected.ok()) << to_fen(v, p);
                const ProbeResult got = mirror->probe_distance(v, p);
                ASSERT_TRUE(got.ok()) << to_fen(v, p) << " " << probe_status_name(got.status);
                ASSERT_EQ(got.value, expected.value) << to_fen(v, p);
                ASSERT_EQ(got.plies, expected.plies) << to_fen(v, p);
                ASSERT_EQ(got.metric, Metric::mtc) << to_fen(v, p);
            }
            searched += mirrored;
        }
        if (!mirrored) continue;
        test::expect_same_class_study(v, m, mirror_dir.path, *mirror, full_dir.path, *reference);
    }
    EXPECT_GT(searched, 0u);
}

#ifdef DAMAS_TEST_SLOW
INSTANTIATE_TEST_SUITE_P(Variants, MtcMirrorLayout,
                         testing::Values(Case{"english", 4}, Case{"russian", 4},
                                         Case{"international", 4}),
                         test::case_name);
#else
INSTANTIATE_TEST_SUITE_P(Variants, MtcMirrorLayout,
                         testing::Values(Case{"english", 3}, Case{"brazilian", 3},
                                         Case{"russian-giveaway", 3}, Case{"italian", 3},
                                         Case{"international", 3}),
                         test::case_name);

// A pair whose two mtc files both have the mirror layout: no class holds the values, so an MTC
// probe of a quiet position says the database is corrupt (the search would never end).
TEST(MtcMirrorLayout, BothFilesMirroredIsCorrupt) {
    const Variant v = *parse_variant("english");
    test::ScratchDir dir("mtc-mirror-both");
    test::generate_quietly(mtc_options(v, 3, dir.path, true));
    const Material m = *Material::parse("0201");
    const std::filesystem::path a = table_path(dir.path, v, m.name(), Metric::mtc);
    const std::filesystem::path b = table_path(dir.path, v, m.mirrored().name(), Metric::mtc);
    ASSERT_TRUE(TableFile(a).holds_values() != TableFile(b).holds_values());
    const std::filesystem::path stored = TableFile(a).holds_values() ? a : b;
    const TableHeader h = TableFile(stored).header();
    write_mirror_table(stored, TableInfo{v, h.material, "test"}, Metric::mtc, h, false);

    const auto tb = Tablebase::open(dir.path, 16);
    const std::vector<Position> quiet = test::first_quiet_english_positions(m, 50);
    EXPECT_EQ(quiet.size(), 50u);
    for (const Position& p : quiet)
        EXPECT_EQ(tb->probe_distance(v, p).status, ProbeStatus::error_corrupt) << to_fen(v, p);
}

#endif

}  // namespace
}  // namespace damas
