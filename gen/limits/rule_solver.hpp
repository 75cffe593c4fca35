// The rule solver: the dtr metric (table/format.hpp) of one class pair under the move-limit draw
// rules (limits/draw_rules.hpp).
//
// Owns: the distance to the rule's goal of every position of a class pair in each regime its
// classes have. A state is (position, regime); the count it is under has r plies left. With r
// plies the side to move wins iff it can force, within r plies, the end of the game or a move
// that restarts the count into a position it wins with the fresh count. That holds for every
// r >= D and for none below, so one distance D per state answers every count (Syzygy's DTZ
// idea, with more than one kind of count). Losses likewise.
//
// Algorithm (per pass = one regime of the pair, per slice of men, most advanced first):
//  * the states of the pass are the positions of the slice in both classes (forcada_waiting:
//    only those without a three-king-side king on the long diagonal);
//  * moves that keep the count and the state inside the pass (quiet king moves) are internal;
//    every other move is an exit whose cost is known: it reaches a smaller class, a more
//    advanced slice, or a regime solved in an earlier pass (forcada_running before waiting);
//    exits are scored by their Transition kind (continue: 1 + D after; fresh: 1 if the
//    position after is lost/won for the mover's opponent within the fresh count; capped: as
//    continue but only if D after fits the cap);
//  * distances are resolved in increasing order with buckets, walking un-moves
//    (rules/unmove.hpp) to reach predecessors, as the pure solver does.
// Memory: 6 bytes of work state plus 2 bytes per position and regime.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <vector>

#include "index/class_index.hpp"
#include "limits/draw_rules.hpp"

namespace damas {

// The dtr values of one class, every position (captures included), one array per regime.
struct RuleClass {
    Material material;
    std::vector<Regime> regimes;
    std::vector<std::vector<std::uint16_t>> dtr;  // [regime][index]
    // Portuguese 3 kings against 1 king: forcada_running with the king-move count g plies behind
    // the forcada's, [(g - 1) * size + index] (table/format.hpp: dtr-forcada-gaps); else empty.
    std::vector<std::uint16_t> forcada_gaps;
};

// Solved classes kept for the lookups of larger ones.
class RuleStore {
  public:
    explicit RuleStore(const DrawRules& rules) : rules_(rules) {}
    const DrawRules& rules() const { return rules_; }
    void add(RuleClass c);
    bool has(Material m) const { return classes_.count(m) != 0; }
    const RuleClass& get(Material m) const;
    // The dtr value of a White-to-move position in the given regime.
    std::uint16_t lookup(const Position& white_to_move, Regime r) const;

  private:
    struct Entry {
        RuleClass values;
        std::unique_ptr<ClassIndex> index;
    };
    DrawRules rules_;
    std::map<Material, Entry> classes_;
};

// Solves m and m.mirrored(); the store must hold every class a move of theirs can reach.
// Parallel (oneTBB) where the states are independent: the first score of every state of a pass;
// the distances are then resolved in order, so the values do not depend on the thread count.
std::vector<RuleClass> solve_rule_pair(const DrawRules& rules, Material m, const RuleStore& store);

// A class whose dtr files a previous run completed (stored[regime][index], in regimes_of
// order), made fit for the lookups of larger classes: the files hold a filler where the side to
// move must capture, and in forcada_waiting where a king already stands on the long diagonal.
// The first are recomputed from the captures (the store must hold the classes they reach), the
// others set back to unknown.
RuleClass restore_rule_class(const DrawRules& rules, Material m,
                             std::vector<std::vector<std::uint16_t>> stored,
                             const RuleStore& store);

}  // namespace damas
