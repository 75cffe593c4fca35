#include "rules/perft.hpp"

namespace damas {

std::uint64_t perft(const Variant& v, const Position& p, int depth, bool keep_duplicates) {
    return dispatch(v.base,
                    [&](auto rules) { return perft<decltype(rules)>(p, depth, keep_duplicates); });
}

}  // namespace damas
