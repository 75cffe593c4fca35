// The context codec for wdl blocks (format.hpp, codec 1): a static context model and a binary
// range coder, for the large classes where it beats zstd by a third or more.
//
// Owns: which positions a block codes, the contexts, the model's bytes, and the coding of one
// block in both directions. The writer (gen/write/writer) and the reader (table/table_file) reach
// it through the codec seam (table/codec.hpp; table/codecs/context_codec.cpp), which builds the
// model, encodes and decodes with these functions; both compute a position's flags the same way
// (PositionFlags).
//
// Why it compresses better than zstd on the same values: it never codes a position the probe
// never reads (the side to move must capture, which the decoder tells from the position, as it
// does for the odd half of a class stored as a half; see format.hpp), and it predicts each value
// from values already decoded at fixed index distances. The index (index/class_index.hpp) walks
// the innermost king over the free squares, so distances 1, 3 and 4 are that king a square or a
// row away; S (the number of placements of the innermost colour's kings) and 4S move the next
// king over, and K (kings_per_men) is the same kings with the previous men configuration.
// Whether the opponent threatens a capture is part of the context too. Measured on english
// 2112 (109 M positions): zstd 6.17 MB; distances 1,3,4,5,S,4S in 16 Ki-position blocks
// 4.28 MB; 1,3,4,S,4S,K in 32 Ki blocks 3.84 MB (64 Ki: 3.70 MB, but twice the decoding time).
// Its successor, the mixed model of table/codecs/wdl_mix.hpp (codec 2), mixes four such models with
// more features and adapts within a block: 10-20% smaller on english 7-piece classes, at a few
// times the decoding time; this one is still read (older files) and written where asked.
//
// Block coding: positions in index order. A position that is skipped (flags bit 0) codes
// nothing and decodes as 3 (unknown). Any other codes its value v (0 loss, 1 draw, 2 win) as
// two binary decisions: "v != draw" with the context's first probability, then, if so,
// "v == win" with its second. The context is the symbols (0..2, or 3 for a skipped position or
// one before the block's start) at the model's distances as base-4 digits, times 2 plus
// the threat flag (flags bit 1) when the model uses it; the first distance is the lowest digit.
// Probabilities are 12-bit (1..4095 out of 4096) chances of a 1. The range coder is the
// carry-propagating kind (32-bit range, 8-bit output); a block's bytes are the coder's output, 5
// bytes of flush included.
//
// Model bytes (in the file after the offset table): u8 distance count K (1..8), u8 uses threat
// (0/1), u16 0, K u32 distances, then one zstd frame of the probabilities: u16 first[C], u16
// second[C], C = 4^K * (threat ? 2 : 1).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "index/material.hpp"
#include "rules/variant.hpp"

namespace damas::wdl_context {

inline constexpr std::uint32_t positions_per_block = 32 * 1024;
inline constexpr std::uint32_t max_positions_per_block = 64 * 1024;
inline constexpr int max_distances = 8;
inline constexpr int probability_bits = 12;

// Per position flags (PositionFlags).
inline constexpr std::uint8_t skipped = 1;  // the value is not coded (decodes as 3)
inline constexpr std::uint8_t threat = 2;   // the opponent could capture if it were to move
// The features of the mixed model (table/codecs/wdl_mix.hpp) only, of positions not skipped.
inline constexpr std::uint8_t threats = 4;              // the opponent would have 2+ captures
inline constexpr std::uint8_t few_moves = 8;            // the side to move has at most 2 moves
inline constexpr std::uint8_t many_moves = 16;          // the side to move has 7 moves or more
inline constexpr std::uint8_t can_crown = 32;           // the side to move can crown a man
inline constexpr std::uint8_t opponent_can_crown = 64;  // no threat, and the opponent could crown

struct Model {
    std::vector<std::uint32_t> distances;
    bool uses_threat = true;
    std::vector<std::uint16_t> first, second;  // by context

    std::size_t contexts() const {
        return (std::size_t{1} << (2 * distances.size())) * (uses_threat ? 2 : 1);
    }
};

// The model's shape for class m of board `board`: distances 1, 3, 4, S, 4S and K, and the
// threat flag. Its probabilities are left empty.
Model model_shape(const BoardSpec& board, Material m);

// Counts of coded values by context, to build the probabilities from.
struct Counts {
    std::vector<std::array<std::uint64_t, 3>> by_context;
    explicit Counts(std::size_t contexts) : by_context(contexts, {0, 0, 0}) {}
    void add(const Counts& o);
};
// Counts one block's values (values[i] for position first + i; flags likewise).
void count_block(const Model& shape, std::span<const std::uint8_t> values,
                 std::span<const std::uint8_t> flags, Counts& out);
// The probabilities of counts (Krichevsky-Trofimov estimates, clamped to 1..4095).
void set_probabilities(Model& m, const Counts& counts);
// The same for any model's pair of tables (wdl_mix's parts too): first and second by context.
void probabilities_of(const Counts& counts, std::vector<std::uint16_t>& first,
                      std::vector<std::uint16_t>& second);

// The probability tables' bytes in a model: appended to out as one zstd frame, and read back
// into exactly table.size() bytes (false if the frame is bad or of another size).
void append_compressed(std::vector<std::byte>& out, std::span<const std::byte> table);
bool decompress_exactly(std::span<const std::byte> packed, std::span<std::byte> table);

std::vector<std::byte> serialize(const Model& m);
// Throws Error (with `what` in the message) on malformed bytes.
Model parse(std::span<const std::byte> bytes, const std::string& what);

// Encodes one block's values (0..2 where not skipped) into out (replaced).
void encode_block(const Model& m, std::span<const std::uint8_t> values,
                  std::span<const std::uint8_t> flags, std::vector<std::byte>& out);
// The largest encoded size of a block of n positions (a corrupt offset table is caught by it).
constexpr std::size_t max_encoded_bytes(std::size_t n) {
    return 3 * n + 16;
}
// Decodes a block of flags.size() positions into the wdl block bytes (format.hpp: 2 bits per
// position; skipped positions hold 3). out.size() must be (n + 3) / 4. Returns false if the
// bytes run out early or decode to an impossible value (corrupt input); never reads past `in`.
bool decode_block(const Model& m, std::span<const std::byte> in,
                  std::span<const std::uint8_t> flags, std::span<std::byte> out);

// Computes the flags of consecutive positions of one class, by walking its index: without the
// features, in a class with kings, a run of positions where one king alone moves at once
// (ClassIndex::for_each_king_run, MoveGenerator::capture_squares_with_king), else position by
// position.
class PositionFlags {
  public:
    virtual ~PositionFlags() = default;
    // Flags of positions [first, first + out.size()).
    virtual void compute(std::uint64_t first, std::span<std::uint8_t> out) const = 0;
};
// skip_odd: also skip the positions whose rows (counted from White's side, 0-based) add up to
// an odd number (the half layout; only where odd_half_allowed). features: also the mixed
// model's features (a little dearer: the side to move's moves are counted).
std::unique_ptr<PositionFlags> make_position_flags(Variant v, Material m, bool skip_odd,
                                                   bool features = false);

// Whether a class of v may skip its odd half: every quiet move changes the row sum's parity by
// one (kings move one square, men only forward), and the colour flip keeps it for a class that
// is its own mirror (an even number of pieces on an even number of rows).
bool odd_half_allowed(Variant v, Material m);

}  // namespace damas::wdl_context
