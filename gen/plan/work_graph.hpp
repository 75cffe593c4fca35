// The units of work of a run over several workers (`damas-mpi`, docs/distributed.md): the pairs
// of the run, except that a pair in units may be cut, each of its slices into ranges of men
// configurations that different workers solve at the same time, then its table files written
// from its units. What shortens a run whose heaviest chain of pairs is longer than its work
// spread over the workers.
//
// Owns: which pairs are cut and into how many ranges (cut_ranges: the rule below), the graph of
// the units of work (nodes, what each reads) in the shape PairQueue and estimate_schedule take
// (gen/plan/pair_graph.hpp), and the modelled seconds of each. A range of slice s reads the
// slice before (every range of slice s - 1 written) and, for slice 0, the pairs the pair reads;
// the writing of the pair's files reads every range of its last slice: its wdl files (one unit,
// or for large classes each class's estimate, the choice, the parts of each file that keeps
// values and their assembly), then the parts of its distance files (as many a class as the
// pair's ranges), then their assembly; a pair that reads a cut pair waits for the assembly. Ranges
// exchange nothing: king moves keep a men configuration or lead to its flip's, which the range
// solves with it (a component, gen/solve/component_solver.hpp, or a group of the byte-a-position
// solver); man moves lead to the slice before; captures to smaller classes. Only a slice solved a
// configuration at a time into its unit is cut (gen/solve/compact/compact_solver.hpp:
// slice_cuts_into_ranges); its other slices are one range each.
//
// The rule (automatic): on R > 1 workers, a pair in units is cut into R ranges when its modelled
// time is at least cut_share of the run's time over R (the sum of the pairs' over R): the pairs
// long against a worker's share of the run, which are the ones that make the heaviest chain.
// Forced (tests, `damas-mpi gen --cut-slices K`): every pair in units into K ranges (1: none).
//
// The model: a pair's time less its loads is split into its solving, spread over its slices by
// their positions and over a slice's ranges evenly, and the writing of its files (write_share of
// it: measured on english 2-5 in units, its 22 pairs of more than 1 M positions, writing against
// solving after the loads, 2 threads); a range of slice 0 loads every class the pair reads
// (inputs_load_seconds), later ranges none (a worker that solved a range of the slice before
// holds them; with R ranges a slice on R workers, each takes one of every slice).
//
// No MPI here: plain data, tested on its own (tests/gen/test_cut_slices.cpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "gen/options.hpp"
#include "gen/plan/pair_graph.hpp"
#include "gen/plan/plan.hpp"

namespace damas {

// The share of a pair's time (without its loads) its writing takes in the model.
inline constexpr double write_share = 0.35;
// Of a cut pair's writing: its wdl files (the classes' counts and estimates, the file that keeps
// the values) and the assembly of its distance files from their parts; the rest is the parts,
// spread over the classes and a class's parts evenly. Measured on international 2-5 MTC pairs
// in units (2021 + 2120, 83 M positions: 6.1 s of 12.9 s in wdl files, 2 threads, *loaded*).
inline constexpr double write_wdl_share = 0.47;
inline constexpr double write_assemble_share = 0.02;
// The wdl files of large classes written in parts, against the same files written as one unit
// (the time above): each class's estimate (its codecs' estimates on every 16th block, its
// counts), the choice (the kept file's model from a pass over its class), the parts of the
// files (spread evenly) and their assembly (a copy: an allowance for a shared filesystem).
// Measured on english 2-6 MTC, 1221 + 2112 (217.8 M positions) in units cut over 3 ranks of 1
// thread, CPU against main's one unit, 9.10 s: estimates 1.82 s and 1.86 s, choice 3.41 s,
// parts 4.93 s in all, assembly 0.01 s (*loaded*). They sum to 1.33 times the one unit: the
// parts read their values from the units again and compute the context flags again, which the
// one unit holds from its model's pass.
inline constexpr double wdl_estimate_share = 0.20;  // a class
inline constexpr double wdl_choice_share = 0.375;
inline constexpr double wdl_parts_share = 0.54;
inline constexpr double wdl_assemble_share = 0.02;
// A pair is cut on R workers when its time is at least this share of the run's time over R.
inline constexpr double cut_share = 0.125;

struct WorkNode {
    enum class Kind : std::uint8_t {
        pair,        // a pair solved and written by one worker
        range,       // range `range` of `ranges` of slice `slice` of a cut pair (0 of 1: the slice)
        write_wdl,   // a cut pair's wdl files, from its units (one unit: small classes)
        write_part,  // part `range` of `ranges` of class `cls`'s distance file, from its units
        write,       // a cut pair's distance files, assembled from their parts
        wdl_estimate,  // class `cls`'s wdl coding, estimated bytes and counts (large classes)
        wdl_choice,    // a cut pair's wdl files' layout and models, from the estimates
        wdl_part,      // part `range` of `ranges` of the `cls`-th wdl file that keeps values
        wdl_write,     // a cut pair's wdl files, assembled from their parts
    };
    Kind kind = Kind::pair;
    std::size_t pair = 0;  // in the plan
    int slice = -1;
    int range = 0, ranges = 1;
    int cls = 0;
};

struct WorkGraph {
    std::vector<WorkNode> nodes;
    // One entry a node, in the nodes' order (every node after those it reads): its pair's first
    // class, its positions (a range: its share of the slice's; the writing: the pair's over 4),
    // what it reads, its heaviest chain.
    PairGraph graph;
    std::vector<double> seconds;  // modelled, a node
    // Per pair of the plan: the ranges of each slice (empty where the pair is not cut), and the
    // parts of each class's distance file.
    std::vector<std::vector<int>> ranges_by_slice;
    std::vector<std::vector<int>> parts_by_class;
    // Per pair: the parts of each wdl file that keeps values, where they are written in parts
    // (empty: one unit of work, write_wdl).
    std::vector<std::vector<int>> wdl_parts;
    std::size_t pairs_cut = 0, slices_cut = 0;  // slices cut into 2 ranges or more
};

// The ranges each pair of the plan is cut into (1: not cut) on `workers` workers: by the rule
// above, or, when forced > 0, every pair in units into `forced`. Throws Error if forced < 0.
std::vector<int> cut_ranges(const GenerationPlan& plan, int workers, int forced = 0);

// The units of work of the plan's pairs (`pairs`: plan_graph(plan)), pair i cut into ranges[i]
// ranges where its slices can be (a slice into at most as many ranges as class 0 has men
// configurations there). `o`: the run's options (the variant and the unit chunks).
// wdl_parts: the wdl files of cut pairs of large classes written in parts (else one unit a pair).
WorkGraph work_graph(const GenerateOptions& o, const GenerationPlan& plan, const PairGraph& pairs,
                     const std::vector<int>& ranges, bool wdl_parts = true);
// Of the graphs with and without the wdl files in parts, the one whose modelled time on
// `workers` workers is shorter: the parts shorten the heaviest chain but add work (a third of
// the wdl files' writing), which a run bounded by its work over the workers does not repay.
WorkGraph faster_work_graph(const GenerateOptions& o, const GenerationPlan& plan,
                            const PairGraph& pairs, const std::vector<int>& ranges, int workers);

// The heaviest chain of a graph of units of work (node n taking seconds[n]): its nodes, first to
// last, and the seconds it spends in each kind of node (pairs, ranges, writing: wdl files,
// parts, assembly).
struct HeaviestChain {
    std::vector<std::size_t> nodes;
    double pair_seconds = 0, range_seconds = 0, write_seconds = 0;
};
HeaviestChain heaviest_chain(const WorkGraph& w);

}  // namespace damas
