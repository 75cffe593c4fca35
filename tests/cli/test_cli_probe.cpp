// The study commands of the damas binary: probe, best, line, stats and info print what the
// library says, in text and JSON; bad input gives one line on stderr and exit code 2.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>

#include "gen/limits/rule_generate.hpp"
#include "probe/probe.hpp"
#include "rules/movegen.hpp"
#include "rules/notation.hpp"
#include "tests/probe/test_probe_fixtures.hpp"

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

// Swaps the files of two classes (every metric they have), as a careless copy might: the
// sizes match, only the headers tell.
void swap_class_files(const std::filesystem::path& folder, const std::string& a,
                      const std::string& b, const std::vector<std::string>& extensions) {
    for (const std::string& ext : extensions) {
        const std::filesystem::path pa = folder / (a + ext), pb = folder / (b + ext),
                                    tmp = folder / ("swap" + ext);
        std::filesystem::rename(pa, tmp);
        std::filesystem::rename(pb, pa);
        std::filesystem::rename(tmp, pb);
    }
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

// verify --deep --class recomputes the classes named; a bad name or --class alone is an error.
TEST_F(ProbeCli, VerifyDeepNamedClasses) {
    const std::string dir = dir_->path.string();
    const CliRun r = damas({"verify", "--dir", dir, "-q", "--deep", "-c", "0201", "-c", "0102"});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("positions checked "), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("verify: ok"), std::string::npos) << r.out;
    const CliRun absent = damas({"verify", "--dir", dir, "-q", "--deep", "-c", "0501"});
    EXPECT_EQ(absent.exit_code, 1);
    EXPECT_NE(absent.err.find("0501: no intact wdl and dtw files"), std::string::npos)
        << absent.err;
    expect_error(damas({"verify", "--dir", dir, "-c", "0201"}), "--class needs --deep");
    expect_error(damas({"verify", "--dir", dir, "--deep", "-c", "02x1"}), "not a class");
}

// ---- the move-limit draw rules: probe's counts, its answer under the rules, stats

const Variant international{BaseVariant::international, false};

// An international database of K+M v K and what it needs (2K v K among them), with the rule
// tables of the seed's edition only.
class RulesCli : public ProbeCli {
  protected:
    static void SetUpTestSuite() {
        ProbeCli::SetUpTestSuite();
        rules_dir_ = new ScratchDir("cli-rules");
        GenerateOptions g;
        g.variant = international;
        g.dir = rules_dir_->path;
        g.only = Material::parse("1101");
        Progress quiet(Progress::Mode::quiet);
        generate(g, quiet);
        RuleGenerateOptions r;
        r.variant = international;
        r.dir = rules_dir_->path;
        r.only = g.only;
        generate_rules(r, quiet);
    }
    static void TearDownTestSuite() {
        delete rules_dir_;
        rules_dir_ = nullptr;
        ProbeCli::TearDownTestSuite();
    }
    static CliRun probe(const std::string& fen, std::vector<std::string> extra = {},
                        const std::string& command = "probe") {
        std::vector<std::string> args{
            command, "--variant", "international", "--dir", rules_dir_->path.string(), fen};
        args.insert(args.end(), extra.begin(), extra.end());
        return damas(args);
    }
    // A quiet 2K v K position, White to move, whose pure win takes `plies` plies.
    static std::string two_kings_win(int plies) {
        const auto tb = Tablebase::open(rules_dir_->path);
        const ClassIndex index(international.info().board, *Material::parse("0201"));
        for (std::uint64_t i = 0; i < index.size(); ++i) {
            const Position p = index.unindex(i);
            if (MoveGenerator<International>::has_capture(p)) continue;
            const ProbeResult r = tb->probe_dtw(international, p);
            if (r.value == Value::win && r.plies == plies) return to_fen(international, p);
        }
        return {};
    }

