// probe, best and line under the move-limit draw rules: the counts they take, the rule value
// they print beside the pure one, and what they say where the rule tables are missing; on the
// international database of RulesCli and an english one with its rule tables
// (study_cli_fixture.hpp).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <regex>

#include "study_cli_fixture.hpp"

namespace damas {
namespace {

// 2K v K is one row of S000 6.4 (5 moves): every capture ends the game or stays in the row, so
// the rule text alone gives the answer: a win iff the game ends within the plies left.
TEST_F(RulesCli, ProbePrintsThePureAndTheRuleValue) {
    const std::string fen = two_kings_win(5);
    ASSERT_FALSE(fen.empty());
    CliRun r = probe(fen);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out, "win 5\nrules: win 5 under the 5-move rule, 10 plies left\n");
    EXPECT_EQ(r.err, "");
    // Six plies of the ending used: 4 are left, too few for a win in 5; with 5 used, enough.
    r = probe(fen, {"--plies-in-ending", "6"});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out,
              "win 5\nrules: draw under the 5-move rule, 4 plies left\nwin, drawn by the 5-move "
              "rule\n");
    r = probe(fen, {"--plies-in-ending", "5"});
    EXPECT_EQ(r.out, "win 5\nrules: win 5 under the 5-move rule, 5 plies left\n");
    // probe-rules is the same command.
    EXPECT_EQ(probe(fen, {"--plies-in-ending", "6"}, "probe-rules").out,
              probe(fen, {"--plies-in-ending", "6"}).out);

    const CliRun j = probe(fen, {"--plies-in-ending", "6", "--json"});
    EXPECT_EQ(j.exit_code, 0) << j.err;
    std::string expected = "{\"variant\":\"international\",\"fen\":\"";
    expected += fen;
    expected +=
        "\",\"class\":\"0201\",\"value\":\"win\",\"dtw\":5,\"rules\":{\"edition\":\"seed\","
        "\"value\":\"draw\",\"dtr\":null,\"count\":\"the 5-move "
        "rule\",\"plies_left\":4,\"differs\":true,\"exact\":"
        "true,\"summary\":\"win, drawn by the 5-move rule\"}}\n";
    EXPECT_EQ(j.out, expected);

    // Black to move in the same ending: the lone king loses within the plies left, or draws.
    const CliRun b = probe("B:WK1,K2:BK46", {"--json"});
    EXPECT_EQ(b.exit_code, 0) << b.err;
    EXPECT_NE(b.out.find("\"count\":\"the 5-move rule\""), std::string::npos) << b.out;
}

// best and line take the counts and give every move's value under the rules for the side that
// plays it, counting the move: the best move's is the position's.
TEST_F(RulesCli, BestAndLineShowTheRuleValueOfEveryMove) {
    const std::string fen = two_kings_win(5);
    ASSERT_FALSE(fen.empty());
    for (const auto& [used, rule] :
         std::vector<std::pair<std::string, std::string>>{{"5", "win 5"}, {"6", "draw"}}) {
        const CliRun b = probe(fen, {"--plies-in-ending", used}, "best");
        ASSERT_EQ(b.exit_code, 0) << b.err;
        EXPECT_EQ(b.err, "");
        const auto rows = lines(b.out);
        ASSERT_FALSE(rows.empty());
        EXPECT_TRUE(
            std::regex_match(rows[0], std::regex(R"(^\S+ win 5 \(rules: )" + rule + R"(\)$)")))
            << rows[0];
        for (const auto& row : rows)
            EXPECT_TRUE(std::regex_match(
                row,
                std::regex(R"(^\S+ (win \d+|draw|loss \d+) \(rules: (win \d+|draw|loss \d+)\)$)")))
                << row;
        const CliRun l = probe(fen, {"--plies-in-ending", used}, "line");
        ASSERT_EQ(l.exit_code, 0) << l.err;
        const auto line_rows = lines(l.out);
        ASSERT_GE(line_rows.size(), 3u);
        EXPECT_EQ(line_rows[1], "rules: " + rule) << l.out;
        EXPECT_EQ(line_rows[2].rfind("1. " + rows[0] + " B:", 0), 0u) << line_rows[2];
        // The JSON says the same: the best move's rules and its counts after the move.
        const CliRun j = probe(fen, {"--plies-in-ending", used, "--json"}, "best");
        EXPECT_NE(j.out.find("\"counts_after\":{\"plies_since_capture\":1,\"plies_in_ending\":" +
                             std::to_string(std::stoi(used) + 1) + "},\"rules\":{\"value\":\"" +
                             rule.substr(0, rule.find(' ')) + "\""),
                  std::string::npos)
            << j.out;
    }
    // Counts given without the rule tables: an error, as for probe.
    expect_error(study("best", "W:WK18,K19:BK1", {"--plies-since-capture", "3"}),
                 "no rule table 0201.dtr");
}

