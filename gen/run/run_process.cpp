#include "gen/run/run_process.hpp"

namespace damas {

RunProcess::RunProcess() = default;
RunProcess::~RunProcess() = default;

void RunProcess::start(int threads, bool holds_folder, const RunDescription& run,
                       const std::vector<Material>& classes, Progress& progress) {
    thread_limit_ = std::make_unique<tbb::global_control>(
        tbb::global_control::max_allowed_parallelism, static_cast<std::size_t>(threads));
    // One writer at a time; the plan in the manifest.
    if (holds_folder) writer_.emplace(run, classes, progress.messenger());
}

void RunProcess::finish() {
    if (writer_) writer_->finish();
}

double RunProcess::seconds() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
}

}  // namespace damas
