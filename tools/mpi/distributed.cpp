#include "tools/mpi/distributed.hpp"

#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <deque>
#include <exception>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include "rules/error.hpp"

namespace damas::mpi {
namespace {

constexpr int tag_request = 11;  // worker to coordinator: the pair it finished, or -1
constexpr int tag_assign = 12;   // coordinator to worker: the pair to solve, or stop_signal
constexpr long long stop_signal = -1;
constexpr auto poll_interval = std::chrono::milliseconds(1);

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t) {
    return std::chrono::duration<double>(Clock::now() - t).count();
}

int rank_of(MPI_Comm comm) {
    int rank = 0;
    MPI_Comm_rank(comm, &rank);
    return rank;
}

// Waits for a message without spinning a core (see the design comment).
void wait_for_message(MPI_Comm comm, int source, int tag) {
    for (;;) {
        int arrived = 0;
        MPI_Iprobe(source, tag, comm, &arrived, MPI_STATUS_IGNORE);
        if (arrived) return;
        std::this_thread::sleep_for(poll_interval);
    }
}

// Between rank 0's worker thread and the coordinator on its main thread: one request and one
// answer at a time, as an MPI worker's messages.
class LocalChannel {
  public:
    // Worker side: says which pair it finished (-1: none) and waits for the next one (or
    // stop_signal).
    long long request(long long finished) {
        std::unique_lock lock(mutex_);
        finished_ = finished;
        asking_ = true;
        answered_.wait(lock, [&] { return answer_.has_value(); });
        const long long pair = *answer_;
        answer_.reset();
        return pair;
    }
    void fail(const std::string& message) {
        std::lock_guard lock(mutex_);
        error_ = message;
    }
    // Coordinator side.
    std::optional<long long> take_request() {
        std::lock_guard lock(mutex_);
        if (!asking_) return std::nullopt;
        asking_ = false;
        return finished_;
    }
    void answer(long long pair) {
        {
            std::lock_guard lock(mutex_);
            answer_ = pair;
        }
        answered_.notify_one();
    }
    std::optional<std::string> error() {
        std::lock_guard lock(mutex_);
        return error_;
    }

  private:
    std::mutex mutex_;
    std::condition_variable answered_;
    bool asking_ = false;
    long long finished_ = -1;
    std::optional<long long> answer_;
    std::optional<std::string> error_;
};

long long request_from_coordinator(MPI_Comm comm, long long finished) {
    MPI_Send(&finished, 1, MPI_LONG_LONG, 0, tag_request, comm);
    wait_for_message(comm, 0, tag_assign);
    long long pair = stop_signal;
    MPI_Recv(&pair, 1, MPI_LONG_LONG, 0, tag_assign, comm, MPI_STATUS_IGNORE);
    return pair;
}

template <class Request>
RankTimes work(const Request& request, const std::function<void(std::size_t)>& run_pair) {
    RankTimes times;
    long long finished = -1;
    for (;;) {
        const auto asked = Clock::now();
        const long long pair = request(finished);
        times.wait_seconds += seconds_since(asked);
        if (pair < 0) return times;
        const auto started = Clock::now();
        run_pair(static_cast<std::size_t>(pair));
        times.busy_seconds += seconds_since(started);
        times.pairs += 1;
        finished = pair;
    }
}

void coordinate(MPI_Comm comm, const PairGraph& graph, const std::vector<bool>& done,
                LocalChannel& local) {
    int ranks = 1;
    MPI_Comm_size(comm, &ranks);
    PairQueue queue(graph, done);
    std::deque<int> idle;  // ranks waiting for a pair (0: the local worker)
    int stopped = 0;
    const auto finish = [&](long long pair) {
        if (pair >= 0) queue.finish(static_cast<std::size_t>(pair));
    };
    while (stopped < ranks) {
        bool acted = false;
        if (const auto error = local.error()) abort_job(comm, *error);
        if (const auto finished = local.take_request()) {
            finish(*finished);
            idle.push_back(0);
            acted = true;
        }
        int arrived = 0;
        MPI_Status status;
        MPI_Iprobe(MPI_ANY_SOURCE, tag_request, comm, &arrived, &status);
        if (arrived) {
            long long finished = -1;
            MPI_Recv(&finished, 1, MPI_LONG_LONG, status.MPI_SOURCE, tag_request, comm,
                     MPI_STATUS_IGNORE);
            finish(finished);
            idle.push_back(status.MPI_SOURCE);
            acted = true;
        }
        while (!idle.empty()) {
            long long answer = stop_signal;
            if (!queue.all_done()) {
                const auto pair = queue.next();
                if (!pair) break;
                answer = static_cast<long long>(*pair);
            }
            const int rank = idle.front();
            idle.pop_front();
            if (rank == 0)
                local.answer(answer);
            else
                MPI_Send(&answer, 1, MPI_LONG_LONG, rank, tag_assign, comm);
            if (answer == stop_signal) ++stopped;
            acted = true;
        }
        if (static_cast<int>(idle.size()) == ranks - stopped && queue.running() == 0 &&
            !queue.all_done())
            abort_job(comm, "no pair is ready and none is running: the graph of pairs is broken");
        if (!acted) std::this_thread::sleep_for(poll_interval);
    }
}

}  // namespace

void abort_job(MPI_Comm comm, const std::string& message) {
    std::fprintf(stderr, "damas-mpi: rank %d: error: %s\n", rank_of(comm), message.c_str());
    std::fflush(stderr);
    MPI_Abort(comm, 2);
    std::abort();  // MPI_Abort does not return
}

RankTimes run_pairs(MPI_Comm comm, const PairGraph& graph, const std::vector<bool>& done,
                    const std::function<void(std::size_t)>& run_pair) {
    if (rank_of(comm) != 0) {
        try {
            return work([&](long long f) { return request_from_coordinator(comm, f); }, run_pair);
        } catch (const std::exception& e) {
            abort_job(comm, e.what());
        }
    }
    LocalChannel local;
    RankTimes times;
    std::thread worker([&] {
        try {
            times = work([&](long long f) { return local.request(f); }, run_pair);
        } catch (const std::exception& e) {
            local.fail(e.what());  // the coordinator, which may call MPI, aborts the job
        }
    });
    try {
        coordinate(comm, graph, done, local);
    } catch (const std::exception& e) {
        abort_job(comm, e.what());
    }
    worker.join();
    return times;
}

}  // namespace damas::mpi
