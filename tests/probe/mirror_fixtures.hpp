// Helpers for the mirror-layout tests (probe/format.hpp): a database whose pairs store one wdl
// file must answer every probe exactly as one that stores both. Every position of every class
// up to a size, both sides to move, is probed for WDL, cached WDL and DTW in two databases
// generated with and without --full-wdl.
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "index/class_index.hpp"
#include "index/flip.hpp"
#include "probe/probe.hpp"
#include "probe/table_file.hpp"
#include "rules/notation.hpp"
#include "test_probe_fixtures.hpp"

namespace damas::test {

inline std::uint64_t wdl_bytes(const std::filesystem::path& folder, int& mirror_files) {
    std::uint64_t bytes = 0;
    for (const auto& e : std::filesystem::directory_iterator(folder)) {
        if (e.path().extension() != ".wdl") continue;
        bytes += e.file_size();
        if (!TableFile(e.path()).holds_values()) ++mirror_files;
    }
    return bytes;
}

// Generates both layouts and compares every probe.
inline void check_mirror_layout(const Case& c) {
    const Variant v = *parse_variant(c.variant);
    const int pieces = c.pieces;
    ScratchDir mirror_dir("mirror"), full_dir("full");
    make_database(mirror_dir.path, v, pieces, 2, true);
    make_database(full_dir.path, v, pieces, 2, false);

    int mirror_files = 0, full_mirror_files = 0;
    const std::uint64_t mirror_bytes = wdl_bytes(mirror_dir.path / v.name(), mirror_files);
    const std::uint64_t full_bytes = wdl_bytes(full_dir.path / v.name(), full_mirror_files);
    EXPECT_EQ(full_mirror_files, 0);
    EXPECT_GT(mirror_files, 0);
    EXPECT_LT(mirror_bytes, full_bytes);

    const auto mirror = Tablebase::open(mirror_dir.path, 16);
    const auto full = Tablebase::open(full_dir.path, 16);
    const BoardSpec board = v.info().board;
    std::uint64_t probed = 0;
    for (const Material m : classes_up_to(pieces)) {
        const ClassIndex index(board, m);
        for (std::uint64_t i = 0; i < index.size(); ++i) {
            const Position white = index.unindex(i);
            for (const Position& p : {white, flip(board, white)}) {
                const ProbeResult expected_wdl = full->probe_wdl(v, p);
                const ProbeResult expected_dtw = full->probe_dtw(v, p);
                ASSERT_TRUE(expected_wdl.ok() && expected_dtw.ok()) << to_fen(v, p);
                const ProbeResult wdl = mirror->probe_wdl(v, p);
                const ProbeResult cached = mirror->probe_wdl_cached(v, p);  // warm now
                const ProbeResult dtw = mirror->probe_dtw(v, p);
                ASSERT_TRUE(wdl.ok()) << to_fen(v, p) << " " << probe_status_name(wdl.status);
                ASSERT_TRUE(cached.ok()) << to_fen(v, p) << " " << probe_status_name(cached.status);
                ASSERT_TRUE(dtw.ok()) << to_fen(v, p) << " " << probe_status_name(dtw.status);
                ASSERT_EQ(wdl.value, expected_wdl.value) << to_fen(v, p);
                ASSERT_EQ(cached.value, expected_wdl.value) << to_fen(v, p);
                ASSERT_EQ(dtw.value, expected_dtw.value) << to_fen(v, p);
                ASSERT_EQ(dtw.plies, expected_dtw.plies) << to_fen(v, p);
                ++probed;
            }
        }
    }
    EXPECT_GT(probed, 0u);
}

}  // namespace damas::test
