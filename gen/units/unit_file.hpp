// Unit files: one solved slice of a class pair, the unit of work of the bounded-memory
// generator (gen/run/generate.hpp). A unit is solved from the database folder alone (the smaller
// classes' table files and the unit of the slice before it), written here atomically, read back
// by the next slice's man moves and, once every slice of the pair is done, by the writer that
// assembles the pair's table files. Then the pair's unit files are removed.
//
// Layout (little-endian), at <dir>/<variant>/units/<class>.<slice>.unit:
//    0   8  magic "DAMASUNI"
//    8   4  format version (2)
//   12   4  slice
//   16   8  positions in the slice (both classes, in the slice's layout: gen/units/pair_layout.hpp)
//   24  32  the variant's name and the pair's first class ("english 2211"), NUL-padded
//   56   8  chunk count
//   64   8  offset of the chunk table
//   72   8  xxh64 of the chunk table
//   80   8  xxh64 of bytes 0..79
//   88  ..  chunks, each one zstd frame of its values: every outcome (u16), then every capture
//           flag (u8)
//   then the chunk table, by first position: first position, positions, offset, compressed
//   bytes, xxh64 of the values (u64 each)
// A chunk holds whole men configurations of one class (kings_per_men() positions each), about
// a chunk's positions (PairLayout::unit_chunk_positions: 64 Ki unless the run's tuning says
// otherwise), or one configuration (a streamed unit: UnitStream), or (written by
// gen/solve/compact_solver.hpp) at most a chunk's positions of one larger configuration, so that
// the writer can read a class's values in class order from every slice's unit at once, a chunk
// at a time, and never the whole pair (ClassStream). Written to <path>.tmp and renamed, so a unit
// file that a killed run left is whole. It is not flushed to the disk (an fsync per unit doubled
// the time of small pairs): after a power loss its checksums tell a unit that did not reach the
// disk, and that slice is solved again.
#pragma once

#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "folder/files.hpp"
#include "gen/units/pair_layout.hpp"
#include "rules/variant.hpp"

namespace damas {

// Thrown by the readers below when a unit file is missing or damaged: that slice (and those
// after it, which read it) must be solved again.
struct DamagedUnit {
    int slice;
};

void write_unit(const std::filesystem::path& path, const Variant& v, const PairLayout& layout,
                const SliceValues& values);
// Fills the values of slice positions [first, first + outcomes.size()) (thread-safe).
using SliceChunkFn = std::function<void(std::uint64_t first, std::span<std::uint16_t> outcomes,
                                        std::span<std::uint8_t> capture)>;
// The same with the values asked for a chunk at a time; `split`: men configurations larger than
// a chunk are split into several (the readers take either).
void write_unit(const std::filesystem::path& path, const Variant& v, const PairLayout& layout,
                int slice, const SliceChunkFn& values, bool split);
// A unit file written as its chunks come, in any order, from any thread: a solver that finishes
// a slice a men configuration at a time (gen/solve/component_solver.hpp) never holds the slice's
// values. Each put() is one whole chunk: a men configuration, or with `split` a part of one of
// at most a chunk's positions (the byte-a-position solver's groups, gen/solve/compact_solver.hpp);
// close() once every one is in. Destroyed without close(), the unfinished file is removed.
class UnitStream {
  public:
    UnitStream(const std::filesystem::path& path, const Variant& v, const PairLayout& layout,
               int slice, bool split = false);
    ~UnitStream();
    UnitStream(const UnitStream&) = delete;
    UnitStream& operator=(const UnitStream&) = delete;
    // Whether a slice of configurations of kings_per_men positions is streamed, with chunks of
    // chunk_positions: its chunks are single men configurations (the only way put() takes
    // them), which takes configurations of at least a sixteenth of a chunk (4 Ki positions).
    static bool streams(std::uint64_t kings_per_men, std::uint64_t chunk_positions);
    void put(std::uint64_t first, std::span<const std::uint16_t> outcomes,
             std::span<const std::uint8_t> capture);
    void close();

  private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

// The slice's values, or nullopt when the file is missing, damaged or not the unit asked for.
std::optional<SliceValues> read_unit(const std::filesystem::path& path, const Variant& v,
                                     const PairLayout& layout, int slice);

// One unit file opened for reading a chunk at a time. Thread safety: every const member function
// may be called from any number of threads at once.
class UnitReader {
  public:
    // Throws DamagedUnit if the file is missing, not this unit, or its chunk table is damaged.
    UnitReader(const std::filesystem::path& path, const Variant& v, const PairLayout& layout,
               int slice);
    ~UnitReader();
    UnitReader(const UnitReader&) = delete;
    UnitReader& operator=(const UnitReader&) = delete;

