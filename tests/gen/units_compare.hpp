// Generation in units compared with generation with every pair held whole (gen/plan/plan.hpp).
#pragma once

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "gen/units/unit_file.hpp"
#include "gen_fixtures.hpp"

namespace damas::test {

// how: automatic gives the run that holds every pair whole (no budget on these small sets).
// tuning: GenerateOptions::tuning (tests: small classes on the paths of large ones).
inline GenerateSummary generate_in_units(const Variant& v, int pieces,
                                         const std::filesystem::path& dir,
                                         PairSolving how = PairSolving::units,
                                         WdlCodec codec = automatic_wdl_codec,
                                         std::uint64_t large_class_positions = 0,
                                         std::optional<Material> only = std::nullopt,
                                         const GenerationTuning& tuning = {}) {
    GenerateOptions o = generate_options(v, pieces, dir);
    o.tuning = tuning;
    o.only = only;
    o.wdl_codec = codec;
    if (large_class_positions > 0) o.large_class_positions = large_class_positions;
    o.pair_solving = how;
    return generate_quietly(o);
}

// One run in units: how its pairs are solved, and its tuning (GenerateOptions::tuning).
struct UnitsRun {
    PairSolving how = PairSolving::units;
    GenerationTuning tuning = {};
};

// Each of `runs` writes the same files as one run with every pair held whole, made once: with
// the first run's tuning (what a tuning changes is how pairs in units are solved, never the
// files), or, with the default codec and classes, the suite's shared database
// (tests/support/generate.hpp). codec, large_class_positions, only: as GenerateOptions (0: its
// default), for every run.
inline void expect_same_files_in_units(const Variant& v, int pieces,
                                       const std::vector<UnitsRun>& runs,
                                       WdlCodec codec = automatic_wdl_codec,
                                       std::uint64_t large_class_positions = 0,
                                       std::optional<Material> only = std::nullopt) {
    std::map<std::string, std::vector<char>> a;
    if (codec == automatic_wdl_codec && large_class_positions == 0 && !only) {
        a = tree_bytes(shared_database(v, pieces));  // the same options: made once
    } else {
        ScratchDir whole("units-whole-" + v.name());
        generate_in_units(v, pieces, whole.path, PairSolving::automatic, codec,
                          large_class_positions, only, runs.front().tuning);
        a = tree_bytes(whole.path);
    }
    for (const UnitsRun& run : runs) {
        ScratchDir units("units-" + v.name());
        const GenerateSummary s = generate_in_units(v, pieces, units.path, run.how, codec,
                                                    large_class_positions, only, run.tuning);
        EXPECT_GT(s.pairs_in_units, 0);
        EXPECT_GT(s.units_written, 0u);
        EXPECT_FALSE(std::filesystem::exists(units_dir(units.path, v)));  // removed once done
        const auto b = tree_bytes(units.path);
        EXPECT_EQ(a.size(), b.size());
        for (const auto& [name, bytes] : a) {
            const auto it = b.find(name);
            ASSERT_NE(it, b.end()) << name;
            EXPECT_TRUE(it->second == bytes) << v.name() << ": " << name << " differs in units";
        }
    }
}

// codec, large_class_positions, only, tuning: as GenerateOptions (0: its default), for both runs.
inline void expect_same_files_in_units(const Variant& v, int pieces,
                                       PairSolving how = PairSolving::units,
                                       WdlCodec codec = automatic_wdl_codec,
                                       std::uint64_t large_class_positions = 0,
                                       std::optional<Material> only = std::nullopt,
                                       const GenerationTuning& tuning = {}) {
    expect_same_files_in_units(v, pieces, {UnitsRun{how, tuning}}, codec, large_class_positions,
                               only);
}

// The sets compared: fewer pieces on 10x10 and turkish (64 squares), whose sets are larger.
inline bool small_set(const Variant& v) {
    return v.info().board.width == 10 || v.base == BaseVariant::turkish;
}

// The wdl writer from the units: the context codec wherever it applies (its position flags
// computed again per block, not held), and the codec and the class that keeps the values chosen
// from estimates, with the values read in passes from the unit files, and packed from one pass.
inline void expect_wdl_codecs_from_units(const Variant& v) {
    GenerationTuning unpacked, packed;
    unpacked.wdl_packed = false;
    packed.wdl_packed = true;
    const std::vector<UnitsRun> runs = {{PairSolving::units, unpacked},
                                        {PairSolving::units, packed}};
    const int pieces = small_set(v) ? 3 : 4;
    expect_same_files_in_units(v, pieces, runs, Codec::context);
    expect_same_files_in_units(v, pieces, runs, automatic_wdl_codec, 1000);
}

// Small classes made to take the paths of large ones: unit chunks of a few hundred positions
// (men configurations split into several chunks; components' values streamed to the unit file
// a configuration at a time), bytes that hold 3 plies (most values in the overflow map) and
// losses whose exits are read in batches of 7 (settled within a level, not only at its end).
inline GenerationTuning small_chunks_and_bytes(std::uint64_t chunk, int distances) {
    GenerationTuning tuning;
    tuning.unit_chunk_positions = chunk;
    tuning.compact_byte_distances = distances;
    tuning.compact_deferred_batch = 7;
    return tuning;
}

// The byte-a-position solver with most values in its overflow map and men configurations split
// into several chunks.
inline void expect_compact_overflow_and_split_chunks(const Variant& v) {
    expect_same_files_in_units(v, small_set(v) ? 3 : 4, PairSolving::units_compact,
                               automatic_wdl_codec, 0, std::nullopt,
                               small_chunks_and_bytes(512, 3));
}

// The solver of state words with components' values streamed to their units a configuration at
// a time.
inline void expect_components_streamed(const Variant& v) {
    expect_same_files_in_units(v, small_set(v) ? 3 : 4, PairSolving::units, automatic_wdl_codec, 0,
                               std::nullopt, small_chunks_and_bytes(256, 76));
}

}  // namespace damas::test
