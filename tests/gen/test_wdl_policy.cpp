// The automatic choice of a large class's wdl codec (gen/write/wdl_policy.hpp): it tries the codecs
// that code wdl tables, and only those (zstd-planes codes the 16-bit ones: offered wdl values, it
// throws), and keeps the one estimated smallest.
#include <gtest/gtest.h>

#include <random>

#include "gen/write/pair_writer.hpp"
#include "gen/write/wdl_policy.hpp"
#include "gen/write/writer.hpp"
#include "index/class_index.hpp"
#include "table/codec.hpp"

namespace damas {
namespace {

TEST(WdlPolicy, TheAutomaticChoiceTriesOnlyTheWdlCodecs) {
    GenerateOptions o;
    o.variant = Variant{BaseVariant::english, false};
    const Material m = *Material::parse("1111");
    // Uniform values: zstd's estimate passes context_min_zstd_bytes, so every codec is tried.
    std::vector<std::uint8_t> values(ClassIndex(o.variant.info().board, m).size());
    std::mt19937_64 rng(3);
    for (auto& v : values) v = static_cast<std::uint8_t>(rng() % 3);
    const TableInfo info = table_info(o.variant, m);
    const auto zstd = estimate_wdl_bytes(info, values.size(), wdl_passes_over(values), Codec::zstd,
                                         false, estimate_stride);
    ASSERT_TRUE(zstd.has_value());
    ASSERT_GE(*zstd, context_min_zstd_bytes);

    const WdlChoice c =
        estimated_wdl_coding(o, m, values.size(), wdl_passes_over(values), WriteOptions{});
    EXPECT_TRUE(block_codec(c.coding.codec).codes(Metric::wdl));
    EXPECT_LE(c.bytes, *zstd);
    for (const BlockCodec* codec : block_codecs()) {
        if (!codec->codes(Metric::wdl)) continue;
        const auto bytes = estimate_wdl_bytes(info, values.size(), wdl_passes_over(values),
                                              codec->id(), false, estimate_stride);
        if (bytes) {
            EXPECT_LE(c.bytes, *bytes) << codec->name();
        }
    }
}

}  // namespace
}  // namespace damas
