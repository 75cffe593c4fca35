// The C interface (damas_probe.h): opening and its error message, probes from square masks
// agreeing with the C++ API, bad arguments, variant numbers and names, status strings; FEN
// parsing and printing, the root probe (each move's value against a probe of the position after
// it, the best move's against the root's), the rule-aware probe and the message callback.
#include <gtest/gtest.h>

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "probe/damas_probe.h"
#include "probe/probe.hpp"
#include "rules/legal_moves.hpp"
#include "rules/movegen.hpp"
#include "rules/notation.hpp"
#include "test_probe_fixtures.hpp"

namespace damas {
namespace {

using test::ScratchDir;

class CApi : public testing::Test {
  protected:
    static void SetUpTestSuite() {
        dir_ = new ScratchDir("c-api");
        test::generate_quietly(*parse_variant("english"), 3, dir_->path);
        test::generate_quietly(*parse_variant("turkish-giveaway"), 2, dir_->path);
        test::generate_quietly(*parse_variant("brazilian"), 3, dir_->path);
    }
    static void TearDownTestSuite() {
        delete dir_;
        dir_ = nullptr;
    }
    void SetUp() override {
        char error[200];
        tb = damas_open(dir_->path.c_str(), 8, 0, error, sizeof error);
        ASSERT_NE(tb, nullptr) << error;
        EXPECT_STREQ(error, "");
    }
    void TearDown() override { damas_close(tb); }

