// Child processes for the tests that start the damas binary and stop it: a run killed with
// SIGKILL at a chosen moment (resumable generation), a server stopped with SIGTERM. The child is
// started with fork and exec (no shell); its standard output and error go to files, to
// /dev/null, or (its output) to a pipe the test reads.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace damas::test {

// Where a child's standard output and error go.
struct ChildOutput {
    std::filesystem::path out;  // empty: /dev/null
    std::filesystem::path err;  // empty: /dev/null
    bool out_to_pipe = false;   // the output to a pipe, read with ChildProcess::read_line
};

class ChildProcess {
  public:
    // Starts the program argv[0] with argv (throws std::runtime_error if it cannot fork).
    explicit ChildProcess(const std::vector<std::string>& argv, const ChildOutput& output = {});
    // Kills the child with SIGKILL if it is still running, and reaps it.
    ~ChildProcess();
    ChildProcess(const ChildProcess&) = delete;
    ChildProcess& operator=(const ChildProcess&) = delete;

    pid_t pid() const { return pid_; }
    // Whether the child has not ended yet (an ended child is reaped).
    bool running();
    // One line of the child's output (out_to_pipe), without its '\n'; what is left at the end.
    std::string read_line();
    // Waits for the child to end; its wait status (waitpid).
    int wait();
    // Sends the signal if the child is still running, then waits; its wait status.
    int stop(int signal);

  private:
    pid_t pid_ = -1;
    int pipe_ = -1;
    std::optional<int> status_;
};

// The damas binary (DAMAS_BINARY).
const char* damas_binary();

// The damas binary followed by args, as the argv of a ChildProcess.
std::vector<std::string> damas_argv(const std::vector<std::string>& args);

// Starts damas with args (output discarded) and kills it with SIGKILL after delay. Whether the
// process was still running when killed (false: it had finished).
bool run_and_kill(const std::vector<std::string>& args, std::chrono::milliseconds delay);
// The same, killed earlier if far_enough() (asked every 2 ms) says so: a delay measured on one run
// outlives the next when the machine's load drops meanwhile, a check of the run's progress does
// not.
bool run_and_kill(const std::vector<std::string>& args, std::chrono::milliseconds delay,
                  const std::function<bool()>& far_enough);

}  // namespace damas::test
