// The wdl layouts' policy: which layout and codec each class's wdl file gets. The one place of
// that choice: the generator (gen/run/generate.cpp) asks it, the writer (gen/write/writer.hpp) and
// the codecs (table/codec.hpp) carry it out, format.hpp describes the layouts.
//
// Why each choice:
// - Mirror layout: a class and its mirror hold the same information, so of a pair one wdl file
//   keeps the values and the other is a header alone (a probe there searches one ply): about
//   half the wdl bytes. The class whose file is smaller keeps them (the second on a tie).
// - Half layout: a class that is its own mirror has no partner to drop, but in a variant where
//   every quiet move changes the parity of the sum of the pieces' rows its odd positions are one
//   ply from even ones, so the file codes the even ones only. Only a codec that skips positions
//   can (the context codec).
// - Neither layout where a rule ends the game on the spot (turkish's king against a lone man):
//   readers take the missing values from the parity of the dtw file, which those positions do
//   not follow.
// - Codec: zstd unless asked otherwise, since its blocks decode in tens of microseconds (a context
//   block takes about a millisecond) and small classes are the ones probed most. A class of
//   large_class_positions or more (16 M; english 5-piece classes have at most 9.3 M) whose zstd
//   file would take context_min_zstd_bytes or more (the context model alone takes 15-30 KB) gets
//   the registered codec whose file is estimated smallest: the context codec is a third to two
//   thirds smaller there.
// - By estimate: for those large classes the codec and, in a pair with the mirror layout, the
//   class that keeps its values are chosen from estimates on every 16th block (within 1-2% of the
//   true sizes) instead of files written whole, which took a third of a pair's time. Smaller
//   pairs write both files whole and keep the smaller.
#pragma once

#include <cstdint>
#include <optional>

#include "gen/options.hpp"
#include "gen/write/writer.hpp"
#include "index/material.hpp"

namespace damas {

// Nor is another codec tried when zstd already takes less than this. Of the 13 such files of
// english 2-6 (20-110 M positions each, so skipping them saves much of the codec's writing time)
// the context codec was smaller for one, by 3 KB.
inline constexpr std::uint64_t context_min_zstd_bytes = 64 * 1024;
// Estimates encode every 16th block: within 1-2% of the true sizes (english 6-piece classes).
inline constexpr std::uint32_t estimate_stride = 16;

// A class's wdl file: its codec and whether it has the half layout.
struct WdlCoding {
    Codec codec = Codec::zstd;
    bool half = false;
};
struct WdlChoice {
    WdlCoding coding;
    std::uint64_t bytes = 0;  // estimated
};

// Whether one wdl file of the pair of m may have the mirror layout.
bool mirror_layout_allowed(const GenerateOptions& o, Material m);
// Whether the coding of a class of this many positions (and the class of its pair that keeps
// the values) is chosen from estimates.
bool choose_by_estimate(const GenerateOptions& o, std::uint64_t positions);
// The coding of class m when it is not chosen by estimate: the codec asked for (zstd when
// automatic), with the half layout where that codec and the class allow it.
WdlCoding asked_wdl_coding(const GenerateOptions& o, Material m);
// The coding estimated smallest for class m's values (read in passes).
WdlChoice estimated_wdl_coding(const GenerateOptions& o, Material m, std::uint64_t positions,
                               const WdlPasses& passes, const WriteOptions& wo);

}  // namespace damas
