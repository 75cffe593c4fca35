// Retrograde solver of one class pair: a class C and its mirror M, solved together because a
// quiet move from one leads (after the colour flip) to the other. For C == M the pair is one class.
//
// Owns: the game values and DTW of every position of the pair, from the values of the smaller
// classes already solved (SolvedStore). The pair is solved slice by slice (index/class_index.hpp),
// most advanced men first: king moves (and turkish sideways man moves) stay in a slice, other
// man moves lead to a slice solved before. Per slice (work ~ positions x branching factor):
//  1. Initialise every position once. Moves that leave the slice are "exits": captures and
//     crowning moves (looked up in the store) and man moves (looked up in the pair's results).
//     Only those are generated; the moves that stay are counted (`pending`). The best exit win
//     gives a tentative win distance; exit losses give the longest loss so far; an exit draw
//     rules out a loss. The man moves and their successors' men configurations are found once
//     per men configuration, for all its kings_per_men() positions: a position only needs the
//     kings index of each successor (and skips the moves a king blocks), worked out from the
//     ranks of its kings among the free squares (gen/solve/king_ranks.hpp). The captures' outcomes
//     in smaller classes are located for 32 positions at a time and prefetched before they are
//     read. Tasks take parts of at most 64 Ki positions of a men configuration, so that a slice of
//     few configurations (a class without men has one) keeps every thread busy.
//  2. Resolve by increasing distance d, one level per distance: the positions pushed to d
//     (initialisation and longest losses: a bucket per distance; predecessors that may resolve
//     at d: a bitmap filled while resolving d - 1). The level is walked as a bitmap, so each
//     position is visited once and in state order, which keeps the predecessors of consecutive
//     positions in the same few men configurations (cache lines). A position visited at d is
//     a win in d if its best win distance is d, or a loss in d when every move is known to lose
//     (pending == 0) and the longest is d. Each resolved position walks its un-moves
//     (rules/unmove.hpp) inside the slice: a loss in d offers its predecessors a win in d + 1; a
//     win in d takes one from their pending count and may complete a loss. Predecessors that
//     must capture are skipped (the quiet move is illegal there). The slice keeps, per men
//     configuration, its men and the first state of its flip's men, so a resolved position is
//     rebuilt from its kings index alone, and a king un-move's predecessor is one kings index
//     away from that first state. Where men only move forward, the un-moves in the slice are
//     king un-moves only, worked out on ranks among the free squares (no position is built),
//     and they lead from a men configuration to its flip's only: each task takes whole men
//     configurations, so updates need no atomic read-modify-write.
//  3. Positions never resolved are draws; the slice's values go to the pair's result arrays.
// Distances only grow from one level to the next, so each level is processed in parallel and
// the result does not depend on the order or the thread count.
//
// MTC (SlicesToSolve::metric, `damas gen --metric mtc`): the plies to the next conversion (a
// capture, a man move, or the end of the game), the winner converting as soon as it can into a
// position it still wins, the loser delaying it as long as it can. Every conversion leaves the
// slice and every move that stays is a king move, so the same pass solves it: each exit counts
// 1 whatever its distance after (only its value matters: solving::Exits::conversions), a
// position with no legal move is a loss at 0, and the levels propagate over king moves as for
// DTW (a win in d offers d + 1, a loss is the longest). The values (win, draw, loss) are the same
// as DTW's, so the wdl files are the same bytes. Turkish is refused: its sideways man moves stay
// in the slice, so as conversions they would need the slice's own values first (two passes).
//
// Components. Where men only move forward (every variant but turkish), the quiet moves inside a
// slice are king moves, which keep the men: they lead from a men configuration to its flip's
// and back. So a slice falls apart into components of two men configurations (one where a
// configuration is its own flip), and a slice with enough of them (4 per thread) is solved
// component by component, each whole by one task, with the same rules as above: initialise its
// 2 x kings_per_men() positions, resolve them level by level from per-distance buckets, store the
// values. Its states (88 KiB for english 2211) stay in the core's cache through all its levels
// and tasks share nothing. A king un-move's predecessor is found on the kings' ranks: its kings
// index (before the flip) from the Black kings' ranks among the squares White's leave, then the
// flip by a per-class table (the flip of a kings index depends on the ranks alone). The kings
// counts are compile-time constants up to 3 a side, so these loops unroll. The updates are
// computed without branches (which outcome applies is unpredictable).
//
// Results: each slice's values (2 bytes of outcome and 1 of capture flag per position, in the
// slice's layout: gen/units/pair_layout.hpp) go to the caller as soon as the slice is solved, and
// the solver keeps only the slice before it, which its man moves reach. solve_pair gathers them
// into the pair's arrays; the bounded generator writes each to a unit file
// (gen/units/unit_file.hpp).
//
// Memory: the results (2 bytes of outcome and 1 of capture flag per position of the pair, held
// by solve_pair's caller; two slices' worth in the solver), plus, for slices solved whole, 4 bytes
// of state, 2 bits of level bitmaps and at most 4 of bucket entries per position of the largest
// such slice, and for components a buffer per thread of about 96 bytes per kings placement and the
// flip tables (solver_bytes). The state, the bitmaps and the results are accessed at random and
// asked for 2 MiB pages.
//
// Parts (each file says what it owns): gen/solve/solver.cpp coordinates the slices (which way each
// is solved, where its values go); gen/solve/whole_slice_solver.hpp and
// gen/solve/component_solver.hpp solve a slice, sharing gen/solve/position_state.hpp (the state
// word and its rules), gen/solve/position_initialiser.hpp (step 1), gen/solve/predecessors.hpp (the
// un-moves of step 2) and gen/solve/pair_tables.hpp; gen/solve/previous_slice.hpp holds the slice
// before, gen/solve/slice_output.hpp the values of the slice being solved or their unit stream.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "gen/options.hpp"
#include "gen/store/solved_store.hpp"
#include "gen/units/pair_layout.hpp"
#include "index/class_index.hpp"

