// `damas serve` as a child process for the serve tests: started on a free port (its first line
// on stdout names it), its log on stderr to a file or discarded, stopped with SIGTERM.
#pragma once

#include <signal.h>

#include <filesystem>
#include <stdexcept>
#include <string>

#include "tests/support/process.hpp"

namespace damas::test {

class ServerProcess {
  public:
    explicit ServerProcess(const std::filesystem::path& dir, const std::filesystem::path& log = {},
                           int threads = 2)
        : child_(damas_argv({"serve", "-d", dir.string(), "--port", "0", "--threads",
                             std::to_string(threads)}),
                 {.out = {}, .err = log, .out_to_pipe = true}) {
        const std::string line = child_.read_line();
        const auto colon = line.rfind(':');
        if (colon == std::string::npos) throw std::runtime_error("no port in '" + line + "'");
        port_ = std::stoi(line.substr(colon + 1));
    }
    ~ServerProcess() { child_.stop(SIGTERM); }
    ServerProcess(const ServerProcess&) = delete;
    ServerProcess& operator=(const ServerProcess&) = delete;
    int port() const { return port_; }
    bool alive() { return child_.running(); }

  private:
    ChildProcess child_;
    int port_ = 0;
};

}  // namespace damas::test
