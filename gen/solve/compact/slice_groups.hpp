// The groups a slice's men configurations form for the byte-a-position solver
// (gen/solve/compact/compact_solver.hpp): the configurations quiet moves connect, each group
// solved alone.
//
// Owns: which group each configuration of the slice is in and where. King moves keep the men,
// and turkish sideways man moves keep the men per row, so a group is a configuration and its
// flip's in the mirror class on the diagonal boards, and on the turkish board every
// configuration with the same men per row (and its flips'): a small part of the slice (turkish
// 1213 + 1312: 8.3 G positions of a 48.7 G slice).
//
// A turkish group where some row has an odd number of White or of Black men is halved: it holds
// one of each pair of mirror configurations (files reversed, the same value), the one first in
// the slice's list. No position of it is then its own mirror, so the mirror of a move is a move
// and un-moves count as they do unhalved.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "gen/units/pair_layout.hpp"
#include "rules/geometry.hpp"
#include "rules/position.hpp"

namespace damas::compact {

// A men configuration of the slice being solved: its class and its rank in the slice's list.
struct Member {
    static constexpr std::uint32_t none = UINT32_MAX;
    int c;
    std::uint32_t j;
    // Its mirror configuration (turkish, files reversed), which the group does not hold.
    std::uint32_t mirror = none;
};

// A position with its files reversed (gen/solve/king_quarters.hpp), which has the same value.
Position reverse_files(const Position& p);

class SliceGroups {
  public:
    SliceGroups() = default;
    // The groups of the slice whose configurations are `men`, by class; men_move_sideways: the
    // rules' (turkish).
    SliceGroups(const PairLayout& layout, const SliceMen (&men)[2], const BoardSpec& board,
                bool men_move_sideways);

    std::size_t count() const { return groups_.size(); }
    const std::vector<Member>& members(std::uint32_t g) const { return groups_[g]; }
    // By class and rank in the slice's list: a configuration's group and its rank there.
    std::uint32_t group_of(int c, std::uint64_t j) const { return group_of_[c][j]; }
    std::uint32_t rank_in_group(int c, std::uint64_t j) const { return rank_in_group_[c][j]; }
    // Whether a halved group holds the configuration as its mirror.
    bool stands_for_mirror(int c, std::uint64_t j) const { return stands_for_mirror_[c][j]; }

  private:
    // Each configuration's group (group_of_) and, where men move sideways, its mirror's rank
    // (mirror_of); returns by group whether it is halved.
    std::vector<bool> number_groups(const PairLayout& layout, const SliceMen (&men)[2],
                                    const BoardSpec& board, bool men_move_sideways,
                                    std::vector<std::uint32_t> (&mirror_of)[2]);
    // The groups' members, in the slice's order, and where each configuration is in its group.
    void place_members(int classes, const std::vector<bool>& halved,
                       const std::vector<std::uint32_t> (&mirror_of)[2]);

    std::vector<std::vector<Member>> groups_;
    std::vector<std::uint32_t> group_of_[2], rank_in_group_[2];
    std::vector<bool> stands_for_mirror_[2];
};

}  // namespace damas::compact
