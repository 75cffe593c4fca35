// Colex ranks of k-subsets of 0..n-1, and stepping through them in rank order.
//
// Owns: the rank <-> subset maps the class index is built from. The subset {c1 < ... < ck} has
// rank C(c1, 1) + ... + C(ck, k); all subsets of 0..n-1 get ranks 0..C(n, k)-1, and the subsets
// of 0..m-1 come first for every m (which is what lets a rank ignore n).
//
// Unranking looks for the largest c with C(c, k) <= rank, once per element. A table gives, for
// the rank's bit length and its next three bits, a c that is at most a few steps too small (the
// bucket holds ranks within a factor 2^(1/8), so c within a factor 2^(1/(8k))); a short scan up
// finishes.
#pragma once

#include <array>
#include <bit>
#include <cstdint>

#include "index/binomial.hpp"

namespace damas {

// C(n, k) for 0 <= n, k <= 64, no checks: the hot loops' form of binomial().
constexpr std::uint64_t choose(int n, int k) {
    return binomial_table.by_k[k][n];
}

namespace colex_detail {

inline constexpr int max_table_k = 16;
inline constexpr int sub_bits = 3;
inline constexpr int buckets = 65 << sub_bits;

constexpr int bucket_of(std::uint64_t rank) {
    const int length = 64 - std::countl_zero(rank);  // 0 for rank 0
    const std::uint64_t top =
        length > sub_bits ? rank >> (length - sub_bits - 1) : rank << (sub_bits + 1 - length);
    return (length << sub_bits) | static_cast<int>(top & ((1u << sub_bits) - 1));
}

// The smallest rank of each bucket (0 for buckets no rank falls in).
constexpr std::uint64_t bucket_min(int bucket) {
    const int length = bucket >> sub_bits;
    const std::uint64_t top = (std::uint64_t{1} << sub_bits) | (bucket & ((1 << sub_bits) - 1));
    if (length == 0) return 0;
    if (length > sub_bits) return top << (length - sub_bits - 1);
    // Short ranks: the smallest one whose leading bits give this bucket.
    for (std::uint64_t r = std::uint64_t{1} << (length - 1); r < (std::uint64_t{1} << length); ++r)
        if (bucket_of(r) == bucket) return r;
    return 0;
}

struct StartTable {
    std::array<std::array<std::int8_t, buckets>, max_table_k + 1> start{};
    constexpr StartTable() {
        for (int k = 1; k <= max_table_k; ++k)
            for (int b = 0; b < buckets; ++b) {
                const std::uint64_t r = bucket_min(b);
                int c = k - 1;
                while (c < 64 && choose(c + 1, k) <= r) ++c;
                start[k][b] = static_cast<std::int8_t>(c);
            }
    }
};

// Computed at compile time once, in combination.cpp: as an inline constexpr variable every
// source that includes this header evaluated it again (seconds of compile time each).
extern const StartTable start_table;

}  // namespace colex_detail

// The largest c <= hi with C(c, k) <= rank (k >= 1; C(hi + 1, k) > rank or hi == 64).
inline int largest_at_most(std::uint64_t rank, int k, int hi) {
    using namespace colex_detail;
    if (k <= max_table_k) {
        int c = start_table.start[k][bucket_of(rank)];
        while (c < hi && choose(c + 1, k) <= rank) ++c;
        return c;
    }
    int lo = k - 1, length = hi - lo + 1;  // branch-free halving
    while (length > 1) {
        const int half = length / 2;
        lo = choose(lo + half, k) <= rank ? lo + half : lo;
        length -= half;
    }
    return lo;
}

// Calls f(c) for each element of the k-subset of 0..n-1 with colex rank `rank`, largest first.
template <class F>
void unrank_colex(std::uint64_t rank, int k, int n, F&& f) {
    int hi = n - 1;
    for (int j = k; j >= 2; --j) {
        const int c = largest_at_most(rank, j, hi);
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
