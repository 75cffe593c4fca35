#include "gen/process/threads.hpp"

#include <algorithm>
#include <condition_variable>
#include <mutex>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

#include "rules/error.hpp"

namespace damas {
namespace {

// Starts n - 1 threads (the caller is the n-th), all alive at once, then lets them end: what a
// pool of n workers needs. Throws Error if one cannot be created.
void try_start_threads(int n, const char* option) {
    std::mutex mutex;
    std::condition_variable released;
    bool done = false;
    std::vector<std::thread> started;
    const auto release = [&] {
        {
            std::lock_guard lock(mutex);
            done = true;
        }
        released.notify_all();
        for (std::thread& t : started) t.join();
    };
    try {
        started.reserve(static_cast<std::size_t>(n));
        for (int i = 1; i < n; ++i)
            started.emplace_back([&] {
                std::unique_lock lock(mutex);
                released.wait(lock, [&] { return done; });
            });
    } catch (const std::system_error& e) {
        const std::size_t ok = started.size() + 1;
        release();
        throw Error(std::string("cannot start ") + std::to_string(n) + " threads (" + option +
                    "): only " + std::to_string(ok) + " could be created: " + e.what());
    }
    release();
}

}  // namespace

void check_threads_start(int n, const char* option) {
    try_start_threads(n, option);
}

int max_threads() {
    const int cores = std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
    return max_threads_per_core * cores;
}

int checked_threads(int requested, const char* option) {
    if (requested < 0) throw Error(std::string(option) + " must not be negative");
    const int cores = std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
    const int bound = max_threads();
    if (requested > bound)
        throw Error(std::string(option) + " " + std::to_string(requested) +
                    " is too many: at most " + std::to_string(bound) + " on this machine (" +
                    std::to_string(max_threads_per_core) + " per core, " + std::to_string(cores) +
                    " cores)");
    const int n = requested == 0 ? cores : requested;
    try_start_threads(n, option);
    return n;
}

}  // namespace damas
