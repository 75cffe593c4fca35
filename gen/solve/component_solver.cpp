#include "gen/solve/component_solver.hpp"

#include <tbb/blocked_range.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <span>
#include <type_traits>
#include <vector>

#include "gen/solve/position_initialiser.hpp"
#include "gen/solve/predecessors.hpp"

// Builds that only check the code (sanitizers: .ci/tsan) set it to 0: the 16 copies of the hot
// loops per variant made the solver take 4 minutes to compile under ThreadSanitizer.
#ifndef DAMAS_SPECIALISE_KINGS
#define DAMAS_SPECIALISE_KINGS 1
#endif

namespace damas::solving {
namespace {

// Calls f with m's White and Black kings as compile-time constants (std::integral_constant) up
// to 3 a side, else with -1 for both.
template <int W = 0, int B = 0, class F>
void with_kings(const Material& m, F&& f) {
    if constexpr (W > 3 || !DAMAS_SPECIALISE_KINGS) {
        f(std::integral_constant<int, -1>{}, std::integral_constant<int, -1>{});
    } else if constexpr (B > 3) {
        with_kings<W + 1, 0>(m, f);
    } else if (m.white_kings == W && m.black_kings == B) {
        f(std::integral_constant<int, W>{}, std::integral_constant<int, B>{});
    } else {
        with_kings<W, B + 1>(m, f);
    }
}

// A thread's buffers, kept from one component to the next.
struct Component {
    std::unique_ptr<State[]> states;
    std::vector<std::vector<std::uint32_t>> buckets;  // the states pushed, by distance
    int highest = 0;                                  // the highest level pushed
    int touched = 0;  // the highest level that may have room left from earlier components
    double initialise = 0, resolve = 0;  // seconds of this thread, over the slice
    // When the component being solved started: two clock reads per component, not three (a
    // component of the classes without kings is one or two positions).
    std::chrono::steady_clock::time_point clock;
    ConfigurationValues values;  // on their way to a streamed unit file

    // The initialiser's sink.
    State& state(std::uint64_t s) { return states[s]; }
    void push(std::uint64_t s, int d) {
        check_distance(d);
        buckets[static_cast<std::size_t>(d)].push_back(static_cast<std::uint32_t>(s));
        highest = std::max(highest, d);
    }
};

struct ComponentMen {
    std::uint64_t men[2];    // the men index of each configuration: class 0's, its flip's
    std::uint64_t rank;      // class 0's configuration's rank in the slice
    int blocks;              // 1 when the class is its own mirror and men[0] its own flip
    MenPlacement placement;  // class 0's men
};

template <class R>
class Components final : public ComponentSolver {
  public:
    Components(const PairTables& tables, const PreviousSlice& previous)
        : tables_(tables), initialiser_(tables, previous), predecessors_(tables) {}

    void solve(const SliceLayout& slice, ConfigurationRange range, SliceOutput& output,
               SolveTimes& times) override;

  private:
    std::uint64_t kings_per_men() const { return tables_.kings_per_men(); }
    bool component_at(std::uint64_t j, ComponentMen& out) const;
    void solve_component(const ComponentMen& men, Component& component);
    template <int WK, int BK>
    void resolve_component(const MenBlock* blocks, const FreeSquares* free,
                           Component& component) const;
    void keep_bucket_room(Component& component) const;

