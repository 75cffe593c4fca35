// The context codec of mtc blocks (format.hpp, codec 4, "mtc-context"): adaptive binary contexts
// and the range coder of table/codecs/range_coder.hpp, one block at a time, no model in the file.
//
// Owns: the binarisation of an mtc value, its contexts, and the coding of one block in both
// directions. The writer and the reader reach it through the codec seam (table/codec.hpp;
// table/codecs/mtc_codec.cpp).
//
// Why: an mtc file's values are few and small (english 2-5: 57% of the wins and losses read are
// 1 ply from their conversion, 29% 2 plies, 96% at most 20), and the value of a position is
// nearly the value of its neighbours in index order (the innermost king a square away) and
// S positions away (the next king moved; wdl_context::model_shape's S). zstd codes a byte at a
// time and sees neither; a binary coder with these two neighbours as context codes english 2-5
// in about half zstd-planes' bytes (docs/performance.md, "MTC against DTW"; bench/mtc_codecs).
//
// Block coding: positions in index order. A position where the side to move must capture (the
// probe never reads it; wdl_context's skipped flag, which the decoder computes from the position
// as the wdl context codec does) codes nothing and decodes as dtw_unknown: coding them as a
// value instead took 1.45 times the bytes. Any other codes its value (u16, format.hpp) as binary
// decisions:
//   draw: value == mtc_draw;
//   if not: win: value & 1;
//   then the distance d = value >> 1 in unary, "d > t" for t = 0, 1, ... up to t = 11, and a
//   d of 12 or more as an Elias-gamma code of d - 11 (the number of bits after the first in
//   unary, "another bit", then those bits, a probability each by position).
// Given the wdl values (the mtc-wdl codec, codec 5: the decoder reads them from the class's wdl
// file), a position whose wdl value is known codes neither decision: a draw codes nothing, a win
// or a loss its distance alone; where the wdl file does not tell (wdl_unknown) the value codes
// as above. In international most positions are draws (17.5 M of the 28.8 M read in 2-4), and
// what mtc-context spends there is nearly all the wdl value again (docs/format.md).
// Contexts: the categories of the left neighbour (i - 1) and of the S-th neighbour (i - S), not
// read (before the block's start, or skipped), draw, win at distance 1, 2, 3 or more, loss at
// distance 0-1, 2, 3 or more: 8 each, 64 together. draw and win take the pair's
// probability; each unary step t of d takes (left category, win, threat, t) and (S category, win,
// threat, t) averaged, threat being wdl_context's flag (the opponent could capture if it were to
// move: 0.96 of the bytes without it; in the draw and win decisions it cost 1%). Probabilities:
// 16-bit chances of a 1, starting at one half, moved an 8th of the way towards each coded bit (the
// coder takes their top 12 bits, clamped to 1..4095). Values that no mtc table holds (a distance
// beyond mtc_max_distance, dtw_unknown where the position is not skipped: 0x7FFF << 1 | 1) still
// code, so any u16 block does. A block's bytes are the range coder's output, 5 bytes of flush
// included.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace damas::mtc_context {

// Positions per block: 16 KiB of decoded values, one block cache slot (as dtw's blocks).
inline constexpr std::uint32_t positions_per_block = 8 * 1024;
inline constexpr std::uint32_t max_positions_per_block = 64 * 1024;

// The shape of a file's contexts: the distance of the second neighbour (S, at least 1), and how
// the probabilities adapt: 0, a fixed 1/8 of the way (mtc-context), or L, 1 / (bits seen + 2)
// of the way but at least 1 / L (mtc-wdl: adapt_given_wdl).
struct Shape {
    std::uint32_t second = 1;
    std::uint32_t adapt = 0;
};
inline constexpr std::uint32_t adapt_given_wdl = 16;

// The wdl value mtc value x stands for (wdl_unknown for dtw_unknown).
std::uint8_t wdl_of(std::uint16_t x);
// Encodes one block's values into out (replaced): those of the positions not skipped
// (wdl_context's flags of the same positions: bits wdl_context::skipped and threat). `wdl`: the
// wdl values the decoder will know of the same positions (mtc-wdl: its class's wdl file), or
// empty (mtc-context: none). Throws Error where a value is not the wdl value known.
void encode_block(const Shape& shape, std::span<const std::uint16_t> values,
                  std::span<const std::uint8_t> flags, std::span<const std::uint8_t> wdl,
                  std::vector<std::byte>& out);
// The largest encoded size of a block of n positions (a corrupt offset table is caught by it):
// a value costs at most 50 decisions at probability 1/4096 or more.
constexpr std::size_t max_encoded_bytes(std::size_t n) {
    return 80 * n + 16;
}
// Decodes a block of flags.size() positions into out (its decoded bytes: u16 little-endian,
// 2 * n bytes; a skipped position dtw_unknown), knowing the wdl values `wdl` (as encode_block's).
// False if the bytes run out before the coder's flush or decode a distance beyond 0x7FFF
// (corrupt input); never reads past `in`.
bool decode_block(const Shape& shape, std::span<const std::byte> in,
                  std::span<const std::uint8_t> flags, std::span<const std::uint8_t> wdl,
                  std::span<std::byte> out);

}  // namespace damas::mtc_context
