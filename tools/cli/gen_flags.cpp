#include "tools/cli/gen_flags.hpp"

#include <algorithm>
#include <cstdio>
#include <string>

#include "gen/process/threads.hpp"
#include "index/class_limits.hpp"
#include "rules/error.hpp"
#include "table/codec.hpp"
#include "table/format.hpp"
#include "tools/cli/commands.hpp"

namespace damas::cli {

const char* const wdl_codec_help =
    "wdl compression: auto (a context codec for classes of 16 M positions or more when smaller "
    "than zstd), zstd, context or context-mix (wherever it applies)";

const char* const dtw_codec_help =
    "dtw compression: zstd-planes (default: a block's low and high bytes apart where that is "
    "smaller, about a sixth smaller in all) or zstd (as before it)";

namespace {

// The names of the registered codecs that code metric m, "a, b or c".
std::string codec_names(Metric m, std::string names) {
    std::vector<std::string> all;
    for (const BlockCodec* c : block_codecs())
        if (c->codes(m)) all.emplace_back(c->name());
    for (std::size_t i = 0; i < all.size(); ++i)
        names += (names.empty() ? "" : i + 1 == all.size() ? " or " : ", ") + all[i];
    return names;
}

std::string gib(std::uint64_t bytes) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2f GiB", static_cast<double>(bytes) / (1u << 30));
    return buf;
}

const char* threads_help(bool per_rank) {
    return per_rank ? "Threads of each rank (default: all cores)" : "Threads (default: all cores)";
}

// The flags of RunFlags, in the order --help lists them.
void add_run_flags(CLI::App& cmd, RunFlags& f, bool per_rank) {
    add_variant_option(cmd, f.variant);
    cmd.add_option("--pieces,-p", f.pieces,
                   "Most pieces on the board (2.." + std::to_string(max_class_pieces) + ")");
    add_dir_option(cmd, f.dir);
    cmd.add_option("--threads,-t", f.threads, threads_help(per_rank));
    cmd.add_option("--max-per-side", f.max_per_side, "At most this many pieces per side");
    cmd.add_option("--class,-c", f.only,
                   "Only this class (and its mirror) and what it needs, e.g. 0201");
    cmd.add_flag("--no-sync", f.no_sync,
                 "Do not fsync each file and its folder (scratch runs: a power cut may leave "
                 "partial files)");
    cmd.add_flag("--quiet,-q", f.quiet, "No progress output");
}

// The most pieces a class of v may have: max_class_pieces, or fewer if v allows fewer a side.
int most_pieces(const Variant& v) {
    return std::min(max_class_pieces, 2 * v.info().pieces_per_side);
}

int checked_pieces(int pieces, const Variant& v) {
    const int most = most_pieces(v);
    if (pieces < 2 || pieces > most)
        throw Error("--pieces must be between 2 and " + std::to_string(most) + " (" +
                    std::string(v.name()) + ": tables of at most " + std::to_string(most) +
                    " pieces)");
    return pieces;
}

std::filesystem::path folder_or_default(const std::string& dir) {
    return dir.empty() ? default_database_dir() : std::filesystem::path(dir);
}

std::optional<Material> class_option(const std::string& only, const Variant& v) {
    if (only.empty()) return std::nullopt;
    const auto m = Material::parse(only);
    if (!m || m->white() == 0 || m->black() == 0)
        throw Error("bad class '" + only +
                    "' (four digits wm wk bm bk, a piece on each side, e.g. 0201)");
    const int most = most_pieces(v), side = v.info().pieces_per_side;
    if (m->pieces() > most)
        throw Error("class " + only + " has " + std::to_string(m->pieces()) +
                    " pieces; tables have at most " + std::to_string(most));
    if (m->white() > side || m->black() > side)
        throw Error("class " + only + " has more than " + std::to_string(side) +
                    " pieces a side, which " + std::string(v.name()) + " does not allow");
    return m;
}

}  // namespace

