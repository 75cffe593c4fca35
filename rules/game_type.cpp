// PDN GameType numbers (see game_type.hpp).
#include "rules/game_type.hpp"

#include <array>

namespace damas {
namespace {

// In BaseVariant's order: international, brazilian, portuguese, russian, italian, english,
// turkish.
constexpr std::array<int, base_variant_count> numbers{20, 26, 28, 25, 22, 21, 30};

}  // namespace

std::optional<int> game_type_number(Variant v) {
    if (v.giveaway) return std::nullopt;
    return numbers[static_cast<int>(v.base)];
}

std::optional<Variant> variant_of_game_type(std::string_view tag_value) {
    std::size_t i = 0;
    while (i < tag_value.size() && tag_value[i] == ' ') ++i;
    int n = 0, digits = 0;
    for (; i < tag_value.size() && tag_value[i] >= '0' && tag_value[i] <= '9' && digits < 4; ++i)
        n = 10 * n + (tag_value[i] - '0'), ++digits;
    if (digits == 0 || (i < tag_value.size() && tag_value[i] >= '0' && tag_value[i] <= '9'))
        return std::nullopt;
    for (int b = 0; b < base_variant_count; ++b)
        if (numbers[static_cast<std::size_t>(b)] == n)
            return Variant{static_cast<BaseVariant>(b), false};
    return std::nullopt;
}

}  // namespace damas
