// The mtc context codecs behind the seam of table/codec.hpp (codec 4, "mtc-context", and codec 5,
// "mtc-wdl": the same coding given the class's wdl values; the coding is
// table/codecs/mtc_context.hpp's). No model in the file: each block adapts its own
// probabilities. A block's flags (which positions the probe never reads) are computed from the
// positions, as the wdl context codec does, by the encoder and the decoder alike; the contexts'
// second distance is the class's S (wdl_context::model_shape). mtc-wdl's encoder reads the wdl
// values through EncodeSettings::wdl, its decoder is given them (decode_given_wdl).
#include <algorithm>

#include "rules/error.hpp"
#include "table/bytes.hpp"
#include "table/codec.hpp"
#include "table/codecs/mtc_context.hpp"
#include "table/codecs/wdl_context.hpp"

namespace damas {
namespace {

using wdl_context::PositionFlags;
using wdl_context::skipped;

Material material_of(const TableHeader& h) {
    return Material{h.material[0], h.material[1], h.material[2], h.material[3]};
}

// What a file's decoder and encoders share.
struct MtcShared {
    mtc_context::Shape shape;
    std::shared_ptr<const PositionFlags> flags;
    std::uint32_t positions_per_block = 0;
};

// given_wdl: mtc-wdl's shape (its contexts adapt as mtc_context::adapt_given_wdl says).
MtcShared shared_of(const TableHeader& h, bool given_wdl) {
    const Material m = material_of(h);
    const std::uint64_t s = wdl_context::model_shape(h.variant.info().board, m).distances[3];
    MtcShared shared;
    shared.shape.second = static_cast<std::uint32_t>(
        std::clamp<std::uint64_t>(s, 1, std::max<std::uint32_t>(1, h.positions_per_block)));
    shared.shape.adapt = given_wdl ? mtc_context::adapt_given_wdl : 0;
    shared.flags = wdl_context::make_position_flags(h.variant, m, false);
    shared.positions_per_block = h.positions_per_block;
    return shared;
}

class MtcEncoder : public BlockEncoder {
  public:
    // wdl: mtc-wdl's reader of the class's wdl values, or empty (mtc-context).
    MtcEncoder(const MtcShared& s, WdlReader wdl) : s_(s), wdl_reader_(std::move(wdl)) {}
    // Given the wdl values of the distances themselves (EncodeSettings::wdl_of_values).
    MtcEncoder(const MtcShared& s, bool wdl_of_values) : s_(s), wdl_of_values_(wdl_of_values) {}
    void encode(std::uint64_t, std::span<const std::uint8_t>, std::vector<std::byte>&,
                std::vector<std::byte>&) override {
        throw Error("mtc codecs: they code mtc tables only");
    }
    void encode(std::uint64_t first, std::span<const std::uint16_t> v,
                std::vector<std::byte>& plain, std::vector<std::byte>& coded) override {
        flags_.resize(v.size());
        s_.flags->compute(first, flags_);
        // The decoded block: the values, dtw_unknown where the position is skipped.
        values_.assign(v.begin(), v.end());
        plain.resize(2 * v.size());
        for (std::size_t i = 0; i < v.size(); ++i) {
            if (flags_[i] & skipped) values_[i] = dtw_unknown;
            le::store<std::uint16_t>(&plain[2 * i], values_[i]);
        }
        wdl_.resize(wdl_reader_ || wdl_of_values_ ? v.size() : 0);
        if (wdl_reader_) wdl_reader_(first, wdl_);
        if (wdl_of_values_)
            for (std::size_t i = 0; i < v.size(); ++i) wdl_[i] = mtc_context::wdl_of(values_[i]);
        mtc_context::encode_block(s_.shape, values_, flags_, wdl_, coded);
    }

