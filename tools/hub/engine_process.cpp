// The wrapped Hub engine (see engine_process.hpp).
#include "tools/hub/engine_process.hpp"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <thread>

#include "rules/error.hpp"
#include "rules/printable.hpp"

extern char** environ;

namespace damas::hub {
namespace {

void close_fd(int& fd) {
    if (fd >= 0) ::close(fd);
    fd = -1;
}

}  // namespace

std::vector<std::string> command_words(std::string_view command) {
    std::vector<std::string> words;
    std::string word;
    bool in_word = false, quoted = false;
    for (char c : command) {
        if (c == '"') {
            quoted = !quoted;
            in_word = true;
        } else if ((c == ' ' || c == '\t') && !quoted) {
            if (in_word) words.push_back(std::move(word));
            word.clear();
            in_word = false;
        } else {
            word += c;
            in_word = true;
        }
    }
    if (quoted) throw Error("--engine: a quote is not closed in '" + printable(command, 200) + "'");
    if (in_word) words.push_back(std::move(word));
    if (words.empty()) throw Error("--engine: no command given");
    return words;
}

EngineProcess::EngineProcess(const std::vector<std::string>& argv) {
    int in[2], out[2];
    if (::pipe2(in, O_CLOEXEC) != 0) throw Error(std::string("pipe: ") + std::strerror(errno));
    if (::pipe2(out, O_CLOEXEC) != 0) {
        ::close(in[0]);
        ::close(in[1]);
        throw Error(std::string("pipe: ") + std::strerror(errno));
    }
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, in[0], 0);
    posix_spawn_file_actions_adddup2(&actions, out[1], 1);
    std::vector<char*> args;
    for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    const int rc = ::posix_spawnp(&pid_, args[0], &actions, nullptr, args.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    ::close(in[0]);
    ::close(out[1]);
    to_engine_ = in[1];
    from_engine_ = out[0];
    ::fcntl(to_engine_, F_SETFL, ::fcntl(to_engine_, F_GETFL) | O_NONBLOCK);
    if (rc != 0) {
        close_fd(to_engine_);
        close_fd(from_engine_);
        reaped_ = true;
        throw Error("--engine: cannot start " + printable(argv[0], 200) + ": " + std::strerror(rc));
    }
}

EngineProcess::~EngineProcess() {
    end(200);
}

bool EngineProcess::send(std::string_view line) {
    queued_.append(line);
    queued_ += '\n';
    return flush();
}

bool EngineProcess::flush() {
    while (written_ < queued_.size() && to_engine_ >= 0) {
        const ssize_t n = ::write(to_engine_, queued_.data() + written_, queued_.size() - written_);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) break;  // the pipe is full
        if (n <= 0) return false;
        written_ += static_cast<std::size_t>(n);
    }
    if (written_ == queued_.size()) {
        queued_.clear();
        written_ = 0;
    }
    return to_engine_ >= 0;
}

int EngineProcess::end(int grace_ms) {
    if (to_engine_ >= 0 && queued_bytes() > 0) {  // the last lines (quit) before the input closes
        ::fcntl(to_engine_, F_SETFL, ::fcntl(to_engine_, F_GETFL) & ~O_NONBLOCK);
        flush();
    }
    close_fd(to_engine_);
    if (!reaped_) {
        const auto deadline =
            std::chrono::steady_clock::now() + std::chrono::milliseconds(grace_ms);
        while (::waitpid(pid_, &status_, WNOHANG) == 0) {
            if (std::chrono::steady_clock::now() >= deadline) {
                ::kill(pid_, SIGKILL);
                ::waitpid(pid_, &status_, 0);
                break;
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(5));
        }
        reaped_ = true;
    }
    close_fd(from_engine_);
    return status_;
}

}  // namespace damas::hub
