// The comparison of generated files with the reference solver (reference_solver.hpp), used by
// test_gen_independent.
//
// The generated files are read whole (TableFile) and addressed with ClassIndex; a Black-to-move
// position is the colour flip of a White-to-move one of the mirrored class, as the files store
// it, and the reference solver computes it on its own (it knows no flip), so both sides to move
// are checked against every stored entry. Positions where the side to move must capture hold a
// fill value in the files: for those the test resolves the captures itself (best over the
// captures of the stored values, recursively) and compares the result, as a probe would see it.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <functional>
#include <iostream>
#include <map>
#include <memory>
#include <string>

#include "gen_fixtures.hpp"
#include "index/flip.hpp"
#include "index/material.hpp"
#include "reference_solver.hpp"
#include "rules/notation.hpp"

namespace damas::test {

struct Counts {
    std::uint64_t compared = 0, captures = 0, wins = 0, draws = 0, losses = 0;
    int longest = 0;
    int failures = 0;
};

inline std::string describe(const RefResult& r) {
    std::string s = wdl_name(r.value);
    if (r.value != Wdl::draw) {
        s += ' ';
        s += std::to_string(r.dtw);
    }
    return s;
}

// A stored pair (wdl, dtw) as a result; dtw must say draw exactly for draws.
inline RefResult from_file(std::uint8_t wdl, std::uint16_t dtw, bool& consistent) {
    const Wdl value = static_cast<Wdl>(wdl);
    consistent = wdl <= wdl_win && ((value == Wdl::draw) == (dtw == dtw_draw));
    return {value, value == Wdl::draw ? std::uint16_t{0} : dtw};
}

template <class R>
void compare_with_reference(const Variant& v, int pieces) {
    Counts counts;
    ScratchDir dir(v.name() + "-indep-" + std::to_string(pieces));
    const auto t0 = std::chrono::steady_clock::now();
    generate_quietly(v, pieces, dir.path);
    const auto t1 = std::chrono::steady_clock::now();
    const ReferenceSolver<R> ref(v.giveaway, pieces);
    const auto t2 = std::chrono::steady_clock::now();

    const BoardSpec board = v.info().board;
    std::map<Material, ClassTables> tables;
    std::map<Material, std::unique_ptr<ClassIndex>> indices;
    for (const Material m : classes_up_to(pieces)) {
        tables.emplace(m, read_class(dir.path, v, m));
        indices.emplace(m, std::make_unique<ClassIndex>(board, m));
    }

    // What the files say about a position without capture (either side to move).
    const auto stored = [&](const Position& p, bool& consistent) {
        const Position w = p.side == Color::white ? p : flip(board, p);
        const Material m = Material::of(w);
        const ClassTables& t = tables.at(m);
        const std::uint64_t i = indices.at(m)->index(w);
        return from_file(t.wdl[i], t.dtw[i], consistent);
    };
    // The probe's view: captures resolved by search over the stored values.
    std::function<RefResult(const Position&)> probe = [&](const Position& p) -> RefResult {
        if (!p.of(p.side)) return ref.no_move();
        if (const RefResult end = ref.material_end(p); ref.ends(end)) return end;
        MoveList captures;
        MoveGenerator<R>::generate_captures(p, captures);
        if (captures.empty()) {
            bool consistent = true;
            const RefResult r = stored(p, consistent);
            return consistent ? r : RefResult{Wdl::draw, 0xFFFF};
        }
        std::vector<RefResult> after;
        for (const Move& c : captures) after.push_back(probe(make_move(p, c)));
        return best_of(after);
    };

    for (const auto& [m, index] : indices) {
        const ClassTables& t = tables.at(m);
        ASSERT_EQ(t.wdl.size(), index->size()) << m.name();
        for (std::uint64_t i = 0; i < index->size(); ++i) {
            const Position p = index->unindex(i);
            const Position black_to_move = flip(board, p);
            const RefResult expected = ref.result(p);
            const RefResult expected_flipped = ref.result(black_to_move);
            const bool capture = MoveGenerator<R>::has_capture(p);
            RefResult got;
            if (capture) {
                got = probe(p);
                ++counts.captures;
            } else {
                bool consistent = true;
                got = from_file(t.wdl[i], t.dtw[i], consistent);
                if (!consistent) {
                    ADD_FAILURE() << v.name() << ' ' << m.name() << ' ' << i << ' ' << to_fen(v, p)
                                  << ": wdl " << int{t.wdl[i]} << " and dtw " << t.dtw[i]
                                  << " disagree";
                    if (++counts.failures > 20) FAIL() << "too many differences";
                }
            }
            ++counts.compared;
            if (got != expected || got != expected_flipped) {
                ADD_FAILURE() << v.name() << ' ' << m.name() << " index " << i << ' '
                              << to_fen(v, p) << (capture ? " (capture, resolved)" : "")
                              << ": generator " << describe(got) << ", reference "
                              << describe(expected) << " (Black-to-move mirror "
                              << to_fen(v, black_to_move) << ": " << describe(expected_flipped)
                              << ")";
                if (++counts.failures > 20) FAIL() << "too many differences";
            }
            if (expected.value == Wdl::win) ++counts.wins;
            if (expected.value == Wdl::draw) ++counts.draws;
            if (expected.value == Wdl::loss) ++counts.losses;
            counts.longest = std::max<int>(counts.longest, expected.dtw);
        }
    }
    const auto t3 = std::chrono::steady_clock::now();
    const auto secs = [](auto a, auto b) { return std::chrono::duration<double>(b - a).count(); };
    std::cout << v.name() << " 2.." << pieces << " pieces: " << counts.compared
              << " positions compared (" << counts.captures << " with a capture), " << counts.wins
              << " wins, " << counts.draws << " draws, " << counts.losses << " losses, longest DTW "
              << counts.longest << "; reference " << ref.positions() << " positions; generate "
              << secs(t0, t1) << " s, reference " << secs(t1, t2) << " s, compare " << secs(t2, t3)
              << " s\n";
    // The sets are not trivial: every kind of result occurs.
    EXPECT_GT(counts.wins, 0u);
    EXPECT_GT(counts.losses, 0u);
    std::uint64_t expected_positions = 0;
    for (const auto& [m, index] : indices) expected_positions += index->size();
    EXPECT_EQ(counts.compared, expected_positions);
}

inline void compare(const Variant& v, int pieces) {
    dispatch(v.base, [&](auto rules) { compare_with_reference<decltype(rules)>(v, pieces); });
}

// The reference solver itself: every position of its own enumeration that the files can hold
// is reached by exactly one index of its class (so the comparison above misses none).
template <class R>
void expect_indices_cover_reference(const Variant& v, int pieces) {
    const ReferenceSolver<R> ref(v.giveaway, pieces);
    const BoardSpec board = v.info().board;
    std::map<Material, std::uint64_t> white_to_move;
    // Turkish men never stand on their own back row (they never move backwards): the index
    // leaves those placements out, the reference enumerates them.
    constexpr bool back_row_excluded = R::men_move_sideways;
    using B = typename R::Board;
    ref.for_each([&](const Position& p, const RefResult&) {
        if (p.side != Color::white) return;
        if (back_row_excluded &&
            ((p.men(Color::white) & B::row(0)) || (p.men(Color::black) & B::row(B::height - 1))))
            return;
        ++white_to_move[Material::of(p)];
    });
    for (const Material m : classes_up_to(pieces)) {
        const ClassIndex index(board, m);
        EXPECT_EQ(index.size(), white_to_move[m]) << v.name() << ' ' << m.name();
        for (std::uint64_t i = 0; i < index.size(); i += 97)
            ASSERT_EQ(index.index(index.unindex(i)), i);
    }
}

}  // namespace damas::test
