// What a position's exits tell, for both solvers (gen/solve/solver.hpp's state words and
// gen/solve/compact/compact_solver.hpp's bytes).
//
// Owns: the summary of the moves that leave the slice being solved (captures, crowning moves,
// man moves to the slice before), gathered one outcome at a time: the shortest win they give,
// the longest loss, whether one draws (the position then cannot lose), and whether the position
// must capture. Plain fields, no branches beyond the value's: it is filled in the per-position
// initialisation loops.
#pragma once

#include <algorithm>

#include "rules/error.hpp"
#include "table/outcome.hpp"

namespace damas::solving {

struct Exits {
    static constexpr int no_win = 0xFFFF;
    static Exits of_captures() {
        Exits exits;
        exits.capture = true;
        return exits;
    }

    int win = no_win, loss = 0;
    bool draw = false;
    bool capture = false;  // the exits are the captures, which the position must make

    // `after`: the outcome of the position after an exit, for the side then to move.
    void add(const Outcome after) {
        switch (after.value) {
            case Value::loss:
                win = std::min(win, after.plies + 1);
                break;
            case Value::win:
                loss = std::max(loss, after.plies + 1);
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
