// Solving the pairs of a planned run one at a time, each from the files on disk and what the
// runner's store holds: the loop of `damas gen` (gen/run/generate.hpp), and the work each rank of
// `damas-mpi` does with the pairs it is handed (docs/distributed.md).
//
// Owns: the store of solved classes a worker keeps between its pairs (gen/store/solved_store.hpp),
// sized as the plan says (gen/plan/plan.hpp: a pair's `keep` and `read_through` when the run is
// bounded; else every class below the top size, and top classes until the last pair that reads
// them), and the summary of what the worker did. A pair's inputs are the files of the pairs it
// reads (gen/plan/pair_graph.hpp); whatever of them the store lacks is loaded from the files, so a
// pair can run on any worker once those files are complete, and writes the same bytes.
//
// Not thread-safe: one runner per worker. The caller holds the folder's writer lock (one run
// per folder: folder/run_record.hpp) and the thread limit. Implemented in gen/run/generate.cpp,
// beside the solving and writing of a pair it drives.
#pragma once

#include <cstddef>
#include <memory>
#include <vector>

#include "gen/options.hpp"
#include "gen/plan/plan.hpp"
#include "gen/plan/work_graph.hpp"
#include "gen/process/progress.hpp"
#include "gen/run/run_steps.hpp"
#include "gen/run/summary.hpp"
#include "gen/units/unit_file.hpp"

namespace damas {

class PairRunner : public PairWork {
  public:
    PairRunner(const GenerateOptions& options, const GenerationPlan& plan, Progress& progress);
    ~PairRunner() override;
    PairRunner(const PairRunner&) = delete;
    PairRunner& operator=(const PairRunner&) = delete;

    // Whether pair i's files are complete (checked: header, size, checksums); if so, removes
    // what a killed run left of it and counts it as skipped.
    bool skip_if_complete(std::size_t i) override;
    // A run on a budget, in one process: classes that later pairs load again are kept in solved
    // class files between (gen/units/solved_class_file.hpp), which load without searching their
    // captures.
    // (Not for damas-mpi's ranks: two of them could write one class's file at once.)
    void use_solved_files();
    // Solves pair i (the plan's index) and writes its files, unless skip_if_complete(i); its
    // inputs' files must be complete. Counted in summary().
    void run(std::size_t i) override;

    // A pair in units cut into ranges of men configurations (damas-mpi: gen/plan/work_graph.hpp),
    // each range a unit of work that any worker may take once the slice before is written:
    // range `part` of slice s of pair i (the whole slice if part.whole()), written to its part
    // of the slice's unit; then, every slice written, the pair's table files from its units:
    // its wdl files, the parts of each class's distance file (any worker, once the wdl files
    // are written), their assembly (parts[c]: class c's count of parts).
    void run_slice_part(std::size_t i, int s, UnitPart part);
    void write_wdl_from_units(std::size_t i);
    // The same in parts, for large classes (pair_in_units.hpp): class c's estimate, the choice,
    // part `part` of the `file`-th wdl file that keeps values, the assembly (`parts` a file).
    void estimate_wdl(std::size_t i, int c);
    void choose_wdl(std::size_t i);
    void write_wdl_part(std::size_t i, int file, UnitPart part);
    void assemble_wdl(std::size_t i, int parts);
    void write_distance_part(std::size_t i, int c, UnitPart part);
    void assemble_distance(std::size_t i, const std::vector<int>& parts);
    // Before a cut pair i resumes, every slice written: whether its wdl files are, and whether
    // each part of each class's distance file is (parts[c] to class c, in class then part order).
    bool wdl_written(std::size_t i);
    bool wdl_estimate_written(std::size_t i, int c);
    bool wdl_choice_written(std::size_t i);
    std::vector<bool> wdl_parts_written(std::size_t i, const std::vector<int>& parts);
    std::vector<bool> distance_parts_written(std::size_t i, const std::vector<int>& parts);
    // Before a cut pair i resumes (its files not complete): whether each range of each slice is
    // written, ranges_by_slice[s] ranges to slice s, in slice then range order. The slices
    // written count from the first; of the first slice not written, the ranges whose parts are
    // (all of them removed if they do not cover it); the units of later slices are removed.
    std::vector<bool> slice_parts_written(std::size_t i, const std::vector<int>& ranges_by_slice);

    const GenerateSummary& summary() const;

  private:
    struct State;
    std::unique_ptr<State> state_;
};

// The units of work of a run over several workers (gen/plan/work_graph.hpp) on a runner: which
// are complete (their files checked: the pairs skipped, the ranges of cut pairs resumed), one
// flag a node; and one unit done.
std::vector<bool> complete_work(PairRunner& work, const WorkGraph& graph);
void run_work(PairRunner& work, const WorkGraph& graph, std::size_t n);

}  // namespace damas
