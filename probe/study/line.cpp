#include "probe/study/line.hpp"

#include "rules/notation.hpp"
#include "rules/pdn.hpp"

namespace damas::study {

OptimalLine optimal_line(Variant v, const Position& start_position, const RootAnalysis& start,
                         const Analyse& analyse) {
    OptimalLine line;
    Position p = start_position;
    RootAnalysis a = start;
    PdnNumber number{1, p.side == v.info().first_to_move};
    const Value start_value = start.root.value;
    while (start_value != Value::draw && !a.game_over) {
        if (a.moves.empty() || a.moves.front().pure.value != a.root.value ||
            a.moves.front().pure.plies != a.root.plies)
            throw InconsistentTables("inconsistent tables at " + to_fen(v, p) +
                                     ": the best move does not keep the distance");
        const RootMove& best = a.moves.front();
        if (number.first_player || line.pdn.empty()) {
            if (!line.pdn.empty()) line.pdn += ' ';
            line.pdn += number.label();
        }
        line.pdn += ' ';
        line.pdn += best.text;
        line.moves.push_back({best, number.label()});
        number.next();
        p = best.after;
        const RuleCounters next = best.counters;
        a = analyse(p, next);
    }
    line.result = start_value == Value::draw
                      ? "draw: no forced end of the game"
                      : std::string("game over: ") + color_name(p.side) +
                            (a.root.value == Value::win ? " wins" : " loses");
    return line;
}

}  // namespace damas::study
