// MTC (`damas gen --metric mtc`, gen/solve/solver.hpp) against an independent computation, and
// the lines it plays.
//  - the wdl files of an mtc run are the bytes of a dtw run's; with --dtw-pieces the small
//    classes' dtw files are the dtw run's and the large classes' mtc files the mtc run's;
//  - for every position of every class, the MTC and value probe_distance gives equal a forward
//    fixpoint over the legal moves (no un-move, no slice, none of the generator's code): from the
//    values alone (probe_wdl), W(d) = the wins with a move that converts (a capture or a man
//    move) into a lost position (d >= 1) or a king move into a loss of L(d - 1); L(d) = the
//    losses with no legal move, or whose every move converts (d >= 1) or is a king move into a
//    win of W(d - 1); a position's MTC is the first d whose set holds it;
//  - study::optimal_line from every won position ends the game won by the side that started,
//    the loser playing its longest MTC at every ply (the root analysis's first move).
// English and international 2-3 here (and the lines from every 500th won position of english
// 2-4); english 2-4 and 2-5, international 2-4 and russian 2-5 (every won position's line for
// english 2-4) in test_probe_mtc_slow.
#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <map>
#include <vector>

#include "gen/options.hpp"
#include "index/class_index.hpp"
#include "index/flip.hpp"
#include "index/material.hpp"
#include "probe/probe.hpp"
#include "probe/study/class_stats.hpp"
#include "probe/study/line.hpp"
#include "probe/study/root_analysis.hpp"
#include "probe/study/tablebase_answer.hpp"
#include "rules/movegen.hpp"
#include "tests/support/generate.hpp"
#include "tests/support/scratch.hpp"

// The slow executable's tests have a suite name of their own: ctest names must differ (a name
// defined twice takes the labels of the last, and the fast ones would leave the fast set).
#ifdef DAMAS_TEST_SLOW
#define MTC_SUITE MtcSlow
#else
#define MTC_SUITE Mtc
#endif

