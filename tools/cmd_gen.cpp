// gen and verify.
#include <cstdio>
#include <string>

#include "gen/generate.hpp"
#include "gen/plan.hpp"
#include "gen/threads.hpp"
#include "gen/verify.hpp"
#include "rules/error.hpp"
#include "table/codec.hpp"
#include "tools/commands.hpp"

namespace damas::cli {
namespace {

struct GenOptions {
    std::string variant = "english";
    int pieces = 4;
    std::string dir;
    int threads = 0;
    int max_per_side = 0;
    std::string only;
    bool full_wdl = false;
    bool no_sync = false;
    std::string wdl_codec = "auto";
    std::string memory;
    bool plan = false;
    bool in_units = false;
    bool read_through = false;
    bool compact = false;
    bool quiet = false;
    bool json = false;
};

std::string gib(std::uint64_t bytes) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2f GiB", static_cast<double>(bytes) / (1u << 30));
    return buf;
}

std::string hours(double seconds) {
    char buf[32];
    if (seconds < 120)
        std::snprintf(buf, sizeof buf, "%.0f s", seconds);
    else if (seconds < 7200)
        std::snprintf(buf, sizeof buf, "%.1f min", seconds / 60);
    else
        std::snprintf(buf, sizeof buf, "%.1f h", seconds / 3600);
    return buf;
}

// damas gen --plan: what the run would do and take, without generating anything.
void print_plan(const GenerateOptions& g, const GenerationPlan& p, bool json) {
    if (json) {
        Json pairs = Json::array();
        for (const PairStep& s : p.pairs)
            pairs.push_back({{"pair", s.material.name()},
                             {"mirror", s.material.mirrored().name()},
                             {"positions", s.positions},
                             {"slices", s.slices},
                             {"in_units", s.in_units},
                             {"compact", s.compact},
                             {"wdl_packed", s.wdl_packed},
                             {"store_bytes", s.store_bytes},
                             {"read_through", s.read_through.size()},
                             {"cache_bytes", s.cache_bytes},
                             {"kept_ahead_bytes", s.kept_ahead_bytes},
                             {"peak_bytes", s.peak_bytes}});
        print_json({{"variant", g.variant.name()},
                    {"class_count", p.classes.size()},
                    {"positions", p.positions},
                    {"bounded", p.bounded},
                    {"units", p.units},
                    {"budget_bytes", p.budget_bytes},
                    {"available_bytes", p.available_bytes},
                    {"peak_bytes", p.peak_bytes},
                    {"disk_bytes", p.disk_bytes},
                    {"seconds", p.seconds},
                    {"time_model", p.time_model},
                    {"fits", p.peak_bytes <= p.budget_bytes},
                    {"pairs", pairs}});
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
    std::printf("disk about %.2f GB\n", static_cast<double>(p.disk_bytes) / 1e9);
    std::printf("time about %s (%s)\n", hours(p.seconds).c_str(), p.time_model.c_str());
}

void run_gen(const GenOptions& o) {
    GenerateOptions g;
    g.variant = variant_or_throw(o.variant);
    if (o.pieces < 2 || o.pieces > 8) throw Error("--pieces must be between 2 and 8");
    g.max_pieces = o.pieces;
    g.dir = o.dir.empty() ? default_database_dir() : std::filesystem::path(o.dir);
    g.threads = checked_threads(o.threads);
    g.max_per_side = o.max_per_side;
    g.mirror_wdl = !o.full_wdl;
    g.durable = !o.no_sync;
    if (o.wdl_codec == "auto") {
        g.wdl_codec = automatic_wdl_codec;
    } else if (const BlockCodec* codec = find_block_codec(o.wdl_codec)) {
        g.wdl_codec = codec->id();
    } else {
        std::string names = "auto";
        const auto codecs = block_codecs();
        for (std::size_t i = 0; i < codecs.size(); ++i)
            names += (i + 1 == codecs.size() ? " or " : ", ") + std::string(codecs[i]->name());
        throw Error("bad --wdl-codec '" + o.wdl_codec + "' (" + names + ")");
    }
    if (!o.only.empty()) {
        const auto m = Material::parse(o.only);
        if (!m || m->white() == 0 || m->black() == 0)
            throw Error("bad class '" + o.only +
                        "' (four digits wm wk bm bk, a piece on each side, e.g. 0201)");
        if (m->pieces() > 8) throw Error("class " + o.only + " has more than 8 pieces");
        g.only = *m;
    }
    if (!o.memory.empty()) g.memory_bytes = parse_memory_size(o.memory);
    if (o.in_units) g.pair_solving = PairSolving::units;
    if (o.read_through) g.pair_solving = PairSolving::units_read_through;
    if (o.compact) g.pair_solving = PairSolving::units_compact;
    if (o.plan) {
        print_plan(g, plan_generation(g), o.json);
        return;
    }
    Progress progress(Progress::detect(o.quiet));
    const GenerateSummary s = generate(g, progress);
    const double bits =
        s.positions ? 8.0 * static_cast<double>(s.bytes_written) / static_cast<double>(s.positions)
                    : 0.0;
    const double rate = s.seconds > 0 ? static_cast<double>(s.positions) / s.seconds : 0.0;
    if (o.json) {
        // peak_bytes is planned, as in --plan --json; peak_resident_bytes measured.
        print_json({{"variant", g.variant.name()},
                    {"dir", g.dir.string()},
                    {"classes_built", s.classes_built},
                    {"classes_skipped", s.classes_skipped},
                    {"positions", s.positions},
                    {"seconds", s.seconds},
                    {"load_seconds", s.load_seconds},
                    {"positions_per_second", rate},
                    {"bytes_written", s.bytes_written},
                    {"bits_per_position", bits},
                    {"peak_bytes", s.peak_bytes_estimate},
                    {"peak_resident_bytes", s.peak_resident_bytes},
                    {"peak_pair", s.peak_pair},
                    {"budget_bytes", s.budget_bytes},
                    {"pairs_in_units", s.pairs_in_units},
                    {"units_written", s.units_written},
                    {"units_resumed", s.units_resumed}});
        return;
    }
    std::printf(
        "classes %d built, %d skipped; %llu positions in %.2f s (%.2f M pos/s); %llu bytes, %.3f "
        "bits/position\n",
        s.classes_built, s.classes_skipped, static_cast<unsigned long long>(s.positions), s.seconds,
        rate / 1e6, static_cast<unsigned long long>(s.bytes_written), bits);
    if (s.load_seconds > 0)
        std::printf("solved classes loaded from their files in %.2f s of it\n", s.load_seconds);
    if (s.peak_resident_bytes > 0)
        std::printf("peak resident memory %.1f MiB (during %s; planned %.1f MiB)\n",
                    static_cast<double>(s.peak_resident_bytes) / (1024.0 * 1024.0),
                    s.peak_pair.c_str(),
                    static_cast<double>(s.peak_bytes_estimate) / (1024.0 * 1024.0));
}

struct VerifyOptions {
    std::string dir;
    std::string manifest;
    bool deep = false;
    bool quiet = false;
    bool json = false;
};

Json verify_json(const VerifyReport& r, const std::filesystem::path& dir, bool deep) {
    Json issues = Json::array();
    for (const FolderIssue& i : r.issues)
        issues.push_back({{"kind", i.kind}, {"file", i.file}, {"detail", i.detail}});
    Json out{{"dir", dir.string()},      {"ok", r.ok()},     {"files_checked", r.files},
             {"files_bad", r.files_bad}, {"issues", issues}, {"problems", r.problems},
             {"notes", r.notes}};
    if (deep) {
        out["positions_checked"] = r.positions_checked;
        out["inconsistencies"] = r.inconsistencies;
    }
    return out;
}

int run_verify(const VerifyOptions& o) {
    std::optional<std::filesystem::path> manifest;
    if (!o.manifest.empty()) manifest = o.manifest;
    // With --manifest alone, the folder is the manifest's.
    const std::filesystem::path dir = !o.dir.empty() ? std::filesystem::path(o.dir)
                                      : manifest
                                          ? std::filesystem::absolute(*manifest).parent_path()
                                          : default_database_dir();
    const VerifyReport r = verify_database(
        dir, o.deep,
        [&](const std::string& line) {
            if (o.json) return;
            const bool routine = line.rfind("ok ", 0) == 0 || line.rfind("deep ok ", 0) == 0;
            if (!o.quiet || !routine) std::fprintf(stderr, "%s\n", line.c_str());
        },
        manifest);
    if (r.files == 0 && r.issues.empty())
        throw Error("no table file under " + dir.string() + variant_folder_hint(dir));
    if (o.json) {
        print_json(verify_json(r, dir, o.deep));
        return r.ok() ? 0 : 1;
    }
    std::printf("files %d, bad %d, folder problems %zu", r.files, r.files_bad, r.issues.size());
    if (o.deep)
        std::printf(", positions checked %llu, inconsistencies %llu",
                    static_cast<unsigned long long>(r.positions_checked),
                    static_cast<unsigned long long>(r.inconsistencies));
    std::printf("\n%s\n", r.ok() ? "verify: ok" : "verify: FAILED");
    return r.ok() ? 0 : 1;
}

}  // namespace

void add_gen_commands(CLI::App& app) {
    static GenOptions g;
    auto* gen = app.add_subcommand("gen", "Generate the databases of every class with 2..N pieces");
    gen->add_option("--variant,-v", g.variant, "Variant (" + variant_names() + ")")->required();
    gen->add_option("--pieces,-p", g.pieces, "Most pieces on the board (2..8)");
    gen->add_option("--dir,-d", g.dir, "Database folder (default: $DAMAS_DB or ./db)")
        ->check(non_empty_folder);
    gen->add_option("--threads,-t", g.threads, "Threads (default: all cores)");
    gen->add_option("--max-per-side", g.max_per_side, "At most this many pieces per side");
    gen->add_option("--class,-c", g.only,
                    "Only this class (and its mirror) and what it needs, e.g. 0201");
    gen->add_flag("--full-wdl", g.full_wdl,
                  "Write the wdl values of both classes of each pair: probes never search, "
                  "about twice the wdl bytes (default: one class per pair, the other's file in "
                  "the mirror layout)");
    gen->add_option("--wdl-codec", g.wdl_codec,
                    "wdl compression: auto (the context codec for classes of 16 M positions or "
                    "more when smaller than zstd), zstd, or context (wherever it applies)");
    gen->add_option("--memory", g.memory,
                    "Most memory the run may take, e.g. 512M or 12G (default: three quarters of "
                    "the available memory); pairs that do not fit are solved in units on disk");
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
    gen->add_flag("--plan", g.plan,
                  "Generate nothing: print the classes, units, peak memory, disk and time the "
                  "run would take");
    gen->add_flag("--no-sync", g.no_sync,
                  "Do not fsync each file and its folder (scratch runs: a power cut may leave "
                  "partial files)");
    gen->add_flag("--quiet,-q", g.quiet, "No progress output");
    gen->add_flag("--json", g.json, "Machine-readable summary (and plan)");
    gen->callback([] { run_gen(g); });

    static VerifyOptions vo;
    auto* verify = app.add_subcommand(
        "verify",
        "Check every table file's checksums and the folder's set of files (missing, misnamed, "
        "extra, leftover .tmp, unfinished runs); --deep recomputes every value");
    verify->add_option("--dir,-d", vo.dir, "Database folder (default: $DAMAS_DB or ./db)")
        ->check(non_empty_folder);
    verify->add_flag("--deep", vo.deep, "Recompute every stored value from its successors' values");
    verify->add_flag("--quiet,-q", vo.quiet, "Print only problems and the summary");
    verify->add_option("--manifest", vo.manifest,
                       "Check the folder against this manifest (default: the folder's own "
                       "manifest.json; without --dir, the manifest's folder)");
    verify->add_flag("--json", vo.json, "Machine-readable report");
    verify->callback([] {
        if (run_verify(vo) != 0) throw ExitCode(1);
    });
}

}  // namespace damas::cli
