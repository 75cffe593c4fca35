#include "gen/solve/pair_tables.hpp"

#include "index/class_limits.hpp"
#include "rules/error.hpp"
#include "rules/geometry.hpp"

namespace damas::solving {

PairTables::PairTables(const Variant& v, const PairLayout& pair_layout, const SolvedStore& solved,
                       Metric metric)
    : variant(v),
      board(v.info().board),
      layout(pair_layout),
      store(solved),
      classes(pair_layout.classes()),
      conversions(metric == Metric::mtc),
      materials{pair_layout.material(0), pair_layout.material(1)},
      indices{pair_layout.index(0), pair_layout.index(1)},
      kings_per_men_divisor(indices[0].kings_per_men()),
      free_squares(make_tables(board).squares - materials[0].men()),
      board_mask(make_tables(board).mask) {
    // The kings' rank arrays of the hot loops hold max_side_pieces kings a side
    // (gen/solve/king_ranks.hpp).
    for (const Material c : materials)
        if (c.white_kings > max_side_pieces || c.black_kings > max_side_pieces)
            throw Error("class " + c.name() + " has more kings than the solver handles (" +
                        std::to_string(max_side_pieces) + ")");
    for (int c = 0; c < 2; ++c) {
        const int wk = materials[c].white_kings, bk = materials[c].black_kings;
        kings_radix[c] = FastDivisor(choose(free_squares - wk, bk));
        white_subsets.emplace_back(wk, free_squares);
        black_subsets.emplace_back(bk, free_squares - wk);
    }
}

SliceLayout PairTables::slice_layout(int s) const {
    SliceLayout out;
    out.slice = s;
    out.men = {layout.slice_men(0, s), classes == 2 ? layout.slice_men(1, s) : SliceMen{}};
    for (int c = 0; c < classes; ++c) out.base[c] = layout.slice_base(c, s);
    out.kings_per_men = kings_per_men();
    return out;
}

}  // namespace damas::solving
