// damas recode (gen/run/recode.hpp): a folder's wdl files written again with another codec from its
// DTW files must be the very files gen writes with that codec (every file of the folder,
// manifest included, byte for byte), for every variant, through the automatic choice by
// estimates, and back again; so must its dtw files written again with another codec of 16-bit
// tables, and its mtc files with another mtc codec or with new wdl files (those gen writes with
// those options); bad requests are clear errors that change nothing.
#include <gtest/gtest.h>

#include "gen/process/progress.hpp"
#include "gen/run/recode.hpp"
#include "rules/error.hpp"
#include "tests/gen/gen_fixtures.hpp"
#include "tests/gen/units_compare.hpp"

namespace damas::test {
namespace {

GenerateOptions options(const Variant& v, int pieces, const std::filesystem::path& dir,
                        WdlCodec codec, std::uint64_t large_class_positions) {
    GenerateOptions o;
    o.variant = v;
    o.max_pieces = pieces;
    o.dir = dir;
    o.threads = 2;
    o.durable = false;
    o.wdl_codec = codec;
    o.large_class_positions = large_class_positions;
    return o;
}

RecodeSummary recode_with(const GenerateOptions& o, std::vector<Material> only = {}) {
    Progress progress(Progress::Mode::quiet);
    return recode_folder({o, std::move(only)}, progress);
}

// The dtw files only, with `codec`.
RecodeSummary recode_dtw_with(GenerateOptions o, Codec codec) {
    Progress progress(Progress::Mode::quiet);
    o.distance_codec = codec;
    return recode_folder({.gen = o, .only = {}, .wdl = false, .dtw = true}, progress);
}

// gen as generate_in_units does (every pair whole), its dtw files with `codec`.
void generate_with_dtw_codec(const Variant& v, int pieces, const std::filesystem::path& dir,
                             Codec codec) {
    GenerateOptions o = options(v, pieces, dir, automatic_wdl_codec, context_min_positions);
    o.distance_codec = codec;
    generate_quietly(o);
}

void expect_same_trees(const std::filesystem::path& a, const std::filesystem::path& b) {
    const auto x = tree_bytes(a), y = tree_bytes(b);
    ASSERT_EQ(x.size(), y.size());
    for (const auto& [name, bytes] : x) {
        ASSERT_TRUE(y.count(name)) << name;
        EXPECT_TRUE(bytes == y.at(name)) << name << " differs";
    }
}

struct RecodeCase {
    Variant variant;
    int pieces;
};

class Recode : public ::testing::TestWithParam<RecodeCase> {};

// zstd -> context-mix -> zstd, and zstd -> automatic with every class "large" (the codec and,
// in a pair, the class that keeps the values chosen by estimates), each against gen.
TEST_P(Recode, GivesTheFilesGenWrites) {
    const auto [v, pieces] = GetParam();
    ScratchDir zstd("recode-zstd"), mix("recode-mix"), autom("recode-auto"), work("recode-work");
    const std::uint64_t all_large = 1;
    generate_in_units(v, pieces, zstd.path, PairSolving::automatic, Codec::zstd, all_large);
    generate_in_units(v, pieces, mix.path, PairSolving::automatic, Codec::context_mix, all_large);
    generate_in_units(v, pieces, autom.path, PairSolving::automatic, automatic_wdl_codec,
                      all_large);
    generate_in_units(v, pieces, work.path, PairSolving::automatic, Codec::zstd, all_large);

    const RecodeSummary s = recode_with(options(v, pieces, work.path, Codec::context_mix, 0));
    EXPECT_GT(s.classes, 0);
    EXPECT_GT(s.positions, 0u);
    expect_same_trees(work.path, mix.path);
    recode_with(options(v, pieces, work.path, Codec::zstd, 0));
    expect_same_trees(work.path, zstd.path);
    recode_with(options(v, pieces, work.path, automatic_wdl_codec, all_large));
    expect_same_trees(work.path, autom.path);
}

// zstd-planes -> zstd -> zstd-planes, each against gen writing that codec; a second recode to
// the same codec writes nothing.
TEST_P(Recode, GivesTheDtwFilesGenWrites) {
    const auto [v, pieces] = GetParam();
    ScratchDir planes("recode-dtw-planes"), zstd("recode-dtw-zstd"), work("recode-dtw-work");
    generate_with_dtw_codec(v, pieces, planes.path, Codec::zstd_planes);
    generate_with_dtw_codec(v, pieces, zstd.path, Codec::zstd);
    generate_with_dtw_codec(v, pieces, work.path, Codec::zstd_planes);
    const GenerateOptions o = options(v, pieces, work.path, automatic_wdl_codec, 0);

    RecodeSummary s = recode_dtw_with(o, Codec::zstd);
    EXPECT_GT(s.dtw_files_written, 0);
    EXPECT_EQ(s.wdl_bytes_before + s.wdl_bytes_after, 0u);
    EXPECT_LT(s.dtw_bytes_before, s.dtw_bytes_after);  // the planes are smaller
    expect_same_trees(work.path, zstd.path);
    s = recode_dtw_with(o, Codec::zstd_planes);
    EXPECT_GT(s.dtw_files_written, 0);
    expect_same_trees(work.path, planes.path);
    s = recode_dtw_with(o, Codec::zstd_planes);
    EXPECT_EQ(s.dtw_files_written, 0);
    EXPECT_EQ(s.dtw_bytes_before, s.dtw_bytes_after);
    expect_same_trees(work.path, planes.path);
}

// gen --metric mtc --dtw-pieces 2 (a folder of both metrics), its mtc files with `codec`.
GenerateOptions mtc_options(const Variant& v, int pieces, const std::filesystem::path& dir,
                            Codec codec, bool mirror_wdl) {
    GenerateOptions o = options(v, pieces, dir, automatic_wdl_codec, context_min_positions);
    o.metric = Metric::mtc;
    o.dtw_pieces = 2;
    o.mtc_codec = codec;
    o.mirror_wdl = mirror_wdl;
    return o;
}

RecodeSummary recode_mtc_with(GenerateOptions o, std::optional<Codec> mtc, bool wdl) {
    Progress progress(Progress::Mode::quiet);
    o.metric = Metric::dtw;  // recode takes the folder's metric from its files
    o.dtw_pieces = 0;
    if (mtc) o.mtc_codec = *mtc;
    return recode_folder({.gen = o, .only = {}, .wdl = wdl, .dtw = false, .mtc = mtc.has_value()},
                         progress);
}

// mtc-wdl -> zstd-planes -> mtc-wdl, then the wdl files with both classes stored and back (the
// mtc-wdl files written again with them, coded given the new ones), each against gen with those
// options; a second recode to the same codec writes nothing.
TEST_P(Recode, GivesTheMtcFilesGenWrites) {
    const auto [v, pieces] = GetParam();
    if (v.base == BaseVariant::turkish) GTEST_SKIP() << "no --metric mtc where men move sideways";
    ScratchDir given_wdl("recode-mtc-wdl"), planes("recode-mtc-planes"), full("recode-mtc-full"),
        work("recode-mtc-work");
    generate_quietly(mtc_options(v, pieces, given_wdl.path, Codec::mtc_wdl, true));
    generate_quietly(mtc_options(v, pieces, planes.path, Codec::zstd_planes, true));
    generate_quietly(mtc_options(v, pieces, full.path, Codec::mtc_wdl, false));
    generate_quietly(mtc_options(v, pieces, work.path, Codec::mtc_wdl, true));
    GenerateOptions o = mtc_options(v, pieces, work.path, Codec::mtc_wdl, true);

    RecodeSummary s = recode_mtc_with(o, Codec::zstd_planes, false);
    EXPECT_GT(s.mtc_files_written, 0);
    EXPECT_EQ(s.wdl_bytes_before + s.wdl_bytes_after, 0u);
    EXPECT_LT(s.mtc_bytes_before, s.mtc_bytes_after);
    expect_same_trees(work.path, planes.path);
    s = recode_mtc_with(o, Codec::mtc_wdl, false);
    expect_same_trees(work.path, given_wdl.path);
    s = recode_mtc_with(o, Codec::mtc_wdl, false);
    EXPECT_EQ(s.mtc_files_written, 0);
    expect_same_trees(work.path, given_wdl.path);

    o.mirror_wdl = false;
    s = recode_mtc_with(o, std::nullopt, true);
    EXPECT_GT(s.mtc_files_written, 0);
    expect_same_trees(work.path, full.path);
    o.mirror_wdl = true;
    recode_mtc_with(o, std::nullopt, true);
    expect_same_trees(work.path, given_wdl.path);
}

std::string case_name(const ::testing::TestParamInfo<RecodeCase>& info) {
    std::string s = info.param.variant.name() + "_" + std::to_string(info.param.pieces);
    for (char& c : s)
        if (c == '-') c = '_';
    return s;
}

// Flying and short kings, men that move sideways (turkish, with its king-against-a-lone-man
// rule ending games where a capture is due), and giveaway (the winner by the other parity).
INSTANTIATE_TEST_SUITE_P(Variants, Recode,
                         ::testing::Values(RecodeCase{*parse_variant("english"), 4},
                                           RecodeCase{*parse_variant("international"), 3},
                                           RecodeCase{*parse_variant("turkish"), 3},
                                           RecodeCase{*parse_variant("russian-giveaway"), 3},
                                           RecodeCase{*parse_variant("italian"), 3}),
                         case_name);

TEST(RecodeErrors, NamedClassOnlyAndClearErrors) {
    const Variant v = *parse_variant("english");
    ScratchDir dir("recode-errors"), zstd("recode-errors-zstd");
    generate_in_units(v, 3, dir.path, PairSolving::automatic, Codec::zstd, context_min_positions);
    const auto before = tree_bytes(dir.path);

    // A class not in the folder, and a folder with no tables: errors, nothing written.
    EXPECT_THROW(
        recode_with(options(v, 3, dir.path, Codec::context, 0), {*Material::parse("0301")}), Error);
    ScratchDir empty("recode-empty");
    EXPECT_THROW(recode_with(options(v, 3, empty.path, Codec::context, 0)), Error);
    // A missing mirror.
    std::filesystem::remove(table_path(dir.path, v, "0102", Metric::dtw));
    EXPECT_THROW(
        recode_with(options(v, 3, dir.path, Codec::context, 0), {*Material::parse("0201")}), Error);
    auto after = tree_bytes(dir.path);
    after.emplace((std::filesystem::path("english") / "0102.dtw").string(),
                  before.at((std::filesystem::path("english") / "0102.dtw").string()));
    EXPECT_TRUE(after == before);

    // One pair only: its wdl files change, no other file but the manifest does.
    ScratchDir one("recode-one");
    generate_in_units(v, 3, one.path, PairSolving::automatic, Codec::zstd, context_min_positions);
    const auto was = tree_bytes(one.path);
    const RecodeSummary s =
        recode_with(options(v, 3, one.path, Codec::context_mix, 0), {*Material::parse("0101")});
    EXPECT_EQ(s.classes, 1);
    const auto now = tree_bytes(one.path);
    ASSERT_EQ(now.size(), was.size());
    for (const auto& [name, bytes] : now) {
        const bool may_change = name == "english/0101.wdl" || name == "english/manifest.json";
        if (!may_change) {
            EXPECT_TRUE(bytes == was.at(name)) << name;
        }
    }
    EXPECT_FALSE(now.at("english/0101.wdl") == was.at("english/0101.wdl"));
}

TEST(RecodeCli, BadRequestsExitNonZero) {
    ScratchDir empty("recode-cli");
    const std::string dir = " -d " + empty.path.string();
    EXPECT_EQ(run_damas("recode -v english -q" + dir), 2);  // no tables there
    EXPECT_EQ(run_damas("recode -v english --wdl-codec lzma -q" + dir), 2);
    EXPECT_EQ(run_damas("recode -v english --wdl-codec zstd-planes -q" + dir), 2);  // dtw only
    EXPECT_EQ(run_damas("recode -v english --dtw-codec context -q" + dir), 2);      // wdl only
    EXPECT_EQ(run_damas("recode -v english --mtc-codec context -q" + dir), 2);      // wdl only
    // gen takes the same names, refused before anything is written.
    EXPECT_EQ(run_damas("gen -v english -p 2 --dtw-codec context -q" + dir), 2);
    EXPECT_EQ(run_damas("gen -v english -p 2 --wdl-codec zstd-planes -q" + dir), 2);
    EXPECT_TRUE(tree_bytes(empty.path).empty());
    EXPECT_EQ(run_damas("recode -v checkers -q" + dir), 2);
    generate_in_units(*parse_variant("english"), 2, empty.path, PairSolving::automatic, Codec::zstd,
                      context_min_positions);
    EXPECT_EQ(run_damas("recode -v english -c 9999 -q" + dir), 2);
    EXPECT_EQ(run_damas("recode -v english --wdl-codec context -q --no-sync" + dir), 0);
    EXPECT_EQ(run_damas("recode -v english --dtw-codec zstd -q --no-sync" + dir), 0);
    EXPECT_EQ(run_damas("recode -v english --mtc-codec zstd-planes -q --no-sync" + dir), 2);
    EXPECT_EQ(run_damas("verify -q" + dir), 0);
}

}  // namespace
}  // namespace damas::test
