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
#include "gen/units/pair_layout.hpp"
#include "gen/units/unit_file.hpp"

namespace damas {

// Removes the pair's unit files of slices `from` on (and what a killed writer left of them),
// and the parts of its distance files.
void remove_units(const GenerateOptions& o, Material m, int slices, int from = 0);

// Cut slices (damas-mpi, docs/distributed.md): a pair in units whose slices are solved as
// ranges of men configurations, each a unit of work of its own written to its part of the
// slice's unit (gen/units/unit_file.hpp), then its table files written from them.

// Whether slice s can be cut into ranges on `threads` threads (compact: a pair the plan gives
// the byte-a-position solver): gen/solve/compact/compact_solver.hpp's slice_cuts_into_ranges.
bool slice_cuts(const GenerateOptions& o, const PairLayout& layout, bool compact, int s,
                int threads);
// Whether slice s is written whole (its unit file or a complete set of parts that covers it),
// and whether part `part` of it is.
bool slice_written(const GenerateOptions& o, const PairLayout& layout, int s);
bool slice_part_written(const GenerateOptions& o, const PairLayout& layout, int s, UnitPart part);
// Solves range `part` of slice s (the whole slice if part.whole()) into its part of the unit; the
// slice before must be written. Throws Error if it is not, if the slice cannot be cut, or if a
// unit read is damaged (a rerun solves it again).
void solve_slice_part(const GenerateOptions& o, const PairLayout& layout, const SolvedStore& store,
                      const PairStep& step, int s, UnitPart part, Progress& progress,
                      SolveTimes& times, GenerateSummary& summary);
// The writing of a cut pair's files over workers (gen/plan/work_graph.hpp): its wdl files
// first, as write_pair writes them (the codecs and the class that keeps the values chosen from
// the whole classes); then each class's distance file as parts, each a range of its blocks
// (gen/write/table_parts.hpp) in the units folder, <class>.<metric>.<r>-<K>.part; then the
// distance files assembled from their parts.

std::filesystem::path distance_part_path(const GenerateOptions& o, Material c, UnitPart part);
// Writes the pair's wdl files from its units, every slice written; returns the bytes written.
// Throws Error if a unit is missing or damaged.
std::uint64_t write_pair_wdl_units(const GenerateOptions& o, const PairLayout& layout,
                                   const PairStep& step);
// Part `part` of class c's distance file, from the units; the pair's wdl files must be
// complete. Throws Error if they are not, or if a unit is missing or damaged.
void write_distance_part_units(const GenerateOptions& o, const PairLayout& layout, int c,
                               UnitPart part);
bool distance_part_written(const GenerateOptions& o, const PairLayout& layout, int c,
                           UnitPart part);
// The pair's distance files from their parts (parts[c] to class c's); returns the bytes
// written. Throws Error if a part is missing or damaged (a damaged one is removed).
std::uint64_t assemble_pair_distance(const GenerateOptions& o, const PairLayout& layout,
                                     const std::vector<int>& parts);

// A cut pair's wdl files written in parts where wdl_in_parts (pair_writer.hpp): each class's
// estimate (estimate_wdl_class), then the choice (choose_pair_wdl) saved in the units folder,
// <class 0>.wdl.choice; then each file that keeps
// values (pair_writer.hpp's wdl_files_in_parts; 0: the files are one unit,
// write_pair_wdl_units) as `parts` parts (wdl_parts), <class>.wdl.<r>-<K>.part,
// each a range of its blocks coded with the choice's model; then the files assembled from them
// (and the mirror layout's header), the choice and the parts removed.
// Class c's estimate, <class>.wdl.estimate (each class's on any worker); then the choice
// (from the estimates saved, or made where missing).
void estimate_wdl_units(const GenerateOptions& o, const PairLayout& layout, const PairStep& step,
                        int c);
bool wdl_estimate_written(const GenerateOptions& o, const PairLayout& layout, int c);
void choose_wdl_units(const GenerateOptions& o, const PairLayout& layout, const PairStep& step);
bool wdl_choice_written(const GenerateOptions& o, const PairLayout& layout);
// Part `part` of the `file`-th wdl file that keeps values. Throws Error if the choice is missing
// or damaged, or a unit is.
void write_wdl_part_units(const GenerateOptions& o, const PairLayout& layout, int file,
                          UnitPart part);
bool wdl_part_written(const GenerateOptions& o, const PairLayout& layout, int file, UnitPart part);
// The wdl files from their parts and the choice; returns the bytes written. Throws Error if a
// part is missing or damaged (a damaged one is removed: the next run writes it again).
std::uint64_t assemble_pair_wdl(const GenerateOptions& o, const PairLayout& layout, int parts);

// Solves the pair in units and writes its table files from them; returns the bytes written.
// `solved` is set when the last slice is solved; `loaded_again` names the classes that get a
// solved class file from the writer's pass.
std::uint64_t solve_and_write_in_units(const GenerateOptions& o, Material m, SolvedStore& store,
                                       const PairStep& step, Progress& progress, SolveTimes& times,
                                       GenerateSummary& summary,
                                       std::chrono::steady_clock::time_point& solved,
                                       const std::function<bool(Material)>& loaded_again);

}  // namespace damas
