// Slices: men configurations by total advancement, solved most advanced first.
#include <gtest/gtest.h>

#include <vector>

#include "index/class_index.hpp"
#include "index/flip.hpp"
#include "rules/movegen.hpp"

namespace damas {
namespace {

const BoardSpec slice_boards[] = {board_10x10, board_8x8, board_8x8_a1_light, board_8x8_orthogonal};

TEST(Slices, PartitionTheClassMostAdvancedFirst) {
    for (const BoardSpec& b : slice_boards)
        for (int n = 2; n <= 5; ++n)
            for (const Material& m : classes_with_pieces(n)) {
                const ClassIndex index(b, m);
                std::uint64_t men = 0, positions = 0;
                for (int s = 0; s < index.slice_count(); ++s) {
                    EXPECT_GT(index.men_in_slice(s), 0u);
                    if (s > 0) {
                        EXPECT_GT(index.slice_advancement(s - 1), index.slice_advancement(s));
                    }
                    men += index.men_in_slice(s);
                    positions += index.positions_in_slice(s);
                }
                EXPECT_EQ(men, index.men_count()) << m.name();
                EXPECT_EQ(positions, index.size()) << m.name();
                // A class and its mirror number their slices alike.
                const ClassIndex mirror(b, m.mirrored());
                ASSERT_EQ(mirror.slice_count(), index.slice_count());
                for (int s = 0; s < index.slice_count(); ++s)
                    EXPECT_EQ(mirror.slice_advancement(s), index.slice_advancement(s));
            }
}

TEST(Slices, WalkingASliceGivesEachOfItsConfigurationsOnce) {
    for (const BoardSpec& b : slice_boards)
        for (const Material m :
             {Material{1, 0, 1, 0}, Material{2, 0, 1, 1}, Material{2, 1, 2, 0},
              Material{0, 2, 0, 1}, Material{3, 0, 1, 0}, Material{1, 0, 3, 0}}) {
            const ClassIndex index(b, m);
            std::vector<char> seen(index.men_count());
            std::uint64_t seen_count = 0;
            for (int s = 0; s < index.slice_count(); ++s) {
                std::uint64_t count = 0;
                index.for_each_men_in_slice(
                    s, [&](std::uint64_t men, const MenPlacement& placement) {
                        ++count;
                        ASSERT_LT(men, seen.size());
                        EXPECT_FALSE(seen[men]);
                        seen[men] = 1;
                        ++seen_count;
                        const MenPlacement back = index.men(men);
                        EXPECT_EQ(back.white, placement.white);
                        EXPECT_EQ(back.black, placement.black);
                        EXPECT_EQ(index.slice_of_men(placement.white, placement.black), s);
                    });
                EXPECT_EQ(count, index.men_in_slice(s)) << m.name() << " slice " << s;
            }
            EXPECT_EQ(seen_count, index.men_count());
        }
}

// Men groups: consecutive men indices with one placement of the White men, the Black men in
// colex order over the squares White leaves (checked against men() and men_index()).
TEST(Slices, MenGroupsAreRunsOfOneWhitePlacement) {
    for (const BoardSpec& b : slice_boards)
        for (int n = 0; n <= 4; ++n)
            for (const Material& m : classes_with_pieces(n)) {
                const ClassIndex index(b, m);
                std::uint64_t next_men = 0;
                for (std::uint64_t g = 0; g < index.men_group_count(); ++g) {
                    const ClassIndex::MenGroup group = index.men_group(g);
                    ASSERT_EQ(group.first_men, next_men) << m.name() << " group " << g;
                    ASSERT_GT(group.size, 0u);
                    next_men += group.size;
                    Bitboard black_squares = 0;
                    for (int i = 0; i < group.black_squares; ++i) {
                        ASSERT_EQ(count_bits(group.black_square[i]), 1);
                        ASSERT_EQ(group.black_square[i] & (group.white_men | black_squares), 0u);
                        black_squares |= group.black_square[i];
                        if (i > 0) {
                            ASSERT_LE(group.black_advancement[i], group.black_advancement[i - 1]);
                        }
                    }
                    for (std::uint64_t men = group.first_men; men < next_men; ++men) {
                        ASSERT_EQ(index.men_group_of(men), g);
                        const MenPlacement p = index.men(men);
                        ASSERT_EQ(p.white, group.white_men);
                        // The Black men's colex rank among the group's squares.
                        std::uint64_t rank = 0;
                        int k = 0, black_advancement = 0;
                        for (int i = 0; i < group.black_squares; ++i)
                            if (p.black & group.black_square[i]) {
                                rank += binomial(i, ++k);
                                black_advancement += group.black_advancement[i];
                            }
                        ASSERT_EQ(k, m.black_men);
                        ASSERT_EQ(group.first_men + rank, men);
                        const int slice = index.slice_of_men(p.white, p.black);
                        ASSERT_EQ(
                            index.slice_of_advancement(group.white_advancement + black_advancement),
                            slice);
                        ASSERT_EQ(index.slice_advancement(slice),
                                  group.white_advancement + black_advancement);
                    }
                }
                EXPECT_EQ(next_men, index.men_count()) << m.name();
            }
}

// Every quiet move of a man that does not promote leads, once flipped, to a slice of the mirror
// class with a number no greater than its own (solved before it, or with it).
template <class R>
void check_man_moves_go_to_solved_slices(int max_pieces) {
    const BoardSpec b = R::Board::spec;
    MoveList moves;
    for (int n = 2; n <= max_pieces; ++n)
        for (const Material& m : classes_with_pieces(n)) {
            if (m.white_men == 0) continue;
            const ClassIndex index(b, m), mirror(b, m.mirrored());
            int same = 0, earlier = 0;
            index.for_each_position(0, index.size(), [&](std::uint64_t, const Position& p) {
                MoveGenerator<R>::generate(p, moves);
                const int slice = index.slice_of(p);
                for (const Move& mv : moves) {
                    if (mv.is_capture() || mv.promotes || (p.kings & bit(mv.from))) continue;
                    const Position next = flip(b, make_move(p, mv));
                    const int next_slice = mirror.slice_of(next);
                    ASSERT_LE(next_slice, slice) << m.name();
                    (next_slice == slice ? same : earlier)++;
                }
            });
            EXPECT_GT(earlier, 0) << m.name();
            if (!R::men_move_sideways) {
                EXPECT_EQ(same, 0) << m.name();
            }
        }
}

TEST(Slices, ManMovesGoToSlicesSolvedEarlierBrazilian) {
    check_man_moves_go_to_solved_slices<Brazilian>(4);
}
TEST(Slices, ManMovesGoToSlicesSolvedEarlierItalian) {
    check_man_moves_go_to_solved_slices<Italian>(3);
}
TEST(Slices, ManMovesGoToSlicesSolvedEarlierTurkish) {
    check_man_moves_go_to_solved_slices<Turkish>(3);
}
TEST(Slices, ManMovesGoToSlicesSolvedEarlierInternational) {
    check_man_moves_go_to_solved_slices<International>(3);
}

TEST(Slices, MemoryBudget) {
    const ClassIndex index(board_10x10, {3, 0, 3, 0});
    std::uint64_t largest = 0;
    for (int s = 0; s < index.slice_count(); ++s)
        largest = std::max(largest, index.positions_in_slice(s));
    EXPECT_LT(largest, index.size());
    EXPECT_EQ(index.largest_slice_bytes(1.0), largest);
    EXPECT_EQ(index.largest_slice_bytes(0.25), (largest + 3) / 4);
    EXPECT_TRUE(index.slices_fit(largest, 1.0));
    EXPECT_FALSE(index.slices_fit(largest - 1, 1.0));
    // Kings only: one slice, the whole class.
    const ClassIndex kings(board_10x10, {0, 2, 0, 2});
    EXPECT_EQ(kings.slice_count(), 1);
    EXPECT_EQ(kings.positions_in_slice(0), kings.size());
}

}  // namespace
}  // namespace damas
