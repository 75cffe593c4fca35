// The C interface (damas_probe.h): opening and its error message, probes from square masks
// agreeing with the C++ API, bad arguments, variant numbers and names, status strings.
#include <gtest/gtest.h>

#include <random>

#include "probe/damas_probe.h"
#include "probe/probe.hpp"
#include "test_probe_fixtures.hpp"

namespace damas {
namespace {

using test::ScratchDir;

class CApi : public testing::Test {
  protected:
    static void SetUpTestSuite() {
        dir_ = new ScratchDir("c-api");
        test::make_database(dir_->path, *parse_variant("english"), 3);
        test::make_database(dir_->path, *parse_variant("turkish-giveaway"), 2);
        test::make_database(dir_->path, *parse_variant("brazilian"), 3);
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

}  // namespace
}  // namespace damas
