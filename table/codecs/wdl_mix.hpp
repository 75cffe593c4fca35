// The mixed context model for wdl blocks (format.hpp, codec 2, "context-mix"): several context
// models whose predictions are mixed, adapting within a block; the successor of the static
// model of table/codecs/wdl_context.hpp (codec 1, still read), 10-30% smaller on english 7-piece
// classes for about five times its decoding time.
//
// Owns: the model's parts, its bytes, and the coding of one block in both directions. It shares
// with the static model the positions coded (wdl_context::PositionFlags, features included),
// the symbols (0..2 coded, 3 skipped or before the block) and the range coder
// (table/codecs/range_coder.hpp); table/codecs/context_codec.cpp puts it behind the codec seam.
//
// Why: no single change to the static model (adaptive probabilities, larger blocks, the opponent's
// captures counted, more features, further distances) takes more than a few percent off the
// largest english 7-piece classes; mixing several adaptive models does, 10-30% against codec 1
// (bench/wdl_models measures each candidate; the figures are in docs/performance.md). The parts
// are kept small (model_shape: 20-110 KB of model) so that their states stay in the caches.
// Decoding a block takes a few times as long as codec 1's; 64 Ki blocks would save 2-4% more, at
// twice the time a probe's cache miss costs.
//
// Coding: each coded position's value v is the same two binary decisions as the static model's
// ("v != draw", then "v == win"). For decision j of a position, each part q gives the
// probability p_q of its context's state (16 bits; at the block's start the model's static
// probability, times 16), the mixer takes the weights w of (j, threat flag) and gives
//   p = squash(sum_q w_q * stretch(p_q >> 4) >> 16), clamped to 1..4095,
// the bit is coded with p, and then, with err = (bit << 12) - p,
//   w_q += stretch(p_q >> 4) * err * rate >> 16   (kept within +-2^24),
//   p_q += ((bit ? 65535 : 0) - p_q) >> shift.
// squash and stretch are lpaq1's (integers: logits scaled by 256, probabilities by 4096).
// A part's context is its distances' symbols as base-4 digits (the first distance the lowest),
// then its feature flags' bits, from the lowest flag up.
//
// Model bytes (in the file after the offset table): u8 part count P (1..max_parts), u8 shift
// (1..15), u16 rate; P times: u8 distance count K (1..8), u8 feature flags (a subset of
// wdl_context's threat and mixed-model features), u16 0, K u32 distances; 4 P i32 initial
// weights (decision j, threat t: at (2 j + t) P); then one zstd frame of the probabilities,
// part after part: u16 first[C], u16 second[C] (1..4095, 12 bits), C the part's contexts.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "index/material.hpp"
#include "rules/geometry.hpp"
#include "table/codecs/wdl_context.hpp"

namespace damas::wdl_mix {

inline constexpr std::size_t max_parts = 6;
// A corrupt model cannot ask for more memory than this many contexts in all.
inline constexpr std::size_t max_contexts = std::size_t{1} << 22;
// The feature flags a part may use.
inline constexpr std::uint8_t all_features =
    wdl_context::threat | wdl_context::threats | wdl_context::few_moves | wdl_context::many_moves |
    wdl_context::can_crown | wdl_context::opponent_can_crown;

struct Part {
    std::vector<std::uint32_t> distances;
    std::uint8_t features = wdl_context::threat;
    std::vector<std::uint16_t> first, second;  // by context, 12-bit

    std::size_t contexts() const;
};

struct Model {
    std::vector<Part> parts;
    int shift = 5;
    std::uint16_t rate = 41;
    std::vector<std::int32_t> weights;  // 4 * parts.size()
    // By state (part after part; context c's decision j at 2 c + j): the static probability.
    std::vector<std::uint16_t> initial;

    std::size_t states() const;  // 2 * the parts' contexts
    void index_states();         // initial, from the parts' probabilities
};

// The model's shape for class m of board `board`: its parts and the initial weights (each
// 1 / P), the probabilities left empty.
Model model_shape(const BoardSpec& board, Material m);

// Counts of coded values by part, then context.
struct Counts {
    std::vector<wdl_context::Counts> by_part;
    explicit Counts(const Model& shape);
    void add(const Counts& o);
};
void count_block(const Model& shape, std::span<const std::uint8_t> values,
                 std::span<const std::uint8_t> flags, Counts& out);
// The static probabilities of counts (Krichevsky-Trofimov estimates, clamped to 1..4095).
void set_probabilities(Model& m, const Counts& counts);

std::vector<std::byte> serialize(const Model& m);
// Throws Error (with `what` in the message) on malformed bytes.
Model parse(std::span<const std::byte> bytes, const std::string& what);

// One thread's working state: the parts' adapting probabilities (16 bits), each with the
// stamp of the block that last set it (16 bits), so a block starts without touching them all.
class Workspace {
  public:
    // Starts a block of model m: every state reads m's static probability until it adapts.
    void start(const Model& m);
    // State s's probability, set to initial << 4 if it is not this block's yet.
    std::uint32_t probability(std::size_t s, std::uint16_t initial) {
        if ((states_[s] >> 16) != block_)
            states_[s] = (block_ << 16) | (std::uint32_t{initial} << 4);
        return states_[s] & 0xFFFF;
    }
    void set(std::size_t s, std::uint32_t p) { states_[s] = (block_ << 16) | p; }
    std::vector<std::int32_t> weights;
    std::vector<std::uint8_t> symbols;

  private:
    std::vector<std::uint32_t> states_;
    std::uint32_t block_ = 0;  // 1..65535
};

// Encodes one block's values (0..2 where not skipped) into out (replaced).
void encode_block(const Model& m, std::span<const std::uint8_t> values,
                  std::span<const std::uint8_t> flags, std::vector<std::byte>& out, Workspace& w);
// Decodes as wdl_context::decode_block does (the same contract).
bool decode_block(const Model& m, std::span<const std::byte> in,
                  std::span<const std::uint8_t> flags, std::span<std::byte> out, Workspace& w);

}  // namespace damas::wdl_mix
