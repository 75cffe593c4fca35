// Outcome: a game-theoretic value with its distance, and the rules for combining them.
//
// Owns: the negamax step shared by the generator (over arrays in memory) and the probe (over
// table files): the value of a position from the values after each of its moves, and the
// resolution of positions where the side to move must capture, which the files do not store.
//
// Values are from the side to move's point of view; `plies` is the DTW: plies until the game ends
// with best play, the winner taking the shortest way and the loser the longest (0 = the game is
// over: no legal move, or a rule ends it).
#pragma once

#include <cstdint>

#include "rules/movegen.hpp"
#include "table/format.hpp"

namespace damas {

enum class Value : std::uint8_t {
    loss = wdl_loss,
    draw = wdl_draw,
    win = wdl_win,
    unknown = wdl_unknown
};

struct Outcome {
    Value value = Value::unknown;
    std::uint16_t plies = 0;  // meaningful for wins and losses
    constexpr bool operator==(const Outcome&) const = default;
};

// The best outcome for the side to move, accumulated move by move.
class BestOutcome {
  public:
    // `after`: the outcome of the position after one move, for the side then to move.
    constexpr void add(Outcome after) {
        switch (after.value) {
            case Value::loss:  // our win
                if (!win_ || after.plies + 1 < win_plies_) win_plies_ = after.plies + 1;
                win_ = true;
                break;
            case Value::draw:
                draw_ = true;
                break;
            case Value::win:
                if (after.plies + 1 > loss_plies_) loss_plies_ = after.plies + 1;
                any_loss_ = true;
                break;
            case Value::unknown:
                unknown_ = true;
                break;
        }
    }
    constexpr Outcome result() const {
        if (win_) return {Value::win, static_cast<std::uint16_t>(win_plies_)};
        if (unknown_) return {Value::unknown, 0};
        if (draw_) return {Value::draw, 0};
        if (any_loss_) return {Value::loss, static_cast<std::uint16_t>(loss_plies_)};
        return {Value::unknown, 0};  // no move was added
    }

  private:
    int win_plies_ = 0;
    int loss_plies_ = 0;
    bool win_ = false, draw_ = false, any_loss_ = false, unknown_ = false;
};

// The outcome at a position with no legal move: the side to move loses (S000 7.2), or wins in
// giveaway (S004, "perde-ganha").
constexpr Outcome no_move_outcome(bool giveaway) {
    return {giveaway ? Value::win : Value::loss, 0};
}

// Material that ends the game on the spot: turkish "a king against a lone man" (S004), unless
// giveaway. Returns Value::unknown when the game goes on.
template <class R>
constexpr Outcome material_outcome(const Position& p, bool giveaway) {
    if constexpr (R::king_beats_lone_man) {
        if (giveaway) return {};
        const auto lone_man = [&](Color c) { return popcount(p.of(c)) == 1 && p.men(c) != 0; };
        if (lone_man(p.side) && p.kings_of(~p.side)) return {Value::loss, 0};
        if (lone_man(~p.side) && p.kings_of(p.side)) return {Value::win, 0};
    }
    (void)p;
    (void)giveaway;
    return {};
}

// Whether the files hold no value for p (format.hpp): the side to move must capture and no rule
// ends the game first. A position that a rule ends holds its value even where a capture exists
// (turkish: a lone man next to the king can capture it, yet loses on the spot).
template <class R>
bool capture_not_stored(const Position& p, bool giveaway) {
    return material_outcome<R>(p, giveaway).value == Value::unknown &&
           MoveGenerator<R>::has_capture(p);
}

// The outcome of p, resolving captures by search. `stored(q)` gives the stored outcome of a
// position q without capture and with at least one piece per side. The files hold no value for
// positions where the side to move must capture (format.hpp), so those are always searched:
// every capture leads to fewer pieces, so the recursion ends.
template <class R, class Stored>
Outcome resolve_outcome(const Position& p, bool giveaway, Stored&& stored) {
    if (!p.of(p.side)) return no_move_outcome(giveaway);
    if (const Outcome m = material_outcome<R>(p, giveaway); m.value != Value::unknown) return m;
    if (!MoveGenerator<R>::has_capture(p)) return stored(p);
    MoveList captures;
    MoveGenerator<R>::generate_captures(p, captures);
    BestOutcome best;
    for (const Move& m : captures) best.add(resolve_outcome<R>(make_move(p, m), giveaway, stored));
    return best.result();
}

// As resolve_outcome, for a `stored` that can fail (the probe: a missing class, a damaged file,
// a block not in the cache). `stored(q, out)` sets out and returns true, or returns false after
// recording why; the search then stops at once and returns false. The quiet test is the cheap
// whole-board has_capture, so a quiet position costs no capture generation.
template <class R, class Stored>
bool try_resolve_outcome(const Position& p, bool giveaway, Stored&& stored, Outcome& out) {
    if (!p.of(p.side)) {
        out = no_move_outcome(giveaway);
        return true;
    }
    if (const Outcome m = material_outcome<R>(p, giveaway); m.value != Value::unknown) {
        out = m;
        return true;
    }
    if (!MoveGenerator<R>::has_capture(p)) return stored(p, out);
    MoveList captures;
    MoveGenerator<R>::generate_captures(p, captures);
    if (captures.empty()) return stored(p, out);
    BestOutcome best;
    for (const Move& m : captures) {
        Outcome after;
        if (!try_resolve_outcome<R>(make_move(p, m), giveaway, stored, after)) return false;
        best.add(after);
    }
    out = best.result();
    return true;
}

}  // namespace damas
