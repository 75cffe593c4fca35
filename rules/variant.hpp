// Runtime description of the variants: names, numbering, initial position, and the dispatch
// from a runtime Variant to the compile-time rules (variants.hpp).
//
// Owns: the list of variants the command line and the files name. A Variant is a base variant
// plus the giveaway flag (moves identical, result reversed: S004 "perde-ganha").
#pragma once

#include <array>
#include <optional>
#include <string>
#include <string_view>

#include "rules/geometry.hpp"
#include "rules/variants.hpp"

namespace damas {

enum class BaseVariant : std::uint8_t {
    international,
    brazilian,
    portuguese,
    russian,
    italian,
    english,
    turkish,
};
inline constexpr int base_variant_count = 7;

// How squares are written (RULES.md, "Square numbering and notation").
enum class Numbering : std::uint8_t {
    top_left,      // 1 = first playable square of the top row, left to right, rows downwards
    bottom_right,  // 1 = first playable square of the bottom row from the right, rows upwards
    algebraic,     // a1..h8
};

struct VariantInfo {
    BaseVariant base;
    std::string_view name;
    BoardSpec board;
    Numbering numbering;   // how squares print
    bool accepts_numeric;  // algebraic variants that also read the numeric form (top_left)
    Color first_to_move;
    std::string_view initial_fen;
    int pieces_per_side;  // at the start; no position may have more
};

struct Variant {
    BaseVariant base = BaseVariant::international;
    bool giveaway = false;

    const VariantInfo& info() const;
    std::string name() const;
    constexpr bool operator==(const Variant&) const = default;
};

const VariantInfo& info(BaseVariant base);
std::optional<Variant> parse_variant(std::string_view name);
// Every variant name, base variants first then their giveaway forms.
std::array<Variant, 2 * base_variant_count> all_variants();
std::string variant_names();  // comma-separated, for help and error messages

// Calls f(R{}) with the rules struct of the base variant; every caller's templates are
// instantiated once per base variant.
template <class F>
decltype(auto) dispatch(BaseVariant base, F&& f) {
    switch (base) {
        case BaseVariant::international:
            return f(International{});
        case BaseVariant::brazilian:
            return f(Brazilian{});
        case BaseVariant::portuguese:
            return f(Portuguese{});
        case BaseVariant::russian:
            return f(Russian{});
        case BaseVariant::italian:
            return f(Italian{});
        case BaseVariant::english:
            return f(English{});
        case BaseVariant::turkish:
            return f(Turkish{});
    }
    return f(International{});
}

}  // namespace damas
