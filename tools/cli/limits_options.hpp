// The move-limit draw rules on the command line (limits/draw_rules.hpp, probe/limits_probe.hpp):
// the counts and edition `damas probe` and `damas stats` take, and the answer under the rules
// or the reason there is none (no rule table: a one-line hint to run `damas gen-rules`).
// Implemented in cmd_limits.cpp.
#pragma once

#include <CLI/CLI.hpp>

#include <filesystem>
#include <functional>
#include <optional>
#include <string>

#include "probe/limits_probe.hpp"
#include "tools/cli/commands.hpp"

namespace damas::cli {

struct RuleOptions {
    std::string edition = "seed";
    int plies_since_capture = 0;
    int plies_in_ending = 0;
    int forcada_plies = 0;
    std::string forcada_side;
    // Set by add_rule_options: whether each option was given.
    const CLI::Option* edition_given = nullptr;
    const CLI::Option* since_capture_given = nullptr;
    const CLI::Option* in_ending_given = nullptr;
    const CLI::Option* forcada_given = nullptr;
    const CLI::Option* forcada_side_given = nullptr;
    // A count or the edition was given: the answer under the rules is then required.
    bool given() const;
};
// --plies-since-capture, --plies-in-ending, --forcada-plies, --forcada-side, --edition.
void add_rule_options(CLI::App& cmd, RuleOptions& o);

// The options checked against the variant (throws Error on bad ones, before anything is
// printed).
struct RuleQuery {
    DrawRules rules;
    RuleCounters counters;
    bool required = false;  // counts given: no rule table is an error, not a hint
};
RuleQuery rule_query(Variant v, const RuleOptions& o);

struct RuleReport {
    bool applies = false;               // the variant has move-limit rules
    std::optional<RulesAnswer> answer;  // the rule tables were there
    std::string missing;                // else the one-line hint
};
// Probes p under the rules with tb's tables. A missing rule table gives a report with `missing`
// set when the query does not require the rules, else throws Error with the hint; another
// failure throws Error(describe(status)).
RuleReport probe_under_rules(const Tablebase& tb, const RuleQuery& q, const Position& p,
                             const std::function<std::string(ProbeStatus)>& describe);

// The text lines after the pure value ("rules: ...", then the summary when the two differ),
// and the hint on stderr when a table is missing.
void print_rule_report(const RuleReport& r);
// "rules": {...} or "rules_missing": "hint" (nothing when the variant has no rules).
void add_rule_json(Json& out, const RuleQuery& q, const RuleReport& r);

}  // namespace damas::cli
