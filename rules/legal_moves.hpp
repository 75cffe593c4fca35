// The legal moves of a position of any variant, for code that holds the variant as a value.
//
// MoveGenerator<Rules> is the hot path (the generator and the probe call it with the rules as a
// type); this is its one dispatch over the variants, compiled once here, for the study tools,
// the Hub engine and the tests, which would otherwise each instantiate every variant's generator.
#pragma once

#include "rules/move.hpp"
#include "rules/position.hpp"
#include "rules/variant.hpp"

namespace damas {

// The legal moves of p (the side to move's), as MoveGenerator<Rules>::generate gives them.
void generate_legal_moves(Variant v, const Position& p, MoveList& out,
                          bool keep_duplicates = false);

}  // namespace damas