TEST_F(RulesCli, KingMoveCountOutsideTheEndings) {
    // Man against king (1001) is in no row: the 25-move king rule, 50 plies, counts.
    const CliRun r = probe("W:W28:BK5", {"--plies-since-capture", "10"});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    const auto rows = lines(r.out);
    ASSERT_GE(rows.size(), 2u) << r.out;
    EXPECT_TRUE(std::regex_match(
        rows[1],
        std::regex(
            R"(^rules: (win \d+|draw|loss \d+) under the 25-move king rule, 40 plies left$)")))
        << rows[1];
}

TEST_F(RulesCli, MissingRuleTables) {
    // No counts given: the pure answer, exit 0, one line on stderr saying how to get the rules.
    CliRun r = study("probe", "W:WK18,K19:BK1");
    EXPECT_EQ(r.exit_code, 0);
    EXPECT_TRUE(std::regex_match(r.out, std::regex(R"(^win \d+\n$)"))) << r.out;
    ASSERT_EQ(lines(r.err).size(), 1u) << r.err;
    EXPECT_EQ(r.err.rfind("damas: note: no rule table 0201.dtr", 0), 0u) << r.err;
    EXPECT_NE(r.err.find("damas gen-rules -v english -p 3 -d "), std::string::npos) << r.err;
    // Counts given: the pure answer still, then an error and exit code 2.
    r = study("probe", "W:WK18,K19:BK1", {"--plies-since-capture", "3"});
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_TRUE(std::regex_match(r.out, std::regex(R"(^win \d+\n$)"))) << r.out;
    ASSERT_EQ(lines(r.err).size(), 1u) << r.err;
    EXPECT_EQ(r.err.rfind("damas: error: no rule table 0201.dtr", 0), 0u) << r.err;
    // The edition asked for is not generated.
    r = probe("W:WK1,K2:BK46", {"--edition", "fmjd"});
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("0201.dtr-fmjd"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("--edition fmjd"), std::string::npos) << r.err;
    // A variant without move-limit rules answers the pure value alone, silently.
    const ScratchDir italian_dir("cli-italian");
    test::generate_quietly(Variant{BaseVariant::italian, false}, 2, italian_dir.path);
    r = damas({"probe", "--variant", "italian", "--dir", italian_dir.path.string(), "W:WK5:BK32"});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(lines(r.out).size(), 1u) << r.out;
    EXPECT_EQ(r.err, "");
}

TEST_F(RulesCli, BadCounts) {
    const std::string fen = "W:WK1,K2:BK46";
    expect_error(probe(fen, {"--edition", "fide"}), "unknown edition 'fide'");
    expect_error(probe(fen, {"--plies-in-ending", "-2"}), "must not be negative");
    expect_error(probe(fen, {"--forcada-plies", "4"}), "portuguese");
    expect_error(probe(fen, {"--forcada-side", "white"}), "portuguese");
    expect_error(probe(fen, {"--plies-since-capture", "x"}), "plies-since-capture");
    expect_error(study("probe", "W:WK18,K19:BK1", {"--edition", "fmjd"}), "international only");
}

