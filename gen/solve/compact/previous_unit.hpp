// The slice before the one the byte-a-position solver (gen/solve/compact/compact_solver.hpp)
// solves, which its man moves reach: not held, read from its unit file.
//
// Owns: that unit file, written by either solver in this run or an earlier one, and each
// thread's last decoded chunks of it (solving::PreviousChunks), from which a position's exit is
// read one position at a time. A position's exits are near its own rank in the configurations
// its man moves reach, so a thread keeps a few chunks, and 2 Mi positions in all.
#pragma once

#include <tbb/enumerable_thread_specific.h>

#include <cstdint>
#include <memory>

#include "gen/solve/previous_slice.hpp"
#include "gen/solve/solver.hpp"
#include "gen/store/solved_store.hpp"
#include "gen/units/unit_file.hpp"

namespace damas::compact {

// The positions of a chunk of the slice before's unit (chunks of chunk_positions): a part of a
// configuration where they are split, else a configuration or a run of small ones of about a
// chunk.
std::uint64_t previous_chunk_positions(std::uint64_t kings_per_men, std::uint64_t chunk_positions);
// The chunks a thread keeps decoded: 2 Mi positions in all, and at least 6 (a position's man
// moves reach at most a few configurations there).
int chunks_kept(std::uint64_t kings_per_men, std::uint64_t chunk_positions);

class PreviousUnit {
  public:
    // The slice before is `slice`, its unit opened by open_unit; each thread keeps `kept`
    // chunks.
    void open(const OpenUnit& open_unit, int slice, int kept);

    // The outcome of position `local` of the slice before, in its layout.
    Outcome outcome(std::uint64_t local) const {
        return unpack_outcome(*chunks_->local().outcomes(*unit_, slice_, local, 1));
    }

  private:
    int slice_ = -1;
    std::unique_ptr<UnitReader> unit_;
    mutable std::unique_ptr<tbb::enumerable_thread_specific<solving::PreviousChunks>> chunks_;
};

}  // namespace damas::compact
