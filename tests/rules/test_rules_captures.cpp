// Captures: backward captures by men, flying and short kings and where they land, captured
// pieces that stay on the board (or leave it at once in turkish), merging of paths.
#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "tests/rules/legal_moves.hpp"

namespace damas::test {
namespace {

// Men capture backward as well as forward (S000 4.1, S001; russian rules).
// international, White to move (w/b men, W/B kings):
//   10    .   .   .   .   .
//    9  .   .   .   .   .
//    8    .   .   .   .   .
//    7  .   .   .   .   .
//    6    .   .   .   .   .
//    5  .   .   .   .   .
//    4    .   w   .   .   .
//    3  .   b   b   .   .
//    2    .   .   .   .   .
//    1  .   .   .   .   .
//       a b c d e f g h i j
TEST(BackwardCapture, InternationalManCapturesBackward) {
    const char* fen = "W:W32:B37,38";
    EXPECT_EQ(moves_of("international", fen), sorted({"32x41", "32x43"}));
}

// Men capture backward as well as forward (S000 4.1, S001; russian rules).
// brazilian, White to move (w/b men, W/B kings):
//    8    .   .   .   .
//    7  .   .   .   .
//    6    .   .   .   .
//    5  .   .   .   .
//    4    .   w   .   .
//    3  .   b   b   .
//    2    .   .   .   .
//    1  .   .   .   .
//       a b c d e f g h
TEST(BackwardCapture, BrazilianManCapturesBackward) {
    const char* fen = "W:Wd4:Bc3,e3";
    EXPECT_EQ(moves_of("brazilian", fen), sorted({"d4:b2", "d4:f2"}));
}

// Men capture backward as well as forward (S000 4.1, S001; russian rules).
// russian, White to move (w/b men, W/B kings):
//    8    .   .   .   .
//    7  .   .   .   .
//    6    .   .   .   .
//    5  .   .   .   .
//    4    .   w   .   .
//    3  .   b   b   .
//    2    .   .   .   .
//    1  .   .   .   .
//       a b c d e f g h
TEST(BackwardCapture, RussianManCapturesBackward) {
    const char* fen = "W:Wd4:Bc3,e3";
    EXPECT_EQ(moves_of("russian", fen), sorted({"d4:b2", "d4:f2"}));
}

// A black man captures backward (up the board).
// international, Black to move (w/b men, W/B kings):
//   10    .   .   .   .   .
//    9  .   .   .   .   .
//    8    .   .   .   .   .
//    7  .   .   .   .   .
//    6    .   w   .   .   .
//    5  .   .   b   .   .
//    4    .   .   .   .   .
//    3  .   .   .   .   .
//    2    .   .   .   .   .
//    1  .   .   .   .   .
//       a b c d e f g h i j
TEST(BackwardCapture, InternationalBlackManCapturesBackward) {
    const char* fen = "B:W22:B28";
    EXPECT_EQ(moves_of("international", fen), sorted({"28x17"}));
}

// English men capture forward only (S004): no capture, the quiet moves stay legal.
// english, White to move (w/b men, W/B kings):
//    8    .   .   .   .
//    7  .   .   .   .
//    6    .   .   .   .
//    5  .   .   .   .
//    4    .   w   .   .
//    3  .   b   b   .
//    2    .   .   .   .
//    1  .   .   .   .
//       a b c d e f g h
TEST(BackwardCapture, EnglishManCannot) {
    const char* fen = "W:W18:B22,23";
    EXPECT_EQ(moves_of("english", fen), sorted({"18-14", "18-15"}));
}

// Men capture forward only (portuguese S003, italian federation rules).
// portuguese, White to move (w/b men, W/B kings):
//    8  .   .   .   .
//    7    .   .   .   .
//    6  .   .   .   .
//    5    .   .   .   .
//    4  .   .   w   .
//    3    .   b   b   .
//    2  .   .   .   .
//    1    .   .   .   .
//       a b c d e f g h
TEST(BackwardCapture, PortugueseManCannot) {
    const char* fen = "W:W14:B11,10";
    EXPECT_EQ(moves_of("portuguese", fen), sorted({"14-19", "14-18"}));
}

// Men capture forward only (portuguese S003, italian federation rules).
// italian, White to move (w/b men, W/B kings):
//    8  .   .   .   .
//    7    .   .   .   .
//    6  .   .   .   .
//    5    .   .   .   .
//    4  .   .   w   .
//    3    .   b   b   .
//    2  .   .   .   .
//    1    .   .   .   .
//       a b c d e f g h
TEST(BackwardCapture, ItalianManCannot) {
    const char* fen = "W:W19:B22,23";
    EXPECT_EQ(moves_of("italian", fen), sorted({"19-14", "19-15"}));
}

// Turkish men capture forward or sideways, never backward (S004).
// turkish, White to move (w/b men, W/B kings):
//    8  . . . . . . . .
//    7  . . . . . . . .
//    6  . . . . . . . .
//    5  . . . . . . . .
//    4  . . . w b . . .
//    3  . . . b . . . .
//    2  . . . . . . . .
//    1  . . . . . . . .
//       a b c d e f g h
TEST(BackwardCapture, TurkishManCapturesSidewaysNotBackward) {
    const char* fen = "W:Wd4:Bd3,e4";
    EXPECT_EQ(moves_of("turkish", fen), sorted({"d4:f4"}));
}

// A flying king captures from a distance and lands on any free square beyond (S000 4.3).
// international, White to move (w/b men, W/B kings):
//   10    .   .   .   .   .
//    9  .   .   .   .   .
//    8    .   .   .   .   .
//    7  .   .   .   .   .
//    6    .   .   .   .   .
//    5  .   .   .   .   .
//    4    .   .   .   .   .
//    3  .   b   .   .   .
//    2    .   .   .   .   .
//    1  W   .   .   .   .
//       a b c d e f g h i j
TEST(KingCapture, InternationalFlyingKingLandsAnywhereBeyond) {
    const char* fen = "W:WK46:B37";
    EXPECT_EQ(moves_of("international", fen),
              sorted({"46x32", "46x28", "46x23", "46x19", "46x14", "46x10", "46x5"}));
}

// Brazilian kings capture as international ones (S001).
// brazilian, White to move (w/b men, W/B kings):
//    8    .   .   .   .
//    7  .   .   .   .
//    6    .   .   .   .
//    5  .   .   .   .
//    4    .   .   .   .
//    3  .   b   .   .
//    2    .   .   .   .
//    1  W   .   .   .
//       a b c d e f g h
TEST(KingCapture, BrazilianFlyingKingLandsAnywhereBeyond) {
    const char* fen = "W:WKa1:Bc3";
    EXPECT_EQ(moves_of("brazilian", fen), sorted({"a1:d4", "a1:e5", "a1:f6", "a1:g7", "a1:h8"}));
}

// Portuguese flying kings (S002 2.2.8) land on any free square beyond.
// portuguese, White to move (w/b men, W/B kings):
//    8  .   .   .   .
//    7    .   .   .   .
//    6  .   .   .   .
//    5    .   .   .   .
//    4  .   b   .   .
//    3    .   .   .   .
//    2  W   .   .   .
//    1    .   .   .   .
//       a b c d e f g h
TEST(KingCapture, PortugueseFlyingKingLandsAnywhereBeyond) {
    const char* fen = "W:WK8:B15";
    EXPECT_EQ(moves_of("portuguese", fen), sorted({"8x19", "8x22", "8x26", "8x29"}));
}

// An english king jumps an adjacent piece and lands just beyond it (S004).
// english, White to move (w/b men, W/B kings):
//    8    .   .   .   .
//    7  .   .   .   .
//    6    .   .   .   .
//    5  .   .   .   .
//    4    .   .   .   .
//    3  .   .   .   .
//    2    b   .   .   .
//    1  W   .   .   .
//       a b c d e f g h
TEST(KingCapture, EnglishShortKingJumpsAdjacentOnly) {
    const char* fen = "W:WK29:B25";
    EXPECT_EQ(moves_of("english", fen), sorted({"29x22"}));
}

// A piece two squares away cannot be taken by a short king.
// english, White to move (w/b men, W/B kings):
//    8    .   .   .   .
//    7  .   .   .   .
//    6    .   .   .   .
//    5  .   .   .   .
//    4    .   .   .   .
//    3  .   b   .   .
//    2    .   .   .   .
//    1  W   .   .   .
//       a b c d e f g h
TEST(KingCapture, EnglishShortKingCannotCaptureFromAfar) {
    const char* fen = "W:WK29:B22";
    EXPECT_EQ(moves_of("english", fen), sorted({"29-25"}));
}

// Italian kings jump an adjacent piece and land just beyond.
// italian, White to move (w/b men, W/B kings):
//    8  .   .   .   .
//    7    .   .   .   .
//    6  .   .   .   .
//    5    .   .   .   .
//    4  .   .   .   .
//    3    b   .   .   .
//    2  W   .   .   .
//    1    .   .   .   .
//       a b c d e f g h
TEST(KingCapture, ItalianShortKingJumpsAdjacentOnly) {
    const char* fen = "W:WK25:B21";
    EXPECT_EQ(moves_of("italian", fen), sorted({"25x18"}));
}

// A piece two squares away cannot be taken by a short king.
// italian, White to move (w/b men, W/B kings):
//    8  .   .   .   .
//    7    .   .   .   .
//    6  .   .   .   .
//    5    .   .   .   .
//    4  .   b   .   .
//    3    .   .   .   .
//    2  W   .   .   .
//    1    .   .   .   .
//       a b c d e f g h
TEST(KingCapture, ItalianShortKingCannotCaptureFromAfar) {
    const char* fen = "W:WK25:B18";
    EXPECT_EQ(moves_of("italian", fen), sorted({"25-21", "25-29"}));
}

// Turkish kings capture orthogonally from a distance and land on any free square beyond
// (RULES.md default of the (?) cell).
// turkish, White to move (w/b men, W/B kings):
//    8  . . . . . . . .
//    7  . . . . . . . .
//    6  . . . . . . . .
//    5  . . . . . . . .
//    4  b . . . . . . .
//    3  . . . . . . . .
//    2  . . . . . . . .
//    1  W . . . . . . .
//       a b c d e f g h
TEST(KingCapture, TurkishKingCapturesOrthogonallyFromAfar) {
    const char* fen = "W:WKa1:Ba4";
    EXPECT_EQ(moves_of("turkish", fen), sorted({"a1:a5", "a1:a6", "a1:a7", "a1:a8"}));
}

// A diagonal neighbour is not a capture for a turkish king.
// turkish, White to move (w/b men, W/B kings):
//    8  . . . . . . . .
//    7  . . . . . . . .
//    6  . . . . . . . .
//    5  . . . . . . . .
//    4  . . . . . . . .
//    3  . . . . . . . .
//    2  . b . . . . . .
//    1  W . . . . . . .
//       a b c d e f g h
TEST(KingCapture, TurkishKingCannotCaptureDiagonally) {
    const char* fen = "W:WKa1:Bb2";
    EXPECT_EQ(moves_of("turkish", fen),
              sorted({"a1-a2", "a1-a3", "a1-a4", "a1-a5", "a1-a6", "a1-a7", "a1-a8", "a1-b1",
                      "a1-c1", "a1-d1", "a1-e1", "a1-f1", "a1-g1", "a1-h1"}));
}

// After taking c3 the king may land on d4..h8, but must choose e5, the only square from which
// the capture continues (RULES.md; russian has free choice, so no majority rule hides this).
// Landing on d4, f6, g7 or h8 and stopping there is illegal.
// russian, White to move (w/b men, W/B kings):
//    8    .   .   .   .
//    7  .   .   .   .
//    6    .   .   .   .
//    5  .   .   .   .
//    4    .   .   b   .
//    3  .   b   .   .
//    2    .   .   .   .
//    1  W   .   .   .
//       a b c d e f g h
TEST(KingCapture, RussianFlyingKingMustLandWhereCaptureContinues) {
    const char* fen = "W:WKa1:Bc3,f4";
    EXPECT_EQ(moves_of("russian", fen), sorted({"a1:g3", "a1:h2"}));
}

// Captured pieces stay on the board until the move ends and block the way (S000 4.8, 4.11;
// "Turkish strike"). The king takes d4, e7, c7 and stands on b6 or a5: the way back through
// d4 to e3 is closed, so e3 cannot be taken. With pieces removed at once it could be.
// brazilian, White to move (w/b men, W/B kings):
//    8    .   .   .   .
//    7  .   b   b   .
//    6    .   .   .   .
//    5  .   .   .   .
//    4    .   b   .   .
//    3  .   .   b   .
//    2    W   .   .   .
//    1  .   .   .   .
//       a b c d e f g h
TEST(DeadPieces, BrazilianCapturedPieceBlocksTheKing) {
    const char* fen = "W:WKb2:Bd4,e7,c7,e3";
    EXPECT_EQ(moves_of("brazilian", fen), sorted({"b2:b6", "b2:a5"}));
}

// The same in international draughts (S000 4.8, 4.11).
// international, White to move (w/b men, W/B kings):
//   10    .   .   .   .   .
//    9  .   .   .   .   .
//    8    .   .   .   .   .
//    7  .   b   b   .   .
//    6    .   .   .   .   .
//    5  .   .   .   .   .
//    4    .   b   .   .   .
//    3  .   .   b   .   .
//    2    W   .   .   .   .
//    1  .   .   .   .   .
//       a b c d e f g h i j
TEST(DeadPieces, InternationalCapturedPieceBlocksTheKing) {
    const char* fen = "W:WK41:B32,18,17,38";
    EXPECT_EQ(moves_of("international", fen), sorted({"41x21", "41x26"}));
}

// Turkish: each captured piece leaves the board at once (S004). The king takes c2 (landing c5),
// d5 (e5), e3 (e2) and then runs west over the square c2 just emptied to take b2, landing a2:
// 4 pieces. If c2 stayed on the board the best would be 3.
// turkish, White to move (w/b men, W/B kings):
//    8  . . . . . . . .
//    7  . . . . . . . .
//    6  . . . . . . . .
//    5  . . . b . . . .
//    4  . . . . . . . .
//    3  . . . . b . . .
//    2  . b b . . . . .
//    1  . . W . . . . .
//       a b c d e f g h
TEST(DeadPieces, TurkishKingPassesOverJustEmptiedSquare) {
    const char* fen = "W:WKc1:Bc2,d5,e3,b2";
    EXPECT_EQ(moves_of("turkish", fen), sorted({"c1:a2"}));
    EXPECT_EQ(fen_after("turkish", fen, "c1:a2"), canonical("turkish", "B:WKa2:B"));
}

// A turkish king may not reverse 180 degrees during a capture (Turkish federation rules): after
// taking d6 it cannot come back south over d5, d4 (empty now) to take d3, nor after taking d3
// come back north to take d6. Either way would be a 2-piece capture that the majority rule
// would impose.
// turkish, White to move (w/b men, W/B kings):
//    8  . . . . . . . .
//    7  . . . . . . . .
//    6  . . . b . . . .
//    5  . . . . . . . .
//    4  . . . W . . . .
//    3  . . . b . . . .
//    2  . . . . . . . .
//    1  . . . . . . . .
//       a b c d e f g h
TEST(DeadPieces, TurkishKingMayNotTurnBack) {
    const char* fen = "W:WKd4:Bd6,d3";
    // With the captured squares: turning back would give the same from and to squares with
    // both pieces taken (d4:d7[d3,d6] by way of d2), so the plain texts would not tell.
    EXPECT_EQ(moves_of("turkish", fen, true),
              sorted({"d4:d7[d6]", "d4:d8[d6]", "d4:d2[d3]", "d4:d1[d3]"}));
}

// The king takes d4 landing e5, goes round the square f6, f8, d8, d6 either way back to e5,
// then takes f4. Both ways give the same (from, to, captured set): one move each
// (RULES.md).
// international, White to move (w/b men, W/B kings):
//   10    .   .   .   .   .
//    9  .   .   .   .   .
//    8    .   b   b   .   .
//    7  .   .   .   .   .
//    6    .   b   b   .   .
//    5  .   .   .   .   .
//    4    .   b   b   .   .
//    3  .   W   .   .   .
//    2    .   .   .   .   .
//    1  .   .   .   .   .
//       a b c d e f g h i j
TEST(Merging, InternationalSamePathsAreOneMove) {
    const char* fen = "W:WK37:B32,23,13,12,22,33";
    EXPECT_EQ(moves_of("international", fen), sorted({"37x39", "37x44", "37x50"}));
}

// Same position: with keep_duplicates each of the two paths is its own move.
// international, White to move (w/b men, W/B kings):
//   10    .   .   .   .   .
//    9  .   .   .   .   .
//    8    .   b   b   .   .
//    7  .   .   .   .   .
//    6    .   b   b   .   .
//    5  .   .   .   .   .
//    4    .   b   b   .   .
//    3  .   W   .   .   .
//    2    .   .   .   .   .
//    1  .   .   .   .   .
//       a b c d e f g h i j
TEST(Merging, InternationalKeepDuplicatesKeepsPathsApart) {
    const char* fen = "W:WK37:B32,23,13,12,22,33";
    EXPECT_EQ(moves_of("international", fen, true, true),
              sorted({"37x39[12,13,22,23,32,33]", "37x39[12,13,22,23,32,33]",
                      "37x44[12,13,22,23,32,33]", "37x44[12,13,22,23,32,33]",
                      "37x50[12,13,22,23,32,33]", "37x50[12,13,22,23,32,33]"}));
}

// The king takes the four pieces round c3 and ends on its own start square (from == to),
// clockwise or anticlockwise: one move.
// brazilian, White to move (w/b men, W/B kings):
//    8    .   .   .   .
//    7  .   .   .   .
//    6    .   .   .   .
//    5  .   .   .   .
//    4    b   b   .   .
//    3  .   .   .   .
//    2    b   b   .   .
//    1  .   W   .   .
//       a b c d e f g h
TEST(Merging, BrazilianKingLoopEndsOnItsStartSquare) {
    const char* fen = "W:WKc1:Bd2,d4,b4,b2";
    EXPECT_EQ(moves_of("brazilian", fen), sorted({"c1:c1"}));
    EXPECT_EQ(fen_after("brazilian", fen, "c1:c1"), canonical("brazilian", "B:WKc1:B"));
}

// With keep_duplicates the two directions round the loop are two moves.
// brazilian, White to move (w/b men, W/B kings):
//    8    .   .   .   .
//    7  .   .   .   .
//    6    .   .   .   .
//    5  .   .   .   .
//    4    b   b   .   .
//    3  .   .   .   .
//    2    b   b   .   .
//    1  .   W   .   .
//       a b c d e f g h
TEST(Merging, BrazilianKingLoopKeepDuplicates) {
    const char* fen = "W:WKc1:Bd2,d4,b4,b2";
    EXPECT_EQ(moves_of("brazilian", fen, true, true),
              sorted({"c1:c1[b2,b4,d2,d4]", "c1:c1[b2,b4,d2,d4]"}));
}

// Giveaway variants move exactly as their base variant (S004, "perde-ganha"); only the result
// of a game differs.
TEST(Giveaway, SameMovesAsTheBaseVariant) {
    const std::vector<std::pair<const char*, const char*>> positions = {
        {"international", "W:WK37:B32,23,13,12,22,33"},
        {"brazilian", "W:WKb2:Bd4,e7,c7,e3"},
        {"portuguese", "W:W11,10:B15,K13"},
        {"russian", "W:Wb6:Bc7,f6"},
        {"italian", "W:WK22:BK19,12,18,K10"},
        {"english", "W:W9:B6,7"},
        {"turkish", "W:WKc1:Bc2,d5,e3,b2"},
    };
    for (const auto& [variant, fen] : positions) {
        const std::string giveaway = std::string(variant) + "-giveaway";
        EXPECT_EQ(moves_of(giveaway, fen, true, true), moves_of(variant, fen, true, true))
            << variant;
        EXPECT_FALSE(moves_of(variant, fen).empty()) << variant;
    }
}

}  // namespace
}  // namespace damas::test
