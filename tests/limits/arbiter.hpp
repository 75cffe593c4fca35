// An independent arbiter for the move-limit draw rules, written from shared/RULES.md alone: a
// memoised game-tree search over (position, counts) states, the counts kept literally as the
// rules text says (plies since the last capture or man move; plies since the current ending
// began; for the forcada, whether it has started and how many moves the three-king side has
// made since). It shares nothing with limits/draw_rules or gen/limits/rule_solver but the move
// generator; tests compare it with the tables.
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>

#include "index/material.hpp"
#include "rules/geometry.hpp"
#include "rules/movegen.hpp"
#include "rules/variant.hpp"
#include "table/outcome.hpp"

namespace damas::test {

struct ArbiterLimits {
    int king_plies = 0;   // the king-move rule, 2N plies; 0: none
    int row_a_plies = 0;  // international 10/16-move rule, brazilian 3K v 1K
    int row_b_plies = 0;  // the 5-move rules
    bool forcada = false;
};

// Which ending of RULES.md's table a material is (0: none, 1: row a, 2 and 4 to 7: a 5-move
// ending, 3: forcada). Brazilian's five 5-move endings are five endings (S001, one per line):
// 2, 4, 5, 6, 7.
inline int arbiter_row(BaseVariant base, Material m) {
    // Sides as (men, kings), either colour either side.
    const auto is = [&](int am, int ak, int bm, int bk) {
        return (m.white_men == am && m.white_kings == ak && m.black_men == bm &&
                m.black_kings == bk) ||
               (m.black_men == am && m.black_kings == ak && m.white_men == bm &&
                m.white_kings == bk);
    };
    switch (base) {
        case BaseVariant::international:
            if (is(0, 3, 0, 1) || is(1, 2, 0, 1) || is(2, 1, 0, 1)) return 1;
            if (is(0, 2, 0, 1) || is(1, 1, 0, 1) || is(0, 1, 0, 1)) return 2;
            return 0;
        case BaseVariant::brazilian:
            if (is(0, 3, 0, 1)) return 1;
            if (is(0, 2, 0, 2)) return 2;
            if (is(0, 2, 0, 1)) return 4;
            if (is(0, 2, 1, 1)) return 5;
            if (is(0, 1, 0, 1)) return 6;
            if (is(0, 1, 1, 1)) return 7;
            return 0;
        case BaseVariant::portuguese:
            return is(0, 3, 0, 1) ? 3 : 0;
        case BaseVariant::russian: {
            const bool strong_white =
                m.white_men == 0 && m.white_kings >= 3 && m.black_men == 0 && m.black_kings == 1;
            const bool strong_black =
                m.black_men == 0 && m.black_kings >= 3 && m.white_men == 0 && m.white_kings == 1;
            return strong_white || strong_black ? 1 : 0;
        }
        default:
            return 0;
    }
}

inline ArbiterLimits arbiter_limits(BaseVariant base, bool fmjd) {
    switch (base) {
        case BaseVariant::international:
            return {50, fmjd ? 32 : 20, 10, false};
        case BaseVariant::brazilian:
            return {40, 40, 10, false};
        case BaseVariant::portuguese:
            return {40, 0, 0, true};
        case BaseVariant::russian:
            return {30, 30, 0, false};
        case BaseVariant::english:
            return {80, 0, 0, false};
        default:
            return {};
    }
}

struct ArbiterState {
    int c = 0;                    // plies since the last capture or man move
    int e = 0;                    // plies since the current ending began
    bool started = false;         // forcada count running
    int strong_moves = 0;         // moves of the three-king side since it started
    Color strong = Color::white;  // the three-king side, once the forcada has started
};

template <class R>
class Arbiter {
  public:
    Arbiter(Variant v, bool fmjd) : v_(v), limits_(arbiter_limits(v.base, fmjd)) {}

    // The value for the side to move.
    Value value(const Position& p, ArbiterState s) {
        const Key key = key_of(p, s);
        if (const auto it = memo_.find(key); it != memo_.end()) return it->second;
        const Value v = search(p, s);
        memo_.emplace(key, v);
        return v;
    }
    std::size_t states() const { return memo_.size(); }

