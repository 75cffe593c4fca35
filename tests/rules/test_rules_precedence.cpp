// Which captures are legal among those possible: the majority rule or free choice, and the
// portuguese and italian tie-breaks; italian men and kings.
#include <gtest/gtest.h>

#include "tests/rules/legal_moves.hpp"

namespace damas::test {
namespace {

// Majority rule (S001): the 2-piece capture e3-g5-e7 is compulsory, c3xa5 is not legal.
// brazilian, White to move (w/b men, W/B kings):
//    8    .   .   .   .
//    7  .   .   .   .
//    6    .   .   b   .
//    5  .   .   .   .
//    4    b   .   b   .
//    3  .   w   w   .
//    2    .   .   .   .
//    1  .   .   .   .
//       a b c d e f g h
TEST(Majority, Brazilian) {
    const char* fen = "W:Wc3,e3:Bb4,f4,f6";
    EXPECT_EQ(moves_of("brazilian", fen), sorted({"e3:e7"}));
}

// Majority rule (S000 4.13).
// international, White to move (w/b men, W/B kings):
//   10    .   .   .   .   .
//    9  .   .   .   .   .
//    8    .   .   .   .   .
//    7  .   .   .   .   .
//    6    .   .   b   .   .
//    5  .   .   .   .   .
//    4    b   .   b   .   .
//    3  .   w   w   .   .
//    2    .   .   .   .   .
//    1  .   .   .   .   .
//       a b c d e f g h i j
TEST(Majority, International) {
    const char* fen = "W:W37,38:B31,33,23";
    EXPECT_EQ(moves_of("international", fen), sorted({"38x18"}));
}

// Russian: free choice among captures (S004); but e3 must go on from g5 to e7.
// russian, White to move (w/b men, W/B kings):
//    8    .   .   .   .
//    7  .   .   .   .
//    6    .   .   b   .
//    5  .   .   .   .
//    4    b   .   b   .
//    3  .   w   w   .
//    2    .   .   .   .
//    1  .   .   .   .
//       a b c d e f g h
TEST(Majority, Russian) {
    const char* fen = "W:Wc3,e3:Bb4,f4,f6";
    EXPECT_EQ(moves_of("russian", fen), sorted({"c3:a5", "e3:e7"}));
}

// English: free choice among captures (S004).
// english, White to move (w/b men, W/B kings):
//    8    .   .   .   .
//    7  .   .   .   .
//    6    .   .   b   .
//    5  .   .   .   .
//    4    b   .   b   .
//    3  .   w   w   .
//    2    .   .   .   .
//    1  .   .   .   .
//       a b c d e f g h
TEST(Majority, English) {
    const char* fen = "W:W22,23:B17,19,11";
    EXPECT_EQ(moves_of("english", fen), sorted({"22x13", "23x7"}));
}

// Majority rule (portuguese S002 3.1.1b; italian S004).
// portuguese, White to move (w/b men, W/B kings):
//    8  .   .   .   .
//    7    .   .   .   .
//    6  .   b   .   .
//    5    .   .   .   .
//    4  .   b   .   b
//    3    .   w   w   .
//    2  .   .   .   .
//    1    .   .   .   .
//       a b c d e f g h
TEST(Majority, Portuguese) {
    const char* fen = "W:W10,11:B13,15,23";
    EXPECT_EQ(moves_of("portuguese", fen), sorted({"11x27"}));
}

// Majority rule (portuguese S002 3.1.1b; italian S004).
// italian, White to move (w/b men, W/B kings):
//    8  .   .   .   .
//    7    .   .   .   .
//    6  .   b   .   .
//    5    .   .   .   .
//    4  .   b   .   b
//    3    .   w   w   .
//    2  .   .   .   .
//    1    .   .   .   .
//       a b c d e f g h
TEST(Majority, Italian) {
    const char* fen = "W:W23,22:B20,18,10";
    EXPECT_EQ(moves_of("italian", fen), sorted({"22x6"}));
}

// Majority rule in turkish (S004).
// turkish, White to move (w/b men, W/B kings):
//    8  . . . . . . . .
//    7  . . . . . . . .
//    6  . . . . . . . .
//    5  . . . . . . b .
//    4  . . . . . . . .
//    3  . b . . . . b .
//    2  . w . . . . w .
//    1  . . . . . . . .
//       a b c d e f g h
TEST(Majority, Turkish) {
    const char* fen = "W:Wb2,g2:Bb3,g3,g5";
    EXPECT_EQ(moves_of("turkish", fen), sorted({"g2:g6"}));
}

// Portuguese: among captures of equal count, the one taking more kings (S002 3.1.1c, S003).
// portuguese, White to move (w/b men, W/B kings):
//    8  .   .   .   .
//    7    .   .   .   .
//    6  .   .   .   .
//    5    .   .   .   .
//    4  .   b   .   B
//    3    .   w   w   .
//    2  .   .   .   .
//    1    .   .   .   .
//       a b c d e f g h
TEST(TieBreak, PortugueseMostKings) {
    const char* fen = "W:W11,10:B15,K13";
    EXPECT_EQ(moves_of("portuguese", fen), sorted({"10x17"}));
}

// Portuguese: two men outweigh one king (majority first, S002 3.1.1b).
// portuguese, White to move (w/b men, W/B kings):
//    8  .   .   .   .
//    7    .   .   .   .
//    6  .   b   .   .
//    5    .   .   .   .
//    4  .   b   .   B
//    3    .   w   w   .
//    2  .   .   .   .
//    1    .   .   .   .
//       a b c d e f g h
TEST(TieBreak, PortugueseCountBeforeKings) {
    const char* fen = "W:W11,10:B15,23,K13";
    EXPECT_EQ(moves_of("portuguese", fen), sorted({"11x27"}));
}

// Brazilian: free choice among equal counts, kings or not (S001; S000 4.14).
// brazilian, White to move (w/b men, W/B kings):
//    8    .   .   .   .
//    7  .   .   .   .
//    6    .   .   .   .
//    5  .   .   .   .
//    4    B   .   b   .
//    3  .   w   w   .
//    2    .   .   .   .
//    1  .   .   .   .
//       a b c d e f g h
TEST(TieBreak, BrazilianFreeAmongEqualCounts) {
    const char* fen = "W:We3,c3:Bf4,Kb4";
    EXPECT_EQ(moves_of("brazilian", fen), sorted({"e3:g5", "c3:a5"}));
}

// Italian: equal counts, a capture by a king must be preferred to one by a man.
// italian, White to move (w/b men, W/B kings):
//    8  .   .   .   .
//    7    .   .   .   .
//    6  .   .   .   .
//    5    .   .   .   .
//    4  .   b   .   b
//    3    .   w   W   .
//    2  .   .   .   .
//    1    .   .   .   .
//       a b c d e f g h
TEST(TieBreak, ItalianKingCapturesFirst) {
    const char* fen = "W:W22,K23:B18,20";
    EXPECT_EQ(moves_of("italian", fen), sorted({"23x16"}));
}

// Italian: the man taking two outweighs the king taking one (majority first).
// italian, White to move (w/b men, W/B kings):
//    8  .   .   .   .
//    7    .   .   .   .
//    6  .   b   .   .
//    5    .   .   .   .
//    4  .   b   .   b
//    3    .   w   W   .
//    2  .   .   .   .
//    1    .   .   .   .
//       a b c d e f g h
TEST(TieBreak, ItalianCountBeforeKingCapturing) {
    const char* fen = "W:W22,K23:B18,10,20";
    EXPECT_EQ(moves_of("italian", fen), sorted({"22x6"}));
}

// Italian: equal counts, both by the king: take the more kings (e4 + Kg6 rather than c4 + c6).
// italian, White to move (w/b men, W/B kings):
//    8  .   .   .   .
//    7    .   .   .   .
//    6  .   b   .   B
//    5    .   .   .   .
//    4  .   b   b   .
//    3    .   W   .   .
//    2  .   .   .   .
//    1    .   .   .   .
//       a b c d e f g h
TEST(TieBreak, ItalianMostKingsCaptured) {
    const char* fen = "W:WK22:B19,K12,18,10";
    EXPECT_EQ(moves_of("italian", fen), sorted({"22x8"}));
}

// Italian: equal counts and kings: the sequence meeting a king first (Ke4 then g6, rather
// than c4 then Kc6).
// italian, White to move (w/b men, W/B kings):
//    8  .   .   .   .
//    7    .   .   .   .
//    6  .   B   .   b
//    5    .   .   .   .
//    4  .   b   B   .
//    3    .   W   .   .
//    2  .   .   .   .
//    1    .   .   .   .
//       a b c d e f g h
TEST(TieBreak, ItalianKingMetEarliest) {
    const char* fen = "W:WK22:BK19,12,18,K10";
    EXPECT_EQ(moves_of("italian", fen), sorted({"22x8"}));
}

// Italian men cannot capture kings (S004): no capture of c4.
// italian, White to move (w/b men, W/B kings):
//    8  .   .   .   .
//    7    .   .   .   .
//    6  .   .   .   .
//    5    .   .   .   .
//    4  .   B   .   .
//    3    .   w   .   .
//    2  .   .   .   .
//    1    .   .   .   .
//       a b c d e f g h
TEST(ItalianMen, CannotCaptureKings) {
    const char* fen = "W:W22:BK18";
    EXPECT_EQ(moves_of("italian", fen), sorted({"22-19"}));
}

// The same for black men.
// italian, Black to move (w/b men, W/B kings):
//    8  .   .   .   .
//    7    .   .   .   .
//    6  .   .   b   .
//    5    .   W   .   .
//    4  .   .   .   .
//    3    .   .   .   .
//    2  .   .   .   .
//    1    .   .   .   .
//       a b c d e f g h
TEST(ItalianMen, BlackManCannotCaptureWhiteKing) {
    const char* fen = "B:WK14:B11";
    EXPECT_EQ(moves_of("italian", fen), sorted({"11-15"}));
}

// Kings may capture kings.
// italian, White to move (w/b men, W/B kings):
//    8  .   .   .   .
//    7    .   .   .   .
//    6  .   .   .   .
//    5    .   .   .   .
//    4  .   B   .   .
//    3    .   W   .   .
//    2  .   .   .   .
//    1    .   .   .   .
//       a b c d e f g h
TEST(ItalianMen, KingCapturesKing) {
    const char* fen = "W:WK22:BK18";
    EXPECT_EQ(moves_of("italian", fen), sorted({"22x13"}));
}

}  // namespace
}  // namespace damas::test
