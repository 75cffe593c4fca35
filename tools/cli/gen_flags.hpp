// The flags of `gen` and `gen-rules`, shared by `damas` (tools/cli/cmd_gen.cpp,
// tools/cli/cmd_limits.cpp) and `damas-mpi` (tools/mpi/), so that both take the same flags with
// the same checks and print the same plans and summaries.
#pragma once

#include <CLI/CLI.hpp>

#include <string>

#include "gen/limits/rule_generate.hpp"
#include "gen/plan/plan.hpp"
#include "gen/run/generate.hpp"
#include "tools/render/analysis_json.hpp"

namespace damas::cli {

// The flags gen and gen-rules share.
struct RunFlags {
    std::string variant;
    int pieces = 4;
    std::string dir;
    int threads = 0;
    int max_per_side = 0;
    std::string only;
    bool no_sync = false;
    bool quiet = false;
    bool json = false;
};

struct GenFlags : RunFlags {
    bool full_wdl = false;
    bool full_mtc = false;
    int mtc_fold = -1;  // not given: GenerateOptions' default
    std::string wdl_codec = "auto";
    std::string dtw_codec;  // empty: default_codec(Metric::dtw)
    std::string mtc_codec;  // empty: default_codec(Metric::mtc)
    std::string metric;     // empty: dtw, or mtc with --dtw-pieces
    int dtw_pieces = -1;    // -1: not given
    std::string memory;
    bool plan = false;
    bool in_units = false;
    bool read_through = false;
    bool compact = false;
    std::uint64_t unit_chunk = 0;   // 0: GenerationTuning's
    std::uint64_t large_class = 0;  // 0: GenerateOptions' large_class_positions
};

// `per_rank`: the help of --threads and --memory speaks of each rank (damas-mpi).
void add_gen_flags(CLI::App& cmd, GenFlags& flags, bool per_rank = false);
// --wdl-codec: "auto" or a codec's name; throws Error naming the choices.
WdlCodec wdl_codec_option(const std::string& name);
extern const char* const wdl_codec_help;
// --dtw-codec: a codec of 16-bit tables (zstd-planes or zstd); throws Error naming the choices.
Codec dtw_codec_option(const std::string& name);
Codec mtc_codec_option(const std::string& name);
extern const char* const dtw_codec_help;
// The options the flags ask for; throws Error on a bad value.
GenerateOptions generate_options(const GenFlags& flags);
// "40 s", "12.5 min", "3.2 h".
std::string duration_text(double seconds);
// damas gen --plan: what the run would do and take, without generating anything.
Json plan_json(const GenerateOptions& g, const GenerationPlan& p);
void print_plan(const GenerateOptions& g, const GenerationPlan& p, bool json);
Json gen_summary_json(const GenerateOptions& g, const GenerateSummary& s);
void print_gen_summary(const GenerateOptions& g, const GenerateSummary& s);

struct GenRulesFlags : RunFlags {
    std::string edition = "seed";
};

void add_gen_rules_flags(CLI::App& cmd, GenRulesFlags& flags, bool per_rank = false);
RuleGenerateOptions rule_generate_options(const GenRulesFlags& flags);
Json gen_rules_summary_json(const RuleGenerateOptions& g, const RuleGenerateSummary& s);
void print_gen_rules_summary(const RuleGenerateSummary& s);

}  // namespace damas::cli