// An english database of up to 3 pieces with its rule tables (the 40-move rule: a capture or a
// man move restarts the count).
class EnglishRulesCli : public ProbeCli {
  protected:
    static void SetUpTestSuite() {
        ProbeCli::SetUpTestSuite();
        english_dir_ = new ScratchDir("cli-english-rules");
        test::generate_quietly(english, 3, english_dir_->path);
        test::generate_rules_quietly(english, 3, english_dir_->path);
    }
    static void TearDownTestSuite() {
        delete english_dir_;
        english_dir_ = nullptr;
        ProbeCli::TearDownTestSuite();
    }
    static nlohmann::json json_of(const std::string& command, const std::string& fen,
                                  int plies_since_capture) {
        const CliRun r =
            damas({command, "--variant", "english", "--dir", english_dir_->path.string(), fen,
                   "--plies-since-capture", std::to_string(plies_since_capture), "--json"});
        EXPECT_EQ(r.exit_code, 0) << command << " " << fen << ": " << r.err;
        return nlohmann::json::parse(r.out);
    }

    static ScratchDir* english_dir_;
};
ScratchDir* EnglishRulesCli::english_dir_ = nullptr;

// Best first under the rules: wins by shortest distance, draws, losses by longest.
int rule_rank(const nlohmann::json& rules) {
    const std::string v = rules["value"];
    if (v == "win") return rules["dtr"].get<int>();
    if (v == "draw") return 100000;
    return 300000 - rules["dtr"].get<int>();
}

// Each move's rule value in best --json, composed here from probe --json of the position after
// it with the counts after it (docs/draw-rules.md): the mover wins (loses) where the side to move
// after it loses (wins); a capture or man move restarts the count, so it is itself the rule's
// goal (distance 1) when the position after it is decided with the fresh count, else the
// distance is one more than the one after it. The root's own rule value (from its table, for a
// quiet position) is the best of its moves'.
TEST_F(EnglishRulesCli, BestGivesEachMoveTheRuleValueOfThePositionAfterIt) {
    std::vector<std::string> fens{"W:W25,K29:BK30"};
    for (const char* name : {"1101", "1011", "2001", "1002"}) {
        const ClassIndex index(english.info().board, *Material::parse(name));
        const std::uint64_t step = index.size() / 6 + 1;
        for (std::uint64_t i = step / 3; i < index.size(); i += step)
            fens.push_back(to_fen(english, index.unindex(i)));
    }
    int moves_checked = 0, restarts = 0;
    for (const std::string& fen : fens) {
        for (const int used : {0, 70}) {
            const nlohmann::json best = json_of("best", fen, used);
            const nlohmann::json root = json_of("probe", fen, used);
            ASSERT_TRUE(root.contains("rules")) << root;
            int best_rank = 400000;
            for (const nlohmann::json& m : best["moves"]) {
                const int from = *parse_square(english.info(), m["from"].get<std::string>());
                const bool restart =
                    !m["captured"].empty() || (parse_fen(english, fen).kings & bit(from)) == 0;
                const int used_after = restart ? 0 : used + 1;
                const nlohmann::json after = json_of("probe", m["fen_after"], used_after);
                const nlohmann::json& a = after["rules"];
                nlohmann::json expected{{"value", "draw"}, {"dtr", nullptr}};
                if (a["value"] != "draw") {
                    expected["value"] = a["value"] == "loss" ? "win" : "loss";
                    expected["dtr"] = restart ? 1 : a["dtr"].get<int>() + 1;
                }
                EXPECT_EQ(m["rules"], expected) << fen << " counts " << used << " " << m;
                EXPECT_EQ(m["counts_after"]["plies_since_capture"], used_after) << m;
                best_rank = std::min(best_rank, rule_rank(expected));
                ++moves_checked;
                restarts += restart;
            }
            if (!best["moves"].empty()) {
                EXPECT_EQ(rule_rank(root["rules"]), best_rank) << fen << " counts " << used;
            }
        }
    }
    EXPECT_GT(moves_checked, 100);
    EXPECT_GT(restarts, 20);
}

}  // namespace
}  // namespace damas
