#include "folder/run_record.hpp"

#include <nlohmann/json.hpp>

namespace damas {

std::string selection_options_json(const ClassSelection& s) {
    nlohmann::json j;
    j["variant"] = s.variant.name();
    j["pieces"] = s.max_pieces;
    j["max_per_side"] = s.max_per_side;
    j["class"] = s.only ? s.only->name() : std::string();
    return j.dump();
}

WriterRun::WriterRun(const RunDescription& run, const std::vector<Material>& classes,
                     const std::function<void(const std::string&)>& message)
    : run_(run), classes_(classes), lock_(run.dir, run.variant) {
    if (lock_.stale_holder())
        message("took over the writer's lock of " + (run.dir / run.variant.name()).string() +
                " left by a run that did not finish (" + *lock_.stale_holder() + ")");
    begin_run(run.dir, run.variant, run.kind, classes, run.options_json, run.durable, run.mtc);
}

void WriterRun::finish() {
    finish_run(run_.dir, run_.variant, run_.kind, classes_, run_.durable);
}

}  // namespace damas
