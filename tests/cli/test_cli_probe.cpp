// The study commands probe, best and line of the damas binary on an english database without
// rule tables (study_cli_fixture.hpp): they print what the library says, in text and JSON; bad
// input gives one line on stderr and exit code 2 (the move-limit rules: test_cli_probe_limits).
#include <gtest/gtest.h>

#include <regex>
#include <sstream>

#include "study_cli_fixture.hpp"

namespace damas {
namespace {

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
    // This database has no rule tables: the JSON says so (rules_missing, the gen-rules hint).
    const CliRun j = study("probe", "W:WK18,K19:BK1", {"--json"});
    EXPECT_TRUE(std::regex_search(
        j.out,
        std::regex(
            R"(^\{"variant":"english","fen":"W:WK18,K19:BK1","class":"0201","value":"win","dtw":\d+,"rules_missing":"no rule table 0201\.dtr [^"]*damas gen-rules -v english -p 3 [^"]*"\}\n$)")))
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

// Each move of the line is printed as best prints it (value and DTW for the side that plays
// it, counting the move), numbered as PDN does: english is a game where Black moves first.
TEST_F(ProbeCli, LineGoesToTheEnd) {
    const CliRun r = study("line", "W:WK18,K19:BK1");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto rows = lines(r.out);
    ASSERT_GE(rows.size(), 4u);
    const std::regex start(R"(^W:WK18,K19:BK1 win (\d+)$)");
    std::smatch m;
    ASSERT_TRUE(std::regex_match(rows.front(), m, start)) << rows.front();
    const int plies = std::stoi(m[1]);
    ASSERT_EQ(rows.size(), static_cast<std::size_t>(plies) + 3) << r.out;
    // White moves second in english: its first move is 1..., then Black's 2.
    const std::string best_first = lines(study("best", "W:WK18,K19:BK1").out).front();
    EXPECT_EQ(rows[1].rfind("1... " + best_first + " B:", 0), 0u) << rows[1] << " / " << best_first;
    EXPECT_EQ(rows[2].rfind("2. ", 0), 0u) << rows[2];
    EXPECT_TRUE(std::regex_match(rows[plies],
                                 std::regex(R"(^\d+\.(\.\.)? \S+ win 1( \(rules: win 1\))? \S+$)")))
        << rows[plies];
    EXPECT_EQ(rows[plies + 1], "game over: black loses");
    EXPECT_EQ(rows[plies + 2].rfind("pdn: 1... ", 0), 0u) << rows[plies + 2];
    EXPECT_NE(rows[plies + 2].find(" 2. "), std::string::npos) << rows[plies + 2];
    // Every row after the first: its value is that of the position it starts from.
    for (int ply = 1; ply <= plies; ++ply) {
        const int left = plies - ply + 1;
        const std::string value = (ply % 2 == 1 ? "win " : "loss ") + std::to_string(left);
        EXPECT_NE(rows[ply].find(" " + value + " "), std::string::npos) << rows[ply];
    }
    // Black to move first: 1.
    const CliRun b = study("line", "B:W22:BK1,K2");
    ASSERT_EQ(b.exit_code, 0) << b.err;
    EXPECT_EQ(lines(b.out).at(1).rfind("1. ", 0), 0u) << b.out;
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
        const CliRun j = study("line", to_fen(english, p), {"--json"});
        EXPECT_NE(j.out.find("\"value\":\"draw\",\"dtw\":null,"), std::string::npos) << j.out;
        EXPECT_NE(j.out.find("\"line\":[],\"pdn\":\"\",\"result\":\"draw"), std::string::npos)
            << j.out;
        break;
    }
}

// With --json, every command's errors are JSON on standard output too; a draw's dtw is null.
TEST_F(ProbeCli, JsonErrorsAndDraws) {
    for (const std::vector<std::string>& args : std::vector<std::vector<std::string>>{
             {"probe", "-v", "english", "-d", dir_->path.string(), "W:WK18:BK1:x", "--json"},
             {"best", "-v", "englsh", "-d", dir_->path.string(), "W:WK18:BK1", "--json"},
             {"line", "-v", "english", "--json"},
             {"stats", "-v", "english", "-d", dir_->path.string(), "-c", "99", "--json"},
             {"count", "-v", "english", "-p", "99", "--json"}}) {
        const CliRun r = damas(args);
        EXPECT_EQ(r.exit_code, 2) << args[0];
        EXPECT_TRUE(std::regex_match(r.out, std::regex(R"(^\{"error":"[^"]+"\}\n$)"))) << r.out;
        EXPECT_EQ(r.err, "");
    }
    const CliRun d = study("probe", "W:WK18:BK1", {"--json"});
    EXPECT_NE(d.out.find("\"value\":\"draw\",\"dtw\":null"), std::string::npos) << d.out;
    const CliRun over = study("best", "W:W:BK1", {"--json"});
    EXPECT_NE(over.out.find("\"value\":\"loss\",\"dtw\":0,\"game_over\":true"), std::string::npos)
        << over.out;
}

// Moves of equal value are listed by square, and the PDN tag form of a FEN is read.
TEST_F(ProbeCli, BestSortsEqualMovesBySquareAndReadsTheFenTag) {
    const CliRun r = study("best", "[FEN \"W:WK18,K19:BK1\"]");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out, study("best", "W:WK18,K19:BK1").out);
    std::vector<std::pair<std::string, std::pair<int, int>>> rows;  // value, (from, to)
    for (const auto& line : lines(r.out)) {
        std::smatch m;
        ASSERT_TRUE(std::regex_match(line, m, std::regex(R"(^(\d+)-(\d+) (.*)$)"))) << line;
        rows.push_back({m[3], {std::stoi(m[1]), std::stoi(m[2])}});
    }
    for (std::size_t i = 1; i < rows.size(); ++i)
        if (rows[i].first == rows[i - 1].first) {
            EXPECT_LT(rows[i - 1].second, rows[i].second);
        }
    const CliRun moves = damas({"moves", "-v", "english", "-f", "W:WK18,K19:BK1"});
    EXPECT_EQ(moves.out, "18-14\n18-15\n18-22\n18-23\n19-15\n19-16\n19-23\n19-24\n");
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
    // A variant's folder instead of the database folder: the hint names the one to give.
    const std::string variant_folder = (dir_->path / "english").string();
    for (const std::vector<std::string>& args : std::vector<std::vector<std::string>>{
             {"probe", "-v", "english", "-d", variant_folder, "W:WK18:BK1"},
             {"best", "-v", "english", "-d", variant_folder, "W:WK18:BK1"},
             {"info", "-d", variant_folder}})
        expect_error(damas(args), "is the english tables' folder: give the database folder, -d " +
                                      dir_->path.string() + ")");
    const ScratchDir empty("cli-empty");
    expect_error(damas({"info", "--dir", empty.path.string()}), "no table file");
    EXPECT_EQ(damas({"probe", "--variant", "english", "--dir", dir}).exit_code, 2);
}

// Issue 23, item 5: an empty folder name is an error, and input quoted in a message is cut and
// its control characters escaped (no terminal escape sequence reaches the terminal).
TEST_F(ProbeCli, EmptyFolderAndHostileInput) {
    for (const std::vector<std::string>& args :
         std::vector<std::vector<std::string>>{{"probe", "-v", "english", "-d", "", "W:WK18:BK1"},
                                               {"stats", "-v", "english", "-d", ""},
                                               {"info", "-d", ""},
                                               {"verify", "-d", ""},
                                               {"gen", "-v", "english", "-p", "2", "-d", ""},
                                               {"gen-rules", "-v", "english", "-p", "2", "-d", ""}})
        expect_error(damas(args), "an empty folder name");
    std::string hostile = "W:W18";
    hostile += '\x1b';
    hostile += "[2J";
    hostile += '\n';
    hostile += "rm -rf:B1";
    const CliRun r = study("probe", hostile);
    expect_error(r, "\\x1b[2J\\nrm -rf");
    EXPECT_EQ(r.err.find('\x1b'), std::string::npos);
    const std::string huge = "W:W" + std::string(100000, '1') + ":B1";
    const CliRun h = study("probe", huge);
    EXPECT_EQ(h.exit_code, 2);
    EXPECT_LT(h.err.size(), 1200u) << h.err.size();
    EXPECT_NE(h.err.find("..."), std::string::npos) << h.err;
}

}  // namespace
}  // namespace damas
