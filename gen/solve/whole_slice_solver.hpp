// A slice solved whole (gen/solve/solver.hpp's steps 1-3): every position of the slice initialised,
// then resolved by increasing distance, one level per distance, in parallel.
//
// Owns: the slice's working arrays, sized once for the largest slice it solves: a 4-byte state
// per position (gen/solve/position_state.hpp), in the slice's layout, accessed at random (2 MiB
// pages); two level bitmaps (2 bits a position); a bucket of positions per distance (longest losses
// and initial wins, at most 4 bytes an entry), staged per thread; and per men configuration a
// MenBlock (its men and its flip's first state: gen/solve/predecessors.hpp). The level is walked as
// a bitmap, so each position is visited once and in state order, which keeps the predecessors of
// consecutive positions in the same few men configurations (cache lines). Where men only move
// forward, tasks take whole men configurations, so updates need no atomic read-modify-write.
// Chosen per rules at construction; one virtual call per slice, none per position.
#pragma once

#include <cstdint>
#include <memory>

#include "gen/solve/pair_tables.hpp"
#include "gen/solve/previous_slice.hpp"
#include "gen/solve/slice_output.hpp"
#include "gen/solve/solve_progress.hpp"
#include "gen/solve/solver.hpp"

namespace damas::solving {

class WholeSliceSolver {
  public:
    virtual ~WholeSliceSolver() = default;
    // Solves `slice` into `output` (its values held), its man moves reading `previous`.
    virtual void solve(const SliceLayout& slice, SliceOutput& output, SolveProgress& progress,
                       SolveTimes& times) = 0;
};

// A solver for slices of at most `largest` positions (< 2^32) of the pair.
std::unique_ptr<WholeSliceSolver> make_whole_slice_solver(const PairTables& tables,
                                                          const PreviousSlice& previous,
                                                          std::uint64_t largest);

}  // namespace damas::solving
