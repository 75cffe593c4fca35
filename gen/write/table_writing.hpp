// The writer's internals shared by its two files: writer.cpp (tables of held values, dtw by
// block, the mirror layout's header) and wdl_writer.cpp (wdl values read in passes, estimates
// and counts).
//
// Owns: the pieces every table file is written with: the temporary file committed by rename, the
// pipeline that encodes blocks in parallel and writes them in order (write_blocks), the one that
// reads a pass of values block by block (for_each_block_of_pass), the header's start (identity,
// size, counts), and the writing of a table through its codec (write_coded_table: the codec's
// model from a pass, then every block through the codec's encoders; table/codec.hpp). Internal
// to gen/: include gen/write/writer.hpp instead.
#pragma once

#include <fcntl.h>
#include <sys/stat.h>
#include <tbb/concurrent_queue.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_pipeline.h>
#include <tbb/task_arena.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <memory>
#include <optional>
#include <vector>

#include "gen/write/writer.hpp"
#include "rules/error.hpp"
#include "table/bytes.hpp"
#include "table/codec.hpp"
#include "table/hash.hpp"

namespace damas::writing {

inline constexpr unsigned blocks_per_thread_in_flight = 8;

struct EncodedBlock {
    std::vector<std::uint16_t> values;  // given in order (write_dtw_table by block)
    std::vector<std::uint8_t> bytes;    // the same for wdl values read in passes
    std::vector<std::byte> plain;
    std::vector<std::byte> compressed;
    std::uint64_t hash = 0;
};

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
            count_durable_sync();
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
    const auto c = count_in_parallel(v, [&](std::span<const std::uint16_t> part,
                                            std::array<std::uint64_t, 256>& out) {
        for (const std::uint16_t x : part)
            ++out[is_dtr(h.metric) || h.metric == Metric::mtc ? dtr_outcome(x)
                                                              : dtw_outcome(x, h.variant.giveaway)];
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
    if (metric == Metric::mtc && opt.mtc_fold != 0) {
        if (opt.mtc_fold < 2 || opt.mtc_fold > format::max_mtc_fold)
            throw Error("an mtc fold must be between 2 and " +
                        std::to_string(format::max_mtc_fold));
        h.mtc_fold = static_cast<std::uint8_t>(opt.mtc_fold);
    }
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

// The file's codec for header h (counts aside, complete but for the offsets, the checksums and
// the model's size): its model built from one pass of `model_pass` over blocks 0, stride,
// 2 stride... when the codec has one. Nothing if the codec cannot code the values.
inline std::unique_ptr<const TableCodec> table_codec(const BlockCodec& codec, const TableHeader& h,
                                                     const WdlPasses* model_pass,
                                                     std::uint32_t stride, unsigned threads,
                                                     const WriteOptions& opt) {
    const auto builder =
        codec.model_builder(h, {threads, stride, opt.hold_flags, opt.held_flags_limit});
    if (builder->needs_values()) {
        if (model_pass == nullptr)
            throw Error(std::string(codec.name()) + " codec: its model needs the values");
        for_each_block_of_pass(
            (*model_pass)(), h.positions, h.positions_per_block, threads,
            [&](std::size_t w, std::uint64_t b, std::span<const std::uint8_t> v) {
                if (b % stride == 0) builder->add(w, b, v);
            });
    }
    return builder->finish();
}

// How a table's blocks are coded: the codec (table/codec.hpp), the half layout (format.hpp),
// and the pass the codec's model is built from, if it has one (wdl values).
struct Coding {
    const BlockCodec& codec;
    bool half = false;
    const WdlPasses* model_pass = nullptr;
};

// A table of `positions` values: values(worker, first, n, block) gives [first, first + n)
// (worker < opt.threads; block: what produce left for it, see write_blocks); `all`, when not
// empty, holds them all (for counting when opt.counts_from is null). Nothing (and no file) if
// the codec cannot code the values.
struct NoValues {
    void operator()(std::uint64_t, std::size_t, EncodedBlock&) const {}
};
template <class T, class Values, class Produce = NoValues>
std::optional<TableHeader> write_coded_table(const std::filesystem::path& path,
                                             const TableInfo& info, std::uint64_t positions,
                                             std::span<const T> all, const Values& values,
                                             const WriteOptions& opt, Metric metric,
                                             const Coding& coding, const Produce& produce = {}) {
    const BlockCodec& codec = coding.codec;
    if (coding.half && !codec.codes_half())
        throw Error(std::string(codec.name()) + " codec: it has no half layout");
    const std::uint32_t ppb = codec.positions_per_block(metric, opt.positions_per_block);
    if (ppb % 4 != 0 || format::block_bytes(metric, ppb) > format::max_block_bytes)
        throw Error("invalid positions per block " + std::to_string(ppb));
    TableHeader h = start_header(info, metric, ppb, positions, all, opt);
    h.codec = codec.id();
    h.half = coding.half;
    const unsigned threads = std::max(1u, opt.threads);
    const std::unique_ptr<const TableCodec> table =
        table_codec(codec, h, coding.model_pass, 1, threads, opt);
    if (!table) return std::nullopt;
    const std::span<const std::byte> model = table->model();
    h.model_size = static_cast<std::uint32_t>(model.size());
    h.model_checksum = model.empty() ? 0 : xxh64(model);
    h.table_offset = format::header_size;
    h.blocks_offset = h.table_offset + format::table_bytes(h.blocks) + h.model_size;
    encode_header(h);  // checks the text fields before any file is created

    std::vector<std::unique_ptr<BlockEncoder>> encoders;
    for (unsigned t = 0; t < threads; ++t)
        encoders.push_back(table->encoder({.fill = opt.fill,
                                           .zstd_level = opt.zstd_level,
                                           .wdl = opt.mtc_wdl,
                                           .wdl_of_values = opt.mtc_wdl_of_values}));
    TmpFile file(path);
    if (!model.empty()) file.write_at(h.table_offset + format::table_bytes(h.blocks), model);
    write_blocks(
        file, h, threads,
        [&](std::size_t w, std::uint64_t b, EncodedBlock& out) {
            const BlockSpan at = block_span(b, ppb, h.positions);
            encoders[w]->encode(at.first, std::span<const T>(values(w, at.first, at.n, out)),
                                out.plain, out.compressed);
            out.hash = xxh64(out.plain);
        },
        [&](std::uint64_t b, EncodedBlock& out) {
            const BlockSpan at = block_span(b, ppb, h.positions);
            produce(at.first, at.n, out);
        });
    file.write_at(0, encode_header(h));
    file.commit(opt.durable);
    return h;
}

// The codec of a table without a model in the file: zstd for wdl, opt.mtc_codec for mtc,
// opt.distance_codec for the others.
inline const BlockCodec& modelless_codec(const WriteOptions& opt, Metric metric) {
    if (metric == Metric::wdl) return zstd_block_codec();
    return block_codec(metric == Metric::mtc ? opt.mtc_codec : opt.distance_codec);
}

// A table of a codec without a model (modelless_codec).
template <class T, class Values, class Produce = NoValues>
TableHeader write_table(const std::filesystem::path& path, const TableInfo& info,
                        std::uint64_t positions, std::span<const T> all, const Values& values,
                        const WriteOptions& opt, Metric metric, const Produce& produce = {}) {
    return *write_coded_table(path, info, positions, all, values, opt, metric,
                              Coding{modelless_codec(opt, metric)}, produce);
}

// A table of values held in memory.
template <class T>
std::optional<TableHeader> write_coded_table(const std::filesystem::path& path,
                                             const TableInfo& info, std::span<const T> values,
                                             const WriteOptions& opt, Metric metric,
                                             const Coding& coding) {
    return write_coded_table(
        path, info, values.size(), values,
        [&](std::size_t, std::uint64_t first, std::size_t n, const EncodedBlock&) {
            return values.subspan(first, n);
        },
        opt, metric, coding);
}
template <class T>
TableHeader write_table(const std::filesystem::path& path, const TableInfo& info,
                        std::span<const T> values, const WriteOptions& opt, Metric metric) {
    return *write_coded_table(path, info, values, opt, metric,
                              Coding{modelless_codec(opt, metric)});
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

}  // namespace damas::writing