    struct Chunk {
        std::uint64_t first = 0, positions = 0, offset = 0, bytes = 0, hash = 0;
    };
    std::size_t chunks() const { return chunks_.size(); }
    const Chunk& chunk(std::size_t i) const { return chunks_[i]; }
    // The chunk holding slice position `at`.
    std::size_t chunk_at(std::uint64_t at) const;
    // Decompresses chunk i into outcomes and capture (resized); throws DamagedUnit.
    void read(std::size_t i, std::vector<std::uint16_t>& outcomes,
              std::vector<std::uint8_t>& capture) const;

  private:
    int slice_;
    int fd_ = -1;
    std::vector<Chunk> chunks_;
};

// Class c's values of a pair solved in units, in class index order, gathered from every slice's
// unit file at once: memory is a chunk per slice and a segment, not the class. A segment is
// gathered at a time, the chunks it needs decompressed in parallel (one thread decompressing in
// order made the writer's passes wait on it: a bounded pair's writing took 2.5 times as long).
class ClassStream {
  public:
    // Positions gathered at a time, with chunks of chunk_positions (16 chunks: 1 Mi positions;
    // tests with small chunks cross segments often), and chunks decompressed at most at once
    // (gen/plan/plan.cpp counts both).
    static std::uint64_t segment_positions(std::uint64_t chunk_positions) {
        return 16 * chunk_positions;
    }
    static constexpr std::size_t chunks_at_once = 16;

    ClassStream(const std::filesystem::path& dir, const Variant& v, const PairLayout& layout,
                int c);
    ~ClassStream();
    // The next outcomes.size() values (capture.size() must be the same). Throws DamagedUnit.
    void next(std::span<std::uint16_t> outcomes, std::span<std::uint8_t> capture);

  private:
    struct Cursor;
    struct Piece;
    struct Decoded;
    void fill();
    std::size_t plan_segment();

    const PairLayout& layout_;
    int c_;
    // The next position to plan: its men configuration's slice, and its kings rank.
    PairLayout::SliceWalk walk_;
    std::uint64_t within_ = 0;
    std::vector<std::unique_ptr<Cursor>> slices_;
    std::vector<Piece> pieces_;            // of the segment: runs of one chunk
    std::vector<Decoded> decoded_;         // the chunks the segment reads first, in that order
    std::vector<std::uint16_t> outcomes_;  // the segment
    std::vector<std::uint8_t> capture_;
    std::size_t taken_ = 0;  // of the segment
};

// Solved class files: one class's outcomes with its capture positions resolved (the packed u16 of
// gen/store/solved_store.hpp), at <dir>/<variant>/units/<class>.solved, written by a run on a budget for
// the later pairs that load the class again. Loading a class from its table files searches the
// captures of every capture position (a third of them in 6-piece classes), which took three
// quarters of the time english 2-6 spent loading classes on a 512 MiB budget; reading this file
// takes none of it. The same layout as a unit file, its slice field all ones, its chunks the
// outcomes alone, a class run of chunk_positions each (the run's unit chunk size; the readers
// take any).
// Writes the class's outcomes (compressed in parallel), atomically.
void write_solved_class(const std::filesystem::path& path, const Variant& v, Material m,
                        std::span<const std::uint16_t> outcomes, std::uint64_t chunk_positions);
// The same written as the outcomes come, in order (the writer's pass over a pair in units).
class SolvedClassWriter {
  public:
    SolvedClassWriter(const std::filesystem::path& path, const Variant& v, Material m,
                      std::uint64_t positions, std::uint64_t chunk_positions);
    ~SolvedClassWriter();  // unfinished: the temporary file is removed
    SolvedClassWriter(const SolvedClassWriter&) = delete;
    SolvedClassWriter& operator=(const SolvedClassWriter&) = delete;
    // Chunks gathered and compressed in parallel at a time (gen/plan/plan.cpp counts them).
    static constexpr std::uint64_t batch_chunks = 16;
    void append(std::span<const std::uint16_t> outcomes);
    // Once every position is in.
    void close();

  private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};
// The class's outcomes, or nullopt if the file is missing, damaged or not this class's.
std::optional<std::vector<std::uint16_t>> read_solved_class(const std::filesystem::path& path,
                                                            const Variant& v, Material m,
                                                            std::uint64_t positions);

}  // namespace damas
