// The progress of solving a pair's slices (gen/solve/solver.hpp), as the caller's ProgressFn sees
// it: the positions of the slices solved, plus, while a slice is solved whole, its bucket entries
// so far (capped at the slice: an entry may be stale, and draws are never in a bucket).
#pragma once

#include <algorithm>
#include <cstdint>

#include "gen/solve/solver.hpp"

namespace damas::solving {

class SolveProgress {
  public:
    SolveProgress(const ProgressFn& progress, std::uint64_t total)
        : progress_(progress), total_(total) {}

    // The slices before the first solved are done (`positions`).
    void start(std::uint64_t positions) {
        slices_done_ = done_ = positions;
        tell();
    }
    void begin_slice(std::uint64_t positions) { slice_size_ = positions; }
    // Another n positions of the slice being solved are resolved.
    void add(std::uint64_t n) {
        done_ = std::min(done_ + n, slices_done_ + slice_size_);
        tell();
    }
    void slice_finished() {
        slices_done_ += slice_size_;
        done_ = slices_done_;
        tell();
    }

  private:
    void tell() const {
        if (progress_) progress_(std::min(done_, total_), total_);
    }

    const ProgressFn& progress_;
    std::uint64_t total_ = 0, done_ = 0, slices_done_ = 0, slice_size_ = 0;
};

}  // namespace damas::solving
