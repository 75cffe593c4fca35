// The manifest of a variant folder: what the runs that wrote it planned, and every file they
// finished, with its size and checksum, so that a folder can be checked for completeness (a
// missing file, a killed run) and against a published list (`damas verify --manifest`).
//
// Owns: <dir>/<variant>/manifest.json, a JSON document (nlohmann-json):
//   {"format": "damas-manifest", "version": 1, "variant": "russian",
//    "generator": "<version of the last writer>",
//    "runs": {"gen": Run, "gen-rules": Run, "gen-rules-fmjd": Run},
//    "files": {"0201.wdl": {"size": 1234, "xxh64": "0123456789abcdef"}, ...},
//    "units": {}}
//   Run = {"classes": ["0101", ...], "options": {...}, "generator": "...", "complete": bool,
//          "mtc": ["0404", ...]}
// `mtc` (gen runs, only when not empty): the classes whose distance file is mtc, not dtw
// (`gen --metric mtc`, `--dtw-pieces`); a folder may mix them, each class having one or the
// other. The last run that planned a class says which.
// `classes` is the union of the classes every run of that kind planned (a later `gen -p 5`
// after `gen -p 4` plans more; `--class` runs plan fewer): a run's start adds its plan and sets
// complete to false; its end records its files and sets complete to true if every planned class
// then has its files recorded. `units` is kept as it is found: the unit files of a bounded run
// (gen/units/unit_file.hpp, <variant>/units/) are not recorded here, since they live only while
// their pair is solved; verify reports any that a run left (folder/check.hpp).
//
// Written atomically: <manifest>.tmp, fsync, rename, fsync of the folder (each checked; not with
// --no-sync). One writer at a time (folder/lock.hpp).
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "index/material.hpp"
#include "limits/draw_rules.hpp"
#include "rules/variant.hpp"
#include "table/format.hpp"

namespace damas {

inline constexpr const char* manifest_name = "manifest.json";

// Which run wrote a set of files: the pure tables, or the rule tables of an edition.
struct RunKind {
    bool rules = false;
    Edition edition = Edition::seed;
    std::string key() const;  // "gen", "gen-rules", "gen-rules-fmjd"
};

struct ManifestFile {
    std::uint64_t size = 0;
    std::uint64_t xxh64 = 0;  // of the whole file, seed 0
};

struct ManifestRun {
    std::vector<Material> classes;
    std::string generator;
    std::string options_json = "{}";  // the run's options, as a JSON object
    bool complete = false;
    std::set<Material> mtc;  // the classes with an mtc file instead of a dtw file
    // The distance file of class c: dtw or mtc.
    Metric distance(Material c) const { return mtc.count(c) ? Metric::mtc : Metric::dtw; }
};

struct Manifest {
    Variant variant;
    std::string generator;
    std::map<std::string, ManifestRun> runs;    // by RunKind::key()
    std::map<std::string, ManifestFile> files;  // by file name
    std::string units_json = "{}";              // kept as is (unit files are not recorded)
};

// The file names a run of `kind` writes for class m ("0201.wdl", "0201.dtw" or with `distance`
// mtc "0201.mtc"; "0301.dtr", "0301.dtr-forcada").
std::vector<std::string> expected_files(Variant v, const RunKind& kind, Material m,
                                        Metric distance = Metric::dtw);

std::filesystem::path manifest_path(const std::filesystem::path& dir, Variant v);
// Reads a manifest; throws Error naming the file if it is not a valid one.
Manifest read_manifest(const std::filesystem::path& file);
std::optional<Manifest> read_manifest_if_any(const std::filesystem::path& dir, Variant v);
// Atomic write (tmp, fsync, rename, fsync of the folder, each checked; without the fsyncs when
// not durable: gen --no-sync). Throws Error naming the file.
void write_manifest(const std::filesystem::path& file, const Manifest& m, bool durable = true);

// xxh64 of a whole file; throws Error naming it if it cannot be read.
std::uint64_t file_xxh64(const std::filesystem::path& file);

// The hooks of gen and gen-rules. begin_run: the plan (before any file is written).
// finish_run: every planned file's size and checksum, the run complete.
// mtc: the planned classes whose distance is mtc (gen runs).
void begin_run(const std::filesystem::path& dir, Variant v, const RunKind& kind,
               const std::vector<Material>& classes, const std::string& options_json,
               bool durable = true, const std::set<Material>& mtc = {});
void finish_run(const std::filesystem::path& dir, Variant v, const RunKind& kind,
                const std::vector<Material>& classes, bool durable = true);

}  // namespace damas
