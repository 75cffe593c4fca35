// The statements of shared/RULES.md, "Draw rules with move limits" and "How the counts are kept",
// asserted on real positions through generated tables (gen, then gen-rules, then
// Tablebase::probe_rules).
//
// The expected answers come from the rule text and the pure tables (value and DTW), never from
// the rule tables:
//  * "a game-ending move at ply 2N or earlier wins": a pure win whose game ends within the plies
//    the count has left is a win under the rules;
//  * "when the count reaches 2N and the game is not over, it is a draw": with no ply left every
//    position that is not over is a draw; with one ply left (and no man of the side to move, or
//    an ending count) only a move that ends the game wins, so win iff DTW is 1 and loss iff the
//    game is already over (DTW 0);
//  * in the endings where every capture ends the game or stays in the same row of the table
//    (king against king, 2 kings against 1 king), no restart can help the stronger side, so a
//    win under the rule is exactly a win within the plies left: win iff DTW <= plies left.
// Only positions where the side to move has no capture (what the files store), White to move.
#include <gtest/gtest.h>

#include <functional>
#include <string>

#include "limits_fixture.hpp"
#include "probe/probe.hpp"
#include "rules/movegen.hpp"
#include "rules/notation.hpp"

namespace damas::test {
namespace {

Material mat(const char* name) {
    return *Material::parse(name);
}

RuleCounters ending(int plies) {
    RuleCounters c;
    c.plies_in_ending = plies;
    return c;
}

RuleCounters king_count(int plies) {
    RuleCounters c;
    c.plies_since_capture = plies;
    return c;
}

// What the rule text says the value is, given the pure outcome: unknown when it says nothing.
using Expectation = std::function<Value(const Position&, Outcome pure)>;

// Every `stride`-th quiet White-to-move position of class m: the value under the rules with the
// counters equals the expectation wherever it is known. Returns how many were compared.
template <class R>
std::uint64_t check_class(const LimitsDb& db, Edition edition, Material m,
                          const RuleCounters& counters, const Expectation& expect,
                          std::uint64_t stride = 1) {
    const DrawRules rules = draw_rules(db.variant, edition);
    const RulesOracle probe(db.dir);
    const auto tb = Tablebase::open(db.dir);
    const ClassIndex index(db.variant.info().board, m);
    std::uint64_t compared = 0, failures = 0;
    for (std::uint64_t i = 0; i < index.size(); i += stride) {
        const Position p = index.unindex(i);
        if (MoveGenerator<R>::has_capture(p)) continue;
        const ProbeResult pure = tb->probe_dtw(db.variant, p);
        if (!pure.ok()) {
            ADD_FAILURE() << "pure probe failed at " << to_fen(db.variant, p);
            return compared;
        }
        const Value expected = expect(p, {pure.value, pure.plies});
        if (expected == Value::unknown) continue;
        const RulesAnswer a = probe.probe(rules, p, counters);
        ++compared;
        EXPECT_EQ(a.pure.value, pure.value);
        if (a.rule.value != expected && ++failures <= 5)
            ADD_FAILURE() << db.variant.name() << " " << m.name() << " " << to_fen(db.variant, p)
                          << " (pure " << value_name(pure.value) << " " << pure.plies
                          << ", c=" << counters.plies_since_capture
                          << " e=" << counters.plies_in_ending << " f=" << counters.forcada_plies
                          << "): the rule text says " << value_name(expected) << ", the tables "
                          << value_name(a.rule.value) << " (" << a.summary() << ")";
    }
    EXPECT_EQ(failures, 0u) << m.name();
    return compared;
}

// win iff the game ends within `left` plies (exact where no restart can help the winner).
Expectation win_within(int left) {
    return [left](const Position&, Outcome pure) {
        if (pure.value == Value::win) return pure.plies <= left ? Value::win : Value::draw;
        if (pure.value == Value::loss) return pure.plies <= left ? Value::loss : Value::draw;
        return Value::draw;
    };
}

// A pure win ending within `left` plies is a win; nothing said about the rest but that a pure
// draw stays a draw.
Expectation at_least_within(int left) {
    return [left](const Position&, Outcome pure) {
        if (pure.value == Value::draw) return Value::draw;
        if (pure.value == Value::win && pure.plies <= left) return Value::win;
        return Value::unknown;
    };
}

// One ply left: only a move that ends the game wins; a game already over is lost.
Value last_ply(const Position&, Outcome pure) {
    if (pure.value == Value::win && pure.plies == 1) return Value::win;
    if (pure.value == Value::loss && pure.plies == 0) return Value::loss;
    return Value::draw;
}

// The count has run out: a draw unless the game is already over.
Value run_out(const Position&, Outcome pure) {
    if (pure.value == Value::loss && pure.plies == 0) return Value::loss;
    return Value::draw;
}

// International, S000 6.4: "2 kings, 1 king + 1 man, or 1 king against 1 king: draw after at
// most 5 moves", and RULES.md's example: K+M v K with a win in 9 plies is a win (the winning
// capture is White's 5th move).
TEST(RulesExamples, InternationalFiveMoveRule) {
    const Variant v{BaseVariant::international, false};
    const LimitsDb db(v, 3, mat("1101"));
    const DrawRules rules = draw_rules(v);
    const RulesOracle probe(db.dir);
    const auto tb = Tablebase::open(db.dir);
    const ClassIndex index(v.info().board, mat("1101"));
    int nine = 0;
    for (std::uint64_t i = 0; i < index.size(); ++i) {
        const Position p = index.unindex(i);
        if (MoveGenerator<International>::has_capture(p)) continue;
        const ProbeResult pure = tb->probe_dtw(v, p);
        if (pure.value != Value::win || pure.plies != 9) continue;
        ++nine;
        const RulesAnswer fresh = probe.probe(rules, p, {});
        EXPECT_EQ(fresh.rule.value, Value::win) << to_fen(v, p) << ": " << fresh.summary();
        EXPECT_EQ(fresh.count, "the 5-move rule");
        EXPECT_EQ(fresh.plies_left, 10);
        EXPECT_FALSE(fresh.differs());
        // One ply used: the capture is still at the 10th ply of the count.
        EXPECT_EQ(probe.probe(rules, p, ending(1)).rule.value, Value::win) << to_fen(v, p);
    }
    EXPECT_GE(nine, 1) << "RULES.md's example needs a K+M v K win in 9 plies";

    // Kings against a king: every capture ends the game or stays in the row.
    for (int e : {0, 1, 2, 5, 8, 9, 10})
        for (const char* m : {"0201", "0101", "0102"})
            EXPECT_GT(check_class<International>(db, Edition::seed, mat(m), ending(e),
                                                 win_within(10 - e)),
                      0u);
    // One ply left: a promotion (1101 -> 0201, the same row) does not restart the count, and
    // the 10th ply wins only if it ends the game.
    EXPECT_GT(check_class<International>(db, Edition::seed, mat("1101"), ending(9), last_ply), 0u);
    EXPECT_GT(check_class<International>(db, Edition::seed, mat("1101"), ending(10), run_out), 0u);
    for (int e : {0, 4})
        EXPECT_GT(check_class<International>(db, Edition::seed, mat("1101"), ending(e),
                                             at_least_within(10 - e)),
                  0u);
}

// International, S000 6.3 and RULES.md's example: 2K+M v K (1201) with a win that needs White's
// 12th move is a draw under the seed's 10-move edition and a win under FMJD's 16 moves.
//
// Read literally ("pure DTW 23: a draw under the seed's edition") the example meets the other
// half of the rule text on real positions: the count restarts when the material moves to another
// row, so three pieces that force the lone king to capture one of them into a 2K v K or K+M v K
// ending they win within 5 moves get a fresh count. Every quiet 1201 position with a pure DTW
// of 23 has such a way (W:WK44,45,K50:BK2 below: the independent arbiter of arbiter.hpp, from
// the rule text alone, says win; test_limits_brute_slow checks it). The example's statement holds
// one move later: W:WK44,45,K50:BK7, pure DTW 25 (White's 13th move), which the arbiter says is a
// draw with the seed's 20 plies.
TEST(RulesExamples, InternationalEditions) {
    const Variant v{BaseVariant::international, false};
    const LimitsDb db(v, 4, mat("1201"), true);
    const DrawRules seed = draw_rules(v, Edition::seed), fmjd = draw_rules(v, Edition::fmjd);
    const RulesOracle probe(db.dir);
    const auto tb = Tablebase::open(db.dir);

    const Position restart = parse_fen(v, "W:WK44,45,K50:BK2");
    EXPECT_EQ(tb->probe_dtw(v, restart).plies, 23);
    EXPECT_EQ(probe.probe(seed, restart, {}).rule.value, Value::win);
    EXPECT_EQ(probe.probe(fmjd, restart, {}).rule.value, Value::win);
    const Position thirteenth = parse_fen(v, "W:WK44,45,K50:BK7");
    EXPECT_EQ(tb->probe_dtw(v, thirteenth).value, Value::win);
    EXPECT_EQ(tb->probe_dtw(v, thirteenth).plies, 25);
    const RulesAnswer a = probe.probe(seed, thirteenth, {});
    EXPECT_EQ(a.rule.value, Value::draw);
    EXPECT_EQ(a.plies_left, 20);
    EXPECT_EQ(a.summary(), "win, drawn by the 10-move rule");
    const RulesAnswer b = probe.probe(fmjd, thirteenth, {});
    EXPECT_EQ(b.rule.value, Value::win) << b.summary();
    EXPECT_EQ(b.count, "the 16-move rule");
    EXPECT_EQ(b.plies_left, 32);
    EXPECT_EQ(b.summary(), "win");

    const ClassIndex index(v.info().board, mat("1201"));
    int twelfth = 0;
    for (std::uint64_t i = 0; i < index.size(); ++i) {
        const Position p = index.unindex(i);
        if (MoveGenerator<International>::has_capture(p)) continue;
        const ProbeResult pure = tb->probe_dtw(v, p);
        if (pure.value != Value::win || pure.plies != 23) continue;  // White's 12th move
        ++twelfth;
        EXPECT_EQ(probe.probe(fmjd, p, {}).rule.value, Value::win) << to_fen(v, p);
    }
    EXPECT_GE(twelfth, 1) << "RULES.md's example needs a 1201 win in 23 plies";

    const Material m = mat("1201");
    EXPECT_GT(check_class<International>(db, Edition::seed, m, {}, at_least_within(20), 7), 0u);
    EXPECT_GT(check_class<International>(db, Edition::fmjd, m, {}, at_least_within(32), 7), 0u);
    EXPECT_GT(check_class<International>(db, Edition::seed, m, ending(19), last_ply, 11), 0u);
    EXPECT_GT(check_class<International>(db, Edition::fmjd, m, ending(31), last_ply, 11), 0u);
    EXPECT_GT(check_class<International>(db, Edition::seed, m, ending(20), run_out, 13), 0u);
    EXPECT_GT(check_class<International>(db, Edition::fmjd, m, ending(32), run_out, 13), 0u);
    // Three kings against one: the same row.
    EXPECT_GT(check_class<International>(db, Edition::seed, mat("0301"), ending(19), last_ply, 5),
              0u);
}

// Brazilian, S001: 2K v 1K (and K v K) drawn after 5 moves; S004: 3 kings against 1 king not
// won within 20 moves is a draw.
TEST(RulesExamples, Brazilian) {
    const Variant v{BaseVariant::brazilian, false};
    const LimitsDb db(v, 4, mat("0301"));
    // King against king: every capture ends the game.
    for (int e : {0, 3, 6, 9, 10})
        EXPECT_GT(
            check_class<Brazilian>(db, Edition::seed, mat("0101"), ending(e), win_within(10 - e)),
            0u);
    // 2 kings against 1: the lone king's capture leads to another of S001's five endings (1 king
    // against 1) with a fresh count, so a win within the plies left is a win, and more may be.
    for (int e : {0, 3, 6, 9, 10})
        EXPECT_GT(check_class<Brazilian>(db, Edition::seed, mat("0201"), ending(e),
                                         at_least_within(10 - e)),
                  0u);
    for (int e : {0, 20, 30})
        EXPECT_GT(check_class<Brazilian>(db, Edition::seed, mat("0301"), ending(e),
                                         at_least_within(40 - e)),
                  0u);
    EXPECT_GT(check_class<Brazilian>(db, Edition::seed, mat("0301"), ending(39), last_ply), 0u);
    EXPECT_GT(check_class<Brazilian>(db, Edition::seed, mat("0301"), ending(40), run_out), 0u);
}

// Brazilian, S001: "Finais de: 2 damas contra 2 damas; 2 damas contra uma; ...; uma dama contra
// uma dama ...", five endings, one per line: moving from one to another starts a fresh 5-move
// count. White has 2 plies left of 2 kings against 1; Black must take a king (ply 2): 1 king
// against 1 king, a new ending with a fresh count, and White takes the last king at ply 3.
TEST(RulesExamples, BrazilianFiveEndings) {
    const Variant v{BaseVariant::brazilian, false};
    const LimitsDb db(v, 3);
    const DrawRules rules = draw_rules(v);
    const RulesOracle probe(db.dir);
    RuleCounters c;
    c.plies_since_capture = 8;
    c.plies_in_ending = 8;
    const RulesAnswer a = probe.probe(rules, parse_fen(v, "W:WK18,K22:BK29"), c);
    EXPECT_EQ(a.pure.value, Value::win);
    EXPECT_EQ(a.plies_left, 2);
    EXPECT_EQ(a.rule.value, Value::win) << a.summary();
    EXPECT_EQ(a.rule.plies, 2);  // the capture that starts the fresh count
    EXPECT_TRUE(a.exact);
    // Each of the five endings is its own row, with the same 5 moves.
    for (const char* m : {"0202", "0201", "0211", "0101", "0111"}) {
        const EndingRow* row = rules.row_of(mat(m));
        ASSERT_NE(row, nullptr) << m;
        EXPECT_EQ(row->limit_plies, 10);
        for (const char* other : {"0202", "0201", "0211", "0101", "0111"})
            if (std::string(m) != other) {
                EXPECT_NE(rules.row_of(mat(other)), row) << m << other;
            }
    }
}

// Russian: 3 kings against 1 king, the lone king must be captured by the 15th move.
TEST(RulesExamples, Russian) {
    const Variant v{BaseVariant::russian, false};
    const LimitsDb db(v, 4, mat("0301"));
    for (int e : {0, 10, 20})
        EXPECT_GT(check_class<Russian>(db, Edition::seed, mat("0301"), ending(e),
                                       at_least_within(30 - e)),
                  0u);
    EXPECT_GT(check_class<Russian>(db, Edition::seed, mat("0301"), ending(29), last_ply), 0u);
    EXPECT_GT(check_class<Russian>(db, Edition::seed, mat("0301"), ending(30), run_out), 0u);
    // The king-move rule (15 moves) outside the row: two kings against one.
    EXPECT_GT(check_class<Russian>(db, Edition::seed, mat("0201"), king_count(29), last_ply), 0u);
}

// Portuguese, S002 3.2.1b: the forcada. 3 kings against 1 king must win within 12 moves, the
// capture included, counted from when the three kings occupy the long diagonal 1-32; before
// that the 20-move rule alone applies.
TEST(RulesExamples, PortugueseForcada) {
    const Variant v{BaseVariant::portuguese, false};
    const LimitsDb db(v, 4, mat("0301"));
    const Bitboard diagonal = forcada_diagonal();
    const auto on_diagonal = [&](const Position& p) {
        return (p.kings_of(Color::white) & diagonal) != 0;
    };
    // Started f plies ago with White to move (f even): White's 12th move is ply 23 - f from
    // here; after 24 plies White has made its 12 moves. S002 3.2.1b: "o jogo nao seja ganho ate
    // 12 lances": the game must be won within them, also after the lone king has taken a king
    // (the count runs to the end of the game), so the three kings win iff the game ends within
    // the plies left: iff the pure DTW is at most 23 - f. The lone king (0103, White to move, the
    // count started with it to move: 24 plies) likewise loses iff DTW <= 24 - f.
    for (int f : {0, 10, 20, 22}) {
        RuleCounters c;
        c.forcada_started = true;
        c.forcada_plies = f;
        c.plies_since_capture = f;
        EXPECT_GT(check_class<Portuguese>(db, Edition::seed, mat("0301"), c, win_within(23 - f)),
                  0u);
        EXPECT_GT(check_class<Portuguese>(db, Edition::seed, mat("0103"), c, win_within(24 - f)),
                  0u);
    }
    // After the lone king has taken a king the forcada runs on (2 kings against 1, then 1 king
    // against 1), and no count can restart: a win under it is exactly a game won within the
    // plies it has left. White with 2 kings to move, the count started f plies ago (f even) with
    // White to move: 23 - f plies; the lone king to move: 24 - f. In 1 king against 1 the
    // forcada's side says which: White had the three kings (23 - f) or the lone king (24 - f);
    // f = 22 tells them apart (a loss in 2 plies). The capture came after the start: fewer
    // plies since it than f.
    for (int f : {2, 12, 20, 22}) {
        RuleCounters c;
        c.forcada_started = true;
        c.forcada_plies = f;
        c.plies_since_capture = 1;
        EXPECT_GT(check_class<Portuguese>(db, Edition::seed, mat("0201"), c, win_within(23 - f)),
                  0u);
        EXPECT_GT(check_class<Portuguese>(db, Edition::seed, mat("0102"), c, win_within(24 - f)),
                  0u);
        c.forcada_side = Color::white;
        EXPECT_GT(check_class<Portuguese>(db, Edition::seed, mat("0101"), c, win_within(23 - f)),
                  0u);
        c.forcada_side = Color::black;
        EXPECT_GT(check_class<Portuguese>(db, Edition::seed, mat("0101"), c, win_within(24 - f)),
                  0u);
    }
    // The root moves in 1 king against 1 without the forcada's side: each move's value where
    // both sides give the same, else a draw (nothing is certain), as probe_rules answers.
    {
        const auto tb = Tablebase::open(db.dir);
        const DrawRules rules = draw_rules(v);
        const ClassIndex index(v.info().board, mat("0101"));
        int differing = 0;
        for (std::uint64_t i = 0; i < index.size(); ++i) {
            const Position p = index.unindex(i);
            RuleCounters c;
            c.forcada_started = true;
            c.forcada_plies = 21;
            c.plies_since_capture = 1;
            std::vector<RootMove> unknown, white, black;
            ASSERT_EQ(tb->probe_root(v, p, unknown, &rules, c), ProbeStatus::ok);
            c.forcada_side = Color::white;
            ASSERT_EQ(tb->probe_root(v, p, white, &rules, c), ProbeStatus::ok);
            c.forcada_side = Color::black;
            ASSERT_EQ(tb->probe_root(v, p, black, &rules, c), ProbeStatus::ok);
            ASSERT_EQ(unknown.size(), white.size());
            ASSERT_EQ(unknown.size(), black.size());
            for (std::size_t k = 0; k < unknown.size(); ++k) {
                const bool agree = white[k].rule->value == black[k].rule->value;
                differing += !agree;
                EXPECT_EQ(unknown[k].rule->value, agree ? white[k].rule->value : Value::draw)
                    << to_fen(v, p) << " " << unknown[k].notation;
            }
        }
        EXPECT_GT(differing, 0);
    }
    // The example: Black's three kings win in 25 plies, the lone king taking a king at
    // ply 22: the game is not won within Black's 12 moves, a draw.
    {
        const DrawRules rules = draw_rules(v);
        const RulesOracle probe(db.dir);
        const RulesAnswer a = probe.probe(rules, parse_fen(v, "B:WK25:BK5,K10,K28"), {});
        EXPECT_EQ(a.pure.value, Value::win);
        EXPECT_EQ(a.pure.plies, 25);
        EXPECT_EQ(a.rule.value, Value::draw) << a.summary();
    }
    RuleCounters twelve_made;
    twelve_made.forcada_started = true;
    twelve_made.forcada_plies = 24;
    twelve_made.plies_since_capture = 24;
    EXPECT_GT(check_class<Portuguese>(db, Edition::seed, mat("0301"), twelve_made, run_out), 0u);
    RuleCounters last;
    last.forcada_started = true;
    last.forcada_plies = 22;
    last.plies_since_capture = 22;
    EXPECT_GT(check_class<Portuguese>(db, Edition::seed, mat("0301"), last,
                                      [&](const Position& p, Outcome o) {
                                          return on_diagonal(p) ? last_ply(p, o) : Value::unknown;
                                      }),
              0u);
    // Not started (no white king on the diagonal): only the 20-move count runs, and the forcada
    // once started gives the three kings at least 23 more plies.
    for (int c : {0, 20, 30}) {
        const Expectation within = at_least_within(std::min(23, 40 - c));
        EXPECT_GT(check_class<Portuguese>(db, Edition::seed, mat("0301"), king_count(c),
                                          [&](const Position& p, Outcome o) {
                                              return on_diagonal(p) ? Value::unknown : within(p, o);
                                          }),
                  0u);
    }
    const auto off = [&](const Expectation& e) {
        return [&, e](const Position& p, Outcome o) {
            return on_diagonal(p) ? Value::unknown : e(p, o);
        };
    };
    EXPECT_GT(
        check_class<Portuguese>(db, Edition::seed, mat("0301"), king_count(39), off(last_ply)), 0u);
    EXPECT_GT(check_class<Portuguese>(db, Edition::seed, mat("0301"), king_count(40), off(run_out)),
              0u);
    // Issue 41's example: the forcada starts with 16 plies of the 20-move count left. The pure
    // win takes 19 plies, through the lone king's capture of a king, which restarts the 20-move
    // count while the forcada's 12 moves run on: a win under both.
    {
        const DrawRules rules = draw_rules(v);
        const RulesOracle probe(db.dir);
        RuleCounters c;
        c.forcada_started = true;
        c.plies_since_capture = 24;
        const RulesAnswer a = probe.probe(rules, parse_fen(v, "W:WK8,K10,K17:BK18"), c);
        EXPECT_EQ(a.pure.value, Value::win);
        EXPECT_EQ(a.pure.plies, 19);
        EXPECT_EQ(a.rule.value, Value::win) << a.summary();
        EXPECT_TRUE(a.exact);
        EXPECT_EQ(a.plies_left, 16);
        EXPECT_EQ(a.count, "the 20-move king rule, the forcada 7 plies later");
    }
    // Several counts at once, the first limit decides: the forcada just started, but the
    // 20-move count has one ply left.
    RuleCounters both;
    both.forcada_started = true;
    both.forcada_plies = 0;
    both.plies_since_capture = 39;
    EXPECT_GT(check_class<Portuguese>(db, Edition::seed, mat("0301"), both,
                                      [&](const Position& p, Outcome o) {
                                          return on_diagonal(p) ? last_ply(p, o) : Value::unknown;
                                      }),
              0u);
}

// Counts no game reaches are refused with the reason, never answered by a guess: more plies
// since the last capture than in the ending; the forcada started before the capture or
// promotion that began 3 kings against 1; the lone king's capture no later than the forcada's
// start.
// The counts a game replayed move by move keeps (annotate, line, the explorer): the forcada
// runs on through the lone king's captures, its side with it, down to 1 king against 1, where
// only the side given tells which king was the lone one.
TEST(RulesExamples, ForcadaCountsRunThroughTheLoneKingsCaptures) {
    const Variant v{BaseVariant::portuguese, false};
    const DrawRules rules = draw_rules(v);
    int captures_followed = 0;
    for (const char* m : {"0103", "0102"}) {  // White's lone king to move against Black's kings
        const ClassIndex index(v.info().board, mat(m));
        for (std::uint64_t i = 0; i < index.size(); i += 7) {
            const Position p = index.unindex(i);
            if (!MoveGenerator<Portuguese>::has_capture(p)) continue;
            MoveList captures;
            MoveGenerator<Portuguese>::generate_captures(p, captures);
            RuleCounters c;
            c.forcada_started = true;
            c.forcada_plies = 6;
            c.plies_since_capture = 4;
            for (const Move& move : captures) {
                const Position after = make_move(p, move);
                if (!after.of(after.side)) continue;  // every king taken: the game is over
                const RuleCounters n = counters_after(rules, p, move, after, c);
                EXPECT_TRUE(n.forcada_started.value_or(false)) << m;
                EXPECT_EQ(n.forcada_plies, 7) << m;
                EXPECT_EQ(n.plies_since_capture, 0) << m;
                EXPECT_EQ(n.forcada_side, Color::black) << m;
                ++captures_followed;
            }
        }
    }
    EXPECT_GT(captures_followed, 0);
    // 1 king against 1: a quiet move keeps the side given, or none.
    const Position p = parse_fen(v, "W:WK18:BK1");
    MoveList moves;
    MoveGenerator<Portuguese>::generate(p, moves);
    ASSERT_FALSE(moves.empty());
    ASSERT_FALSE(moves[0].is_capture());
    RuleCounters c;
    c.forcada_started = true;
    c.forcada_plies = 9;
    c.plies_since_capture = 3;
    EXPECT_EQ(counters_after(rules, p, moves[0], make_move(p, moves[0]), c).forcada_side,
              std::nullopt);
    c.forcada_side = Color::white;
    const RuleCounters n = counters_after(rules, p, moves[0], make_move(p, moves[0]), c);
    EXPECT_EQ(n.forcada_side, Color::white);
    EXPECT_EQ(n.forcada_plies, 10);
    EXPECT_EQ(n.plies_since_capture, 4);
}

TEST(RulesExamples, CountsNoGameReaches) {
    struct Case {
        Variant variant;
        const char* fen;
        int since_capture, in_ending, forcada;
    };
    const Case cases[] = {
        {{BaseVariant::international, false}, "W:WK2,6:BK50", 5, 2, -1},
        {{BaseVariant::brazilian, false}, "W:WK18,K22:BK29", 3, 0, -1},
        {{BaseVariant::portuguese, false}, "W:WK8,K10,K17:BK18", 4, 0, 10},
        {{BaseVariant::portuguese, false}, "W:WK8,K10:BK18", 5, 0, 5},
    };
    for (const Case& k : cases) {
        const Position p = parse_fen(k.variant, k.fen);
        const Material m = Material::of(p);
        const LimitsDb db(k.variant, m.pieces(), m);
        const auto tb = Tablebase::open(db.dir);
        RuleCounters c;
        c.plies_since_capture = k.since_capture;
        c.plies_in_ending = k.in_ending;
        if (k.forcada >= 0) {
            c.forcada_started = true;
            c.forcada_plies = k.forcada;
        }
        const RulesResult r = tb->probe_rules(draw_rules(k.variant), p, c);
        EXPECT_EQ(r.status, ProbeStatus::unreachable_counts) << k.fen;
        EXPECT_FALSE(r.unreachable.empty()) << k.fen;
        std::vector<RootMove> moves;
        EXPECT_EQ(tb->probe_root(k.variant, p, moves, nullptr, c), ProbeStatus::ok) << k.fen;
        const DrawRules rules = draw_rules(k.variant);
        EXPECT_EQ(tb->probe_root(k.variant, p, moves, &rules, c), ProbeStatus::unreachable_counts)
            << k.fen;
        // The nearest counts a game reaches are answered.
        c.plies_since_capture = k.in_ending;
        if (k.forcada >= 0) c.plies_since_capture = m.pieces() == 4 ? k.forcada : k.forcada - 1;
        EXPECT_TRUE(tb->probe_rules(rules, p, c).ok()) << k.fen;
    }
    // The forcada's side is the side with more kings until 1 king against 1.
    const Variant portuguese{BaseVariant::portuguese, false};
    const Position p = parse_fen(portuguese, "W:WK8,K10:BK18");
    const LimitsDb db(portuguese, 3, Material::of(p));
    const auto tb = Tablebase::open(db.dir);
    RuleCounters c;
    c.forcada_started = true;
    c.forcada_plies = 5;
    c.plies_since_capture = 1;
    c.forcada_side = Color::black;
    const RulesResult r = tb->probe_rules(draw_rules(portuguese), p, c);
    EXPECT_EQ(r.status, ProbeStatus::unreachable_counts);
    EXPECT_NE(r.unreachable.find("three kings"), std::string::npos) << r.unreachable;
    c.forcada_side = Color::white;
    EXPECT_TRUE(tb->probe_rules(draw_rules(portuguese), p, c).ok());
}

// English (ACF/WCDF): 40 moves by each player with no man move and no capture: draw. A man move
// sets the count to 0.
TEST(RulesExamples, EnglishFortyMoves) {
    const Variant v{BaseVariant::english, false};
    const LimitsDb db(v, 3);
    for (int c : {0, 40, 70})
        EXPECT_GT(check_class<English>(db, Edition::seed, mat("0201"), king_count(c),
                                       at_least_within(80 - c)),
                  0u);
    EXPECT_GT(check_class<English>(db, Edition::seed, mat("0201"), king_count(79), last_ply), 0u);
    EXPECT_GT(check_class<English>(db, Edition::seed, mat("0201"), king_count(80), run_out), 0u);
    // K+M v K with one ply left: a win ends the game now, or moves the man (the count restarts)
    // into a position Black loses within a fresh 80 plies.
    const auto tb = Tablebase::open(db.dir);
    const Expectation man_restarts = [&](const Position& p, Outcome pure) {
        if (pure.value == Value::loss && pure.plies == 0) return Value::loss;
        if (pure.value == Value::win && pure.plies == 1) return Value::win;
        MoveList moves;
        MoveGenerator<English>::generate(p, moves);
        for (const Move& m : moves) {
            if (p.kings & bit(m.from)) continue;  // a king move: the count runs out
            const ProbeResult after = tb->probe_dtw(v, make_move(p, m));
            if (after.value != Value::loss) continue;
            if (after.plies > 80) return Value::unknown;  // not decided by the text alone
            return Value::win;
        }
        return Value::draw;
    };
    EXPECT_GT(check_class<English>(db, Edition::seed, mat("1101"), king_count(79), man_restarts),
              0u);
}

}  // namespace
}  // namespace damas::test
