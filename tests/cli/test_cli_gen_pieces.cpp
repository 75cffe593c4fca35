// How many pieces gen and gen-rules take (2 to 10, index/material.hpp's max_class_pieces): 9 and
// 10 accepted and planned with every size, 11 or a class beyond what tables hold refused with one
// clear line; and index and unindex on 10-piece classes past 2^32 positions.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "tests/support/cli.hpp"
#include "tests/support/scratch.hpp"

namespace {

using damas::test::CliRun;

CliRun run_damas(const std::string& args) {
    return damas::test::run_shell(damas::test::damas_command(args));
}

std::string last_line_of(const std::string& s) {
    const auto end = s.find_last_not_of('\n');
    const auto start = s.rfind('\n', end);
    const auto from = start == std::string::npos ? 0 : start + 1;
    return s.substr(from, end - from + 1);
}

class GenPieces : public testing::Test {
  protected:
    // Where a command would write, were it not refused or a plan.
    std::string in_scratch(const std::string& args) const {
        return args + " -d " + dir.path.string();
    }
    damas::test::ScratchDir dir{"gen-pieces"};
};

// The plan's entry for a pair, from `--plan --json`.
nlohmann::json pair_of(const nlohmann::json& plan, const std::string& name) {
    for (const auto& p : plan["pairs"])
        if (p["pair"] == name || p["mirror"] == name) return p;
    return {};
}

TEST_F(GenPieces, NineAndTenPiecesArePlannedWithEverySize) {
    const CliRun ten =
        run_damas(in_scratch("gen -v english -p 10 -c 0901 --metric mtc --plan --json"));
    ASSERT_EQ(ten.exit_code, 0) << ten.err;
    const auto plan = nlohmann::json::parse(ten.out);
    // C(32, 9) x 23 positions a class, the class and its mirror.
    EXPECT_EQ(pair_of(plan, "0901")["positions"], 2 * 645'122'400ull) << ten.out;
    EXPECT_GT(plan["disk_bytes"].get<std::uint64_t>(), 0u);
    EXPECT_EQ(plan["disk_bytes"].get<std::uint64_t>(),
              plan["wdl_bytes"].get<std::uint64_t>() + plan["distance_bytes"].get<std::uint64_t>() +
                  plan["unit_bytes"].get<std::uint64_t>());
    EXPECT_NE(plan["disk_model"].get<std::string>().find("english 0404"), std::string::npos);
    EXPECT_GT(plan["seconds"].get<double>(), 0.0);

    const CliRun nine =
        run_damas(in_scratch("gen -v english -p 9 -c 0504 --metric mtc --plan --json"));
    ASSERT_EQ(nine.exit_code, 0) << nine.err;
    const auto plan9 = nlohmann::json::parse(nine.out);
    // C(32, 5) x C(27, 4) positions a class: above 2^32 for the pair.
    EXPECT_EQ(pair_of(plan9, "0504")["positions"], 2 * 3'534'148'800ull) << nine.out;
    EXPECT_EQ(pair_of(plan9, "0404")["positions"], 736'281'000ull);

    EXPECT_EQ(
        run_damas(in_scratch("gen -v english -p 10 --metric mtc --dtw-pieces 10 -c 0901 --plan"))
            .exit_code,
        0);
}

TEST_F(GenPieces, MoreThanTablesHoldIsRefusedWithOneLine) {
    struct Case {
        std::string args, message;
    };
    const Case cases[] = {
        {"gen -v english -p 11 --plan", "--pieces must be between 2 and 10"},
        {"gen -v international -p 12 --plan", "--pieces must be between 2 and 10"},
        {"gen -v english -p 1 --plan", "--pieces must be between 2 and 10"},
        {"gen-rules -v english -p 11", "--pieces must be between 2 and 10"},
        {"gen -v english -p 10 -c 0605 --plan", "class 0605 has 11 pieces"},
        {"gen-rules -v english -p 10 -c 0605", "class 0605 has 11 pieces"},
        {"gen -v english -p 10 --metric mtc --dtw-pieces 11 --plan",
         "--dtw-pieces must be between 0 and 10"},
    };
    for (const Case& c : cases) {
        const CliRun r = run_damas(in_scratch(c.args));
        EXPECT_EQ(r.exit_code, 2) << c.args;
        EXPECT_NE(r.err.find(c.message), std::string::npos) << c.args << ": " << r.err;
        EXPECT_EQ(r.out, "") << c.args;
    }
}

// english 0505: 16.3 G positions; the indices past 2^32 round-trip through the commands.
TEST(IndexCliPieces, TenPieceIndicesPastTwoToThe32) {
    for (const std::string index : {"4294967296", "16257084479", "9876543210"}) {
        const CliRun u = run_damas("unindex -v english --class 0505 --index " + index);
        ASSERT_EQ(u.exit_code, 0) << u.err;
        const std::string fen = last_line_of(u.out);
        const CliRun i = run_damas("index -v english --fen " + fen);
        ASSERT_EQ(i.exit_code, 0) << i.err;
        EXPECT_EQ(last_line_of(i.out), "0505 " + index) << fen;
    }
    EXPECT_EQ(run_damas("unindex -v english --class 0505 --index 16257084480").exit_code, 2);
}

}  // namespace
