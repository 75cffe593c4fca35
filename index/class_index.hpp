// ClassIndex: a bijection between the placements of one material class on one board and
// [0, size()), White to move. The generator and the prober address every position by it.
//
// Owns: the index layout. A placement puts men only where man_rows.hpp allows (never on their
// own promotion row; turkish, never on their own back row either) and kings on any free square.
// Squares are dense numbers (geometry.hpp: row by row from White's back row), so each man
// domain is a range: White men [white_lo, white_hi), Black men [black_lo, black_hi), with
// white_lo <= black_lo <= white_hi <= black_hi. [white_lo, black_lo) takes White men only
// ("white-only"), [black_lo, white_hi) both colours ("shared").
//
//   index = men_index * kings_per_men() + white_kings_rank * C(free - wk, bk) + black_kings_rank
//   men_index = men_offset[a] + (white_only_rank * C(shared, wm - a) + shared_rank)
//                               * C(black domain - (wm - a), bm) + black_men_rank
//
// a = White men on white-only squares (the block; blocks in increasing a). Every rank is a colex
// combination rank (combination.hpp) relative to its domain: white-only men among the
// white-only squares, the other White men among the shared squares, Black men among the Black
// domain minus White's men, White kings among the squares no man takes, Black kings among those
// minus White's kings. So the men are the major key: all king placements of one men
// configuration are kings_per_men() consecutive indices.
//
// Slices (what the generator solves at once): a slice is the set of men configurations with one
// total advancement, the sum over men of their man_advancement() (a White man's row, a Black
// man's rows from the top). A forward man move raises it by one, a turkish sideways move keeps
// it, and the colour flip keeps it, so a quiet non-promoting man move leads (in this class's
// mirror) to a more advanced slice or the same one. Slices are numbered from the most advanced
// (slice 0) to the least; solving them in that order solves every such successor first. A class
// and its mirror share slice numbers. Slices are not index ranges: walk one with
// for_each_men_in_slice.
//
// index() and unindex() never allocate and are safe to call from any number of threads.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "index/bits.hpp"
#include "index/combination.hpp"
#include "index/fast_divide.hpp"
#include "index/material.hpp"
#include "rules/geometry.hpp"
#include "rules/position.hpp"

namespace damas {

// The men of a configuration, as bitboards of the board's layout.
struct MenPlacement {
    Bitboard white = 0;
    Bitboard black = 0;
};

class ClassIndex {
  public:
    // Throws damas::Error if the material is negative or the class has 2^64 positions or more.
    ClassIndex(const BoardSpec& board, Material m);

    Material material() const { return material_; }
    const BoardSpec& board() const { return board_; }
    std::uint64_t size() const { return size_; }

    // p: White to move, exactly this material, men where man_rows() allows. Unchecked: see
    // why_not_indexable().
    std::uint64_t index(const Position& p) const;
    // i < size(); the position has White to move.
    Position unindex(std::uint64_t i) const;
    // Why p cannot be indexed in this class (one line), or nullopt when it can.
    std::optional<std::string> why_not_indexable(const Position& p) const;

    // Men configurations: index(p) / kings_per_men() is the men index of p.
    std::uint64_t men_count() const { return men_count_; }
    std::uint64_t kings_per_men() const { return kings_per_men_.divisor(); }
    std::uint64_t men_index(Bitboard white_men, Bitboard black_men) const;
    // The placement of the kings among the squares the men leave: index(p) % kings_per_men().
    std::uint64_t kings_index(const Position& p) const;
    // The same from the squares of all the men and each side's kings.
    std::uint64_t kings_index(Bitboard men, Bitboard white_kings, Bitboard black_kings) const;
    MenPlacement men(std::uint64_t men_index) const;
    // The kings of placement kings_index (< kings_per_men()) among the squares `men` leaves:
    // unindex() for a men configuration already known.
    void unindex_kings(std::uint64_t kings_index, Bitboard men, Bitboard& white_kings,
                       Bitboard& black_kings) const;

    // Calls f(i, position) for i = begin..end-1 in order, stepping from one placement of the
    // kings to the next instead of unindexing each.
    template <class F>
    void for_each_position(std::uint64_t begin, std::uint64_t end, F&& f) const;
    // The same positions as runs in which one king alone moves: f(i, rest, colour, squares) for
    // positions i .. i + squares.size() - 1, each rest (White to move) plus a king of `colour` on
    // squares[k], a one-bit bitboard, in order. The moving king is the innermost one (the
    // lowest Black king, or the lowest White king where there is no Black king), so a run is at
    // most the free squares long. A class with kings only: nothing is called for one without.
    template <class F>
    void for_each_king_run(std::uint64_t begin, std::uint64_t end, F&& f) const;

