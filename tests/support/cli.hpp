// The damas binary run to its end, for the tests of its commands: the exit code and what it
// printed on its standard output and error, with the arguments given as words (no shell, so
// any byte may be in them) or as a shell command line.
#pragma once

#include <string>
#include <vector>

#include "tests/support/process.hpp"

namespace damas::test {

struct CliRun {
    int exit_code = -1;  // -1: ended by a signal
    std::string out, err;
};

// Runs the program argv[0] with argv to its end.
CliRun run_program(const std::vector<std::string>& argv);

// Runs damas with these arguments, each one word.
CliRun run_cli(const std::vector<std::string>& args);

// Runs a shell command line (/bin/sh -c).
CliRun run_shell(const std::string& command);

// The damas binary quoted for the shell, then the shell words args: a command line.
std::string damas_command(const std::string& args);

// Runs `damas ARGS` (shell words), output discarded; the exit code, or -1.
int run_damas(const std::string& args);

}  // namespace damas::test
