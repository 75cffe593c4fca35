// A small Hub GUI for the tests: starts a Hub engine (damas hub, or the stub engine) on pipes,
// sends it lines and reads its answers with a time limit, as a GUI would.
#pragma once

#include <poll.h>
#include <unistd.h>

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "tools/hub/engine_process.hpp"
#include "tools/hub/hub_protocol.hpp"

namespace damas::test {

class HubClient {
  public:
    explicit HubClient(const std::vector<std::string>& argv) : process_(argv) {}

    // Sends the whole line before it returns (the engine's input does not block: wait for it).
    void send(const std::string& line) {
        if (!process_.send(line)) return;
        while (process_.queued_bytes() > 0) {
            pollfd fd{process_.input_fd(), POLLOUT, 0};
            if (::poll(&fd, 1, 20000) <= 0 || !process_.flush()) return;
        }
    }

    // The next line, or nullopt at the end of the output or after the time limit.
    std::optional<std::string> read_line(
        std::chrono::milliseconds limit = std::chrono::seconds(20)) {
        const auto deadline = std::chrono::steady_clock::now() + limit;
        for (;;) {
            const std::size_t end = buffer_.find('\n');
            if (end != std::string::npos) {
                std::string line = buffer_.substr(0, end);
                buffer_.erase(0, end + 1);
                return line;
            }
            const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                deadline - std::chrono::steady_clock::now());
            if (left.count() <= 0 || closed_) return std::nullopt;
            pollfd fd{process_.output_fd(), POLLIN, 0};
            if (::poll(&fd, 1, static_cast<int>(left.count())) <= 0) continue;
            char chunk[4096];
            const ssize_t n = ::read(process_.output_fd(), chunk, sizeof chunk);
            if (n <= 0)
                closed_ = true;
            else
                buffer_.append(chunk, static_cast<std::size_t>(n));
        }
    }

    // The lines up to and including the first whose command is `command` (empty if it never
    // comes).
    std::vector<hub::HubLine> read_until(const std::string& command) {
        std::vector<hub::HubLine> lines;
        while (auto text = read_line()) {
            lines.push_back(hub::parse_hub_line(*text));
            if (lines.back().command == command) return lines;
        }
        return {};
    }

    // Closes its input and waits for it to end; its wait status.
    int end(int grace_ms = 5000) { return process_.end(grace_ms); }

  private:
    hub::EngineProcess process_;
    std::string buffer_;
    bool closed_ = false;
};

}  // namespace damas::test
