#include "table/codecs/wdl_mix.hpp"

#include <algorithm>
#include <array>

#include "index/binomial.hpp"
#include "index/class_index.hpp"
#include "rules/error.hpp"
#include "rules/movegen.hpp"
#include "table/bytes.hpp"
#include "table/codecs/range_coder.hpp"

namespace damas::wdl_mix {
namespace {

using wdl_context::skipped;
using wdl_context::threat;

constexpr int one = 1 << range_coder::bits;

// lpaq1's squash: 4096 / (1 + e^-(d / 256)), by interpolation in a table of 33 points.
int squash(int d) {
    if (d > 2047) return 4095;
    if (d < -2047) return 1;
    static constexpr std::array<int, 33> t{1,    2,    3,    6,    10,   16,   27,   45,   73,
                                           120,  194,  310,  488,  747,  1101, 1546, 2047, 2549,
                                           2994, 3348, 3607, 3785, 3901, 3975, 4024, 4050, 4068,
                                           4079, 4085, 4089, 4092, 4093, 4094};
    const int w = d & 127;
    const int i = (d >> 7) + 16;
    return (t[static_cast<std::size_t>(i)] * (128 - w) + t[static_cast<std::size_t>(i + 1)] * w +
            64) >>
           7;
}

// Its inverse: the smallest d whose squash reaches p (lpaq1's table).
const std::array<std::int16_t, 4096>& stretch_table() {
    static const std::array<std::int16_t, 4096> table = [] {
        std::array<std::int16_t, 4096> t{};
        int pi = 0;
        for (int x = -2047; x <= 2047; ++x) {
            const int v = squash(x);
            for (int i = pi; i <= v; ++i)
                t[static_cast<std::size_t>(i)] = static_cast<std::int16_t>(x);
            pi = v + 1;
        }
        for (int i = pi; i < 4096; ++i) t[static_cast<std::size_t>(i)] = 2047;
        return t;
    }();
    return table;
}

const std::array<std::int16_t, 4095>& squash_table() {
    static const std::array<std::int16_t, 4095> table = [] {
        std::array<std::int16_t, 4095> t{};
        for (int d = -2047; d <= 2047; ++d)
            t[static_cast<std::size_t>(d + 2047)] = static_cast<std::int16_t>(squash(d));
        return t;
    }();
    return table;
}

std::size_t part_context(const Part& part, std::size_t i, std::uint8_t flags,
                         const std::uint8_t* symbols) {
    std::size_t c = 0;
    for (std::size_t k = part.distances.size(); k-- > 0;) {
        const std::uint32_t d = part.distances[k];
        c = c * 4 + (i >= d ? symbols[i - d] : 3u);
    }
    for (std::uint8_t bit = threat; bit != 0 && bit <= all_features;
         bit = static_cast<std::uint8_t>(bit << 1))
        if (part.features & bit) c = c * 2 + ((flags & bit) ? 1 : 0);
    return c;
}

// The coding of one block, the same for the encoder and the decoder: code(p) codes (or decodes)
// one decision with probability p of a 1 and returns the bit.
class Predictor {
  public:
    Predictor(const Model& m, Workspace& w)
        : m_(m), w_(w), parts_(m.parts.size()), stretch_(stretch_table()), squash_(squash_table()) {
        w_.start(m);
        std::size_t base = 0;
        for (std::size_t q = 0; q < parts_; ++q) {
            const Part& part = m.parts[q];
            bases_[q] = base;
            base += 2 * part.contexts();
            distance_count_[q] = part.distances.size();
            std::copy(part.distances.begin(), part.distances.end(), distances_[q].begin());
            for (unsigned f = 0; f < 128; ++f) {
                std::uint32_t code = 0, bits = 0;
                for (unsigned bit = threat; bit <= all_features; bit <<= 1)
                    if (part.features & bit) {
                        code = code * 2 + ((f & bit) ? 1 : 0);
                        ++bits;
                    }
                feature_code_[q][f] = static_cast<std::uint8_t>(code);
                feature_bits_[q] = bits;
            }
        }
    }
    // Position i's contexts (symbols of positions before i are known).
    void at(std::size_t i, std::uint8_t flags) {
        const std::uint8_t* symbols = w_.symbols.data();
        for (std::size_t q = 0; q < parts_; ++q) {
            std::size_t c = 0;
            for (std::size_t k = distance_count_[q]; k-- > 0;) {
                const std::uint32_t d = distances_[q][k];
                c = c * 4 + (i >= d ? symbols[i - d] : 3u);
            }
            c = (c << feature_bits_[q]) | feature_code_[q][flags & 127];
            states_[q] = bases_[q] + 2 * c;
        }
        threat_ = (flags & threat) ? 1 : 0;
    }
    // Decision j's bit, coded by code(p12) (which returns the bit).
    template <class Code>
    bool decide(int j, Code&& code) {
        std::int32_t* weights = &w_.weights[static_cast<std::size_t>(2 * j + threat_) * parts_];
        std::int64_t dot = 0;
        for (std::size_t q = 0; q < parts_; ++q) {
            const std::size_t s = states_[q] + static_cast<std::size_t>(j);
            probabilities_[q] = w_.probability(s, m_.initial[s]);
            inputs_[q] = stretch_[probabilities_[q] >> 4];
            dot += inputs_[q] * weights[q];
        }
        const int p = std::clamp<int>(squash_[static_cast<std::size_t>(
                                          std::clamp<std::int64_t>(dot >> 16, -2047, 2047) + 2047)],
                                      1, one - 1);
        const bool bit = code(static_cast<std::uint16_t>(p));
        const std::int64_t err = ((bit ? 1 : 0) << range_coder::bits) - p;
        const int target = bit ? 65535 : 0;
        for (std::size_t q = 0; q < parts_; ++q) {
            weights[q] = static_cast<std::int32_t>(
                std::clamp<std::int64_t>(weights[q] + ((inputs_[q] * err * m_.rate) >> 16),
                                         -(std::int64_t{1} << 24), std::int64_t{1} << 24));
            const int s = static_cast<int>(probabilities_[q]);
            w_.set(states_[q] + static_cast<std::size_t>(j),
                   static_cast<std::uint32_t>(s + ((target - s) >> m_.shift)));
        }
        return bit;
    }

