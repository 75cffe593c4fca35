// What the writing of a pair's wdl files decides from the whole classes, for the workers that
// write them in parts (damas-mpi: a cut pair, docs/distributed.md): for each class, whether its
// file keeps the values (else the mirror layout: a header alone), its coding and counts, and the
// model of its codec fitted to the whole class (the context codec's; empty for zstd). With it a
// worker codes any range of the file's blocks (gen/write/table_parts.hpp) as write_pair would.
//
// Owns: the choice and its file, kept in the units folder until the files are assembled
// (little-endian): "DAMASWCH", u32 version, u32 classes; per class u8 keeps, u8 codec, u8 half
// layout, u8 0, 4 bytes of the class, u64 positions, wins, draws, losses, unknown, estimated
// bytes, the model's size, the model's bytes; then u64 xxh64 of the bytes before. Written to
// <file>.tmp and renamed. A class's estimate alone (before the choice) is such a file of one
// class.
#pragma once

#include <cstdint>
#include <filesystem>
#include <span>
#include <vector>

#include "gen/write/wdl_policy.hpp"
#include "gen/write/writer.hpp"
#include "index/material.hpp"

namespace damas {

struct WdlFileChoice {
    Material material;
    bool keeps = true;  // else its file has the mirror layout
    WdlCoding coding;
    TableHeader counts;  // its positions and win/draw/loss/unknown counts
    std::uint64_t estimated_bytes = 0;
    std::vector<std::byte> model;
};
struct PairWdlChoice {
    std::vector<WdlFileChoice> classes;  // in the pair's class order
};

void save_wdl_choice(const std::filesystem::path& path, const PairWdlChoice& choice, bool durable);
// The choice saved at path for the classes `classes` of `positions` positions each. Throws Error
// if it is missing, damaged or of other classes.
PairWdlChoice load_wdl_choice(const std::filesystem::path& path, std::span<const Material> classes,
                              std::uint64_t positions);

}  // namespace damas
