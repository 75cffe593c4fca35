#include "gen/solve/previous_slice.hpp"

#include <utility>

namespace damas::solving {

const std::uint16_t* PreviousChunks::outcomes(const UnitReader& unit, int slice,
                                              std::uint64_t local, std::uint64_t count) {
    ++clock_;
    if (Entry& e = entries_[last_]; e.holds(slice, local)) return e.at(clock_, local);
    const int kept = static_cast<int>(entries_.size());
    for (int i = 0; i < kept; ++i)
        if (entries_[i].holds(slice, local)) return entries_[last_ = i].at(clock_, local);
    int victim = 0;
    for (int i = 1; i < kept; ++i)
        if (entries_[i].used < entries_[victim].used) victim = i;
    Entry& e = entries_[last_ = victim];
    const std::size_t chunk = unit.chunk_at(local);
    // Written in parts of a men configuration (gen/solve/compact/compact_solver.hpp, by a run with
    // another budget): this solver reads whole ones, so the slice is solved again.
    if (local + count > unit.chunk(chunk).first + unit.chunk(chunk).positions)
        throw DamagedUnit{slice};
    unit.read(chunk, e.values, capture_);
    e.slice = slice;
    e.first = unit.chunk(chunk).first;
    return e.at(clock_, local);
}

void PreviousSlice::hold(SliceLayout layout, SliceValues values) {
    layout_ = std::move(layout);
    values_ = std::move(values);
    unit_.reset();
}

void PreviousSlice::read(SliceLayout layout, std::unique_ptr<UnitReader> unit) {
    layout_ = std::move(layout);
    values_ = {};
    unit_ = std::move(unit);
}

}  // namespace damas::solving
