// The database file format: one file per (variant, material class, metric).
//
// Owns: the byte layout of a table file, its constants, the header's (de)serialisation, and the
// file naming. The writer (gen/write/writer) and the reader (table/table_file) both follow this
// file; nothing else knows the layout.
//
// All integers are little-endian and serialised field by field (never a struct memcpy).
//
// File = header (256 bytes) | offset table | model (context codec only: M bytes) | blocks
//
// Header
//   off size field
//     0    8 magic "DAMASTB1"
//     8    4 u32 format version (format_version)
//    12    4 u32 header size (256)
//    16    1 u8  base variant (BaseVariant as a number)
//    17    1 u8  giveaway flag (0 or 1)
//    18    1 u8  metric (0 = wdl, 1 = dtw, 2 = dtr, 3 = dtr-fmjd, 4 = dtr-forcada,
//              5 = dtr-forcada-gaps, 6 = mtc)
//    19    1 u8  bits per value (2 for wdl, 16 for the others)
//    20    4 u8  x4 material: white men, white kings, black men, black kings
//    24    4 u32 positions per block P (> 0, a multiple of 4)
//    28    4 u32 layout (version 2; 0 in version 1): 0 = stored (the values are in the blocks),
//              1 = mirror (wdl and mtc only: no blocks, B = 0; see "Mirror layout" below)
//    32    8 u64 index size N (positions)
//    40    8 u64 block count B = ceil(N / P)
//    48    8 u64 wins      (side to move wins; unknown positions excluded)
//    56    8 u64 draws
//    64    8 u64 losses
//    72    8 u64 unknown   (positions the probe never reads)
//    80    8 u64 offset of the offset table (= 256)
//    88    8 u64 offset of the first block (= 256 + table size)
//    96    8 u64 file size
//   104    8 u64 xxh64 of the offset table bytes
//   112    8 u64 xxh64 of the block bytes (first block offset .. file size)
//   120   32 variant name, ASCII, NUL padded (for humans; the numbers above are authoritative)
//   152   64 generator version, ASCII, NUL padded
//   216    1 u8  codec (version 3; 0 before): the blocks' codec, a byte of table/codec.hpp's
//              registry (readers reject others): 0 = zstd, 1 = context (wdl only;
//              table/codecs/wdl_context.hpp), 2 = context-mix (wdl only; table/codecs/wdl_mix.hpp;
//              added without a version change: older readers reject the codec byte), 3 =
//              zstd-planes (dtw and dtr only; below; added likewise)
//   217    1 u8  half (version 3; 0 before): 1 = the positions whose rows add up to an odd
//              number are not stored (context codec only; see "Half layout" below)
//   218    2 u16 rules version (version 4, dtr metrics only; 0 otherwise): the reading of the
//              draw rules the values follow (format::rules_version)
//   220    4 u32 model size M (context codec; else 0)
//   224    8 u64 xxh64 of the model bytes
//   232    1 u8  mtc fold F (version 5, mtc files only; 0 otherwise): the distances 1 to F are
//              stored as 1 ("Folded distances" below)
//   233   15 reserved, 0
//   248    8 u64 xxh64 of header bytes 0..247
//   (all xxh64 use seed 0)
//
// Offset table (8 * (2B + 1) bytes)
//   B + 1 u64 absolute file offsets: block i is the bytes [off[i], off[i+1]); off[B] = file size
//   B     u64 xxh64 of each block's decompressed bytes (checked on every decompression)
//
// Blocks: each one independently decodable, holding positions [i*P, min(N, (i+1)*P)): a zstd
//   frame, or with the context codec the range coder's bytes (table/codecs/wdl_context.hpp; the
//   model is shared by the file's blocks). Decompressed: wdl: 2 bits per position, 4 per byte,
//   position p in bits 2*(p%4)..2*(p%4)+1 of byte p/4
//        (within the block); ceil(n/4) bytes, unused high bits of the last byte are 0.
//   dtw, dtr*: u16 little-endian per position; 2n bytes.
//   Codec 3 (zstd-planes) codes these decoded bytes as a tag byte and one zstd frame: tag 1,
//   the frame holds two byte planes, the low bytes of the block's n values, then their high
//   bytes (2n bytes); tag 0, the decoded bytes themselves (as codec 0). The writer keeps the
//   smaller. A block's distances are few and close together, so the planes are most often
//   the smaller (english 2-7: 0.84 of codec 0's bytes in all, 0.66 to 1.002 by pair);
//   decoding them is one pass more over the block.
//   Codec 4 (mtc-context, mtc files only; no model) codes a block's values with adaptive binary
//   contexts and a range coder (table/codecs/mtc_context.hpp): the positions the probe never
//   reads (the side to move must capture) are not coded and decode as dtw_unknown. It is the
//   generator's codec for mtc files before codec 5; mtc files of codec 3 (before it) are still
//   read.
//   Codec 5 (mtc-wdl, mtc files only; no model) is codec 4's coding given the wdl values of the
//   class's wdl file (table/codecs/mtc_context.hpp): a draw there codes nothing, a win or a loss
//   its distance alone. Its reader needs that wdl file, unchanged since the mtc file was
//   written (the blocks' hashes catch another); where that has the mirror layout it tells no
//   value, and every value codes as in codec 4 (with faster-adapting contexts). The generator's
//   codec for mtc files.
//
// Mirror layout (version 2): a class C and its mirror M (format.hpp's flip: the same positions
// with the other side to move) hold the same information twice, since every value of C is the
// best over its moves of values in M, captures and crowning moves aside. For a pair whose wdl
// files are large, the generator stores one of the two in full and the other as a header alone
// (layout 1: counts filled in, no blocks, file = header + an 8-byte offset table). A probe of a
// quiet position of a mirror-layout class searches its moves one ply deep into the stored class
// (captures after the move resolved as always). The dtw files always store both classes, so
// rule tables, statistics and the generator read distances (and values by their parity) from
// them. Readers must not assume a wdl file has values: check the layout.
// An mtc file has the mirror layout too where its class's wdl file has it (unless the folder
// was made with --full-mtc): then the class's values and MTC are both one ply away, in the
// stored class's wdl and mtc files (an MTC probe searches its moves: a converting move counts
// 1 ply, any other 1 + the MTC after it). Its header's counts are the wdl header's. Readers of
// format version 4 refuse such a file ("only wdl tables may have the mirror layout").
//
// Folded distances (version 5, mtc files): a file whose header has mtc fold F > 1 stores every
// win and loss of distance 1 to F as distance 1; the readers tell them apart by a search of at
// most F plies (probe/, gen/store/; table/mtc_fold.hpp): a win's MTC is the least over its moves
// (1 for a conversion into a lost position, 1 + the MTC after a king move), a loss's the most.
// Distance 0 (no legal move) and those above F are stored as they are. Wins and losses within a
// few plies of their conversion are most of an mtc file's positions and cost most of its bytes
// to tell apart (international 2-5: the distances 1 to 4 are 97% of the wins and losses read).
// Readers of format version 4 refuse such a file (its version).
//
// Context codec (version 3): only worth it for large classes, where it is a third to two thirds
// smaller than zstd, at about a millisecond to decode a block of 32 Ki positions (zstd: tens of
// microseconds); the generator tries it for large classes and keeps whichever file is smaller.
// It codes no value for the positions the probe never reads (they decode as unknown, 3).
// Codec 2 (context-mix) is the same layout with a mixed model (table/codecs/wdl_mix.hpp): about 15%
// smaller than codec 1 on english 7-piece classes, a block decoding in a few times codec 1's
// time; the generator estimates both for a large class and keeps the smaller.
//
// Half layout (version 3, context codec): for a class that is its own mirror (so the mirror
// layout cannot halve it) in a variant whose every quiet move changes by one the sum of the rows
// of all pieces (short kings, men moving forward), a quiet move always leads from a position
// whose sum is odd to one whose sum is even (the colour flip keeps the parity of an even number
// of pieces). The file stores the even positions only; an odd one decodes as 3 and a probe
// searches its moves one ply deep, as for the mirror layout. The dtw files are whole, and the
// header's counts are exact.
//
// Values, from the side to move's point of view:
//   wdl: loss 0, draw 1, win 2; unknown 3 = "the probe never reads this position" (the side to
//        move must capture; the probe resolves captures by search). In the file, unknowns are
//        replaced by a fill value chosen to compress well, so a stored value is 0..2.
//   dtw: plies to the end of the game with best play (0 = no legal move); dtw_draw for a draw,
//        dtw_unknown as for wdl (also replaced in the file). The game ends when the side to move
//        has no legal move: it loses (wins in giveaway), so the parity of a distance gives the
//        result: see dtw_outcome.
//   mtc (added without a version change: older readers reject the metric number): the plies to
//        the next conversion (a capture, a man move, or the end of the game), the winner
//        converting as soon as it can into a position it still wins and the loser delaying it
//        as long as it can (docs/generating.md). A conversion's own ply counts 1; a position
//        with no legal move is 0. The distance's parity does not give the result (either side
//        may make the conversion), so the value is stored as dtr's: (distance << 1) | 1 for a
//        win of the side to move, distance << 1 for a loss, mtc_draw for a draw, dtw_unknown as
//        for wdl. A class has a dtw file or an mtc file, never both from one run.
//   dtr (the move-limit draw rules, limits/draw_rules.hpp; added in version 1 without a version
//        change: older readers reject the new metric numbers): the distance in plies to the
//        rule's goal (the end of the game, or a reset of the count into a position still won),
//        with the winner shortening it and the loser lengthening it, over the moves that keep
//        the count running. Stored as (distance << 1) | 1 for a win of the side to move,
//        distance << 1 for a loss; dtr_none where no count lets either side win; dtw_unknown
//        as for wdl. The side to move wins under the rules iff it wins here and the distance is
//        at most the plies the count has left (probe/limits_probe.hpp). dtr-fmjd: the same under
//        international's FMJD 16-move edition; dtr-forcada: portuguese 3 kings against 1 king
//        once the forcada count has started (dtr holds the values before it starts), where the
//        king-move count has at least the forcada's plies left.
//   dtr-forcada-gaps (portuguese 3 kings against 1 king): the same once the forcada has started
//        with the king-move count g plies behind the forcada's (g = 1..forcada_gaps): a capture
//        restarts the king-move count and the forcada's runs on, so the value depends on g. The
//        file holds forcada_gaps tables of the class's size, one after the other, gap 1 first
//        (table_positions); the distance is compared with the king-move count's plies left.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <string_view>

