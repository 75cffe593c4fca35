#include "gen/run/pair_in_units.hpp"

#include <tbb/global_control.h>

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "folder/files.hpp"
#include "gen/solve/compact/compact_solver.hpp"
#include "gen/units/solved_class_file.hpp"
#include "gen/units/unit_file.hpp"
#include "gen/write/pair_writer.hpp"

namespace damas {
namespace {

// Named by the pair's metric (folder/files.hpp).
std::filesystem::path pair_unit_path(const GenerateOptions& o, Material m, int slice) {
    return unit_path(o.dir, o.variant, m, slice, distance_metric(o, m));
}

}  // namespace

void remove_units(const GenerateOptions& o, Material m, int slices, int from) {
    for (int s = from; s < slices; ++s) {
        const std::filesystem::path path = pair_unit_path(o, m, s);
        std::error_code ec;
        std::filesystem::remove(path, ec);
        std::filesystem::path tmp = path;
        tmp += ".tmp";
        std::filesystem::remove(tmp, ec);
    }
}

namespace {

// The first slice of the pair without a unit file: where a rerun continues.
int first_missing_unit(const GenerateOptions& o, const PairLayout& layout) {
    int s = 0;
    while (s < layout.slice_count() &&
           std::filesystem::exists(pair_unit_path(o, layout.material(0), s)))
        ++s;
    return s;
}

std::unique_ptr<UnitReader> open_pair_unit(const GenerateOptions& o, const PairLayout& layout,
                                           int s) {
    return std::make_unique<UnitReader>(pair_unit_path(o, layout.material(0), s), o.variant, layout,
                                        s);
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
// (gen/solve/compact/compact_solver.hpp).
bool slice_by_bytes(const GenerateOptions& o, const PairLayout& layout, bool compact, int s) {
    if (!compact) return false;
    if (compact_splits_configurations(layout.kings_per_men(), layout.unit_chunk_positions()))
        return true;
    const int threads = static_cast<int>(
        tbb::global_control::active_value(tbb::global_control::max_allowed_parallelism));
    return !slice_in_components(o.variant, layout.index(0), s, threads);
}

// Solves slices [first, end) of the pair by one solver, each written to its unit file.
void solve_unit_range(const GenerateOptions& o, const PairLayout& layout, const SolvedStore& store,
                      int first, int end, bool by_bytes, Progress& progress, SolveTimes& times,
                      GenerateSummary& summary) {
    const Material m = layout.material(0);
    // Whole configurations per chunk where the other solver may read the unit next.
    const bool split = by_bytes && compact_splits_configurations(layout.kings_per_men(),
                                                                 layout.unit_chunk_positions());
    SolveTimes range;
    const SlicesToSolve slices{
        .first = first,
        .end = end,
        .open_unit = [&](int s) { return open_pair_unit(o, layout, s); },
        .stream_unit =
            [&](int s) {
                ++summary.units_written;
                return std::make_unique<UnitStream>(pair_unit_path(o, m, s), o.variant, layout, s,
                                                    split);
            },
        .progress = [&](std::uint64_t d, std::uint64_t) { progress.update(d); },
        .times = &range,
        .metric = distance_metric(o, m)};
    if (by_bytes) {
        solve_slices_compact(
            o.variant, layout, store, o.tuning, slices, [&](int slice, const SliceChunkFn& values) {
                write_unit(pair_unit_path(o, m, slice), o.variant, layout, slice, values, split);
                ++summary.units_written;
            });
    } else {
        solve_slices(o.variant, layout, store, slices, {}, [&](const SliceValues& slice) {
            write_unit(pair_unit_path(o, m, slice.slice), o.variant, layout, slice);
            ++summary.units_written;
        });
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
                solved_class_path(o.dir, o.variant, layout.material(c),
                                  distance_metric(o, layout.material(c))),
                o.variant, layout.material(c), layout.index(c).size(),
                layout.unit_chunk_positions());
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

}  // namespace

// Solves the pair in units and writes its table files from them; returns the bytes written.
// A damaged unit file found while writing is solved again, with every slice after it.
std::uint64_t solve_and_write_in_units(const GenerateOptions& o, Material m, SolvedStore& store,
                                       const PairStep& step, Progress& progress, SolveTimes& times,
                                       GenerateSummary& summary,
                                       std::chrono::steady_clock::time_point& solved,
                                       const std::function<bool(Material)>& loaded_again) {
    const PairLayout layout(o.variant.info().board, m, o.tuning);
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

}  // namespace damas
