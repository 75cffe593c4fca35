#include "gen/solve/compact/previous_unit.hpp"

#include <algorithm>

#include "gen/solve/compact/compact_solver.hpp"

namespace damas::compact {

std::uint64_t previous_chunk_positions(std::uint64_t kings_per_men, std::uint64_t chunk_positions) {
    return compact_splits_configurations(kings_per_men, chunk_positions)
               ? chunk_positions
               : std::max(kings_per_men, chunk_positions);
}

int chunks_kept(std::uint64_t kings_per_men, std::uint64_t chunk_positions) {
    const std::uint64_t chunk = previous_chunk_positions(kings_per_men, chunk_positions);
    return static_cast<int>(std::clamp<std::uint64_t>((std::uint64_t{2} << 20) / chunk, 6,
                                                      solving::PreviousChunks::capacity));
}

void PreviousUnit::open(const OpenUnit& open_unit, int slice, int kept) {
    unit_ = open_unit(slice);
    slice_ = slice;
    chunks_ = std::make_unique<tbb::enumerable_thread_specific<solving::PreviousChunks>>(
        solving::PreviousChunks(kept));
}

}  // namespace damas::compact
