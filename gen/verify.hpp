// Verification of a database folder: every file's checksums (the pure tables and the rule
// tables .dtr, .dtr-fmjd, .dtr-forcada), and with `deep` every stored pure value recomputed from
// its successors' values (a forward check, independent of the retrograde order).
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

namespace damas {

struct VerifyReport {
    int files = 0;
    int files_bad = 0;
    std::uint64_t positions_checked = 0;
    std::uint64_t inconsistencies = 0;
    std::vector<std::string> problems;  // one line each, the first few hundred
    bool ok() const { return files_bad == 0 && inconsistencies == 0; }
};

using VerifyLog = std::function<void(const std::string&)>;

// dir: a database root (holding <variant>/ folders) or one variant folder.
VerifyReport verify_database(const std::filesystem::path& dir, bool deep,
                             const VerifyLog& log = {});

}  // namespace damas
