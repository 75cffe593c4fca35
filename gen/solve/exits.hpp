// What a position's exits tell, for both solvers (gen/solve/solver.hpp's state words and
// gen/solve/compact/compact_solver.hpp's bytes).
//
// Owns: the summary of the moves that leave the slice being solved (captures, crowning moves,
// man moves to the slice before), gathered one outcome at a time: the shortest win they give,
// the longest loss, whether one draws (the position then cannot lose), and whether the position
// must capture. Plain fields, no branches beyond the value's: it is filled in the per-position
// initialisation loops.
//
// Distances: for dtw an exit's distance is the plies to the end after it, plus its own; for mtc
// (`conversions`) every exit is a conversion (a capture or a man move), so it counts 1 whatever
// follows: only the value after it matters (gen/solve/solver.hpp).
#pragma once

#include <algorithm>

#include "rules/error.hpp"
#include "table/outcome.hpp"

namespace damas::solving {

struct Exits {
    static constexpr int no_win = 0xFFFF;
    static Exits none(bool conversions) {
        Exits exits;
        exits.conversions = conversions;
        return exits;
    }
    static Exits of_captures(bool conversions) {
        Exits exits = none(conversions);
        exits.capture = true;
        return exits;
    }

    int win = no_win, loss = 0;
    bool draw = false;
    bool capture = false;      // the exits are the captures, which the position must make
    bool conversions = false;  // mtc: an exit's distance is 1

    // `after`: the outcome of the position after an exit, for the side then to move.
    void add(const Outcome after) {
        const int plies = conversions ? 1 : after.plies + 1;
        switch (after.value) {
            case Value::loss:
                win = std::min(win, plies);
                break;
            case Value::win:
                loss = std::max(loss, plies);
                break;
            case Value::draw:
                draw = true;
                break;
            case Value::unknown:
                throw Error("a smaller class has no value for a position");
        }
    }
};

}  // namespace damas::solving
