// Thread counts (issue 23, gen/process/threads.hpp): every --threads is bounded by a small
// multiple of the cores, with an error above it (the commands' one-line errors, and a thread that
// cannot be created: tests/cli/test_cli_threads.cpp).
#include <gtest/gtest.h>

#include <string>
#include <thread>

#include "gen/process/threads.hpp"
#include "rules/error.hpp"

namespace damas {
namespace {

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

}  // namespace
}  // namespace damas
