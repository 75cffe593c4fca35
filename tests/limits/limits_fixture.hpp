// The comparison of the rule tables with the independent arbiter (arbiter.hpp): a database
// generated in a scratch folder (pure tables, then the rule tables), and every sampled
// position of a class probed at several counts by both.
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <memory>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "arbiter.hpp"
#include "index/class_index.hpp"
#include "probe/limits_probe.hpp"
#include "rules/error.hpp"
#include "tests/support/generate.hpp"
#include "tests/support/scratch.hpp"

namespace damas::test {

// Tablebase::probe_rules with any failure an Error naming it, for comparisons.
class RulesOracle {
  public:
    explicit RulesOracle(const std::filesystem::path& dir) : tb_(Tablebase::open(dir, 16)) {}
    RulesAnswer probe(const DrawRules& rules, const Position& p, const RuleCounters& c) const {
        const RulesResult r = tb_->probe_rules(rules, p, c);
        if (!r.ok())
            throw Error(std::string("probe_rules: ") + probe_status_name(r.status) + " " +
                        r.missing_table.string());
        return r.answer;
    }

  private:
    std::unique_ptr<Tablebase> tb_;
};

// The pure tables and the rule tables (the seed's edition, and FMJD's if asked) of a variant's
// classes up to `pieces` (or of `only` and what it needs), in a scratch folder.
struct LimitsDb {
    ScratchDir scratch;
    std::filesystem::path dir;
    Variant variant;
    LimitsDb(Variant v, int pieces, std::optional<Material> only = std::nullopt,
             bool fmjd_too = false)
        : scratch("limits-" + v.name()), dir(scratch.path), variant(v) {
        GenerateOptions g = generate_options(v, pieces, dir);
        g.only = only;
        generate_quietly(g);
        RuleGenerateOptions r = rule_options(v, pieces, dir);
        r.only = only;
        generate_rules_quietly(r);
        if (fmjd_too) {
            r.edition = Edition::fmjd;
            generate_rules_quietly(r);
        }
    }
};

// One comparison: the counts given to the probe and the same counts as the arbiter keeps them.
struct CountCase {
    RuleCounters probe;
    ArbiterState arbiter;
};

// How many answers compare_indices compared, and how many the probe said were not exact.
struct Compared {
    std::uint64_t compared = 0, inexact = 0;
};

// The positions of class m with the given indices, at every count case `cases(p)` gives. The
// placements of class m with `side` to move: Black to move, the probe answers them from the
// mirror class's tables through the colour flip.
template <class A, class Cases>
Compared compare_indices(const LimitsDb& db, A& arbiter, Material m,
                         const std::vector<std::uint64_t>& indices, Cases&& cases,
                         bool fmjd = false, Color side = Color::white) {
    const DrawRules rules = draw_rules(db.variant, fmjd ? Edition::fmjd : Edition::seed);
    const RulesOracle probe(db.dir);
    const ClassIndex index(db.variant.info().board, m);
    std::uint64_t compared = 0, failures = 0, decided = 0, inexact = 0;
    for (const std::uint64_t i : indices) {
        Position p = index.unindex(i);
        p.side = side;
        for (const CountCase& c : cases(p)) {
            const RulesAnswer a = probe.probe(rules, p, c.probe);
            const Value expected = arbiter.value(p, c.arbiter);
            if (!a.exact) {
                // Where the probe says it is not exact, it may only under-state a win (a draw
                // where the arbiter finds a win or loss), never decide a game the arbiter draws.
                ++inexact;
                if (a.rule.value != expected && a.rule.value != Value::draw && ++failures <= 10)
                    ADD_FAILURE() << db.variant.name() << " class " << m.name() << " index " << i
                                  << " side " << static_cast<int>(side)
                                  << ": an inexact answer decides a game the arbiter does not";
                continue;
            }
            ++compared;
            if (a.rule.value != Value::draw) ++decided;
            if (a.rule.value != expected && ++failures <= 10)
                ADD_FAILURE() << db.variant.name() << " class " << m.name() << " index " << i
                              << " side " << static_cast<int>(side)
                              << " c=" << c.probe.plies_since_capture
                              << " e=" << c.probe.plies_in_ending << " f=" << c.probe.forcada_plies
                              << ": tables say " << static_cast<int>(a.rule.value) << " ("
                              << a.summary() << "), arbiter says " << static_cast<int>(expected);
        }
    }
    EXPECT_EQ(failures, 0u);
    EXPECT_GT(compared, 0u);
    std::printf(
        "%s %s%s: %llu comparisons (%llu decided, %llu inexact skipped), arbiter states %zu\n",
        db.variant.name().c_str(), m.name().c_str(), side == Color::white ? "" : " black to move",
        static_cast<unsigned long long>(compared), static_cast<unsigned long long>(decided),
        static_cast<unsigned long long>(inexact), static_cast<std::size_t>(arbiter.states()));
    return {compared, inexact};
}

// Every `stride`-th position of class m (`side` to move), at every count case `cases(p)` gives.
template <class A, class Cases>
Compared compare_class(const LimitsDb& db, A& arbiter, Material m, std::uint64_t stride,
                       Cases&& cases, bool fmjd = false, Color side = Color::white) {
    std::vector<std::uint64_t> indices;
    const std::uint64_t size = ClassIndex(db.variant.info().board, m).size();
    for (std::uint64_t i = 0; i < size; i += stride) indices.push_back(i);
    return compare_indices(db, arbiter, m, indices, std::forward<Cases>(cases), fmjd, side);
}

// `count` indices of class m drawn at random, the same on every run and machine (mt19937_64
// from a fixed seed, reduced modulo the class size), in increasing order.
inline std::vector<std::uint64_t> sample_indices(const LimitsDb& db, Material m, std::size_t count,
                                                 std::uint64_t seed) {
    const std::uint64_t size = ClassIndex(db.variant.info().board, m).size();
    std::mt19937_64 rng(seed);
    std::vector<std::uint64_t> out(count);
    for (auto& i : out) i = rng() % size;
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

// Counts in a limited ending: each (c, e) of `used` (c <= e: a man move or a capture inside the
// row restarts the king-move count, not the ending's).
inline std::vector<CountCase> ending_cases(const std::vector<std::pair<int, int>>& used) {
    std::vector<CountCase> out;
    for (const auto& [c, e] : used) {
        CountCase k;
        k.probe.plies_since_capture = c;
        k.probe.plies_in_ending = e;
        k.arbiter.c = c;
        k.arbiter.e = e;
        out.push_back(k);
    }
    return out;
}

// The forcada running at p, started f plies ago by `strong` (the three-king side), with c
// plies since the last capture: the probe's counts and the arbiter's (the strong side's moves
// among the last f plies).
inline CountCase forcada_case(const Position& p, Color strong, int c, int f) {
    CountCase k;
    k.probe.forcada_started = true;
    k.probe.forcada_plies = f;
    k.probe.plies_since_capture = c;
    k.probe.forcada_side = strong;
    k.arbiter.started = true;
    k.arbiter.strong = strong;
    k.arbiter.c = c;
    Color mover = f % 2 == 0 ? p.side : ~p.side;
    for (int i = 0; i < f; ++i, mover = ~mover) k.arbiter.strong_moves += mover == strong;
    return k;
}

// Counts for a class under one running count with limit `limit`: each k of `used`, as plies
// since the last capture or man move and (for an ending) since the ending began.
inline std::vector<CountCase> plain_cases(const std::vector<int>& used) {
    std::vector<std::pair<int, int>> both;
    for (const int k : used) both.emplace_back(k, k);
    return ending_cases(both);
}

}  // namespace damas::test
