// The root probe of the C API (damas_probe_root): every legal move of a 5-piece english position
// with its value and DTW, once the blocks it reads are cached (issue 21's figure: at most 20 us).
// Needs the english tables up to 5 pieces (every benchmark is skipped without them):
//
//   build/damas gen -v english -p 5 -d /tmp/db-e5 -q
//   DAMAS_BENCH_DB=/tmp/db-e5 build/bench/bench_probe_root
//
// RootCached: one position, "W:WK18,K19,27:B1,K3" (2 kings and a man against a man and a king,
//   White to move: 9 moves, 2 probes each), after a first call loads its blocks.
// RootCachedWithRules: the same with the rule counts (every move probed under the rules too;
//   needs the rule tables, damas gen-rules -v english -p 5, else skipped).
// RootRandom: random quiet 5-piece positions (White to move) from a warmed 64 MiB handle: most
//   DTW blocks (290 MB decompressed for english 2-5) miss the cache, so this is mostly the cost
//   of reading and decompressing them.
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "index/class_index.hpp"
#include "index/material.hpp"
#include "probe/damas_probe.h"
#include "rules/movegen.hpp"
#include "rules/notation.hpp"

namespace {

const char* database() {
    const char* dir = std::getenv("DAMAS_BENCH_DB");
    return dir && *dir ? dir : nullptr;
}

damas_tablebase* handle() {
    static damas_tablebase* tb = [] {
        char error[256];
        return database() ? damas_open(database(), 64, 0, error, sizeof error) : nullptr;
    }();
    return tb;
}

const char* const position = "W:WK18,K19,27:B1,K3";

bool skip(benchmark::State& state, const damas_rule_counts* counts) {
    damas_root_move moves[DAMAS_MAX_MOVES];
    int n = 0;
    if (handle() && damas_probe_root_fen(handle(), DAMAS_ENGLISH, position, counts, moves,
                                         DAMAS_MAX_MOVES, &n) == DAMAS_OK)
        return false;
    state.SkipWithError(
        "set DAMAS_BENCH_DB to a folder with english 5-piece tables (and, with "
        "counts, their rule tables)");
    return true;
}

void root_loop(benchmark::State& state, const damas_rule_counts* counts) {
    if (skip(state, counts)) return;
    damas_root_move moves[DAMAS_MAX_MOVES];
    int n = 0;
    for (auto _ : state) {
        const int status = damas_probe_root_fen(handle(), DAMAS_ENGLISH, position, counts, moves,
                                                DAMAS_MAX_MOVES, &n);
        benchmark::DoNotOptimize(status);
        benchmark::DoNotOptimize(moves[0]);
    }
    state.counters["moves"] = n;
}

void RootCached(benchmark::State& state) {
    root_loop(state, nullptr);
}
BENCHMARK(RootCached)->Unit(benchmark::kMicrosecond);

void RootCachedWithRules(benchmark::State& state) {
    const damas_rule_counts counts{0, 0, 0, DAMAS_EDITION_SEED, DAMAS_FORCADA_SIDE_UNKNOWN};
    root_loop(state, &counts);
}
BENCHMARK(RootCachedWithRules)->Unit(benchmark::kMicrosecond);

// Random quiet 5-piece positions as masks (PDN numbering: bit n-1 is square n).
struct Masks {
    std::uint64_t white, black, kings;
    int side;
};

std::vector<Masks> random_positions() {
    using namespace damas;
    const Variant english{BaseVariant::english, false};
    const VariantInfo& vi = english.info();
    std::vector<ClassIndex> classes;
    for (const Material m : classes_with_pieces(5))
        if (m.white() && m.black()) classes.emplace_back(vi.board, m);
    std::mt19937_64 rng(21);
    std::vector<Masks> out;
    while (out.size() < 4096) {
        const ClassIndex& c = classes[rng() % classes.size()];
        const Position p = c.unindex(rng() % c.size());
        if (MoveGenerator<English>::has_capture(p)) continue;
        Masks m{0, 0, 0, DAMAS_WHITE};
        for_each_bit(p.occupied(), [&](int b) {
            const std::uint64_t sq = std::uint64_t{1} << (square_number(vi, b) - 1);
            ((p.of(Color::white) & bit(b)) ? m.white : m.black) |= sq;
            if (p.kings & bit(b)) m.kings |= sq;
        });
        out.push_back(m);
    }
    return out;
}

void RootRandom(benchmark::State& state) {
    if (skip(state, nullptr)) return;
    static const std::vector<Masks> positions = random_positions();
    damas_root_move moves[DAMAS_MAX_MOVES];
    int n = 0;
    for (const Masks& p : positions)  // warm the cache
        damas_probe_root(handle(), DAMAS_ENGLISH, p.white, p.black, p.kings, p.side, nullptr, moves,
                         DAMAS_MAX_MOVES, &n);
    std::size_t i = 0;
    std::uint64_t failures = 0;
    for (auto _ : state) {
        const Masks& p = positions[i++ % positions.size()];
        failures += damas_probe_root(handle(), DAMAS_ENGLISH, p.white, p.black, p.kings, p.side,
                                     nullptr, moves, DAMAS_MAX_MOVES, &n) != DAMAS_OK;
        benchmark::DoNotOptimize(moves[0]);
    }
    state.counters["failures"] = static_cast<double>(failures);
}
BENCHMARK(RootRandom)->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
