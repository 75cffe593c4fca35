// KingQuarters (gen/solve/king_quarters.hpp): every position of a kings-only turkish pair with a
// side of an odd number of kings stands for exactly one held position, the same as its three images
// (files reversed, rows reversed, both); held positions are numbered 0..size()-1 without gaps,
// and position_at is locate's inverse. The values they share are checked by the byte-a-position
// solver's tests (test_gen_units: the same files as the pairs held whole).
#include <gtest/gtest.h>

#include <vector>

#include "gen/solve/king_quarters.hpp"
#include "index/binomial.hpp"
#include "index/class_index.hpp"
#include "rules/error.hpp"

namespace damas {
namespace {

Position reflected(const Position& p, bool files, bool rows) {
    const auto f = [&](Bitboard b) {
        if (files) b = reverse_files(b);
        return rows ? __builtin_bswap64(b) : b;
    };
    Position r = p;
    r.pieces[0] = f(p.pieces[0]);
    r.pieces[1] = f(p.pieces[1]);
    r.kings = f(p.kings);
    return r;
}

void expect_quarters(const char* name) {
    const Material m = Material::parse(name).value();
    const int classes = m == m.mirrored() ? 1 : 2;
    const KingQuarters quarters(m, classes);
    ASSERT_EQ(quarters.size(), classes * KingQuarters::held_positions(m));
    std::vector<int> hits(quarters.size(), 0);
    for (int c = 0; c < classes; ++c) {
        const ClassIndex index(board_8x8_orthogonal, c == 0 ? m : m.mirrored());
        EXPECT_EQ(index.size(), 4 * KingQuarters::held_positions(m));
        index.for_each_position(0, index.size(), [&](std::uint64_t, const Position& p) {
            const std::uint64_t local = quarters.locate(c, p);
            ASSERT_LT(local, quarters.size());
            ++hits[local];
            for (const bool files : {false, true})
                for (const bool rows : {false, true})
                    ASSERT_EQ(quarters.locate(c, reflected(p, files, rows)), local);
            int back = -1;
            const Position held = quarters.position_at(local, back);
            ASSERT_EQ(back, c);
            ASSERT_EQ(quarters.locate(c, held), local);
            ASSERT_EQ(Material::of(held), index.material());
        });
    }
    for (std::uint64_t local = 0; local < quarters.size(); ++local)
        ASSERT_EQ(hits[local], 4) << name << " held position " << local;
}

TEST(KingQuarters, EveryPositionStandsForOneOfFourAndBack) {
    for (const char* name : {"0101", "0102", "0201", "0103", "0301"}) expect_quarters(name);
}

TEST(KingQuarters, OnlyKingsOnlyTurkishPairsWithAnOddSide) {
    const auto holds = [](const BoardSpec& board, const char* name) {
        return KingQuarters::holds(board, Material::parse(name).value());
    };
    EXPECT_TRUE(holds(board_8x8_orthogonal, "0304"));
    EXPECT_TRUE(holds(board_8x8_orthogonal, "0205"));
    EXPECT_FALSE(holds(board_8x8_orthogonal, "0204"));  // a placement can be its own image
    EXPECT_FALSE(holds(board_8x8_orthogonal, "1102"));  // men move one way
    EXPECT_FALSE(holds(board_8x8, "0304"));             // the diagonal board
    EXPECT_THROW(KingQuarters(Material::parse("0202").value(), 1), Error);
    // Where both sides' kings are odd, the fewer decide: a table of C(64, 1) for 0701, not of
    // C(64, 7) (621 M entries).
    EXPECT_EQ(KingQuarters::held_positions(Material::parse("0701").value()),
              std::uint64_t{16} * binomial(63, 7));
    EXPECT_LT(KingQuarters::table_bytes(Material::parse("0701").value()), 1024u);
}

}  // namespace
}  // namespace damas
