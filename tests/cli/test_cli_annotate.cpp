// damas annotate against the other study commands: a game composed here move by move from what
// `damas best --json` says of each position (a sacrifice into the tablebase, the best moves, a
// move that throws the win away, one that loses the draw) must come back with each position's
// value, DTW and rule value as `damas probe --json` gives them with the game's counts, the marks
// where best's values say, and the summary; bad games give one line naming the game and move.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <nlohmann/json.hpp>
#include <utility>

#include "gen/options.hpp"
#include "index/class_index.hpp"
#include "probe/probe.hpp"
#include "rules/movegen.hpp"
#include "rules/notation.hpp"
#include "rules/pdn.hpp"
#include "tests/support/cli.hpp"
#include "tests/support/generate.hpp"
#include "tests/support/scratch.hpp"

namespace damas {
namespace {

using nlohmann::json;
using test::CliRun;
using test::ScratchDir;
using test::slurp;

const Variant english{BaseVariant::english, false};

// A game composed from best --json: the PDN, and per ply what annotate must say.
struct ComposedGame {
    std::string start_fen;
    std::vector<std::string> moves;       // as written
    std::vector<std::string> fens_after;  // best's fen_after
    std::vector<json> counts_after;       // best's counts_after
    std::vector<std::string> marks;       // "", "?" or "??"
    std::string pdn;
};

class AnnotateCli : public testing::Test {
  protected:
    static void SetUpTestSuite() {
        dir_ = new ScratchDir("annotate");
        test::generate_quietly(english, 3, db());
        test::generate_rules_quietly(english, 3, db());
        // The same tables without the rule tables.
        std::filesystem::create_directories(pure_db() / "english");
        for (const auto& e : std::filesystem::directory_iterator(db() / "english"))
            if (e.path().extension() == ".wdl" || e.path().extension() == ".dtw")
                std::filesystem::copy_file(e.path(), pure_db() / "english" / e.path().filename());
    }
    static void TearDownTestSuite() {
        delete dir_;
        dir_ = nullptr;
    }
    static std::filesystem::path db() { return dir_->path / "db"; }
    static std::filesystem::path pure_db() { return dir_->path / "pure"; }

    static CliRun damas(const std::vector<std::string>& args) { return test::run_cli(args); }
    static json json_of(const std::vector<std::string>& args) {
        std::vector<std::string> all = args;
        all.push_back("--json");
        const CliRun r = damas(all);
        EXPECT_EQ(r.exit_code, 0) << args[0] << ": " << r.err << r.out;
        return json::parse(r.out);
    }
    static std::string file(const std::string& name, const std::string& text) {
        const std::filesystem::path p = dir_->path / name;
        std::ofstream(p) << text;
        return p.string();
    }
    static CliRun annotate(const std::string& pdn_file, std::vector<std::string> extra = {},
                           const std::filesystem::path& folder = db()) {
        std::vector<std::string> args{"annotate", "-v", "english", "-d", folder.string(), pdn_file};
        args.insert(args.end(), extra.begin(), extra.end());
        return damas(args);
    }

    // best --json of a position with the game's counts.
    static json best(const std::string& fen, const json& counts) {
        return json_of({"best", "-v", "english", "-d", db().string(), fen, "--plies-since-capture",
                        std::to_string(counts["plies_since_capture"].get<int>()),
                        "--plies-in-ending", std::to_string(counts["plies_in_ending"].get<int>())});
    }
    static json probe(const std::string& fen, const json& counts) {
        return json_of({"probe", "-v", "english", "-d", db().string(), fen, "--plies-since-capture",
                        std::to_string(counts["plies_since_capture"].get<int>()),
                        "--plies-in-ending", std::to_string(counts["plies_in_ending"].get<int>())});
    }

