// Probes from 8 threads at once on one handle give the answers one thread gives, with a cache
// small enough that blocks are evicted and reloaded all the time, tables opened lazily by
// whichever thread comes first, and cache-only probes mixed in (probe_wdl_cached, and probe_dtw
// under CachedReadsOnly then again without); with zstd blocks, and with the
// context codec (whose decoder walks the block's positions). Run under TSan by .ci/tsan.
#include <gtest/gtest.h>

#include <random>
#include <thread>

#include "probe/probe.hpp"
#include "test_probe_fixtures.hpp"

namespace damas {
namespace {

using test::ScratchDir;

struct Expected {
    Position position;
    ProbeResult wdl, dtw;
};

bool same(const ProbeResult& a, const ProbeResult& b) {
    return a.status == b.status && a.value == b.value && a.plies == b.plies;
}

struct ThreadCase {
    WdlCodec codec;
    int per_class;  // sampled positions per class
    int rounds;
};

class ProbeThreads : public testing::TestWithParam<ThreadCase> {};

TEST_P(ProbeThreads, EightThreadsAgreeWithOne) {
    const ThreadCase tc = GetParam();
    const Variant v{BaseVariant::english, false};
    const ScratchDir dir("threads");
    test::generate_quietly(v, 3, dir.path, 1, tc.codec);  // one thread: TSan sees the probes

    // Positions of every class, both sides to move, from a fixed seed.
    std::vector<Expected> expected;
    {
        const auto tb = Tablebase::open(dir.path, 64);
        std::mt19937_64 rng(7);
        for (const Material m : classes_up_to(3)) {
            const ClassIndex index(v.info().board, m);
            for (int k = 0; k < tc.per_class; ++k) {
                Position p = index.unindex(rng() % index.size());
                if (k % 2) p = flip(v.info().board, p);
                expected.push_back({p, tb->probe_wdl(v, p), tb->probe_dtw(v, p)});
                ASSERT_TRUE(expected.back().wdl.ok());
                ASSERT_TRUE(expected.back().dtw.ok());
            }
        }
    }

    // Two handles: one without a cache (every probe decompresses), one with 64 slots of 16 KiB
    // for about 100 blocks, so blocks are evicted and reloaded while other threads read them.
    const auto tb = Tablebase::open(dir.path, 0);
    const auto shared = Tablebase::open(dir.path, 1);
    constexpr int threads = 8;
    const int rounds = tc.rounds;
    std::vector<int> mismatches(threads, 0), cached_ok(threads, 0), cached_mode_ok(threads, 0);
    std::vector<std::thread> pool;
    for (int t = 0; t < threads; ++t)
        pool.emplace_back([&, t] {
            std::mt19937_64 rng(static_cast<std::uint64_t>(t));
            for (int r = 0; r < rounds; ++r)
                for (std::size_t k = 0; k < expected.size(); ++k) {
                    const Expected& e =
                        expected[(k * 7 + static_cast<std::size_t>(t) * 131) % expected.size()];
                    const Tablebase& handle = (rng() % 4 == 0) ? *tb : *shared;
                    mismatches[t] += !same(handle.probe_wdl(v, e.position), e.wdl);
                    mismatches[t] += !same(handle.probe_dtw(v, e.position), e.dtw);
                    const ProbeResult c = handle.probe_wdl_cached(v, e.position);
                    if (c.ok()) {
                        ++cached_ok[t];
                        mismatches[t] += !same(c, e.wdl);
                    } else {
                        mismatches[t] += c.status != ProbeStatus::not_in_cache;
                    }
                    // The Python package's way: loaded tables only first, then the disk.
                    ProbeResult d;
                    {
                        const CachedReadsOnly cached;
                        d = handle.probe_dtw(v, e.position);
                    }
                    if (d.status == ProbeStatus::not_in_cache)
                        d = handle.probe_dtw(v, e.position);
                    else
                        ++cached_mode_ok[t];
                    mismatches[t] += !same(d, e.dtw);
                }
        });
    for (auto& th : pool) th.join();
    for (int t = 0; t < threads; ++t) {
        EXPECT_EQ(mismatches[t], 0) << "thread " << t;
        EXPECT_GT(cached_ok[t], 0) << "thread " << t;
        EXPECT_GT(cached_mode_ok[t], 0) << "thread " << t;
    }
    const BlockCacheStats s = shared->cache_stats();
    EXPECT_GT(s.hits, 0u);
    EXPECT_GT(s.insertions, 0u);
}

// Fewer probes with the context codec: decoding a block takes much longer (more under TSan).
INSTANTIATE_TEST_SUITE_P(Codecs, ProbeThreads,
                         testing::Values(ThreadCase{Codec::zstd, 300, 3},
                                         ThreadCase{Codec::context, 60, 1}),
                         [](const testing::TestParamInfo<ThreadCase>& i) {
                             return i.param.codec == Codec::zstd ? "zstd" : "context";
                         });

}  // namespace
}  // namespace damas
