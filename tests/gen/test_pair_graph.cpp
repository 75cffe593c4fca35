// The graph of pairs damas-mpi hands out (gen/plan/pair_graph.hpp): every pair's inputs are pairs
// solved before it, and a queue driven in any order of completion never starts a pair before
// its inputs are done, starts each pair once, and ends with every pair done.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <set>

#include "gen/plan/pair_graph.hpp"
#include "gen/run/generate.hpp"
#include "index/class_index.hpp"
#include "rules/error.hpp"

namespace damas {
namespace {

PairGraph graph_of(const std::string& variant, int pieces) {
    GenerateOptions o;
    o.variant = *parse_variant(variant);
    o.max_pieces = pieces;
    std::vector<Material> pairs;
    std::vector<std::uint64_t> positions;
    std::set<Material> seen;
    for (const Material m : planned_classes(o)) {
        if (seen.count(m)) continue;
        seen.insert(m);
        seen.insert(m.mirrored());
        pairs.push_back(m);
        positions.push_back(ClassIndex(o.variant.info().board, m).size());
    }
    return pair_graph(pairs, positions);
}

TEST(PairGraph, InputsAreTheClassesMovesReach) {
    const PairGraph g = graph_of("english", 4);
    ASSERT_FALSE(g.pairs.empty());
    for (std::size_t i = 0; i < g.pairs.size(); ++i) {
        std::set<Material> reached;
        for (const Material c : {g.pairs[i], g.pairs[i].mirrored()})
            for (const Material d : dependencies(c)) reached.insert(d);
        std::set<Material> from_needs;
        for (const std::size_t n : g.needs[i]) {
            EXPECT_LT(n, i);
            from_needs.insert(g.pairs[n]);
            from_needs.insert(g.pairs[n].mirrored());
        }
        for (const Material d : reached) EXPECT_TRUE(from_needs.count(d)) << g.pairs[i].name();
        for (const Material d : from_needs)
            EXPECT_TRUE(reached.count(d) || reached.count(d.mirrored())) << g.pairs[i].name();
    }
    // 1 king against 1 king reads nothing; 2 kings against 1 reads it (a capture).
    const auto at = [&](const char* name) {
        const Material m = *Material::parse(name);
        for (std::size_t i = 0; i < g.pairs.size(); ++i)
            if (g.pairs[i] == m || g.pairs[i] == m.mirrored()) return i;
        ADD_FAILURE() << name << " is in no pair";
        return std::size_t{0};
    };
    EXPECT_TRUE(g.needs[at("0101")].empty());
    const auto& n0201 = g.needs[at("0201")];
    EXPECT_NE(std::find(n0201.begin(), n0201.end(), at("0101")), n0201.end());
}

TEST(PairGraph, ChainIsThePairAndItsHeaviestDependant) {
    const PairGraph g = graph_of("english", 4);
    for (std::size_t i = 0; i < g.pairs.size(); ++i) {
        double heaviest = 0;
        for (std::size_t j = i + 1; j < g.pairs.size(); ++j)
            if (std::count(g.needs[j].begin(), g.needs[j].end(), i))
                heaviest = std::max(heaviest, g.chain[j]);
        EXPECT_EQ(g.chain[i], static_cast<double>(g.positions[i]) + heaviest);
    }
}

TEST(PairQueue, AnyOrderOfCompletionRespectsInputs) {
    const PairGraph g = graph_of("russian", 4);
    for (unsigned seed = 0; seed < 20; ++seed) {
        std::mt19937 rng(seed);
        std::vector<bool> done(g.pairs.size(), false);
        for (std::size_t i = 0; i < done.size(); ++i) done[i] = seed % 4 == 1 && rng() % 3 == 0;
        PairQueue q(g, done);
        std::vector<bool> finished = done;
        std::vector<std::size_t> running;
        std::set<std::size_t> started;
        const std::size_t workers = 1 + seed % 5;
        while (!q.all_done()) {
            while (running.size() < workers) {
                const auto p = q.next();
                if (!p) break;
                ASSERT_FALSE(finished[*p]);
                ASSERT_TRUE(started.insert(*p).second) << "started twice";
                for (const std::size_t n : g.needs[*p]) ASSERT_TRUE(finished[n]);
                running.push_back(*p);
            }
            ASSERT_FALSE(running.empty()) << "nothing ready and nothing running";
            const std::size_t k = rng() % running.size();
            finished[running[k]] = true;
            q.finish(running[k]);
            running.erase(running.begin() + static_cast<std::ptrdiff_t>(k));
        }
        EXPECT_EQ(q.running(), 0u);
        EXPECT_TRUE(std::all_of(finished.begin(), finished.end(), [](bool f) { return f; }));
    }
}

TEST(PairQueue, HeaviestReadyChainFirst) {
    // Three pairs, none reading another: the largest starts first.
    const std::vector<Material> pairs{*Material::parse("0101"), *Material::parse("0201"),
                                      *Material::parse("1001")};
    // 0201 and 1001 read 0101; as given they are ready only after it.
    const PairGraph g = pair_graph(pairs, {10, 5, 50});
    PairQueue q(g, {false, false, false});
    EXPECT_EQ(q.next(), std::optional<std::size_t>(0));
    EXPECT_EQ(q.next(), std::nullopt);
    q.finish(0);
    EXPECT_EQ(q.next(), std::optional<std::size_t>(2));
    EXPECT_EQ(q.next(), std::optional<std::size_t>(1));
    EXPECT_THROW(q.finish(0), Error);
}

TEST(PairGraph, RefusesAnOrderThatReadsAhead) {
    EXPECT_THROW(pair_graph({*Material::parse("0201"), *Material::parse("0101")}, {1, 1}), Error);
}

}  // namespace
}  // namespace damas

namespace damas {
namespace {

TEST(EstimateSchedule, BetweenTheChainAndOneWorker) {
    const PairGraph g = graph_of("english", 5);
    std::vector<double> seconds;
    for (const std::uint64_t n : g.positions) seconds.push_back(static_cast<double>(n) / 1e6);
    const ScheduleEstimate one = estimate_schedule(g, seconds, 1);
    EXPECT_NEAR(one.seconds, one.total_seconds, 1e-6 * one.total_seconds);
    const ScheduleEstimate all = estimate_schedule(g, seconds, static_cast<int>(g.pairs.size()));
    EXPECT_NEAR(all.seconds, all.chain_seconds, 1e-6 * all.chain_seconds);
    for (int workers = 2; workers <= 8; ++workers) {
        const ScheduleEstimate e = estimate_schedule(g, seconds, workers);
        EXPECT_GE(e.seconds + 1e-9, std::max(e.chain_seconds, e.total_seconds / workers));
        // Graham's bound for list scheduling with precedence.
        EXPECT_LE(e.seconds, e.total_seconds / workers + e.chain_seconds + 1e-9) << workers;
    }
    EXPECT_LT(all.chain_seconds, one.total_seconds);
    EXPECT_THROW(estimate_schedule(g, seconds, 0), Error);
}

}  // namespace
}  // namespace damas
