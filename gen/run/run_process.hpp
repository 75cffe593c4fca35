// What a run holds in each process while it works on a folder, whatever it makes (the tables:
// GenerationRun, gen/run/generate.hpp; the rule tables: RuleGenerationRun,
// gen/limits/rule_generate.hpp): its clock, the thread limit, and where the process holds the
// folder, the writer's lock and the run's record in the manifest (folder/run_record.hpp).
#pragma once

#include <tbb/global_control.h>

#include <chrono>
#include <memory>
#include <optional>
#include <vector>

#include "folder/run_record.hpp"
#include "gen/process/progress.hpp"

namespace damas {

class RunProcess {
  public:
    RunProcess();  // starts the clock
    ~RunProcess();
    RunProcess(const RunProcess&) = delete;
    RunProcess& operator=(const RunProcess&) = delete;

    // Limits the process to `threads` threads until the run ends; where `holds_folder`, takes
    // the writer's lock (throws Error if another run holds it) and records `run` and its classes
    // in the manifest.
    void start(int threads, bool holds_folder, const RunDescription& run,
               const std::vector<Material>& classes, Progress& progress);
    // Where this process holds the folder: every file of the classes in the manifest.
    void finish();
    bool holds_folder() const { return writer_.has_value(); }
    double seconds() const;

  private:
    std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
    std::unique_ptr<tbb::global_control> thread_limit_;
    std::optional<WriterRun> writer_;
};

}  // namespace damas