#include "rules/variant.hpp"

namespace damas {

enum class Metric : std::uint8_t { wdl, dtw, dtr, dtr_fmjd, dtr_forcada, dtr_forcada_gaps, mtc };
inline constexpr int metric_count = 7;
// "wdl", "dtw", "dtr", "dtr-fmjd", "dtr-forcada", "dtr-forcada-gaps", "mtc": also the file
// extension.
const char* metric_name(Metric m);
// The distance a pure table set holds beside its wdl values: dtw or mtc.
constexpr bool is_distance(Metric m) {
    return m == Metric::dtw || m == Metric::mtc;
}
constexpr bool is_dtr(Metric m) {
    return m == Metric::dtr || m == Metric::dtr_fmjd || m == Metric::dtr_forcada ||
           m == Metric::dtr_forcada_gaps;
}
// The gaps a dtr-forcada-gaps file holds: the forcada's 24 plies with at least one king-move
// ply left.
inline constexpr int forcada_gaps = 23;
// The positions of a class's table of metric m: the class's, or forcada_gaps times as many.
constexpr std::uint64_t table_positions(Metric m, std::uint64_t class_positions) {
    return m == Metric::dtr_forcada_gaps ? class_positions * forcada_gaps : class_positions;
}

inline constexpr std::uint8_t wdl_loss = 0;
inline constexpr std::uint8_t wdl_draw = 1;
inline constexpr std::uint8_t wdl_win = 2;
inline constexpr std::uint8_t wdl_unknown = 3;

inline constexpr std::uint16_t dtw_unknown = 0xFFFF;
inline constexpr std::uint16_t dtw_draw = 0xFFFE;
inline constexpr std::uint16_t dtw_max = 0xFFFD;  // largest distance a file can hold

// The wdl value a dtw value stands for (wdl_unknown for dtw_unknown).
constexpr std::uint8_t dtw_outcome(std::uint16_t dtw, bool giveaway) {
    if (dtw == dtw_unknown) return wdl_unknown;
    if (dtw == dtw_draw) return wdl_draw;
    const bool mover_ends = dtw % 2 == 0;  // the side to move now is the one without moves
    return mover_ends != giveaway ? wdl_loss : wdl_win;
}

// dtr values (see the top of this file).
inline constexpr std::uint16_t dtr_none = 0xFFFE;
inline constexpr std::uint16_t dtr_max_distance = 0x7FFE;
constexpr std::uint16_t dtr_encode(bool win, int distance) {
    return static_cast<std::uint16_t>((distance << 1) | (win ? 1 : 0));
}
constexpr std::uint8_t dtr_outcome(std::uint16_t dtr) {
    if (dtr == dtw_unknown) return wdl_unknown;
    if (dtr == dtr_none) return wdl_draw;
    return (dtr & 1) ? wdl_win : wdl_loss;
}
constexpr int dtr_distance(std::uint16_t dtr) {
    return dtr >> 1;
}

// mtc values (see the top of this file): coded as dtr's.
inline constexpr std::uint16_t mtc_draw = dtr_none;
inline constexpr std::uint16_t mtc_max_distance = dtr_max_distance;
constexpr std::uint16_t mtc_encode(bool win, int distance) {
    return dtr_encode(win, distance);
}
constexpr std::uint8_t mtc_outcome(std::uint16_t mtc) {
    return dtr_outcome(mtc);
}
constexpr int mtc_distance(std::uint16_t mtc) {
    return dtr_distance(mtc);
}

namespace format {
inline constexpr std::array<char, 8> magic{'D', 'A', 'M', 'A', 'S', 'T', 'B', '1'};
// 2: the layout field (mirror layout). 3: the codec, half and model fields. 4: the rules
// version of dtr files. 5: the mtc fold field. Readers accept 1 to 5; the writer writes 5 for a
// folded mtc file, 4 for dtr files, 3 for a file that uses the codec fields, else 2, so older
// readers still read the pure tables.
inline constexpr std::uint32_t version = 5;
// The most distances one symbol may fold (the readers' search grows with it).
inline constexpr int max_mtc_fold = 8;
// The readings of the draw rules (limits/draw_rules.hpp) the dtr values follow. 1 (dtr files of
// format versions 1 to 3): brazilian's 5-move endings one row, the forcada ending with the lone
// king's capture. 2 (issue 20, docs/rules.md): five brazilian rows; the forcada count runs to
// the end of the game. A reader refuses dtr files of another rules version, naming the command
// that makes them again (rules_version_hint).
inline constexpr std::uint16_t rules_version = 2;
inline constexpr const char* rules_version_hint =
    "make the rule tables again with `damas gen-rules`";
inline constexpr std::uint32_t oldest_version = 1;
inline constexpr std::size_t header_size = 256;
inline constexpr std::size_t variant_name_size = 32;
inline constexpr std::size_t generator_size = 64;
// Positions per block: 16 KiB of decompressed values for both metrics, so one cache slot size
// fits both. Measured on synthetic 2+2 data (bench_probe_file, zstd 15): wdl blocks of 4, 8, 16
// and 32 KiB give 0.286, 0.250, 0.235, 0.226 bits per position and cost about 12, 17, 28 and
// 55 us to read and decompress; 16 KiB is the knee.
inline constexpr std::uint32_t wdl_positions_per_block = 64 * 1024;
inline constexpr std::uint32_t dtw_positions_per_block = 8 * 1024;
// No file may have larger decompressed blocks (protects readers from absurd headers).
inline constexpr std::size_t max_block_bytes = 1 << 20;
inline constexpr std::uint64_t max_positions = std::uint64_t{1} << 56;
// zstd levels (fixed; single-threaded compression, so the bytes are deterministic). Compression
// was a third of the generator's time at wdl 15 / dtw 12; wdl level 12 is about 10% larger than
// level 19 at 26 M positions/s per thread. dtw level 9 still took a fifth of the generator's
// time (brazilian 2-5); on brazilian 1112 level 4 is 8% larger than level 9 and about 9 times
// faster (16 KiB blocks, zstd -b): x10.7 at 120 MB/s against x11.7 at 14 MB/s.
inline constexpr int wdl_zstd_level = 12;
inline constexpr int dtw_zstd_level = 4;
// dtw level 4's search, made cheaper: for 16 KiB blocks zstd picks a lazy search at level 4. A
// greedy one with these tables compresses english 2211's distances 1.75 times faster for 0.7%
// more bytes (single thread, 8192 positions per block: 2.95 s and 48.74 MB against 1.68 s and
// 49.09 MB).
struct ZstdSearch {
    int strategy, hash_log, chain_log, search_log, min_match;
};
inline constexpr ZstdSearch dtw_zstd_search{3 /* ZSTD_greedy */, 15, 16, 1, 6};

constexpr std::uint32_t bits_per_value(Metric m) {
    return m == Metric::wdl ? 2 : 16;
}
constexpr std::uint32_t default_positions_per_block(Metric m) {
    return m == Metric::wdl ? wdl_positions_per_block : dtw_positions_per_block;
}
// Decompressed bytes of a block holding n positions.
constexpr std::size_t block_bytes(Metric m, std::uint64_t n) {
    return static_cast<std::size_t>(m == Metric::wdl ? (n + 3) / 4 : 2 * n);
}
constexpr std::uint64_t table_bytes(std::uint64_t blocks) {
    return 8 * (2 * blocks + 1);
}
}  // namespace format

enum class Layout : std::uint32_t {
    stored = 0,  // the values are in the blocks
    mirror = 1,  // wdl and mtc: no values; they are one ply away in the mirror class (see above)
};

// The header's codec byte: which codec (table/codec.hpp) codes the blocks.
enum class Codec : std::uint8_t {
    zstd = 0,
    context = 1,
    context_mix = 2,
    zstd_planes = 3,
    mtc_context = 4,
    mtc_wdl = 5
};
// The codec the generator writes a metric's tables with unless asked otherwise: zstd for wdl
// (the large classes' codec is then chosen by estimates, gen/write/wdl_policy.hpp), mtc-wdl
// for mtc (table/codecs/mtc_context.hpp), zstd-planes for the other 16-bit tables
// (table/codecs/zstd_codec.cpp says why).
constexpr Codec default_codec(Metric m) {
    return m == Metric::wdl ? Codec::zstd : m == Metric::mtc ? Codec::mtc_wdl : Codec::zstd_planes;
}

// Every field of the header. Counts of the four piece kinds in the order white men, white
// kings, black men, black kings.
struct TableHeader {
    Variant variant;
    std::array<std::uint8_t, 4> material{};
    Metric metric = Metric::wdl;
    std::string generator;
    std::uint32_t positions_per_block = 0;
    Layout layout = Layout::stored;
    Codec codec = Codec::zstd;
    bool half = false;                // the odd positions are not stored (half layout)
    std::uint16_t rules_version = 0;  // dtr metrics: format::rules_version
    std::uint8_t mtc_fold = 0;        // mtc: distances 1 to mtc_fold are stored as 1 (0: none)
    std::uint32_t model_size = 0;
    std::uint64_t model_checksum = 0;
    std::uint64_t positions = 0;  // N
    std::uint64_t blocks = 0;
    std::uint64_t wins = 0, draws = 0, losses = 0, unknown = 0;
    std::uint64_t table_offset = 0;
    std::uint64_t blocks_offset = 0;
    std::uint64_t file_size = 0;
    std::uint64_t table_checksum = 0;
    std::uint64_t blocks_checksum = 0;
};

using HeaderBytes = std::array<std::byte, format::header_size>;

// Serialises h, computing the header checksum. Throws Error if a text field is too long.
HeaderBytes encode_header(const TableHeader& h);
// Parses and validates (magic, version, checksum, consistency of the sizes). Throws Error with
// a message naming the problem; `what` (usually the path) prefixes it.
TableHeader decode_header(std::span<const std::byte, format::header_size> bytes,
                          std::string_view what);

// <dir>/<variant name>/<material>.<wdl|dtw>, e.g. db/english/0201.wdl
std::filesystem::path table_path(const std::filesystem::path& dir, Variant variant,
                                 std::string_view material, Metric metric);

}  // namespace damas
