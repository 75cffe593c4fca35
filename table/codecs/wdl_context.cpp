#include "table/codecs/wdl_context.hpp"

#include <zstd.h>

#include <algorithm>

#include "index/binomial.hpp"
#include "index/class_index.hpp"
#include "rules/error.hpp"
#include "rules/movegen.hpp"
#include "rules/variants.hpp"
#include "table/bytes.hpp"
#include "table/codecs/range_coder.hpp"

namespace damas::wdl_context {
namespace {

constexpr std::uint32_t one = 1u << probability_bits;
using range_coder::Decoder;
using range_coder::Encoder;

// The symbol at distance d before position i of a block whose decoded symbols get(j) gives.
template <class Get>
std::size_t context(const Model& m, std::size_t i, std::uint8_t flags, Get&& get) {
    std::size_t c = 0;
    for (std::size_t k = m.distances.size(); k-- > 0;) {
        const std::uint32_t d = m.distances[k];
        c = c * 4 + (i >= d ? get(i - d) : 3u);
    }
    if (m.uses_threat) c = c * 2 + ((flags & threat) ? 1 : 0);
    return c;
}

template <class R>
class FlagsOf final : public PositionFlags {
  public:
    FlagsOf(Material m, bool skip_odd, bool features)
        : index_(R::Board::spec, m),
          skip_odd_(skip_odd),
          features_(features),
          has_kings_(m.white_kings + m.black_kings > 0) {
        for (int y = 1; y < R::Board::height; y += 2) odd_rows_ |= R::Board::row(y);
    }
    void compute(std::uint64_t first, std::span<std::uint8_t> out) const override {
        if (!features_ && has_kings_) return compute_by_runs(first, out);
        index_.for_each_position(
            first, first + out.size(),
            [&](std::uint64_t i, const Position& p) { out[i - first] = flags_of(p); });
    }

  private:
    using Moves = MoveGenerator<R>;

    // The flags of flags_of (no features), a run of the index walk at once: the positions where
    // one king alone moves, whose captures capture_squares_with_king finds for the whole run.
    // Measured (bench_flags, english 1221): a quarter of the time position by position.
    void compute_by_runs(std::uint64_t first, std::span<std::uint8_t> out) const {
        index_.for_each_king_run(first, first + out.size(),
                                 [&](std::uint64_t i, const Position& rest, Color king,
                                     std::span<const Bitboard> squares) {
                                     flag_run(rest, king, squares, &out[i - first]);
                                 });
    }
    void flag_run(const Position& rest, Color king, std::span<const Bitboard> squares,
                  std::uint8_t* out) const {
        Bitboard all = 0;
        for (const Bitboard b : squares) all |= b;
        Bitboard skip = Moves::capture_squares_with_king(rest, king, all);
        if (skip_odd_) {
            // Odd as flags_of's count of pieces on odd rows: the king's square adds one to it
            // on an odd row.
            const bool others_odd = popcount(rest.occupied() & odd_rows_) & 1;
            skip |= all & (others_odd ? ~odd_rows_ : odd_rows_);
        }
        Position other;  // field by field, as in flags_of
        other.pieces[0] = rest.pieces[0];
        other.pieces[1] = rest.pieces[1];
        other.kings = rest.kings;
        other.side = ~rest.side;
        const Bitboard threatened = Moves::capture_squares_with_king(other, king, all & ~skip);
        for (std::size_t k = 0; k < squares.size(); ++k)
            out[k] = (skip & squares[k]) ? skipped : (threatened & squares[k]) ? threat : 0;
    }
    std::uint8_t flags_of(const Position& p) const {
        if (Moves::has_capture(p) || (skip_odd_ && (popcount(p.occupied() & odd_rows_) & 1)))
            return skipped;
        // Field by field: a copy of the whole position read the just-written pieces back as one
        // 16-byte load, which the store buffer cannot forward (a fifth of this function's time).
        Position other;
        other.pieces[0] = p.pieces[0];
        other.pieces[1] = p.pieces[1];
        other.kings = p.kings;
        other.side = ~p.side;
        const bool threatened = Moves::has_capture(other);
        std::uint8_t f = threatened ? threat : 0;
        if (!features_) return f;
        if (threatened && Moves::count(other) >= 2) f |= threats;
        const int moves = Moves::count_quiet(p);
        if (moves <= 2) f |= few_moves;
        if (moves >= 7) f |= many_moves;
        if (Moves::has_crowning_move(p)) f |= can_crown;
        if (!threatened && Moves::has_crowning_move(other)) f |= opponent_can_crown;
        return f;
    }

