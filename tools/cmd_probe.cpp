// probe, best, line, stats and info: studying a database through the probing library.
#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "gen/folder_check.hpp"
#include "gen/generate.hpp"
#include "index/class_index.hpp"
#include "index/flip.hpp"
#include "index/material.hpp"
#include "probe/messages.hpp"
#include "probe/probe.hpp"
#include "rules/error.hpp"
#include "rules/notation.hpp"
#include "table/table_file.hpp"
#include "tools/class_stats.hpp"
#include "tools/commands.hpp"
#include "tools/json.hpp"
#include "tools/rule_options.hpp"

namespace damas::cli {
namespace {

std::filesystem::path database_dir(const std::string& dir) {
    const std::filesystem::path d =
        dir.empty() ? default_database_dir() : std::filesystem::path(dir);
    if (!std::filesystem::is_directory(d)) {
        std::string m = "no database folder ";
        m += d.string();
        m += " (generate one with damas gen, or give --dir)";
        throw Error(m);
    }
    return d;
}

// A handle on the folder; the last problem the library reported goes into error messages.
struct Database {
    Variant variant;
    std::filesystem::path dir;
    std::shared_ptr<std::string> last_problem = std::make_shared<std::string>();
    std::unique_ptr<Tablebase> tb;

    Database(const std::string& variant_name, const std::string& dir_name)
        : variant(variant_or_throw(variant_name)), dir(database_dir(dir_name)) {
        if (!std::filesystem::is_directory(dir / variant.name())) {
            std::string m = "no ";
            m += variant.name();
            m += " tables in ";
            m += dir.string();
            m += " (generate them with damas gen --variant ";
            m += variant.name();
            m += ')';
            throw Error(m);
        }
        tb = Tablebase::open(dir, 64, 0, [p = last_problem](const std::string& s) { *p = s; });
    }

    std::string describe_failure(const Position& p, ProbeStatus s) const {
        return probe_failure_message(*tb, variant, p, s, *last_problem);
    }

    ProbeResult probe(const Position& p) const {
        const ProbeResult r = tb->probe_dtw(variant, p);
        if (!r.ok()) throw Error(describe_failure(p, r.status));
        return r;
    }
};

std::string outcome_text(Value v, int plies) {
    std::string s = value_name(v);
    if (v != Value::draw) {
        s += ' ';
        s += std::to_string(plies);
    }
    return s;
}

// The outcome of a move for the side that makes it, from the probe after it.
ProbeResult for_mover(ProbeResult after) {
    if (after.value == Value::win) return {after.status, Value::loss, ++after.plies};
    if (after.value == Value::loss) return {after.status, Value::win, ++after.plies};
    return after;
}

// Best first: wins by shortest distance, then draws, then losses by longest distance.
int rank_key(const ProbeResult& r) {
    if (r.value == Value::win) return r.plies;
    if (r.value == Value::draw) return 100000;
    return 300000 - r.plies;
}

struct RatedMove {
    Move move;
    std::string text;
    ProbeResult result;  // for the mover
    Position after;
};

std::vector<RatedMove> rated_moves(const Database& db, const Position& p) {
    MoveList moves;
    dispatch(db.variant.base,
             [&](auto rules) { MoveGenerator<decltype(rules)>::generate(p, moves); });
    const VariantInfo& vi = db.variant.info();
    std::vector<RatedMove> out;
    for (const Move& m : moves) {
        bool ambiguous = false;
        for (const Move& other : moves)
            if (&other != &m && other.from == m.from && other.to == m.to) ambiguous = true;
        const Position after = make_move(p, m);
        out.push_back({m, ambiguous ? move_text_with_captures(vi, m) : move_text(vi, m),
                       for_mover(db.probe(after)), after});
    }
    std::stable_sort(out.begin(), out.end(), [](const RatedMove& a, const RatedMove& b) {
        return rank_key(a.result) < rank_key(b.result);
    });
    return out;
}

// The game is over at p: no legal move, or a rule ends it (turkish king against a lone man).
bool game_over(const ProbeResult& r) {
    return r.value != Value::draw && r.plies == 0;
}

// ---- probe and best

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
        JsonObject out;
        out.str("variant", db.variant.name())
            .str("fen", to_fen(db.variant, p))
            .str("value", value_name(r.value))
            .num("dtw", static_cast<int>(r.plies));
        add_rule_json(out, query, rules);
        std::printf("%s\n", out.str_end().c_str());
    } else {
        std::printf("%s\n", outcome_text(r.value, r.plies).c_str());
        print_rule_report(rules);
    }
    if (rules_error) {
        std::fflush(stdout);
        throw *rules_error;
    }
}

