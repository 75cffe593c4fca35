// Bitboard helpers. A bitboard is one 64-bit word; which bit is which square is decided by the
// board geometry (geometry.hpp), never here.
#pragma once

#include <bit>
#include <cstdint>

namespace damas {

using Bitboard = std::uint64_t;

constexpr Bitboard bit(int index) {
    return Bitboard{1} << index;
}
constexpr int popcount(Bitboard b) {
    return std::popcount(b);
}
constexpr int lowest_bit(Bitboard b) {
    return std::countr_zero(b);
}
constexpr Bitboard clear_lowest(Bitboard b) {
    return b & (b - 1);
}

// Calls f(index) for every set bit, lowest first.
template <class F>
constexpr void for_each_bit(Bitboard b, F&& f) {
    for (; b != 0; b = clear_lowest(b)) f(lowest_bit(b));
}

}  // namespace damas
