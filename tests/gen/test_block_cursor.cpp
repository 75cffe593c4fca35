// The store's block cursor (gen/store/block_cursor.hpp): walking a wdl and a dtw file of many
// blocks forwards, backwards and across blocks, it gives the values the file's own reader
// (TableFile::read_all) gives, and those written where they are known; a damaged block is an
// Error that names the file and the block, never a value.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "gen/store/block_cursor.hpp"
#include "rules/error.hpp"
#include "tests/table/table_fixtures.hpp"

namespace damas {
namespace {

struct TwoFiles : testing::Test {
    test::ScratchDir dir{"block-cursor"};
    static constexpr std::size_t n = 10'007;  // the last block is partial
    std::vector<std::uint8_t> wdl = test::random_wdl(n, 1, 30);
    std::vector<std::uint16_t> dtw = test::random_dtw(n, 2);
    std::filesystem::path wdl_path = dir.path / "t.wdl", dtw_path = dir.path / "t.dtw";
    void SetUp() override {
        write_wdl_table(wdl_path, test::test_info(), wdl, {.positions_per_block = 64});
        write_dtw_table(dtw_path, test::test_info(), dtw, {.positions_per_block = 512});
    }
};

TEST_F(TwoFiles, GivesTheValuesTheFileHolds) {
    const TableFile wdl_file(wdl_path), dtw_file(dtw_path);
    ASSERT_GT(wdl_file.header().blocks, 100u);
    ASSERT_GT(dtw_file.header().blocks, 10u);
    std::vector<std::uint8_t> wdl_all(n);
    std::vector<std::uint16_t> dtw_all(n);
    wdl_file.read_all(wdl_all);
    dtw_file.read_all(dtw_all);
    BlockCursor w(wdl_file), d(dtw_file);
    for (std::uint64_t i = 0; i < n; ++i) {
        ASSERT_EQ(w.wdl_at(i), wdl_all[i]) << i;
        ASSERT_EQ(d.u16_at(i), dtw_all[i]) << i;
        if (wdl[i] != wdl_unknown) {
            ASSERT_EQ(w.wdl_at(i), wdl[i]) << i;
        }
        if (dtw[i] != dtw_unknown) {
            ASSERT_EQ(d.u16_at(i), dtw[i]) << i;
        }
    }
    // Backwards, and leaping from block to block and back.
    for (std::uint64_t i = n; i-- > 0;) ASSERT_EQ(w.wdl_at(i), wdl_all[i]) << i;
    for (std::uint64_t k = 0; k < n; ++k) {
        const std::uint64_t i = (k * 7919) % n;
        ASSERT_EQ(d.u16_at(i), dtw_all[i]) << i;
        ASSERT_EQ(d.u16_at(n - 1 - i), dtw_all[n - 1 - i]) << i;
    }
}

TEST_F(TwoFiles, ADamagedBlockIsAnErrorNamingFileAndBlock) {
    std::vector<char> bytes = test::file_bytes(dtw_path);
    // Among block 0's values (not its frame's header): the block decodes, into the cursor's
    // bytes, and fails its hash, so a cursor that still took block 1 as held would misread it.
    const std::uint64_t in_first_block = TableFile(dtw_path).header().blocks_offset + 300;
    bytes[in_first_block] = static_cast<char>(bytes[in_first_block] ^ 0x10);
    test::write_bytes(dtw_path, bytes);
    const TableFile damaged(dtw_path);  // opens: only a block is damaged
    BlockCursor d(damaged);
    const std::uint16_t later = d.u16_at(600);  // block 1, held
    try {
        d.u16_at(0);
        FAIL() << "read a value from a damaged block";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find(dtw_path.string() + ": block 0: "), std::string::npos)
            << e.what();
    }
    // The failed read leaves no block held: block 0 fails again, block 1 is read again.
    EXPECT_THROW(d.u16_at(1), Error);
    EXPECT_EQ(d.u16_at(600), later);
    if (dtw[600] != dtw_unknown) {
        EXPECT_EQ(later, dtw[600]);
    }
}

}  // namespace
}  // namespace damas
