// The rule tables (gen-rules + Tablebase::probe_rules) against the independent arbiter
// (arbiter.hpp) on the small endgames of every variant that has a limited ending: brazilian (5-move
// endings, 3 kings against 1), russian (3 kings against 1), portuguese (the forcada, before and
// after it starts), international with 3 pieces (the 5-move ending). International's 4-piece
// endings are in test_limits_brute_slow.
#include <chrono>
#include <ctime>

#include "forcada_arbiter.hpp"
#include "limits_fixture.hpp"

namespace damas::test {
namespace {

Material mat(const char* name) {
    return *Material::parse(name);
}

TEST(LimitsBrute, Brazilian) {
    const Variant v{BaseVariant::brazilian, false};
    const LimitsDb db(v, 4);
    // One arbiter per class, so that its memory is freed after; the arbiter's states grow fast
    // with the plies left, so 4-piece classes are compared near the end of their count.
    const auto five = [](const Position&) { return plain_cases({0, 1, 4, 7, 8, 9, 10}); };
    for (const char* m : {"0101", "0201", "0102", "0111"}) {
        Arbiter<Brazilian> arbiter(v, false);
        compare_class(db, arbiter, mat(m), 7, five);
    }
    const auto five_late = [](const Position&) { return plain_cases({7, 8, 9, 10}); };
    for (const char* m : {"0202", "0211", "1102"}) {
        Arbiter<Brazilian> arbiter(v, false);
        compare_class(db, arbiter, mat(m), 53, five_late);
    }
    const auto twenty = [](const Position&) { return plain_cases({36, 38, 39, 40}); };
    for (const char* m : {"0301", "0103", "1101"}) {
        Arbiter<Brazilian> arbiter(v, false);
        compare_class(db, arbiter, mat(m), 37, twenty);
    }
}

TEST(LimitsBrute, Russian) {
    const Variant v{BaseVariant::russian, false};
    const LimitsDb db(v, 4);
    const auto near = [](const Position&) { return plain_cases({24, 26, 28, 29, 30}); };
    for (const char* m : {"0301", "0103", "0201", "1101"}) {
        Arbiter<Russian> arbiter(v, false);
        compare_class(db, arbiter, mat(m), 29, near);
    }
}

TEST(LimitsBrute, Portuguese) {
    const Variant v{BaseVariant::portuguese, false};
    const LimitsDb db(v, 4);
    Arbiter<Portuguese> arbiter(v, false);
    const Bitboard diagonal = Arbiter<Portuguese>::long_diagonal();
    const auto forcada = [&](const Position& p) {
        std::vector<CountCase> out;
        const Color strong = Arbiter<Portuguese>::strong_side(p);
        const bool occupied = (p.kings_of(strong) & diagonal) != 0;
        if (!occupied)  // not started: the 20-move count alone, near its end
            for (int c : {33, 36, 38, 39}) {
                CountCase k;
                k.probe.plies_since_capture = c;
                k.arbiter.c = c;
                out.push_back(k);
            }
        for (int f : {0, 15, 17, 19, 20, 21, 22, 23}) {  // started f plies ago
            if (occupied && f == 0) {
                CountCase k;  // the count starts now (the default)
                k.arbiter.started = true;
                k.arbiter.strong = strong;
                out.push_back(k);
                continue;
            }
            out.push_back(forcada_case(p, strong, f, f));
        }
        return out;
    };
    for (const char* m : {"0301", "0103"}) compare_class(db, arbiter, mat(m), 13, forcada);
    const auto near = [](const Position&) { return plain_cases({33, 36, 38, 39, 40}); };
    for (const char* m : {"0201", "1101"}) compare_class(db, arbiter, mat(m), 29, near);
}

// Issue 41: the forcada starts while the 20-move count has run part of its course (c - f plies
// before the start), so the king-move count may run out first; the lone king's capture restarts
// it while the forcada runs on. Every such answer is exact. Every 37th placement of 0301, White
// and Black to move (Black to move: 0103's tables through the probe's colour flip), at every
// count the forcada runs with (f <= c < 40, f <= 24: every offset d = c - f, the forcada's count
// binding for d <= 16 and the king-move count's gap for d >= 17), against the joint-state
// arbiter (checked against the search below); every position and count of 0301 and 0103 is in
// test_limits_brute_slow.
TEST(LimitsBrute, PortugueseForcadaBehindTheKingCount) {
    const Variant v{BaseVariant::portuguese, false};
    const LimitsDb db(v, 4, mat("0301"));
    const ForcadaArbiter arbiter(Color::white);
    const auto cases = [&](const Position& p) {
        std::vector<CountCase> out;
        for (int c = 0; c < ForcadaArbiter::king_plies; ++c)
            for (int f = 0; f <= std::min(c, 24); ++f)
                out.push_back(forcada_case(p, Color::white, c, f));
        return out;
    };
    for (const Color side : {Color::white, Color::black})
        EXPECT_EQ(compare_class(db, arbiter, mat("0301"), 37, cases, false, side).inexact, 0u);
}

// The joint-state arbiter (forcada_arbiter.hpp) against the per-query search (arbiter.hpp),
// the two written apart from the rule text: random positions of 3, 2 and 1 kings against 1
// (either side to move, either three-king side) at random counts, the forcada waiting or
// running. The search's memo is shared by the queries of one class; its cost grows with the
// plies the counts leave, so the states asked have at most 23 plies of the king-move count left
// (c >= 17), 15 in 3 kings against 1 (its 400 queries at c >= 17 took the search 23 minutes
// and 40 M states), 12 while the forcada waits. About 270 CPU-s and 1.3 GB in all (the search).
TEST(LimitsBrute, ForcadaArbiterAgreesWithTheSearch) {
    const Variant v{BaseVariant::portuguese, false};
    std::mt19937_64 rng(41);
    int counts[3] = {0, 0, 0};  // by the side to move's value: loss, draw, win
    for (const Color strong : {Color::white, Color::black}) {
        const auto wall = std::chrono::steady_clock::now();
        const std::clock_t cpu = std::clock();
        const ForcadaArbiter fast(strong);
        std::printf(
            "forcada arbiter, three-king side %s: %zu states, %llu edges, %.1f s (%.1f CPU-s)\n",
            strong == Color::white ? "white" : "black", fast.states(),
            static_cast<unsigned long long>(fast.edges()),
            std::chrono::duration<double>(std::chrono::steady_clock::now() - wall).count(),
            static_cast<double>(std::clock() - cpu) / CLOCKS_PER_SEC);
        for (const int kings : {1, 2, 3}) {
            Material m{0, kings, 0, 1};
            if (strong == Color::black) m = m.mirrored();
            const ClassIndex index(v.info().board, m);
            Arbiter<Portuguese> search(v, false);
            const auto start = std::chrono::steady_clock::now();
            for (int n = 0; n < (kings == 3 ? 100 : 400); ++n) {
                Position p = index.unindex(rng() % index.size());
                p.side = rng() % 2 ? Color::white : Color::black;
                ArbiterState s;
                s.started = rng() % 3 != 0;
                const int least = kings == 3 ? 25 : 17;
                s.c = least + static_cast<int>(rng() % (40 - least));
                if (!s.started) s.c = std::max(s.c, 28);
                if (s.started) {
                    s.strong = strong;
                    s.strong_moves = static_cast<int>(rng() % 13);
                }
                const Value expected = search.value(p, s);
                ASSERT_EQ(fast.value(p, s), expected)
                    << m.name() << " side " << static_cast<int>(p.side) << " c=" << s.c
                    << " started=" << s.started << " s=" << s.strong_moves;
                ++counts[expected == Value::loss ? 0 : expected == Value::draw ? 1 : 2];
            }
            std::printf(
                "%s: %.1f s, search states %zu\n", m.name().c_str(),
                std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(),
                search.states());
        }
    }
    std::printf("forcada arbiters agree on 1800 states: %d losses, %d draws, %d wins\n", counts[0],
                counts[1], counts[2]);
    EXPECT_GT(counts[0], 0);
    EXPECT_GT(counts[1], 0);
    EXPECT_GT(counts[2], 0);
}

// After the lone king's capture the forcada runs on; the capture came after its start (c < f).
// In 1 king against 1 either king may have been the lone one: the probe answers for both, and
// where it says exact, the arbiter agrees whichever it was.
TEST(LimitsBrute, PortugueseForcadaAfterTheLoneKingsCaptures) {
    const Variant v{BaseVariant::portuguese, false};
    const LimitsDb db(v, 3);
    const auto counts = [](const Position& p, Color strong) {
        std::vector<CountCase> out;
        for (const int f : {1, 2, 9, 16, 22, 23, 24})
            for (const int c : {0, f - 1}) out.push_back(forcada_case(p, strong, c, f));
        return out;
    };
    const auto stronger = [&](const Position& p) {
        const Color strong = popcount(p.of(Color::white)) > popcount(p.of(Color::black))
                                 ? Color::white
                                 : Color::black;
        return counts(p, strong);
    };
    for (const char* m : {"0201", "0102"}) {
        Arbiter<Portuguese> arbiter(v, false);
        EXPECT_EQ(compare_class(db, arbiter, mat(m), 5, stronger).inexact, 0u) << m;
    }
    // 1 king against 1: exact with the forcada's side given; without it, inexact where the side
    // matters (compare_indices checks those never decide a game the arbiter draws).
    for (const Color strong : {Color::white, Color::black}) {
        Arbiter<Portuguese> arbiter(v, false);
        EXPECT_EQ(compare_class(db, arbiter, mat("0101"), 1,
                                [&](const Position& p) { return counts(p, strong); })
                      .inexact,
                  0u);
        const auto side_unknown = [&](const Position& p) {
            std::vector<CountCase> cases = counts(p, strong);
            for (CountCase& k : cases) k.probe.forcada_side.reset();
            return cases;
        };
        EXPECT_GT(compare_class(db, arbiter, mat("0101"), 1, side_unknown).inexact, 0u);
    }
}

// The ending counts beside the king-move count: a man move (or a capture inside the row)
// restarts the king-move count and not the ending's, so c <= e; the ending's count binds. Every
// kind of ending row: international's 5-move row and 10-move row, brazilian's 5-move endings
// and 3 kings against 1, russian's 3 kings against 1.
TEST(LimitsBrute, EndingCountsBesideTheKingCount) {
    const auto cases = [](const Position&) {
        return ending_cases({{0, 6}, {2, 8}, {5, 9}, {0, 10}, {9, 9}});
    };
    {
        const Variant v{BaseVariant::international, false};
        const LimitsDb db(v, 3);
        Arbiter<International> arbiter(v, false);
        for (const char* m : {"1101", "0111", "0201"}) compare_class(db, arbiter, mat(m), 7, cases);
    }
    {
        const Variant v{BaseVariant::brazilian, false};
        const LimitsDb db(v, 3);
        Arbiter<Brazilian> arbiter(v, false);
        for (const char* m : {"0111", "1101"}) compare_class(db, arbiter, mat(m), 7, cases);
    }
    {
        const Variant v{BaseVariant::russian, false};
        const LimitsDb db(v, 4, mat("0301"));
        Arbiter<Russian> arbiter(v, false);
        const auto late = [](const Position&) {
            return ending_cases({{0, 24}, {10, 26}, {20, 28}, {29, 29}});
        };
        compare_class(db, arbiter, mat("0301"), 29, late);
    }
    {  // brazilian 3 kings against 1: the ending's 20 moves as long as the king-move count's
        const Variant v{BaseVariant::brazilian, false};
        const LimitsDb db(v, 4, mat("0301"));
        Arbiter<Brazilian> arbiter(v, false);
        const auto late = [](const Position&) {
            return ending_cases({{0, 34}, {12, 36}, {30, 38}, {39, 39}});
        };
        compare_class(db, arbiter, mat("0301"), 97, late);
    }
    {  // international's 10-move row, men moving inside it (the seed's edition)
        const Variant v{BaseVariant::international, false};
        const LimitsDb db(v, 4, mat("1201"));
        Arbiter<International> arbiter(v, false);
        const auto late = [](const Position&) {
            return ending_cases({{0, 16}, {6, 18}, {0, 19}, {19, 19}});
        };
        compare_class(db, arbiter, mat("1201"), 9973, late);
    }
}

TEST(LimitsBrute, InternationalThreePieces) {
    const Variant v{BaseVariant::international, false};
    const LimitsDb db(v, 3);
    Arbiter<International> arbiter(v, false);
    const auto five = [](const Position&) { return plain_cases({0, 3, 6, 8, 9, 10}); };
    for (const char* m : {"0101", "0201", "0102", "1101", "0111"})
        compare_class(db, arbiter, mat(m), 11, five);
    const auto king_rule = [](const Position&) { return plain_cases({44, 46, 48, 49, 50}); };
    for (const char* m : {"0110", "1001", "0120", "1011"})
        compare_class(db, arbiter, mat(m), 13, king_rule);
}

TEST(LimitsBrute, EnglishKingRule) {
    const Variant v{BaseVariant::english, false};
    const LimitsDb db(v, 3);
    Arbiter<English> arbiter(v, false);
    const auto near = [](const Position&) { return plain_cases({72, 75, 77, 78, 79, 80}); };
    for (const char* m : {"0201", "0102", "0110", "1101"})
        compare_class(db, arbiter, mat(m), 7, near);
}

TEST(LimitsBrute, BrazilianGiveaway) {
    const Variant v{BaseVariant::brazilian, true};
    const LimitsDb db(v, 3);
    Arbiter<Brazilian> arbiter(v, false);
    const auto five = [](const Position&) { return plain_cases({0, 4, 8, 9, 10}); };
    for (const char* m : {"0101", "0201", "0102", "0111"})
        compare_class(db, arbiter, mat(m), 5, five);
}

}  // namespace
}  // namespace damas::test
