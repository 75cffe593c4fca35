// A bounded LRU cache of decompressed table blocks, shared by every open table and thread.
//
// Owns: the memory of the cached blocks. Layout: one arena of `slots` fixed-size slots
// (slot_bytes each, allocated once in the constructor) split among shards; each shard has its
// own mutex, an open-addressing hash table (key -> slot, linear probing, backward-shift
// deletion) and an intrusive doubly linked LRU list over its slots. A key is (table id, block
// number); the shard is chosen by the key's hash. A lookup copies the wanted bytes out under the
// shard's lock, so a block can be evicted at any time without readers holding pointers into it.
// Nothing is allocated after construction.
//
// Thread safety: every member function may be called from any number of threads at once.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <span>
#include <vector>

namespace damas {

struct BlockKey {
    std::uint32_t table = 0;  // TableFile::id()
    std::uint64_t block = 0;
    constexpr bool operator==(const BlockKey&) const = default;
};

struct BlockCacheStats {
    std::uint64_t hits = 0;
    std::uint64_t misses = 0;
    std::uint64_t insertions = 0;
    std::uint64_t evictions = 0;
};

class BlockCache {
  public:
    static constexpr std::size_t default_slot_bytes = 16 * 1024;

    // Holds as many blocks of at most slot_bytes as fit in budget_bytes (possibly none: then
    // every probe decompresses). Blocks larger than slot_bytes are never cached.
    explicit BlockCache(std::size_t budget_bytes, std::size_t slot_bytes = default_slot_bytes);
    ~BlockCache();
    BlockCache(const BlockCache&) = delete;
    BlockCache& operator=(const BlockCache&) = delete;

    std::size_t slot_bytes() const { return slot_bytes_; }
    std::size_t slots() const { return slots_; }
    std::size_t capacity_bytes() const { return slots_ * slot_bytes_; }  // <= budget

    // If the block is cached: copies its bytes [offset, offset + out.size()) to out, marks it
    // most recently used and returns true. The range must lie inside the stored block.
    bool try_get(BlockKey key, std::size_t offset, std::span<std::byte> out);
    // Stores a copy of data under key (replacing nothing if it is already there), evicting the
    // shard's least recently used block if needed. False if data is larger than a slot.
    bool put(BlockKey key, std::span<const std::byte> data);
    bool contains(BlockKey key);
    std::size_t size();  // blocks cached now
    void clear();
    BlockCacheStats stats();

  private:
    struct Shard;
    Shard& shard_for(BlockKey key, std::uint64_t& hash);

    std::size_t slot_bytes_;
    std::size_t slots_;
    std::unique_ptr<std::byte[]> arena_;
    std::vector<std::unique_ptr<Shard>> shards_;
};

}  // namespace damas
