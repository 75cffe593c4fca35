// Helpers for the probe tests: an independent reference solver for tiny classes, and the
// comparison of a database generated in a scratch folder (tests/support) with it.
//
// The reference solver shares only the move generator (and the class index, to list the
// positions to start from) with the library: it collects every position reachable from the
// classes with at most N pieces, both sides to move, in a hash map, links each to its successors
// by generating moves, and solves by rounds: round 0 decides the positions where the game is
// over, round r the wins in r plies (a move to a loss in r-1) and the losses in r (every move
// to a win in less than r). What no round decides is a draw.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <string>
#include <unordered_map>
#include <vector>

#include "gen/run/generate.hpp"
#include "index/class_index.hpp"
#include "index/flip.hpp"
#include "index/material.hpp"
#include "probe/probe.hpp"
#include "probe/study/class_stats.hpp"
#include "rules/movegen.hpp"
#include "rules/notation.hpp"
#include "rules/variant.hpp"
#include "table/outcome.hpp"
#include "tests/support/generate.hpp"
#include "tests/support/scratch.hpp"

namespace damas::test {

struct PositionHash {
    std::size_t operator()(const Position& p) const {
        std::uint64_t h = p.pieces[0] * 0x9E3779B97F4A7C15ull;
        h ^= (p.pieces[1] + (h << 6) + (h >> 2)) * 0xC2B2AE3D27D4EB4Full;
        h ^= (p.kings + (h << 6) + (h >> 2)) * 0x165667B19E3779F9ull;
        return static_cast<std::size_t>(h ^ static_cast<std::uint64_t>(p.side));
    }
};

template <class R>
class ReferenceSolver {
  public:
    ReferenceSolver(Variant v, int max_pieces) : variant_(v) {
        const BoardSpec board = v.info().board;
        for (const Material m : classes_up_to(max_pieces)) {
            const ClassIndex index(board, m);
            for (std::uint64_t i = 0; i < index.size(); ++i) {
                const Position p = index.unindex(i);
                add(p);
                add(flip(board, p));
            }
        }
        link();
        solve();
    }

    std::size_t size() const { return positions_.size(); }
    const std::vector<Position>& positions() const { return positions_; }
    // The outcome of position number i (plies 0 for draws).
    Outcome outcome(std::size_t i) const { return outcomes_[i]; }

  private:
    int add(const Position& p) {
        const auto [it, fresh] = ids_.try_emplace(p, static_cast<int>(positions_.size()));
        if (fresh) positions_.push_back(p);
        return it->second;
    }

    // Successors by move generation; new positions (a side without pieces) are added on the
    // way, so the loop runs until every position is linked.
    void link() {
        for (std::size_t i = 0; i < positions_.size(); ++i) {
            const Position p = positions_[i];
            std::vector<int> next;
            const bool over =
                !p.of(p.side) || material_outcome<R>(p, variant_.giveaway).value != Value::unknown;
            if (!over) {
                MoveList moves;
                MoveGenerator<R>::generate(p, moves);
                for (const Move& m : moves) next.push_back(add(make_move(p, m)));
            }
            successors_.push_back(std::move(next));
        }
    }

    void solve() {
        const std::size_t n = positions_.size();
        outcomes_.assign(n, Outcome{});
        std::vector<std::vector<int>> predecessors(n);
        for (std::size_t i = 0; i < n; ++i)
            for (int s : successors_[i]) predecessors[s].push_back(static_cast<int>(i));
        std::vector<int> frontier;
        for (std::size_t i = 0; i < n; ++i) {
            const Position& p = positions_[i];
            Outcome o = material_outcome<R>(p, variant_.giveaway);
            if (o.value == Value::unknown && successors_[i].empty())
                o = no_move_outcome(variant_.giveaway);
            if (o.value == Value::unknown) continue;
            outcomes_[i] = o;
            frontier.push_back(static_cast<int>(i));
        }
        for (int round = 1; !frontier.empty(); ++round) {
            std::vector<int> decided;
            for (int f : frontier)
                for (int c : predecessors[f])
                    if (outcomes_[c].value == Value::unknown && decide(c, round))
                        decided.push_back(c);
            for (int c : decided) outcomes_[c] = pending_[c];
            frontier = std::move(decided);
            pending_.clear();
        }
        for (Outcome& o : outcomes_)
            if (o.value == Value::unknown) o = {Value::draw, 0};
    }

    // Whether position c is decided in this round; its outcome goes to pending_ (applied after
    // the round, so that a round sees only earlier rounds).
    bool decide(int c, int round) {
        if (pending_.count(c)) return false;
        bool all_wins = true;
        int longest = 0;
        for (int s : successors_[c]) {
            const Outcome o = outcomes_[s];
            if (o.value == Value::loss && o.plies == round - 1) {
                pending_[c] = {Value::win, static_cast<std::uint16_t>(round)};
                return true;
            }
            if (o.value != Value::win) all_wins = false;
            longest = std::max<int>(longest, o.plies);
        }
        if (!all_wins) return false;
        pending_[c] = {Value::loss, static_cast<std::uint16_t>(longest + 1)};
        return true;
    }

