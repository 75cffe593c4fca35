// An optimal line: from a position, the best move at each ply to the end of the game, the winner
// taking the shortest win and the loser the longest loss (the root analysis's first move), with
// the move-limit counts carried along. `damas line`, the explorer and Python's Tablebase.line
// print it.
//
// Owns: walking the line, checking that each best move keeps the distance (else the tables are
// inconsistent), its PDN move numbers and movetext, and the result at its end.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "probe/study/root_analysis.hpp"
#include "rules/error.hpp"

namespace damas::study {

// The best move does not keep the position's distance: the tables disagree with each other.
struct InconsistentTables : Error {
    using Error::Error;
};

struct LineMove {
    RootMove move;       // its value for the side that plays it, and the counts after it
    std::string number;  // the PDN move number before it: "1.", "1..."
};

struct OptimalLine {
    std::vector<LineMove> moves;  // none from a draw or a game already over
    std::string pdn;              // the moves as PDN movetext: "1... 18-14 2. 1-5 14-10"
    std::string result;           // "game over: white wins", "draw: no forced end of the game"
};

// The root analysis of a position with the counts of the line so far; the caller's, so that it
// decides what an analysis that failed or lacks its rule tables means (it may throw).
using Analyse = std::function<RootAnalysis(const Position&, const RuleCounters&)>;

// The line from p, whose analysis (with the counts at p) is `start`; the counts after each move
// come from the analysis (RootMove::counters). Throws InconsistentTables.
OptimalLine optimal_line(Variant v, const Position& p, const RootAnalysis& start,
                         const Analyse& analyse);

}  // namespace damas::study
