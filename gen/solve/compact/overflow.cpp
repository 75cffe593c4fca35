#include "gen/solve/compact/overflow.hpp"

#include <utility>

namespace damas::compact {

void Overflow::hold(std::uint64_t local, Outcome o, std::atomic<std::uint8_t>& byte) {
    const std::lock_guard lock(mutex_);
    put(local, o);
    byte.store(overflowed, std::memory_order_relaxed);
}

bool Overflow::settle(std::uint64_t local, Outcome proposed, std::atomic<std::uint8_t>& byte) {
    const std::lock_guard lock(mutex_);
    std::uint8_t b = byte.load(std::memory_order_relaxed);
    for (;;) {
        const Outcome current =
            b == overflowed ? unpack_outcome(outcomes_.at(local)) : outcome_of(b);
        const bool takes = proposed.value == Value::win
                               ? bettered_by_win(current, is_open(b), proposed.plies)
                               : b == 1;  // a loss: only the last pending move's
        if (!takes) return false;
        const bool fits = distances_.fits(proposed);
        if (b == overflowed) {
            if (!fits) {
                put(local, proposed);
                return true;
            }
            outcomes_.erase(local);
            byte.store(code_of(proposed), std::memory_order_relaxed);
            return true;
        }
        if (fits) {
            if (byte.compare_exchange_strong(b, code_of(proposed), std::memory_order_relaxed))
                return true;
            continue;
        }
        outcomes_[local] = pack_outcome(proposed);
        if (byte.compare_exchange_strong(b, overflowed, std::memory_order_relaxed)) {
            levels_[proposed.plies].push_back(local);
            return true;
        }
        outcomes_.erase(local);
    }
}

std::vector<std::uint64_t> Overflow::take_level(int d) {
    const std::lock_guard lock(mutex_);
    std::vector<std::uint64_t> listed;
    if (const auto it = levels_.find(d); it != levels_.end()) {
        listed = std::move(it->second);
        levels_.erase(it);
    }
    return listed;
}

std::optional<Outcome> Overflow::held(std::uint64_t local,
                                      const std::atomic<std::uint8_t>& byte) const {
    const std::lock_guard lock(mutex_);
    if (byte.load(std::memory_order_relaxed) != overflowed) return std::nullopt;
    return unpack_outcome(outcomes_.at(local));
}

void Overflow::clear() {
    outcomes_ = {};
    levels_.clear();
}

void Overflow::put(std::uint64_t local, Outcome proposed) {
    outcomes_[local] = pack_outcome(proposed);
    levels_[proposed.plies].push_back(local);
}

}  // namespace damas::compact
