// The colour flip: rotate the board 180 degrees, swap the colours and the side to move.
//
// Owns: the map that lets only White-to-move positions be stored. A Black-to-move position of
// class C is stored as flip(p), a White-to-move position of C.mirrored(); flip(flip(p)) == p.
//
// How: on every board the 180-degree turn (x, y) -> (W-1-x, H-1-y) maps bit b to K - b for a
// constant K (the lowest plus the highest playable bit): the diagonal layout numbers the dark
// squares in order along a grid one column wider, and the turn reverses that order. So a flip is
// one 64-bit bit reversal and a shift.
#pragma once

#include "rules/geometry.hpp"
#include "rules/position.hpp"

namespace damas {

constexpr Bitboard reverse_bits(Bitboard b) {
    b = ((b >> 1) & 0x5555555555555555ull) | ((b & 0x5555555555555555ull) << 1);
    b = ((b >> 2) & 0x3333333333333333ull) | ((b & 0x3333333333333333ull) << 2);
    b = ((b >> 4) & 0x0F0F0F0F0F0F0F0Full) | ((b & 0x0F0F0F0F0F0F0F0Full) << 4);
    return __builtin_bswap64(b);  // the bytes in reverse order
}

// K: the bit that bit 0 would map to; the lowest plus the highest playable bit.
constexpr int flip_constant(const BoardSpec& board) {
    const int w = board.width, h = board.height;
    const int lowest = is_playable(board, 0, 0) ? bit_index(board, 0, 0) : bit_index(board, 1, 0);
    const int highest = is_playable(board, w - 1, h - 1) ? bit_index(board, w - 1, h - 1)
                                                         : bit_index(board, w - 2, h - 1);
    return lowest + highest;
}

// Every square of `squares` turned 180 degrees.
constexpr Bitboard rotate_180(const BoardSpec& board, Bitboard squares) {
    return reverse_bits(squares) >> (63 - flip_constant(board));
}

// The flip with its shift computed once, for hot loops.
class Flipper {
  public:
    constexpr explicit Flipper(const BoardSpec& board) : shift_(63 - flip_constant(board)) {}
    constexpr Bitboard rotate(Bitboard squares) const { return reverse_bits(squares) >> shift_; }
    constexpr Position operator()(const Position& p) const {
        Position f;
        f.pieces[0] = rotate(p.pieces[1]);
        f.pieces[1] = rotate(p.pieces[0]);
        f.kings = rotate(p.kings);
        f.side = ~p.side;
        return f;
    }

  private:
    int shift_;
};

constexpr Position flip(const BoardSpec& board, const Position& p) {
    return Flipper(board)(p);
}

}  // namespace damas
