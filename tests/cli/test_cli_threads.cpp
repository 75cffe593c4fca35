// Thread counts on the command line (issue 23): every --threads above the bound
// (gen/process/threads.hpp, tests/gen/test_threads.cpp) is a one-line error with exit code 2,
// and a thread that cannot be created is a clean error too, not an abort (oneTBB's worker
// threads used to terminate the process).
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <string>

#include "tests/support/cli.hpp"
#include "tests/support/scratch.hpp"

namespace damas {
namespace {

using test::CliRun;
using test::ScratchDir;

// Runs a shell command line with a time limit, so that the unbounded counts of old (minutes of
// thrashing) fail the test instead of hanging it.
CliRun run_command(const std::string& command) {
    return test::run_shell("timeout 60 " + command);
}

TEST(Threads, EveryCommandRefusesTooManyThreads) {
    ScratchDir dir("threads-cli");
    const std::string d = " -d '" + dir.path.string() + "'";
    for (const std::string& args :
         {"gen -q -v english -p 2 -t 100000" + d, "gen-rules -q -v english -p 2 -t 100000" + d,
          std::string("perft -v english -d 3 -t 100000"), "gen -q -v english -p 2 -t -3" + d,
          "serve -q -p 0 -t 100000" + d}) {
        const CliRun r = run_command(test::damas_command(args));
        EXPECT_EQ(r.exit_code, 2) << args << "\n" << r.err;
        EXPECT_EQ(r.err.rfind("damas: error: --threads ", 0), 0u) << args << "\n" << r.err;
        EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    }
}

// Threads that cannot be created: a process limit of 3 (the main thread and two more), for a
// user who has no other process (root ignores the limit, so it runs as nobody). oneTBB aborted
// here (exit 134, "terminate called after throwing ... pthread_create has failed").
TEST(Threads, ThreadsThatCannotStartAreACleanError) {
    if (std::system("command -v prlimit >/dev/null && command -v setpriv >/dev/null") != 0)
        GTEST_SKIP() << "needs prlimit and setpriv (util-linux)";
    ScratchDir dir("threads-limit");
    // A copy of the binary and a folder that nobody may use.
    const std::filesystem::path binary = dir.path / "damas";
    std::filesystem::copy_file(test::damas_binary(), binary);
    using std::filesystem::perms;
    std::filesystem::permissions(dir.path, perms::all);
    std::filesystem::permissions(binary, perms::owner_all | perms::group_read | perms::group_exec |
                                             perms::others_read | perms::others_exec);
    std::string as_limited = "prlimit --nproc=3 ";
    if (::geteuid() == 0) as_limited += "setpriv --reuid=65534 --regid=65534 --clear-groups ";
    // damas serve's workers have a bound of their own (tools/serve/serve.hpp) but are tried the
    // same way.
    for (const std::string& command :
         {std::string("gen -q -v english -p 3 -t 4"), std::string("serve -q -p 0 -t 4")}) {
        const CliRun r = run_command(as_limited + "'" + binary.string() + "' " + command + " -d '" +
                                     dir.path.string() + "'");
        EXPECT_EQ(r.exit_code, 2) << command << "\n" << r.err;
        EXPECT_EQ(r.err.rfind("damas: error: cannot start 4 threads (--threads)", 0), 0u)
            << command << "\n"
            << r.err;
        EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    }
}

}  // namespace
}  // namespace damas
