#include "gen/generate.hpp"

#include <tbb/blocked_range.h>
#include <tbb/global_control.h>

#include <sys/resource.h>
#include <tbb/parallel_for.h>
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

#include "gen/solved_store.hpp"
#include "gen/solver.hpp"
#include "gen/writer.hpp"
#include "index/class_index.hpp"
#include "rules/error.hpp"
#include "table/table_file.hpp"
#include "table/wdl_context.hpp"

namespace damas {
namespace {

std::uint64_t available_memory_bytes() {
    std::ifstream meminfo("/proc/meminfo");
    std::string key;
    std::uint64_t kib = 0;
    std::string unit;
    while (meminfo >> key >> kib >> unit)
        if (key == "MemAvailable:") return kib * 1024;
    return 0;  // unknown
}

std::string gib(double bytes) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2f GiB", bytes / (1024.0 * 1024.0 * 1024.0));
    return buf;
}

TableInfo table_info(const Variant& v, Material m) {
    return {v,
            {static_cast<std::uint8_t>(m.white_men), static_cast<std::uint8_t>(m.white_kings),
             static_cast<std::uint8_t>(m.black_men), static_cast<std::uint8_t>(m.black_kings)},
            generator_version()};
}

bool files_complete(const GenerateOptions& o, Material m, std::uint64_t positions) {
    for (Metric metric : {Metric::wdl, Metric::dtw})
        if (!table_complete(table_path(o.dir, o.variant, m.name(), metric),
                            table_info(o.variant, m), metric, positions))
            return false;
    return true;
}

// Whether the wdl file of a complete class holds its values (format.hpp's layouts).
bool wdl_holds_values(const GenerateOptions& o, Material m) {
    return TableFile(table_path(o.dir, o.variant, m.name(), Metric::wdl)).holds_values();
}

// Whether one wdl file of the pair of m may have the mirror layout. Not where a rule ends the
// game on the spot (turkish's king against a lone man): readers take the values of such a class
// from the parity of its dtw, which those positions do not follow.
// The same for the half layout: readers take the values of the odd positions from the dtw.
bool mirror_layout_allowed_for_rules(const GenerateOptions& o, Material m) {
    const bool lone_man_rule =
        dispatch(o.variant.base, [](auto rules) { return decltype(rules)::king_beats_lone_man; });
    const auto lone_man = [](int men, int kings) { return men == 1 && kings == 0; };
    return o.variant.giveaway || !lone_man_rule ||
           !(lone_man(m.white_men, m.white_kings) || lone_man(m.black_men, m.black_kings));
}

bool mirror_layout_allowed(const GenerateOptions& o, Material m) {
    return o.mirror_wdl && m != m.mirrored() && mirror_layout_allowed_for_rules(o, m);
}

// The pair's files are complete and in the layout a run with these options writes.
bool pair_complete(const GenerateOptions& o, Material m, std::uint64_t positions) {
    const Material mirror = m.mirrored();
    if (!files_complete(o, m, positions)) return false;
    if (m == mirror) return wdl_holds_values(o, m);
    if (!files_complete(o, mirror, positions)) return false;  // a mirror has the same size
    const int stored = (wdl_holds_values(o, m) ? 1 : 0) + (wdl_holds_values(o, mirror) ? 1 : 0);
    return stored == (mirror_layout_allowed(o, m) ? 1 : 2);
}

struct WrittenClass {
    TableHeader wdl, dtw;
};

// Where a pair that gets the mirror layout writes its full wdl files until one is chosen: no
// file at a table's own path ever holds anything but its final bytes.
std::filesystem::path candidate_path(const GenerateOptions& o, Material m) {
    std::filesystem::path p = table_path(o.dir, o.variant, m.name(), Metric::wdl);
    p += ".full.tmp";
    return p;
}

// Where earlier versions wrote a class's wdl file with each codec before renaming the smaller:
// a run they killed may have left such files, which a rerun removes.
std::filesystem::path codec_path(const std::filesystem::path& wdl_path, const char* codec) {
    std::filesystem::path p = wdl_path;
    p += '.';
    p += codec;
    p += ".tmp";
    return p;
}

void remove_candidates(const GenerateOptions& o, Material m) {
    std::error_code ec;
    for (const Material c : {m, m.mirrored()}) {
        const std::filesystem::path wdl = table_path(o.dir, o.variant, c.name(), Metric::wdl);
        for (const std::filesystem::path& p : {wdl, candidate_path(o, c)}) {
            if (p != wdl) std::filesystem::remove(p, ec);
            for (const char* codec : {"zstd", "context"}) {
                std::filesystem::path candidate = codec_path(p, codec);
                std::filesystem::remove(candidate, ec);
                candidate += ".tmp";  // a killed writer's own temporary file
                std::filesystem::remove(candidate, ec);
            }
        }
    }
}

// After a pair is written: the temporary files a killed run may have left for its classes.
void remove_leftovers(const GenerateOptions& o, Material m) {
    remove_candidates(o, m);
    for (const Material c : {m, m.mirrored()})
        for (const Metric metric : {Metric::wdl, Metric::dtw}) {
            std::filesystem::path tmp = table_path(o.dir, o.variant, c.name(), metric);
            tmp += ".tmp";
            std::error_code ec;
            std::filesystem::remove(tmp, ec);
        }
}

// Whether the codec of a class's wdl file (and, in a pair with the mirror layout, the class that
// keeps the values) is chosen from estimates instead of from files written whole: for the large
// classes, where writing every candidate took a third of a pair's time.
bool choose_by_estimate(const GenerateOptions& o, std::uint64_t positions) {
    return o.wdl_codec == WdlCodec::automatic && positions >= o.large_class_positions;
}
// Estimates encode every 16th block: within 1-2% of the true sizes (english 6-piece classes).
constexpr std::uint32_t estimate_stride = 16;

WriteOptions write_options(const GenerateOptions& o) {
    WriteOptions wo;
    wo.threads = static_cast<unsigned>(std::max(1, o.threads));
    wo.durable = false;  // atomic renames now, one sync() at the end of the run
    return wo;
}

// f(i) for i in [0, n), in parallel: the passes over a class's values before it is written
// (hundreds of millions of positions; one thread took a tenth of a pair's writing time).
template <class F>
void for_each_index_in_parallel(std::size_t n, const F& f) {
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, n, std::size_t{1} << 16),
                      [&](const auto& r) {
                          for (std::size_t i = r.begin(); i != r.end(); ++i) f(i);
                      });
}

