// The pairs of a generation run as a graph of work, for handing them out to several workers
// (`damas-mpi`, docs/distributed.md): which pairs each pair reads, and which ready pair to start
// next.
//
// Owns: for each pair of the run (its index in the plan's order, a class with its mirror), the
// pairs whose classes its moves reach (index/material.hpp: dependencies), every one earlier in
// the plan; and PairQueue, the state of a run: which pairs are done, running or waiting for
// their inputs. Several pairs are ready at once when none reads another (the classes of one size
// with different men counts, the many small pairs); of those, the queue hands out first the one
// that heads the heaviest chain of pairs still to solve (list scheduling on the critical path,
// weighted by positions, or by modelled seconds in a graph of units of work): the largest pairs
// sit at the end of long chains, and a run on N workers takes at least as long as its heaviest
// chain.
//
// No MPI here: the graph and the queue are plain data, tested on their own (tests/test_pair_graph).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "index/material.hpp"

namespace damas {

// "0201+0102": a class and its mirror, solved together ("0202" when it is its own mirror).
std::string pair_label(Material m);

struct PairGraph {
    std::vector<Material> pairs;                  // each pair's first class, in the plan's order
    std::vector<std::uint64_t> positions;         // of each pair (both classes)
    std::vector<std::vector<std::size_t>> needs;  // pairs read by each pair (earlier indices)
    std::vector<double> chain;  // the heaviest chain from the pair on, by the graph's weights
};

// The graph of pairs given in an order where every pair comes after those it reads (the plan's).
// Throws Error if a pair reads a later one (an order no run can follow).
PairGraph pair_graph(const std::vector<Material>& pairs,
                     const std::vector<std::uint64_t>& positions);

// Fills graph.chain from a weight a node (every node reading earlier ones only): what pair_graph
// does with positions, for graphs of other units of work (gen/plan/work_graph.hpp: their
// modelled seconds, since a unit's positions say little of a load or a write).
void set_heaviest_chains(PairGraph& graph, const std::vector<double>& weights);

class PairQueue {
  public:
    // `done`: the pairs already complete (their files checked), one flag per pair.
    PairQueue(const PairGraph& graph, const std::vector<bool>& done);
    // A pair whose inputs are all done, now marked running; none if no pair is ready now.
    std::optional<std::size_t> next();
    void finish(std::size_t pair);  // a running pair is done
    bool all_done() const { return done_count_ == graph_->pairs.size(); }
    std::size_t running() const { return running_; }
    std::size_t done_count() const { return done_count_; }

  private:
    enum class State : std::uint8_t { waiting, running, done };
    const PairGraph* graph_;
    std::vector<State> state_;
    std::vector<std::size_t> missing_inputs_;           // inputs not done yet, per pair
    std::vector<std::vector<std::size_t>> dependants_;  // the pairs that read each pair
    std::vector<std::size_t> ready_;                    // waiting with every input done
    std::size_t done_count_ = 0, running_ = 0;
};

// The time a run takes on `workers` workers that each solve one pair at a time, pair i taking
// seconds[i], handed out by PairQueue (the plan of damas-mpi: docs/distributed.md).
struct ScheduleEstimate {
    double seconds = 0;        // until the last pair is done
    double chain_seconds = 0;  // the heaviest chain of pairs: no number of workers does better
    double total_seconds = 0;  // every pair one after the other
};
ScheduleEstimate estimate_schedule(const PairGraph& graph, const std::vector<double>& seconds,
                                   int workers);

}  // namespace damas
