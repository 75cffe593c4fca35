// damas annotate's engine (probe/study/annotate.hpp): a PDN file of 100 english games read and
// annotated, once the tables it reads are cached (issue 21's figure: under a second).
// The games are random legal playouts from the initial position (a fixed seed), played to the
// end of the game or to 200 plies, so most reach the tablebase. Needs english tables (every
// benchmark is skipped without them):
//
//   build/damas gen -v english -p 5 -d /tmp/db-e5 -q && build/damas gen-rules -v english -p 5 -d
//   /tmp/db-e5 -q DAMAS_BENCH_DB=/tmp/db-e5 build/bench/bench_annotate
//
// DAMAS_BENCH_PDN=games.pdn also writes the file, to time `damas annotate` on it.
// AnnotateHundredGames: read_pdn + annotate_games of the whole file (counters: plies, and the
//   positions inside the tablebase).
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <fstream>
#include <memory>
#include <random>
#include <string>

#include "probe/study/annotate.hpp"
#include "rules/movegen.hpp"
#include "rules/notation.hpp"
#include "rules/pdn.hpp"

namespace {

using namespace damas;

const Variant english{BaseVariant::english, false};

const char* database() {
    const char* dir = std::getenv("DAMAS_BENCH_DB");
    return dir && *dir ? dir : nullptr;
}

PdnGame random_game(std::mt19937_64& rng, int number) {
    PdnGame g;
    g.tags = {{"Event", "random playout " + std::to_string(number)},
              {"White", "random"},
              {"Black", "random"},
              {"GameType", "21"}};
    Position p = initial_position(english);
    MoveList moves;
    for (int ply = 0; ply < 200; ++ply) {
        MoveGenerator<English>::generate(p, moves);
        if (moves.empty()) break;
        const Move m = moves[static_cast<int>(rng() % static_cast<std::uint64_t>(moves.size()))];
        Move named{};
        const std::string text = move_text(english.info(), m);
        const bool plain = match_pdn_move(english, p, text, named) == MoveMatch::found;
        g.moves.push_back({plain ? text : move_text_with_captures(english.info(), m), "", {}, 0});
        p = make_move(p, m);
    }
    g.result = "*";
    return g;
}

const std::string& hundred_games() {
    static const std::string text = [] {
        std::mt19937_64 rng(20261124);
        std::string out;
        for (int i = 1; i <= 100; ++i) out += write_pdn(random_game(rng, i), true);
        if (const char* path = std::getenv("DAMAS_BENCH_PDN")) std::ofstream(path) << out;
        return out;
    }();
    return text;
}

void AnnotateHundredGames(benchmark::State& state) {
    if (!database()) {
        state.SkipWithError("set DAMAS_BENCH_DB to a folder with english tables");
        return;
    }
    const auto tb = Tablebase::open(database(), 256);
    const AnnotateOptions options{english, Edition::seed, {}};
    const std::string& text = hundred_games();
    std::size_t plies = 0, inside = 0;
    for (const AnnotatedGame& g : annotate_games(*tb, options, read_pdn(text))) {  // warms up
        plies += g.moves.size();
        for (const AnnotatedMove& m : g.moves) inside += m.value.has_value();
    }
    for (auto _ : state) {
        const std::vector<AnnotatedGame> games = annotate_games(*tb, options, read_pdn(text));
        benchmark::DoNotOptimize(games.data());
    }
    state.counters["plies"] = static_cast<double>(plies);
    state.counters["inside"] = static_cast<double>(inside);
    state.counters["bytes"] = static_cast<double>(text.size());
}
BENCHMARK(AnnotateHundredGames)->Unit(benchmark::kMillisecond);

}  // namespace
BENCHMARK_MAIN();
