#include "tests/support/cli.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <system_error>

#include "tests/support/scratch.hpp"

namespace damas::test {

CliRun run_program(const std::vector<std::string>& argv) {
    // One pair of files per run: tests run concurrently (ctest -j), and a test may run the
    // binary from several threads.
    static std::atomic<int> runs{0};
    const std::filesystem::path stem =
        std::filesystem::temp_directory_path() /
        ("damas-test-run-" + std::to_string(::getpid()) + "-" + std::to_string(runs++));
    const std::filesystem::path out = stem.string() + ".out", err = stem.string() + ".err";
    CliRun r;
    {
        ChildProcess child(argv, {out, err, false});
        const int status = child.wait();
        r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    }
    r.out = slurp(out);
    r.err = slurp(err);
    std::error_code ec;
    std::filesystem::remove(out, ec);
    std::filesystem::remove(err, ec);
    return r;
}

CliRun run_cli(const std::vector<std::string>& args) {
    return run_program(damas_argv(args));
}

CliRun run_shell(const std::string& command) {
    return run_program({"/bin/sh", "-c", command});
}

std::string damas_command(const std::string& args) {
    std::string command = "'";
    command += damas_binary();
    command += "' ";
    command += args;
    return command;
}

int run_damas(const std::string& args) {
    ChildProcess child({"/bin/sh", "-c", damas_command(args)});
    const int status = child.wait();
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

}  // namespace damas::test
