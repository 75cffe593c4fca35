// What a generation run is asked for: the classes, the folder, and how the generator makes them
// (threads, durability, codecs and layouts, memory budget, how pairs are solved, and the sizes
// the generator chooses by itself: GenerationTuning). Every part of the generator reads it;
// gen/run/generate.hpp runs it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>

#include "index/class_selection.hpp"
#include "table/codec.hpp"
#include "table/format.hpp"

namespace damas {

// The user's choice of the wdl files' codec: automatic (nothing) chooses per class
// (gen/write/wdl_policy.hpp); a codec (table/codec.hpp) is used wherever it can code the class
// (for tests: small classes too), zstd elsewhere.
using WdlCodec = std::optional<Codec>;
inline constexpr WdlCodec automatic_wdl_codec = std::nullopt;

// Classes smaller than this keep zstd (gen/write/wdl_policy.hpp).
inline constexpr std::uint64_t context_min_positions = std::uint64_t{1} << 24;
// The mtc files' fold unless asked otherwise (GenerateOptions::mtc_fold).
inline constexpr int default_mtc_fold = 4;

// How pairs are solved (gen/plan/plan.hpp): as the memory budget allows, or every one in units (for
// tests: the bounded path on small classes), or in units reading every smaller class through
// the block cache (SolvedStore::read_through; for tests and to measure what the cache costs), or
// in units by the byte-a-position solver (gen/solve/compact/compact_solver.hpp), which the plan
// otherwise takes only for the pairs whose slices the state words cannot hold.
enum class PairSolving { automatic, units, units_read_through, units_compact };

// How a pair's layout finds the slices of its men configurations (gen/units/pair_layout.hpp): from
// tables, or computed.
enum class LayoutMode { tabled, computed };

// Sizes and choices the generator makes by itself; tests set them so that small classes take
// the paths of large ones. The defaults are what every run uses. A run passes them down to
// where they are read: the pair's layout (gen/units/pair_layout.hpp) carries the layout mode and
// the unit chunk size to the unit files, the byte-a-position solver and the plan get the rest.
struct GenerationTuning {
    // The positions a unit chunk holds (gen/units/unit_file.hpp); smaller, the men
    // configurations of small classes are split into chunks and their slices streamed to units.
    std::uint64_t unit_chunk_positions = 64 * 1024;
    // The layout mode of every pair; nothing: by the size of its tables (PairLayout::mode_for).
    std::optional<LayoutMode> layout_mode;
    // The distances a byte of the byte-a-position solver holds
    // (gen/solve/compact/compact_solver.hpp): 1 to 76 (plies 0..75); fewer, small classes take the
    // overflow map's paths.
    int compact_byte_distances = 76;
    // The fewest losses a thread of that solver batches before reading their exits; fewer,
    // small slices settle batches within a level, not only at its end.
    std::size_t compact_deferred_batch = 4096;
    // Whether that solver keeps a bit a position saying which must capture (true), or tests the
    // position again where it asks (false: an eighth of a byte a position less, a capture test
    // for each predecessor a resolved position tells; gen/plan/plan.hpp: PairStep). Kept where
    // men move sideways (turkish).
    bool compact_capture_bits = true;
    // Whether pairs in units pack their wdl values for the writer (gen/plan/plan.hpp:
    // PairStep::wdl_packed): always (true), never (false), or as the budget allows (nothing).
    std::optional<bool> wdl_packed;
};

// The classes (ClassSelection: variant, max_pieces, max_per_side, only) and how to make them.
struct GenerateOptions : ClassSelection {
    std::filesystem::path dir;  // database root; files go to <dir>/<variant>/
    int threads = 0;            // 0: all cores
    // fsync each file before its rename and the folder after (gen/write/writer.hpp): a power cut
    // never leaves a partial file under a table's name. False: scratch runs (--no-sync).
    bool durable = true;
    // Of each pair of classes (a class and its mirror), write the wdl values of one only, the
    // one that compresses smaller; the other's wdl file gets the mirror layout
    // (table/format.hpp): a probe there searches one ply. About halves the wdl bytes.
    bool mirror_wdl = true;
    // An mtc file whose class's wdl file has the mirror layout gets it too (table/format.hpp):
    // the class's values and MTC are one ply away, in the stored class. About halves the mtc
    // bytes; an MTC probe there searches one ply. False: --full-mtc.
    bool mirror_mtc = true;
    // The wdl files' codec (table/codec.hpp): automatic, or one codec wherever it can code the
    // class; gen/write/wdl_policy.hpp says which layout and codec each class gets, and why.
    WdlCodec wdl_codec = automatic_wdl_codec;
    // The distance written beside the wdl values (table/format.hpp): dtw, or mtc (the plies to
    // the next conversion: gen/solve/solver.hpp). With mtc, the classes of at most dtw_pieces
    // pieces still get dtw (distance_metric): Kingsrow's mix, DTW where it is affordable.
    Metric metric = Metric::dtw;
    int dtw_pieces = 0;
    // The dtw files' codec: zstd-planes (the default) or zstd (table/codecs/zstd_codec.cpp).
    Codec distance_codec = default_codec(Metric::dtw);
    // The mtc files' codec: mtc-context (the default, table/codecs/mtc_context.hpp), or a
    // distance codec.
    Codec mtc_codec = default_codec(Metric::mtc);
    // The mtc files store the distances 1 to mtc_fold as one (table/mtc_fold.hpp; 0: none):
    // international 2-5's mtc files take 0.43 of their bytes, english 2-5's 0.65, for a search
    // of at most 4 plies where a probe reads a folded distance.
    int mtc_fold = default_mtc_fold;
    // Classes of this many positions or more are "large": with automatic, the other codecs are
    // tried, and their codec (and, in a pair, the class that keeps the wdl values) is chosen
    // from estimates on a sample of blocks, so that one wdl file per pair is written whole
    // (gen/write/wdl_policy.hpp). Tests lower it to take that path on small classes.
    std::uint64_t large_class_positions = context_min_positions;
    // The most memory the run may take (gen/plan/plan.hpp); 0: three quarters of the available
    // memory.
    std::uint64_t memory_bytes = 0;
    PairSolving pair_solving = PairSolving::automatic;
    GenerationTuning tuning;
};

// The distance class m gets in a run of o: dtw or mtc. A class reads only smaller ones, so a
// dtw class reads dtw classes only.
constexpr Metric distance_metric(const GenerateOptions& o, Material m) {
    return o.metric == Metric::mtc && m.pieces() > o.dtw_pieces ? Metric::mtc : Metric::dtw;
}

}  // namespace damas