void run_best(const PositionOptions& o) {
    const Database db(o.variant, o.dir);
    const Position p = parse_fen(db.variant, o.fen);
    const ProbeResult root = db.probe(p);
    const std::vector<RatedMove> moves =
        game_over(root) ? std::vector<RatedMove>{} : rated_moves(db, p);
    if (o.json) {
        JsonArray rows;
        for (const RatedMove& m : moves)
            rows.add(JsonObject()
                         .str("move", m.text)
                         .str("value", value_name(m.result.value))
                         .num("dtw", static_cast<int>(m.result.plies))
                         .str("fen_after", to_fen(db.variant, m.after)));
        std::printf("%s\n", JsonObject()
                                .str("variant", db.variant.name())
                                .str("fen", to_fen(db.variant, p))
                                .str("value", value_name(root.value))
                                .num("dtw", static_cast<int>(root.plies))
                                .boolean("game_over", game_over(root))
                                .raw("moves", rows.str())
                                .str_end()
                                .c_str());
        return;
    }
    if (game_over(root)) {
        std::printf("game over: %s\n", outcome_text(root.value, 0).c_str());
        return;
    }
    for (const RatedMove& m : moves)
        std::printf("%s %s\n", m.text.c_str(),
                    outcome_text(m.result.value, m.result.plies).c_str());
}

// ---- line

void run_line(const PositionOptions& o) {
    const Database db(o.variant, o.dir);
    Position p = parse_fen(db.variant, o.fen);
    ProbeResult r = db.probe(p);
    std::printf("%s %s\n", to_fen(db.variant, p).c_str(), outcome_text(r.value, r.plies).c_str());
    if (r.value == Value::draw) {
        std::printf("draw: no forced end of the game\n");
        return;
    }
    for (int ply = 1; !game_over(r); ++ply) {
        const std::vector<RatedMove> moves = rated_moves(db, p);
        if (moves.empty() || moves.front().result.plies != r.plies ||
            moves.front().result.value != r.value) {
            std::string m = "inconsistent tables at ";
            m += to_fen(db.variant, p);
            m += ": the best move does not keep the distance";
            throw Error(m);
        }
        const RatedMove& best = moves.front();
        p = best.after;
        r = db.probe(p);
        std::printf("%d. %s %s %s\n", ply, best.text.c_str(), to_fen(db.variant, p).c_str(),
                    outcome_text(r.value, r.plies).c_str());
    }
    const bool white_to_move = p.side == Color::white;
    std::printf("game over: %s %s\n", white_to_move ? "white" : "black",
                r.value == Value::win ? "wins" : "loses");
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
    std::printf("class %s: positions %" PRIu64 ", wins %" PRIu64 ", draws %" PRIu64
                ", losses %" PRIu64 ", longest win %d\n",
                s.material.name().c_str(), s.positions, s.wins, s.draws, s.losses, s.longest_win);
    if (s.rules)
        std::printf("  move-limit rules (%s edition), count starting at the position: %" PRIu64
                    " of %" PRIu64 " quiet pure wins are draws, %" PRIu64 " of %" PRIu64
                    " quiet pure losses\n",
                    edition_name(rules.edition), s.rules->wins_drawn, s.rules->pure_wins,
                    s.rules->losses_drawn, s.rules->pure_losses);
    std::printf("  dtw wins losses\n");
    for (const auto& [plies, counts] : s.histogram)
        std::printf("  %d %" PRIu64 " %" PRIu64 "\n", plies, counts.first, counts.second);
}

void run_stats(const StatsOptions& o) {
    const Database db(o.variant, o.dir);
    const DrawRules draw = draw_rules(db.variant, edition_or_throw(o.edition));
    JsonArray rows;
    for (const Material m : stats_classes(db, o.only)) {
        ClassStats s =
            class_stats(db.variant, db.dir, m, [&](const Position& p) { return db.probe(p); });
        s.rules = rule_stats(db.dir, draw, m);
        if (o.json)
            rows.add_raw(stats_json(s, draw));
        else
            print_stats(s, draw);
        std::fflush(stdout);
    }
    if (o.json)
        std::printf("%s\n", JsonObject()
                                .str("variant", db.variant.name())
                                .raw("classes", rows.str())
                                .str_end()
                                .c_str());
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
    if (tables.empty()) throw Error("no table file under " + tb->dir().string());
    JsonArray rows;
    int damaged = 0;
    for (const TableListing& t : tables) {
        const std::string name = t.variant.name() + "/" + t.path.filename().string();
        const TableHeader& h = t.header;
        const double bits =
            h.positions ? 8.0 * static_cast<double>(t.file_bytes) / static_cast<double>(h.positions)
                        : 0.0;
        damaged += !t.error.empty();
        if (o.json) {
            JsonObject row;
            row.str("file", name).num("bytes", t.file_bytes);
            if (t.error.empty())
                row.num("positions", h.positions)
                    .num("bits_per_position", bits)
                    .num("blocks", h.blocks)
                    .str("layout", h.layout == Layout::mirror ? "mirror"
                                   : h.half                   ? "half"
                                                              : "stored")
                    .str("codec", h.codec == Codec::context ? "context" : "zstd")
                    .num("wins", h.wins)
                    .num("draws", h.draws)
                    .num("losses", h.losses)
                    .str("table_xxh64", hex64(h.table_checksum))
                    .str("data_xxh64", hex64(h.blocks_checksum))
                    .str("generator", h.generator);
            else
                row.str("error", t.error);
            rows.add(row);
        } else if (t.error.empty()) {
            std::printf(
                "%s %" PRIu64 " bytes, %" PRIu64
                " positions, %.3f bits/position, %s%s"
                "checksums %s %s\n",
                name.c_str(), t.file_bytes, h.positions, bits,
                h.layout == Layout::mirror ? "mirror layout (values in the mirror class), " : "",
                h.codec != Codec::context ? ""
                : h.half                  ? "context codec, half layout (odd positions searched), "
                                          : "context codec, ",
                hex64(h.table_checksum).c_str(), hex64(h.blocks_checksum).c_str());
        } else {
            std::printf("%s %" PRIu64 " bytes, DAMAGED: %s\n", name.c_str(), t.file_bytes,
                        t.error.c_str());
        }
    }
    // Folders whose manifest says a run did not finish (gen/manifest.hpp).
    JsonArray incomplete;
    int unfinished = 0;
    for (const auto& [folder, runs] : unfinished_runs(tb->dir())) {
        for (const std::string& run : runs) {
            ++unfinished;
            incomplete.add_str(folder + "/" + run);
            if (!o.json)
                std::printf(
                    "%s INCOMPLETE: the %s run did not finish (damas verify lists what is "
                    "missing; run it again to resume)\n",
                    folder.c_str(), run.c_str());
        }
    }
    if (o.json)
        std::printf("%s\n", JsonObject()
                                .str("dir", tb->dir().string())
                                .raw("files", rows.str())
                                .raw("incomplete", incomplete.str())
                                .num("damaged", damaged)
                                .str_end()
                                .c_str());
    if (damaged || unfinished) throw ExitCode{1};
}

