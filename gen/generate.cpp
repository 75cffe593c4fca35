#include "gen/generate.hpp"

#include <tbb/global_control.h>

#include <malloc.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <thread>

#include "gen/compact_solver.hpp"
#include "gen/huge_pages.hpp"
#include "gen/pair_graph.hpp"
#include "gen/pair_runner.hpp"
#include "gen/pair_writer.hpp"
#include "gen/plan.hpp"
#include "gen/run_record.hpp"
#include "gen/solved_store.hpp"
#include "gen/solver.hpp"
#include "gen/threads.hpp"
#include "gen/writer.hpp"
#include "index/class_index.hpp"
#include "rules/error.hpp"

namespace damas {
namespace {

std::string gib(double bytes) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2f GiB", bytes / (1024.0 * 1024.0 * 1024.0));
    return buf;
}

// The process's CPU time so far (all threads), to tell a busy host from a slow pair.
double cpu_seconds() {
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    const auto seconds = [](const timeval& t) {
        return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) * 1e-6;
    };
    return seconds(u.ru_utime) + seconds(u.ru_stime);
}

// Starts measuring a pair's peak resident memory (clear_refs 5 sets VmHWM to what is resident
// now), once the classes the pair before kept and this one does not need are dropped: measured
// from the pair before's end, a pair's peak counted what that one kept (international 2-6:
// 1050 + 5010 measured 10.5 GiB, planned 5.6).
void reset_peak_resident() {
    // What was freed goes back to the system first (malloc keeps freed heap memory of its
    // arenas otherwise).
    ::malloc_trim(0);
    std::ofstream("/proc/self/clear_refs") << "5";
}

// The process's peak resident memory since the last reset (VmHWM), 0 if unknown.
std::uint64_t peak_resident_bytes() {
    std::uint64_t kib = 0;
    {
        std::ifstream status("/proc/self/status");
        std::string key;
        while (status >> key)
            if (key == "VmHWM:") {
                status >> kib;
                break;
            }
    }
    return kib * 1024;
}

}  // namespace

const char* generator_version() {
    return "damas-gen 0.1.0";
}

std::filesystem::path default_database_dir() {
    if (const char* env = std::getenv("DAMAS_DB"); env && *env) return env;
    return "db";
}

std::vector<Material> planned_classes(const GenerateOptions& o) {
    const int max_pieces = o.only ? o.only->pieces() : o.max_pieces;
    std::vector<Material> all = classes_up_to(max_pieces);
    if (o.max_per_side > 0)
        std::erase_if(all, [&](Material m) {
            return m.white() > o.max_per_side || m.black() > o.max_per_side;
        });
    if (!o.only) return all;
    std::set<Material> needed{*o.only, o.only->mirrored()};
    std::vector<Material> todo(needed.begin(), needed.end());
    while (!todo.empty()) {
        const Material m = todo.back();
        todo.pop_back();
        // A class is solved with its mirror, so the mirror's dependencies are needed too.
        for (Material d : dependencies(m))
            for (Material e : {d, d.mirrored()})
                if (needed.insert(e).second) todo.push_back(e);
    }
    std::erase_if(all, [&](Material m) { return !needed.count(m); });
    return all;
}

namespace {

// The classes of `top` pieces that m or its mirror reach in one move (by crowning).
std::set<Material> top_dependencies(Material m, int top) {
    std::set<Material> out;
    for (Material c : {m, m.mirrored()})
        for (Material d : dependencies(c))
            if (d.pieces() == top) out.insert(d);
    return out;
}

// For a run that keeps the solved classes: for each class of the top size, the last pair that
// needs it in memory (the one that solves it or the last one that crowns into it). It is freed
// after that pair, so no class is ever read twice.
struct TopUses {
    std::map<Material, std::size_t> last_use;

