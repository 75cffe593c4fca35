// `damas recode`: a folder's wdl files written again with another codec (or the generator's
// automatic choice) without solving anything again: to make an existing set smaller with a
// newer codec, or faster to probe cold with zstd. Its dtw files likewise, with another codec of
// 16-bit tables (a folder written before zstd-planes shrinks by about a sixth). Its mtc files
// likewise (`--mtc-codec zstd-planes`: probes that miss the cache decode a block about 15 times
// faster than mtc-wdl's, for about twice the bytes).
//
// Owns: the pass over a folder's pairs of classes. A class's DTW file holds its wdl values (the
// winner by the parity of the plies, or a draw: table/format.hpp's dtw_outcome; an MTC file by
// its low bit: mtc_outcome) except where
// the generator stores none (the side to move must capture) and where a rule ends the game on
// the spot (DTW 0 whoever wins); those two are found from the positions, as the generator does.
// The values go to the generator's own writer (gen/write/pair_writer.hpp, PairFiles::wdl_only), so
// the wdl files come out byte-identical to those `damas gen` writes with the same codec and layout
// options; the DTW files are not touched (a DTW header takes only the wdl counts, which no codec
// changes).
// An MTC pair's values are held (2 bytes a position, both classes) before any of its files is
// written: an mtc-wdl file decodes given its class's wdl file as it is, and is written again,
// by the generator's pair writer, whenever that wdl file is, so that the pair's files are those
// gen writes with the options asked.
// A dtw file is written again block by block from its own decoded blocks (the positions the
// probe never reads hold the fill value the writer chose from the block's known values, which
// it chooses again), so its decoded bytes, checksums and counts stay, and the file is the one
// `damas gen` writes with that codec; a file that has the codec already is left as it is.
//
// Memory: the largest class's DTW values (2 bytes a position) while its wdl values (1 byte) are
// taken from them, then what the writer holds (the values and, for the context codecs, a byte of
// flags a position). Each file is replaced atomically (gen/write/writer.hpp): a killed recode
// leaves every class readable (a pair may hold two full wdl files), and a rerun writes them again.
// The writer's lock and the manifest's record of the files are gen's (folder/run_record.hpp); a
// folder without a manifest gets none.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "gen/run/generate.hpp"
#include "index/material.hpp"

namespace damas {

class Progress;

struct RecodeOptions {
    // variant, dir, threads, durable, wdl_codec, mirror_wdl, mirror_mtc and
    // large_class_positions are used.
    GenerateOptions gen;
    // These classes and their mirrors; empty: every class that has a DTW or an MTC file.
    std::vector<Material> only;
    // What is written again: the wdl files (gen.wdl_codec), the dtw files (gen.distance_codec),
    // the mtc files (gen.mtc_codec; an mtc-wdl file is also written again with its wdl file).
    bool wdl = true;
    bool dtw = false;
    bool mtc = false;
    // The mtc files' fold (table/mtc_fold.hpp), written again where it differs; nothing: each
    // keeps its own. A folded file is not unfolded or folded again (its distances are not all
    // in it): that is refused.
    std::optional<int> mtc_fold{};
};

struct RecodeSummary {
    int classes = 0;
    std::uint64_t positions = 0;
    std::uint64_t wdl_bytes_before = 0;  // the wdl files of those classes, before and after
    std::uint64_t wdl_bytes_after = 0;
    std::uint64_t dtw_bytes_before = 0;  // the dtw files of those classes, before and after
    std::uint64_t dtw_bytes_after = 0;
    int dtw_files_written = 0;
    std::uint64_t mtc_bytes_before = 0;  // the mtc files written again, before and after
    std::uint64_t mtc_bytes_after = 0;
    int mtc_files_written = 0;
    double seconds = 0;
};

// Throws Error naming the file or class when the folder has no DTW or MTC file for a class (or
// its mirror) or a file cannot be read or written.
RecodeSummary recode_folder(const RecodeOptions& options, Progress& progress);

}  // namespace damas
