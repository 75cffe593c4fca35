// FEN and square names: each variant's numbering (RULES.md, "Square numbering and notation"),
// initial positions, ranges, K prefixes, empty sides, algebraic and numeric forms, and the
// print/parse round trip on random positions of every variant.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "rules/error.hpp"
#include "rules/notation.hpp"
#include "rules/printable.hpp"

namespace damas {
namespace {

const GeometryTables& tables(const Variant& v) {
    static std::vector<GeometryTables> all;
    if (all.empty())
        for (int i = 0; i < base_variant_count; ++i)
            all.push_back(make_tables(info(static_cast<BaseVariant>(i)).board));
    return all[static_cast<int>(v.base)];
}

Variant named(const char* name) {
    return *parse_variant(name);
}

// Bit index of file x (0 = a), rank y (0 = rank 1).
int at(const Variant& v, int x, int y) {
    return tables(v).bit_at(x, y);
}

// The square's name in the variant's numbering, computed here from the RULES.md table alone:
// top_left counts the playable squares from the top row, left to right; bottom_right from
// the bottom row, right to left; algebraic names file and rank.
std::string independent_name(const Variant& v, int bit) {
    const GeometryTables& t = tables(v);
    const int sq = t.square_of_bit[bit];
    const int x = t.x_of_square[sq], y = t.y_of_square[sq];
    if (v.info().numbering == Numbering::algebraic)
        return std::string(1, static_cast<char>('a' + x)) + std::to_string(y + 1);
    const bool top_left = v.info().numbering == Numbering::top_left;
    int n = 0;
    for (int r = 0; r < t.height; ++r)
        for (int c = 0; c < t.width; ++c) {
            const int yy = top_left ? t.height - 1 - r : r;
            const int xx = top_left ? c : t.width - 1 - c;
            if (!t.playable(xx, yy)) continue;
            ++n;
            if (xx == x && yy == y) return std::to_string(n);
        }
    return "?";
}

struct NamedSquare {
    const char* variant;
    int x, y;
    const char* name;
};

// Fixed points of the RULES.md numbering table.
TEST(SquareNames, MatchTheRulesTable) {
    const std::vector<NamedSquare> table = {
        {"international", 1, 9, "1"},  {"international", 9, 9, "5"}, {"international", 0, 0, "46"},
        {"international", 8, 0, "50"}, {"english", 1, 7, "1"},       {"english", 0, 0, "29"},
        {"english", 6, 0, "32"},       {"italian", 0, 7, "1"},       {"italian", 1, 0, "29"},
        {"italian", 7, 0, "32"},       {"portuguese", 7, 0, "1"},    {"portuguese", 1, 0, "4"},
        {"portuguese", 6, 7, "29"},    {"portuguese", 0, 7, "32"},   {"brazilian", 0, 0, "a1"},
        {"russian", 7, 7, "h8"},       {"turkish", 0, 0, "a1"},      {"turkish", 7, 7, "h8"},
        {"turkish", 3, 4, "d5"},
    };
    for (const NamedSquare& s : table) {
        const Variant v = named(s.variant);
        const int b = at(v, s.x, s.y);
        ASSERT_GE(b, 0) << s.variant << " " << s.name;
        EXPECT_EQ(square_name(v.info(), b), s.name) << s.variant;
        EXPECT_EQ(parse_square(v.info(), s.name), b) << s.variant << " " << s.name;
    }
}

TEST(SquareNames, EverySquareMatchesTheIndependentNumbering) {
    for (const Variant& v : all_variants()) {
        const GeometryTables& t = tables(v);
        for (int sq = 0; sq < t.squares; ++sq) {
            const int b = t.bit_of_square[sq];
            EXPECT_EQ(square_name(v.info(), b), independent_name(v, b)) << v.name();
            EXPECT_EQ(parse_square(v.info(), independent_name(v, b)), b) << v.name();
        }
    }
}

TEST(SquareNames, BrazilianAndRussianAlsoReadEnglishNumbers) {
    for (const char* name : {"brazilian", "russian"}) {
        const Variant v = named(name);
        EXPECT_EQ(parse_square(v.info(), "1"), at(v, 1, 7));   // b8
        EXPECT_EQ(parse_square(v.info(), "29"), at(v, 0, 0));  // a1
        EXPECT_EQ(parse_square(v.info(), "32"), at(v, 6, 0));  // g1
        EXPECT_EQ(parse_square(v.info(), "33"), std::nullopt);
    }
    EXPECT_EQ(parse_square(named("turkish").info(), "1"), std::nullopt);
}

TEST(SquareNames, OffTheBoardOrUnplayable) {
    EXPECT_EQ(parse_square(named("international").info(), "0"), std::nullopt);
    EXPECT_EQ(parse_square(named("international").info(), "51"), std::nullopt);
    EXPECT_EQ(parse_square(named("english").info(), "33"), std::nullopt);
    EXPECT_EQ(parse_square(named("brazilian").info(), "a2"), std::nullopt);  // light square
    EXPECT_EQ(parse_square(named("brazilian").info(), "i1"), std::nullopt);
    EXPECT_EQ(parse_square(named("brazilian").info(), "a9"), std::nullopt);
    EXPECT_EQ(parse_square(named("turkish").info(), "a0"), std::nullopt);
}

// Initial positions, counted square by square from RULES.md: rows 1-4 (10x10) or 1-3 (8x8)
// for White, the same from the top for Black; turkish rows 2-3 and 6-7.
TEST(InitialPosition, EveryVariant) {
    for (const Variant& v : all_variants()) {
        const Position p = initial_position(v);
        const GeometryTables& t = tables(v);
        const bool turkish = v.base == BaseVariant::turkish;
        const int rows = t.height == 10 ? 4 : 3;
        Bitboard white = 0, black = 0;
        for (int y = 0; y < t.height; ++y) {
            const bool w = turkish ? (y == 1 || y == 2) : y < rows;
            const bool b = turkish ? (y == 5 || y == 6) : y >= t.height - rows;
            if (w) white |= t.row(y);
            if (b) black |= t.row(y);
        }
        EXPECT_EQ(p.of(Color::white), white) << v.name();
        EXPECT_EQ(p.of(Color::black), black) << v.name();
        EXPECT_EQ(p.kings, 0u) << v.name();
        const Color first = v.base == BaseVariant::english ? Color::black : Color::white;
        EXPECT_EQ(p.side, first) << v.name();
        EXPECT_EQ(popcount(white), v.info().pieces_per_side) << v.name();
    }
}

TEST(InitialPosition, PrintsInTheVariantsNumbering) {
    EXPECT_EQ(to_fen(named("international"), initial_position(named("international"))),
              "W:W31-50:B1-20");
    EXPECT_EQ(to_fen(named("english"), initial_position(named("english"))), "B:W21-32:B1-12");
    EXPECT_EQ(to_fen(named("italian"), initial_position(named("italian"))), "W:W21-32:B1-12");
    EXPECT_EQ(to_fen(named("portuguese"), initial_position(named("portuguese"))), "W:W1-12:B21-32");
}

TEST(Fen, AlgebraicAndNumericFormsAreTheSamePosition) {
    for (const char* name : {"brazilian", "russian"}) {
        const Variant v = named(name);
        EXPECT_EQ(parse_fen(v, "W:W21-32:B1-12"), initial_position(v)) << name;
        EXPECT_EQ(parse_fen(v, "B:WK29,30:B1,K4"), parse_fen(v, "B:WKa1,c1:Bb8,Kh8")) << name;
    }
}

TEST(Fen, RangesAndKingPrefixes) {
    const Variant v = named("international");
    const Position p = parse_fen(v, "B:W31-33,K40,K46:BK1,2-4");
    Bitboard white = 0;
    for (int x : {1, 3, 5}) white |= bit(at(v, x, 3));  // 31-33 = b4, d4, f4
    white |= bit(at(v, 8, 2)) | bit(at(v, 0, 0));       // 40 = i3, 46 = a1
    EXPECT_EQ(p.of(Color::white), white);
    EXPECT_EQ(p.kings_of(Color::white), bit(at(v, 8, 2)) | bit(at(v, 0, 0)));
    EXPECT_EQ(p.kings_of(Color::black), bit(at(v, 1, 9)));  // 1 = b10
    EXPECT_EQ(popcount(p.men(Color::black)), 3);
    EXPECT_EQ(p.side, Color::black);
    EXPECT_EQ(to_fen(v, p), "B:W31-33,K40,K46:BK1,2-4");
}

TEST(Fen, EmptySide) {
    const Variant v = named("international");
    const Position p = parse_fen(v, "W:W:B1");
    EXPECT_EQ(p.of(Color::white), 0u);
    EXPECT_EQ(p.of(Color::black), bit(at(v, 1, 9)));
    EXPECT_EQ(to_fen(v, p), "W:W:B1");
    EXPECT_EQ(to_fen(v, parse_fen(v, "B:W:B")), "B:W:B");
    EXPECT_EQ(to_fen(named("turkish"), parse_fen(named("turkish"), "W:WKa1:B")), "W:WKa1:B");
}

TEST(Fen, ColoursInEitherOrderAndSpaces) {
    const Variant v = named("english");
    EXPECT_EQ(parse_fen(v, "B:B1-12:W21-32"), initial_position(v));
    EXPECT_EQ(parse_fen(v, " B:W21-32:B1-12 "), initial_position(v));
}

// The PDN tag form is read wherever a FEN is (issue 21, item 5).
TEST(Fen, PdnTagForm) {
    const Variant v = named("english");
    EXPECT_EQ(parse_fen(v, "[FEN \"B:W21-32:B1-12\"]"), initial_position(v));
    EXPECT_EQ(parse_fen(v, " [fen  \"B:W21-32:B1-12.\" ] "), initial_position(v));
    EXPECT_EQ(parse_fen(named("brazilian"), "[FEN \"W:Wa1:Bh8\"]"),
              parse_fen(named("brazilian"), "W:Wa1:Bh8"));
    for (const char* bad : {"[FEN \"B:W21-32:B1-12\"", "[FEN B:W21-32:B1-12]",
                            "[Event \"B:W21-32:B1-12\"]", "[FEN \"\"]", "[FEN \"B:W33:B1\"]"})
        EXPECT_THROW(parse_fen(v, bad), Error) << bad;
}

struct BadFen {
    const char* variant;
    const char* fen;
};

TEST(Fen, BadInputThrowsError) {
    const std::vector<BadFen> bad = {
        {"international", ""},
        {"international", "W"},
        {"international", "W:W31-50"},
        {"international", "W:W31-50:B1-20:W1"},
        {"international", "X:W31-50:B1-20"},
        {"international", "W:X31-50:B1-20"},
        {"international", "W:W31-50:W1-20"},
        {"international", "W:W51:B1"},
        {"international", "W:W0:B1"},
        {"international", "W:W1:B40"},   // white man on its promotion row
        {"international", "W:W31:B46"},  // black man on its promotion row
        {"international", "W:W31,31:B1"},
        {"international", "W:W31:B31"},
        {"international", "W:W20-40:B1"},  // 21 pieces
        {"international", "W:W35-31:B1"},
        {"international", "W:W31,:B1"},
        {"international", "W:Wa1:B1"},
        {"international", "W:WK:B1"},
        {"international", "W:W3x:B1"},
        {"english", "B:W21-33:B1-12"},
        {"english", "B:W20-32:B1-12"},  // 13 pieces
        {"brazilian", "W:Wa2:Bb8"},     // light square
        {"brazilian", "W:Wi1:Bb8"},
        {"turkish", "W:W1-3:Ba8"},  // no numbers in turkish
        {"turkish", "W:Wa8:Ba7"},   // white man on row 8
        {"turkish", "W:Wa1-a3:Ba7"},
    };
    for (const BadFen& b : bad)
        EXPECT_THROW(parse_fen(named(b.variant), b.fen), Error) << b.variant << " " << b.fen;
}

// A FEN written here, square by square in a shuffled order, from the independent numbering.
std::string independent_fen(const Variant& v, const Position& p, std::mt19937& rng) {
    std::string s = p.side == Color::white ? "W" : "B";
    for (Color c : {Color::white, Color::black}) {
        s += c == Color::white ? ":W" : ":B";
        std::vector<std::string> items;
        for_each_bit(p.of(c), [&](int b) {
            // Appended: GCC 12 warns of a false overlap in "K" + std::string.
            std::string item = (p.kings & bit(b)) ? "K" : "";
            items.push_back(item.append(independent_name(v, b)));
        });
        std::shuffle(items.begin(), items.end(), rng);
        for (std::size_t i = 0; i < items.size(); ++i) s += (i ? "," : "") + items[i];
    }
    return s;
}

Position random_position(const Variant& v, std::mt19937& rng) {
    const GeometryTables& t = tables(v);
    Position p;
    p.side = rng() % 2 ? Color::white : Color::black;
    std::vector<int> squares(t.squares);
    for (int i = 0; i < t.squares; ++i) squares[i] = t.bit_of_square[i];
    std::shuffle(squares.begin(), squares.end(), rng);
    const Bitboard white_promotion = t.row(t.height - 1), black_promotion = t.row(0);
    std::size_t next = 0;
    for (Color c : {Color::white, Color::black}) {
        const int n = static_cast<int>(rng() % (v.info().pieces_per_side + 1));
        for (int placed = 0; placed < n && next < squares.size(); ++next) {
            const Bitboard b = bit(squares[next]);
            const bool on_promotion =
                (b & (c == Color::white ? white_promotion : black_promotion)) != 0;
            const bool king = on_promotion || rng() % 3 == 0;
            p.pieces[index_of(c)] |= b;
            if (king) p.kings |= b;
            ++placed;
        }
    }
    return p;
}

TEST(Fen, RandomRoundTripEveryVariant) {
    std::mt19937 rng(20240611);
    for (const Variant& v : all_variants()) {
        for (int i = 0; i < 400; ++i) {
            const Position p = random_position(v, rng);
            const std::string written = independent_fen(v, p, rng);
            const Position parsed = parse_fen(v, written);
            ASSERT_EQ(parsed, p) << v.name() << " " << written;
            const std::string printed = to_fen(v, parsed);
            ASSERT_EQ(parse_fen(v, printed), p) << v.name() << " " << printed;
            ASSERT_EQ(to_fen(v, parse_fen(v, printed)), printed) << v.name();
        }
    }
}

// Text quoted in a message: control characters and bytes that are not UTF-8 escaped (a message is
// valid UTF-8, for Python and JSON), well-formed UTF-8 kept, long text cut.
TEST(Printable, EscapesControlsAndBytesThatAreNotUtf8) {
    EXPECT_EQ(printable("a\nb\x1b"), "a\\nb\\x1b");
    EXPECT_EQ(printable("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80"),
              "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80");
    EXPECT_EQ(printable("/tmp/\xff\xfe"), "/tmp/\\xff\\xfe");
    EXPECT_EQ(printable("\xe2\x82"), "\\xe2\\x82");                    // cut short
    EXPECT_EQ(printable("\xc0\xaf"), "\\xc0\\xaf");                    // overlong
    EXPECT_EQ(printable("\xed\xa0\x80"), "\\xed\\xa0\\x80");           // a UTF-16 surrogate
    EXPECT_EQ(printable("\xf4\x90\x80\x80"), "\\xf4\\x90\\x80\\x80");  // beyond U+10FFFF
    EXPECT_EQ(printable(std::string(300, 'a')), std::string(200, 'a').append("..."));
    EXPECT_EQ(printable(printable("\xff")), printable("\xff"));
}

}  // namespace
}  // namespace damas
