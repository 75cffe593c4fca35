// The wdl writer's position flags (table/codecs/wdl_context.hpp): what the context codecs compute
// for every position of a class, in the writer and again when a block is read. Single thread;
// positions per second over the first million positions of a 6-piece class with men and kings.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <vector>

#include "table/codecs/wdl_context.hpp"

namespace {

using damas::BaseVariant;
using damas::Material;
using damas::Variant;

struct Case {
    Variant variant;
    Material material;
};

const Case cases[] = {
    {Variant{BaseVariant::english, false}, {1, 2, 2, 1}},        // 0: english 1221
    {Variant{BaseVariant::international, false}, {1, 1, 1, 3}},  // 1: international 1113
};

void position_flags(benchmark::State& state) {
    const Case& c = cases[state.range(0)];
    const bool features = state.range(1) != 0;
    const auto flags =
        damas::wdl_context::make_position_flags(c.variant, c.material, false, features);
    std::vector<std::uint8_t> out(std::size_t{1} << 20);
    for (auto _ : state) {
        flags->compute(0, out);
        benchmark::DoNotOptimize(out.data());
    }
    state.SetLabel(c.material.name() + (features ? " features" : ""));
    state.counters["positions/s"] = benchmark::Counter(
        static_cast<double>(state.iterations() * out.size()), benchmark::Counter::kIsRate);
}
BENCHMARK(position_flags)->ArgsProduct({{0, 1}, {0, 1}})->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
