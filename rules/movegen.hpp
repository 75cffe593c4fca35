// Legal move generation for every variant, from the compile-time traits in variants.hpp.
//
// Owns: which moves are legal. Captures are compulsory; a capture that can continue must
// continue; a flying king that can land on several squares must pick one from which the capture
// continues, if any. Among complete sequences the variant's precedence rule picks the legal ones
// (as a lexicographic key, see capture_key). Sequences with the same (from, to, captured set,
// crowning) are one move unless keep_duplicates asks for every path.
//
// Captured pieces stay on the board until the move ends, blocking the way and never jumped twice
// (S000 4.8, 4.11), except in turkish where each is removed as it is jumped (S004), and a king may
// then not turn back 180 degrees.
#pragma once

#include <cstdint>

#include "rules/move.hpp"
#include "rules/position.hpp"
#include "rules/variants.hpp"

namespace damas {

// The position after the move. The same for every variant: the move carries all it needs.
// Built field by field in the returned object: changing a copy of p and returning it stored the
// fields and read them back as 16-byte words, which the store buffer cannot forward (three
// quarters of this function's time in the solver).
constexpr Position make_move(const Position& p, const Move& m) {
    const Bitboard from = bit(m.from);
    const Bitboard to = bit(m.to);
    const bool was_king = (p.kings & from) != 0;
    // Selects rather than p.pieces[side]: see Position::of.
    const Bitboard mover = (p.of(p.side) & ~from) | to;
    const Bitboard other = p.of(~p.side) & ~m.captured;
    const bool white = p.side == Color::white;
    Position after;
    after.pieces[0] = white ? mover : other;
    after.pieces[1] = white ? other : mover;
    after.kings = (p.kings & ~(m.captured | from)) | (was_king || m.promotes ? to : 0);
    after.side = ~p.side;
    return after;
}

template <class R>
class MoveGenerator {
    using B = typename R::Board;

  public:
    static constexpr Bitboard promotion_row(Color c) {
        return c == Color::white ? B::row(B::height - 1) : B::row(0);
    }

    // Every legal move of the side to move.
    static void generate(const Position& p, MoveList& out, bool keep_duplicates = false) {
        out.clear();
        // The bitboard test is much cheaper than a capture search that finds nothing.
        if (has_capture(p))
            generate_captures(p, out, keep_duplicates);
        else
            generate_quiet(p, out);
    }

    // Only the captures (empty when the side to move has none).
    static void generate_captures(const Position& p, MoveList& out, bool keep_duplicates = false) {
        out.clear();
        CaptureSearch search(p, out, keep_duplicates);
        search.run();
    }

    // The number of legal moves, faster than generate() when there is no capture.
    static int count(const Position& p) {
        if (!has_capture(p)) return count_quiet(p);
        MoveList list;
        generate_captures(p, list);
        return list.size();
    }

    // Whether the side to move must capture: some piece can make a first jump (any capture
    // sequence starts with one). Cheaper than generating the captures.
    static bool has_capture(const Position& p) {
        const Color us = p.side;
        const Bitboard empty = B::mask & ~p.occupied();
        const Bitboard opponents = p.of(~us);
        Bitboard men_targets = opponents;
        if (!R::men_capture_kings) men_targets &= ~p.kings;
        const Bitboard men = p.men(us);
        for (int d = 0; d < 4; ++d)
            if (man_captures_in(us, d) && (B::step(B::step(men, d) & men_targets, d) & empty))
                return true;
        const Bitboard kings = p.kings_of(us);
        if (!kings) return false;
        if constexpr (R::flying_kings) {
            // Each king's first piece on each ray: an opponent with a free square behind it.
            const Bitboard occupied = p.occupied();
            for (Bitboard k = kings; k; k &= k - 1) {
                const int from = lowest_bit(k);
                for (int d = 0; d < 4; ++d) {
                    const int first = B::first_piece(from, d, occupied);
                    if (first < 0) continue;
                    if ((bit(first) & opponents) && (B::step(bit(first), d) & empty)) return true;
                }
            }
            return false;
        }
        for (int d = 0; d < 4; ++d)
            if (B::step(B::step(kings, d) & opponents, d) & empty) return true;
        return false;
    }