// The class's wdl values as the writer takes them: unknown where the side to move must capture.
std::vector<std::uint8_t> wdl_values(const PairResult& r) {
    std::vector<std::uint8_t> wdl(r.outcomes.size());
    for_each_index_in_parallel(wdl.size(), [&](std::size_t i) {
        wdl[i] = r.capture[i] ? wdl_unknown
                              : static_cast<std::uint8_t>(unpack_outcome(r.outcomes[i]).value);
    });
    return wdl;
}

// The context codec's half layout where the class allows it.
bool half_layout(const GenerateOptions& o, Material m) {
    return o.mirror_wdl && mirror_layout_allowed_for_rules(o, m) &&
           wdl_context::odd_half_allowed(o.variant, m);
}

struct WdlChoice {
    Codec codec = Codec::zstd;
    std::uint64_t bytes = 0;  // estimated
};

// The codec whose file is estimated smaller: zstd, or the context codec when zstd would take
// context_min_zstd_bytes or more and the context codec is smaller.
WdlChoice choose_wdl_codec(const GenerateOptions& o, Material m,
                           std::span<const std::uint8_t> values, const WriteOptions& wo) {
    const TableInfo info = table_info(o.variant, m);
    WdlChoice best{Codec::zstd,
                   *estimate_wdl_bytes(info, values, Codec::zstd, false, estimate_stride, wo)};
    if (best.bytes < context_min_zstd_bytes) return best;
    const std::optional<std::uint64_t> context =
        estimate_wdl_bytes(info, values, Codec::context, half_layout(o, m), estimate_stride, wo);
    if (context && *context < best.bytes) best = {Codec::context, *context};
    return best;
}

