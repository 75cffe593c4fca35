// The kings-only pairs of the turkish board, held a quarter by the byte-a-position solver.
//
// Owns: a numbering of one position of each orbit of a kings-only pair's positions under three
// reflections of the 8x8 orthogonal board: files reversed, rows reversed, and both (the half
// turn). Every square is played and a king moves, captures and is captured the same way along a
// row as along a file, either way, so the four positions of an orbit have the same value.
//
// Why these three and not the square's other four symmetries (the diagonal reflections and the
// quarter turns): where a side has an odd number of kings, none of the three fixes a position (a
// fixed placement pairs its squares across the mirror line or around the centre, and no square
// is on them), so every orbit has 4 positions, the image of a move is a move, and an un-move of a
// held position counts once for the held position it reaches, as for the halved turkish groups
// (gen/solve/compact/slice_groups.hpp). The diagonal reflections fix positions (kings on the
// diagonal): their pending counts would need weighting by each position's symmetries. A quarter
// suffices: turkish 0304 + 0403 (43.5 G positions, a byte each) becomes 10.9 G, within 16 GiB.
//
// The held position of an orbit: the one with more than half of the odd side's kings on files
// a-d and more than half on rows 1-4 (reversing the files turns the first count into its
// complement and keeps the second; reversing the rows the other way round). The odd side is the
// one with fewer kings where both are odd (the table has C(64, n) entries), and in a pair both
// classes hold by the same kings (a side's in the first class, the other's in its mirror), so
// one table serves both.
//
// Layout: local = class base + (rank of the held side's kings among the held placements) *
// C(64 - n, m) + (colex rank of the other side's m kings among the squares the first leaves); the
// held placements are ranked in colex order by a table of all C(64, n) placements.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "index/fast_divide.hpp"
#include "index/material.hpp"
#include "rules/geometry.hpp"
#include "rules/position.hpp"

namespace damas {

// The 8x8 orthogonal board's squares with their files reversed (a bit's file is its low 3 bits).
constexpr Bitboard reverse_files(Bitboard b) {
    b = ((b >> 1) & 0x5555555555555555ULL) | ((b & 0x5555555555555555ULL) << 1);
    b = ((b >> 2) & 0x3333333333333333ULL) | ((b & 0x3333333333333333ULL) << 2);
    return ((b >> 4) & 0x0F0F0F0F0F0F0F0FULL) | ((b & 0x0F0F0F0F0F0F0F0FULL) << 4);
}

class KingQuarters {
  public:
    // Whether m's pair is held a quarter: the 8x8 orthogonal board, no men, and a side with an
    // odd number of kings.
    static bool holds(const BoardSpec& board, Material m);
    // The positions of one class of m's pair held (a quarter of them).
    static std::uint64_t held_positions(Material m);
    // Those of both classes (one where m is its own mirror).
    static std::uint64_t pair_held_positions(Material m) {
        return (m == m.mirrored() ? 1 : 2) * held_positions(m);
    }
    // The table's bytes for m (what the solver holds beside its byte a position).
    static std::uint64_t table_bytes(Material m);

    // m: the pair's first class; classes: 2, or 1 where m is its own mirror.
    KingQuarters(Material m, int classes);

    std::uint64_t size() const { return base_[classes_]; }
    // The local number of the held position standing for p (class c, White to move).
    std::uint64_t locate(int c, const Position& p) const;
    // The held position at `local` (White to move), and its class.
    Position position_at(std::uint64_t local, int& c) const;

  private:
    int classes_;
    int odd_count_, other_count_;  // the kings of the side that decides, and of the other
    Color odd_side_[2];            // by class
    std::array<std::uint64_t, 3> base_{};
    FastDivisor others_;                    // C(64 - odd_count_, other_count_)
    std::vector<std::uint32_t> held_rank_;  // by colex rank of the odd side's kings
    std::vector<Bitboard> held_kings_;      // by held rank
};

}  // namespace damas
