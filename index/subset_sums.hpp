// The k-subsets of a list of squares whose values sum to a target: the men placements of one
// total advancement (a slice), for ClassIndex::for_each_men_in_slice (bitboards, in reverse
// colex order) and gen/units/pair_layout.cpp's computed layout (colex ranks, in colex order).
//
// A pruned depth-first search: the values never grow along the list (the caller orders the
// squares so), so the largest position chosen first bounds the rest. A choice of position e for
// the k-th element is kept only if the k - 1 elements below it can still make up the rest: at
// least the k - 1 positions just below e give, at most the k - 1 first ones. Where the values
// step by at most one from a position to the next (consecutive rows), every sum between those
// bounds is reachable, so the search visits only choices that lead to a subset. The last
// element's choices are one run of positions (those of the value still needed), handed over
// whole.
#pragma once

#include <array>
#include <cstdint>
#include <span>

namespace damas {

enum class SubsetOrder {
    colex,          // by largest position ascending, then the next largest, ...
    reverse_colex,  // the same, descending
};

// Subsets that differ only in their smallest element: `chosen` with it at each position of
// [begin, end), in the search's order; or, for a 0-subset, `chosen` alone (empty, [0, 1)).
template <SubsetOrder order, class Chosen>
struct SubsetRun {
    Chosen chosen;
    int begin, end;
    bool empty = false;

    int size() const { return end - begin; }
    // f(add(chosen, e, 1)) for each position e, in order (f(chosen) for the 0-subset).
    template <class Add, class F>
    void for_each(Add&& add, F&& f) const {
        if (empty)
            f(chosen);
        else if constexpr (order == SubsetOrder::colex)
            for (int e = begin; e < end; ++e) f(add(chosen, e, 1));
        else
            for (int e = end - 1; e >= begin; --e) f(add(chosen, e, 1));
    }
};

class SubsetSums {
  public:
    // At most 64 values, each in [0, max_value]; they are not copied (they must outlive the
    // searches).
    static constexpr int max_value = 15;

    explicit SubsetSums(std::span<const std::int8_t> values) { reset(values); }
    SubsetSums() = default;

    void reset(std::span<const std::int8_t> values) {
        value_ = values.data();
        size_ = static_cast<int>(values.size());
        prefix_[0] = 0;
        for (int i = 0; i < size_; ++i) prefix_[i + 1] = prefix_[i] + values[i];
        int i = size_;
        for (int v = 0; v <= max_value; ++v) {
            while (i > 0 && value_[i - 1] <= v) --i;
            first_at_most_[v] = static_cast<std::int8_t>(i);
        }
    }
    int size() const { return size_; }

    // The k-subsets of the positions [0, size()) whose values sum to `need`, in `order`, given
    // to run(SubsetRun) a run at a time. `chosen` is the search's state: `start` before any
    // choice, add(chosen, e, j) once position e is chosen for the j-th smallest element (a
    // bitboard of squares, a colex rank, ...).
    template <SubsetOrder order, class Chosen, class Add, class Run>
    void search(int k, int need, Chosen start, Add&& add, Run&& run) const {
        pick<order>(k, size_, need, start, add, run);
    }

  private:
    template <SubsetOrder order, class Chosen, class Add, class Run>
    void pick(int k, int end, int need, Chosen chosen, Add& add, Run& run) const {
        if (k == 0) {
            if (need == 0) run(SubsetRun<order, Chosen>{chosen, 0, 1, true});
            return;
        }
        if (k == 1) {  // the positions below `end` of value `need`: one run
            if (need < 0 || need > max_value) return;
            const int first = first_at_most_[need];
            int last = first;
            while (last < end && value_[last] == need) ++last;
            if (first < last) run(SubsetRun<order, Chosen>{chosen, first, last});
            return;
        }
        const int most = prefix_[k - 1];  // the k - 1 first positions
        const auto choose = [&](int e) {
            pick<order>(k - 1, e, need - value_[e], add(chosen, e, k), add, run);
        };
        if constexpr (order == SubsetOrder::colex) {
            for (int e = k - 1; e < end; ++e) {
                const int rest = need - value_[e];
                if (rest > most) break;  // a larger e only raises rest
                if (rest < prefix_[e] - prefix_[e - k + 1]) continue;  // ... and lowers the least
                choose(e);
            }
        } else {
            for (int e = end - 1; e >= k - 1; --e) {
                const int rest = need - value_[e];
                if (rest < prefix_[e] - prefix_[e - k + 1]) break;  // a smaller e raises the least
                if (rest > most) continue;                          // ... and lowers rest
                choose(e);
            }
        }
    }

    const std::int8_t* value_ = nullptr;
    int size_ = 0;
    std::array<int, 65> prefix_{};  // prefix_[i]: the sum of the first i values
    std::array<std::int8_t, max_value + 1> first_at_most_{};  // the first position of at most v
};

}  // namespace damas