// Writes the wdl file with the chosen codec (zstd if the context codec cannot code it).
TableHeader write_wdl_with(const GenerateOptions& o, Material m,
                           std::span<const std::uint8_t> values, Codec codec,
                           const std::filesystem::path& path, const WriteOptions& wo) {
    const TableInfo info = table_info(o.variant, m);
    if (codec == Codec::context)
        if (const auto h = write_wdl_context_table(path, info, values, half_layout(o, m), wo))
            return *h;
    return write_wdl_table(path, info, values, wo);
}

// The class's wdl file at wdl_path: zstd, or with the context codec (in the half layout where
// the class allows it) when asked for or, for a large class, estimated smaller.
TableHeader write_class_wdl(const GenerateOptions& o, const PairResult& r,
                            const std::filesystem::path& wdl_path, const WriteOptions& wo) {
    const std::vector<std::uint8_t> wdl = wdl_values(r);
    Codec codec = Codec::zstd;
    if (o.wdl_codec == WdlCodec::context)
        codec = Codec::context;
    else if (choose_by_estimate(o, wdl.size()))
        codec = choose_wdl_codec(o, r.material, wdl, wo).codec;
    return write_wdl_with(o, r.material, wdl, codec, wdl_path, wo);
}

// The class's DTW file, its header's counts taken from its wdl header.
TableHeader write_class_dtw(const GenerateOptions& o, const PairResult& r, const TableHeader& wdl,
                            WriteOptions wo) {
    // Converted block by block as the writer encodes: no copy of the class is held.
    const DtwValues values = [&r](std::uint64_t first, std::span<std::uint16_t> out) {
        for (std::size_t k = 0; k < out.size(); ++k) {
            const std::size_t i = first + k;
            const Outcome v = unpack_outcome(r.outcomes[i]);
            out[k] = r.capture[i] ? dtw_unknown : v.value == Value::draw ? dtw_draw : v.plies;
        }
    };
    wo.counts_from = &wdl;
    return write_dtw_table(table_path(o.dir, o.variant, r.material.name(), Metric::dtw),
                           table_info(o.variant, r.material), r.outcomes.size(), values, wo);
}

// Writes the class's WDL file (at `wdl_path`) from a copy of its values (1 byte per position on
// top of the results), then its DTW file, converted block by block.
WrittenClass write_class(const GenerateOptions& o, const PairResult& r,
                         const std::filesystem::path& wdl_path) {
    const WriteOptions wo = write_options(o);
    const TableHeader a = write_class_wdl(o, r, wdl_path, wo);
    return {a, write_class_dtw(o, r, a, wo)};
}

// A pair with the mirror layout whose classes are large: the class whose wdl file is estimated
// smaller gets it (with the codec estimated smaller), the other the mirror layout, so that only
// one wdl file is written whole. Returns the bytes written.
std::uint64_t write_pair_by_estimate(const GenerateOptions& o,
                                     const std::vector<PairResult>& pair) {
    const WriteOptions wo = write_options(o);
    std::vector<std::uint8_t> wdl[2];
    WdlChoice choice[2];
    for (std::size_t c = 0; c < 2; ++c) {
        wdl[c] = wdl_values(pair[c]);
        choice[c] = choose_wdl_codec(o, pair[c].material, wdl[c], wo);
    }
    // The second class on a tie, as apply_mirror_layout.
    const std::size_t kept = choice[0].bytes < choice[1].bytes ? 0 : 1;
    const std::size_t dropped = 1 - kept;
    const TableHeader dropped_counts =
        wdl_table_counts(table_info(o.variant, pair[dropped].material), wdl[dropped]);
    std::vector<std::uint8_t>().swap(wdl[dropped]);
    std::uint64_t bytes = 0;
    for (std::size_t c = 0; c < 2; ++c) {
        const Material m = pair[c].material;
        const std::filesystem::path path = table_path(o.dir, o.variant, m.name(), Metric::wdl);
        const TableHeader a = c == kept ? write_wdl_with(o, m, wdl[c], choice[c].codec, path, wo)
                                        : write_wdl_mirror_table(path, table_info(o.variant, m),
                                                                 dropped_counts, false);
        std::vector<std::uint8_t>().swap(wdl[c]);
        bytes += a.file_size + write_class_dtw(o, pair[c], a, wo).file_size;
    }
    return bytes;
}

