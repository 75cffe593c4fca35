// The Hub engine `damas hub --engine` wraps: started with posix_spawnp (no shell), its standard
// input and output on pipes, its standard error shared with damas's.
//
// Owns: starting it, writing lines to it, and ending it: its input closed, then after a grace
// period SIGKILL, then reaped. Lines to it wait in a queue and go as its pipe takes them (its
// input is non-blocking), so the proxy never blocks on an engine that is busy writing: it keeps
// reading the engine's output while the queue drains.
#pragma once

#include <sys/types.h>

#include <string>
#include <string_view>
#include <vector>

namespace damas::hub {

// A command line split into words: spaces separate them, double quotes group them.
// Throws Error on an empty command or an unclosed quote.
std::vector<std::string> command_words(std::string_view command);

class EngineProcess {
  public:
    // Throws Error when the program cannot be started (not found, not executable).
    explicit EngineProcess(const std::vector<std::string>& argv);
    // end(): the engine is not left running.
    ~EngineProcess();
    EngineProcess(const EngineProcess&) = delete;
    EngineProcess& operator=(const EngineProcess&) = delete;

    int output_fd() const { return from_engine_; }
    int input_fd() const { return to_engine_; }
    // Queues one line and writes what the pipe takes now; false when the engine no longer reads
    // (it has ended).
    bool send(std::string_view line);
    // Writes what the pipe takes of the queue; false when the engine no longer reads.
    bool flush();
    std::size_t queued_bytes() const { return queued_.size() - written_; }
    // Closes its input, waits up to grace_ms for it to end, kills it if not; its wait status.
    int end(int grace_ms = 1000);

  private:
    pid_t pid_ = -1;
    int to_engine_ = -1;
    int from_engine_ = -1;
    bool reaped_ = false;
    int status_ = 0;
    std::string queued_;  // lines not yet written, from written_ on
    std::size_t written_ = 0;
};

}  // namespace damas::hub
