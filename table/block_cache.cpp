#include "table/block_cache.hpp"

#include <algorithm>
#include <bit>
#include <cstring>

namespace damas {
namespace {

constexpr std::size_t max_shards = 16;
constexpr std::int32_t none = -1;

std::uint64_t mix(BlockKey key) {
    std::uint64_t x = key.block ^ (std::uint64_t{key.table} * 0x9E3779B97F4A7C15ull);
    x ^= x >> 30;
    x *= 0xBF58476D1CE4E5B9ull;
    x ^= x >> 27;
    x *= 0x94D049BB133111EBull;
    x ^= x >> 31;
    return x;
}

}  // namespace

// One shard: slots [0, capacity) of its part of the arena.
struct alignas(64) BlockCache::Shard {
    std::mutex mutex;
    std::byte* data = nullptr;
    std::size_t slot_bytes = 0;
    std::int32_t capacity = 0;
    std::int32_t used = 0;                  // slots 0..used-1 hold blocks
    std::int32_t head = none, tail = none;  // most / least recently used
    std::vector<BlockKey> keys;
    std::vector<std::uint64_t> hashes;
    std::vector<std::uint32_t> sizes;
    std::vector<std::int32_t> prev, next;
    std::vector<std::int32_t> buckets;  // slot index or none
    std::size_t mask = 0;
    BlockCacheStats stats;

    Shard(std::byte* d, std::size_t bytes, std::int32_t cap)
        : data(d),
          slot_bytes(bytes),
          capacity(cap),
          keys(cap),
          hashes(cap),
          sizes(cap),
          prev(cap),
          next(cap) {
        const std::size_t n = std::bit_ceil(static_cast<std::size_t>(std::max(cap, 1)) * 2);
        buckets.assign(n, none);
        mask = n - 1;
    }

    std::byte* slot(std::int32_t s) { return data + static_cast<std::size_t>(s) * slot_bytes; }

    // Position in buckets of the key, or of the empty bucket where it would go.
    std::size_t find(BlockKey key, std::uint64_t h) const {
        std::size_t i = h & mask;
        while (buckets[i] != none && !(hashes[buckets[i]] == h && keys[buckets[i]] == key))
            i = (i + 1) & mask;
        return i;
    }

    void unlink(std::int32_t s) {
        (prev[s] == none ? head : next[prev[s]]) = next[s];
        (next[s] == none ? tail : prev[next[s]]) = prev[s];
    }
    void push_front(std::int32_t s) {
        prev[s] = none;
        next[s] = head;
        (head == none ? tail : prev[head]) = s;
        head = s;
    }

    void erase_bucket(std::size_t i) {
        std::size_t j = i;
        for (;;) {
            j = (j + 1) & mask;
            if (buckets[j] == none) break;
            const std::size_t k = hashes[buckets[j]] & mask;  // ideal position of the entry at j
            const bool movable = (i <= j) ? (k <= i || k > j) : (k <= i && k > j);
            if (movable) {
                buckets[i] = buckets[j];
                i = j;
            }
        }
        buckets[i] = none;
    }

    // A slot for a new block: a free one, or the least recently used one, evicted.
    std::int32_t take_slot() {
        if (used < capacity) return used++;
        const std::int32_t s = tail;
        unlink(s);
        erase_bucket(find(keys[s], hashes[s]));
        ++stats.evictions;
        return s;
    }

    void reset() {
        std::fill(buckets.begin(), buckets.end(), none);
        used = 0;
        head = tail = none;
    }
};

BlockCache::BlockCache(std::size_t budget_bytes, std::size_t slot_bytes)
    : slot_bytes_(std::max<std::size_t>(slot_bytes, 1)), slots_(budget_bytes / slot_bytes_) {
    // Not zero-filled: a page is touched only when a block lands in it, so an open handle costs
    // only what its probes have used.
    arena_.reset(new std::byte[std::max<std::size_t>(slots_ * slot_bytes_, 1)]);
    // A power of two of shards, each with at least 4 slots when there are enough.
    const std::size_t n = std::bit_floor(std::clamp<std::size_t>(slots_ / 4, 1, max_shards));
    std::size_t first = 0;
    for (std::size_t s = 0; s < n; ++s) {
        const std::size_t count = slots_ / n + (s < slots_ % n ? 1 : 0);
        shards_.push_back(std::make_unique<Shard>(arena_.get() + first * slot_bytes_, slot_bytes_,
                                                  static_cast<std::int32_t>(count)));
        first += count;
    }
}

BlockCache::~BlockCache() = default;

BlockCache::Shard& BlockCache::shard_for(BlockKey key, std::uint64_t& hash) {
    hash = mix(key);
    return *shards_[(hash >> 48) & (shards_.size() - 1)];
}

bool BlockCache::try_get(BlockKey key, std::size_t offset, std::span<std::byte> out) {
    std::uint64_t h = 0;
    Shard& sh = shard_for(key, h);
    std::lock_guard lock(sh.mutex);
    const std::int32_t s = sh.buckets[sh.find(key, h)];
    if (s == none || offset + out.size() > sh.sizes[s]) {
        ++sh.stats.misses;
        return false;
    }
    ++sh.stats.hits;
    if (sh.head != s) {
        sh.unlink(s);
        sh.push_front(s);
    }
    std::memcpy(out.data(), sh.slot(s) + offset, out.size());
    return true;
}

bool BlockCache::put(BlockKey key, std::span<const std::byte> data) {
    if (data.size() > slot_bytes_) return false;
    std::uint64_t h = 0;
    Shard& sh = shard_for(key, h);
    std::lock_guard lock(sh.mutex);
    if (sh.capacity == 0) return false;
    if (sh.buckets[sh.find(key, h)] != none) return true;  // another thread was first
    const std::int32_t s = sh.take_slot();
    sh.keys[s] = key;
    sh.hashes[s] = h;
    sh.sizes[s] = static_cast<std::uint32_t>(data.size());
    std::memcpy(sh.slot(s), data.data(), data.size());
    sh.buckets[sh.find(key, h)] = s;
    sh.push_front(s);
    ++sh.stats.insertions;
    return true;
}

bool BlockCache::contains(BlockKey key) {
    std::uint64_t h = 0;
    Shard& sh = shard_for(key, h);
    std::lock_guard lock(sh.mutex);
    return sh.buckets[sh.find(key, h)] != none;
}

std::size_t BlockCache::size() {
    std::size_t n = 0;
    for (auto& sh : shards_) {
        std::lock_guard lock(sh->mutex);
        n += static_cast<std::size_t>(sh->used);
    }
    return n;
}

void BlockCache::clear() {
    for (auto& sh : shards_) {
        std::lock_guard lock(sh->mutex);
        sh->reset();
    }
}

BlockCacheStats BlockCache::stats() {
    BlockCacheStats t;
    for (auto& sh : shards_) {
        std::lock_guard lock(sh->mutex);
        t.hits += sh->stats.hits;
        t.misses += sh->stats.misses;
        t.insertions += sh->stats.insertions;
        t.evictions += sh->stats.evictions;
    }
    return t;
}

}  // namespace damas
