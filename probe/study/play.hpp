// The move an engine plays from a position of a game: the best move under the move-limit rules
// with the game's counts (the rules the game is played by) when the rule tables answer for every
// move, else the best by the pure values; and the line that follows when both sides keep playing
// that way. `damas hub` plays and prints these (tools/hub/).
//
// Owns: the choice under the rules: the first move, in the pure order of the root analysis
// (wins by shortest DTW, draws, losses by longest), of those whose value under the rules is the
// best (a win, else a draw, else a loss); and walking the line. Why not the shortest dtr: the
// dtr counts plies to the rule's goal, and a capture by the loser is such a goal, so the
// shortest dtr may sacrifice a king into a longer win (3 kings against 1 in english: a win in
// 29 plies instead of 15). Every move chosen keeps the win under the rules, whose count must
// then be restarted by a capture or a man move before it runs out, so the game still ends.
#pragma once

#include <cstddef>
#include <vector>

#include "probe/study/root_analysis.hpp"

namespace damas::study {

// The index in a.moves of the move to play (a.moves must not be empty): the first of the best
// under the rules when every move has its value under the rules, else 0 (the pure best).
std::size_t move_to_play(const RootAnalysis& a);

// Whether move_to_play chose by the values under the rules.
bool plays_by_rules(const RootAnalysis& a);

struct PlayedLine {
    std::vector<RootMove> moves;  // from the position, each side playing move_to_play
    bool to_the_end = false;      // the line reaches the end of the game (false: cut at
                                  // max_plies, at a draw's first move, or leaving the tables)
};

// The line from a position whose analysis with the counts q.counters is `start`, at most
// max_plies long. A drawn start gives its first move only. Thread-safe.
PlayedLine played_line(const Tablebase& tb, Variant v, const RootQuery& q,
                       const RootAnalysis& start, int max_plies);

}  // namespace damas::study