    // Slices, most advanced first (see the top of this file).
    int slice_count() const { return static_cast<int>(slice_advancement_.size()); }
    int slice_of(const Position& p) const;
    int slice_of_men(Bitboard white_men, Bitboard black_men) const;
    int slice_advancement(int slice) const { return slice_advancement_[slice]; }
    std::uint64_t men_in_slice(int slice) const { return men_in_slice_[slice]; }
    std::uint64_t positions_in_slice(int slice) const;
    // Bytes of the largest slice at bytes_per_position (which may be a fraction, 0.25 for 2
    // bits), and whether every slice fits in budget_bytes.
    std::uint64_t largest_slice_bytes(double bytes_per_position) const;
    bool slices_fit(std::uint64_t budget_bytes, double bytes_per_position) const;
    // Calls f(men_index, placement) for every men configuration of the slice (not in index
    // order); a class without men has one slice holding the empty configuration.
    void for_each_men_in_slice(
        int slice, const std::function<void(std::uint64_t, const MenPlacement&)>& f) const;
    // The slice of a total advancement; -1 where no configuration has it.
    int slice_of_advancement(int advancement) const;

    // Men groups: the men configurations of one placement of the White men. Their Black men
    // take every placement among the Black domain's squares that White's men leave, in colex
    // order (black_men_rank above), so a group is consecutive men indices and its White
    // advancement is fixed: within a group, the slice depends on the Black men alone. Groups are
    // numbered in men index order; each holds at least one configuration.
    struct MenGroup {
        std::uint64_t first_men = 0, size = 0;  // its men indices [first_men, first_men + size)
        Bitboard white_men = 0;
        int white_advancement = 0;
        // The squares the Black men may take, in the order their colex ranks count them (dense
        // order): their layout bits and their Black advancement, which never grows along them.
        int black_squares = 0;
        std::array<Bitboard, 64> black_square;
        std::array<std::int8_t, 64> black_advancement;
    };
    std::uint64_t men_group_count() const { return group_offset_[max_block_ + 1]; }
    std::uint64_t men_group_of(std::uint64_t men_index) const;
    // Its unindex: the group's men indices and squares.
    MenGroup men_group(std::uint64_t group) const;

  private:
    struct MenDense {  // the men of a configuration as bitboards and as dense squares
        MenPlacement bits;
        Bitboard dense_all = 0;
    };
    struct KingWalk;  // the kings of one men configuration in index order (class_index_walk.hpp)
    static constexpr int max_blocks = 16;

    int dense(int bit_index) const { return dense_of_bit_[bit_index]; }
    MenDense unindex_men(std::uint64_t men_index) const;
    Bitboard place_kings(std::uint64_t rank, int count, int domain, Bitboard dense_taken,
                         Bitboard& dense_out) const;
    int advancement(Bitboard white_men, Bitboard black_men) const;
    void init_domains();
    void init_sizes();
    void init_slices();
    std::vector<std::uint64_t> men_per_advancement() const;

