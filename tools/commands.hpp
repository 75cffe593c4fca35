// The `damas` command line: each command registers itself on the CLI11 app.
#pragma once

#include <CLI/CLI.hpp>

namespace damas::cli {

void add_rules_commands(CLI::App& app);  // perft, moves

}  // namespace damas::cli
