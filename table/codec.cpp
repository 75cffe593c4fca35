#include "table/codec.hpp"

#include <array>

#include "rules/error.hpp"

namespace damas {
namespace {

// The registry: one entry per codec, at the index of its codec byte.
const std::array<const BlockCodec*, 6>& registry() {
    static const std::array<const BlockCodec*, 6> codecs{
        &zstd_block_codec(),        &context_block_codec(),     &context_mix_block_codec(),
        &zstd_planes_block_codec(), &mtc_context_block_codec(), &mtc_wdl_block_codec()};
    return codecs;
}

}  // namespace

std::span<const BlockCodec* const> block_codecs() {
    return registry();
}

const BlockCodec* find_block_codec(std::uint8_t byte) {
    for (const BlockCodec* c : registry())
        if (static_cast<std::uint8_t>(c->id()) == byte) return c;
    return nullptr;
}

const BlockCodec* find_block_codec(std::string_view name) {
    for (const BlockCodec* c : registry())
        if (name == c->name()) return c;
    return nullptr;
}

const BlockCodec& block_codec(Codec c) {
    if (const BlockCodec* found = find_block_codec(static_cast<std::uint8_t>(c))) return *found;
    throw Error("unknown codec " + std::to_string(static_cast<unsigned>(c)));
}

}  // namespace damas
