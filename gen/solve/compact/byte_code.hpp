// The byte a position of the group being solved holds (gen/solve/compact/compact_solver.hpp).
//
// Owns: what each byte value means. 1..100: an open position and its quiet moves in the slice
// not yet known to lose (pending). 101: an open position with an exit (a capture, a crowning or
// a man move out of the slice) that draws, so it cannot lose. 102: a draw known from its exits.
// 103: a win or loss at a distance a byte does not hold, kept in the overflow map
// (gen/solve/compact/overflow.hpp). 104 + d: a win in d plies; 180 + d: a loss in d plies, for d
// below ByteDistances::count() (at most 76: 180 + 75 is the last byte). A win or loss names the
// level it resolves at, which is not final before that level: a quiet move may better a win
// found by an exit, and a loss scheduled by the longest exit loss may turn into a win.
#pragma once

#include <algorithm>
#include <cstdint>

#include "table/outcome.hpp"

namespace damas::compact {

constexpr std::uint8_t max_pending = 100, draw_exit = 101, drawn = 102, overflowed = 103,
                       win_code = 104, loss_code = 180;
constexpr int byte_distances = 76;  // the most distances a byte holds: 0..75 plies

inline bool is_open(std::uint8_t b) {
    return b >= 1 && b <= draw_exit;
}
inline bool is_pending(std::uint8_t b) {
    return b >= 1 && b <= max_pending;
}
// Not for an outcome beyond ByteDistances.
inline std::uint8_t code_of(Outcome o) {
    if (o.value == Value::draw) return drawn;
    return static_cast<std::uint8_t>((o.value == Value::win ? win_code : loss_code) + o.plies);
}
// The outcome a byte names (an open position reads as a draw: what it is if never resolved);
// not for `overflowed`.
inline Outcome outcome_of(std::uint8_t b) {
    if (b >= loss_code) return {Value::loss, static_cast<std::uint16_t>(b - loss_code)};
    if (b >= win_code) return {Value::win, static_cast<std::uint16_t>(b - win_code)};
    return {Value::draw, 0};
}

// Whether a win in `plies` betters a position's `current` outcome: an open position, or a win or
// loss not final yet (scheduled beyond `plies`, or a loss at `plies` itself).
inline bool bettered_by_win(Outcome current, bool open, int plies) {
    if (open) return true;
    if (current.value == Value::draw) return false;
    return current.plies > plies || (current.value == Value::loss && current.plies == plies);
}

// The distances a byte holds in a run: byte_distances, fewer in tests
// (GenerationTuning::compact_byte_distances) so that the overflow map is exercised.
class ByteDistances {
  public:
    explicit ByteDistances(int asked) : count_(std::clamp(asked, 1, byte_distances)) {}
    int count() const { return count_; }
    // Whether a byte holds the outcome (else the overflow map does).
    bool fits(Outcome o) const { return o.value == Value::draw || o.plies < count_; }

  private:
    int count_;
};

}  // namespace damas::compact
