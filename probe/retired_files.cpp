#include "probe/retired_files.hpp"

#include <algorithm>
#include <thread>

namespace damas {
namespace {

unsigned reader_lane(unsigned lanes) {
    static std::atomic<unsigned> next{0};
    thread_local const unsigned lane = next.fetch_add(1, std::memory_order_relaxed);
    return lane % lanes;
}

}  // namespace

RetiredFiles::Reader::Reader(RetiredFiles& r) noexcept {
    if (r.pending_.load(std::memory_order_relaxed)) r.try_reclaim();
    const std::uint64_t e = r.epoch_.load(std::memory_order_seq_cst);
    count_ = &r.lanes_[reader_lane(lanes)].count[e & 1];
    // seq_cst: the add comes before this probe's loads of the table pointers, so a reclaimer
    // that still sees the count at zero has unpublished the file before those loads.
    count_->fetch_add(1, std::memory_order_seq_cst);
}

RetiredFiles::~RetiredFiles() = default;

void RetiredFiles::retire(std::unique_ptr<const TableFile> file) {
    std::lock_guard lock(mutex_);
    files_.emplace_back(epoch_.load(std::memory_order_seq_cst), std::move(file));
    pending_.store(true, std::memory_order_relaxed);
}

bool RetiredFiles::advance_locked() noexcept {
    const std::uint64_t e = epoch_.load(std::memory_order_seq_cst);
    // The probes of the other parity started in epoch e - 1: they must all have ended.
    for (const Lane& lane : lanes_)
        if (lane.count[(e + 1) & 1].load(std::memory_order_seq_cst) != 0) return false;
    epoch_.store(e + 1, std::memory_order_seq_cst);
    return true;
}

void RetiredFiles::free_locked() noexcept {
    const std::uint64_t e = epoch_.load(std::memory_order_seq_cst);
    std::erase_if(files_, [e](const auto& f) { return f.first + 2 <= e; });
    pending_.store(!files_.empty(), std::memory_order_relaxed);
}

void RetiredFiles::try_reclaim() noexcept {
    std::unique_lock lock(mutex_, std::try_to_lock);
    if (!lock.owns_lock() || files_.empty()) return;
    advance_locked();
    free_locked();
}

void RetiredFiles::reclaim_all() {
    for (;;) {
        {
            std::lock_guard lock(mutex_);
            if (files_.empty()) return;
            advance_locked();
            free_locked();
            if (files_.empty()) return;
        }
        std::this_thread::yield();
    }
}

std::size_t RetiredFiles::retired() const {
    std::lock_guard lock(mutex_);
    return files_.size();
}

}  // namespace damas
