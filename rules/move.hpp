// Move and MoveList.
//
// Owns: the move as the rules identify it: (from, to, set of captured squares), plus whether the
// moving man is crowned. Squares are bit indices of the variant's geometry. A MoveList is a fixed
// array on the stack: generating moves never allocates.
#pragma once

#include <array>
#include <cstdint>

#include "rules/bitboard.hpp"

namespace damas {

// An aggregate without default member initialisers, so that a MoveList's array is not cleared on
// every construction (it is written before it is read); write Move{} for a zero move.
struct Move {
    Bitboard captured;
    std::uint8_t from;
    std::uint8_t to;
    bool promotes;

    constexpr bool is_capture() const { return captured != 0; }
    constexpr bool operator==(const Move&) const = default;
};

class MoveList {
  public:
    // Enough for any reachable position of any variant (international's record is far below).
    static constexpr int capacity = 512;

    constexpr int size() const { return size_; }
    constexpr bool empty() const { return size_ == 0; }
    constexpr const Move& operator[](int i) const { return moves_[i]; }
    constexpr Move& operator[](int i) { return moves_[i]; }
    constexpr const Move* begin() const { return moves_.data(); }
    constexpr const Move* end() const { return moves_.data() + size_; }
    constexpr void clear() { size_ = 0; }
    constexpr void push(const Move& m) {
        if (size_ < capacity) moves_[size_++] = m;
    }
    constexpr void truncate(int n) { size_ = n; }

  private:
    std::array<Move, capacity> moves_;  // not initialised: see Move
    int size_ = 0;
};

}  // namespace damas
