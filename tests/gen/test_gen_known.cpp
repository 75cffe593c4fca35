// Known endgame results from the rules texts and the literature, asserted on generated tables:
// a third source besides the generator and the reference solver. Only positions without a
// capture for the side to move (what the files store), White to move in the named class (a
// class "0103" is the lone king to move). The seeds S000-S004 are in shared/seeds (RULES.md).
#include <gtest/gtest.h>

#include <functional>
#include <iostream>
#include <string>

#include "gen_fixtures.hpp"
#include "index/material.hpp"
#include "rules/movegen.hpp"

namespace damas {
namespace {

struct Tally {
    std::uint64_t positions = 0, wins = 0, draws = 0, losses = 0;
    int longest_win = 0, longest_loss = 0;
};

using Filter = std::function<bool(const Position&)>;

// Results of the White-to-move positions of one class that pass the filter; capture positions
// (not stored) are left out by the caller's filter or here.
template <class R>
Tally tally(const std::filesystem::path& dir, const Variant& v, const std::string& name,
            const Filter& keep) {
    const Material m = *Material::parse(name);
    const ClassIndex index(v.info().board, m);
    const test::ClassTables t = test::read_class(dir, v, m);
    Tally out;
    for (std::uint64_t i = 0; i < index.size(); ++i) {
        const Position p = index.unindex(i);
        if (MoveGenerator<R>::has_capture(p) || !keep(p)) continue;
        ++out.positions;
        if (t.wdl[i] == wdl_win) {
            ++out.wins;
            out.longest_win = std::max<int>(out.longest_win, t.dtw[i]);
        }
        if (t.wdl[i] == wdl_draw) ++out.draws;
        if (t.wdl[i] == wdl_loss) {
            ++out.losses;
            out.longest_loss = std::max<int>(out.longest_loss, t.dtw[i]);
        }
    }
    return out;
}

std::ostream& operator<<(std::ostream& o, const Tally& t) {
    return o << t.positions << " positions: " << t.wins << " wins (longest " << t.longest_win
             << " plies), " << t.draws << " draws, " << t.losses << " losses (longest "
             << t.longest_loss << " plies)";
}

// The tables of one class (and what it needs) in a scratch folder.
struct ClassSet {
    Variant v;
    std::string cls;
    test::ScratchDir dir;
    ClassSet(const std::string& variant, const std::string& c)
        : v(*parse_variant(variant)), cls(c), dir(variant + "-known-" + c) {
        GenerateOptions o = test::generate_options(v, 4, dir.path);
        o.only = Material::parse(cls);
        test::generate_quietly(o);
    }
    Tally count(const std::string& c, const Filter& keep, const std::string& label) const {
        const Tally t = dispatch(
            v.base, [&](auto rules) { return tally<decltype(rules)>(dir.path, v, c, keep); });
        std::cout << v.name() << ' ' << c << ' ' << label << ": " << t << '\n';
        return t;
    }
};

// The long diagonal of an 8x8 or 10x10 diagonal board: the one through a corner dark square at
// both ends (a1-h8 when a1 is dark, h1-a8 otherwise).
Bitboard long_diagonal(const BoardSpec& b) {
    const GeometryTables t = make_tables(b);
    Bitboard d = 0;
    for (int x = 0; x < b.width; ++x) {
        const int y = b.a1_dark ? x : b.width - 1 - x;
        d |= bit(t.bit_at(x, y));
    }
    return d;
}

bool any(const Position&) {
    return true;
}

// Flying kings on 8x8 (brazilian, russian, portuguese: the same king moves; the portuguese board
// is the mirror image, its long diagonal is the "rio" h1-a8).
class FlyingKings8x8 : public ::testing::TestWithParam<const char*> {};

TEST_P(FlyingKings8x8, ThreeKingsAgainstOne) {
    const ClassSet set(GetParam(), "0301");
    const Bitboard road = long_diagonal(set.v.info().board);
    const auto on = [&](Bitboard b) { return (b & road) != 0; };
    // A lone king on the long diagonal (the "main road", none of the three kings on it) draws
    // against three kings: Russian theory (A. D. Petrov, 1827: three kings win only by holding
    // the main road, "Petrov's triangle"); S002 3.2.1b starts the portuguese count only once the
    // three kings occupy the rio. Every such position with the lone king to move is a draw.
    const Tally held = set.count(
        "0103",
        [&](const Position& p) {
            return on(p.kings_of(Color::white)) && !on(p.kings_of(Color::black));
        },
        "lone king to move on the long diagonal, none of the three");
    EXPECT_GT(held.positions, 10000u);
    EXPECT_EQ(held.draws, held.positions);
    // Three kings holding the main road win (Petrov's triangle; S002 3.2.1b "Regra da Forçada"
    // presumes the win once the rio is held). A handful of positions where the lone king can
    // force an exchange at once are draws. (The forçada's 12 moves are a playing rule, not a
    // theorem: the longest of these losses is 26 plies, 13 moves, which the move-limit issue
    // has to take into account.)
    const Tally lost = set.count(
        "0103",
        [&](const Position& p) {
            return !on(p.kings_of(Color::white)) && on(p.kings_of(Color::black));
        },
        "lone king to move off the long diagonal, one of the three on it");
    EXPECT_GT(lost.positions, 30000u);
    EXPECT_EQ(lost.wins, 0u);
    EXPECT_GE(lost.losses * 1000, lost.positions * 998);
    // The three kings never lose, and every win is inside the brazilian 20-move rule (S004:
    // three kings against one not won in 20 moves is a draw), 39 plies.
    const Tally all = set.count("0301", any, "all");
    EXPECT_EQ(all.losses, 0u);
    EXPECT_LE(all.longest_win, 39);
}

TEST_P(FlyingKings8x8, TwoKingsAgainstOneIsADraw) {
    // S000 6.4 and S001: two kings against one king is declared drawn after 5 moves, so the
    // rules hold that no win takes longer (the only wins are immediate tactics): every win of
    // the two kings is within 5 of their moves (9 plies), and most positions are draws.
    const ClassSet set(GetParam(), "0201");
    const Tally t = set.count("0201", any, "all");
    EXPECT_EQ(t.losses, 0u);
    EXPECT_LE(t.longest_win, 9);
    EXPECT_GE(t.draws * 10, t.positions * 8);
}

INSTANTIATE_TEST_SUITE_P(Variants, FlyingKings8x8,
                         ::testing::Values("brazilian", "russian", "portuguese"));

TEST(Known, InternationalThreeKingsAgainstOne) {
    const ClassSet set("international", "0301");
    const Bitboard diagonal = long_diagonal(set.v.info().board);
    const auto on = [&](Bitboard b) { return (b & diagonal) != 0; };
    // International draughts: a lone king holding the long diagonal (S000 2.3 "grande
    // diagonal", 46-5) draws against three kings (the reason for the move limit of S000 6.3).
    const Tally held = set.count(
        "0103",
        [&](const Position& p) {
            return on(p.kings_of(Color::white)) && !on(p.kings_of(Color::black));
        },
        "lone king to move on the long diagonal, none of the three");
    EXPECT_GT(held.positions, 50000u);
    EXPECT_EQ(held.draws, held.positions);
    // S000 6.3: three kings against one king are drawn after at most 10 moves: no win is longer
    // (19 plies); the three kings never lose, and most positions are draws (the lone king
    // reaches the long diagonal).
    const Tally all = set.count("0301", any, "all");
    EXPECT_EQ(all.losses, 0u);
    EXPECT_LE(all.longest_win, 19);
    EXPECT_GT(all.draws, all.wins);
    // S000 6.4: two kings against one, drawn after 5 moves.
    const Tally two = set.count("0201", any, "all");
    EXPECT_LE(two.longest_win, 9);
    EXPECT_GE(two.draws * 10, two.positions * 9);
}

TEST(Known, EnglishTwoKingsBeatOne) {
    // Checkers: two kings against one king is a win (any checkers primer; the 3-piece databases
    // of Chinook and Kingsrow). With the two kings to move and no capture: no losses, all but a
    // few positions won (the exceptions: the lone king forces an exchange); with the lone king
    // to move and no capture, it never wins.
    const ClassSet set("english", "0201");
    const Tally strong = set.count("0201", any, "two kings to move");
    EXPECT_EQ(strong.losses, 0u);
    EXPECT_GE(strong.wins * 1000, strong.positions * 995);
    const Tally weak = set.count("0102", any, "lone king to move");
    EXPECT_EQ(weak.wins, 0u);
    EXPECT_GE(weak.losses * 1000, weak.positions * 990);
}

}  // namespace
}  // namespace damas
