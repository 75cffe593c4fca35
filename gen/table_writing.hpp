// The writer's internals shared by its two files: writer.cpp (the zstd tables, wdl and dtw) and
// wdl_writer.cpp (the wdl context codec, estimates and counts, values read in passes).
//
// Owns: the pieces every table file is written with: filling unknowns and packing a block
// (encode_plain), zstd contexts, the temporary file committed by rename, the pipeline that
// encodes blocks in parallel and writes them in order (write_blocks), the one that reads a pass
// of values block by block (for_each_block_of_pass), and the header's start (identity, size,
// counts). Internal to gen/: include gen/writer.hpp instead.
#pragma once

#include <fcntl.h>
#include <sys/stat.h>
#include <tbb/concurrent_queue.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_pipeline.h>
#include <tbb/task_arena.h>
#include <unistd.h>
#include <zstd.h>

#include <algorithm>
#include <atomic>
#include <bit>
#include <cerrno>
#include <cstring>
#include <limits>
#include <memory>
#include <vector>

#include "gen/writer.hpp"
#include "rules/error.hpp"
#include "table/bytes.hpp"
#include "table/hash.hpp"

namespace damas::writing {

inline constexpr unsigned blocks_per_thread_in_flight = 8;

template <class T>
constexpr T unknown_of() {
    if constexpr (sizeof(T) == 1)
        return wdl_unknown;
    else
        return dtw_unknown;
}

// The fill value for unknowns at the start of a block and, for block_majority, everywhere.
template <class T>
T block_fill(std::span<const T> v, FillRule rule) {
    const T unknown = unknown_of<T>();
    if (rule == FillRule::previous) {
        const auto it = std::find_if(v.begin(), v.end(), [&](T x) { return x != unknown; });
        return it == v.end() ? T{0} : *it;
    }
    // The most frequent known value, the smallest on a tie: counted in tables over every value
    // T can take (a sort of each block was 3% of a 6-piece run), two in turn so that runs of
    // equal values do not wait on one counter.
    const std::size_t values = std::size_t{1} << (8 * sizeof(T));
    thread_local std::vector<std::uint32_t> count(2 * values);
    std::uint32_t* const even = count.data();
    std::uint32_t* const odd = count.data() + values;
    std::size_t i = 0;
    for (; i + 2 <= v.size(); i += 2) {
        ++even[v[i]];
        ++odd[v[i + 1]];
    }
    if (i < v.size()) ++even[v[i]];
    // The known values' range: a DTW block's distances are few and close together, so the
    // counts are searched over the range (ascending: the smallest wins a tie) instead of over v.
    constexpr unsigned none = std::numeric_limits<T>::max();
    unsigned lo = none, hi = 0;
    if constexpr (unknown_of<T>() == none) {
        // Two plain min/max loops, which the compiler vectorises: the unknown value is the
        // largest, so the minimum skips it, and it wraps to 0 when 1 is added.
        for (const T x : v) lo = std::min<unsigned>(lo, x);
        for (const T x : v) hi = std::max<unsigned>(hi, static_cast<T>(x + 1));
        hi = hi == 0 ? 0 : hi - 1;
    } else {
        for (const T x : v) {
            if (x == unknown) continue;
            lo = std::min<unsigned>(lo, x);
            hi = std::max<unsigned>(hi, x);
        }
    }
    T best = 0;
    std::uint32_t best_count = 0;
    if (lo > hi) {  // no known value
    } else if (hi - lo <= v.size()) {
        for (std::size_t x = lo; x <= hi; ++x) {
            const std::uint32_t c = even[x] + odd[x];
            if (c > best_count) best = static_cast<T>(x), best_count = c;
        }
    } else {
        for (T x : v) {
            const std::uint32_t c = even[x] + odd[x];
            if (x != unknown && (c > best_count || (c == best_count && x < best)))
                best = x, best_count = c;
        }
    }
    if (lo <= hi && hi - lo <= v.size()) {
        std::fill(even + lo, even + hi + 1, 0);
        std::fill(odd + lo, odd + hi + 1, 0);
        even[unknown] = odd[unknown] = 0;
    } else {
        for (T x : v) even[x] = odd[x] = 0;
    }
    return best;
}

// The decompressed block (format.hpp) of values v, unknowns filled.
template <class T>
void encode_plain(std::span<const T> v, FillRule rule, std::vector<std::byte>& out) {
    const T unknown = unknown_of<T>();
    T fill = block_fill(v, rule);
    if constexpr (sizeof(T) == 1) {
        out.assign((v.size() + 3) / 4, std::byte{0});
        for (std::size_t i = 0; i < v.size(); ++i) {
            T x = v[i];
            if (x == unknown)
                x = fill;
            else if (rule == FillRule::previous)
                fill = x;
            out[i / 4] |= static_cast<std::byte>(x << (2 * (i % 4)));
        }
    } else if (rule == FillRule::block_majority) {
        // One fill value: a select the compiler vectorises.
        out.resize(2 * v.size());
        if constexpr (std::endian::native == std::endian::little) {
            const T* __restrict in = v.data();
            std::byte* __restrict to = out.data();
            for (std::size_t i = 0; i < v.size(); ++i) {
                const T x = in[i] == unknown ? fill : in[i];
                std::memcpy(to + 2 * i, &x, 2);
            }
        } else {
            for (std::size_t i = 0; i < v.size(); ++i)
                le::store<std::uint16_t>(&out[2 * i], v[i] == unknown ? fill : v[i]);
        }
    } else {
        out.resize(2 * v.size());
        for (std::size_t i = 0; i < v.size(); ++i) {
            T x = v[i];
            if (x == unknown)
                x = fill;
            else if (rule == FillRule::previous)
                fill = x;
            le::store<std::uint16_t>(&out[2 * i], x);
        }
    }
}

struct Compressor {
    ZSTD_CCtx* cctx = ZSTD_createCCtx();
    explicit Compressor(int level, const format::ZstdSearch* search = nullptr) {
        if (cctx == nullptr) throw Error("zstd: cannot create a compression context");
        ZSTD_CCtx_setParameter(cctx, ZSTD_c_compressionLevel, level);
        if (search) {
            ZSTD_CCtx_setParameter(cctx, ZSTD_c_strategy, search->strategy);
            ZSTD_CCtx_setParameter(cctx, ZSTD_c_hashLog, search->hash_log);
            ZSTD_CCtx_setParameter(cctx, ZSTD_c_chainLog, search->chain_log);
            ZSTD_CCtx_setParameter(cctx, ZSTD_c_searchLog, search->search_log);
            ZSTD_CCtx_setParameter(cctx, ZSTD_c_minMatch, search->min_match);
        }
        ZSTD_CCtx_setParameter(cctx, ZSTD_c_contentSizeFlag, 1);
        ZSTD_CCtx_setParameter(cctx, ZSTD_c_checksumFlag, 0);
        ZSTD_CCtx_setParameter(cctx, ZSTD_c_dictIDFlag, 0);
    }
    Compressor(const Compressor&) = delete;
    Compressor& operator=(const Compressor&) = delete;
    ~Compressor() { ZSTD_freeCCtx(cctx); }