    TopUses(const std::vector<PairStep>& pairs, int top) {
        for (std::size_t i = 0; i < pairs.size(); ++i) {
            const Material m = pairs[i].material;
            if (m.pieces() != top) continue;
            for (Material d : top_dependencies(m, top)) last_use[d] = i;
            last_use[m] = last_use[m.mirrored()] = i;
        }
    }
    // The classes of the top size still needed at pair i or later.
    std::set<Material> needed_from(std::size_t i) const {
        std::set<Material> out;
        for (const auto& [m, last] : last_use)
            if (last >= i) out.insert(m);
        return out;
    }
};

// Removes the pair's unit files of slices `from` on (and what a killed writer left of them).
void remove_units(const GenerateOptions& o, Material m, int slices, int from = 0) {
    for (int s = from; s < slices; ++s) {
        const std::filesystem::path path = unit_path(o.dir, o.variant, m, s);
        std::error_code ec;
        std::filesystem::remove(path, ec);
        std::filesystem::path tmp = path;
        tmp += ".tmp";
        std::filesystem::remove(tmp, ec);
    }
}

// The first slice of the pair without a unit file: where a rerun continues.
int first_missing_unit(const GenerateOptions& o, const PairLayout& layout) {
    int s = 0;
    while (s < layout.slice_count() &&
           std::filesystem::exists(unit_path(o.dir, o.variant, layout.material(0), s)))
        ++s;
    return s;
}

std::unique_ptr<UnitReader> open_pair_unit(const GenerateOptions& o, const PairLayout& layout,
                                           int s) {
    return std::make_unique<UnitReader>(unit_path(o.dir, o.variant, layout.material(0), s),
                                        o.variant, layout, s);
}

bool unit_opens(const GenerateOptions& o, const PairLayout& layout, int s) {
    try {
        open_pair_unit(o, layout, s);
        return true;
    } catch (const DamagedUnit&) {
        return false;
    }
}

// Whether slice s of a pair in units goes to the byte-a-position solver: every slice of a
// compact pair whose men configurations it splits, else those the other solver would solve whole
// (gen/compact_solver.hpp).
bool slice_by_bytes(const GenerateOptions& o, const PairLayout& layout, bool compact, int s) {
    if (!compact) return false;
    if (compact_splits_configurations(layout.kings_per_men())) return true;
    const int threads = static_cast<int>(
        tbb::global_control::active_value(tbb::global_control::max_allowed_parallelism));
    return !slice_in_components(o.variant, layout.index(0), s, threads);
}

// Solves slices [first, end) of the pair by one solver, each written to its unit file.
void solve_unit_range(const GenerateOptions& o, const PairLayout& layout, const SolvedStore& store,
                      int first, int end, bool by_bytes, Progress& progress, SolveTimes& times,
                      GenerateSummary& summary) {
    const Material m = layout.material(0);
    const auto open_unit = [&](int s) { return open_pair_unit(o, layout, s); };
    const auto update = [&](std::uint64_t d, std::uint64_t) { progress.update(d); };
    SolveTimes range;
    if (by_bytes) {
        // Whole configurations per chunk where the other solver may read the unit next.
        const bool split = compact_splits_configurations(layout.kings_per_men());
        solve_slices_compact(
            o.variant, layout, store, first,
            [&](int slice, const SliceChunkFn& values) {
                write_unit(unit_path(o.dir, o.variant, m, slice), o.variant, layout, slice, values,
                           split);
                ++summary.units_written;
            },
            open_unit,
            [&](int s) {
                ++summary.units_written;
                return std::make_unique<UnitStream>(unit_path(o.dir, o.variant, m, s), o.variant,
                                                    layout, s, split);
            },
            update, &range, end);
    } else {
        solve_slices(
            o.variant, layout, store, first, {},
            [&](const SliceValues& slice) {
                write_unit(unit_path(o.dir, o.variant, m, slice.slice), o.variant, layout, slice);
                ++summary.units_written;
            },
            update, &range, SliceSolving::automatic, open_unit,
            [&](int s) {
                ++summary.units_written;
                return std::make_unique<UnitStream>(unit_path(o.dir, o.variant, m, s), o.variant,
                                                    layout, s);
            },
            end);
    }
    times.initialise += range.initialise;
    times.resolve += range.resolve;
    times.components += range.components;
}

// Solves the slices of the pair that have no unit file yet, each written to its unit file as
// soon as it is solved, the slice before read back from its unit file. A damaged unit file is
// solved again, with every slice after it.
void solve_units(const GenerateOptions& o, const PairLayout& layout, const SolvedStore& store,
                 bool compact, Progress& progress, SolveTimes& times, GenerateSummary& summary) {
    const Material m = layout.material(0);
    for (bool retry = false;; retry = true) {
        int first = first_missing_unit(o, layout);
        while (first > 0 && !unit_opens(o, layout, first - 1)) --first;  // damaged: again
        remove_units(o, m, layout.slice_count(), first);
        if (!retry) summary.units_resumed += static_cast<std::uint64_t>(first);
        if (first > 0 && !retry)
            progress.message(pair_label(m) + ": " + std::to_string(first) + " of " +
                             std::to_string(layout.slice_count()) + " units complete, resumed");
        try {
            for (int s = first; s < layout.slice_count();) {
                const bool by_bytes = slice_by_bytes(o, layout, compact, s);
                int end = s + 1;
                while (end < layout.slice_count() &&
                       slice_by_bytes(o, layout, compact, end) == by_bytes)
                    ++end;
                solve_unit_range(o, layout, store, s, end, by_bytes, progress, times, summary);
                s = end;
            }
            return;
        } catch (const DamagedUnit& d) {
            remove_units(o, m, layout.slice_count(), d.slice);
            progress.message(pair_label(m) + ": unit " + std::to_string(d.slice) +
                             " is damaged; solving it again");
        }
    }
}

// Writes the pair's table files from its units, and the solved class files of the classes
// `loaded_again` names from the same pass (their DTW).
std::uint64_t write_from_units(const GenerateOptions& o, const PairLayout& layout,
                               const PairStep& step,
                               const std::function<bool(Material)>& loaded_again) {
    std::vector<std::unique_ptr<SolvedClassWriter>> solved(
        static_cast<std::size_t>(layout.classes()));
    for (int c = 0; c < layout.classes(); ++c)
        if (loaded_again && loaded_again(layout.material(c)))
            solved[static_cast<std::size_t>(c)] = std::make_unique<SolvedClassWriter>(
                solved_class_path(o.dir, o.variant, layout.material(c)), o.variant,
                layout.material(c), layout.index(c).size());
    const std::uint64_t bytes =
        write_pair(o, *units_source(o, layout, step.wdl_packed,
                                    [&](int c, std::span<const std::uint16_t> outcomes) {
                                        if (auto& w = solved[static_cast<std::size_t>(c)])
                                            w->append(outcomes);
                                    }));
    for (auto& w : solved)
        if (w) w->close();
    return bytes;
}

// Solves the pair in units and writes its table files from them; returns the bytes written.
// A damaged unit file found while writing is solved again, with every slice after it.
std::uint64_t solve_and_write_in_units(const GenerateOptions& o, Material m, SolvedStore& store,
                                       const PairStep& step, Progress& progress, SolveTimes& times,
                                       GenerateSummary& summary,
                                       std::chrono::steady_clock::time_point& solved,
                                       const std::function<bool(Material)>& loaded_again) {
    const PairLayout layout(o.variant.info().board, m);
    for (;;) {
        solve_units(o, layout, store, step.compact, progress, times, summary);
        solved = std::chrono::steady_clock::now();
        if (step.empty_store_before_writing) store.retain({});
        try {
            return write_from_units(o, layout, step, loaded_again);
        } catch (const DamagedUnit& d) {
            remove_units(o, m, layout.slice_count(), d.slice);
        }
        progress.message(pair_label(m) + ": a unit file is damaged; solving it again");
        store.load_below(m);
        store.load_below(m.mirrored());
    }
}

// For a run on a budget: for each class that some pair loads whole from the files, the last
// such pair. A class a later pair loads again gets a solved class file (gen/unit_file.hpp),
// removed after that pair.
std::map<Material, std::size_t> last_loads(const GenerationPlan& plan) {
    std::map<Material, std::size_t> last;
    for (std::size_t i = 0; i < plan.pairs.size(); ++i)
        for (const Material d : store_closure(plan.pairs[i].material))
            if (!plan.pairs[i].read_through.count(d)) last[d] = i;
    return last;
}

}  // namespace