std::string duration_text(double seconds) {
    char buf[32];
    if (seconds < 120)
        std::snprintf(buf, sizeof buf, "%.0f s", seconds);
    else if (seconds < 7200)
        std::snprintf(buf, sizeof buf, "%.1f min", seconds / 60);
    else
        std::snprintf(buf, sizeof buf, "%.1f h", seconds / 3600);
    return buf;
}

Json plan_json(const GenerateOptions& g, const GenerationPlan& p) {
    Json pairs = Json::array();
    for (const PairStep& s : p.pairs)
        pairs.push_back({{"pair", s.material.name()},
                         {"mirror", s.material.mirrored().name()},
                         {"positions", s.positions},
                         {"slices", s.slices},
                         {"in_units", s.in_units},
                         {"compact", s.compact},
                         {"wdl_packed", s.wdl_packed},
                         {"unit_chunk_positions", pair_tuning(g, s).unit_chunk_positions},
                         {"compact_capture_bits", pair_tuning(g, s).compact_capture_bits},
                         {"store_bytes", s.store_bytes},
                         {"read_through", s.read_through.size()},
                         {"cache_bytes", s.cache_bytes},
                         {"kept_ahead_bytes", s.kept_ahead_bytes},
                         {"peak_bytes", s.peak_bytes},
                         {"whole_bytes", s.whole_bytes},
                         {"seconds", s.seconds}});
    return {{"variant", g.variant.name()},
            {"class_count", p.classes.size()},
            {"positions", p.positions},
            {"bounded", p.bounded},
            {"units", p.units},
            {"budget_bytes", p.budget_bytes},
            {"available_bytes", p.available_bytes},
            {"peak_bytes", p.peak_bytes},
            {"disk_bytes", p.disk_bytes},
            {"wdl_bytes", p.wdl_bytes},
            {"distance_bytes", p.distance_bytes},
            {"unit_bytes", p.unit_bytes},
            {"disk_model", p.disk_model},
            {"seconds", p.seconds},
            {"time_model", p.time_model},
            {"fits", p.peak_bytes <= p.budget_bytes},
            {"pairs", pairs}};
}

// "dtw", "mtc", or both where --dtw-pieces mixes them.
static std::string distance_files_name(const GenerateOptions& g) {
    if (g.metric != Metric::mtc) return "dtw";
    return g.dtw_pieces >= 2 ? "dtw and mtc" : "mtc";
}

void print_plan(const GenerateOptions& g, const GenerationPlan& p, bool json) {
    if (json) {
        print_json(plan_json(g, p));
        return;
    }
    int in_units = 0;
    for (const PairStep& s : p.pairs) in_units += s.in_units ? 1 : 0;
    std::printf("%s: %zu classes in %zu pairs, %llu positions\n", g.variant.name().c_str(),
                p.classes.size(), p.pairs.size(), static_cast<unsigned long long>(p.positions));
    std::printf("memory budget %s%s; %s\n", gib(p.budget_bytes).c_str(),
                g.memory_bytes ? "" : " (three quarters of the available memory)",
                p.bounded ? ("bounded: " + std::to_string(in_units) + " pairs in " +
                             std::to_string(p.units) + " units")
                                .c_str()
                          : "every pair solved whole, every smaller class kept");
    std::printf("peak memory about %s%s\n", gib(p.peak_bytes).c_str(),
                p.peak_bytes <= p.budget_bytes ? "" : ": more than the budget, the run is refused");
    const auto gb = [](std::uint64_t bytes) { return static_cast<double>(bytes) / 1e9; };
    std::printf(
        "disk about %.2f GB: wdl %.2f GB, %s %.2f GB, unit files %.2f GB while the largest "
        "pair in units is solved (%s)\n",
        gb(p.disk_bytes), gb(p.wdl_bytes), distance_files_name(g).c_str(), gb(p.distance_bytes),
        gb(p.unit_bytes), p.disk_model.c_str());
    std::printf("time about %s (%s)\n", duration_text(p.seconds).c_str(), p.time_model.c_str());
}