  private:
    const Model& m_;
    Workspace& w_;
    std::size_t parts_;
    const std::array<std::int16_t, 4096>& stretch_;
    const std::array<std::int16_t, 4095>& squash_;
    std::array<std::size_t, max_parts> bases_{}, states_{}, distance_count_{};
    std::array<std::array<std::uint32_t, wdl_context::max_distances>, max_parts> distances_{};
    std::array<std::array<std::uint8_t, 128>, max_parts> feature_code_{};
    std::array<std::uint32_t, max_parts> feature_bits_{};
    std::array<std::uint32_t, max_parts> probabilities_{};
    std::array<std::int64_t, max_parts> inputs_{};
    int threat_ = 0;
};

}  // namespace

std::size_t Part::contexts() const {
    std::size_t n = std::size_t{1} << (2 * distances.size());
    for (std::uint8_t bit = threat; bit != 0 && bit <= all_features;
         bit = static_cast<std::uint8_t>(bit << 1))
        if (features & bit) n *= 2;
    return n;
}

void Model::index_states() {
    initial.clear();
    for (const Part& p : parts)
        for (std::size_t c = 0; c < p.contexts(); ++c) {
            initial.push_back(p.first[c]);
            initial.push_back(p.second[c]);
        }
}

std::size_t Model::states() const {
    std::size_t n = 0;
    for (const Part& p : parts) n += 2 * p.contexts();
    return n;
}

Model model_shape(const BoardSpec& board, Material m) {
    const ClassIndex index(board, m);
    const int free = make_tables(board).squares - m.men();
    const std::uint64_t k = index.kings_per_men();
    const std::uint64_t s = m.black_kings > 0 ? binomial(free - m.white_kings, m.black_kings) : k;
    const auto d = [](std::uint64_t x) {
        return static_cast<std::uint32_t>(std::min<std::uint64_t>(x, 1u << 30));
    };
    using namespace wdl_context;
    Model model;
    // The static model's contexts; nearer distances with every feature; nearby positions;
    // farther ones.
    model.parts.push_back({{1, 3, 4, d(s), d(4 * s), d(k)}, threat, {}, {}});
    model.parts.push_back({{1, 3, 4, d(s)}, all_features, {}, {}});
    model.parts.push_back({{1, 2, 3, 4, 5, d(s)}, threat | threats, {}, {}});
    model.parts.push_back(
        {{1, d(s + 1), d(2 * s), d(4 * s), d(k), d(2 * k)}, threat | many_moves, {}, {}});
    const auto np = static_cast<std::int32_t>(model.parts.size());
    model.weights.assign(4 * model.parts.size(), 65536 / np);
    return model;
}

Counts::Counts(const Model& shape) {
    for (const Part& p : shape.parts) by_part.emplace_back(p.contexts());
}

void Counts::add(const Counts& o) {
    for (std::size_t q = 0; q < by_part.size(); ++q) by_part[q].add(o.by_part[q]);
}

void count_block(const Model& shape, std::span<const std::uint8_t> values,
                 std::span<const std::uint8_t> flags, Counts& out) {
    thread_local std::vector<std::uint8_t> symbols;
    symbols.resize(values.size());
    for (std::size_t i = 0; i < values.size(); ++i)
        symbols[i] = (flags[i] & skipped) ? 3 : values[i];
    for (std::size_t i = 0; i < values.size(); ++i) {
        if (flags[i] & skipped) continue;
        for (std::size_t q = 0; q < shape.parts.size(); ++q)
            out.by_part[q]
                .by_context[part_context(shape.parts[q], i, flags[i], symbols.data())][values[i]]++;
    }
}

void set_probabilities(Model& m, const Counts& counts) {
    for (std::size_t q = 0; q < m.parts.size(); ++q)
        wdl_context::probabilities_of(counts.by_part[q], m.parts[q].first, m.parts[q].second);
    m.index_states();
}

std::vector<std::byte> serialize(const Model& m) {
    std::vector<std::byte> out(4);
    out[0] = static_cast<std::byte>(m.parts.size());
    out[1] = static_cast<std::byte>(m.shift);
    le::store<std::uint16_t>(&out[2], m.rate);
    std::vector<std::byte> table;
    for (const Part& part : m.parts) {
        const std::size_t at = out.size();
        out.resize(at + 4 + 4 * part.distances.size());
        out[at] = static_cast<std::byte>(part.distances.size());
        out[at + 1] = static_cast<std::byte>(part.features);
        for (std::size_t k = 0; k < part.distances.size(); ++k)
            le::store<std::uint32_t>(&out[at + 4 + 4 * k], part.distances[k]);
        const std::size_t n = part.contexts(), t = table.size();
        table.resize(t + 4 * n);
        for (std::size_t c = 0; c < n; ++c) {
            le::store<std::uint16_t>(&table[t + 2 * c], part.first[c]);
            le::store<std::uint16_t>(&table[t + 2 * (n + c)], part.second[c]);
        }
    }
    for (const std::int32_t w : m.weights) {
        const std::size_t at = out.size();
        out.resize(at + 4);
        le::store<std::uint32_t>(&out[at], static_cast<std::uint32_t>(w));
    }
    wdl_context::append_compressed(out, table);
    return out;
}

Model parse(std::span<const std::byte> bytes, const std::string& what) {
    const auto bad = [&](const char* why) {
        return Error(what + ": corrupt mixed context model (" + why + ")");
    };
    if (bytes.size() < 4) throw bad("too short");
    Model m;
    const auto parts = static_cast<std::size_t>(bytes[0]);
    m.shift = static_cast<int>(bytes[1]);
    m.rate = le::load<std::uint16_t>(&bytes[2]);
    if (parts < 1 || parts > max_parts || m.shift < 1 || m.shift > 15) throw bad("shape");
    std::size_t at = 4, contexts = 0;
    for (std::size_t q = 0; q < parts; ++q) {
        if (bytes.size() < at + 4) throw bad("too short");
        const auto k = static_cast<std::size_t>(bytes[at]);
        Part part;
        part.features = static_cast<std::uint8_t>(bytes[at + 1]);
        if (k < 1 || k > wdl_context::max_distances || (part.features & ~all_features) != 0 ||
            bytes[at + 2] != std::byte{0} || bytes[at + 3] != std::byte{0} ||
            bytes.size() < at + 4 + 4 * k)
            throw bad("part shape");
        for (std::size_t j = 0; j < k; ++j) {
            const auto d = le::load<std::uint32_t>(&bytes[at + 4 + 4 * j]);
            if (d == 0 || d > (1u << 30)) throw bad("distance");
            part.distances.push_back(d);
        }
        at += 4 + 4 * k;
        contexts += part.contexts();
        if (contexts > max_contexts) throw bad("too many contexts");
        m.parts.push_back(std::move(part));
    }
    if (bytes.size() < at + 16 * parts) throw bad("too short");
    for (std::size_t j = 0; j < 4 * parts; ++j) {
        const auto w = static_cast<std::int32_t>(le::load<std::uint32_t>(&bytes[at + 4 * j]));
        if (w < -(1 << 24) || w > (1 << 24)) throw bad("weight");
        m.weights.push_back(w);
    }
    at += 16 * parts;
    std::vector<std::byte> table(4 * contexts);
    if (!wdl_context::decompress_exactly(bytes.subspan(at), table)) throw bad("probabilities");
    std::size_t t = 0;
    for (Part& part : m.parts) {
        const std::size_t n = part.contexts();
        part.first.resize(n);
        part.second.resize(n);
        for (std::size_t c = 0; c < n; ++c) {
            part.first[c] = le::load<std::uint16_t>(&table[t + 2 * c]);
            part.second[c] = le::load<std::uint16_t>(&table[t + 2 * (n + c)]);
            if (part.first[c] == 0 || part.first[c] >= one || part.second[c] == 0 ||
                part.second[c] >= one)
                throw bad("probability out of range");
        }
        t += 4 * n;
    }
    m.index_states();
    return m;
}

void Workspace::start(const Model& m) {
    const std::size_t n = m.states();
    if (states_.size() != n || ++block_ > 0xFFFF) {
        // A new shape, or the stamps wrapped around: every state is stale.
        states_.assign(n, 0);
        block_ = 1;
    }
    weights = m.weights;
}

void encode_block(const Model& m, std::span<const std::uint8_t> values,
                  std::span<const std::uint8_t> flags, std::vector<std::byte>& out, Workspace& w) {
    out.clear();
    range_coder::Encoder e(out);
    Predictor predictor(m, w);
    w.symbols.resize(values.size());
    for (std::size_t i = 0; i < values.size(); ++i) {
        if (flags[i] & skipped) {
            w.symbols[i] = 3;
            continue;
        }
        const std::uint8_t v = values[i];
        if (v > 2) throw Error("context codec: a coded position has no value");
        predictor.at(i, flags[i]);
        const auto code = [&](bool bit) {
            return [&e, bit](std::uint16_t p) {
                e.encode(bit, p);
                return bit;
            };
        };
        if (predictor.decide(0, code(v != 1))) predictor.decide(1, code(v == 2));
        w.symbols[i] = v;
    }
    e.finish();
}

bool decode_block(const Model& m, std::span<const std::byte> in,
                  std::span<const std::uint8_t> flags, std::span<std::byte> out, Workspace& w) {
    if (out.size() != (flags.size() + 3) / 4) return false;
    std::fill(out.begin(), out.end(), std::byte{0});
    range_coder::Decoder d(in);
    Predictor predictor(m, w);
    w.symbols.resize(flags.size());
    const auto code = [&d](std::uint16_t p) { return d.decode(p); };
    for (std::size_t i = 0; i < flags.size(); ++i) {
        std::uint32_t v = 3;
        if (!(flags[i] & skipped)) {
            predictor.at(i, flags[i]);
            v = predictor.decide(0, code) ? (predictor.decide(1, code) ? 2u : 0u) : 1u;
        }
        w.symbols[i] = static_cast<std::uint8_t>(v);
        out[i / 4] |= static_cast<std::byte>(v << (2 * (i % 4)));
    }
    return !d.overran();
}

}  // namespace damas::wdl_mix
