// Long checks (ctest -L slow): every index of the 5-piece classes on 8x8 boards and of the
// 4-piece classes on 10x10.
#include <gtest/gtest.h>

#include "class_index_checks.hpp"
#include "index/class_index.hpp"

namespace damas {
namespace {

void round_trip_with_pieces(const BoardSpec& b, int pieces) {
    for (const Material& m : classes_with_pieces(pieces)) {
        const ClassIndex index(b, m);
        ASSERT_EQ(index.size(), test::closed_form_size(b, m));
        index.for_each_position(0, index.size(), [&](std::uint64_t i, const Position& p) {
            if (!test::valid_placement(index, p) || index.index(p) != i)
                FAIL() << m.name() << " index " << i;
        });
    }
}

TEST(ClassIndexSlow, EveryIndexOf5Pieces8x8) {
    round_trip_with_pieces(board_8x8, 5);
}
TEST(ClassIndexSlow, EveryIndexOf5Pieces8x8A1Light) {
    round_trip_with_pieces(board_8x8_a1_light, 5);
}
TEST(ClassIndexSlow, EveryIndexOf5PiecesTurkish) {
    round_trip_with_pieces(board_8x8_orthogonal, 5);
}
TEST(ClassIndexSlow, EveryIndexOf4Pieces10x10) {
    round_trip_with_pieces(board_10x10, 4);
}

}  // namespace
}  // namespace damas
