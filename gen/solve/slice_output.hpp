// Where the values of the slice being solved go (gen/solve/solver.hpp): held whole until the slice
// is solved and then handed to the caller, or streamed to the slice's unit file a men configuration
// at a time (gen/units/unit_file.hpp's UnitStream), so that the bounded generator need not hold
// even the slice being solved.
//
// Owns: the held values (2 bytes of outcome and 1 of capture flag per position, in the slice's
// layout: gen/units/pair_layout.hpp) or the stream. A position's value comes from its final state
// (gen/solve/position_state.hpp): put() for one position, put_configuration() for a men
// configuration's kings_per_men() consecutive states. Tasks write disjoint positions of the held
// values; the stream takes whole configurations from any thread (UnitStream::put).
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "gen/solve/position_state.hpp"
#include "gen/units/pair_layout.hpp"
#include "gen/units/unit_file.hpp"

namespace damas::solving {

// A thread's buffer for one men configuration's values on their way to a stream.
struct ConfigurationValues {
    std::vector<std::uint16_t> outcomes;
    std::vector<std::uint8_t> capture;
};

class SliceOutput {
  public:
    // The values of slice `slice`, of `positions` positions, are held.
    void hold(int slice, std::uint64_t positions);
    // They are written to `stream` instead.
    void stream(std::unique_ptr<UnitStream> stream) { stream_ = std::move(stream); }
    bool streamed() const { return stream_ != nullptr; }

    // Slice position `local`'s final state (held values only).
    void put(std::uint64_t local, const State& state) {
        result_of(state, values_.outcomes[local], values_.capture[local]);
    }
    // The final states of a men configuration's positions, from slice position `local` on.
    void put_configuration(std::uint64_t local, std::span<const State> states,
                           ConfigurationValues& buffer);

    // The slice is solved: the stream closed, or the held values handed out.
    void close_stream();
    SliceValues take_values();

  private:
    SliceValues values_;
    std::unique_ptr<UnitStream> stream_;
};

}  // namespace damas::solving
