// The study commands' and the explorer's JSON (see analysis_json.hpp).
#include "tools/render/analysis_json.hpp"

#include "index/flip.hpp"
#include "index/material.hpp"
#include "rules/notation.hpp"

namespace damas::cli {

std::string class_of(Variant v, const Position& p) {
    return Material::of(p.side == Color::white ? p : flip(v.info().board, p)).name();
}

Json rules_json(const DrawRules& rules, const RulesAnswer& a) {
    return {{"edition", edition_name(rules.edition)},
            {"value", value_name(a.rule.value)},
            {"dtr", distance_json(a.rule.value, a.rule.plies)},
            {"count", a.count},
            {"plies_left", a.plies_left},
            {"differs", a.differs()},
            {"exact", a.exact},
            {"summary", a.summary()}};
}

Json counts_json(const RuleCounters& c) {
    Json counts{{"plies_since_capture", c.plies_since_capture},
                {"plies_in_ending", c.plies_in_ending}};
    if (c.forcada_started.value_or(false)) counts["forcada_plies"] = c.forcada_plies;
    if (c.forcada_side) counts["forcada_side"] = color_name(*c.forcada_side);
    return counts;
}

Json move_json(Variant v, const RootMove& m) {
    const VariantInfo& vi = v.info();
    Json captured = Json::array();
    for_each_bit(m.move.captured, [&](int b) { captured.push_back(square_name(vi, b)); });
    Json row{{"move", m.text},
             {"from", square_name(vi, m.move.from)},
             {"to", square_name(vi, m.move.to)},
             {"captured", captured},
             {"fen_after", to_fen(v, m.after)},
             {"value", value_name(m.pure.value)},
             {distance_key(m.pure.metric), distance_json(m.pure.value, m.pure.plies)},
             {"counts_after", counts_json(m.counters)}};
    if (m.rule)
        row["rules"] = {{"value", value_name(m.rule->value)},
                        {"dtr", distance_json(m.rule->value, m.rule->plies)}};
    return row;
}

Json root_json(Variant v, const Position& p, const RootQuery& q, const RootAnalysis& a) {
    Json out{{"variant", v.name()},
             {"fen", to_fen(v, p)},
             {"class", class_of(v, p)},
             {"value", value_name(a.root.value)},
             {distance_key(a.root.metric), distance_json(a.root.value, a.root.plies)},
             {"game_over", a.game_over}};
    if (a.rules)
        out["rules"] = rules_json(q.rules, *a.rules);
    else if (!a.rules_missing.empty())
        out["rules_missing"] = a.rules_missing;
    Json moves = Json::array();
    for (const RootMove& m : a.moves) moves.push_back(move_json(v, m));
    out["moves"] = std::move(moves);
    return out;
}

Json stats_json(const ClassStats& s, const DrawRules& rules) {
    using ordered_json = Json;
    // The histogram's distance is named by its metric: "dtw", or "mtc" for an mtc class.
    const char* metric = distance_key(s.metric);
    ordered_json histogram = ordered_json::array();
    for (const auto& [plies, counts] : s.histogram)
        histogram.push_back(
            ordered_json{{metric, plies}, {"wins", counts.first}, {"losses", counts.second}});
    ordered_json out{
        {"class", s.material.name()}, {"positions", s.positions}, {"wins", s.wins},
        {"draws", s.draws},           {"losses", s.losses},       {"longest_win", s.longest_win},
        {"histogram", histogram},     {"metric", metric}};
    if (s.rules)
        out["rules"] = ordered_json{
            {"edition", edition_name(rules.edition)}, {"quiet_positions", s.rules->quiet_positions},
            {"pure_wins", s.rules->pure_wins},        {"wins_drawn", s.rules->wins_drawn},
            {"pure_losses", s.rules->pure_losses},    {"losses_drawn", s.rules->losses_drawn}};
    return out;
}

}  // namespace damas::cli
