// A game replayed for its counts (see game_counts.hpp).
#include "probe/study/game_counts.hpp"

#include "probe/limits_probe.hpp"
#include "rules/movegen.hpp"

namespace damas::study {

void GameCounts::play(const DrawRules& rules, const Move& m) {
    const Position after = make_move(position, m);
    counters = counters_after(rules, position, m, after, counters);
    position = after;
    ++plies;
}

}  // namespace damas::study
