// The disk a run's table files take, for the plan (gen/plan/plan.hpp).
//
// Owns: bits a position of the wdl and distance files by board, kind of class (kings only, or
// with men) and pieces, as measured on this project's runs with the default codecs
// (docs/performance.md, "Disk model"), and the measured factors of the other codecs and of
// --full-wdl. A class with more pieces than any measured row of its board and kind takes the row
// with most pieces: in every measured series the bits a position fall as pieces are added, so
// that errs high.
#pragma once

#include <string>

#include "gen/options.hpp"
#include "index/material.hpp"
#include "rules/geometry.hpp"

namespace damas {

struct TableBits {
    double wdl = 0;       // the class's wdl file (the pair's mirror layout counted half each)
    double distance = 0;  // its dtw or mtc file
};

TableBits table_bits_per_position(const BoardSpec& board, Material m, const GenerateOptions& o);

// Which measured rows the estimate for this board extrapolates from, for the plan's text.
std::string disk_model_text(const BoardSpec& board, const GenerateOptions& o);

}  // namespace damas
