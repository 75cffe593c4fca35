// How large a class a table may have.
//
// Owns: the most pieces a class may have wherever tables are made or read (damas gen -p, the
// probe's class slots, the solver's arrays of kings): 10, as the largest published english sets.
// A side then has at most 9. A variant may allow fewer a side (VariantInfo::pieces_per_side);
// the index itself has no such bound (damas count -p 12 counts its classes).
#pragma once

namespace damas {

inline constexpr int max_class_pieces = 10;
inline constexpr int max_side_pieces = max_class_pieces - 1;

}  // namespace damas
