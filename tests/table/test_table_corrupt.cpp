// Damaged table files: every kind of damage gives a clear error, never a crash and never a
// wrong value.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include "gen/write/writer.hpp"
#include "rules/error.hpp"
#include "table/table_file.hpp"
#include "table_fixtures.hpp"

namespace damas {
namespace {

using test::ScratchDir;

// The message of the Error that opening path throws ("" if it opens).
std::string open_error(const std::filesystem::path& path) {
    try {
        TableFile t(path);
    } catch (const Error& e) {
        return e.what();
    }
    return "";
}

bool contains(const std::string& s, std::string_view part) {
    return s.find(part) != std::string::npos;
}

struct CorruptTest : testing::Test {
    ScratchDir dir{"corrupt"};
    std::filesystem::path good = dir.path / "good.wdl";
    std::filesystem::path bad = dir.path / "bad.wdl";
    std::vector<std::uint8_t> values = test::random_wdl(2000, 3, 0);
    std::vector<char> bytes;

    void SetUp() override {
        write_wdl_table(good, test::test_info(), values, {.positions_per_block = 128});
        bytes = test::file_bytes(good);
    }
    void write_with(const std::vector<char>& b) const { test::write_bytes(bad, b); }
    std::vector<char> flipped(std::size_t byte, int bit) const {
        auto b = bytes;
        b[byte] = static_cast<char>(b[byte] ^ (1 << bit));
        return b;
    }
};

TEST_F(CorruptTest, MissingFile) {
    const std::string e = open_error(dir.path / "nothing.wdl");
    EXPECT_TRUE(contains(e, "no such table file")) << e;
    EXPECT_TRUE(contains(e, "nothing.wdl")) << e;
}

TEST_F(CorruptTest, Truncated) {
    const TableFile t(good);
    const std::size_t table_end = t.header().blocks_offset;
    for (const std::size_t size : {std::size_t{0}, std::size_t{10}, std::size_t{255},
                                   std::size_t{256}, table_end - 1, table_end, bytes.size() - 1}) {
        write_with({bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(size)});
        const std::string e = open_error(bad);
        EXPECT_TRUE(contains(e, "truncated")) << size << ": " << e;
    }
    auto longer = bytes;
    longer.push_back('x');
    write_with(longer);
    EXPECT_TRUE(contains(open_error(bad), "too long"));
}

TEST_F(CorruptTest, HeaderDamage) {
    write_with(flipped(0, 0));
    EXPECT_TRUE(contains(open_error(bad), "wrong magic"));
    write_with(flipped(8, 2));  // version 2 becomes 6
    EXPECT_TRUE(contains(open_error(bad), "format version 6 is not supported"));
    for (std::size_t byte = 12; byte < format::header_size; ++byte) {
        write_with(flipped(byte, static_cast<int>(byte % 8)));
        EXPECT_TRUE(contains(open_error(bad), "corrupt header")) << byte;
    }
}

TEST_F(CorruptTest, OffsetTableDamage) {
    const TableFile t(good);
    for (std::size_t byte = format::header_size; byte < t.header().blocks_offset; byte += 3) {
        write_with(flipped(byte, static_cast<int>(byte % 8)));
        EXPECT_TRUE(contains(open_error(bad), "corrupt offset table")) << byte;
    }
}

// Every single-bit flip of the file: opening fails with an Error, or it opens and then every
// probe gives either the right value or an error status, and verify() notices.
TEST_F(CorruptTest, EveryBitFlip) {
    write_with(bytes);
    const int fd = ::open(bad.c_str(), O_WRONLY);
    ASSERT_GE(fd, 0);
    const auto poke = [&](std::size_t byte, char c) {
        ASSERT_EQ(::pwrite(fd, &c, 1, static_cast<off_t>(byte)), 1);
    };
    BlockCache cache(1 << 16, 1024);
    int opened = 0;
    for (std::size_t byte = 0; byte < bytes.size(); ++byte) {
        for (int bit = 0; bit < 8; ++bit) {
            poke(byte, static_cast<char>(bytes[byte] ^ (1 << bit)));
            std::unique_ptr<TableFile> t;
            try {
                t = std::make_unique<TableFile>(bad);
            } catch (const Error&) {
                continue;
            }
            ++opened;
            EXPECT_THROW(t->verify(), Error) << byte << "." << bit;
            int errors = 0;
            for (std::size_t i = 0; i < values.size(); ++i) {
                const ReadResult r = t->value(i, cache);
                if (!r.ok()) {
                    EXPECT_EQ(r.status, ReadStatus::corrupt_block);
                    ++errors;
                    continue;
                }
                ASSERT_EQ(r.value, values[i]) << "flip " << byte << "." << bit << " index " << i;
            }
            std::vector<std::uint8_t> all(values.size());
            if (errors > 0) {
                EXPECT_THROW(t->read_all(all), Error);
            }
        }
        poke(byte, bytes[byte]);
    }
    ::close(fd);
    EXPECT_GT(opened, 0);  // the block bytes are only checked when read
}

TEST_F(CorruptTest, BlockDamageOnProbePath) {
    const TableFile t(good);
    const std::size_t at = t.header().blocks_offset + 5;  // inside block 0
    write_with(flipped(at, 2));
    const TableFile b(bad);
    BlockCache cache(1 << 16, 1024);
    EXPECT_EQ(b.value(3, cache).status, ReadStatus::corrupt_block);
    EXPECT_EQ(b.value(3, cache).status, ReadStatus::corrupt_block);  // errors are not cached
    EXPECT_TRUE(b.value(1000, cache).ok());                          // other blocks still work
    try {
        b.verify();
        ADD_FAILURE() << "verify passed";
    } catch (const Error& e) {
        EXPECT_TRUE(contains(e.what(), "checksum mismatch")) << e.what();
    }
}

TEST_F(CorruptTest, FileShrinksAfterOpen) {
    write_with(bytes);
    const TableFile t(bad);
    std::filesystem::resize_file(bad, t.header().blocks_offset + 10);
    BlockCache cache(1 << 16, 1024);
    EXPECT_EQ(t.value(1999, cache).status, ReadStatus::io_error);
    EXPECT_THROW(t.verify(), Error);
}

TEST_F(CorruptTest, NotATable) {
    write_with(std::vector<char>(1000, 'a'));
    EXPECT_TRUE(contains(open_error(bad), "wrong magic"));
}

}  // namespace
}  // namespace damas
