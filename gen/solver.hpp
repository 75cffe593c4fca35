// Retrograde solver of one class pair: a class C and its mirror M, solved together because a
// quiet move from one leads (after the colour flip) to the other. For C == M the pair is one class.
//
// Owns: the game values and DTW of every position of the pair, from the values of the smaller
// classes already solved (SolvedStore). Algorithm (work ~ positions x branching factor):
//  1. Initialise every position once by generating its moves. Moves that leave the pair
//     (captures, crowning moves) are "exits" and their outcome is looked up; the other moves are
//     counted (`pending`). The best exit win gives a tentative win distance; exit losses give the
//     longest loss so far; an exit draw rules out a loss.
//  2. Resolve by increasing distance d with one bucket per distance. A position popped at d is
//     a win in d if its best win distance is d, or a loss in d when every move is known to lose
//     (pending == 0) and the longest is d. Each resolved position walks its un-moves
//     (rules/unmove.hpp): a loss in d offers its predecessors a win in d + 1; a win in d takes one
//     from their pending count and may complete a loss.
//  3. Positions never resolved are draws.
// Distances only grow from one bucket to the next, so each bucket is processed in parallel and
// the result does not depend on the order or the thread count.
//
// Memory per position of the pair: 8 bytes of state plus the bucket entries (4 bytes each, about
// one per position); see bytes_per_position.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <vector>

#include "gen/solved_store.hpp"
#include "index/class_index.hpp"

namespace damas {

struct PairResult {
    Material material;
    std::vector<std::uint16_t> outcomes;  // packed (solved_store.hpp), by index
    std::vector<std::uint8_t> capture;    // 1 where the side to move must capture
};

inline constexpr double solver_bytes_per_position = 8 + 4 + 3;  // state, buckets, outcome+flag

using ProgressFn = std::function<void(std::uint64_t done, std::uint64_t total)>;

// Solves m and m.mirrored() (one result if they are equal). The store must hold every class
// that m's exits can reach (SolvedStore::load_below).
std::vector<PairResult> solve_pair(const Variant& v, Material m, const SolvedStore& store,
                                   const ProgressFn& progress = {});

}  // namespace damas