namespace damas {
namespace {

using test::ScratchDir;

std::string file_bytes(const std::filesystem::path& p) {
    std::ifstream in(p, std::ios::binary);
    EXPECT_TRUE(in) << p;
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

GenerateOptions options(const Variant& v, int pieces, const std::filesystem::path& dir,
                        Metric metric, int dtw_pieces = 0) {
    GenerateOptions o = test::generate_options(v, pieces, dir);
    o.metric = metric;
    o.dtw_pieces = dtw_pieces;
    return o;
}

// The forward fixpoint of the header, over every class of the set (White to move).
class ForwardMtc {
  public:
    static constexpr int unknown = -1;

    ForwardMtc(const Tablebase& tb, Variant v, const std::vector<Material>& classes)
        : tb_(tb), v_(v), flip_(v.info().board) {
        for (const Material m : classes) {
            Class& c = classes_[m];
            c.index = std::make_unique<ClassIndex>(v.info().board, m);
            c.value.resize(c.index->size());
            c.mtc.assign(c.index->size(), unknown);
            for (std::uint64_t i = 0; i < c.index->size(); ++i) {
                const ProbeResult r = tb_.probe_wdl(v, c.index->unindex(i));
                EXPECT_TRUE(r.ok()) << m.name() << " " << i;
                c.value[i] = r.value;
            }
        }
        dispatch(v.base, [&](auto rules) { solve<decltype(rules)>(); });
    }

    Value value(Material m, std::uint64_t i) const { return classes_.at(m).value[i]; }
    int mtc(Material m, std::uint64_t i) const { return classes_.at(m).mtc[i]; }

  private:
    struct Class {
        std::unique_ptr<ClassIndex> index;
        std::vector<Value> value;
        std::vector<int> mtc;  // unknown until its level
    };

    // The class and index of q (any side to move), after the colour flip.
    std::pair<const Class*, std::uint64_t> find(const Position& q) const {
        const Position w = q.side == Color::white ? q : flip_(q);
        const Class& c = classes_.at(Material::of(w));
        return {&c, c.index->index(w)};
    }

    // The value for the side to move at q, a position after a conversion (any class below).
    template <class R>
    Value value_after_conversion(const Position& q) const {
        if (!q.of(q.side)) return Value::loss;
        const ProbeResult r = tb_.probe_wdl(v_, q);
        EXPECT_TRUE(r.ok());
        return r.value;
    }

    // Whether position p (value `value`) is in W(d) or L(d), the sets before level d known.
    template <class R>
    bool at_level(const Position& p, Value value, int d) const {
        MoveList moves;
        MoveGenerator<R>::generate(p, moves);
        if (moves.empty()) return value == Value::loss;  // L(0): the game is over
        bool all = true;
        for (const Move& m : moves) {
            const Position q = make_move(p, m);
            const bool converts = m.is_capture() || !(p.kings & bit(m.from));
            bool within;
            if (converts) {
                const Value after = value_after_conversion<R>(q);
                within = d >= 1 && (value == Value::win ? after == Value::loss : true);
            } else {
                const auto [c, i] = find(q);
                const Value after = c->value[i];
                const int level = c->mtc[i];
                within = level != unknown && level <= d - 1 &&
                         after == (value == Value::win ? Value::loss : Value::win);
            }
            if (value == Value::win && within) return true;
            if (!within) all = false;
        }
        return value == Value::loss && all;
    }

    template <class R>
    void solve() {
        for (int d = 0;; ++d) {
            std::vector<std::pair<Class*, std::uint64_t>> resolved;
            for (auto& [m, c] : classes_)
                for (std::uint64_t i = 0; i < c.index->size(); ++i) {
                    if (c.mtc[i] != unknown || c.value[i] == Value::draw) continue;
                    if (at_level<R>(c.index->unindex(i), c.value[i], d))
                        resolved.push_back({&c, i});
                }
            // Jacobi order: level d is decided from the levels before it only.
            for (auto& [c, i] : resolved) c->mtc[i] = d;
            if (resolved.empty() && d > 1) return;
        }
    }

    const Tablebase& tb_;
    Variant v_;
    Flipper flip_;
    std::map<Material, Class> classes_;
};

// Every position's MTC as probe_distance gives it, against the forward fixpoint.
void expect_forward_mtc(const char* variant, int pieces) {
    const Variant v = *parse_variant(variant);
    ScratchDir dir(std::string("mtc-forward-") + variant);
    test::generate_quietly(options(v, pieces, dir.path, Metric::mtc));
    const auto tb = Tablebase::open(dir.path);
    const std::vector<Material> classes = planned_classes({v, pieces, 0, std::nullopt});
    const ForwardMtc forward(*tb, v, classes);
    std::uint64_t checked = 0, decided = 0;
    for (const Material m : classes) {
        const ClassIndex index(v.info().board, m);
        for (std::uint64_t i = 0; i < index.size(); ++i) {
            const ProbeResult r = tb->probe_distance(v, index.unindex(i));
            ASSERT_TRUE(r.ok()) << m.name() << " " << i;
            EXPECT_EQ(r.metric, Metric::mtc);
            const Value value = forward.value(m, i);
            ASSERT_EQ(r.value, value) << m.name() << " " << i;
            ++checked;
            if (value == Value::draw) {
                EXPECT_EQ(r.plies, 0);
                continue;
            }
            ++decided;
            ASSERT_NE(forward.mtc(m, i), ForwardMtc::unknown)
                << m.name() << " " << i << ": a decided position with no finite MTC";
            ASSERT_EQ(r.plies, forward.mtc(m, i)) << variant << " " << m.name() << " " << i;
        }
    }
    EXPECT_GT(decided, checked / 10) << variant;
}

// study::optimal_line from every `stride`-th won position ends the game won by its side.
void expect_lines_win(const char* variant, int pieces, std::uint64_t stride) {
    const Variant v = *parse_variant(variant);
    ScratchDir dir(std::string("mtc-lines-") + variant);
    test::generate_quietly(options(v, pieces, dir.path, Metric::mtc));
    const auto tb = Tablebase::open(dir.path, 256);
    const study::Analyse analyse = [&](const Position& p, const RuleCounters&) {
        return study::analyse_root(*tb, v, p, {});
    };
    std::uint64_t wins = 0, lines = 0;
    for (const Material m : planned_classes({v, pieces, 0, std::nullopt})) {
        const ClassIndex index(v.info().board, m);
        for (std::uint64_t i = 0; i < index.size(); ++i) {
            // The value alone first (a WDL probe): the root analysis, which probes every
            // successor, only for the wins a line starts from.
            const Position p = index.unindex(i);
            const ProbeResult value = tb->probe_wdl(v, p);
            ASSERT_TRUE(value.ok());
            if (value.value != Value::win) continue;
            if (wins++ % stride != 0) continue;
            const study::RootAnalysis start = analyse(p, {});
            ASSERT_TRUE(start.root.ok());
            ASSERT_EQ(start.root.value, Value::win);
            ASSERT_FALSE(start.game_over);
            ASSERT_EQ(start.root.metric, Metric::mtc);
            const study::OptimalLine line = study::optimal_line(v, p, start, analyse);
            ASSERT_FALSE(line.moves.empty());
            EXPECT_EQ(line.result, std::string("game over: ") + color_name(~p.side) + " loses")
                << m.name() << " " << i << ": " << line.pdn;
            ++lines;
        }
    }
    EXPECT_GT(lines, 0u);
}

TEST(MTC_SUITE, WdlFilesAreTheDtwRunsBytes) {
    const Variant v = *parse_variant("english");
    ScratchDir dtw("mtc-wdl-dtw"), mtc("mtc-wdl-mtc"), mixed("mtc-wdl-mixed");
    test::generate_quietly(options(v, 4, dtw.path, Metric::dtw));
    test::generate_quietly(options(v, 4, mtc.path, Metric::mtc));
    test::generate_quietly(options(v, 4, mixed.path, Metric::mtc, 3));
    const auto at = [&](const ScratchDir& d, Material m, Metric metric) {
        return table_path(d.path, v, m.name(), metric);
    };
    for (const Material m : classes_up_to(4)) {
        SCOPED_TRACE(m.name());
        EXPECT_EQ(file_bytes(at(dtw, m, Metric::wdl)), file_bytes(at(mtc, m, Metric::wdl)));
        EXPECT_EQ(file_bytes(at(dtw, m, Metric::wdl)), file_bytes(at(mixed, m, Metric::wdl)));
        EXPECT_FALSE(std::filesystem::exists(at(mtc, m, Metric::dtw)));
        if (m.pieces() <= 3) {
            EXPECT_EQ(file_bytes(at(dtw, m, Metric::dtw)), file_bytes(at(mixed, m, Metric::dtw)));
            EXPECT_FALSE(std::filesystem::exists(at(mixed, m, Metric::mtc)));
        } else {
            EXPECT_EQ(file_bytes(at(mtc, m, Metric::mtc)), file_bytes(at(mixed, m, Metric::mtc)));
            EXPECT_FALSE(std::filesystem::exists(at(mixed, m, Metric::dtw)));
        }
    }
}

// A dtw class answers probe_distance with its DTW, an mtc class with its MTC, in one folder.
TEST(MTC_SUITE, MixedFolderSaysWhichDistance) {
    const Variant v = *parse_variant("english");
    ScratchDir mixed("mtc-mixed-probe"), dtw("mtc-mixed-dtw");
    test::generate_quietly(options(v, 4, mixed.path, Metric::mtc, 3));
    test::generate_quietly(options(v, 4, dtw.path, Metric::dtw));
    const auto tb = Tablebase::open(mixed.path);
    const auto reference = Tablebase::open(dtw.path);
    for (const Material m : classes_up_to(4)) {
        const ClassIndex index(v.info().board, m);
        for (std::uint64_t i = 0; i < index.size(); i += 7) {
            const Position p = index.unindex(i);
            const ProbeResult r = tb->probe_distance(v, p);
            ASSERT_TRUE(r.ok());
            EXPECT_EQ(r.metric, m.pieces() <= 3 ? Metric::dtw : Metric::mtc) << m.name();
            const ProbeResult d = reference->probe_dtw(v, p);
            EXPECT_EQ(r.value, d.value);
            if (m.pieces() <= 3) {
                EXPECT_EQ(r.plies, d.plies);
            }
            // probe_dtw never reads an mtc file: a quiet win or loss of an mtc class has no DTW.
            const ProbeResult no_dtw = tb->probe_dtw(v, p);
            if (m.pieces() > 3 && d.value != Value::draw &&
                !MoveGenerator<English>::has_capture(p)) {
                EXPECT_EQ(no_dtw.status, ProbeStatus::not_in_database);
            }
        }
    }
}

// The lichess-shaped answer (probe/study/tablebase_answer.hpp) gives each position's distance in
// the field of its class's metric, signed, with the category the value gives.
TEST(MTC_SUITE, LichessShapedAnswerHasTheMtcWhereTheClassHasIt) {
    const Variant v = *parse_variant("english");
    ScratchDir mixed("mtc-mixed-lichess");
    test::generate_quietly(options(v, 3, mixed.path, Metric::mtc, 2));
    const auto tb = Tablebase::open(mixed.path);
    int checked = 0;
    for (const Material m : classes_up_to(3)) {
        const ClassIndex index(v.info().board, m);
        for (std::uint64_t i = 0; i < index.size(); i += 97) {
            const Position p = index.unindex(i);
            const ProbeResult r = tb->probe_distance(v, p);
            const study::TablebaseAnswer a = study::tablebase_answer(*tb, v, p, {});
            ASSERT_EQ(a.status, ProbeStatus::ok);
            if (a.game_over || !r.ok()) continue;
            const int sign = r.value == Value::win ? 1 : r.value == Value::loss ? -1 : 0;
            const std::optional<int> expected = sign * static_cast<int>(r.plies);
            EXPECT_EQ(r.metric == Metric::mtc ? a.mtc : a.dtw, expected) << m.name();
            EXPECT_FALSE(r.metric == Metric::mtc ? a.dtw : a.mtc) << m.name();
            EXPECT_EQ(study::is_positive(a.category), r.value == Value::win);
            for (const study::TablebaseMove& t : a.moves) {
                const ProbeResult after = tb->probe_distance(v, t.after);
                if (after.ok() && after.metric == Metric::mtc && !t.game_over) {
                    EXPECT_TRUE(t.mtc && !t.dtw);
                }
            }
            ++checked;
        }
    }
    EXPECT_GT(checked, 100);
}

TEST(MTC_SUITE, Turkish_IsRefused) {
    ScratchDir dir("mtc-turkish");
    EXPECT_THROW(
        test::generate_quietly(options(*parse_variant("turkish"), 3, dir.path, Metric::mtc)),
        Error);
}

#ifdef DAMAS_TEST_SLOW
TEST(MTC_SUITE, English5EqualsForwardSearch) {
    expect_forward_mtc("english", 5);
}
TEST(MTC_SUITE, International4EqualsForwardSearch) {
    expect_forward_mtc("international", 4);
}
TEST(MTC_SUITE, Russian5EqualsForwardSearch) {
    expect_forward_mtc("russian", 5);
}
TEST(MTC_SUITE, English4EqualsForwardSearch) {
    expect_forward_mtc("english", 4);
}
TEST(MTC_SUITE, English4EveryLineWins) {
    expect_lines_win("english", 4, 1);
}
#else
TEST(MTC_SUITE, English3EqualsForwardSearch) {
    expect_forward_mtc("english", 3);
}
TEST(MTC_SUITE, International3EqualsForwardSearch) {
    expect_forward_mtc("international", 3);
}
TEST(MTC_SUITE, English4LinesWin) {
    expect_lines_win("english", 4, 500);
}

// study::class_stats of an mtc class (`damas stats`, the explorer's statistics) against every
// position probed: the same counts, the MTC histogram, the longest win; its wins, draws and
// losses are the dtw run's.
TEST(MTC_SUITE, StatsOfMtcClassesAreTheirProbes) {
    const Variant v = *parse_variant("english");
    ScratchDir mtc("mtc-stats"), dtw("mtc-stats-dtw");
    test::generate_quietly(options(v, 3, mtc.path, Metric::mtc));
    test::generate_quietly(options(v, 3, dtw.path, Metric::dtw));
    const auto tb = Tablebase::open(mtc.path, 64), tb_dtw = Tablebase::open(dtw.path, 64);
    const auto probe = [&](const Position& p) { return tb->probe_distance(v, p); };
    for (const Material m : classes_up_to(3)) {
        if (m.white() == 0 || m.black() == 0) continue;
        SCOPED_TRACE(m.name());
        const study::ClassStats s = study::class_stats(v, mtc.path, m, probe, 3);
        EXPECT_EQ(s.metric, Metric::mtc);
        study::ClassStats expected;
        const ClassIndex index(v.info().board, m);
        for (std::uint64_t i = 0; i < index.size(); ++i) {
            const ProbeResult r = probe(index.unindex(i));
            ASSERT_TRUE(r.ok());
            ASSERT_EQ(r.metric, Metric::mtc);
            ++expected.positions;
            if (r.value == Value::draw) {
                ++expected.draws;
            } else if (r.value == Value::win) {
                ++expected.wins;
                ++expected.histogram[r.plies].first;
                expected.longest_win = std::max<int>(expected.longest_win, r.plies);
            } else {
                ++expected.losses;
                ++expected.histogram[r.plies].second;
            }
        }
        EXPECT_EQ(s.positions, expected.positions);
        EXPECT_EQ(s.wins, expected.wins);
        EXPECT_EQ(s.draws, expected.draws);
        EXPECT_EQ(s.losses, expected.losses);
        EXPECT_EQ(s.histogram, expected.histogram);
        EXPECT_EQ(s.longest_win, expected.longest_win);
        ASSERT_FALSE(s.longest_wins.empty());
        EXPECT_EQ(s.longest_wins.front().first, s.longest_win);
        EXPECT_EQ(probe(s.longest_wins.front().second).plies, s.longest_win);
        const study::ClassStats d = study::class_stats(
            v, dtw.path, m, [&](const Position& p) { return tb_dtw->probe_distance(v, p); });
        EXPECT_EQ(d.metric, Metric::dtw);
        EXPECT_EQ(std::tie(d.wins, d.draws, d.losses), std::tie(s.wins, s.draws, s.losses));
    }
}
#endif

}  // namespace
}  // namespace damas
