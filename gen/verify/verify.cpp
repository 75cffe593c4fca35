#include "gen/verify/verify.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <map>
#include <mutex>
#include <optional>
#include <set>

#include "gen/store/solved_store.hpp"
#include "rules/error.hpp"
#include "rules/notation.hpp"
#include "table/table_file.hpp"

namespace damas {
namespace {

constexpr std::size_t max_problems = 200;

struct Collector {
    VerifyReport& report;
    const VerifyLog& log;
    std::mutex mutex;
    void problem(const std::string& line) {
        std::lock_guard lock(mutex);
        if (report.problems.size() < max_problems) {
            report.problems.push_back(line);
            if (log) log(line);
        }
    }
};

std::vector<std::filesystem::path> variant_folders(const std::filesystem::path& dir) {
    std::vector<std::filesystem::path> folders;
    if (!std::filesystem::is_directory(dir)) throw Error("no database folder " + dir.string());
    if (parse_variant(dir.filename().string())) return {dir};
    for (const auto& e : std::filesystem::directory_iterator(dir))
        if (e.is_directory() && parse_variant(e.path().filename().string()))
            folders.push_back(e.path());
    std::sort(folders.begin(), folders.end());
    return folders;
}

// Recomputes every quiet position of class m from the outcomes after each move, and checks the
// win/draw/loss counts of its wdl header (the only content of a mirror-layout file). The
// distance is the class's: its DTW, or its MTC (SolvedStore::lookup_after).
template <class R>
void deep_check(const Variant& v, Material m, const SolvedStore& store, Collector& out) {
    const Metric metric = store.distance_metric(m);
    const ClassIndex index(v.info().board, m);
    std::atomic<std::uint64_t> checked{0}, bad{0};
    std::array<std::atomic<std::uint64_t>, 3> counts{};  // by value: loss, draw, win
    tbb::parallel_for(tbb::blocked_range<std::uint64_t>(0, index.size(), 4096), [&](const auto& r) {
        for (std::uint64_t i = r.begin(); i != r.end(); ++i) {
            const Position p = index.unindex(i);
            // Not stored where the side to move must capture (the probe searches), unless a
            // rule ends the game on the spot (turkish's king against a lone man).
            if (capture_not_stored<R>(p, v.giveaway)) continue;
            // The file's own value: no rule applied on top (a wrong value for a position that a
            // rule ends would otherwise go unseen).
            const Outcome stored = store.stored(p);
            if (stored.value != Value::unknown)
                counts[static_cast<int>(stored.value)].fetch_add(1, std::memory_order_relaxed);
            Outcome expected = material_outcome<R>(p, v.giveaway);
            if (expected.value == Value::unknown) expected = store.from_successors<R>(p, metric);
            checked.fetch_add(1, std::memory_order_relaxed);
            if (expected.value == Value::draw) expected.plies = 0;
            if (stored == expected) continue;
            bad.fetch_add(1, std::memory_order_relaxed);
            out.problem(v.name() + " " + m.name() + " index " + std::to_string(i) + " (" +
                        to_fen(v, p) + "): stored " +
                        std::to_string(static_cast<int>(stored.value)) + "/" +
                        std::to_string(stored.plies) + ", successors give " +
                        std::to_string(static_cast<int>(expected.value)) + "/" +
                        std::to_string(expected.plies));
        }
    });
    out.report.positions_checked += checked.load();
    out.report.inconsistencies += bad.load();
    const TableHeader h =
        TableFile(table_path(store.dir(), v, m.name(), Metric::wdl), {v, m, Metric::wdl}).header();
    if (h.losses != counts[0].load() || h.draws != counts[1].load() || h.wins != counts[2].load()) {
        ++out.report.inconsistencies;
        out.problem(v.name() + " " + m.name() + ": the wdl header counts " +
                    std::to_string(h.wins) + "/" + std::to_string(h.draws) + "/" +
                    std::to_string(h.losses) + " wins/draws/losses, the values give " +
                    std::to_string(counts[2].load()) + "/" + std::to_string(counts[1].load()) +
                    "/" + std::to_string(counts[0].load()));
    }
}

// The metric whose extension (".wdl", ".dtr-fmjd") ext is, if any.
std::optional<Metric> metric_of_extension(const std::string& ext) {
    for (int i = 0; i < metric_count; ++i) {
        const auto metric = static_cast<Metric>(i);
        if (ext.size() > 1 && ext.substr(1) == metric_name(metric)) return metric;
    }
    return std::nullopt;
}

// Every class a capture search from these classes reaches.
std::set<Material> capture_closure(const std::vector<Material>& from) {
    std::set<Material> reached;
    std::vector<Material> todo = from;
    while (!todo.empty()) {
        const Material c = todo.back();
        todo.pop_back();
        for (const Material d : capture_dependencies(c))
            if (reached.insert(d).second) todo.push_back(d);
    }
    return reached;
}

// The classes of this folder to recompute: every class with both files, or those asked for that
// have them (found records which). A class's mirror comes right after it: the check of the one
// reads the same classes as the other's, so the second loads and resolves nothing again.
std::vector<Material> deep_targets(const std::map<Material, int>& complete,
                                   const std::vector<Material>& asked, std::set<Material>& found) {
    std::set<Material> chosen;
    for (const auto& [m, n] : complete) {
        if (n != 2) continue;
        if (!asked.empty() && std::find(asked.begin(), asked.end(), m) == asked.end()) continue;
        chosen.insert(m);
        found.insert(m);
    }
    std::vector<Material> targets;
    for (const Material m : chosen) {
        if (std::find(targets.begin(), targets.end(), m) != targets.end()) continue;
        targets.push_back(m);
        if (m != m.mirrored() && chosen.count(m.mirrored())) targets.push_back(m.mirrored());
    }
    return targets;
}

}  // namespace

VerifyReport verify_database(const std::filesystem::path& dir, const VerifyOptions& options,
                             const VerifyLog& log) {
    VerifyReport report;
    Collector out{report, log, {}};
    std::optional<Manifest> manifest;
    std::vector<std::filesystem::path> folders;
    if (options.manifest) {
        manifest = read_manifest(*options.manifest);
        const std::filesystem::path under = dir / manifest->variant.name();
        folders.push_back(std::filesystem::is_directory(under) ? under : dir);
        if (!std::filesystem::is_directory(folders.back()))
            throw Error("no database folder " + folders.back().string());
    } else {
        folders = variant_folders(dir);
    }
    std::set<Material> found;  // the classes asked for that some folder has
    for (const auto& folder : folders) {
        const Variant v = manifest ? manifest->variant : *parse_variant(folder.filename().string());
        FolderCheck check = check_folder(folder, v, manifest);
        for (FolderIssue& i : check.issues) {
            if (log) log(i.line());
            report.issues.push_back(std::move(i));
        }
        for (const std::string& n : check.notes) {
            if (log) log("note: " + n);
            report.notes.push_back(n);
        }
        std::map<Material, int> complete;  // files that passed, per class
        std::vector<std::filesystem::path> files;
        for (const auto& e : std::filesystem::directory_iterator(folder))
            if (e.is_regular_file()) files.push_back(e.path());
        std::sort(files.begin(), files.end());
        for (const auto& f : files) {
            const std::optional<Metric> metric = metric_of_extension(f.extension().string());
            if (!metric) continue;
            // The rule tables (.dtr, .dtr-fmjd, .dtr-forcada) get the checksum check only.
            const bool rule_table = is_dtr(*metric);
            ++report.files;
            try {
                const auto m = Material::parse(f.stem().string());
                if (!m) throw Error(f.string() + ": the name is not a class (four digits)");
                const TableFile t(f, {v, *m, *metric});
                t.verify();
                if (!rule_table) ++complete[*m];
                if (log) log("ok " + f.string());
            } catch (const Error& e) {
                ++report.files_bad;
                out.problem(std::string("bad file: ") + e.what());
            }
        }
        if (!options.deep) continue;
        SolvedStore store(v, folder.parent_path());
        // A class with an mtc file and no dtw file holds MTC (a folder may mix them).
        store.set_distance_metric([&folder, v](Material c) {
            const auto has = [&](Metric metric) {
                return std::filesystem::exists(folder / (c.name() + "." + metric_name(metric)));
            };
            return !has(Metric::dtw) && has(Metric::mtc) ? Metric::mtc : Metric::dtw;
        });
        for (const Material m : deep_targets(complete, options.deep_classes, found)) {
            try {
                // Only what this class reads stays in memory: m and its mirror come from their
                // files with their capture positions unresolved, so what their capture searches
                // reach is read too.
                const std::set<Material> searched = capture_closure({m, m.mirrored()});
                std::set<Material> keep = store_closure(m);
                keep.insert(searched.begin(), searched.end());
                keep.insert({m, m.mirrored()});
                store.retain(keep);
                // The distances of m and its mirror only: the classes below give their values.
                store.read_distances_of([m](Material c) { return c == m || c == m.mirrored(); });
                store.load_below(m);
                for (const Material c : searched) store.add_from_files(c);
                store.add_from_files(m);
                store.add_from_files(m.mirrored());
                // The distances its check reads: folded ones told apart (table/mtc_fold.hpp).
                store.resolve_folded(m);
                store.resolve_folded(m.mirrored());
                dispatch(v.base,
                         [&](auto rules) { deep_check<decltype(rules)>(v, m, store, out); });
                if (log) log("deep ok " + v.name() + " " + m.name());
            } catch (const Error& e) {
                out.problem(v.name() + " " + m.name() + ": " + e.what());
                ++report.inconsistencies;
            }
        }
    }
    for (const Material m : options.deep_classes) {
        if (!options.deep || found.count(m)) continue;
        out.problem(m.name() + ": no intact wdl and dtw (or mtc) files to check deeply");
        ++report.inconsistencies;
    }
    return report;
}

}  // namespace damas
