// Unit files: one solved slice of a class pair, the unit of work of the bounded-memory
// generator (gen/run/generate.hpp). A unit is solved from the database folder alone (the smaller
// classes' table files and the unit of the slice before it), written here atomically, read back
// by the next slice's man moves and, once every slice of the pair is done, by the writer that
// assembles the pair's table files (gen/units/class_stream.hpp). Then the pair's unit files are
// removed.
//
// At <dir>/<variant>/units/<class>.<slice>.unit, in the layout of gen/units/chunked_file.hpp: its
// slice field the slice, its positions the slice's (both classes, in the slice's layout:
// gen/units/pair_layout.hpp), its label the variant and the pair's first class, its chunks the
// outcomes and the capture flags.
// A chunk holds whole men configurations of one class (kings_per_men() positions each), about
// a chunk's positions (PairLayout::unit_chunk_positions: 64 Ki unless the run's tuning says
// otherwise), or one configuration (a streamed unit: UnitStream), or (written by
// gen/solve/compact/compact_solver.hpp) at most a chunk's positions of one larger configuration, so
// that the writer can read a class's values in class order from every slice's unit at once, a chunk
// at a time, and never the whole pair (ClassStream). A unit whose checksums fail (one that did
// not reach the disk before a power loss) is solved again.
//
// Parts (damas-mpi: a slice cut into ranges of men configurations, each solved on its own rank,
// docs/distributed.md): range r of K is written to <class>.<slice>.<r>-<K>.unit, the same layout
// with only the chunks of that range's configurations (one configuration, or a part of one, a
// chunk: the streamed chunking); the slice is complete when all K are. Nothing merges them: a
// reader of the slice (UnitReader) opens the whole unit file, or else a complete set of parts,
// and checks that their chunks cover the slice exactly, each position once.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "gen/units/chunked_file.hpp"
#include "gen/units/pair_layout.hpp"
#include "rules/variant.hpp"

namespace damas {

// Thrown by the readers below when a unit file is missing or damaged: that slice (and those
// after it, which read it) must be solved again.
struct DamagedUnit {
    int slice;
};

// Which part of a slice a unit file holds: range `range` of `ranges` (the whole slice: 0 of 1).
struct UnitPart {
    int range = 0;
    int ranges = 1;
    bool whole() const { return ranges == 1; }
};
// The file of a part of the slice whose unit file is `unit` (`unit` itself for the whole).
std::filesystem::path unit_part_path(const std::filesystem::path& unit, UnitPart part);
// Whether part `part` of the slice is written and its chunk table whole (a part, not the slice).
bool unit_part_opens(const std::filesystem::path& unit, const Variant& v, const PairLayout& layout,
                     int slice, UnitPart part);
// Removes the slice's unit file and its parts, and what a killed writer left of them.
void remove_unit_files(const std::filesystem::path& unit);

// A slice's values held whole, compressed from where they are: a chunk a thread, but chunks of
// more than held_chunk_streamed_above positions (large men configurations: a kings-only slice is
// one chunk a class) one at a time, each written to the file as zstd makes its frame.
void write_unit(const std::filesystem::path& path, const Variant& v, const PairLayout& layout,
                const SliceValues& values);
inline constexpr std::uint64_t held_chunk_streamed_above(std::uint64_t chunk_positions) {
    return 16 * chunk_positions;
}
// Fills the values of slice positions [first, first + outcomes.size()) (thread-safe).
using SliceChunkFn = chunked_file::ValuesFn;
// The same with the values asked for a chunk at a time; `split`: men configurations larger than
// a chunk are split into several (the readers take either).
void write_unit(const std::filesystem::path& path, const Variant& v, const PairLayout& layout,
                int slice, const SliceChunkFn& values, bool split);
// A unit file written as its chunks come, in any order, from any thread: a solver that finishes
// a slice a men configuration at a time (gen/solve/component_solver.hpp) never holds the slice's
// values. Each put() is one whole chunk: a men configuration, or with `split` a part of one of
// at most a chunk's positions (the byte-a-position solver's groups,
// gen/solve/compact/compact_solver.hpp); close() once every one is in. Destroyed without close(),
// the unfinished file is removed. With a part (UnitPart), it writes that part's file: close()
// takes the chunks put, whatever they are (the readers check that the parts cover the slice).
class UnitStream {
  public:
    UnitStream(const std::filesystem::path& path, const Variant& v, const PairLayout& layout,
               int slice, bool split = false, UnitPart part = {});
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
    // Opens the unit file at `path`, or where there is none, the complete set of its parts
    // (UnitPart) present. Throws DamagedUnit if there is neither, if a file is not of this unit
    // or its chunk table is damaged, or if the parts do not cover the slice exactly.
    UnitReader(const std::filesystem::path& path, const Variant& v, const PairLayout& layout,
               int slice);
    ~UnitReader();
    UnitReader(const UnitReader&) = delete;
    UnitReader& operator=(const UnitReader&) = delete;

    using Chunk = chunked_file::Chunk;
    std::size_t chunks() const { return chunks_.size(); }
    const Chunk& chunk(std::size_t i) const { return chunks_[i]; }
    // The chunk holding slice position `at`.
    std::size_t chunk_at(std::uint64_t at) const;
    // Decompresses chunk i into outcomes and capture (resized); throws DamagedUnit.
    void read(std::size_t i, std::vector<std::uint16_t>& outcomes,
              std::vector<std::uint8_t>& capture) const;

  private:
    // Opens the parts of the slice present that form a complete set; false if none does.
    bool open_parts(const std::filesystem::path& path, const Variant& v, const PairLayout& layout);

    int slice_;
    std::vector<int> fds_;             // the unit file, or its parts
    std::vector<std::uint32_t> file_;  // the file of each chunk
    std::vector<Chunk> chunks_;
};

}  // namespace damas