void add_gen_flags(CLI::App& cmd, GenFlags& flags, bool per_rank) {
    auto* gen = &cmd;
    GenFlags& g = flags;
    add_run_flags(cmd, flags, per_rank);
    gen->add_flag("--full-wdl", g.full_wdl,
                  "Write the wdl values of both classes of each pair: probes never search, "
                  "about twice the wdl bytes (default: one class per pair, the other's file in "
                  "the mirror layout)");
    gen->add_flag("--full-mtc", g.full_mtc,
                  "With --metric mtc, write the mtc values of both classes of each pair: MTC "
                  "probes never search (default: where a class's wdl file has the mirror "
                  "layout, its mtc file has it too)");
    gen->add_option("--mtc-fold", g.mtc_fold,
                    "With --metric mtc, store the distances 1 to N as one value: a probe tells "
                    "them apart by a search of at most N plies (default 4; 0: none; at most 8)");
    gen->add_option("--wdl-codec", g.wdl_codec, wdl_codec_help);
    gen->add_option("--dtw-codec", g.dtw_codec, dtw_codec_help);
    gen->add_option("--mtc-codec", g.mtc_codec,
                    "mtc compression: mtc-wdl (default: a binary context coder given the class's "
                    "wdl file), mtc-context (the same without the wdl file, about half "
                    "zstd-planes' bytes), zstd-planes or zstd");
    gen->add_option("--metric", g.metric,
                    "The distance beside the wdl values: dtw (default: plies to the end of the "
                    "game) or mtc (plies to the next capture or man move, far smaller; "
                    "docs/generating.md)");
    gen->add_option("--dtw-pieces", g.dtw_pieces,
                    "With mtc: dtw for the classes of at most this many pieces, mtc above "
                    "(implies --metric mtc)");
    gen->add_option(
        "--memory", g.memory,
        std::string(per_rank ? "Most memory each rank may take" : "Most memory the run may take") +
            ", e.g. 512M or 12G (default: three quarters of the available memory); "
            "pairs that do not fit are solved in units on disk");
    gen->add_flag("--in-units", g.in_units,
                  "Solve every pair in units on disk, as a run on a small budget does (slower; "
                  "for checks)");
    gen->add_flag("--read-through", g.read_through,
                  "As --in-units, and read every smaller class through the block cache instead of "
                  "loading it, as a run on a budget too small to hold them does (slower; for "
                  "checks)");
    gen->add_flag("--compact", g.compact,
                  "As --in-units, and solve every pair with a byte a position, as a run does for "
                  "the pairs whose slices do not fit otherwise (slower; for checks)");
    gen->add_option("--unit-chunk", g.unit_chunk,
                    "Positions of a unit file's chunk (default 65536); smaller, the men "
                    "configurations of small classes are solved one at a time into their units, "
                    "as those of large ones are (the files do not change; for checks)")
        ->check(CLI::Range(std::uint64_t{64}, std::uint64_t{1} << 26));
    gen->add_option("--large-class", g.large_class,
                    "Positions from which a class's wdl codec (and, of a pair, the class whose "
                    "wdl file keeps the values) is chosen by estimate (default 16777216); "
                    "smaller, small classes take the path of large ones (the files may change; "
                    "for checks)")
        ->check(CLI::Range(std::uint64_t{1}, std::uint64_t{1} << 40));
    gen->add_flag("--plan", g.plan,
                  "Generate nothing: print the classes, units, peak memory, disk and time the "
                  "run would take");
    gen->add_flag("--json", g.json, "Machine-readable summary (and plan)");
}

WdlCodec wdl_codec_option(const std::string& name) {
    if (name == "auto") return automatic_wdl_codec;
    const BlockCodec* codec = find_block_codec(name);
    if (codec && codec->codes(Metric::wdl)) return codec->id();
    throw Error("bad --wdl-codec '" + name + "' (" + codec_names(Metric::wdl, "auto") + ")");
}

