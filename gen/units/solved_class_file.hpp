// Solved class files: one class's outcomes with its capture positions resolved (the packed u16
// of gen/store/solved_store.hpp), at <dir>/<variant>/units/<class>.solved, written by a run on a
// budget for the later pairs that load the class again. Loading a class from its table files
// searches the captures of every capture position (a third of them in 6-piece classes), which
// took three quarters of the time english 2-6 spent loading classes on a 512 MiB budget; reading
// this file takes none of it. The layout of gen/units/chunked_file.hpp (that of a unit file), its
// slice field all ones, its label the variant and the class, its chunks the outcomes alone, a
// class run of chunk_positions each (the run's unit chunk size; the readers take any). A run whose
// store holds values only writes them at <class>.wdl.solved (folder/files.hpp), plies 0.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "index/material.hpp"
#include "rules/variant.hpp"

namespace damas {

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
// The values-only form, for a run that holds the classes a pair solved for mtc reads as their
// values (gen/units/class_values.hpp): each position's packed outcome with no plies.
void write_solved_values(const std::filesystem::path& path, const Variant& v, Material m,
                         std::span<const std::uint8_t> values, std::uint64_t positions,
                         std::uint64_t chunk_positions);
// The class's values (2 bits a position) from a solved class file of either form, or nullopt as
// read_solved_class.
std::optional<std::vector<std::uint8_t>> read_solved_values(const std::filesystem::path& path,
                                                            const Variant& v, Material m,
                                                            std::uint64_t positions);
// The class's outcomes, or nullopt if the file is missing, damaged or not this class's.
std::optional<std::vector<std::uint16_t>> read_solved_class(const std::filesystem::path& path,
                                                            const Variant& v, Material m,
                                                            std::uint64_t positions);

}  // namespace damas
