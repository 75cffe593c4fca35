// What the process uses: CPU time, peak resident memory, and malloc's settings for the
// generator's large buffers. The run reports them per pair (gen/run/pair_runner.hpp).
#pragma once

#include <cstdint>

namespace damas {

// Large buffers (slices, chunks, classes' values) are mapped and unmapped, never kept in
// malloc's arenas. Called once, before any pair.
void prepare_generation_process();

// The process's CPU time so far (all threads), to tell a busy host from a slow pair.
double cpu_seconds();

// Starts measuring the peak resident memory from what is resident now (after returning freed
// heap memory to the system).
void reset_peak_resident();

// The process's peak resident memory since the last reset (VmHWM), 0 if unknown.
std::uint64_t peak_resident_bytes();

}  // namespace damas
