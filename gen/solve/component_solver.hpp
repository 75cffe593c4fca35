// A slice solved as components (gen/solve/solver.hpp). Where men only move forward (every variant
// but turkish), the quiet moves inside a slice are king moves, which keep the men: they lead from a
// men configuration to its flip's (in the mirror class) and back. So a slice falls apart into
// components of two men configurations (one where a configuration is its own flip), each solved
// whole by one task with the same rules as a slice solved whole (gen/solve/position_state.hpp): its
// 2 x kings_per_men() positions initialised, resolved level by level from per-distance buckets,
// their values put out (gen/solve/slice_output.hpp).
//
// Owns: per thread a Component buffer, kept from one component to the next: a 4-byte state per
// position (88 KiB for english 2211, in the core's cache through all its levels; tasks share
// nothing) and the buckets; and the pair's flipped-kings tables (gen/solve/predecessors.hpp), made
// at the first slice. The components are made as they are solved, not listed first (a list took
// 48 bytes a configuration: 4.5 GB for the largest slice of international 3040). The kings
// counts are compile-time constants up to 3 a side, so the loops unroll. Chosen per rules at
// construction; one virtual call per slice, none per position.
#pragma once

#include <memory>

#include "gen/solve/pair_tables.hpp"
#include "gen/solve/previous_slice.hpp"
#include "gen/solve/slice_output.hpp"
#include "gen/solve/solver.hpp"

namespace damas::solving {

class ComponentSolver {
  public:
    virtual ~ComponentSolver() = default;
    // Solves the components of `slice` whose class 0 configuration's rank in the slice is in
    // `range` (every one: [0, slice.men[0].size())) into `output` (held or streamed), its man
    // moves reading `previous`.
    virtual void solve(const SliceLayout& slice, ConfigurationRange range, SliceOutput& output,
                       SolveTimes& times) = 0;
};

std::unique_ptr<ComponentSolver> make_component_solver(const PairTables& tables,
                                                       const PreviousSlice& previous);

}  // namespace damas::solving
