// Folded mtc distances (table/mtc_fold.hpp): a folder made with --mtc-fold answers every MTC
// probe, the best moves and the class statistics exactly as one made without, in both mtc
// layouts, and verify --deep (the store's resolution) passes on it; its mtc files are smaller,
// its wdl files the same bytes. The header field round-trips and a bad one is refused.
#include <gtest/gtest.h>

#include "gen/verify/verify.hpp"
#include "index/class_index.hpp"
#include "index/flip.hpp"
#include "probe/probe.hpp"
#include "rules/notation.hpp"
#include "table/mtc_fold.hpp"
#include "table/table_file.hpp"
#include "test_probe_fixtures.hpp"

namespace damas {
namespace {

std::uint64_t bytes_of(const std::filesystem::path& folder, Metric metric) {
    std::uint64_t bytes = 0;
    for (const auto& e : std::filesystem::directory_iterator(folder))
        if (e.path().extension() == "." + std::string(metric_name(metric))) bytes += e.file_size();
    return bytes;
}

GenerateOptions mtc_options(const Variant& v, int pieces, const std::filesystem::path& dir,
                            int fold, bool mirror_mtc) {
    GenerateOptions o = test::generate_options(v, pieces, dir);
    o.metric = Metric::mtc;
    o.mtc_fold = fold;
    o.mirror_mtc = mirror_mtc;
    return o;
}

struct FoldCase {
    const char* variant;
    int pieces;
    int fold;
    bool mirror_mtc;
};

class MtcFold : public testing::TestWithParam<FoldCase> {};

TEST_P(MtcFold, AnswersLikeTheUnfoldedFiles) {
    const FoldCase c = GetParam();
    const Variant v = *parse_variant(c.variant);
    test::ScratchDir folded_dir("mtc-fold"), plain_dir("mtc-plain");
    test::generate_quietly(mtc_options(v, c.pieces, folded_dir.path, c.fold, c.mirror_mtc));
    test::generate_quietly(mtc_options(v, c.pieces, plain_dir.path, 0, c.mirror_mtc));
    const std::filesystem::path folded_folder = folded_dir.path / v.name();
    EXPECT_LT(bytes_of(folded_folder, Metric::mtc),
              bytes_of(plain_dir.path / v.name(), Metric::mtc));

    const auto folded = Tablebase::open(folded_dir.path, 16);
    const auto plain = Tablebase::open(plain_dir.path, 16);
    const BoardSpec board = v.info().board;
    std::uint64_t resolved = 0;
    for (const Material m : classes_up_to(c.pieces)) {
        for (const Metric metric : {Metric::wdl}) {
            const auto a = table_path(folded_dir.path, v, m.name(), metric);
            const auto b = table_path(plain_dir.path, v, m.name(), metric);
            EXPECT_EQ(TableFile(a).header().blocks_checksum, TableFile(b).header().blocks_checksum)
                << m.name();
        }
        const TableFile mtc(table_path(folded_dir.path, v, m.name(), Metric::mtc));
        if (mtc.holds_values()) {
            EXPECT_EQ(mtc.header().mtc_fold, c.fold);
        }
        const ClassIndex index(board, m);
        for (std::uint64_t i = 0; i < index.size(); ++i) {
            const Position white = index.unindex(i);
            for (const Position& p : {white, flip(board, white)}) {
                const ProbeResult expected = plain->probe_distance(v, p);
                ASSERT_TRUE(expected.ok()) << to_fen(v, p);
                const ProbeResult got = folded->probe_distance(v, p);
                ASSERT_TRUE(got.ok()) << to_fen(v, p) << " " << probe_status_name(got.status);
                ASSERT_EQ(got.value, expected.value) << to_fen(v, p);
                ASSERT_EQ(got.plies, expected.plies) << to_fen(v, p);
                resolved += expected.plies >= 2 && expected.plies <= c.fold;
            }
        }
        test::expect_same_class_study(v, m, folded_dir.path, *folded, plain_dir.path, *plain);
    }
    EXPECT_GT(resolved, 0u);  // distances the fold hid were told apart

    // The store resolves them too: every quiet position recomputed from its successors.
    const VerifyReport report = verify_database(folded_dir.path, true);
    EXPECT_TRUE(report.ok()) << (report.problems.empty() ? "" : report.problems.front());
    EXPECT_GT(report.positions_checked, 0u);
}

INSTANTIATE_TEST_SUITE_P(Variants, MtcFold,
                         testing::Values(FoldCase{"english", 4, 4, true},
                                         FoldCase{"english", 4, 2, false},
                                         FoldCase{"russian-giveaway", 3, 4, true},
                                         FoldCase{"italian", 3, 3, true},
                                         FoldCase{"international", 3, 4, true}),
                         [](const testing::TestParamInfo<FoldCase>& param_info) {
                             std::string name = std::string(param_info.param.variant) + "_" +
                                                std::to_string(param_info.param.pieces) + "_fold" +
                                                std::to_string(param_info.param.fold) +
                                                (param_info.param.mirror_mtc ? "" : "_full");
                             for (char& ch : name)
                                 if (ch == '-') ch = '_';
                             return name;
                         });

TEST(MtcFold, FoldsTheDistancesUpToItOnly) {
    EXPECT_EQ(fold_mtc(mtc_encode(true, 3), 4), mtc_encode(true, 1));
    EXPECT_EQ(fold_mtc(mtc_encode(false, 4), 4), mtc_encode(false, 1));
    EXPECT_EQ(fold_mtc(mtc_encode(true, 5), 4), mtc_encode(true, 5));
    EXPECT_EQ(fold_mtc(mtc_encode(false, 0), 4), mtc_encode(false, 0));
    EXPECT_EQ(fold_mtc(mtc_draw, 4), mtc_draw);
    EXPECT_EQ(fold_mtc(dtw_unknown, 4), dtw_unknown);
    EXPECT_EQ(fold_mtc(mtc_encode(true, 3), 0), mtc_encode(true, 3));
    EXPECT_TRUE(mtc_folded(mtc_encode(true, 1), 4));
    EXPECT_FALSE(mtc_folded(mtc_encode(true, 1), 0));
    EXPECT_FALSE(mtc_folded(mtc_encode(true, 5), 4));
}

TEST(MtcFold, HeaderFieldRoundTripsAndIsChecked) {
    TableHeader h;
    h.variant = *parse_variant("english");
    h.material = {0, 2, 0, 1};
    h.metric = Metric::mtc;
    h.codec = Codec::mtc_wdl;
    h.positions_per_block = 8192;
    h.positions = 100;
    h.blocks = 1;
    h.draws = 100;
    h.table_offset = format::header_size;
    h.blocks_offset = h.table_offset + format::table_bytes(1);
    h.file_size = h.blocks_offset;
    h.mtc_fold = 4;
    HeaderBytes b = encode_header(h);
    EXPECT_EQ(decode_header(b, "t").mtc_fold, 4);
    EXPECT_EQ(b[8], std::byte{5});  // format version 5
    h.mtc_fold = 1;
    b = encode_header(h);
    EXPECT_THROW(decode_header(b, "t"), Error);
    h.mtc_fold = 4;
    h.metric = Metric::dtw;
    h.codec = Codec::zstd_planes;
    b = encode_header(h);
    EXPECT_THROW(decode_header(b, "t"), Error);
}

}  // namespace
}  // namespace damas
