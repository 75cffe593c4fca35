// The study commands of the damas binary: probe, best, line, stats and info print what the
// library says, in text and JSON; bad input gives one line on stderr and exit code 2.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>
#include <regex>
#include <sstream>

#include "probe/probe.hpp"
#include "rules/notation.hpp"
#include "test_probe_fixtures.hpp"

namespace damas {
namespace {

using test::ScratchDir;

struct CliRun {
    int exit_code = -1;
    std::string out, err;
};

std::string slurp(const std::filesystem::path& p) {
    std::ifstream in(p);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

std::vector<std::string> lines(const std::string& text) {
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) out.push_back(line);
    return out;
}

const Variant english{BaseVariant::english, false};

class ProbeCli : public testing::Test {
  protected:
    static void SetUpTestSuite() {
        dir_ = new ScratchDir("cli");
        test::make_database(dir_->path, english, 3);
    }
    static void TearDownTestSuite() {
        delete dir_;
        dir_ = nullptr;
    }

    // Runs the binary with the arguments (each single-quoted for the shell).
    static CliRun damas(const std::vector<std::string>& args) {
        const std::filesystem::path out = dir_->path / "out.txt", err = dir_->path / "err.txt";
        std::string command = "'";
        command += DAMAS_BINARY;
        command += "'";
        for (const std::string& a : args) {
            command += " '";
            command += a;
            command += "'";
        }
        command += " >'";
        command += out.string();
        command += "' 2>'";
        command += err.string();
        command += "'";
        const int status = std::system(command.c_str());
        return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, slurp(out), slurp(err)};
    }
    static CliRun study(const std::string& command, const std::string& fen,
                        std::vector<std::string> extra = {}) {
        std::vector<std::string> args{command, "--variant",         "english",
                                      "--dir", dir_->path.string(), fen};
        args.insert(args.end(), extra.begin(), extra.end());
        return damas(args);
    }
    static void expect_error(const CliRun& r, const std::string& part) {
        EXPECT_EQ(r.exit_code, 2);
        EXPECT_TRUE(r.out.empty()) << r.out;
        ASSERT_EQ(lines(r.err).size(), 1u) << r.err;
        EXPECT_EQ(r.err.rfind("damas: error: ", 0), 0u) << r.err;
        EXPECT_NE(r.err.find(part), std::string::npos) << r.err;
    }

