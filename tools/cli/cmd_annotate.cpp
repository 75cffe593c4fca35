// annotate: PDN games with the tablebase's verdict on every position inside it
// (probe/study/annotate.hpp says what is written). The annotated PDN goes to -o FILE or standard
// output, a summary line per game to standard output (standard error when the PDN goes there),
// --json everything as one object.
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "probe/study/annotate.hpp"
#include "rules/error.hpp"
#include "rules/game_type.hpp"
#include "rules/notation.hpp"
#include "rules/pdn.hpp"
#include "rules/printable.hpp"
#include "tools/cli/commands.hpp"
#include "tools/cli/database.hpp"
#include "tools/cli/limits_options.hpp"

namespace damas::cli {
namespace {

struct AnnotateCommandOptions {
    std::string variant;
    std::string dir;
    std::string input;
    std::string output;
    std::string edition = "seed";
    bool json = false;
};

std::string read_text(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in || std::filesystem::is_directory(path))
        throw Error("cannot read " + printable(path) + ": " +
                    (std::filesystem::is_directory(path) ? "a folder" : std::strerror(errno)));
    std::ostringstream s;
    s << in.rdbuf();
    if (in.bad()) throw Error("cannot read " + printable(path));
    return s.str();
}

void write_text(const std::string& path, const std::string& text) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    if (out) out << text;
    if (!out) throw Error("cannot write " + printable(path) + ": " + std::strerror(errno));
}

std::vector<PdnGame> read_games(const std::string& path) {
    try {
        return read_pdn(read_text(path));
    } catch (const PdnError& e) {
        throw Error(printable(path) + ": " + e.what());
    }
}

Json position_json(const DrawRules& rules, const std::optional<PositionValue>& v, Color side) {
    if (!v) return nullptr;
    Json j{{"value", value_name(v->pure.value)},
           {"dtw", distance_json(v->pure.value, v->pure.plies)}};
    if (v->rules) j["rules"] = rules_json(rules, *v->rules);
    j["comment"] = value_comment(*v, side);
    return j;
}

Json annotated_move_json(Variant variant, const DrawRules& rules, const AnnotatedMove& m) {
    const MoveMark mark = m.mark;
    return Json{{"number", m.label},
                {"side", color_name(m.side)},
                {"move", m.written},
                {"notation", m.notation},
                {"fen_after", to_fen(variant, m.after)},
                {"counts_after", counts_json(m.counters_after)},
                {"after", position_json(rules, m.value, m.after.side)},
                {"mark", mark == MoveMark::none ? Json(nullptr) : Json(mark_text(mark))}};
}

Json game_json(Variant variant, const DrawRules& rules, const PdnGame& source,
               const AnnotatedGame& g) {
    Json tags = Json::object();
    for (const PdnTag& t : source.tags) tags[t.name] = t.value;
    Json moves = Json::array();
    for (const AnnotatedMove& m : g.moves) moves.push_back(annotated_move_json(variant, rules, m));
    Json j{{"game", g.number},
           {"players", g.players},
           {"tags", std::move(tags)},
           {"start_fen", to_fen(variant, g.start)},
           {"start", position_json(rules, g.start_value, g.start.side)},
           {"entered_after_plies", g.entered ? Json(*g.entered) : Json(nullptr)},
           {"moves", std::move(moves)},
           {"summary", g.summary}};
    if (!g.rules_missing.empty()) j["rules_missing"] = g.rules_missing;
    return j;
}

// The variant -v names, else the one the first [GameType] tag of the games names.
std::string variant_name(const AnnotateCommandOptions& o, const std::vector<PdnGame>& games) {
    if (!o.variant.empty()) return o.variant;
    for (const PdnGame& g : games) {
        const auto type = g.tag("GameType");
        if (!type) continue;
        const auto v = variant_of_game_type(*type);
        if (!v)
            throw Error("[GameType \"" + printable(*type, 40) +
                        "\"] names no variant damas has: give --variant");
        return v->name();
    }
    throw Error("no --variant and no [GameType] tag in " + printable(o.input) + ": give --variant");
}

void run_annotate(const AnnotateCommandOptions& o) {
    const std::vector<PdnGame> games = read_games(o.input);
    const Database db(variant_name(o, games), o.dir);
    const AnnotateOptions options{
        db.variant, edition_or_throw(o.edition),
        [&db](const Position& p, ProbeStatus s) { return db.describe_failure(p, s); }};
    const DrawRules rules = draw_rules(options.variant, options.edition);
    const std::vector<AnnotatedGame> annotated = annotate_games(*db.tb, options, games);
    std::string pdn;
    for (const AnnotatedGame& g : annotated) pdn += g.pdn;
    if (!o.output.empty()) write_text(o.output, pdn);
    if (o.json) {
        Json rows = Json::array();
        for (std::size_t i = 0; i < annotated.size(); ++i)
            rows.push_back(game_json(db.variant, rules, games[i], annotated[i]));
        print_json({{"variant", db.variant.name()}, {"games", std::move(rows)}, {"pdn", pdn}});
        return;
    }
    if (o.output.empty()) std::fputs(pdn.c_str(), stdout);
    std::fflush(stdout);
    FILE* summaries = o.output.empty() ? stderr : stdout;
    std::string note;
    for (const AnnotatedGame& g : annotated) {
        std::fprintf(summaries, "%s\n", g.summary.c_str());
        if (note.empty()) note = g.rules_missing;
    }
    if (!note.empty()) std::fprintf(stderr, "damas: note: %s\n", note.c_str());
}

}  // namespace

void add_annotate_commands(CLI::App& app) {
    static AnnotateCommandOptions o;
    auto* cmd = app.add_subcommand(
        "annotate",
        "PDN games with the value, DTW and rule value of every position inside the tablebase "
        "(the move-limit counts kept from the start, its [FEN] tag or the initial position), "
        "? and ?? on the moves that throw a win or a draw away, and a summary line per game");
    add_variant_option(*cmd, o.variant, false)
        ->description("Variant (" + variant_names() +
                      "); without it, the one the first [GameType] tag names");
    add_dir_option(*cmd, o.dir);
    cmd->add_option("pdn", o.input, "The PDN file (one or more games)")->required();
    cmd->add_option("--output,-o", o.output,
                    "Write the annotated PDN there (default: standard output; the summaries "
                    "then go to standard error)");
    cmd->add_option("--edition", o.edition,
                    "international move-limit rules: seed (10 moves, default) or fmjd (16)");
    cmd->add_flag("--json", o.json,
                  "Machine-readable output: every game's positions, values, marks and summary, "
                  "and the annotated PDN");
    cmd->callback([] { run_annotate(o); });
}

}  // namespace damas::cli
