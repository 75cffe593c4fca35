// Promotion in the middle of a capture, variant by variant.
#include <gtest/gtest.h>

#include "tests/rules/legal_moves.hpp"

namespace damas::test {
namespace {

// A man that passes the last row during a capture stays a man (S000 4.15): it takes e9,
// lands on f10 and goes on as a man over g9 to h8 (not as a king to i7 or j6). It is not crowned.
// international, White to move (w/b men, W/B kings):
//   10    .   .   .   .   .
//    9  .   .   b   b   .
//    8    .   w   .   .   .
//    7  .   .   .   .   .
//    6    .   .   .   .   .
//    5  .   .   .   .   .
//    4    .   .   .   .   .
//    3  .   .   .   .   .
//    2    .   .   .   .   .
//    1  .   .   .   .   .
//       a b c d e f g h i j
TEST(MidCapture, InternationalPassesLastRowAsMan) {
    const char* fen = "W:W12:B8,9";
    EXPECT_EQ(moves_of("international", fen), sorted({"12x14"}));
    EXPECT_EQ(fen_after("international", fen, "12x14"), canonical("international", "B:W14:B"));
}

// Ending the capture on the last row crowns the man (S000 4.15).
// international, White to move (w/b men, W/B kings):
//   10    .   .   .   .   .
//    9  .   .   b   .   .
//    8    .   w   .   .   .
//    7  .   .   .   .   .
//    6    .   .   .   .   .
//    5  .   .   .   .   .
//    4    .   .   .   .   .
//    3  .   .   .   .   .
//    2    .   .   .   .   .
//    1  .   .   .   .   .
//       a b c d e f g h i j
TEST(MidCapture, InternationalEndsOnLastRowCrowned) {
    const char* fen = "W:W12:B8";
    EXPECT_EQ(moves_of("international", fen), sorted({"12x3"}));
    EXPECT_EQ(fen_after("international", fen, "12x3"), canonical("international", "B:WK3:B"));
}

// Russian: crowned on d8 at once, the piece goes on as a flying king over f6 (S004).
// russian, White to move (w/b men, W/B kings):
//    8    .   .   .   .
//    7  .   b   .   .
//    6    w   .   b   .
//    5  .   .   .   .
//    4    .   .   .   .
//    3  .   .   .   .
//    2    .   .   .   .
//    1  .   .   .   .
//       a b c d e f g h
TEST(MidCapture, RussianCrownedAtOnceContinuesAsKing) {
    const char* fen = "W:Wb6:Bc7,f6";
    EXPECT_EQ(moves_of("russian", fen), sorted({"b6:g5", "b6:h4"}));
    EXPECT_EQ(fen_after("russian", fen, "b6:h4"), canonical("russian", "B:WKh4:B"));
}

// Brazilian (as international, S001): on d8 it is still a man, f6 is out of its reach.
// brazilian, White to move (w/b men, W/B kings):
//    8    .   .   .   .
//    7  .   b   .   .
//    6    w   .   b   .
//    5  .   .   .   .
//    4    .   .   .   .
//    3  .   .   .   .
//    2    .   .   .   .
//    1  .   .   .   .
//       a b c d e f g h
TEST(MidCapture, BrazilianManStopsOnLastRow) {
    const char* fen = "W:Wb6:Bc7,f6";
    EXPECT_EQ(moves_of("brazilian", fen), sorted({"b6:d8"}));
    EXPECT_EQ(fen_after("brazilian", fen, "b6:d8"), canonical("brazilian", "B:WKd8:Bf6"));
}

// English: reaching the last row ends the move; the new king does not take e7 (ACF rules).
// english, White to move (w/b men, W/B kings):
//    8    .   .   .   .
//    7  .   b   b   .
//    6    w   .   .   .
//    5  .   .   .   .
//    4    .   .   .   .
//    3  .   .   .   .
//    2    .   .   .   .
//    1  .   .   .   .
//       a b c d e f g h
TEST(MidCapture, EnglishCrownedMoveEnds) {
    const char* fen = "W:W9:B6,7";
    EXPECT_EQ(moves_of("english", fen), sorted({"9x2"}));
    EXPECT_EQ(fen_after("english", fen, "9x2"), canonical("english", "B:WK2:B7"));
}

// Italian: crowned, the move ends; d7 is not taken.
// italian, White to move (w/b men, W/B kings):
//    8  .   .   .   .
//    7    .   b   b   .
//    6  .   .   .   w
//    5    .   .   .   .
//    4  .   .   .   .
//    3    .   .   .   .
//    2  .   .   .   .
//    1    .   .   .   .
//       a b c d e f g h
TEST(MidCapture, ItalianCrownedMoveEnds) {
    const char* fen = "W:W12:B7,6";
    EXPECT_EQ(moves_of("italian", fen), sorted({"12x3"}));
    EXPECT_EQ(fen_after("italian", fen, "12x3"), canonical("italian", "B:WK3:B6"));
}

// Portuguese: the man on e8 has no backward capture, so the move ends there, crowned.
// portuguese, White to move (w/b men, W/B kings):
//    8  .   .   .   .
//    7    .   b   b   .
//    6  .   .   .   w
//    5    .   .   .   .
//    4  .   .   .   .
//    3    .   .   .   .
//    2  .   .   .   .
//    1    .   .   .   .
//       a b c d e f g h
TEST(MidCapture, PortugueseCannotContinue) {
    const char* fen = "W:W21:B26,27";
    EXPECT_EQ(moves_of("portuguese", fen), sorted({"21x30"}));
    EXPECT_EQ(fen_after("portuguese", fen, "21x30"), canonical("portuguese", "B:WK30:B27"));
}

// Turkish (RULES.md (?) default): a man reaching the last row mid-capture goes on as a man
// (sideways over e8 to f8 only, not flying to g8 or h8) and is crowned at the end.
// turkish, White to move (w/b men, W/B kings):
//    8  . . . . b . . .
//    7  . . . b . . . .
//    6  . . . w . . . .
//    5  . . . . . . . .
//    4  . . . . . . . .
//    3  . . . . . . . .
//    2  . . . . . . . .
//    1  . . . . . . . .
//       a b c d e f g h
TEST(MidCapture, TurkishContinuesAsManCrownedAtEnd) {
    const char* fen = "W:Wd6:Bd7,e8";
    EXPECT_EQ(moves_of("turkish", fen), sorted({"d6:f8"}));
    EXPECT_EQ(fen_after("turkish", fen, "d6:f8"), canonical("turkish", "B:WKf8:B"));
}

}  // namespace
}  // namespace damas::test
