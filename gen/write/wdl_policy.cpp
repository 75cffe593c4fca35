#include "gen/write/wdl_policy.hpp"

#include "gen/options.hpp"
#include "table/codecs/wdl_context.hpp"

namespace damas {
namespace {

TableInfo info_of(const GenerateOptions& o, Material m) {
    return {o.variant,
            {static_cast<std::uint8_t>(m.white_men), static_cast<std::uint8_t>(m.white_kings),
             static_cast<std::uint8_t>(m.black_men), static_cast<std::uint8_t>(m.black_kings)},
            generator_version()};
}

// Whether a layout that leaves values to the dtw's parity may be used for m (not where a rule
// ends the game on the spot).
bool layouts_allowed_for_rules(const GenerateOptions& o, Material m) {
    const bool lone_man_rule =
        dispatch(o.variant.base, [](auto rules) { return decltype(rules)::king_beats_lone_man; });
    const auto lone_man = [](int men, int kings) { return men == 1 && kings == 0; };
    return o.variant.giveaway || !lone_man_rule ||
           !(lone_man(m.white_men, m.white_kings) || lone_man(m.black_men, m.black_kings));
}

// The half layout, for a codec that has one, where the class allows it.
bool half_layout(const GenerateOptions& o, const BlockCodec& codec, Material m) {
    return codec.codes_half() && o.mirror_wdl && layouts_allowed_for_rules(o, m) &&
           wdl_context::odd_half_allowed(o.variant, m);
}

}  // namespace

bool mirror_layout_allowed(const GenerateOptions& o, Material m) {
    return o.mirror_wdl && m != m.mirrored() && layouts_allowed_for_rules(o, m);
}

bool choose_by_estimate(const GenerateOptions& o, std::uint64_t positions) {
    return !o.wdl_codec && positions >= o.large_class_positions;
}

WdlCoding asked_wdl_coding(const GenerateOptions& o, Material m) {
    const BlockCodec& codec = block_codec(o.wdl_codec.value_or(Codec::zstd));
    return {codec.id(), half_layout(o, codec, m)};
}

WdlChoice estimated_wdl_coding(const GenerateOptions& o, Material m, std::uint64_t positions,
                               const WdlPasses& passes, const WriteOptions& wo) {
    const TableInfo info = info_of(o, m);
    WdlChoice best{
        {Codec::zstd, false},
        *estimate_wdl_bytes(info, positions, passes, Codec::zstd, false, estimate_stride, wo)};
    if (best.bytes < context_min_zstd_bytes) return best;
    for (const BlockCodec* codec : block_codecs()) {
        if (codec->id() == Codec::zstd || !codec->codes(Metric::wdl)) continue;
        const bool half = half_layout(o, *codec, m);
        const std::optional<std::uint64_t> bytes =
            estimate_wdl_bytes(info, positions, passes, codec->id(), half, estimate_stride, wo);
        if (bytes && *bytes < best.bytes) best = {{codec->id(), half}, *bytes};
    }
    return best;
}

}  // namespace damas
