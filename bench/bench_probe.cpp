// The probing library on real tables: english 5-piece classes (generate them first, a few
// minutes, and point DAMAS_BENCH_DB at the folder; without it every benchmark is skipped):
//
//   build/damas gen -v english -p 5 -d /tmp/db-e5 -q
//   DAMAS_BENCH_DB=/tmp/db-e5 build/bench/bench_probe
//
// CachedWdl: probes per second per thread on random quiet positions (no capture for the side
//   to move, both sides to move) once their blocks are in the 64 MiB cache.
// CachedWdlConditional: the same through probe_wdl_cached.
// CachedWdlLocal: cached probes whose blocks stay in the processor's caches (local_positions).
// Dtw: probe_dtw on the same positions (two tables per probe), 64 MiB cache: most DTW blocks
//   miss, so this is mostly the cost of reading and decompressing a 16 KiB block.
// Distance, DistanceLocal, UncachedDistance: probe_distance (the dtw or mtc file) on the random
//   positions, on the local ones (their blocks cached), and without a cache.
// MirrorBlockWdl: the wdl values of every quiet position of 8 Ki consecutive indexes of a
//   mirror-layout class (what an mtc coding given every wdl value would pay on a cache miss).
// UncachedWdl: a handle without a cache: every probe reads and decompresses a block.
// ColdProbe: a fresh handle per probe, the handle's creation not timed (what the first probe of a
//   fresh process pays: the table's file opened, its header and offset table read and checked,
//   one block read and decompressed); the files are in the OS page cache.
// OpenHandle: creating a 64 MiB handle (the folder's listing and the cache arena).
// HandleMemory: bytes of a 64 MiB handle once every 5-piece table is open, and the process's
//   resident memory growth (counters).
#include <benchmark/benchmark.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <optional>
#include <random>
#include <vector>

#include "index/class_index.hpp"
#include "index/flip.hpp"
#include "index/material.hpp"
#include "probe/probe.hpp"
#include "table/table_file.hpp"

