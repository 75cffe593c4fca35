// Thread counts that users ask for (--threads, GenerateOptions::threads): bounded and checked.
//
// Owns: the bound and the check that the threads can start. Every worker is a real thread
// (oneTBB arenas, the writer's pipeline), so a count in the thousands does not run faster but
// thrashes the host; more threads than cores only helps a little (waits on I/O), so the bound is
// a small multiple of the cores. A thread that cannot be created (a process limit, no memory for
// its stack) makes oneTBB abort the process, so the threads are tried once before the work
// starts and a failure is a clear error instead.
#pragma once

namespace damas {

// Threads per core a count may ask for at most.
inline constexpr int max_threads_per_core = 4;

// The largest thread count accepted on this machine: max_threads_per_core per core (at least
// one core).
int max_threads();

// The thread count to use for `requested` (0: one per core). Throws Error (naming `option`, e.g.
// "--threads") if it is negative or above max_threads(), or if that many threads cannot be
// started at once on this machine now.
int checked_threads(int requested, const char* option = "--threads");

// Throws Error (naming `option`) unless n threads (the caller counts as one) can be started at
// once on this machine now: for a pool with a bound of its own, such as damas serve's connection
// workers, which wait on sockets rather than on the CPU (tools/serve/serve.hpp).
void check_threads_start(int n, const char* option = "--threads");

}  // namespace damas
