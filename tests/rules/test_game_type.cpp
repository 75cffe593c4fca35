// PDN's GameType numbers (rules/game_type.hpp) against the list issue 43 quotes from PDN 3.0:
// 20 international, 21 english, 22 italian, 25 russian, 26 brazilian, 28 portuguese, 30 turkish.
#include <gtest/gtest.h>

#include "rules/game_type.hpp"

namespace damas {
namespace {

TEST(GameType, TheNumbersOfPdn) {
    const std::pair<const char*, int> expected[] = {
        {"international", 20}, {"english", 21},    {"italian", 22}, {"russian", 25},
        {"brazilian", 26},     {"portuguese", 28}, {"turkish", 30}};
    for (const auto& [name, number] : expected) {
        const Variant v = *parse_variant(name);
        EXPECT_EQ(game_type_number(v), number) << name;
        EXPECT_EQ(variant_of_game_type(std::to_string(number)), v) << name;
    }
}

TEST(GameType, GiveawayHasNoneAndOddTagsNameNothing) {
    for (const Variant& v : all_variants()) {
        if (v.giveaway) {
            EXPECT_FALSE(game_type_number(v)) << v.name();
        }
    }
    EXPECT_EQ(variant_of_game_type("20,W,10,10,N2,0"), parse_variant("international"));
    EXPECT_EQ(variant_of_game_type(" 21"), parse_variant("english"));
    for (const char* odd : {"", "x", "40", "0", "200", "2", "-20", "99999999999", ",20"})
        EXPECT_FALSE(variant_of_game_type(odd)) << odd;
}

}  // namespace
}  // namespace damas
