// gen-rules and probe-rules: the move-limit draw rules (probe/draw_rules.hpp).
#include <cstdio>
#include <string>

#include "gen/generate.hpp"
#include "gen/rule_generate.hpp"
#include "probe/rules_probe.hpp"
#include "rules/error.hpp"
#include "rules/notation.hpp"
#include "tools/commands.hpp"
#include "tools/json.hpp"

namespace damas::cli {
namespace {


Edition edition_or_throw(const std::string& name) {
    const auto e = parse_edition(name);
    if (!e) throw Error("unknown edition '" + name + "' (known: seed, fmjd)");
    return *e;
}

std::filesystem::path dir_or_default(const std::string& dir) {
    return dir.empty() ? default_database_dir() : std::filesystem::path(dir);
}

struct GenRulesOptions {
    std::string variant;
    std::string edition = "seed";
    int pieces = 4;
    std::string dir;
    int max_per_side = 0;
    std::string only;
    bool quiet = false;
    bool json = false;
};

void run_gen_rules(const GenRulesOptions& o) {
    RuleGenerateOptions g;
    g.variant = variant_or_throw(o.variant);
    g.edition = edition_or_throw(o.edition);
    if (o.pieces < 2 || o.pieces > 8) throw Error("--pieces must be between 2 and 8");
    g.max_pieces = o.pieces;
    g.dir = dir_or_default(o.dir);
    g.max_per_side = o.max_per_side;
    if (!o.only.empty()) {
        const auto m = Material::parse(o.only);
        if (!m || m->white() == 0 || m->black() == 0) throw Error("bad class '" + o.only + "'");
        g.only = *m;
    }
    Progress progress(Progress::detect(o.quiet));
    const RuleGenerateSummary s = generate_rules(g, progress);
    if (o.json) {
        std::printf("%s\n", JsonObject()
                                .str("variant", g.variant.name())
                                .str("edition", edition_name(g.edition))
                                .num("classes", s.classes)
                                .num("positions", s.positions)
                                .num("pure_wins", s.pure_wins)
                                .num("wins_drawn_by_rules", s.wins_drawn_by_rules)
                                .num("bytes_written", s.bytes_written)
                                .num("seconds", s.seconds)
                                .str_end()
                                .c_str());
        return;
    }
    std::printf(
        "rule tables: %d classes, %llu positions in %.2f s; %llu bytes; %llu of %llu quiet pure "
        "wins are draws when the count starts at them\n",
        s.classes, static_cast<unsigned long long>(s.positions), s.seconds,
        static_cast<unsigned long long>(s.bytes_written),
        static_cast<unsigned long long>(s.wins_drawn_by_rules),
        static_cast<unsigned long long>(s.pure_wins));
}

struct ProbeRulesOptions {
    std::string variant;
    std::string edition = "seed";
    std::string dir;
    std::string fen;
    int plies_since_capture = 0;
    int plies_in_ending = 0;
    int forcada_plies = -1;  // -1: not started unless a king is on the diagonal
    bool json = false;
};

const char* value_word(Value v) {
    return v == Value::win    ? "win"
           : v == Value::loss ? "loss"
           : v == Value::draw ? "draw"
                              : "unknown";
}

void run_probe_rules(const ProbeRulesOptions& o) {
    const Variant v = variant_or_throw(o.variant);
    const DrawRules rules = draw_rules(v, edition_or_throw(o.edition));
    const Position p = parse_fen(v, o.fen);
    if (o.plies_since_capture < 0 || o.plies_in_ending < 0)
        throw Error("the counters must not be negative");
    RuleCounters c;
    c.plies_since_capture = o.plies_since_capture;
    c.plies_in_ending = o.plies_in_ending;
    if (o.forcada_plies >= 0) {
        c.forcada_started = true;
        c.forcada_plies = o.forcada_plies;
    }
    const RulesProbe probe(dir_or_default(o.dir));
    const RulesAnswer a = probe.probe(rules, p, c);
    if (o.json) {
        std::printf("%s\n", JsonObject()
                                .str("variant", v.name())
                                .str("edition", edition_name(rules.edition))
                                .str("fen", to_fen(v, p))
                                .str("pure", value_word(a.pure.value))
                                .num("dtw", static_cast<int>(a.pure.plies))
                                .str("rules", value_word(a.rule.value))
                                .num("dtr", static_cast<int>(a.rule.plies))
                                .str("count", a.count)
                                .num("plies_left", a.plies_left)
                                .boolean("differs", a.differs())
                                .boolean("exact", a.exact)
                                .str("summary", a.summary())
                                .str_end()
                                .c_str());
        return;
    }
    std::printf("pure: %s", value_word(a.pure.value));
    if (a.pure.value != Value::draw) std::printf(" in %d plies", a.pure.plies);
    std::printf("\nrules: %s", value_word(a.rule.value));
    if (a.rule.value != Value::draw) std::printf(" (%d plies to the goal)", a.rule.plies);
    std::printf(" under %s, %d plies left%s\n%s\n", a.count.c_str(), a.plies_left,
                a.exact ? "" : " (not exact: the king-move count runs out first)",
                a.summary().c_str());
}

}  // namespace

void add_draw_rules_commands(CLI::App& app) {
    static GenRulesOptions g;
    auto* gen = app.add_subcommand(
        "gen-rules", "Compute the move-limit rule tables (dtr) of a generated database");
    gen->add_option("--variant,-v", g.variant, "Variant (" + variant_names() + ")")->required();
    gen->add_option("--edition", g.edition, "international: seed (10 moves) or fmjd (16 moves)");
    gen->add_option("--pieces,-p", g.pieces, "Most pieces on the board (2..8)");
    gen->add_option("--dir,-d", g.dir, "Database folder (default: $DAMAS_DB or ./db)");
    gen->add_option("--max-per-side", g.max_per_side, "At most this many pieces per side");
    gen->add_option("--class,-c", g.only, "Only this class (and its mirror) and what it needs");
    gen->add_flag("--quiet,-q", g.quiet, "No progress output");
    gen->add_flag("--json", g.json, "Machine-readable summary");
    gen->callback([] { run_gen_rules(g); });

    static ProbeRulesOptions p;
    auto* probe = app.add_subcommand(
        "probe-rules", "A position's value under the move-limit draw rules, and its pure value");
    probe->add_option("--variant,-v", p.variant, "Variant (" + variant_names() + ")")->required();
    probe->add_option("--edition", p.edition, "international: seed (10 moves) or fmjd (16 moves)");
    probe->add_option("--dir,-d", p.dir, "Database folder (default: $DAMAS_DB or ./db)");
    probe->add_option("fen", p.fen, "Position (FEN)")->required();
    probe->add_option("--plies-since-capture", p.plies_since_capture,
                      "Plies since the last capture or man move (default 0)");
    probe->add_option("--plies-in-ending", p.plies_in_ending,
                      "Plies since the current limited ending began (default 0)");
    probe->add_option("--forcada-plies", p.forcada_plies,
                      "Portuguese: the forcada count has started, this many plies ago");
    probe->add_flag("--json", p.json, "Machine-readable answer");
    probe->callback([] { run_probe_rules(p); });
}

}  // namespace damas::cli
