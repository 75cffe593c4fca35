// The slice solved before the one being solved (gen/solve/solver.hpp): its man moves lead there, so
// a position's man move exits read that slice's outcomes.
//
// Owns: that slice's men configurations (a SliceLayout) and its outcomes, either held (the
// values the solver handed out last) or read from its unit file (gen/units/unit_file.hpp) a chunk
// at a time into each thread's PreviousChunks, so that the bounded generator never holds the slice.
// A men configuration's kings_per_men() outcomes are consecutive in both: man_moves() keeps one
// pointer per move and reads it for every placement of the kings.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <memory>
#include <vector>

#include <tbb/enumerable_thread_specific.h>

#include "gen/solve/pair_tables.hpp"
#include "gen/units/pair_layout.hpp"
#include "gen/units/unit_file.hpp"

namespace damas::solving {

// A thread's decoded chunks of the unit file of the slice before the one being solved, the
// least recently used replaced: a men configuration's outcomes stay where man_moves() points
// until `capacity` other chunks were asked for, and the man moves of one men configuration (at
// most 24) ask for fewer.
class PreviousChunks {
  public:
    static constexpr int capacity = 32;
    // Fewer chunks kept (at least 1): the byte-a-position solver reads a position's exits one
    // at a time, at most a few configurations at once, from chunks of up to 4 Mi positions.
    explicit PreviousChunks(int kept = capacity)
        : entries_(static_cast<std::size_t>(std::max(1, kept))) {}

    // The `count` outcomes of a men configuration from slice position `local` on.
    const std::uint16_t* outcomes(const UnitReader& unit, int slice, std::uint64_t local,
                                  std::uint64_t count);

  private:
    struct Entry {
        int slice = -1;
        std::uint64_t first = 0, used = 0;
        std::vector<std::uint16_t> values;
        bool holds(int s, std::uint64_t local) const {
            return slice == s && local >= first && local - first < values.size();
        }
        const std::uint16_t* at(std::uint64_t clock, std::uint64_t local) {
            used = clock;
            return values.data() + (local - first);
        }
    };
    std::vector<Entry> entries_;
    std::vector<std::uint8_t> capture_;
    std::uint64_t clock_ = 0;
    int last_ = 0;
};

class PreviousSlice {
  public:
    int slice() const { return layout_.slice; }  // -1: none
    // The slice before is `values`, held (none if layout.slice is -1).
    void hold(SliceLayout layout, SliceValues values);
    // The slice before is read from its unit file.
    void read(SliceLayout layout, std::unique_ptr<UnitReader> unit);

    // The outcomes of men configuration `men` of class c, kings_per_men() of them: held, or from
    // the unit file (valid until this thread asks for many other chunks).
    const std::uint16_t* outcomes(int c, std::uint64_t men) const {
        const std::uint64_t local = layout_.configuration_start(c, men);
        if (!unit_) return values_.outcomes.data() + local;
        return chunks_.local().outcomes(*unit_, layout_.slice, local, layout_.kings_per_men);
    }

  private:
    SliceLayout layout_;
    SliceValues values_;
    std::unique_ptr<UnitReader> unit_;
    mutable tbb::enumerable_thread_specific<PreviousChunks> chunks_;
};

}  // namespace damas::solving