    Variant variant_;
    std::unordered_map<Position, int, PositionHash> ids_;
    std::vector<Position> positions_;
    std::vector<std::vector<int>> successors_;
    std::vector<Outcome> outcomes_;
    std::unordered_map<int, Outcome> pending_;
};

struct Case {
    const char* variant;
    int pieces;
};

// A test name for a Case: "english_giveaway_3".
inline std::string case_name(const testing::TestParamInfo<Case>& param_info) {
    std::string name = param_info.param.variant;
    for (char& ch : name)
        if (ch == '-') ch = '_';
    return name + "_" + std::to_string(param_info.param.pieces);
}

// Probes every position the reference solved and compares WDL and DTW.
template <class R>
void compare_all(Variant v, int pieces, const Tablebase& tb) {
    const ReferenceSolver<R> reference(v, pieces);
    std::uint64_t captures = 0, wins = 0, draws = 0, losses = 0, mismatches = 0;
    for (std::size_t i = 0; i < reference.size(); ++i) {
        const Position& p = reference.positions()[i];
        const Outcome expected = reference.outcome(i);
        const ProbeResult dtw = tb.probe_dtw(v, p);
        const ProbeResult wdl = tb.probe_wdl(v, p);
        captures += MoveGenerator<R>::has_capture(p);
        wins += expected.value == Value::win;
        draws += expected.value == Value::draw;
        losses += expected.value == Value::loss;
        const bool good = dtw.ok() && wdl.ok() && dtw.value == expected.value &&
                          dtw.plies == expected.plies && wdl.value == expected.value &&
                          wdl.plies == 0;
        if (!good && ++mismatches <= 10)
            ADD_FAILURE() << v.name() << " " << to_fen(v, p) << ": expected "
                          << value_name(expected.value) << " " << expected.plies << ", dtw probe "
                          << probe_status_name(dtw.status) << " " << value_name(dtw.value) << " "
                          << dtw.plies << ", wdl probe " << probe_status_name(wdl.status) << " "
                          << value_name(wdl.value);
    }
    EXPECT_EQ(mismatches, 0u);
    EXPECT_GT(captures, 0u);
    EXPECT_GT(wins, 0u);
    EXPECT_GT(losses, 0u);
    std::printf("%s: %zu positions (%llu with a capture), %llu wins, %llu draws, %llu losses\n",
                v.name().c_str(), reference.size(), static_cast<unsigned long long>(captures),
                static_cast<unsigned long long>(wins), static_cast<unsigned long long>(draws),
                static_cast<unsigned long long>(losses));
}

// Generates the database of the case and compares every position with the reference.
inline void check_against_reference(const Case& c) {
    const Variant v = *parse_variant(c.variant);
    const ScratchDir dir(std::string("ref-") + c.variant);
    generate_quietly(v, c.pieces, dir.path);
    const auto tb = Tablebase::open(dir.path, 4);
    dispatch(v.base, [&](auto rules) { compare_all<decltype(rules)>(v, c.pieces, *tb); });
}

// The first `count` positions (by index) of english class m whose side to move has a move and no
// capture (fewer if the class has fewer).
inline std::vector<Position> first_quiet_english_positions(Material m, std::size_t count) {
    const ClassIndex index(parse_variant("english")->info().board, m);
    std::vector<Position> out;
    for (std::uint64_t i = 0; i < index.size() && out.size() < count; ++i) {
        const Position p = index.unindex(i);
        if (!MoveGenerator<English>::has_capture(p) && MoveGenerator<English>::count(p) > 0)
            out.push_back(p);
    }
    return out;
}

// Class m's statistics and the best moves of a few of its positions, from folders a and b (and
// their tablebases) that must answer alike: what reads a whole class, and a ply deeper.
inline void expect_same_class_study(Variant v, Material m, const std::filesystem::path& dir_a,
                                    const Tablebase& a, const std::filesystem::path& dir_b,
                                    const Tablebase& b) {
    const auto probe_a = [&](const Position& p) { return a.probe_distance(v, p); };
    const auto probe_b = [&](const Position& p) { return b.probe_distance(v, p); };
    const study::ClassStats sa = study::class_stats(v, dir_a, m, probe_a, 3);
    const study::ClassStats sb = study::class_stats(v, dir_b, m, probe_b, 3);
    EXPECT_EQ(sa.wins, sb.wins) << m.name();
    EXPECT_EQ(sa.losses, sb.losses) << m.name();
    EXPECT_EQ(sa.draws, sb.draws) << m.name();
    EXPECT_EQ(sa.histogram, sb.histogram) << m.name();
    const ClassIndex index(v.info().board, m);
    for (std::uint64_t i = 0; i < index.size(); i += index.size() / 7 + 1) {
        std::vector<RootMove> got, expected;
        ASSERT_EQ(a.probe_root(v, index.unindex(i), got), ProbeStatus::ok);
        ASSERT_EQ(b.probe_root(v, index.unindex(i), expected), ProbeStatus::ok);
        ASSERT_EQ(got.size(), expected.size());
        for (std::size_t k = 0; k < got.size(); ++k) {
            EXPECT_EQ(got[k].notation, expected[k].notation);
            EXPECT_EQ(got[k].result.value, expected[k].result.value);
            EXPECT_EQ(got[k].result.plies, expected[k].result.plies);
        }
    }
}

}  // namespace damas::test