    // has_capture of many positions at once: the squares s of `squares` where the side to move
    // has a capture once a king of colour `king` stands on s, `rest` holding the other pieces (s
    // empty there). A first jump of rest's men stays open unless the king takes its landing
    // square; the king adds its own first jumps (king == the side to move) or the jumps over it
    // (king == the opponent). A flying king of rest has its rays cut by the king: each ray is
    // taken apart into the squares before its first piece and the others.
    static Bitboard capture_squares_with_king(const Position& rest, Color king, Bitboard squares) {
        const Color us = rest.side;
        const Bitboard empty = B::mask & ~rest.occupied();
        const Bitboard opponents = rest.of(~us);
        Bitboard men_targets = opponents;
        if (!R::men_capture_kings) men_targets &= ~rest.kings;
        const Bitboard men = rest.men(us);
        const Bitboard kings = rest.kings_of(us);
        Bitboard landing = 0;  // of rest's first jumps (its kings' where they do not fly)
        for (int d = 0; d < 4; ++d) {
            if (man_captures_in(us, d))
                landing |= B::step(B::step(men, d) & men_targets, d) & empty;
            if constexpr (!R::flying_kings)
                landing |= B::step(B::step(kings, d) & opponents, d) & empty;
        }
        // Two landing squares or more: a jump stays open wherever the king stands.
        Bitboard found = landing == 0                ? 0
                         : (landing & (landing - 1)) ? B::mask
                                                     : B::mask & ~landing;
        for (int d = 0; d < 4; ++d) {
            const int back = opposite(d);
            if (king == us) {
                // The king's own jump: an opponent next to it in d (or, flying, the first piece
                // met in d) with an empty square beyond.
                Bitboard t = B::step(opponents & B::step(empty, back), back);
                found |= t;
                if constexpr (R::flying_kings)
                    for (t = B::step(t & empty, back); t; t = B::step(t & empty, back)) found |= t;
            } else {
                // A jump over the king, from the square before it onto the one after it.
                Bitboard jumpers = R::flying_kings ? 0 : kings;
                if (R::men_capture_kings && man_captures_in(us, d)) jumpers |= men;
                found |= B::step(jumpers, d) & B::step(empty, back);
            }
        }
        if constexpr (R::flying_kings) {
            const Bitboard occupied = rest.occupied();
            for (Bitboard k = kings; k; k &= k - 1) {
                const int from = lowest_bit(k);
                for (int d = 0; d < 4; ++d) {
                    const int first = B::first_piece(from, d, occupied);
                    const Bitboard before = first < 0
                                                ? B::ray(from, d)
                                                : B::ray(from, d) & ~B::ray(first, d) & ~bit(first);
                    // The king before the first piece: jumped if the square after it is empty
                    // (an opponent), else the ray stops at it.
                    if (king != us) found |= before & B::step(empty, opposite(d));
                    // Elsewhere the ray's own jump, unless the king takes its landing square.
                    if (first >= 0 && (bit(first) & opponents))
                        if (const Bitboard after = B::step(bit(first), d) & empty)
                            found |= B::mask & ~before & ~after;
                }
            }
        }
        return found & squares;
    }

    // The number of quiet moves (crowning ones included) of a position without captures.
    static int count_quiet(const Position& p) {
        const Color us = p.side;
        const Bitboard empty = B::mask & ~p.occupied();
        const Bitboard men = p.men(us);
        int n = 0;
        for (int d = 0; d < 4; ++d)
            if (man_moves_in(us, d)) n += popcount(B::step(men, d) & empty);
        const Bitboard kings = p.kings_of(us);
        if (!kings) return n;
        if constexpr (R::flying_kings) {
            // A ray's squares up to its first piece: the ray's length less the length beyond.
            const Bitboard occupied = p.occupied();
            for (Bitboard k = kings; k; k &= k - 1) {
                const int from = lowest_bit(k);
                for (int d = 0; d < 4; ++d) {
                    n += B::rays.length[from][d];
                    const int first = B::first_piece(from, d, occupied);
                    if (first >= 0) n -= B::rays.length[first][d] + 1;
                }
            }
        } else {
            for (int d = 0; d < 4; ++d) n += popcount(B::step(kings, d) & empty);
        }
        return n;
    }

    // Only the quiet man moves, crowning or not (of a position without captures).
    static void generate_man_moves(const Position& p, MoveList& out) {
        out.clear();
        const Color us = p.side;
        const Bitboard empty = B::mask & ~p.occupied();
        const Bitboard promo = promotion_row(us);
        for (int d = 0; d < 4; ++d) {
            if (!man_moves_in(us, d)) continue;
            for_each_bit(B::step(p.men(us), d) & empty, [&](int to) {
                out.push(Move{0, static_cast<std::uint8_t>(to - back_shift(d)),
                              static_cast<std::uint8_t>(to), (bit(to) & promo) != 0});
            });
        }
    }

    // Whether a quiet man move crowns (of a position without captures): generate_crowning's
    // test without the list.
    static bool has_crowning_move(const Position& p) {
        const Color us = p.side;
        const Bitboard arrivals = B::mask & ~p.occupied() & promotion_row(us);
        for (int d = 0; d < 4; ++d)
            if (man_moves_in(us, d) && (B::step(p.men(us), d) & arrivals)) return true;
        return false;
    }

