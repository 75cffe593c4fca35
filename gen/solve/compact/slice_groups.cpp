#include "gen/solve/compact/slice_groups.hpp"

#include <algorithm>
#include <map>

#include "gen/solve/king_quarters.hpp"
#include "index/flip.hpp"
#include "rules/bitboard.hpp"

namespace damas::compact {
namespace {

using Key = std::pair<Bitboard, Bitboard>;

// What quiet moves keep of a configuration: its squares, or, where men move sideways, its men
// per row (4 bits a row).
class GroupKey {
  public:
    GroupKey(const BoardSpec& board, bool men_move_sideways) : by_rows_(men_move_sideways) {
        const GeometryTables t = make_tables(board);
        for (int y = 0; y < t.height; ++y) rows_.push_back(t.row(y));
    }
    Key operator()(Bitboard white, Bitboard black) const {
        if (!by_rows_) return {white, black};
        Bitboard w = 0, b = 0;
        for (std::size_t y = 0; y < rows_.size(); ++y) {
            w |= static_cast<Bitboard>(popcount(white & rows_[y])) << (4 * y);
            b |= static_cast<Bitboard>(popcount(black & rows_[y])) << (4 * y);
        }
        return {w, b};
    }

  private:
    bool by_rows_;
    std::vector<Bitboard> rows_;
};

}  // namespace

Position reverse_files(const Position& p) {
    Position m = p;
    m.pieces[0] = damas::reverse_files(p.pieces[0]);
    m.pieces[1] = damas::reverse_files(p.pieces[1]);
    m.kings = damas::reverse_files(p.kings);
    return m;
}

SliceGroups::SliceGroups(const PairLayout& layout, const SliceMen (&men)[2], const BoardSpec& board,
                         bool men_move_sideways) {
    std::vector<std::uint32_t> mirror_of[2];
    const std::vector<bool> halved =
        number_groups(layout, men, board, men_move_sideways, mirror_of);
    place_members(layout.classes(), halved, mirror_of);
}

std::vector<bool> SliceGroups::number_groups(const PairLayout& layout, const SliceMen (&men)[2],
                                             const BoardSpec& board, bool men_move_sideways,
                                             std::vector<std::uint32_t> (&mirror_of)[2]) {
    const Flipper flip(board);
    const GroupKey key_of(board, men_move_sideways);
    std::map<Key, std::uint32_t> ids;
    std::vector<bool> halved;  // by group: no configuration is its own mirror
    for (int c = 0; c < layout.classes(); ++c) {
        const ClassIndex& index = layout.index(c);
        group_of_[c].assign(men[c].size(), 0);
        mirror_of[c].assign(men[c].size(), Member::none);
        for (std::uint64_t j = 0; j < men[c].size(); ++j) {
            const MenPlacement placement = index.men(men[c][j]);
            // In the first class's colours (a mirror configuration is the flip of one).
            Bitboard white = placement.white, black = placement.black;
            if (c == 1) white = flip.rotate(placement.black), black = flip.rotate(placement.white);
            Key key = key_of(white, black);
            if (layout.classes() == 1)
                key = std::min(key, key_of(flip.rotate(black), flip.rotate(white)));
            const auto [it, added] =
                ids.try_emplace(key, static_cast<std::uint32_t>(halved.size()));
            if (added) halved.push_back(men_move_sideways);
            group_of_[c][j] = it->second;
            if (!men_move_sideways) continue;
            const std::uint64_t mirror = index.men_index(damas::reverse_files(placement.white),
                                                         damas::reverse_files(placement.black));
            if (mirror == men[c][j]) halved[it->second] = false;
            mirror_of[c][j] = static_cast<std::uint32_t>(men[c].rank(mirror));
        }
    }
    return halved;
}

void SliceGroups::place_members(int classes, const std::vector<bool>& halved,
                                const std::vector<std::uint32_t> (&mirror_of)[2]) {
    groups_.assign(halved.size(), {});
    for (int c = 0; c < classes; ++c) {
        const std::uint64_t n = group_of_[c].size();
        rank_in_group_[c].assign(n, 0);
        stands_for_mirror_[c].assign(n, false);
        for (std::uint64_t j = 0; j < n; ++j) {
            const std::uint32_t g = group_of_[c][j];
            std::uint32_t mirror = Member::none;
            if (halved[g]) {
                if (mirror_of[c][j] < j) {
                    stands_for_mirror_[c][j] = true;
                    continue;
                }
                mirror = mirror_of[c][j];
            }
            rank_in_group_[c][j] = static_cast<std::uint32_t>(groups_[g].size());
            groups_[g].push_back({c, static_cast<std::uint32_t>(j), mirror});
        }
    }
}

}  // namespace damas::compact
