// The layout that unit files (gen/units/unit_file.hpp) and solved class files
// (gen/units/solved_class_file.hpp) share, internal to gen/units: a header, the values in
// chunks of consecutive positions, one zstd frame each, then the chunk table.
//
// Layout (little-endian):
//    0   8  magic "DAMASUNI"
//    8   4  format version (2)
//   12   4  slice (a unit file's; all ones in a solved class file)
//   16   8  positions in the file (a part of a slice: those of its chunks)
//   24  32  the variant's name and a class ("english 2211"; a part of a slice adds its range,
//           "english 2211 1-3"), NUL-padded
//   56   8  chunk count
//   64   8  offset of the chunk table
//   72   8  xxh64 of the chunk table
//   80   8  xxh64 of bytes 0..79
//   88  ..  chunks, each one zstd frame of its values: every outcome (u16), then every capture
//           flag (u8) where the file keeps them
//   then the chunk table, by first position: first position, positions, offset, compressed
//   bytes, xxh64 of the values (u64 each)
// Written to <path>.tmp and renamed, so a file that a killed run left is whole. It is not
// flushed to the disk (an fsync per unit doubled the time of small pairs): after a power loss
// its checksums tell a file that did not reach the disk.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "index/material.hpp"
#include "rules/variant.hpp"

namespace damas::chunked_file {

// A chunk's frame is read a block of this many bytes at a time (read_chunk_parts).
inline constexpr std::uint64_t frame_block_bytes = std::uint64_t{1} << 20;

// A chunk table entry: the chunk's positions, where its frame is, and the xxh64 of its values.
struct Chunk {
    std::uint64_t first = 0, positions = 0, offset = 0, bytes = 0, hash = 0;
};

// Fills the values of positions [first, first + outcomes.size()); capture is empty where the
// file keeps no capture flags (thread-safe).
using ValuesFn = std::function<void(std::uint64_t first, std::span<std::uint16_t> outcomes,
                                    std::span<std::uint8_t> capture)>;

// A file descriptor, closed when destroyed.
class Fd {
  public:
    Fd(const std::filesystem::path& path, int flags);
    ~Fd();
    Fd(const Fd&) = delete;
    Fd& operator=(const Fd&) = delete;
    int get() const { return fd_; }
    explicit operator bool() const { return fd_ >= 0; }
    // Throws Error naming the file, `what` and errno.
    [[noreturn]] void fail(const std::string& what) const;

  private:
    std::filesystem::path path_;
    int fd_ = -1;
};

// Writes <path>.tmp with the chunks given, then the table and header, and renames it.
// Destroyed without close(), the unfinished file is removed.
class Writer {
  public:
    Writer(const std::filesystem::path& path, std::uint64_t chunks);
    ~Writer();
    Writer(const Writer&) = delete;
    Writer& operator=(const Writer&) = delete;
    // Chunk k (in position order) compressed; any order, one call at a time.
    void put(std::size_t k, std::uint64_t first, std::uint64_t positions,
             std::span<const std::byte> compressed, std::uint64_t hash);
    // Chunk k's values compressed here and written as they are (not with put()'s calls).
    void put_streamed(std::size_t k, std::uint64_t first, std::span<const std::uint16_t> outcomes,
                      std::span<const std::uint8_t> capture);
    // The header names v, m and slice (and `part`, a part of the slice: "1-3"), and the file
    // holds `positions`.
    void close(const Variant& v, Material m, int slice, std::uint64_t positions,
               const std::string& part = {});
    // A part of a slice (a unit file of a range of its men configurations, named `part` in the
    // header's label: gen/units/unit_file.hpp): only the chunks put, in slot order; the header's
    // positions are theirs.
    void close_part(const Variant& v, Material m, int slice, const std::string& part);

  private:
    void pwrite_all(const void* data, std::size_t n, std::uint64_t at);

    std::filesystem::path path_, tmp_;
    std::unique_ptr<Fd> fd_;
    std::vector<Chunk> table_;
    std::uint64_t end_;
};

// A chunk's values compressed (path names the file in errors); `hash` gets their xxh64.
std::vector<std::byte> compress(const std::filesystem::path& path,
                                std::span<const std::uint16_t> outcomes,
                                std::span<const std::uint8_t> capture, std::uint64_t& hash);

// Every chunk's values (from `values`; with capture flags or without) compressed in parallel
// and put in `out`, chunks[k] in table slot first_slot + k.
void put_chunks(Writer& out, const std::filesystem::path& path, const std::vector<Chunk>& chunks,
                bool with_capture, const ValuesFn& values, std::size_t first_slot = 0);
// The same for values held whole (positions from 0), compressed from where they are: what is
// resident beyond them is the frames of the chunks being compressed, a chunk a thread, but for
// chunks of more than `large` positions, each written to the file one after the other as zstd
// makes its frame (gen/plan/plan.cpp counts both).
void put_held_chunks(Writer& out, const std::filesystem::path& path,
                     const std::vector<Chunk>& chunks, std::span<const std::uint16_t> outcomes,
                     std::span<const std::uint8_t> capture, std::uint64_t large);

// The chunk table of the file open at fd, checked against the header expected for it (v, m,
// slice, positions): chunks in order, covering `positions`. Nothing if anything differs.
std::optional<std::vector<Chunk>> read_table(int fd, const Variant& v, Material m, int slice,
                                             std::uint64_t positions);

// The same for part `part` of a slice (Writer::close_part): its chunks in order, not
// overlapping, within the slice's `slice_positions`, holding the positions its header says (none
// at all for a range that has no configuration).
std::optional<std::vector<Chunk>> read_part_table(int fd, const Variant& v, Material m, int slice,
                                                  std::uint64_t slice_positions,
                                                  const std::string& part);

// Chunk c's values (raw.size() bytes of them) decompressed into raw and checked; false if
// damaged.
bool read_chunk(int fd, const Chunk& c, std::vector<std::byte>& raw);
// The same into two spans, the chunk's stored bytes one after the other (a unit's outcomes, then
// its capture flags), with no copy of them beside.
bool read_chunk_parts(int fd, const Chunk& c, std::span<std::byte> first,
                      std::span<std::byte> second);

}  // namespace damas::chunked_file
