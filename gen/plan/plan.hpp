// The plan of a generation run: which class pairs are solved, in what order, how (held whole in
// memory or in units written to disk), and what the run will take: peak memory, disk, time.
//
// Owns: the memory model that keeps a run within its budget (GenerateOptions::memory_bytes).
// Two ways to solve a pair:
//  - whole: the pair's results (3 bytes a position) are held while it is solved, then written
//    and kept in the store of solved classes (2 bytes a position; 2 bits, their values alone,
//    while a pair solved for mtc runs: gen/store/solved_store.hpp) for later pairs. Fastest;
//    this is every pair when the whole run fits the budget.
//  - in units: each slice of the pair (index/class_index.hpp) is solved from the store and the
//    slice before it, and written to a unit file (gen/units/unit_file.hpp); only the slice being
//    solved and the one before it are held. Once all are done, the pair's table files are
//    assembled from the unit files. A killed run loses at most the slice in progress.
// The store of solved classes holds the classes the pair's captures and crowning moves reach
// (and what completing them reaches: SolvedStore::load_below). When the budget cannot hold them
// beside the pair, the store keeps only those, and is emptied before a pair in units is
// written when the two would not fit together; later pairs load again what they need from the
// files. When even those do not fit beside the pair, the largest are read through a block cache
// (a sixteenth of the budget) instead of held: SolvedStore::read_through. Each pair takes the
// fastest of its ways that fits (whole, in units, either reading through the cache, then the
// byte-a-position solver), else the one that needs least: a budget is refused only where no way
// of some pair fits it, so every larger budget than one accepted is accepted too.
// The model counts the arrays that grow with the classes; the rest (index tables, writer
// blocks, threads, the program) is a twentieth and the program's own, 32 to 64 MiB, as measured
// on full runs (gen/plan/plan.cpp: with_overhead).
#pragma once

#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "gen/options.hpp"
#include "gen/plan/pair_graph.hpp"

namespace damas {

struct PairStep {
    Material material;            // the pair's first class (its mirror is solved with it)
    std::uint64_t positions = 0;  // both classes
    int slices = 0;
    bool in_units = false;
    // In units with a byte a position (gen/solve/compact/compact_solver.hpp): where the solver's
    // state words for a slice do not fit (classes with few men configurations).
    bool compact = false;
    bool empty_store_before_writing = false;
    // In units, the writer packs each class's wdl values (2 bits a position) from the unit files
    // once, for its passes (estimates, counts, the file), where the budget allows (or as
    // GenerationTuning::wdl_packed says); else it reads them from the unit files again for each
    // pass (gen/write/writer.hpp: WdlPasses).
    bool wdl_packed = false;
    // In units, the positions of a chunk of its unit files
    // (GenerationTuning::unit_chunk_positions): 0, the run's; or smaller, so that slices of men
    // configurations too small for the run's chunks to stream (UnitStream::streams) are written a
    // configuration at a time instead of held, where the pair does not fit otherwise (international
    // 2141 + 4121: slices of 28.9 G positions of 1,892 each, 80.8 GiB held at 3 bytes a position).
    std::uint64_t unit_chunk_positions = 0;
    // In units a byte a position: whether the solver keeps a bit a position of which must capture,
    // or tests the positions again (GenerationTuning::compact_capture_bits), where the pair does
    // not fit otherwise (international 0305 + 0503: one slice of 60.1 G positions, 7.0 GiB of
    // bits).
    bool compact_capture_bits = true;
    std::uint64_t store_bytes = 0;  // the solved classes held whole while the pair is solved
    // The classes the pair reads through a block cache of cache_bytes instead of holding them
    // (the largest first, when the budget cannot hold them all beside the pair in units).
    std::set<Material> read_through;
    std::uint64_t cache_bytes = 0;
    // What the store keeps while the pair is solved: the classes it reads and, where the budget
    // has room beside them, classes held since earlier pairs that a later pair reads again
    // (soonest next use first), so that they are not loaded and completed twice.
    std::set<Material> keep;
    std::uint64_t kept_ahead_bytes = 0;  // the second kind
    std::uint64_t peak_bytes = 0;        // modelled, overhead included
    // The pair held whole with every class it reads (overhead included): a bounded plan picks
    // another way only where this does not fit, and then one that needs less.
    std::uint64_t whole_bytes = 0;
    double seconds = 0;  // modelled (GenerationPlan::time_model)
    // Of those, loading the classes it reads that the store does not hold after the pair before;
    // and loading every class it holds, as a worker that holds none would (damas-mpi).
    double load_seconds = 0, inputs_load_seconds = 0;
};

struct GenerationPlan {
    std::vector<Material> classes;  // in the order they are solved
    std::vector<PairStep> pairs;
    std::uint64_t budget_bytes = 0;
    std::uint64_t available_bytes = 0;  // 0: unknown
    int threads = 0;                    // planned for (GenerateOptions::threads, 0: every core)
    bool bounded = false;               // some pair in units or a store that is not kept whole
    std::uint64_t positions = 0;
    std::uint64_t units = 0;       // unit files written (slices of the pairs in units)
    std::uint64_t peak_bytes = 0;  // modelled
    // Estimated (disk_model says how): the wdl and distance files, the unit files of the largest
    // pair in units while it is solved, and their sum.
    std::uint64_t wdl_bytes = 0, distance_bytes = 0, unit_bytes = 0, disk_bytes = 0;
    std::string disk_model;
    double seconds = 0;  // estimated (time_model says how)
    std::string time_model;
};

GenerationPlan plan_generation(const GenerateOptions& options);
// The run's tuning for the pair `step`: its unit chunk and capture bits (PairStep).
GenerationTuning pair_tuning(const GenerateOptions& options, const PairStep& step);
// The plan's pairs and which read which (gen/plan/pair_graph.hpp).
PairGraph plan_graph(const GenerationPlan& plan);

// "12G", "512M", "1.5G", "800K" or a number of bytes; throws Error on anything else.
std::uint64_t parse_memory_size(const std::string& text);
std::uint64_t available_memory_bytes();  // MemAvailable, 0 if unknown

}  // namespace damas
