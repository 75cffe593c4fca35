// Board diagrams (tools/render/svg.hpp): every playable square drawn once with its name where
// the variant's numbering puts it (the corners checked against the PDN standards), every piece
// drawn, the move's arrow between the right squares (`damas svg`: tests/cli/test_cli_svg.cpp).
#include <gtest/gtest.h>

#include <regex>

#include "rules/notation.hpp"
#include "tools/render/svg.hpp"

namespace damas::cli {
namespace {

int count(const std::string& text, const std::string& part) {
    int n = 0;
    for (auto at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) ++n;
    return n;
}

// The top-left corner of the rect drawn for a named square.
std::pair<int, int> corner(const std::string& svg, const std::string& name) {
    const std::regex square("<g class=\"square\" data-square=\"" + name +
                            "\"><rect x=\"([0-9.]+)\" y=\"([0-9.]+)\"");
    std::smatch m;
    if (!std::regex_search(svg, m, square)) return {-1, -1};
    return {std::stoi(m[1]), std::stoi(m[2])};
}

TEST(Svg, EverySquareOnceWithEveryPieceOfTheInitialPosition) {
    for (const Variant v : all_variants()) {
        const Position p = initial_position(v);
        const std::string svg = board_svg(v, p);
        const GeometryTables g = make_tables(v.info().board);
        EXPECT_EQ(count(svg, "<g class=\"square\""), g.squares) << v.name();
        for (int s = 0; s < g.squares; ++s) {
            const std::string name = square_name(v.info(), g.bit_of_square[s]);
            EXPECT_EQ(count(svg, "data-square=\"" + name + "\""), 1) << v.name() << " " << name;
        }
        EXPECT_EQ(count(svg, "class=\"piece white man\""), popcount(p.of(Color::white)));
        EXPECT_EQ(count(svg, "class=\"piece black man\""), popcount(p.of(Color::black)));
        EXPECT_EQ(count(svg, "<g "), count(svg, "</g>"));
        EXPECT_EQ(svg.rfind("<svg ", 0), 0u);
    }
}

TEST(Svg, CornersFollowEachNumbering) {
    const auto corner_of = [](const char* variant, const char* square) {
        const Variant v = *parse_variant(variant);
        return corner(board_svg(v, initial_position(v)), square);
    };
    using P = std::pair<int, int>;
    // International (FMJD): 1 is b10 (top row, second column), 5 is j10, 46 is a1, 50 is i1.
    EXPECT_EQ(corner_of("international", "1"), P(48, 0));
    EXPECT_EQ(corner_of("international", "5"), P(432, 0));
    EXPECT_EQ(corner_of("international", "46"), P(0, 432));
    EXPECT_EQ(corner_of("international", "50"), P(384, 432));
    // English: 1 at the top left's first dark square, 32 at the bottom right's last one.
    EXPECT_EQ(corner_of("english", "1"), P(48, 0));
    EXPECT_EQ(corner_of("english", "32"), P(288, 336));
    // Portuguese: a1 is light, 1 is h1 (bottom row from the right), 32 is a8.
    EXPECT_EQ(corner_of("portuguese", "1"), P(336, 336));
    EXPECT_EQ(corner_of("portuguese", "32"), P(0, 0));
    // Algebraic boards: a1 bottom left.
    EXPECT_EQ(corner_of("brazilian", "a1"), P(0, 336));
    EXPECT_EQ(corner_of("turkish", "a1"), P(0, 336));
    EXPECT_EQ(corner_of("turkish", "h8"), P(336, 0));
}

TEST(Svg, KingsAndMoveArrow) {
    const Variant v = *parse_variant("international");
    const Position p = parse_fen(v, "W:WK32,28:B23,K5");
    const auto move = find_move(v, p, "28x19");
    ASSERT_TRUE(move);
    SvgOptions o;
    o.move = move;
    const std::string svg = board_svg(v, p, o);
    EXPECT_EQ(count(svg, "class=\"piece white king\""), 1);
    EXPECT_EQ(count(svg, "class=\"piece black king\""), 1);
    EXPECT_EQ(count(svg, "class=\"piece white man\""), 1);
    // 28 is d5's neighbour... the arrow runs between the centres of 28 and 19.
    const auto [x28, y28] = corner(svg, "28");
    const auto [x19, y19] = corner(svg, "19");
    const std::string arrow = "<line class=\"move\" x1=\"" + std::to_string(x28 + 24) + "\" y1=\"" +
                              std::to_string(y28 + 24) + "\" x2=\"" + std::to_string(x19 + 24) +
                              "\" y2=\"" + std::to_string(y19 + 24) + "\"";
    EXPECT_NE(svg.find(arrow), std::string::npos) << svg;
    EXPECT_EQ(count(svg, "class=\"captured\""), 2);  // one cross: two strokes
    EXPECT_FALSE(find_move(v, p, "28-22"));          // a capture is compulsory
    EXPECT_FALSE(find_move(v, p, "junk"));
}

}  // namespace
}  // namespace damas::cli
