// The context codecs behind the seam of table/codec.hpp: the static model
// (table/codecs/wdl_context.hpp, codec 1, "context") and the mixed one (table/codecs/wdl_mix.hpp,
// codec 2, "context-mix"), one implementation over the two (a Kind each). The model is built from
// counts over the sampled blocks; the flags of a block's positions (which it skips, where the
// opponent threatens a capture, the mixed model's features) are computed from the positions
// themselves, or held from the model's pass for the encoders of the same blocks.
#include <algorithm>
#include <atomic>

#include <zstd.h>

#include "rules/error.hpp"
#include "table/codec.hpp"
#include "table/codecs/wdl_context.hpp"
#include "table/codecs/wdl_mix.hpp"

namespace damas {
namespace {

using wdl_context::make_position_flags;
using wdl_context::max_positions_per_block;
using wdl_context::odd_half_allowed;
using wdl_context::PositionFlags;
using wdl_context::skipped;

// The static model of table/codecs/wdl_context.hpp.
struct StaticKind {
    using Model = wdl_context::Model;
    using Counts = wdl_context::Counts;
    struct Workspace {};
    static constexpr Codec id = Codec::context;
    static constexpr const char* name = "context";
    static constexpr bool features = false;
    static Model shape(const BoardSpec& b, Material m) { return wdl_context::model_shape(b, m); }
    static Counts counts(const Model& m) { return Counts(m.contexts()); }
    static void count(const Model& m, std::span<const std::uint8_t> v,
                      std::span<const std::uint8_t> f, Counts& c) {
        wdl_context::count_block(m, v, f, c);
    }
    static void fit(Model& m, const Counts& c) { wdl_context::set_probabilities(m, c); }
    static std::vector<std::byte> serialize(const Model& m) { return wdl_context::serialize(m); }
    static Model parse(std::span<const std::byte> b, const std::string& what) {
        return wdl_context::parse(b, what);
    }
    static void encode(const Model& m, std::span<const std::uint8_t> v,
                       std::span<const std::uint8_t> f, std::vector<std::byte>& out, Workspace&) {
        wdl_context::encode_block(m, v, f, out);
    }
    static bool decode(const Model& m, std::span<const std::byte> in,
                       std::span<const std::uint8_t> f, std::span<std::byte> out, Workspace&) {
        return wdl_context::decode_block(m, in, f, out);
    }
};

// The mixed model of table/codecs/wdl_mix.hpp.
struct MixKind {
    using Model = wdl_mix::Model;
    using Counts = wdl_mix::Counts;
    using Workspace = wdl_mix::Workspace;
    static constexpr Codec id = Codec::context_mix;
    static constexpr const char* name = "context-mix";
    static constexpr bool features = true;
    static Model shape(const BoardSpec& b, Material m) { return wdl_mix::model_shape(b, m); }
    static Counts counts(const Model& m) { return Counts(m); }
    static void count(const Model& m, std::span<const std::uint8_t> v,
                      std::span<const std::uint8_t> f, Counts& c) {
        wdl_mix::count_block(m, v, f, c);
    }
    static void fit(Model& m, const Counts& c) { wdl_mix::set_probabilities(m, c); }
    static std::vector<std::byte> serialize(const Model& m) { return wdl_mix::serialize(m); }
    static Model parse(std::span<const std::byte> b, const std::string& what) {
        return wdl_mix::parse(b, what);
    }
    static void encode(const Model& m, std::span<const std::uint8_t> v,
                       std::span<const std::uint8_t> f, std::vector<std::byte>& out, Workspace& w) {
        wdl_mix::encode_block(m, v, f, out, w);
    }
    static bool decode(const Model& m, std::span<const std::byte> in,
                       std::span<const std::uint8_t> f, std::span<std::byte> out, Workspace& w) {
        return wdl_mix::decode_block(m, in, f, out, w);
    }
};

Material material_of(const TableHeader& h) {
    return Material{h.material[0], h.material[1], h.material[2], h.material[3]};
}

// What a file's decoder and encoders share: the model, the flags of its positions, and those
// the model's pass held (block b's at (b / stride) * positions per block, for sampled blocks).
template <class Kind>
struct Shared {
    typename Kind::Model model;
    std::vector<std::byte> model_bytes;
    std::unique_ptr<PositionFlags> flags;
    std::uint32_t positions_per_block = 0;
    std::uint32_t stride = 1;
    std::vector<std::uint8_t> held;              // HeldFlags::plain
    std::vector<std::vector<std::byte>> packed;  // HeldFlags::compressed, by sampled block

