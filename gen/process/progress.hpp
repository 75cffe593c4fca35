// Progress reporting on stderr: a bar with percent, positions per second and ETA when stderr is
// a terminal, a plain line every few seconds otherwise, nothing when quiet.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <utility>

namespace damas {

class Progress {
  public:
    enum class Mode { bar, lines, quiet };
    static Mode detect(bool quiet);  // bar on a terminal, lines otherwise

    // `prefix` starts every line (damas-mpi: "[rank 3] ").
    explicit Progress(Mode mode, std::string prefix = "")
        : mode_(mode), prefix_(std::move(prefix)) {}
    void start(const std::string& label, std::uint64_t total);
    void update(std::uint64_t done);  // thread-safe, rate-limited
    void finish(const std::string& note);
    void message(const std::string& line);
    // message() as a function, for the layers below that report through a callback.
    std::function<void(const std::string&)> messenger() {
        return [this](const std::string& line) { message(line); };
    }

  private:
    void draw(std::uint64_t done, bool final);

    Mode mode_;
    std::string prefix_;
    std::mutex mutex_;
    std::string label_;
    std::uint64_t total_ = 0;
    std::chrono::steady_clock::time_point start_, last_;
};

}  // namespace damas
