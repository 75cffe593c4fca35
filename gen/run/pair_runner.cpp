#include "gen/run/pair_runner.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <map>
#include <numeric>
#include <set>
#include <string>
#include <vector>

#include "folder/files.hpp"
#include "gen/plan/pair_graph.hpp"
#include "gen/process/resources.hpp"
#include "gen/run/pair_in_units.hpp"
#include "gen/solve/solver.hpp"
#include "gen/store/solved_store.hpp"
#include "gen/write/pair_writer.hpp"
#include "index/class_index.hpp"
#include "rules/error.hpp"

namespace damas {
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

// For a run on a budget: for each class that some pair loads whole from the files, the last
// such pair. A class a later pair loads again gets a solved class file
// (gen/units/solved_class_file.hpp), removed after that pair.
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
                for (const Metric form : {distance_metric(o, m), Metric::wdl})
                    std::filesystem::remove(solved_class_path(o.dir, o.variant, m, form), ec);
            }
    }

    // Sets the store up for pair i as the plan says and loads what the pair reads that it does
    // not hold; returns the seconds that took.
    double prepare_store(std::size_t i) {
        const auto loading = std::chrono::steady_clock::now();
        const PairStep& step = plan.pairs.at(i);
        // A pair solved for mtc reads only the values of the classes below
        // (gen/store/solved_store.hpp).
        store.hold_values(distance_metric(o, step.material) == Metric::mtc);
        if (plan.bounded) {
            store.read_through(step.read_through, step.cache_bytes);
            store.retain(step.keep);
        } else
            store.evict(plan.classes.back().pieces(), top_uses.needed_from(i));
        reset_peak_resident();
        store.load_below(step.material);
        store.load_below(step.material.mirrored());
        const double loaded =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - loading).count();
        summary.load_seconds += loaded;
        return loaded;
    }
    void note_peak(const std::string& label) {
        const std::uint64_t peak = peak_resident_bytes();
        if (peak > summary.peak_resident_bytes) {
            summary.peak_resident_bytes = peak;
            summary.peak_pair = label;
        }
    }

    State(const GenerateOptions& options, const GenerationPlan& p, Progress& pr)
        : o(options),
          plan(p),
          progress(pr),
          top_uses(p.pairs, p.classes.back().pieces()),
          store(options.variant, options.dir) {
        store.set_distance_metric([&o = options](Material m) { return distance_metric(o, m); });
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
        [state = state_.get()](Material m) { return state->loaded_again(m); },
        state_->o.tuning.unit_chunk_positions);
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
    const PairStep& step = plan.pairs.at(i);
    const Material m = step.material;
    const bool single = m == m.mirrored();
    state_->pair = i;
    if (skip_if_complete(i)) return;
    const auto t0 = std::chrono::steady_clock::now();  // the pair's time includes loading
    const double cpu0 = cpu_seconds();
    const double loaded = state_->prepare_store(i);
    const std::string label = pair_label(m);
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
            &times, SliceSolving::automatic, o.tuning, distance_metric(o, m));
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
    state_->note_peak(label);
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

void PairRunner::run_slice_part(std::size_t i, int s, UnitPart part) {
    const GenerateOptions& o = state_->o;
    const PairStep& step = state_->plan.pairs.at(i);
    if (!step.in_units) throw Error(pair_label(step.material) + " is not solved in units");
    state_->pair = i;
    const auto t0 = std::chrono::steady_clock::now();
    const double cpu0 = cpu_seconds();
    const double loaded = state_->prepare_store(i);
    const PairLayout layout(o.variant.info().board, step.material, pair_tuning(o, step));
    if (s < 0 || s >= layout.slice_count()) throw Error("no slice " + std::to_string(s));
    std::string label = pair_label(step.material) + " slice " + std::to_string(s);
    if (!part.whole())
        label += " range " + std::to_string(part.range + 1) + " of " + std::to_string(part.ranges);
    const std::uint64_t positions = layout.slice_positions(s);
    state_->progress.start(label, positions);
    SolveTimes times;
    solve_slice_part(o, layout, state_->store, step, s, part, state_->progress, times,
                     state_->summary);
    if (!part.whole()) ++state_->summary.slice_ranges_solved;
    state_->note_peak(label);
    char note[300];
    std::snprintf(note, sizeof note,
                  "%s: of %llu positions, in %.2f s (classes loaded in %.2f s; CPU %.2f s; peak "
                  "%.0f MiB, planned %.0f)",
                  label.c_str(), static_cast<unsigned long long>(positions),
                  std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(),
                  loaded, cpu_seconds() - cpu0,
                  static_cast<double>(peak_resident_bytes()) / (1024.0 * 1024.0),
                  static_cast<double>(step.peak_bytes) / (1024.0 * 1024.0));
    state_->progress.finish(note);
}