struct PairRunner::State {
    const GenerateOptions& o;
    const GenerationPlan& plan;
    Progress& progress;
    TopUses top_uses;
    SolvedStore store;
    GenerateSummary summary;
    std::map<Material, std::size_t> last_load;  // with solved class files only
    std::size_t pair = 0;                       // the pair being run

    bool loaded_again(Material m) const {
        const auto it = last_load.find(m);
        return it != last_load.end() && it->second > pair;
    }
    // The solved class files no pair after pair i loads.
    void remove_solved_files_after(std::size_t i) const {
        for (const auto& [m, last] : last_load)
            if (last == i) {
                std::error_code ec;
                std::filesystem::remove(solved_class_path(o.dir, o.variant, m), ec);
            }
    }

    State(const GenerateOptions& options, const GenerationPlan& p, Progress& pr)
        : o(options),
          plan(p),
          progress(pr),
          top_uses(p.pairs, p.classes.back().pieces()),
          store(options.variant, options.dir) {
        summary.peak_bytes_estimate = p.peak_bytes;
        summary.budget_bytes = p.budget_bytes;
    }
};

PairRunner::PairRunner(const GenerateOptions& o, const GenerationPlan& plan, Progress& progress)
    : state_(std::make_unique<State>(o, plan, progress)) {}
