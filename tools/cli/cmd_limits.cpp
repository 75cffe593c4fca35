// gen-rules, and the move-limit rule options of probe and stats (tools/cli/limits_options.hpp).
#include <cstdio>
#include <string>

#include "folder/files.hpp"
#include "gen/limits/rule_generate.hpp"
#include "gen/process/threads.hpp"
#include "probe/limits_probe.hpp"
#include "probe/messages.hpp"
#include "probe/probe.hpp"
#include "rules/error.hpp"
#include "tools/cli/commands.hpp"
#include "tools/cli/gen_flags.hpp"
#include "tools/cli/limits_options.hpp"

namespace damas::cli {

bool RuleOptions::given() const {
    for (const CLI::Option* o :
         {edition_given, since_capture_given, in_ending_given, forcada_given, forcada_side_given})
        if (o && o->count() > 0) return true;
    return false;
}

void add_rule_options(CLI::App& cmd, RuleOptions& o) {
    o.since_capture_given =
        cmd.add_option("--plies-since-capture", o.plies_since_capture,
                       "Move-limit rules: plies since the last capture or man move (default 0)");
    o.in_ending_given = cmd.add_option(
        "--plies-in-ending", o.plies_in_ending,
        "Move-limit rules: plies since the current limited ending began (default 0)");
    o.forcada_given = cmd.add_option(
        "--forcada-plies", o.forcada_plies,
        "Portuguese 3 kings against 1 (and, after the lone king's captures, 2 kings or 1 king "
        "against 1): the forcada count started this many plies ago");
    o.forcada_side_given = cmd.add_option(
        "--forcada-side", o.forcada_side,
        "Portuguese, the forcada run on into 1 king against 1: the side whose three kings "
        "started it (white or black)");
    o.edition_given = cmd.add_option("--edition", o.edition,
                                     "international: seed (10 moves, default) or fmjd (16 moves)");
}

RuleQuery rule_query(Variant v, const RuleOptions& o) {
    const auto given = [](const CLI::Option* option) { return option && option->count() > 0; };
    StatedCounts stated{o.plies_since_capture, o.plies_in_ending, std::nullopt, std::nullopt};
    if (given(o.forcada_given)) stated.forcada_plies = o.forcada_plies;
    if (given(o.forcada_side_given)) stated.forcada_side = o.forcada_side;
    return {draw_rules(v, edition_or_throw(o.edition)), counters_stated(v, stated), o.given()};
}

RuleReport probe_under_rules(const Tablebase& tb, const RuleQuery& q, const Position& p,
                             const std::function<std::string(ProbeStatus)>& describe) {
    RuleReport r;
    r.applies = q.rules.any();
    if (!r.applies) return r;
    if (tb.probe_distance(q.rules.variant, p).metric == Metric::mtc) {
        // The rule tables are made from dtw files, which an mtc class has not.
        r.missing = mtc_rules_missing;
        if (q.required) throw Error(r.missing);
        return r;
    }
    const RulesResult result = tb.probe_rules(q.rules, p, q.counters);
    if (result.ok()) {
        r.answer = result.answer;
        return r;
    }
    if (result.status == ProbeStatus::unreachable_counts)
        throw Error("no game reaches these counts at this position: " + result.unreachable);
    if (result.status != ProbeStatus::no_rule_table) throw Error(describe(result.status));
    const std::string hint = missing_rule_table_hint(tb, q.rules, p, result.missing_table);
    if (q.required) throw Error(hint);
    r.missing = hint;
    return r;
}

void print_rule_report(const RuleReport& r) {
    if (!r.applies) return;
    if (!r.answer) {
        std::fprintf(stderr, "damas: note: %s\n", r.missing.c_str());
        return;
    }
    const RulesAnswer& a = *r.answer;
    std::printf("rules: %s", value_name(a.rule.value));
    if (a.rule.value != Value::draw) std::printf(" %d", a.rule.plies);
    std::printf(
        " under %s, %d %s left%s\n", a.count.c_str(), a.plies_left,
        a.plies_left == 1 ? "ply" : "plies",
        a.exact ? "" : " (not exact: which king was the lone one decides; see --forcada-side)");
    if (a.differs()) std::printf("%s\n", a.summary().c_str());
}

void add_rule_json(Json& out, const RuleQuery& q, const RuleReport& r) {
    if (!r.applies) return;
    if (r.answer)
        out["rules"] = rules_json(q.rules, *r.answer);
    else
        out["rules_missing"] = r.missing;
}

namespace {

void run_gen_rules(const GenRulesFlags& o) {
    const RuleGenerateOptions g = rule_generate_options(o);
    Progress progress(Progress::detect(o.quiet));
    const RuleGenerateSummary s = generate_rules(g, progress);
    if (o.json)
        print_json(gen_rules_summary_json(g, s));
    else
        print_gen_rules_summary(s);
}

}  // namespace

void add_draw_rules_commands(CLI::App& app) {
    static GenRulesFlags g;
    auto* gen = app.add_subcommand(
        "gen-rules", "Compute the move-limit rule tables (dtr) of a generated database");
    add_gen_rules_flags(*gen, g);
    gen->callback([] { run_gen_rules(g); });
}

}  // namespace damas::cli
