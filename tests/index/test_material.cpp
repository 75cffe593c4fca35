// Material classes: names, the lists of classes, and the dependency order.
#include <gtest/gtest.h>

#include <algorithm>

#include "index/material.hpp"

namespace damas {
namespace {

TEST(Material, NameAndParseAreInverse) {
    const Material m{1, 0, 1, 0};
    EXPECT_EQ(m.name(), "1010");
    EXPECT_EQ(Material::parse("0301"), (Material{0, 3, 0, 1}));
    for (int n = 2; n <= 6; ++n)
        for (const Material& c : classes_with_pieces(n)) EXPECT_EQ(Material::parse(c.name()), c);
    for (const char* bad : {"", "101", "10100", "10a0", "-100", " 101"})
        EXPECT_FALSE(Material::parse(bad)) << bad;
}

TEST(Material, MirrorSwapsColours) {
    EXPECT_EQ((Material{2, 1, 0, 3}).mirrored(), (Material{0, 3, 2, 1}));
    EXPECT_EQ((Material{2, 1, 0, 3}).mirrored().mirrored(), (Material{2, 1, 0, 3}));
}

TEST(Material, CountsAPosition) {
    Position p;
    p.pieces[0] = 0b1011;
    p.pieces[1] = 0b110000;
    p.kings = 0b100010;
    EXPECT_EQ(Material::of(p), (Material{2, 1, 1, 1}));
}

TEST(Material, ClassesWithPiecesAreAllSortedAndUnique) {
    for (int n = 2; n <= 8; ++n) {
        const auto classes = classes_with_pieces(n);
        // Splits of n into four counts with at least one piece per side: sum over white
        // totals w = 1..n-1 of (w + 1)(n - w + 1).
        std::size_t expected = 0;
        for (int w = 1; w < n; ++w) expected += static_cast<std::size_t>((w + 1) * (n - w + 1));
        EXPECT_EQ(classes.size(), expected);
        EXPECT_TRUE(std::is_sorted(classes.begin(), classes.end()));
        EXPECT_EQ(std::adjacent_find(classes.begin(), classes.end()), classes.end());
        for (const Material& m : classes) {
            EXPECT_EQ(m.pieces(), n);
            EXPECT_GE(m.white(), 1);
            EXPECT_GE(m.black(), 1);
        }
    }
}

TEST(Material, DependenciesOfSmallClasses) {
    // One man each: White's promotion leaves 0110 with Black to move, stored as its mirror
    // 1001; White's capture ends the game.
    EXPECT_EQ(dependencies({1, 0, 1, 0}), (std::vector<Material>{{1, 0, 0, 1}}));
    EXPECT_TRUE(dependencies({0, 1, 0, 1}).empty());
    // 0201: capturing the king ends the game, so nothing.
    EXPECT_TRUE(dependencies({0, 2, 0, 1}).empty());
    // 0102: one capture leaves 0101.
    EXPECT_EQ(dependencies({0, 1, 0, 2}), (std::vector<Material>{{0, 1, 0, 1}}));
}

TEST(Material, DependenciesNeverGrowAndSkipTheClassAndItsMirror) {
    for (int n = 2; n <= 7; ++n)
        for (const Material& m : classes_with_pieces(n))
            for (const Material& d : dependencies(m)) {
                EXPECT_NE(d, m);
                EXPECT_NE(d, m.mirrored());
                EXPECT_GE(d.white(), 1);
                EXPECT_GE(d.black(), 1);
                EXPECT_TRUE(d.pieces() < m.pieces() || d.men() < m.men()) << m.name() << d.name();
            }
}

TEST(Material, ClassesUpToIsATopologicalOrderWithMirrorsAdjacent) {
    const int max_pieces = 7;
    const auto order = classes_up_to(max_pieces);
    std::size_t total = 0;
    for (int n = 2; n <= max_pieces; ++n) total += classes_with_pieces(n).size();
    ASSERT_EQ(order.size(), total);
    const auto position_of = [&](const Material& m) {
        return std::find(order.begin(), order.end(), m) - order.begin();
    };
    for (std::size_t i = 0; i < order.size(); ++i) {
        const Material& m = order[i];
        for (const Material& d : dependencies(m))
            EXPECT_LT(position_of(d), static_cast<std::ptrdiff_t>(i))
                << m.name() << " needs " << d.name();
        const auto mirror = position_of(m.mirrored());
        if (m != m.mirrored()) {
            EXPECT_EQ(std::abs(mirror - static_cast<std::ptrdiff_t>(i)), 1) << m.name();
        }
    }
    // Pairs are adjacent as pairs: a class is either the first of its pair or right after it.
    for (std::size_t i = 0; i < order.size();) {
        const Material m = order[i];
        if (m == m.mirrored()) {
            ++i;
        } else {
            EXPECT_EQ(order[i + 1], m.mirrored());
            i += 2;
        }
    }
}

}  // namespace
}  // namespace damas
