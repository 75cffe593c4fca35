// The damas binary on the rules commands: bad input gives one line on stderr naming the problem,
// exit code 2 and nothing on stdout; --help works; `moves` and `perft` print what they should,
// in text and in JSON.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <string>
#include <vector>

#include "tests/support/cli.hpp"
#include "tests/support/scratch.hpp"

namespace {

using damas::test::CliRun;
using damas::test::lines;
using damas::test::run_cli;

std::vector<std::string> sorted_lines(const std::string& text) {
    std::vector<std::string> l = lines(text);
    std::sort(l.begin(), l.end());
    return l;
}

struct BadInput {
    std::string name;  // of the test case
    std::vector<std::string> args;
    std::string names;  // what the error line must mention
};

class BadInputTest : public ::testing::TestWithParam<BadInput> {};

TEST_P(BadInputTest, OneLineOnStderrExitCode2NothingOnStdout) {
    const CliRun r = run_cli(GetParam().args);
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_EQ(r.out, "");
    ASSERT_EQ(lines(r.err).size(), 1u) << r.err;
    EXPECT_EQ(r.err.back(), '\n');
    EXPECT_NE(r.err.find(GetParam().names), std::string::npos) << r.err;
}

const std::vector<BadInput> bad_inputs = {
    {"UnknownVariant", {"moves", "--variant", "checkers"}, "unknown variant 'checkers'"},
    {"UnknownGiveawayVariant",
     {"perft", "--variant", "international-giveaway-x", "--depth", "1"},
     "unknown variant"},
    {"MalformedFenNoColon",
     {"moves", "--variant", "international", "--fen", "W31-50:B1-20"},
     "malformed FEN"},
    {"MalformedFenFourFields",
     {"moves", "--variant", "international", "--fen", "W:W31-50:B1-20:W"},
     "malformed FEN"},
    {"SquareOffTheBoard", {"moves", "--variant", "international", "--fen", "W:W51:B1"}, "'51'"},
    {"EnglishSquare33", {"moves", "--variant", "english", "--fen", "B:W21-33:B1-12"}, "33"},
    {"LightSquare", {"moves", "--variant", "brazilian", "--fen", "W:Wb1:Bb8"}, "'b1'"},
    {"TurkishRank9", {"moves", "--variant", "turkish", "--fen", "W:Wa9:Ba7"}, "'a9'"},
    {"WhiteManOnPromotionRow",
     {"moves", "--variant", "international", "--fen", "W:W3:B20"},
     "promotion row"},
    {"BlackManOnPromotionRow",
     {"moves", "--variant", "english", "--fen", "B:W21:B30"},
     "promotion row"},
    {"TwoPiecesOnOneSquare",
     {"moves", "--variant", "international", "--fen", "W:W31,31:B1"},
     "two pieces"},
    {"ManAndKingOnOneSquare",
     {"moves", "--variant", "international", "--fen", "W:W31:BK31"},
     "two pieces"},
    {"TooManyWhitePieces",
     {"moves", "--variant", "international", "--fen", "W:W21-41:B1"},
     "too many white"},
    {"TooManyBlackPieces",
     {"perft", "--variant", "turkish", "--depth", "1", "--fen",
      "W:Wa1:Ba2,b2,c2,d2,e2,f2,g2,h2,a3,b3,c3,d3,e3,f3,g3,h3,a4"},
     "too many black"},
    {"BadSideToMove",
     {"moves", "--variant", "international", "--fen", "X:W31:B1"},
     "side to move 'X'"},
    {"DepthZero", {"perft", "--variant", "english", "--depth", "0"}, "depth"},
};

INSTANTIATE_TEST_SUITE_P(Cli, BadInputTest, ::testing::ValuesIn(bad_inputs),
                         [](const auto& test_info) { return test_info.param.name; });

TEST(CliHelp, EveryCommand) {
    for (const std::vector<std::string>& args :
         {std::vector<std::string>{"--help"}, {"perft", "--help"}, {"moves", "--help"}}) {
        const CliRun r = run_cli(args);
        EXPECT_EQ(r.exit_code, 0) << args.front();
        EXPECT_NE(r.out.find("--help"), std::string::npos) << r.out;
        EXPECT_EQ(r.err, "");
    }
    EXPECT_NE(run_cli({"perft", "--help"}).out.find("--depth"), std::string::npos);
    EXPECT_NE(run_cli({"moves", "--help"}).out.find("--fen"), std::string::npos);
}

// International, a white king on a1 (46), a black man on c3 (37): the king takes it and lands
// on any square of the long diagonal beyond, d4 (32) .. j10 (5).
TEST(CliMoves, FlyingKingCapture) {
    const CliRun r = run_cli({"moves", "--variant", "international", "--fen", "W:WK46:B37"});
    EXPECT_EQ(r.exit_code, 0);
    EXPECT_EQ(sorted_lines(r.out), (std::vector<std::string>{"46x10", "46x14", "46x19", "46x23",
                                                             "46x28", "46x32", "46x5"}));
}

// Brazilian initial position: the men of row 3 step forward, in algebraic notation.
TEST(CliMoves, BrazilianInitialPosition) {
    const CliRun r = run_cli({"moves", "--variant", "brazilian"});
    EXPECT_EQ(r.exit_code, 0);
    EXPECT_EQ(sorted_lines(r.out), (std::vector<std::string>{"a3-b4", "c3-b4", "c3-d4", "e3-d4",
                                                             "e3-f4", "g3-f4", "g3-h4"}));
}

// The king on c3 goes round f6, f8, d8, d6 either way (see test_rules_captures): merged, one
// line per landing square; with --keep-duplicates, two lines each, told apart by the captures.
TEST(CliMoves, KeepDuplicatesPrintsCapturedSquares) {
    const std::string fen = "W:WK37:B32,23,13,12,22,33";
    const CliRun merged = run_cli({"moves", "--variant", "international", "--fen", fen});
    EXPECT_EQ(sorted_lines(merged.out), (std::vector<std::string>{"37x39", "37x44", "37x50"}));
    const CliRun apart =
        run_cli({"moves", "--variant", "international", "--fen", fen, "--keep-duplicates"});
    const std::vector<std::string> l = lines(apart.out);
    ASSERT_EQ(l.size(), 6u) << apart.out;
    for (const std::string& line : l) EXPECT_NE(line.find('['), std::string::npos) << line;
}

TEST(CliPerft, EnglishInitialDepth3) {
    const CliRun r = run_cli({"perft", "--variant", "english", "--depth", "3"});
    EXPECT_EQ(r.exit_code, 0);
    EXPECT_EQ(r.out, "1 7\n2 49\n3 302\n");
}

// A minimal JSON checker: true when `text` is exactly one JSON value.
class JsonChecker {
  public:
    explicit JsonChecker(const std::string& text) : s_(text) {}
    bool valid() {
        space();
        if (!value()) return false;
        space();
        return i_ == s_.size();
    }