    BoardSpec board_;
    Material material_;
    int squares_ = 0;
    Bitboard board_mask_ = 0;
    int white_lo_ = 0, white_hi_ = 0, black_lo_ = 0, black_hi_ = 0;
    Bitboard white_only_ = 0;                       // layout bits of the white-only squares
    Bitboard white_domain_ = 0, black_domain_ = 0;  // layout bits where each colour's men may stand
    std::array<std::int8_t, 64> dense_of_bit_{};
    std::array<Bitboard, 64> bit_of_dense_{};  // as a one-bit bitboard
    std::array<std::int8_t, 64> white_advancement_{}, black_advancement_{};  // by layout bit
    int max_block_ = 0;
    std::array<std::uint64_t, max_blocks + 1> men_offset_{};
    std::array<std::uint64_t, max_blocks + 1> group_offset_{};  // the first group of each block
    std::array<FastDivisor, max_blocks> shared_radix_{}, black_radix_{};
    FastDivisor kings_per_men_, black_kings_radix_;
    std::uint64_t men_count_ = 0, size_ = 0;
    std::vector<int> slice_advancement_;     // by slice
    std::vector<int> slice_of_advancement_;  // by advancement, -1 where empty
    std::vector<std::uint64_t> men_in_slice_;
};

inline std::uint64_t ClassIndex::men_index(Bitboard white_men, Bitboard black_men) const {
    std::uint64_t white_only_rank = 0, shared_rank = 0, black_rank = 0;
    int k = 0;
    for_each_bit(white_men & white_only_,
                 [&](int b) { white_only_rank += choose(dense(b) - white_lo_, ++k); });
    const int a = k;
    k = 0;
    const Bitboard white_shared = white_men & ~white_only_;
    for_each_bit(white_shared, [&](int b) { shared_rank += choose(dense(b) - black_lo_, ++k); });
    k = 0;
    for_each_bit(black_men, [&](int b) {
        black_rank += choose(dense(b) - black_lo_ - count_below(white_shared, b), ++k);
    });
    return men_offset_[a] +
           (white_only_rank * shared_radix_[a].divisor() + shared_rank) *
               black_radix_[a].divisor() +
           black_rank;
}

inline std::uint64_t ClassIndex::men_group_of(std::uint64_t men_index) const {
    int a = max_block_;
    while (men_index < men_offset_[a]) --a;
    std::uint64_t white_ranks = 0, black_rank = 0;
    black_radix_[a].divide(men_index - men_offset_[a], white_ranks, black_rank);
    return group_offset_[a] + white_ranks;
}

inline std::uint64_t ClassIndex::index(const Position& p) const {
    return men_index(p.men(Color::white), p.men(Color::black)) * kings_per_men_.divisor() +
           kings_index(p);
}

inline std::uint64_t ClassIndex::kings_index(const Position& p) const {
    return kings_index(p.men(Color::white) | p.men(Color::black), p.kings_of(Color::white),
                       p.kings_of(Color::black));
}

inline std::uint64_t ClassIndex::kings_index(Bitboard men, Bitboard white_kings,
                                             Bitboard black_kings) const {
    const Bitboard kings_taken = men | white_kings;
    std::uint64_t white_rank = 0, black_rank = 0;
    int k = 0;
    for_each_bit(white_kings,
                 [&](int b) { white_rank += choose(dense(b) - count_below(men, b), ++k); });
    k = 0;
    for_each_bit(black_kings,
                 [&](int b) { black_rank += choose(dense(b) - count_below(kings_taken, b), ++k); });
    return white_rank * black_kings_radix_.divisor() + black_rank;
}

inline ClassIndex::MenDense ClassIndex::unindex_men(std::uint64_t men_index) const {
    int a = max_block_;
    while (men_index < men_offset_[a]) --a;
    std::uint64_t white_ranks = 0, black_rank = 0, white_only_rank = 0, shared_rank = 0;
    black_radix_[a].divide(men_index - men_offset_[a], white_ranks, black_rank);
    shared_radix_[a].divide(white_ranks, white_only_rank, shared_rank);
    MenDense m;
    Bitboard dense_white_shared = 0;
    unrank_colex(white_only_rank, a, black_lo_ - white_lo_, [&](int c) {
        m.bits.white |= bit_of_dense_[white_lo_ + c];
        m.dense_all |= bit(white_lo_ + c);
    });
    const int shared_men = material_.white_men - a;
    unrank_colex(shared_rank, shared_men, white_hi_ - black_lo_, [&](int c) {
        m.bits.white |= bit_of_dense_[black_lo_ + c];
        dense_white_shared |= bit(black_lo_ + c);
    });
    m.dense_all |= dense_white_shared;
    unrank_colex(black_rank, material_.black_men, black_hi_ - black_lo_ - shared_men, [&](int c) {
        const int d = skip_taken(black_lo_ + c, dense_white_shared);
        m.bits.black |= bit_of_dense_[d];
        m.dense_all |= bit(d);
    });
    return m;
}

// `count` kings on the `domain` squares that dense_taken leaves free, from their rank.
inline Bitboard ClassIndex::place_kings(std::uint64_t rank, int count, int domain,
                                        Bitboard dense_taken, Bitboard& dense_out) const {
    Bitboard kings = 0;
    unrank_colex(rank, count, domain, [&](int c) {
        const int d = skip_taken(c, dense_taken);
        kings |= bit_of_dense_[d];
        dense_out |= bit(d);
    });
    return kings;
}

inline void ClassIndex::unindex_kings(std::uint64_t kings_index, Bitboard men,
                                      Bitboard& white_kings, Bitboard& black_kings) const {
    std::uint64_t white_rank = 0, black_rank = 0;
    black_kings_radix_.divide(kings_index, white_rank, black_rank);
    Bitboard dense_men = 0;
    for_each_bit(men, [&](int b) { dense_men |= bit(dense(b)); });
    Bitboard dense_taken = dense_men;
    const int white_free = squares_ - material_.men();
    white_kings =
        place_kings(white_rank, material_.white_kings, white_free, dense_men, dense_taken);
    Bitboard unused = 0;
    black_kings = place_kings(black_rank, material_.black_kings, white_free - material_.white_kings,
                              dense_taken, unused);
}

inline Position ClassIndex::unindex(std::uint64_t i) const {
    std::uint64_t men_index = 0, kings_rank = 0, white_rank = 0, black_rank = 0;
    kings_per_men_.divide(i, men_index, kings_rank);
    black_kings_radix_.divide(kings_rank, white_rank, black_rank);
    const MenDense m = unindex_men(men_index);
    Bitboard dense_taken = m.dense_all;
    const int white_free = squares_ - material_.men();
    const Bitboard white_kings =
        place_kings(white_rank, material_.white_kings, white_free, m.dense_all, dense_taken);
    Bitboard unused = 0;
    const Bitboard black_kings = place_kings(
        black_rank, material_.black_kings, white_free - material_.white_kings, dense_taken, unused);
    Position p;
    p.pieces[0] = m.bits.white | white_kings;
    p.pieces[1] = m.bits.black | black_kings;
    p.kings = white_kings | black_kings;
    return p;
}

}  // namespace damas

#include "index/class_index_walk.hpp"