    // Only the quiet moves that crown a man (of a position without captures).
    static void generate_crowning(const Position& p, MoveList& out) {
        out.clear();
        const Color us = p.side;
        const Bitboard arrivals = B::mask & ~p.occupied() & promotion_row(us);
        for (int d = 0; d < 4; ++d) {
            if (!man_moves_in(us, d)) continue;
            for_each_bit(B::step(p.men(us), d) & arrivals, [&](int to) {
                out.push(Move{0, static_cast<std::uint8_t>(to - back_shift(d)),
                              static_cast<std::uint8_t>(to), true});
            });
        }
    }

  private:
    static constexpr bool man_moves_in(Color c, int d) {
        const int dy = B::dy[d];
        if (dy == 0) return R::men_move_sideways;
        return c == Color::white ? dy > 0 : dy < 0;
    }
    static constexpr bool man_captures_in(Color c, int d) {
        if (B::dy[d] == 0) return R::men_move_sideways;
        return R::men_capture_backward || man_moves_in(c, d);
    }
    static constexpr int back_shift(int d) { return B::shift[d]; }

    static void generate_quiet(const Position& p, MoveList& out) {
        const Color us = p.side;
        const Bitboard empty = B::mask & ~p.occupied();
        const Bitboard men = p.men(us);
        const Bitboard promo = promotion_row(us);
        for (int d = 0; d < 4; ++d) {
            if (!man_moves_in(us, d)) continue;
            for_each_bit(B::step(men, d) & empty, [&](int to) {
                out.push(Move{0, static_cast<std::uint8_t>(to - back_shift(d)),
                              static_cast<std::uint8_t>(to), (bit(to) & promo) != 0});
            });
        }
        for_each_bit(p.kings_of(us), [&](int from) {
            for (int d = 0; d < 4; ++d) {
                for (Bitboard t = B::step(bit(from), d) & empty; t; t = B::step(t, d) & empty) {
                    out.push(Move{0, static_cast<std::uint8_t>(from),
                                  static_cast<std::uint8_t>(lowest_bit(t)), false});
                    if (!R::flying_kings) break;
                }
            }
        });
    }

    // Depth-first search of capture sequences from every piece of the side to move.
    class CaptureSearch {
      public:
        CaptureSearch(const Position& p, MoveList& out, bool keep_duplicates)
            : out_(out),
              keep_duplicates_(keep_duplicates),
              us_(p.side),
              opponents_(p.of(~p.side)),
              opponent_kings_(p.kings_of(~p.side)),
              empty_(B::mask & ~p.occupied()),
              own_men_(p.men(p.side)),
              own_kings_(p.kings_of(p.side)) {}

        // Searches from the pieces that have a first jump only (most have none; the others
        // would find nothing), in the same order as from every piece.
        void run() {
            for_each_bit(first_jumpers(own_men_, false), [&](int sq) { start(sq, false); });
            const Bitboard kings = R::flying_kings ? own_kings_ : first_jumpers(own_kings_, true);
            for_each_bit(kings, [&](int sq) { start(sq, true); });
        }

      private:
        // Whole-board test: which of `pieces` (men, or short kings) can jump at all.
        Bitboard first_jumpers(Bitboard pieces, bool kings) const {
            const Bitboard victims = targets(kings);
            Bitboard from = 0;
            for (int d = 0; d < 4; ++d) {
                if (!kings && !man_captures_in(us_, d)) continue;
                const Bitboard land = B::step(B::step(pieces, d) & victims, d) & empty_;
                from |= B::step(B::step(land, opposite(d)), opposite(d));
            }
            return from & pieces;
        }

        void start(int sq, bool king) {
            from_ = sq;
            start_king_ = king;
            crowned_ = false;
            empty_ |= bit(sq);  // the moving piece has left its square
            if (king)
                extend_king(bit(sq), -1);
            else
                extend_man(bit(sq));
            empty_ &= ~bit(sq);
        }

        Bitboard targets(bool by_king) const {
            Bitboard t = opponents_ & ~captured_;
            if (!by_king && !R::men_capture_kings) t &= ~opponent_kings_;
            return t;
        }