PairRunner::~PairRunner() = default;

const GenerateSummary& PairRunner::summary() const {
    state_->summary.classes_loaded = state_->store.classes_loaded();
    state_->summary.classes_from_solved_files = state_->store.classes_from_solved_files();
    return state_->summary;
}

void PairRunner::use_solved_files() {
    if (!state_->plan.bounded) return;
    state_->last_load = last_loads(state_->plan);
    state_->store.use_solved_files(
        [state = state_.get()](Material m) { return state->loaded_again(m); });
}

bool PairRunner::skip_if_complete(std::size_t i) {
    const GenerateOptions& o = state_->o;
    const PairStep& step = state_->plan.pairs.at(i);
    const Material m = step.material;
    if (!pair_complete(o, m, ClassIndex(o.variant.info().board, m).size())) return false;
    remove_candidates(o, m);  // left by a run killed after its last step
    remove_units(o, m, step.slices);
    state_->remove_solved_files_after(i);
    state_->summary.classes_skipped += m == m.mirrored() ? 1 : 2;
    state_->progress.message(pair_label(m) + " complete, skipped");
    return true;
}

void PairRunner::run(std::size_t i) {
    const GenerateOptions& o = state_->o;
    const GenerationPlan& plan = state_->plan;
    Progress& progress = state_->progress;
    SolvedStore& store = state_->store;
    GenerateSummary& summary = state_->summary;
    const int top = plan.classes.back().pieces();
    const PairStep& step = plan.pairs.at(i);
    const Material m = step.material;
    const bool single = m == m.mirrored();
    state_->pair = i;
    if (skip_if_complete(i)) return;
    const auto loading = std::chrono::steady_clock::now();
    const double cpu0 = cpu_seconds();
    if (plan.bounded) {
        store.read_through(step.read_through, step.cache_bytes);
        store.retain(step.keep);
    } else
        store.evict(top, state_->top_uses.needed_from(i));
    reset_peak_resident();
    store.load_below(m);
    store.load_below(m.mirrored());
    const std::string label = pair_label(m);
    const auto t0 = loading;  // the pair's time includes loading what it reads
    const double loaded =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - loading).count();
    summary.load_seconds += loaded;
    progress.start(label + (step.in_units ? " (" + std::to_string(step.slices) + " units" +
                                                (step.compact ? ", a byte a position)" : ")")
                                          : ""),
                   step.positions);
    SolveTimes times;
    auto solved = t0;
    if (step.in_units) {
        ++summary.pairs_in_units;
        summary.bytes_written += solve_and_write_in_units(
            o, m, store, step, progress, times, summary, solved,
            state_->last_load.empty() ? std::function<bool(Material)>()
                                      : [this](Material c) { return state_->loaded_again(c); });
        remove_leftovers(o, m);
        remove_units(o, m, step.slices);
        summary.positions += step.positions;
        summary.classes_built += single ? 1 : 2;
        // Not kept: later pairs read it from its files.
    } else {
        std::vector<PairResult> results = solve_pair(
            o.variant, m, store, [&](std::uint64_t d, std::uint64_t) { progress.update(d); },
            &times);
        solved = std::chrono::steady_clock::now();
        summary.bytes_written += write_pair(o, *results_source(results));
        remove_leftovers(o, m);
        for (PairResult& r : results) {
            summary.positions += r.outcomes.size();
            ++summary.classes_built;
            store.add(r.material, std::move(r.outcomes), true);
        }
    }
    const double secs =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const double solving = std::chrono::duration<double>(solved - t0).count() - loaded;
    const double writing = secs - loaded - solving;
    const std::uint64_t peak = peak_resident_bytes();
    if (peak > summary.peak_resident_bytes) {
        summary.peak_resident_bytes = peak;
        summary.peak_pair = label;
    }
    char note[400];
    std::snprintf(note, sizeof note,
                  "%s: %llu positions in %.2f s (%.2f M pos/s; classes loaded in %.2f s; "
                  "solved in %.2f s: initialised in %.2f s, resolved in %.2f s; written in "
                  "%.2f s; CPU %.2f s; peak %.0f MiB, planned %.0f)",
                  label.c_str(), static_cast<unsigned long long>(step.positions), secs,
                  secs > 0 ? static_cast<double>(step.positions) / secs / 1e6 : 0.0, loaded,
                  solving, times.initialise, times.resolve, writing, cpu_seconds() - cpu0,
                  static_cast<double>(peak) / (1024.0 * 1024.0),
                  static_cast<double>(step.peak_bytes) / (1024.0 * 1024.0));
    progress.finish(note);
    state_->remove_solved_files_after(i);
}

