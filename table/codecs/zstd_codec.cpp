// The zstd codecs (table/codec.hpp), compressed with fixed parameters so the bytes depend only
// on the values; no model. Unknown positions are first replaced by a fill value (FillRule)
// chosen to compress well.
// * zstd: every metric; each block one zstd frame of its decoded bytes (format.hpp).
// * zstd-planes: the 16-bit metrics; each block a tag byte and one zstd frame, of its values'
//   low bytes then their high bytes, or of the values as zstd has them, whichever is smaller
//   (format.hpp). Why: zstd codes literals a byte at a time, and a block's distances differ in
//   the low byte while the high byte is nearly constant (0, or 0xFF for a draw); interleaved,
//   the two share one byte distribution. Measured on english 2-6's largest classes
//   (bench/dtw_codecs): the planes take 0.78 of zstd's bytes, where remapping each block's
//   values to 8-bit ranks gave 0.79, a previous-value fill of the unknowns 0.82, and blocks
//   twice as long 0.98 of that for twice the decoding per probe. But in the classes of many
//   kings and few men (english 0312 + 1203, 0303) the planes take 1.23-1.28 times zstd's bytes:
//   there zstd's matches of 3 values (6 bytes) carry the block, and a plane needs 6 values
//   to match. So each block is compressed both ways and keeps the smaller (about 6% more of
//   a run's CPU, docs/performance.md).
#include <zstd.h>

#include <algorithm>
#include <bit>
#include <cstring>
#include <limits>

#include "rules/error.hpp"
#include "table/bytes.hpp"
#include "table/codec.hpp"

