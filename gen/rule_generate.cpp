#include "gen/rule_generate.hpp"

#include <tbb/blocked_range.h>
#include <tbb/global_control.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <chrono>
#include <set>
#include <string>
#include <thread>

#include "gen/generate.hpp"
#include "gen/rule_solver.hpp"
#include "gen/run_record.hpp"
#include "gen/threads.hpp"
#include "gen/writer.hpp"
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

// Whether every rule file of class m is complete (gen/writer.hpp: table_complete).
bool class_complete(const RuleGenerateOptions& o, const DrawRules& rules, Material m) {
    const std::uint64_t n = ClassIndex(o.variant.info().board, m).size();
    for (const Regime r : regimes_of(rules, m)) {
        const Metric metric = metric_of(rules, r);
        if (!table_complete(table_path(o.dir, o.variant, m.name(), metric),
                            table_info(o.variant, m), metric, n))
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
    for (std::size_t r = 0; r < c.regimes.size(); ++r) {
        std::vector<std::uint16_t> values = c.dtr[r];
        for (std::uint64_t i = 0; i < values.size(); ++i) {
            if (capture[i]) {
                values[i] = dtw_unknown;
                continue;
            }
            if (values[i] == dtw_unknown) continue;  // not a state of this regime
            if (!o.check_pure) continue;
            const std::uint8_t rule = dtr_outcome(values[i]);
            if (rule != wdl_draw && rule != pure[i])
                throw Error(mismatch(c.material, i, "a rule result differs from the pure value"));
            if (pure[i] == wdl_draw && rule != wdl_draw)
                throw Error(mismatch(c.material, i, "a pure draw is decided under the rules"));
        }
        WriteOptions wo;
        wo.durable = o.durable;
        wo.threads = static_cast<unsigned>(std::max(1, o.threads));
        const TableHeader h = write_dtr_table(
            table_path(o.dir, o.variant, c.material.name(), metric_of(rules, c.regimes[r])), info,
            metric_of(rules, c.regimes[r]), values, wo);
        report.bytes += h.file_size;
    }
    if (o.check_pure) {  // pure wins that the count started now does not win
        index.for_each_position(0, index.size(), [&](std::uint64_t i, const Position& p) {
            if (capture[i] || pure[i] != wdl_win) return;
            ++report.pure_wins;
            const CountState fresh = fresh_count(rules, p);
            const auto slot = std::find(c.regimes.begin(), c.regimes.end(), fresh.regime);
            const std::uint16_t d = c.dtr[static_cast<std::size_t>(slot - c.regimes.begin())][i];
            if (!(dtr_outcome(d) == wdl_win && dtr_distance(d) <= fresh.plies_left))
                ++report.wins_drawn;
        });
    }
    return report;
}

}  // namespace

RuleGenerateSummary generate_rules(const RuleGenerateOptions& o, Progress& progress) {
    const auto start = std::chrono::steady_clock::now();
    const DrawRules rules = draw_rules(o.variant, o.edition);
    if (!rules.any())
        throw Error(o.variant.name() + " has no move-limit draw rules: its pure tables are exact");
    GenerateOptions g;
    g.variant = o.variant;
    g.max_pieces = o.max_pieces;
    g.dir = o.dir;
    g.max_per_side = o.max_per_side;
    g.only = o.only;
    const std::vector<Material> classes = planned_classes(g);
    if (classes.empty()) throw Error("no class to solve");
    const int threads = checked_threads(o.threads, "threads");
    WriterRun writer(o, classes, progress);  // one writer at a time; the plan in the manifest
    tbb::global_control limit(tbb::global_control::max_allowed_parallelism,
                              static_cast<std::size_t>(std::max(1, threads)));
    RuleGenerateOptions run = o;
    run.threads = std::max(1, threads);

    RuleGenerateSummary summary;
    RuleStore store(rules);
    std::set<Material> done;
    for (const Material m : classes) {
        if (done.count(m)) continue;
        done.insert(m);
        done.insert(m.mirrored());
        const bool single = m == m.mirrored();
        std::string label = m.name();
        if (!single) {
            label += '+';
            label += m.mirrored().name();
        }
        const auto t0 = std::chrono::steady_clock::now();
        if (class_complete(o, rules, m) && (single || class_complete(o, rules, m.mirrored()))) {
            // Kept: read back (the larger classes look it up), not written again.
            store.add(read_class(o, rules, m, store));
            if (!single) store.add(read_class(o, rules, m.mirrored(), store));
            summary.classes_skipped += single ? 1 : 2;
            progress.message(label + " complete, skipped");
            continue;
        }
        std::vector<RuleClass> results = solve_rule_pair(rules, m, store);
        for (RuleClass& c : results) {
            const ClassReport r = dispatch(o.variant.base, [&](auto rule_set) {
                return write_class<decltype(rule_set)>(run, rules, c);
            });
            summary.bytes_written += r.bytes;
            summary.pure_wins += r.pure_wins;
            summary.wins_drawn_by_rules += r.wins_drawn;
            summary.positions += c.dtr[0].size();
            ++summary.classes;
            store.add(std::move(c));
        }
        const double secs =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        char note[160];
        std::snprintf(note, sizeof note, "%s: rule values in %.2f s", label.c_str(), secs);
        progress.message(note);
    }
    writer.finish();
    summary.seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return summary;
}

}  // namespace damas
