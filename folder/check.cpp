#include "folder/check.hpp"

#include <algorithm>
#include <fstream>
#include <map>
#include <set>

#include "folder/files.hpp"
#include "folder/lock.hpp"
#include "index/class_selection.hpp"
#include "rules/error.hpp"
#include "table/format.hpp"
#include "table/table_file.hpp"

namespace damas {
namespace {

struct TableName {
    Material material;
    Metric metric;
};

std::optional<Metric> metric_of_extension(const std::string& ext) {
    for (int i = 0; i < metric_count; ++i) {
        const auto m = static_cast<Metric>(i);
        if (ext == std::string(".") + metric_name(m)) return m;
    }
    return std::nullopt;
}

std::optional<TableName> parse_table_name(const std::filesystem::path& file) {
    const auto metric = metric_of_extension(file.extension().string());
    const auto m = Material::parse(file.stem().string());
    if (!metric || !m) return std::nullopt;
    return TableName{*m, *metric};
}

std::optional<TableHeader> read_header(const std::filesystem::path& file) {
    std::ifstream in(file, std::ios::binary);
    HeaderBytes b{};
    in.read(reinterpret_cast<char*>(b.data()), static_cast<std::streamsize>(b.size()));
    if (in.gcount() != static_cast<std::streamsize>(b.size())) return std::nullopt;
    try {
        return decode_header(b, file.string());
    } catch (const Error&) {
        return std::nullopt;  // the byte check (gen/verify/verify.cpp) reports it
    }
}

// The header names the class, variant and metric its file name says, and has the class's size:
// table_file.hpp's check_identity, the one check of every reader.
void check_header(const std::filesystem::path& file, const TableName& name, Variant v,
                  FolderCheck& out) {
    const auto h = read_header(file);
    if (!h) return;
    try {
        check_identity(*h, {v, name.material, name.metric}, file.string());
    } catch (const Error& e) {
        out.issues.push_back({"mismatch", file.string(), e.what()});
    }
}

// The folder of a variant folder's unit files (gen/units/unit_file.hpp: <dir>/<variant>/units).
std::filesystem::path units_folder(const std::filesystem::path& folder, Variant v) {
    return folder / units_dir({}, v).filename();
}

// The unit files in it: a bounded run removes a pair's units once its table files are written,
// and the folder, empty, at its end; so any left there are a run's that did not finish (whole
// units, or a unit's .tmp). An empty folder is accepted.
int unit_files_left(const std::filesystem::path& folder, Variant v) {
    int n = 0;
    std::error_code ec;
    for (const auto& e : std::filesystem::directory_iterator(units_folder(folder, v), ec)) {
        const std::string ext = e.path().extension().string();
        if (ext == ".unit" || ext == ".tmp") ++n;
    }
    return n;
}

RunKind kind_of(Metric m) {
    if (m == Metric::dtr_fmjd) return {true, Edition::fmjd};
    if (is_dtr(m)) return {true, Edition::seed};
    return {false, Edition::seed};
}

// The kind of a manifest's run from its key (RunKind::key).
RunKind kind_of_run(const std::string& key) {
    return {key != "gen", key == "gen-rules-fmjd" ? Edition::fmjd : Edition::seed};
}

// Without a manifest: every class present needs its mirror and the classes its moves reach.
std::map<std::string, std::map<std::string, std::string>> derived_expectations(
    Variant v, const std::vector<TableName>& present) {
    std::map<std::string, std::map<std::string, std::string>> out;  // kind -> file -> needed by
    std::map<std::string, std::pair<RunKind, std::set<Material>>> classes;
    std::set<Material> mtc;  // the classes whose distance file is mtc
    for (const TableName& t : present)
        if (t.metric == Metric::mtc) mtc.insert(t.material);
    for (const TableName& t : present) {
        const RunKind k = kind_of(t.metric);
        auto& entry = classes[k.key()];
        entry.first = k;
        entry.second.insert(t.material);
    }
    for (const auto& [key, entry] : classes) {
        for (Material c : entry.second) {
            for (Material need : planned_classes({v, c.pieces(), 0, c}))
                for (const std::string& f : expected_files(
                         v, entry.first, need, mtc.count(need) ? Metric::mtc : Metric::dtw))
                    out[key].emplace(f, c.name());
        }
    }
    return out;
}

}  // namespace

std::string FolderIssue::line() const {
    std::string s = kind + ": " + file;
    if (!detail.empty()) s += " (" + detail + ")";
    return s;
}

FolderCheck check_folder(const std::filesystem::path& folder, Variant v,
                         const std::optional<Manifest>& given) {
    FolderCheck out;
    std::optional<Manifest> manifest = given;
    const std::filesystem::path own = folder / manifest_name;
    if (!manifest && std::filesystem::exists(own)) {
        try {
            manifest = read_manifest(own);
        } catch (const Error& e) {
            out.issues.push_back({"manifest", own.string(), e.what()});
        }
    }
    if (manifest && !(manifest->variant == v))
        out.issues.push_back(
            {"manifest", folder.string(), "the manifest is for " + manifest->variant.name()});

    // The files of runs that did not finish: written before the manifest records them at the
    // run's end, so not extra files (the incomplete run is the problem reported).
    std::set<std::string> pending;
    if (manifest)
        for (const auto& [key, run] : manifest->runs)
            if (!run.complete)
                for (Material c : run.classes)
                    for (const std::string& f :
                         expected_files(v, kind_of_run(key), c, run.distance(c)))
                        pending.insert(f);

    std::vector<std::filesystem::path> files;
    for (const auto& e : std::filesystem::directory_iterator(folder))
        if (e.is_regular_file()) files.push_back(e.path());
    std::sort(files.begin(), files.end());
    std::set<std::string> names;
    std::vector<TableName> tables;
    std::map<std::pair<Metric, Material>, Layout> layouts;  // of the wdl and mtc files
    for (const auto& f : files) {
        const std::string name = f.filename().string();
        if (name == manifest_name || name == lock_name) continue;
        if (f.extension() == ".tmp") {
            out.issues.push_back(
                {"leftover_tmp", f.string(), "left by a run that did not finish; rerun it"});
            continue;
        }
        names.insert(name);
        if (manifest && !manifest->files.count(name) && !pending.count(name))
            out.issues.push_back({"not_in_manifest", f.string(), ""});
        const auto t = parse_table_name(f);
        if (!t) continue;
        tables.push_back(*t);
        check_header(f, *t, v, out);
        if (t->metric == Metric::wdl || t->metric == Metric::mtc)
            if (const auto h = read_header(f)) layouts[{t->metric, t->material}] = h->layout;
    }
    for (const auto& [key, layout] : layouts) {
        const auto& [metric, m] = key;
        if (layout != Layout::mirror || m == m.mirrored() || m.mirrored() < m) continue;
        const auto other = layouts.find({metric, m.mirrored()});
        const std::string ext = metric_name(metric);
        if (other != layouts.end() && other->second == Layout::mirror)
            out.issues.push_back({"layout", (folder / (m.name() + "." + ext)).string(),
                                  "both " + ext + " files of the pair " + m.name() + "/" +
                                      m.mirrored().name() + " have the mirror layout"});
    }

    if (const int units = unit_files_left(folder, v)) {
        out.issues.push_back({"unfinished_units", units_folder(folder, v).string(),
                              std::to_string(units) +
                                  " unit files of a gen run that did not finish; run damas gen "
                                  "again to resume"});
    }

    if (manifest) {
        std::set<std::string> planned;
        for (const auto& [key, run] : manifest->runs) {
            const RunKind kind = kind_of_run(key);
            if (!run.complete)
                out.issues.push_back(
                    {"incomplete_run", folder.string(),
                     "the " + key + " run planned " + std::to_string(run.classes.size()) +
                         " classes and did not finish; run damas " + key + " again to resume"});
            for (Material c : run.classes)
                for (const std::string& f : expected_files(v, kind, c, run.distance(c))) {
                    planned.insert(f);
                    if (!names.count(f))
                        out.issues.push_back(
                            {"missing", (folder / f).string(), "planned by " + key});
                }
        }
        for (const auto& [name, want] : manifest->files) {
            if (!names.count(name)) {
                if (!planned.count(name))
                    out.issues.push_back({"missing", (folder / name).string(), "in the manifest"});
                continue;
            }
            const std::filesystem::path f = folder / name;
            const std::uint64_t size = std::filesystem::file_size(f);
            if (size != want.size) {
                out.issues.push_back({"size", f.string(),
                                      std::to_string(size) + " bytes, the manifest says " +
                                          std::to_string(want.size)});
                continue;
            }
            if (file_xxh64(f) != want.xxh64)
                out.issues.push_back({"checksum", f.string(), "differs from the manifest's"});
        }
        return out;
    }
    if (tables.empty()) return out;
    out.notes.push_back(folder.string() +
                        ": no manifest; the expected files are derived from the classes present");
    for (const auto& [key, expected] : derived_expectations(v, tables))
        for (const auto& [f, needed_by] : expected)
            if (!names.count(f))
                out.issues.push_back({"missing", (folder / f).string(),
                                      "needed by " + needed_by + " (" + key + ")"});
    return out;
}

std::vector<std::string> incomplete_runs(const std::filesystem::path& dir, Variant v) {
    std::vector<std::string> out;
    if (const auto m = read_manifest_if_any(dir, v))
        for (const auto& [key, run] : m->runs)
            if (!run.complete) out.push_back(key);
    const bool gen_listed = std::find(out.begin(), out.end(), "gen") != out.end();
    if (!gen_listed && unit_files_left(dir / v.name(), v) > 0) out.push_back("gen");
    return out;
}

}  // namespace damas
