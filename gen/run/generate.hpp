// The generation driver: which classes to build, in what order, skipping finished ones, and
// having their files written (gen/write/pair_writer.hpp).
//
// Owns: the batch over classes, as planned by gen/plan/plan.hpp within a memory budget, one pair at
// a time by a PairRunner (gen/run/pair_runner.hpp), the unit of work damas-mpi hands out. Classes
// are solved in dependency order (index/material.hpp), a class together with its mirror
// (gen/solve/solver.hpp). Each class gives two files, WDL and DTW (table/format.hpp), written
// atomically; of a pair, one wdl file may get the mirror layout (mirror_wdl below), written last;
// which layout and codec each wdl file gets is gen/write/wdl_policy.hpp's. A rerun verifies the
// files of a pair and skips it, so a killed run loses at most the pair in progress, or, for a pair
// solved in units (gen/units/unit_file.hpp), the slice in progress. Before starting, the memory the
// run needs is planned and the run refused if the budget cannot hold it. Memory: when the whole run
// fits, every solved class below the largest size stays in memory (2 bytes per position) for the
// lookups of later classes, and a class of the largest size until the last pair that crowns into it
// is solved, so none is read twice; otherwise the store holds what the current pair reads.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>

#include "folder/files.hpp"
#include "folder/run_record.hpp"
#include "gen/options.hpp"
#include "gen/plan/plan.hpp"
#include "gen/process/progress.hpp"
#include "gen/run/pair_runner.hpp"
#include "gen/run/run_steps.hpp"
#include "gen/run/summary.hpp"
#include "index/material.hpp"
#include "rules/variant.hpp"

namespace damas {

// Runs a generation in this process: the steps of GenerationRun in order, every pair in turn.
GenerateSummary generate(const GenerateOptions& options, Progress& progress);

// The run as the manifest records it (folder/run_record.hpp).
RunDescription run_description(const GenerateOptions& options);

// The steps of a generation run (gen/run/run_steps.hpp).
class GenerationRun : public RunSteps {
  public:
    // Plans the run within its memory budget (gen/plan/plan.hpp); throws Error on bad options.
    explicit GenerationRun(const GenerateOptions& options);
    ~GenerationRun() override;

    const GenerationPlan& plan() const;
    const PairGraph& graph() const override;
    // Announces the plan; throws Error if it needs more memory than its budget.
    void check_fits(Progress& progress) const;
    // Before start, in a run on one process: classes that later pairs load again are kept in
    // solved class files between (PairRunner::use_solved_files).
    void use_solved_files();
    // Also prepares the process for the pairs (malloc's settings).
    void start(bool holds_folder, Progress& progress, Progress& work_progress) override;
    PairRunner& work() override;
    // Also removes the solved class files left, and the units folder if that empties it.
    void finish() override;
    // The runner's summary, with the seconds since the run was planned.
    GenerateSummary summary() const;

  private:
    struct State;
    std::unique_ptr<State> state_;
};

}  // namespace damas
