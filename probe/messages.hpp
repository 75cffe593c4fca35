// The one-line messages for a failed probe, shared by the command line (tools/) and the Python
// package (python/), so that both say the same thing for the same failure.
#pragma once

#include <filesystem>
#include <string>

#include "probe/probe.hpp"

namespace damas {

// Why a probe of p (a position of v, either side to move) failed with status s:
// not_in_database names the class and the folder, invalid_position says what is wrong, and
// the other statuses ("error corrupt", ...) add the last problem the library reported (a
// damaged file's message), if any.
std::string probe_failure_message(const Tablebase& tb, Variant v, const Position& p, ProbeStatus s,
                                  const std::string& last_problem = {});

// The hint when a rule table is missing: the file, its folder, and the damas gen-rules command
// that writes it.
std::string missing_rule_table_hint(const Tablebase& tb, const DrawRules& rules, const Position& p,
                                    const std::filesystem::path& missing);

}  // namespace damas
