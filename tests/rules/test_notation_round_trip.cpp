// One notation: every legal move of sampled positions of every variant, printed as damas prints
// it (move_notation: the captured squares in brackets when two legal moves share from and to, as
// `damas moves`, `best`, `line` and `annotate` print them), reads back through match_pdn_move
// (the one move reader: annotate, svg --move, the explorer's server) as that same move, alone and
// inside a PDN game written and read again; every position reached prints a FEN that parses back
// to it. The sample: the positions of random games from the start, and random positions with
// kings among many pieces, where captures sharing their from and to squares are common; the test
// checks it met such captures in every variant, so that the bracketed form is read back too.
#include <gtest/gtest.h>

#include <algorithm>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "rules/error.hpp"
#include "rules/movegen.hpp"
#include "rules/notation.hpp"
#include "rules/pdn.hpp"
#include "tests/rules/legal_moves.hpp"

namespace damas {
namespace {

// What a variant's sample met.
struct Seen {
    int moves = 0;
    int bracketed = 0;  // moves printed with their captured squares
};

// Each legal move of p read back from its printed form, and the FEN after it.
void check_position(const Variant& v, const Position& p, Seen& seen) {
    const MoveList legal = test::generate(v, p, false);
    std::set<std::string> ucis;  // move_uci names each legal move apart too
    for (const Move& m : legal) ucis.insert(move_uci(v.info(), m));
    ASSERT_EQ(ucis.size(), static_cast<std::size_t>(legal.size())) << v.name() << to_fen(v, p);
    for (const Move& m : legal) {
        const std::string text = move_notation(v.info(), m, legal);
        Move back{};
        const MoveMatch match = match_pdn_move(v, p, text, back);
        ASSERT_EQ(match, MoveMatch::found) << v.name() << " " << to_fen(v, p) << " " << text;
        ASSERT_EQ(back, m) << v.name() << " " << to_fen(v, p) << " " << text;
        const Position after = make_move(p, m);
        ASSERT_EQ(parse_fen(v, to_fen(v, after)), after) << v.name() << " " << to_fen(v, after);
        ++seen.moves;
        seen.bracketed += text.find('[') != std::string::npos;
    }
}

// A random game from the start, each position checked, then the game as PDN (with a move's
// captured squares in brackets where damas prints them) read back to the same moves.
void check_random_game(const Variant& v, std::mt19937_64& rng, Seen& seen) {
    Position p = initial_position(v);
    PdnGame game;
    std::vector<Move> played;
    for (int ply = 0; ply < 80; ++ply) {
        check_position(v, p, seen);
        const MoveList legal = test::generate(v, p, false);
        if (legal.size() == 0) break;
        const Move m = legal[static_cast<int>(rng() % static_cast<unsigned>(legal.size()))];
        game.moves.push_back({move_notation(v.info(), m, legal), "", {}, 0});
        played.push_back(m);
        p = make_move(p, m);
    }
    const std::vector<PdnGame> back = read_pdn(write_pdn(game, true));
    ASSERT_EQ(back.size(), 1u);
    ASSERT_EQ(back[0].moves.size(), played.size());
    p = initial_position(v);
    for (std::size_t i = 0; i < played.size(); ++i) {
        Move m{};
        ASSERT_EQ(match_pdn_move(v, p, back[0].moves[i].text, m), MoveMatch::found)
            << back[0].moves[i].text;
        ASSERT_EQ(m, played[i]);
        p = make_move(p, m);
    }
}

// A random position: a few white pieces, most of them kings, among many black ones (men off
// their promotion rows), either side to move; nullopt when the rules refuse it.
std::optional<Position> random_notation_position(const Variant& v, std::mt19937_64& rng) {
    const GeometryTables& g = geometry_tables(v.info());
    std::vector<int> squares;
    for (int b = 0; b < 64; ++b)
        if (g.mask & bit(b)) squares.push_back(b);
    std::shuffle(squares.begin(), squares.end(), rng);
    Position p;
    const int white = 1 + static_cast<int>(rng() % 3), black = 6 + static_cast<int>(rng() % 8);
    for (int i = 0; i < white + black; ++i) {
        const int b = squares[static_cast<std::size_t>(i)];
        p.pieces[i < white ? 0 : 1] |= bit(b);
        if ((i < white && rng() % 2 != 0) || (i >= white && rng() % 10 == 0)) p.kings |= bit(b);
    }
    p.kings |= p.pieces[0] & g.row(g.height - 1);
    p.kings |= p.pieces[1] & g.row(0);
    if (rng() % 2) {  // the same with colours swapped: Black captures
        std::swap(p.pieces[0], p.pieces[1]);
        p.kings |= (p.pieces[0] & g.row(g.height - 1)) | (p.pieces[1] & g.row(0));
        p.side = Color::black;
    }
    try {
        validate(v, p);
    } catch (const Error&) {
        return std::nullopt;
    }
    return p;
}

TEST(NotationRoundTrip, EveryLegalMoveOfSampledPositionsOfEveryVariant) {
    for (const Variant& v : all_variants()) {
        std::mt19937_64 rng(0x5eed + static_cast<unsigned>(v.base) * 2 + v.giveaway);
        Seen seen;
        for (int game = 0; game < 12; ++game) check_random_game(v, rng, seen);
        for (int tries = 0; tries < 50'000 && seen.bracketed < 10; ++tries)
            if (const auto p = random_notation_position(v, rng)) check_position(v, *p, seen);
        if (testing::Test::HasFatalFailure()) return;
        EXPECT_GE(seen.bracketed, 10) << v.name() << ": too few captures sharing from and to";
        EXPECT_GT(seen.moves, 1000) << v.name();
    }
}

// move_uci: squares of two digits (lidraughts' keys), a capture's captured squares in increasing
// order after from and to; turkish in algebraic squares.
TEST(NotationRoundTrip, UciText) {
    const auto ucis = [](const char* variant, const char* fen) {
        const Variant v = test::variant_named(variant);
        std::vector<std::string> out;
        for (const Move& m : test::generate(v, parse_fen(v, fen), false))
            out.push_back(move_uci(v.info(), m));
        std::sort(out.begin(), out.end());
        return out;
    };
    using List = std::vector<std::string>;
    EXPECT_EQ(ucis("international", "W:W32:B1"), (List{"3227", "3228"}));
    EXPECT_EQ(ucis("international", "W:W28:B23"), (List{"281923"}));
    EXPECT_EQ(ucis("international", "W:W37:B32,22"), (List{"37172232"}));  // 37x28x17
    EXPECT_EQ(ucis("english", "B:W9:B5"), (List{"051409"}));
    EXPECT_EQ(ucis("russian", "W:Wc3:Bd4"), (List{"221518"}));  // c3 = 22, e5 = 15, d4 = 18
    EXPECT_EQ(ucis("turkish", "W:Wa3:Bh7"), (List{"a3a4", "a3b3"}));
}

// The form `damas moves` prints for two captures sharing from and to (c3 to c7 over d4, d6 or
// over b4, b6), read inside a PDN game: a bracket right after a move, or after a space, holds
// its captured squares, not a tag pair.
TEST(NotationRoundTrip, BracketedCapturesInsidePdn) {
    const Variant english_variant = test::variant_named("english");
    const GeometryTables& g = geometry_tables(english_variant.info());
    Position p;
    p.pieces[0] = bit(g.bit_at(2, 2));
    for (const auto& [x, y] : {std::pair{1, 3}, {3, 3}, {1, 5}, {3, 5}})
        p.pieces[1] |= bit(g.bit_at(x, y));
    const std::string fen = to_fen(english_variant, p);
    const MoveList legal = test::generate(english_variant, p, false);
    std::vector<std::string> printed;
    for (const Move& m : legal) printed.push_back(move_notation(english_variant.info(), m, legal));
    std::sort(printed.begin(), printed.end());
    ASSERT_EQ(printed.size(), 2u);
    for (const std::string& text : printed) EXPECT_NE(text.find('['), std::string::npos) << text;
    const std::string pdn = "[FEN \"" + fen + "\"]\n1. " + printed[0] + "! {c} *\n\n" + "[FEN \"" +
                            fen + "\"]\n1. " + printed[1].substr(0, printed[1].find('[')) + " " +
                            printed[1].substr(printed[1].find('[')) + " *\n";
    const std::vector<PdnGame> games = read_pdn(pdn);
    ASSERT_EQ(games.size(), 2u);
    EXPECT_EQ(games[0].moves.at(0).text, printed[0]);
    EXPECT_EQ(games[0].moves.at(0).mark, "!");
    EXPECT_EQ(games[1].moves.at(0).text, printed[1]);
    Move m{};
    EXPECT_EQ(match_pdn_move(english_variant, p, games[1].moves[0].text, m), MoveMatch::found);
    // Not squares, not after a move: errors naming the line.
    EXPECT_THROW(read_pdn("1. 11-15 [15,2z] *"), PdnError);
    EXPECT_THROW(read_pdn("[15,22]\n1. 11-15 *"), PdnError);
    EXPECT_THROW(read_pdn("1. 11-15 {c} [15,22] *"), PdnError);
    const std::string plain = printed[0].substr(0, printed[0].find('['));
    EXPECT_EQ(match_pdn_move(english_variant, p, plain, m), MoveMatch::ambiguous);
    const std::size_t open = printed[0].find('['), comma = printed[0].find(',');
    const std::string one = printed[0].substr(open + 1, comma - open - 1);
    EXPECT_EQ(match_pdn_move(english_variant, p, plain + "[" + one + "," + one + "]", m),
              MoveMatch::malformed);
    EXPECT_EQ(match_pdn_move(english_variant, p, plain + "[]", m), MoveMatch::malformed);
    EXPECT_EQ(match_pdn_move(english_variant, p, plain + "[" + one, m), MoveMatch::malformed);
}

}  // namespace
}  // namespace damas
