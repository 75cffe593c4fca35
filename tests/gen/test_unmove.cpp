// The un-move generator (rules/unmove.hpp) against the move generator, for every variant:
//  - sound: every un-move of a position `after` gives a position `before`, the mover to move,
//    where the un-move's move is legal (a quiet, non-crowning move in MoveGenerator's list) and
//    make_move(before, move) == after; no un-move is listed twice;
//  - complete: every legal non-capture, non-crowning move of every position `before` is found
//    among the un-moves of make_move(before, move), with that very `before`.
// Exhaustively on every 2- and 3-piece class (every placement the class index holds, both sides
// to move; international: 2 pieces; turkish: every 7th 3-piece position), and on random
// positions of 4 to 12 pieces.
// Turkish men never stand on their own back row (they never move backwards): un-moves never put
// one there (unmove.hpp), so the completeness check skips positions that have one.
#include <gtest/gtest.h>

#include <random>
#include <string>

#include "index/class_index.hpp"
#include "index/flip.hpp"
#include "index/material.hpp"
#include "rules/notation.hpp"
#include "rules/unmove.hpp"
#include "rules/variant.hpp"

namespace damas {
namespace {

struct Tally {
    std::uint64_t positions = 0, unmoves = 0, quiet_moves = 0;
    int failures = 0;
};

template <class R>
bool back_row_man(const Position& p) {
    using B = typename R::Board;
    if constexpr (R::men_move_sideways)
        return (p.men(Color::white) & B::row(0)) || (p.men(Color::black) & B::row(B::height - 1));
    (void)p;
    return false;
}

template <class R>
void check_position(const Variant& v, const Position& p, Tally& t) {
    ++t.positions;
    // Soundness: p seen as `after`.
    UnmoveList unmoves;
    UnmoveGenerator<R>::generate(p, unmoves);
    ASSERT_LT(unmoves.size(), UnmoveList::capacity) << to_fen(v, p);
    for (int i = 0; i < unmoves.size(); ++i) {
        const Unmove& u = unmoves[i];
        ++t.unmoves;
        const Position& before = u.before;
        bool ok = before.side == ~p.side && !u.move.is_capture() && !u.move.promotes;
        MoveList legal;
        MoveGenerator<R>::generate(before, legal);
        bool found = false;
        for (const Move& m : legal) found = found || m == u.move;
        ok = ok && found && make_move(before, u.move) == p;
        for (int j = 0; j < i; ++j)  // listed once
            ok = ok && !(unmoves[j].before == before && unmoves[j].move == u.move);
        if (!ok) {
            ADD_FAILURE() << v.name() << ": un-move " << move_text(v.info(), u.move) << " of "
                          << to_fen(v, p) << " gives " << to_fen(v, before)
                          << (found ? "" : " where that move is not legal");
            if (++t.failures > 10) FAIL() << "too many failures";
        }
    }
    // Completeness: p seen as `before`.
    if (back_row_man<R>(p)) return;
    MoveList legal;
    MoveGenerator<R>::generate(p, legal);
    for (const Move& m : legal) {
        if (m.is_capture() || m.promotes) continue;
        ++t.quiet_moves;
        const Position after = make_move(p, m);
        UnmoveList back;
        UnmoveGenerator<R>::generate(after, back);
        bool found = false;
        for (int i = 0; i < back.size(); ++i)
            found = found || (back[i].before == p && back[i].move == m);
        if (!found) {
            ADD_FAILURE() << v.name() << ": the move " << move_text(v.info(), m) << " of "
                          << to_fen(v, p) << " is not an un-move of " << to_fen(v, after);
            if (++t.failures > 10) FAIL() << "too many failures";
        }
    }
}

// Every position of every class up to `pieces` pieces, except that classes of exactly `pieces`
// pieces are walked with the given stride (1: all).
template <class R>
Tally check_small_classes(const Variant& v, int pieces, std::uint64_t stride) {
    Tally t;
    const BoardSpec board = v.info().board;
    for (const Material m : classes_up_to(pieces)) {
        const ClassIndex index(board, m);
        const std::uint64_t step = m.pieces() == pieces ? stride : 1;
        for (std::uint64_t i = 0; i < index.size() && t.failures <= 10; i += step) {
            const Position p = index.unindex(i);
            check_position<R>(v, p, t);
            check_position<R>(v, flip(board, p), t);
        }
    }
    return t;
}

// A random legal-looking placement: n pieces on distinct squares, men never on their promotion
// row, at least one piece per side, random side to move.
template <class R>
Position random_position(std::mt19937_64& rng, int n) {
    using B = typename R::Board;
    const GeometryTables& g = B::tables;
    for (;;) {
        Position p;
        for (int k = 0; k < n; ++k) {
            int b = 0;
            do {
                b = g.bit_of_square[static_cast<std::size_t>(rng() %
                                                             static_cast<unsigned>(g.squares))];
            } while (p.occupied() & bit(b));
            const int colour = static_cast<int>(rng() % 2);
            const bool king = rng() % 3 == 0;
            const Bitboard promotion = colour == 0 ? B::row(B::height - 1) : B::row(0);
            if (!king && (bit(b) & promotion)) {
                --k;
                continue;
            }
            p.pieces[static_cast<std::size_t>(colour)] |= bit(b);
            if (king) p.kings |= bit(b);
        }
        if (!p.pieces[0] || !p.pieces[1]) continue;
        p.side = rng() % 2 ? Color::white : Color::black;
        return p;
    }
}

class Unmoves : public ::testing::TestWithParam<BaseVariant> {};

TEST_P(Unmoves, ExhaustiveOnSmallClasses) {
    const Variant v{GetParam(), false};
    const int pieces = v.base == BaseVariant::international ? 2 : 3;
    // Turkish 3-piece classes are 7 times larger than the other 8x8 ones (64 squares, flying
    // orthogonal kings): every 7th position keeps the test within seconds.
    const std::uint64_t stride = v.base == BaseVariant::turkish ? 7 : 1;
    const Tally t = dispatch(v.base, [&](auto rules) {
        return check_small_classes<decltype(rules)>(v, pieces, stride);
    });
    // Non-trivial: most positions have un-moves and quiet moves.
    EXPECT_GT(t.unmoves, t.positions);
    EXPECT_GT(t.quiet_moves, t.positions);
    // Over a set of positions closed under quiet moves (whole classes, both sides to move), the
    // un-move and quiet-move relations are the same set of pairs: the counts agree.
    if (stride == 1) {
        EXPECT_EQ(t.unmoves, t.quiet_moves);
    }
    std::cout << v.name() << " up to " << pieces << " pieces: " << t.positions << " positions, "
              << t.unmoves << " un-moves, " << t.quiet_moves << " quiet moves\n";
}

TEST_P(Unmoves, RandomPositions) {
    const Variant v{GetParam(), false};
    std::mt19937_64 rng(20240611u + static_cast<unsigned>(v.base));
    Tally t;
    dispatch(v.base, [&](auto rules) {
        using R = decltype(rules);
        for (int i = 0; i < 30000 && t.failures <= 10; ++i)
            check_position<R>(v, random_position<R>(rng, 4 + i % 9), t);
    });
    EXPECT_GT(t.unmoves, t.positions);
    EXPECT_GT(t.quiet_moves, t.positions);
}

// Hand-made cases with counts worked out on the board, so that the checks above are not
// vacuous (an empty un-move list would pass soundness).
int unmove_count(BaseVariant base, const std::string& fen) {
    const Variant v{base, false};
    return dispatch(base, [&](auto rules) {
        UnmoveList list;
        UnmoveGenerator<decltype(rules)>::generate(parse_fen(v, fen), list);
        return list.size();
    });
}

TEST(Unmoves, KnownCases) {
    // Brazilian (a1 dark, White men move up). A white man on d4 came from c3 or e3.
    EXPECT_EQ(unmove_count(BaseVariant::brazilian, "B:Wd4:Bh8"), 2);
    // With a black man on b4, a white man on c3 would have had to take it (c3xa5): captures are
    // compulsory, so only e3-d4 remains.
    EXPECT_EQ(unmove_count(BaseVariant::brazilian, "B:Wd4:Bb4"), 1);
    // A flying king on d4 came from any square of its two diagonals: a1 b2 c3 e5 f6 g7 h8 and
    // a7 b6 c5 e3 f2 g1 (b8 is on neither).
    EXPECT_EQ(unmove_count(BaseVariant::brazilian, "B:WKd4:Bb8"), 13);
    // English kings move one step: four neighbours.
    EXPECT_EQ(unmove_count(BaseVariant::english, "B:WK15:B1"), 4);
    // A Black man moved last (White to move): it came from one of the two squares behind it.
    EXPECT_EQ(unmove_count(BaseVariant::brazilian, "W:Wh2:Be5"), 2);
    // Turkish: a man on d4 came from d3 (forward) or c4 or e4 (sideways); a man on d2 not from
    // d1, its own back row, where men never stand.
    EXPECT_EQ(unmove_count(BaseVariant::turkish, "B:Wd4:BKh8"), 3);
    EXPECT_EQ(unmove_count(BaseVariant::turkish, "B:Wd2:BKh8"), 2);
    // Nothing moved last for the side without a piece that could move back: a white man on its
    // first row in a diagonal variant came from nowhere.
    EXPECT_EQ(unmove_count(BaseVariant::brazilian, "B:Wa1:Bh8"), 0);
}

INSTANTIATE_TEST_SUITE_P(AllBases, Unmoves,
                         ::testing::Values(BaseVariant::international, BaseVariant::brazilian,
                                           BaseVariant::portuguese, BaseVariant::russian,
                                           BaseVariant::italian, BaseVariant::english,
                                           BaseVariant::turkish),
                         [](const auto& param_info) {
                             return std::string(Variant{param_info.param, false}.info().name);
                         });

}  // namespace
}  // namespace damas
