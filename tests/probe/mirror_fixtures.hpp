// Helpers for the mirror-layout tests (table/format.hpp): a database whose pairs store one wdl
// file must answer every probe exactly as one that stores both. Every position of every class
// up to a size, both sides to move, is probed for WDL, cached WDL and DTW in two databases
// generated with and without --full-wdl.
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "index/class_index.hpp"
#include "index/flip.hpp"
#include "probe/probe.hpp"
#include "rules/notation.hpp"
#include "table/table_file.hpp"
#include "test_probe_fixtures.hpp"

namespace damas::test {

struct WdlFiles {
    std::uint64_t bytes = 0;
    int mirror = 0, context = 0, half = 0;
};
inline WdlFiles wdl_files(const std::filesystem::path& folder) {
    WdlFiles f;
    for (const auto& e : std::filesystem::directory_iterator(folder)) {
        if (e.path().extension() != ".wdl") continue;
        f.bytes += e.file_size();
        const TableFile t(e.path());
        f.mirror += !t.holds_values();
        f.context += t.header().codec != Codec::zstd;  // either context codec
        f.half += t.half();
    }
    return f;
}

// Generates both layouts and compares every probe. codec: the wdl codec of the database in the
// mirror layout (the other is zstd); with a context codec, self_mirror_only probes the classes
// that are their own mirror alone (the half layout's), to keep the test short.
// large_class_positions: GenerateOptions' (0: every class chosen from estimates).
inline void check_mirror_layout(const Case& c, WdlCodec codec = automatic_wdl_codec,
                                bool self_mirror_only = false,
                                std::uint64_t large_class_positions = context_min_positions) {
    const Variant v = *parse_variant(c.variant);
    const int pieces = c.pieces;
    ScratchDir mirror_dir("mirror"), full_dir("full");
    GenerateOptions mirror_options = generate_options(v, pieces, mirror_dir.path);
    mirror_options.wdl_codec = codec;
    mirror_options.large_class_positions = large_class_positions;
    generate_quietly(mirror_options);
    GenerateOptions full_options = generate_options(v, pieces, full_dir.path);
    full_options.mirror_wdl = false;  // --full-wdl
    full_options.wdl_codec = Codec::zstd;
    generate_quietly(full_options);

    const WdlFiles layout = wdl_files(mirror_dir.path / v.name());
    const WdlFiles full = wdl_files(full_dir.path / v.name());
    EXPECT_EQ(full.mirror + full.context + full.half, 0);
    EXPECT_GT(layout.mirror, 0);
    if (codec == Codec::context || codec == Codec::context_mix) {
        EXPECT_GT(layout.context, 0);  // forced on tiny classes too, where its model costs more
    } else {
        EXPECT_LT(layout.bytes, full.bytes);
    }
    if (self_mirror_only) {
        EXPECT_GT(layout.half, 0);
    }

    const auto mirror = Tablebase::open(mirror_dir.path, 16);
    const auto reference = Tablebase::open(full_dir.path, 16);
    const BoardSpec board = v.info().board;
    std::uint64_t probed = 0;
    for (const Material m : classes_up_to(pieces)) {
        if (self_mirror_only && m != m.mirrored()) continue;
        const ClassIndex index(board, m);
        for (std::uint64_t i = 0; i < index.size(); ++i) {
            const Position white = index.unindex(i);
            for (const Position& p : {white, flip(board, white)}) {
                const ProbeResult expected_wdl = reference->probe_wdl(v, p);
                const ProbeResult expected_dtw = reference->probe_dtw(v, p);
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