    const PairTables& tables_;
    const PositionInitialiser<R> initialiser_;
    const Predecessors<R> predecessors_;
    FlippedKings flipped_kings_;
    tbb::enumerable_thread_specific<Component> components_;
    const SliceLayout* slice_ = nullptr;  // the slice being solved
    SliceOutput* output_ = nullptr;
};

template <class R>
void Components<R>::solve(const SliceLayout& slice, ConfigurationRange range, SliceOutput& output,
                          SolveTimes& times) {
    const auto t0 = std::chrono::steady_clock::now();
    slice_ = &slice;
    output_ = &output;
    if (flipped_kings_.empty()) flipped_kings_ = make_flipped_kings(tables_);
    // Made as they are solved: a list of the slice's components took 48 bytes a configuration
    // (4.5 GB for the largest slice of international 3040, 93 M).
    std::atomic<std::uint64_t> components{0};
    tbb::parallel_for(tbb::blocked_range<std::uint64_t>(range.first, range.end, 1),
                      [&](const auto& r) {
                          Component& component = components_.local();
                          if (!component.states) {
                              component.states = std::make_unique<State[]>(2 * kings_per_men());
                              component.buckets.resize(max_plies + 1);
                          }
                          component.clock = std::chrono::steady_clock::now();
                          std::uint64_t solved = 0;
                          for (std::uint64_t j = r.begin(); j != r.end(); ++j) {
                              ComponentMen men;
                              if (!component_at(j, men)) continue;
                              solve_component(men, component);
                              ++solved;
                          }
                          components.fetch_add(solved, std::memory_order_relaxed);
                      });
    times.components += components.load();
    // The threads' time split in the proportion of their phases.
    double initialise = 0, resolve = 0;
    for (Component& component : components_) {
        initialise += component.initialise;
        resolve += component.resolve;
        component.initialise = component.resolve = 0;
    }
    const double wall =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const double share = initialise + resolve > 0 ? initialise / (initialise + resolve) : 0;
    times.initialise += wall * share;
    times.resolve += wall * (1 - share);
}

// The component of the j-th men configuration of class 0 in the slice being solved, or false
// where it is another one's (a class that is its own mirror: the flip's).
template <class R>
bool Components<R>::component_at(std::uint64_t j, ComponentMen& out) const {
    const std::uint64_t men = slice_->men[0][j];
    const MenPlacement p = tables_.indices[0].men(men);
    const std::uint64_t flipped = tables_.indices[tables_.mirror(0)].men_index(
        tables_.flip.rotate(p.black), tables_.flip.rotate(p.white));
    const bool single = tables_.classes == 1;
    if (single && flipped < men) return false;  // in flipped's component
    out = {{men, flipped}, j, single && flipped == men ? 1 : 2, p};
    return true;
}

template <class R>
void Components<R>::solve_component(const ComponentMen& men, Component& component) {
    const auto t0 = component.clock;  // the previous component's end
    const std::uint64_t k = kings_per_men();
    MenBlock blocks[2];
    FreeSquares free[2];
    for (int b = 0; b < men.blocks; ++b) {
        const int c = b == 0 ? 0 : tables_.mirror(0);
        // The flip's men are class 0's rotated (no unranking).
        const MenPlacement placement = b == 0
                                           ? men.placement
                                           : MenPlacement{tables_.flip.rotate(men.placement.black),
                                                          tables_.flip.rotate(men.placement.white)};
        blocks[b] = {placement, men.blocks == 2 ? (1 - b) * k : 0, c};
        free[b].set(tables_.board_mask, blocks[b].men.white | blocks[b].men.black);
        const ManMoves moves = initialiser_.man_moves(c, placement, slice_->slice);
        initialiser_.prefetch_successor_results(moves);
        const std::uint64_t first = men.men[b] * k;
        DeferredExits deferred;
        with_kings(tables_.materials[c], [&](auto white_kings, auto black_kings) {
            tables_.indices[c].for_each_position(
                first, first + k, [&](std::uint64_t i, const Position& p) {
                    initialiser_.template initialise<white_kings, black_kings>(
                        b * k + (i - first), p, moves, free[b], deferred, component);
                });
        });
        initialiser_.finish_deferred(deferred, component);
    }
    const auto t1 = std::chrono::steady_clock::now();
    with_kings(tables_.materials[0], [&](auto white_kings, auto black_kings) {
        resolve_component<white_kings, black_kings>(blocks, free, component);
    });
    keep_bucket_room(component);
    for (int b = 0; b < men.blocks; ++b) {
        // Class 0's rank is known from the list (a computed layout's rank is a search).
        const std::uint64_t local = b == 0 ? slice_->rank_start(0, men.rank)
                                           : slice_->configuration_start(blocks[b].c, men.men[b]);
        output_->put_configuration(local, {component.states.get() + b * k, k}, component.values);
    }
    const auto t2 = std::chrono::steady_clock::now();
    component.initialise += std::chrono::duration<double>(t1 - t0).count();
    component.resolve += std::chrono::duration<double>(t2 - t1).count();
    component.clock = t2;
}

// WK and BK: class 0's kings (-1: not known at compile time); the mirror's are BK and WK.
template <class R>
template <int WK, int BK>
void Components<R>::resolve_component(const MenBlock* blocks, const FreeSquares* free,
                                      Component& component) const {
    for (int d = 0; d <= component.highest; ++d) {
        // Resolving d pushes to later levels only: the bucket does not grow meanwhile.
        std::vector<std::uint32_t>& bucket = component.buckets[static_cast<std::size_t>(d)];
        for (const std::uint32_t s : bucket) {
            State& state = component.states[s];
            const StateWord w = StateWord::of(state.load(std::memory_order_relaxed));
            const Value value = resolution(w, d);
            if (value == Value::unknown) continue;
            state.store(w.word() | resolved_status(value), std::memory_order_relaxed);
            std::uint64_t j = 0, kings_index = 0;
            tables_.kings_per_men_divisor.divide(s, j, kings_index);
            // One store per predecessor, needed or not: a branch on it mispredicts.
            const auto tell = [&](std::uint32_t q, auto told_by) {
                State& predecessor = component.states[q];
                const Told told = told_by(predecessor.load(std::memory_order_relaxed), d);
                predecessor.store(told.word, std::memory_order_relaxed);
                if (told.level != no_level) component.push(q, told.level);
            };
            const auto for_each_predecessor = [&](auto&& f) {
                if (j == 0)
                    predecessors_.template by_flip_table<WK, BK>(blocks[0], kings_index, free[0],
                                                                 flipped_kings_, f);
                else
                    predecessors_.template by_flip_table<BK, WK>(blocks[1], kings_index, free[1],
                                                                 flipped_kings_, f);
            };
            if (value == Value::loss)
                for_each_predecessor([&](std::uint32_t q) {
                    tell(q, [](std::uint32_t old, int at) { return told_lost(old, at); });
                });
            else
                for_each_predecessor([&](std::uint32_t q) {
                    tell(q, [](std::uint32_t old, int at) { return told_won(old, at); });
                });
        }
        bucket.clear();
    }
}

// Bounded memory: the buckets keep their room for the next components unless it grew beyond a
// few entries per state.
template <class R>
void Components<R>::keep_bucket_room(Component& component) const {
    component.touched = std::max(component.touched, component.highest);
    component.highest = 0;
    std::size_t room = 0;
    for (int d = 0; d <= component.touched; ++d) room += component.buckets[d].capacity();
    if (room > 8 * kings_per_men()) {
        for (int d = 0; d <= component.touched; ++d)
            std::vector<std::uint32_t>().swap(component.buckets[d]);
        component.touched = 0;
    }
}

}  // namespace

std::unique_ptr<ComponentSolver> make_component_solver(const PairTables& tables,
                                                       const PreviousSlice& previous) {
    return dispatch(tables.variant.base, [&](auto rules) -> std::unique_ptr<ComponentSolver> {
        return std::make_unique<Components<decltype(rules)>>(tables, previous);
    });
}

}  // namespace damas::solving
