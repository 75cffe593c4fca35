// The state of one position while its slice is solved (gen/solve/solver.hpp), and the rules that
// move it on: the bits its exits (gen/solve/exits.hpp) set, when a position resolves, what a
// resolved position tells a predecessor, and the value it leaves.
//
// Owns: the 4-byte state word. Layout: byte 0 the status bits (below), byte 1 the number of
// quiet moves in the slice not known yet to lose (pending), bytes 2-3 a distance: with win_bit
// the shortest known win, else the longest known loss (which no longer matters once a win is
// known). Why 4 bytes: an update touches one cache line and twice as many positions fit in the
// caches. Both ways of solving a slice (gen/solve/whole_slice_solver.hpp,
// gen/solve/component_solver.hpp) use these rules, so they give the same values.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <string>

#include "gen/solve/exits.hpp"
#include "gen/store/solved_store.hpp"
#include "rules/error.hpp"

namespace damas::solving {

// status bits
constexpr std::uint8_t resolved_bit = 1;
constexpr std::uint8_t draw_exit_bit = 2;
constexpr std::uint8_t capture_bit = 4;
constexpr int value_shift = 3;        // 2 bits: the value once resolved
constexpr std::uint8_t win_bit = 32;  // a win is known: the distance is the shortest one

using State = std::atomic<std::uint32_t>;

struct StateWord {
    std::uint8_t status = 0;
    std::uint8_t pending = 0;
    std::uint16_t distance = 0;

    static StateWord of(std::uint32_t w) {
        return {static_cast<std::uint8_t>(w), static_cast<std::uint8_t>(w >> 8),
                static_cast<std::uint16_t>(w >> 16)};
    }
    std::uint32_t word() const {
        return status | (std::uint32_t{pending} << 8) | (std::uint32_t{distance} << 16);
    }
};

inline void check_distance(int d) {
    if (d > max_plies) throw Error("distance beyond " + std::to_string(max_plies) + " plies");
}

template <class T>
void store_max(std::atomic<T>& a, T v) {
    T cur = a.load(std::memory_order_relaxed);
    while (v > cur && !a.compare_exchange_weak(cur, v, std::memory_order_relaxed)) {
    }
}

// The status bits a position's exits set: it has an exit that draws, it must capture.
inline std::uint8_t exit_status_bits(const Exits& exits) {
    return static_cast<std::uint8_t>((exits.draw ? draw_exit_bit : 0) |
                                     (exits.capture ? capture_bit : 0));
}

// The value a position resolves to at level d (unknown if it does not): a win if its best win
// is in d, a loss if every move is known to lose and the longest loss is d.
inline Value resolution(StateWord w, int d) {
    if (w.status & resolved_bit) return Value::unknown;
    if (w.status & win_bit) return w.distance == d ? Value::win : Value::unknown;
    if (w.pending == 0 && !(w.status & draw_exit_bit) && w.distance == d) return Value::loss;
    return Value::unknown;
}
inline std::uint8_t resolved_status(Value v) {
    return static_cast<std::uint8_t>(resolved_bit | (static_cast<int>(v) << value_shift));
}

// What a position resolved at d tells a predecessor in state w: the predecessor's new state, and
// the level it may now resolve at (no_level if none). A loss offers a win in d + 1; a win takes
// one from the pending count and may complete a loss (in d + 1, or longer when known since an
// earlier level). A resolved predecessor is left alone, and so is one that must capture (it
// cannot have made the quiet move), or one offered no shorter win, or one with a win known when
// told of a loss. Without branches: which case applies is unpredictable (most predecessors are
// already resolved), and mispredicted branches cost more than the update.
struct Told {
    std::uint32_t word;
    int level;
};
constexpr int no_level = -1;
[[gnu::always_inline]] inline Told told_lost(std::uint32_t w, int d) {
    const auto next = static_cast<std::uint32_t>(d + 1);
    const bool skip =
        ((w & (resolved_bit | capture_bit)) != 0) | (((w & win_bit) != 0) & ((w >> 16) <= next));
    const std::uint32_t offered = (w & 0xFFFF) | win_bit | (next << 16);
    return {skip ? w : offered, skip ? no_level : d + 1};
}
[[gnu::always_inline]] inline Told told_won(std::uint32_t w, int d) {
    const auto next = static_cast<std::uint32_t>(d + 1);
    const bool skip = (w & (resolved_bit | capture_bit | win_bit)) != 0;
    const std::uint32_t pending = ((w >> 8) & 0xFF) - 1;  // unused when skipped
    const std::uint32_t distance = std::max(w >> 16, next);
    const std::uint32_t taken = (w & 0xFF) | ((pending & 0xFF) << 8) | (distance << 16);
    const bool loses = !skip & (pending == 0) & ((w & draw_exit_bit) == 0);
    return {skip ? w : taken, loses ? static_cast<int>(distance) : no_level};
}

// A position's final state as its value (unresolved: a draw) and capture flag.
inline void result_of(const State& state, std::uint16_t& outcome, std::uint8_t& capture) {
    const StateWord w = StateWord::of(state.load(std::memory_order_relaxed));
    Outcome o{Value::draw, 0};
    if (w.status & resolved_bit) {
        o.value = static_cast<Value>((w.status >> value_shift) & 3);
        if (o.value == Value::win || o.value == Value::loss) o.plies = w.distance;
    }
    outcome = pack_outcome(o);
    capture = (w.status & capture_bit) ? 1 : 0;
}

}  // namespace damas::solving