    // The flags of the block of positions [first, first + n): held, or read back or computed
    // into scratch.
    std::span<const std::uint8_t> of_block(std::uint64_t first, std::size_t n,
                                           std::vector<std::uint8_t>& scratch) const {
        const std::uint64_t block = first / positions_per_block;
        const std::uint64_t at = block / stride * positions_per_block;
        if (block % stride == 0 && at + n <= held.size())
            return std::span<const std::uint8_t>(held).subspan(at, n);
        scratch.resize(n);
        if (block % stride == 0 && block / stride < packed.size() &&
            unpack(block / stride, scratch))
            return scratch;
        flags->compute(first, scratch);
        return scratch;
    }
    // Sampled block i's flags kept compressed within `limit` bytes (counted in `used`).
    void pack(std::uint64_t i, std::span<const std::uint8_t> f, std::uint64_t limit,
              std::atomic<std::uint64_t>& used) {
        thread_local std::vector<std::byte> buffer;
        buffer.resize(ZSTD_compressBound(f.size()));
        const std::size_t n = ZSTD_compress(buffer.data(), buffer.size(), f.data(), f.size(), 1);
        if (ZSTD_isError(n) || used.fetch_add(n) + n > limit) return;
        packed[i].assign(buffer.begin(), buffer.begin() + static_cast<std::ptrdiff_t>(n));
    }
    bool unpack(std::uint64_t i, std::span<std::uint8_t> out) const {
        const std::vector<std::byte>& in = packed[i];
        if (in.empty()) return false;
        const std::size_t n = ZSTD_decompress(out.data(), out.size(), in.data(), in.size());
        return !ZSTD_isError(n) && n == out.size();
    }
};

template <class Kind>
class ContextEncoder : public BlockEncoder {
  public:
    explicit ContextEncoder(const Shared<Kind>& s) : s_(s) {}
    void encode(std::uint64_t first, std::span<const std::uint8_t> v, std::vector<std::byte>& plain,
                std::vector<std::byte>& coded) override {
        const auto f = s_.of_block(first, v.size(), scratch_);
        plain.assign((v.size() + 3) / 4, std::byte{0});
        for (std::size_t i = 0; i < v.size(); ++i) {
            const unsigned x = (f[i] & skipped) ? unsigned{wdl_unknown} : v[i];
            plain[i / 4] |= static_cast<std::byte>(x << (2 * (i % 4)));
        }
        Kind::encode(s_.model, v, f, coded, workspace_);
    }
    void encode(std::uint64_t, std::span<const std::uint16_t>, std::vector<std::byte>&,
                std::vector<std::byte>&) override {
        throw Error("context codec: it codes wdl tables only");
    }

  private:
    const Shared<Kind>& s_;
    std::vector<std::uint8_t> scratch_;
    typename Kind::Workspace workspace_;
};

template <class Kind>
class ContextTable : public TableCodec {
  public:
    explicit ContextTable(Shared<Kind> s) : s_(std::move(s)) {}
    std::span<const std::byte> model() const override { return s_.model_bytes; }
    std::size_t max_encoded_bytes(std::uint64_t n) const override {
        return wdl_context::max_encoded_bytes(static_cast<std::size_t>(n));
    }
    bool decode(std::uint64_t first, std::uint64_t n, std::span<const std::byte> in,
                std::span<std::byte> out) const override {
        thread_local std::vector<std::uint8_t> scratch;
        thread_local typename Kind::Workspace workspace;
        if (n > s_.positions_per_block) return false;
        return Kind::decode(s_.model, in, s_.of_block(first, static_cast<std::size_t>(n), scratch),
                            out, workspace);
    }
    std::unique_ptr<BlockEncoder> encoder(const EncodeSettings&) const override {
        return std::make_unique<ContextEncoder<Kind>>(s_);
    }

