// The move generator's fast paths against its full generation, on random positions of every
// base variant: has_capture (a whole-board test) against the capture search, count_quiet
// (flying kings by ray lengths) against the quiet moves listed one by one, has_crowning_move
// against the man moves; and the ray tables against a walk over board coordinates.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

#include "rules/movegen.hpp"
#include "rules/variant.hpp"

namespace damas::test {
namespace {

template <class R>
Position random_position(std::mt19937& rng, int most_per_side) {
    using B = typename R::Board;
    std::vector<int> squares(B::squares);
    for (int i = 0; i < B::squares; ++i) squares[i] = B::tables.bit_of_square[i];
    std::shuffle(squares.begin(), squares.end(), rng);
    Position p;
    p.side = rng() % 2 ? Color::white : Color::black;
    std::size_t next = 0;
    for (Color c : {Color::white, Color::black}) {
        const int n = 1 + static_cast<int>(rng() % static_cast<unsigned>(most_per_side));
        const Bitboard promotion = MoveGenerator<R>::promotion_row(c);
        for (int placed = 0; placed < n; ++placed, ++next) {
            const Bitboard b = bit(squares[next]);
            p.pieces[index_of(c)] |= b;
            if ((b & promotion) || rng() % 2 == 0) p.kings |= b;
        }
    }
    return p;
}

template <class R>
void check_fast_paths(const char* name) {
    using Moves = MoveGenerator<R>;
    std::mt19937 rng(20261125);
    int captures = 0, quiet = 0, crowning = 0;
    for (int i = 0; i < 20000; ++i) {
        const Position p = random_position<R>(rng, 1 + i % 8);
        MoveList list;
        Moves::generate_captures(p, list);
        ASSERT_EQ(Moves::has_capture(p), !list.empty()) << name << " position " << i;
        if (!list.empty()) {
            ++captures;
            continue;
        }
        Moves::generate(p, list);
        ASSERT_EQ(Moves::count_quiet(p), list.size()) << name << " position " << i;
        ++quiet;
        Moves::generate_man_moves(p, list);
        const bool crowns =
            std::any_of(list.begin(), list.end(), [](const Move& m) { return m.promotes; });
        ASSERT_EQ(Moves::has_crowning_move(p), crowns) << name << " position " << i;
        crowning += crowns ? 1 : 0;
    }
    // The positions exercised each path.
    EXPECT_GT(captures, 1000) << name;
    EXPECT_GT(quiet, 1000) << name;
    EXPECT_GT(crowning, 100) << name;
}

TEST(FastPaths, AgreeWithFullGenerationEveryVariant) {
    for (int b = 0; b < base_variant_count; ++b)
        dispatch(static_cast<BaseVariant>(b),
                 [](auto rules) { check_fast_paths<decltype(rules)>(decltype(rules)::name); });
}

template <class R>
void check_rays(const char* name) {
    using B = typename R::Board;
    const GeometryTables& t = B::tables;
    for (int s = 0; s < B::squares; ++s) {
        const int from = t.bit_of_square[s];
        for (int d = 0; d < 4; ++d) {
            Bitboard expected = 0;
            int length = 0;
            for (int x = t.x_of_square[s] + B::dx[d], y = t.y_of_square[s] + B::dy[d];
                 t.playable(x, y); x += B::dx[d], y += B::dy[d]) {
                expected |= bit(t.bit_at(x, y));
                ++length;
            }
            EXPECT_EQ(B::ray(from, d), expected) << name << " square " << s << " direction " << d;
            EXPECT_EQ(B::rays.length[from][d], length) << name << " square " << s;
            if (expected) {
                // The nearest square of the ray is its first.
                const int x = t.x_of_square[s] + B::dx[d], y = t.y_of_square[s] + B::dy[d];
                EXPECT_EQ(B::first_on(expected, d), t.bit_at(x, y)) << name << " square " << s;
            }
        }
    }
}

TEST(FastPaths, RaysFollowTheBoardCoordinates) {
    for (int b = 0; b < base_variant_count; ++b)
        dispatch(static_cast<BaseVariant>(b),
                 [](auto rules) { check_rays<decltype(rules)>(decltype(rules)::name); });
}

}  // namespace
}  // namespace damas::test
