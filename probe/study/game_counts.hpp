// A game replayed for its move-limit counts: from a start position, each count starting there,
// through the moves played, the counts kept as `damas annotate` keeps them (counters_after,
// probe/limits_probe.hpp). `damas hub` (the moves a GUI sends) and the Python package (the move
// stack of a pydraughts board) replay their games with it.
#pragma once

#include "limits/draw_rules.hpp"
#include "probe/probe.hpp"
#include "rules/move.hpp"
#include "rules/position.hpp"

namespace damas::study {

struct GameCounts {
    Position position;
    RuleCounters counters;  // the counts used at `position`
    int plies = 0;          // moves played since the start

    // Plays a legal move of `position` (the caller has matched it against the legal moves).
    void play(const DrawRules& rules, const Move& m);
};

}  // namespace damas::study
