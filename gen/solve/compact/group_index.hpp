// Where the byte-a-position solver (gen/solve/compact/compact_solver.hpp) holds a position.
//
// Owns: the numbering of the group being solved's positions from 0 (`local`, where its byte
// is), both ways, and where a position of the slice before is in that slice's layout (its unit
// file). The group being solved is a group of configurations (gen/solve/compact/slice_groups.hpp)
// where the slice is solved by groups, else the whole slice in its layout; a turkish pair without
// men where a side has an odd number of kings is held a quarter (gen/solve/king_quarters.hpp). A
// position a group does not hold (a halved group's mirror configurations, a quartered pair's
// other three) is located as the held one that stands for it.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "gen/solve/compact/slice_groups.hpp"
#include "gen/solve/king_quarters.hpp"
#include "gen/units/pair_layout.hpp"
#include "rules/error.hpp"

namespace damas::compact {

class GroupIndex {
  public:
    GroupIndex(const PairLayout& layout, const BoardSpec& board, bool men_move_sideways)
        : layout_(layout),
          board_(board),
          men_move_sideways_(men_move_sideways),
          k_(layout.kings_per_men()) {}

    // Slice s is solved next, by groups or whole.
    void start_slice(int s, bool by_groups);
    // The slice before the one solved next, whose positions a man move reaches.
    void set_previous(int s);
    // Group g of the slice is solved next (0 where the slice is solved whole); returns its
    // positions.
    std::uint64_t enter_group(std::uint32_t g);

    int slice() const { return slice_; }
    int previous_slice() const { return previous_slice_; }
    bool by_groups() const { return by_groups_; }
    std::size_t group_count() const { return by_groups_ ? groups_.count() : 1; }
    // The men configurations of the slice being solved, of class c.
    const SliceMen& men(int c) const { return slice_men_[c]; }
    // The positions of the slice the group being solved gives values to: its own, and those its
    // positions stand for.
    std::uint64_t positions_given() const;

    // A configuration of the slice the solved group gives values to: class c, rank j in the
    // slice's list, and its bytes from `local` on, or, where it is not held, each position
    // located (a halved group's mirrors, a quartered pair's classes).
    struct Destination {
        int c;
        std::uint64_t j;
        std::uint64_t local;
        bool located;
    };
    std::vector<Destination> destinations() const;

    // The position at `local` of the group being solved (White to move), and its class.
    Position position_at(std::uint64_t local, int& c) const {
        if (quarters_) return quarters_->position_at(local, c);
        std::uint64_t j = 0;
        if (by_groups_) {
            const Member& m = groups_.members(group_)[local / k_];
            c = m.c;
            j = m.j;
        } else {
            c = local < layout_.slice_positions(0, slice_) ? 0 : 1;
            j = (local - layout_.slice_base(c, slice_)) / k_;
        }
        return layout_.index(c).unindex(slice_men_[c][j] * k_ + local % k_);
    }

    // The slice of a White-to-move position p of class c, and into `local` where it is if that
    // is the slice being solved (in the group) or the slice before (in that slice's layout);
    // else `local` is left alone.
    int locate(int c, const Position& p, std::uint64_t& local) const {
        if (quarters_) {  // no men: one slice
            local = quarters_->locate(c, p);
            return slice_;
        }
        const ClassIndex& index = layout_.index(c);
        const int s = index.slice_of(p);
        if (s != slice_ && s != previous_slice_) return s;
        std::uint64_t i = index.index(p);
        if (s == slice_) {
            std::uint64_t j = slice_men_[c].rank(i / k_);
            if (by_groups_ && groups_.stands_for_mirror(c, j)) {  // held as its mirror
                i = index.index(reverse_files(p));
                j = slice_men_[c].rank(i / k_);
            }
            local = group_start(c, j) + i % k_;
        } else {
            local = layout_.slice_base(c, s) + previous_men_[c].rank(i / k_) * k_ + i % k_;
        }
        return s;
    }

    // Where the configuration of a White-to-move position p of class c starts in the group,
    // when p is in the slice being solved and held as itself: the positions with p's men are
    // then at that start plus their kings index (ClassIndex::kings_index). False otherwise (a
    // quartered pair, another slice, a configuration held as its mirror): locate() tells.
    bool configuration_start(int c, const Position& p, std::uint64_t& start) const {
        if (quarters_) return false;
        const ClassIndex& index = layout_.index(c);
        if (index.slice_of(p) != slice_) return false;
        const std::uint64_t j = slice_men_[c].rank(index.index(p) / k_);
        if (by_groups_ && groups_.stands_for_mirror(c, j)) return false;
        start = group_start(c, j);
        return true;
    }

  private:
    // The first local position of configuration j of class c's list, which quiet moves reach
    // from the group being solved: so it is in that group.
    std::uint64_t group_start(int c, std::uint64_t j) const {
        if (!by_groups_) return layout_.slice_base(c, slice_) + j * k_;
        if (groups_.group_of(c, j) != group_)
            throw Error("a quiet move leaves its group of configurations");
        return std::uint64_t{groups_.rank_in_group(c, j)} * k_;
    }

    const PairLayout& layout_;
    const BoardSpec board_;
    const bool men_move_sideways_;
    const std::uint64_t k_;  // kings placements per men configuration
    int slice_ = -1, previous_slice_ = -1;
    // The men configurations of the slice being solved and of the one before, by class.
    SliceMen slice_men_[2], previous_men_[2];
    bool by_groups_ = false;
    SliceGroups groups_;
    std::uint32_t group_ = 0;                 // being solved
    std::unique_ptr<KingQuarters> quarters_;  // how a quartered pair's slice is held, or null
};

}  // namespace damas::compact
