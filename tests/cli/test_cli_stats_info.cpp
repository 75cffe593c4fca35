// The stats and info commands of the damas binary (study_cli_fixture.hpp): stats counts every
// position of a class as the library probes it, under the move-limit rules too; info lists
// every file; every reader refuses a file under another class's name.
#include <gtest/gtest.h>

#include <cstdint>
#include <regex>
#include <string>
#include <utility>
#include <vector>

#include "study_cli_fixture.hpp"

namespace damas {
namespace {

// "name":count pairs as the JSON output writes them, comma-separated, in order.
std::string json_counts(const std::vector<std::pair<std::string, std::uint64_t>>& counts) {
    std::string out;
    for (const auto& [name, count] : counts)
        out += (out.empty() ? "\"" : ",\"") + name + "\":" + std::to_string(count);
    return out;
}

TEST_F(ProbeCli, StatsCountEveryPosition) {
    const CliRun r = damas({"stats", "--variant", "english", "--dir", dir_->path.string(),
                            "--class", "0201", "--json"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto tb = Tablebase::open(dir_->path);
    const ClassIndex index(english.info().board, *Material::parse("0201"));
    std::uint64_t wins = 0, draws = 0, losses = 0;
    int longest = 0;
    for (std::uint64_t i = 0; i < index.size(); ++i) {
        const ProbeResult p = tb->probe_dtw(english, index.unindex(i));
        wins += p.value == Value::win;
        draws += p.value == Value::draw;
        losses += p.value == Value::loss;
        if (p.value == Value::win) longest = std::max<int>(longest, p.plies);
    }
    const std::string expected =
        "{\"class\":\"0201\"," +
        json_counts({{"positions", index.size()},
                     {"wins", wins},
                     {"draws", draws},
                     {"losses", losses},
                     {"longest_win", static_cast<std::uint64_t>(longest)}}) +
        ",\"histogram\":[";
    EXPECT_NE(r.out.find(expected), std::string::npos) << r.out << "\n" << expected;

    const CliRun all = damas({"stats", "--variant", "english", "--dir", dir_->path.string()});
    ASSERT_EQ(all.exit_code, 0) << all.err;
    int classes = 0;
    for (const auto& line : lines(all.out)) classes += line.rfind("class ", 0) == 0;
    EXPECT_EQ(classes, 16);
}

TEST_F(ProbeCli, InfoListsEveryFile) {
    const CliRun r = damas({"info", "--dir", dir_->path.string()});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto rows = lines(r.out);
    EXPECT_EQ(rows.size(), 32u);
    const std::regex row(
        R"(^english/\d{4}\.(wdl|dtw) \d+ bytes, \d+ positions, [0-9.]+ bits/position, (mirror layout \(values in the mirror class\), )?checksums [0-9a-f]{16} [0-9a-f]{16}$)");
    int mirrored = 0;
    for (const auto& line : rows) {
        EXPECT_TRUE(std::regex_match(line, row)) << line;
        mirrored += line.find("mirror layout") != std::string::npos;
    }
    EXPECT_GT(mirrored, 0);  // one wdl file of most pairs
    const CliRun j = damas({"info", "--dir", dir_->path.string(), "--json"});
    EXPECT_NE(j.out.find("\"files_bad\":0}"), std::string::npos) << j.out;
}

TEST_F(RulesCli, StatsCountThePureWinsTheRulesDraw) {
    const CliRun r = damas({"stats", "--variant", "international", "--dir",
                            rules_dir_->path.string(), "--class", "0201", "--json"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    // From the pure tables: 2K v K wins are drawn by the 5-move rule iff longer than 10 plies.
    const auto tb = Tablebase::open(rules_dir_->path);
    const ClassIndex index(international.info().board, *Material::parse("0201"));
    std::uint64_t quiet = 0, wins = 0, drawn = 0;
    for (std::uint64_t i = 0; i < index.size(); ++i) {
        const Position p = index.unindex(i);
        if (MoveGenerator<International>::has_capture(p)) continue;
        ++quiet;
        const ProbeResult pr = tb->probe_dtw(international, p);
        if (pr.value != Value::win) continue;
        ++wins;
        drawn += pr.plies > 10;
    }
    const std::string expected = "\"rules\":{\"edition\":\"seed\"," +
                                 json_counts({{"quiet_positions", quiet},
                                              {"pure_wins", wins},
                                              {"wins_drawn", drawn},
                                              {"pure_losses", 0},
                                              {"losses_drawn", 0}}) +
                                 "}";
    EXPECT_NE(r.out.find(expected), std::string::npos) << r.out << "\n" << expected;

    const CliRun t = damas({"stats", "--variant", "international", "--dir",
                            rules_dir_->path.string(), "--class", "0201"});
    ASSERT_EQ(t.exit_code, 0) << t.err;
    const auto rows = lines(t.out);
    ASSERT_GE(rows.size(), 2u);
    EXPECT_EQ(rows[1], "  move-limit rules (seed edition), count starting at the position: " +
                           std::to_string(drawn) + " of " + std::to_string(wins) +
                           " quiet pure wins are draws, 0 of 0 quiet pure losses");
    // Without rule tables (the english database) there is no rules line.
    const CliRun e =
        damas({"stats", "--variant", "english", "--dir", dir_->path.string(), "--class", "0201"});
    EXPECT_EQ(e.out.find("move-limit"), std::string::npos) << e.out;
}

// Every reader checks a file's header against the table its name says (issue 23, item 1).
TEST_F(ProbeCli, ReadersRefuseAFileUnderAnotherClassName) {
    const ScratchDir copy("cli-swap");
    std::filesystem::copy(dir_->path, copy.path, std::filesystem::copy_options::recursive);
    swap_class_files(copy.path / "english", "0201", "0102", {".wdl", ".dtw"});
    const std::string dir = copy.path.string();
    for (const char* c : {"0201", "0102"})
        expect_error(damas({"stats", "--variant", "english", "--dir", dir, "--class", c}),
                     "the header does not match the file's name");
    const CliRun info = damas({"info", "--dir", dir, "--json"});
    EXPECT_NE(info.out.find("\"files_bad\":4}"), std::string::npos) << info.out;
    EXPECT_NE(info.out.find("it holds the english 0102 wdl table, expected the english 0201 wdl"),
              std::string::npos)
        << info.out;
    const CliRun verify = damas({"verify", "--dir", dir, "-q"});
    EXPECT_EQ(verify.exit_code, 1);
    EXPECT_NE(verify.out.find("bad 4"), std::string::npos) << verify.out;
    // A file of another variant under this one's folder.
    const ScratchDir other("cli-other-variant");
    std::filesystem::copy(dir_->path, other.path, std::filesystem::copy_options::recursive);
    std::filesystem::rename(other.path / "english", other.path / "russian");
    const CliRun r = damas({"verify", "--dir", other.path.string(), "-q"});
    EXPECT_EQ(r.exit_code, 1);
    EXPECT_NE(r.err.find("it holds the english"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace damas
