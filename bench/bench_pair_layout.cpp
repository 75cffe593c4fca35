// PairLayout (gen/units/pair_layout.hpp), tabled against computed: making the layout, listing every
// slice (what a pair solved slice by slice asks once per slice), and a rank (what the solvers
// ask per position), on international 2030 + 0320 (12.2 M men configurations a class, no kings);
// and the computed list of the largest slice of international 3040 (1.64 G configurations a
// class), the pair the computed mode is for.
#include <benchmark/benchmark.h>

#include <random>
#include <vector>

#include "gen/units/pair_layout.hpp"

namespace damas {
namespace {

const Material pair_2030{2, 0, 3, 0};

PairLayout layout_in(LayoutMode mode, Material m) {
    GenerationTuning tuning;
    tuning.layout_mode = mode;
    return PairLayout(board_10x10, m, tuning);
}

void BM_MakeLayout(benchmark::State& state) {
    const auto mode = static_cast<LayoutMode>(state.range(0));
    for (auto _ : state) benchmark::DoNotOptimize(layout_in(mode, pair_2030).slice_count());
}
BENCHMARK(BM_MakeLayout)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);

// Every slice's list of class 0 (a fresh layout each time, so that no list is kept).
void BM_EverySliceList(benchmark::State& state) {
    const auto mode = static_cast<LayoutMode>(state.range(0));
    std::uint64_t men = 0;
    for (auto _ : state) {
        state.PauseTiming();
        const PairLayout layout = layout_in(mode, pair_2030);
        state.ResumeTiming();
        for (int s = 0; s < layout.slice_count(); ++s) men += layout.slice_men(0, s).size();
    }
    state.SetItemsProcessed(static_cast<std::int64_t>(men));
}
BENCHMARK(BM_EverySliceList)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);

// The rank of a configuration of the largest slice, taken at random (as man moves reach them).
void BM_Rank(benchmark::State& state) {
    const PairLayout layout = layout_in(static_cast<LayoutMode>(state.range(0)), pair_2030);
    int largest = 0;
    for (int s = 0; s < layout.slice_count(); ++s)
        if (layout.men_in_slice(0, s) > layout.men_in_slice(0, largest)) largest = s;
    const SliceMen men = layout.slice_men(0, largest);
    std::mt19937_64 random(1);
    std::vector<std::uint64_t> asked(1 << 16);
    for (std::uint64_t& a : asked) a = men[random() % men.size()];
    std::size_t i = 0;
    for (auto _ : state) {
        benchmark::DoNotOptimize(men.rank(asked[i]));
        i = (i + 1) % asked.size();
    }
}
BENCHMARK(BM_Rank)->Arg(0)->Arg(1);

// The computed list of the largest slice of international 3040 (about 0.5 GB).
void BM_LargestSliceList3040(benchmark::State& state) {
    const PairLayout layout(board_10x10, {3, 0, 4, 0});
    int largest = 0;
    for (int s = 0; s < layout.slice_count(); ++s)
        if (layout.men_in_slice(0, s) > layout.men_in_slice(0, largest)) largest = s;
    std::uint64_t men = 0;
    for (auto _ : state) men += layout.slice_men(0, largest).size();
    state.SetItemsProcessed(static_cast<std::int64_t>(men));
    state.counters["configurations"] = static_cast<double>(layout.men_in_slice(0, largest));
}
BENCHMARK(BM_LargestSliceList3040)->Iterations(1)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace damas

BENCHMARK_MAIN();
