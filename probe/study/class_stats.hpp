// Statistics of a class: what `damas stats` prints and the explorer shows.
//
// Owns: the walk over a class's stored positions (its WDL and DTW files read whole, or its MTC
// file), counting wins, draws and losses, the histogram of the class's distance (DTW, or MTC: the
// plies to the next conversion), and the longest wins as positions; positions where
// the side to move must capture, or that a rule ends, come from a probe (the files hold no value
// there); and, when the class has rule tables, the pure wins the move-limit rules draw.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "index/material.hpp"
#include "probe/limits_probe.hpp"
#include "probe/probe.hpp"

namespace damas::study {

// Per class, for `damas stats`: quiet positions whose pure value is a win (loss) and which the
// rules make a draw when the count starts at the position.
struct RuleClassStats {
    std::uint64_t quiet_positions = 0;
    std::uint64_t pure_wins = 0;
    std::uint64_t wins_drawn = 0;
    std::uint64_t pure_losses = 0;
    std::uint64_t losses_drawn = 0;
};
// Reads the class's wdl and dtr files under dir; throws MissingRuleTable if a dtr file is not
// there, Error if a file is damaged.
RuleClassStats rule_class_stats(const std::filesystem::path& dir, const DrawRules& rules,
                                Material m);

struct ClassStats {
    Material material;
    std::uint64_t positions = 0, wins = 0, draws = 0, losses = 0;
    // The distance of the histogram and the longest wins: dtw, or mtc where the class has an mtc
    // file and no dtw file.
    Metric metric = Metric::dtw;
    int longest_win = 0;
    std::map<int, std::pair<std::uint64_t, std::uint64_t>> histogram;  // plies -> wins, losses
    std::optional<RuleClassStats> rules;  // when the class has rule tables
    // The longest wins, longest first (White to move, as the tables store them).
    std::vector<std::pair<int, Position>> longest_wins;
};

// Throws Error (naming `what` and the class) where class m has an mtc file and no dtw file: the
// rule statistics read the pure values beside dtw.
void refuse_mtc(const std::filesystem::path& dir, Variant v, Material m, const char* what);

// Walks class m of variant v in dir. `probe` gives the value and distance (of the class's own
// metric: Tablebase::probe_distance) of a capture or rule-ended position, and of every position
// of a class whose mtc file has the mirror layout (and throws Error when it cannot). Keeps up to
// `keep_longest` longest wins. Throws Error when a file is missing or damaged.
ClassStats class_stats(Variant v, const std::filesystem::path& dir, Material m,
                       const std::function<ProbeResult(const Position&)>& probe,
                       int keep_longest = 0);

// The pure wins (losses) the move-limit rules make draws, when the class has rule tables.
std::optional<RuleClassStats> rule_stats(const std::filesystem::path& dir, const DrawRules& rules,
                                         Material m);

}  // namespace damas::study
