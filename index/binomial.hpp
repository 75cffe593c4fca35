// Binomial coefficients C(n, k) for n, k <= 64, as one constexpr table.
//
// Owns: the numbers every combination rank is made of. Ranks are colex: the k-subset
// {s1 < s2 < ... < sk} has rank C(s1, 1) + C(s2, 2) + ... + C(sk, k).
// Layout: by k, then n, so that the C(n, k) one rank needs (k fixed, n varying) share cache lines.
#pragma once

#include <array>
#include <cstdint>

namespace damas {

inline constexpr int binomial_max_n = 64;

struct BinomialTable {
    std::array<std::array<std::uint64_t, binomial_max_n + 1>, binomial_max_n + 1> by_k{};  // [k][n]
    bool overflowed = false;

    constexpr BinomialTable() {
        for (int n = 0; n <= binomial_max_n; ++n) {
            by_k[0][n] = 1;
            for (int k = 1; k <= n; ++k) {
                by_k[k][n] = by_k[k - 1][n - 1] + by_k[k][n - 1];
                if (by_k[k][n] < by_k[k - 1][n - 1]) overflowed = true;
            }
        }
    }
};

inline constexpr BinomialTable binomial_table{};
static_assert(!binomial_table.overflowed, "C(64, k) must fit in 64 bits");
static_assert(binomial_table.by_k[32][64] == 1832624140942590534ull);
static_assert(binomial_table.by_k[4][50] == 230300);

// C(n, k), 0 when k < 0 or k > n (n, k <= 64).
constexpr std::uint64_t binomial(int n, int k) {
    if (k < 0 || n < 0 || k > n) return 0;
    return binomial_table.by_k[k][n];
}

}  // namespace damas
