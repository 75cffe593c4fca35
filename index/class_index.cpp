#include "index/class_index.hpp"

#include <algorithm>
#include <cmath>

#include "index/man_rows.hpp"
#include "rules/error.hpp"

namespace damas {
namespace {

constexpr std::uint64_t max_index = ~std::uint64_t{0};

// a * b, or throws when the class would need more than 64 bits.
std::uint64_t checked_product(std::uint64_t a, std::uint64_t b, const Material& m) {
    const uint128 p = uint128{a} * b;
    if (p > max_index) throw Error("class " + m.name() + " has 2^64 positions or more");
    return static_cast<std::uint64_t>(p);
}

std::uint64_t checked_sum(std::uint64_t a, std::uint64_t b, const Material& m) {
    if (a > max_index - b) throw Error("class " + m.name() + " has 2^64 positions or more");
    return a + b;
}

// The first dense square on row y or above.
int first_square_from_row(const GeometryTables& t, int y) {
    int d = 0;
    while (d < t.squares && t.y_of_square[d] < y) ++d;
    return d;
}

}  // namespace

ClassIndex::ClassIndex(const BoardSpec& board, Material m) : board_(board), material_(m) {
    if (m.white_men < 0 || m.white_kings < 0 || m.black_men < 0 || m.black_kings < 0)
        throw Error("a class cannot have a negative number of pieces");
    init_domains();
    if (m.pieces() > squares_) throw Error("class " + m.name() + " has more pieces than squares");
    init_sizes();
    init_slices();
}

void ClassIndex::init_domains() {
    const GeometryTables t = make_tables(board_);
    squares_ = t.squares;
    board_mask_ = t.mask;
    const RowRange white_rows = man_rows(board_, Color::white);
    const RowRange black_rows = man_rows(board_, Color::black);
    white_lo_ = first_square_from_row(t, white_rows.first);
    white_hi_ = first_square_from_row(t, white_rows.last + 1);
    black_lo_ = first_square_from_row(t, black_rows.first);
    black_hi_ = first_square_from_row(t, black_rows.last + 1);
    if (!(white_lo_ <= black_lo_ && black_lo_ <= white_hi_ && white_hi_ <= black_hi_))
        throw Error("man rows of this board do not fit the index layout");
    for (int b = 0; b < 64; ++b) dense_of_bit_[b] = t.square_of_bit[b];
    for (int d = 0; d < squares_; ++d) {
        const int b = t.bit_of_square[d], y = t.y_of_square[d];
        bit_of_dense_[d] = bit(b);
        if (d >= white_lo_ && d < black_lo_) white_only_ |= bit(b);
        if (white_rows.contains(y)) white_domain_ |= bit(b);
        if (black_rows.contains(y)) black_domain_ |= bit(b);
        white_advancement_[b] = static_cast<std::int8_t>(man_advancement(board_, Color::white, y));
        black_advancement_[b] = static_cast<std::int8_t>(man_advancement(board_, Color::black, y));
    }
}

void ClassIndex::init_sizes() {
    const Material& m = material_;
    const int white_only = black_lo_ - white_lo_, shared = white_hi_ - black_lo_;
    const int black_domain = black_hi_ - black_lo_;
    max_block_ = std::min({m.white_men, white_only, max_blocks - 1});
    std::uint64_t total = 0;
    for (int a = 0; a <= max_block_; ++a) {
        men_offset_[a] = total;
        const int shared_men = m.white_men - a;
        shared_radix_[a] = FastDivisor(std::max<std::uint64_t>(binomial(shared, shared_men), 1));
        const std::uint64_t black = binomial(black_domain - shared_men, m.black_men);
        black_radix_[a] = FastDivisor(std::max<std::uint64_t>(black, 1));
        const std::uint64_t white = binomial(white_only, a) * binomial(shared, shared_men);
        total = checked_sum(total, checked_product(white, black, m), m);
    }
    men_offset_[max_block_ + 1] = total;
    // Blocks where the Black men do not fit have no configuration, so no group.
    std::uint64_t groups = 0;
    for (int a = 0; a <= max_block_; ++a) {
        group_offset_[a] = groups;
        if (men_offset_[a + 1] > men_offset_[a])
            groups += binomial(white_only, a) * shared_radix_[a].divisor();
    }
    group_offset_[max_block_ + 1] = groups;
    men_count_ = total;
    const int free = squares_ - m.men();
    const std::uint64_t black_kings = binomial(free - m.white_kings, m.black_kings);
    black_kings_radix_ = FastDivisor(std::max<std::uint64_t>(black_kings, 1));
    const std::uint64_t kings = checked_product(binomial(free, m.white_kings), black_kings, m);
    kings_per_men_ = FastDivisor(std::max<std::uint64_t>(kings, 1));
    size_ = kings == 0 ? 0 : checked_product(men_count_, kings, m);
}

std::optional<std::string> ClassIndex::why_not_indexable(const Position& p) const {
    if (p.side != Color::white) return "the position has Black to move; flip it first";
    if (p.pieces[0] & p.pieces[1]) return "two pieces on one square";
    if ((p.occupied() | p.kings) & ~board_mask_) return "a piece is off the board";
    if (p.kings & ~p.occupied()) return "a king without a piece";
    if (Material::of(p) != material_)
        return "the position's material " + Material::of(p).name() + " is not class " +
               material_.name();
    if (p.men(Color::white) & ~white_domain_)
        return "a white man stands on a row white men never reach";
    if (p.men(Color::black) & ~black_domain_)
        return "a black man stands on a row black men never reach";
    return std::nullopt;
}

MenPlacement ClassIndex::men(std::uint64_t men_index) const {
    return unindex_men(men_index).bits;
}

ClassIndex::MenGroup ClassIndex::men_group(std::uint64_t group) const {
    int a = max_block_;
    while (group < group_offset_[a]) --a;
    MenGroup g;
    g.size = black_radix_[a].divisor();
    g.first_men = men_offset_[a] + (group - group_offset_[a]) * g.size;
    g.white_men = unindex_men(g.first_men).bits.white;
    Bitboard dense_white = 0;
    for_each_bit(g.white_men, [&](int b) {
        dense_white |= bit(dense(b));
        g.white_advancement += white_advancement_[b];
    });
    for (int d = black_lo_; d < black_hi_; ++d) {
        if (dense_white & bit(d)) continue;
        const Bitboard square = bit_of_dense_[d];
        g.black_square[g.black_squares] = square;
        g.black_advancement[g.black_squares++] = black_advancement_[lowest_bit(square)];
    }
    return g;
}

}  // namespace damas
