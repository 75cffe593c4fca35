// perft and moves.
#include <atomic>
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include <tbb/global_control.h>
#include <tbb/parallel_for.h>

#include "gen/process/threads.hpp"
#include "rules/error.hpp"
#include "rules/legal_moves.hpp"
#include "rules/notation.hpp"
#include "rules/perft.hpp"
#include "tools/cli/commands.hpp"

namespace damas::cli {
namespace {

Position position_or_initial(const Variant& v, const std::string& fen) {
    return fen.empty() ? initial_position(v) : parse_fen(v, fen);
}

// Perft at one depth, splitting the root moves over threads.
template <class R>
std::uint64_t parallel_perft(const Position& p, int depth, bool keep_duplicates) {
    if (depth <= 1) return perft<R>(p, depth, keep_duplicates);
    MoveList moves;
    MoveGenerator<R>::generate(p, moves, keep_duplicates);
    std::vector<std::uint64_t> counts(moves.size());
    tbb::parallel_for(0, moves.size(), [&](int i) {
        counts[i] = perft<R>(make_move(p, moves[i]), depth - 1, keep_duplicates);
    });
    std::uint64_t n = 0;
    for (auto c : counts) n += c;
    return n;
}

struct PerftOptions {
    std::string variant = "international";
    std::string fen;
    int depth = 1;
    int threads = 0;
    bool keep_duplicates = false;
    bool json = false;
};

void run_perft(const PerftOptions& o) {
    const Variant v = variant_or_throw(o.variant);
    const Position p = position_or_initial(v, o.fen);
    if (o.depth < 1 || o.depth > 30) throw Error("depth must be between 1 and 30");
    const int threads = checked_threads(o.threads);
    tbb::global_control limit(tbb::global_control::max_allowed_parallelism, threads);
    Json rows = Json::array();
    for (int d = 1; d <= o.depth; ++d) {
        const auto start = std::chrono::steady_clock::now();
        const std::uint64_t n = dispatch(v.base, [&](auto rules) {
            return parallel_perft<decltype(rules)>(p, d, o.keep_duplicates);
        });
        const double secs =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        if (o.json)
            rows.push_back({{"depth", d}, {"nodes", n}, {"seconds", secs}});
        else
            std::printf("%d %llu\n", d, static_cast<unsigned long long>(n));
        std::fflush(stdout);
    }
    if (o.json) print_json({{"variant", v.name()}, {"fen", to_fen(v, p)}, {"perft", rows}});
}

struct MovesOptions {
    std::string variant = "international";
    std::string fen;
    bool keep_duplicates = false;
    bool json = false;
};

void run_moves(const MovesOptions& o) {
    const Variant v = variant_or_throw(o.variant);
    const Position p = position_or_initial(v, o.fen);
    MoveList moves;
    generate_legal_moves(v, p, moves, o.keep_duplicates);
    const VariantInfo& vi = v.info();
    Json rows = Json::array();
    sort_by_square(vi, moves);
    for (const Move& m : moves) {
        const std::string text = move_notation(vi, m, moves);
        if (!o.json) {
            std::printf("%s\n", text.c_str());
            continue;
        }
        Json caps = Json::array();
        for_each_bit(m.captured, [&](int b) { caps.push_back(square_name(vi, b)); });
        rows.push_back({{"move", text},
                        {"from", square_name(vi, m.from)},
                        {"to", square_name(vi, m.to)},
                        {"captured", caps},
                        {"promotes", m.promotes},
                        {"fen_after", to_fen(v, make_move(p, m))}});
    }
    if (o.json) print_json({{"variant", v.name()}, {"fen", to_fen(v, p)}, {"moves", rows}});
}

}  // namespace

void add_rules_commands(CLI::App& app) {
    static PerftOptions perft_options;
    auto* perft_cmd = app.add_subcommand("perft", "Count the leaf nodes of the legal move tree");
    add_variant_option(*perft_cmd, perft_options.variant, false);
    perft_cmd->add_option("--fen,-f", perft_options.fen,
                          "Start position (default: the initial one)");
    perft_cmd->add_option("--depth,-d", perft_options.depth, "Depth in plies")->required();
    perft_cmd->add_flag("--keep-duplicates", perft_options.keep_duplicates,
                        "Count capture paths with the same from, to and captured set separately");
    perft_cmd->add_option("--threads,-t", perft_options.threads, "Threads (default: all cores)");
    perft_cmd->add_flag("--json", perft_options.json, "Machine-readable output");
    perft_cmd->callback([] { run_perft(perft_options); });

    static MovesOptions moves_options;
    auto* moves_cmd = app.add_subcommand("moves", "List the legal moves of a position");
    add_variant_option(*moves_cmd, moves_options.variant, false);
    moves_cmd->add_option("--fen,-f", moves_options.fen, "Position (default: the initial one)");
    moves_cmd->add_flag("--keep-duplicates", moves_options.keep_duplicates,
                        "List capture paths with the same from, to and captured set separately");
    moves_cmd->add_flag("--json", moves_options.json, "Machine-readable output");
    moves_cmd->callback([] { run_moves(moves_options); });
}

}  // namespace damas::cli
