// `damas hub`'s input and output: the GUI's lines on standard input, the answers on standard
// output (one write a line, so a GUI reading a pipe sees each at once); as a proxy, the wrapped
// engine's output read at the same time (poll) and passed through.
//
// Owns: the loop and how it ends: `quit`, the end of standard input (the GUI is gone: the
// protocol asks to quit at once), a GUI that no longer reads, or, as a proxy, the engine ending
// (then the exit code is 1 and one line on standard error says so).
#pragma once

#include <string>
#include <vector>

#include "probe/probe.hpp"
#include "tools/hub/hub_session.hpp"

namespace damas::hub {

// Alone (engine empty) or as a proxy of the engine started with those words. The exit code.
int run_hub(const Tablebase& tb, const HubOptions& options, const std::vector<std::string>& engine);

}  // namespace damas::hub
