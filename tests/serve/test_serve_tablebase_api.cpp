// `damas serve`'s lichess-shaped tablebase API (GET /{variant}?fen=...) against its /api/v1 answer
// for the same position. EveryVariant: the server over every variant's tables of 3 pieces (and
// their rule tables); at 40 seeded random positions of each variant, with counts near the
// king-move limit too, each answer is checked field by field against /api/v1's, whose move values
// come from Tablebase::probe_root, while the lichess-shaped answer probes the position after each
// move: two methods. The order of the moves is checked against lichess's sort key as its source
// states it (lila-tablebase, src/response.rs, MoveInfo::sort_key), read from the answer's own
// fields. TablebaseApi, over a few small folders: unknown classes, a missing rule table, a cursed
// win and a blessed loss, lidraughts' names, the keys, bad requests.
#include <gtest/gtest.h>
#include <httplib.h>
#include <signal.h>

#include <algorithm>
#include <array>
#include <nlohmann/json.hpp>
#include <random>
#include <set>

#include "index/material.hpp"
#include "limits/draw_rules.hpp"
#include "rules/error.hpp"
#include "rules/notation.hpp"
#include "tests/serve/server_process.hpp"
#include "tests/support/generate.hpp"
#include "tests/support/process.hpp"
#include "tests/support/scratch.hpp"

namespace damas {
namespace {

using nlohmann::json;
const Variant tablebase_english{BaseVariant::english, false};
const Variant russian{BaseVariant::russian, false};

using test::ServerProcess;

// The server over a folder the suite makes; one suite at a time holds it.
class ServedFolder : public testing::Test {
  protected:
    template <class Make>
    static void start(const Make& make) {
        dir_ = new test::ScratchDir("serve-tablebase");
        make(dir_->path);
        server_ = new ServerProcess(dir_->path);
    }
    static void TearDownTestSuite() {
        delete server_;
        delete dir_;
        server_ = nullptr;
        dir_ = nullptr;
    }

    struct Reply {
        int status = 0;
        json body;
        std::string text;
    };
    static Reply get(const std::string& target) {
        httplib::Client client("127.0.0.1", server_->port());
        const auto r = client.Get(target.c_str());
        if (!r) return {-1, {}, {}};
        return {r->status, json::parse(r->body, nullptr, false), r->body};
    }
    static std::string query(const std::string& fen, int plies_since_capture) {
        return "?fen=" + httplib::detail::encode_query_param(fen) +
               "&plies_since_capture=" + std::to_string(plies_since_capture);
    }
    static void expect_error(const Reply& r, int status, const std::string& part) {
        EXPECT_EQ(r.status, status) << r.text;
        ASSERT_TRUE(r.body.is_object()) << r.text;
        ASSERT_TRUE(r.body.contains("error")) << r.text;
        EXPECT_EQ(r.body.size(), 1u) << r.text;
        EXPECT_NE(r.body["error"].get<std::string>().find(part), std::string::npos) << r.text;
    }

