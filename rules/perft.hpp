// Perft: the number of leaf nodes of the legal move tree, the standard check of a move generator.
#pragma once

#include <cstdint>

#include "rules/movegen.hpp"
#include "rules/variant.hpp"

namespace damas {

template <class R>
std::uint64_t perft(const Position& p, int depth, bool keep_duplicates = false) {
    if (depth <= 0) return 1;
    if (depth == 1 && !keep_duplicates)
        return static_cast<std::uint64_t>(MoveGenerator<R>::count(p));
    MoveList moves;
    MoveGenerator<R>::generate(p, moves, keep_duplicates);
    if (depth == 1) return static_cast<std::uint64_t>(moves.size());
    std::uint64_t n = 0;
    for (const Move& m : moves) n += perft<R>(make_move(p, m), depth - 1, keep_duplicates);
    return n;
}

// Runtime entry point for one variant.
std::uint64_t perft(const Variant& v, const Position& p, int depth, bool keep_duplicates = false);

}  // namespace damas
