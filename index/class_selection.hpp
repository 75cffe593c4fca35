// Which classes a run asks for: every class of a variant up to a number of pieces, at most so
// many a side, or one class and what it needs.
//
// Owns: planned_classes, the list in solving order (smaller classes first, index/material.hpp),
// which the generator, the rule tables' generator and the folder check share.
#pragma once

#include <optional>
#include <vector>

#include "index/material.hpp"
#include "rules/variant.hpp"

namespace damas {

struct ClassSelection {
    Variant variant;
    int max_pieces = 4;
    int max_per_side = 0;          // 0: no limit
    std::optional<Material> only;  // this class (and its mirror) and what they need
};

// The classes the selection asks for, in the order they are solved: with `only`, the class, its
// mirror and every class their moves reach, each with its own mirror.
std::vector<Material> planned_classes(const ClassSelection& selection);

}  // namespace damas
