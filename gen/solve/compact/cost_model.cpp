// What the plan (gen/plan/plan.hpp) needs to know of the byte-a-position solver before it runs:
// its memory for a pair, the size of its groups, and whether its unit chunks split men
// configurations.
#include <algorithm>
#include <array>
#include <vector>

#include "gen/solve/compact/compact_solver.hpp"
#include "gen/solve/compact/deferred_losses.hpp"
#include "gen/solve/compact/previous_unit.hpp"
#include "gen/solve/king_quarters.hpp"
#include "index/binomial.hpp"
#include "index/man_rows.hpp"

namespace damas {
namespace {

// The most men configurations of class m with the same men on each row that a group holds (a
// turkish group holds those of one class and as many of the mirror's), the best choice of each
// row's White and Black men, row by row: all of them, or half where some row has an odd number
// of White or of Black men (no configuration is then its own mirror: the group is halved).
double most_configurations_by_rows(const BoardSpec& board, Material m) {
    const int wm = m.white_men, bm = m.black_men;
    const GeometryTables t = make_tables(board);
    // best[odd][i][j]: the most configurations of i White and j Black men on the rows so far,
    // odd: with a row of an odd number of either.
    std::vector<std::vector<double>> none(wm + 1, std::vector<double>(bm + 1, 0));
    std::array<std::vector<std::vector<double>>, 2> best{none, none};
    best[0][0][0] = 1;
    for (int y = 0; y < board.height; ++y) {
        const int n = count_bits(t.row(y));
        const int white_max = man_rows(board, Color::white).contains(y) ? n : 0;
        const int black_max = man_rows(board, Color::black).contains(y) ? n : 0;
        auto next = best;
        for (int odd = 0; odd < 2; ++odd)
            for (int i = 0; i <= wm; ++i)
                for (int j = 0; j <= bm; ++j)
                    for (int a = 0; a <= std::min(white_max, i); ++a)
                        for (int b = 0; b <= std::min(std::max(black_max - a, 0), j); ++b) {
                            const double before = best[odd][i - a][j - b];
                            if (before == 0) continue;
                            const int now_odd = odd | (a % 2) | (b % 2);
                            double& to = next[now_odd][i][j];
                            to = std::max(to, before * static_cast<double>(binomial(n, a)) *
                                                  static_cast<double>(binomial(n - a, b)));
                        }
        best.swap(next);
    }
    return std::max(best[0][wm][bm], best[1][wm][bm] / 2);
}

}  // namespace

bool compact_splits_configurations(std::uint64_t kings_per_men, std::uint64_t chunk_positions) {
    return kings_per_men > 64 * chunk_positions;
}

bool slice_by_bytes(const Variant& v, const ClassIndex& index, int slice, int threads,
                    std::uint64_t chunk_positions, bool compact) {
    if (!compact) return false;
    return compact_splits_configurations(index.kings_per_men(), chunk_positions) ||
           !slice_in_components(v, index, slice, threads);
}

bool slice_cuts_into_ranges(const Variant& v, const ClassIndex& index, int slice, int threads,
                            std::uint64_t chunk_positions, bool compact) {
    return UnitStream::streams(index.kings_per_men(), chunk_positions) &&
           (slice_by_bytes(v, index, slice, threads, chunk_positions, compact) ||
            slice_in_components(v, index, slice, threads));
}

std::uint64_t compact_group_positions(const Variant& v, Material m) {
    const BoardSpec board = v.info().board;
    if (KingQuarters::holds(board, m)) return KingQuarters::pair_held_positions(m);
    const std::uint64_t k = ClassIndex(board, m).kings_per_men();
    const bool sideways =
        dispatch(v.base, [](auto rules) { return decltype(rules)::men_move_sideways; });
    const double configurations = sideways ? most_configurations_by_rows(board, m) : 1.0;
    return 2 * k * static_cast<std::uint64_t>(configurations);
}

std::uint64_t compact_solver_bytes(const Variant& v, Material m, int threads, bool hybrid,
                                   std::uint64_t chunk_positions, bool capture_bits) {
    const BoardSpec board = v.info().board;
    const ClassIndex index(board, m), mirror(board, m.mirrored());
    const bool single = m == m.mirrored();
    const std::uint64_t k = index.kings_per_men();
    // A byte and a bit per position of the group being solved (must capture; a group is the
    // slice where configurations are small) and a 32nd of a byte of losses batched, and 16 bytes
    // per configuration of its slice (which group, and where in it); each thread's decoded
    // chunks of the slice before (chunks_kept of them, of 64 Ki positions or of a configuration
    // where the unit's chunks are whole configurations, 3 bytes a position) and small buffers
    // (move lists, a chunk of values while the unit is written).
    const bool grouped = UnitStream::streams(k, chunk_positions);
    const std::uint64_t group = grouped ? compact_group_positions(v, m) : 0;
    std::uint64_t largest = 0, configurations = 0;
    for (int s = 0; s < index.slice_count(); ++s) {
        const std::uint64_t n =
            index.positions_in_slice(s) + (single ? 0 : mirror.positions_in_slice(s));
        if (hybrid && slice_in_components(v, index, s, threads)) continue;
        largest = std::max(largest, grouped ? std::min(n, group) : n);
        if (grouped) configurations = std::max(configurations, n / k);
    }
    const std::uint64_t chunks =
        static_cast<std::uint64_t>(compact::chunks_kept(k, chunk_positions)) * 3 *
        compact::previous_chunk_positions(k, chunk_positions);
    const std::uint64_t quarters =
        grouped && KingQuarters::holds(board, m) ? KingQuarters::table_bytes(m) : 0;
    return largest + (capture_bits ? largest / 8 : 0) +
           largest / compact::deferred_share * sizeof(std::uint64_t) + 16 * configurations +
           quarters + static_cast<std::uint64_t>(threads) * ((std::uint64_t{4} << 20) + chunks);
}

}  // namespace damas
