// Writing table files (table/format.hpp) from the generator's value arrays.
//
// Owns: the writing side of the format: counting values, the header, encoding independent blocks
// in parallel through the table's codec (table/codec.hpp: zstd, or for wdl tables any codec by
// its Codec value), size estimates from a sample of blocks, and the atomic write (<path>.tmp,
// fsync, rename, fsync of the folder), so a killed run never leaves a complete-looking file. The
// output depends only on the input: a codec's model is built from counts and blocks are coded
// with fixed parameters, each from its own values only, so any thread count gives the same
// bytes.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>

#include "folder/files.hpp"
#include "table/codec.hpp"
#include "table/format.hpp"

namespace damas {

// What the caller knows about a table; the writer computes the rest of the header.
class TableFile;

struct TableInfo {
    Variant variant;
    std::array<std::uint8_t, 4> material{};  // white men, white kings, black men, black kings
    std::string generator;                   // version string, < 64 characters
};

struct WriteOptions {
    unsigned threads = 1;                   // compression threads; the bytes do not depend on it
    std::uint32_t positions_per_block = 0;  // 0: the format's default for the metric (zstd)
    FillRule fill = FillRule::automatic;    // zstd (table/codec.hpp)
    int zstd_level = 0;                     // 0: the format's default for the metric
    // The dtw and dtr tables' codec (zstd or zstd-planes); wdl tables are written by
    // gen/write/wdl_policy.hpp's choice.
    Codec distance_codec = default_codec(Metric::dtw);
    // The mtc tables' codec (mtc-wdl, mtc-context, zstd-planes or zstd).
    Codec mtc_codec = default_codec(Metric::mtc);
    // mtc-wdl (table/codec.hpp's reads_wdl): the class's wdl values, from the wdl file its
    // readers will decode the mtc file with; if empty, write_distance_table reads the wdl file
    // beside the mtc file's path.
    WdlReader mtc_wdl{};
    // mtc-wdl, set by read_wdl_beside: the wdl file stores the value of every position that need
    // not capture, so the encoder reads them off the mtc values instead of decoding the file.
    bool mtc_wdl_of_values = false;
    // mtc tables: the distances 1 to mtc_fold stored as 1 (format.hpp, "Folded distances"; 0:
    // none).
    int mtc_fold = 0;
    // fsync the file before the rename and its folder after it (each checked). The rename alone
    // already makes a killed process leave either the old state or the complete file; fsync
    // also covers a power cut. Off only for scratch runs (gen --no-sync).
    bool durable = true;
    // The win/draw/loss/unknown counts to write in the header, instead of deriving them from the
    // values: a DTW alone cannot tell every result (turkish's king against a lone man wins at 0
    // plies), so the generator passes the counts of the class's WDL table.
    const TableHeader* counts_from = nullptr;
    // A codec with a model keeps what its model's pass computed per position (the context
    // codec's flags, a byte each) for the blocks' pass (ModelSampling::hold), as they are or,
    // for writers bounded by memory, compressed within held_flags_limit bytes.
    HeldFlags hold_flags = HeldFlags::plain;
    std::uint64_t held_flags_limit = UINT64_MAX;
};

// The bytes a bounded writer holds the context codec's flags of a class in, compressed: a bit a
// position (they take about 0.8 on english 2-6), at most 1 GiB; the blocks beyond are computed
// again (about 30 ns a position: a turkish 1213 class of 146 G positions would hold 18 GB, and
// computes seven eighths again, 2% of its pair's time).
constexpr std::uint64_t held_flags_limit(std::uint64_t positions) {
    return std::min(positions / 8 + 4096, std::uint64_t{1} << 30);
}

// Whether path holds a complete table a rerun may keep: a file that opens, whose header names
// this variant, class and metric with `positions` positions, and whose checksums verify. The
// atomic write (above) means a killed run leaves either no file or a complete one.
bool table_complete(const std::filesystem::path& path, const TableInfo& info, Metric metric,
                    std::uint64_t positions);

// values[i] in {wdl_loss, wdl_draw, wdl_win, wdl_unknown}. Returns the header written.
// Throws Error on an invalid value or an I/O failure (the temporary file is removed).
TableHeader write_wdl_table(const std::filesystem::path& path, const TableInfo& info,
                            std::span<const std::uint8_t> values, const WriteOptions& options = {});
// A wdl table with the codec `codec` (table/codec.hpp), in the half layout if `half` (the codec
// must have one, and the class allow it: the context codec, wdl_context::odd_half_allowed).
// Values as above; the context codec finds the positions the probe never reads from the
// positions themselves and ignores their values. Returns nothing (and writes nothing) if the
// codec cannot code the values (the context codec: a position the probe reads has no value,
// 3). A codec may ignore positions_per_block and zstd_level (the context codec does).
std::optional<TableHeader> write_wdl_table(const std::filesystem::path& path, const TableInfo& info,
                                           std::span<const std::uint8_t> values, Codec codec,
                                           bool half, const WriteOptions& options = {});
// The size of the wdl file write_wdl_table with codec and `half` (and the default
// positions_per_block and zstd_level) would write, estimated from every `stride`-th block alone
// (stride 1: the exact size). Nothing is written. Nothing where that writes nothing. The same
// values give the same estimate whatever options.threads is.
std::optional<std::uint64_t> estimate_wdl_bytes(const TableInfo& info,
                                                std::span<const std::uint8_t> values, Codec codec,
                                                bool half, std::uint32_t stride,
                                                const WriteOptions& options = {});
// The header of the wdl table of these values without writing it: its win/draw/loss/unknown
// counts and positions, for write_wdl_mirror_table and WriteOptions::counts_from.
TableHeader wdl_table_counts(const TableInfo& info, std::span<const std::uint8_t> values);
// A wdl or mtc table in the mirror layout (format.hpp): the header alone, with the positions and
// the win/draw/loss/unknown counts of `counts` (the class's full table, as written or computed).
TableHeader write_mirror_table(const std::filesystem::path& path, const TableInfo& info,
                               Metric metric, const TableHeader& counts, bool durable = true);
inline TableHeader write_wdl_mirror_table(const std::filesystem::path& path, const TableInfo& info,
                                          const TableHeader& counts, bool durable = true) {
    return write_mirror_table(path, info, Metric::wdl, counts, durable);
}
// The counts, the codec's writer and the estimate, for values read in passes instead of held (a
// pair solved in units streams its classes from the unit files): passes() opens a pass, whose
// values(first, out) fills out with positions [first, first + out.size()), called for
// consecutive ranges from 0, one call at a time, while other threads encode the blocks before.
// Each function makes the passes it says; the bytes and estimates are those of the functions
// above on the same values. The writer needs options.counts_from (from wdl_table_counts).
// options.hold_flags says how a codec's model pass keeps what it computes per position (the
// context codec's flags, a byte each) for the next pass instead of computing it again.
using WdlValues = std::function<void(std::uint64_t first, std::span<std::uint8_t> out)>;
using WdlPasses = std::function<WdlValues()>;
// One pass; throws Error on an invalid value.
TableHeader wdl_table_counts(const TableInfo& info, std::uint64_t positions,
                             const WdlPasses& passes, unsigned threads);
// One pass, two for a codec with a model (the model, then the blocks).
std::optional<TableHeader> write_wdl_table(const std::filesystem::path& path, const TableInfo& info,
                                           std::uint64_t positions, const WdlPasses& passes,
                                           Codec codec, bool half, const WriteOptions& options);
// The same passes.
std::optional<std::uint64_t> estimate_wdl_bytes(const TableInfo& info, std::uint64_t positions,
                                                const WdlPasses& passes, Codec codec, bool half,
                                                std::uint32_t stride,
                                                const WriteOptions& options = {});
// Passes over values held in memory, for the functions above.
WdlPasses wdl_passes_over(std::span<const std::uint8_t> values);

// For an mtc codec that reads its class's wdl file (mtc-wdl) where options give no wdl values:
// opens the wdl file beside `table`. Where that file stores the value of every position that need
// not capture (not the mirror or half layout), the only ones an mtc file codes, those are the mtc
// values' own: sets options.mtc_wdl_of_values (decoding the file took a ninth of an international
// 5-piece pair's CPU). Else has options.mtc_wdl read it as its readers will and returns the file,
// to be kept open while writing (else null).
std::unique_ptr<const TableFile> read_wdl_beside(const std::filesystem::path& table,
                                                 const TableInfo& info, Metric metric,
                                                 WriteOptions& options);

// An mtc table's values as options.mtc_fold stores them (table/mtc_fold.hpp); others unchanged.
void fold_mtc_values(Metric metric, const WriteOptions& options, std::span<std::uint16_t> values);

// values[i]: plies to the end, dtw_draw or dtw_unknown (format.hpp).
TableHeader write_dtw_table(const std::filesystem::path& path, const TableInfo& info,
                            std::span<const std::uint16_t> values,
                            const WriteOptions& options = {});
// The same for values given block by block: values(first, out) fills out with the values of
// positions [first, first + out.size()), called for the blocks in order, one call at a time (so
// the values may come from a stream), while other threads compress the blocks before. The whole
// array is never held. options.counts_from is required (the values are not counted).
using DtwValues = std::function<void(std::uint64_t first, std::span<std::uint16_t> out)>;
TableHeader write_dtw_table(const std::filesystem::path& path, const TableInfo& info,
                            std::uint64_t positions, const DtwValues& values,
                            const WriteOptions& options);
// The same for a distance metric: dtw, or mtc values (format.hpp), compressed as dtw.
TableHeader write_distance_table(const std::filesystem::path& path, const TableInfo& info,
                                 Metric metric, std::uint64_t positions, const DtwValues& values,
                                 const WriteOptions& options);
// values[i]: dtr values (format.hpp) of one of the dtr metrics, compressed as dtw.
TableHeader write_dtr_table(const std::filesystem::path& path, const TableInfo& info, Metric metric,
                            std::span<const std::uint16_t> values,
                            const WriteOptions& options = {});

}  // namespace damas