    static ScratchDir* dir_;
};
ScratchDir* ProbeCli::dir_ = nullptr;

std::string expected_text(const ProbeResult& r) {
    std::string s = value_name(r.value);
    if (r.value != Value::draw) {
        s += ' ';
        s += std::to_string(r.plies);
    }
    return s;
}

TEST_F(ProbeCli, ProbePrintsValueAndDtw) {
    const auto tb = Tablebase::open(dir_->path);
    for (const char* fen :
         {"W:WK18,K19:BK1", "B:WK18,K19:BK1", "W:W22:BK1", "B:W22:B5,K1", "W:WK18:BK14,K1"}) {
        const CliRun r = study("probe", fen);
        EXPECT_EQ(r.exit_code, 0) << r.err;
        std::string expected = expected_text(tb->probe_dtw(english, parse_fen(english, fen)));
        expected += '\n';
        EXPECT_EQ(r.out, expected) << fen;
    }
    const CliRun j = study("probe", "W:WK18,K19:BK1", {"--json"});
    EXPECT_TRUE(std::regex_search(
        j.out,
        std::regex(
            R"(^\{"variant":"english","fen":"W:WK18,K19:BK1","value":"win","dtw":\d+\}\n$)")))
        << j.out;
}

TEST_F(ProbeCli, BestListsEveryMoveBestFirst) {
    const std::string fen = "W:WK22:B5,K1";
    const CliRun r = study("best", fen);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto rows = lines(r.out);
    MoveList moves;
    MoveGenerator<English>::generate(parse_fen(english, fen), moves);
    ASSERT_EQ(rows.size(), static_cast<std::size_t>(moves.size()));
    const std::regex row(R"(^\S+ (win \d+|draw|loss \d+)$)");
    int last_rank = -1;
    for (const auto& line : rows) {
        ASSERT_TRUE(std::regex_match(line, row)) << line;
        std::istringstream in(line);
        std::string move, value;
        int plies = 0;
        in >> move >> value >> plies;
        const int rank = value == "win" ? plies : value == "draw" ? 100000 : 300000 - plies;
        EXPECT_GE(rank, last_rank) << r.out;
        last_rank = rank;
    }
    // The best move's value is the position's.
    const CliRun p = study("probe", fen);
    std::istringstream first(rows.front());
    std::string move, rest;
    first >> move;
    std::getline(first, rest);
    rest += '\n';
    EXPECT_EQ(rest.substr(1), p.out);

    const CliRun j = study("best", fen, {"--json"});
    EXPECT_NE(j.out.find("\"moves\":[{\"move\":"), std::string::npos) << j.out;
    EXPECT_EQ(study("best", "W:W:BK1").out, "game over: loss 0\n");
}

TEST_F(ProbeCli, LineGoesToTheEnd) {
    const CliRun r = study("line", "W:WK18,K19:BK1");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto rows = lines(r.out);
    ASSERT_GE(rows.size(), 3u);
    const std::regex start(R"(^W:WK18,K19:BK1 win (\d+)$)");
    std::smatch m;
    ASSERT_TRUE(std::regex_match(rows.front(), m, start)) << rows.front();
    const int plies = std::stoi(m[1]);
    EXPECT_EQ(rows.size(), static_cast<std::size_t>(plies) + 2);
    EXPECT_EQ(rows.back(), "game over: black loses");
    EXPECT_TRUE(std::regex_match(rows[rows.size() - 2], std::regex(R"(^\d+\. \S+ \S+ loss 0$)")))
        << rows[rows.size() - 2];
    // A drawn position has no forced end.
    const auto tb = Tablebase::open(dir_->path);
    const ClassIndex index(english.info().board, *Material::parse("0101"));
    for (std::uint64_t i = 0; i < index.size(); ++i) {
        const Position p = index.unindex(i);
        if (tb->probe_wdl(english, p).value != Value::draw) continue;
        const CliRun d = study("line", to_fen(english, p));
        std::string expected = to_fen(english, p);
        expected += " draw\ndraw: no forced end of the game\n";
        EXPECT_EQ(d.out, expected);
        break;
    }
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
    std::string expected = "{\"class\":\"0201\",\"positions\":";
    expected += std::to_string(index.size());
    expected += ",\"wins\":";
    expected += std::to_string(wins);
    expected += ",\"draws\":";
    expected += std::to_string(draws);
    expected += ",\"losses\":";
    expected += std::to_string(losses);
    expected += ",\"longest_win\":";
    expected += std::to_string(longest);
    expected += ",\"histogram\":[";
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
        R"(^english/\d{4}\.(wdl|dtw) \d+ bytes, \d+ positions, [0-9.]+ bits/position, checksums [0-9a-f]{16} [0-9a-f]{16}$)");
    for (const auto& line : rows) EXPECT_TRUE(std::regex_match(line, row)) << line;
    const CliRun j = damas({"info", "--dir", dir_->path.string(), "--json"});
    EXPECT_NE(j.out.find("\"damaged\":0}"), std::string::npos) << j.out;
}

TEST_F(ProbeCli, Errors) {
    const std::string dir = dir_->path.string();
    const std::string none = (dir_->path / "none").string();
    expect_error(damas({"probe", "--variant", "english", "--dir", none, "W:WK18:BK1"}),
                 "no database folder");
    expect_error(damas({"probe", "--variant", "brazilian", "--dir", dir, "W:WKa1:BKh8"}),
                 "no brazilian tables");
    expect_error(study("probe", "W:WK18,K19:BK1,K2"), "class 0202");
    expect_error(study("probe", "W:WK18:BK1:x"), "malformed FEN");
    expect_error(study("best", "W:WK18,K18:BK1"), "two pieces on one square");
    expect_error(study("line", "W:WK33:BK1"), "33");
    expect_error(damas({"probe", "--variant", "englsh", "--dir", dir, "W:WK18:BK1"}),
                 "unknown variant");
    expect_error(damas({"stats", "--variant", "english", "--dir", dir, "--class", "99"}),
                 "bad class");
    expect_error(damas({"stats", "--variant", "english", "--dir", dir, "--class", "0202"}),
                 "not in the english database");
    const ScratchDir empty("cli-empty");
    expect_error(damas({"info", "--dir", empty.path.string()}), "no table file");
    EXPECT_EQ(damas({"probe", "--variant", "english", "--dir", dir}).exit_code, 2);
}

}  // namespace
}  // namespace damas