    // From a quiet 4-piece position (outside the 3-piece tables) White sacrifices its man; then
    // each side plays best's first move, except that White, once, plays a move best values a
    // draw from a won position (expected "?"), and then the first side that can plays a move
    // best values a loss from a position not lost (expected "??").
    static std::optional<ComposedGame> compose(const Position& start, const Move& sacrifice) {
        ComposedGame g;
        g.start_fen = to_fen(english, start);
        g.moves.push_back(move_text(english.info(), sacrifice));
        const Position after = make_move(start, sacrifice);
        g.fens_after.push_back(to_fen(english, after));
        // A man move restarts the king-move count; only a capture or a promotion restarts the
        // ending count (best cannot say: the start is outside the tables).
        g.counts_after.push_back({{"plies_since_capture", 0}, {"plies_in_ending", 1}});
        g.marks.push_back("");
        bool mistake = false, blunder = false;
        for (int ply = 1; ply < 40 && !blunder; ++ply) {
            const json b = best(g.fens_after.back(), g.counts_after.back());
            if (b["moves"].empty()) break;
            const std::string root = b["rules"]["value"];
            const json* chosen = &b["moves"][0];
            std::string mark;
            for (const json& m : b["moves"]) {
                const std::string value = m["rules"]["value"];
                if (!mistake && root == "win" && value == "draw" &&
                    b["fen"].get<std::string>()[0] == 'W') {
                    chosen = &m;
                    mark = "?";
                    break;
                }
                if (mistake && root != "loss" && value == "loss") {
                    chosen = &m;
                    mark = "??";
                    break;
                }
            }
            mistake = mistake || mark == "?";
            blunder = mark == "??";
            g.moves.push_back((*chosen)["move"].get<std::string>());
            g.fens_after.push_back((*chosen)["fen_after"].get<std::string>());
            g.counts_after.push_back((*chosen)["counts_after"]);
            g.marks.push_back(mark);
        }
        if (!blunder) return std::nullopt;
        PdnGame pdn;
        pdn.tags = {
            {"Event", "composed"}, {"White", "Ann"}, {"Black", "Bob"}, {"FEN", g.start_fen}};
        for (const std::string& m : g.moves) pdn.moves.push_back({m, "", {}, 0});
        pdn.moves[0].after = {"{a comment}", "(1... 1-5 {a variation})"};
        pdn.result = "*";
        g.pdn = write_pdn(pdn, false);
        return g;
    }

    // The first quiet White-to-move position of class 1201 outside the tables where White's man
    // can be taken at once, and the game composed from it.
    static const ComposedGame& composed() {
        static const ComposedGame game = [] {
            const auto tb = Tablebase::open(db());
            const ClassIndex index(english.info().board, *Material::parse("1201"));
            for (std::uint64_t i = 0; i < index.size(); i += 7) {
                const Position p = index.unindex(i);
                if (MoveGenerator<English>::has_capture(p)) continue;
                if (tb->probe_dtw(english, p).status != ProbeStatus::not_in_database) continue;
                MoveList moves;
                MoveGenerator<English>::generate(p, moves);
                for (const Move& m : moves) {
                    const Position after = make_move(p, m);
                    if ((p.kings & bit(m.from)) || !MoveGenerator<English>::has_capture(after) ||
                        !tb->probe_dtw(english, after).ok())
                        continue;
                    if (auto g = compose(p, m)) return *g;
                }
            }
            ADD_FAILURE() << "no game found";
            return ComposedGame{};
        }();
        return game;
    }