namespace damas {
namespace {

template <class T>
constexpr T unknown_of() {
    if constexpr (sizeof(T) == 1)
        return wdl_unknown;
    else
        return dtw_unknown;
}

// The fill value for unknowns at the start of a block and, for block_majority, everywhere.
template <class T>
T block_fill(std::span<const T> v, FillRule rule) {
    const T unknown = unknown_of<T>();
    if (rule == FillRule::previous) {
        const auto it = std::find_if(v.begin(), v.end(), [&](T x) { return x != unknown; });
        return it == v.end() ? T{0} : *it;
    }
    // The most frequent known value, the smallest on a tie: counted in tables over every value
    // T can take (a sort of each block was 3% of a 6-piece run), two in turn so that runs of
    // equal values do not wait on one counter.
    const std::size_t values = std::size_t{1} << (8 * sizeof(T));
    thread_local std::vector<std::uint32_t> count(2 * values);
    std::uint32_t* const even = count.data();
    std::uint32_t* const odd = count.data() + values;
    std::size_t i = 0;
    for (; i + 2 <= v.size(); i += 2) {
        ++even[v[i]];
        ++odd[v[i + 1]];
    }
    if (i < v.size()) ++even[v[i]];
    // The known values' range: a DTW block's distances are few and close together, so the
    // counts are searched over the range (ascending: the smallest wins a tie) instead of over v.
    constexpr unsigned none = std::numeric_limits<T>::max();
    unsigned lo = none, hi = 0;
    if constexpr (unknown_of<T>() == none) {
        // Two plain min/max loops, which the compiler vectorises: the unknown value is the
        // largest, so the minimum skips it, and it wraps to 0 when 1 is added.
        for (const T x : v) lo = std::min<unsigned>(lo, x);
        for (const T x : v) hi = std::max<unsigned>(hi, static_cast<T>(x + 1));
        hi = hi == 0 ? 0 : hi - 1;
    } else {
        for (const T x : v) {
            if (x == unknown) continue;
            lo = std::min<unsigned>(lo, x);
            hi = std::max<unsigned>(hi, x);
        }
    }
    T best = 0;
    std::uint32_t best_count = 0;
    if (lo > hi) {  // no known value
    } else if (hi - lo <= v.size()) {
        for (std::size_t x = lo; x <= hi; ++x) {
            const std::uint32_t c = even[x] + odd[x];
            if (c > best_count) best = static_cast<T>(x), best_count = c;
        }
    } else {
        for (T x : v) {
            const std::uint32_t c = even[x] + odd[x];
            if (x != unknown && (c > best_count || (c == best_count && x < best)))
                best = x, best_count = c;
        }
    }
    if (lo <= hi && hi - lo <= v.size()) {
        std::fill(even + lo, even + hi + 1, 0);
        std::fill(odd + lo, odd + hi + 1, 0);
        even[unknown] = odd[unknown] = 0;
    } else {
        for (T x : v) even[x] = odd[x] = 0;
    }
    return best;
}

// The decompressed block (format.hpp) of values v, unknowns filled.
template <class T>
void encode_plain(std::span<const T> v, FillRule rule, std::vector<std::byte>& out) {
    const T unknown = unknown_of<T>();
    T fill = block_fill(v, rule);
    if constexpr (sizeof(T) == 1) {
        out.assign((v.size() + 3) / 4, std::byte{0});
        for (std::size_t i = 0; i < v.size(); ++i) {
            T x = v[i];
            if (x == unknown)
                x = fill;
            else if (rule == FillRule::previous)
                fill = x;
            out[i / 4] |= static_cast<std::byte>(x << (2 * (i % 4)));
        }
    } else if (rule == FillRule::block_majority) {
        // One fill value: a select the compiler vectorises.
        out.resize(2 * v.size());
        if constexpr (std::endian::native == std::endian::little) {
            const T* __restrict in = v.data();
            std::byte* __restrict to = out.data();
            for (std::size_t i = 0; i < v.size(); ++i) {
                const T x = in[i] == unknown ? fill : in[i];
                std::memcpy(to + 2 * i, &x, 2);
            }
        } else {
            for (std::size_t i = 0; i < v.size(); ++i)
                le::store<std::uint16_t>(&out[2 * i], v[i] == unknown ? fill : v[i]);
        }
    } else {
        out.resize(2 * v.size());
        for (std::size_t i = 0; i < v.size(); ++i) {
            T x = v[i];
            if (x == unknown)
                x = fill;
            else if (rule == FillRule::previous)
                fill = x;
            le::store<std::uint16_t>(&out[2 * i], x);
        }
    }
}

struct Compressor {
    ZSTD_CCtx* cctx = ZSTD_createCCtx();
    explicit Compressor(int level, const format::ZstdSearch* search = nullptr) {
        if (cctx == nullptr) throw Error("zstd: cannot create a compression context");
        ZSTD_CCtx_setParameter(cctx, ZSTD_c_compressionLevel, level);
        if (search) {
            ZSTD_CCtx_setParameter(cctx, ZSTD_c_strategy, search->strategy);
            ZSTD_CCtx_setParameter(cctx, ZSTD_c_hashLog, search->hash_log);
            ZSTD_CCtx_setParameter(cctx, ZSTD_c_chainLog, search->chain_log);
            ZSTD_CCtx_setParameter(cctx, ZSTD_c_searchLog, search->search_log);
            ZSTD_CCtx_setParameter(cctx, ZSTD_c_minMatch, search->min_match);
        }
        ZSTD_CCtx_setParameter(cctx, ZSTD_c_contentSizeFlag, 1);
        ZSTD_CCtx_setParameter(cctx, ZSTD_c_checksumFlag, 0);
        ZSTD_CCtx_setParameter(cctx, ZSTD_c_dictIDFlag, 0);
    }
    Compressor(const Compressor&) = delete;
    Compressor& operator=(const Compressor&) = delete;
    ~Compressor() { ZSTD_freeCCtx(cctx); }