void prepare_generation_process() {
    // Large buffers (slices, chunks, classes' values) are mapped and unmapped, never kept in
    // malloc's arenas: glibc raises its threshold after the first large free, after which blocks
    // up to 32 MiB came from the arenas and stayed there (english 2-6 --memory 512M peaked 160 MiB
    // above a pair's own peak, 680 against 518 MiB).
    ::mallopt(M_MMAP_THRESHOLD, 1 << 20);
}

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

GenerateSummary generate(const GenerateOptions& o, Progress& progress) {
    prepare_generation_process();
    const auto start = std::chrono::steady_clock::now();
    const int threads = checked_threads(o.threads, "threads");  // before the plan counts them
    const GenerationPlan plan = plan_generation(o);
    check_plan_fits(o, plan, progress);
    tbb::global_control limit(tbb::global_control::max_allowed_parallelism,
                              static_cast<std::size_t>(threads));
    WriterRun run(o, plan.classes, progress);  // one writer at a time; the plan in the manifest
    PairRunner runner(o, plan, progress);
    runner.use_solved_files();
    for (std::size_t i = 0; i < plan.pairs.size(); ++i) runner.run(i);
    remove_empty_units_dir(o);
    run.finish();
    GenerateSummary summary = runner.summary();
    summary.seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return summary;
}

}  // namespace damas
