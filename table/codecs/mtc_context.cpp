#include "table/codecs/mtc_context.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cstring>

#include "rules/error.hpp"
#include "table/bytes.hpp"
#include "table/codecs/range_coder.hpp"
#include "table/codecs/wdl_context.hpp"
#include "table/format.hpp"

namespace damas::mtc_context {
namespace {

constexpr int categories = 8;
constexpr int unary_steps = 12;  // d = 0..11 in unary; 12 or more: "more", then Elias gamma
constexpr int gamma_lengths = 15;

// A neighbour's category (see the header): 0 not read, 1 draw, 2-4 win at 1, 2, 3+, 5-7 loss at
// 0-1, 2, 3+.
int category(std::uint16_t x) {
    if (x == dtw_unknown) return 0;
    if (x == mtc_draw) return 1;
    const int d = std::min(3, std::max(1, mtc_distance(x)));
    return (x & 1 ? 1 : 4) + d;
}

// One adaptive probability: a 16-bit chance of a 1 and how many bits it has seen (up to 255).
struct Probability {
    std::uint16_t p = 0x8000;
    std::uint8_t seen = 0;
};

// The adaptive probabilities of one block, and how they adapt (Shape::adapt).
struct Contexts {
    std::array<Probability, categories * categories> draw, win;
    // By (category, win, threat, step).
    std::array<Probability, categories * 4 * unary_steps> by_left, by_second;
    std::array<Probability, gamma_lengths + 1> gamma_length;
    std::array<Probability, gamma_lengths> gamma_bit;
    std::uint32_t adapt = 0;
    explicit Contexts(std::uint32_t a) : adapt(a) {}
};

std::uint16_t coder_probability(unsigned p16) {
    return static_cast<std::uint16_t>(std::clamp(p16 >> 4, 1u, 4095u));
}
// How fast a probability moves. adapt 0 (mtc-context): 1 / 2^shift of the way; measured on
// english 2-5's three largest mtc files: 0.675 of zstd-planes' bytes at 3, 0.697 at 4, 0.755 at
// 5. adapt L (mtc-wdl): 1 / (seen + 2) of the way, at least 1 / L: the first bits of a context
// count as much as a frequency count, then it follows the block as the fixed rate does.
constexpr int shift = 3;
void update(Probability& q, bool bit, std::uint32_t adapt) {
    if (adapt == 0) {
        if (bit)
            q.p = static_cast<std::uint16_t>(q.p + ((0x10000u - q.p) >> shift));
        else
            q.p = static_cast<std::uint16_t>(q.p - (q.p >> shift));
        return;
    }
    const int divisor = static_cast<int>(std::min<std::uint32_t>(q.seen + 2u, adapt));
    const int target = bit ? 0xFFFF : 0;
    q.p = static_cast<std::uint16_t>(q.p + (target - q.p) / divisor);
    if (q.seen < 255) ++q.seen;
}

// The encoder and the decoder behind one interface: bit(b, p) codes b (the encoder) or returns
// the bit decoded (the decoder, which ignores b), with chance p of a 1 out of 4096.
struct Encoding {
    range_coder::Encoder coder;
    bool bit(bool b, std::uint16_t p) {
        coder.encode(b, p);
        return b;
    }
};
struct Decoding {
    range_coder::Decoder coder;
    bool bit(bool, std::uint16_t p) { return coder.decode(p); }
};

template <class Coder>
bool code_bit(Coder& c, const Contexts& k, bool b, Probability& p) {
    const bool got = c.bit(b, coder_probability(p.p));
    update(p, got, k.adapt);
    return got;
}
template <class Coder>
bool code_bit(Coder& c, const Contexts& k, bool b, Probability& p, Probability& q) {
    const bool got = c.bit(b, coder_probability((unsigned{p.p} + q.p) / 2));
    update(p, got, k.adapt);
    update(q, got, k.adapt);
    return got;
}

// Codes value x (the encoder's; ignored by the decoder) of a position whose neighbours have
// categories left and second, whose flags say whether the opponent threatens a capture, and whose
// wdl value the decoder knows to be `known` (wdl_unknown: it does not, and the value codes its
// draw and win decisions; a draw known codes nothing); returns the value coded, or nothing
// (false) on a corrupt input.
template <class Coder>
bool code_value(Coder& c, Contexts& k, int left, int second, bool threat, std::uint8_t known,
                std::uint16_t x, std::uint16_t& out) {
    if (known == wdl_draw) return out = mtc_draw, true;
    bool win = known == wdl_win;
    if (known == wdl_unknown) {
        const int pair = left * categories + second;
        if (code_bit(c, k, x == mtc_draw, k.draw[pair])) return out = mtc_draw, true;
        win = code_bit(c, k, (x & 1) != 0, k.win[pair]);
    }
    const int d = x >> 1;
    int got = 0;
    const int kind = (win ? 2 : 0) + (threat ? 1 : 0);
    const int row_left = (left * 4 + kind) * unary_steps;
    const int row_second = (second * 4 + kind) * unary_steps;
    while (got < unary_steps &&
           code_bit(c, k, d > got, k.by_left[row_left + got], k.by_second[row_second + got]))
        ++got;
    if (got == unary_steps) {
        // d - 11 >= 1 in Elias gamma: its bits after the top one, their count in unary.
        const unsigned m = static_cast<unsigned>(d - (unary_steps - 1));
        const int length = std::bit_width(m) - 1;
        int n = 0;
        while (code_bit(c, k, n < length, k.gamma_length[n]))
            if (++n == gamma_lengths) return false;
        unsigned v = 1;
        for (int j = n - 1; j >= 0; --j)
            v = (v << 1) | (code_bit(c, k, ((m >> j) & 1) != 0, k.gamma_bit[j]) ? 1u : 0u);
        got = static_cast<int>(v) + unary_steps - 1;
        if (got > 0x7FFF) return false;
    }
    out = static_cast<std::uint16_t>((got << 1) | (win ? 1 : 0));
    return true;
}

}  // namespace

std::uint8_t wdl_of(std::uint16_t x) {
    if (x == dtw_unknown) return wdl_unknown;
    if (x == mtc_draw) return wdl_draw;
    return (x & 1) ? wdl_win : wdl_loss;
}

void encode_block(const Shape& shape, std::span<const std::uint16_t> values,
                  std::span<const std::uint8_t> flags, std::span<const std::uint8_t> wdl,
                  std::vector<std::byte>& out) {
    out.clear();
    Encoding e{range_coder::Encoder(out)};
    Contexts k(shape.adapt);
    // A skipped neighbour is "not read" whatever value the caller left there, as the decoder
    // sees it.
    const auto neighbour = [&](std::size_t j) {
        return (flags[j] & wdl_context::skipped) ? 0 : category(values[j]);
    };
    for (std::size_t i = 0; i < values.size(); ++i) {
        if (flags[i] & wdl_context::skipped) continue;
        const std::uint8_t known = wdl.empty() ? wdl_unknown : wdl[i];
        if (known != wdl_unknown && known != wdl_of(values[i]))
            throw Error("mtc value " + std::to_string(values[i]) + " of block position " +
                        std::to_string(i) + " against wdl value " + std::to_string(known));
        const int left = i >= 1 ? neighbour(i - 1) : 0;
        const int second = i >= shape.second ? neighbour(i - shape.second) : 0;
        std::uint16_t coded;
        code_value(e, k, left, second, (flags[i] & wdl_context::threat) != 0, known, values[i],
                   coded);
    }
    e.coder.finish();
}

bool decode_block(const Shape& shape, std::span<const std::byte> in,
                  std::span<const std::uint8_t> flags, std::span<const std::uint8_t> wdl,
                  std::span<std::byte> out) {
    const std::size_t n = flags.size();
    if (out.size() != 2 * n || shape.second == 0 || (!wdl.empty() && wdl.size() != n)) return false;
    thread_local std::vector<std::uint16_t> values;
    values.resize(n);
    Decoding d{range_coder::Decoder(in)};
    Contexts k(shape.adapt);
    for (std::size_t i = 0; i < n; ++i) {
        if (flags[i] & wdl_context::skipped) {
            values[i] = dtw_unknown;
            continue;
        }
        const int left = i >= 1 ? category(values[i - 1]) : 0;
        const int second = i >= shape.second ? category(values[i - shape.second]) : 0;
        const std::uint8_t known = wdl.empty() ? wdl_unknown : wdl[i];
        if (!code_value(d, k, left, second, (flags[i] & wdl_context::threat) != 0, known, 0,
                        values[i]))
            return false;
    }
    if (d.coder.overran()) return false;
    for (std::size_t i = 0; i < n; ++i) le::store<std::uint16_t>(&out[2 * i], values[i]);
    return true;
}

}  // namespace damas::mtc_context
