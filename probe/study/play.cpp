// The move to play and its line (see play.hpp).
#include "probe/study/play.hpp"

namespace damas::study {
namespace {

// The rank of a move's value under the rules for the side that plays it: win, draw, loss.
int rank_of(const Outcome& o) {
    return o.value == Value::win ? 3 : o.value == Value::draw ? 2 : o.value == Value::loss ? 1 : 0;
}

}  // namespace

bool plays_by_rules(const RootAnalysis& a) {
    if (!a.rules || a.moves.empty()) return false;
    for (const RootMove& m : a.moves)
        if (!m.rule) return false;
    return true;
}

std::size_t move_to_play(const RootAnalysis& a) {
    if (!plays_by_rules(a)) return 0;
    std::size_t best = 0;
    for (std::size_t i = 1; i < a.moves.size(); ++i)
        if (rank_of(*a.moves[i].rule) > rank_of(*a.moves[best].rule)) best = i;
    return best;
}

PlayedLine played_line(const Tablebase& tb, Variant v, const RootQuery& q,
                       const RootAnalysis& start, int max_plies) {
    PlayedLine line;
    RootAnalysis a = start;
    RootQuery query = q;
    const bool drawn = a.root.ok() && (a.rules ? a.rules->rule.value : a.root.value) == Value::draw;
    while (static_cast<int>(line.moves.size()) < max_plies) {
        if (!a.root.ok()) return line;
        if (a.game_over || a.moves.empty()) {
            line.to_the_end = true;
            return line;
        }
        const RootMove m = a.moves[move_to_play(a)];
        line.moves.push_back(m);
        if (drawn) return line;
        query.counters = m.counters;
        a = analyse_root(tb, v, m.after, query);
    }
    return line;
}

}  // namespace damas::study
