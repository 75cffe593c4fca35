// The installed C++17 interface (probe/damas.hpp, over the C interface) against the library's
// own C++ API: every position of the 2- and 3-piece english classes and of brazilian's 2-piece
// ones, from FENs and masks (value, DTW, the rule-aware probe, every root move); FEN errors,
// a folder that does not open, variant names, and the message callback on a damaged file.
// That the header compiles as C++17 with nothing of the library's internals is checked by the
// damas_public_header_cpp17 target (tests/probe/CMakeLists.txt) and .ci/install-example.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "index/class_index.hpp"
#include "probe/damas.hpp"
#include "probe/probe.hpp"
#include "rules/notation.hpp"
#include "test_probe_fixtures.hpp"

namespace damas {
namespace {

using test::ScratchDir;

class Cpp17Api : public testing::Test {
  protected:
    static void SetUpTestSuite() {
        dir_ = new ScratchDir("cpp17-api");
        test::generate_quietly(*parse_variant("english"), 3, dir_->path);
        test::generate_quietly(*parse_variant("brazilian"), 2, dir_->path);
        test::generate_rules_quietly(*parse_variant("english"), 3, dir_->path);
    }
    static void TearDownTestSuite() {
        delete dir_;
        dir_ = nullptr;
    }
    static ScratchDir* dir_;
};
ScratchDir* Cpp17Api::dir_ = nullptr;

void expect_same(const ProbeResult& want, const api::Result& got, const std::string& fen) {
    ASSERT_EQ(static_cast<int>(got.status), static_cast<int>(want.status)) << fen;
    if (!want.ok()) return;
    EXPECT_EQ(static_cast<int>(got.value), static_cast<int>(want.value)) << fen;
    EXPECT_EQ(got.plies, want.plies) << fen;
}

TEST_F(Cpp17Api, AgreesWithTheLibrary) {
    const auto lib = Tablebase::open(dir_->path, 8);
    const api::Tablebase tb(dir_->path.string(), 8);
    int probes = 0, moves_checked = 0;
    for (const auto& [name, pieces] : {std::pair{"english", 3}, std::pair{"brazilian", 2}}) {
        const Variant v = *parse_variant(name);
        const auto av = api::variant_from_name(name);
        ASSERT_TRUE(av) << name;
        EXPECT_EQ(api::variant_name(*av), name);
        EXPECT_EQ(tb.largest(*av), lib->largest_class(v));
        const DrawRules rules = draw_rules(v);
        for (const Material m : classes_up_to(pieces)) {
            if (m.white() == 0 || m.black() == 0) continue;
            const ClassIndex index(v.info().board, m);
            for (std::uint64_t i = 0; i < index.size(); i += 7) {
                for (const Color side : {Color::white, Color::black}) {
                    Position p = index.unindex(i);
                    p.side = side;
                    const std::string fen = to_fen(v, p);
                    const api::Position ap = api::parse_fen(*av, fen);
                    const SquareMasks masks = masks_from_position(v, p);
                    EXPECT_EQ(ap.white, masks.white) << fen;
                    EXPECT_EQ(ap.black, masks.black) << fen;
                    EXPECT_EQ(ap.kings, masks.kings) << fen;
                    EXPECT_EQ(api::to_fen(*av, ap), fen);
                    expect_same(lib->probe_wdl(v, p), tb.probe_wdl(*av, ap), fen);
                    expect_same(lib->probe_dtw(v, p), tb.probe_dtw(*av, ap), fen);
                    const api::Result cached = tb.probe_wdl_cached(*av, ap);
                    EXPECT_TRUE(cached.ok()) << fen;  // probe_wdl read it
                    ++probes;

                    api::RuleCounts counts;
                    counts.plies_since_capture = 30;
                    RuleCounters counters;
                    counters.plies_since_capture = 30;
                    const RulesResult want = lib->probe_rules(rules, p, counters);
                    const api::RuleResult got = tb.probe_rules(*av, ap, counts);
                    ASSERT_EQ(static_cast<int>(got.status), static_cast<int>(want.status)) << fen;
                    if (want.ok()) {
                        EXPECT_EQ(static_cast<int>(got.value),
                                  static_cast<int>(want.answer.pure.value));
                        EXPECT_EQ(got.plies, want.answer.pure.plies) << fen;
                        EXPECT_EQ(static_cast<int>(got.rule_value),
                                  static_cast<int>(want.answer.rule.value));
                        EXPECT_EQ(got.rule_plies, want.answer.rule.plies) << fen;
                        EXPECT_EQ(got.plies_left, want.answer.plies_left) << fen;
                        EXPECT_EQ(got.exact, want.answer.exact) << fen;
                        EXPECT_EQ(got.count, want.answer.count) << fen;
                    }

                    std::vector<RootMove> want_moves;
                    std::vector<api::RootMove> got_moves;
                    const ProbeStatus ws = lib->probe_root(v, p, want_moves, &rules, counters);
                    const api::Status gs = tb.probe_root(*av, ap, got_moves, &counts);
                    ASSERT_EQ(static_cast<int>(gs), static_cast<int>(ws)) << fen;
                    if (ws != ProbeStatus::ok) continue;
                    ASSERT_EQ(got_moves.size(), want_moves.size()) << fen;
                    for (std::size_t k = 0; k < got_moves.size(); ++k) {
                        const api::RootMove& g = got_moves[k];
                        const RootMove& w = want_moves[k];
                        EXPECT_EQ(g.notation, w.notation) << fen;
                        EXPECT_EQ(static_cast<int>(g.value), static_cast<int>(w.result.value));
                        EXPECT_EQ(g.plies, w.result.plies) << fen;
                        ASSERT_TRUE(g.rule_value && w.rule) << fen;
                        EXPECT_EQ(static_cast<int>(*g.rule_value), static_cast<int>(w.rule->value));
                        EXPECT_EQ(g.rule_plies, w.rule->plies) << fen;
                        ++moves_checked;
                    }
                    // Without counts: no rule values.
                    ASSERT_EQ(tb.probe_root(*av, ap, got_moves), api::Status::ok);
                    for (const api::RootMove& g : got_moves) EXPECT_FALSE(g.rule_value);
                }
            }
        }
    }
    EXPECT_GT(probes, 1000);
    EXPECT_GT(moves_checked, 1000);
}

TEST_F(Cpp17Api, ErrorsAndNames) {
    EXPECT_THROW(api::Tablebase("/nonexistent/damas-db"), api::Error);
    try {
        api::Tablebase("/nonexistent/damas-db");
    } catch (const api::Error& e) {
        EXPECT_NE(std::string(e.what()).find("no database folder"), std::string::npos) << e.what();
    }
    try {
        api::parse_fen(api::Variant::english, "W:W99:B1");
        ADD_FAILURE() << "parsed";
    } catch (const api::Error& e) {
        EXPECT_NE(std::string(e.what()).find("99"), std::string::npos) << e.what();
    }
    EXPECT_THROW(api::to_fen(api::Variant::english, {std::uint64_t{1} << 40, 1, 0}), api::Error);
    EXPECT_FALSE(api::variant_from_name("chess"));
    EXPECT_EQ(api::variant_name(api::giveaway(api::Variant::english)), "english-giveaway");
    EXPECT_STREQ(api::status_name(api::Status::not_in_database), "not in the database");
    EXPECT_STREQ(api::value_name(api::Value::win), "win");
    const api::Tablebase tb(dir_->path.string(), 8, 2);  // at most 2 pieces
    const api::Position three = api::parse_fen(api::Variant::english, "W:WK18,K19:BK1");
    EXPECT_EQ(tb.probe_dtw(api::Variant::english, three).status, api::Status::not_in_database);
    const api::Position off_board{std::uint64_t{1} << 40, 1, 0, api::Side::white};
    EXPECT_EQ(tb.probe_dtw(api::Variant::english, off_board).status, api::Status::invalid_position);
}

TEST_F(Cpp17Api, MessagesReachTheCallback) {
    const ScratchDir copy("cpp17-api-damaged");
    std::filesystem::copy(dir_->path, copy.path, std::filesystem::copy_options::recursive);
    const Variant cpp17_english = *parse_variant("english");
    const auto path = table_path(copy.path, cpp17_english, "0201", Metric::wdl);
    std::filesystem::resize_file(path, std::filesystem::file_size(path) - 1);
    std::vector<std::string> messages;
    {
        api::Tablebase tb(copy.path.string(), 8, 0,
                          [&](const std::string& line) { messages.push_back(line); });
        const api::Tablebase moved = std::move(tb);  // the callback goes with the handle
        const api::Position p = api::parse_fen(api::Variant::english, "W:WK18,K19:BK1");
        EXPECT_EQ(moved.probe_wdl(api::Variant::english, p).status, api::Status::error_corrupt);
    }
    ASSERT_EQ(messages.size(), 1u);
    EXPECT_NE(messages[0].find("0201.wdl"), std::string::npos) << messages[0];
}

}  // namespace
}  // namespace damas
