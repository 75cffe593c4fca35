#include "gen/process/resources.hpp"

#include <malloc.h>
#include <sys/resource.h>

#include <fstream>
#include <string>

namespace damas {

void prepare_generation_process() {
    // Large buffers (slices, chunks, classes' values) are mapped and unmapped, never kept in
    // malloc's arenas: glibc raises its threshold after the first large free, after which blocks
    // up to 32 MiB came from the arenas and stayed there (english 2-6 --memory 512M peaked 160 MiB
    // above a pair's own peak, 680 against 518 MiB).
    ::mallopt(M_MMAP_THRESHOLD, 1 << 20);
}

double cpu_seconds() {
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    const auto seconds = [](const timeval& t) {
        return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) * 1e-6;
    };
    return seconds(u.ru_utime) + seconds(u.ru_stime);
}

// clear_refs 5 sets VmHWM to what is resident now. The run calls it once the classes the pair
// before kept and this one does not need are dropped, so that a pair's peak does not count them.
void reset_peak_resident() {
    // What was freed goes back to the system first (malloc keeps freed heap memory of its
    // arenas otherwise).
    ::malloc_trim(0);
    std::ofstream("/proc/self/clear_refs") << "5";
}

std::uint64_t peak_resident_bytes() {
    std::uint64_t kib = 0;
    {
        std::ifstream status("/proc/self/status");
        std::string key;
        while (status >> key)
            if (key == "VmHWM:") {
                status >> kib;
                break;
            }
    }
    return kib * 1024;
}

}  // namespace damas
