// Kings by rank, for the solver's hot loops.
//
// Owns: a men configuration's free squares numbered from the lowest (FreeSquares), and the
// colex ranks of small sorted lists of such numbers. The solver visits thousands of positions of
// one men configuration in a row; ranking its free squares once per configuration lets it unindex
// kings and index predecessors with a few table reads per king, where ClassIndex's
// kings_index/unindex_kings recount the men on every call (index/class_index.hpp has the layout:
// White kings ranked among the squares no man takes, Black kings among those minus White's).
//
// The colour flip turns the board half a turn, which reverses the order of the squares: a free
// square of rank r has rank count - 1 - r among the free squares of the flipped men.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <vector>

#include "index/class_limits.hpp"
#include "index/combination.hpp"
#include "rules/bitboard.hpp"

namespace damas {

struct FreeSquares {
    // Only the entries of the free squares are set and read: no zeroing, which took a tenth of
    // the time of the classes without kings (a men configuration per position).
    int count = 0;
    std::array<Bitboard, 64> square;   // by rank, lowest first
    std::array<std::int8_t, 64> rank;  // by bit index (free squares only)

    void set(Bitboard board, Bitboard men) {
        count = 0;
        for_each_bit(board & ~men, [&](int b) {
            square[count] = bit(b);
            rank[b] = static_cast<std::int8_t>(count++);
        });
    }
};

// Sorts a short list in place (at most a few kings per side). Compares in registers: a swap
// of neighbours through memory made the compiler load two just-stored ints as one 8-byte word,
// which the store buffer cannot forward (an eighth of the solver's resolving time).
inline void sort_short(int* a, int n) {
    const auto order = [](int& x, int& y) {
        const int lo = std::min(x, y), hi = std::max(x, y);
        x = lo, y = hi;
    };
    if (n == 2) {
        order(a[0], a[1]);
    } else if (n == 3) {
        int x = a[0], y = a[1], z = a[2];
        order(x, y), order(y, z), order(x, y);
        a[0] = x, a[1] = y, a[2] = z;
    } else if (n > 3) {
        for (int i = 1; i < n; ++i) {
            const int v = a[i];
            int j = i;
            for (; j > 0 && a[j - 1] > v; --j) a[j] = a[j - 1];
            a[j] = v;
        }
    }
}

// The colex rank of a[0] < a[1] < ... < a[n - 1]: the sum of C(a[i], i + 1).
[[gnu::always_inline]] inline std::uint64_t colex_rank(const int* a, int n) {
    std::uint64_t r = 0;
    for (int i = 0; i < n; ++i) r += choose(a[i], i + 1);
    return r;
}

// The n-subset of colex rank `rank` of [0, domain), ascending, into out.
[[gnu::always_inline]] inline void colex_unrank(std::uint64_t rank, int n, int domain, int* out) {
    if (n == 1) {
        out[0] = static_cast<int>(rank);
        return;
    }
    int j = n;
    unrank_colex(rank, n, domain, [&](int c) { out[--j] = c; });
}

// Every k-subset of [0, n) by colex rank, when there are few (a class's kings of one colour
// among its free squares): a table read instead of colex_unrank's search.
class SubsetTable {
  public:
    static constexpr std::uint64_t largest = std::uint64_t{1} << 16;

    SubsetTable(int k, int n) : n_(n) {
        const std::uint64_t count = choose(n, k);
        if (k < 2 || k > max_side_pieces || count > largest)
            return;  // one king: its rank is the index
        subsets_.resize(count);
        int c[max_side_pieces];
        for (int i = 0; i < k; ++i) c[i] = i;
        for (auto& subset : subsets_) {
            for (int i = 0; i < k; ++i) subset[i] = static_cast<std::int8_t>(c[i]);
            next_colex(c, k, n);
        }
    }
    // The subset of colex rank `rank`, ascending, into out. k is the table's (passed so that a
    // constant at the call site unrolls the copy).
    [[gnu::always_inline]] void unrank(std::uint64_t rank, int k, int* out) const {
        if (subsets_.empty()) return colex_unrank(rank, k, n_, out);
        for (int i = 0; i < k; ++i) out[i] = subsets_[rank][i];
    }

  private:
    int n_;
    std::vector<std::array<std::int8_t, max_side_pieces>> subsets_;
};

// Ranks among a set (ascending) into ranks among the set plus `taken` (ascending): each skips
// the taken numbers at or below it.
inline void skip_ranks(int* a, int n, const int* taken, int t) {
    for (int i = 0; i < n; ++i)
        for (int j = 0; j < t; ++j) a[i] += taken[j] <= a[i] ? 1 : 0;
}

// The kings index (index/class_index.hpp) of a position's colour flip, from the ranks among the
// n free squares of the position's White kings (white[0..wk)) and Black kings (black[0..bk)),
// each ascending: the flip's White kings are these Black ones, ranked in reverse, and its Black
// kings these White ones, ranked among the free squares its White kings leave. radix: the
// flip's class's number of Black king placements.
[[gnu::always_inline]] inline std::uint64_t flipped_kings_index(const int* white, int wk,
                                                                const int* black, int bk, int n,
                                                                std::uint64_t radix) {
    int flipped_white[max_side_pieces], flipped_black[max_side_pieces];
    for (int i = 0; i < bk; ++i) flipped_white[i] = n - 1 - black[bk - 1 - i];
    for (int i = 0; i < wk; ++i) {
        const int r = n - 1 - white[wk - 1 - i];
        int below = 0;
        for (int u = 0; u < bk; ++u) below += flipped_white[u] < r ? 1 : 0;
        flipped_black[i] = r - below;
    }
    return colex_rank(flipped_white, bk) * radix + colex_rank(flipped_black, wk);
}

}  // namespace damas
