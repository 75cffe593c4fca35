// The class index: exact sizes, and a dense bijection (every index round-trips).
#include <gtest/gtest.h>

#include <random>

#include "class_index_checks.hpp"
#include "index/class_index.hpp"
#include "rules/error.hpp"

namespace damas {
namespace {

using test::closed_form_size;
using test::valid_placement;

struct BoardCase {
    const char* name;
    BoardSpec board;
};
const BoardCase eight_by_eight[] = {
    {"8x8", board_8x8}, {"8x8_a1_light", board_8x8_a1_light}, {"turkish", board_8x8_orthogonal}};

std::uint64_t total_with_pieces(const BoardSpec& b, int pieces) {
    std::uint64_t total = 0;
    for (const Material& m : classes_with_pieces(pieces)) total += ClassIndex(b, m).size();
    return total;
}

TEST(ClassIndex, PublishedTotals) {
    EXPECT_EQ(total_with_pieces(board_8x8, 3), 196032u);
    EXPECT_EQ(total_with_pieces(board_10x10, 3), 806300u);
}

TEST(ClassIndex, SizesEqualTheClosedForm) {
    const auto check = [](const BoardSpec& b, int max_pieces) {
        for (int n = 2; n <= max_pieces; ++n)
            for (const Material& m : classes_with_pieces(n))
                EXPECT_EQ(ClassIndex(b, m).size(), closed_form_size(b, m)) << m.name();
    };
    for (const BoardCase& c : eight_by_eight) check(c.board, 5);
    check(board_10x10, 4);
    // Bigger classes too, where the closed form is cheap.
    for (const BoardSpec& b : {board_8x8, board_8x8_orthogonal, board_10x10})
        for (const Material m : {Material{4, 0, 4, 0}, Material{3, 1, 2, 2}, Material{6, 0, 5, 1}})
            EXPECT_EQ(ClassIndex(b, m).size(), closed_form_size(b, m)) << m.name();
}

TEST(ClassIndex, TenByTenClassesPassTwoToThe32) {
    const ClassIndex index(board_10x10, {4, 0, 4, 0});
    EXPECT_GT(index.size(), std::uint64_t{1} << 32);
    std::mt19937_64 rng(7);
    for (int n = 0; n < 100000; ++n) {
        const std::uint64_t i = rng() % index.size();
        ASSERT_EQ(index.index(index.unindex(i)), i);
    }
    EXPECT_EQ(index.index(index.unindex(index.size() - 1)), index.size() - 1);
}

// The classes of 9 and 10 pieces (damas gen -p 10): sizes as the closed form, and index(unindex(i))
// == i at sampled indices, those above 2^32 and the last included. english 0505 has 16.3 G
// positions; international 5050 far more.
TEST(ClassIndex, NineAndTenPieceClassesRoundTrip) {
    struct Case {
        BoardSpec board;
        Material m;
    };
    const Case cases[] = {{board_8x8, {0, 5, 0, 4}},   {board_8x8, {0, 9, 0, 1}},
                          {board_8x8, {0, 5, 0, 5}},   {board_8x8, {3, 2, 3, 2}},
                          {board_8x8, {1, 3, 0, 5}},   {board_8x8_orthogonal, {0, 5, 0, 5}},
                          {board_10x10, {5, 0, 5, 0}}, {board_10x10, {0, 9, 0, 1}},
                          {board_10x10, {2, 3, 1, 3}}};
    std::mt19937_64 rng(42);
    for (const Case& c : cases) {
        const ClassIndex index(c.board, c.m);
        ASSERT_EQ(index.size(), closed_form_size(c.board, c.m)) << c.m.name();
        const std::uint64_t above = std::uint64_t{1} << 32;
        std::vector<std::uint64_t> sampled = {0, index.size() - 1};
        for (int n = 0; n < 20000; ++n) sampled.push_back(rng() % index.size());
        if (index.size() > above) {
            sampled.push_back(above);
            for (int n = 0; n < 20000; ++n)
                sampled.push_back(above + rng() % (index.size() - above));
        }
        for (const std::uint64_t i : sampled) {
            const Position p = index.unindex(i);
            if (!valid_placement(index, p) || index.index(p) != i)
                FAIL() << c.m.name() << " index " << i;
        }
    }
    EXPECT_EQ(ClassIndex(board_8x8, {0, 5, 0, 4}).size(), 3'534'148'800u);  // C(32,5) C(27,4)
    EXPECT_GT(ClassIndex(board_8x8, {0, 5, 0, 5}).size(), std::uint64_t{1} << 32);
}

TEST(ClassIndex, TooBigClassesAreRejected) {
    EXPECT_THROW(ClassIndex(board_8x8_orthogonal, Material{0, 16, 0, 16}), Error);
    EXPECT_THROW(ClassIndex(board_8x8, Material{0, 20, 0, 20}), Error);
    EXPECT_THROW(ClassIndex(board_8x8, Material{-1, 0, 1, 0}), Error);
}

// Every index of every class up to max_pieces: unindex gives a valid placement of the class and
// index(unindex(i)) == i. Since unindex is then injective into a set of size() elements (the
// closed form), it is a bijection.
void round_trip_all(const BoardSpec& b, int max_pieces) {
    for (int n = 2; n <= max_pieces; ++n)
        for (const Material& m : classes_with_pieces(n)) {
            const ClassIndex index(b, m);
            for (std::uint64_t i = 0; i < index.size(); ++i) {
                const Position p = index.unindex(i);
                if (!valid_placement(index, p) || index.index(p) != i)
                    FAIL() << m.name() << " index " << i << ": "
                           << index.why_not_indexable(p).value_or("") << " back to "
                           << index.index(p);
            }
        }
}

TEST(ClassIndex, RoundTripsEveryIndex8x8) {
    round_trip_all(board_8x8, 4);
}
TEST(ClassIndex, RoundTripsEveryIndex8x8A1Light) {
    round_trip_all(board_8x8_a1_light, 4);
}
TEST(ClassIndex, RoundTripsEveryIndexTurkish) {
    round_trip_all(board_8x8_orthogonal, 4);
}
TEST(ClassIndex, RoundTripsEveryIndex10x10) {
    round_trip_all(board_10x10, 3);
}

TEST(ClassIndex, RoundTripsRandomIndicesOfLargerClasses) {
    const Material classes[] = {{2, 1, 1, 1}, {3, 0, 2, 0}, {1, 2, 2, 1}, {3, 0, 3, 0},
                                {2, 1, 2, 1}, {0, 3, 0, 3}, {4, 0, 1, 1}};
    const BoardSpec board_specs[] = {board_8x8, board_8x8_a1_light, board_8x8_orthogonal,
                                     board_10x10};
    std::mt19937_64 rng(2024);
    const int per_class =
        10'000'000 / static_cast<int>(std::size(classes) * std::size(board_specs)) + 1;
    std::uint64_t checked = 0;
    for (const BoardSpec& b : board_specs)
        for (const Material& m : classes) {
            const ClassIndex index(b, m);
            for (int n = 0; n < per_class; ++n, ++checked) {
                const std::uint64_t i = rng() % index.size();
                const Position p = index.unindex(i);
                if (!valid_placement(index, p) || index.index(p) != i)
                    FAIL() << m.name() << " index " << i;
            }
        }
    EXPECT_GE(checked, 10'000'000u);
}

TEST(ClassIndex, KingsOfOneMenConfigurationAreConsecutive) {
    const ClassIndex index(board_8x8, {2, 1, 1, 2});
    for (std::uint64_t men = 0; men < index.men_count(); men += 97) {
        const MenPlacement placement = index.men(men);
        EXPECT_EQ(index.men_index(placement.white, placement.black), men);
        for (std::uint64_t k = 0; k < index.kings_per_men(); k += 13) {
            const Position p = index.unindex(men * index.kings_per_men() + k);
            EXPECT_EQ(p.men(Color::white), placement.white);
            EXPECT_EQ(p.men(Color::black), placement.black);
        }
    }
}

TEST(ClassIndex, WalkingGivesTheSamePositionsAsUnindex) {
    for (const BoardSpec& b : {board_8x8, board_8x8_orthogonal, board_10x10})
        for (const Material m :
             {Material{1, 1, 1, 1}, Material{2, 0, 1, 0}, Material{0, 2, 0, 1},
              Material{1, 0, 0, 1}, Material{0, 1, 2, 0}, Material{1, 0, 0, 2}}) {
            const ClassIndex index(b, m);
            std::uint64_t expected = 0;
            index.for_each_position(0, index.size(), [&](std::uint64_t i, const Position& p) {
                ASSERT_EQ(i, expected++);
                ASSERT_EQ(p, index.unindex(i)) << m.name() << " " << i;
            });
            EXPECT_EQ(expected, index.size());
            // From the middle of a men configuration to the middle of another.
            const std::uint64_t begin = index.size() / 3 + 1, end = 2 * index.size() / 3 + 5;
            expected = begin;
            index.for_each_position(begin, end, [&](std::uint64_t i, const Position& p) {
                ASSERT_EQ(i, expected++);
                ASSERT_EQ(p, index.unindex(i));
            });
            EXPECT_EQ(expected, std::min(end, index.size()));
        }
}

TEST(ClassIndex, RejectsWhatItCannotIndex) {
    const ClassIndex index(board_8x8, {1, 0, 1, 0});
    Position p = index.unindex(0);
    EXPECT_FALSE(index.why_not_indexable(p));
    Position black_to_move = p;
    black_to_move.side = Color::black;
    EXPECT_TRUE(index.why_not_indexable(black_to_move));
    Position promoted = p;
    promoted.kings = p.pieces[0];
    EXPECT_TRUE(index.why_not_indexable(promoted));
    Position on_promotion_row;
    on_promotion_row.pieces[0] = bit(35);  // h8
    on_promotion_row.pieces[1] = bit(10);
    EXPECT_TRUE(index.why_not_indexable(on_promotion_row));
    const ClassIndex turkish(board_8x8_orthogonal, {1, 0, 1, 0});
    Position back_row;
    back_row.pieces[0] = bit(3);  // d1: a turkish white man never stands there
    back_row.pieces[1] = bit(40);
    EXPECT_TRUE(turkish.why_not_indexable(back_row));
}

}  // namespace
}  // namespace damas
