#include "gen/run/pair_in_units.hpp"

#include <tbb/global_control.h>

#include <algorithm>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "folder/files.hpp"
#include "gen/solve/compact/compact_solver.hpp"
#include "gen/units/solved_class_file.hpp"
#include "gen/units/unit_file.hpp"
#include "gen/write/pair_writer.hpp"
#include "gen/write/table_parts.hpp"
#include "gen/write/wdl_policy.hpp"
#include "rules/error.hpp"
#include "table/table_file.hpp"

namespace damas {
namespace {

// Named by the pair's metric (folder/files.hpp).
std::filesystem::path pair_unit_path(const GenerateOptions& o, Material m, int slice) {
    return unit_path(o.dir, o.variant, m, slice, distance_metric(o, m));
}

}  // namespace

namespace {

// The start of the names of class c's distance parts: <class>.<metric>.
std::string distance_part_prefix(const GenerateOptions& o, Material c) {
    return c.name() + "." + metric_name(distance_metric(o, c)) + ".";
}

// The start of the names of class c's wdl parts, and the pair's wdl choice.
std::string wdl_part_prefix(Material c) {
    return c.name() + ".wdl.";
}

std::filesystem::path wdl_choice_path(const GenerateOptions& o, Material m) {
    return units_dir(o.dir, o.variant) / (m.name() + ".wdl.choice");
}

// Class c's estimate of its wdl file, before the pair's choice.
std::filesystem::path wdl_estimate_path(const GenerateOptions& o, Material c) {
    return units_dir(o.dir, o.variant) / (c.name() + ".wdl.estimate");
}

// The parts of the pair's table files (wdl and distance) and its wdl choice.
void remove_table_parts(const GenerateOptions& o, Material m) {
    std::error_code ec;
    const std::filesystem::path dir = units_dir(o.dir, o.variant);
    std::vector<std::filesystem::path> parts;
    for (const auto& e : std::filesystem::directory_iterator(dir, ec)) {
        const std::string name = e.path().filename().string();
        for (const Material c : {m, m.mirrored()})
            for (const std::string& prefix : {distance_part_prefix(o, c), wdl_part_prefix(c)})
                if (name.starts_with(prefix) &&
                    (name.ends_with(".part") || name.ends_with(".part.tmp")))
                    parts.push_back(e.path());
    }
    for (const auto& p : parts) std::filesystem::remove(p, ec);
    for (std::filesystem::path p :
         {wdl_choice_path(o, m), wdl_estimate_path(o, m), wdl_estimate_path(o, m.mirrored())}) {
        std::filesystem::remove(p, ec);
        p += ".tmp";
        std::filesystem::remove(p, ec);
    }
}

}  // namespace

void remove_units(const GenerateOptions& o, Material m, int slices, int from) {
    for (int s = from; s < slices; ++s) remove_unit_files(pair_unit_path(o, m, s));
    remove_table_parts(o, m);
}

namespace {

int active_threads() {
    return static_cast<int>(
        tbb::global_control::active_value(tbb::global_control::max_allowed_parallelism));
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

// Whether slice s is written: its unit file, or a complete set of its parts
// (gen/units/unit_file.hpp) that covers it.
bool unit_written(const GenerateOptions& o, const PairLayout& layout, int s) {
    return std::filesystem::exists(pair_unit_path(o, layout.material(0), s)) ||
           unit_opens(o, layout, s);
}

// The first slice of the pair without a unit file: where a rerun continues.
int first_missing_unit(const GenerateOptions& o, const PairLayout& layout) {
    int s = 0;
    while (s < layout.slice_count() && unit_written(o, layout, s)) ++s;
    return s;
}

// Whether slice s of a pair in units goes to the byte-a-position solver
// (gen/solve/compact/compact_solver.hpp).
bool goes_by_bytes(const GenerateOptions& o, const PairLayout& layout, bool compact, int s) {
    return slice_by_bytes(o.variant, layout.index(0), s, active_threads(),
                          layout.unit_chunk_positions(), compact);
}

// Solves slices [first, end) of the pair by one solver, each written to its unit file; or, with
// a part that is not the whole, that range of the one slice `first`, written to its part.
void solve_unit_range(const GenerateOptions& o, const GenerationTuning& tuning,
                      const PairLayout& layout, const SolvedStore& store, int first, int end,
                      bool by_bytes, Progress& progress, SolveTimes& times,
                      GenerateSummary& summary, UnitPart part = {}) {
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
                                                    split, part);
            },
        .progress = [&](std::uint64_t d, std::uint64_t) { progress.update(d); },
        .times = &range,
        .metric = distance_metric(o, m),
        .range = part.range,
        .ranges = part.ranges};
    if (by_bytes) {
        solve_slices_compact(
            o.variant, layout, store, tuning, slices, [&](int slice, const SliceChunkFn& values) {
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
void solve_units(const GenerateOptions& o, const PairStep& step, const PairLayout& layout,
                 const SolvedStore& store, Progress& progress, SolveTimes& times,
                 GenerateSummary& summary) {
    const bool compact = step.compact;
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
                const bool by_bytes = goes_by_bytes(o, layout, compact, s);
                int end = s + 1;
                while (end < layout.slice_count() &&
                       goes_by_bytes(o, layout, compact, end) == by_bytes)
                    ++end;
                solve_unit_range(o, pair_tuning(o, step), layout, store, s, end, by_bytes, progress,
                                 times, summary);
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

bool slice_cuts(const GenerateOptions& o, const PairLayout& layout, bool compact, int s,
                int threads) {
    return slice_cuts_into_ranges(o.variant, layout.index(0), s, threads,
                                  layout.unit_chunk_positions(), compact);
}

bool slice_written(const GenerateOptions& o, const PairLayout& layout, int s) {
    return unit_opens(o, layout, s);
}

bool slice_part_written(const GenerateOptions& o, const PairLayout& layout, int s, UnitPart part) {
    return unit_part_opens(pair_unit_path(o, layout.material(0), s), o.variant, layout, s, part);
}

void solve_slice_part(const GenerateOptions& o, const PairLayout& layout, const SolvedStore& store,
                      const PairStep& step, int s, UnitPart part, Progress& progress,
                      SolveTimes& times, GenerateSummary& summary) {
    const bool compact = step.compact;
    if (s > 0 && !unit_written(o, layout, s - 1))
        throw Error(pair_label(layout.material(0)) + ": slice " + std::to_string(s - 1) +
                    " is not complete before slice " + std::to_string(s));
    if (!part.whole() && !slice_cuts(o, layout, compact, s, active_threads()))
        throw Error(pair_label(layout.material(0)) + ": slice " + std::to_string(s) +
                    " cannot be cut into ranges (its configurations are not solved one at a "
                    "time into its unit)");
    const std::filesystem::path unit = pair_unit_path(o, layout.material(0), s);
    std::error_code ec;
    std::filesystem::remove(unit_part_path(unit, part), ec);
    try {
        solve_unit_range(o, pair_tuning(o, step), layout, store, s, s + 1,
                         goes_by_bytes(o, layout, compact, s), progress, times, summary, part);
    } catch (const DamagedUnit& d) {
        throw Error(pair_label(layout.material(0)) + ": the unit of slice " +
                    std::to_string(d.slice) +
                    " is damaged, or its parts do not cover it; run again to solve it again");
    }
}

namespace {

// Throws Error if a unit of the pair is missing or damaged.
void check_units(const GenerateOptions& o, const PairLayout& layout) {
    for (int s = 0; s < layout.slice_count(); ++s)
        if (!unit_opens(o, layout, s))
            throw Error(pair_label(layout.material(0)) + ": the unit of slice " +
                        std::to_string(s) +
                        " is missing or damaged, or its parts do not cover it; run again to "
                        "solve it again");
}

Error damaged_unit(const PairLayout& layout, const DamagedUnit& d) {
    return Error(pair_label(layout.material(0)) + ": the unit of slice " + std::to_string(d.slice) +
                 " is damaged; run again to solve it again");
}

std::filesystem::path distance_table_path(const GenerateOptions& o, Material c) {
    return table_path(o.dir, o.variant, c.name(), distance_metric(o, c));
}

// Whether class c's distance file gets the mirror layout, by its wdl file (written before).
bool distance_mirrored_in_folder(const GenerateOptions& o, Material c) {
    const std::filesystem::path wdl = table_path(o.dir, o.variant, c.name(), Metric::wdl);
    std::error_code ec;
    if (distance_metric(o, c) != Metric::mtc || !std::filesystem::exists(wdl, ec)) return false;
    return distance_mirrored(o, c,
                             TableFile(wdl, TableIdentity{o.variant, c, Metric::wdl}).header());
}

BlockRange part_range(const GenerateOptions& o, const PairLayout& layout, int c, UnitPart part) {
    return part_blocks(distance_table_blocks(distance_metric(o, layout.material(c)),
                                             layout.index(c).size(), write_options(o)),
                       part.range, part.ranges);
}

}  // namespace

std::filesystem::path distance_part_path(const GenerateOptions& o, Material c, UnitPart part) {
    return units_dir(o.dir, o.variant) / (distance_part_prefix(o, c) + std::to_string(part.range) +
                                          "-" + std::to_string(part.ranges) + ".part");
}

std::uint64_t write_pair_wdl_units(const GenerateOptions& o, const PairLayout& layout,
                                   const PairStep& step) {
    check_units(o, layout);
    try {
        return write_pair(o, *units_source(o, layout, step.wdl_packed), PairFiles::wdl_only);
    } catch (const DamagedUnit& d) {
        throw damaged_unit(layout, d);
    }
}

void write_distance_part_units(const GenerateOptions& o, const PairLayout& layout, int c,
                               UnitPart part) {
    // The wdl files written first: their headers and offset tables checked (their checksums
    // were when they were found complete or written).
    for (int k = 0; k < layout.classes(); ++k) {
        const Material x = layout.material(k);
        const std::filesystem::path wdl = table_path(o.dir, o.variant, x.name(), Metric::wdl);
        if (!std::filesystem::exists(wdl))
            throw Error(pair_label(layout.material(0)) +
                        ": its wdl files are not written before its distance files");
        TableFile(wdl, TableIdentity{o.variant, x, Metric::wdl});
    }
    if (distance_mirrored_in_folder(o, layout.material(c))) return;  // no values to write
    check_units(o, layout);
    const Material x = layout.material(c);
    const Metric metric = distance_metric(o, x);
    try {
        units_source(o, layout, false)->with_distance(c, metric, [&](const DtwValues& values) {
            write_distance_part(distance_part_path(o, x, part), distance_table_path(o, x),
                                table_info(o.variant, x), metric, layout.index(c).size(),
                                part_range(o, layout, c, part), values, write_options(o));
        });
    } catch (const DamagedUnit& d) {
        throw damaged_unit(layout, d);
    }
}

bool distance_part_written(const GenerateOptions& o, const PairLayout& layout, int c,
                           UnitPart part) {
    const Material x = layout.material(c);
    if (distance_mirrored_in_folder(o, x)) return true;  // its file is a header alone
    return distance_part_complete(distance_part_path(o, x, part), table_info(o.variant, x),
                                  distance_metric(o, x), layout.index(c).size(),
                                  part_range(o, layout, c, part), write_options(o));
}

std::uint64_t assemble_pair_distance(const GenerateOptions& o, const PairLayout& layout,
                                     const std::vector<int>& parts) {
    if (static_cast<int>(parts.size()) != layout.classes())
        throw Error(pair_label(layout.material(0)) + ": one count of parts a class");
    std::uint64_t bytes = 0;
    for (int c = 0; c < layout.classes(); ++c) {
        const Material x = layout.material(c);
        const TableFile wdl(table_path(o.dir, o.variant, x.name(), Metric::wdl),
                            TableIdentity{o.variant, x, Metric::wdl});
        if (distance_mirrored(o, x, wdl.header())) {
            bytes += write_mirror_table(distance_table_path(o, x), table_info(o.variant, x),
                                        distance_metric(o, x), wdl.header(), o.durable)
                         .file_size;
            continue;
        }
        std::vector<std::filesystem::path> paths;
        const int k = parts[static_cast<std::size_t>(c)];
        for (int r = 0; r < k; ++r) paths.push_back(distance_part_path(o, x, {r, k}));
        WriteOptions wo = write_options(o);
        wo.counts_from = &wdl.header();
        bytes += assemble_distance_table(distance_table_path(o, x), table_info(o.variant, x),
                                         distance_metric(o, x), layout.index(c).size(), paths, wo)
                     .file_size;
    }
    return bytes;
}

namespace {

std::vector<Material> pair_classes(const PairLayout& layout) {
    std::vector<Material> classes;
    for (int c = 0; c < layout.classes(); ++c) classes.push_back(layout.material(c));
    return classes;
}

// The pair's choice, refused (Error) where it keeps values in another count of files than these
// options write (a run with other options left it).
PairWdlChoice load_pair_wdl_choice(const GenerateOptions& o, const PairLayout& layout) {
    const std::vector<Material> classes = pair_classes(layout);
    const std::filesystem::path path = wdl_choice_path(o, layout.material(0));
    PairWdlChoice choice = load_wdl_choice(path, classes, layout.index(0).size());
    int kept = 0;
    for (const WdlFileChoice& x : choice.classes) kept += x.keeps ? 1 : 0;
    if (kept != wdl_files_in_parts(o, layout.material(0)))
        throw Error(path.string() + ": of a run with other options");
    return choice;
}

// The class of the pair's `file`-th wdl file that keeps values.
int class_of_wdl_file(const PairWdlChoice& choice, int file) {
    for (int c = 0; c < static_cast<int>(choice.classes.size()); ++c)
        if (choice.classes[static_cast<std::size_t>(c)].keeps && file-- == 0) return c;
    throw Error("no wdl file " + std::to_string(file) + " keeps values");
}

TableHeader wdl_header(const GenerateOptions& o, const WdlFileChoice& x) {
    return wdl_table_header(table_info(o.variant, x.material), x.counts.positions, x.coding.codec,
                            x.coding.half, x.model, x.counts);
}

WdlFileChoice load_wdl_estimate(const GenerateOptions& o, const PairLayout& layout, int c) {
    const Material x = layout.material(c);
    return load_wdl_choice(wdl_estimate_path(o, x), std::span<const Material>(&x, 1),
                           layout.index(c).size())
        .classes.front();
}

std::filesystem::path wdl_part_path(const GenerateOptions& o, Material c, UnitPart part) {
    return units_dir(o.dir, o.variant) / (wdl_part_prefix(c) + std::to_string(part.range) + "-" +
                                          std::to_string(part.ranges) + ".part");
}

}  // namespace

void estimate_wdl_units(const GenerateOptions& o, const PairLayout& layout, const PairStep& step,
                        int c) {
    check_units(o, layout);
    try {
        const WdlFileChoice x = estimate_wdl_class(o, *units_source(o, layout, step.wdl_packed), c);
        save_wdl_choice(wdl_estimate_path(o, x.material), {{x}}, o.durable);
    } catch (const DamagedUnit& d) {
        throw damaged_unit(layout, d);
    }
}

bool wdl_estimate_written(const GenerateOptions& o, const PairLayout& layout, int c) {
    try {
        load_wdl_estimate(o, layout, c);
        return true;
    } catch (const Error&) {
        return false;
    }
}

void choose_wdl_units(const GenerateOptions& o, const PairLayout& layout, const PairStep& step) {
    check_units(o, layout);
    try {
        bool estimated = true;
        for (int c = 0; c < layout.classes(); ++c)
            estimated = estimated && wdl_estimate_written(o, layout, c);
        // With the estimates, one pass a class that keeps values (the model's): nothing to pack.
        const std::unique_ptr<PairSource> source =
            units_source(o, layout, step.wdl_packed && !estimated);
        std::vector<WdlFileChoice> estimates;
        for (int c = 0; c < layout.classes(); ++c)
            estimates.push_back(wdl_estimate_written(o, layout, c)
                                    ? load_wdl_estimate(o, layout, c)
                                    : estimate_wdl_class(o, *source, c));
        save_wdl_choice(wdl_choice_path(o, layout.material(0)),
                        choose_pair_wdl(o, *source, std::move(estimates)), o.durable);
    } catch (const DamagedUnit& d) {
        throw damaged_unit(layout, d);
    }
}

bool wdl_choice_written(const GenerateOptions& o, const PairLayout& layout) {
    try {
        load_pair_wdl_choice(o, layout);
        return true;
    } catch (const Error&) {
        return false;
    }
}

void write_wdl_part_units(const GenerateOptions& o, const PairLayout& layout, int file,
                          UnitPart part) {
    const PairWdlChoice choice = load_pair_wdl_choice(o, layout);
    const int c = class_of_wdl_file(choice, file);
    const WdlFileChoice& x = choice.classes[static_cast<std::size_t>(c)];
    const TableHeader h = wdl_header(o, x);
    const std::unique_ptr<const TableCodec> codec = open_wdl_codec(h, x.model);
    check_units(o, layout);
    try {
        const ClassWdl wdl = units_source(o, layout, false)->wdl(c);
        write_wdl_part(wdl_part_path(o, x.material, part), h, *codec,
                       part_blocks(h.blocks, part.range, part.ranges), wdl.passes()(),
                       write_options(o));
    } catch (const DamagedUnit& d) {
        throw damaged_unit(layout, d);
    }
}

bool wdl_part_written(const GenerateOptions& o, const PairLayout& layout, int file, UnitPart part) {
    try {
        const PairWdlChoice choice = load_pair_wdl_choice(o, layout);
        const WdlFileChoice& x =
            choice.classes[static_cast<std::size_t>(class_of_wdl_file(choice, file))];
        const TableHeader h = wdl_header(o, x);
        return wdl_part_complete(wdl_part_path(o, x.material, part), h,
                                 part_blocks(h.blocks, part.range, part.ranges));
    } catch (const Error&) {
        return false;
    }
}

std::uint64_t assemble_pair_wdl(const GenerateOptions& o, const PairLayout& layout, int parts) {
    const PairWdlChoice choice = load_pair_wdl_choice(o, layout);
    std::uint64_t bytes = 0;
    // The files that keep values first: a run killed before the mirror layout's header leaves
    // a pair whose wdl files are not complete (pair_wdl_complete), assembled again.
    for (const bool keeps : {true, false})
        for (const WdlFileChoice& x : choice.classes) {
            if (x.keeps != keeps) continue;
            const std::filesystem::path path =
                table_path(o.dir, o.variant, x.material.name(), Metric::wdl);
            if (!keeps) {
                bytes += write_wdl_mirror_table(path, table_info(o.variant, x.material), x.counts,
                                                o.durable)
                             .file_size;
                continue;
            }
            std::vector<std::filesystem::path> paths;
            for (int r = 0; r < parts; ++r)
                paths.push_back(wdl_part_path(o, x.material, {r, parts}));
            bytes +=
                assemble_wdl_table(path, wdl_header(o, x), x.model, paths, o.durable).file_size;
        }
    // The choice, the estimates and the parts are not needed again (the distance parts read
    // the wdl files).
    std::error_code ec;
    std::filesystem::remove(wdl_choice_path(o, layout.material(0)), ec);
    for (const WdlFileChoice& x : choice.classes) {
        std::filesystem::remove(wdl_estimate_path(o, x.material), ec);
        for (int r = 0; r < parts; ++r)
            std::filesystem::remove(wdl_part_path(o, x.material, {r, parts}), ec);
    }
    return bytes;
}

// Solves the pair in units and writes its table files from them; returns the bytes written.
// A damaged unit file found while writing is solved again, with every slice after it.
std::uint64_t solve_and_write_in_units(const GenerateOptions& o, Material m, SolvedStore& store,
                                       const PairStep& step, Progress& progress, SolveTimes& times,
                                       GenerateSummary& summary,
                                       std::chrono::steady_clock::time_point& solved,
                                       const std::function<bool(Material)>& loaded_again) {
    const PairLayout layout(o.variant.info().board, m, pair_tuning(o, step));
    for (;;) {
        solve_units(o, step, layout, store, progress, times, summary);
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