namespace {

// A cut pair's unit of writing (its wdl files, a part, the assembly): f() returns the bytes it
// wrote; timed and counted as its progress line says.
template <class F>
void write_step(GenerateSummary& summary, Progress& progress, const std::string& label,
                std::uint64_t positions, const F& f) {
    const auto t0 = std::chrono::steady_clock::now();
    const double cpu0 = cpu_seconds();
    reset_peak_resident();
    progress.start(label, positions);
    summary.bytes_written += f();
    char note[300];
    std::snprintf(note, sizeof note, "%s: %llu positions in %.2f s (CPU %.2f s; peak %.0f MiB)",
                  label.c_str(), static_cast<unsigned long long>(positions),
                  std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(),
                  cpu_seconds() - cpu0,
                  static_cast<double>(peak_resident_bytes()) / (1024.0 * 1024.0));
    progress.finish(note);
}

}  // namespace

void PairRunner::write_wdl_from_units(std::size_t i) {
    const GenerateOptions& o = state_->o;
    const PairStep& step = state_->plan.pairs.at(i);
    const Material m = step.material;
    state_->pair = i;
    if (!step.in_units) throw Error(pair_label(m) + " is not solved in units");
    if (step.empty_store_before_writing) state_->store.retain({});
    const PairLayout layout(o.variant.info().board, m, pair_tuning(o, step));
    const std::string label = pair_label(m) + " wdl files written from its units";
    write_step(state_->summary, state_->progress, label, step.positions,
               [&] { return write_pair_wdl_units(o, layout, step); });
    state_->note_peak(label);
}

namespace {

PairLayout layout_of(const GenerateOptions& o, const PairStep& step) {
    return PairLayout(o.variant.info().board, step.material, pair_tuning(o, step));
}

// A unit of the writing of a cut pair i in parts (its wdl files' estimates, choice, parts,
// assembly) on a runner's state: the store emptied where the plan says; label(layout) gives
// its progress label and positions, write(step, layout) writes and returns the bytes written.
template <class State, class Label, class Write>
void pair_writing(State& state, std::size_t i, const Label& label, const Write& write) {
    const PairStep& step = state.plan.pairs.at(i);
    state.pair = i;
    if (!step.in_units) throw Error(pair_label(step.material) + " is not solved in units");
    if (step.empty_store_before_writing) state.store.retain({});
    const PairLayout layout = layout_of(state.o, step);
    const std::pair<std::string, std::uint64_t> what = label(layout);
    write_step(state.summary, state.progress, what.first, what.second,
               [&] { return write(step, layout); });
    state.note_peak(what.first);
}

}  // namespace

void PairRunner::estimate_wdl(std::size_t i, int c) {
    const GenerateOptions& o = state_->o;
    pair_writing(
        *state_, i,
        [&](const PairLayout& layout) {
            if (c < 0 || c >= layout.classes()) throw Error("no class " + std::to_string(c));
            return std::pair{layout.material(c).name() + " wdl file estimated from its units",
                             layout.index(c).size()};
        },
        [&](const PairStep& step, const PairLayout& layout) {
            estimate_wdl_units(o, layout, step, c);
            return std::uint64_t{0};
        });
}

