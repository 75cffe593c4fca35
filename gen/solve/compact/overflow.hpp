// The values of the group being solved that a byte does not hold
// (gen/solve/compact/byte_code.hpp): wins and losses beyond ByteDistances, which are rare.
//
// Owns: a map from a position's local number to its packed outcome, and the positions it holds
// by the level they resolve at. Every access while the group is solved takes one mutex, and a
// byte that says `overflowed` changes only here.
#pragma once

#include <atomic>
#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <unordered_map>
#include <vector>

#include "gen/solve/compact/byte_code.hpp"
#include "gen/store/solved_store.hpp"

namespace damas::compact {

class Overflow {
  public:
    explicit Overflow(ByteDistances distances) : distances_(distances) {}

    // Position `local`'s first value, beyond a byte: held here, its byte set to `overflowed`.
    void hold(std::uint64_t local, Outcome o, std::atomic<std::uint8_t>& byte);
    // A win proposed to position `local`, or the loss its last pending move leads to, where
    // either that or its current value is beyond a byte. Returns whether its value changed.
    bool settle(std::uint64_t local, Outcome proposed, std::atomic<std::uint8_t>& byte);

    // The positions listed at level d, taken off the list.
    std::vector<std::uint64_t> take_level(int d);
    // The outcome held for position `local`, if its byte still says `overflowed`.
    std::optional<Outcome> held(std::uint64_t local, const std::atomic<std::uint8_t>& byte) const;
    // The packed outcome of position `local`, once the group is solved.
    std::uint16_t packed(std::uint64_t local) const { return outcomes_.at(local); }

    void clear();

  private:
    // Holds `proposed` for `local` and lists it at its level.
    void put(std::uint64_t local, Outcome proposed);

    const ByteDistances distances_;
    mutable std::mutex mutex_;
    std::unordered_map<std::uint64_t, std::uint16_t> outcomes_;  // packed
    std::map<int, std::vector<std::uint64_t>> levels_;
};

}  // namespace damas::compact