    static Bitboard long_diagonal() {  // portuguese 1-32: h1 .. a8
        Bitboard d = 0;
        for (int i = 0; i < 8; ++i) d |= bit(R::Board::tables.bit_at(7 - i, i));
        return d;
    }
    static Color strong_side(const Position& p) {
        return popcount(p.of(Color::white)) == 3 ? Color::white : Color::black;
    }

  private:
    Value lost() const { return v_.giveaway ? Value::win : Value::loss; }

    Value search(const Position& p, const ArbiterState& s) {
        MoveList moves;
        if (p.of(p.side)) MoveGenerator<R>::generate(p, moves);
        if (moves.empty()) return lost();  // the game is over, whatever the counts
        const int row = arbiter_row(v_.base, Material::of(p));
        if (limits_.king_plies && s.c >= limits_.king_plies) return Value::draw;
        if (row == 1 && s.e >= limits_.row_a_plies) return Value::draw;
        if (row >= 2 && row != 3 && s.e >= limits_.row_b_plies) return Value::draw;
        // S002 3.2.1b: the game must be won within the 12 moves, also after the lone king has
        // captured a king (the count runs to the end of the game).
        if (s.started && s.strong_moves >= 12) return Value::draw;
        bool draw = false, win = false;
        for (const Move& m : moves) {
            const Position after = make_move(p, m);
            Value v;
            if (!after.of(after.side)) {
                v = lost();  // the opponent has no piece: it has lost (won in giveaway)
            } else {
                v = value(after, next(p, m, after, row, s));
            }
            if (v == Value::loss) win = true;
            if (v == Value::draw) draw = true;
        }
        return win ? Value::win : draw ? Value::draw : Value::loss;
    }

    ArbiterState next(const Position& p, const Move& m, const Position& after, int row,
                      const ArbiterState& s) const {
        ArbiterState n;
        const bool man_move = (p.kings & bit(m.from)) == 0;
        n.c = m.is_capture() || man_move ? 0 : s.c + 1;
        const int new_row = arbiter_row(v_.base, Material::of(after));
        const bool material_changed = m.is_capture() || m.promotes;
        if (!material_changed || (new_row != 0 && new_row == row)) {
            n.e = s.e + 1;  // the same ending goes on
        } else {
            n.e = 0;  // a new ending (or none) begins
        }
        if (s.started) {  // once started, the forcada runs to the end of the game
            n.started = true;
            n.strong = s.strong;
            n.strong_moves = s.strong_moves + (p.side == s.strong ? 1 : 0);
        }
        if (new_row == 3 && !n.started &&
            (after.kings_of(strong_side(after)) & long_diagonal()) != 0) {
            n.started = true;
            n.strong = strong_side(after);
            n.strong_moves = 0;
        }
        if (new_row == 0 || new_row == 3) n.e = 0;  // no ending count runs (keeps states few)
        return n;
    }

    // The memo key: the position and the counts, packed (32 bytes, no allocation).
    struct Key {
        Bitboard white = 0, black = 0, kings = 0;
        std::uint32_t rest = 0;  // side, c, e, started, strong_moves
        bool operator==(const Key&) const = default;
    };
    struct KeyHash {
        std::size_t operator()(const Key& k) const {
            std::uint64_t h = k.white * 0x9E3779B97F4A7C15ull;
            h = (h ^ (h >> 29)) + k.black * 0xC2B2AE3D27D4EB4Full;
            h = (h ^ (h >> 31)) + k.kings * 0x165667B19E3779F9ull;
            h = (h ^ (h >> 27)) + k.rest * 0x27D4EB2F165667C5ull;
            return static_cast<std::size_t>(h ^ (h >> 32));
        }
    };

    static Key key_of(const Position& p, const ArbiterState& s) {
        Key k{p.pieces[0], p.pieces[1], p.kings, 0};
        k.rest = static_cast<std::uint32_t>(p.side) | static_cast<std::uint32_t>(s.c) << 1 |
                 static_cast<std::uint32_t>(s.e) << 9 |
                 static_cast<std::uint32_t>(s.started) << 17 |
                 static_cast<std::uint32_t>(s.strong_moves) << 18 |
                 static_cast<std::uint32_t>(s.strong) << 23;
        return k;
    }

    Variant v_;
    ArbiterLimits limits_;
    std::unordered_map<Key, Value, KeyHash> memo_;
};

}  // namespace damas::test
