// A second arbiter for the portuguese forcada beside the 20-move king count, over the explicit
// joint state: every position of 3 kings against 1, 2 kings against 1 and 1 king against 1 (the
// classes a forcada runs through), both sides to move, at every king-move count and every
// forcada count, solved in one pass per class. It answers what the per-query arbiter
// (arbiter.hpp) answers, at any number of queries for the price of one pass, so every position
// and every count can be compared with the rule tables. Like arbiter.hpp it is written from the
// rule text (S002 3.2.1 a and b, docs/rules.md) and the move generator alone (the positions
// numbered by index/class_index): nothing of limits/draw_rules, gen/limits or the tables.
//
// The rules it applies, literally:
//  * 3.2.1a: c, the plies since the last capture (no man is left to move), restarts at a
//    capture; at c = 40 (20 moves by both players) the game is drawn unless it is over.
//  * 3.2.1b: the forcada starts at the first position of 3 kings against 1 in which the
//    three-king side has a king on the long diagonal 1-32; from there that side must end the
//    game within its next 12 moves, "incluindo o da captura": the count runs on through the
//    lone king's captures (3K v 1K -> 2K v 1K -> 1K v 1K) and does not restart. s, the
//    three-king side's moves since the start, is kept as the rule counts it; at s = 12 the game
//    is drawn unless it is over. Before it starts only c runs.
//  * A move that ends the game (the opponent has no piece or no move) wins, whatever the counts;
//    the first limit reached decides.
//
// The state and why: (class, side to move, position, c, s or "not started"). c runs 0..39 and
// s 0..11 (c = 40 and s = 12 are draws unless the game is over, known from the position alone);
// with "not started" that is 40 x 13 = 520 count states per position. Every move inside a class
// is a quiet king move, so it raises c by one: the states of one class form layers by c, and
// layer c depends only on layer c + 1 of the class and on layer 0 of the smaller classes (a
// capture restarts c). So one pass per class, from c = 39 down to 0, smaller classes first,
// solves every state exactly: no iteration, no fixed point. The three-king side is fixed per
// run (strong = White or Black; 1 king against 1 does not tell it, so each run holds its own),
// and both sides to move are solved, so no colour symmetry is assumed. 3 kings against 1:
// 143,840 placements x 2 sides x 520 = 149.6 M states, one byte each (the value for the side to
// move: win, draw or loss; a byte keeps the layer reads plain loads, and 150 MB fits this
// machine); 2K v 1K 14,880 placements and 1K v 1K 992 add 16.5 MB: 166.1 M states a run. The
// moves of each position are generated once into an edge list (the successor's class, side and
// index, and whether it puts a three-king-side king on the diagonal): 3.09 M edges, 25 MB. A run
// takes 7-9 CPU-s (docs/performance.md).
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <vector>

#include "arbiter.hpp"
#include "index/class_index.hpp"
#include "index/material.hpp"
#include "rules/error.hpp"
#include "rules/movegen.hpp"
#include "rules/variant.hpp"
#include "table/outcome.hpp"

namespace damas::test {

class ForcadaArbiter {
  public:
    static constexpr int king_plies = 40;     // S002 3.2.1a: 20 moves by both players
    static constexpr int forcada_moves = 12;  // S002 3.2.1b: the three-king side's 12 moves

    // Solves every state of the three classes with `strong` as the three-king side.
    explicit ForcadaArbiter(Color strong) : strong_(strong) {
        for (int k = 0; k < classes; ++k) {
            Material m{0, k + 1, 0, 1};
            if (strong == Color::black) m = m.mirrored();
            classes_[k].index = std::make_unique<ClassIndex>(board(), m);
            build_edges(k);
        }
        for (int k = 0; k < classes; ++k) solve(k);
    }

    Color strong() const { return strong_; }
    std::size_t states() const {
        std::uint64_t n = 0;
        for (const Class& c : classes_) n += c.values.size();
        return n;
    }
    std::uint64_t edges() const {
        std::uint64_t n = 0;
        for (const Class& c : classes_) n += c.edges.size();
        return n;
    }

    // The value for the side to move at p (3, 2 or 1 kings of strong() against 1 king) with the
    // counts of s (s.c, and the forcada as arbiter.hpp keeps it: started, strong_moves; the
    // forcada's side, when started, must be strong()). The same question the per-query arbiter
    // answers.
    Value value(const Position& p, const ArbiterState& s) const {
        const int k = class_of(p);
        if (k < 0) throw Error("ForcadaArbiter: not a class of this arbiter");
        if (s.started && s.strong != strong_) throw Error("ForcadaArbiter: another forcada side");
        const Class& cl = classes_[k];
        const std::uint32_t id = position_id(cl, p);
        if (cl.no_moves[id]) return Value::loss;
        if (s.c >= king_plies || (s.started && s.strong_moves >= forcada_moves)) return Value::draw;
        return decode(cl.values[slot(cl, s.c, s.started ? 1 + s.strong_moves : 0, id)]);
    }

  private:
    static constexpr int classes = 3;  // 1K v 1K, 2K v 1K, 3K v 1K: strong kings - 1
    static constexpr int counts_f = 1 + forcada_moves;  // not started, then s = 0..11
    static constexpr std::uint8_t draw = 0, win = 1, loss = 2;
    static constexpr std::uint8_t game_over = 0xFF;  // an edge's class: the opponent has no piece