Codec dtw_codec_option(const std::string& name) {
    const BlockCodec* codec = find_block_codec(name);
    if (codec && codec->codes(Metric::dtw)) return codec->id();
    throw Error("bad --dtw-codec '" + name + "' (" + codec_names(Metric::dtw, "") + ")");
}

Codec mtc_codec_option(const std::string& name) {
    const BlockCodec* codec = find_block_codec(name);
    if (codec && codec->codes(Metric::mtc)) return codec->id();
    throw Error("bad --mtc-codec '" + name + "' (" + codec_names(Metric::mtc, "") + ")");
}

GenerateOptions generate_options(const GenFlags& o) {
    GenerateOptions g;
    g.variant = variant_or_throw(o.variant);
    g.max_pieces = checked_pieces(o.pieces, g.variant);
    g.dir = folder_or_default(o.dir);
    // A plan may be for another machine (a cluster's nodes): its threads are not this one's.
    if (o.plan && o.threads < 0) throw Error("--threads must not be negative");
    g.threads = o.plan ? o.threads : checked_threads(o.threads);
    g.max_per_side = o.max_per_side;
    g.mirror_wdl = !o.full_wdl;
    g.mirror_mtc = !o.full_mtc;
    if (o.mtc_fold == 1 || o.mtc_fold > format::max_mtc_fold)
        throw Error("--mtc-fold must be 0 or between 2 and " +
                    std::to_string(format::max_mtc_fold));
    if (o.mtc_fold >= 0) g.mtc_fold = o.mtc_fold;
    g.durable = !o.no_sync;
    g.wdl_codec = wdl_codec_option(o.wdl_codec);
    if (!o.dtw_codec.empty()) g.distance_codec = dtw_codec_option(o.dtw_codec);
    if (!o.mtc_codec.empty()) g.mtc_codec = mtc_codec_option(o.mtc_codec);
    if (o.metric == "mtc" || (o.metric.empty() && o.dtw_pieces >= 0))
        g.metric = Metric::mtc;
    else if (!o.metric.empty() && o.metric != "dtw")
        throw Error("bad --metric '" + o.metric + "' (dtw or mtc)");
    if (o.dtw_pieces >= 0) {
        if (g.metric != Metric::mtc) throw Error("--dtw-pieces needs --metric mtc");
        if (o.dtw_pieces > max_class_pieces)
            throw Error("--dtw-pieces must be between 0 and " + std::to_string(max_class_pieces));
        g.dtw_pieces = o.dtw_pieces;
    }
    g.only = class_option(o.only, g.variant);
    if (!o.memory.empty()) g.memory_bytes = parse_memory_size(o.memory);
    if (o.in_units) g.pair_solving = PairSolving::units;
    if (o.read_through) g.pair_solving = PairSolving::units_read_through;
    if (o.compact) g.pair_solving = PairSolving::units_compact;
    if (o.unit_chunk > 0) g.tuning.unit_chunk_positions = o.unit_chunk;
    if (o.large_class > 0) g.large_class_positions = o.large_class;
    return g;
}

Json gen_summary_json(const GenerateOptions& g, const GenerateSummary& s) {
    const double bits =
        s.positions ? 8.0 * static_cast<double>(s.bytes_written) / static_cast<double>(s.positions)
                    : 0.0;
    const double rate = s.seconds > 0 ? static_cast<double>(s.positions) / s.seconds : 0.0;
    // peak_bytes is planned, as in --plan --json; peak_resident_bytes measured.
    return {{"variant", g.variant.name()},
            {"dir", g.dir.string()},
            {"classes_built", s.classes_built},
            {"classes_skipped", s.classes_skipped},
            {"positions", s.positions},
            {"seconds", s.seconds},
            {"load_seconds", s.load_seconds},
            {"classes_loaded", s.classes_loaded},
            {"classes_from_solved_files", s.classes_from_solved_files},
            {"positions_per_second", rate},
            {"bytes_written", s.bytes_written},
            {"bits_per_position", bits},
            {"peak_bytes", s.peak_bytes_estimate},
            {"peak_resident_bytes", s.peak_resident_bytes},
            {"peak_pair", s.peak_pair},
            {"budget_bytes", s.budget_bytes},
            {"pairs_in_units", s.pairs_in_units},
            {"units_written", s.units_written},
            {"units_resumed", s.units_resumed}};
}

