// Reading one table file (format.hpp): open and validate, probe single values through a
// BlockCache, decompress everything, verify checksums.
//
// Owns: the file descriptor (read with pread, so a file that shrinks under us gives an error,
// never a signal), the parsed header, the offset table (block offsets and the xxh64 of each
// decompressed block) and the file's codec with its model (table/codec.hpp, chosen by the
// header's codec byte) in memory. Each decompression checks the block's size and hash, so a
// corrupt block yields an error result, never a wrong value. Per-thread scratch (compressed and
// decompressed buffers; the codecs keep their own) is thread_local and reused, so steady-state
// probes do not allocate.
//
// Thread safety: after construction every const member function may be called from any number
// of threads at once.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <span>
#include <vector>

#include "index/material.hpp"
#include "rules/error.hpp"
#include "table/block_cache.hpp"
#include "table/codec.hpp"
#include "table/format.hpp"

namespace damas {

// What TableFile's constructor throws when the file cannot be opened or read (permissions, an
// I/O error), as against a file whose contents are wrong (Error): the probe reports the first
// as an I/O error, the second as a corrupt file.
struct TableIoError : Error {
    using Error::Error;
};

// The table a reader opens a file for: what its path (format.hpp's table_path) says.
struct TableIdentity {
    Variant variant;
    Material material;
    Metric metric = Metric::wdl;
    std::string name() const;  // "english 1201 wdl"
};

// The one identity check of every reader (probe, stats, info, verify, the generator's loader of
// smaller classes, gen-rules): throws Error, prefixed by `what` (the path), unless h is the
// header of that table: its variant, class and metric, and the class's index size. A file
// renamed or copied over another's name (a class's mirror has the same size) would otherwise
// be read as that table. The format version and the layout are checked by decode_header.
void check_identity(const TableHeader& h, const TableIdentity& expected, std::string_view what);

// A file's identity on disk: replaced (another inode) or rewritten (size, modification time).
struct FileStamp {
    std::uint64_t device = 0, inode = 0, bytes = 0;
    std::int64_t modified_ns = 0;
    bool operator==(const FileStamp&) const = default;
};

enum class ReadStatus : std::uint8_t {
    ok,
    not_in_cache,   // try_value: the block is not cached (nothing was read)
    out_of_range,   // index >= index size
    io_error,       // the file could not be read (e.g. it shrank since it was opened)
    corrupt_block,  // the codec rejects the bytes, wrong size or hash mismatch
};
const char* read_status_name(ReadStatus s);

struct ReadResult {
    ReadStatus status = ReadStatus::ok;
    // wdl: 0..2; positions the probe never reads hold a fill value (zstd) or 3 (context codec);
    // dtw: u16
    std::uint16_t value = 0;
    bool ok() const { return status == ReadStatus::ok; }
};

class TableFile {
  public:
    // Opens the file and validates its header and offset table. Throws Error naming the file
    // and the problem: missing, truncated, not a table, unsupported version, corrupt; or
    // TableIoError if it cannot be opened or read (no permission, an I/O error).
    explicit TableFile(const std::filesystem::path& path);
    // The same, then check_identity: for every reader that opens a file as a given table (only
    // a listing of a folder opens one without knowing what it should hold).
    TableFile(const std::filesystem::path& path, const TableIdentity& expected);
    ~TableFile();
    TableFile(const TableFile&) = delete;
    TableFile& operator=(const TableFile&) = delete;

    const std::filesystem::path& path() const { return path_; }
    const TableHeader& header() const { return header_; }
    std::uint32_t id() const { return id_; }  // unique in the process; the cache key
    std::uint64_t size() const { return header_.positions; }
    // False for a wdl table in the mirror layout (format.hpp): value() then answers
    // out_of_range and read_all() throws.
    bool holds_values() const { return header_.layout == Layout::stored; }
    // A wdl table in the half layout (format.hpp): the odd positions read as 3 (unknown).
    bool half() const { return header_.half; }

    // The stored value of position index, through the cache (decompressing one block on a
    // miss).
    ReadResult value(std::uint64_t index, BlockCache& cache) const noexcept;
    // Cache only: not_in_cache if the block is not cached.
    ReadResult try_value(std::uint64_t index, BlockCache& cache) const noexcept;

    // Decompressed bytes of one block (format.hpp); out.size() must be block_size(block).
    ReadStatus read_block(std::uint64_t block, std::span<std::byte> out) const noexcept;
    std::size_t block_size(std::uint64_t block) const;

    // A wdl table's values of positions [first, first + out.size()) (0..3, as value()'s; all 3
    // in the mirror layout, which tells none): from `cache` where it holds their blocks (a block
    // decoded is put there), else from the last block decoded, kept per thread (a reader of an
    // mtc-wdl file reads a wdl block for each of its 8 blocks).
    ReadStatus read_wdl(std::uint64_t first, std::span<std::uint8_t> out,
                        BlockCache* cache = nullptr) const noexcept;
    // The class's wdl file that an mtc-wdl file (table/codec.hpp's reads_wdl) is decoded with,
    // or null.
    const TableFile* wdl_companion() const { return wdl_.get(); }

    // Every value, in index order; out.size() must be size(). The span type must match the
    // metric (uint8_t for wdl, uint16_t for dtw). Throws Error on any failure.
    void read_all(std::span<std::uint8_t> out) const;
    void read_all(std::span<std::uint16_t> out) const;

    // Recomputes the checksums of the offset table and of the blocks; throws Error on mismatch.
    void verify() const;

    // Whether the path no longer names the file opened: removed, replaced (by a rename: another
    // inode) or rewritten in place (another size or modification time). The open descriptor
    // still reads the file opened. For a prober that wants to pick up a regenerated table.
    bool replaced_on_disk() const noexcept;

  private:
    std::uint16_t extract(std::span<const std::byte> block, std::uint64_t within) const;
    ReadResult probe(std::uint64_t index, BlockCache& cache, bool cache_only) const noexcept;
    // read_block, an mtc-wdl file's wdl values read through `cache` if not null.
    ReadStatus read_block_with(std::uint64_t block, std::span<std::byte> out,
                               BlockCache* cache) const noexcept;
    void read_exact(std::uint64_t offset, std::span<std::byte> out, const char* what) const;
    void load_table();
    void load_codec();
    void open_wdl_companion();
    std::uint64_t positions_in(std::uint64_t block) const;
    void read_all_blocks(void* out, std::size_t value_size) const;

    std::filesystem::path path_;
    int fd_ = -1;
    std::uint32_t id_ = 0;
    FileStamp stamp_;  // what the path named when it was opened (replaced_on_disk)
    TableHeader header_;
    std::vector<std::uint64_t> offsets_;       // blocks + 1
    std::vector<std::uint64_t> block_hashes_;  // blocks
    std::unique_ptr<const TableCodec> codec_;  // decodes the blocks, with the file's model
    // A codec that reads_wdl: the class's wdl file (the same name, .wdl), opened with this one.
    std::unique_ptr<const TableFile> wdl_;
};

// The wdl values (0..2) of a class, by index: read from its wdl file or, when that has the mirror
// or the half layout (format.hpp), from the parity of its dtw file. Positions where the side to
// move must capture hold fill values either way. `dtw_values`: the dtw file's values, when the
// caller has read them already (else they are read here if needed). Throws Error if the files do
// not match or cannot be read.
std::vector<std::uint8_t> read_wdl_values(const TableFile& wdl, const TableFile& dtw,
                                          std::span<const std::uint16_t> dtw_values = {});

}  // namespace damas
