// Helpers of the generator tests: a class's files read back whole. Scratch folders, quiet
// generation and the binary run or killed come from tests/support.
#pragma once

#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include "gen/process/progress.hpp"
#include "gen/run/generate.hpp"
#include "index/class_index.hpp"
#include "table/table_file.hpp"
#include "tests/support/cli.hpp"
#include "tests/support/generate.hpp"
#include "tests/support/process.hpp"
#include "tests/support/scratch.hpp"

namespace damas::test {

// Both files of one class, read whole (wdl values as read_wdl_values gives them).
struct ClassTables {
    Material material;
    std::vector<std::uint8_t> wdl;
    std::vector<std::uint16_t> dtw;
};

inline ClassTables read_class(const std::filesystem::path& dir, const Variant& v, Material m) {
    ClassTables t{m, {}, {}};
    const TableFile wdl(table_path(dir, v, m.name(), Metric::wdl));
    const TableFile dtw(table_path(dir, v, m.name(), Metric::dtw));
    t.wdl = read_wdl_values(wdl, dtw);  // from the dtw's parity in the mirror layout
    t.dtw.resize(dtw.size());
    dtw.read_all(t.dtw);
    return t;
}

}  // namespace damas::test
