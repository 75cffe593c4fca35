// ClassIndex::for_each_position: consecutive indices without unindexing each one.
//
// Owns: the stepping order, which is the index order: within one men configuration the Black
// kings step to their next colex placement on the squares left free, and when they run out the
// White kings step and the Black kings restart; after kings_per_men() positions the men change.
// ClassIndex::for_each_king_run: the same order as runs of positions where one king alone moves.
// Included at the end of class_index.hpp; not meant to be included alone.
#pragma once

#include <algorithm>
#include <array>
#include <span>

#include "index/class_index.hpp"

namespace damas {

namespace walk_detail {

// The kings of one colour as a colex subset of a list of free squares (bitboards by rank).
struct KingSet {
    std::array<int, 64> element;  // the first `count` are set by start(): no zeroing per walk
    int count = 0;
    int domain = 0;

    void start(std::uint64_t rank) {
        int j = count;
        unrank_colex(rank, count, domain, [&](int c) { element[--j] = c; });
    }
    void restart() {
        for (int j = 0; j < count; ++j) element[j] = j;
    }
    bool step() { return next_colex(element.data(), count, domain); }
    Bitboard squares(const std::array<Bitboard, 64>& free) const {
        Bitboard b = 0;
        for (int j = 0; j < count; ++j) b |= free[element[j]];
        return b;
    }
};

}  // namespace walk_detail

// The kings of both colours among the squares one men configuration leaves free, in index order:
// the Black kings step, and when they run out the White kings step and the Black kings restart
// on the squares White's kings now leave.
//
// As fast as the two walks' own copies of it were (bench_flags): start() and step() are always
// inlined (GCC made step() a call), the kings' bitboards are the caller's (Kings, a local), not
// members that GCC read again after every store to a free list, and black_free is listed
// without a branch (with one, the king runs of english 1221 were 6% slower than before).
struct ClassIndex::KingWalk {
    struct Kings {
        Bitboard white = 0, black = 0;
    };

    walk_detail::KingSet white, black;
    // Only their first entries (the free squares) are written and read: not zeroed, since a walk
    // of one position (the classes without kings) spent a third of its time zeroing these.
    std::array<Bitboard, 64> white_free, black_free;

    explicit KingWalk(const ClassIndex& index) : index_(index) {
        white.count = index.material_.white_kings;
        white.domain = index.squares_ - index.material_.men();
        black.count = index.material_.black_kings;
        black.domain = white.domain - white.count;
    }
    // The kings' placement kings_rank (< kings_per_men()) around the men.
    [[gnu::always_inline]] Kings start(const MenDense& men, std::uint64_t kings_rank) {
        int n = 0;
        for (int d = 0; d < index_.squares_; ++d)
            if ((men.dense_all & bit(d)) == 0) white_free[n++] = index_.bit_of_dense_[d];
        std::uint64_t white_rank = 0, black_rank = 0;
        index_.black_kings_radix_.divide(kings_rank, white_rank, black_rank);
        white.start(white_rank);
        black.start(black_rank);
        Kings kings;
        kings.white = white.squares(white_free);
        list_black_free(kings.white);
        kings.black = black.squares(black_free);
        return kings;
    }
    // The next placement; `kings` is the current one, not the men configuration's last.
    [[gnu::always_inline]] void step(Kings& kings) {
        if (!black.step()) {
            black.restart();
            white.step();
            kings.white = white.squares(white_free);
            list_black_free(kings.white);
        }
        kings.black = black.squares(black_free);
    }

  private:
    [[gnu::always_inline]] void list_black_free(Bitboard white_kings) {
        if (black.count == 0) return;
        // Each square is written at n and kept if free: n <= j, within the first entries.
        int n = 0;
        for (int j = 0; j < white.domain; ++j) {
            const Bitboard b = white_free[j];
            black_free[n] = b;
            n += (b & white_kings) == 0 ? 1 : 0;
        }
    }

    const ClassIndex& index_;
};

template <class F>
void ClassIndex::for_each_position(std::uint64_t begin, std::uint64_t end, F&& f) const {
    end = std::min(end, size_);
    if (begin >= end) return;
    KingWalk walk(*this);
    std::uint64_t men_index = 0, kings_rank = 0;
    kings_per_men_.divide(begin, men_index, kings_rank);
    std::uint64_t i = begin;
    while (i < end) {
        const MenDense men = unindex_men(men_index);
        KingWalk::Kings kings = walk.start(men, kings_rank);
        const std::uint64_t stop = std::min(end, i + (kings_per_men_.divisor() - kings_rank));
        for (;;) {
            Position p;
            p.pieces[0] = men.bits.white | kings.white;
            p.pieces[1] = men.bits.black | kings.black;
            p.kings = kings.white | kings.black;
            f(i, static_cast<const Position&>(p));
            if (++i == stop) break;
            walk.step(kings);
        }
        ++men_index;
        kings_rank = 0;
    }
}

template <class F>
void ClassIndex::for_each_king_run(std::uint64_t begin, std::uint64_t end, F&& f) const {
    end = std::min(end, size_);
    if (begin >= end || material_.white_kings + material_.black_kings == 0) return;
    KingWalk walk(*this);
    // The innermost set: the Black kings, or the White ones in a class without Black kings.
    const bool black_inner = walk.black.count > 0;
    walk_detail::KingSet& inner = black_inner ? walk.black : walk.white;
    const std::array<Bitboard, 64>& inner_free = black_inner ? walk.black_free : walk.white_free;
    const Color mover = black_inner ? Color::black : Color::white;

    std::uint64_t men_index = 0, kings_rank = 0;
    kings_per_men_.divide(begin, men_index, kings_rank);
    std::uint64_t i = begin;
    while (i < end) {
        const MenDense men = unindex_men(men_index);
        KingWalk::Kings kings = walk.start(men, kings_rank);
        const std::uint64_t stop = std::min(end, i + (kings_per_men_.divisor() - kings_rank));
        for (;;) {
            // The run: the inner set's lowest king from its square to the next king's (or the
            // last free square), the others fixed.
            const int from = inner.element[0];
            const int limit = inner.count > 1 ? inner.element[1] : inner.domain;
            const auto run = static_cast<std::size_t>(
                std::min<std::uint64_t>(static_cast<std::uint64_t>(limit - from), stop - i));
            const Bitboard moving = inner_free[from];
            Position rest;
            rest.pieces[0] = men.bits.white | (kings.white & ~(black_inner ? 0 : moving));
            rest.pieces[1] = men.bits.black | (kings.black & ~(black_inner ? moving : 0));
            rest.kings = (kings.white | kings.black) & ~moving;
            f(i, static_cast<const Position&>(rest), mover,
              std::span<const Bitboard>(inner_free.data() + from, run));
            i += run;
            if (i == stop) break;
            // The run ended at the limit: step from its last placement as for_each_position.
            inner.element[0] = limit - 1;
            walk.step(kings);
        }
        ++men_index;
        kings_rank = 0;
    }
}

}  // namespace damas
