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
            CountCase k;
            k.probe.forcada_started = true;
            k.probe.forcada_plies = f;
            k.probe.plies_since_capture = f;
            k.arbiter.started = true;
            k.arbiter.strong = strong;
            k.arbiter.c = f;
            // The three-king side's moves among the last f plies.
            Color mover = f % 2 == 0 ? p.side : ~p.side;
            for (int i = 0; i < f; ++i, mover = ~mover) k.arbiter.strong_moves += mover == strong;
            if (f == 0 || f >= 15) out.push_back(k);
        }
        return out;
    };
    for (const char* m : {"0301", "0103"}) compare_class(db, arbiter, mat(m), 13, forcada);
    const auto near = [](const Position&) { return plain_cases({33, 36, 38, 39, 40}); };
    for (const char* m : {"0201", "1101"}) compare_class(db, arbiter, mat(m), 29, near);
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
