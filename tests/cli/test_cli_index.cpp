// The count, index and unindex commands, through the built binary.
#include <gtest/gtest.h>

#include <string>

#include "tests/support/cli.hpp"

namespace {

using damas::test::CliRun;

// Runs `damas ARGS` (shell words).
CliRun run(const std::string& args) {
    return damas::test::run_shell(damas::test::damas_command(args));
}

std::string last_line(const std::string& s) {
    const auto end = s.find_last_not_of('\n');
    const auto start = s.rfind('\n', end);
    return s.substr(start == std::string::npos ? 0 : start + 1,
                    end - (start == std::string::npos ? 0 : start + 1) + 1);
}

TEST(IndexCli, CountTotals) {
    const CliRun brazilian = run("count --variant brazilian --pieces 3");
    EXPECT_EQ(brazilian.exit_code, 0);
    EXPECT_EQ(last_line(brazilian.out), "total 196032");
    EXPECT_NE(brazilian.out.find("0201 14880\n"), std::string::npos);
    const CliRun international = run("count --variant international --pieces 3");
    EXPECT_EQ(last_line(international.out), "total 806300");
    const CliRun json = run("count --variant international --pieces 2 --json");
    EXPECT_EQ(json.exit_code, 0);
    EXPECT_NE(json.out.find("}],\"positions\":"), std::string::npos) << json.out;
}

// -p is the pieces option of every command; -n, count's old spelling, still works.
TEST(IndexCli, PiecesOptionSpellings) {
    const CliRun p = run("count -v brazilian -p 3");
    EXPECT_EQ(p.exit_code, 0);
    EXPECT_EQ(last_line(p.out), "total 196032");
    EXPECT_EQ(run("count -v brazilian -n 3").out, p.out);
}

// The PDN tag form of a FEN is read as the FEN.
TEST(IndexCli, FenTag) {
    const CliRun r = run("index --variant brazilian --fen '[FEN \"B:Wa1,Kc3:Bh8\"]'");
    EXPECT_EQ(r.exit_code, 0);
    EXPECT_EQ(r.out, run("index --variant brazilian --fen B:Wa1,Kc3:Bh8").out);
}

TEST(IndexCli, VersionNamesTheRelease) {
    const CliRun r = run("--version");
    EXPECT_EQ(r.exit_code, 0);
    EXPECT_EQ(r.out.rfind("damas 0.", 0), 0u) << r.out;
}

TEST(IndexCli, IndexAndUnindexAreInverse) {
    const CliRun unindexed = run("unindex --variant brazilian --class 1101 --index 25000");
    ASSERT_EQ(unindexed.exit_code, 0);
    const std::string fen = last_line(unindexed.out);
    const CliRun indexed = run("index --variant brazilian --fen " + fen);
    EXPECT_EQ(last_line(indexed.out), "1101 25000");
}

TEST(IndexCli, BlackToMoveIsFlipped) {
    const CliRun r = run("index --variant brazilian --fen B:Wa1,Kc3:Bh8 --json");
    EXPECT_EQ(r.exit_code, 0);
    EXPECT_NE(r.out.find("\"class\":\"1011\""), std::string::npos);
    EXPECT_NE(r.out.find("\"flipped\":true"), std::string::npos);
}

TEST(IndexCli, BadInputExitsWithCode2) {
    EXPECT_EQ(run("count --variant nosuch --pieces 3").exit_code, 2);
    EXPECT_EQ(run("unindex --variant brazilian --class 12x4 --index 0").exit_code, 2);
    EXPECT_EQ(run("unindex --variant brazilian --class 0200 --index 0").exit_code, 2);
    EXPECT_EQ(run("unindex --variant brazilian --class 0101 --index 992").exit_code, 2);
    EXPECT_EQ(run("unindex --variant brazilian --class 0101 --index -1").exit_code, 2);
    EXPECT_EQ(run("index --variant brazilian --fen W:Wh8:Ba1").exit_code, 2);
    EXPECT_EQ(run("index --variant turkish --fen W:Wa1:Ba5").exit_code, 2);
    EXPECT_EQ(run("index --variant brazilian --fen W:Wa1").exit_code, 2);
    EXPECT_EQ(run("unindex --variant brazilian --class 0101 --index 991").exit_code, 0);
}

}  // namespace