    static test::ScratchDir* dir_;
    static ServerProcess* server_;
};
test::ScratchDir* ServedFolder::dir_ = nullptr;
ServerProcess* ServedFolder::server_ = nullptr;

// Every variant's tables of 3 pieces and their rule tables (italian and turkish have no rules).
class EveryVariant : public ServedFolder {
  protected:
    static void SetUpTestSuite() {
        start([](const std::filesystem::path& dir) {
            for (const Variant v : all_variants()) {
                test::generate_quietly(v, 3, dir);
                if (draw_rules(v).any()) test::generate_rules_quietly(v, 3, dir);
            }
            // russian 0201's rule table missing: /api/v1 and the lichess-shaped answer both say
            // so, and the categories are the pure ones where it is missing.
            std::filesystem::remove(dir / "russian" / "0201.dtr");
        });
    }
};

// The cases below: english and russian of 3 pieces with their rule tables (english 1002 and
// russian 0201's rule table removed), international (and its giveaway) and turkish of 2 (with
// their rule tables).
class TablebaseApi : public ServedFolder {
  protected:
    static void SetUpTestSuite() {
        start([](const std::filesystem::path& dir) {
            for (const Variant v : {tablebase_english, russian}) {
                test::generate_quietly(v, 3, dir);
                test::generate_rules_quietly(v, 3, dir);
            }
            for (const Variant v : {Variant{BaseVariant::international, false},
                                    Variant{BaseVariant::international, true},
                                    Variant{BaseVariant::turkish, false}}) {
                test::generate_quietly(v, 2, dir);
                if (draw_rules(v).any()) test::generate_rules_quietly(v, 2, dir);
            }
            for (const Metric m : {Metric::wdl, Metric::dtw})
                std::filesystem::remove(table_path(dir, tablebase_english, "1002", m));
            std::filesystem::remove(dir / "russian" / "0201.dtr");
        });
    }
};

// lichess's category of a value for the side to move, from /api/v1's value and rules value.
std::string category(const json& value, const json* rules, bool exact = true) {
    if (value == "draw") return "draw";
    const bool win = value == "win";
    if (!rules || (*rules)["value"] == value) return win ? "win" : "loss";
    if (!exact) return win ? "maybe-win" : "maybe-loss";
    return win ? "cursed-win" : "blessed-loss";
}

std::string opposite(const std::string& c) {
    static const std::map<std::string, std::string> other{{"win", "loss"},
                                                          {"loss", "win"},
                                                          {"cursed-win", "blessed-loss"},
                                                          {"blessed-loss", "cursed-win"},
                                                          {"maybe-win", "maybe-loss"},
                                                          {"maybe-loss", "maybe-win"},
                                                          {"draw", "draw"},
                                                          {"unknown", "unknown"}};
    return other.at(c);
}

// lichess's order of categories for sorting moves (response.rs: loss < unknown < ... < win).
int category_rank(const std::string& c) {
    static const std::vector<std::string> order{"loss", "unknown",    "maybe-loss", "blessed-loss",
                                                "draw", "cursed-win", "maybe-win",  "win"};
    return static_cast<int>(std::find(order.begin(), order.end(), c) - order.begin());
}

// lichess's MoveInfo::sort_key on the answer's fields (dtw read as lichess reads dtm/dtw with
// tightening_metric_sort_key; conversion and zeroing XOR "the opponent wins").
std::array<int, 6> lichess_key(const json& m) {
    const std::string c = m["category"];
    const int d = m["dtw"].is_null() ? 0 : m["dtw"].get<int>();
    const bool positive = c == "win" || c == "maybe-win" || c == "cursed-win";
    return {category_rank(c),
            m["variant_loss"] == true  ? 0
            : m["variant_win"] == true ? 2
                                       : 1,
            d < 0   ? 0
            : d > 0 ? 2
                    : 1,
            -d,
            m["conversion"].get<bool>() != !positive,
            m["zeroing"].get<bool>() != !positive};
}

// The signed DTW lichess writes for /api/v1's value and dtw, for the side to move.
json signed_dtw(const json& value, const json& dtw) {
    if (value == "draw") return 0;
    return value == "win" ? dtw.get<int>() : -dtw.get<int>();
}

std::string two_digits(int n) {
    return (n < 10 ? "0" : "") + std::to_string(n);
}

// The uci /api/v1's move should have: from, to, then the captured squares in increasing order;
// numbers of two digits, or algebraic squares in turkish.
std::string expected_uci(Variant v, const json& m) {
    const VariantInfo& vi = v.info();
    const bool algebraic = v.base == BaseVariant::turkish;
    const auto key = [&](const json& name) {
        const int b = *parse_square(vi, name.get<std::string>());
        return algebraic ? name.get<std::string>() : two_digits(square_number(vi, b));
    };
    std::vector<std::pair<int, std::string>> captured;
    const GeometryTables& t = geometry_tables(vi);
    for (const json& c : m["captured"]) {
        const int b = *parse_square(vi, c.get<std::string>());
        captured.emplace_back(algebraic ? int{t.square_of_bit[b]} : square_number(vi, b), key(c));
    }
    std::sort(captured.begin(), captured.end());
    std::string s = key(m["from"]) + key(m["to"]);
    for (const auto& c : captured) s += c.second;
    return s;
}

// A random position of 2 or 3 pieces of v (nullopt when the rules forbid it).
std::optional<std::string> random_fen(Variant v, std::mt19937& rng) {
    const GeometryTables& g = geometry_tables(v.info());
    std::vector<int> squares(static_cast<std::size_t>(g.squares));
    for (int i = 0; i < g.squares; ++i) squares[static_cast<std::size_t>(i)] = i;
    std::shuffle(squares.begin(), squares.end(), rng);
    const int pieces = 2 + static_cast<int>(rng() % 2);
    Position p;
    p.side = rng() % 2 ? Color::white : Color::black;
    for (int k = 0; k < pieces; ++k) {
        const Bitboard b = bit(g.bit_of_square[squares[static_cast<std::size_t>(k)]]);
        p.pieces[k == 0 || (k == 2 && rng() % 2) ? 0 : 1] |= b;
        if (rng() % 3) p.kings |= b;
    }
    try {
        validate(v, p);
        return to_fen(v, p);
    } catch (const Error&) {
        return std::nullopt;
    }
}

// Checks the lichess-shaped answer `t` against /api/v1's `a` for the same position.
void expect_same(Variant v, const std::string& fen, const json& a, const json& t) {
    SCOPED_TRACE(v.name() + " " + fen + "\n/api/v1: " + a.dump() + "\nlichess: " + t.dump());
    const json* rules = a.contains("rules") ? &a["rules"] : nullptr;
    const bool exact = !rules || (*rules)["exact"] == true;
    EXPECT_EQ(t["category"], category(a["value"], rules, exact));
    EXPECT_EQ(t["dtw"], signed_dtw(a["value"], a["dtw"]));
    EXPECT_EQ(t["mtc"], nullptr);
    EXPECT_EQ(t["variant_win"], a["game_over"] == true && a["value"] == "win");
    EXPECT_EQ(t["variant_loss"], a["game_over"] == true && a["value"] == "loss");
    // A missing rule table of a move's class is said too, where /api/v1 shows no rule values.
    if (a.contains("rules_missing")) {
        EXPECT_TRUE(t.contains("rules_missing"));
    }
    ASSERT_EQ(t["moves"].size(), a["moves"].size());
    const Position p = parse_fen(v, fen);
    std::map<std::string, json> by_text;
    for (const json& m : a["moves"]) by_text[m["move"]] = m;
    ASSERT_EQ(by_text.size(), a["moves"].size());
    for (std::size_t i = 0; i < t["moves"].size(); ++i) {
        const json& m = t["moves"][i];
        ASSERT_TRUE(by_text.contains(m["san"])) << m;
        const json& am = by_text[m["san"]];
        const json* mrules = am.contains("rules") ? &am["rules"] : nullptr;
        // For the opponent after the move: the mover's value and plies, turned over, one less.
        const std::string pure = opposite(category(am["value"], mrules, exact));
        // Each move keeps its own rule value in both answers: where a move's class lacks its rule
        // table, both give that move its pure value only.
        EXPECT_EQ(m["category"], pure) << m;
        const json mover = signed_dtw(am["value"], am["dtw"]);
        const int after = mover.get<int>() == 0  ? 0
                          : mover.get<int>() > 0 ? mover.get<int>() - 1
                                                 : mover.get<int>() + 1;
        EXPECT_EQ(m["dtw"], -after) << m;
        EXPECT_EQ(m["uci"], expected_uci(v, am)) << m;
        const int from = *parse_square(v.info(), am["from"].get<std::string>());
        const bool man = (p.kings & bit(from)) == 0;
        const bool capture = !am["captured"].empty();
        const Position a_after = parse_fen(v, am["fen_after"].get<std::string>());
        const int to = *parse_square(v.info(), am["to"].get<std::string>());
        const bool crowned = man && (a_after.kings & bit(to)) != 0;
        EXPECT_EQ(m["zeroing"], capture || man) << m;
        EXPECT_EQ(m["conversion"], capture || crowned) << m;
        const bool ends = am["dtw"] == 1;
        EXPECT_EQ(m["variant_loss"], ends && am["value"] == "win") << m;
        EXPECT_EQ(m["variant_win"], ends && am["value"] == "loss") << m;
        if (i > 0) {
            EXPECT_LE(lichess_key(t["moves"][i - 1]), lichess_key(m)) << i;
        }
    }
    if (!t["moves"].empty() && !t.contains("rules_missing")) {
        EXPECT_EQ(t["category"], opposite(t["moves"][0]["category"]));
    }
}

TEST_F(EveryVariant, AgreesWithApiV1AtRandomPositions) {
    std::mt19937 rng(43);
    for (const Variant v : all_variants()) {
        const DrawRules rules = draw_rules(v);
        int compared = 0, differing = 0;
        for (int i = 0; i < 400 && compared < 40; ++i) {
            const auto fen = random_fen(v, rng);
            if (!fen) continue;
            const int limit = rules.king_limit_plies;
            const int counts[] = {0, std::max(0, limit - 2), std::max(0, limit - 1)};
            const int count = counts[rng() % 3];
            const Reply a = get("/api/v1/" + v.name() + query(*fen, count));
            const Reply t = get("/" + v.name() + query(*fen, count));
            // Counts that no game reaches at the position: the same 400 for both.
            ASSERT_EQ(t.status, a.status) << v.name() << " " << *fen << a.text << t.text;
            if (a.status == 400) {
                EXPECT_EQ(t.body, a.body);
                continue;
            }
            ASSERT_EQ(a.status, 200) << v.name() << " " << *fen << a.text;
            expect_same(v, *fen, a.body, t.body);
            differing += t.body["category"] == "cursed-win" || t.body["category"] == "blessed-loss";
            ++compared;
        }
        EXPECT_EQ(compared, 40) << v.name();
        RecordProperty(v.name() + "_cursed_or_blessed", differing);
    }
}

TEST_F(TablebaseApi, CursedWinAndBlessedLoss) {
    // Two kings against one, the king-move count one ply from its end: the rules draw the win.
    const int limit = draw_rules(tablebase_english).king_limit_plies;
    Reply r = get("/english" + query("W:WK18,K19:BK1", limit - 1));
    ASSERT_EQ(r.status, 200) << r.text;
    EXPECT_EQ(r.body["category"], "cursed-win");
    EXPECT_GT(r.body["dtw"].get<int>(), 0);
    EXPECT_EQ(r.body["moves"][0]["category"], "blessed-loss");
    r = get("/english" + query("B:WK18,K19:BK1", limit - 1));
    ASSERT_EQ(r.status, 200) << r.text;
    EXPECT_EQ(r.body["category"], "blessed-loss");
    EXPECT_LT(r.body["dtw"].get<int>(), 0);
    // With a fresh count, the same positions are a plain win and loss.
    EXPECT_EQ(get("/english" + query("W:WK18,K19:BK1", 0)).body["category"], "win");
    EXPECT_EQ(get("/english" + query("B:WK18,K19:BK1", 0)).body["category"], "loss");
    EXPECT_EQ(get("/english?fen=W:WK18,K19:BK1").body,
              get("/english" + query("W:WK18,K19:BK1", 0)).body);
}

TEST_F(TablebaseApi, UnknownClassesAndMissingRuleTables) {
    // english 1002 is missing. White to move there: the root's value is unknown, its moves
    // (into 0210) are known, and the category is the best move's turned over, as lichess does.
    Reply r = get("/english?fen=W:W22:BK5,K1");
    ASSERT_EQ(r.status, 200) << r.text;
    EXPECT_EQ(r.body["dtw"], nullptr);
    ASSERT_FALSE(r.body["moves"].empty());
    EXPECT_NE(r.body["moves"][0]["category"], "unknown");
    EXPECT_EQ(r.body["category"], opposite(r.body["moves"][0]["category"]));
    // Black to move (class 0210, present): every move leads into 1002 and is unknown; the
    // root's own value stands.
    r = get("/english?fen=B:W22:BK5,K1");
    ASSERT_EQ(r.status, 200) << r.text;
    EXPECT_NE(r.body["category"], "unknown");
    EXPECT_NE(r.body["dtw"], nullptr);
    ASSERT_FALSE(r.body["moves"].empty());
    for (const json& m : r.body["moves"]) EXPECT_EQ(m["category"], "unknown") << m;
    // Beyond the tables: unknown, as lichess answers, not an error.
    r = get("/english?fen=W:W21,22,23:B9,10,11");
    ASSERT_EQ(r.status, 200) << r.text;
    EXPECT_EQ(r.body["category"], "unknown");
    ASSERT_FALSE(r.body["moves"].empty());
    for (const json& m : r.body["moves"]) EXPECT_EQ(m["dtw"], nullptr) << m;
    // russian 0201's rule table is missing: pure categories, and a sentence that says why
    // without naming the folder.
    r = get("/russian" + query("W:WKb8,Kd8:BKh2", 29));
    ASSERT_EQ(r.status, 200) << r.text;
    ASSERT_TRUE(r.body.contains("rules_missing")) << r.text;
    EXPECT_EQ(r.body["rules_missing"].get<std::string>().find(dir_->path.string()),
              std::string::npos);
    EXPECT_EQ(r.text.find(dir_->path.string()), std::string::npos);
    EXPECT_TRUE(r.body["category"] == "win" || r.body["category"] == "draw" ||
                r.body["category"] == "loss")
        << r.text;
}

TEST_F(TablebaseApi, LidraughtsNamesAndTheShape) {
    const Reply standard = get("/standard?fen=W:WK46:B5");
    const Reply international = get("/international?fen=W:WK46:B5");
    ASSERT_EQ(standard.status, 200) << standard.text;
    EXPECT_EQ(standard.body, international.body);
    EXPECT_EQ(get("/antidraughts?fen=W:WK46:B5").body,
              get("/international-giveaway?fen=W:WK46:B5").body);
    // The keys and their order, as documented.
    const auto b = nlohmann::ordered_json::parse(standard.text);
    std::vector<std::string> keys;
    for (auto it = b.begin(); it != b.end(); ++it) keys.push_back(it.key());
    EXPECT_EQ(keys, (std::vector<std::string>{"variant_win", "variant_loss", "dtw", "mtc",
                                              "category", "moves"}));
    ASSERT_FALSE(b["moves"].empty());
    keys.clear();
    for (auto it = b["moves"][0].begin(); it != b["moves"][0].end(); ++it) keys.push_back(it.key());
    EXPECT_EQ(keys, (std::vector<std::string>{"uci", "san", "zeroing", "conversion", "variant_win",
                                              "variant_loss", "dtw", "mtc", "category"}));
    // A capture's uci: from, to, the captured square.
    const Reply capture = get("/international?fen=W:W28:B23");
    ASSERT_EQ(capture.status, 200) << capture.text;
    ASSERT_EQ(capture.body["moves"].size(), 1u);
    EXPECT_EQ(capture.body["moves"][0]["uci"], "281923");
    EXPECT_EQ(capture.body["moves"][0]["san"], "28x19");
    EXPECT_EQ(capture.body["moves"][0]["variant_loss"], true);  // Black has no piece left
    EXPECT_EQ(capture.body["category"], "win");
    EXPECT_EQ(capture.body["dtw"], 1);
    // Turkish: algebraic squares, as chess UCI.
    const Reply turkish = get("/turkish?fen=W:Wa3:Bh7");
    ASSERT_EQ(turkish.status, 200) << turkish.text;
    std::set<std::string> ucis;
    for (const json& m : turkish.body["moves"]) ucis.insert(m["uci"]);
    EXPECT_TRUE(ucis.contains("a3a4")) << turkish.text;
    // A game over: no move for the side to move.
    const Reply over = get("/english?fen=B:W22:B");
    if (over.status == 200) {
        EXPECT_EQ(over.body["variant_loss"], true) << over.text;
        EXPECT_EQ(over.body["category"], "loss");
        EXPECT_TRUE(over.body["moves"].empty());
    }
}

TEST_F(TablebaseApi, BadRequests) {
    expect_error(get("/frisian?fen=W:W28:B23"), 404, "unknown variant");
    expect_error(get("/nochess?fen=W:W28:B23"), 404, "unknown variant");
    expect_error(get("/italian?fen=W:W21:B9"), 404, "no italian tables");
    expect_error(get("/english"), 400, "missing parameter fen");
    expect_error(get("/english?fen="), 400, "missing parameter fen");
    expect_error(get("/english?fen=W:W99:B9"), 400, "99");
    expect_error(get("/english?fen=X:W21:B9"), 400, "");
    expect_error(get("/english?fen=" + std::string(1000, '1')), 400, "longer");
    expect_error(get("/english" + query("W:W21:B9", -1)), 400, "plies_since_capture");
    expect_error(get("/english?fen=W:W21:B9&plies_in_ending=abc"), 400, "plies_in_ending");
    expect_error(get("/english?fen=W:W21:B9&edition=wrong"), 400, "edition");
    expect_error(get("/english?fen=W:W21:B9&forcada_plies=2"), 400, "forcada");
    expect_error(get("/english/mainline?fen=W:W21:B9"), 404, "");
    // No answer names the folder, not even an error's.
    for (const char* target : {"/nochess?fen=W:W28:B23", "/english?fen=W:W99:B9"})
        EXPECT_EQ(get(target).text.find(dir_->path.string()), std::string::npos) << target;
}

}  // namespace
}  // namespace damas