    static ScratchDir* dir_;
};
ScratchDir* AnnotateCli::dir_ = nullptr;

TEST_F(AnnotateCli, EveryPositionAndMarkAsProbeAndBestSay) {
    const ComposedGame& g = composed();
    ASSERT_FALSE(g.moves.empty());
    const std::string path = file("composed.pdn", g.pdn);
    const json out = json_of({"annotate", "-v", "english", "-d", db().string(), path});
    ASSERT_EQ(out["games"].size(), 1u);
    const json& game = out["games"][0];
    EXPECT_EQ(game["players"], "Ann vs Bob");
    EXPECT_EQ(game["start_fen"], g.start_fen);
    EXPECT_TRUE(game["start"].is_null()) << game["start"];  // 4 pieces: outside
    EXPECT_EQ(game["entered_after_plies"], 1);
    ASSERT_EQ(game["moves"].size(), g.moves.size());
    int marks = 0;
    for (std::size_t i = 0; i < g.moves.size(); ++i) {
        const json& m = game["moves"][i];
        EXPECT_EQ(m["move"], g.moves[i]);
        EXPECT_EQ(m["fen_after"], g.fens_after[i]);
        EXPECT_EQ(m["counts_after"], g.counts_after[i]) << i;
        EXPECT_EQ(m["mark"], g.marks[i].empty() ? json(nullptr) : json(g.marks[i])) << i;
        marks += !g.marks[i].empty();
        const json p = probe(g.fens_after[i], g.counts_after[i]);
        ASSERT_FALSE(m["after"].is_null()) << i;
        EXPECT_EQ(m["after"]["value"], p["value"]) << i;
        EXPECT_EQ(m["after"]["dtw"], p["dtw"]) << i;
        EXPECT_EQ(m["after"]["rules"], p["rules"]) << i;
    }
    EXPECT_EQ(marks, 2);
    const std::string summary = game["summary"];
    EXPECT_EQ(
        summary.rfind("game 1 (Ann vs Bob): entered the tablebase after 1... " + g.moves[0], 0), 0u)
        << summary;
    EXPECT_NE(summary.find("? throws the win away"), std::string::npos) << summary;
    EXPECT_NE(summary.find("?? "), std::string::npos) << summary;
}

TEST_F(AnnotateCli, WritesThePdnBackWithCommentsAndMarks) {
    const ComposedGame& g = composed();
    ASSERT_FALSE(g.moves.empty());
    const std::string path = file("composed.pdn", g.pdn);
    const CliRun r = annotate(path);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    // The PDN on stdout, the summary on stderr.
    EXPECT_EQ(r.err.rfind("game 1 (Ann vs Bob): entered the tablebase", 0), 0u) << r.err;
    const std::vector<PdnGame> games = read_pdn(r.out);
    ASSERT_EQ(games.size(), 1u);
    const PdnGame& back = games[0];
    EXPECT_EQ(back.tag("FEN"), g.start_fen);
    EXPECT_EQ(back.tag("Annotator"), "damas annotate");
    EXPECT_EQ(back.tag("GameType"), "21");  // PDN's english, as other programs read it
    ASSERT_EQ(back.moves.size(), g.moves.size());
    for (std::size_t i = 0; i < g.moves.size(); ++i) {
        EXPECT_EQ(back.moves[i].text, g.moves[i]);
        EXPECT_EQ(back.moves[i].mark, g.marks[i]);
        // The comment on the position after the move, from probe's value for its side to move.
        const json p = probe(g.fens_after[i], g.counts_after[i]);
        const char side = g.fens_after[i][0];
        std::string expected = "draw";
        if (p["value"] != "draw") {
            const bool white_wins = (p["value"] == "win") == (side == 'W');
            expected = std::string(white_wins ? "White" : "Black") + " wins, ";
            expected += p["dtw"] == 0 ? "game over" : "dtw " + p["dtw"].dump();
            if (p["dtw"] != 0 && p["rules"]["value"] == p["value"])
                expected += ", dtr " + p["rules"]["dtr"].dump();
            else if (p["dtw"] != 0)
                expected += "; drawn by " + p["rules"]["count"].get<std::string>();
        }
        ASSERT_FALSE(back.moves[i].after.empty()) << i;
        EXPECT_EQ(back.moves[i].after.front(), "{" + expected + "}") << i;
    }
    // The input's comment and variation are kept after annotate's own comment.
    EXPECT_EQ(back.moves[0].after.at(1), "{a comment}");
    EXPECT_EQ(back.moves[0].after.at(2), "(1... 1-5 {a variation})");
    std::string summary = back.moves.back().after.back();  // broken into lines
    std::replace(summary.begin(), summary.end(), '\n', ' ');
    EXPECT_EQ(summary.rfind("{damas: entered the tablebase", 0), 0u) << summary;
    // -o: the same PDN in the file, the summary on stdout.
    const std::string out_file = (dir_->path / "annotated.pdn").string();
    const CliRun o = annotate(path, {"-o", out_file});
    ASSERT_EQ(o.exit_code, 0) << o.err;
    EXPECT_EQ(slurp(out_file), r.out);
    EXPECT_EQ(o.out, r.err);
    EXPECT_TRUE(o.err.empty()) << o.err;
}

TEST_F(AnnotateCli, GamesOutsideTheTablebaseAndSeveralGames) {
    const std::string path = file("opening.pdn",
                                  "[Event \"one\"]\n1. 11-15 23-19 2. 8-11 22-17 *\n\n"
                                  "[Event \"two\"]\n[White \"Cy\"]\n[Black \"Di\"]\n"
                                  "[FEN \"W:WK18,K19:BK1\"]\n1... 18-14 2-0\n");
    const json out = json_of({"annotate", "-v", "english", "-d", db().string(), path});
    ASSERT_EQ(out["games"].size(), 2u);
    const json& one = out["games"][0];
    EXPECT_TRUE(one["start"].is_null());
    EXPECT_TRUE(one["entered_after_plies"].is_null());
    for (const json& m : one["moves"]) {
        EXPECT_TRUE(m["after"].is_null());
        EXPECT_TRUE(m["mark"].is_null());
    }
    EXPECT_EQ(one["summary"], "game 1: never inside the tablebase");
    const json& two = out["games"][1];
    EXPECT_EQ(two["entered_after_plies"], 0);
    const json p = probe("W:WK18,K19:BK1", {{"plies_since_capture", 0}, {"plies_in_ending", 0}});
    EXPECT_EQ(two["start"]["value"], p["value"]);
    EXPECT_EQ(two["start"]["dtw"], p["dtw"]);
    EXPECT_EQ(two["start"]["rules"], p["rules"]);
    EXPECT_EQ(two["moves"][0]["counts_after"]["plies_since_capture"], 1);  // a king move
    // The text: the first game untouched but for the Annotator and GameType tags and the
    // summary.
    const CliRun r = annotate(path);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out.substr(0, r.out.find("[Event \"two\"]")),
              "[Event \"one\"]\n[Annotator \"damas annotate\"]\n[GameType \"21\"]\n\n"
              "1. 11-15 23-19 2. 8-11 22-17 {damas: never inside the tablebase} *\n\n");
    EXPECT_NE(r.out.find("1... 18-14 {White wins, dtw "), std::string::npos) << r.out;
}

TEST_F(AnnotateCli, WithoutRuleTablesPureValuesAndANote) {
    const std::string path =
        file("pure.pdn", "[FEN \"W:WK18,K19:BK1\"]\n1... 18-14 1-5 2. 14-10 *\n");
    const CliRun r = annotate(path, {}, pure_db());
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto tb = Tablebase::open(pure_db());
    const ProbeResult start = tb->probe_dtw(english, parse_fen(english, "W:WK18,K19:BK1"));
    ASSERT_EQ(start.value, Value::win);
    EXPECT_NE(r.out.find("{White wins, dtw " + std::to_string(start.plies) + "} 1... 18-14"),
              std::string::npos)
        << r.out;
    EXPECT_EQ(r.out.find("dtr"), std::string::npos) << r.out;
    EXPECT_NE(r.err.find("pure values only (a rule table is missing)"), std::string::npos);
    EXPECT_NE(r.err.find("damas: note: no rule table"), std::string::npos) << r.err;
    const json j = json_of({"annotate", "-v", "english", "-d", pure_db().string(), path});
    EXPECT_TRUE(j["games"][0].contains("rules_missing"));
    EXPECT_FALSE(j["games"][0]["start"].contains("rules"));
}

// A folder generated with --metric mtc: every position of an optimal line (`damas line`) is
// annotated with its MTC as the probing engine gives it, marked "mtc", without a rule value.
TEST_F(AnnotateCli, MtcClassesAreAnnotatedWithTheirMtc) {
    const std::filesystem::path mtc = dir_->path / "mtc";
    GenerateOptions o = test::generate_options(english, 3, mtc);
    o.metric = Metric::mtc;
    test::generate_quietly(o);
    const std::string start = "W:WK18,K19:BK1";
    const json line = json_of({"line", "-v", "english", "-d", mtc.string(), start});
    const std::string path =
        file("mtc.pdn", "[FEN \"" + start + "\"]\n" + line["pdn"].get<std::string>() + " *\n");
    const auto tb = Tablebase::open(mtc);
    const auto expect_mtc = [&](const json& after, const std::string& fen) {
        const ProbeResult r = tb->probe_distance(english, parse_fen(english, fen));
        EXPECT_EQ(after["value"], value_name(r.value)) << fen;
        if (r.value != Value::draw && r.plies == 0) return;  // game over: no class, no distance
        ASSERT_EQ(r.metric, Metric::mtc) << fen;
        EXPECT_FALSE(after.contains("dtw")) << after;
        EXPECT_EQ(after["mtc"], r.value == Value::draw ? json(nullptr) : json(r.plies)) << fen;
        if (r.value != Value::draw && r.plies > 0) {
            EXPECT_NE(after["comment"].get<std::string>().find(", mtc " + std::to_string(r.plies)),
                      std::string::npos)
                << after;
        }
    };
    const json j = json_of({"annotate", "-v", "english", "-d", mtc.string(), path});
    const json& game = j["games"][0];
    expect_mtc(game["start"], start);
    ASSERT_EQ(game["moves"].size(), line["line"].size());
    for (const json& m : game["moves"]) expect_mtc(m["after"], m["fen_after"]);
    EXPECT_EQ(game["rules_missing"], "the move-limit rules need the class's dtw file; it has mtc");
    const CliRun r = annotate(path, {}, mtc);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const ProbeResult first = tb->probe_distance(english, parse_fen(english, start));
    EXPECT_NE(r.out.find("{White wins, mtc " + std::to_string(first.plies) + "} 1..."),
              std::string::npos)
        << r.out;
}

// Without -v the first [GameType] tag names the variant; a tag already there is kept.
TEST_F(AnnotateCli, TheGameTypeTagChoosesTheVariant) {
    const std::string path = file("typed.pdn",
                                  "[GameType \"21,B,8,8,A0,0\"]\n[FEN \"W:WK18,K19:BK1\"]\n"
                                  "1... 18-14 *\n\n[FEN \"W:WK18,K19:BK1\"]\n1... 18-14 *\n");
    const CliRun r = damas({"annotate", "-d", db().string(), path});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const CliRun with_v = annotate(path);
    EXPECT_EQ(r.out, with_v.out);
    const std::vector<PdnGame> games = read_pdn(r.out);
    ASSERT_EQ(games.size(), 2u);
    EXPECT_EQ(games[0].tag("GameType"), "21,B,8,8,A0,0");
    EXPECT_EQ(games[1].tag("GameType"), "21");
    const auto error_of = [&](const std::string& name, const std::string& text) {
        const CliRun e = damas({"annotate", "-d", db().string(), file(name, text)});
        EXPECT_EQ(e.exit_code, 2);
        return e.err;
    };
    EXPECT_NE(error_of("untyped.pdn", "1. 11-15 *\n").find("no --variant and no [GameType] tag"),
              std::string::npos);
    EXPECT_NE(error_of("frisian.pdn", "[GameType \"40\"]\n1. 32-28 *\n")
                  .find("[GameType \"40\"] names no variant damas has"),
              std::string::npos);
    // International's tag with only english tables: the folder's error, naming international.
    EXPECT_NE(error_of("intl.pdn", "[GameType \"20\"]\n1. 32-28 *\n").find("no international"),
              std::string::npos);
}

// Every move `damas moves` prints reads back in annotate, the captures that share from and to
// with their captured squares in brackets (c3 to c7 over b4, b6 or over d4, d6): one game per
// printed move, each move's notation as moves printed it.
TEST_F(AnnotateCli, ReadsBackEveryMoveDamasMovesPrints) {
    const GeometryTables& g = geometry_tables(english.info());
    Position p;
    p.pieces[0] = bit(g.bit_at(2, 2)) | bit(g.bit_at(7, 1));
    for (const auto& [x, y] : {std::pair{1, 3}, {3, 3}, {1, 5}, {3, 5}})
        p.pieces[1] |= bit(g.bit_at(x, y));
    p.pieces[1] |= bit(g.bit_at(6, 6));
    const std::string fen = to_fen(english, p);
    const CliRun moves = damas({"moves", "-v", "english", "--fen", fen});
    ASSERT_EQ(moves.exit_code, 0) << moves.err;
    std::vector<std::string> printed;
    std::string pdn;
    for (std::size_t start = 0, end; (end = moves.out.find('\n', start)) != std::string::npos;
         start = end + 1) {
        printed.push_back(moves.out.substr(start, end - start));
        pdn += "[FEN \"" + fen + "\"]\n1. " + printed.back() + " *\n\n";
    }
    ASSERT_EQ(printed.size(), 2u) << moves.out;  // the capture is compulsory
    for (const std::string& m : printed) EXPECT_NE(m.find('['), std::string::npos) << m;
    const json out =
        json_of({"annotate", "-v", "english", "-d", db().string(), file("printed.pdn", pdn)});
    ASSERT_EQ(out["games"].size(), printed.size());
    for (std::size_t i = 0; i < printed.size(); ++i) {
        EXPECT_EQ(out["games"][i]["moves"][0]["move"], printed[i]);
        EXPECT_EQ(out["games"][i]["moves"][0]["notation"], printed[i]);
    }
    EXPECT_NE(out["games"][1]["moves"][0]["fen_after"], out["games"][0]["moves"][0]["fen_after"]);
    // svg --move reads them too.
    EXPECT_EQ(damas({"svg", "-v", "english", fen, "--move", printed[1], "-o", "-"}).exit_code, 0);
}

// A long game streams: the PDN written as text, to -o and inside --json is the same, with a
// comment on every position, and the JSON has every move.
TEST_F(AnnotateCli, ALongGameIsTheSameInEveryOutput) {
    std::string pdn = "[FEN \"W:WK32:BK1\"]\n";
    const int rounds = 2000;
    for (int n = 1; n <= rounds; ++n)
        pdn += std::to_string(n) + (n % 2 ? ". 32-27 1-6 " : ". 27-32 6-1 ");
    pdn += "*\n";
    const std::string path = file("long.pdn", pdn);
    const CliRun text = annotate(path);
    ASSERT_EQ(text.exit_code, 0) << text.err;
    const std::string out = (dir_->path / "long-out.pdn").string();
    const CliRun to_file = annotate(path, {"-o", out});
    ASSERT_EQ(to_file.exit_code, 0) << to_file.err;
    EXPECT_EQ(slurp(out), text.out);
    const json j = json_of({"annotate", "-v", "english", "-d", db().string(), path, "-o",
                            (dir_->path / "long-out2.pdn").string()});
    EXPECT_EQ(j["pdn"], text.out);
    EXPECT_EQ(slurp(dir_->path / "long-out2.pdn"), text.out);
    ASSERT_EQ(j["games"].size(), 1u);
    EXPECT_EQ(j["games"][0]["moves"].size(), 2u * rounds);
    EXPECT_EQ(j["games"][0]["moves"].back()["after"]["comment"], "draw");
    EXPECT_EQ(text.err, j["games"][0]["summary"].get<std::string>() + "\n");
    std::size_t comments = 0;
    for (std::size_t at = 0; (at = text.out.find("{draw}", at)) != std::string::npos; ++at)
        ++comments;
    EXPECT_EQ(comments, 2u * rounds + 1);  // the start and every move
    EXPECT_EQ(read_pdn(text.out).at(0).moves.size(), 2u * rounds);
}

TEST_F(AnnotateCli, ErrorsNameTheGameTheMoveOrTheLine) {
    const auto expect_error = [](const CliRun& r, const std::string& message) {
        EXPECT_EQ(r.exit_code, 2);
        EXPECT_TRUE(r.out.empty()) << r.out;
        EXPECT_EQ(r.err, "damas: error: " + message + "\n");
    };
    const std::string illegal = file("illegal.pdn",
                                     "[Event \"fine\"]\n1. 11-15 23-19 *\n\n"
                                     "[White \"Cy\"]\n[Black \"Di\"]\n"
                                     "1. 11-15 23-19\n2. 8-11 22-18 3. 9-13 *\n");
    // 15x22 is compulsory.
    expect_error(annotate(illegal),
                 "game 2 (Cy vs Di), move 3 (Black, line 7): 9-13 is not a legal move in "
                 "B:W18,19,21,24-32:B1-7,9-12,15");
    expect_error(annotate(file("unclosed.pdn", "[Event \"x\"]\n\n1. 11-15 {never\n")),
                 dir_->path.string() + "/unclosed.pdn: line 3: a comment '{' is not closed by '}'");
    expect_error(
        annotate((dir_->path / "none.pdn").string()),
        "cannot read " + (dir_->path / "none.pdn").string() + ": No such file or directory");
    expect_error(annotate(file("type.pdn", "[GameType \"20\"]\n1. 32-28 *\n")),
                 "game 1: [GameType \"20\"] is not english (GameType 21)");
    expect_error(annotate(file("garbage.pdn", "[GameType \"garbage\"]\n1. 11-15 *\n")),
                 "game 1: [GameType \"garbage\"] is not a game type damas plays (english is "
                 "GameType 21)");
    expect_error(annotate(file("type23.pdn", "[GameType \"23\"]\n1. 11-15 *\n")),
                 "game 1: [GameType \"23\"] is not a game type damas plays (english is "
                 "GameType 21)");
    EXPECT_EQ(annotate(file("type21.pdn", "[GameType \"21,B,8,8,N1,0\"]\n1. 11-15 *\n")).exit_code,
              0);
    // The error is found before anything is written, the file's last game included.
    const std::string late = file("late.pdn",
                                  "[Event \"fine\"]\n1. 11-15 *\n\n1. 11-15 23-19 "
                                  "2. 8-11 22-18 3. 9-13 *\n");
    expect_error(annotate(late, {"-o", (dir_->path / "late-out.pdn").string()}),
                 "game 2, move 3 (Black, line 4): 9-13 is not a legal move in "
                 "B:W18,19,21,24-32:B1-7,9-12,15");
    EXPECT_FALSE(std::filesystem::exists(dir_->path / "late-out.pdn"));
    expect_error(annotate(file("fen.pdn", "[FEN \"W:W33:B1\"]\n1. 33-29 *\n")),
                 "game 1: [FEN \"W:W33:B1\"]: square '33' is not a playable square of the "
                 "english board");
    expect_error(annotate(file("word.pdn", "1. 11-15 resign *\n")),
                 dir_->path.string() +
                     "/word.pdn: line 1: 'resign' is neither a move, a move number nor a result");
    // With --json the error is JSON too.
    const CliRun j = annotate(illegal, {"--json"});
    EXPECT_EQ(j.exit_code, 2);
    EXPECT_EQ(json::parse(j.out)["error"].get<std::string>().rfind("game 2 (Cy vs Di), move 3", 0),
              0u);
}

}  // namespace
}  // namespace damas
