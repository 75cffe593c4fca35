// Position: the pieces of both colours, which are kings, and the side to move.
//
// Owns: the data every layer passes around. Bits follow the geometry of the variant the
// position belongs to (geometry.hpp); a Position does not know its variant.
#pragma once

#include <array>

#include "rules/bitboard.hpp"
#include "rules/variants.hpp"

namespace damas {

struct Position {
    std::array<Bitboard, 2> pieces{};  // by colour, men and kings
    Bitboard kings = 0;
    Color side = Color::white;

    constexpr Bitboard occupied() const { return pieces[0] | pieces[1]; }
    // A select, not an index: an indexed read makes the compiler keep a position that was just
    // computed in registers in memory, and read it back before the writes have landed.
    constexpr Bitboard of(Color c) const { return c == Color::white ? pieces[0] : pieces[1]; }
    constexpr Bitboard men(Color c) const { return of(c) & ~kings; }
    constexpr Bitboard kings_of(Color c) const { return of(c) & kings; }
    constexpr bool operator==(const Position&) const = default;
};

}  // namespace damas