    void compress(std::span<const std::byte> in, std::vector<std::byte>& out) {
        out.resize(ZSTD_compressBound(in.size()));
        const std::size_t r = ZSTD_compress2(cctx, out.data(), out.size(), in.data(), in.size());
        if (ZSTD_isError(r)) throw Error(std::string("zstd: ") + ZSTD_getErrorName(r));
        out.resize(r);
    }
};

struct EncodedBlock {
    std::vector<std::uint16_t> values;  // given in order (write_dtw_table by block)
    std::vector<std::uint8_t> bytes;    // the same for wdl values read in passes
    std::vector<std::byte> plain;
    std::vector<std::byte> compressed;
    std::uint64_t hash = 0;
};

inline std::atomic<std::uint64_t> durable_syncs_made{0};

// <path>.tmp, removed unless commit() renamed it to path.
class TmpFile {
  public:
    explicit TmpFile(const std::filesystem::path& path) : path_(path), tmp_(path) {
        tmp_ += ".tmp";
        if (path.has_parent_path()) {
            std::error_code ec;
            std::filesystem::create_directories(path.parent_path(), ec);
            if (ec) fail("cannot create the folder " + path.parent_path().string(), ec.value());
        }
        fd_ = ::open(tmp_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
        if (fd_ < 0) fail("cannot create", errno);
    }
    TmpFile(const TmpFile&) = delete;
    TmpFile& operator=(const TmpFile&) = delete;
    ~TmpFile() {
        if (fd_ >= 0) ::close(fd_);
        if (!committed_) ::unlink(tmp_.c_str());
    }

    void write_at(std::uint64_t offset, std::span<const std::byte> data) {
        std::size_t done = 0;
        while (done < data.size()) {
            const ssize_t r = ::pwrite(fd_, data.data() + done, data.size() - done,
                                       static_cast<off_t>(offset + done));
            if (r < 0 && errno == EINTR) continue;
            if (r < 0) fail("write failed", errno);
            done += static_cast<std::size_t>(r);
        }
    }

    // Durable: the bytes reach the disk before the rename and the rename (the folder's entry)
    // after it, so that after a power cut the table is the old file or the new one whole, never
    // an empty or partial file under the table's name. Every step is checked.
    void commit(bool durable) {
        if (durable) {
            if (::fsync(fd_) != 0) fail("fsync failed", errno);
            ++durable_syncs_made;
        }
        const int fd = fd_;
        fd_ = -1;
        if (::close(fd) != 0) fail("close failed", errno);
        if (::rename(tmp_.c_str(), path_.c_str()) != 0)
            fail("cannot rename to " + path_.string(), errno);
        committed_ = true;
        if (durable) sync_folder(path_.has_parent_path() ? path_.parent_path() : ".");
    }

  private:
    [[noreturn]] void fail(const std::string& what, int err) const {
        throw Error(tmp_.string() + ": " + what + ": " + std::strerror(err));
    }

    std::filesystem::path path_;
    std::filesystem::path tmp_;
    int fd_ = -1;
    bool committed_ = false;
};

// The calling thread's slot in the task arena of `workers` slots it runs in: the index of its
// per-worker state (compressors, counts).
inline std::size_t arena_worker(std::size_t workers) {
    const int w = tbb::this_task_arena::current_thread_index();
    if (w < 0 || static_cast<std::size_t>(w) >= workers)
        throw Error("writer: a thread outside the writing arena");
    return static_cast<std::size_t>(w);
}

// Calls f(worker, block) for blocks [first, first + count) on at most `workers` threads (a task
// arena; worker: arena_worker), in any order.
template <class F>
void parallel_blocks(std::size_t workers, std::uint64_t first, std::size_t count, const F& f) {
    tbb::task_arena arena(static_cast<int>(workers));
    arena.execute([&] {
        tbb::parallel_for(std::size_t{0}, count,
                          [&](std::size_t i) { f(arena_worker(workers), first + i); });
    });
}

// The positions [first, first + n) of block b of a table of `positions` positions.
struct BlockSpan {
    std::uint64_t first;
    std::size_t n;
};
inline BlockSpan block_span(std::uint64_t b, std::uint32_t ppb, std::uint64_t positions) {
    const std::uint64_t first = b * ppb;
    return {first, static_cast<std::size_t>(std::min<std::uint64_t>(ppb, positions - first))};
}

// Reads the blocks of a pass in order (values() on one thread at a time) and calls
// work(worker, block, its values) for each on at most `threads` threads, in any order; the
// blocks in flight are a few per thread, so the pass is never held whole. Their buffers go
// round a pool (a block's buffer is free once its work is done). Not a ring indexed by block
// number as in write_blocks: that holds only because blocks leave write_blocks' last filter in
// order, so those in flight are consecutive; here they finish in any order, and a ring gave a
// block's buffer to a later one while its work still read it (wrong models in 4 of 6 runs).
template <class Work>
void for_each_block_of_pass(const WdlValues& values, std::uint64_t positions, std::uint32_t ppb,
                            unsigned threads, const Work& work) {
    struct Item {
        std::uint64_t block = 0;
        std::vector<std::uint8_t> values;
    };
    const std::uint64_t blocks = (positions + ppb - 1) / ppb;
    const std::size_t in_flight = std::size_t{threads} * blocks_per_thread_in_flight;
    std::vector<std::unique_ptr<Item>> items;
    tbb::concurrent_queue<Item*> free;
    std::uint64_t next = 0;
    tbb::task_arena arena(static_cast<int>(threads));
    arena.execute([&] {
        tbb::parallel_pipeline(
            in_flight,
            tbb::make_filter<void, Item*>(tbb::filter_mode::serial_in_order,
                                          [&](tbb::flow_control& control) -> Item* {
                                              if (next == blocks) {
                                                  control.stop();
                                                  return nullptr;
                                              }
                                              Item* item = nullptr;
                                              if (!free.try_pop(item)) {
                                                  items.push_back(std::make_unique<Item>());
                                                  item = items.back().get();
                                              }
                                              const BlockSpan at = block_span(next, ppb, positions);
                                              item->block = next++;
                                              item->values.resize(at.n);
                                              values(at.first, item->values);
                                              return item;
                                          }) &
                tbb::make_filter<Item*, void>(tbb::filter_mode::parallel, [&](Item* item) {
                    work(arena_worker(threads), item->block,
                         std::span<const std::uint8_t>(item->values));
                    free.push(item);
                }));
    });
}

// Encodes every block of h (encode(worker, block, out), worker < threads) and writes them after
// h.blocks_offset, then the offset table; fills in h's offsets and checksums.
// A pipeline: `threads` threads encode blocks, and each block is written (in order) as soon as
// it and those before it are ready, by whichever thread is free. Batches with a barrier left a
// sixth of the threads' time idle (the slowest block of each batch, the serial writes).
// produce(block, out), when given, runs in block order on one thread at a time before the
// block's encode: for values that can only be read in order.
struct NoProduce {
    void operator()(std::uint64_t, EncodedBlock&) const {}
};
template <class Encode, class Produce = NoProduce>
void write_blocks(TmpFile& file, TableHeader& h, unsigned threads, const Encode& encode,
                  const Produce& produce = {}) {
    std::vector<std::byte> table(format::table_bytes(h.blocks));
    Xxh64Stream blocks_hash;
    std::uint64_t pos = h.blocks_offset;
    // Blocks leave the pipeline in order, so those in it are consecutive: slot b % size.
    std::vector<EncodedBlock> slots(std::size_t{threads} * blocks_per_thread_in_flight);
    std::uint64_t next = 0;
    tbb::task_arena arena(static_cast<int>(threads));
    arena.execute([&] {
        tbb::parallel_pipeline(
            slots.size(),
            tbb::make_filter<void, std::uint64_t>(tbb::filter_mode::serial_in_order,
                                                  [&](tbb::flow_control& control) -> std::uint64_t {
                                                      if (next == h.blocks) {
                                                          control.stop();
                                                          return 0;
                                                      }
                                                      produce(next, slots[next % slots.size()]);
                                                      return next++;
                                                  }) &
                tbb::make_filter<std::uint64_t, std::uint64_t>(tbb::filter_mode::parallel,
                                                               [&](std::uint64_t b) {
                                                                   encode(arena_worker(threads), b,
                                                                          slots[b % slots.size()]);
                                                                   return b;
                                                               }) &
                tbb::make_filter<std::uint64_t, void>(
                    tbb::filter_mode::serial_in_order, [&](std::uint64_t b) {
                        const EncodedBlock& e = slots[b % slots.size()];
                        le::store<std::uint64_t>(&table[8 * b], pos);
                        le::store<std::uint64_t>(&table[8 * (h.blocks + 1 + b)], e.hash);
                        file.write_at(pos, e.compressed);
                        blocks_hash.update(e.compressed);
                        pos += e.compressed.size();
                    }));
    });
    le::store<std::uint64_t>(&table[8 * h.blocks], pos);
    h.file_size = pos;
    h.table_checksum = xxh64(table);
    h.blocks_checksum = blocks_hash.digest();
    file.write_at(h.table_offset, table);
}

// Counts in parallel over chunks of the values (count(chunk, counts) adds to counts).
template <class T, class Count>
std::array<std::uint64_t, 256> count_in_parallel(std::span<const T> v, const Count& count) {
    constexpr std::size_t chunk = std::size_t{1} << 20;
    const std::size_t chunks = (v.size() + chunk - 1) / chunk;
    std::vector<std::array<std::uint64_t, 256>> part(chunks);
    tbb::parallel_for(std::size_t{0}, chunks, [&](std::size_t c) {
        part[c].fill(0);
        count(v.subspan(c * chunk, std::min(chunk, v.size() - c * chunk)), part[c]);
    });
    std::array<std::uint64_t, 256> total{};
    for (const auto& p : part)
        for (std::size_t x = 0; x < total.size(); ++x) total[x] += p[x];
    return total;
}

inline void count_values(std::span<const std::uint8_t> v, TableHeader& h) {
    const auto c = count_in_parallel(
        v, [](std::span<const std::uint8_t> part, std::array<std::uint64_t, 256>& out) {
            // Four tables in turn: one table's counter would wait for its own last increment on
            // runs of equal values.
            std::array<std::array<std::uint64_t, 256>, 4> t{};
            std::size_t i = 0;
            for (; i + 4 <= part.size(); i += 4) {
                ++t[0][part[i]];
                ++t[1][part[i + 1]];
                ++t[2][part[i + 2]];
                ++t[3][part[i + 3]];
            }
            for (; i < part.size(); ++i) ++t[0][part[i]];
            for (const auto& table : t)
                for (std::size_t x = 0; x < out.size(); ++x) out[x] += table[x];
        });
    for (std::size_t x = wdl_unknown + 1; x < c.size(); ++x)
        if (c[x] != 0) {
            const auto at =
                std::find_if(v.begin(), v.end(), [](auto y) { return y > wdl_unknown; });
            throw Error("write_wdl_table: invalid value " + std::to_string(*at) + " at index " +
                        std::to_string(at - v.begin()));
        }
    h.losses = c[wdl_loss], h.draws = c[wdl_draw], h.wins = c[wdl_win];
    h.unknown = c[wdl_unknown];
}

inline void count_values(std::span<const std::uint16_t> v, TableHeader& h) {
    const auto c = count_in_parallel(
        v, [&](std::span<const std::uint16_t> part, std::array<std::uint64_t, 256>& out) {
            for (const std::uint16_t x : part)
                ++out[is_dtr(h.metric) ? dtr_outcome(x) : dtw_outcome(x, h.variant.giveaway)];
        });
    h.losses = c[wdl_loss], h.draws = c[wdl_draw], h.wins = c[wdl_win], h.unknown = c[wdl_unknown];
}

// A header with the table's identity, size, blocks and counts (from opt.counts_from, else
// from the values); the offsets and checksums are filled in as the file is written.
template <class T>
TableHeader start_header(const TableInfo& info, Metric metric, std::uint32_t ppb,
                         std::uint64_t positions, std::span<const T> values,
                         const WriteOptions& opt) {
    TableHeader h;
    h.variant = info.variant;
    h.material = info.material;
    h.metric = metric;
    h.rules_version = is_dtr(metric) ? format::rules_version : 0;
    h.generator = info.generator;
    h.positions_per_block = ppb;
    if (positions >= format::max_positions) throw Error("table too large");
    h.positions = positions;
    h.blocks = (h.positions + h.positions_per_block - 1) / h.positions_per_block;
    if (opt.counts_from) {
        h.wins = opt.counts_from->wins, h.draws = opt.counts_from->draws;
        h.losses = opt.counts_from->losses, h.unknown = opt.counts_from->unknown;
    } else {
        if (values.size() != positions)
            throw Error("write table: values given block by block need counts_from");
        count_values(values, h);
    }
    return h;
}

// A table of `positions` values: values(worker, first, n, block) gives [first, first + n)
// (worker < opt.threads; block: what produce left for it, see write_blocks); `all`, when not
// empty, holds them all (for counting when opt.counts_from is null).
struct NoValues {
    void operator()(std::uint64_t, std::size_t, EncodedBlock&) const {}
};
template <class T, class Values, class Produce = NoValues>
TableHeader write_table(const std::filesystem::path& path, const TableInfo& info,
                        std::uint64_t positions, std::span<const T> all, const Values& values,
                        const WriteOptions& opt, Metric metric, const Produce& produce = {}) {
    const FillRule fill = opt.fill != FillRule::automatic ? opt.fill
                          : metric == Metric::wdl         ? FillRule::previous
                                                          : FillRule::block_majority;
    const std::uint32_t ppb = opt.positions_per_block != 0
                                  ? opt.positions_per_block
                                  : format::default_positions_per_block(metric);
    if (ppb % 4 != 0 || format::block_bytes(metric, ppb) > format::max_block_bytes)
        throw Error("invalid positions per block " + std::to_string(ppb));
    TableHeader h = start_header(info, metric, ppb, positions, all, opt);
    h.table_offset = format::header_size;
    h.blocks_offset = h.table_offset + format::table_bytes(h.blocks);
    encode_header(h);  // checks the text fields before any file is created

    const int level = opt.zstd_level != 0     ? opt.zstd_level
                      : metric == Metric::wdl ? format::wdl_zstd_level
                                              : format::dtw_zstd_level;
    const unsigned threads = std::max(1u, opt.threads);
    std::vector<std::unique_ptr<Compressor>> comps;
    // The default dtw level gets its cheaper search (format.hpp); a level asked for, zstd's own.
    const format::ZstdSearch* search =
        opt.zstd_level == 0 && metric != Metric::wdl ? &format::dtw_zstd_search : nullptr;
    for (unsigned t = 0; t < threads; ++t)
        comps.push_back(std::make_unique<Compressor>(level, search));

    TmpFile file(path);
    write_blocks(
        file, h, threads,
        [&](std::size_t w, std::uint64_t b, EncodedBlock& out) {
            const BlockSpan at = block_span(b, ppb, h.positions);
            encode_plain(std::span<const T>(values(w, at.first, at.n, out)), fill, out.plain);
            out.hash = xxh64(out.plain);
            comps[w]->compress(out.plain, out.compressed);
        },
        [&](std::uint64_t b, EncodedBlock& out) {
            const BlockSpan at = block_span(b, ppb, h.positions);
            produce(at.first, at.n, out);
        });
    file.write_at(0, encode_header(h));
    file.commit(opt.durable);
    return h;
}

template <class T>
TableHeader write_table(const std::filesystem::path& path, const TableInfo& info,
                        std::span<const T> values, const WriteOptions& opt, Metric metric) {
    return write_table(
        path, info, values.size(), values,
        [&](std::size_t, std::uint64_t first, std::size_t n, const EncodedBlock&) {
            return values.subspan(first, n);
        },
        opt, metric);
}

// Blocks 0, stride, 2 stride, ... of a table of `blocks` blocks: the ones an estimate encodes.
struct Sample {
    std::uint32_t stride;
    std::uint64_t blocks;
    std::uint64_t count() const { return (blocks + stride - 1) / stride; }
    std::uint64_t block(std::uint64_t k) const { return k * stride; }
    // The bytes of every block, from the bytes of the sampled ones.
    std::uint64_t scale(std::uint64_t sampled) const {
        return stride == 1 ? sampled
                           : static_cast<std::uint64_t>(static_cast<double>(sampled) *
                                                            static_cast<double>(blocks) /
                                                            static_cast<double>(count()) +
                                                        0.5);
    }
};

inline std::uint64_t sum(const std::vector<std::uint64_t>& v) {
    std::uint64_t n = 0;
    for (const std::uint64_t x : v) n += x;
    return n;
}

}  // namespace damas::writing
