// Probing under the move-limit draw rules: the value the arbiter gives, next to the pure value.
//
// Owns: the answer for a position and the counts already used (RuleCounters), from the pure
// tables (wdl, dtw) and the dtr tables (table/format.hpp; gen/rule_generate writes them). The
// counts are turned into the plies r the binding count has left (table/draw_rules.hpp); at a
// quiet position the side to move wins under the rules iff its dtr value is a win at distance
// <= r (loses likewise); a position where the side to move must capture is not stored and is
// searched capture by capture, each capture changing the count as the rules say.
//
// `rule_plies` is the dtr distance: plies to the rule's goal, i.e. to the end of the game or to
// the capture or man move that restarts the count in a position still won (for the loser, the
// longest resistance). It is not the DTW: after a restart the game may go on.
//
// Thread safety: probe() may be called from several threads at once (tables are opened under a
// mutex, the block cache is shared).
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "rules/error.hpp"
#include "table/block_cache.hpp"
#include "table/draw_rules.hpp"
#include "table/outcome.hpp"
#include "table/table_file.hpp"

namespace damas {

// Thrown when a rule table (.dtr, .dtr-fmjd, .dtr-forcada) is not in the folder: `damas
// gen-rules` has not been run for its class (a damaged file is a plain Error).
struct MissingRuleTable : Error {
    MissingRuleTable(const std::filesystem::path& file, Material m);
    std::filesystem::path path;
    Material material;
};

// The counts already used at the position; the defaults mean "the count starts now".
struct RuleCounters {
    int plies_since_capture = 0;  // plies since the last capture or man move (king-move rules)
    int plies_in_ending = 0;      // plies since the current limited ending began
    // Portuguese forcada: whether the count has started (default: iff the three-king side has a
    // king on the long diagonal now; a king there always means started) and plies since.
    std::optional<bool> forcada_started;
    int forcada_plies = 0;
};

struct RulesAnswer {
    Outcome pure;        // value and DTW
    Outcome rule;        // value under the rules and its dtr distance (0 for a draw)
    std::string count;   // the count in force at the position ("the 5-move rule")
    int plies_left = 0;  // plies that count has left
    bool exact = true;   // false: see draw_rules.hpp (a king-move count given that
                         // runs out before the ending's count)
    bool differs() const { return pure.value != rule.value; }
    std::string summary() const;  // "win", "win, drawn by the 5-move rule"
};

// The plies the binding count has left at p, and its regime.
CountState count_at(const DrawRules& rules, const Position& p, const RuleCounters& counters,
                    bool& exact);

class RulesProbe {
  public:
    // dir: the database root. Throws nothing; missing files are reported by probe().
    explicit RulesProbe(std::filesystem::path dir, std::size_t cache_mib = 16);
    ~RulesProbe();

    // Throws MissingRuleTable when a rule table is not there, Error when a table is damaged or
    // the position is not in the database.
    RulesAnswer probe(const DrawRules& rules, const Position& p, const RuleCounters& c) const;

    // The dtr value of a quiet White-to-move position in a regime.
    std::uint16_t dtr(const DrawRules& rules, const Position& white_to_move, Regime r) const;

  private:
    const TableFile& table(Variant v, Material m, Metric metric) const;
    std::uint16_t read(const TableFile& t, const Position& white_to_move) const;

    std::filesystem::path dir_;
    mutable BlockCache cache_;
    mutable std::mutex mutex_;
    mutable std::map<std::filesystem::path, std::unique_ptr<TableFile>> tables_;
};

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

}  // namespace damas
