// PDN 3.0's GameType tag: the number of each variant, as other programs write and read it
// (20 international, 21 english, 22 italian, 25 russian, 26 brazilian, 28 portuguese,
// 30 turkish). The giveaway forms have no number of their own: they get none, and no number
// names them.
//
// Owns: the table between the numbers and damas's variants, in this one place.
#pragma once

#include <optional>
#include <string_view>

#include "rules/variant.hpp"

namespace damas {

// The GameType number of a variant; nullopt for a giveaway form.
std::optional<int> game_type_number(Variant v);

// The variant a GameType tag's value names: its leading number ("20", or "20,W,10,10,N2,0"
// with the board's details after it); nullopt when the value starts with no number or the
// number is none of damas's variants.
std::optional<Variant> variant_of_game_type(std::string_view tag_value);

}  // namespace damas
