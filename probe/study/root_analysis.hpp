// The root analysis of a position for the explorer: its value, distance (DTW, or MTC where the
// class has an mtc file: ProbeResult::metric) and value under the move-limit rules, then every
// legal move with the same for the side that plays it, best first.
//
// Owns: nothing but the glue. The moves and their values are the engine's root probe's
// (Tablebase::probe_root, as the C API and the Python package give them); this adds the root's
// answer under the rules and each move's counts after it (for the next position's query).
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "probe/limits_probe.hpp"
#include "probe/probe.hpp"
#include "rules/move.hpp"

namespace damas::study {

struct RootMove {
    Move move;
    std::string text;  // move_text, or move_text_with_captures when two moves share squares
    Position after;
    ProbeResult pure;             // for the side that plays the move, counting the move
    std::optional<Outcome> rule;  // likewise under the rules, when the rule tables are there
    RuleCounters counters;        // the counts after the move
};

struct RootAnalysis {
    ProbeResult root;  // status not ok: the rest is empty
    bool game_over = false;
    std::optional<RulesAnswer> rules;          // the variant has rules and the tables are there
    std::string rules_missing;                 // else, when the variant has rules, why not
    std::filesystem::path missing_rule_table;  // the table rules_missing names, if one is missing
    std::vector<RootMove> moves;               // best first (pure value, then by square)
};

struct RootQuery {
    DrawRules rules;
    RuleCounters counters;
};

// Thread-safe (the engine is).
RootAnalysis analyse_root(const Tablebase& tb, Variant v, const Position& p, const RootQuery& q);

}  // namespace damas::study