// Of a pair's two full wdl files (at their candidate paths), moves the smaller to its table
// path and writes the other class's file in the mirror layout (the second class on a tie, so the
// bytes are the same on every run). A run killed in between leaves a pair that pair_complete()
// rejects. Returns the bytes saved.
std::uint64_t apply_mirror_layout(const GenerateOptions& o, const std::vector<PairResult>& pair,
                                  const std::vector<WrittenClass>& written) {
    const std::size_t drop = written[0].wdl.file_size < written[1].wdl.file_size ? 1 : 0;
    const Material kept = pair[1 - drop].material, mirrored = pair[drop].material;
    std::filesystem::rename(candidate_path(o, kept),
                            table_path(o.dir, o.variant, kept.name(), Metric::wdl));
    const TableHeader h =
        write_wdl_mirror_table(table_path(o.dir, o.variant, mirrored.name(), Metric::wdl),
                               table_info(o.variant, mirrored), written[drop].wdl, false);
    return written[drop].wdl.file_size - h.file_size;
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

// "0201+0102": a class and its mirror, solved together.
std::string pair_label(Material m) {
    std::string s = m.name();
    if (m != m.mirrored()) {
        s += '+';
        s += m.mirrored().name();
    }
    return s;
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

// The pairs in the order they are solved (each named by its first class), and for each class of
// the top size the last pair that needs it in memory: the one that solves it or the last one
// that crowns into it. It is freed after that pair, so no class is ever read twice.
struct PairPlan {
    std::vector<Material> pairs;
    std::map<Material, std::size_t> solved_at, last_use;

    PairPlan(const std::vector<Material>& classes, int top) {
        std::set<Material> seen;
        for (Material m : classes) {
            if (seen.count(m)) continue;
            seen.insert(m);
            seen.insert(m.mirrored());
            const std::size_t i = pairs.size();
            pairs.push_back(m);
            if (m.pieces() != top) continue;
            for (Material d : top_dependencies(m, top)) last_use[d] = i;
            last_use[m] = last_use[m.mirrored()] = i;
            solved_at[m] = solved_at[m.mirrored()] = i;
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

}  // namespace

GenerateSummary generate(const GenerateOptions& o, Progress& progress) {
    const auto start = std::chrono::steady_clock::now();
    const BoardSpec board = o.variant.info().board;
    const std::vector<Material> classes = planned_classes(o);
    if (classes.empty()) throw Error("no class to generate");

    // Memory: every solved class below the top kept for later lookups, plus the largest of
    // (the pair being solved + the classes of the top size still needed then).
    GenerateSummary summary;
    const int threads = o.threads > 0
                            ? o.threads
                            : std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
    const int top = classes.back().pieces();
    const PairPlan plan(classes, top);
    std::uint64_t kept = 0, largest_pair = 0;
    for (Material m : classes)
        if (m.pieces() < top) kept += ClassIndex(board, m).size() * sizeof(std::uint16_t);
    for (std::size_t i = 0; i < plan.pairs.size(); ++i) {
        const Material m = plan.pairs[i];
        if (m.pieces() < top) continue;
        // Solving, then writing one class at a time (write_class).
        const std::uint64_t largest_class =
            std::max(ClassIndex(board, m).size(), ClassIndex(board, m.mirrored()).size());
        std::uint64_t pair = std::max(solver_bytes(o.variant, m, threads),
                                      solver_result_bytes(board, m) + 2 * largest_class);
        for (Material d : plan.needed_from(i))
            if (plan.solved_at.at(d) < i)
                pair += ClassIndex(board, d).size() * sizeof(std::uint16_t);
        largest_pair = std::max(largest_pair, pair);
    }
    // Plus the writer's blocks, thread stacks and the program itself (measured: under 64 MiB),
    // and a twentieth for what grows with the classes but is not counted above (their index
    // tables, the solver's per-configuration tables): the model alone fell 2.6% short of the
    // english 2-6 run's peak (2.39 against 2.45 GiB) and 4.5% short of international 2-5's.
    constexpr std::uint64_t overhead = std::uint64_t{64} << 20;
    const std::uint64_t modelled = kept + largest_pair;
    summary.peak_bytes_estimate = modelled + modelled / 20 + overhead;
    const std::uint64_t available = available_memory_bytes();
    progress.message("damas gen: " + o.variant.name() + ", " + std::to_string(classes.size()) +
                     " classes, needs about " +
                     gib(static_cast<double>(summary.peak_bytes_estimate)) + " of memory" +
                     (available ? " (" + gib(static_cast<double>(available)) + " available)" : ""));
    if (available && summary.peak_bytes_estimate > available)
        throw Error("this run needs about " +
                    gib(static_cast<double>(summary.peak_bytes_estimate)) + " of memory but only " +
                    gib(static_cast<double>(available)) +
                    " is available; use fewer pieces or --max-per-side");

    tbb::global_control limit(tbb::global_control::max_allowed_parallelism,
                              static_cast<std::size_t>(threads));
    std::filesystem::create_directories(
        table_path(o.dir, o.variant, "x", Metric::wdl).parent_path());

    SolvedStore store(o.variant, o.dir);
    for (std::size_t i = 0; i < plan.pairs.size(); ++i) {
        const Material m = plan.pairs[i];
        const ClassIndex index(board, m);
        const ClassIndex mirror_index(board, m.mirrored());
        const bool single = m == m.mirrored();
        if (pair_complete(o, m, index.size())) {
            remove_candidates(o, m);  // left by a run killed after its last step
            summary.classes_skipped += single ? 1 : 2;
            progress.message(pair_label(m) + " complete, skipped");
            continue;
        }
        store.evict(top, plan.needed_from(i));
        store.load_below(m);
        store.load_below(m.mirrored());
        const std::string label = pair_label(m);
        const std::uint64_t positions = index.size() + (single ? 0 : mirror_index.size());
        const auto t0 = std::chrono::steady_clock::now();
        const double cpu0 = cpu_seconds();
        progress.start(label, positions);
        SolveTimes times;
        std::vector<PairResult> results = solve_pair(
            o.variant, m, store, [&](std::uint64_t d, std::uint64_t) { progress.update(d); },
            &times);
        const auto solved = std::chrono::steady_clock::now();
        const bool mirror_layout = results.size() == 2 && mirror_layout_allowed(o, m);
        if (mirror_layout && choose_by_estimate(o, index.size())) {
            summary.bytes_written += write_pair_by_estimate(o, results);
        } else {
            std::vector<WrittenClass> written;
            for (const PairResult& r : results) {
                written.push_back(write_class(
                    o, r,
                    mirror_layout ? candidate_path(o, r.material)
                                  : table_path(o.dir, o.variant, r.material.name(), Metric::wdl)));
                summary.bytes_written +=
                    written.back().wdl.file_size + written.back().dtw.file_size;
            }
            if (mirror_layout) summary.bytes_written -= apply_mirror_layout(o, results, written);
        }
        remove_leftovers(o, m);
        for (PairResult& r : results) {
            summary.positions += r.outcomes.size();
            ++summary.classes_built;
            store.add(r.material, std::move(r.outcomes), true);
        }
        const double secs =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        const double solving = std::chrono::duration<double>(solved - t0).count();
        char note[300];
        std::snprintf(note, sizeof note,
                      "%s: %llu positions in %.2f s (%.2f M pos/s; solved in %.2f s: initialised "
                      "in %.2f s, resolved in %.2f s; written in %.2f s; CPU %.2f s)",
                      label.c_str(), static_cast<unsigned long long>(positions), secs,
                      secs > 0 ? static_cast<double>(positions) / secs / 1e6 : 0.0, solving,
                      times.initialise, times.resolve, secs - solving, cpu_seconds() - cpu0);
        progress.finish(note);
    }
    ::sync();
    summary.seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return summary;
}

}  // namespace damas
