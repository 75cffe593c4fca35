// Helpers shared by the table file tests: a scratch folder, synthetic values, file bytes.
#pragma once

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "gen/write/writer.hpp"
#include "table/format.hpp"

namespace damas::test {

// A fresh folder under the system temporary folder, removed at the end.
struct ScratchDir {
    std::filesystem::path path;
    explicit ScratchDir(const std::string& name) {
        path = std::filesystem::temp_directory_path() /
               ("damas-probe-" + name + "-" + std::to_string(::getpid()));
        std::filesystem::remove_all(path);
        std::filesystem::create_directories(path);
    }
    ~ScratchDir() {
        std::error_code ec;
        std::filesystem::remove_all(path, ec);
    }
};

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

inline std::vector<char> file_bytes(const std::filesystem::path& p) {
    std::ifstream in(p, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

inline void write_bytes(const std::filesystem::path& p, const std::vector<char>& bytes) {
    std::ofstream out(p, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

}  // namespace damas::test
