// Tablebase::probe_rules, the rule-aware probe on the engine's one registry of open files: the
// statuses it returns instead of exceptions (no rule table, with the file's path; bad counts;
// a class not in the database), and the rule value's distance against the count it is given:
// a win at dtr distance d stays a win with d plies left on the count and is a draw with d - 1.
// (The values themselves are checked against the rule texts in tests/limits.)
#include <gtest/gtest.h>

#include <thread>
#include <vector>

#include "probe/probe.hpp"
#include "rules/notation.hpp"
#include "test_probe_fixtures.hpp"

namespace damas {
namespace {

using test::ScratchDir;

const Variant rules_english{BaseVariant::english, false};

class ProbeRules : public testing::Test {
  protected:
    static void SetUpTestSuite() {
        db_ = new ScratchDir("probe-rules");
        test::generate_quietly(rules_english, 3, db_->path);
    }
    static void TearDownTestSuite() {
        delete db_;
        db_ = nullptr;
    }
    static void generate_rule_tables() {
        test::generate_rules_quietly(rules_english, 3, db_->path);
    }
    static ScratchDir* db_;
};
ScratchDir* ProbeRules::db_ = nullptr;

TEST_F(ProbeRules, StatusesInsteadOfExceptions) {
    const auto tb = Tablebase::open(db_->path);
    const DrawRules rules = draw_rules(rules_english);
    const Position p = parse_fen(rules_english, "W:WK18,K19:BK1");
    RulesResult r = tb->probe_rules(rules, p, {});
    ASSERT_EQ(r.status, ProbeStatus::no_rule_table);
    EXPECT_EQ(r.missing_table, table_path(db_->path, rules_english, "0201", Metric::dtr));

    RuleCounters negative;
    negative.plies_since_capture = -1;
    EXPECT_EQ(tb->probe_rules(rules, p, negative).status, ProbeStatus::invalid_argument);
    RuleCounters forcada;
    forcada.forcada_plies = 3;
    EXPECT_EQ(tb->probe_rules(rules, p, forcada).status, ProbeStatus::invalid_argument);

    const Position four = parse_fen(rules_english, "W:WK18,K19,K20:BK1");
    EXPECT_EQ(tb->probe_rules(rules, four, {}).status, ProbeStatus::not_in_database);
}

TEST_F(ProbeRules, DistanceAgainstTheCount) {
    generate_rule_tables();
    const auto tb = Tablebase::open(db_->path);
    const DrawRules rules = draw_rules(rules_english);
    for (const char* fen : {"W:WK18,K19:BK1", "B:WK18,K19:BK1", "W:WK14:B3,K30", "B:W22:BK5"}) {
        const Position p = parse_fen(rules_english, fen);
        const RulesResult fresh = tb->probe_rules(rules, p, {});
        ASSERT_TRUE(fresh.ok()) << fen << ": " << probe_status_name(fresh.status);
        const ProbeResult pure = tb->probe_dtw(rules_english, p);
        EXPECT_EQ(fresh.answer.pure.value, pure.value) << fen;
        EXPECT_EQ(fresh.answer.pure.plies, pure.plies) << fen;
        EXPECT_EQ(fresh.answer.plies_left, rules.king_limit_plies) << fen;
        // 80 plies: every 3-piece english win is won under the 40-move rule from a fresh count.
        EXPECT_EQ(fresh.answer.rule.value, pure.value) << fen;
        if (pure.value == Value::draw) continue;
        const int d = fresh.answer.rule.plies;
        ASSERT_GT(d, 0) << fen;
        RuleCounters just_enough;
        just_enough.plies_since_capture = rules.king_limit_plies - d;
        const RulesResult enough = tb->probe_rules(rules, p, just_enough);
        ASSERT_TRUE(enough.ok()) << fen;
        EXPECT_EQ(enough.answer.rule, fresh.answer.rule) << fen;
        EXPECT_EQ(enough.answer.plies_left, d) << fen;
        RuleCounters one_short = just_enough;
        ++one_short.plies_since_capture;
        const RulesResult shortfall = tb->probe_rules(rules, p, one_short);
        ASSERT_TRUE(shortfall.ok()) << fen;
        EXPECT_EQ(shortfall.answer.rule.value, Value::draw) << fen;
        EXPECT_TRUE(shortfall.answer.differs()) << fen;
    }
}

// CachedReadsOnly (probe.hpp) on the rule-aware and root probes: on a cold handle every read
// answers not_in_cache, with no message and nothing cached; once the normal probes have loaded
// the tables, the same answers as they give. The mode is the calling thread's only.
TEST_F(ProbeRules, CachedReadsOnlyAnswersFromWhatIsLoaded) {
    generate_rule_tables();
    int messages = 0;
    const auto tb = Tablebase::open(db_->path, 4, 0, [&](const std::string&) { ++messages; });
    const DrawRules rules = draw_rules(rules_english);
    RuleCounters counters;
    counters.plies_since_capture = 10;
    const std::vector<Position> positions = {
        parse_fen(rules_english, "W:WK18,K19:BK1"), parse_fen(rules_english, "B:WK18,K19:BK1"),
        parse_fen(rules_english, "W:WK14:B3,K30"), parse_fen(rules_english, "W:WK18:BK14,K1")};
    std::vector<RootMove> moves;
    {
        const CachedReadsOnly cached;
        for (const Position& p : positions) {
            EXPECT_EQ(tb->probe_wdl(rules_english, p).status, ProbeStatus::not_in_cache);
            EXPECT_EQ(tb->probe_dtw(rules_english, p).status, ProbeStatus::not_in_cache);
            EXPECT_EQ(tb->probe_rules(rules, p, counters).status, ProbeStatus::not_in_cache);
            EXPECT_EQ(tb->probe_root(rules_english, p, moves, &rules, counters),
                      ProbeStatus::not_in_cache);
        }
        std::uint16_t dtr = 0;
        EXPECT_EQ(tb->read_rule_value(rules, positions[0], Regime::king_moves, dtr),
                  ProbeStatus::not_in_cache);
        // Another thread probes as usual meanwhile.
        const auto other = Tablebase::open(db_->path);
        ProbeStatus elsewhere = ProbeStatus::not_in_cache;
        std::thread([&] {
            elsewhere = other->probe_dtw(rules_english, positions[0]).status;
        }).join();
        EXPECT_EQ(elsewhere, ProbeStatus::ok);
    }
    EXPECT_EQ(messages, 0);
    EXPECT_EQ(tb->cache_stats().insertions, 0u);
    for (const Position& p : positions) {
        const ProbeResult dtw = tb->probe_dtw(rules_english, p);
        const RulesResult rule = tb->probe_rules(rules, p, counters);
        std::vector<RootMove> want;
        ASSERT_EQ(tb->probe_root(rules_english, p, want, &rules, counters), ProbeStatus::ok);
        ASSERT_TRUE(dtw.ok() && rule.ok());
        const CachedReadsOnly cached;
        const ProbeResult dtw_cached = tb->probe_dtw(rules_english, p);
        ASSERT_TRUE(dtw_cached.ok());
        EXPECT_EQ(dtw_cached.value, dtw.value);
        EXPECT_EQ(dtw_cached.plies, dtw.plies);
        const RulesResult rule_cached = tb->probe_rules(rules, p, counters);
        ASSERT_TRUE(rule_cached.ok());
        EXPECT_EQ(rule_cached.answer.rule, rule.answer.rule);
        EXPECT_EQ(rule_cached.answer.pure, rule.answer.pure);
        ASSERT_EQ(tb->probe_root(rules_english, p, moves, &rules, counters), ProbeStatus::ok);
        ASSERT_EQ(moves.size(), want.size());
        for (std::size_t i = 0; i < moves.size(); ++i) {
            EXPECT_EQ(moves[i].notation, want[i].notation);
            EXPECT_EQ(moves[i].result.value, want[i].result.value);
            EXPECT_EQ(moves[i].result.plies, want[i].result.plies);
            EXPECT_EQ(moves[i].rule, want[i].rule);
        }
    }
    EXPECT_EQ(messages, 0);
}

}  // namespace
}  // namespace damas
