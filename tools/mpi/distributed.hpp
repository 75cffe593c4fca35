// Handing the pairs of a run out to the ranks of an MPI job (docs/distributed.md).
//
// Owns: the coordinator and the workers. Rank 0 runs the coordinator on its main thread (the
// only thread of a rank that calls MPI: MPI_THREAD_FUNNELED) and a worker on a second thread;
// every other rank runs one worker. A worker asks the coordinator for a pair, solves it from
// the files of the pairs it reads (gen/run/pair_runner.hpp), writes its files atomically into the
// shared folder, and asks again, saying which pair it finished; the coordinator hands out the
// ready pairs (gen/plan/pair_graph.hpp: the heaviest chain first) and tells the workers to stop
// once every pair is done. A coordinator rather than work stealing: a run has tens to a few
// thousand pairs of seconds to hours each, so one message per pair costs nothing, and one place
// knows the graph. Waiting for a message polls (MPI_Iprobe, then a millisecond's sleep) instead
// of blocking, since a blocked OpenMPI receive spins a core that the solver of an
// oversubscribed rank needs.
//
// A worker that fails (an error, a full disk) aborts the whole job (MPI_Abort); a killed rank
// ends the job through mpirun. Either way a rerun resumes from the files: complete pairs are
// skipped, a pair in units continues from its unit files.
#pragma once

#include <cstddef>
#include <functional>
#include <vector>

#include <mpi.h>

#include "gen/plan/pair_graph.hpp"

namespace damas::mpi {

// What one rank did: pairs solved, seconds solving, seconds waiting for a pair to be ready (or
// for the coordinator's answer).
struct RankTimes {
    double pairs = 0;
    double busy_seconds = 0;
    double wait_seconds = 0;
};

// Runs the pairs of `graph` not marked done over the ranks of `comm`: every rank calls it with
// the same graph; `run_pair(i)` solves pair i on the calling rank. Returns this rank's times.
RankTimes run_pairs(MPI_Comm comm, const PairGraph& graph, const std::vector<bool>& done,
                    const std::function<void(std::size_t)>& run_pair);

// Ends the job from any rank or thread: prints "damas-mpi: rank R: error: message" and aborts
// every rank (exit code 2).
[[noreturn]] void abort_job(MPI_Comm comm, const std::string& message);

}  // namespace damas::mpi
