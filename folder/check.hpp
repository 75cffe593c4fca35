// What a complete variant folder is, and what `damas verify` finds missing or out of place in
// one (gen/verify/verify.cpp checks each file's bytes; this checks the set of files).
//
// Owns: the expected files of a folder and the problems of the set:
//  * with a manifest (folder/manifest.hpp): every file every run planned; a run not complete (a
//    killed or failed run); files whose size or whole-file checksum differ from the manifest's;
//    files in the folder the manifest does not list (but those an unfinished run planned: it
//    records its files at its end);
//  * without one (a folder from before manifests): the files every class present needs (its
//    mirror and every smaller class its moves reach, index/material.hpp: dependencies), for the
//    pure tables and, if rule tables are there, for the rule tables; said in a note;
//  * always: leftover *.tmp files (a killed run's), a table whose header names another variant,
//    class or metric than its file name (table_file.hpp's check_identity), a pair whose two wdl
//    files both have the mirror layout, and unit files in units/ (gen/units/unit_file.hpp): a
//    bounded gen run that did not finish (it removes them, and the folder, as it goes; an empty
//    units/ is accepted).
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "folder/manifest.hpp"
#include "rules/variant.hpp"

namespace damas {

struct FolderIssue {
    std::string kind;  // missing, mismatch, not_in_manifest, leftover_tmp, incomplete_run,
                       // unfinished_units, checksum, size, layout
    std::string file;  // the path it concerns (the folder for incomplete_run)
    std::string detail;
    std::string line() const;  // "missing: db/russian/0102.dtw (planned by gen)"
};

struct FolderCheck {
    std::vector<FolderIssue> issues;
    std::vector<std::string> notes;  // "no manifest: ..."
};

// Checks the set of files of a variant folder. `manifest`: the one to check against (else the
// folder's own manifest.json if any). Header checks open each table file's header only.
FolderCheck check_folder(const std::filesystem::path& folder, Variant v,
                         const std::optional<Manifest>& manifest);

// The runs of the folder's manifest that did not finish ("gen", "gen-rules"), and "gen" when
// units/ holds unit files; empty if none. Throws Error if the manifest is damaged.
std::vector<std::string> incomplete_runs(const std::filesystem::path& dir, Variant v);

}  // namespace damas
