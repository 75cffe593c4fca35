// Quiet moves of men and kings in every variant, promotion by a quiet move, and the rule
// that a capture excludes every quiet move.
#include <gtest/gtest.h>

#include "tests/rules/legal_moves.hpp"

namespace damas::test {
namespace {

// A man moves one square diagonally forward (S000 3.4; RULES.md "men move").
// international, White to move (w/b men, W/B kings):
//   10    .   .   .   .   .
//    9  .   .   .   .   .
//    8    .   .   .   .   .
//    7  .   .   .   .   .
//    6    .   .   b   .   .
//    5  w   .   .   .   .
//    4    .   .   .   b   .
//    3  .   w   .   .   .
//    2    .   .   .   .   .
//    1  .   .   .   .   .
//       a b c d e f g h i j
TEST(MenMove, InternationalWhiteDiagonallyForward) {
    const char* fen = "W:W37,26:B23,34";
    EXPECT_EQ(moves_of("international", fen), sorted({"37-31", "37-32", "26-21"}));
}

// Black men move down the board (h4 is on the edge of an 8x8 board only).
// international, Black to move (w/b men, W/B kings):
//   10    .   .   .   .   .
//    9  .   .   .   .   .
//    8    .   .   .   .   .
//    7  .   .   .   .   .
//    6    .   .   b   .   .
//    5  w   .   .   .   .
//    4    .   .   .   b   .
//    3  .   w   .   .   .
//    2    .   .   .   .   .
//    1  .   .   .   .   .
//       a b c d e f g h i j
TEST(MenMove, InternationalBlackDiagonallyForward) {
    const char* fen = "B:W37,26:B23,34";
    EXPECT_EQ(moves_of("international", fen), sorted({"23-28", "23-29", "34-39", "34-40"}));
}

// A man moves one square diagonally forward (S000 3.4; RULES.md "men move").
// brazilian, White to move (w/b men, W/B kings):
//    8    .   .   .   .
//    7  .   .   .   .
//    6    .   .   b   .
//    5  w   .   .   .
//    4    .   .   .   b
//    3  .   w   .   .
//    2    .   .   .   .
//    1  .   .   .   .
//       a b c d e f g h
TEST(MenMove, BrazilianWhiteDiagonallyForward) {
    const char* fen = "W:Wc3,a5:Bf6,h4";
    EXPECT_EQ(moves_of("brazilian", fen), sorted({"c3-b4", "c3-d4", "a5-b6"}));
}

// Black men move down the board (h4 is on the edge of an 8x8 board only).
// brazilian, Black to move (w/b men, W/B kings):
//    8    .   .   .   .
//    7  .   .   .   .
//    6    .   .   b   .
//    5  w   .   .   .
//    4    .   .   .   b
//    3  .   w   .   .
//    2    .   .   .   .
//    1  .   .   .   .
//       a b c d e f g h
TEST(MenMove, BrazilianBlackDiagonallyForward) {
    const char* fen = "B:Wc3,a5:Bf6,h4";
    EXPECT_EQ(moves_of("brazilian", fen), sorted({"f6-e5", "f6-g5", "h4-g3"}));
}

// A man moves one square diagonally forward (S000 3.4; RULES.md "men move").
// russian, White to move (w/b men, W/B kings):
//    8    .   .   .   .
//    7  .   .   .   .
//    6    .   .   b   .
//    5  w   .   .   .
//    4    .   .   .   b
//    3  .   w   .   .
//    2    .   .   .   .
//    1  .   .   .   .
//       a b c d e f g h
TEST(MenMove, RussianWhiteDiagonallyForward) {
    const char* fen = "W:Wc3,a5:Bf6,h4";
    EXPECT_EQ(moves_of("russian", fen), sorted({"c3-b4", "c3-d4", "a5-b6"}));
}

// Black men move down the board (h4 is on the edge of an 8x8 board only).
// russian, Black to move (w/b men, W/B kings):
//    8    .   .   .   .
//    7  .   .   .   .
//    6    .   .   b   .
//    5  w   .   .   .
//    4    .   .   .   b
//    3  .   w   .   .
//    2    .   .   .   .
//    1  .   .   .   .
//       a b c d e f g h
TEST(MenMove, RussianBlackDiagonallyForward) {
    const char* fen = "B:Wc3,a5:Bf6,h4";
    EXPECT_EQ(moves_of("russian", fen), sorted({"f6-e5", "f6-g5", "h4-g3"}));
}

// A man moves one square diagonally forward (S000 3.4; RULES.md "men move").
// english, White to move (w/b men, W/B kings):
//    8    .   .   .   .
//    7  .   .   .   .
//    6    .   .   b   .
//    5  w   .   .   .
//    4    .   .   .   b
//    3  .   w   .   .
//    2    .   .   .   .
//    1  .   .   .   .
//       a b c d e f g h
TEST(MenMove, EnglishWhiteDiagonallyForward) {
    const char* fen = "W:W22,13:B11,20";
    EXPECT_EQ(moves_of("english", fen), sorted({"22-17", "22-18", "13-9"}));
}

// Black men move down the board (h4 is on the edge of an 8x8 board only).
// english, Black to move (w/b men, W/B kings):
//    8    .   .   .   .
//    7  .   .   .   .
//    6    .   .   b   .
//    5  w   .   .   .
//    4    .   .   .   b
//    3  .   w   .   .
//    2    .   .   .   .
//    1  .   .   .   .
//       a b c d e f g h
TEST(MenMove, EnglishBlackDiagonallyForward) {
    const char* fen = "B:W22,13:B11,20";
    EXPECT_EQ(moves_of("english", fen), sorted({"11-15", "11-16", "20-24"}));
}

// A man moves one square diagonally forward; the board has a light lower-left corner
// (S002 2.1.5, S003; italian S004).
// portuguese, White to move (w/b men, W/B kings):
//    8  .   .   .   .
//    7    .   .   .   .
//    6  .   b   .   .
//    5    .   .   .   w
//    4  b   .   .   .
//    3    .   .   w   .
//    2  .   .   .   .
//    1    .   .   .   .
//       a b c d e f g h
TEST(MenMove, PortugueseWhiteDiagonallyForward) {
    const char* fen = "W:W10,17:B23,16";
    EXPECT_EQ(moves_of("portuguese", fen), sorted({"10-14", "10-13", "17-21"}));
}

// Black men move down the board.
// portuguese, Black to move (w/b men, W/B kings):
//    8  .   .   .   .
//    7    .   .   .   .
//    6  .   b   .   .
//    5    .   .   .   w
//    4  b   .   .   .
//    3    .   .   w   .
//    2  .   .   .   .
//    1    .   .   .   .
//       a b c d e f g h
TEST(MenMove, PortugueseBlackDiagonallyForward) {
    const char* fen = "B:W10,17:B23,16";
    EXPECT_EQ(moves_of("portuguese", fen), sorted({"23-20", "23-19", "16-12"}));
}

// A man moves one square diagonally forward; the board has a light lower-left corner
// (S002 2.1.5, S003; italian S004).
// italian, White to move (w/b men, W/B kings):
//    8  .   .   .   .
//    7    .   .   .   .
//    6  .   b   .   .
//    5    .   .   .   w
//    4  b   .   .   .
//    3    .   .   w   .
//    2  .   .   .   .
//    1    .   .   .   .
//       a b c d e f g h
TEST(MenMove, ItalianWhiteDiagonallyForward) {
    const char* fen = "W:W23,16:B10,17";
    EXPECT_EQ(moves_of("italian", fen), sorted({"23-19", "23-20", "16-12"}));
}

// Black men move down the board.
// italian, Black to move (w/b men, W/B kings):
//    8  .   .   .   .
//    7    .   .   .   .
//    6  .   b   .   .
//    5    .   .   .   w
//    4  b   .   .   .
//    3    .   .   w   .
//    2  .   .   .   .
//    1    .   .   .   .
//       a b c d e f g h
TEST(MenMove, ItalianBlackDiagonallyForward) {
    const char* fen = "B:W23,16:B10,17";
    EXPECT_EQ(moves_of("italian", fen), sorted({"10-13", "10-14", "17-21"}));
}

// A man cannot jump a piece whose square beyond is occupied, nor move onto it.
// international, White to move (w/b men, W/B kings):
//   10    .   .   .   .   .
//    9  .   .   .   .   .
//    8    .   .   .   .   .
//    7  .   .   .   .   .
//    6    .   .   .   .   .
//    5  .   .   b   .   .
//    4    .   b   .   .   .
//    3  .   w   .   .   .
//    2    .   .   .   .   .
//    1  .   .   .   .   .
//       a b c d e f g h i j
TEST(MenMove, InternationalBlockedManHasNoCapture) {
    const char* fen = "W:W37:B32,28";
    EXPECT_EQ(moves_of("international", fen), sorted({"37-31"}));
}

// Turkish men move one square orthogonally forward or sideways, never diagonally or back (S004).
// turkish, White to move (w/b men, W/B kings):
//    8  . . . . . . . .
//    7  . . . . . . . .
//    6  . . . . b . . b
//    5  . . . . . . . .
//    4  w . . w . . . .
//    3  . . . . . . . .
//    2  . . . . . . . .
//    1  . . . . . . . .
//       a b c d e f g h
TEST(MenMove, TurkishWhiteForwardOrSideways) {
    const char* fen = "W:Wd4,a4:Be6,h6";
    EXPECT_EQ(moves_of("turkish", fen), sorted({"d4-d5", "d4-c4", "d4-e4", "a4-a5", "a4-b4"}));
}

// Black turkish men move down the board or sideways.
// turkish, Black to move (w/b men, W/B kings):
//    8  . . . . . . . .
//    7  . . . . . . . .
//    6  . . . . b . . b
//    5  . . . . . . . .
//    4  w . . w . . . .
//    3  . . . . . . . .
//    2  . . . . . . . .
//    1  . . . . . . . .
//       a b c d e f g h
TEST(MenMove, TurkishBlackForwardOrSideways) {
    const char* fen = "B:Wd4,a4:Be6,h6";
    EXPECT_EQ(moves_of("turkish", fen), sorted({"e6-e5", "e6-d6", "e6-f6", "h6-h5", "h6-g6"}));
}

// A man reaching the last row by a quiet move is crowned (S000 3.5).
// international, White to move (w/b men, W/B kings):
//   10    .   .   .   .   .
//    9  .   w   .   .   .
//    8    .   .   .   .   .
//    7  .   .   b   .   .
//    6    .   .   .   .   .
//    5  .   .   .   .   .
//    4    .   .   .   .   .
//    3  .   .   .   .   .
//    2    .   .   .   .   .
//    1  .   .   .   .   .
//       a b c d e f g h i j
TEST(Promotion, InternationalQuietMoveToLastRowCrowns) {
    const char* fen = "W:W7:B18";
    EXPECT_EQ(moves_of("international", fen), sorted({"7-1", "7-2"}));
    EXPECT_EQ(fen_after("international", fen, "7-1"), canonical("international", "B:WK1:B18"));
}

// A man reaching the last row is crowned.
// english, White to move (w/b men, W/B kings):
//    8    .   .   .   .
//    7  .   w   .   .
//    6    .   .   .   .
//    5  .   .   b   .
//    4    .   .   .   .
//    3  .   .   .   .
//    2    .   .   .   .
//    1  .   .   .   .
//       a b c d e f g h
TEST(Promotion, EnglishQuietMoveToLastRowCrowns) {
    const char* fen = "W:W6:B15";
    EXPECT_EQ(moves_of("english", fen), sorted({"6-1", "6-2"}));
    EXPECT_EQ(fen_after("english", fen, "6-2"), canonical("english", "B:WK2:B15"));
}

// Only the forward step reaches the last row and crowns; sideways steps stay on row 7.
// turkish, White to move (w/b men, W/B kings):
//    8  . . . . . . . .
//    7  . . . w . . . .
//    6  . . . . . . . .
//    5  b . . . . . . .
//    4  . . . . . . . .
//    3  . . . . . . . .
//    2  . . . . . . . .
//    1  . . . . . . . .
//       a b c d e f g h
TEST(Promotion, TurkishQuietMoveToLastRowCrowns) {
    const char* fen = "W:Wd7:Ba5";
    EXPECT_EQ(moves_of("turkish", fen), sorted({"d7-d8", "d7-c7", "d7-e7"}));
    EXPECT_EQ(fen_after("turkish", fen, "d7-d8"), canonical("turkish", "B:WKd8:Ba5"));
    EXPECT_EQ(fen_after("turkish", fen, "d7-c7"), canonical("turkish", "B:Wc7:Ba5"));
}

// A king moves any number of free squares along a diagonal (S000 3.9), not through a piece.
// international, White to move (w/b men, W/B kings):
//   10    .   .   .   .   .
//    9  b   .   .   .   .
//    8    .   .   .   .   .
//    7  .   .   .   .   .
//    6    .   .   w   .   .
//    5  .   .   .   .   .
//    4    .   .   .   .   .
//    3  .   .   .   .   .
//    2    .   .   .   .   .
//    1  W   .   .   .   .
//       a b c d e f g h i j
TEST(KingMove, InternationalFlyingKingStopsAtOwnPiece) {
    const char* fen = "W:WK46,23:B6";
    EXPECT_EQ(moves_of("international", fen),
              sorted({"46-41", "46-37", "46-32", "46-28", "23-18", "23-19"}));
}

// Flying king on 8x8: every free square of its four diagonals, stopping before f6
// (f6 cannot be taken: g7 behind it is occupied).
// brazilian, White to move (w/b men, W/B kings):
//    8    .   .   .   .
//    7  .   .   .   b
//    6    .   .   b   .
//    5  .   .   .   .
//    4    .   W   .   .
//    3  .   .   .   .
//    2    .   .   .   b
//    1  .   .   .   .
//       a b c d e f g h
TEST(KingMove, BrazilianFlyingKing) {
    const char* fen = "W:WKd4:Bf6,g7,h2";
    EXPECT_EQ(moves_of("brazilian", fen), sorted({"d4-c3", "d4-b2", "d4-a1", "d4-e5", "d4-c5",
                                                  "d4-b6", "d4-a7", "d4-e3", "d4-f2", "d4-g1"}));
}

// Flying king on 8x8: every free square of its four diagonals, stopping before f6
// (f6 cannot be taken: g7 behind it is occupied).
// russian, White to move (w/b men, W/B kings):
//    8    .   .   .   .
//    7  .   .   .   b
//    6    .   .   b   .
//    5  .   .   .   .
//    4    .   W   .   .
//    3  .   .   .   .
//    2    .   .   .   b
//    1  .   .   .   .
//       a b c d e f g h
TEST(KingMove, RussianFlyingKing) {
    const char* fen = "W:WKd4:Bf6,g7,h2";
    EXPECT_EQ(moves_of("russian", fen), sorted({"d4-c3", "d4-b2", "d4-a1", "d4-e5", "d4-c5",
                                                "d4-b6", "d4-a7", "d4-e3", "d4-f2", "d4-g1"}));
}

// English kings move one square in any diagonal direction (S004).
// english, White to move (w/b men, W/B kings):
//    8    .   .   .   .
//    7  .   .   .   b
//    6    .   .   b   .
//    5  .   .   .   .
//    4    .   W   .   .
//    3  .   .   .   .
//    2    .   .   .   b
//    1  .   .   .   .
//       a b c d e f g h
TEST(KingMove, EnglishShortKing) {
    const char* fen = "W:WK18:B11,8,28";
    EXPECT_EQ(moves_of("english", fen), sorted({"18-22", "18-15", "18-14", "18-23"}));
}

// Portuguese kings fly (S002 2.2.8); c6 cannot be taken, b7 is behind it.
// portuguese, White to move (w/b men, W/B kings):
//    8  .   .   .   .
//    7    b   .   .   .
//    6  .   b   .   .
//    5    .   .   .   .
//    4  .   .   W   .
//    3    .   .   .   .
//    2  b   .   .   .
//    1    .   .   .   .
//       a b c d e f g h
TEST(KingMove, PortugueseFlyingKing) {
    const char* fen = "W:WK14:B23,28,8";
    EXPECT_EQ(moves_of("portuguese", fen), sorted({"14-18", "14-21", "14-25", "14-19", "14-10",
                                                   "14-5", "14-1", "14-11", "14-7", "14-4"}));
}

// Italian kings move one square (Italian federation rules).
// italian, White to move (w/b men, W/B kings):
//    8  .   .   .   .
//    7    b   .   .   .
//    6  .   b   .   .
//    5    .   .   .   .
//    4  .   .   W   .
//    3    .   .   .   .
//    2  b   .   .   .
//    1    .   .   .   .
//       a b c d e f g h
TEST(KingMove, ItalianShortKing) {
    const char* fen = "W:WK19:B10,5,25";
    EXPECT_EQ(moves_of("italian", fen), sorted({"19-15", "19-14", "19-23", "19-22"}));
}

// Turkish kings fly orthogonally (S004), never diagonally; d7 cannot be taken (d8 behind).
// turkish, White to move (w/b men, W/B kings):
//    8  . . . b . . . .
//    7  . . . b . . . .
//    6  . . . . . . . .
//    5  . . . . . . . .
//    4  . . . W . . . .
//    3  . . . . . . . .
//    2  . . . . . . . .
//    1  . . . . . . . .
//       a b c d e f g h
TEST(KingMove, TurkishOrthogonalFlyingKing) {
    const char* fen = "W:WKd4:Bd7,d8";
    EXPECT_EQ(moves_of("turkish", fen),
              sorted({"d4-d5", "d4-d6", "d4-d3", "d4-d2", "d4-d1", "d4-c4", "d4-b4", "d4-a4",
                      "d4-e4", "d4-f4", "d4-g4", "d4-h4"}));
}

// Capture is compulsory (S000 4.1): the quiet moves of h2 and c3 are not legal.
// international, White to move (w/b men, W/B kings):
//   10    .   .   .   .   .
//    9  .   .   .   .   .
//    8    .   .   .   .   .
//    7  .   .   .   .   .
//    6    .   .   .   .   .
//    5  .   .   .   .   .
//    4    .   b   .   .   .
//    3  .   w   .   .   .
//    2    .   .   .   w   .
//    1  .   .   .   .   .
//       a b c d e f g h i j
TEST(Compulsory, InternationalCaptureExcludesQuietMoves) {
    const char* fen = "W:W37,44:B32";
    EXPECT_EQ(moves_of("international", fen), sorted({"37x28"}));
}

// Black must take c3.
// international, Black to move (w/b men, W/B kings):
//   10    .   .   .   .   .
//    9  .   .   .   .   .
//    8    .   .   .   .   .
//    7  .   .   .   .   .
//    6    .   .   .   .   .
//    5  .   .   .   .   .
//    4    .   b   .   .   .
//    3  .   w   .   .   .
//    2    .   .   .   w   .
//    1  .   .   .   .   .
//       a b c d e f g h i j
TEST(Compulsory, InternationalBlackCaptures) {
    const char* fen = "B:W37,44:B32";
    EXPECT_EQ(moves_of("international", fen), sorted({"32x41"}));
}

// Capture is compulsory in turkish too (S004).
// turkish, White to move (w/b men, W/B kings):
//    8  . . . . . . . .
//    7  . . . . . . . .
//    6  . . . . . . . .
//    5  . . . b . . . .
//    4  . . . w . . . .
//    3  . . . . . . . .
//    2  . . . . . . . w
//    1  . . . . . . . .
//       a b c d e f g h
TEST(Compulsory, TurkishCaptureExcludesQuietMoves) {
    const char* fen = "W:Wd4,h2:Bd5";
    EXPECT_EQ(moves_of("turkish", fen), sorted({"d4:d6"}));
}

}  // namespace
}  // namespace damas::test
