#include "gen/limits/rule_generate.hpp"

#include <tbb/blocked_range.h>
#include <tbb/global_control.h>
#include <tbb/parallel_for.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <set>
#include <string>
#include <thread>

#include "folder/files.hpp"
#include "folder/run_record.hpp"
#include "gen/limits/rule_solver.hpp"
#include "gen/plan/pair_graph.hpp"
#include "gen/process/threads.hpp"
#include "gen/run/run_process.hpp"
#include "gen/write/writer.hpp"
#include "index/class_index.hpp"
#include "rules/error.hpp"
#include "rules/movegen.hpp"
#include "table/table_file.hpp"

#include <unistd.h>

namespace damas {
namespace {

struct ClassReport {
    std::uint64_t bytes = 0;
    std::uint64_t pure_wins = 0;
    std::uint64_t wins_drawn = 0;
};

// The stored form: capture positions unknown (the probe searches them).
template <class R>
std::vector<std::uint8_t> capture_flags(const ClassIndex& index) {
    std::vector<std::uint8_t> capture(index.size());
    tbb::parallel_for(tbb::blocked_range<std::uint64_t>(0, index.size(), 4096),
                      [&](const tbb::blocked_range<std::uint64_t>& r) {
                          index.for_each_position(
                              r.begin(), r.end(), [&](std::uint64_t i, const Position& p) {
                                  capture[i] = MoveGenerator<R>::has_capture(p) ? 1 : 0;
                              });
                      });
    return capture;
}

TableInfo table_info(const Variant& v, Material m) {
    return {v,
            {static_cast<std::uint8_t>(m.white_men), static_cast<std::uint8_t>(m.white_kings),
             static_cast<std::uint8_t>(m.black_men), static_cast<std::uint8_t>(m.black_kings)},
            generator_version()};
}

// Whether every rule file of class m is complete (gen/write/writer.hpp: table_complete).
bool class_complete(const RuleGenerateOptions& o, const DrawRules& rules, Material m) {
    const std::uint64_t n = ClassIndex(o.variant.info().board, m).size();
    for (const Metric metric : rule_metrics(rules, m)) {
        if (!table_complete(table_path(o.dir, o.variant, m.name(), metric),
                            table_info(o.variant, m), metric, table_positions(metric, n)))
            return false;
    }
    return true;
}

// A complete class read back from its files, for the lookups of larger classes.
RuleClass read_class(const RuleGenerateOptions& o, const DrawRules& rules, Material m,
                     const RuleStore& store) {
    std::vector<std::vector<std::uint16_t>> stored;
    for (const Regime r : regimes_of(rules, m)) {
        const Metric metric = metric_of(rules, r);
        const TableFile f(table_path(o.dir, o.variant, m.name(), metric), {o.variant, m, metric});
        stored.emplace_back(f.size());
        f.read_all(stored.back());
    }
    return restore_rule_class(rules, m, std::move(stored), store);
}

std::string mismatch(Material m, std::uint64_t i, const char* what) {
    std::string s = "class ";
    s += m.name();
    s += " position ";
    s += std::to_string(i);
    s += ": ";
    s += what;
    return s;
}

template <class R>
ClassReport write_class(const RuleGenerateOptions& o, const DrawRules& rules, const RuleClass& c) {
    const ClassIndex index(rules.variant.info().board, c.material);
    const std::vector<std::uint8_t> capture = capture_flags<R>(index);
    std::vector<std::uint8_t> pure;
    if (o.check_pure) {
        const Material m = c.material;
        const TableFile wdl(table_path(o.dir, o.variant, m.name(), Metric::wdl),
                            {o.variant, m, Metric::wdl});
        const TableFile dtw(table_path(o.dir, o.variant, m.name(), Metric::dtw),
                            {o.variant, m, Metric::dtw});
        pure = read_wdl_values(wdl, dtw);
    }
    ClassReport report;
    const TableInfo info = table_info(o.variant, c.material);
    // One file of values; value v is of position v % size (gap tables hold several tables).
    const auto write = [&](Metric metric, std::vector<std::uint16_t> values) {
        for (std::uint64_t v = 0; v < values.size(); ++v) {
            const std::uint64_t i = v % index.size();
            if (capture[i]) {
                values[v] = dtw_unknown;
                continue;
            }
            if (values[v] == dtw_unknown) continue;  // not a state of this regime
            if (!o.check_pure) continue;
            const std::uint8_t rule = dtr_outcome(values[v]);
            if (rule != wdl_draw && rule != pure[i])
                throw Error(mismatch(c.material, i, "a rule result differs from the pure value"));
            if (pure[i] == wdl_draw && rule != wdl_draw)
                throw Error(mismatch(c.material, i, "a pure draw is decided under the rules"));
        }
        WriteOptions wo;
        wo.durable = o.durable;
        wo.threads = static_cast<unsigned>(std::max(1, o.threads));
        report.bytes += write_dtr_table(table_path(o.dir, o.variant, c.material.name(), metric),
                                        info, metric, values, wo)
                            .file_size;
    };
    for (std::size_t r = 0; r < c.regimes.size(); ++r)
        write(metric_of(rules, c.regimes[r]), c.dtr[r]);
    if (!c.forcada_gaps.empty()) write(Metric::dtr_forcada_gaps, c.forcada_gaps);
    if (o.check_pure) {  // pure wins that the count started now does not win
        index.for_each_position(0, index.size(), [&](std::uint64_t i, const Position& p) {
            if (capture[i] || pure[i] != wdl_win) return;
            ++report.pure_wins;
            // Decided means won here: a rule value agrees with the pure one (checked above).
            if (!decided_by_fresh_count(rules, p, c.regimes, c.dtr, i)) ++report.wins_drawn;
        });
    }
    return report;
}

}  // namespace

RunDescription run_description(const RuleGenerateOptions& o) {
    nlohmann::json j = nlohmann::json::parse(selection_options_json(o));
    j["edition"] = edition_name(o.edition);
    j["rules_version"] = format::rules_version;
    return {o.dir, o.variant, RunKind{true, o.edition}, j.dump(), o.durable, {}};
}

std::vector<Material> rule_run_classes(const RuleGenerateOptions& o) {
    std::vector<Material> classes = planned_classes(o);
    if (classes.empty()) throw Error("no class to solve");
    return classes;
}

DrawRules checked_draw_rules(const RuleGenerateOptions& o) {
    DrawRules rules = draw_rules(o.variant, o.edition);
    if (!rules.any())
        throw Error(o.variant.name() + " has no move-limit draw rules: its pure tables are exact");
    return rules;
}

namespace {

PairGraph rule_pair_graph(const Variant& v, const std::vector<Material>& classes) {
    std::vector<Material> pairs;
    std::vector<std::uint64_t> positions;
    std::set<Material> seen;
    for (const Material m : classes) {
        if (!seen.insert(m).second) continue;
        seen.insert(m.mirrored());
        pairs.push_back(m);
        const std::uint64_t n = ClassIndex(v.info().board, m).size();
        positions.push_back(m == m.mirrored() ? n : 2 * n);
    }
    return pair_graph(pairs, positions);
}

}  // namespace

RulePairRunner::RulePairRunner(const RuleGenerateOptions& o, Progress& progress)
    : options_(o),
      rules_(checked_draw_rules(o)),
      graph_(rule_pair_graph(o.variant, rule_run_classes(o))),
      store_(rules_),
      progress_(progress) {
    options_.threads = std::max(1, checked_threads(o.threads, "threads"));
}

bool RulePairRunner::skip_if_complete(std::size_t i) {
    const Material m = graph_.pairs.at(i);
    const bool single = m == m.mirrored();
    if (!class_complete(options_, rules_, m) ||
        (!single && !class_complete(options_, rules_, m.mirrored())))
        return false;
    summary_.classes_skipped += single ? 1 : 2;
    progress_.message(pair_label(m) + " complete, skipped");
    return true;
}

// The classes pair i reads, and what restoring them from their files reads, in the order they
// were solved: read back from their files where the store lacks them.
void RulePairRunner::load_inputs(std::size_t i) {
    std::set<std::size_t> inputs;
    std::vector<std::size_t> todo(graph_.needs.at(i));
    while (!todo.empty()) {
        const std::size_t n = todo.back();
        todo.pop_back();
        if (inputs.insert(n).second)
            todo.insert(todo.end(), graph_.needs[n].begin(), graph_.needs[n].end());
    }
    for (const std::size_t n : inputs)  // ascending: a class's own inputs are read before it
        for (const Material c : {graph_.pairs[n], graph_.pairs[n].mirrored()})
            if (!store_.has(c)) store_.add(read_class(options_, rules_, c, store_));
}

void RulePairRunner::run(std::size_t i) {
    if (skip_if_complete(i)) return;
    const Material m = graph_.pairs.at(i);
    const std::string label = pair_label(m);
    const auto t0 = std::chrono::steady_clock::now();
    load_inputs(i);
    std::vector<RuleClass> results = solve_rule_pair(rules_, m, store_);
    for (RuleClass& c : results) {
        const ClassReport r = dispatch(options_.variant.base, [&](auto rule_set) {
            return write_class<decltype(rule_set)>(options_, rules_, c);
        });
        summary_.bytes_written += r.bytes;
        summary_.pure_wins += r.pure_wins;
        summary_.wins_drawn_by_rules += r.wins_drawn;
        summary_.positions += c.dtr[0].size();
        ++summary_.classes;
        store_.add(std::move(c));
    }
    const double secs =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    char note[160];
    std::snprintf(note, sizeof note, "%s: rule values in %.2f s", label.c_str(), secs);
    progress_.message(note);
}

struct RuleGenerationRun::State {
    RuleGenerateOptions options;
    std::vector<Material> classes;
    PairGraph graph;
    RunProcess process;
    std::optional<RulePairRunner> runner;
};

RuleGenerationRun::RuleGenerationRun(const RuleGenerateOptions& options)
    : state_(std::make_unique<State>()) {
    state_->options = options;
    checked_draw_rules(options);
    state_->classes = rule_run_classes(options);
    // The rule tables are made from the dtw files: a class generated with mtc is refused before
    // the run records its plan.
    for (const Material m : state_->classes)
        if (!std::filesystem::exists(
                table_path(options.dir, options.variant, m.name(), Metric::dtw)) &&
            std::filesystem::exists(
                table_path(options.dir, options.variant, m.name(), Metric::mtc)))
            throw Error("class " + m.name() +
                        " has mtc, not dtw: the rule tables are made from dtw files (generate "
                        "it with --metric dtw)");
    state_->graph = rule_pair_graph(options.variant, state_->classes);
}

RuleGenerationRun::~RuleGenerationRun() = default;

const std::vector<Material>& RuleGenerationRun::classes() const {
    return state_->classes;
}

const PairGraph& RuleGenerationRun::graph() const {
    return state_->graph;
}

void RuleGenerationRun::start(bool holds_folder, Progress& progress, Progress& work_progress) {
    const RuleGenerateOptions& o = state_->options;
    state_->process.start(std::max(1, checked_threads(o.threads, "threads")), holds_folder,
                          run_description(o), state_->classes, progress);
    state_->runner.emplace(o, work_progress);
}

RulePairRunner& RuleGenerationRun::work() {
    return *state_->runner;
}

void RuleGenerationRun::finish() {
    state_->process.finish();
}

RuleGenerateSummary RuleGenerationRun::summary() const {
    RuleGenerateSummary s = state_->runner->summary();
    s.seconds = state_->process.seconds();
    return s;
}

RuleGenerateSummary generate_rules(const RuleGenerateOptions& o, Progress& progress) {
    RuleGenerationRun run(o);
    run_in_process(run, progress);
    return run.summary();
}

}  // namespace damas
