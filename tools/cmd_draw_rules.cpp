// gen-rules, and the move-limit rule options of probe and stats (tools/rule_options.hpp).
#include <cstdio>
#include <string>

#include "gen/generate.hpp"
#include "gen/rule_generate.hpp"
#include "gen/threads.hpp"
#include "probe/messages.hpp"
#include "probe/probe.hpp"
#include "rules/error.hpp"
#include "tools/commands.hpp"
#include "tools/rule_options.hpp"

namespace damas::cli {

Edition edition_or_throw(const std::string& name) {
    const auto e = parse_edition(name);
    if (!e) throw Error("unknown edition '" + name + "' (known: seed, fmjd)");
    return *e;
}

bool RuleOptions::given() const {
    for (const CLI::Option* o :
         {edition_given, since_capture_given, in_ending_given, forcada_given})
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
    o.edition_given = cmd.add_option("--edition", o.edition,
                                     "international: seed (10 moves, default) or fmjd (16 moves)");
}

RuleQuery rule_query(Variant v, const RuleOptions& o) {
    RuleQuery q{draw_rules(v, edition_or_throw(o.edition)), {}, o.given()};
    if (o.plies_since_capture < 0 || o.plies_in_ending < 0 || o.forcada_plies < 0)
        throw Error("the plies counts must not be negative");
    if (o.forcada_given && o.forcada_given->count() > 0) {
        if (v.base != BaseVariant::portuguese)
            throw Error("--forcada-plies: the forcada is a portuguese rule (not " + v.name() + ")");
        q.counters.forcada_started = true;
        q.counters.forcada_plies = o.forcada_plies;
    }
    q.counters.plies_since_capture = o.plies_since_capture;
    q.counters.plies_in_ending = o.plies_in_ending;
    return q;
}

RuleReport probe_under_rules(const Tablebase& tb, const RuleQuery& q, const Position& p,
                             const std::function<std::string(ProbeStatus)>& describe) {
    RuleReport r;
    r.applies = q.rules.any();
    if (!r.applies) return r;
    const RulesResult result = tb.probe_rules(q.rules, p, q.counters);
    if (result.ok()) {
        r.answer = result.answer;
        return r;
    }
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
    std::printf(" under %s, %d %s left%s\n", a.count.c_str(), a.plies_left,
                a.plies_left == 1 ? "ply" : "plies",
                a.exact ? "" : " (not exact: the king-move count runs out first)");
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

std::filesystem::path dir_or_default(const std::string& dir) {
    return dir.empty() ? default_database_dir() : std::filesystem::path(dir);
}

struct GenRulesOptions {
    std::string variant;
    std::string edition = "seed";
    int pieces = 4;
    std::string dir;
    int max_per_side = 0;
    int threads = 0;
    std::string only;
    bool quiet = false;
    bool json = false;
    bool no_sync = false;
};

void run_gen_rules(const GenRulesOptions& o) {
    RuleGenerateOptions g;
    g.variant = variant_or_throw(o.variant);
    g.edition = edition_or_throw(o.edition);
    if (o.pieces < 2 || o.pieces > 8) throw Error("--pieces must be between 2 and 8");
    g.max_pieces = o.pieces;
    g.dir = dir_or_default(o.dir);
    g.max_per_side = o.max_per_side;
    g.threads = checked_threads(o.threads);
    g.durable = !o.no_sync;
    if (!o.only.empty()) {
        const auto m = Material::parse(o.only);
        if (!m || m->white() == 0 || m->black() == 0) throw Error("bad class '" + o.only + "'");
        g.only = *m;
    }
    Progress progress(Progress::detect(o.quiet));
    const RuleGenerateSummary s = generate_rules(g, progress);
    if (o.json) {
        print_json({{"variant", g.variant.name()},
                    {"dir", g.dir.string()},
                    {"edition", edition_name(g.edition)},
                    {"classes_built", s.classes},
                    {"classes_skipped", s.classes_skipped},
                    {"positions", s.positions},
                    {"pure_wins", s.pure_wins},
                    {"wins_drawn", s.wins_drawn_by_rules},
                    {"bytes_written", s.bytes_written},
                    {"seconds", s.seconds}});
        return;
    }
    std::printf(
        "rule tables: %d classes written, %d complete and skipped; %llu positions in %.2f s; %llu "
        "bytes; %llu of %llu quiet pure wins are draws when the count starts at them\n",
        s.classes, s.classes_skipped, static_cast<unsigned long long>(s.positions), s.seconds,
        static_cast<unsigned long long>(s.bytes_written),
        static_cast<unsigned long long>(s.wins_drawn_by_rules),
        static_cast<unsigned long long>(s.pure_wins));
}

}  // namespace

void add_draw_rules_commands(CLI::App& app) {
    static GenRulesOptions g;
    auto* gen = app.add_subcommand(
        "gen-rules", "Compute the move-limit rule tables (dtr) of a generated database");
    gen->add_option("--variant,-v", g.variant, "Variant (" + variant_names() + ")")->required();
    gen->add_option("--edition", g.edition, "international: seed (10 moves) or fmjd (16 moves)");
    gen->add_option("--pieces,-p", g.pieces, "Most pieces on the board (2..8)");
    gen->add_option("--dir,-d", g.dir, "Database folder (default: $DAMAS_DB or ./db)")
        ->check(non_empty_folder);
    gen->add_option("--max-per-side", g.max_per_side, "At most this many pieces per side");
    gen->add_option("--class,-c", g.only, "Only this class (and its mirror) and what it needs");
    gen->add_option("--threads,-t", g.threads, "Worker threads (default: all cores)");
    gen->add_flag("--no-sync", g.no_sync,
                  "Do not fsync each file and its folder (scratch runs: a power cut may leave "
                  "partial files)");
    gen->add_flag("--quiet,-q", g.quiet, "No progress output");
    gen->add_flag("--json", g.json, "Machine-readable summary");
    gen->callback([] { run_gen_rules(g); });
}

}  // namespace damas::cli
