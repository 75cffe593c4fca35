// The colour flip: a 180-degree turn of every square, an involution, and a map of legal moves.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

#include "index/flip.hpp"
#include "rules/movegen.hpp"
#include "rules/notation.hpp"

namespace damas {
namespace {

const BoardSpec boards[] = {board_10x10, board_8x8, board_8x8_a1_light, board_8x8_orthogonal};

TEST(Flip, TurnsEverySquare180Degrees) {
    for (const BoardSpec& b : boards) {
        const GeometryTables t = make_tables(b);
        for (int d = 0; d < t.squares; ++d) {
            const int x = t.x_of_square[d], y = t.y_of_square[d];
            const int turned = t.bit_at(b.width - 1 - x, b.height - 1 - y);
            ASSERT_GE(turned, 0);
            EXPECT_EQ(rotate_180(b, bit(t.bit_of_square[d])), bit(turned)) << x << "," << y;
        }
        EXPECT_EQ(rotate_180(b, t.mask), t.mask);
    }
}

TEST(Flip, IsConstexpr) {
    constexpr Position p{{bit(0), bit(35)}, bit(35), Color::white};
    constexpr Position f = flip(board_8x8, p);
    static_assert(f.pieces[0] == bit(0) && f.pieces[1] == bit(35) && f.kings == bit(0));
    static_assert(f.side == Color::black);
    static_assert(flip(board_8x8, f) == p);
}

// Positions reached by random games from the start, so every kind of move shows up.
template <class R>
std::vector<Position> random_game_positions(const Variant& v, int games) {
    std::mt19937_64 rng(12345);
    std::vector<Position> out;
    MoveList moves;
    for (int g = 0; g < games; ++g) {
        Position p = initial_position(v);
        for (int ply = 0; ply < 200; ++ply) {
            MoveGenerator<R>::generate(p, moves);
            if (moves.empty()) break;
            out.push_back(p);
            p = make_move(p, moves[static_cast<int>(rng() % static_cast<unsigned>(moves.size()))]);
        }
    }
    return out;
}

template <class R>
std::vector<Position> successors(const Position& p) {
    MoveList moves;
    MoveGenerator<R>::generate(p, moves);
    std::vector<Position> out;
    for (const Move& m : moves) out.push_back(make_move(p, m));
    std::sort(out.begin(), out.end(), [](const Position& a, const Position& b) {
        return std::tie(a.pieces[0], a.pieces[1], a.kings) <
               std::tie(b.pieces[0], b.pieces[1], b.kings);
    });
    return out;
}

TEST(Flip, IsAnInvolutionAndMapsLegalMovesToLegalMoves) {
    for (const Variant& v : all_variants()) {
        if (v.giveaway) continue;
        dispatch(v.base, [&](auto rules) {
            using R = decltype(rules);
            const BoardSpec b = v.info().board;
            for (const Position& p : random_game_positions<R>(v, 20)) {
                const Position f = flip(b, p);
                ASSERT_EQ(flip(b, f), p);
                EXPECT_EQ(f.side, ~p.side);
                EXPECT_NO_THROW(validate(v, f)) << to_fen(v, p);
                std::vector<Position> expected;
                for (const Position& s : successors<R>(p)) expected.push_back(flip(b, s));
                std::vector<Position> got = successors<R>(f);
                ASSERT_EQ(got.size(), expected.size()) << v.name() << " " << to_fen(v, p);
                for (const Position& e : expected)
                    EXPECT_NE(std::find(got.begin(), got.end(), e), got.end()) << to_fen(v, p);
            }
        });
    }
}

}  // namespace
}  // namespace damas