    struct Edge {
        std::uint32_t to = 0;   // the successor's position id in its class
        std::uint8_t cls = 0;   // its class, or game_over
        bool diagonal = false;  // 3K v 1K with a three-king-side king on the long diagonal
    };
    struct Class {
        std::unique_ptr<ClassIndex> index;
        std::uint32_t size = 0;              // placements; ids are side * size + placement
        std::vector<std::uint8_t> no_moves;  // by id: the side to move has no move (it lost)
        std::vector<std::uint32_t> first;    // by id: its edges are [first[id], first[id + 1])
        std::vector<Edge> edges;
        std::vector<std::uint8_t> values;  // slot(c, f, id)
    };

    static const BoardSpec& board() { return Variant{BaseVariant::portuguese, false}.info().board; }
    static Value decode(std::uint8_t v) {
        return v == win ? Value::win : v == loss ? Value::loss : Value::draw;
    }
    // The forcada's states of one position side by side: the moves of a position lead to the
    // same successors at every f, so the pass reads each successor's 13 values from one place.
    static std::size_t slot(const Class& cl, int c, int f, std::uint32_t id) {
        return (static_cast<std::size_t>(c) * 2 * cl.size + id) * counts_f + f;
    }
    static std::uint32_t position_id(const Class& cl, const Position& p) {
        return static_cast<std::uint32_t>((p.side == Color::white ? 0 : cl.size) +
                                          cl.index->index(p));
    }
    // The class of p in this arbiter (strong kings - 1), or -1.
    int class_of(const Position& p) const {
        const Material m = Material::of(p);
        const bool white = strong_ == Color::white;
        const int strong_kings = white ? m.white_kings : m.black_kings;
        const int lone_kings = white ? m.black_kings : m.white_kings;
        if (m.men() != 0 || lone_kings != 1 || strong_kings < 1 || strong_kings > 3) return -1;
        return strong_kings - 1;
    }

    // Every move of every position of class k, once.
    void build_edges(int k) {
        Class& cl = classes_[k];
        cl.size = static_cast<std::uint32_t>(cl.index->size());
        const std::uint32_t ids = 2 * cl.size;
        cl.no_moves.assign(ids, 0);
        cl.first.assign(ids + 1, 0);
        const Bitboard diagonal = Arbiter<Portuguese>::long_diagonal();
        MoveList moves;
        for (std::uint32_t id = 0; id < ids; ++id) {
            Position p = cl.index->unindex(id % cl.size);
            p.side = id < cl.size ? Color::white : Color::black;
            MoveGenerator<Portuguese>::generate(p, moves);
            cl.no_moves[id] = moves.empty();
            for (const Move& m : moves) {
                const Position after = make_move(p, m);
                Edge e;
                if (!after.of(after.side)) {
                    e.cls = game_over;
                } else {
                    const int to = class_of(after);
                    if (to < 0 || to > k || m.is_capture() != (to != k))
                        throw Error("ForcadaArbiter: a move leaves the forcada's classes");
                    e.cls = static_cast<std::uint8_t>(to);
                    e.to = position_id(classes_[to], after);
                    e.diagonal = to == 2 && (after.kings_of(strong_) & diagonal) != 0;
                }
                cl.edges.push_back(e);
            }
            cl.first[id + 1] = static_cast<std::uint32_t>(cl.edges.size());
        }
    }

    // The value of the state an edge leads to, from the mover's counts c and f (0: not
    // started, else 1 + s) in class k.
    std::uint8_t after(int k, const Edge& e, int c, int f, bool strong_moved) const {
        if (e.cls == game_over) return loss;
        const Class& to = classes_[e.cls];
        if (to.no_moves[e.to]) return loss;
        const bool capture = e.cls != k;
        const int c2 = capture ? 0 : c + 1;  // 3.2.1a: a capture restarts the count
        int f2 = 0;
        if (f > 0)  // 3.2.1b: once started it runs on, through the lone king's captures
            f2 = f + (strong_moved ? 1 : 0);
        else if (!capture && e.diagonal)  // the three-king side occupies the diagonal: it starts
            f2 = 1;
        if (c2 >= king_plies || f2 > forcada_moves) return draw;
        return to.values[slot(to, c2, f2, e.to)];
    }

    // Class k, layers c = 39 .. 0; every layer reads only layer c + 1 and smaller classes.
    void solve(int k) {
        Class& cl = classes_[k];
        const std::uint32_t ids = 2 * cl.size;
        cl.values.assign(static_cast<std::size_t>(king_plies) * counts_f * ids, draw);
        for (int c = king_plies - 1; c >= 0; --c)
            for (std::uint32_t id = 0; id < ids; ++id)
                for (int f = 0; f < counts_f; ++f) {
                    std::uint8_t v = loss;
                    if (!cl.no_moves[id]) {
                        const bool strong_moved = (id < cl.size) == (strong_ == Color::white);
                        bool drawn = false, won = false;
                        for (std::uint32_t i = cl.first[id]; i < cl.first[id + 1] && !won; ++i) {
                            const std::uint8_t a = after(k, cl.edges[i], c, f, strong_moved);
                            won = a == loss;
                            drawn = drawn || a == draw;
                        }
                        v = won ? win : drawn ? draw : loss;
                    }
                    cl.values[slot(cl, c, f, id)] = v;
                }
    }

    Color strong_;
    std::array<Class, classes> classes_;
};

}  // namespace damas::test