  private:
    Shared<Kind> s_;
};

// Counts by context over the sampled blocks, per worker; the flags kept where asked.
template <class Kind>
class ContextModelBuilder : public ModelBuilder {
  public:
    ContextModelBuilder(const TableHeader& h, const ModelSampling& sampling) : h_(h) {
        if (h.metric != Metric::wdl) throw Error("context codec: it codes wdl tables only");
        const Material m = material_of(h);
        if (h.half && !odd_half_allowed(h.variant, m))
            throw Error("context codec: the half layout is not valid for " + m.name());
        shared_.model = Kind::shape(h.variant.info().board, m);
        shared_.flags = make_position_flags(h.variant, m, h.half, Kind::features);
        shared_.positions_per_block = h.positions_per_block;
        shared_.stride = std::max(1u, sampling.stride);
        const std::uint64_t blocks =
            (h.positions + h.positions_per_block - 1) / h.positions_per_block;
        const std::uint64_t sampled = (blocks + shared_.stride - 1) / shared_.stride;
        if (sampling.hold == HeldFlags::plain) shared_.held.resize(sampled * h.positions_per_block);
        if (sampling.hold == HeldFlags::compressed) shared_.packed.resize(sampled);
        hold_limit_ = sampling.hold_limit;
        counts_.assign(std::max(1u, sampling.workers), Kind::counts(shared_.model));
    }
    bool needs_values() const override { return true; }
    void add(std::size_t worker, std::uint64_t block, std::span<const std::uint8_t> v) override {
        if (uncodable_) return;
        thread_local std::vector<std::uint8_t> scratch;
        std::span<std::uint8_t> f;
        const std::uint64_t at = block / shared_.stride * h_.positions_per_block;
        if (block % shared_.stride == 0 && at + v.size() <= shared_.held.size()) {
            f = std::span(shared_.held).subspan(at, v.size());
        } else {
            scratch.resize(v.size());
            f = scratch;
        }
        shared_.flags->compute(block * h_.positions_per_block, f);
        if (block % shared_.stride == 0 && block / shared_.stride < shared_.packed.size())
            shared_.pack(block / shared_.stride, f, hold_limit_, packed_bytes_);
        for (std::size_t i = 0; i < v.size(); ++i)
            if (!(f[i] & skipped) && v[i] > wdl_win) uncodable_ = true;
        if (!uncodable_) Kind::count(shared_.model, v, f, counts_.at(worker));
    }
    std::unique_ptr<const TableCodec> finish() override {
        if (uncodable_) return nullptr;
        for (std::size_t t = 1; t < counts_.size(); ++t) counts_[0].add(counts_[t]);
        Kind::fit(shared_.model, counts_[0]);
        shared_.model_bytes = Kind::serialize(shared_.model);
        return std::make_unique<ContextTable<Kind>>(std::move(shared_));
    }

  private:
    TableHeader h_;
    Shared<Kind> shared_;
    std::vector<typename Kind::Counts> counts_;
    std::atomic<bool> uncodable_{false};
    std::uint64_t hold_limit_ = UINT64_MAX;
    std::atomic<std::uint64_t> packed_bytes_{0};
};

template <class Kind>
class Context : public BlockCodec {
  public:
    Codec id() const override { return Kind::id; }
    const char* name() const override { return Kind::name; }
    bool codes(Metric m) const override { return m == Metric::wdl; }
    std::string header_problem(const TableHeader& h) const override {
        if (!codes(h.metric) || h.layout != Layout::stored || h.model_size == 0)
            return "the context codec is for stored wdl tables with a model";
        return {};
    }
    bool codes_half() const override { return true; }
    std::uint32_t positions_per_block(Metric, std::uint32_t) const override {
        return wdl_context::positions_per_block;
    }
    std::unique_ptr<const TableCodec> open(const TableHeader& h, std::span<const std::byte> model,
                                           const std::string& what) const override {
        if (!codes(h.metric)) throw Error(what + ": the context codec codes wdl tables only");
        if (h.positions_per_block > max_positions_per_block)
            throw Error(what + ": too many positions per block for the context codec");
        const Material m = material_of(h);
        if (h.half && !odd_half_allowed(h.variant, m))
            throw Error(what + ": the half layout is not valid for this class");
        Shared<Kind> s;
        s.model = Kind::parse(model, what);
        s.model_bytes.assign(model.begin(), model.end());
        s.flags = make_position_flags(h.variant, m, h.half, Kind::features);
        s.positions_per_block = h.positions_per_block;
        return std::make_unique<ContextTable<Kind>>(std::move(s));
    }
    std::unique_ptr<ModelBuilder> model_builder(const TableHeader& h,
                                                const ModelSampling& sampling) const override {
        return std::make_unique<ContextModelBuilder<Kind>>(h, sampling);
    }
};

}  // namespace

const BlockCodec& context_block_codec() {
    static const Context<StaticKind> codec;
    return codec;
}

const BlockCodec& context_mix_block_codec() {
    static const Context<MixKind> codec;
    return codec;
}

}  // namespace damas
