// BlockCache: LRU order, the byte budget, oversized blocks, and many threads at once.
#include <gtest/gtest.h>

#include <array>
#include <atomic>
#include <random>
#include <thread>
#include <vector>

#include "table/block_cache.hpp"

namespace damas {
namespace {

std::vector<std::byte> block_for(BlockKey key, std::size_t size) {
    std::vector<std::byte> b(size);
    for (std::size_t i = 0; i < size; ++i)
        b[i] = static_cast<std::byte>((key.table * 31 + key.block * 7 + i) & 0xFF);
    return b;
}

bool holds(BlockCache& c, BlockKey key, std::size_t size) {
    std::vector<std::byte> got(size);
    return c.try_get(key, 0, got) && got == block_for(key, size);
}

TEST(BlockCache, BudgetGivesSlots) {
    BlockCache c(10 * 1000 + 999, 1000);
    EXPECT_EQ(c.slots(), 10u);
    EXPECT_LE(c.capacity_bytes(), 10u * 1000 + 999);
    for (std::uint64_t b = 0; b < 100; ++b) EXPECT_TRUE(c.put({1, b}, block_for({1, b}, 1000)));
    EXPECT_EQ(c.size(), 10u);
    EXPECT_EQ(c.stats().insertions, 100u);
    EXPECT_EQ(c.stats().evictions, 90u);
}

TEST(BlockCache, EvictsLeastRecentlyUsed) {
    BlockCache c(7 * 64, 64);  // 7 slots: one shard, so the order is global
    ASSERT_EQ(c.slots(), 7u);
    for (std::uint64_t b = 0; b < 7; ++b) c.put({2, b}, block_for({2, b}, 64));
    EXPECT_TRUE(holds(c, {2, 0}, 64));  // 0 becomes the most recent; 1 is the oldest
    c.put({2, 7}, block_for({2, 7}, 64));
    EXPECT_FALSE(c.contains({2, 1}));
    EXPECT_TRUE(holds(c, {2, 0}, 64));
    for (std::uint64_t b = 2; b < 8; ++b) EXPECT_TRUE(holds(c, {2, b}, 64)) << b;
}

TEST(BlockCache, PartialReadsAndKeys) {
    BlockCache c(1 << 16, 256);
    c.put({3, 5}, block_for({3, 5}, 100));
    std::array<std::byte, 2> two{};
    ASSERT_TRUE(c.try_get({3, 5}, 98, two));
    EXPECT_EQ(two[1], block_for({3, 5}, 100)[99]);
    EXPECT_FALSE(c.try_get({3, 5}, 99, two));  // past the block's end
    EXPECT_FALSE(c.try_get({4, 5}, 0, two));   // another table
    EXPECT_FALSE(c.try_get({3, 6}, 0, two));
    EXPECT_TRUE(c.put({3, 5}, block_for({3, 5}, 100)));  // already there
    EXPECT_EQ(c.size(), 1u);
    c.clear();
    EXPECT_EQ(c.size(), 0u);
    EXPECT_FALSE(c.contains({3, 5}));
}

TEST(BlockCache, OversizedAndEmpty) {
    BlockCache c(1 << 16, 256);
    EXPECT_FALSE(c.put({1, 1}, block_for({1, 1}, 257)));
    BlockCache none(100, 256);
    EXPECT_EQ(none.slots(), 0u);
    EXPECT_FALSE(none.put({1, 1}, block_for({1, 1}, 16)));
    std::array<std::byte, 1> one{};
    EXPECT_FALSE(none.try_get({1, 1}, 0, one));
}

TEST(BlockCache, ManyThreads) {
    BlockCache c(40 * 128, 128);
    std::vector<std::thread> threads;
    std::atomic<int> bad{0};
    for (int t = 0; t < 8; ++t) {
        threads.emplace_back([&, t] {
            std::mt19937_64 rng(static_cast<std::uint64_t>(t));
            std::vector<std::byte> got(128);
            for (int i = 0; i < 100000; ++i) {
                const BlockKey key{static_cast<std::uint32_t>(rng() % 3), rng() % 100};
                if (c.try_get(key, 0, got)) {
                    if (got != block_for(key, 128)) ++bad;
                } else {
                    c.put(key, block_for(key, 128));
                }
            }
        });
    }
    for (auto& th : threads) th.join();
    EXPECT_EQ(bad.load(), 0);
    EXPECT_LE(c.size(), 40u);
    const BlockCacheStats s = c.stats();
    EXPECT_EQ(s.hits + s.misses, 800000u);
}

}  // namespace
}  // namespace damas
