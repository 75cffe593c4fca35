// The legal moves of any variant (see legal_moves.hpp).
#include "rules/legal_moves.hpp"

#include "rules/movegen.hpp"
#include "rules/variants.hpp"

namespace damas {

void generate_legal_moves(Variant v, const Position& p, MoveList& out, bool keep_duplicates) {
    dispatch(v.base, [&](auto rules) {
        MoveGenerator<decltype(rules)>::generate(p, out, keep_duplicates);
    });
}

}  // namespace damas
