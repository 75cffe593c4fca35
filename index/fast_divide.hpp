// Division by a divisor fixed in advance, without a divide instruction.
//
// Owns: the quotient n / d for any 64-bit n, as the top bits of n * M with M = ceil(2^128 / d)
// (Lemire, Kaser and Kurz, "Faster remainder by direct computation", 2019: a 128-bit M is
// exact for every 64-bit n). Two multiplications instead of a 64-bit div (25-90 cycles).
#pragma once

#include <cstdint>

namespace damas {

__extension__ typedef unsigned __int128 uint128;

class FastDivisor {
  public:
    FastDivisor() = default;
    explicit FastDivisor(std::uint64_t d) : divisor_(d), magic_(d > 1 ? ~uint128{0} / d + 1 : 0) {}

    std::uint64_t divisor() const { return divisor_; }

    std::uint64_t quotient(std::uint64_t n) const {
        if (divisor_ == 1) return n;
        const auto low = static_cast<std::uint64_t>(magic_);
        const auto high = static_cast<std::uint64_t>(magic_ >> 64);
        const uint128 carry = (uint128{low} * n) >> 64;
        return static_cast<std::uint64_t>((uint128{high} * n + carry) >> 64);
    }

    // n / d and n % d.
    void divide(std::uint64_t n, std::uint64_t& q, std::uint64_t& r) const {
        q = quotient(n);
        r = n - q * divisor_;
    }

  private:
    std::uint64_t divisor_ = 1;
    uint128 magic_ = 0;
};

}  // namespace damas
