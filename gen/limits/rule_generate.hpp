// The driver of the rule metric: `damas gen-rules`. Computes the dtr files (table/format.hpp) of
// a database whose pure tables (wdl, dtw) are already generated.
//
// Owns: the batch over classes for the move-limit draw rules. Classes are solved in the pure
// generator's order (index/material.hpp: every class after the classes its moves reach), a
// class with its mirror (gen/limits/rule_solver.hpp), all in memory from 2 pieces up (the rule
// solver keeps every solved class for the lookups of larger ones). Each class gives one file per
// regime (dtr, or dtr-fmjd for international's FMJD edition; portuguese forcada classes also
// dtr-forcada), written atomically with gen/write/writer (<file>.tmp, then a rename). Every class
// written is checked against its pure wdl file: a win (loss) under the rules must be a pure win
// (loss) and a pure draw has no rule win or loss; a mismatch is an error.
//
// Resumable as `damas gen` is: a rerun verifies the files of each pair (gen/write/writer.hpp:
// table_complete: header, size, checksums) and skips a pair whose files are all complete,
// reading its values back for the larger classes (gen/limits/rule_solver.hpp: restore_rule_class),
// so `kill -9` loses at most the pair in progress. oneTBB threads (`threads`) for the solver's
// independent steps and the compression; the bytes written do not depend on the thread count.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>

#include "folder/run_record.hpp"
#include "gen/limits/rule_solver.hpp"
#include "gen/plan/pair_graph.hpp"
#include "gen/process/progress.hpp"
#include "gen/run/run_steps.hpp"
#include "index/class_selection.hpp"
#include "index/material.hpp"
#include "limits/draw_rules.hpp"

namespace damas {

// The classes (ClassSelection: variant, max_pieces, max_per_side, only) and how to make them.
struct RuleGenerateOptions : ClassSelection {
    Edition edition = Edition::seed;
    std::filesystem::path dir;
    int threads = 0;         // 0: all cores
    bool durable = true;     // fsync files and folder (folder/files.hpp); false: --no-sync
    bool check_pure = true;  // compare with the wdl files (which must then exist)
};

struct RuleGenerateSummary {
    int classes = 0;          // written
    int classes_skipped = 0;  // complete from an earlier run
    std::uint64_t positions = 0;
    std::uint64_t pure_wins = 0;            // quiet positions, of the classes written
    std::uint64_t wins_drawn_by_rules = 0;  // of those, not won with a fresh count
    std::uint64_t bytes_written = 0;
    double seconds = 0;
};

RuleGenerateSummary generate_rules(const RuleGenerateOptions& options, Progress& progress);

// The run as the manifest records it (folder/run_record.hpp).
RunDescription run_description(const RuleGenerateOptions& options);

// The classes of a gen-rules run, in the order they are solved; throws Error if none.
std::vector<Material> rule_run_classes(const RuleGenerateOptions& options);
// The variant's rules; throws Error if it has none (its pure tables are exact).
DrawRules checked_draw_rules(const RuleGenerateOptions& options);

// The pairs of a gen-rules run, one at a time, each from the files of the pairs it reads: the
// loop of generate_rules(), and the work of each rank of `damas-mpi gen-rules`. Its store keeps
// every class it solved or read back (the rule solver holds every class it reads). Not
// thread-safe; the caller holds the folder's writer lock and the thread limit.
class RulePairRunner : public PairWork {
  public:
    RulePairRunner(const RuleGenerateOptions& options, Progress& progress);
    const PairGraph& graph() const { return graph_; }
    // A pair skipped is read back from its files by the pairs that read it, when they need it.
    bool skip_if_complete(std::size_t i) override;
    void run(std::size_t i) override;
    const RuleGenerateSummary& summary() const { return summary_; }

  private:
    void load_inputs(std::size_t i);
    RuleGenerateOptions options_;
    DrawRules rules_;
    PairGraph graph_;
    RuleStore store_;
    Progress& progress_;
    RuleGenerateSummary summary_;
};

// The steps of a gen-rules run (gen/run/run_steps.hpp).
class RuleGenerationRun : public RunSteps {
  public:
    // Checks the variant's rules and lists the classes; throws Error on bad options.
    explicit RuleGenerationRun(const RuleGenerateOptions& options);
    ~RuleGenerationRun() override;

    const std::vector<Material>& classes() const;
    const PairGraph& graph() const override;
    void start(bool holds_folder, Progress& progress, Progress& work_progress) override;
    RulePairRunner& work() override;
    void finish() override;
    // The runner's summary, with the seconds since the run began.
    RuleGenerateSummary summary() const;

  private:
    struct State;
    std::unique_ptr<State> state_;
};

}  // namespace damas