    ClassIndex index_;
    bool skip_odd_, features_, has_kings_;
    Bitboard odd_rows_ = 0;
};

}  // namespace

Model model_shape(const BoardSpec& board, Material m) {
    const ClassIndex index(board, m);
    const int free = make_tables(board).squares - m.men();
    const std::uint64_t s =
        m.black_kings > 0 ? binomial(free - m.white_kings, m.black_kings) : index.kings_per_men();
    Model model;
    const std::uint64_t k = index.kings_per_men();
    for (const std::uint64_t d :
         {std::uint64_t{1}, std::uint64_t{3}, std::uint64_t{4}, s, 4 * s, k})
        model.distances.push_back(static_cast<std::uint32_t>(std::min<std::uint64_t>(d, 1u << 30)));
    return model;
}

void Counts::add(const Counts& o) {
    for (std::size_t c = 0; c < by_context.size(); ++c)
        for (int v = 0; v < 3; ++v) by_context[c][v] += o.by_context[c][v];
}

void count_block(const Model& shape, std::span<const std::uint8_t> values,
                 std::span<const std::uint8_t> flags, Counts& out) {
    const auto symbol = [&](std::size_t j) -> std::uint32_t {
        return (flags[j] & skipped) ? 3u : values[j];
    };
    for (std::size_t i = 0; i < values.size(); ++i) {
        if (flags[i] & skipped) continue;
        out.by_context[context(shape, i, flags[i], symbol)][values[i]]++;
    }
}

void probabilities_of(const Counts& counts, std::vector<std::uint16_t>& first,
                      std::vector<std::uint16_t>& second) {
    const auto p1 = [](std::uint64_t ones, std::uint64_t n) {
        const double p = (static_cast<double>(ones) + 0.5) / (static_cast<double>(n) + 1.0);
        const auto q = static_cast<long>(p * one + 0.5);
        return static_cast<std::uint16_t>(std::clamp<long>(q, 1, one - 1));
    };
    const std::size_t n = counts.by_context.size();
    first.assign(n, 0);
    second.assign(n, 0);
    for (std::size_t c = 0; c < n; ++c) {
        const auto& k = counts.by_context[c];
        first[c] = p1(k[0] + k[2], k[0] + k[1] + k[2]);
        second[c] = p1(k[2], k[0] + k[2]);
    }
}

void set_probabilities(Model& m, const Counts& counts) {
    probabilities_of(counts, m.first, m.second);
}

void append_compressed(std::vector<std::byte>& out, std::span<const std::byte> table) {
    std::vector<std::byte> packed(ZSTD_compressBound(table.size()));
    const std::size_t r =
        ZSTD_compress(packed.data(), packed.size(), table.data(), table.size(), 19);
    if (ZSTD_isError(r)) throw Error("zstd: cannot compress a context model");
    out.insert(out.end(), packed.begin(), packed.begin() + static_cast<std::ptrdiff_t>(r));
}

bool decompress_exactly(std::span<const std::byte> packed, std::span<std::byte> table) {
    const std::size_t r = ZSTD_decompress(table.data(), table.size(), packed.data(), packed.size());
    return !ZSTD_isError(r) && r == table.size();
}

std::vector<std::byte> serialize(const Model& m) {
    std::vector<std::byte> out(4 + 4 * m.distances.size());
    out[0] = static_cast<std::byte>(m.distances.size());
    out[1] = static_cast<std::byte>(m.uses_threat ? 1 : 0);
    for (std::size_t k = 0; k < m.distances.size(); ++k)
        le::store<std::uint32_t>(&out[4 + 4 * k], m.distances[k]);
    const std::size_t n = m.contexts();
    std::vector<std::byte> table(4 * n);
    for (std::size_t c = 0; c < n; ++c) {
        le::store<std::uint16_t>(&table[2 * c], m.first[c]);
        le::store<std::uint16_t>(&table[2 * (n + c)], m.second[c]);
    }
    append_compressed(out, table);
    return out;
}

Model parse(std::span<const std::byte> bytes, const std::string& what) {
    const auto bad = [&](const char* why) {
        return Error(what + ": corrupt context model (" + why + ")");
    };
    if (bytes.size() < 4) throw bad("too short");
    const auto k = static_cast<std::size_t>(bytes[0]);
    const auto uses_threat = static_cast<unsigned>(bytes[1]);
    if (k < 1 || k > max_distances || uses_threat > 1 || bytes.size() < 4 + 4 * k)
        throw bad("shape");
    Model m;
    m.uses_threat = uses_threat == 1;
    for (std::size_t j = 0; j < k; ++j) {
        const auto d = le::load<std::uint32_t>(&bytes[4 + 4 * j]);
        if (d == 0 || d > (1u << 30)) throw bad("distance");
        m.distances.push_back(d);
    }
    const std::size_t n = m.contexts();
    std::vector<std::byte> table(4 * n);
    if (!decompress_exactly(bytes.subspan(4 + 4 * k), table)) throw bad("probabilities");
    m.first.resize(n);
    m.second.resize(n);
    for (std::size_t c = 0; c < n; ++c) {
        m.first[c] = le::load<std::uint16_t>(&table[2 * c]);
        m.second[c] = le::load<std::uint16_t>(&table[2 * (n + c)]);
        if (m.first[c] == 0 || m.first[c] >= one || m.second[c] == 0 || m.second[c] >= one)
            throw bad("probability out of range");
    }
    return m;
}

void encode_block(const Model& m, std::span<const std::uint8_t> values,
                  std::span<const std::uint8_t> flags, std::vector<std::byte>& out) {
    out.clear();
    Encoder e(out);
    const auto symbol = [&](std::size_t j) -> std::uint32_t {
        return (flags[j] & skipped) ? 3u : values[j];
    };
    for (std::size_t i = 0; i < values.size(); ++i) {
        if (flags[i] & skipped) continue;
        const std::size_t c = context(m, i, flags[i], symbol);
        const std::uint8_t v = values[i];
        if (v > 2) throw Error("context codec: a coded position has no value");
        e.encode(v != 1, m.first[c]);
        if (v != 1) e.encode(v == 2, m.second[c]);
    }
    e.finish();
}

bool decode_block(const Model& m, std::span<const std::byte> in,
                  std::span<const std::uint8_t> flags, std::span<std::byte> out) {
    if (out.size() != (flags.size() + 3) / 4) return false;
    std::fill(out.begin(), out.end(), std::byte{0});
    Decoder d(in);
    const auto symbol = [&](std::size_t j) -> std::uint32_t {
        return (static_cast<unsigned>(out[j / 4]) >> (2 * (j % 4))) & 3u;
    };
    for (std::size_t i = 0; i < flags.size(); ++i) {
        std::uint32_t v = 3;
        if (!(flags[i] & skipped)) {
            const std::size_t c = context(m, i, flags[i], symbol);
            v = d.decode(m.first[c]) ? (d.decode(m.second[c]) ? 2u : 0u) : 1u;
        }
        out[i / 4] |= static_cast<std::byte>(v << (2 * (i % 4)));
    }
    return !d.overran();
}

std::unique_ptr<PositionFlags> make_position_flags(Variant v, Material m, bool skip_odd,
                                                   bool features) {
    return dispatch(v.base, [&](auto rules) -> std::unique_ptr<PositionFlags> {
        return std::make_unique<FlagsOf<decltype(rules)>>(m, skip_odd, features);
    });
}

bool odd_half_allowed(Variant v, Material m) {
    return m == m.mirrored() && m.pieces() % 2 == 0 && dispatch(v.base, [](auto rules) {
               using R = decltype(rules);
               return !R::flying_kings && !R::men_move_sideways && !R::Board::orthogonal;
           });
}

}  // namespace damas::wdl_context