  private:
    bool value() {
        space();
        if (i_ >= s_.size()) return false;
        const char c = s_[i_];
        if (c == '{') return container('}', true);
        if (c == '[') return container(']', false);
        if (c == '"') return string();
        if (c == '-' || std::isdigit(static_cast<unsigned char>(c))) return number();
        for (const char* word : {"true", "false", "null"})
            if (s_.compare(i_, std::string(word).size(), word) == 0) {
                i_ += std::string(word).size();
                return true;
            }
        return false;
    }
    bool container(char close, bool object) {
        ++i_;
        space();
        if (i_ < s_.size() && s_[i_] == close) return ++i_, true;
        for (;;) {
            if (object) {
                space();
                if (!string()) return false;
                space();
                if (i_ >= s_.size() || s_[i_++] != ':') return false;
            }
            if (!value()) return false;
            space();
            if (i_ >= s_.size()) return false;
            if (s_[i_] == close) return ++i_, true;
            if (s_[i_++] != ',') return false;
        }
    }
    bool string() {
        if (i_ >= s_.size() || s_[i_] != '"') return false;
        for (++i_; i_ < s_.size(); ++i_) {
            if (s_[i_] == '\\')
                ++i_;
            else if (s_[i_] == '"')
                return ++i_, true;
            else if (static_cast<unsigned char>(s_[i_]) < 0x20)
                return false;
        }
        return false;
    }
    bool number() {
        const std::size_t start = i_;
        if (s_[i_] == '-') ++i_;
        while (i_ < s_.size() &&
               (std::isdigit(static_cast<unsigned char>(s_[i_])) || s_[i_] == '.' ||
                s_[i_] == 'e' || s_[i_] == 'E' || s_[i_] == '+' || s_[i_] == '-'))
            ++i_;
        return i_ > start + (s_[start] == '-' ? 1 : 0);
    }
    void space() {
        while (i_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[i_]))) ++i_;
    }
    const std::string& s_;
    std::size_t i_ = 0;
};

TEST(CliJson, CheckerRejectsBrokenJson) {
    for (const char* bad : {"", "{", "{\"a\":}", "[1,]", "{\"a\" 1}", "[1] 2", "\"x"})
        EXPECT_FALSE(JsonChecker(bad).valid()) << bad;
    EXPECT_TRUE(JsonChecker("{\"a\":[1,-2.5e3,true,null,\"\\\"\"],\"b\":{}}").valid());
}

// Brazilian: majority rule, e3 takes f4 and f6 (see test_rules_precedence).
TEST(CliJson, MovesFields) {
    const CliRun r =
        run_cli({"moves", "--variant", "brazilian", "--fen", "W:Wc3,e3:Bb4,f4,f6", "--json"});
    EXPECT_EQ(r.exit_code, 0);
    EXPECT_TRUE(JsonChecker(r.out).valid()) << r.out;
    for (const char* field : {"\"variant\":\"brazilian\"", "\"move\":\"e3:e7\"",
                              "\"captured\":[\"f4\",\"f6\"]", "\"fen_after\":\"B:Wc3,e7:Bb4\""})
        EXPECT_NE(r.out.find(field), std::string::npos) << field << " in " << r.out;
    EXPECT_EQ(r.out.find("c3:a5"), std::string::npos);
}

TEST(CliJson, PerftFields) {
    const CliRun r = run_cli({"perft", "--variant", "russian", "--depth", "2", "--json"});
    EXPECT_EQ(r.exit_code, 0);
    EXPECT_TRUE(JsonChecker(r.out).valid()) << r.out;
    EXPECT_NE(r.out.find("\"variant\":\"russian\""), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("\"nodes\":49"), std::string::npos) << r.out;
}

}  // namespace
