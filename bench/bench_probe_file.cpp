// Table files: cached probes per second, cold block decompression, and compressed size on
// synthetic data shaped like a real class (values that change with piece placement, unknown
// positions where pieces touch).
//
//   build/bench/bench_probe_file --benchmark_filter=Compress   (sizes: bits_per_pos counter)
#include <benchmark/benchmark.h>
#include <unistd.h>

#include <array>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <random>
#include <vector>

#include "gen/write/writer.hpp"
#include "table/table_file.hpp"

namespace damas {
namespace {

// Square s of an 8x8 diagonal board as (x, y), 4 playable squares per row.
std::array<int, 2> coords(int s) {
    const int y = s / 4;
    return {2 * (s % 4) + (y % 2), y};
}

bool touching(int a, int b) {
    const auto [ax, ay] = coords(a);
    const auto [bx, by] = coords(b);
    return std::abs(ax - bx) == 1 && std::abs(ay - by) == 1;
}

// A 4-piece class (two white, two black pieces) indexed as s0 + 32 s1 + 32^2 s2 + 32^3 s3.
// Overlapping pieces and positions where a white piece touches a black one (a capture is
// likely) are unknown; otherwise the value depends smoothly on where the pieces stand, with a
// little noise, as real values do.
std::vector<std::uint8_t> synthetic_wdl() {
    std::vector<std::uint8_t> v(std::size_t{1} << 20);
    std::mt19937_64 rng(1);
    for (std::size_t i = 0; i < v.size(); ++i) {
        const int s[4] = {static_cast<int>(i & 31), static_cast<int>((i >> 5) & 31),
                          static_cast<int>((i >> 10) & 31), static_cast<int>((i >> 15) & 31)};
        if (s[0] == s[1] || s[0] == s[2] || s[0] == s[3] || s[1] == s[2] || s[1] == s[3] ||
            s[2] == s[3] || touching(s[0], s[2]) || touching(s[0], s[3]) || touching(s[1], s[2]) ||
            touching(s[1], s[3])) {
            v[i] = wdl_unknown;
            continue;
        }
        const int score = coords(s[0])[1] + coords(s[1])[1] - coords(s[2])[0] - (s[3] % 7);
        std::uint8_t x = score > 4 ? wdl_win : score > -3 ? wdl_draw : wdl_loss;
        if (rng() % 50 == 0) x = static_cast<std::uint8_t>(rng() % 3);
        v[i] = x;
    }
    return v;
}

// DTW of the same shape: distances growing with the score, even for losses, odd for wins.
std::vector<std::uint16_t> synthetic_dtw(const std::vector<std::uint8_t>& wdl) {
    std::vector<std::uint16_t> d(wdl.size());
    for (std::size_t i = 0; i < wdl.size(); ++i) {
        const auto base = static_cast<std::uint16_t>(2 * (((i >> 5) & 31) % 9 + (i & 31) % 5));
        d[i] = wdl[i] == wdl_unknown ? dtw_unknown
               : wdl[i] == wdl_draw  ? dtw_draw
               : wdl[i] == wdl_win   ? static_cast<std::uint16_t>(base + 1)
                                     : base;
    }
    return d;
}

const std::vector<std::uint8_t>& wdl_data() {
    static const std::vector<std::uint8_t> v = synthetic_wdl();
    return v;
}

std::filesystem::path bench_dir() {
    static const std::filesystem::path dir = [] {
        std::string name = "damas-bench-probe-";
        name += std::to_string(::getpid());
        auto p = std::filesystem::temp_directory_path() / name;
        std::filesystem::create_directories(p);
        return p;
    }();
    return dir;
}

const TableInfo info{Variant{BaseVariant::english, false}, {2, 0, 2, 0}, "bench"};

// A WDL table of the synthetic data with `ppb` positions per block, written once.
const std::filesystem::path& wdl_file(std::uint32_t ppb, int level = 0) {
    static std::map<std::pair<std::uint32_t, int>, std::filesystem::path> files;
    auto it = files.find({ppb, level});
    if (it == files.end()) {
        std::string name = std::to_string(ppb);
        name += '-';
        name += std::to_string(level);
        name += ".wdl";
        const auto path = bench_dir() / name;
        write_wdl_table(path, info, wdl_data(),
                        {.threads = 2, .positions_per_block = ppb, .zstd_level = level});
        it = files.emplace(std::pair{ppb, level}, path).first;
    }
    return it->second;
}

void Compress(benchmark::State& state) {
    const auto ppb = static_cast<std::uint32_t>(state.range(0));
    const auto rule = static_cast<FillRule>(state.range(1));
    const bool dtw = state.range(2) != 0;
    const auto level = static_cast<int>(state.range(3));
    const auto codec = static_cast<Codec>(state.range(4));  // dtw: zstd (0) or zstd-planes (3)
    const auto& w = wdl_data();
    static const std::vector<std::uint16_t> d = synthetic_dtw(wdl_data());
    const auto path = bench_dir() / "compress.tmp";
    TableHeader h;
    for (auto _ : state) {
        const WriteOptions opt{.threads = 1,
                               .positions_per_block = ppb,
                               .fill = rule,
                               .zstd_level = level,
                               .distance_codec = codec};
        h = dtw ? write_dtw_table(path, info, d, opt) : write_wdl_table(path, info, w, opt);
    }
    state.counters["bits_per_pos"] =
        8.0 * static_cast<double>(h.file_size) / static_cast<double>(h.positions);
    state.counters["unknown_pct"] =
        100.0 * static_cast<double>(h.unknown) / static_cast<double>(h.positions);
    state.counters["file_KiB"] = static_cast<double>(h.file_size) / 1024.0;
    state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(h.positions));
}
BENCHMARK(Compress)
    ->ArgNames({"ppb", "fill", "dtw", "level", "codec"})
    ->ArgsProduct({{16384, 32768, 65536, 131072}, {1, 2}, {0}, {0}, {0}})
    ->ArgsProduct({{32768, 65536}, {1}, {0}, {3, 9, 12, 15, 19, 22}, {0}})
    ->ArgsProduct({{4096, 8192, 16384}, {1, 2}, {1}, {0}, {0, 3}})
    ->ArgsProduct({{8192}, {2}, {1}, {3, 9, 12, 15, 19}, {0, 3}})
    ->Unit(benchmark::kMillisecond)
    ->Iterations(1);

// Random probes into a table whose blocks are all cached.
void CachedValue(benchmark::State& state) {
    static const TableFile t(wdl_file(format::wdl_positions_per_block));
    static BlockCache cache(64 << 20);
    if (state.thread_index() == 0)
        for (std::uint64_t i = 0; i < t.size(); i += 1024)
            benchmark::DoNotOptimize(t.value(i, cache));
    std::mt19937_64 rng(static_cast<std::uint64_t>(state.thread_index()) + 7);
    std::uint64_t sum = 0;
    for (auto _ : state) sum += t.value(rng() % t.size(), cache).value;
    benchmark::DoNotOptimize(sum);
    state.SetItemsProcessed(state.iterations());
}
BENCHMARK(CachedValue)->Threads(1)->Threads(2);

// One block read (pread from the page cache) + decompression + hash check.
void ColdBlock(benchmark::State& state) {
    const TableFile t(
        wdl_file(static_cast<std::uint32_t>(state.range(0)), static_cast<int>(state.range(1))));
    std::vector<std::byte> out(t.block_size(0));
    std::uint64_t b = 0;
    for (auto _ : state) {
        if (t.read_block(b, out) != ReadStatus::ok) state.SkipWithError("read_block failed");
        b = (b + 1) % (t.header().blocks - 1);
    }
    state.counters["block_KiB"] = static_cast<double>(out.size()) / 1024.0;
    state.SetBytesProcessed(state.iterations() * static_cast<std::int64_t>(out.size()));
}
BENCHMARK(ColdBlock)
    ->ArgNames({"ppb", "level"})
    ->ArgsProduct({{16384, 32768, 65536, 131072}, {0}})
    ->Unit(benchmark::kMicrosecond);

// One block of a real table file (DAMAS_BENCH_WDL: its path, a stored wdl file or a dtw file;
// skipped without it), read and decoded as a probe's cache miss does: for the context codecs,
// the flags of its positions computed from the positions, then the model's decoding. Blocks
// taken in a fixed random order.
//   DAMAS_BENCH_WDL=db/english/2212.wdl build/bench/bench_probe_file --benchmark_filter=File
void FileColdBlock(benchmark::State& state) {
    const char* path = std::getenv("DAMAS_BENCH_WDL");
    if (!path) {
        state.SkipWithError("set DAMAS_BENCH_WDL to a stored wdl file");
        return;
    }
    const TableFile t(path);
    if (!t.holds_values() || t.header().blocks < 2) {
        state.SkipWithError("not a stored table file of two blocks or more");
        return;
    }
    std::vector<std::byte> out(t.block_size(0));
    std::mt19937_64 rng(5);
    for (auto _ : state) {
        if (t.read_block(rng() % (t.header().blocks - 1), out) != ReadStatus::ok)
            state.SkipWithError("read_block failed");
    }
    state.SetLabel(block_codec(t.header().codec).name());
    state.counters["positions"] = static_cast<double>(t.header().positions_per_block);
}
BENCHMARK(FileColdBlock)->Unit(benchmark::kMicrosecond);

// A probe that misses the cache every time (cache of 0 bytes): read + decompress + extract.
void UncachedValue(benchmark::State& state) {
    static const TableFile t(wdl_file(format::wdl_positions_per_block));
    BlockCache none(0);
    std::mt19937_64 rng(3);
    for (auto _ : state) benchmark::DoNotOptimize(t.value(rng() % t.size(), none));
    state.SetItemsProcessed(state.iterations());
}
BENCHMARK(UncachedValue)->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace damas

int main(int argc, char** argv) {
    benchmark::Initialize(&argc, argv);
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    std::filesystem::remove_all(damas::bench_dir());
    return 0;
}
