// The messages of a failed probe (see messages.hpp).
#include "probe/messages.hpp"

#include "index/flip.hpp"
#include "index/material.hpp"

namespace damas {

std::string probe_failure_message(const Tablebase& tb, Variant v, const Position& p, ProbeStatus s,
                                  const std::string& last_problem) {
    const Position w = p.side == Color::white ? p : flip(v.info().board, p);
    std::string m;
    switch (s) {
        case ProbeStatus::not_in_database:
            m = "class ";
            m += Material::of(w).name();
            m += " (or a class its captures lead to) is not in the ";
            m += v.name();
            m += " database in ";
            m += tb.dir().string();
            return m;
        case ProbeStatus::invalid_position:
            return "the position cannot be probed: a man stands where no man can come, or "
                   "the side not to move has no piece";
        case ProbeStatus::unreachable_counts:
            return "no game reaches these move-limit counts at this position (docs/draw-rules.md, "
                   "\"Which counts a game reaches\")";
        default:
            m = probe_status_name(s);
            if (!last_problem.empty()) {
                m += ": ";
                m += last_problem;
            }
            return m;
    }
}

std::string missing_rule_table_hint(const Tablebase& tb, const DrawRules& rules, const Position& p,
                                    const std::filesystem::path& missing) {
    std::string hint = "no rule table ";
    hint += missing.filename().string();
    hint += " in ";
    hint += missing.parent_path().string();
    hint += ": for the value under the move-limit draw rules run damas gen-rules -v ";
    hint += rules.variant.name();
    hint += " -p ";
    hint += std::to_string(Material::of(p).pieces());
    hint += " -d ";
    hint += tb.dir().string();
    if (rules.edition == Edition::fmjd) hint += " --edition fmjd";
    return hint;
}

}  // namespace damas
