// Colex ranks of k-subsets of 0..n-1, and stepping through them in rank order.
//
// Owns: the rank <-> subset maps the class index is built from. The subset {c1 < ... < ck} has
// rank C(c1, 1) + ... + C(ck, k); all subsets of 0..n-1 get ranks 0..C(n, k)-1, and the subsets
// of 0..m-1 come first for every m (which is what lets a rank ignore n).
#pragma once

#include <cstdint>

#include "index/binomial.hpp"

namespace damas {

// C(n, k) for 0 <= n, k <= 64, no checks: the hot loops' form of binomial().
constexpr std::uint64_t choose(int n, int k) {
    return binomial_table.c[n][k];
}

// The largest c in [lo, hi] with C(c, k) <= rank, given C(lo, k) <= rank. Branch-free halving.
constexpr int largest_at_most(std::uint64_t rank, int k, int lo, int hi) {
    int length = hi - lo + 1;
    while (length > 1) {
        const int half = length / 2;
        lo = choose(lo + half, k) <= rank ? lo + half : lo;
        length -= half;
    }
    return lo;
}

// Calls f(c) for each element of the k-subset of 0..n-1 with colex rank `rank`, largest first.
template <class F>
constexpr void unrank_colex(std::uint64_t rank, int k, int n, F&& f) {
    int hi = n - 1;
    for (int j = k; j >= 2; --j) {
        const int c = largest_at_most(rank, j, j - 1, hi);
        rank -= choose(c, j);
        f(c);
        hi = c - 1;
    }
    if (k >= 1) f(static_cast<int>(rank));
}

// Steps c[0] < ... < c[k-1] (a subset of 0..n-1) to the subset of the next colex rank. Returns
// false, leaving c unchanged, after the last one.
constexpr bool next_colex(int* c, int k, int n) {
    for (int j = 0; j < k; ++j) {
        const int limit = j + 1 < k ? c[j + 1] : n;
        if (c[j] + 1 < limit) {
            ++c[j];
            for (int t = 0; t < j; ++t) c[t] = t;
            return true;
        }
    }
    return false;
}

}  // namespace damas
