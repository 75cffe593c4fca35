// probe, best, line, stats and info: studying a database through the probing library.
#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "folder/check.hpp"
#include "folder/files.hpp"
#include "index/class_index.hpp"
#include "index/flip.hpp"
#include "index/material.hpp"
#include "probe/messages.hpp"
#include "probe/probe.hpp"
#include "probe/study/class_stats.hpp"
#include "probe/study/line.hpp"
#include "probe/study/root_analysis.hpp"
#include "rules/error.hpp"
#include "rules/notation.hpp"
#include "rules/pdn.hpp"
#include "rules/printable.hpp"
#include "table/codec.hpp"
#include "table/table_file.hpp"
#include "tools/cli/commands.hpp"
#include "tools/cli/database.hpp"
#include "tools/cli/limits_options.hpp"

namespace damas::cli {
namespace {

// "win 17", or "win 17 (mtc)" where the distance is the MTC (ProbeResult::metric): plies to the
// next conversion, not to the end of the game.
std::string outcome_text(Value v, int plies, Metric metric = Metric::dtw) {
    std::string s = value_name(v);
    if (v != Value::draw) {
        s += ' ';
        s += std::to_string(plies);
        if (metric == Metric::mtc) s += " (mtc)";
    }
    return s;
}

// ---- probe, best and line

struct PositionOptions {
    std::string variant;
    std::string dir;
    std::string fen;
    bool json = false;
};

struct ProbeOptions {
    PositionOptions position;
    RuleOptions rules;
};

// The pure value and DTW, then (when the variant has move-limit rules) the value under them.
void run_probe(const ProbeOptions& po) {
    const PositionOptions& o = po.position;
    const Database db(o.variant, o.dir);
    const Position p = parse_fen(db.variant, o.fen);
    const RuleQuery query = rule_query(db.variant, po.rules);
    const ProbeResult r = db.probe(p);
    // Reported after the pure answer, which is printed whatever happens to the rules.
    std::optional<Error> rules_error;
    RuleReport rules;
    try {
        rules = probe_under_rules(*db.tb, query, p,
                                  [&](ProbeStatus s) { return db.describe_failure(p, s); });
    } catch (const Error& e) {
        rules_error = e;
    }
    if (o.json) {
        Json out{{"variant", db.variant.name()},
                 {"fen", to_fen(db.variant, p)},
                 {"class", class_of(db.variant, p)},
                 {"value", value_name(r.value)},
                 {distance_key(r.metric), distance_json(r.value, r.plies)}};
        add_rule_json(out, query, rules);
        if (rules_error) out["error"] = printable(rules_error->what(), 1000);
        print_json(out);
        if (rules_error) throw ExitCode{2};
        return;
    }
    std::printf("%s\n", outcome_text(r.value, r.plies, r.metric).c_str());
    print_rule_report(rules);
    if (rules_error) {
        std::fflush(stdout);
        throw *rules_error;
    }
}

// The root analysis with the counts given, or an Error: the position or a class its moves lead
// to cannot be probed, or the counts were given and a rule table is missing. Without counts, a
// missing rule table is a note on stderr (text output) and the pure values stand alone.
RootAnalysis analyse(const Database& db, const Position& p, const RuleQuery& q, bool note) {
    RootAnalysis a = study::analyse_root(*db.tb, db.variant, p, {q.rules, q.counters});
    if (!a.root.ok()) throw Error(db.describe_failure(p, a.root.status));
    if (!a.rules_missing.empty()) {
        if (q.required) throw Error(a.rules_missing);
        if (note) std::fprintf(stderr, "damas: note: %s\n", a.rules_missing.c_str());
    }
    return a;
}

// "win 5", and under the rules when the rule tables are there: "win 5 (rules: draw)".
std::string move_outcome_text(const RootMove& m) {
    std::string s = outcome_text(m.pure.value, m.pure.plies, m.pure.metric);
    if (m.rule) s += " (rules: " + outcome_text(m.rule->value, m.rule->plies) + ")";
    return s;
}

// Every legal move, best first (equal ones by square), each with its value and DTW for the side
// that plays it, counting the move (the first move's are the position's).
void run_best(const ProbeOptions& po) {
    const PositionOptions& o = po.position;
    const Database db(o.variant, o.dir);
    const Position p = parse_fen(db.variant, o.fen);
    const RuleQuery query = rule_query(db.variant, po.rules);
    const RootAnalysis a = analyse(db, p, query, !o.json);
    if (o.json) {
        print_json(root_json(db.variant, p, {query.rules, query.counters}, a));
        return;
    }
    if (a.game_over) {
        std::printf("game over: %s\n", outcome_text(a.root.value, 0).c_str());
        return;
    }
    for (const RootMove& m : a.moves)
        std::printf("%s %s\n", m.text.c_str(), move_outcome_text(m).c_str());
}

// An optimal line: at each ply the best move of `damas best` (the winner's shortest, the loser's
// longest), printed as best prints it, to the end of the game; then the line as PDN movetext.
void run_line(const ProbeOptions& po) {
    const PositionOptions& o = po.position;
    const Database db(o.variant, o.dir);
    const Position p = parse_fen(db.variant, o.fen);
    RuleQuery query = rule_query(db.variant, po.rules);
    const RootAnalysis a = analyse(db, p, query, !o.json);
    Json out = root_json(db.variant, p, {query.rules, query.counters}, a);
    out.erase("moves");
    if (!o.json) {
        std::printf("%s %s\n", to_fen(db.variant, p).c_str(),
                    outcome_text(a.root.value, a.root.plies, a.root.metric).c_str());
        if (a.rules)
            std::printf("rules: %s\n",
                        outcome_text(a.rules->rule.value, a.rules->rule.plies).c_str());
    }
    const study::OptimalLine line = study::optimal_line(
        db.variant, p, a, [&](const Position& next, const RuleCounters& counters) {
            query.counters = counters;
            return analyse(db, next, query, false);
        });
    Json moves = Json::array();
    for (const study::LineMove& m : line.moves) {
        Json row = move_json(db.variant, m.move);
        row["move_number"] = m.number;
        moves.push_back(std::move(row));
        if (!o.json)
            std::printf("%s %s %s %s\n", m.number.c_str(), m.move.text.c_str(),
                        move_outcome_text(m.move).c_str(),
                        to_fen(db.variant, m.move.after).c_str());
    }
    if (o.json) {
        out["line"] = std::move(moves);
        out["pdn"] = line.pdn;
        out["result"] = line.result;
        print_json(out);
        return;
    }
    std::printf("%s\n", line.result.c_str());
    if (!line.pdn.empty()) std::printf("pdn: %s\n", line.pdn.c_str());
}

// ---- stats

struct StatsOptions {
    std::string variant;
    std::string dir;
    std::string only;
    std::string edition = "seed";
    bool json = false;
};

std::vector<Material> stats_classes(const Database& db, const std::string& only) {
    if (!only.empty()) {
        const auto m = Material::parse(only);
        if (!m || m->white() == 0 || m->black() == 0) {
            std::string e = "bad class '";
            e += only;
            e += "' (four digits wm wk bm bk, a piece on each side, e.g. 0201)";
            throw Error(e);
        }
        if (!std::filesystem::exists(table_path(db.dir, db.variant, m->name(), Metric::wdl))) {
            std::string e = "class ";
            e += m->name();
            e += " is not in the ";
            e += db.variant.name();
            e += " database in ";
            e += db.dir.string();
            throw Error(e);
        }
        return {*m};
    }
    std::vector<Material> out;
    for (const TableListing& t : db.tb->identify())
        if (t.variant == db.variant && t.metric == Metric::wdl)
            if (const auto m = Material::parse(t.class_name); m && m->white() && m->black())
                out.push_back(*m);
    std::sort(out.begin(), out.end(), [](Material a, Material b) {
        return a.pieces() != b.pieces() ? a.pieces() < b.pieces() : a < b;
    });
    if (out.empty()) throw Error("no table file for " + db.variant.name());
    return out;
}

void print_stats(const ClassStats& s, const DrawRules& rules) {
    // An mtc class says so: its distances are plies to the next conversion, not to the end.
    const bool mtc = s.metric == Metric::mtc;
    std::printf("class %s: positions %" PRIu64 ", wins %" PRIu64 ", draws %" PRIu64
                ", losses %" PRIu64 ", longest win %d%s\n",
                s.material.name().c_str(), s.positions, s.wins, s.draws, s.losses, s.longest_win,
                mtc ? " (mtc)" : "");
    if (s.rules)
        std::printf("  move-limit rules (%s edition), count starting at the position: %" PRIu64
                    " of %" PRIu64 " quiet pure wins are draws, %" PRIu64 " of %" PRIu64
                    " quiet pure losses\n",
                    edition_name(rules.edition), s.rules->wins_drawn, s.rules->pure_wins,
                    s.rules->losses_drawn, s.rules->pure_losses);
    std::printf("  %s wins losses\n", mtc ? "mtc" : "dtw");
    for (const auto& [plies, counts] : s.histogram)
        std::printf("  %d %" PRIu64 " %" PRIu64 "\n", plies, counts.first, counts.second);
}

void run_stats(const StatsOptions& o) {
    const Database db(o.variant, o.dir);
    const DrawRules draw = draw_rules(db.variant, edition_or_throw(o.edition));
    Json rows = Json::array();
    for (const Material m : stats_classes(db, o.only)) {
        ClassStats s = study::class_stats(db.variant, db.dir, m,
                                          [&](const Position& p) { return db.probe(p); });
        s.rules = study::rule_stats(db.dir, draw, m);
        if (o.json)
            rows.push_back(stats_json(s, draw));
        else
            print_stats(s, draw);
        std::fflush(stdout);
    }
    if (o.json) print_json({{"variant", db.variant.name()}, {"classes", rows}});
}

// ---- info

struct InfoOptions {
    std::string dir;
    bool json = false;
};

std::string hex64(std::uint64_t x) {
    char buf[20];
    std::snprintf(buf, sizeof buf, "%016" PRIx64, x);
    return buf;
}

// What `info` says of a file's codec: nothing for the generator's default (default_codec), nor
// for a file in the mirror layout (no block to code).
std::string codec_note(const TableHeader& h) {
    const BlockCodec& codec = block_codec(h.codec);
    std::string note;
    if (h.layout == Layout::mirror) return note;
    if (h.codec != default_codec(h.metric)) note += std::string(codec.name()) + " codec, ";
    if (h.half) note += "half layout (odd positions searched), ";
    if (codec.reads_wdl()) note += "read with its class's .wdl file, ";
    return note;
}

// Per variant folder under dir (or dir itself), the runs its manifest says did not finish.
std::vector<std::pair<std::string, std::vector<std::string>>> unfinished_runs(
    const std::filesystem::path& dir) {
    std::vector<std::pair<std::string, std::vector<std::string>>> out;
    const auto check = [&](const std::filesystem::path& root, Variant v) {
        std::vector<std::string> runs;
        try {
            runs = incomplete_runs(root, v);
        } catch (const Error& e) {
            runs.push_back(std::string("(manifest damaged: ") + e.what() + ")");
        }
        if (!runs.empty()) out.emplace_back(v.name(), runs);
    };
    if (const auto v = parse_variant(dir.filename().string())) {
        check(dir.parent_path(), *v);
        return out;
    }
    std::error_code ec;
    for (const auto& e : std::filesystem::directory_iterator(dir, ec))
        if (e.is_directory())
            if (const auto v = parse_variant(e.path().filename().string())) check(dir, *v);
    return out;
}

void run_info(const InfoOptions& o) {
    const auto tb = Tablebase::open(database_dir(o.dir), 1);
    const std::vector<TableListing> tables = tb->identify();
    if (tables.empty())
        throw Error("no table file under " + tb->dir().string() + variant_folder_hint(tb->dir()));
    Json rows = Json::array();
    int damaged = 0;
    for (const TableListing& t : tables) {
        const std::string name = t.variant.name() + "/" + t.path.filename().string();
        const TableHeader& h = t.header;
        const double bits =
            h.positions ? 8.0 * static_cast<double>(t.file_bytes) / static_cast<double>(h.positions)
                        : 0.0;
        damaged += !t.error.empty();
        if (o.json) {
            Json row{{"file", name}, {"bytes", t.file_bytes}};
            if (t.error.empty()) {
                row["positions"] = h.positions;
                row["bits_per_position"] = bits;
                row["blocks"] = h.blocks;
                row["layout"] = h.layout == Layout::mirror ? "mirror" : h.half ? "half" : "stored";
                row["codec"] = block_codec(h.codec).name();
                row["reads_wdl_file"] = block_codec(h.codec).reads_wdl();
                row["wins"] = h.wins;
                row["draws"] = h.draws;
                row["losses"] = h.losses;
                row["table_xxh64"] = hex64(h.table_checksum);
                row["data_xxh64"] = hex64(h.blocks_checksum);
                row["generator"] = h.generator;
            } else {
                row["damaged"] = t.error;
            }
            rows.push_back(std::move(row));
        } else if (t.error.empty()) {
            std::printf(
                "%s %" PRIu64 " bytes, %" PRIu64
                " positions, %.3f bits/position, %s%s"
                "checksums %s %s\n",
                name.c_str(), t.file_bytes, h.positions, bits,
                h.layout == Layout::mirror ? "mirror layout (values in the mirror class), " : "",
                codec_note(h).c_str(), hex64(h.table_checksum).c_str(),
                hex64(h.blocks_checksum).c_str());
        } else {
            std::printf("%s %" PRIu64 " bytes, DAMAGED: %s\n", name.c_str(), t.file_bytes,
                        t.error.c_str());
        }
    }
    // Folders whose manifest says a run did not finish (folder/manifest.hpp).
    Json incomplete = Json::array();
    int unfinished = 0;
    for (const auto& [folder, runs] : unfinished_runs(tb->dir())) {
        for (const std::string& run : runs) {
            ++unfinished;
            incomplete.push_back(folder + "/" + run);
            if (!o.json)
                std::printf(
                    "%s INCOMPLETE: the %s run did not finish (damas verify lists what is "
                    "missing; run it again to resume)\n",
                    folder.c_str(), run.c_str());
        }
    }
    if (o.json)
        print_json({{"dir", tb->dir().string()},
                    {"files", rows},
                    {"incomplete", incomplete},
                    {"files_bad", damaged}});
    if (damaged || unfinished) throw ExitCode{1};
}

// probe, best and line: the variant, folder, position, --json and the rule counts.
CLI::App* add_position_command(CLI::App& app, const char* name, const std::string& help,
                               ProbeOptions& o, void (*run)(const ProbeOptions&)) {
    auto* cmd = app.add_subcommand(name, help);
    add_variant_option(*cmd, o.position.variant);
    add_dir_option(*cmd, o.position.dir);
    cmd->add_option("fen,--fen,-f", o.position.fen, "Position (FEN, or the PDN tag [FEN \"...\"])")
        ->required();
    cmd->add_flag("--json", o.position.json,
                  "Machine-readable output (a draw's dtw is null; errors as {\"error\": ...})");
    add_rule_options(*cmd, o.rules);
    cmd->callback([&o, run] { run(o); });
    return cmd;
}

}  // namespace

void add_probe_commands(CLI::App& app) {
    static ProbeOptions probe_options, best_options, line_options;
    add_position_command(
        app, "probe",
        "Value and DTW (plies to the end of the game) of a position for the side to move, and "
        "its value under the move-limit draw rules (rule tables from gen-rules) with the counts "
        "given",
        probe_options, run_probe)
        ->alias("probe-rules");
    add_position_command(
        app, "best",
        "Every legal move, best first (equal ones by square), with its value and DTW for the "
        "side that plays it, counting that move (so the first move's are the position's), and "
        "its value under the move-limit rules with the counts given",
        best_options, run_best);
    add_position_command(
        app, "line",
        "An optimal line to the end of the game, numbered as PDN does; each move with its value "
        "and DTW for the side that plays it, counting that move, as best prints them",
        line_options, run_line);

    static StatsOptions stats_options;
    auto* stats = app.add_subcommand(
        "stats",
        "Per class: positions, wins, draws, losses, longest win, DTW histogram, and the pure "
        "wins the move-limit rules draw (when the rule tables exist)");
    add_variant_option(*stats, stats_options.variant);
    add_dir_option(*stats, stats_options.dir);
    stats->add_option("--class,-c", stats_options.only, "Only this class, e.g. 0201");
    stats->add_option("--edition", stats_options.edition,
                      "international move-limit rules: seed (10 moves, default) or fmjd (16)");
    stats->add_flag("--json", stats_options.json, "Machine-readable output");
    stats->callback([] { run_stats(stats_options); });

    static InfoOptions info_options;
    auto* info_cmd = app.add_subcommand(
        "info", "The table files of a folder: sizes, bits per position, checksums");
    add_dir_option(*info_cmd, info_options.dir);
    info_cmd->add_flag("--json", info_options.json, "Machine-readable output");
    info_cmd->callback([] { run_info(info_options); });
}

}  // namespace damas::cli
