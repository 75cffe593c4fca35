// Board diagrams as SVG: `damas svg` and the explorer page (`damas serve`) draw with this code.
//
// Owns: the drawing of a position on its variant's board (rules/geometry.hpp), White's back row
// at the bottom, every playable square labelled with its name in the variant's notation
// (rules/notation.hpp), and an optional move drawn as an arrow with its captured pieces crossed.
// Each playable square is a <g class="square" data-square="NAME"> so that a page can find it.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "rules/move.hpp"
#include "rules/position.hpp"
#include "rules/variant.hpp"

namespace damas::cli {

struct SvgOptions {
    std::optional<Move> move;  // drawn as an arrow, its captured pieces crossed out
    bool numbers = true;       // the square names
    int square_px = 48;        // side of a square in SVG user units
};

std::string board_svg(Variant v, const Position& p, const SvgOptions& o = {});

// The legal move of p that `text` names, read as annotate reads moves (match_pdn_move,
// rules/pdn.hpp: "32-28", "28x19", "c3:e5", "28x19[23,32]", "1x10x19"); nullopt if none or
// more than one does.
std::optional<Move> find_move(Variant v, const Position& p, std::string_view text);

}  // namespace damas::cli