    void compress(std::span<const std::byte> in, std::vector<std::byte>& out) {
        out.resize(ZSTD_compressBound(in.size()));
        const std::size_t r = ZSTD_compress2(cctx, out.data(), out.size(), in.data(), in.size());
        if (ZSTD_isError(r)) throw Error(std::string("zstd: ") + ZSTD_getErrorName(r));
        out.resize(r);
    }
};

// Per-thread reusable decompression context.
struct Decompressor {
    ZSTD_DCtx* dctx = ZSTD_createDCtx();
    Decompressor() = default;
    Decompressor(const Decompressor&) = delete;
    Decompressor& operator=(const Decompressor&) = delete;
    ~Decompressor() { ZSTD_freeDCtx(dctx); }
};

class ZstdEncoder : public BlockEncoder {
  public:
    ZstdEncoder(Metric metric, const EncodeSettings& s)
        : metric_(metric),
          fill_(s.fill != FillRule::automatic ? s.fill
                : metric == Metric::wdl       ? FillRule::previous
                                              : FillRule::block_majority),
          // The default dtw level gets its cheaper search (format.hpp); a level asked for,
          // zstd's own.
          compressor_(
              s.zstd_level != 0       ? s.zstd_level
              : metric == Metric::wdl ? format::wdl_zstd_level
                                      : format::dtw_zstd_level,
              s.zstd_level == 0 && metric != Metric::wdl ? &format::dtw_zstd_search : nullptr) {}

    void encode(std::uint64_t, std::span<const std::uint8_t> values, std::vector<std::byte>& plain,
                std::vector<std::byte>& coded) override {
        if (metric_ != Metric::wdl) throw Error("zstd codec: wdl values for a 16-bit table");
        encode_plain(values, fill_, plain);
        compressor_.compress(plain, coded);
    }
    void encode(std::uint64_t, std::span<const std::uint16_t> values, std::vector<std::byte>& plain,
                std::vector<std::byte>& coded) override {
        if (metric_ == Metric::wdl) throw Error("zstd codec: 16-bit values for a wdl table");
        encode_plain(values, fill_, plain);
        compressor_.compress(plain, coded);
    }

  protected:
    Metric metric_;
    FillRule fill_;
    Compressor compressor_;
};

// The two byte planes of a block's decoded bytes (u16 little-endian values), and back.
void split_planes(std::span<const std::byte> plain, std::vector<std::byte>& planes) {
    const std::size_t n = plain.size() / 2;
    planes.resize(plain.size());
    std::byte* __restrict low = planes.data();
    std::byte* __restrict high = planes.data() + n;
    const std::byte* __restrict in = plain.data();
    for (std::size_t i = 0; i < n; ++i) {
        low[i] = in[2 * i];
        high[i] = in[2 * i + 1];
    }
}
// A zstd-planes block's first byte: how its zstd frame holds the values (format.hpp).
constexpr std::byte interleaved_tag{0}, planes_tag{1};

void join_planes(std::span<const std::byte> planes, std::span<std::byte> plain) {
    const std::size_t n = plain.size() / 2;
    const std::byte* __restrict low = planes.data();
    const std::byte* __restrict high = planes.data() + n;
    std::byte* __restrict out = plain.data();
    for (std::size_t i = 0; i < n; ++i) {
        out[2 * i] = low[i];
        out[2 * i + 1] = high[i];
    }
}

// The zstd encoder's frame of the values (same fill, level and search), and one of their planes:
// the smaller, behind its tag.
class ZstdPlanesEncoder : public ZstdEncoder {
  public:
    using ZstdEncoder::encode;  // wdl values: refused there (a 16-bit table)
    using ZstdEncoder::ZstdEncoder;

    void encode(std::uint64_t first, std::span<const std::uint16_t> values,
                std::vector<std::byte>& plain, std::vector<std::byte>& coded) override {
        ZstdEncoder::encode(first, values, plain, interleaved_);
        split_planes(plain, planes_);
        compressor_.compress(planes_, split_);
        const bool planes = split_.size() <= interleaved_.size();
        const std::vector<std::byte>& frame = planes ? split_ : interleaved_;
        coded.resize(1 + frame.size());
        coded[0] = planes ? planes_tag : interleaved_tag;
        std::memcpy(coded.data() + 1, frame.data(), frame.size());
    }