namespace damas {
namespace {

const Variant english{BaseVariant::english, false};

const char* database() {
    const char* dir = std::getenv("DAMAS_BENCH_DB");
    return dir && *dir ? dir : nullptr;
}

// The class size sampled: 5, or DAMAS_BENCH_PIECES (6: the english 6-piece files, whose large
// classes use the context codec; run only UncachedWdl and ColdProbe, as warming a cache with
// a million random 6-piece blocks would take many minutes).
int pieces() {
    const char* p = std::getenv("DAMAS_BENCH_PIECES");
    return p && *p ? std::atoi(p) : 5;
}

// Random quiet positions of the 5-piece classes present, half of them Black to move.
const std::vector<Position>& quiet_positions() {
    static const std::vector<Position> positions = [] {
        std::vector<Position> out;
        std::vector<ClassIndex> classes;
        for (const Material m : classes_with_pieces(pieces()))
            if (m.white() && m.black() &&
                std::filesystem::exists(table_path(database(), english, m.name(), Metric::wdl)))
                classes.emplace_back(english.info().board, m);
        if (classes.empty()) return out;
        std::mt19937_64 rng(5);
        while (out.size() < (1u << 20)) {
            const ClassIndex& c = classes[rng() % classes.size()];
            Position p = c.unindex(rng() % c.size());
            if (rng() % 2) p = flip(english.info().board, p);
            if (MoveGenerator<English>::has_capture(p)) continue;
            out.push_back(p);
        }
        return out;
    }();
    return positions;
}

// Quiet positions from 32 windows of 4096 consecutive indexes of random 5-piece classes: about
// 64 blocks, a working set that stays in the processor's caches, as a search's probes tend to.
const std::vector<Position>& local_positions() {
    static const std::vector<Position> positions = [] {
        std::vector<Position> out;
        std::vector<ClassIndex> classes;
        for (const Material m : classes_with_pieces(pieces()))
            if (m.white() && m.black() &&
                std::filesystem::exists(table_path(database(), english, m.name(), Metric::wdl)))
                classes.emplace_back(english.info().board, m);
        if (classes.empty()) return out;
        std::mt19937_64 rng(6);
        std::vector<Position> window;
        for (int w = 0; w < 32; ++w) {
            const ClassIndex& c = classes[rng() % classes.size()];
            const std::uint64_t first = rng() % (c.size() - 4096);
            for (std::uint64_t i = first; i < first + 4096; ++i) {
                Position p = c.unindex(i);
                if (!MoveGenerator<English>::has_capture(p)) window.push_back(p);
            }
        }
        while (out.size() < (1u << 20)) out.push_back(window[rng() % window.size()]);
        return out;
    }();
    return positions;
}

// One 64 MiB handle with every sampled WDL block loaded (all the english 2..5 piece WDL blocks
// take 36 MB decompressed; their DTW blocks, 290 MB, cannot fit: the Dtw benchmark has its own
// handle, so that its evictions do not empty this one).
Tablebase& warm_handle() {
    static const std::unique_ptr<Tablebase> tb = [] {
        auto t = Tablebase::open(database(), 64);
        for (const Position& p : quiet_positions()) t->probe_wdl(english, p);
        for (const Position& p : local_positions()) t->probe_wdl(english, p);
        return t;
    }();
    return *tb;
}

bool skip_without_database(benchmark::State& state) {
    if (database() && !quiet_positions().empty()) return false;
    state.SkipWithError("set DAMAS_BENCH_DB to a folder with english 5-piece tables");
    return true;
}

template <class Probe>
void probe_loop(benchmark::State& state, Probe&& probe,
                const std::vector<Position>& positions = quiet_positions()) {
    std::size_t i = static_cast<std::size_t>(state.thread_index()) * 7919;
    std::uint64_t failures = 0;
    for (auto _ : state) {
        const ProbeResult r = probe(positions[i++ & (positions.size() - 1)]);
        failures += !r.ok();
        benchmark::DoNotOptimize(r);
    }
    state.SetItemsProcessed(state.iterations());
    state.counters["failures"] = static_cast<double>(failures);
}

void CachedWdl(benchmark::State& state) {
    if (skip_without_database(state)) return;
    Tablebase& tb = warm_handle();
    probe_loop(state, [&](const Position& p) { return tb.probe_wdl(english, p); });
}
BENCHMARK(CachedWdl)->Threads(1)->Threads(2)->UseRealTime();

void CachedWdlConditional(benchmark::State& state) {
    if (skip_without_database(state)) return;
    Tablebase& tb = warm_handle();
    probe_loop(state, [&](const Position& p) { return tb.probe_wdl_cached(english, p); });
}
BENCHMARK(CachedWdlConditional)->Threads(1)->Threads(2)->UseRealTime();

void CachedWdlLocal(benchmark::State& state) {
    if (skip_without_database(state)) return;
    Tablebase& tb = warm_handle();
    probe_loop(
        state, [&](const Position& p) { return tb.probe_wdl(english, p); }, local_positions());
}
BENCHMARK(CachedWdlLocal)->Threads(1)->Threads(2)->UseRealTime();

void Dtw(benchmark::State& state) {
    if (skip_without_database(state)) return;
    const auto tb = Tablebase::open(database(), 64);
    probe_loop(state, [&](const Position& p) { return tb->probe_dtw(english, p); });
}
BENCHMARK(Dtw)->Threads(1)->UseRealTime();

// probe_distance: the class's dtw or mtc file (MTC against DTW, and one mtc codec against
// another: point DAMAS_BENCH_DB at a `damas gen --metric mtc` folder). Random positions in a 64
// MiB cache (mostly a block read and decoded per probe), the local ones (blocks cached), and no
// cache at all.
void Distance(benchmark::State& state) {
    if (skip_without_database(state)) return;
    const auto tb = Tablebase::open(database(), 64);
    probe_loop(state, [&](const Position& p) { return tb->probe_distance(english, p); });
}
BENCHMARK(Distance)->Threads(1)->UseRealTime();

void DistanceLocal(benchmark::State& state) {
    if (skip_without_database(state)) return;
    const auto tb = Tablebase::open(database(), 64);
    probe_loop(
        state, [&](const Position& p) { return tb->probe_distance(english, p); },
        local_positions());
}
BENCHMARK(DistanceLocal)->Threads(1)->UseRealTime();

void UncachedDistance(benchmark::State& state) {
    if (skip_without_database(state)) return;
    const auto tb = Tablebase::open(database(), 0);
    probe_loop(state, [&](const Position& p) { return tb->probe_distance(english, p); });
}
BENCHMARK(UncachedDistance)->UseRealTime();

// What an mtc coding given every wdl value (docs/format.md, "MTC codings measured", option (b))
// would pay on each mtc block's cache miss in a class whose wdl file has the mirror layout: the
// wdl value of every quiet position of the block (8 Ki consecutive indexes), each a one-ply
// search into the mirror class, through the warm 64 MiB handle. Windows of the largest such
// 5-piece class; a block's time is the iteration's.
const std::vector<std::vector<Position>>& mirror_class_blocks() {
    static const std::vector<std::vector<Position>> blocks = [] {
        std::vector<std::vector<Position>> out;
        std::optional<ClassIndex> largest;
        for (const Material m : classes_with_pieces(pieces())) {
            const auto path = table_path(database(), english, m.name(), Metric::wdl);
            if (!m.white() || !m.black() || !std::filesystem::exists(path) ||
                TableFile(path).holds_values())
                continue;
            ClassIndex c(english.info().board, m);
            if (!largest || c.size() > largest->size()) largest.emplace(c);
        }
        if (!largest || largest->size() < 8192) return out;
        std::mt19937_64 rng(8);
        for (int b = 0; b < 16; ++b) {
            std::vector<Position> block;
            const std::uint64_t first = (rng() % (largest->size() / 8192)) * 8192;
            for (std::uint64_t i = first; i < first + 8192; ++i) {
                const Position p = largest->unindex(i);
                if (!MoveGenerator<English>::has_capture(p)) block.push_back(p);
            }
            out.push_back(std::move(block));
        }
        return out;
    }();
    return blocks;
}

void MirrorBlockWdl(benchmark::State& state) {
    if (skip_without_database(state)) return;
    const auto& blocks = mirror_class_blocks();
    if (blocks.empty()) {
        state.SkipWithError("no 5-piece class whose wdl file has the mirror layout");
        return;
    }
    Tablebase& tb = warm_handle();
    std::size_t b = 0;
    std::uint64_t positions = 0;
    for (auto _ : state) {
        for (const Position& p : blocks[b++ % blocks.size()])
            benchmark::DoNotOptimize(tb.probe_wdl(english, p));
        positions += blocks[(b - 1) % blocks.size()].size();
    }
    state.counters["positions_a_block"] =
        static_cast<double>(positions) / static_cast<double>(state.iterations());
}
BENCHMARK(MirrorBlockWdl)->UseRealTime()->Unit(benchmark::kMicrosecond);

void UncachedWdl(benchmark::State& state) {
    if (skip_without_database(state)) return;
    const auto tb = Tablebase::open(database(), 0);
    probe_loop(state, [&](const Position& p) { return tb->probe_wdl(english, p); });
}
BENCHMARK(UncachedWdl)->UseRealTime();

void ColdProbe(benchmark::State& state) {
    if (skip_without_database(state)) return;
    const auto& positions = quiet_positions();
    std::size_t i = 0;
    for (auto _ : state) {
        state.PauseTiming();
        auto tb = Tablebase::open(database(), 1);
        state.ResumeTiming();
        benchmark::DoNotOptimize(tb->probe_wdl(english, positions[i++ & (positions.size() - 1)]));
        state.PauseTiming();
        tb.reset();
        state.ResumeTiming();
    }
    state.SetItemsProcessed(state.iterations());
}
BENCHMARK(ColdProbe)->UseRealTime()->Unit(benchmark::kMicrosecond);

void OpenHandle(benchmark::State& state) {
    if (skip_without_database(state)) return;
    for (auto _ : state) benchmark::DoNotOptimize(Tablebase::open(database(), 64));
}
BENCHMARK(OpenHandle)->UseRealTime()->Unit(benchmark::kMicrosecond);

double resident_bytes() {
    std::ifstream statm("/proc/self/statm");
    double size = 0, resident = 0;
    statm >> size >> resident;
    return resident * static_cast<double>(::sysconf(_SC_PAGESIZE));
}

void HandleMemory(benchmark::State& state) {
    if (skip_without_database(state)) return;
    for (auto _ : state) {
        const double before = resident_bytes();
        const auto tb = Tablebase::open(database(), 64);
        const double opened = resident_bytes();
        const std::size_t empty = tb->memory_bytes();
        for (const Position& p : quiet_positions()) tb->probe_wdl(english, p);
        state.counters["handle_bytes_open"] = static_cast<double>(empty);
        state.counters["handle_bytes_all_tables"] = static_cast<double>(tb->memory_bytes());
        state.counters["rss_growth_open"] = opened - before;
        state.counters["rss_growth_all_tables"] = resident_bytes() - before;
    }
}
BENCHMARK(HandleMemory)->Iterations(1)->UseRealTime()->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace damas

BENCHMARK_MAIN();
