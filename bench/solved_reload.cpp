// How fast a pair solved for mtc loads a class again: the class's values (2 bits a position)
// read from a values-only solved class file (gen/units/solved_class_file.hpp), the figure behind
// the plan's reload rate for such pairs (gen/plan/plan.cpp). The values are those of a wdl table
// file that holds them (a real distribution; the positions that must capture as draws), written
// as the generator writes them; the best of three reads is reported.
//
//   build/bench/solved_reload english DIR/english/2211.wdl
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <vector>

#include "folder/files.hpp"
#include "gen/units/class_values.hpp"
#include "gen/units/solved_class_file.hpp"
#include "rules/variant.hpp"
#include "table/table_file.hpp"

using namespace damas;

int main(int argc, char** argv) try {
    if (argc != 3) {
        std::fprintf(stderr, "usage: solved_reload VARIANT FILE.wdl\n");
        return 2;
    }
    const auto v = parse_variant(argv[1]);
    const std::filesystem::path wdl_path = argv[2];
    const auto m = Material::parse(wdl_path.stem().string());
    if (!v || !m) {
        std::fprintf(stderr, "solved_reload: no such variant, or not a class's wdl file\n");
        return 2;
    }
    const TableFile wdl(wdl_path, TableIdentity{*v, *m, Metric::wdl});
    const std::uint64_t n = wdl.size();
    std::vector<std::uint8_t> read(n);
    wdl.read_all(read);
    std::vector<std::uint8_t> values(value_bytes(n));
    for (std::uint64_t i = 0; i < n; ++i)
        put_value(values.data(), i,
                  static_cast<Value>(read[i] == wdl_unknown ? wdl_draw : read[i]));
    const std::filesystem::path solved =
        std::filesystem::temp_directory_path() / (m->name() + ".wdl.solved");
    write_solved_values(solved, *v, *m, values, n, 64 * 1024);
    double best = 1e30;
    for (int round = 0; round < 3; ++round) {
        const auto start = std::chrono::steady_clock::now();
        if (!read_solved_values(solved, *v, *m, n))
            throw Error(solved.string() + ": not read back");
        best = std::min(
            best, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    }
    std::printf("%s %s: %llu positions, solved file %llu bytes, read in %.3f s: %.0f M a second\n",
                v->name().c_str(), m->name().c_str(), static_cast<unsigned long long>(n),
                static_cast<unsigned long long>(std::filesystem::file_size(solved)), best,
                static_cast<double>(n) / best / 1e6);
    std::filesystem::remove(solved);
    return 0;
} catch (const std::exception& e) {
    std::fprintf(stderr, "solved_reload: %s\n", e.what());
    return 1;
}
