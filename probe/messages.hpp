// The one-line messages for a failed probe, shared by the command line (tools/) and the Python
// package (python/), so that both say the same thing for the same failure.
#pragma once

#include <filesystem>
#include <string>
#include <system_error>

#include "probe/probe.hpp"
#include "rules/error.hpp"

namespace damas {

// Why a probe of p (a position of v, either side to move) failed with status s:
// not_in_database names the class and the folder (or, with more pieces than the folder's largest
// class, says so: "too many pieces: 24 (class 120120; the english tables hold up to 5)", as the
// explorer's server does), invalid_position says what is wrong, and
// the other statuses ("error corrupt", ...) add the last problem the library reported (a
// damaged file's message), if any.
std::string probe_failure_message(const Tablebase& tb, Variant v, const Position& p, ProbeStatus s,
                                  const std::string& last_problem = {});

// The hint when a rule table is missing: the file, its folder, and the damas gen-rules command
// that writes it.
std::string missing_rule_table_hint(const Tablebase& tb, const DrawRules& rules, const Position& p,
                                    const std::filesystem::path& missing);

// A folder that cannot be looked at (a name too long, no permission); the message names it.
struct FolderAccessError : Error {
    FolderAccessError(const std::filesystem::path& dir, const std::error_code& ec);
    int error;  // the errno value
};
// Whether dir is a folder: false when nothing is there or it is no folder, FolderAccessError
// when that cannot be told. The command line and the Python package open a database so.
bool is_folder(const std::filesystem::path& dir);

}  // namespace damas
