// The positions of the group being solved whose last pending move lost, waiting for their loss
// (gen/solve/compact/compact_solver.hpp).
//
// Owns: each thread's list of them. A loss is the longest of d + 1 and the exits' losses, which
// are read from the slice before's unit file; the reads are batched and sorted so that the
// unit's chunks are decoded once for many positions rather than once each (a position's exits
// are near its own rank in the configurations its man moves reach). A listed position's byte
// stays 1 meanwhile: every quiet move of it has been resolved, so nothing else changes it.
#pragma once

#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <cstdint>
#include <span>
#include <vector>

namespace damas::compact {

// The losses listed at once: at most a 256th of a group's positions (a 32nd of a byte each).
constexpr std::uint64_t deferred_share = 256;

class DeferredLosses {
  public:
    // batch: the fewest a thread lists before it settles them
    // (GenerationTuning::compact_deferred_batch).
    explicit DeferredLosses(std::size_t batch) : batch_(std::max<std::size_t>(1, batch)) {}

    // A group of `positions` is solved next: a thread lists up to a deferred_share-th of them,
    // its share, and at least the batch (still hundreds of positions a unit chunk when sorted).
    void start_group(std::uint64_t positions) {
        limit_ = std::max<std::size_t>(
            batch_, positions / deferred_share /
                        static_cast<std::uint64_t>(tbb::this_task_arena::max_concurrency()));
    }

    // Lists position `local`; a full list is sorted and handed to settle(span of positions).
    template <class Settle>
    void add(std::uint64_t local, const Settle& settle) {
        std::vector<std::uint64_t>& list = lists_.local();
        list.push_back(local);
        if (list.size() < limit_) return;
        std::sort(list.begin(), list.end());
        settle(std::span<const std::uint64_t>(list));
        list.clear();
    }

    // At the end of a level: every thread's list merged, sorted and handed to settle in parts,
    // in parallel.
    template <class Settle>
    void settle_all(const Settle& settle) {
        std::vector<std::uint64_t> all;
        for (std::vector<std::uint64_t>& list : lists_) {
            all.insert(all.end(), list.begin(), list.end());
            std::vector<std::uint64_t>().swap(list);
        }
        if (all.empty()) return;
        std::sort(all.begin(), all.end());
        constexpr std::size_t part = 4096;
        tbb::parallel_for(std::size_t{0}, (all.size() + part - 1) / part, [&](std::size_t j) {
            settle(std::span<const std::uint64_t>(all).subspan(
                j * part, std::min(part, all.size() - j * part)));
        });
    }

  private:
    const std::size_t batch_;
    std::size_t limit_ = 4096;
    tbb::enumerable_thread_specific<std::vector<std::uint64_t>> lists_;
};

}  // namespace damas::compact
