// Unit files: one solved slice of a class pair, the unit of work of the bounded-memory
// generator (gen/generate.hpp). A unit is solved from the database folder alone (the smaller
// classes' table files and the unit of the slice before it), written here atomically, read back
// by the next slice's man moves and, once every slice of the pair is done, by the writer that
// assembles the pair's table files. Then the pair's unit files are removed.
//
// Layout (little-endian), at <dir>/<variant>/units/<class>.<slice>.unit:
//    0   8  magic "DAMASUNI"
//    8   4  format version (1)
//   12   4  slice
//   16   8  positions in the slice (both classes)
//   24  32  the variant's name and the pair's first class ("english 2211"), NUL-padded
//   56   8  xxh64 of the values: every outcome (u16), then every capture flag (u8)
//   64   8  xxh64 of bytes 0..63
//   72  ..  one zstd frame of those values
// Written to <path>.tmp and renamed, so a unit file that a killed run left is whole. It is not
// flushed to the disk (an fsync per unit doubled the time of small pairs): after a power loss its
// checksums tell a unit that did not reach the disk, and that slice is solved again.
#pragma once

#include <filesystem>
#include <optional>

#include "gen/pair_layout.hpp"
#include "rules/variant.hpp"

namespace damas {

std::filesystem::path unit_path(const std::filesystem::path& dir, const Variant& v, Material pair,
                                int slice);
// The folder of every unit file of the variant.
std::filesystem::path units_dir(const std::filesystem::path& dir, const Variant& v);

void write_unit(const std::filesystem::path& path, const Variant& v, Material pair,
                const SliceValues& values);
// The slice's values, or nullopt when the file is missing, damaged or not the unit asked for
// (positions: the slice's, both classes).
std::optional<SliceValues> read_unit(const std::filesystem::path& path, const Variant& v,
                                     Material pair, int slice, std::uint64_t positions);

}  // namespace damas
