// The probe on a class of 10 pieces: english 0901 (nine White kings against one Black king, 645 M
// positions), through a hand-made wdl file whose value at index i is a pattern of i. No real
// 9- or 10-piece class is small enough for the suite (docs/performance.md has the real runs), so
// this checks what the probe adds at that size: a class slot for it, the index of a 10-piece
// position, the colour flip of its mirror, the capture search at its edge, and the cap. Writing
// the file takes about 4 CPU-s (a minute on a loaded host), so the stored values are read in the
// slow set (DAMAS_TEST_SLOW) alone; the fast set probes a folder without the file.
#include <gtest/gtest.h>

#include <random>

#include "gen/write/writer.hpp"
#include "index/class_index.hpp"
#include "index/flip.hpp"
#include "probe/probe.hpp"
#include "rules/movegen.hpp"
#include "rules/notation.hpp"
#include "table/format.hpp"
#include "tests/support/scratch.hpp"

namespace damas {
namespace {

const Variant english{BaseVariant::english, false};
const Material nine_one{0, 9, 0, 1};

// The cases of both sets, on a folder that has the class's file or not.
void expect_other_classes_and_the_cap(const std::filesystem::path& dir, bool has_file) {
    const auto tb = Tablebase::open(dir, 16);
    EXPECT_EQ(tb->max_pieces(), max_table_pieces);
    EXPECT_EQ(max_table_pieces, 10);
    // 10 pieces, a class without a file.
    EXPECT_EQ(
        tb->probe_wdl(english, parse_fen(english, "W:WK1,K2,K3,K4,K5:BK28,K29,K30,K31,K32")).status,
        ProbeStatus::not_in_database);
    // 11 pieces: beyond any table.
    EXPECT_EQ(
        tb->probe_wdl(english, parse_fen(english, "W:WK1,K2,K3,K4,K5,K6:BK28,K29,K30,K31,K32"))
            .status,
        ProbeStatus::not_in_database);
    // The 10-piece class: its file or none.
    const Position p = ClassIndex(english.info().board, nine_one).unindex(12345);
    EXPECT_EQ(tb->probe_wdl(english, p).status,
              has_file ? ProbeStatus::ok : ProbeStatus::not_in_database);
    // A handle capped at 9 pieces does not read it.
    const auto capped = Tablebase::open(dir, 16, 9);
    EXPECT_EQ(capped->max_pieces(), 9);
    EXPECT_EQ(capped->probe_wdl(english, p).status, ProbeStatus::not_in_database);
}

#ifndef DAMAS_TEST_SLOW
TEST(TenPieces, WithoutItsFileAndPastTheCap) {
    const test::ScratchDir dir("ten-pieces-none");
    expect_other_classes_and_the_cap(dir.path, false);
}
#else
// The value the hand-made table stores at index i.
std::uint8_t pattern(std::uint64_t i) {
    return static_cast<std::uint8_t>(i % 3);  // wdl_loss, wdl_draw, wdl_win
}
Value value_of(std::uint8_t wdl) {
    return wdl == wdl_win ? Value::win : wdl == wdl_draw ? Value::draw : Value::loss;
}

bool must_capture(const Position& p) {
    return dispatch(english.base,
                    [&](auto rules) { return MoveGenerator<decltype(rules)>::has_capture(p); });
}

class TenPiecesWritten : public testing::Test {
  protected:
    static void SetUpTestSuite() {
        dir_ = new test::ScratchDir("ten-pieces");
        const ClassIndex index(english.info().board, nine_one);
        const TableInfo info{english, {0, 9, 0, 1}, "test"};
        const WdlPasses passes = [] {
            return [](std::uint64_t first, std::span<std::uint8_t> out) {
                for (std::size_t k = 0; k < out.size(); ++k) out[k] = pattern(first + k);
            };
        };
        WriteOptions o;
        o.threads = 2;
        o.durable = false;
        const TableHeader counts = wdl_table_counts(info, index.size(), passes, o.threads);
        o.counts_from = &counts;
        ASSERT_TRUE(write_wdl_table(table_path(dir_->path, english, "0901", Metric::wdl), info,
                                    index.size(), passes, Codec::zstd, false, o));
    }
    static void TearDownTestSuite() {
        delete dir_;
        dir_ = nullptr;
    }
    static test::ScratchDir* dir_;
};
test::ScratchDir* TenPiecesWritten::dir_ = nullptr;

TEST_F(TenPiecesWritten, ProbeReadsTheStoredValueOfEachPosition) {
    const auto tb = Tablebase::open(dir_->path, 16);
    const ClassIndex index(english.info().board, nine_one);
    ASSERT_EQ(index.size(), 645'122'400u);  // C(32, 9) x 23
    std::mt19937_64 rng(10);
    int quiet = 0, captures = 0;
    for (int n = 0; n < 3000; ++n) {
        const std::uint64_t i = n == 0 ? index.size() - 1 : rng() % index.size();
        const Position p = index.unindex(i);
        const ProbeResult r = tb->probe_wdl(english, p);
        ASSERT_EQ(r.status, ProbeStatus::ok) << i;
        // A capture takes the lone Black king: the game is won, whatever the file says.
        const bool capture = must_capture(p);
        EXPECT_EQ(r.value, capture ? Value::win : value_of(pattern(i))) << to_fen(english, p);
        ++(capture ? captures : quiet);
        // The same position with Black to move and the colours swapped is its flip.
        const ProbeResult flipped = tb->probe_wdl(english, flip(english.info().board, p));
        EXPECT_EQ(flipped.status, ProbeStatus::ok);
        EXPECT_EQ(flipped.value, r.value);
    }
    EXPECT_GT(quiet, 1000);
    EXPECT_GT(captures, 100);
}

TEST_F(TenPiecesWritten, OtherClassesAndTheCap) {
    expect_other_classes_and_the_cap(dir_->path, true);
}
#endif

}  // namespace
}  // namespace damas
