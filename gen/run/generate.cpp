#include "gen/run/generate.hpp"

#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>

#include "folder/run_record.hpp"
#include "gen/plan/plan.hpp"
#include "gen/process/resources.hpp"
#include "gen/process/threads.hpp"
#include "gen/run/pair_runner.hpp"
#include "gen/run/run_process.hpp"
#include "gen/solve/solver.hpp"
#include "rules/error.hpp"

namespace damas {

RunDescription run_description(const GenerateOptions& o) {
    nlohmann::json j = nlohmann::json::parse(selection_options_json(o));
    j["mirror_wdl"] = o.mirror_wdl;
    j["wdl_codec"] = o.wdl_codec ? block_codec(*o.wdl_codec).name() : "auto";
    j["dtw_codec"] = block_codec(o.distance_codec).name();
    RunDescription run{o.dir, o.variant, RunKind{}, "", o.durable, {}};
    if (o.metric == Metric::mtc) {
        j["metric"] = "mtc";
        j["dtw_pieces"] = o.dtw_pieces;
        j["mtc_codec"] = block_codec(o.mtc_codec).name();
        j["mirror_mtc"] = o.mirror_mtc;
        j["mtc_fold"] = o.mtc_fold;
        for (const Material m : planned_classes(o))
            if (distance_metric(o, m) == Metric::mtc) run.mtc.insert(m);
    }
    run.options_json = j.dump();
    return run;
}

namespace {

std::string gib(double bytes) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2f GiB", bytes / (1024.0 * 1024.0 * 1024.0));
    return buf;
}

}  // namespace

namespace {

void check_plan_fits(const GenerateOptions& o, const GenerationPlan& plan, Progress& progress) {
    std::string how = plan.bounded ? "bounded: " + std::to_string(plan.units) + " units" : "whole";
    progress.message("damas gen: " + o.variant.name() + ", " + std::to_string(plan.classes.size()) +
                     " classes, needs about " + gib(static_cast<double>(plan.peak_bytes)) +
                     " of memory (budget " + gib(static_cast<double>(plan.budget_bytes)) + ", " +
                     how + ")");
    if (plan.peak_bytes > plan.budget_bytes)
        throw Error("this run needs about " + gib(static_cast<double>(plan.peak_bytes)) +
                    " of memory but the budget is " + gib(static_cast<double>(plan.budget_bytes)) +
                    (o.memory_bytes ? "" : " (three quarters of the available memory)") +
                    "; raise --memory, or use fewer pieces or --max-per-side");
}

// After a run: the solved class files a killed run left (of classes this run did not load
// again), and the units folder if that leaves it empty.
void remove_empty_units_dir(const GenerateOptions& o) {
    std::error_code ec;
    const std::filesystem::path dir = units_dir(o.dir, o.variant);
    for (const auto& e : std::filesystem::directory_iterator(dir, ec)) {
        const std::string name = e.path().filename().string();
        if (name.ends_with(".solved") || name.ends_with(".solved.tmp"))
            std::filesystem::remove(e.path(), ec);
    }
    std::filesystem::remove(dir, ec);  // only if empty
}

}  // namespace

struct GenerationRun::State {
    GenerateOptions options;
    GenerationPlan plan;
    PairGraph graph;
    bool use_solved_files = false;
    RunProcess process;
    std::unique_ptr<PairRunner> runner;
};

GenerationRun::GenerationRun(const GenerateOptions& options) : state_(std::make_unique<State>()) {
    state_->options = options;
    checked_threads(options.threads, "threads");  // before the plan counts them
    check_solvable(options.variant, options.metric);
    state_->plan = plan_generation(options);
    state_->graph = plan_graph(state_->plan);
}

GenerationRun::~GenerationRun() = default;

const GenerationPlan& GenerationRun::plan() const {
    return state_->plan;
}

const PairGraph& GenerationRun::graph() const {
    return state_->graph;
}

void GenerationRun::use_solved_files() {
    state_->use_solved_files = true;
}

void GenerationRun::check_fits(Progress& progress) const {
    check_plan_fits(state_->options, state_->plan, progress);
}

void GenerationRun::start(bool holds_folder, Progress& progress, Progress& work_progress) {
    const GenerateOptions& o = state_->options;
    prepare_generation_process();
    state_->process.start(checked_threads(o.threads, "threads"), holds_folder, run_description(o),
                          state_->plan.classes, progress);
    state_->runner = std::make_unique<PairRunner>(o, state_->plan, work_progress);
    if (state_->use_solved_files) state_->runner->use_solved_files();
}

PairRunner& GenerationRun::work() {
    return *state_->runner;
}

void GenerationRun::finish() {
    if (!state_->process.holds_folder()) return;
    remove_empty_units_dir(state_->options);
    state_->process.finish();
}

GenerateSummary GenerationRun::summary() const {
    GenerateSummary s = state_->runner->summary();
    s.seconds = state_->process.seconds();
    return s;
}

GenerateSummary generate(const GenerateOptions& o, Progress& progress) {
    GenerationRun run(o);
    run.check_fits(progress);
    run.use_solved_files();
    run_in_process(run, progress);
    return run.summary();
}

}  // namespace damas
