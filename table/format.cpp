#include "table/format.hpp"

#include <algorithm>
#include <cstring>

#include "rules/error.hpp"
#include "table/bytes.hpp"
#include "table/codec.hpp"
#include "table/hash.hpp"

namespace damas {
namespace {

// Field offsets, as documented in format.hpp.
enum Off : std::size_t {
    o_magic = 0,
    o_version = 8,
    o_header_size = 12,
    o_base = 16,
    o_giveaway = 17,
    o_metric = 18,
    o_bits = 19,
    o_material = 20,
    o_ppb = 24,
    o_layout = 28,
    o_positions = 32,
    o_blocks = 40,
    o_wins = 48,
    o_draws = 56,
    o_losses = 64,
    o_unknown = 72,
    o_table_offset = 80,
    o_blocks_offset = 88,
    o_file_size = 96,
    o_table_checksum = 104,
    o_blocks_checksum = 112,
    o_variant_name = 120,
    o_generator = 152,
    o_codec = 216,
    o_half = 217,
    o_rules_version = 218,
    o_model_size = 220,
    o_model_checksum = 224,
    o_mtc_fold = 232,
    o_header_checksum = 248,
};

void put_text(std::byte* p, std::string_view s, std::size_t size, const char* field) {
    if (s.size() >= size)
        throw Error(std::string(field) + " '" + std::string(s) +
                    "' is too long for a table header");
    std::memcpy(p, s.data(), s.size());
}

std::string get_text(const std::byte* p, std::size_t size) {
    std::string s;
    for (std::size_t i = 0; i < size && p[i] != std::byte{0}; ++i) s += static_cast<char>(p[i]);
    return s;
}

[[noreturn]] void fail(std::string_view what, const std::string& why) {
    throw Error(std::string(what) + ": " + why);
}

}  // namespace

const char* metric_name(Metric m) {
    switch (m) {
        case Metric::wdl:
            return "wdl";
        case Metric::dtw:
            return "dtw";
        case Metric::dtr:
            return "dtr";
        case Metric::dtr_fmjd:
            return "dtr-fmjd";
        case Metric::dtr_forcada:
            return "dtr-forcada";
        case Metric::dtr_forcada_gaps:
            return "dtr-forcada-gaps";
        case Metric::mtc:
            return "mtc";
    }
    return "?";
}

HeaderBytes encode_header(const TableHeader& h) {
    HeaderBytes b{};
    std::byte* p = b.data();
    std::memcpy(p + o_magic, format::magic.data(), format::magic.size());
    const bool new_fields = h.codec != Codec::zstd || h.half || h.model_size != 0;
    const std::uint32_t version = h.mtc_fold != 0        ? 5
                                  : h.rules_version != 0 ? 4
                                  : new_fields           ? 3
                                                         : 2;
    le::store<std::uint32_t>(p + o_version, version);
    le::store<std::uint32_t>(p + o_header_size, static_cast<std::uint32_t>(format::header_size));
    p[o_base] = static_cast<std::byte>(h.variant.base);
    p[o_giveaway] = static_cast<std::byte>(h.variant.giveaway ? 1 : 0);
    p[o_metric] = static_cast<std::byte>(h.metric);
    p[o_bits] = static_cast<std::byte>(format::bits_per_value(h.metric));
    for (std::size_t i = 0; i < 4; ++i) p[o_material + i] = static_cast<std::byte>(h.material[i]);
    le::store<std::uint32_t>(p + o_ppb, h.positions_per_block);
    le::store<std::uint32_t>(p + o_layout, static_cast<std::uint32_t>(h.layout));
    le::store<std::uint64_t>(p + o_positions, h.positions);
    le::store<std::uint64_t>(p + o_blocks, h.blocks);
    le::store<std::uint64_t>(p + o_wins, h.wins);
    le::store<std::uint64_t>(p + o_draws, h.draws);
    le::store<std::uint64_t>(p + o_losses, h.losses);
    le::store<std::uint64_t>(p + o_unknown, h.unknown);
    le::store<std::uint64_t>(p + o_table_offset, h.table_offset);
    le::store<std::uint64_t>(p + o_blocks_offset, h.blocks_offset);
    le::store<std::uint64_t>(p + o_file_size, h.file_size);
    le::store<std::uint64_t>(p + o_table_checksum, h.table_checksum);
    le::store<std::uint64_t>(p + o_blocks_checksum, h.blocks_checksum);
    p[o_codec] = static_cast<std::byte>(h.codec);
    p[o_half] = static_cast<std::byte>(h.half ? 1 : 0);
    le::store<std::uint16_t>(p + o_rules_version, h.rules_version);
    le::store<std::uint32_t>(p + o_model_size, h.model_size);
    le::store<std::uint64_t>(p + o_model_checksum, h.model_checksum);
    p[o_mtc_fold] = static_cast<std::byte>(h.mtc_fold);
    put_text(p + o_variant_name, h.variant.name(), format::variant_name_size, "variant name");
    put_text(p + o_generator, h.generator, format::generator_size, "generator version");
    const std::uint64_t sum = xxh64(std::span(b).first(o_header_checksum));
    le::store<std::uint64_t>(p + o_header_checksum, sum);
    return b;
}

TableHeader decode_header(std::span<const std::byte, format::header_size> b,
                          std::string_view what) {
    const std::byte* p = b.data();
    if (std::memcmp(p + o_magic, format::magic.data(), format::magic.size()) != 0)
        fail(what, "not a damas table file (wrong magic)");
    const auto version = le::load<std::uint32_t>(p + o_version);
    if (version < format::oldest_version || version > format::version)
        fail(what, "format version " + std::to_string(version) + " is not supported (expected " +
                       std::to_string(format::oldest_version) + " to " +
                       std::to_string(format::version) + ")");
    const std::uint64_t sum = xxh64(b.first(o_header_checksum));
    if (sum != le::load<std::uint64_t>(p + o_header_checksum))
        fail(what, "corrupt header (checksum mismatch)");
    if (le::load<std::uint32_t>(p + o_header_size) != format::header_size)
        fail(what, "corrupt header (header size)");

    TableHeader h;
    const auto base = static_cast<unsigned>(p[o_base]);
    const auto giveaway = static_cast<unsigned>(p[o_giveaway]);
    const auto metric = static_cast<unsigned>(p[o_metric]);
    if (base >= static_cast<unsigned>(base_variant_count) || giveaway > 1)
        fail(what, "unknown variant in header");
    if (metric >= static_cast<unsigned>(metric_count)) fail(what, "unknown metric in header");
    h.variant = Variant{static_cast<BaseVariant>(base), giveaway == 1};
    h.metric = static_cast<Metric>(metric);
    if (static_cast<unsigned>(p[o_bits]) != format::bits_per_value(h.metric))
        fail(what, "value width does not match the metric");
    for (std::size_t i = 0; i < 4; ++i)
        h.material[i] = static_cast<std::uint8_t>(p[o_material + i]);
    h.positions_per_block = le::load<std::uint32_t>(p + o_ppb);
    const auto layout = le::load<std::uint32_t>(p + o_layout);
    if (layout > static_cast<std::uint32_t>(Layout::mirror) || (version < 2 && layout != 0))
        fail(what, "unknown layout in header");
    h.layout = static_cast<Layout>(layout);
    if (h.layout == Layout::mirror && h.metric != Metric::wdl && h.metric != Metric::mtc)
        fail(what, "only wdl and mtc tables may have the mirror layout");
    h.positions = le::load<std::uint64_t>(p + o_positions);
    h.blocks = le::load<std::uint64_t>(p + o_blocks);
    h.wins = le::load<std::uint64_t>(p + o_wins);
    h.draws = le::load<std::uint64_t>(p + o_draws);
    h.losses = le::load<std::uint64_t>(p + o_losses);
    h.unknown = le::load<std::uint64_t>(p + o_unknown);
    h.table_offset = le::load<std::uint64_t>(p + o_table_offset);
    h.blocks_offset = le::load<std::uint64_t>(p + o_blocks_offset);
    h.file_size = le::load<std::uint64_t>(p + o_file_size);
    h.table_checksum = le::load<std::uint64_t>(p + o_table_checksum);
    h.blocks_checksum = le::load<std::uint64_t>(p + o_blocks_checksum);
    h.generator = get_text(p + o_generator, format::generator_size);
    const auto codec = static_cast<unsigned>(p[o_codec]);
    const auto half = static_cast<unsigned>(p[o_half]);
    h.model_size = le::load<std::uint32_t>(p + o_model_size);
    h.model_checksum = le::load<std::uint64_t>(p + o_model_checksum);
    if (version < 3 && (codec != 0 || half != 0 || h.model_size != 0 || h.model_checksum != 0))
        fail(what, "codec fields set in a version " + std::to_string(version) + " header");
    h.rules_version = le::load<std::uint16_t>(p + o_rules_version);
    if (!is_dtr(h.metric) && h.rules_version != 0) fail(what, "rules version set in a pure table");
    if (is_dtr(h.metric) && h.rules_version != format::rules_version)
        fail(what, "a rule table made under " +
                       (h.rules_version < format::rules_version ? std::string("an older")
                                                                : std::string("a newer")) +
                       " reading of the draw rules (rules version " +
                       std::to_string(std::max<int>(1, h.rules_version)) + ", this damas reads " +
                       std::to_string(format::rules_version) + "): " + format::rules_version_hint);
    h.mtc_fold = static_cast<std::uint8_t>(p[o_mtc_fold]);
    if (h.mtc_fold != 0 && (version < 5 || h.metric != Metric::mtc || h.mtc_fold < 2 ||
                            h.mtc_fold > format::max_mtc_fold))
        fail(what, "invalid mtc fold " + std::to_string(h.mtc_fold) + " in header");
    // The codec byte must name a registered codec (table/codec.hpp), which checks the fields
    // it depends on: a corrupt byte is an error here, never a codec guessed at.
    const BlockCodec* block_codec = find_block_codec(static_cast<std::uint8_t>(codec));
    if (block_codec == nullptr) fail(what, "unknown codec " + std::to_string(codec) + " in header");
    if (half > 1) fail(what, "unknown half layout flag " + std::to_string(half) + " in header");
    h.codec = block_codec->id();
    h.half = half == 1;
    if (const std::string problem = block_codec->header_problem(h); !problem.empty())
        fail(what, problem);

    const std::uint32_t ppb = h.positions_per_block;
    if (h.positions >= format::max_positions) fail(what, "index size too large");
    if (ppb == 0 || ppb % 4 != 0 || format::block_bytes(h.metric, ppb) > format::max_block_bytes)
        fail(what, "invalid positions per block " + std::to_string(ppb));
    const std::uint64_t blocks = h.layout == Layout::mirror ? 0 : (h.positions + ppb - 1) / ppb;
    if (h.blocks != blocks) fail(what, "block count does not match size");
    if (h.wins + h.draws + h.losses + h.unknown != h.positions)
        fail(what, "value counts do not add up to the index size");
    if (h.table_offset != format::header_size ||
        h.blocks_offset != h.table_offset + format::table_bytes(h.blocks) + h.model_size ||
        h.file_size < h.blocks_offset)
        fail(what, "inconsistent offsets in header");
    return h;
}

std::filesystem::path table_path(const std::filesystem::path& dir, Variant variant,
                                 std::string_view material, Metric metric) {
    std::string file(material);
    file += '.';
    file += metric_name(metric);
    return dir / variant.name() / file;
}

}  // namespace damas
