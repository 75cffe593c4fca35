// Un-moves: the quiet moves that could have led to a position, for retrograde analysis.
//
// Owns: the predecessor relation restricted to non-capturing, non-crowning moves (the ones that
// stay inside a material class). The side that just moved is ~p.side. A predecessor is returned
// only if the move is legal there, i.e. the predecessor has no capture (captures are compulsory).
// Squares where the man could not have stood are skipped: a turkish man never stands on its own
// back row (it never moves backwards), so no un-move puts one there.
#pragma once

#include "rules/movegen.hpp"

namespace damas {

struct Unmove {
    Position before;  // the predecessor, with the mover to move
    Move move;        // the quiet move from `before` that gives the position
};

class UnmoveList {
  public:
    static constexpr int capacity = 256;
    int size() const { return size_; }
    const Unmove& operator[](int i) const { return items_[i].unmove; }
    void push(const Unmove& u) {
        if (size_ < capacity) items_[size_++].unmove = u;
    }
    template <class F>
    void for_each(F&& f) const {
        for (int i = 0; i < size_; ++i) f(items_[i].unmove);
    }

  private:
    // Left uninitialised (Position has default member initialisers): the list lives on the
    // stack of a hot loop and is written before it is read.
    union Slot {
        Slot() {}
        Unmove unmove;
    };
    Slot items_[capacity];
    int size_ = 0;
};

template <class R>
class UnmoveGenerator {
    using B = typename R::Board;

  public:
    // Rows a man of colour c can stand on: never its promotion row; in turkish, never its own
    // back row either.
    static constexpr Bitboard man_squares(Color c) {
        Bitboard s = B::mask & ~MoveGenerator<R>::promotion_row(c);
        if (R::men_move_sideways)  // orthogonal men never move backwards (S004)
            s &= ~MoveGenerator<R>::promotion_row(~c);
        return s;
    }

    // With legal_only false, predecessors that must capture (where the move is illegal) are kept:
    // a caller that knows them already filters them more cheaply. With same_row_men true, the
    // only man un-moves are those along a row (turkish sideways moves), the ones that keep the
    // men's advancement (index/class_index.hpp slices).
    template <bool legal_only = true, bool same_row_men = false>
    static void generate(const Position& after, UnmoveList& out) {
        for_each<legal_only, same_row_men>(after, [&](const Unmove& u) { out.push(u); });
    }

    // As generate, calling f(unmove) for each instead of filling a list (the hot loop of the
    // generator keeps nothing but an index per predecessor).
    template <bool legal_only = true, bool same_row_men = false, class F>
    static void for_each(const Position& after, F&& f) {
        const Color mover = ~after.side;
        const Bitboard empty = B::mask & ~after.occupied();
        const Bitboard men = after.men(mover);
        for (int d = 0; d < 4; ++d) {
            if (!moves_in(mover, d) || (same_row_men && B::dy[d] != 0)) continue;
            // A man now on `to` came from `to` one step back along d.
            for_each_bit(men & ~MoveGenerator<R>::promotion_row(mover), [&](int to) {
                const Bitboard from = B::step(bit(to), opposite(d)) & empty & man_squares(mover);
                if (from) add<legal_only>(after, lowest_bit(from), to, false, f);
            });
        }
        for_each_bit(after.kings_of(mover), [&](int to) {
            for (int d = 0; d < 4; ++d)
                for (Bitboard from = B::step(bit(to), d) & empty; from;
                     from = B::step(from, d) & empty) {
                    add<legal_only>(after, lowest_bit(from), to, true, f);
                    if (!R::flying_kings) break;
                }
        });
    }

  private:
    static constexpr bool moves_in(Color c, int d) {
        const int dy = B::dy[d];
        if (dy == 0) return R::men_move_sideways;
        return c == Color::white ? dy > 0 : dy < 0;
    }

    template <bool legal_only, class F>
    static void add(const Position& after, int from, int to, bool king, F& f) {
        Position before = after;
        const int mover = index_of(~after.side);
        before.pieces[mover] = (before.pieces[mover] & ~bit(to)) | bit(from);
        if (king) before.kings = (before.kings & ~bit(to)) | bit(from);
        before.side = ~after.side;
        if (legal_only && MoveGenerator<R>::has_capture(before)) return;
        f(Unmove{before,
                 Move{0, static_cast<std::uint8_t>(from), static_cast<std::uint8_t>(to), false}});
    }
};

}  // namespace damas
