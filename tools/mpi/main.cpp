// damas-mpi: `gen` and `gen-rules` over the ranks of an MPI job, on a folder every rank shares
// (docs/distributed.md):
//   mpirun -np N damas-mpi gen -v international -p 6 -d /shared/db -t 8 --memory 48G
// The flags are damas's (tools/cli/gen_flags.hpp); -t and --memory are per rank. Rank 0 takes the
// folder's writer lock and keeps the manifest (folder/run_record.hpp); every rank plans the run
// within its own budget and solves the pairs it is handed (tools/mpi/distributed.hpp); the
// files are byte-identical to damas's. Errors print one line and end every rank with code 2.
#include <mpi.h>
#include <sys/resource.h>

#include <algorithm>
#include <cstdio>
#include <exception>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "gen/limits/rule_generate.hpp"
#include "gen/plan/plan.hpp"
#include "gen/plan/work_graph.hpp"
#include "gen/process/threads.hpp"
#include "gen/run/generate.hpp"
#include "gen/solve/solver.hpp"
#include "index/class_index.hpp"
#include "rules/error.hpp"
#include "rules/printable.hpp"
#include "tools/cli/commands.hpp"
#include "tools/cli/gen_flags.hpp"
#include "tools/mpi/distributed.hpp"

namespace damas::mpi {
namespace {

using cli::Json;

struct Job {
    MPI_Comm comm = MPI_COMM_WORLD;
    int rank = 0;
    int ranks = 1;
};

// Every rank learns whether every rank succeeded at a step; if one failed, rank 0 prints its
// reason, and any other rank a reason of its own that differs (its budget, say); then every
// rank ends with code 2.
void agree_or_end(const Job& job, const std::string& failure) {
    int ok = failure.empty() ? 1 : 0, all_ok = 0;
    MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_MIN, job.comm);
    if (all_ok) return;
    std::string first = job.rank == 0 ? failure : std::string();
    int size = static_cast<int>(first.size());
    MPI_Bcast(&size, 1, MPI_INT, 0, job.comm);
    first.resize(static_cast<std::size_t>(size));
    MPI_Bcast(first.data(), size, MPI_CHAR, 0, job.comm);
    if (!failure.empty() && (job.rank == 0 || failure != first))
        std::fprintf(stderr, "damas-mpi: %serror: %s\n",
                     job.ranks > 1 ? ("rank " + std::to_string(job.rank) + ": ").c_str() : "",
                     printable(failure, 1000).c_str());
    throw cli::ExitCode{2};
}

template <class F>
void on_every_rank(const Job& job, const F& step) {
    std::string failure;
    try {
        step();
    } catch (const std::exception& e) {
        failure = e.what();
        if (failure.empty()) failure = "failed";
    }
    agree_or_end(job, failure);
}

// The ranks must agree on the pairs (the same flags and the same program): a checksum of
// their names.
void check_same_pairs(const Job& job, const PairGraph& graph) {
    unsigned long long sum = 1469598103934665603ull;
    for (const Material m : graph.pairs)
        for (const char c : m.name())
            sum = (sum ^ static_cast<unsigned char>(c)) * 1099511628211ull;
    unsigned long long low = 0, high = 0;
    MPI_Allreduce(&sum, &low, 1, MPI_UNSIGNED_LONG_LONG, MPI_MIN, job.comm);
    MPI_Allreduce(&sum, &high, 1, MPI_UNSIGNED_LONG_LONG, MPI_MAX, job.comm);
    agree_or_end(job, low == high ? "" : "the ranks do not plan the same pairs (same flags?)");
}

Progress rank_progress(const Job& job, bool quiet) {
    if (quiet) return Progress(Progress::Mode::quiet);
    if (job.ranks == 1) return Progress(Progress::detect(false));
    return Progress(Progress::Mode::lines, "[rank " + std::to_string(job.rank) + "] ");
}

// What one rank did, gathered on rank 0: its times, its peak resident memory and the counts of
// its summary (gen: GenerateSummary's, gen-rules: RuleGenerateSummary's). Sent as bytes: every
// rank runs the same program.
struct RankReport {
    RankTimes times;
    std::uint64_t peak_resident_bytes = 0;
    std::uint64_t classes_built = 0, classes_skipped = 0, positions = 0, bytes_written = 0;
    double load_seconds = 0;
    std::uint64_t pairs_in_units = 0, units_written = 0, units_resumed = 0;
    std::uint64_t slice_ranges_solved = 0, table_parts_written = 0, wdl_parts_written = 0;
    std::uint64_t pure_wins = 0, wins_drawn_by_rules = 0;
};
static_assert(std::is_trivially_copyable_v<RankReport>);

// The counts of a summary (GenerateSummary or RuleGenerateSummary) beside a report's, for
// copying either way: f(summary's, report's).
template <class Summary, class Report, class F>
void counts(Summary& s, Report& r, F&& f) {
    f(s.classes_skipped, r.classes_skipped);
    f(s.positions, r.positions);
    f(s.bytes_written, r.bytes_written);
    if constexpr (std::is_same_v<std::remove_const_t<Summary>, GenerateSummary>) {
        f(s.classes_built, r.classes_built);
        f(s.peak_resident_bytes, r.peak_resident_bytes);
        f(s.load_seconds, r.load_seconds);
        f(s.pairs_in_units, r.pairs_in_units);
        f(s.units_written, r.units_written);
        f(s.units_resumed, r.units_resumed);
        f(s.slice_ranges_solved, r.slice_ranges_solved);
        f(s.table_parts_written, r.table_parts_written);
        f(s.wdl_parts_written, r.wdl_parts_written);
    } else {
        f(s.classes, r.classes_built);
        f(s.pure_wins, r.pure_wins);
        f(s.wins_drawn_by_rules, r.wins_drawn_by_rules);
    }
}
constexpr auto into_report = [](const auto& from, auto& to) {
    to = static_cast<std::remove_reference_t<decltype(to)>>(from);
};
constexpr auto into_summary = [](auto& to, const auto& from) {
    to = static_cast<std::remove_reference_t<decltype(to)>>(from);
};

template <class Summary>
RankReport report_of(const RankTimes& times, const Summary& s) {
    RankReport r;
    r.times = times;
    counts(s, r, into_report);
    return r;
}

// Every rank's counts summed (the peak memory: the largest).
RankReport sum_of(const std::vector<RankReport>& reports) {
    RankReport total;
    for (const RankReport& r : reports) {
        total.peak_resident_bytes = std::max(total.peak_resident_bytes, r.peak_resident_bytes);
        total.classes_built += r.classes_built;
        total.classes_skipped += r.classes_skipped;
        total.positions += r.positions;
        total.bytes_written += r.bytes_written;
        total.load_seconds += r.load_seconds;
        total.pairs_in_units += r.pairs_in_units;
        total.units_written += r.units_written;
        total.units_resumed += r.units_resumed;
        total.slice_ranges_solved += r.slice_ranges_solved;
        total.table_parts_written += r.table_parts_written;
        total.wdl_parts_written += r.wdl_parts_written;
        total.pure_wins += r.pure_wins;
        total.wins_drawn_by_rules += r.wins_drawn_by_rules;
    }
    return total;
}

std::vector<RankReport> gather(const Job& job, const RankReport& mine) {
    std::vector<RankReport> all(static_cast<std::size_t>(job.ranks));
    MPI_Gather(&mine, sizeof(RankReport), MPI_BYTE, all.data(), sizeof(RankReport), MPI_BYTE, 0,
               job.comm);
    return all;
}

Json ranks_json(const std::vector<RankReport>& reports, double seconds) {
    Json ranks = Json::array();
    for (std::size_t r = 0; r < reports.size(); ++r) {
        const RankTimes& t = reports[r].times;
        ranks.push_back(
            {{"rank", r},
             {"pairs", t.pairs},
             {"busy_seconds", t.busy_seconds},
             {"wait_seconds", t.wait_seconds},
             {"wait_share", seconds > 0 ? t.wait_seconds / seconds : 0.0},
             {"table_parts_written", reports[r].table_parts_written},
             {"wdl_parts_written", reports[r].wdl_parts_written},
             {"peak_resident_bytes", static_cast<double>(reports[r].peak_resident_bytes)}});
    }
    return ranks;
}

void print_ranks(const std::vector<RankReport>& reports, double seconds) {
    for (std::size_t r = 0; r < reports.size(); ++r) {
        const RankTimes& t = reports[r].times;
        std::printf(
            "rank %zu: %.0f units of work, busy %.2f s, waiting %.2f s (%.1f%%), peak %.1f MiB\n",
            r, t.pairs, t.busy_seconds, t.wait_seconds,
            seconds > 0 ? 100.0 * t.wait_seconds / seconds : 0.0,
            static_cast<double>(reports[r].peak_resident_bytes) / (1024.0 * 1024.0));
    }
}

// The run's start on every rank, then its pairs over the ranks (tools/mpi/distributed.hpp),
// rank 0 skipping those whose files are complete first.
RankTimes run_on_ranks(const Job& job, RunSteps& run, Progress& progress, Progress& work_progress) {
    const PairGraph& graph = run.graph();
    check_same_pairs(job, graph);
    on_every_rank(job, [&] { run.start(job.rank == 0, progress, work_progress); });
    PairWork& work = run.work();
    std::vector<bool> done(graph.pairs.size(), false);
    if (job.rank == 0)
        for (std::size_t i = 0; i < done.size(); ++i) done[i] = work.skip_if_complete(i);
    return run_pairs(job.comm, graph, done, [&](std::size_t i) { work.run(i); });
}

// The units of work of a gen run on `ranks` ranks: its pairs, those cut into ranges as
// gen/plan/work_graph.hpp's rule says, their wdl files in parts where that is modelled faster;
// or every pair in units into `cut` ranges when cut > 0, the wdl files of large classes in parts.
WorkGraph gen_work(const GenerateOptions& o, const GenerationPlan& plan, const PairGraph& pairs,
                   int ranks, int cut) {
    if (cut > 0) return work_graph(o, plan, pairs, cut_ranges(plan, ranks, cut));
    return faster_work_graph(o, plan, pairs, cut_ranges(plan, ranks), ranks);
}

// A gen run's start on every rank, then its units of work over the ranks, rank 0 finding first
// the pairs whose files are complete and the ranges of cut pairs already written.
RankTimes run_gen_on_ranks(const Job& job, const GenerateOptions& o, GenerationRun& run, int cut,
                           Progress& progress, Progress& work_progress) {
    check_same_pairs(job, run.graph());
    const WorkGraph w = gen_work(o, run.plan(), run.graph(), job.ranks, cut);
    on_every_rank(job, [&] { run.start(job.rank == 0, progress, work_progress); });
    PairRunner& work = run.work();
    std::vector<bool> done(w.nodes.size(), false);
    if (job.rank == 0) done = complete_work(work, w);
    return run_pairs(job.comm, w.graph, done, [&](std::size_t n) { run_work(work, w, n); });
}

// damas-mpi gen --plan: the plan of one rank (each plans within its own budget), and the time
// the units of work's modelled times take handed out over `ranks` ranks as run_pairs does, with
// and without pairs cut over ranks. The plan may be for other machines: its threads are not
// checked against this one's (no GenerationRun).
void print_distributed_plan(const GenerateOptions& o, int ranks, int cut, bool json) {
    check_solvable(o.variant, o.metric);
    const GenerationPlan plan = plan_generation(o);
    const PairGraph pairs = plan_graph(plan);
    std::vector<double> seconds;
    for (const PairStep& s : plan.pairs) seconds.push_back(s.seconds);
    const ScheduleEstimate uncut = estimate_schedule(pairs, seconds, ranks);
    const WorkGraph w = gen_work(o, plan, pairs, ranks, cut);
    const ScheduleEstimate e = estimate_schedule(w.graph, w.seconds, ranks);
    const int threads = plan.threads;
    if (json) {
        Json out = cli::plan_json(o, plan);
        out["ranks"] = ranks;
        out["threads_per_rank"] = threads;
        out["distributed_seconds"] = e.seconds;
        out["chain_seconds"] = e.chain_seconds;
        out["work_seconds"] = e.total_seconds;
        out["units_of_work"] = w.nodes.size();
        out["pairs_cut"] = w.pairs_cut;
        out["slices_cut"] = w.slices_cut;
        const HeaviestChain chain = heaviest_chain(w);
        out["chain"] = {{"pairs_seconds", chain.pair_seconds},
                        {"ranges_seconds", chain.range_seconds},
                        {"writing_seconds", chain.write_seconds},
                        {"units_of_work", chain.nodes.size()}};
        out["uncut_distributed_seconds"] = uncut.seconds;
        out["uncut_chain_seconds"] = uncut.chain_seconds;
        cli::print_json(out);
        return;
    }
    cli::print_plan(o, plan, false);
    std::printf(
        "on %d ranks of %d threads: about %s (the units of work's modelled times handed out as "
        "damas-mpi does; the heaviest chain %s; every unit on one rank %s)\n",
        ranks, threads, cli::duration_text(e.seconds).c_str(),
        cli::duration_text(e.chain_seconds).c_str(), cli::duration_text(e.total_seconds).c_str());
    std::printf(
        "cut over ranks: %zu pairs, %zu slices into ranges of men configurations (%zu units of "
        "work); without: about %s, the heaviest chain of pairs %s\n",
        w.pairs_cut, w.slices_cut, w.nodes.size(), cli::duration_text(uncut.seconds).c_str(),
        cli::duration_text(uncut.chain_seconds).c_str());
    const HeaviestChain chain = heaviest_chain(w);
    std::printf(
        "the heaviest chain: %zu units of work, %s in pairs not cut, %s in ranges of cut "
        "slices (slice 0's with their pair's loads), %s writing cut pairs' files\n",
        chain.nodes.size(), cli::duration_text(chain.pair_seconds).c_str(),
        cli::duration_text(chain.range_seconds).c_str(),
        cli::duration_text(chain.write_seconds).c_str());
}

// gen/run/generate.hpp's GenerationRun, the ranks agreeing after each step.
void run_gen(const Job& job, const cli::GenFlags& flags, int plan_ranks, int cut) {
    GenerateOptions o;
    std::optional<GenerationRun> run;
    on_every_rank(job, [&] {
        o = cli::generate_options(flags);
        if (!flags.plan) run.emplace(o);
    });
    if (flags.plan) {
        if (job.rank == 0) {
            try {
                print_distributed_plan(o, plan_ranks > 0 ? plan_ranks : job.ranks, cut, flags.json);
            } catch (const std::exception& e) {
                std::fprintf(stderr, "damas-mpi: error: %s\n", printable(e.what(), 1000).c_str());
                throw cli::ExitCode{2};
            }
        }
        return;
    }
    Progress progress = rank_progress(job, flags.quiet || job.rank != 0);
    Progress work_progress = rank_progress(job, flags.quiet);
    on_every_rank(job, [&] { run->check_fits(progress); });
    const RankTimes times = run_gen_on_ranks(job, o, *run, cut, progress, work_progress);
    const GenerateSummary mine = run->summary();
    const std::vector<RankReport> reports = gather(job, report_of(times, mine));
    if (job.rank != 0) return;
    run->finish();
    GenerateSummary total = mine;
    RankReport sum = sum_of(reports);
    counts(total, sum, into_summary);
    total.seconds = run->summary().seconds;
    if (flags.json) {
        Json out = cli::gen_summary_json(o, total);
        out.erase("peak_pair");  // of rank 0 only; each rank's peak is in ranks
        out["ranks"] = ranks_json(reports, total.seconds);
        out["slice_ranges_solved"] = total.slice_ranges_solved;
        out["table_parts_written"] = total.table_parts_written;
        out["wdl_parts_written"] = total.wdl_parts_written;
        cli::print_json(out);
        return;
    }
    total.peak_resident_bytes = 0;  // per rank below
    cli::print_gen_summary(o, total);
    if (total.slice_ranges_solved > 0)
        std::printf("slices cut over ranks: %llu ranges of men configurations solved\n",
                    static_cast<unsigned long long>(total.slice_ranges_solved));
    if (total.table_parts_written > 0)
        std::printf("cut pairs' distance files: %llu parts written\n",
                    static_cast<unsigned long long>(total.table_parts_written));
    if (total.wdl_parts_written > 0)
        std::printf("cut pairs' wdl files: %llu parts written\n",
                    static_cast<unsigned long long>(total.wdl_parts_written));
    print_ranks(reports, total.seconds);
}

// gen/limits/rule_generate.hpp's RuleGenerationRun, the ranks agreeing after each step.
void run_gen_rules(const Job& job, const cli::GenRulesFlags& flags) {
    RuleGenerateOptions o;
    std::optional<RuleGenerationRun> run;
    on_every_rank(job, [&] {
        o = cli::rule_generate_options(flags);
        run.emplace(o);
    });
    Progress progress = rank_progress(job, flags.quiet || job.rank != 0);
    Progress work_progress = rank_progress(job, flags.quiet);
    const RankTimes times = run_on_ranks(job, *run, progress, work_progress);
    const std::vector<RankReport> reports = gather(job, report_of(times, run->summary()));
    if (job.rank != 0) return;
    run->finish();
    RuleGenerateSummary total;
    RankReport sum = sum_of(reports);
    counts(total, sum, into_summary);
    total.seconds = run->summary().seconds;
    if (flags.json) {
        Json out = cli::gen_rules_summary_json(o, total);
        out["ranks"] = ranks_json(reports, total.seconds);
        cli::print_json(out);
        return;
    }
    cli::print_gen_rules_summary(total);
    print_ranks(reports, total.seconds);
}

int main_of_rank(int argc, char** argv, const Job& job) {
    CLI::App app{"damas-mpi: generate damas tablebases over the ranks of an MPI job"};
    app.require_subcommand(1);
    cli::GenFlags gen_flags;
    auto* gen = app.add_subcommand(
        "gen",
        "Generate the databases of every class with 2..N pieces, the pairs spread over "
        "the ranks");
    cli::add_gen_flags(*gen, gen_flags, true);
    int plan_ranks = 0;
    gen->add_option("--ranks", plan_ranks,
                    "With --plan: plan for this many ranks (default: this job's)")
        ->check(CLI::PositiveNumber);
    int cut = 0;
    gen->add_option("--cut-slices", cut,
                    "Cut every slice of every pair in units into this many ranges of men "
                    "configurations, each a unit of work of its own (1: none; default: the "
                    "pairs long against a rank's share of the run, into as many ranges as "
                    "ranks; docs/distributed.md)")
        ->check(CLI::Range(1, 4096));
    cli::GenRulesFlags rules_flags;
    auto* rules =
        app.add_subcommand("gen-rules",
                           "Compute the move-limit rule tables (dtr) of a generated database, the "
                           "pairs spread over the ranks");
    cli::add_gen_rules_flags(*rules, rules_flags, true);
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        if (job.rank != 0) return e.get_exit_code() == 0 ? 0 : 2;
        if (e.get_exit_code() == 0) return app.exit(e);  // --help
        std::fprintf(stderr, "damas-mpi: error: %s (see --help)\n",
                     printable(e.what(), 1000).c_str());
        return 2;
    }
    try {
        if (gen->parsed()) run_gen(job, gen_flags, plan_ranks, cut);
        if (rules->parsed()) run_gen_rules(job, rules_flags);
    } catch (const cli::ExitCode& e) {
        return e.code;
    }
    return 0;
}

}  // namespace
}  // namespace damas::mpi

// A reader of a cut slice keeps a file open for each of its ranges, and the writer of a pair
// reads every slice at once (gen/units/class_stream.hpp): slices times ranks files, over the
// usual soft limit of 1024 for a pair of 65 slices on 16 ranks. The hard limit is the system's.
static void raise_open_files_limit() {
    rlimit limit{};
    if (getrlimit(RLIMIT_NOFILE, &limit) == 0 && limit.rlim_cur < limit.rlim_max) {
        limit.rlim_cur = limit.rlim_max;
        setrlimit(RLIMIT_NOFILE, &limit);
    }
}

int main(int argc, char** argv) {
    raise_open_files_limit();
    int provided = 0;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
    damas::mpi::Job job;
    MPI_Comm_rank(job.comm, &job.rank);
    MPI_Comm_size(job.comm, &job.ranks);
    int code = 0;
    try {
        if (provided < MPI_THREAD_FUNNELED)
            throw damas::Error("this MPI library does not support threads (MPI_THREAD_FUNNELED)");
        code = damas::mpi::main_of_rank(argc, argv, job);
    } catch (const std::exception& e) {
        damas::mpi::abort_job(job.comm, e.what());  // after the start: the ranks cannot agree
    }
    MPI_Finalize();
    return code;
}
