// The database folder of a study command (probe, best, line, stats, info, annotate): the folder
// checked, one Tablebase handle on it, and the last problem the library reported for error
// messages.
#pragma once

#include <filesystem>
#include <memory>
#include <string>

#include "probe/probe.hpp"
#include "rules/variant.hpp"

namespace damas::cli {

// The folder given (or $DAMAS_DB, ./db); throws Error if it is not a folder.
std::filesystem::path database_dir(const std::string& dir);

// A handle on the folder's tables of one variant; throws Error (with the hint for a variant's
// folder given as the database) when the folder has none.
struct Database {
    Variant variant;
    std::filesystem::path dir;
    std::shared_ptr<std::string> last_problem = std::make_shared<std::string>();
    std::unique_ptr<Tablebase> tb;

    Database(const std::string& variant_name, const std::string& dir_name);

    std::string describe_failure(const Position& p, ProbeStatus s) const;
    // The value and DTW; throws Error(describe_failure) when the probe fails.
    ProbeResult probe(const Position& p) const;
};

}  // namespace damas::cli
