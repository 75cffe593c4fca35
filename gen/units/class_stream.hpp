// Reading a class's values across its pair's unit files, for the writer that assembles the
// pair's table files (gen/write/pair_writer.hpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <span>
#include <vector>

#include "gen/units/pair_layout.hpp"
#include "rules/variant.hpp"

namespace damas {

// Class c's values of a pair solved in units, in class index order, gathered from every slice's
// unit file (gen/units/unit_file.hpp) at once: memory is a chunk per slice and a segment, not the
// class. A segment is gathered at a time, the chunks it needs decompressed in parallel (one
// thread decompressing in order made the writer's passes wait on it: a bounded pair's writing
// took 2.5 times as long).
class ClassStream {
  public:
    // Positions gathered at a time, with chunks of chunk_positions (16 chunks: 1 Mi positions;
    // tests with small chunks cross segments often), and chunks decompressed at most at once
    // (gen/plan/plan.cpp counts both).
    static std::uint64_t segment_positions(std::uint64_t chunk_positions) {
        return 16 * chunk_positions;
    }
    static constexpr std::size_t chunks_at_once = 16;

    // `distance`: the pair's metric (its units' names: folder/files.hpp).
    ClassStream(const std::filesystem::path& dir, const Variant& v, const PairLayout& layout, int c,
                Metric distance);
    ~ClassStream();
    // The next outcomes.size() values (capture.size() must be the same). Throws DamagedUnit.
    void next(std::span<std::uint16_t> outcomes, std::span<std::uint8_t> capture);
    // Passes over the next n values without reading them (a part of a table file that starts
    // within the class: gen/write/table_parts.hpp): a step a men configuration, no chunk read.
    void skip(std::uint64_t n);

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

}  // namespace damas
