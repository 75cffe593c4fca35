// International's 4-piece limited endings (S000 6.3: 3 kings, 2 kings + 1 man, 1 king + 2 men
// against 1 king; 10 moves in the seed's edition, 16 in FMJD's) against the independent arbiter
// (arbiter.hpp), both editions, and RULES.md's 1201 example from the start of the count.
//
// The arbiter is a memoised game tree over (position, counts); its states grow about 1.45 times
// per 2 plies of count left, so every position of a class cannot be searched from a fresh count.
// Each class is compared on a random sample of 1000 positions (sample_indices: mt19937_64 with a
// fixed seed, so the same sample on every run), both colours to move (the class and its mirror),
// at the last 4 plies of the count (and so every fresh 5-move count a capture starts), in both
// editions; the two example positions are searched from a fresh count (about 150 s and 2.2 GB
// each).
#include "limits_fixture.hpp"
#include "rules/notation.hpp"

namespace damas::test {
namespace {

Material mat(const char* name) {
    return *Material::parse(name);
}

constexpr std::size_t sample_size = 1000;

// The class and its mirror, seed and fmjd, near the end of each edition's count.
void compare_ending(const char* name) {
    const Variant v{BaseVariant::international, false};
    const Material m = mat(name);
    const LimitsDb db(v, 4, m, true);
    const auto seed_cases = [](const Position&) { return plain_cases({16, 18, 19, 20}); };
    const auto fmjd_cases = [](const Position&) { return plain_cases({28, 30, 31, 32}); };
    for (const Material c : {m, m.mirrored()}) {
        const std::vector<std::uint64_t> sample = sample_indices(db, c, sample_size, 6);
        {
            Arbiter<International> arbiter(v, false);
            compare_indices(db, arbiter, c, sample, seed_cases, false);
        }
        {
            Arbiter<International> arbiter(v, true);
            compare_indices(db, arbiter, c, sample, fmjd_cases, true);
        }
    }
}

TEST(LimitsBruteSlow, InternationalThreeKings) {
    compare_ending("0301");
}

TEST(LimitsBruteSlow, InternationalTwoKingsAndMan) {
    compare_ending("1201");
}

TEST(LimitsBruteSlow, InternationalKingAndTwoMen) {
    compare_ending("2101");
}

// RULES.md's example, from a fresh seed count (20 plies): test_limits_examples asserts the
// values below; here the arbiter confirms them from the rule text alone.
TEST(LimitsBruteSlow, InternationalExampleFromAFreshCount) {
    const Variant v{BaseVariant::international, false};
    const LimitsDb db(v, 4, mat("1201"));
    const DrawRules seed = draw_rules(v, Edition::seed);
    const RulesOracle probe(db.dir);
    const std::pair<const char*, Value> examples[] = {
        {"W:WK44,45,K50:BK2", Value::win},   // pure DTW 23: a forced capture restarts the count
        {"W:WK44,45,K50:BK7", Value::draw},  // pure DTW 25: drawn by the 10-move rule
    };
    for (const auto& [fen, expected] : examples) {
        const Position p = parse_fen(v, fen);
        Arbiter<International> arbiter(v, false);
        EXPECT_EQ(arbiter.value(p, {}), expected) << fen;
        EXPECT_EQ(probe.probe(seed, p, {}).rule.value, expected) << fen;
        std::printf("%s: arbiter states %zu\n", fen, arbiter.states());
    }
}

// Issue 41's check: every position of 3 kings against 1 (both colours) at every count a game
// reaches once the forcada has started with the king-move count behind it (offsets d = c - f
// of 17..39, every f with a king-move ply left), and every position of 2 kings and 1 king
// against 1 at every reachable count after the lone king's captures (c < f), the forcada's side
// given: every answer exact. One arbiter per offset, so that its memory is freed after.
TEST(LimitsBruteSlow, PortugueseForcadaEveryReachableCount) {
    const Variant v{BaseVariant::portuguese, false};
    const LimitsDb db(v, 4, mat("0301"));
    for (int d = 17; d <= 39; ++d) {
        const auto cases = [&](const Position& p) {
            std::vector<CountCase> out;
            for (int f = 0; f <= 24 && d + f < 40; ++f)
                out.push_back(forcada_case(p, Arbiter<Portuguese>::strong_side(p), d + f, f));
            return out;
        };
        for (const char* m : {"0301", "0103"}) {
            Arbiter<Portuguese> arbiter(v, false);
            EXPECT_EQ(compare_class(db, arbiter, mat(m), 1, cases).inexact, 0u) << m << d;
        }
    }
    for (const char* m : {"0201", "0102", "0101"}) {
        for (const Color strong : {Color::white, Color::black}) {
            const auto cases = [&](const Position& p) {
                std::vector<CountCase> out;
                for (int f = 1; f <= 24; ++f)
                    for (int c = 0; c < f; ++c) out.push_back(forcada_case(p, strong, c, f));
                return out;
            };
            const Material k = mat(m);
            const bool strong_has_more = (strong == Color::white) == (k.white() > k.black());
            if (k.white() != k.black() && !strong_has_more) continue;
            Arbiter<Portuguese> arbiter(v, false);
            EXPECT_EQ(compare_class(db, arbiter, k, 1, cases).inexact, 0u) << m;
        }
    }
}

}  // namespace
}  // namespace damas::test
