// Binomial coefficients C(n, k) for n, k <= 64, as one constexpr table.
//
// Owns: the numbers every combination rank is made of. Ranks are colex: the k-subset
// {s1 < s2 < ... < sk} of 0..n-1 has rank C(s1, 1) + C(s2, 2) + ... + C(sk, k).
#pragma once

#include <array>
#include <cstdint>

namespace damas {

inline constexpr int binomial_max_n = 64;

struct BinomialTable {
    std::array<std::array<std::uint64_t, binomial_max_n + 1>, binomial_max_n + 1> c{};
    bool overflowed = false;

    constexpr BinomialTable() {
        for (int n = 0; n <= binomial_max_n; ++n) {
            c[n][0] = 1;
            for (int k = 1; k <= n; ++k) {
                c[n][k] = c[n - 1][k - 1] + c[n - 1][k];
                if (c[n][k] < c[n - 1][k - 1]) overflowed = true;
            }
        }
    }
};

inline constexpr BinomialTable binomial_table{};
static_assert(!binomial_table.overflowed, "C(64, k) must fit in 64 bits");
static_assert(binomial_table.c[64][32] == 1832624140942590534ull);
static_assert(binomial_table.c[50][4] == 230300);

// C(n, k), 0 when k < 0 or k > n (n, k <= 64).
constexpr std::uint64_t binomial(int n, int k) {
    if (k < 0 || n < 0 || k > n) return 0;
    return binomial_table.c[n][k];
}

}  // namespace damas
