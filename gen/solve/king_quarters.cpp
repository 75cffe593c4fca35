#include "gen/solve/king_quarters.hpp"

#include "index/bits.hpp"
#include "index/combination.hpp"
#include "rules/error.hpp"

namespace damas {
namespace {

constexpr int squares = 64;
constexpr Bitboard files_a_to_d = 0x0F0F0F0F0F0F0F0FULL;
constexpr Bitboard rows_1_to_4 = 0x00000000FFFFFFFFULL;

// The side whose kings decide the held position of class m: a side with an odd number, the
// fewer where both are odd (the table has C(64, n) entries: 0701's 7 kings would take 2.5 GB).
Color deciding_side(Material m) {
    const bool white_odd = m.white_kings % 2 == 1, black_odd = m.black_kings % 2 == 1;
    if (white_odd && black_odd) return m.white_kings <= m.black_kings ? Color::white : Color::black;
    return white_odd ? Color::white : Color::black;
}
int kings_of(Material m, Color side) {
    return side == Color::white ? m.white_kings : m.black_kings;
}

// Whether a placement of n kings (n odd) is the held one of its orbit.
bool held(Bitboard kings, int n) {
    return 2 * count_bits(kings & files_a_to_d) > n && 2 * count_bits(kings & rows_1_to_4) > n;
}

std::uint64_t colex_rank(Bitboard set) {
    std::uint64_t rank = 0;
    int k = 0;
    for_each_bit(set, [&](int b) { rank += choose(b, ++k); });
    return rank;
}

}  // namespace

bool KingQuarters::holds(const BoardSpec& board, Material m) {
    return board.grid == Grid::orthogonal && board.width == 8 && board.height == 8 &&
           m.men() == 0 && (m.white_kings % 2 == 1 || m.black_kings % 2 == 1);
}

std::uint64_t KingQuarters::held_positions(Material m) {
    const int n = kings_of(m, deciding_side(m)), other = m.white_kings + m.black_kings - n;
    return choose(squares, n) / 4 * choose(squares - n, other);
}

std::uint64_t KingQuarters::table_bytes(Material m) {
    const int n = kings_of(m, deciding_side(m));
    return choose(squares, n) * sizeof(std::uint32_t) + choose(squares, n) / 4 * sizeof(Bitboard);
}

KingQuarters::KingQuarters(Material m, int classes) : classes_(classes) {
    if (!holds(board_8x8_orthogonal, m))
        throw Error("class " + m.name() + " is not held a quarter");
    odd_side_[0] = deciding_side(m);
    odd_side_[1] = ~odd_side_[0];  // the same kings, in the mirror class
    odd_count_ = kings_of(m, odd_side_[0]);
    other_count_ = m.white_kings + m.black_kings - odd_count_;
    others_ = FastDivisor(choose(squares - odd_count_, other_count_));
    held_rank_.assign(choose(squares, odd_count_), UINT32_MAX);
    std::array<int, squares> c{};
    for (int i = 0; i < odd_count_; ++i) c[i] = i;
    std::uint64_t rank = 0;
    do {
        Bitboard kings = 0;
        for (int i = 0; i < odd_count_; ++i) kings |= bit(c[i]);
        if (held(kings, odd_count_)) {
            held_rank_[rank] = static_cast<std::uint32_t>(held_kings_.size());
            held_kings_.push_back(kings);
        }
        ++rank;
    } while (next_colex(c.data(), odd_count_, squares));
    if (held_kings_.size() * 4 != held_rank_.size())
        throw Error("the held king placements are not a quarter");
    const std::uint64_t per_class = held_kings_.size() * others_.divisor();
    for (int k = 0; k < classes; ++k) base_[k + 1] = base_[k] + per_class;
}

std::uint64_t KingQuarters::locate(int c, const Position& p) const {
    const Color side = odd_side_[c];
    Bitboard odd = p.of(side), other = p.of(~side);
    if (2 * count_bits(odd & files_a_to_d) < odd_count_)
        odd = reverse_files(odd), other = reverse_files(other);
    if (2 * count_bits(odd & rows_1_to_4) < odd_count_)
        odd = __builtin_bswap64(odd), other = __builtin_bswap64(other);  // rows reversed
    std::uint64_t other_rank = 0;
    int k = 0;
    for_each_bit(other, [&](int b) { other_rank += choose(b - count_below(odd, b), ++k); });
    return base_[c] + held_rank_[colex_rank(odd)] * others_.divisor() + other_rank;
}

Position KingQuarters::position_at(std::uint64_t local, int& c) const {
    c = classes_ == 2 && local >= base_[1] ? 1 : 0;
    std::uint64_t rank = 0, other_rank = 0;
    others_.divide(local - base_[c], rank, other_rank);
    const Bitboard odd = held_kings_[rank];
    Bitboard other = 0;
    unrank_colex(other_rank, other_count_, squares - odd_count_,
                 [&](int s) { other |= bit(skip_taken(s, odd)); });
    Position p;
    p.pieces[static_cast<int>(odd_side_[c])] = odd;
    p.pieces[static_cast<int>(~odd_side_[c])] = other;
    p.kings = odd | other;
    return p;
}

}  // namespace damas
