// Perft speed: leaf nodes per second with bulk counting at the last ply.
// Single thread here; `damas perft --threads T` gives the all-threads figure.
#include <benchmark/benchmark.h>

#include "rules/notation.hpp"
#include "rules/perft.hpp"

namespace {

template <class R>
void perft_from_start(benchmark::State& state, damas::BaseVariant base) {
    const damas::Variant v{base, false};
    const damas::Position start = damas::initial_position(v);
    const int depth = static_cast<int>(state.range(0));
    std::uint64_t nodes = 0;
    for (auto _ : state) nodes += damas::perft<R>(start, depth);
    state.counters["nodes/s"] =
        benchmark::Counter(static_cast<double>(nodes), benchmark::Counter::kIsRate);
}

void international(benchmark::State& s) {
    perft_from_start<damas::International>(s, damas::BaseVariant::international);
}
void english(benchmark::State& s) {
    perft_from_start<damas::English>(s, damas::BaseVariant::english);
}
void russian(benchmark::State& s) {
    perft_from_start<damas::Russian>(s, damas::BaseVariant::russian);
}

}  // namespace

BENCHMARK(international)->Arg(7)->Arg(9)->Unit(benchmark::kMillisecond);
BENCHMARK(english)->Arg(10)->Arg(12)->Unit(benchmark::kMillisecond);
BENCHMARK(russian)->Arg(9)->Unit(benchmark::kMillisecond);
BENCHMARK_MAIN();
