#include "rules/variant.hpp"

namespace damas {
namespace {

constexpr std::array<VariantInfo, base_variant_count> variant_table{{
    {BaseVariant::international, "international", board_10x10, Numbering::top_left, false,
     Color::white, "W:W31-50:B1-20", 20},
    {BaseVariant::brazilian, "brazilian", board_8x8, Numbering::algebraic, true, Color::white,
     "W:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,c3,e3,g3:Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8", 12},
    {BaseVariant::portuguese, "portuguese", board_8x8_a1_light, Numbering::bottom_right, false,
     Color::white, "W:W1-12:B21-32", 12},
    {BaseVariant::russian, "russian", board_8x8, Numbering::algebraic, true, Color::white,
     "W:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,c3,e3,g3:Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8", 12},
    {BaseVariant::italian, "italian", board_8x8_a1_light, Numbering::top_left, false, Color::white,
     "W:W21-32:B1-12", 12},
    {BaseVariant::english, "english", board_8x8, Numbering::top_left, false, Color::black,
     "B:W21-32:B1-12", 12},
    {BaseVariant::turkish, "turkish", board_8x8_orthogonal, Numbering::algebraic, false,
     Color::white,
     "W:Wa2,b2,c2,d2,e2,f2,g2,h2,a3,b3,c3,d3,e3,f3,g3,h3:"
     "Ba6,b6,c6,d6,e6,f6,g6,h6,a7,b7,c7,d7,e7,f7,g7,h7",
     16},
}};

constexpr std::string_view giveaway_suffix = "-giveaway";

}  // namespace

const VariantInfo& info(BaseVariant base) {
    return variant_table[static_cast<int>(base)];
}

const VariantInfo& Variant::info() const {
    return damas::info(base);
}

std::string Variant::name() const {
    std::string n(info().name);
    if (giveaway) n += giveaway_suffix;
    return n;
}

std::optional<Variant> parse_variant(std::string_view name) {
    bool giveaway = false;
    if (name.size() > giveaway_suffix.size() && name.ends_with(giveaway_suffix)) {
        giveaway = true;
        name.remove_suffix(giveaway_suffix.size());
    }
    for (const VariantInfo& v : variant_table)
        if (v.name == name) return Variant{v.base, giveaway};
    return std::nullopt;
}

std::array<Variant, 2 * base_variant_count> all_variants() {
    std::array<Variant, 2 * base_variant_count> all{};
    for (int i = 0; i < base_variant_count; ++i) {
        all[i] = Variant{static_cast<BaseVariant>(i), false};
        all[i + base_variant_count] = Variant{static_cast<BaseVariant>(i), true};
    }
    return all;
}

std::string variant_names() {
    std::string s;
    for (const Variant& v : all_variants()) {
        if (!s.empty()) s += ", ";
        s += v.name();
    }
    return s;
}

}  // namespace damas
