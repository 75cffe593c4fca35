// `damas hub`'s loop (see hub_loop.hpp).
#include "tools/hub/hub_loop.hpp"

#include <poll.h>
#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <memory>
#include <optional>

#include "tools/hub/engine_process.hpp"
#include "tools/hub/hub_protocol.hpp"

namespace damas::hub {
namespace {

// Whole lines read from a file descriptor, the rest kept for the next read.
class LineReader {
  public:
    explicit LineReader(int fd) : fd_(fd) {}
    // Reads what is there (blocking once); false at the end of the input.
    bool fill() {
        char chunk[4096];
        ssize_t n;
        do {
            n = ::read(fd_, chunk, sizeof chunk);
        } while (n < 0 && errno == EINTR);
        if (n <= 0) return false;
        buffer_.append(chunk, static_cast<std::size_t>(n));
        return true;
    }
    std::optional<std::string> next_line() {
        const std::size_t end = buffer_.find('\n');
        if (end == std::string::npos) {
            // A line longer than any the protocol sends is cut rather than held forever.
            if (buffer_.size() < max_line) return std::nullopt;
            std::string line = buffer_.substr(0, max_line);
            buffer_.erase(0, max_line);
            return line;
        }
        std::string line = buffer_.substr(0, end);
        buffer_.erase(0, end + 1);
        if (!line.empty() && line.back() == '\r') line.pop_back();
        return line;
    }
    // What is left at the end of the input, as a last line.
    std::optional<std::string> rest() {
        if (buffer_.empty()) return std::nullopt;
        std::string line = std::move(buffer_);
        buffer_.clear();
        return line;
    }

  private:
    static constexpr std::size_t max_line = 1 << 20;
    int fd_;
    std::string buffer_;
};

// Writes a line to standard output; false when the GUI no longer reads.
bool print_line(const std::string& line) {
    std::string text = line + '\n';
    std::size_t done = 0;
    while (done < text.size()) {
        const ssize_t n = ::write(1, text.data() + done, text.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return false;
        done += static_cast<std::size_t>(n);
    }
    return true;
}

enum class Next { go_on, quit, gui_gone };

// One line of the GUI: answered, forwarded or both.
Next on_gui(HubSession& session, EngineProcess* engine, const std::string& line) {
    HubReply r;
    try {
        r = session.on_gui_line(line);
    } catch (const std::exception& e) {  // whatever the line, an answer rather than an end
        r.to_gui = {HubLineWriter("error").arg("message", e.what()).text()};
    }
    for (const std::string& out : r.to_gui)
        if (!print_line(out)) return Next::gui_gone;
    if (r.forward && engine) engine->send(line);
    return r.quit ? Next::quit : Next::go_on;
}

int run_alone(HubSession& session) {
    LineReader gui(0);
    for (;;) {
        while (auto line = gui.next_line())
            if (on_gui(session, nullptr, *line) != Next::go_on) return 0;
        if (!gui.fill()) {
            if (auto line = gui.rest()) on_gui(session, nullptr, *line);
            return 0;
        }
    }
}

// Lines for the engine beyond this wait in the GUI's pipe: the proxy stops reading the GUI until
// the engine has taken them, so a GUI that floods an engine that does not read costs no memory.
constexpr std::size_t max_queued_for_engine = 1 << 20;

int run_proxy(HubSession& session, EngineProcess& engine) {
    LineReader gui(0), from_engine(engine.output_fd());
    for (;;) {
        const bool gui_read = engine.queued_bytes() < max_queued_for_engine;
        pollfd fds[3] = {{gui_read ? 0 : -1, POLLIN, 0},
                         {engine.output_fd(), POLLIN, 0},
                         {engine.queued_bytes() > 0 ? engine.input_fd() : -1, POLLOUT, 0}};
        if (::poll(fds, 3, -1) < 0) {
            if (errno == EINTR) continue;
            return 1;
        }
        if (fds[2].revents) engine.flush();  // a failed write shows as the engine's end below
        if (fds[1].revents) {
            const bool open = from_engine.fill();
            while (auto line = from_engine.next_line()) {
                session.on_engine_line(*line);
                if (!print_line(*line)) return 0;
            }
            if (!open) {
                if (auto line = from_engine.rest()) print_line(*line);
                engine.end();
                std::fprintf(stderr, "damas: error: the engine ended\n");
                return 1;
            }
        }
        if (fds[0].revents) {
            const bool open = gui.fill();
            while (auto line = gui.next_line()) {
                const Next next = on_gui(session, &engine, *line);
                if (next == Next::quit) {
                    engine.end();
                    return 0;
                }
                if (next == Next::gui_gone) return 0;
            }
            if (!open) {
                engine.end();  // the GUI is gone: the engine's input closes too
                return 0;
            }
        }
    }
}

}  // namespace

int run_hub(const Tablebase& tb, const HubOptions& options,
            const std::vector<std::string>& engine) {
    ::signal(SIGPIPE, SIG_IGN);  // a reader gone is a failed write, not a signal
    HubOptions o = options;
    o.proxy = !engine.empty();
    HubSession session(tb, o);
    if (!o.proxy) return run_alone(session);
    EngineProcess process(engine);
    return run_proxy(session, process);
}

}  // namespace damas::hub
