// One block of a table file held at a time, read and decoded when a position outside it is
// asked for: how the store walks a class's files in index order as it loads the class
// (SolvedClass::Files::read_range, read_values), each block decoded once for its positions.
//
// Not thread-safe: a cursor per thread (the store makes one per window of positions).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "table/table_file.hpp"

namespace damas {

class BlockCursor {
  public:
    explicit BlockCursor(const TableFile& file)
        : file_(file), positions_per_block_(file.header().positions_per_block) {}

    // The 2-bit value of position `at` of a wdl file (4 to a byte in its blocks: format.hpp),
    // wdl_unknown where the file holds none. Throws Error naming the file and block if the
    // block cannot be read.
    std::uint8_t wdl_at(std::uint64_t at);
    // The 16-bit value (little-endian) of position `at` of a dtw, dtr or mtc file. Throws as
    // wdl_at().
    std::uint16_t u16_at(std::uint64_t at);

  private:
    // Holds the block of `at`; `at`'s place in it.
    std::uint64_t hold(std::uint64_t at);

    const TableFile& file_;
    std::uint64_t positions_per_block_;
    std::uint64_t block_ = UINT64_MAX;  // the block `bytes_` holds (none yet)
    std::vector<std::byte> bytes_;
};

}  // namespace damas