void print_gen_summary(const GenerateOptions& g, const GenerateSummary& s) {
    (void)g;
    const double bits =
        s.positions ? 8.0 * static_cast<double>(s.bytes_written) / static_cast<double>(s.positions)
                    : 0.0;
    const double rate = s.seconds > 0 ? static_cast<double>(s.positions) / s.seconds : 0.0;
    std::printf(
        "classes %d built, %d skipped; %llu positions in %.2f s (%.2f M pos/s); %llu bytes, %.3f "
        "bits/position\n",
        s.classes_built, s.classes_skipped, static_cast<unsigned long long>(s.positions), s.seconds,
        rate / 1e6, static_cast<unsigned long long>(s.bytes_written), bits);
    if (s.load_seconds > 0)
        std::printf(
            "solved classes loaded from their files in %.2f s of it (%llu loads, %llu "
            "from solved class files)\n",
            s.load_seconds, static_cast<unsigned long long>(s.classes_loaded),
            static_cast<unsigned long long>(s.classes_from_solved_files));
    if (s.peak_resident_bytes > 0)
        std::printf("peak resident memory %.1f MiB (during %s; planned %.1f MiB)\n",
                    static_cast<double>(s.peak_resident_bytes) / (1024.0 * 1024.0),
                    s.peak_pair.c_str(),
                    static_cast<double>(s.peak_bytes_estimate) / (1024.0 * 1024.0));
}

void add_gen_rules_flags(CLI::App& cmd, GenRulesFlags& flags, bool per_rank) {
    add_run_flags(cmd, flags, per_rank);
    cmd.add_option("--edition", flags.edition, "international: seed (10 moves) or fmjd (16 moves)");
    cmd.add_flag("--json", flags.json, "Machine-readable summary");
}

RuleGenerateOptions rule_generate_options(const GenRulesFlags& o) {
    RuleGenerateOptions g;
    g.variant = variant_or_throw(o.variant);
    g.edition = edition_or_throw(o.edition);
    g.max_pieces = checked_pieces(o.pieces, g.variant);
    g.dir = folder_or_default(o.dir);
    g.max_per_side = o.max_per_side;
    g.threads = checked_threads(o.threads);
    g.durable = !o.no_sync;
    g.only = class_option(o.only, g.variant);
    return g;
}

Json gen_rules_summary_json(const RuleGenerateOptions& g, const RuleGenerateSummary& s) {
    return {{"variant", g.variant.name()},
            {"dir", g.dir.string()},
            {"edition", edition_name(g.edition)},
            {"classes_built", s.classes},
            {"classes_skipped", s.classes_skipped},
            {"positions", s.positions},
            {"pure_wins", s.pure_wins},
            {"wins_drawn", s.wins_drawn_by_rules},
            {"bytes_written", s.bytes_written},
            {"seconds", s.seconds}};
}

void print_gen_rules_summary(const RuleGenerateSummary& s) {
    std::printf(
        "rule tables: %d classes written, %d complete and skipped; %llu positions in %.2f s; %llu "
        "bytes; %llu of %llu quiet pure wins are draws when the count starts at them\n",
        s.classes, s.classes_skipped, static_cast<unsigned long long>(s.positions), s.seconds,
        static_cast<unsigned long long>(s.bytes_written),
        static_cast<unsigned long long>(s.wins_drawn_by_rules),
        static_cast<unsigned long long>(s.pure_wins));
}

}  // namespace damas::cli
