// The progress of the byte-a-position solver (gen/solve/compact/compact_solver.hpp), as the
// caller's ProgressFn sees it.
//
// Owns: the positions of the groups solved (with those they stand for), plus the positions of
// the group being solved resolved so far, capped at the group: half of them once initialised,
// then those resolved at each level.
#pragma once

#include <algorithm>
#include <cstdint>

#include "gen/solve/solver.hpp"

namespace damas::compact {

class GroupProgress {
  public:
    GroupProgress(const ProgressFn& progress, std::uint64_t total)
        : progress_(progress), total_(total) {}

    // Positions solved before this run (the slices before the first): counted, not told.
    void skip(std::uint64_t positions) { done_ += positions; }
    void begin_group(std::uint64_t positions) { group_ = positions; }
    // Another n positions of the group being solved are resolved.
    void add(std::uint64_t n) {
        shown_ = std::min(shown_ + n, done_ + group_);
        if (progress_) progress_(std::min(std::max(shown_, done_), total_), total_);
    }
    // The group is solved: `positions` of the slice have their values.
    void group_finished(std::uint64_t positions) {
        done_ += positions;
        add(0);
    }

  private:
    const ProgressFn& progress_;
    const std::uint64_t total_;
    std::uint64_t done_ = 0, shown_ = 0, group_ = 0;
};

}  // namespace damas::compact