void add_position_command(CLI::App& app, const char* name, const char* help, PositionOptions& o,
                          void (*run)(const PositionOptions&), bool json) {
    auto* cmd = app.add_subcommand(name, help);
    cmd->add_option("--variant,-v", o.variant, "Variant (" + variant_names() + ")")->required();
    cmd->add_option("--dir,-d", o.dir, "Database folder (default: $DAMAS_DB or ./db)")
        ->check(non_empty_folder);
    cmd->add_option("fen,--fen,-f", o.fen, "Position (FEN)")->required();
    if (json) cmd->add_flag("--json", o.json, "Machine-readable output");
    cmd->callback([&o, run] { run(o); });
}

}  // namespace

void add_probe_commands(CLI::App& app) {
    static ProbeOptions probe_options;
    auto* probe = app.add_subcommand(
        "probe",
        "Value and DTW (plies) of a position for the side to move, and its value under the "
        "move-limit draw rules (rule tables from gen-rules)");
    probe->alias("probe-rules");
    probe
        ->add_option("--variant,-v", probe_options.position.variant,
                     "Variant (" + variant_names() + ")")
        ->required();
    probe
        ->add_option("--dir,-d", probe_options.position.dir,
                     "Database folder (default: $DAMAS_DB or ./db)")
        ->check(non_empty_folder);
    probe->add_option("fen,--fen,-f", probe_options.position.fen, "Position (FEN)")->required();
    probe->add_flag("--json", probe_options.position.json, "Machine-readable output");
    add_rule_options(*probe, probe_options.rules);
    probe->callback([] { run_probe(probe_options); });

    static PositionOptions best_options, line_options;
    add_position_command(app, "best", "Every legal move with its value and DTW, best first",
                         best_options, run_best, true);
    add_position_command(app, "line", "An optimal line to the end of the game", line_options,
                         run_line, false);

    static StatsOptions stats_options;
    auto* stats = app.add_subcommand(
        "stats",
        "Per class: positions, wins, draws, losses, longest win, DTW histogram, and the pure "
        "wins the move-limit rules draw (when the rule tables exist)");
    stats->add_option("--variant,-v", stats_options.variant, "Variant (" + variant_names() + ")")
        ->required();
    stats->add_option("--dir,-d", stats_options.dir, "Database folder (default: $DAMAS_DB or ./db)")
        ->check(non_empty_folder);
    stats->add_option("--class,-c", stats_options.only, "Only this class, e.g. 0201");
    stats->add_option("--edition", stats_options.edition,
                      "international move-limit rules: seed (10 moves, default) or fmjd (16)");
    stats->add_flag("--json", stats_options.json, "Machine-readable output");
    stats->callback([] { run_stats(stats_options); });

    static InfoOptions info_options;
    auto* info_cmd = app.add_subcommand(
        "info", "The table files of a folder: sizes, bits per position, checksums");
    info_cmd
        ->add_option("--dir,-d", info_options.dir, "Database folder (default: $DAMAS_DB or ./db)")
        ->check(non_empty_folder);
    info_cmd->add_flag("--json", info_options.json, "Machine-readable output");
    info_cmd->callback([] { run_info(info_options); });
}

}  // namespace damas::cli
