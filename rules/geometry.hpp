// Board geometry: which squares exist, how they map to bits, and the four directions as shifts.
//
// Owns: the bit layout of every board the variants use. Knows nothing of rules.
//
// Layout. Coordinates (x, y) have x = file (0 = a) and y = rank (0 = White's back row).
// * Diagonal boards (W x H, W even) play on the dark squares only. A dark square gets bit
//   (y * (W + 1) + x) / 2: an embedding in a grid one column wider, whose extra "ghost" column
//   catches every step that would wrap around an edge. Diagonal steps become plain shifts by
//   W/2 and W/2 + 1 (10x10: 5 and 6, 55 bits; 8x8: 4 and 5, 36 bits), so one step of a whole
//   set of pieces is one shift and one mask.
// * The orthogonal 8x8 board (turkish) uses all 64 squares, bit y * 8 + x; east and west steps
//   are masked so that they do not wrap from the h-file to the a-file.
// Dense square numbers 0..squares-1 count the playable squares in bit order (row by row from
// White's back row, left to right); the indexer and the files use them.
#pragma once

#include <array>
#include <bit>
#include <cstdint>

#include "rules/bitboard.hpp"

namespace damas {

enum class Grid : std::uint8_t { diagonal, orthogonal };

struct BoardSpec {
    int width;
    int height;
    Grid grid;
    bool a1_dark;  // diagonal boards: is the lower-left square (White's view) a playable one?
    constexpr bool operator==(const BoardSpec&) const = default;
};

inline constexpr BoardSpec board_10x10{10, 10, Grid::diagonal, true};
inline constexpr BoardSpec board_8x8{8, 8, Grid::diagonal, true};
inline constexpr BoardSpec board_8x8_a1_light{8, 8, Grid::diagonal, false};
inline constexpr BoardSpec board_8x8_orthogonal{8, 8, Grid::orthogonal, true};

// Runtime view of a geometry, for code that is not hot (notation, I/O, tests).
struct GeometryTables {
    int width = 0;
    int height = 0;
    int squares = 0;
    Grid grid = Grid::diagonal;
    std::array<std::int8_t, 64> square_of_bit{};  // dense square or -1
    std::array<std::int8_t, 64> bit_of_square{};
    std::array<std::int8_t, 64> x_of_square{};
    std::array<std::int8_t, 64> y_of_square{};
    Bitboard mask = 0;

    constexpr bool playable(int x, int y) const;
    constexpr int bit_at(int x, int y) const;  // -1 when (x, y) is not playable
    constexpr Bitboard row(int y) const;       // bits of rank y
};

constexpr bool is_playable(const BoardSpec& s, int x, int y) {
    if (x < 0 || y < 0 || x >= s.width || y >= s.height) return false;
    if (s.grid == Grid::orthogonal) return true;
    const bool dark = (x + y) % 2 == 0 ? s.a1_dark : !s.a1_dark;
    return dark;
}

constexpr int bit_index(const BoardSpec& s, int x, int y) {
    if (s.grid == Grid::orthogonal) return y * s.width + x;
    return (y * (s.width + 1) + x) / 2;
}

constexpr GeometryTables make_tables(const BoardSpec& s) {
    GeometryTables t;
    t.width = s.width;
    t.height = s.height;
    t.grid = s.grid;
    t.square_of_bit.fill(-1);
    t.bit_of_square.fill(-1);
    t.x_of_square.fill(-1);
    t.y_of_square.fill(-1);
    int n = 0;
    for (int y = 0; y < s.height; ++y)
        for (int x = 0; x < s.width; ++x)
            if (is_playable(s, x, y)) {
                const int b = bit_index(s, x, y);
                t.square_of_bit[b] = static_cast<std::int8_t>(n);
                t.bit_of_square[n] = static_cast<std::int8_t>(b);
                t.x_of_square[n] = static_cast<std::int8_t>(x);
                t.y_of_square[n] = static_cast<std::int8_t>(y);
                t.mask |= bit(b);
                ++n;
            }
    t.squares = n;
    return t;
}

constexpr bool GeometryTables::playable(int x, int y) const {
    return bit_at(x, y) >= 0;
}

constexpr int GeometryTables::bit_at(int x, int y) const {
    if (x < 0 || y < 0 || x >= width || y >= height) return -1;
    const int b = grid == Grid::orthogonal ? y * width + x : (y * (width + 1) + x) / 2;
    if (b >= 64 || square_of_bit[b] < 0) return -1;
    // A diagonal board maps a light square to the same bit as its dark neighbour.
    if (x_of_square[square_of_bit[b]] != x || y_of_square[square_of_bit[b]] != y) return -1;
    return b;
}

constexpr Bitboard GeometryTables::row(int y) const {
    Bitboard r = 0;
    for (int x = 0; x < width; ++x)
        if (const int b = bit_at(x, y); b >= 0) r |= bit(b);
    return r;
}

// Directions 0..3. Diagonal boards: NE, NW, SE, SW. Orthogonal: N, E, W, S.
// opposite(d) == 3 - d on both; "north" is towards Black's side.
constexpr int opposite(int d) {
    return 3 - d;
}

// Compile-time geometry: shifts and masks for the move generator's hot loops.
template <BoardSpec S>
struct Board {
    static constexpr BoardSpec spec = S;
    static constexpr GeometryTables tables = make_tables(S);
    static constexpr int width = S.width;
    static constexpr int height = S.height;
    static constexpr int squares = tables.squares;
    static constexpr Bitboard mask = tables.mask;
    static constexpr bool orthogonal = S.grid == Grid::orthogonal;

