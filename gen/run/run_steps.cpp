#include "gen/run/run_steps.hpp"

namespace damas {

void run_in_process(RunSteps& run, Progress& progress) {
    run.start(true, progress, progress);
    for (std::size_t i = 0; i < run.graph().pairs.size(); ++i) run.work().run(i);
    run.finish();
}

}  // namespace damas
