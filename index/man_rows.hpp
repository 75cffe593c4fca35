// Where a man can stand: the one place that decides which rows the indexer gives men.
//
// Owns: the rows a man of each colour can occupy in a reachable position, per board.
// * Diagonal boards: any row except its own promotion row (a man reaching it is crowned):
//   White men on rows 0..H-2, Black men on rows 1..H-1.
// * Turkish (the orthogonal board): men start on their second and third rows and move and
//   capture only forward or sideways, never backward (S004: "as coloca inicialmente na segunda
//   e terceira fileiras"; "para os lados ou para a frente, mas não para trás"), so they can
//   never stand on their own back row either: White men on rows 1..H-2, Black men likewise.
// Row numbers are y, 0 = White's back row (geometry.hpp).
#pragma once

#include "rules/geometry.hpp"
#include "rules/variants.hpp"

namespace damas {

struct RowRange {
    int first;
    int last;  // inclusive
    constexpr bool contains(int y) const { return y >= first && y <= last; }
};

constexpr RowRange man_rows(const BoardSpec& board, Color c) {
    const int top = board.height - 1;
    if (board.grid == Grid::orthogonal) return {1, top - 1};
    return c == Color::white ? RowRange{0, top - 1} : RowRange{1, top};
}

// How far a man has come from its own side: its row for White, the rows from the top for Black.
// A forward step adds one; the colour flip (flip.hpp) keeps it.
constexpr int man_advancement(const BoardSpec& board, Color c, int y) {
    return c == Color::white ? y : board.height - 1 - y;
}

}  // namespace damas