void PairRunner::choose_wdl(std::size_t i) {
    const GenerateOptions& o = state_->o;
    pair_writing(
        *state_, i,
        [&](const PairLayout& layout) {
            return std::pair{pair_label(layout.material(0)) + " wdl files chosen from its units",
                             2 * layout.index(0).size()};
        },
        [&](const PairStep& step, const PairLayout& layout) {
            choose_wdl_units(o, layout, step);
            return std::uint64_t{0};
        });
}

void PairRunner::write_wdl_part(std::size_t i, int file, UnitPart part) {
    const GenerateOptions& o = state_->o;
    pair_writing(
        *state_, i,
        [&](const PairLayout& layout) {
            return std::pair{pair_label(layout.material(0)) + " wdl file " +
                                 std::to_string(file + 1) + " part " +
                                 std::to_string(part.range + 1) + " of " +
                                 std::to_string(part.ranges) + " written from its units",
                             layout.index(0).size() / static_cast<std::uint64_t>(part.ranges)};
        },
        [&](const PairStep&, const PairLayout& layout) {
            write_wdl_part_units(o, layout, file, part);
            return std::uint64_t{0};  // counted in the assembled file
        });
    ++state_->summary.wdl_parts_written;
}

void PairRunner::assemble_wdl(std::size_t i, int parts) {
    const GenerateOptions& o = state_->o;
    pair_writing(
        *state_, i,
        [&](const PairLayout& layout) {
            return std::pair{
                pair_label(layout.material(0)) + " wdl files assembled from their parts",
                2 * layout.index(0).size()};
        },
        [&](const PairStep&, const PairLayout& layout) {
            return assemble_pair_wdl(o, layout, parts);
        });
}

void PairRunner::write_distance_part(std::size_t i, int c, UnitPart part) {
    const GenerateOptions& o = state_->o;
    const PairStep& step = state_->plan.pairs.at(i);
    state_->pair = i;
    if (step.empty_store_before_writing) state_->store.retain({});
    const PairLayout layout(o.variant.info().board, step.material, pair_tuning(o, step));
    if (c < 0 || c >= layout.classes()) throw Error("no class " + std::to_string(c));
    const Material x = layout.material(c);
    const std::string label = x.name() + " " + metric_name(distance_metric(o, x)) + " part " +
                              std::to_string(part.range + 1) + " of " +
                              std::to_string(part.ranges) + " written from its units";
    write_step(state_->summary, state_->progress, label, layout.index(c).size() / part.ranges, [&] {
        write_distance_part_units(o, layout, c, part);
        return std::uint64_t{0};  // counted in the assembled file
    });
    ++state_->summary.table_parts_written;
    state_->note_peak(label);
}

void PairRunner::assemble_distance(std::size_t i, const std::vector<int>& parts) {
    const GenerateOptions& o = state_->o;
    const PairStep& step = state_->plan.pairs.at(i);
    const Material m = step.material;
    state_->pair = i;
    const PairLayout layout(o.variant.info().board, m, pair_tuning(o, step));
    const std::string label = pair_label(m) + " distance files assembled from their parts";
    write_step(state_->summary, state_->progress, label, step.positions,
               [&] { return assemble_pair_distance(o, layout, parts); });
    remove_leftovers(o, m);
    remove_units(o, m, step.slices);
    ++state_->summary.pairs_in_units;
    state_->summary.positions += step.positions;
    state_->summary.classes_built += m == m.mirrored() ? 1 : 2;
    state_->note_peak(label);
}

bool PairRunner::wdl_written(std::size_t i) {
    const GenerateOptions& o = state_->o;
    const Material m = state_->plan.pairs.at(i).material;
    return pair_wdl_complete(o, m, ClassIndex(o.variant.info().board, m).size());
}

