// The mtc files' codecs (table/codecs/mtc_context.hpp, codec 4 "mtc-context" and codec 5
// "mtc-wdl", the same given the class's wdl values): their blocks round trip on adversarial values
// (every kind of u16, distances at the unary/gamma boundary, any second distance, blocks of 1
// position to a full one, every wdl value known or some not), corrupt or truncated blocks are
// refused and never read past; an english 2-4 --metric mtc run writes its mtc files with mtc-wdl
// (given no value where the class's wdl file has the mirror layout), smaller than mtc-context's
// and zstd-planes' coding of the same values, whose files still read the same values; a damaged mtc
// file, or an mtc-wdl file beside a missing, foreign or changed wdl file, is a clear error. The
// seam's checks over every codec (random and real blocks, codec bytes): test_codec; MTC against a
// forward search: test_probe_mtc.
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

// The wdl value of mtc value x (wdl_unknown for dtw_unknown).
std::uint8_t wdl_of(std::uint16_t x) {
    return x == dtw_unknown ? wdl_unknown : x == mtc_draw ? wdl_draw : (x & 1) ? wdl_win : wdl_loss;
}

// Encodes and decodes values with flags (and the wdl values `wdl` known, or none: empty);
// expects the values back, dtw_unknown where skipped.
void expect_mtc_round_trip(std::uint32_t second, const std::vector<std::uint16_t>& values,
                           const std::vector<std::uint8_t>& flags,
                           const std::vector<std::uint8_t>& wdl = {}) {
    std::vector<std::byte> coded, out(2 * values.size(), std::byte{0x5A});
    mtc_context::encode_block({second}, values, flags, wdl, coded);
    EXPECT_LE(coded.size(), mtc_context::max_encoded_bytes(values.size()));
    ASSERT_TRUE(mtc_context::decode_block({second}, coded, flags, wdl, out));
    for (std::size_t i = 0; i < values.size(); ++i) {
        const auto x = le::load<std::uint16_t>(&out[2 * i]);
        const bool skip = (flags[i] & wdl_context::skipped) != 0;
        ASSERT_EQ(x, skip ? dtw_unknown : values[i]) << i << " of " << values.size();
    }
    // Truncated: refused (the coder's flush is missing) or other values, never a crash.
    if (coded.size() > 5) {
        const auto cut = std::span(coded).first(coded.size() - 5);
        std::vector<std::byte> again(out.size());
        EXPECT_TRUE(!mtc_context::decode_block({second}, cut, flags, wdl, again) || again != out);
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
            // Given the wdl values (mtc-wdl): every one, and one in three unknown.
            std::vector<std::uint8_t> wdl(n), partly(n);
            for (std::size_t i = 0; i < n; ++i) {
                wdl[i] = wdl_of(v[i]);
                partly[i] = rng() % 3 == 0 ? wdl_unknown : wdl[i];
            }
            expect_mtc_round_trip(second, v, none, wdl);
            expect_mtc_round_trip(second, v, some, partly);
            for (auto& x : v) x = static_cast<std::uint16_t>(rng());  // any u16
            expect_mtc_round_trip(second, v, some);
            for (std::size_t i = 0; i < n; ++i) wdl[i] = wdl_of(v[i]);
            expect_mtc_round_trip(second, v, some, wdl);
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
    EXPECT_FALSE(mtc_context::decode_block({3}, {}, flags, {}, out));
    // A size that does not match the positions, or no second distance, or wdl values of
    // another size.
    std::vector<std::byte> coded;
    mtc_context::encode_block({3}, std::vector<std::uint16_t>(n, 2), flags, {}, coded);
    std::vector<std::byte> odd(2 * n + 1);
    EXPECT_FALSE(mtc_context::decode_block({3}, coded, flags, {}, odd));
    EXPECT_FALSE(mtc_context::decode_block({0}, coded, flags, {}, out));
    EXPECT_FALSE(
        mtc_context::decode_block({3}, coded, flags, std::vector<std::uint8_t>(n - 1), out));
    // Values that are not the wdl values given: the encoder refuses them.
    EXPECT_THROW(mtc_context::encode_block({3}, std::vector<std::uint16_t>(n, 2), flags,
                                           std::vector<std::uint8_t>(n, wdl_draw), coded),
                 Error);
    // Random bytes: refused or decoded to something, never a crash nor a read past the input
    // (the vector's exact size; the sanitizer builds check it).
    std::mt19937_64 rng(7);
    int refused = 0;
    for (int t = 0; t < 200; ++t) {
        std::vector<std::byte> junk(1 + rng() % 64);
        for (auto& b : junk) b = static_cast<std::byte>(rng());
        refused += !mtc_context::decode_block({3}, junk, flags, {}, out);
    }
    EXPECT_GT(refused, 100);  // short inputs run out long before 4096 positions
    // The same given wdl values (mtc-wdl): wins and losses code distances alone, and random
    // bytes still never crash.
    std::vector<std::uint8_t> wdl(n);
    for (std::size_t i = 0; i < n; ++i) wdl[i] = static_cast<std::uint8_t>(rng() % 4);
    refused = 0;
    for (int t = 0; t < 200; ++t) {
        std::vector<std::byte> junk(1 + rng() % 64);
        for (auto& b : junk) b = static_cast<std::byte>(rng());
        refused += !mtc_context::decode_block({3}, junk, flags, wdl, out);
    }
    EXPECT_GT(refused, 100);
}

// An english 2-4 --metric mtc --full-mtc run (default codec; every class's mtc values, the
// mirror-layout classes' coded without wdl values), made once.
const std::filesystem::path& mtc_folder() {
    static ScratchDir dir("mtc-context-db");
    static const bool made = [] {
        GenerateOptions o = test::generate_options(mtc_english, 4, dir.path);
        o.durable = false;
        o.metric = Metric::mtc;
        o.mirror_mtc = false;
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

// Whether class file `mtc`'s wdl file (the same name, .wdl) holds values.
bool wdl_beside_holds_values(std::filesystem::path mtc) {
    mtc.replace_extension(".wdl");
    return TableFile(mtc).holds_values();
}

TEST(MtcContext, AnMtcRunWritesItAndTheOldCodingStillReads) {
    ScratchDir dir("mtc-context-old");
    std::uint64_t context_bytes = 0, planes_bytes = 0;
    const auto files = mtc_files();
    ASSERT_GE(files.size(), 30u);
    int given_wdl = 0;
    for (const auto& path : files) {
        SCOPED_TRACE(path.filename().string());
        const TableFile t(path);
        // mtc-wdl, decoded with the class's wdl file (which tells no value in the mirror layout).
        EXPECT_EQ(t.header().codec, Codec::mtc_wdl);
        ASSERT_NE(t.wdl_companion(), nullptr);
        EXPECT_EQ(t.wdl_companion()->header().metric, Metric::wdl);
        given_wdl += wdl_beside_holds_values(path);
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
    EXPECT_GE(given_wdl, 15);
}

// mtc-wdl against mtc-context on the run's files: the same values decoded, in fewer bytes where
// the class's wdl file holds values (bench/mtc_codecs measures the sets) and no more elsewhere
// (the contexts adapt faster); a file written with either codec reads the same values through
// TableFile.
TEST(MtcWdl, TheSameValuesInFewerBytesThanMtcContext) {
    ScratchDir dir("mtc-wdl-real");
    std::uint64_t wdl_bytes = 0, context_bytes = 0, mirror_wdl_bytes = 0, mirror_context_bytes = 0;
    for (const auto& path : mtc_files()) {
        SCOPED_TRACE(path.filename().string());
        const TableFile t(path);
        ASSERT_EQ(t.header().codec, Codec::mtc_wdl);
        std::vector<std::uint16_t> v(t.size()), w(t.size());
        t.read_all(v);
        const auto again = dir.path / path.filename();
        write_again(path, Codec::mtc_context, again);
        const TableFile c(again);
        ASSERT_EQ(c.header().codec, Codec::mtc_context);
        c.read_all(w);
        ASSERT_EQ(v, w);
        const bool stored = wdl_beside_holds_values(path);
        (stored ? wdl_bytes : mirror_wdl_bytes) += t.header().file_size;
        (stored ? context_bytes : mirror_context_bytes) += c.header().file_size;
    }
    EXPECT_GT(wdl_bytes, 0u);
    EXPECT_GT(mirror_wdl_bytes, 0u);
    EXPECT_LT(static_cast<double>(wdl_bytes), 0.95 * static_cast<double>(context_bytes));
    EXPECT_LE(mirror_wdl_bytes, mirror_context_bytes);
}

// Every class's values probed one by one, in a random order through one small cache that the
// mtc files' blocks and their wdl files' blocks share (so that a block is decoded with its wdl
// values now cached, now not, now evicted), read what read_all reads.
TEST(MtcWdl, ProbesThroughASmallSharedCacheReadTheFileValues) {
    std::vector<std::unique_ptr<const TableFile>> files;
    std::vector<std::vector<std::uint16_t>> values;
    for (const auto& path : mtc_files()) {
        files.push_back(std::make_unique<const TableFile>(path));
        values.emplace_back(files.back()->size());
        files.back()->read_all(values.back());
    }
    ASSERT_GE(files.size(), 30u);
    BlockCache cache(256 << 10);  // a few blocks of each kind
    std::mt19937_64 rng(42);
    std::uint64_t probed = 0, cached = 0;
    std::size_t f = 0;
    std::uint64_t i = 0;
    for (int t = 0; t < 6000; ++t) {
        // Half the time a neighbour of the last position (its block likely cached).
        if (t == 0 || rng() % 2) {
            f = rng() % files.size();
            i = rng() % files[f]->size();
        } else {
            i = std::min(files[f]->size() - 1, i + rng() % 64);
        }
        const TableFile& mtc = *files[f];
        if (rng() % 2 && mtc.wdl_companion()->holds_values()) {
            const ReadResult w = mtc.wdl_companion()->value(i, cache);
            ASSERT_TRUE(w.ok()) << mtc.path() << " " << i;
            if (values[f][i] != dtw_unknown) {
                ASSERT_EQ(w.value, wdl_of(values[f][i])) << i;
            }
        }
        cached += mtc.try_value(i, cache).ok();
        const ReadResult r = mtc.value(i, cache);
        ASSERT_TRUE(r.ok()) << mtc.path() << " " << i << " " << read_status_name(r.status);
        ASSERT_EQ(r.value, values[f][i]) << mtc.path() << " " << i;
        ++probed;
    }
    EXPECT_GT(cached, probed / 20);           // hits
    EXPECT_LT(cached, probed - probed / 20);  // and misses
}

// The largest mtc-wdl file and its wdl file copied into dir.
std::filesystem::path copy_largest_mtc_wdl(const std::filesystem::path& dir) {
    std::filesystem::path largest;
    for (const auto& f : mtc_files())
        if (wdl_beside_holds_values(f) &&
            (largest.empty() ||
             std::filesystem::file_size(f) > std::filesystem::file_size(largest)))
            largest = f;
    const auto copy = dir / largest.filename();
    std::filesystem::copy_file(largest, copy);
    std::filesystem::path wdl = largest, wdl_copy = copy;
    wdl.replace_extension(".wdl");
    wdl_copy.replace_extension(".wdl");
    std::filesystem::copy_file(wdl, wdl_copy);
    return copy;
}

// An mtc-wdl file whose wdl file is missing, is another class's or holds other values: a clear
// error naming the wdl file when opened, or every block it changes refused (the blocks' hashes),
// never a wrong value.
TEST(MtcWdl, AWrongOrMissingWdlFileIsAClearError) {
    ScratchDir dir("mtc-wdl-companion");
    const auto mtc = copy_largest_mtc_wdl(dir.path);
    std::filesystem::path wdl = mtc;
    wdl.replace_extension(".wdl");
    const auto keep = dir.path / "kept.wdl.bytes";
    std::filesystem::copy_file(wdl, keep);
    std::vector<std::uint16_t> good(TableFile(mtc).size());
    TableFile(mtc).read_all(good);
    const auto expect_open_error = [&](const std::string& says) {
        try {
            const TableFile t(mtc);
            ADD_FAILURE() << "opened";
        } catch (const Error& e) {
            EXPECT_NE(std::string(e.what()).find(says), std::string::npos) << e.what();
        }
    };
    std::filesystem::remove(wdl);
    expect_open_error("is missing");
    // Another class's wdl file under its name.
    std::filesystem::path other;
    for (const auto& f : mtc_files())
        if (f.filename() != mtc.filename()) {
            other = f;
            break;
        }
    other.replace_extension(".wdl");
    std::filesystem::copy_file(other, wdl);
    expect_open_error("wdl");
    // Other values: the class's own values with every win made a draw.
    std::filesystem::remove(wdl);
    {
        const TableFile k(keep);
        std::vector<std::uint8_t> values(k.size());
        k.read_all(values);
        for (auto& x : values)
            if (x == wdl_win) x = wdl_draw;
        WriteOptions wo;
        wo.durable = false;
        const TableHeader& h = k.header();
        write_wdl_table(wdl, {h.variant, h.material, h.generator}, values, wo);
    }
    const TableFile t(mtc);
    std::vector<std::uint16_t> v(t.size());
    EXPECT_THROW(t.read_all(v), Error);
    BlockCache cache(1 << 20);
    int refused = 0;
    for (std::uint64_t i = 0; i < t.size(); i += 97) {
        const ReadResult r = t.value(i, cache);
        if (!r.ok()) {
            EXPECT_EQ(r.status, ReadStatus::corrupt_block);
            ++refused;
        } else {
            ASSERT_EQ(r.value, good[i]) << i;
        }
    }
    EXPECT_GT(refused, 0);
    // The class's own wdl file back: every value reads again.
    std::filesystem::remove(wdl);
    std::filesystem::copy_file(keep, wdl);
    const TableFile again(mtc);
    BlockCache fresh(1 << 20);
    for (std::uint64_t i = 0; i < again.size(); i += 97) {
        const ReadResult r = again.value(i, fresh);
        ASSERT_TRUE(r.ok()) << i;
        ASSERT_EQ(r.value, good[i]) << i;
    }
}

TEST(MtcContext, ADamagedFileIsAClearError) {
    ScratchDir dir("mtc-context-bad");
    // The largest mtc-wdl file (its blocks hold values), with its wdl file.
    const auto bad = copy_largest_mtc_wdl(dir.path);
    const auto largest = mtc_folder() / "english" / bad.filename();
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