  private:
    std::vector<std::byte> planes_, split_, interleaved_;
};

class ZstdTable : public TableCodec {
  public:
    explicit ZstdTable(Metric metric) : metric_(metric) {}
    std::span<const std::byte> model() const override { return {}; }
    std::size_t max_encoded_bytes(std::uint64_t n) const override {
        return ZSTD_compressBound(format::block_bytes(metric_, n));
    }
    bool decode(std::uint64_t, std::uint64_t, std::span<const std::byte> in,
                std::span<std::byte> out) const override {
        thread_local Decompressor d;
        if (d.dctx == nullptr) return false;
        const std::size_t r =
            ZSTD_decompressDCtx(d.dctx, out.data(), out.size(), in.data(), in.size());
        return !ZSTD_isError(r) && r == out.size();
    }
    std::unique_ptr<BlockEncoder> encoder(const EncodeSettings& settings) const override {
        return std::make_unique<ZstdEncoder>(metric_, settings);
    }

  protected:
    Metric metric_;
};

// A zstd table's frame behind a tag byte: the decoded bytes, or their two planes.
class ZstdPlanesTable : public ZstdTable {
  public:
    using ZstdTable::ZstdTable;
    std::size_t max_encoded_bytes(std::uint64_t n) const override {
        return 1 + ZstdTable::max_encoded_bytes(n);
    }
    bool decode(std::uint64_t first, std::uint64_t n, std::span<const std::byte> in,
                std::span<std::byte> out) const override {
        if (in.empty() || out.size() % 2 != 0) return false;
        const std::span<const std::byte> frame = in.subspan(1);
        if (in[0] == interleaved_tag) return ZstdTable::decode(first, n, frame, out);
        if (in[0] != planes_tag) return false;
        thread_local std::vector<std::byte> planes;
        planes.resize(out.size());
        if (!ZstdTable::decode(first, n, frame, planes)) return false;
        join_planes(planes, out);
        return true;
    }
    std::unique_ptr<BlockEncoder> encoder(const EncodeSettings& settings) const override {
        return std::make_unique<ZstdPlanesEncoder>(metric_, settings);
    }
};

// No model: finish() right away.
template <class Table>
class NoModelBuilder : public ModelBuilder {
  public:
    explicit NoModelBuilder(Metric metric) : metric_(metric) {}
    bool needs_values() const override { return false; }
    void add(std::size_t, std::uint64_t, std::span<const std::uint8_t>) override {}
    std::unique_ptr<const TableCodec> finish() override { return std::make_unique<Table>(metric_); }

  private:
    Metric metric_;
};

// The zstd codecs as the registry holds them: no model, no half layout; Table decodes and makes
// the encoders.
template <class Table>
class ModellessCodec : public BlockCodec {
  public:
    std::string header_problem(const TableHeader& h) const override {
        if (!codes(h.metric))
            return std::string("a ") + metric_name(h.metric) + " table with the " + name() +
                   " codec";
        if (h.half || h.model_size != 0) return "half layout or model without the context codec";
        return {};
    }
    bool codes_half() const override { return false; }
    std::uint32_t positions_per_block(Metric m, std::uint32_t asked) const override {
        return asked != 0 ? asked : format::default_positions_per_block(m);
    }
    std::unique_ptr<const TableCodec> open(const TableHeader& h, std::span<const std::byte>,
                                           const std::string&) const override {
        return std::make_unique<Table>(h.metric);
    }
    std::unique_ptr<ModelBuilder> model_builder(const TableHeader& h,
                                                const ModelSampling&) const override {
        return std::make_unique<NoModelBuilder<Table>>(h.metric);
    }
};

class Zstd : public ModellessCodec<ZstdTable> {
  public:
    Codec id() const override { return Codec::zstd; }
    const char* name() const override { return "zstd"; }
    bool codes(Metric) const override { return true; }
};

class ZstdPlanes : public ModellessCodec<ZstdPlanesTable> {
  public:
    Codec id() const override { return Codec::zstd_planes; }
    const char* name() const override { return "zstd-planes"; }
    bool codes(Metric m) const override { return m != Metric::wdl; }
};

}  // namespace

const BlockCodec& zstd_block_codec() {
    static const Zstd codec;
    return codec;
}

const BlockCodec& zstd_planes_block_codec() {
    static const ZstdPlanes codec;
    return codec;
}

}  // namespace damas
