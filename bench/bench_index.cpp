// Class index speed: index plus unindex per second, and walking a class in index order.
// Single thread; figures per thread. And listing a class's men configurations slice by slice.
#include <benchmark/benchmark.h>

#include <random>
#include <vector>

#include "index/class_index.hpp"

namespace {

using damas::ClassIndex;
using damas::Material;

struct Case {
    damas::BoardSpec board;
    Material material;
};

const Case cases[] = {
    {damas::board_8x8, {2, 1, 1, 1}},             // 0: brazilian 5 pieces
    {damas::board_10x10, {3, 0, 2, 1}},           // 1: international 6 pieces
    {damas::board_8x8_orthogonal, {2, 1, 2, 0}},  // 2: turkish 5 pieces
    {damas::board_10x10, {0, 2, 0, 2}},           // 3: international kings only
};

void index_and_unindex(benchmark::State& state) {
    const Case& c = cases[state.range(0)];
    const ClassIndex index(c.board, c.material);
    std::mt19937_64 rng(1);
    std::vector<std::uint64_t> indices(4096);
    for (auto& i : indices) i = rng() % index.size();
    std::uint64_t sum = 0;
    std::size_t k = 0;
    for (auto _ : state) sum += index.index(index.unindex(indices[k++ & 4095]));
    benchmark::DoNotOptimize(sum);
    state.SetLabel(c.material.name());
    state.counters["pairs/s"] =
        benchmark::Counter(static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}

void unindex_only(benchmark::State& state) {
    const Case& c = cases[state.range(0)];
    const ClassIndex index(c.board, c.material);
    std::uint64_t i = 0, sum = 0;
    const std::uint64_t step = index.size() / 1000003 + 7919;
    for (auto _ : state) {
        const damas::Position p = index.unindex(i);
        sum += p.pieces[0] ^ p.kings;
        i += step;
        if (i >= index.size()) i -= index.size();
    }
    benchmark::DoNotOptimize(sum);
    state.SetLabel(c.material.name());
    state.counters["unindex/s"] =
        benchmark::Counter(static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}

void index_only(benchmark::State& state) {
    const Case& c = cases[state.range(0)];
    const ClassIndex index(c.board, c.material);
    std::mt19937_64 rng(1);
    std::vector<damas::Position> positions(4096);
    for (auto& p : positions) p = index.unindex(rng() % index.size());
    std::uint64_t sum = 0;
    std::size_t k = 0;
    for (auto _ : state) sum += index.index(positions[k++ & 4095]);
    benchmark::DoNotOptimize(sum);
    state.SetLabel(c.material.name());
    state.counters["index/s"] =
        benchmark::Counter(static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}

void walk(benchmark::State& state) {
    const Case& c = cases[state.range(0)];
    const ClassIndex index(c.board, c.material);
    const std::uint64_t chunk = 1 << 20;
    std::uint64_t begin = 0, sum = 0, positions = 0;
    for (auto _ : state) {
        index.for_each_position(begin, begin + chunk, [&](std::uint64_t, const damas::Position& p) {
            sum += p.pieces[1] ^ p.kings;
        });
        positions += std::min(chunk, index.size() - begin);
        begin = begin + chunk >= index.size() ? 0 : begin + chunk;
    }
    benchmark::DoNotOptimize(sum);
    state.SetLabel(c.material.name());
    state.counters["positions/s"] =
        benchmark::Counter(static_cast<double>(positions), benchmark::Counter::kIsRate);
}

// Every men configuration of a class slice by slice (ClassIndex::for_each_men_in_slice: what
// gen-rules asks per slice), international 3020 (12.4 M configurations, 41 slices).
void men_by_slice(benchmark::State& state) {
    const ClassIndex index(damas::board_10x10, Material{3, 0, 2, 0});
    std::uint64_t sum = 0, men = 0;
    for (auto _ : state)
        for (int s = 0; s < index.slice_count(); ++s)
            index.for_each_men_in_slice(s, [&](std::uint64_t i, const damas::MenPlacement& p) {
                sum += i ^ p.black;
                ++men;
            });
    benchmark::DoNotOptimize(sum);
    state.counters["men/s"] =
        benchmark::Counter(static_cast<double>(men), benchmark::Counter::kIsRate);
    state.counters["slices"] = index.slice_count();
    state.counters["men"] = static_cast<double>(index.men_count());
}

}  // namespace

BENCHMARK(men_by_slice)->Unit(benchmark::kMillisecond);
BENCHMARK(index_and_unindex)->DenseRange(0, 3);
BENCHMARK(unindex_only)->DenseRange(0, 3);
BENCHMARK(index_only)->DenseRange(0, 3);
BENCHMARK(walk)->DenseRange(0, 3)->Unit(benchmark::kMillisecond);
BENCHMARK_MAIN();
