// Whole games between two damas hub processes (hub_client.hpp) under the move-limit rules, from
// positions of HUB_GAMES_PIECES pieces of english, on the database with rule tables that the
// ctest fixture made in HUB_GAMES_DB (tests/hub/CMakeLists.txt): 4 pieces in the fast suite, 5
// in the slow one. The referee here keeps the counts with the library and ends the game; the
// result must be the start's value under the rules.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "index/class_index.hpp"
#include "probe/limits_probe.hpp"
#include "probe/probe.hpp"
#include "rules/movegen.hpp"
#include "rules/notation.hpp"
#include "tests/hub/hub_client.hpp"
#include "tests/support/process.hpp"
#include "tools/hub/hub_game.hpp"

namespace damas {
namespace {

using hub::HubLine;
using test::HubClient;

const Variant english{BaseVariant::english, false};
constexpr int pieces = HUB_GAMES_PIECES;

HubClient start_hub() {
    return HubClient(test::damas_argv({"hub", "-d", HUB_GAMES_DB, "-v", "english"}));
}

MoveList legal_moves(const Position& p) {
    MoveList list;
    MoveGenerator<English>::generate(p, list);
    return list;
}

// The referee of a game between two damas hub processes: each is sent the whole game so far
// (pos with moves, as pydraughts sends it), the counts kept here with the library's
// counters_after; the game ends when the side to move has no move (it loses) or the 40-move
// king rule's count has run out (a draw).
struct GameResult {
    Value for_white = Value::unknown;
    int plies = 0;
};

GameResult play_game(const Position& start) {
    const DrawRules rules = draw_rules(english, Edition::seed);
    HubClient white = start_hub(), black = start_hub();
    Position p = start;
    RuleCounters counts;
    std::string moves;
    for (int ply = 0; ply < 1000; ++ply) {
        if (legal_moves(p).empty()) return {p.side == Color::white ? Value::loss : Value::win, ply};
        if (count_at(rules, p, counts).state.plies_left == 0) return {Value::draw, ply};
        HubClient& mover = p.side == Color::white ? white : black;
        mover.send("pos pos=" + hub::hub_position(english, start) + " moves=\"" + moves + "\"");
        mover.send("level time=10 inc=0.1");
        mover.send("go think");
        const std::vector<HubLine> answer = mover.read_until("done");
        if (answer.empty() || !answer.back().get("move")) return {Value::unknown, ply};
        const std::string text = *answer.back().get("move");
        const Move m = hub::parse_hub_move(english, p, text);
        const Position after = make_move(p, m);
        counts = counters_after(rules, p, m, after, counts);
        p = after;
        if (!moves.empty()) moves += ' ';
        moves += text;
    }
    return {};
}

// A position of class `name` whose value under the rules (the counts starting there) is
// `want`, with White to move and no capture, the first at or after index `from`.
Position game_start(const Tablebase& tb, const char* name, Value want, std::uint64_t from) {
    const DrawRules rules = draw_rules(english, Edition::seed);
    const ClassIndex index(english.info().board, *Material::parse(name));
    for (std::uint64_t i = from; i < index.size(); ++i) {
        const Position p = index.unindex(i);
        const RulesResult r = tb.probe_rules(rules, p, {});
        if (r.ok() && r.answer.rule.value == want &&
            (want == Value::draw || r.answer.pure.plies >= 15) && !legal_moves(p).empty() &&
            !legal_moves(p)[0].is_capture())
            return p;
    }
    ADD_FAILURE() << "no start in " << name;
    return {};
}

// White's men and kings against Black's: a class of `pieces` pieces.
const char* win_class() {
    return pieces == 5 ? "0302" : "0301";  // three kings win against one or two
}
const char* draw_class() {
    return pieces == 5 ? "0212" : "0202";
}

TEST(HubGames, TwoHubsPlayAWonGameToTheWin) {
    const auto tb = Tablebase::open(HUB_GAMES_DB);
    for (const std::uint64_t from : {0, 5000, 20000}) {
        const Position start = game_start(*tb, win_class(), Value::win, from);
        const GameResult r = play_game(start);
        EXPECT_EQ(r.for_white, Value::win) << to_fen(english, start);
        // The winner's line under the rules: the pure DTW at least.
        EXPECT_GE(r.plies, tb->probe_dtw(english, start).plies) << to_fen(english, start);
    }
}

TEST(HubGames, TwoHubsHoldADrawnGameToTheRulesDraw) {
    const auto tb = Tablebase::open(HUB_GAMES_DB);
    const Position start = game_start(*tb, draw_class(), Value::draw, 100);
    const GameResult r = play_game(start);
    EXPECT_EQ(r.for_white, Value::draw) << to_fen(english, start);
    EXPECT_GE(r.plies, 80);  // the 40-move king rule: 80 plies without a capture or man move
}

}  // namespace
}  // namespace damas
