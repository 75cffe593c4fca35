// A pair solved in units: each slice solved and written to its unit file (gen/units/), a rerun
// continuing from the unit files a killed run left, then the pair's table files written from its
// units. A damaged unit file is solved again, with every slice after it.
#pragma once

#include <chrono>
#include <functional>

#include "gen/options.hpp"
#include "gen/plan/pair_graph.hpp"
#include "gen/plan/plan.hpp"
#include "gen/process/progress.hpp"
#include "gen/run/generate.hpp"
#include "gen/solve/solver.hpp"
#include "gen/store/solved_store.hpp"

namespace damas {

// Removes the pair's unit files of slices `from` on (and what a killed writer left of them).
void remove_units(const GenerateOptions& o, Material m, int slices, int from = 0);

// Solves the pair in units and writes its table files from them; returns the bytes written.
// `solved` is set when the last slice is solved; `loaded_again` names the classes that get a
// solved class file from the writer's pass.
std::uint64_t solve_and_write_in_units(const GenerateOptions& o, Material m, SolvedStore& store,
                                       const PairStep& step, Progress& progress, SolveTimes& times,
                                       GenerateSummary& summary,
                                       std::chrono::steady_clock::time_point& solved,
                                       const std::function<bool(Material)>& loaded_again);

}  // namespace damas
