// damas hub driven as a GUI drives it (hub_client.hpp), on an english database of up to 3
// pieces with its rule tables: the handshake, positions inside the tablebase (the move, score
// and pv checked against the library's probes), outside it, the proxy in front of a stub
// engine, and bad input. Whole games: test_hub_games.cpp.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "index/class_index.hpp"
#include "probe/limits_probe.hpp"
#include "probe/probe.hpp"
#include "rules/movegen.hpp"
#include "rules/notation.hpp"
#include "tests/hub/hub_client.hpp"
#include "tests/support/cli.hpp"
#include "tests/support/generate.hpp"
#include "tests/support/process.hpp"
#include "tests/support/scratch.hpp"
#include "tools/hub/hub_game.hpp"

namespace damas {
namespace {

using hub::HubLine;
using test::HubClient;

const Variant english{BaseVariant::english, false};

// The pure and rule tables of english up to `pieces`, made once a test process.
class Database {
  public:
    static const std::filesystem::path& folder(int pieces) {
        static test::ScratchDir* dir = nullptr;
        static int made = 0;
        if (made < pieces) {
            if (!dir) dir = new test::ScratchDir("hub");
            test::generate_quietly(english, pieces, dir->path);
            test::generate_rules_quietly(english, pieces, dir->path);
            made = pieces;
        }
        return dir->path;
    }
};

HubClient start_hub(int pieces, std::vector<std::string> extra = {}) {
    std::vector<std::string> args{"hub", "-d", Database::folder(pieces).string(), "-v", "english"};
    args.insert(args.end(), extra.begin(), extra.end());
    return HubClient(test::damas_argv(args));
}

const HubLine* find(const std::vector<HubLine>& lines, const std::string& command) {
    for (const HubLine& l : lines)
        if (l.command == command) return &l;
    return nullptr;
}

// The score pydraughts reads from a win or loss in `plies`: 100 - plies/100, in men.
std::string mate_score(Value v, int plies) {
    char text[16];
    std::snprintf(text, sizeof text, "%s%d.%02d", v == Value::loss ? "-" : "",
                  (10000 - plies) / 100, (10000 - plies) % 100);
    return text;
}

MoveList legal_moves(const Position& p) {
    MoveList list;
    MoveGenerator<English>::generate(p, list);
    return list;
}

// The pv of a won or lost position: legal moves to the end of the game, won by the side that
// was to win.
void expect_line_ends_the_game(Position p, const std::string& pv, Value for_mover) {
    const Color mover = p.side;
    std::size_t start = 0;
    while (start < pv.size()) {
        const std::size_t end = std::min(pv.find(' ', start), pv.size());
        p = make_move(p, hub::parse_hub_move(english, p, pv.substr(start, end - start)));
        start = end + 1;
    }
    EXPECT_TRUE(legal_moves(p).empty()) << pv;
    EXPECT_EQ(p.side == mover, for_mover == Value::loss) << pv;
}

TEST(Hub, HandshakeAsTheProtocolHasIt) {
    HubClient hub = start_hub(3);
    hub.send("hub");
    const std::vector<HubLine> hello = hub.read_until("wait");
    ASSERT_FALSE(hello.empty());
    ASSERT_EQ(hello.front().command, "id");
    EXPECT_EQ(hello.front().get("name"), "damas");
    EXPECT_TRUE(hello.front().get("version").has_value());
    bool variant = false;
    for (const HubLine& l : hello)
        if (l.command == "param" && l.get("name") == "variant") {
            variant = true;
            EXPECT_EQ(l.get("value"), "english");
            EXPECT_EQ(l.get("type"), "enum");
            for (const char* name : {"normal ", "losing ", "english ", "russian-giveaway"})
                EXPECT_NE(l.get("values")->find(name), std::string::npos) << name;
        }
    EXPECT_TRUE(variant);
    hub.send("set-param name=variant value=english");
    hub.send("init");
    EXPECT_EQ(hub.read_line(), "ready");
    hub.send("ping");
    EXPECT_EQ(hub.read_line(), "pong");
    hub.send("new-game");
    hub.send("quit");
    EXPECT_FALSE(hub.read_line());  // quit: nothing more, the process ends
    EXPECT_EQ(hub.end(), 0);
}

// Every 3-piece position of two classes: the move played is one the rule probe ranks best, the
// score is the DTW as a mate, the pv starts with the move and ends the game.
TEST(Hub, InsideTheTablebaseItPlaysTheBestMoveUnderTheRules) {
    const std::filesystem::path& db = Database::folder(3);
    const auto tb = Tablebase::open(db);
    const DrawRules rules = draw_rules(english, Edition::seed);
    HubClient hub = start_hub(3);
    int checked = 0;
    for (const char* name : {"0201", "0111"}) {
        const ClassIndex index(english.info().board, *Material::parse(name));
        for (std::uint64_t i = 0; i < index.size(); i += 97) {
            const Position p = index.unindex(i);
            const MoveList moves = legal_moves(p);
            if (moves.empty()) continue;
            const ProbeResult pure = tb->probe_dtw(english, p);
            const RulesResult ruled = tb->probe_rules(rules, p, {});
            ASSERT_TRUE(pure.ok() && ruled.ok()) << to_fen(english, p);
            hub.send("pos pos=" + hub::hub_position(english, p));
            hub.send("level move-time=1");
            hub.send("go think");
            const std::vector<HubLine> answer = hub.read_until("done");
            const HubLine* info = find(answer, "info");
            ASSERT_TRUE(info) << to_fen(english, p);
            const Move played = hub::parse_hub_move(english, p, *answer.back().get("move"));
            // The move keeps the position's value under the rules (the opponent's is reversed)
            // and, of the moves that do, it is the first in the pure order (the shortest win).
            const RulesResult after =
                tb->probe_rules(rules, make_move(p, played),
                                counters_after(rules, p, played, make_move(p, played), {}));
            ASSERT_TRUE(after.ok());
            const Outcome before = ruled.answer.rule, next = after.answer.rule;
            const Value reversed = before.value == Value::win    ? Value::loss
                                   : before.value == Value::loss ? Value::win
                                                                 : Value::draw;
            EXPECT_EQ(next.value, reversed) << to_fen(english, p);
            std::vector<RootMove> root;
            ASSERT_EQ(tb->probe_root(english, p, root, &rules, {}), ProbeStatus::ok);
            for (const RootMove& m : root)
                if (m.rule && m.rule->value == before.value) {
                    EXPECT_EQ(m.move, played) << to_fen(english, p);
                    break;
                }
            const std::string want_score =
                pure.value == Value::draw ? "0.00" : mate_score(pure.value, pure.plies);
            if (before.value == pure.value) {
                EXPECT_EQ(info->get("score"), want_score);
            }
            const std::string pv = *info->get("pv");
            EXPECT_EQ(pv.substr(0, pv.find(' ')), *answer.back().get("move"));
            if (before.value != Value::draw) expect_line_ends_the_game(p, pv, before.value);
            EXPECT_EQ(std::stoi(*info->get("depth")), std::count(pv.begin(), pv.end(), ' ') + 1);
            EXPECT_TRUE(info->get("tablebase").has_value());
            ++checked;
        }
    }
    EXPECT_GT(checked, 20);
}

TEST(Hub, OutsideTheTablebaseItPlaysALegalMoveAndSaysSo) {
    HubClient hub = start_hub(3);
    const Position start = initial_position(english);
    hub.send("pos pos=" + hub::hub_position(english, start) + " moves=\"11-15 23-19\"");
    hub.send("go think");
    const std::vector<HubLine> answer = hub.read_until("done");
    ASSERT_FALSE(answer.empty());
    EXPECT_EQ(find(answer, "info")->get("tablebase"), "outside the tablebase");
    Position p = make_move(start, hub::parse_hub_move(english, start, "11-15"));
    p = make_move(p, hub::parse_hub_move(english, p, "23-19"));
    EXPECT_NO_THROW(hub::parse_hub_move(english, p, *answer.back().get("move")));
}

TEST(HubProxy, PassesTheEngineThroughAndAnswersInsideTheTablebase) {
    HubClient proxy = start_hub(3, {"--engine", STUB_HUB_ENGINE});
    std::set<std::string> seen;  // what the stub says it was sent
    const auto read_until = [&](const std::string& command) {
        std::vector<HubLine> lines = proxy.read_until(command);
        for (const HubLine& l : lines)
            if (l.command == "seen") seen.insert(*l.get("command"));
        return lines;
    };
    proxy.send("hub");
    const std::vector<HubLine> hello = read_until("wait");
    ASSERT_FALSE(hello.empty());
    EXPECT_EQ(hello.front().get("name"), "stub");  // the engine's id, not damas's
    proxy.send("set-param name=variant value=english");
    proxy.send("init");
    EXPECT_FALSE(read_until("ready").empty());
    // Inside: damas answers, the engine never sees the go.
    const Position inside = parse_fen(english, "W:WK18,K22:BK5");
    proxy.send("pos pos=" + hub::hub_position(english, inside));
    proxy.send("go think");
    std::vector<HubLine> answer = read_until("done");
    ASSERT_FALSE(answer.empty());
    EXPECT_NO_THROW(hub::parse_hub_move(english, inside, *answer.back().get("move")));
    EXPECT_TRUE(find(answer, "info")->get("tablebase").has_value());
    proxy.send("stop");  // after damas's answer: not passed on
    // Outside: the engine's answer comes back unchanged.
    proxy.send("pos pos=" + hub::hub_position(english, initial_position(english)));
    proxy.send("go think");
    answer = read_until("done");
    ASSERT_FALSE(answer.empty());
    EXPECT_EQ(answer.back().get("move"), "stub");
    EXPECT_EQ(find(answer, "info")->get("score"), "0.12");
    // Commands pass on, unknown ones too.
    proxy.send("frobnicate now");
    proxy.send("ping");
    read_until("pong");
    EXPECT_TRUE(seen.count("frobnicate"));
    EXPECT_TRUE(seen.count("set-param"));
    EXPECT_TRUE(seen.count("pos"));
    EXPECT_FALSE(seen.count("stop"));
    proxy.send("quit");
    EXPECT_EQ(proxy.end(), 0);
}

TEST(HubProxy, TheEngineDyingEndsTheProxy) {
    HubClient proxy = start_hub(3, {"--engine", STUB_HUB_ENGINE});
    proxy.send("die");
    EXPECT_FALSE(proxy.read_line());
    const int status = proxy.end();
    EXPECT_TRUE(WIFEXITED(status));
    EXPECT_EQ(WEXITSTATUS(status), 1);
}

// A GUI that sends faster than the engine reads, while the engine answers every line: the proxy
// keeps reading the engine's answers while its lines wait, so neither side blocks the other.
// (Writing each line to the engine at once, it blocked on the engine's full input while the
// engine blocked on its full output.)
TEST(HubProxy, AFloodBothWaysDoesNotBlock) {
    HubClient proxy = start_hub(3, {"--engine", STUB_HUB_ENGINE});
    constexpr int lines = 30000;
    int seen = 0;
    std::thread gui_reads([&] {
        while (seen < lines) {
            const auto line = proxy.read_line();
            if (!line) return;  // 20 s without a line: blocked
            if (line->rfind("seen command=flood", 0) == 0) ++seen;
        }
    });
    for (int i = 0; i < lines; ++i) proxy.send("flood");
    gui_reads.join();
    EXPECT_EQ(seen, lines);
    proxy.send("quit");
    EXPECT_EQ(proxy.end(), 0);
}

TEST(HubProxy, AnEngineThatCannotStartIsAnError) {
    const test::CliRun r = test::run_cli(
        {"hub", "-d", Database::folder(3).string(), "--engine", "/no/such/engine hub"});
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("cannot start"), std::string::npos) << r.err;
}

TEST(HubBadInput, IsAnsweredNeverACrash) {
    HubClient hub = start_hub(3);
    hub.send("");
    hub.send("garbage \"unclosed");
    hub.send("= = =");
    hub.send(std::string(100000, 'x'));
    hub.send("pos");
    std::optional<std::string> line = hub.read_line();
    ASSERT_TRUE(line);
    EXPECT_EQ(line->rfind("error message=", 0), 0u) << *line;
    hub.send("pos pos=Wxyz");
    line = hub.read_line();
    ASSERT_TRUE(line);
    EXPECT_NE(line->find("33 characters"), std::string::npos) << *line;
    hub.send("go think");  // no position: an error, then done with no move
    std::vector<HubLine> answer = hub.read_until("done");
    ASSERT_FALSE(answer.empty());
    EXPECT_EQ(answer.front().command, "error");
    EXPECT_FALSE(answer.back().get("move"));
    hub.send("pos pos=W:WK18,K22:BK5 moves=\"18-14 1-5\"");  // black has no king on 1
    line = hub.read_line();
    ASSERT_TRUE(line);
    EXPECT_NE(line->find("move 2"), std::string::npos) << *line;
    hub.send("set-param name=variant value=frisian");
    line = hub.read_line();
    ASSERT_TRUE(line);
    EXPECT_EQ(line->rfind("error", 0), 0u);
    hub.send("set-param name=variant value=english");
    hub.send("pos pos=W:WK18,K22:BK5");
    hub.send("go analyze");
    answer = hub.read_until("done");
    ASSERT_FALSE(answer.empty());
    EXPECT_TRUE(answer.back().get("move"));
    hub.send("stop");
    hub.send("ponder-hit");
    hub.send("ping");
    EXPECT_EQ(hub.read_line(), "pong");
    EXPECT_EQ(hub.end(), 0);  // the end of its input: it quits
}

TEST(HubBadInput, CommandLineErrors) {
    const test::CliRun r =
        test::run_cli({"hub", "-d", Database::folder(3).string(), "-v", "frisian"});
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("unknown variant"), std::string::npos) << r.err;
    const test::CliRun r2 = test::run_cli({"hub", "-d", "/no/such/folder"});
    EXPECT_EQ(r2.exit_code, 2);
}

}  // namespace
}  // namespace damas