namespace {

// written(f, part) for each part of each file (parts[f] parts to file f), in file then part order.
template <class Written>
std::vector<bool> each_part(const std::vector<int>& parts, const Written& written) {
    std::vector<bool> out;
    for (int f = 0; f < static_cast<int>(parts.size()); ++f)
        for (int r = 0; r < parts[static_cast<std::size_t>(f)]; ++r)
            out.push_back(written(f, UnitPart{r, parts[static_cast<std::size_t>(f)]}));
    return out;
}

}  // namespace

bool PairRunner::wdl_estimate_written(std::size_t i, int c) {
    const GenerateOptions& o = state_->o;
    return ::damas::wdl_estimate_written(o, layout_of(o, state_->plan.pairs.at(i)), c);
}

bool PairRunner::wdl_choice_written(std::size_t i) {
    const GenerateOptions& o = state_->o;
    return ::damas::wdl_choice_written(o, layout_of(o, state_->plan.pairs.at(i)));
}

std::vector<bool> PairRunner::wdl_parts_written(std::size_t i, const std::vector<int>& parts) {
    const GenerateOptions& o = state_->o;
    const PairLayout layout = layout_of(o, state_->plan.pairs.at(i));
    return each_part(parts,
                     [&](int f, UnitPart part) { return wdl_part_written(o, layout, f, part); });
}

std::vector<bool> PairRunner::distance_parts_written(std::size_t i, const std::vector<int>& parts) {
    const GenerateOptions& o = state_->o;
    const PairLayout layout = layout_of(o, state_->plan.pairs.at(i));
    return each_part(
        parts, [&](int c, UnitPart part) { return distance_part_written(o, layout, c, part); });
}

std::vector<bool> PairRunner::slice_parts_written(std::size_t i,
                                                  const std::vector<int>& ranges_by_slice) {
    const GenerateOptions& o = state_->o;
    const PairStep& step = state_->plan.pairs.at(i);
    const PairLayout layout(o.variant.info().board, step.material, pair_tuning(o, step));
    if (static_cast<int>(ranges_by_slice.size()) != layout.slice_count())
        throw Error(pair_label(step.material) + ": one count of ranges a slice");
    std::vector<bool> written;
    int s = 0;
    for (; s < layout.slice_count() && slice_written(o, layout, s); ++s)
        written.insert(written.end(), static_cast<std::size_t>(ranges_by_slice[s]), true);
    if (s == layout.slice_count()) return written;
    // The first slice not written: its ranges whose parts are, unless they all are (then they do
    // not cover it: damaged, or ranges of another cut, and solved again).
    const int ranges = ranges_by_slice[s];
    std::vector<bool> parts;
    for (int r = 0; r < ranges; ++r)
        parts.push_back(ranges > 1 && slice_part_written(o, layout, s, {r, ranges}));
    if (std::find(parts.begin(), parts.end(), false) == parts.end()) {
        parts.assign(parts.size(), false);
        remove_units(o, step.material, s + 1, s);
    }
    std::uint64_t resumed = 0;
    for (const bool p : parts) resumed += p ? 1 : 0;
    written.insert(written.end(), parts.begin(), parts.end());
    remove_units(o, step.material, layout.slice_count(), s + 1);
    for (++s; s < layout.slice_count(); ++s)
        written.insert(written.end(), static_cast<std::size_t>(ranges_by_slice[s]), false);
    if (resumed > 0 || written.front())
        state_->progress.message(pair_label(step.material) + ": resumed from its units");
    return written;
}

namespace {

void expect_kind(const WorkGraph& graph, std::size_t n, WorkNode::Kind kind) {
    if (n >= graph.nodes.size() || graph.nodes[n].kind != kind)
        throw Error(
            "the units of work of a cut pair are not its ranges, its wdl files (or their "
            "choice, parts and assembly), the parts of its distance files, then their assembly");
}

}  // namespace

