// Table files: write then read back (every size class, both metrics), unknown filling,
// determinism, header contents, the cache-only path and reads from many threads.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <fstream>
#include <thread>

#include "gen/write/writer.hpp"
#include "rules/error.hpp"
#include "table/table_file.hpp"
#include "table_fixtures.hpp"

namespace damas {
namespace {

using test::ScratchDir;

// Known values come back exactly; unknown ones hold some stored value 0..2.
void expect_wdl_matches(const std::vector<std::uint8_t>& in, const TableFile& t) {
    std::vector<std::uint8_t> all(in.size());
    t.read_all(all);
    BlockCache cache(1 << 20);
    for (std::size_t i = 0; i < in.size(); ++i) {
        if (in[i] == wdl_unknown) {
            ASSERT_LE(all[i], wdl_win) << i;
        } else {
            ASSERT_EQ(all[i], in[i]) << i;
        }
        const ReadResult r = t.value(i, cache);
        ASSERT_TRUE(r.ok()) << i;
        ASSERT_EQ(r.value, all[i]) << i;
    }
    EXPECT_EQ(t.value(in.size(), cache).status, ReadStatus::out_of_range);
}

TEST(TableFile, WdlRoundTripSizes) {
    ScratchDir dir("wdl-sizes");
    for (const std::uint32_t ppb : {4u, 64u, 1024u, 0u}) {
        const std::uint64_t p = ppb == 0 ? format::wdl_positions_per_block : ppb;
        for (const std::uint64_t n : {std::uint64_t{0}, std::uint64_t{1}, std::uint64_t{3}, p - 1,
                                      p, p + 1, 3 * p + 2, std::uint64_t{200001}}) {
            const auto values = test::random_wdl(n, n * 7 + ppb, 30);
            const auto path = dir.path / "t.wdl";
            const TableHeader h =
                write_wdl_table(path, test::test_info(), values, {.positions_per_block = ppb});
            const TableFile t(path);
            EXPECT_EQ(t.size(), n);
            EXPECT_EQ(t.header().positions_per_block, p);
            EXPECT_EQ(t.header().blocks, (n + p - 1) / p);
            EXPECT_EQ(t.header().file_size, h.file_size);
            expect_wdl_matches(values, t);
            EXPECT_NO_THROW(t.verify());
        }
    }
}

TEST(TableFile, WdlStructuredLarge) {
    ScratchDir dir("wdl-large");
    std::vector<std::uint8_t> v(3'000'017);
    for (std::size_t i = 0; i < v.size(); ++i)
        v[i] = (i % 97 < 5) ? wdl_unknown : static_cast<std::uint8_t>((i / 1000 + i / 37) % 3);
    const auto path = dir.path / "big.wdl";
    write_wdl_table(path, test::test_info(), v, {.threads = 2});
    const TableFile t(path);
    expect_wdl_matches(v, t);
    EXPECT_LT(std::filesystem::file_size(path), v.size() / 4);
}

TEST(TableFile, DtwRoundTrip) {
    ScratchDir dir("dtw");
    for (const std::uint64_t n :
         {std::uint64_t{0}, std::uint64_t{1}, std::uint64_t{8191}, std::uint64_t{8192},
          std::uint64_t{8193}, std::uint64_t{100003}}) {
        const auto values = test::random_dtw(n, n);
        const auto path = dir.path / "t.dtw";
        write_dtw_table(path, test::test_info(), values);
        const TableFile t(path);
        ASSERT_EQ(t.header().metric, Metric::dtw);
        std::vector<std::uint16_t> all(n);
        t.read_all(all);
        BlockCache cache(1 << 20);
        for (std::size_t i = 0; i < n; ++i) {
            if (values[i] != dtw_unknown) {
                ASSERT_EQ(all[i], values[i]) << i;
            }
            ASSERT_EQ(t.value(i, cache).value, all[i]);
        }
        std::vector<std::uint8_t> wrong(n);
        EXPECT_THROW(t.read_all(wrong), Error);
    }
}

// Rule tables carry the reading of the draw rules they follow (format.hpp, rules version); a
// file of an earlier reading (format versions 1 to 3, no rules version) is refused with a
// message naming the command that makes it again.
TEST(TableFile, DtrOfAnOlderRulesReadingIsRefused) {
    ScratchDir dir("dtr-rules-version");
    const std::vector<std::uint16_t> values{dtr_encode(true, 3), dtr_none, dtr_encode(false, 2)};
    const auto path = dir.path / "t.dtr";
    // zstd, as every damas wrote them before zstd-planes (a version 2 header without rules).
    write_dtr_table(path, test::test_info(), Metric::dtr, values,
                    WriteOptions{.distance_codec = Codec::zstd});
    {
        const TableFile t(path);
        EXPECT_EQ(t.header().rules_version, format::rules_version);
    }
    // The same file as an earlier damas wrote it: version 2, no rules version.
    std::vector<char> bytes(std::filesystem::file_size(path));
    {
        std::ifstream in(path, std::ios::binary);
        in.read(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    }
    HeaderBytes hb;
    std::memcpy(hb.data(), bytes.data(), hb.size());
    TableHeader old = decode_header(hb, "t");
    old.rules_version = 0;
    hb = encode_header(old);
    EXPECT_EQ(static_cast<int>(hb[8]), 2);  // format version 2
    std::memcpy(bytes.data(), hb.data(), hb.size());
    {
        std::ofstream out(path, std::ios::binary | std::ios::trunc);
        out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    }
    try {
        const TableFile t(path);
        ADD_FAILURE() << "an old rule table was opened";
    } catch (const Error& e) {
        const std::string what = e.what();
        EXPECT_NE(what.find("damas gen-rules"), std::string::npos) << what;
        EXPECT_NE(what.find("older reading of the draw rules"), std::string::npos) << what;
    }
}

TEST(TableFile, HeaderFieldsAndCounts) {
    ScratchDir dir("header");
    const std::vector<std::uint8_t> v{2, 2, 1, 0, 3, 3, 2, 1, 0};
    TableInfo info{Variant{BaseVariant::brazilian, true}, {1, 2, 3, 0}, "gen 1.2.3"};
    const auto path = table_path(dir.path, info.variant, "1230", Metric::wdl);
    EXPECT_EQ(path, dir.path / "brazilian-giveaway" / "1230.wdl");
    write_wdl_table(path, info, v);
    const TableFile t(path);
    const TableHeader& h = t.header();
    EXPECT_EQ(h.variant, info.variant);
    EXPECT_EQ(h.material, info.material);
    EXPECT_EQ(h.generator, "gen 1.2.3");
    EXPECT_EQ(h.metric, Metric::wdl);
    EXPECT_EQ(h.wins, 3u);
    EXPECT_EQ(h.draws, 2u);
    EXPECT_EQ(h.losses, 2u);
    EXPECT_EQ(h.unknown, 2u);
    EXPECT_EQ(h.positions, 9u);
}

TEST(TableFile, DtwCountsFollowParity) {
    ScratchDir dir("dtw-counts");
    const std::vector<std::uint16_t> v{0, 1, 2, 3, dtw_draw, dtw_unknown, 4};
    TableInfo info = test::test_info();
    const TableHeader h = write_dtw_table(dir.path / "a.dtw", info, v);
    EXPECT_EQ(h.losses, 3u);  // 0, 2, 4: the side to move runs out of moves
    EXPECT_EQ(h.wins, 2u);
    EXPECT_EQ(h.draws, 1u);
    EXPECT_EQ(h.unknown, 1u);
    info.variant.giveaway = true;
    const TableHeader g = write_dtw_table(dir.path / "b.dtw", info, v);
    EXPECT_EQ(g.wins, 3u);
    EXPECT_EQ(g.losses, 2u);
    EXPECT_EQ(TableFile(dir.path / "b.dtw").header().wins, 3u);
}

TEST(TableFile, UnknownFillRules) {
    ScratchDir dir("fill");
    const std::vector<std::uint8_t> v{3, 3, 2, 3, 0, 3, 3, 1, 1, 3};
    const auto path = dir.path / "f.wdl";
    std::vector<std::uint8_t> got(v.size());
    write_wdl_table(path, test::test_info(), v, {.fill = FillRule::previous});
    TableFile(path).read_all(got);
    EXPECT_EQ(got, (std::vector<std::uint8_t>{2, 2, 2, 2, 0, 0, 0, 1, 1, 1}));
    write_wdl_table(path, test::test_info(), v, {.fill = FillRule::block_majority});
    TableFile(path).read_all(got);
    EXPECT_EQ(got, (std::vector<std::uint8_t>{1, 1, 2, 1, 0, 1, 1, 1, 1, 1}));
    const std::vector<std::uint16_t> d{dtw_unknown, 7, 5, dtw_unknown, 7, dtw_draw, dtw_unknown};
    std::vector<std::uint16_t> dgot(d.size());
    write_dtw_table(dir.path / "f.dtw", test::test_info(), d);  // automatic: block majority
    TableFile(dir.path / "f.dtw").read_all(dgot);
    EXPECT_EQ(dgot, (std::vector<std::uint16_t>{7, 7, 5, 7, 7, dtw_draw, 7}));
    const std::vector<std::uint8_t> none(1000, wdl_unknown);
    write_wdl_table(path, test::test_info(), none);
    const TableFile t(path);
    EXPECT_EQ(t.header().unknown, 1000u);
    std::vector<std::uint8_t> zeros(1000);
    t.read_all(zeros);
    for (auto x : zeros) EXPECT_LE(x, wdl_win);
}

TEST(TableFile, DeterministicBytes) {
    ScratchDir dir("determinism");
    const auto v = test::random_wdl(500'000, 42, 40);
    write_wdl_table(dir.path / "a.wdl", test::test_info(), v, {.threads = 1});
    write_wdl_table(dir.path / "b.wdl", test::test_info(), v, {.threads = 1});
    write_wdl_table(dir.path / "c.wdl", test::test_info(), v, {.threads = 3});
    const auto a = test::file_bytes(dir.path / "a.wdl");
    EXPECT_EQ(a, test::file_bytes(dir.path / "b.wdl"));
    EXPECT_EQ(a, test::file_bytes(dir.path / "c.wdl"));
    const auto d = test::random_dtw(50'000, 9);
    write_dtw_table(dir.path / "a.dtw", test::test_info(), d, {.threads = 1});
    write_dtw_table(dir.path / "b.dtw", test::test_info(), d, {.threads = 4});
    EXPECT_EQ(test::file_bytes(dir.path / "a.dtw"), test::file_bytes(dir.path / "b.dtw"));
}

// Values given block by block (the generator's way) give the bytes of the whole array, with any
// number of threads; without counts_from they are refused.
TEST(TableFile, DtwByBlocksMatchesWholeArray) {
    ScratchDir dir("dtw-blocks");
    const auto d = test::random_dtw(100'003, 11);
    const TableHeader whole = write_dtw_table(dir.path / "a.dtw", test::test_info(), d);
    std::atomic<std::uint64_t> asked{0};
    const DtwValues by_block = [&](std::uint64_t first, std::span<std::uint16_t> out) {
        std::copy_n(d.begin() + static_cast<std::ptrdiff_t>(first), out.size(), out.begin());
        asked += out.size();
    };
    for (const unsigned threads : {1u, 3u}) {
        asked = 0;
        const auto path = dir.path / ("b" + std::to_string(threads) + ".dtw");
        const TableHeader h = write_dtw_table(path, test::test_info(), d.size(), by_block,
                                              {.threads = threads, .counts_from = &whole});
        EXPECT_EQ(asked, d.size());  // each value once
        EXPECT_EQ(h.wins, whole.wins);
        EXPECT_EQ(test::file_bytes(dir.path / "a.dtw"), test::file_bytes(path));
    }
    EXPECT_THROW(write_dtw_table(dir.path / "c.dtw", test::test_info(), d.size(), by_block, {}),
                 Error);
    EXPECT_FALSE(std::filesystem::exists(dir.path / "c.dtw"));
}

TEST(TableFile, AtomicWriteAndErrors) {
    ScratchDir dir("atomic");
    const auto path = dir.path / "sub" / "x.wdl";
    write_wdl_table(path, test::test_info(), test::random_wdl(1000, 1, 10));
    EXPECT_TRUE(std::filesystem::exists(path));
    EXPECT_FALSE(std::filesystem::exists(dir.path / "sub" / "x.wdl.tmp"));
    const std::vector<std::uint8_t> bad{0, 1, 4};
    EXPECT_THROW(write_wdl_table(dir.path / "bad.wdl", test::test_info(), bad), Error);
    EXPECT_FALSE(std::filesystem::exists(dir.path / "bad.wdl"));
    EXPECT_FALSE(std::filesystem::exists(dir.path / "bad.wdl.tmp"));
    std::filesystem::create_directories(dir.path / "isdir.wdl");
    EXPECT_THROW(write_wdl_table(dir.path / "isdir.wdl", test::test_info(), bad), Error);
    TableInfo long_name = test::test_info();
    long_name.generator = std::string(100, 'g');
    EXPECT_THROW(write_wdl_table(dir.path / "long.wdl", long_name, {}), Error);
    try {
        write_wdl_table("/proc/damas-cannot-write/x.wdl", test::test_info(), {});
        ADD_FAILURE() << "expected an error";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("damas-cannot-write"), std::string::npos);
    }
}

TEST(TableFile, CacheOnlyProbes) {
    ScratchDir dir("cache-only");
    const auto v = test::random_wdl(300'000, 5, 0);
    const auto path = dir.path / "c.wdl";
    write_wdl_table(path, test::test_info(), v);
    const TableFile t(path);
    BlockCache cache(1 << 20);
    EXPECT_EQ(t.try_value(70'000, cache).status, ReadStatus::not_in_cache);
    EXPECT_EQ(t.value(70'001, cache).value, v[70'001]);
    const ReadResult r = t.try_value(70'000, cache);
    ASSERT_TRUE(r.ok());
    EXPECT_EQ(r.value, v[70'000]);
    EXPECT_EQ(t.try_value(0, cache).status, ReadStatus::not_in_cache);
    BlockCache nothing(0);  // no slots: probes still work, decompressing every time
    EXPECT_EQ(t.value(12345, nothing).value, v[12345]);
}

TEST(TableFile, EightThreadsSmallCache) {
    ScratchDir dir("threads");
    const auto w = test::random_wdl(1'000'003, 77, 20);
    const auto d = test::random_dtw(200'001, 78);
    write_wdl_table(dir.path / "t.wdl", test::test_info(), w, {.positions_per_block = 4096});
    write_dtw_table(dir.path / "t.dtw", test::test_info(), d, {.positions_per_block = 512});
    const TableFile tw(dir.path / "t.wdl");
    const TableFile td(dir.path / "t.dtw");
    std::vector<std::uint8_t> ew(w.size());
    std::vector<std::uint16_t> ed(d.size());
    tw.read_all(ew);
    td.read_all(ed);
    BlockCache cache(6 * 1024, 1024);  // 6 slots of 1 KiB: constant eviction
    std::atomic<int> wrong{0};
    std::vector<std::thread> threads;
    for (int k = 0; k < 8; ++k) {
        threads.emplace_back([&, k] {
            std::mt19937_64 rng(static_cast<std::uint64_t>(k));
            for (int i = 0; i < 20000; ++i) {
                const std::uint64_t a = rng() % w.size();
                const std::uint64_t b = rng() % d.size();
                const ReadResult rw = tw.value(a, cache);
                const ReadResult rd = td.value(b, cache);
                if (!rw.ok() || rw.value != ew[a] || !rd.ok() || rd.value != ed[b]) ++wrong;
            }
        });
    }
    for (auto& th : threads) th.join();
    EXPECT_EQ(wrong.load(), 0);
    EXPECT_LE(cache.size(), 6u);
}

}  // namespace
}  // namespace damas