  private:
    const MtcShared& s_;
    WdlReader wdl_reader_;
    bool wdl_of_values_ = false;
    std::vector<std::uint8_t> flags_, wdl_;
    std::vector<std::uint16_t> values_;
};

class MtcTable : public TableCodec {
  public:
    MtcTable(MtcShared s, bool given_wdl) : s_(std::move(s)), given_wdl_(given_wdl) {}
    std::span<const std::byte> model() const override { return {}; }
    std::size_t max_encoded_bytes(std::uint64_t n) const override {
        return mtc_context::max_encoded_bytes(static_cast<std::size_t>(n));
    }
    bool decode(std::uint64_t first, std::uint64_t n, std::span<const std::byte> in,
                std::span<std::byte> out) const override {
        return !given_wdl_ && decode_with(first, n, in, {}, out);
    }
    bool decode_given_wdl(std::uint64_t first, std::uint64_t n, std::span<const std::byte> in,
                          std::span<const std::uint8_t> wdl,
                          std::span<std::byte> out) const override {
        if (!given_wdl_) return decode(first, n, in, out);
        return wdl.size() == n && decode_with(first, n, in, wdl, out);
    }
    std::unique_ptr<BlockEncoder> encoder(const EncodeSettings& settings) const override {
        if (given_wdl_ && !settings.wdl && !settings.wdl_of_values)
            throw Error("mtc-wdl codec: the encoder needs the class's wdl values");
        if (given_wdl_ && settings.wdl_of_values) return std::make_unique<MtcEncoder>(s_, true);
        return std::make_unique<MtcEncoder>(s_, given_wdl_ ? settings.wdl : WdlReader{});
    }

  private:
    bool decode_with(std::uint64_t first, std::uint64_t n, std::span<const std::byte> in,
                     std::span<const std::uint8_t> wdl, std::span<std::byte> out) const {
        if (n > s_.positions_per_block || out.size() != 2 * n) return false;
        thread_local std::vector<std::uint8_t> flags;
        flags.resize(static_cast<std::size_t>(n));
        s_.flags->compute(first, flags);
        return mtc_context::decode_block(s_.shape, in, flags, wdl, out);
    }

    MtcShared s_;
    bool given_wdl_;
};

class MtcModelBuilder : public ModelBuilder {
  public:
    MtcModelBuilder(const TableHeader& h, bool given_wdl) : h_(h), given_wdl_(given_wdl) {}
    bool needs_values() const override { return false; }
    void add(std::size_t, std::uint64_t, std::span<const std::uint8_t>) override {}
    std::unique_ptr<const TableCodec> finish() override {
        return std::make_unique<MtcTable>(shared_of(h_, given_wdl_), given_wdl_);
    }

  private:
    TableHeader h_;
    bool given_wdl_;
};

// given_wdl: mtc-wdl, else mtc-context.
class MtcContext : public BlockCodec {
  public:
    explicit MtcContext(bool given_wdl) : given_wdl_(given_wdl) {}
    Codec id() const override { return given_wdl_ ? Codec::mtc_wdl : Codec::mtc_context; }
    const char* name() const override { return given_wdl_ ? "mtc-wdl" : "mtc-context"; }
    bool codes(Metric m) const override { return m == Metric::mtc; }
    std::string header_problem(const TableHeader& h) const override {
        if (!codes(h.metric) || h.layout != Layout::stored || h.half || h.model_size != 0)
            return std::string("the ") + name() + " codec is for stored mtc tables without a model";
        if (h.positions_per_block > mtc_context::max_positions_per_block)
            return std::string("too many positions per block for the ") + name() + " codec";
        return {};
    }
    bool codes_half() const override { return false; }
    bool reads_wdl() const override { return given_wdl_; }
    std::uint32_t positions_per_block(Metric, std::uint32_t) const override {
        return mtc_context::positions_per_block;
    }
    std::unique_ptr<const TableCodec> open(const TableHeader& h, std::span<const std::byte>,
                                           const std::string& what) const override {
        if (const std::string problem = header_problem(h); !problem.empty())
            throw Error(what + ": " + problem);
        return std::make_unique<MtcTable>(shared_of(h, given_wdl_), given_wdl_);
    }
    std::unique_ptr<ModelBuilder> model_builder(const TableHeader& h,
                                                const ModelSampling&) const override {
        if (!codes(h.metric)) throw Error(std::string(name()) + " codec: it codes mtc tables only");
        return std::make_unique<MtcModelBuilder>(h, given_wdl_);
    }

  private:
    bool given_wdl_;
};

}  // namespace

const BlockCodec& mtc_context_block_codec() {
    static const MtcContext codec(false);
    return codec;
}

const BlockCodec& mtc_wdl_block_codec() {
    static const MtcContext codec(true);
    return codec;
}

}  // namespace damas