std::vector<bool> complete_work(PairRunner& work, const WorkGraph& graph) {
    std::size_t pairs = 0;
    for (const WorkNode& node : graph.nodes) pairs = std::max(pairs, node.pair + 1);
    std::vector<bool> pair_done(pairs, false);
    for (std::size_t i = 0; i < pairs; ++i) pair_done[i] = work.skip_if_complete(i);
    std::vector<bool> done(graph.nodes.size(), false);
    for (std::size_t n = 0; n < graph.nodes.size();) {
        const std::size_t i = graph.nodes[n].pair;
        if (pair_done[i] || graph.nodes[n].kind == WorkNode::Kind::pair) {
            done[n++] = pair_done[i];
            continue;
        }
        // A cut pair: its ranges in slice order, then the writing of its files: its wdl files,
        // the parts of its distance files, their assembly. Those written are kept only if every
        // slice is and the wdl files are (a rerun writes the same bytes).
        const std::vector<bool> ranges = work.slice_parts_written(i, graph.ranges_by_slice.at(i));
        for (const bool written : ranges) done.at(n++) = written;
        const bool solved = std::find(ranges.begin(), ranges.end(), false) == ranges.end();
        const bool wdl = solved && work.wdl_written(i);
        const std::vector<int>& wdl_parts = graph.wdl_parts.at(i);
        if (wdl_parts.empty()) {
            expect_kind(graph, n, WorkNode::Kind::write_wdl);
            done.at(n++) = wdl;
        } else {
            // In parts: the estimates, the choice and the parts written are kept until the
            // files are.
            const bool chosen = wdl || (solved && work.wdl_choice_written(i));
            for (; n < graph.nodes.size() && graph.nodes[n].kind == WorkNode::Kind::wdl_estimate;
                 ++n)
                done.at(n) = chosen || (solved && work.wdl_estimate_written(i, graph.nodes[n].cls));
            expect_kind(graph, n, WorkNode::Kind::wdl_choice);
            done.at(n++) = chosen;
            std::vector<bool> parts_done(
                static_cast<std::size_t>(std::accumulate(wdl_parts.begin(), wdl_parts.end(), 0)),
                wdl);
            if (chosen && !wdl) parts_done = work.wdl_parts_written(i, wdl_parts);
            for (const bool w : parts_done) {
                expect_kind(graph, n, WorkNode::Kind::wdl_part);
                done.at(n++) = w;
            }
            expect_kind(graph, n, WorkNode::Kind::wdl_write);
            done.at(n++) = wdl;
        }
        const std::vector<int>& parts = graph.parts_by_class.at(i);
        std::vector<bool> written(
            static_cast<std::size_t>(std::accumulate(parts.begin(), parts.end(), 0)), false);
        if (wdl) written = work.distance_parts_written(i, parts);
        for (const bool w : written) {
            expect_kind(graph, n, WorkNode::Kind::write_part);
            done.at(n++) = w;
        }
        expect_kind(graph, n++, WorkNode::Kind::write);
    }
    return done;
}

void run_work(PairRunner& work, const WorkGraph& graph, std::size_t n) {
    const WorkNode& node = graph.nodes.at(n);
    switch (node.kind) {
        case WorkNode::Kind::pair:
            work.run(node.pair);
            return;
        case WorkNode::Kind::range:
            work.run_slice_part(node.pair, node.slice, {node.range, node.ranges});
            return;
        case WorkNode::Kind::write_wdl:
            work.write_wdl_from_units(node.pair);
            return;
        case WorkNode::Kind::wdl_estimate:
            work.estimate_wdl(node.pair, node.cls);
            return;
        case WorkNode::Kind::wdl_choice:
            work.choose_wdl(node.pair);
            return;
        case WorkNode::Kind::wdl_part:
            work.write_wdl_part(node.pair, node.cls, {node.range, node.ranges});
            return;
        case WorkNode::Kind::wdl_write:
            work.assemble_wdl(node.pair,
                              graph.wdl_parts.at(node.pair).at(static_cast<std::size_t>(0)));
            return;
        case WorkNode::Kind::write_part:
            work.write_distance_part(node.pair, node.cls, {node.range, node.ranges});
            return;
        case WorkNode::Kind::write:
            work.assemble_distance(node.pair, graph.parts_by_class.at(node.pair));
            return;
    }
}

}  // namespace damas
