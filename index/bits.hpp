// Small bit helpers for the indexer's hot loops.
//
// Owns: counting the bits of a set below a square, and the inverse, walking a rank past the
// squares a set already takes. Neither needs the popcnt instruction, which the default x86-64
// target lacks (GCC would call a library function for std::popcount).
#pragma once

#include <bit>
#include <cstdint>

#include "rules/bitboard.hpp"

namespace damas {

constexpr int count_bits(Bitboard b) {
#if defined(__POPCNT__)
    return std::popcount(b);
#else
    b = b - ((b >> 1) & 0x5555555555555555ull);
    b = (b & 0x3333333333333333ull) + ((b >> 2) & 0x3333333333333333ull);
    b = (b + (b >> 4)) & 0x0F0F0F0F0F0F0F0Full;
    return static_cast<int>((b * 0x0101010101010101ull) >> 56);
#endif
}

// The number of squares of `set` below bit `index`.
constexpr int count_below(Bitboard set, int index) {
    return count_bits(set & (bit(index) - 1));
}

// The `rank`-th square (0-based) of the squares from 0 up that `taken` leaves free. Visits every
// square of `taken` without branching on it: once a taken square lies above the answer, all
// later ones do too and add nothing.
constexpr int skip_taken(int rank, Bitboard taken) {
    for (; taken != 0; taken = clear_lowest(taken)) rank += lowest_bit(taken) <= rank ? 1 : 0;
    return rank;
}

}  // namespace damas
