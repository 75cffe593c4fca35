#include "tests/support/process.hpp"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <stdexcept>
#include <thread>

namespace damas::test {

namespace {

// The file for one of the child's streams, opened before the fork (open is all the child does).
int open_for_child(const std::filesystem::path& p) {
    return p.empty() ? ::open("/dev/null", O_WRONLY)
                     : ::open(p.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
}

}  // namespace

ChildProcess::ChildProcess(const std::vector<std::string>& argv, const ChildOutput& output) {
    std::vector<char*> args;
    for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    int fds[2] = {-1, -1};
    if (output.out_to_pipe && ::pipe(fds) != 0) throw std::runtime_error("pipe");
    const int out = output.out_to_pipe ? fds[1] : open_for_child(output.out);
    const int err = open_for_child(output.err);
    pid_ = ::fork();
    if (pid_ == 0) {
        if (output.out_to_pipe) ::close(fds[0]);
        ::dup2(out, 1);
        ::dup2(err, 2);
        ::execv(args[0], args.data());
        ::_exit(127);
    }
    ::close(out);
    ::close(err);
    if (pid_ < 0) {
        if (output.out_to_pipe) ::close(fds[0]);
        throw std::runtime_error("fork");
    }
    pipe_ = fds[0];
}

ChildProcess::~ChildProcess() {
    if (pid_ > 0 && !status_) stop(SIGKILL);
    if (pipe_ >= 0) ::close(pipe_);
}

bool ChildProcess::running() {
    if (status_) return false;
    int status = 0;
    if (::waitpid(pid_, &status, WNOHANG) != pid_) return true;
    status_ = status;
    return false;
}

std::string ChildProcess::read_line() {
    std::string line;
    char c = 0;
    while (pipe_ >= 0 && ::read(pipe_, &c, 1) == 1 && c != '\n') line += c;
    return line;
}

int ChildProcess::wait() {
    if (!status_) {
        int status = 0;
        while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
        }
        status_ = status;
    }
    return *status_;
}

int ChildProcess::stop(int signal) {
    if (running()) ::kill(pid_, signal);
    return wait();
}

const char* damas_binary() {
    return DAMAS_BINARY;
}

std::vector<std::string> damas_argv(const std::vector<std::string>& args) {
    std::vector<std::string> argv{damas_binary()};
    argv.insert(argv.end(), args.begin(), args.end());
    return argv;
}

bool run_and_kill(const std::vector<std::string>& args, std::chrono::milliseconds delay) {
    return run_and_kill(args, delay, [] { return false; });
}

bool run_and_kill(const std::vector<std::string>& args, std::chrono::milliseconds delay,
                  const std::function<bool()>& far_enough) {
    const auto deadline = std::chrono::steady_clock::now() + delay;
    ChildProcess child(damas_argv(args));
    EXPECT_GT(child.pid(), 0);
    while (std::chrono::steady_clock::now() < deadline && child.running() && !far_enough())
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
    const int status = child.stop(SIGKILL);
    return WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL;
}

}  // namespace damas::test
