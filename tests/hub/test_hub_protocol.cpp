// The Hub protocol's lines, position strings and moves (tools/hub/hub_protocol.hpp,
// hub_game.hpp), checked against the examples of Scan 3.1's protocol.txt.
#include <gtest/gtest.h>

#include "rules/error.hpp"
#include "rules/notation.hpp"
#include "tools/hub/hub_game.hpp"
#include "tools/hub/hub_protocol.hpp"

namespace damas::hub {
namespace {

const Variant international{BaseVariant::international, false};
const Variant english{BaseVariant::english, false};

TEST(HubLine, ReadsCommandsArgumentsFlagsAndQuotedValues) {
    const HubLine l =
        parse_hub_line("id name=Scan version=3.0 author=\"Fabien Letouzey\" country=France\r");
    EXPECT_EQ(l.command, "id");
    ASSERT_EQ(l.arguments.size(), 4u);
    EXPECT_EQ(l.get("author"), "Fabien Letouzey");
    EXPECT_EQ(l.get("country"), "France");
    const HubLine go = parse_hub_line("  go   think ");
    EXPECT_EQ(go.command, "go");
    EXPECT_TRUE(go.has("think"));
    EXPECT_EQ(go.get("think"), "");
    const HubLine pos = parse_hub_line("pos pos=Wbe moves=\"38-15 5-41 48-26\" empty=\"\"");
    EXPECT_EQ(pos.get("moves"), "38-15 5-41 48-26");
    EXPECT_EQ(pos.get("empty"), "");
    EXPECT_FALSE(pos.has("nothing"));
}

TEST(HubLine, BadTextIsReadLeniently) {
    EXPECT_EQ(parse_hub_line("").command, "");
    EXPECT_EQ(parse_hub_line("   ").command, "");
    const HubLine open = parse_hub_line("pos pos=\"Wbbb moves=1");
    EXPECT_EQ(open.get("pos"), "Wbbb moves=1");  // an open quote runs to the end
    const HubLine odd = parse_hub_line("x == = \"\" =a b=");
    EXPECT_EQ(odd.command, "x");
    EXPECT_EQ(odd.get("b"), "");
}

TEST(HubLine, WritesValuesQuotedWhenNeeded) {
    EXPECT_EQ(HubLineWriter("info")
                  .arg("depth", "21")
                  .arg("score", "-0.01")
                  .arg("pv", "32-28 17-22")
                  .arg("empty", "")
                  .arg("eq", "a=b")
                  .flag("flag")
                  .text(),
              "info depth=21 score=-0.01 pv=\"32-28 17-22\" empty=\"\" eq=\"a=b\" flag");
    EXPECT_EQ(HubLineWriter("error").arg("message", "say \"x\"\nnow").text(),
              "error message=\"say 'x' now\"");
    const HubLine back = parse_hub_line(HubLineWriter("info").arg("pv", "1-5 9-14").text());
    EXPECT_EQ(back.get("pv"), "1-5 9-14");
}

TEST(HubVariants, HubNamesAndDamasNames) {
    EXPECT_EQ(variant_of_hub_name("normal"), international);
    EXPECT_EQ(variant_of_hub_name("losing"), (Variant{BaseVariant::international, true}));
    EXPECT_EQ(variant_of_hub_name("english"), english);
    EXPECT_EQ(variant_of_hub_name("russian-giveaway"), (Variant{BaseVariant::russian, true}));
    EXPECT_FALSE(variant_of_hub_name("international"));
    EXPECT_FALSE(variant_of_hub_name("frisian"));
    EXPECT_FALSE(variant_of_hub_name("killer"));
    for (const Variant& v : all_variants()) EXPECT_EQ(variant_of_hub_name(hub_name(v)), v);
    EXPECT_EQ(hub_variant_names().rfind("normal ", 0), 0u);
}

// protocol.txt's first example: the initial position.
TEST(HubPosition, TheInitialPositionAsTheProtocolWritesIt) {
    const std::string initial = "Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww";
    EXPECT_EQ(hub_position(international, initial_position(international)), initial);
    EXPECT_EQ(parse_hub_position(international, initial), initial_position(international));
    // english as pydraughts' HubEngine sends it: its board turned round, the side that moves
    // first (Black) as 'W' on squares 33 - n (Black's 1-12 are characters 21-32).
    EXPECT_EQ(hub_position(english, initial_position(english)),
              "W" + std::string(12, 'b') + std::string(8, 'e') + std::string(12, 'w'));
}

TEST(HubPosition, EveryVariantRoundTripsAndReadsFens) {
    for (const Variant& v : all_variants()) {
        const Position p = initial_position(v);
        const std::string s = hub_position(v, p);
        EXPECT_EQ(s.size(), static_cast<std::size_t>(geometry_tables(v.info()).squares) + 1);
        EXPECT_EQ(parse_hub_position(v, s), p) << v.name();
        EXPECT_EQ(parse_hub_position(v, to_fen(v, p)), p) << v.name();
    }
}

TEST(HubPosition, BadStringsAreErrors) {
    const auto fails = [](std::string_view s, const std::string& part) {
        try {
            parse_hub_position(english, s);
            ADD_FAILURE() << s;
        } catch (const Error& e) {
            EXPECT_NE(std::string(e.what()).find(part), std::string::npos) << e.what();
        }
    };
    fails("W", "33 characters");
    fails("X" + std::string(32, 'e'), "side to move");
    fails("W" + std::string(31, 'e') + "z", "square 32");
    fails("W" + std::string(32, 'e') + "e", "not 34");
    fails("Ww" + std::string(31, 'e'), "");  // a white man on its promotion row
    fails("W:W99:B1", "");
}

// protocol.txt's second example: black to move, a few king moves.
TEST(HubGame, TheProtocolsExampleWithMoves) {
    const DrawRules rules = draw_rules(international, Edition::seed);
    const HubGame g =
        replay_hub_game(international, rules, "BeeeWWeeeeeeeeeeeeeeeeeeeweeeeeeeeewweBeeeeeeeeeBee",
                        "38-15 5-41 48-26");
    EXPECT_EQ(g.plies, 3);
    EXPECT_EQ(to_fen(international, g.position), "W:WK4,25,35,36,K41:BK15,K26");
    EXPECT_EQ(g.counters.plies_since_capture, 3);
}

TEST(HubGame, CapturesAndTheirCountsAndBadMoves) {
    const DrawRules rules = draw_rules(english, Edition::seed);
    // White king 18 takes 15 (landing on 11); the count restarts there.
    const std::string start = "W:WK18,K22:BK15,K1";
    HubGame g = replay_hub_game(english, rules, start, "18x11x15 1-5 22-18");
    EXPECT_EQ(to_fen(english, g.position), "B:WK11,K18:BK5");
    EXPECT_EQ(g.counters.plies_since_capture, 2);
    g = replay_hub_game(english, rules, start, "18x11");  // captures left out: one such move
    EXPECT_EQ(to_fen(english, g.position), "B:WK11,K22:BK1");
    EXPECT_EQ(hub_move(english, parse_hub_move(english, parse_fen(english, start), "18x11")),
              "18x11x15");
    for (const char* bad : {"18-14", "18x11x14", "18x", "x", "99-1", "a-b", "18-11-15-3"})
        EXPECT_THROW(replay_hub_game(english, rules, start, bad), Error) << bad;
}

}  // namespace
}  // namespace damas::hub
