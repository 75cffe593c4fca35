// The PDN game reader and writer (rules/pdn.hpp): tags, movetext, comments, variations, several
// games, the errors naming their line; and the legal move a PDN move names.
#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>

#include "rules/geometry.hpp"
#include "rules/movegen.hpp"
#include "rules/notation.hpp"
#include "rules/pdn.hpp"

namespace damas {
namespace {

const Variant english{BaseVariant::english, false};
const Variant international{BaseVariant::international, false};

std::vector<std::string> texts(const PdnGame& g) {
    std::vector<std::string> out;
    for (const PdnMove& m : g.moves) out.push_back(m.text + m.mark);
    return out;
}

TEST(Pdn, TagsMovesCommentsAndResult) {
    const auto games = read_pdn(
        "[Event \"Club \\\"open\\\" \\\\ 2026\"]\n"
        "[White \"Ann\"]\n[Black \"Bob\"]\n[GameType \"21\"]\n\n"
        "{before} 1. 11-15 {after 11-15} 23-19 2. 8-11! $3 22-17?? 3.9-13 17x10 {x} 2-0\n");
    ASSERT_EQ(games.size(), 1u);
    const PdnGame& g = games[0];
    ASSERT_EQ(g.tags.size(), 4u);
    EXPECT_EQ(g.tags[0].name, "Event");
    EXPECT_EQ(g.tags[0].value, "Club \"open\" \\ 2026");
    EXPECT_EQ(g.tag("white"), "Ann");
    EXPECT_EQ(g.players(), "Ann vs Bob");
    EXPECT_EQ(g.before, std::vector<std::string>{"{before}"});
    EXPECT_EQ(texts(g),
              (std::vector<std::string>{"11-15", "23-19", "8-11!", "22-17??", "9-13", "17x10"}));
    EXPECT_EQ(g.moves[0].after, std::vector<std::string>{"{after 11-15}"});
    EXPECT_EQ(g.moves[2].after, std::vector<std::string>{"$3"});
    EXPECT_EQ(g.moves[5].after, std::vector<std::string>{"{x}"});
    EXPECT_EQ(g.moves[3].mark, "??");
    EXPECT_EQ(g.moves[3].text, "22-17");
    EXPECT_EQ(g.result, "2-0");
    EXPECT_EQ(g.moves[0].line, 6);
    EXPECT_EQ(g.line, 1);
}

TEST(Pdn, VariationsAreKeptAsTextAndSkipped) {
    const auto games = read_pdn(
        "1. 32-28 (1. 33-28 {a (paren) in a comment} (1. 34-29 19-23) 18-23) 19-23 "
        "2. 28x19 14x23 *");
    ASSERT_EQ(games.size(), 1u);
    EXPECT_EQ(texts(games[0]), (std::vector<std::string>{"32-28", "19-23", "28x19", "14x23"}));
    EXPECT_EQ(
        games[0].moves[0].after,
        std::vector<std::string>{"(1. 33-28 {a (paren) in a comment} (1. 34-29 19-23) 18-23)"});
    EXPECT_EQ(games[0].result, "*");
    EXPECT_TRUE(games[0].tags.empty());
}

TEST(Pdn, SeveralGamesAndEveryResult) {
    const auto games = read_pdn(
        "[Event \"a\"]\n1. 11-15 24-20 1-1\n\n"
        "[Event \"b\"]\n[FEN \"W:W18:B14\"]\n\n5... 18x9 0-2\n"
        "[Event \"c\"]\n1. 9-13 *\n"
        "[Event \"d\"]\n1. 9-14 1-0\n1. 12-16 0-1\n"
        "[Event \"e\"]\n1. 10-15\n"  // ended by the next tag pair
        "[Event \"f\"]\n1. 10-14 1/2-1/2\n"
        "[Event \"g\"]\n");
    ASSERT_EQ(games.size(), 8u);
    EXPECT_EQ(games[0].result, "1-1");
    EXPECT_EQ(games[1].tag("FEN"), "W:W18:B14");
    EXPECT_EQ(games[1].first_number, 5);
    EXPECT_EQ(games[1].result, "0-2");
    EXPECT_EQ(games[2].result, "*");
    EXPECT_EQ(games[3].result, "1-0");
    EXPECT_EQ(texts(games[4]), std::vector<std::string>{"12-16"});  // a game without tags
    EXPECT_EQ(games[4].result, "0-1");
    EXPECT_TRUE(games[4].tags.empty());
    EXPECT_EQ(texts(games[5]), std::vector<std::string>{"10-15"});
    EXPECT_EQ(games[5].result, "");
    EXPECT_EQ(games[6].result, "1/2-1/2");
    EXPECT_TRUE(games[7].moves.empty());
    EXPECT_EQ(games[7].tag("Event"), "g");
    EXPECT_EQ(games[1].line, 4);
}

TEST(Pdn, LenientForms) {
    // Glued numbers, ellipses, separate marks, ; comments, % escape lines, algebraic moves.
    const auto games = read_pdn(
        "% an escape line [not a tag\n"
        "1.c3-d4 f6-g5 ; the rest of a line\n"
        "2.b2-c3 ! 2... g5xe3 3. d2xf4 ?! e7:f6 *");
    ASSERT_EQ(games.size(), 1u);
    EXPECT_EQ(texts(games[0]),
              (std::vector<std::string>{"c3-d4", "f6-g5", "b2-c3!", "g5xe3", "d2xf4?!", "e7:f6"}));
    EXPECT_EQ(games[0].moves[1].after, std::vector<std::string>{"{ the rest of a line}"});
    // A result glued to a move number is a result (no square is 0).
    const auto glued = read_pdn("1. 11-15 23-19 2.1-0");
    ASSERT_EQ(glued.size(), 1u);
    EXPECT_EQ(glued[0].moves.size(), 2u);
    EXPECT_EQ(glued[0].result, "1-0");
}

// A text read from a stream, a block at a time, gives what the same text read whole gives, and
// PdnReader hands a game over move by move; what one game may hold is bounded.
TEST(Pdn, StreamsGameByGameAndMoveByMove) {
    std::string text = "[Event \"long\"]\n[FEN \"W:WK32:BK1\"]\n{start}\n";
    for (int n = 1; n <= 20'000; ++n)
        text += std::to_string(n) + (n % 2 ? ". 32-27 1-6 {c} " : ". 27-32 6-1 $1 ");
    text += "*\n\n[Event \"short\"]\n1. 11-15 {end} 1-0\n";
    ASSERT_GT(text.size(), 3u * 64 * 1024);
    std::istringstream in(text);
    PdnReader reader(in);
    const std::vector<PdnGame> whole = read_pdn(text);
    ASSERT_EQ(whole.size(), 2u);
    PdnGame header;
    for (const PdnGame& g : whole) {
        ASSERT_TRUE(reader.next_game(header));
        EXPECT_EQ(header.tags.size(), g.tags.size());
        EXPECT_EQ(header.before, g.before);
        EXPECT_TRUE(header.moves.empty());
        PdnMove m;
        std::size_t i = 0;
        for (; reader.next_move(m); ++i) {
            ASSERT_LT(i, g.moves.size());
            EXPECT_EQ(m.text, g.moves[i].text);
            EXPECT_EQ(m.after, g.moves[i].after);
            EXPECT_EQ(m.line, g.moves[i].line);
        }
        EXPECT_EQ(i, g.moves.size());
        EXPECT_EQ(reader.result(), g.result);
    }
    EXPECT_FALSE(reader.next_game(header));
    EXPECT_EQ(whole[0].moves.size(), 40'000u);
    EXPECT_EQ(whole[1].result, "1-0");
    // A game's moves left unread are skipped by next_game.
    PdnReader skipping(text);
    ASSERT_TRUE(skipping.next_game(header));
    ASSERT_TRUE(skipping.next_game(header));
    EXPECT_EQ(header.tag("Event"), "short");
    // Limits.
    std::string tags;
    for (int i = 0; i <= pdn_max_tags; ++i) tags += "[T \"v\"]\n";
    EXPECT_THROW(read_pdn(tags + "1. 11-15 *"), PdnError);
    std::string comments = "1. 11-15";
    for (int i = 0; i <= pdn_max_items; ++i) comments += " {}";
    try {
        read_pdn(comments);
        ADD_FAILURE() << "no error";
    } catch (const PdnError& e) {
        EXPECT_EQ(std::string(e.what()),
                  "line 1: more than 10000 comments, variations and NAGs in a row");
    }
}

TEST(Pdn, ErrorsNameTheLine) {
    const auto error = [](const std::string& text) {
        try {
            read_pdn(text);
        } catch (const PdnError& e) {
            return std::to_string(e.line) + " " + e.what();
        }
        return std::string("no error");
    };
    EXPECT_EQ(error("[Event \"a\"]\n1. 11-15 {never closed\n24-20"),
              "2 line 2: a comment '{' is not closed by '}'");
    EXPECT_EQ(error("1. 11-15\n\n(1. 9-13 24-20"),
              "3 line 3: a variation '(' is not closed by ')'");
    EXPECT_EQ(error("[Event a]"), "1 line 1: malformed tag pair (expected [Name \"value\"])");
    EXPECT_EQ(error("[Event \"a\"\n"), "1 line 1: the tag pair Event is not closed by ']'");
    EXPECT_EQ(error("[Event \"a]\n"), "1 line 1: the value of the tag Event is not closed by '\"'");
    EXPECT_EQ(error("1. 11-15\n2. 9-1q3 *"),
              "2 line 2: '9-1q3' is neither a move, a move number nor a result");
    EXPECT_EQ(error("1. 11-15 24-20)"), "1 line 1: ')' closes nothing");
    EXPECT_EQ(error("1. 11-15 $ 24-20"), "1 line 1: '$' without a number");
    EXPECT_EQ(error("1. 11-- *"), "1 line 1: '11--' is neither a move, a move number nor a result");
}

TEST(Pdn, WritesWhatItReadsAndNumbersAgain) {
    const std::string text =
        "[Event \"E \\\"x\\\"\"]\n[FEN \"B:W18,22:B14\"]\n\n"
        "{start} 7... 14-17 {c1} (7... 14-18 22x15) 8. 22x13 $1 8... 18-14? 1-1\n";
    const auto games = read_pdn(text);
    ASSERT_EQ(games.size(), 1u);
    // Black moves first in english: 14-17 is the first player's move, numbered 7.
    const std::string written = write_pdn(games[0], true);
    EXPECT_EQ(written,
              "[Event \"E \\\"x\\\"\"]\n[FEN \"B:W18,22:B14\"]\n\n"
              "{start} 7. 14-17 {c1} (7... 14-18 22x15) 7... 22x13 $1 8. 18-14? 1-1\n\n");
    const auto again = read_pdn(written);
    ASSERT_EQ(again.size(), 1u);
    EXPECT_EQ(texts(again[0]), texts(games[0]));
    EXPECT_EQ(again[0].moves[0].after, games[0].moves[0].after);
    EXPECT_EQ(again[0].tags[0].value, games[0].tags[0].value);
    // The second player first: "7..." opens, then no number until the first player's move.
    EXPECT_NE(write_pdn(games[0], false)
                  .find("{start} 7... 14-17 {c1} (7... 14-18 22x15) 8. "
                        "22x13 $1 18-14? 1-1"),
              std::string::npos);
}

TEST(Pdn, LongMovetextIsWrapped) {
    std::string text = "[Event \"long\"]\n";
    for (int i = 1; i <= 40; ++i) text += std::to_string(i) + ". 11-15 {a comment} 23-19 ";
    text += "{a long comment, " + std::string(10, 'x') + std::string(20, ' ');
    for (int i = 0; i < 30; ++i) text += "word ";
    text += "end} *";
    const std::string written = write_pdn(read_pdn(text).at(0), true);
    std::istringstream lines(written);
    int count = 0;
    for (std::string line; std::getline(lines, line); ++count) EXPECT_LE(line.size(), 79u) << line;
    EXPECT_GT(count, 10);
    const PdnGame back = read_pdn(written).at(0);
    EXPECT_EQ(back.moves.size(), 80u);
    // The long comment is broken between its words, and only there.
    std::string comment = back.moves.back().after.at(0);
    std::replace(comment.begin(), comment.end(), '\n', ' ');
    std::string expected = "{a long comment, " + std::string(10, 'x');
    for (int i = 0; i < 30; ++i) expected += " word";
    EXPECT_EQ(comment, expected + " end}");
}

// The english board's square at (file, rank), rank 0 being White's back row.
int square(int x, int y) {
    return make_tables(board_8x8).bit_at(x, y);
}

TEST(PdnMoves, SeparatorsAndLegality) {
    const Position start = initial_position(english);
    Move m{};
    EXPECT_EQ(match_pdn_move(english, start, "11-15", m), MoveMatch::found);
    EXPECT_EQ(move_text(english.info(), m), "11-15");
    EXPECT_EQ(match_pdn_move(english, start, "11x15", m), MoveMatch::found);
    EXPECT_EQ(match_pdn_move(english, start, "22-18", m), MoveMatch::illegal);  // White's
    EXPECT_EQ(match_pdn_move(english, start, "11-18", m), MoveMatch::illegal);
    EXPECT_EQ(match_pdn_move(english, start, "33-29", m), MoveMatch::malformed);
    EXPECT_EQ(match_pdn_move(english, start, "11-15-19", m), MoveMatch::illegal);
    // A capture is compulsory: the quiet move is not legal.
    const Position p = parse_fen(english, "W:W22:B18,1");
    EXPECT_EQ(match_pdn_move(english, p, "22-17", m), MoveMatch::illegal);
    EXPECT_EQ(match_pdn_move(english, p, "22-15", m), MoveMatch::found);  // '-' for a capture
    EXPECT_EQ(m.captured, bit(*parse_square(english.info(), "18")));
    EXPECT_EQ(move_match_problem(MoveMatch::illegal, "22-17", "W:W22:B1,18"),
              "22-17 is not a legal move in W:W22:B1,18");
}

// Two captures from c3 to c7, one through e5 (taking d4 and d6), one through a5 (b4 and b6):
// from and to alone are ambiguous, the landing square tells them apart.
TEST(PdnMoves, LandingSquaresChooseBetweenCaptures) {
    Position p;
    p.side = Color::white;
    p.pieces[0] = bit(square(2, 2));
    const std::pair<int, int> black_men[] = {{1, 3}, {3, 3}, {1, 5}, {3, 5}};
    for (const auto& [x, y] : black_men) p.pieces[1] |= bit(square(x, y));
    const VariantInfo& vi = english.info();
    const auto name = [&](int x, int y) { return square_name(vi, square(x, y)); };
    const std::string from = name(2, 2), to = name(2, 6);
    Move m{};
    EXPECT_EQ(match_pdn_move(english, p, from + "x" + to, m), MoveMatch::ambiguous);
    ASSERT_EQ(match_pdn_move(english, p, from + "x" + name(4, 4) + "x" + to, m), MoveMatch::found);
    EXPECT_EQ(m.captured, bit(square(3, 3)) | bit(square(3, 5)));
    ASSERT_EQ(match_pdn_move(english, p, from + "-" + name(0, 4) + "-" + to, m), MoveMatch::found);
    EXPECT_EQ(m.captured, bit(square(1, 3)) | bit(square(1, 5)));
    // Not a path of the capture: a landing square on no leg, or one leg taking two pieces.
    EXPECT_EQ(match_pdn_move(english, p, from + "x" + name(3, 3) + "x" + to, m),
              MoveMatch::illegal);
    EXPECT_EQ(match_pdn_move(english, p, from + "x" + name(4, 4) + "x" + name(4, 6) + "x" + to, m),
              MoveMatch::illegal);
    EXPECT_NE(move_match_problem(MoveMatch::ambiguous, from + "x" + to, to_fen(english, p))
                  .find("is ambiguous in W:"),
              std::string::npos);
}

// A flying king's capture: 46 takes 37, must land on 28 to go on, takes 17 and lands on 11 or 6.
// The landing squares written must lie on those legs.
TEST(PdnMoves, FlyingKingLegs) {
    const Position p = parse_fen(international, "W:WK46:B37,17");
    Move m{};
    ASSERT_EQ(match_pdn_move(international, p, "46x11", m), MoveMatch::found);
    EXPECT_EQ(m.captured, bit(*parse_square(international.info(), "37")) |
                              bit(*parse_square(international.info(), "17")));
    EXPECT_EQ(match_pdn_move(international, p, "46x28x11", m), MoveMatch::found);
    EXPECT_EQ(match_pdn_move(international, p, "46x28x6", m), MoveMatch::found);
    EXPECT_EQ(move_text(international.info(), m), "46x6");
    EXPECT_EQ(match_pdn_move(international, p, "46x32x11", m), MoveMatch::illegal);
    EXPECT_EQ(match_pdn_move(international, p, "46x19x11", m), MoveMatch::illegal);
    EXPECT_EQ(match_pdn_move(international, p, "46x37x11", m), MoveMatch::illegal);
    EXPECT_EQ(match_pdn_move(international, p, "46x32", m), MoveMatch::illegal);  // goes on
}

}  // namespace
}  // namespace damas
