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
//
// Portuguese: issue 41's check, the rule tables against the joint-state arbiter
// (forcada_arbiter.hpp) at every position of the forcada's classes and every count a game
// reaches (212 M comparisons, about 150 CPU-s).
#include <functional>

#include "forcada_arbiter.hpp"
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

// Issue 41's check, every position and every count a game reaches: the rule tables against
// the joint-state arbiter (forcada_arbiter.hpp, one pass per class for each three-king side).
// 3 kings against 1 (0301: the three kings to move; 0103: the lone king to move): the forcada
// waiting (no three-king-side king on the diagonal) at c = 0..39, and running at every f <= c
// (3K v 1K begins with a capture or promotion) up to 24 (f = 0 only with a king on the
// diagonal). 2 kings against 1 (0201, 0102) and 1 against 1 (0101, either side's forcada): the
// king-move count alone at c = 0..39, and the forcada running on after the lone king's
// captures at every c < f <= 24. Every answer must be exact and agree.
std::vector<CountCase> king_count_only(const Position&) {
    std::vector<CountCase> out;
    for (int c = 0; c < ForcadaArbiter::king_plies; ++c) {
        CountCase k;
        k.probe.plies_since_capture = c;
        k.arbiter.c = c;
        out.push_back(k);
    }
    return out;
}

TEST(LimitsBruteSlow, PortugueseForcadaEveryReachableCount) {
    const Variant v{BaseVariant::portuguese, false};
    const LimitsDb db(v, 4, mat("0301"));
    const Bitboard diagonal = Arbiter<Portuguese>::long_diagonal();
    std::uint64_t compared = 0;
    for (const Color strong : {Color::white, Color::black}) {
        const ForcadaArbiter arbiter(strong);
        const bool white = strong == Color::white;
        const auto three = [&](const Position& p) {
            const bool occupied = (p.kings_of(strong) & diagonal) != 0;
            std::vector<CountCase> out;
            if (!occupied) out = king_count_only(p);
            for (int c = 0; c < ForcadaArbiter::king_plies; ++c)
                for (int f = occupied ? 0 : 1; f <= std::min(c, 24); ++f)
                    out.push_back(forcada_case(p, strong, c, f));
            return out;
        };
        const auto after_captures = [&](const Position& p, bool king_count_too) {
            std::vector<CountCase> out;
            if (king_count_too) out = king_count_only(p);
            for (int f = 1; f <= 24; ++f)
                for (int c = 0; c < f; ++c) out.push_back(forcada_case(p, strong, c, f));
            return out;
        };
        const auto two = [&](const Position& p) { return after_captures(p, true); };
        const auto one = [&](const Position& p) { return after_captures(p, white); };
        const std::pair<const char*, std::function<std::vector<CountCase>(const Position&)>>
            classes[] = {
                {white ? "0301" : "0103", three}, {white ? "0201" : "0102", two}, {"0101", one}};
        for (const auto& [name, cases] : classes) {
            const Compared c = compare_class(db, arbiter, mat(name), 1, cases);
            EXPECT_EQ(c.inexact, 0u) << name;
            compared += c.compared;
        }
    }
    std::printf("portuguese forcada: %llu comparisons in all\n",
                static_cast<unsigned long long>(compared));
}

}  // namespace
}  // namespace damas::test
