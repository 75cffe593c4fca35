#include "gen/rule_generate.hpp"

#include <chrono>
#include <set>
#include <string>

#include "gen/generate.hpp"
#include "gen/rule_solver.hpp"
#include "gen/writer.hpp"
#include "index/class_index.hpp"
#include "probe/table_file.hpp"
#include "rules/error.hpp"
#include "rules/movegen.hpp"

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
    index.for_each_position(0, index.size(), [&](std::uint64_t i, const Position& p) {
        capture[i] = MoveGenerator<R>::has_capture(p) ? 1 : 0;
    });
    return capture;
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
        const TableFile wdl(table_path(o.dir, o.variant, c.material.name(), Metric::wdl));
        if (wdl.size() != index.size())
            throw Error("wdl file of " + c.material.name() + " has the wrong size");
        pure.resize(wdl.size());
        wdl.read_all(pure);
    }
    ClassReport report;
    const TableInfo info{o.variant,
                         {static_cast<std::uint8_t>(c.material.white_men),
                          static_cast<std::uint8_t>(c.material.white_kings),
                          static_cast<std::uint8_t>(c.material.black_men),
                          static_cast<std::uint8_t>(c.material.black_kings)},
                         generator_version()};
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
        wo.durable = false;
        const TableHeader h = write_dtr_table(
            table_path(o.dir, o.variant, c.material.name(), metric_of(rules, c.regimes[r])), info,
            metric_of(rules, c.regimes[r]), values, wo);
        report.bytes += h.file_size;
    }
    if (o.check_pure) {  // pure wins that the count started now does not win
        const auto& first = c.dtr[0];
        const bool forcada = c.regimes.size() == 2;
        index.for_each_position(0, index.size(), [&](std::uint64_t i, const Position& p) {
            if (capture[i] || pure[i] != wdl_win) return;
            ++report.pure_wins;
            const CountState fresh = fresh_count(rules, p);
            const std::uint16_t d =
                forcada && fresh.regime == Regime::forcada_running ? c.dtr[1][i] : first[i];
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
    std::filesystem::create_directories(
        table_path(o.dir, o.variant, "x", Metric::wdl).parent_path());

    RuleGenerateSummary summary;
    RuleStore store(rules);
    std::set<Material> done;
    for (const Material m : classes) {
        if (done.count(m)) continue;
        done.insert(m);
        done.insert(m.mirrored());
        const auto t0 = std::chrono::steady_clock::now();
        std::vector<RuleClass> results = solve_rule_pair(rules, m, store);
        for (RuleClass& c : results) {
            const ClassReport r = dispatch(o.variant.base, [&](auto rule_set) {
                return write_class<decltype(rule_set)>(o, rules, c);
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
        std::string note = m.name();
        note += ": rule values in ";
        note += std::to_string(secs);
        note += " s";
        progress.message(note);
    }
    summary.seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return summary;
}

}  // namespace damas
