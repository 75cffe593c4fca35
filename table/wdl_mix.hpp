// The mixed context model for wdl blocks (format.hpp, codec 2, "context-mix"): several context
// models whose predictions are mixed, adapting within a block; the successor of the static
// model of table/wdl_context.hpp (codec 1, still read), 10-30% smaller on english 7-piece
// classes for about five times its decoding time.
//
// Owns: the model's parts, its bytes, and the coding of one block in both directions. It shares
// with the static model the positions coded (wdl_context::PositionFlags, features included),
// the symbols (0..2 coded, 3 skipped or before the block) and the range coder
// (table/range_coder.hpp); table/context_codec.cpp puts it behind the codec seam.
//
// Why: measured with bench/wdl_models on the largest english 7-piece classes (every 16th pair
// of blocks; bytes of the blocks, MB, the model aside), against the static model (codec 1):
//   class  static  64Ki  adapt.4  adapt.5+64Ki  +threats  +features  +feat.adapt.5  mix  mix64Ki
//   3112   21.10  20.30   19.95      19.20        20.14      19.50       18.65     17.39  16.74
//   2212   19.29  18.79   18.07      17.44        16.89      16.44       15.32     14.28  14.00
//   2203   14.64  14.23   12.69      12.55        13.59      13.28       11.86     10.93  10.66
//   0331   12.47  12.37   11.89      11.73        12.33      12.15       11.63     11.02  10.88
//   1240    8.36   8.28    8.03       7.99         8.31       7.91        7.68      7.31   7.25
// (adaptive: the static probabilities adapting with that shift; +threats: the opponent's
// captures counted, 1 or more; +features: all five features; a further distance, 2, 5, S+1,
// 2S or 2K, took 1-2% each.) No one change reaches the 14% the 120 MB asks; mixing does.
// The mix measured there had larger parts (7 distances, or 6 and every feature: 310 KB of model
// on 2112, and its states spilled out of the caches); model_shape's parts keep the model at 20-110
// KB and cost 1-4% of those gains. As written (every 32nd pair of blocks, model included; the
// static model fitted the same way): 3112 21.11 -> 18.00 MB, 2212 19.21 -> 14.73, 2203 14.71 ->
// 11.22, 0331 12.32 -> 11.19, 1240 8.25 -> 7.49, 3121 7.98 -> 6.76, 1312 8.01 -> 5.81, 2221 7.49
// -> 6.07, 1303 5.36 -> 3.70; english 2-7's WDL, 139.4 MB with codec 1, is projected at about
// 118 MB. Decoding a block takes about 1.7-2.4 ms against 0.25-0.4 ms for codec 1 (the flags of
// the positions aside; a loaded host). 64 Ki blocks would save 2-4% more, at twice the time a
// probe's cache miss costs.
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
#include "table/wdl_context.hpp"

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
