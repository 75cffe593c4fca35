// Verification of a database folder: every file's checksums (the pure tables and the rule
// tables .dtr, .dtr-fmjd, .dtr-forcada), the set of files against the manifest or what the
// classes present need (folder/check.hpp), and with `deep` every stored pure value
// recomputed from its successors' values (a forward check, independent of the retrograde order).
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "folder/check.hpp"
#include "index/material.hpp"

namespace damas {

struct VerifyReport {
    int files = 0;
    int files_bad = 0;
    std::uint64_t positions_checked = 0;
    std::uint64_t inconsistencies = 0;
    std::vector<std::string> problems;  // one line each, the first few hundred
    std::vector<FolderIssue> issues;    // the set of files (missing, misnamed, extra, ...)
    std::vector<std::string> notes;     // said, not problems ("no manifest: ...")
    bool ok() const { return files_bad == 0 && inconsistencies == 0 && issues.empty(); }
};

using VerifyLog = std::function<void(const std::string&)>;

struct VerifyOptions {
    bool deep = false;
    // With deep: recompute only these classes (empty: every class with both files). A class
    // named here that has no complete pair of files is a problem. Between classes the store
    // keeps only what the next one reads, so a large set is checked a class at a time.
    std::vector<Material> deep_classes;
    // Check the folder of its variant under dir against this manifest instead of the folder's
    // own.
    std::optional<std::filesystem::path> manifest;
};

// dir: a database root (holding <variant>/ folders) or one variant folder.
VerifyReport verify_database(const std::filesystem::path& dir, const VerifyOptions& options,
                             const VerifyLog& log = {});
inline VerifyReport verify_database(const std::filesystem::path& dir, bool deep,
                                    const VerifyLog& log = {},
                                    const std::optional<std::filesystem::path>& manifest = {}) {
    return verify_database(dir, VerifyOptions{deep, {}, manifest}, log);
}

}  // namespace damas
