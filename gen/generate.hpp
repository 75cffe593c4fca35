// The generation driver: which classes to build, in what order, skipping finished ones, and
// having their files written (gen/pair_writer.hpp).
//
// Owns: the batch over classes, as planned by gen/plan.hpp within a memory budget, one pair at a
// time by a PairRunner (gen/pair_runner.hpp), the unit of work damas-mpi hands out. Classes are
// solved in dependency order (index/material.hpp), a class together with its mirror
// (gen/solver.hpp). Each class gives two files, WDL and DTW (table/format.hpp), written atomically;
// of a pair, one wdl file may get the mirror layout (mirror_wdl below), written last; which
// layout and codec each wdl file gets is gen/wdl_policy.hpp's. A rerun verifies the files of a
// pair and skips it, so a killed run loses at most the pair in progress, or, for a pair solved in
// units (gen/unit_file.hpp), the slice in progress. Before starting, the
// memory the run needs is planned and the run refused if the budget cannot hold it. Memory: when
// the whole run fits, every solved class below the largest size stays in memory (2 bytes per
// position) for the lookups of later classes, and a class of the largest size until the last pair
// that crowns into it is solved, so none is read twice; otherwise the store holds what the current
// pair reads.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>

#include "gen/progress.hpp"
#include "gen/wdl_policy.hpp"
#include "index/material.hpp"
#include "rules/variant.hpp"

namespace damas {

// How pairs are solved (gen/plan.hpp): as the memory budget allows, or every one in units (for
// tests: the bounded path on small classes), or in units reading every smaller class through
// the block cache (SolvedStore::read_through; for tests and to measure what the cache costs), or
// in units by the byte-a-position solver (gen/compact_solver.hpp), which the plan otherwise takes
// only for the pairs whose slices the state words cannot hold.
enum class PairSolving { automatic, units, units_read_through, units_compact };

struct GenerateOptions {
    Variant variant;
    int max_pieces = 4;
    std::filesystem::path dir;  // database root; files go to <dir>/<variant>/
    int threads = 0;            // 0: all cores
    // fsync each file before its rename and the folder after (gen/writer.hpp): a power cut
    // never leaves a partial file under a table's name. False: scratch runs (--no-sync).
    bool durable = true;
    int max_per_side = 0;          // 0: no limit
    std::optional<Material> only;  // build this class (and its mirror) and what it needs
    // Of each pair of classes (a class and its mirror), write the wdl values of one only, the
    // one that compresses smaller; the other's wdl file gets the mirror layout
    // (table/format.hpp): a probe there searches one ply. About halves the wdl bytes.
    bool mirror_wdl = true;
    // The wdl files' codec (table/codec.hpp): automatic, or one codec wherever it can code the
    // class; gen/wdl_policy.hpp says which layout and codec each class gets, and why.
    WdlCodec wdl_codec = automatic_wdl_codec;
    // The dtw files' codec: zstd-planes, or zstd as before it (table/zstd_codec.cpp).
    Codec distance_codec = default_codec(Metric::dtw);
    // Classes of this many positions or more are "large": with automatic, the other codecs are
    // tried, and their codec (and, in a pair, the class that keeps the wdl values) is chosen
    // from estimates on a sample of blocks, so that one wdl file per pair is written whole
    // (gen/wdl_policy.hpp). Tests lower it to take that path on small classes.
    std::uint64_t large_class_positions = context_min_positions;
    // The most memory the run may take (gen/plan.hpp); 0: three quarters of the available memory.
    std::uint64_t memory_bytes = 0;
    PairSolving pair_solving = PairSolving::automatic;
};

struct GenerateSummary {
    int classes_built = 0;
    int classes_skipped = 0;
    std::uint64_t positions = 0;  // of the classes built
    double seconds = 0;
    double load_seconds = 0;  // loading (and completing) the solved classes the pairs read
    // Classes loaded whole from their files, and of those, from solved class files (no capture
    // search: gen/unit_file.hpp).
    std::uint64_t classes_loaded = 0, classes_from_solved_files = 0;
    std::uint64_t bytes_written = 0;
    std::uint64_t peak_bytes_estimate = 0;
    std::uint64_t budget_bytes = 0;
    int pairs_in_units = 0;
    std::uint64_t units_written = 0, units_resumed = 0;  // unit files solved, found complete
    // The process's peak resident memory (VmHWM), and the pair during which it was reached.
    std::uint64_t peak_resident_bytes = 0;
    std::string peak_pair;
};

std::filesystem::path default_database_dir();  // $DAMAS_DB or ./db

// The classes the options ask for, in the order they are solved.
std::vector<Material> planned_classes(const GenerateOptions& options);

GenerateSummary generate(const GenerateOptions& options, Progress& progress);

// What generate() does around its loop of pairs (gen/pair_runner.hpp), for a driver of its own
// (damas-mpi: docs/distributed.md).
struct GenerationPlan;
void prepare_generation_process();  // malloc settings for the large buffers; before any pair
// Announces the plan; throws Error if it needs more memory than its budget.
void check_plan_fits(const GenerateOptions& options, const GenerationPlan& plan,
                     Progress& progress);
// Once every pair is done: the solved class files left (gen/unit_file.hpp), and the units folder
// if that leaves it empty.
void remove_empty_units_dir(const GenerateOptions& options);

// The generator's version string, written in every file header.
const char* generator_version();

}  // namespace damas
