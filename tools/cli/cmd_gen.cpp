// gen, recode and verify.
#include <cstdio>
#include <string>

#include "gen/plan/plan.hpp"
#include "gen/process/threads.hpp"
#include "gen/run/generate.hpp"
#include "gen/run/recode.hpp"
#include "gen/verify/verify.hpp"
#include "rules/error.hpp"
#include "table/format.hpp"
#include "tools/cli/commands.hpp"
#include "tools/cli/gen_flags.hpp"

namespace damas::cli {
namespace {

void run_gen(const GenFlags& o) {
    const GenerateOptions g = generate_options(o);
    if (o.plan) {
        print_plan(g, plan_generation(g), o.json);
        return;
    }
    Progress progress(Progress::detect(o.quiet));
    const GenerateSummary s = generate(g, progress);
    if (o.json)
        print_json(gen_summary_json(g, s));
    else
        print_gen_summary(g, s);
}

struct RecodeFlags {
    std::string variant;
    std::string dir;
    std::vector<std::string> classes;
    std::string wdl_codec;  // empty: not asked (auto if --dtw-codec is not asked either)
    std::string dtw_codec;  // empty: the dtw files are left as they are
    std::string mtc_codec;  // empty: the mtc files keep their codec
    bool full_wdl = false;
    bool full_mtc = false;
    int mtc_fold = -1;  // not given: the mtc files keep theirs
    int threads = 0;
    bool no_sync = false;
    bool quiet = false;
    bool json = false;
};

void run_recode(const RecodeFlags& f) {
    RecodeOptions r;
    r.gen.variant = variant_or_throw(f.variant);
    r.gen.dir = f.dir.empty() ? default_database_dir() : std::filesystem::path(f.dir);
    r.gen.threads = checked_threads(f.threads);
    r.gen.durable = !f.no_sync;
    r.gen.mirror_wdl = !f.full_wdl;
    r.gen.mirror_mtc = !f.full_mtc;
    // The wdl files unless only the distance files' codecs are asked.
    r.wdl = !f.wdl_codec.empty() || (f.dtw_codec.empty() && f.mtc_codec.empty() && f.mtc_fold < 0);
    r.gen.wdl_codec = wdl_codec_option(f.wdl_codec.empty() ? "auto" : f.wdl_codec);
    r.dtw = !f.dtw_codec.empty();
    if (r.dtw) r.gen.distance_codec = dtw_codec_option(f.dtw_codec);
    r.mtc = !f.mtc_codec.empty();
    if (r.mtc) r.gen.mtc_codec = mtc_codec_option(f.mtc_codec);
    if (f.mtc_fold >= 0) {
        if (f.mtc_fold == 1 || f.mtc_fold > format::max_mtc_fold)
            throw Error("--mtc-fold must be 0 or between 2 and " +
                        std::to_string(format::max_mtc_fold));
        r.mtc_fold = f.mtc_fold;
    }
    for (const std::string& c : f.classes) {
        const std::optional<Material> m = Material::parse(c);
        if (!m) throw Error("--class " + c + ": not a class (four digits, e.g. 2112)");
        r.only.push_back(*m);
    }
    Progress progress(Progress::detect(f.quiet));
    const RecodeSummary s = recode_folder(r, progress);
    if (f.json) {
        Json j{{"variant", r.gen.variant.name()},
               {"dir", r.gen.dir.string()},
               {"classes", s.classes},
               {"positions", s.positions},
               {"seconds", s.seconds}};
        if (r.wdl) {
            j["wdl_codec"] = f.wdl_codec.empty() ? "auto" : f.wdl_codec;
            j["wdl_bytes_before"] = s.wdl_bytes_before;
            j["wdl_bytes_after"] = s.wdl_bytes_after;
        }
        if (r.dtw) {
            j["dtw_codec"] = f.dtw_codec;
            j["dtw_files_written"] = s.dtw_files_written;
            j["dtw_bytes_before"] = s.dtw_bytes_before;
            j["dtw_bytes_after"] = s.dtw_bytes_after;
        }
        if (r.mtc || s.mtc_files_written > 0) {
            if (r.mtc) j["mtc_codec"] = f.mtc_codec;
            j["mtc_files_written"] = s.mtc_files_written;
            j["mtc_bytes_before"] = s.mtc_bytes_before;
            j["mtc_bytes_after"] = s.mtc_bytes_after;
        }
        print_json(j);
        return;
    }
    const auto bits = [&](std::uint64_t bytes) {
        return s.positions ? 8.0 * static_cast<double>(bytes) / static_cast<double>(s.positions)
                           : 0.0;
    };
    std::printf("recoded %d classes (%llu positions) in %.1f s", s.classes,
                static_cast<unsigned long long>(s.positions), s.seconds);
    if (r.wdl)
        std::printf(": wdl %llu -> %llu bytes (%.3f bits a position)",
                    static_cast<unsigned long long>(s.wdl_bytes_before),
                    static_cast<unsigned long long>(s.wdl_bytes_after), bits(s.wdl_bytes_after));
    if (r.dtw)
        std::printf("%s dtw %llu -> %llu bytes (%.3f bits a position; %d files written again)",
                    r.wdl ? "," : ":", static_cast<unsigned long long>(s.dtw_bytes_before),
                    static_cast<unsigned long long>(s.dtw_bytes_after), bits(s.dtw_bytes_after),
                    s.dtw_files_written);
    if (r.mtc || s.mtc_files_written > 0)
        std::printf("%s mtc %llu -> %llu bytes (%d files written again)",
                    r.wdl || r.dtw ? "," : ":", static_cast<unsigned long long>(s.mtc_bytes_before),
                    static_cast<unsigned long long>(s.mtc_bytes_after), s.mtc_files_written);
    std::printf("\n");
}

struct VerifyFlags {
    std::string dir;
    std::string manifest;
    bool deep = false;
    std::vector<std::string> classes;
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

int run_verify(const VerifyFlags& o) {
    std::optional<std::filesystem::path> manifest;
    if (!o.manifest.empty()) manifest = o.manifest;
    // With --manifest alone, the folder is the manifest's.
    const std::filesystem::path dir = !o.dir.empty() ? std::filesystem::path(o.dir)
                                      : manifest
                                          ? std::filesystem::absolute(*manifest).parent_path()
                                          : default_database_dir();
    VerifyOptions options{o.deep, {}, manifest};
    for (const std::string& c : o.classes) {
        const std::optional<Material> m = Material::parse(c);
        if (!m) throw Error("--class " + c + ": not a class (four digits, e.g. 2112)");
        options.deep_classes.push_back(*m);
    }
    if (!o.classes.empty() && !o.deep) throw Error("--class needs --deep");
    const VerifyReport r = verify_database(dir, options, [&](const std::string& line) {
        if (o.json) return;
        const bool routine = line.rfind("ok ", 0) == 0 || line.rfind("deep ok ", 0) == 0;
        if (!o.quiet || !routine) std::fprintf(stderr, "%s\n", line.c_str());
    });
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
    static GenFlags g;
    auto* gen = app.add_subcommand("gen", "Generate the databases of every class with 2..N pieces");
    add_gen_flags(*gen, g);
    gen->callback([] { run_gen(g); });

    static RecodeFlags ro;
    auto* recode = app.add_subcommand(
        "recode",
        "Write a folder's wdl files again with another codec, from its DTW or MTC files, or its "
        "dtw files with --dtw-codec, or its mtc files with --mtc-codec (nothing is solved again; "
        "the files are those gen writes with that codec)");
    add_variant_option(*recode, ro.variant);
    add_dir_option(*recode, ro.dir);
    recode->add_option("--class,-c", ro.classes,
                       "Only this class and its mirror (repeat the option for more; default: "
                       "every class with a DTW or MTC file)");
    recode->add_option("--wdl-codec", ro.wdl_codec,
                       std::string(wdl_codec_help) +
                           " (default: auto, unless only --dtw-codec or --mtc-codec is given)");
    recode->add_option("--dtw-codec", ro.dtw_codec,
                       std::string(dtw_codec_help) +
                           " (default: the dtw files are left as they are; given alone, only "
                           "they are written)");
    recode->add_option("--mtc-codec", ro.mtc_codec,
                       "mtc compression: mtc-wdl, mtc-context, zstd-planes (a cold probe about 15 "
                       "times faster than mtc-wdl's, about twice the bytes) or zstd (default: the "
                       "mtc files keep theirs; given alone, only they are written, and an mtc-wdl "
                       "file is written again with its wdl file whenever that is)");
    recode->add_option("--mtc-fold", ro.mtc_fold,
                       "Store the mtc distances 1 to N as one value (as gen --mtc-fold; 0: "
                       "none) in files that hold them unfolded (default: the mtc files keep "
                       "theirs; given alone, only they are written)");
    recode->add_flag("--full-wdl", ro.full_wdl,
                     "Write the wdl values of both classes of each pair (as gen --full-wdl)");
    recode->add_flag("--full-mtc", ro.full_mtc,
                     "Write the mtc values of both classes of each pair (as gen --full-mtc)");
    recode->add_option("--threads,-t", ro.threads, "Threads (default: all cores)");
    recode->add_flag("--no-sync", ro.no_sync, "Do not fsync each file and its folder");
    recode->add_flag("--quiet,-q", ro.quiet, "No progress output");
    recode->add_flag("--json", ro.json, "Machine-readable summary");
    recode->callback([] { run_recode(ro); });

    static VerifyFlags vo;
    auto* verify = app.add_subcommand(
        "verify",
        "Check every table file's checksums and the folder's set of files (missing, misnamed, "
        "extra, leftover .tmp, unfinished runs); --deep recomputes every value");
    add_dir_option(*verify, vo.dir);
    verify->add_flag("--deep", vo.deep, "Recompute every stored value from its successors' values");
    verify->add_option("--class,-c", vo.classes,
                       "With --deep: recompute only this class (repeat the option for more; "
                       "memory: the class and what it reads)");
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