    static ScratchDir* dir_;
    damas_tablebase* tb = nullptr;
};
ScratchDir* CApi::dir_ = nullptr;

int side_of(const Position& p) {
    return p.side == Color::white ? DAMAS_WHITE : DAMAS_BLACK;
}

TEST_F(CApi, OpenFailureGivesAMessage) {
    char error[64];
    EXPECT_EQ(damas_open("/nonexistent/damas-db", 8, 0, error, sizeof error), nullptr);
    EXPECT_NE(std::string(error).find("no database folder"), std::string::npos) << error;
    char tiny[8];
    EXPECT_EQ(damas_open("/nonexistent/damas-db", 8, 0, tiny, sizeof tiny), nullptr);
    EXPECT_EQ(std::string(tiny).size(), 7u);  // cut, NUL-terminated
    EXPECT_EQ(damas_open(nullptr, 8, 0, nullptr, 0), nullptr);
    damas_close(nullptr);
}

TEST_F(CApi, AgreesWithCpp) {
    const auto cpp = Tablebase::open(dir_->path, 8);
    for (const char* name : {"english", "turkish-giveaway", "brazilian"}) {
        const Variant v = *parse_variant(name);
        const int number = damas_variant_from_name(name);
        ASSERT_GE(number, 0);
        EXPECT_STREQ(damas_variant_name(number), name);
        std::mt19937_64 rng(3);
        for (const Material m : classes_up_to(2)) {
            const ClassIndex index(v.info().board, m);
            for (int k = 0; k < 200; ++k) {
                Position p = index.unindex(rng() % index.size());
                if (k % 2) p = flip(v.info().board, p);
                const SquareMasks s = masks_from_position(v, p);
                const ProbeResult w = cpp->probe_wdl(v, p), d = cpp->probe_dtw(v, p);
                const damas_result cw =
                    damas_probe_wdl(tb, number, s.white, s.black, s.kings, side_of(p));
                const damas_result cd =
                    damas_probe_dtw(tb, number, s.white, s.black, s.kings, side_of(p));
                ASSERT_EQ(cw.status, DAMAS_OK) << damas_status_string(cw.status);
                EXPECT_EQ(cw.value, static_cast<int>(w.value));
                EXPECT_EQ(cw.plies, 0);
                ASSERT_EQ(cd.status, DAMAS_OK);
                EXPECT_EQ(cd.value, static_cast<int>(d.value));
                EXPECT_EQ(cd.plies, d.plies);
                const damas_result cc =
                    damas_probe_wdl_cached(tb, number, s.white, s.black, s.kings, side_of(p));
                ASSERT_EQ(cc.status, DAMAS_OK);
                EXPECT_EQ(cc.value, cw.value);
            }
        }
    }
}

TEST_F(CApi, KnownPositions) {
    // english: white kings on 18 and 19 against a black king on 1 (PDN squares 18, 19, 1).
    const std::uint64_t white = (1ull << 17) | (1ull << 18), black = 1ull << 0;
    const damas_result r =
        damas_probe_dtw(tb, DAMAS_ENGLISH, white, black, white | black, DAMAS_WHITE);
    ASSERT_EQ(r.status, DAMAS_OK);
    EXPECT_EQ(r.value, DAMAS_WIN);
    EXPECT_GT(r.plies, 0);
    EXPECT_EQ(r.plies % 2, 1);
    // A capture: the king on 18 takes the man on 14 and Black has nothing left.
    const damas_result c =
        damas_probe_dtw(tb, DAMAS_ENGLISH, 1ull << 17, 1ull << 13, 1ull << 17, DAMAS_WHITE);
    ASSERT_EQ(c.status, DAMAS_OK);
    EXPECT_EQ(c.value, DAMAS_WIN);
    EXPECT_EQ(c.plies, 1);
    // Giveaway on the turkish board: a1 = bit 0, h8 = bit 63.
    const damas_result g = damas_probe_wdl(tb, DAMAS_TURKISH | DAMAS_GIVEAWAY, 1ull << 0,
                                           1ull << 63, (1ull << 0) | (1ull << 63), DAMAS_BLACK);
    EXPECT_EQ(g.status, DAMAS_OK);
    EXPECT_EQ(damas_largest(tb, DAMAS_ENGLISH), 3);
    EXPECT_EQ(damas_largest(tb, DAMAS_TURKISH | DAMAS_GIVEAWAY), 2);
    EXPECT_EQ(damas_largest(tb, DAMAS_INTERNATIONAL), 0);
}

TEST_F(CApi, BadArguments) {
    const std::uint64_t w = 1ull << 17, b = 1ull << 0;
    EXPECT_EQ(damas_probe_wdl(nullptr, DAMAS_ENGLISH, w, b, w | b, DAMAS_WHITE).status,
              DAMAS_INVALID_ARGUMENT);
    EXPECT_EQ(damas_probe_wdl(tb, 7, w, b, w | b, DAMAS_WHITE).status, DAMAS_INVALID_ARGUMENT);
    EXPECT_EQ(damas_probe_wdl(tb, -1, w, b, w | b, DAMAS_WHITE).status, DAMAS_INVALID_ARGUMENT);
    EXPECT_EQ(damas_probe_wdl(tb, DAMAS_ENGLISH, w, b, w | b, 2).status, DAMAS_INVALID_ARGUMENT);
    // Square 33 does not exist in english; two pieces on square 18; a king that is no piece.
    EXPECT_EQ(damas_probe_wdl(tb, DAMAS_ENGLISH, 1ull << 32, b, b, DAMAS_WHITE).status,
              DAMAS_INVALID_POSITION);
    EXPECT_EQ(damas_probe_wdl(tb, DAMAS_ENGLISH, w, w, w, DAMAS_WHITE).status,
              DAMAS_INVALID_POSITION);
    EXPECT_EQ(damas_probe_wdl(tb, DAMAS_ENGLISH, w, b, 1ull << 5, DAMAS_WHITE).status,
              DAMAS_INVALID_POSITION);
    const damas_result r = damas_probe_dtw(tb, DAMAS_INTERNATIONAL, w, b, w | b, DAMAS_WHITE);
    EXPECT_EQ(r.status, DAMAS_NOT_IN_DATABASE);
    EXPECT_EQ(r.value, DAMAS_UNKNOWN);
}

// Issue 23, item 5: limits and statuses.
TEST_F(CApi, ACacheTooLargeIsRefused) {
    char error[200];
    // 2^44 MiB is 2^64 bytes: it used to wrap to a handle without a cache.
    EXPECT_EQ(damas_open(dir_->path.c_str(), std::size_t{1} << 44, 0, error, sizeof error),
              nullptr);
    EXPECT_NE(std::string(error).find("is too large (at most 1048576 MiB"), std::string::npos)
        << error;
    EXPECT_EQ(damas_open(dir_->path.c_str(), DAMAS_MAX_CACHE_MIB + 1, 0, error, sizeof error),
              nullptr);
}

// A copy of the english tables of the suite's folder, in a folder of its own.
void copy_english(const std::filesystem::path& from, const std::filesystem::path& to) {
    std::filesystem::create_directories(to / "english");
    for (const auto& e : std::filesystem::directory_iterator(from / "english"))
        std::filesystem::copy_file(e.path(), to / "english" / e.path().filename());
}

TEST_F(CApi, LargestCountsOnlyCompleteClasses) {
    const ScratchDir dir("c-api-largest");
    copy_english(dir_->path, dir.path);
    const std::filesystem::path folder = dir.path / "english";
    {
        std::ofstream stray(folder / "4040.wdl");
        stray << "not a table";
    }
    std::filesystem::copy_file(folder / "0201.wdl", folder / "0203.wdl");  // another class's
    std::filesystem::copy_file(folder / "0201.wdl", folder / "0202.wdl");
    std::filesystem::copy_file(folder / "0201.dtw", folder / "0202.dtw");
    std::filesystem::copy_file(folder / "1101.wdl", folder / "1102.wdl");  // no dtw
    damas_tablebase* h = damas_open(dir.path.c_str(), 8, 0, nullptr, 0);
    ASSERT_NE(h, nullptr);
    EXPECT_EQ(damas_largest(h, DAMAS_ENGLISH), 3);
    damas_close(h);
}

// A file that cannot be opened for lack of permission is an I/O error, not a corrupt file. Root
// reads any file, so the probe runs in a child process as nobody.
TEST_F(CApi, APermissionErrorIsAnIoError) {
    const ScratchDir dir("c-api-permission");
    copy_english(dir_->path, dir.path);
    const std::filesystem::path file = dir.path / "english" / "0201.wdl";
    std::filesystem::permissions(file, std::filesystem::perms::none);
    const Variant c_api_english = *parse_variant("english");
    const ClassIndex index(c_api_english.info().board, *Material::parse("0201"));
    Position quiet = index.unindex(0);
    for (std::uint64_t i = 0; MoveGenerator<English>::has_capture(quiet); ++i)
        quiet = index.unindex(i);
    const SquareMasks m = masks_from_position(c_api_english, quiet);
    const std::string fen = to_fen(c_api_english, quiet);
    const damas_rule_counts fresh = {0, 0, -1, DAMAS_EDITION_SEED, DAMAS_FORCADA_SIDE_UNKNOWN};
    // Every probe function, each on a fresh handle (a handle keeps a file's state): the first
    // status that is not DAMAS_ERROR_IO, or DAMAS_ERROR_IO.
    const std::function<int(damas_tablebase*)> probes[] = {
        [&](damas_tablebase* h) {
            return damas_probe_wdl(h, DAMAS_ENGLISH, m.white, m.black, m.kings, DAMAS_WHITE).status;
        },
        [&](damas_tablebase* h) { return damas_probe_fen(h, DAMAS_ENGLISH, fen.c_str()).status; },
        [&](damas_tablebase* h) {
            return damas_probe_rules_fen(h, DAMAS_ENGLISH, fen.c_str(), &fresh).status;
        },
        [&](damas_tablebase* h) {
            damas_root_move moves[DAMAS_MAX_MOVES];
            int n = 0;
            return damas_probe_root_fen(h, DAMAS_ENGLISH, fen.c_str(), &fresh, moves,
                                        DAMAS_MAX_MOVES, &n);
        },
    };
    const auto probe_status = [&] {
        for (const auto& probe : probes) {
            damas_tablebase* h = damas_open(dir.path.c_str(), 8, 0, nullptr, 0);
            if (!h) return -1;
            const int status = probe(h);
            damas_close(h);
            if (status != DAMAS_ERROR_IO) return status;
        }
        return static_cast<int>(DAMAS_ERROR_IO);
    };
    if (::geteuid() != 0) {
        EXPECT_EQ(probe_status(), DAMAS_ERROR_IO);
        return;
    }
    const pid_t child = ::fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
        if (::setgid(65534) != 0 || ::setuid(65534) != 0) ::_exit(100);
        ::_exit(probe_status() & 0xff);
    }
    int status = 0;
    ASSERT_EQ(::waitpid(child, &status, 0), child);
    ASSERT_TRUE(WIFEXITED(status));
    EXPECT_EQ(WEXITSTATUS(status), DAMAS_ERROR_IO) << "3 is DAMAS_ERROR_CORRUPT, 100: no setuid";
}

TEST_F(CApi, NamesAndStrings) {
    EXPECT_EQ(damas_variant_from_name("english-giveaway"), DAMAS_ENGLISH | DAMAS_GIVEAWAY);
    EXPECT_EQ(damas_variant_from_name("international"), DAMAS_INTERNATIONAL);
    EXPECT_EQ(damas_variant_from_name("englis"), -1);
    EXPECT_EQ(damas_variant_from_name(nullptr), -1);
    EXPECT_EQ(damas_variant_name(99), nullptr);
    EXPECT_STREQ(damas_variant_name(DAMAS_TURKISH | DAMAS_GIVEAWAY), "turkish-giveaway");
    EXPECT_STREQ(damas_status_string(DAMAS_OK), "ok");
    EXPECT_STREQ(damas_status_string(DAMAS_NOT_IN_CACHE), "not in the cache");
    EXPECT_STREQ(damas_status_string(DAMAS_INVALID_ARGUMENT), "invalid argument");
    EXPECT_STREQ(damas_status_string(42), "unknown status");
    EXPECT_STREQ(damas_value_string(DAMAS_WIN), "win");
    EXPECT_STREQ(damas_value_string(-3), "unknown");
}

TEST_F(CApi, FenParseAndPrint) {
    std::uint64_t w = 0, b = 0, k = 0;
    int side = -1;
    char error[200];
    ASSERT_EQ(
        damas_parse_fen(DAMAS_ENGLISH, "W:WK18,K19:BK1", &w, &b, &k, &side, error, sizeof error),
        DAMAS_OK)
        << error;
    EXPECT_EQ(w, (1ull << 17) | (1ull << 18));
    EXPECT_EQ(b, 1ull);
    EXPECT_EQ(k, w | b);
    EXPECT_EQ(side, DAMAS_WHITE);
    char fen[200];
    ASSERT_EQ(damas_print_fen(DAMAS_ENGLISH, w, b, k, side, fen, sizeof fen), DAMAS_OK);
    EXPECT_STREQ(fen, to_fen(*parse_variant("english"),
                             parse_fen(*parse_variant("english"), "W:WK18,K19:BK1"))
                          .c_str());
    // The PDN tag form, and a black-to-move brazilian position with men.
    ASSERT_EQ(damas_parse_fen(DAMAS_ENGLISH, "[FEN \"B:W22:BK5\"]", &w, &b, &k, &side, error,
                              sizeof error),
              DAMAS_OK)
        << error;
    EXPECT_EQ(w, 1ull << 21);
    EXPECT_EQ(side, DAMAS_BLACK);
    EXPECT_EQ(damas_parse_fen(DAMAS_ENGLISH, "W:W99:B1", &w, &b, &k, &side, error, sizeof error),
              DAMAS_INVALID_ARGUMENT);
    EXPECT_STRNE(error, "");
    EXPECT_EQ(damas_print_fen(DAMAS_ENGLISH, 1ull << 40, b, 0, DAMAS_WHITE, fen, sizeof fen),
              DAMAS_INVALID_POSITION);
    char tiny[4];
    EXPECT_EQ(damas_print_fen(DAMAS_ENGLISH, 1ull << 17, 1ull, 0, DAMAS_WHITE, tiny, sizeof tiny),
              DAMAS_INVALID_ARGUMENT);
    const damas_result r = damas_probe_fen(tb, DAMAS_ENGLISH, "W:WK18,K19:BK1");
    const damas_result m = damas_probe_dtw(tb, DAMAS_ENGLISH, (1ull << 17) | (1ull << 18), 1ull,
                                           (1ull << 17) | (1ull << 18) | 1ull, DAMAS_WHITE);
    EXPECT_EQ(r.status, DAMAS_OK);
    EXPECT_EQ(r.value, m.value);
    EXPECT_EQ(r.plies, m.plies);
    EXPECT_EQ(damas_probe_fen(tb, DAMAS_ENGLISH, "nonsense").status, DAMAS_INVALID_ARGUMENT);
}

// Each move's value is the negation of a probe of the position after it, one ply further; the
// first move (best first) has the root's value and DTW.
TEST_F(CApi, RootProbe) {
    const Variant c_api_english = *parse_variant("english");
    for (const char* fen :
         {"W:WK18,K19:BK1", "B:WK18,K19:BK1", "W:WK14:B3,K30", "B:W22:BK5", "W:W21,22:B5"}) {
        damas_root_move moves[DAMAS_MAX_MOVES];
        int n = -1;
        ASSERT_EQ(damas_probe_root_fen(tb, DAMAS_ENGLISH, fen, nullptr, moves, DAMAS_MAX_MOVES, &n),
                  DAMAS_OK)
            << fen;
        const Position p = parse_fen(c_api_english, fen);
        MoveList legal;
        generate_legal_moves(c_api_english, p, legal);
        ASSERT_EQ(n, static_cast<int>(legal.size())) << fen;
        const damas_result root = damas_probe_fen(tb, DAMAS_ENGLISH, fen);
        ASSERT_EQ(root.status, DAMAS_OK);
        EXPECT_EQ(moves[0].value, root.value) << fen;
        EXPECT_EQ(moves[0].plies, root.plies) << fen;
        for (int i = 0; i < n; ++i) {
            const damas_root_move& m = moves[i];
            EXPECT_EQ(m.rule_value, DAMAS_UNKNOWN);
            bool found = false;
            for (const Move& move : legal) {
                if (move_text(c_api_english.info(), move) != m.notation) continue;
                found = true;
                const Position after = make_move(p, move);
                const std::string after_fen = to_fen(c_api_english, after);
                const damas_result a = damas_probe_fen(tb, DAMAS_ENGLISH, after_fen.c_str());
                ASSERT_EQ(a.status, DAMAS_OK);
                const int expected = a.value == DAMAS_WIN    ? DAMAS_LOSS
                                     : a.value == DAMAS_LOSS ? DAMAS_WIN
                                                             : DAMAS_DRAW;
                EXPECT_EQ(m.value, expected) << fen << " " << m.notation;
                EXPECT_EQ(m.plies, a.value == DAMAS_DRAW ? 0 : a.plies + 1) << m.notation;
                EXPECT_EQ(m.from, square_number(c_api_english.info(), move.from));
                EXPECT_EQ(m.to, square_number(c_api_english.info(), move.to));
            }
            EXPECT_TRUE(found) << m.notation;
        }
        int needed = 0;
        if (n > 1) {
            EXPECT_EQ(damas_probe_root_fen(tb, DAMAS_ENGLISH, fen, nullptr, moves, 1, &needed),
                      DAMAS_INVALID_ARGUMENT);
            EXPECT_EQ(needed, n);
        }
    }
}

TEST_F(CApi, RulesProbeAndRootRules) {
    const damas_rule_counts fresh = {0, 0, -1, DAMAS_EDITION_SEED, DAMAS_FORCADA_SIDE_UNKNOWN};
    const char* fen = "W:WK18,K19:BK1";
    EXPECT_EQ(damas_probe_rules_fen(tb, DAMAS_ENGLISH, fen, &fresh).status, DAMAS_NO_RULE_TABLE);
    test::generate_rules_quietly(*parse_variant("english"), 3, dir_->path);
    damas_close(tb);  // the handle remembers the tables it found missing
    char error[200];
    tb = damas_open(dir_->path.c_str(), 8, 0, error, sizeof error);
    ASSERT_NE(tb, nullptr);
    const damas_rule_result r = damas_probe_rules_fen(tb, DAMAS_ENGLISH, fen, &fresh);
    ASSERT_EQ(r.status, DAMAS_OK);
    const damas_result pure = damas_probe_fen(tb, DAMAS_ENGLISH, fen);
    EXPECT_EQ(r.value, pure.value);
    EXPECT_EQ(r.plies, pure.plies);
    EXPECT_EQ(r.rule_value, DAMAS_WIN);
    EXPECT_EQ(r.plies_left, 80);
    EXPECT_STREQ(r.count, "the 40-move king rule");
    // With one ply fewer on the count than the rule distance, the win is drawn.
    damas_rule_counts late = fresh;
    late.plies_since_capture = 80 - r.rule_plies + 1;
    const damas_rule_result d = damas_probe_rules_fen(tb, DAMAS_ENGLISH, fen, &late);
    ASSERT_EQ(d.status, DAMAS_OK);
    EXPECT_EQ(d.rule_value, DAMAS_DRAW);
    EXPECT_EQ(d.value, DAMAS_WIN);
    // The root with the counts: the best move keeps the rule value, at one ply more; with the
    // late count every move draws under the rules.
    damas_root_move moves[DAMAS_MAX_MOVES];
    int n = 0;
    ASSERT_EQ(damas_probe_root_fen(tb, DAMAS_ENGLISH, fen, &fresh, moves, DAMAS_MAX_MOVES, &n),
              DAMAS_OK);
    ASSERT_GT(n, 0);
    int best_rule = 1 << 20;
    for (int i = 0; i < n; ++i)
        if (moves[i].rule_value == DAMAS_WIN) best_rule = std::min(best_rule, moves[i].rule_plies);
    EXPECT_EQ(best_rule, r.rule_plies);
    ASSERT_EQ(damas_probe_root_fen(tb, DAMAS_ENGLISH, fen, &late, moves, DAMAS_MAX_MOVES, &n),
              DAMAS_OK);
    for (int i = 0; i < n; ++i) EXPECT_NE(moves[i].rule_value, DAMAS_WIN) << moves[i].notation;
    const damas_rule_counts fmjd = {0, 0, -1, DAMAS_EDITION_FMJD, DAMAS_FORCADA_SIDE_UNKNOWN};
    EXPECT_EQ(damas_probe_rules_fen(tb, DAMAS_ENGLISH, fen, &fmjd).status, DAMAS_INVALID_ARGUMENT);
    const damas_rule_counts negative = {-1, 0, -1, DAMAS_EDITION_SEED, DAMAS_FORCADA_SIDE_UNKNOWN};
    EXPECT_EQ(damas_probe_rules_fen(tb, DAMAS_ENGLISH, fen, &negative).status,
              DAMAS_INVALID_ARGUMENT);
    damas_rule_counts side = fresh;
    side.forcada_side = DAMAS_FORCADA_SIDE_BLACK + 1;  // no such side
    EXPECT_EQ(damas_probe_rules_fen(tb, DAMAS_ENGLISH, fen, &side).status, DAMAS_INVALID_ARGUMENT);
    side.forcada_side = DAMAS_FORCADA_SIDE_WHITE;  // the forcada is a portuguese rule
    EXPECT_EQ(damas_probe_rules_fen(tb, DAMAS_ENGLISH, fen, &side).status, DAMAS_INVALID_ARGUMENT);
}

void collect(const char* line, void* user_data) {
    static_cast<std::vector<std::string>*>(user_data)->push_back(line);
}

TEST_F(CApi, MessageCallback) {
    ScratchDir copy("c-api-messages");
    std::filesystem::copy(dir_->path, copy.path, std::filesystem::copy_options::recursive);
    const auto wdl = table_path(copy.path, *parse_variant("english"), "0201", Metric::wdl);
    std::filesystem::resize_file(wdl, std::filesystem::file_size(wdl) - 1);
    std::vector<std::string> lines;
    char error[200];
    damas_tablebase* t =
        damas_open_with_messages(copy.path.c_str(), 8, 0, collect, &lines, error, sizeof error);
    ASSERT_NE(t, nullptr) << error;
    const damas_result r = damas_probe_fen(t, DAMAS_ENGLISH, "W:WK18,K19:BK1");
    EXPECT_NE(r.status, DAMAS_OK);
    ASSERT_EQ(lines.size(), 1u);
    EXPECT_NE(lines[0].find("0201.wdl"), std::string::npos) << lines[0];
    damas_close(t);
}

}  // namespace
}  // namespace damas
