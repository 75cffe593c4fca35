#include "gen/solve/predecessors.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

namespace damas::solving {

namespace {

// The kings index of the flip of class c's kings index k.
std::uint32_t flipped_kings(const PairTables& tables, int c, std::uint64_t k) {
    const int wk = tables.materials[c].white_kings, bk = tables.materials[c].black_kings;
    const std::uint64_t radix = tables.kings_radix[tables.mirror(c)].divisor();
    std::uint64_t white_rank = 0, black_rank = 0;
    tables.kings_radix[c].divide(k, white_rank, black_rank);
    int white[max_side_pieces], black[max_side_pieces];
    tables.white_subsets[static_cast<std::size_t>(c)].unrank(white_rank, wk, white);
    tables.black_subsets[static_cast<std::size_t>(c)].unrank(black_rank, bk, black);
    skip_ranks(black, bk, white, wk);
    return static_cast<std::uint32_t>(
        flipped_kings_index(white, wk, black, bk, tables.free_squares, radix));
}

}  // namespace

// It depends on the kings' ranks among the free squares alone, not on where the men are.
FlippedKings make_flipped_kings(const PairTables& tables) {
    FlippedKings out;
    const std::uint64_t n = tables.kings_per_men();
    for (int c = 0; c < tables.classes; ++c) {  // a class its own mirror needs one
        std::vector<std::uint32_t>& table = out.of_class[c];
        table.resize(n);
        tbb::parallel_for(tbb::blocked_range<std::uint64_t>(0, n, 4096), [&](const auto& r) {
            for (std::uint64_t k = r.begin(); k != r.end(); ++k)
                table[k] = flipped_kings(tables, c, k);
        });
    }
    return out;
}

}  // namespace damas::solving
