// The steps of a run, whatever it makes (the tables: GenerationRun, gen/run/generate.hpp; the
// rule tables: RuleGenerationRun, gen/limits/rule_generate.hpp), in the order every driver takes
// them: `damas` runs them in one process (run_in_process), damas-mpi on every rank, the ranks
// agreeing after each, with rank 0 holding the folder and handing out the pairs
// (docs/distributed.md).
#pragma once

#include <cstddef>

#include "gen/plan/pair_graph.hpp"
#include "gen/process/progress.hpp"

namespace damas {

// The pairs of a run, solved one at a time, each from the files of the pairs it reads, so any
// worker can take a pair once those are complete. Not thread-safe: one per worker.
class PairWork {
  public:
    virtual ~PairWork() = default;
    // Whether pair i's files are complete (checked); if so, counts it as skipped.
    virtual bool skip_if_complete(std::size_t i) = 0;
    // Solves pair i and writes its files, unless skip_if_complete(i); the files of the pairs it
    // reads must be complete.
    virtual void run(std::size_t i) = 0;
};

class RunSteps {
  public:
    RunSteps() = default;
    virtual ~RunSteps() = default;
    RunSteps(const RunSteps&) = delete;
    RunSteps& operator=(const RunSteps&) = delete;

    // The run's pairs, in solving order, and which read which.
    virtual const PairGraph& graph() const = 0;
    // The thread limit (held until the run ends) and, where this process holds the folder, the
    // writer's lock and the run in the manifest (throws Error if another run holds it); then the
    // pairs' worker, which reports to `work_progress`.
    virtual void start(bool holds_folder, Progress& progress, Progress& work_progress) = 0;
    virtual PairWork& work() = 0;  // after start
    // Once every pair is done, where this process holds the folder: every file in the manifest.
    virtual void finish() = 0;
};

// Every pair in turn in this process, which holds the folder, between start and finish.
void run_in_process(RunSteps& run, Progress& progress);

}  // namespace damas
