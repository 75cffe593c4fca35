// The rule tables (gen-rules + Tablebase::probe_rules) against the independent arbiter
// (arbiter.hpp) on the small endgames of every variant that has a limited ending: brazilian (5-move
// endings, 3 kings against 1), russian (3 kings against 1), portuguese (the forcada, before and
// after it starts), international with 3 pieces (the 5-move ending). International's 4-piece
// endings are in test_limits_brute_slow.
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
// it while the forcada runs on. Every such answer is exact. Two offsets d = c - f: 17 (the
// king-move count one ply behind the forcada's) and 28 (11 behind); every offset and position
// is in test_limits_brute_slow.
TEST(LimitsBrute, PortugueseForcadaBehindTheKingCount) {
    const Variant v{BaseVariant::portuguese, false};
    const LimitsDb db(v, 4, mat("0301"));
    for (const int d : {17, 28}) {
        const auto cases = [&](const Position& p) {
            std::vector<CountCase> out;
            for (const int f : {0, 1, 6, 13, 20})
                if (d + f < 40)
                    out.push_back(forcada_case(p, Arbiter<Portuguese>::strong_side(p), d + f, f));
            return out;
        };
        for (const char* m : {"0301", "0103"}) {
            Arbiter<Portuguese> arbiter(v, false);
            EXPECT_EQ(compare_class(db, arbiter, mat(m), 37, cases).inexact, 0u) << m << " d=" << d;
        }
    }
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
// restarts the king-move count and not the ending's, so c <= e; the ending's count binds.
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
