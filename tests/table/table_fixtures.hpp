// Helpers shared by the table file tests: synthetic values and a table's description. Scratch
// folders and file bytes come from tests/support.
#pragma once

#include <random>
#include <string>
#include <vector>

#include "gen/write/writer.hpp"
#include "table/format.hpp"
#include "tests/support/generate.hpp"
#include "tests/support/scratch.hpp"

namespace damas::test {

inline TableInfo test_info() {
    return TableInfo{Variant{BaseVariant::english, false}, {0, 2, 0, 1}, "damas-test 0.1"};
}

inline std::vector<std::uint8_t> random_wdl(std::size_t n, std::uint64_t seed, int unknown_pct) {
    std::mt19937_64 rng(seed);
    std::vector<std::uint8_t> v(n);
    for (auto& x : v)
        x = static_cast<int>(rng() % 100) < unknown_pct ? wdl_unknown
                                                        : static_cast<std::uint8_t>(rng() % 3);
    return v;
}

inline std::vector<std::uint16_t> random_dtw(std::size_t n, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::vector<std::uint16_t> v(n);
    for (auto& x : v) {
        const auto r = rng() % 10;
        x = r == 0 ? dtw_unknown : r == 1 ? dtw_draw : static_cast<std::uint16_t>(rng() % 200);
    }
    return v;
}

}  // namespace damas::test
