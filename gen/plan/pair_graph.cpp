#include "gen/plan/pair_graph.hpp"

#include <algorithm>
#include <functional>
#include <map>
#include <queue>
#include <utility>

#include "rules/error.hpp"

namespace damas {

namespace {

// Each pair's heaviest chain: its weight and the heaviest chain of a pair that reads it
// (backwards, since a pair reads only earlier ones).
std::vector<double> heaviest_chains(const std::vector<std::vector<std::size_t>>& needs,
                                    const std::vector<double>& weights) {
    std::vector<double> chain(weights.size(), 0.0), after(weights.size(), 0.0);
    for (std::size_t i = weights.size(); i-- > 0;) {
        chain[i] = weights[i] + after[i];
        for (const std::size_t n : needs[i]) after[n] = std::max(after[n], chain[i]);
    }
    return chain;
}

}  // namespace

std::string pair_label(Material m) {
    std::string s = m.name();
    if (m != m.mirrored()) {
        s += '+';
        s += m.mirrored().name();
    }
    return s;
}

PairGraph pair_graph(const std::vector<Material>& pairs,
                     const std::vector<std::uint64_t>& positions) {
    if (positions.size() != pairs.size()) throw Error("pair_graph: one count of positions a pair");
    PairGraph g{pairs, positions, std::vector<std::vector<std::size_t>>(pairs.size()), {}};
    std::map<Material, std::size_t> pair_of;
    for (std::size_t i = 0; i < pairs.size(); ++i)
        pair_of[pairs[i]] = pair_of[pairs[i].mirrored()] = i;
    for (std::size_t i = 0; i < pairs.size(); ++i) {
        for (const Material c : {pairs[i], pairs[i].mirrored()})
            for (const Material d : dependencies(c)) {
                const auto it = pair_of.find(d);
                if (it == pair_of.end()) continue;  // not part of this run (nor needed by it)
                if (it->second >= i)
                    throw Error("pair " + pairs[i].name() + " reads " + d.name() +
                                ", which is not solved before it");
                g.needs[i].push_back(it->second);
            }
        std::sort(g.needs[i].begin(), g.needs[i].end());
        g.needs[i].erase(std::unique(g.needs[i].begin(), g.needs[i].end()), g.needs[i].end());
    }
    set_heaviest_chains(g, std::vector<double>(positions.begin(), positions.end()));
    return g;
}

void set_heaviest_chains(PairGraph& graph, const std::vector<double>& weights) {
    if (weights.size() != graph.needs.size()) throw Error("set_heaviest_chains: one weight a node");
    graph.chain = heaviest_chains(graph.needs, weights);
}

PairQueue::PairQueue(const PairGraph& graph, const std::vector<bool>& done)
    : graph_(&graph),
      state_(graph.pairs.size(), State::waiting),
      missing_inputs_(graph.pairs.size(), 0),
      dependants_(graph.pairs.size()) {
    if (done.size() != graph.pairs.size()) throw Error("PairQueue: one flag a pair");
    for (std::size_t i = 0; i < done.size(); ++i)
        if (done[i]) {
            state_[i] = State::done;
            ++done_count_;
        }
    for (std::size_t i = 0; i < graph.pairs.size(); ++i)
        for (const std::size_t n : graph.needs[i]) {
            dependants_[n].push_back(i);
            if (state_[n] != State::done) ++missing_inputs_[i];
        }
    for (std::size_t i = 0; i < graph.pairs.size(); ++i)
        if (state_[i] == State::waiting && missing_inputs_[i] == 0) ready_.push_back(i);
}

std::optional<std::size_t> PairQueue::next() {
    if (ready_.empty()) return std::nullopt;
    // The heaviest chain first; of equal chains, the earliest in the plan.
    const auto best =
        std::max_element(ready_.begin(), ready_.end(), [&](std::size_t a, std::size_t b) {
            const double ca = graph_->chain[a], cb = graph_->chain[b];
            return ca != cb ? ca < cb : a > b;
        });
    const std::size_t pair = *best;
    ready_.erase(best);
    state_[pair] = State::running;
    ++running_;
    return pair;
}

void PairQueue::finish(std::size_t pair) {
    if (pair >= state_.size() || state_[pair] != State::running)
        throw Error("PairQueue: pair " + std::to_string(pair) + " was not running");
    state_[pair] = State::done;
    --running_;
    ++done_count_;
    for (const std::size_t d : dependants_[pair])
        if (--missing_inputs_[d] == 0 && state_[d] == State::waiting) ready_.push_back(d);
}

ScheduleEstimate estimate_schedule(const PairGraph& graph, const std::vector<double>& seconds,
                                   int workers) {
    if (seconds.size() != graph.pairs.size() || workers < 1)
        throw Error("estimate_schedule: one time a pair, at least one worker");
    ScheduleEstimate e;
    for (const double c : heaviest_chains(graph.needs, seconds))
        e.chain_seconds = std::max(e.chain_seconds, c);
    for (const double s : seconds) e.total_seconds += s;
    // Events: the time each running pair ends. Free workers take ready pairs at once.
    PairQueue queue(graph, std::vector<bool>(seconds.size(), false));
    std::priority_queue<std::pair<double, std::size_t>, std::vector<std::pair<double, std::size_t>>,
                        std::greater<>>
        running;
    double now = 0;
    int free = workers;
    while (!queue.all_done()) {
        while (free > 0) {
            const auto pair = queue.next();
            if (!pair) break;
            running.emplace(now + seconds[*pair], *pair);
            --free;
        }
        const auto [end, pair] = running.top();
        running.pop();
        now = end;
        queue.finish(pair);
        ++free;
    }
    e.seconds = now;
    return e;
}

}  // namespace damas
