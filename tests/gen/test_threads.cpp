// Thread counts (issue 23): every --threads is bounded by a small multiple of the cores, with a
// one-line error and exit code 2 above it, and a thread that cannot be created is a clean error
// too, not an abort (oneTBB's worker threads used to terminate the process).
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>
#include <sstream>
#include <string>
#include <thread>

#include "gen/process/threads.hpp"
#include "gen_fixtures.hpp"
#include "rules/error.hpp"

namespace damas {
namespace {

using test::ScratchDir;

struct CliRun {
    int exit_code = -1;
    std::string err;
};

// Runs a shell command line (which must not redirect stderr) with a time limit, so that the
// unbounded counts of old (minutes of thrashing) fail the test instead of hanging it.
CliRun run(const std::string& command, const std::filesystem::path& scratch) {
    const std::filesystem::path err = scratch / "err.txt";
    const std::string line = "timeout 60 " + command + " >/dev/null 2>'" + err.string() + "'";
    const int status = std::system(line.c_str());
    std::ifstream in(err);
    std::stringstream s;
    s << in.rdbuf();
    return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, s.str()};
}

std::string damas(const std::string& args) {
    return std::string("'") + DAMAS_BINARY + "' " + args;
}

TEST(Threads, TheBoundIsASmallMultipleOfTheCores) {
    const int cores = std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
    EXPECT_EQ(max_threads(), max_threads_per_core * cores);
    EXPECT_EQ(checked_threads(0), cores);
    EXPECT_EQ(checked_threads(1), 1);
    EXPECT_EQ(checked_threads(max_threads()), max_threads());
    EXPECT_THROW(checked_threads(max_threads() + 1), Error);
    EXPECT_THROW(checked_threads(-1), Error);
    try {
        checked_threads(100000, "--threads");
        ADD_FAILURE() << "no error";
    } catch (const Error& e) {
        EXPECT_EQ(std::string(e.what()).rfind(
                      "--threads 100000 is too many: at most " + std::to_string(max_threads()), 0),
                  0u)
            << e.what();
    }
}

TEST(Threads, EveryCommandRefusesTooManyThreads) {
    ScratchDir dir("threads-cli");
    const std::string d = " -d '" + dir.path.string() + "'";
    for (const std::string& args :
         {"gen -q -v english -p 2 -t 100000" + d, "gen-rules -q -v english -p 2 -t 100000" + d,
          std::string("perft -v english -d 3 -t 100000"), "gen -q -v english -p 2 -t -3" + d,
          "serve -q -p 0 -t 100000" + d}) {
        const CliRun r = run(damas(args), dir.path);
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
    std::filesystem::copy_file(DAMAS_BINARY, binary);
    using std::filesystem::perms;
    std::filesystem::permissions(dir.path, perms::all);
    std::filesystem::permissions(binary, perms::owner_all | perms::group_read | perms::group_exec |
                                             perms::others_read | perms::others_exec);
    std::string as_limited = "prlimit --nproc=3 ";
    if (::geteuid() == 0) as_limited += "setpriv --reuid=65534 --regid=65534 --clear-groups ";
    // damas serve's workers have a bound of their own (tools/serve/serve.hpp) but are tried the same way.
    for (const std::string& command :
         {std::string("gen -q -v english -p 3 -t 4"), std::string("serve -q -p 0 -t 4")}) {
        const CliRun r = run(
            as_limited + "'" + binary.string() + "' " + command + " -d '" + dir.path.string() + "'",
            dir.path);
        EXPECT_EQ(r.exit_code, 2) << command << "\n" << r.err;
        EXPECT_EQ(r.err.rfind("damas: error: cannot start 4 threads (--threads)", 0), 0u)
            << command << "\n"
            << r.err;
        EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    }
}

}  // namespace
}  // namespace damas
