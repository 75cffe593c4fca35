// The context codecs' position flags (wdl_context::PositionFlags, without the mixed model's
// features): skipped where the side to move must capture (or, skip_odd, where the rows add up to
// an odd number), else threat where the opponent could capture if it were to move. They are
// computed a run of one moving king at a time (MoveGenerator::capture_squares_with_king); every
// variant's flags are checked here against has_capture of each position, over whole classes of
// 2-4 pieces and ranges of 5-piece ones, from any first position.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "index/class_index.hpp"
#include "rules/movegen.hpp"
#include "rules/variants.hpp"
#include "table/codecs/wdl_context.hpp"

namespace damas {
namespace {

// The flags of positions [first, first + n) of class m, position by position.
std::vector<std::uint8_t> flags_by_position(Variant v, Material m, bool skip_odd,
                                            std::uint64_t first, std::size_t n) {
    return dispatch(v.base, [&](auto rules) {
        using R = decltype(rules);
        using Generator = MoveGenerator<R>;
        Bitboard odd_rows = 0;
        for (int y = 1; y < R::Board::height; y += 2) odd_rows |= R::Board::row(y);
        std::vector<std::uint8_t> out(n, 0xFF);
        const ClassIndex index(R::Board::spec, m);
        index.for_each_position(first, first + n, [&](std::uint64_t i, const Position& p) {
            Position flipped = p;
            flipped.side = ~p.side;
            const bool odd = (popcount(p.occupied() & odd_rows) & 1) != 0;
            out[i - first] = Generator::has_capture(p) || (skip_odd && odd) ? wdl_context::skipped
                             : Generator::has_capture(flipped)              ? wdl_context::threat
                                                                            : 0;
        });
        return out;
    });
}

void expect_flags(Variant v, Material m, bool skip_odd, std::uint64_t first, std::size_t n) {
    const auto flags = wdl_context::make_position_flags(v, m, skip_odd);
    std::vector<std::uint8_t> got(n, 0xEE);
    flags->compute(first, got);
    const std::vector<std::uint8_t> want = flags_by_position(v, m, skip_odd, first, n);
    for (std::size_t k = 0; k < n; ++k)
        ASSERT_EQ(int{got[k]}, int{want[k]})
            << m.name() << " position " << first + k << (skip_odd ? " skip_odd" : "");
}

// Every base variant: kings that do not fly (english, italian), flying ones on the diagonal
// boards, men that capture backwards or not, men that may not capture kings (italian,
// portuguese), and turkish's orthogonal board.
const Variant variants[] = {{BaseVariant::international, false}, {BaseVariant::brazilian, false},
                            {BaseVariant::portuguese, false},    {BaseVariant::russian, false},
                            {BaseVariant::italian, false},       {BaseVariant::english, false},
                            {BaseVariant::turkish, false}};

TEST(PositionFlags, WholeClassesAsHasCapture) {
    for (const Variant v : variants)
        for (int pieces = 2; pieces <= 4; ++pieces)
            for (const Material& m : classes_with_pieces(pieces)) {
                const std::uint64_t size = ClassIndex(v.info().board, m).size();
                if (size > 2'000'000) continue;
                for (const bool skip_odd : {false, true})
                    expect_flags(v, m, skip_odd, 0, static_cast<std::size_t>(size));
            }
}

TEST(PositionFlags, RangesOfFivePieceClasses) {
    std::mt19937_64 rng(34);
    for (const Variant v : variants)
        for (const Material m : {Material{1, 1, 1, 2}, Material{0, 3, 0, 2}, Material{2, 1, 0, 2},
                                 Material{0, 1, 2, 2}, Material{1, 2, 0, 2}}) {
            const std::uint64_t size = ClassIndex(v.info().board, m).size();
            for (int t = 0; t < 6; ++t) {
                const std::uint64_t first = rng() % size;
                const auto n = static_cast<std::size_t>(
                    std::min<std::uint64_t>(size - first, 1 + rng() % (64 * 1024)));
                expect_flags(v, m, t % 2 == 1, first, n);
            }
        }
}

}  // namespace
}  // namespace damas
