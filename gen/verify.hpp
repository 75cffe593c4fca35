// Verification of a database folder: every file's checksums (the pure tables and the rule
// tables .dtr, .dtr-fmjd, .dtr-forcada), the set of files against the manifest or what the
// classes present need (gen/folder_check.hpp), and with `deep` every stored pure value
// recomputed from its successors' values (a forward check, independent of the retrograde order).
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "gen/folder_check.hpp"

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

// dir: a database root (holding <variant>/ folders) or one variant folder. manifest: check the
// folder of its variant under dir against this manifest instead of the folder's own.
VerifyReport verify_database(const std::filesystem::path& dir, bool deep, const VerifyLog& log = {},
                             const std::optional<std::filesystem::path>& manifest = {});

}  // namespace damas