    static ScratchDir* rules_dir_;
};
ScratchDir* RulesCli::rules_dir_ = nullptr;

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
    test::make_database(italian_dir.path, Variant{BaseVariant::italian, false}, 2);
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
    expect_error(probe(fen, {"--plies-since-capture", "x"}), "plies-since-capture");
    expect_error(study("probe", "W:WK18,K19:BK1", {"--edition", "fmjd"}), "international only");
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
    std::string expected = "\"rules\":{\"edition\":\"seed\",\"quiet_positions\":";
    expected += std::to_string(quiet);
    expected += ",\"pure_wins\":";
    expected += std::to_string(wins);
    expected += ",\"wins_drawn\":";
    expected += std::to_string(drawn);
    expected += ",\"pure_losses\":0,\"losses_drawn\":0}";
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

// A rule table copied over its mirror's name, and pure tables swapped under gen-rules.
TEST_F(RulesCli, RuleReadersRefuseAFileUnderAnotherClassName) {
    const ScratchDir copy("cli-rules-swap");
    std::filesystem::copy(rules_dir_->path, copy.path, std::filesystem::copy_options::recursive);
    const std::filesystem::path folder = copy.path / "international";
    std::filesystem::copy_file(folder / "0102.dtr", folder / "0201.dtr",
                               std::filesystem::copy_options::overwrite_existing);
    const std::string dir = copy.path.string();
    expect_error(
        damas({"stats", "--variant", "international", "--dir", dir, "--class", "0201"}),
        "it holds the international 0102 dtr table, expected the international 0201 dtr table");
    // gen-rules reads the pure tables of the classes it computes.
    for (const char* c : {"0201", "0102"})
        std::filesystem::remove(folder / (std::string(c) + ".dtr"));
    swap_class_files(folder, "0201", "0102", {".wdl", ".dtw"});
    expect_error(
        damas({"gen-rules", "-q", "--variant", "international", "--dir", dir, "--class", "1101"}),
        "the header does not match the file's name");
}

TEST_F(RulesCli, VerifyChecksTheRuleTables) {
    const ScratchDir copy("cli-rules-copy");
    std::filesystem::copy(rules_dir_->path, copy.path, std::filesystem::copy_options::recursive);
    CliRun r = damas({"verify", "--dir", copy.path.string(), "-q"});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    int files = 0;
    for (const auto& e : std::filesystem::directory_iterator(copy.path / "international"))
        files += e.path().extension() != ".tmp" && e.path().filename() != "manifest.json" &&
                 e.path().filename() != ".damas.lock";
    EXPECT_NE(r.out.find("files " + std::to_string(files) + ", bad 0"), std::string::npos) << r.out;
    // Damage one byte of a rule table's data.
    const std::filesystem::path dtr = copy.path / "international" / "0201.dtr";
    {
        std::fstream f(dtr, std::ios::in | std::ios::out | std::ios::binary);
        f.seekg(-8, std::ios::end);
        char c = 0;
        f.read(&c, 1);
        c = static_cast<char>(c ^ 0x5A);
        f.seekp(-8, std::ios::end);
        f.write(&c, 1);
    }
    r = damas({"verify", "--dir", copy.path.string(), "-q"});
    EXPECT_EQ(r.exit_code, 1);
    EXPECT_NE(r.out.find("bad 1"), std::string::npos) << r.out;
    EXPECT_NE(r.err.find("0201.dtr"), std::string::npos) << r.err;
}

// An english database of up to 3 pieces with its rule tables (the 40-move rule: a capture or a
// man move restarts the count).
class EnglishRulesCli : public ProbeCli {
  protected:
    static void SetUpTestSuite() {
        ProbeCli::SetUpTestSuite();
        english_dir_ = new ScratchDir("cli-english-rules");
        test::make_database(english_dir_->path, english, 3);
        RuleGenerateOptions r;
        r.variant = english;
        r.max_pieces = 3;
        r.dir = english_dir_->path;
        Progress quiet(Progress::Mode::quiet);
        generate_rules(r, quiet);
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