    static constexpr std::array<int, 4> dx =
        orthogonal ? std::array<int, 4>{0, 1, -1, 0} : std::array<int, 4>{1, -1, 1, -1};
    static constexpr std::array<int, 4> dy =
        orthogonal ? std::array<int, 4>{1, 0, 0, -1} : std::array<int, 4>{1, 1, -1, -1};
    static constexpr std::array<int, 4> shift =
        orthogonal
            ? std::array<int, 4>{S.width, 1, -1, -S.width}
            : std::array<int, 4>{S.width / 2 + 1, S.width / 2, -(S.width / 2), -(S.width / 2 + 1)};

    static constexpr Bitboard file_mask(int x) {
        Bitboard f = 0;
        for (int y = 0; y < S.height; ++y)
            if (const int b = tables.bit_at(x, y); b >= 0) f |= bit(b);
        return f;
    }
    // Squares a step in each direction may land on.
    static constexpr std::array<Bitboard, 4> landing =
        orthogonal ? std::array<Bitboard, 4>{mask, mask & ~file_mask(0),
                                             mask & ~file_mask(S.width - 1), mask}
                   : std::array<Bitboard, 4>{mask, mask, mask, mask};

    [[gnu::always_inline]] static constexpr Bitboard step(Bitboard b, int d) {
        const int s = shift[d];
        return (s > 0 ? b << s : b >> -s) & landing[d];
    }
    static constexpr Bitboard row(int y) { return tables.row(y); }

    // Flying pieces: the squares beyond bit b in direction d on an empty board, and how many.
    // A slide stops at its ray's first occupied square (first_on), which replaces a step loop
    // whose exit the branch predictor misses on every ray.
    struct Rays {
        std::array<std::array<Bitboard, 4>, 64> squares{};
        std::array<std::array<std::int8_t, 4>, 64> length{};
    };
    static constexpr Rays make_rays() {
        Rays r;
        for (int b = 0; b < 64; ++b) {
            if (!(mask & bit(b))) continue;
            for (int d = 0; d < 4; ++d) {
                for (Bitboard t = step(bit(b), d); t; t = step(t, d)) {
                    r.squares[b][d] |= t;
                    ++r.length[b][d];
                }
            }
        }
        return r;
    }
    static constexpr Rays rays = make_rays();
    [[gnu::always_inline]] static constexpr Bitboard ray(int b, int d) {
        return rays.squares[b][d];
    }
    // The first of `on` (squares of one ray from a square) met going in direction d: the lowest
    // bit where d's shift is positive, the highest where it is negative. `on` is not empty.
    [[gnu::always_inline]] static constexpr int first_on(Bitboard on, int d) {
        return shift[d] > 0 ? std::countr_zero(on) : 63 - std::countl_zero(on);
    }
    // The first square of `occupied` met sliding from square `from` in direction d, or -1 when
    // the ray is clear.
    [[gnu::always_inline]] static constexpr int first_piece(int from, int d, Bitboard occupied) {
        const Bitboard blockers = ray(from, d) & occupied;
        return blockers ? first_on(blockers, d) : -1;
    }
};

static_assert(Board<board_10x10>::squares == 50);
static_assert(Board<board_8x8>::squares == 32);
static_assert(Board<board_8x8_a1_light>::squares == 32);
static_assert(Board<board_8x8_orthogonal>::squares == 64);
static_assert(Board<board_10x10>::tables.bit_at(9, 9) == 54);

}  // namespace damas
