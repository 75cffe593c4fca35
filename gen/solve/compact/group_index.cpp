#include "gen/solve/compact/group_index.hpp"

namespace damas::compact {

void GroupIndex::start_slice(int s, bool by_groups) {
    slice_ = s;
    for (int c = 0; c < layout_.classes(); ++c) slice_men_[c] = layout_.slice_men(c, s);
    by_groups_ = by_groups;
    groups_ =
        by_groups ? SliceGroups(layout_, slice_men_, board_, men_move_sideways_) : SliceGroups();
    const Material m = layout_.index(0).material();
    if (by_groups && KingQuarters::holds(board_, m))
        quarters_ = std::make_unique<KingQuarters>(m, layout_.classes());
}

void GroupIndex::set_previous(int s) {
    previous_slice_ = s;
    for (int c = 0; c < layout_.classes(); ++c) previous_men_[c] = layout_.slice_men(c, s);
}

std::uint64_t GroupIndex::enter_group(std::uint32_t g) {
    group_ = g;
    if (quarters_) return quarters_->size();
    if (by_groups_) return groups_.members(g).size() * k_;
    return layout_.slice_positions(slice_);
}

std::uint64_t GroupIndex::positions_given() const {
    if (quarters_ || !by_groups_) return layout_.slice_positions(slice_);
    std::uint64_t n = 0;
    for (const Member& m : groups_.members(group_)) n += m.mirror == Member::none ? k_ : 2 * k_;
    return n;
}

std::vector<GroupIndex::Destination> GroupIndex::destinations() const {
    std::vector<Destination> out;
    if (quarters_) {
        for (int c = 0; c < layout_.classes(); ++c) out.push_back({c, 0, 0, true});
        return out;
    }
    const std::vector<Member>& group = groups_.members(group_);
    for (std::size_t e = 0; e < group.size(); ++e) {
        out.push_back({group[e].c, group[e].j, e * k_, false});
        if (group[e].mirror != Member::none) out.push_back({group[e].c, group[e].mirror, 0, true});
    }
    return out;
}

}  // namespace damas::compact