        void take(Bitboard piece) {
            captured_ |= piece;
            const bool king = (piece & opponent_kings_) != 0;
            kings_taken_ += king ? 1 : 0;
            king_pattern_ |= king ? (std::uint32_t{1} << (31 - count_)) : 0;
            ++count_;
            if constexpr (R::remove_captured_at_once) {
                opponents_ &= ~piece;
                empty_ |= piece;
            }
        }
        void untake(Bitboard piece) {
            --count_;
            const bool king = (piece & opponent_kings_) != 0;
            kings_taken_ -= king ? 1 : 0;
            king_pattern_ &= ~(std::uint32_t{1} << (31 - count_));
            captured_ &= ~piece;
            if constexpr (R::remove_captured_at_once) {
                opponents_ |= piece;
                empty_ &= ~piece;
            }
        }

        // Returns whether any capture continues from `at` (and records the completed ones).
        bool extend_man(Bitboard at) {
            bool found = false;
            for (int d = 0; d < 4; ++d) {
                if (!man_captures_in(us_, d)) continue;
                const Bitboard victim = B::step(at, d) & targets(false);
                if (!victim) continue;
                const Bitboard land = B::step(victim, d) & empty_;
                if (!land) continue;
                found = true;
                take(victim);
                land_man(land, d);
                untake(victim);
            }
            return found;
        }

        void land_man(Bitboard land, int d) {
            if (land & promotion_row(us_)) {
                if constexpr (R::mid_capture == MidCapturePromotion::ends_move) {
                    record(land);
                    return;
                } else if constexpr (R::mid_capture == MidCapturePromotion::becomes_king) {
                    crowned_ = true;
                    if (!extend_king(land, d)) record(land);
                    crowned_ = false;
                    return;
                }
            }
            if (!extend_man(land)) record(land);
        }

        bool extend_king(Bitboard at, int last_dir) {
            bool found = false;
            const int from = lowest_bit(at);
            for (int d = 0; d < 4; ++d) {
                if (R::forbid_reversal_in_capture && last_dir >= 0 && d == opposite(last_dir))
                    continue;
                Bitboard t;
                if constexpr (R::flying_kings) {
                    // The first non-empty square of the ray (empty_ counts the captured pieces,
                    // which stay on the board, as occupied).
                    const int first = B::first_piece(from, d, ~empty_);
                    if (first < 0) continue;
                    t = bit(first);
                } else {
                    t = B::step(at, d);
                }
                const Bitboard victim = t & targets(true);
                if (!victim) continue;
                Bitboard land = B::step(victim, d) & empty_;
                if (!land) continue;
                found = true;
                take(victim);
                if constexpr (!R::king_lands_anywhere_beyond) {
                    if (!extend_king(land, d)) record(land);
                } else {
                    // The king must choose a landing square from which the capture continues, if
                    // there is one; otherwise any free square beyond.
                    Bitboard dead_ends = 0;
                    bool continues = false;
                    for (; land; land = B::step(land, d) & empty_) {
                        if (extend_king(land, d))
                            continues = true;
                        else
                            dead_ends |= land;
                    }
                    if (!continues) for_each_bit(dead_ends, [&](int sq) { record(bit(sq)); });
                }
                untake(victim);
            }
            return found;
        }

        std::uint64_t precedence_key() const {
            const std::uint64_t n = static_cast<std::uint64_t>(count_);
            switch (R::precedence) {
                case Precedence::free_choice:
                    return 0;
                case Precedence::most_pieces:
                    return n;
                case Precedence::most_then_kings:
                    return (n << 40) | (static_cast<std::uint64_t>(kings_taken_) << 32);
                case Precedence::italian:
                    return (n << 48) | (static_cast<std::uint64_t>(start_king_) << 40) |
                           (static_cast<std::uint64_t>(kings_taken_) << 32) | king_pattern_;
            }
            return 0;
        }

        void record(Bitboard land) {
            const int to = lowest_bit(land);
            const bool promotes = !start_king_ && (crowned_ || (land & promotion_row(us_)) != 0);
            const Move m{captured_, static_cast<std::uint8_t>(from_), static_cast<std::uint8_t>(to),
                         promotes};
            const std::uint64_t key = precedence_key();
            if (out_.empty() || key > best_key_) {
                out_.clear();
                best_key_ = key;
            } else if (key < best_key_) {
                return;
            }
            if (!keep_duplicates_)
                for (const Move& other : out_)
                    if (other == m) return;
            out_.push(m);
        }

        MoveList& out_;
        const bool keep_duplicates_;
        const Color us_;
        Bitboard opponents_;
        const Bitboard opponent_kings_;
        Bitboard empty_;
        const Bitboard own_men_;
        const Bitboard own_kings_;
        Bitboard captured_ = 0;
        int count_ = 0;
        int kings_taken_ = 0;
        std::uint32_t king_pattern_ = 0;
        int from_ = 0;
        bool start_king_ = false;
        bool crowned_ = false;
        std::uint64_t best_key_ = 0;
    };
};

}  // namespace damas
