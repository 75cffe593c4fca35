// The mtc files' codec (table/codecs/mtc_context.hpp, codec 4 "mtc-context"): its blocks round
// trip on adversarial values (every kind of u16, distances at the unary/gamma boundary, any
// second distance, blocks of 1 position to a full one), corrupt or truncated blocks are refused
// and never read past; an english 2-4 --metric mtc run writes every mtc file with it, smaller
// than the zstd-planes coding of the same values, whose files (the coding before this codec)
// still read the same values; a damaged mtc file is a clear error. The seam's checks over every
// codec (random and real blocks, codec bytes): test_codec; MTC against a forward search:
// test_probe_mtc.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <random>

#include "gen/options.hpp"
#include "gen/write/writer.hpp"
#include "index/material.hpp"
#include "rules/error.hpp"
#include "table/bytes.hpp"
#include "table/codec.hpp"
#include "table/codecs/mtc_context.hpp"
#include "table/codecs/wdl_context.hpp"
#include "table/table_file.hpp"
#include "tests/support/generate.hpp"
#include "tests/support/scratch.hpp"

namespace damas {
namespace {

using test::ScratchDir;

const Variant mtc_english{BaseVariant::english, false};

// Encodes and decodes values with flags; expects the values back, dtw_unknown where skipped.
void expect_mtc_round_trip(std::uint32_t second, const std::vector<std::uint16_t>& values,
                           const std::vector<std::uint8_t>& flags) {
    std::vector<std::byte> coded, out(2 * values.size(), std::byte{0x5A});
    mtc_context::encode_block({second}, values, flags, coded);
    EXPECT_LE(coded.size(), mtc_context::max_encoded_bytes(values.size()));
    ASSERT_TRUE(mtc_context::decode_block({second}, coded, flags, out));
    for (std::size_t i = 0; i < values.size(); ++i) {
        const auto x = le::load<std::uint16_t>(&out[2 * i]);
        const bool skip = (flags[i] & wdl_context::skipped) != 0;
        ASSERT_EQ(x, skip ? dtw_unknown : values[i]) << i << " of " << values.size();
    }
    // Truncated: refused (the coder's flush is missing) or other values, never a crash.
    if (coded.size() > 5) {
        const auto cut = std::span(coded).first(coded.size() - 5);
        std::vector<std::byte> again(out.size());
        EXPECT_TRUE(!mtc_context::decode_block({second}, cut, flags, again) || again != out);
    }
}

TEST(MtcContext, AdversarialBlocksRoundTrip) {
    std::mt19937_64 rng(42);
    // Every kind of value: draws, wins and losses near the unary's end (d 11, 12, 13), the
    // largest distances, dtw_unknown on a position that is not skipped (0x7FFF << 1 | 1).
    const std::vector<std::uint16_t> edges{
        0, 1, 2, 3, 22, 23, 24, 25, 26, 27, 0x7FFC, 0x7FFD, 0xFFFC, 0xFFFD, mtc_draw, dtw_unknown};
    for (const std::size_t n : {std::size_t{1}, std::size_t{7}, std::size_t{1000},
                                std::size_t{mtc_context::positions_per_block}}) {
        for (const std::uint32_t second : {1u, 3u, 64u, 9000u}) {
            SCOPED_TRACE(std::to_string(n) + " positions, second " + std::to_string(second));
            std::vector<std::uint16_t> v(n);
            std::vector<std::uint8_t> none(n, 0), some(n), all(n, wdl_context::skipped);
            for (std::size_t i = 0; i < n; ++i) {
                v[i] = edges[rng() % edges.size()];
                some[i] = rng() % 4 == 0   ? wdl_context::skipped
                          : rng() % 3 == 0 ? wdl_context::threat
                                           : 0;
            }
            expect_mtc_round_trip(second, v, none);
            expect_mtc_round_trip(second, v, some);
            expect_mtc_round_trip(second, v, all);
            for (auto& x : v) x = static_cast<std::uint16_t>(rng());  // any u16
            expect_mtc_round_trip(second, v, some);
            for (std::size_t i = 0; i < n; ++i)  // long runs, then a change
                v[i] = mtc_encode(i % 500 < 499, static_cast<int>(1 + (i / 500) % 40));
            expect_mtc_round_trip(second, v, none);
        }
    }
}

TEST(MtcContext, CorruptBlocksAreRefused) {
    const std::size_t n = 4096;
    std::vector<std::uint8_t> flags(n, 0);
    std::vector<std::byte> out(2 * n);
    // Nothing to read: the coder's flush is missing.
    EXPECT_FALSE(mtc_context::decode_block({3}, {}, flags, out));
    // A size that does not match the positions, or no second distance.
    std::vector<std::byte> coded;
    mtc_context::encode_block({3}, std::vector<std::uint16_t>(n, 2), flags, coded);
    std::vector<std::byte> odd(2 * n + 1);
    EXPECT_FALSE(mtc_context::decode_block({3}, coded, flags, odd));
    EXPECT_FALSE(mtc_context::decode_block({0}, coded, flags, out));
    // Random bytes: refused or decoded to something, never a crash nor a read past the input
    // (the vector's exact size; the sanitizer builds check it).
    std::mt19937_64 rng(7);
    int refused = 0;
    for (int t = 0; t < 200; ++t) {
        std::vector<std::byte> junk(1 + rng() % 64);
        for (auto& b : junk) b = static_cast<std::byte>(rng());
        refused += !mtc_context::decode_block({3}, junk, flags, out);
    }
    EXPECT_GT(refused, 100);  // short inputs run out long before 4096 positions
}

// An english 2-4 --metric mtc run (default codec), made once.
const std::filesystem::path& mtc_folder() {
    static ScratchDir dir("mtc-context-db");
    static const bool made = [] {
        GenerateOptions o = test::generate_options(mtc_english, 4, dir.path);
        o.durable = false;
        o.metric = Metric::mtc;
        test::generate_quietly(o);
        return true;
    }();
    (void)made;
    return dir.path;
}

std::vector<std::filesystem::path> mtc_files() {
    std::vector<std::filesystem::path> files;
    for (const auto& e : std::filesystem::directory_iterator(mtc_folder() / "english"))
        if (e.path().extension() == ".mtc") files.push_back(e.path());
    std::sort(files.begin(), files.end());
    return files;
}

// Class m's mtc values written again with `codec` into path.
TableHeader write_again(const std::filesystem::path& from, Codec codec,
                        const std::filesystem::path& path) {
    const TableFile t(from);
    std::vector<std::uint16_t> v(t.size());
    t.read_all(v);
    WriteOptions wo;
    wo.durable = false;
    wo.mtc_codec = codec;
    wo.counts_from = &t.header();
    const TableHeader& h = t.header();
    const TableInfo info{h.variant, h.material, h.generator};
    return write_distance_table(
        path, info, Metric::mtc, v.size(),
        [&](std::uint64_t first, std::span<std::uint16_t> out) {
            std::copy_n(v.begin() + static_cast<std::ptrdiff_t>(first), out.size(), out.begin());
        },
        wo);
}

TEST(MtcContext, AnMtcRunWritesItAndTheOldCodingStillReads) {
    ScratchDir dir("mtc-context-old");
    std::uint64_t context_bytes = 0, planes_bytes = 0;
    const auto files = mtc_files();
    ASSERT_GE(files.size(), 30u);
    for (const auto& path : files) {
        SCOPED_TRACE(path.filename().string());
        const TableFile t(path);
        EXPECT_EQ(t.header().codec, Codec::mtc_context);
        t.verify();
        std::vector<std::uint16_t> v(t.size());
        t.read_all(v);
        // The same values in the coding before this codec: the reader gives them back but at
        // the capture positions, where the old coding holds a fill value and this one
        // dtw_unknown.
        const auto old_path = dir.path / path.filename();
        const TableHeader old = write_again(path, Codec::zstd_planes, old_path);
        EXPECT_EQ(old.codec, Codec::zstd_planes);
        const TableFile o(old_path);
        std::vector<std::uint16_t> w(o.size());
        o.read_all(w);
        std::size_t read = 0;
        for (std::size_t i = 0; i < v.size(); ++i) {
            if (v[i] == dtw_unknown) continue;
            ++read;
            ASSERT_EQ(w[i], v[i]) << i;
            ASSERT_TRUE(v[i] == mtc_draw || mtc_distance(v[i]) <= mtc_max_distance) << i;
        }
        EXPECT_GT(read, 0u);
        context_bytes += t.header().file_size;
        planes_bytes += o.header().file_size;
    }
    // The bound is loose: english 2-5 takes 0.619 of zstd-planes' bytes (bench/mtc_codecs).
    EXPECT_LT(static_cast<double>(context_bytes), 0.75 * static_cast<double>(planes_bytes));
}

TEST(MtcContext, ADamagedFileIsAClearError) {
    ScratchDir dir("mtc-context-bad");
    // The largest file: its blocks hold values.
    std::filesystem::path largest;
    for (const auto& f : mtc_files())
        if (largest.empty() || std::filesystem::file_size(f) > std::filesystem::file_size(largest))
            largest = f;
    const auto bad = dir.path / largest.filename();
    std::filesystem::copy_file(largest, bad);
    const TableFile good(largest);
    const std::uint64_t at = good.header().blocks_offset + 20;
    {
        std::fstream f(bad, std::ios::in | std::ios::out | std::ios::binary);
        f.seekg(static_cast<std::streamoff>(at));
        char c = 0;
        f.read(&c, 1);
        c = static_cast<char>(c ^ 0x55);
        f.seekp(static_cast<std::streamoff>(at));
        f.write(&c, 1);
    }
    const TableFile t(bad);
    std::vector<std::uint16_t> v(t.size());
    try {
        t.read_all(v);
        ADD_FAILURE() << "a damaged block read";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("block 0"), std::string::npos) << e.what();
    }
    EXPECT_THROW(t.verify(), Error);
    // Cut short: refused when opened.
    std::filesystem::resize_file(bad, good.header().file_size - 3);
    EXPECT_THROW(TableFile{bad}, Error);
}

}  // namespace
}  // namespace damas
