// ClassIndex::for_each_king_run: its runs, laid end to end, are for_each_position's positions in
// the same order (each run's rest plus one king of its colour on each of its squares), from any
// begin to any end, on every board, and a run never holds more positions than free squares.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "index/class_index.hpp"

namespace damas {
namespace {

// Expects the runs of [begin, end) to be the walk's positions, in order.
void expect_runs_are_the_walk(const ClassIndex& index, const Material& m, std::uint64_t begin,
                              std::uint64_t end) {
    std::vector<Position> walked;
    index.for_each_position(begin, end,
                            [&](std::uint64_t, const Position& p) { walked.push_back(p); });
    std::uint64_t next = begin;
    std::size_t k = 0;
    index.for_each_king_run(
        begin, end,
        [&](std::uint64_t i, const Position& rest, Color king, std::span<const Bitboard> squares) {
            ASSERT_EQ(i, next) << m.name();
            ASSERT_FALSE(squares.empty()) << m.name();
            ASSERT_LE(squares.size(), 64u);
            for (const Bitboard s : squares) {
                ASSERT_LT(k, walked.size()) << m.name();
                ASSERT_EQ(s & (s - 1), 0u) << m.name();
                ASSERT_EQ(s & rest.occupied(), 0u) << m.name() << " at " << next;
                Position p = rest;
                (king == Color::white ? p.pieces[0] : p.pieces[1]) |= s;
                p.kings |= s;
                const Position& w = walked[k];
                ASSERT_TRUE(p.pieces[0] == w.pieces[0] && p.pieces[1] == w.pieces[1] &&
                            p.kings == w.kings && p.side == w.side)
                    << m.name() << " position " << next;
                ++k;
                ++next;
            }
        });
    EXPECT_EQ(k, walked.size()) << m.name();
}

TEST(KingRuns, EveryClassWithKingsIsItsWalk) {
    for (const BoardSpec& board : {board_8x8, board_8x8_orthogonal, board_10x10})
        for (int n = 2; n <= 4; ++n)
            for (const Material& m : classes_with_pieces(n)) {
                if (m.white_kings + m.black_kings == 0) continue;
                const ClassIndex index(board, m);
                if (index.size() > 3'000'000) continue;
                expect_runs_are_the_walk(index, m, 0, index.size());
            }
}

TEST(KingRuns, AnyRangeIsItsWalk) {
    std::mt19937_64 rng(11);
    for (const BoardSpec& board : {board_8x8, board_10x10})
        for (const Material m :
             {Material{1, 1, 1, 1}, Material{0, 2, 0, 2}, Material{0, 3, 0, 1},
              Material{2, 1, 1, 0}, Material{1, 0, 0, 3}, Material{0, 1, 2, 1}}) {
            const ClassIndex index(board, m);
            for (int t = 0; t < 40; ++t) {
                const std::uint64_t begin = rng() % index.size();
                const std::uint64_t end = begin + rng() % 20000;  // past size() is clamped
                expect_runs_are_the_walk(index, m, begin, end);
            }
        }
}

TEST(KingRuns, NothingWithoutKings) {
    const ClassIndex index(board_8x8, Material{2, 0, 1, 0});
    int calls = 0;
    index.for_each_king_run(
        0, index.size(),
        [&](std::uint64_t, const Position&, Color, std::span<const Bitboard>) { ++calls; });
    EXPECT_EQ(calls, 0);
}

}  // namespace
}  // namespace damas