namespace damas {

struct PairResult {
    Material material;
    std::vector<std::uint16_t> outcomes;  // packed (solved_store.hpp), by index
    std::vector<std::uint8_t> capture;    // 1 where the side to move must capture
};

// The memory solve_pair needs for m and its mirror on `threads` threads: 3 bytes per position of
// the pair (the results), 8 per position of the largest slice solved whole (state and bucket
// entries) and 2 bits (level bitmaps), and the components' buffers and tables. in_units: what
// solve_slices needs with open_unit instead (no results; larger components; the threads' chunks
// of the slice before), the values of the slice being solved not counted.
// whole_slices_compact: in units, the slices not solved as components go to the byte-a-position
// solver (gen/solve/compact/compact_solver.hpp), whose memory is counted there.
std::uint64_t solver_bytes(const Variant& v, Material m, int threads, bool in_units = false,
                           bool whole_slices_compact = false);
// The part of it that solve_pair returns: the results alone.
std::uint64_t solver_result_bytes(const BoardSpec& board, Material m);

using ProgressFn = std::function<void(std::uint64_t done, std::uint64_t total)>;

// Wall time of the solver's two phases, over all slices (for the generator's report).
struct SolveTimes {
    double initialise = 0;         // seconds initialising positions (exits looked up)
    double resolve = 0;            // seconds resolving them level by level
    std::uint64_t components = 0;  // solved as components (the rest in slices solved whole)
};

// How slices are solved: as components where possible, or every one whole (tests compare them).
enum class SliceSolving { automatic, whole };

using SliceFn = std::function<void(const SliceValues&)>;
class UnitReader;
class UnitStream;
// Opens the unit file of a slice already solved (gen/units/unit_file.hpp); throws DamagedUnit.
using OpenUnit = std::function<std::unique_ptr<UnitReader>(int slice)>;
// Creates the unit file of a slice, to be written as its men configurations are solved.
using OpenUnitStream = std::function<std::unique_ptr<UnitStream>(int slice)>;

// The positions of the largest slice of m's pair whose values solve_slices holds whole in units
// (with stream_unit) and unit chunks of chunk_positions: the slices it solves as components of
// men configurations large enough for a unit chunk each are streamed instead.
std::uint64_t held_slice_positions(const Variant& v, Material m, int threads,
                                   std::uint64_t chunk_positions,
                                   bool whole_slices_compact = false);
// The solver of state words numbers the positions of a slice it solves whole in 32 bits.
inline constexpr std::uint64_t state_word_slice_limit = std::uint64_t{1} << 32;
// The positions of the largest slice of m's pair that solve_pair (in_units false) or solve_slices
// in units would solve whole rather than as components: at state_word_slice_limit or more the
// pair needs the byte-a-position solver (english 0504 + 0405: one slice of 7.07 G positions).
std::uint64_t largest_whole_slice(const Variant& v, Material m, int threads, bool in_units);
// Whether solve_slices, in units on `threads` threads, solves the slice as components of men
// configurations (the others are solved whole).
bool slice_in_components(const Variant& v, const ClassIndex& index, int slice, int threads);

// The slices of a pair a solver is asked for, most advanced first, with the unit files it reads
// and streams to and what it reports (solve_slices, and gen/solve/compact/compact_solver.hpp's
// solve_slices_compact).
struct SlicesToSolve {
    int first = 0;
    int end = -1;  // the slice to stop before (-1: the last)
    // In units: opens the unit file of a slice solved (the one before `first`, and each one once
    // handed out), and creates the unit file a slice is streamed to.
    OpenUnit open_unit = {};
    OpenUnitStream stream_unit = {};
    ProgressFn progress = {};
    SolveTimes* times = nullptr;  // filled at the end when given
    Metric metric = Metric::dtw;  // the distance solved: dtw or mtc (above)
    // Only range `range` of `ranges` of the one slice asked for (end == first + 1): the
    // components (or the byte-a-position solver's groups) whose first men configuration is in
    // that range of class 0's configurations of the slice (configuration_range), streamed by
    // stream_unit to the range's part of the unit (gen/units/unit_file.hpp). damas-mpi cuts a
    // slice over ranks this way (docs/distributed.md); only a slice solved a configuration at a
    // time into its unit can be cut (slice_streamed_in_units). 0 of 1: the whole slice.
    int range = 0, ranges = 1;
};

// Range r of `ranges` of n configurations (or groups): [first, end), as even as integers allow.
struct ConfigurationRange {
    std::uint64_t first = 0, end = 0;
};
ConfigurationRange configuration_range(std::uint64_t n, int r, int ranges);

// Throws Error if the variant's pairs cannot be solved for `metric` (mtc: turkish, above).
void check_solvable(const Variant& v, Metric metric);

// Solves the slices of the pair `layout` from slices.first to before slices.end, handing each to
// `solved` as soon as it is solved: the unit of work of the bounded-memory generator.
// `previous` holds the values of slice first - 1 (nothing when first is 0), which its man moves
// reach. Memory: the solver's working set (solver_bytes without the results) and two slices'
// values. The store must hold every class that the pair's exits can reach.
// With open_unit (the bounded generator, once `solved` has written each slice's unit file), the
// solver keeps no slice it has handed out: the slice before is read from its unit file a chunk
// at a time (`previous` unused), and slices with larger components are solved as components, so
// that its memory is the values of the slice being solved and buffers per thread. A damaged unit
// file read meanwhile throws DamagedUnit. With stream_unit too, the slices solved as components
// of men configurations of a sixteenth of the layout's unit chunk or more (4 Ki positions:
// UnitStream::streams) are written to their unit files a configuration at a time
// (`solved` is not called for them), so that not even the slice being solved is held.
void solve_slices(const Variant& v, const PairLayout& layout, const SolvedStore& store,
                  const SlicesToSolve& slices, SliceValues previous, const SliceFn& solved,
                  SliceSolving solving = SliceSolving::automatic);

// Solves m and m.mirrored() (one result if they are equal) into arrays in class index order.
// The store must hold every class that m's exits can reach (SolvedStore::load_below). `tuning`:
// the layout's mode (PairLayout).
std::vector<PairResult> solve_pair(const Variant& v, Material m, const SolvedStore& store,
                                   const ProgressFn& progress = {}, SolveTimes* times = nullptr,
                                   SliceSolving solving = SliceSolving::automatic,
                                   const GenerationTuning& tuning = {},
                                   Metric metric = Metric::dtw);

}  // namespace damas
