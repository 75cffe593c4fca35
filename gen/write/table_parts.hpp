// One table file written by several workers (damas-mpi: a cut pair's files,
// docs/distributed.md): each encodes a range of the file's blocks into a part file, and one
// assembles the file from its parts, byte-identical to the whole file's writer's.
//
// Owns: the part file's layout and its checks, and the assembly. A block is coded from its own
// values and the table's model alone (table/codec.hpp: a distance codec has none; a wdl codec's,
// the context codec's, is fitted to the whole class before any part is written and given to
// every part), so a block's bytes do not depend on which worker codes it; the file is the
// header, the offset table, the model and the blocks' bytes in order. A part file
// (little-endian):
//   0    "DAMASPRT", u32 version, u8 metric, u8 codec, u8 half layout, u8 mtc fold (format.hpp)
//   16   u32 positions per block, 4 bytes of the class (white men, kings, black men, kings)
//   24   u64 positions, first block, end block, blocks' offset, file size,
//        offset table's checksum, blocks' checksum (xxh64 of their bytes), the model's checksum
//   88   u64 xxh64 of the bytes before
//   96   (zero to 128) then the offset table (format.hpp's, offsets within the part file), then
//        the blocks' bytes
// written to <part>.tmp and renamed, as every table file.
#pragma once

#include <cstdint>
#include <filesystem>
#include <span>

#include "gen/write/writer.hpp"

namespace damas {

// Blocks [first, end) of a table.
struct BlockRange {
    std::uint64_t first = 0, end = 0;
};
// Part `part` of `parts` of a table of `blocks` blocks (as even as can be; parts <= blocks).
BlockRange part_blocks(std::uint64_t blocks, int part, int parts);

// The blocks write_distance_table writes for a table of `positions` positions of `metric`.
std::uint64_t distance_table_blocks(Metric metric, std::uint64_t positions,
                                    const WriteOptions& options);

// Encodes blocks `range` of the distance table that write_distance_table would write at `table`
// into the part file `part`. values(first, out) as write_distance_table's, called for the
// range's blocks in order from its first. An mtc codec that reads the class's wdl file
// (mtc-wdl) is given its values as read_wdl_beside says (gen/write/writer.hpp) unless
// options.mtc_wdl gives them. Throws Error on an I/O
// failure (nothing is left at `part`).
void write_distance_part(const std::filesystem::path& part, const std::filesystem::path& table,
                         const TableInfo& info, Metric metric, std::uint64_t positions,
                         BlockRange range, const DtwValues& values, const WriteOptions& options);

// Whether `part` is a complete part of that table for blocks `range`: its header and offset
// table checked (its blocks' checksum is checked as they are assembled).
bool distance_part_complete(const std::filesystem::path& part, const TableInfo& info, Metric metric,
                            std::uint64_t positions, BlockRange range, const WriteOptions& options);

// Writes the distance table at `table` from its parts, given in block order and covering every
// block, the header's counts from options.counts_from (required): the bytes
// write_distance_table writes. Throws Error naming a part that is missing, not of this table or
// damaged (its blocks' checksum is checked as they are copied; a damaged part is removed, so a
// rerun writes it again); nothing is written at `table` then.
TableHeader assemble_distance_table(const std::filesystem::path& table, const TableInfo& info,
                                    Metric metric, std::uint64_t positions,
                                    std::span<const std::filesystem::path> parts,
                                    const WriteOptions& options);

// A wdl table in parts: the header of the table write_wdl_table writes with `codec` and `half`
// (default positions per block), with `counts`' counts and the model `model` (empty: the codec
// has none), its offsets and checksums aside.
TableHeader wdl_table_header(const TableInfo& info, std::uint64_t positions, Codec codec, bool half,
                             std::span<const std::byte> model, const TableHeader& counts);
// The codec of that table, from its model. Throws Error if the model is not the header's.
std::unique_ptr<const TableCodec> open_wdl_codec(const TableHeader& table,
                                                 std::span<const std::byte> model);
// Encodes blocks `range` of the wdl table of header `table` with `codec` (open_wdl_codec's) into
// the part file `part`; values(first, out) as WdlValues', called for the range's blocks in order
// from its first. options: threads, durability, zstd's settings.
void write_wdl_part(const std::filesystem::path& part, const TableHeader& table,
                    const TableCodec& codec, BlockRange range, const WdlValues& values,
                    const WriteOptions& options);
bool wdl_part_complete(const std::filesystem::path& part, const TableHeader& table,
                       BlockRange range);
// The wdl table of header `table` and model `model` from its parts, as assemble_distance_table.
TableHeader assemble_wdl_table(const std::filesystem::path& table, const TableHeader& header,
                               std::span<const std::byte> model,
                               std::span<const std::filesystem::path> parts, bool durable);

}  // namespace damas
