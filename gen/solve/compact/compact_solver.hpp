// The retrograde solver of slices too large for gen/solve/solver.hpp's states: a byte a position.
//
// Owns: solving the slices of a class pair in units with a byte of state per position of the
// slice being solved, a bit per position saying which must capture (or none, where the plan has
// it test the positions again: GenerationTuning::compact_capture_bits), and a map for the rare
// values a byte cannot hold. The slice before it (which its man moves reach) is not held: its
// unit file is read a chunk at a time (each thread keeps the chunks it read last), in position
// order, since a position's exits are near its own rank in the configurations its man moves
// reach; where a loss must be worked out again from its exits, those positions are batched and
// sorted first (turkish 1213 + 1312 held two slices of 40-50 G positions). It
// answers the classes with few men configurations (international 0403 + 0304: one slice of 7.0 G
// positions, 78 GiB with the 11 bytes a position the other solver takes, 8.3 GiB here), which
// neither components (a component is a whole men configuration) nor units (a unit is a slice)
// make smaller. A turkish class pair without men where a side has an odd number of kings is
// held a quarter: one position of each four that reversing the files, the rows, or both relates
// (gen/solve/king_quarters.hpp), each written to the unit from the one held (turkish 0304 + 0403:
// 43.5 G positions, 10.9 G held).
//
// Why a byte, and not a split of the kings placements: a king move leads from any placement
// to many others, so a split needs every part's updates exchanged at every level
// (docs/distributed.md), while a byte per position brings the solver's part of every pair of
// international 2-7 and english 2-8 within 16 GiB on one machine. It is about 4.6 times slower
// per position than the state words of gen/solve/solver.hpp (every move is generated, no
// king-rank shortcuts), so the plan takes it only for the pairs where the state words do not
// fit, and in those only for the slices they would solve whole, unless men configurations are
// so large that its unit chunks split them.
//
// How: each position's byte (gen/solve/compact/byte_code.hpp) starts as what its exits tell: a
// win or loss at the level it may resolve at, a draw, or its pending count. Levels are resolved
// in increasing distance as in gen/solve/solver.hpp, each level found by scanning the bytes for
// its two codes. A loss offers its predecessors a win in d + 1; a win takes one from their
// pending count, and the last one schedules a loss at the longest of d + 1 and the exits' losses
// (worked out again then, from the moves: gen/solve/compact/deferred_losses.hpp). The values
// are the same as the other solver's, position for position (tests/gen compare the files).
//
// Its parts, in gen/solve/compact/: byte_code.hpp (what a byte says), slice_groups.hpp (the
// groups of configurations), group_index.hpp (where a position is held), overflow.hpp (the
// distances beyond a byte), deferred_losses.hpp (the losses batched), previous_unit.hpp (the
// slice before), group_progress.hpp (the progress told), compact_solver.cpp (the solver, which
// ties them together) and cost_model.cpp (what the plan needs: its memory and groups).
#pragma once

#include <cstdint>
#include <functional>
#include <span>

#include "gen/options.hpp"
#include "gen/solve/solver.hpp"
#include "gen/store/solved_store.hpp"
#include "gen/units/pair_layout.hpp"
#include "gen/units/unit_file.hpp"

namespace damas {

// Takes a solved slice, its values given chunk by chunk (gen/units/unit_file.hpp writes its unit).
using CompactSliceFn = std::function<void(int slice, const SliceChunkFn& values)>;

// Solves the pair's slices from slices.first to before slices.end, each handed to `solved` once
// solved, or, where slices.stream_unit is given and men configurations have at least 4 Ki
// positions, solved a group of configurations at a time into the unit stream_unit opens (groups:
// the configurations quiet moves connect); the slice before the first is read from its unit file
// (slices.open_unit, which is required), written by either solver. Throws DamagedUnit if that
// one is damaged. `tuning`: the distances a byte holds and the losses batched
// (compact_byte_distances, compact_deferred_batch); the unit chunks are the layout's.
void solve_slices_compact(const Variant& v, const PairLayout& layout, const SolvedStore& store,
                          const GenerationTuning& tuning, const SlicesToSolve& slices,
                          const CompactSliceFn& solved);

// A pair is solved in units either with this solver for every slice, or, hybrid, with it for
// the slices gen/solve/solver.hpp would solve whole and as components for the others (most of a
// class's positions, at the other solver's speed). Every slice by this solver where men
// configurations are larger than this (64 unit chunks of chunk_positions: 4 Mi positions),
// whose unit chunks are parts of a configuration, which the other solver does not read.
bool compact_splits_configurations(std::uint64_t kings_per_men, std::uint64_t chunk_positions);

// Whether a pair in units (`compact`: one the plan gives this solver) solves slice s with this
// solver on `threads` threads, with unit chunks of chunk_positions: every slice where it splits
// configurations, else the slices the other solver would solve whole.
bool slice_by_bytes(const Variant& v, const ClassIndex& index, int slice, int threads,
                    std::uint64_t chunk_positions, bool compact);
// Whether a pair in units solves slice s a men configuration (or group) at a time straight
// into its unit file: as components (gen/solve/solver.hpp) or by this solver's groups, either
// where configurations have at least a sixteenth of a chunk's positions (UnitStream::streams).
// Only these slices can be cut into ranges of configurations (SlicesToSolve::ranges), each
// solved on its own (damas-mpi: docs/distributed.md).
bool slice_cuts_into_ranges(const Variant& v, const ClassIndex& index, int slice, int threads,
                            std::uint64_t chunk_positions, bool compact);

// The memory solve_slices_compact needs for m's pair: a byte and a bit per position of its
// largest slice or group, a 32nd of a byte more for the losses batched (defer_loss), the threads'
// chunks of the slice before and buffers. hybrid: for the slices it solves in a hybrid run alone.
// chunk_positions: the unit chunks' (GenerationTuning::unit_chunk_positions). capture_bits:
// GenerationTuning::compact_capture_bits (without, no bit a position).
std::uint64_t compact_solver_bytes(const Variant& v, Material m, int threads, bool hybrid,
                                   std::uint64_t chunk_positions, bool capture_bits = true);
// The most positions of a group of m's pair (a configuration and its flip's; on the turkish
// board, those with the same men per row), where slices are solved by groups.
std::uint64_t compact_group_positions(const Variant& v, Material m);

}  // namespace damas
