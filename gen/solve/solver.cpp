// The coordinator of a pair's slices (gen/solve/solver.hpp): which way each slice is solved, the
// slice before it, where its values go, and the progress and times over the slices. The parts:
// gen/solve/pair_tables.hpp (what every part reads), gen/solve/previous_slice.hpp (the slice its
// man moves reach), gen/solve/whole_slice_solver.hpp and gen/solve/component_solver.hpp (the two
// ways of solving a slice, sharing gen/solve/position_initialiser.hpp, gen/solve/predecessors.hpp
// and gen/solve/position_state.hpp), gen/solve/slice_output.hpp (held or streamed values) and
// gen/solve/solve_progress.hpp.
#include "gen/solve/solver.hpp"

#include <tbb/global_control.h>

#include <algorithm>
#include <memory>
#include <utility>

#include "gen/process/huge_pages.hpp"
#include "gen/solve/component_solver.hpp"
#include "gen/solve/pair_tables.hpp"
#include "gen/solve/previous_slice.hpp"
#include "gen/solve/slice_output.hpp"
#include "gen/solve/solve_progress.hpp"
#include "gen/solve/whole_slice_solver.hpp"
#include "gen/units/unit_file.hpp"
#include "rules/error.hpp"

namespace damas {
namespace {

using solving::PreviousChunks;

// Whether a slice is solved as components of two men configurations
// (gen/solve/component_solver.hpp): where men only move forward, when it has enough of them to keep
// the threads busy, and they are small enough for a buffer per thread.
constexpr std::uint64_t largest_component_kings = std::uint64_t{1} << 20;
bool solved_by_components(bool men_move_sideways, std::uint64_t men_in_slice,
                          std::uint64_t kings_per_men, int threads, bool in_units) {
    const std::uint64_t t = static_cast<std::uint64_t>(threads);
    if (men_move_sideways || men_in_slice < 4 * t) return false;
    // In units, wherever a thread's buffers (96 bytes a kings placement) take less than the
    // slice solved whole would (8 bytes a position of both classes).
    return kings_per_men <= largest_component_kings ||
           (in_units && kings_per_men < (std::uint64_t{1} << 31) && 6 * t <= men_in_slice);
}

bool men_move_sideways(const Variant& v) {
    return dispatch(v.base, [](auto rules) { return decltype(rules)::men_move_sideways; });
}

class PairSolver {
  public:
    PairSolver(const Variant& v, const PairLayout& layout, const SolvedStore& store,
               const SlicesToSolve& slices, SliceSolving solving)
        : tables_((check_solvable(v, slices.metric), v), layout, store, slices.metric),
          slices_(slices),
          solving_(solving),
          men_move_sideways_(men_move_sideways(v)),
          progress_(slices.progress, layout.positions()) {
        // The states of the largest slice solved whole (none if every one is in components).
        std::uint64_t largest = 0;
        for (int s = 0; s < layout.slice_count(); ++s)
            if (!by_components(s)) largest = std::max(largest, layout.slice_positions(s));
        if (largest >= state_word_slice_limit)
            throw Error("class " + tables_.materials[0].name() +
                        " has a slice too large for the solver (2^32)");
        if (largest > 0) whole_ = solving::make_whole_slice_solver(tables_, previous_, largest);
    }

    // Solves the slices asked for, handing each to `solved` once solved; `previous` holds the
    // values of the slice before the first (none when that is slice 0). With open_unit, the slice
    // before is read from its unit file instead (`previous` unused).
    void run(SliceValues previous, const SliceFn& solved) {
        const int first = slices_.first;
        if (open_unit() && first > 0) {
            std::unique_ptr<UnitReader> unit = open_unit()(first - 1);
            previous_.read(tables_.slice_layout(first - 1), std::move(unit));
        } else if (previous.slice >= 0) {
            const int s = previous.slice;
            previous_.hold(tables_.slice_layout(s), std::move(previous));
        }
        std::uint64_t done = 0;
        for (int s = 0; s < first; ++s) done += tables_.layout.slice_positions(s);
        progress_.start(done);
        if (slices_.ranges > 1 && end() != first + 1)
            throw Error("a range of configurations is of one slice");
        for (int s = first; s < end(); ++s) solve_slice(s, solved);
        if (slices_.times) *slices_.times = times_;
    }

  private:
    const OpenUnit& open_unit() const { return slices_.open_unit; }
    const OpenUnitStream& stream_unit() const { return slices_.stream_unit; }
    int end() const { return slices_.end < 0 ? tables_.layout.slice_count() : slices_.end; }

    bool by_components(int s) const {
        return solving_ == SliceSolving::automatic &&
               solved_by_components(men_move_sideways_, tables_.layout.men_in_slice(0, s),
                                    tables_.kings_per_men(), threads_,
                                    static_cast<bool>(open_unit()));
    }

    // Solves slice s, hands its values on, and keeps it as the slice before the next one (the
    // only one the next one's man moves read).
    void solve_slice(int s, const SliceFn& solved) {
        solving::SliceLayout slice = tables_.slice_layout(s);
        const bool components = by_components(s);
        const std::uint64_t positions = tables_.layout.slice_positions(s);
        progress_.begin_slice(positions);
        SliceValues values;
        const bool streamed =
            stream_unit() && open_unit() && components &&
            UnitStream::streams(tables_.kings_per_men(), tables_.layout.unit_chunk_positions());
        if (slices_.ranges > 1 && !streamed)
            throw Error("slice " + std::to_string(s) + " of " + tables_.materials[0].name() +
                        " is not solved a configuration at a time: it cannot be cut into ranges");
        if (streamed) {
            output_.stream(stream_unit()(s));
            solve(slice, components);
            output_.close_stream();
        } else {
            output_.hold(s, positions);
            solve(slice, components);
            values = output_.take_values();
            solved(values);
        }
        if (s + 1 == end()) return;  // no slice after it here (with a range: not complete)
        if (open_unit()) {
            values = {};
            std::unique_ptr<UnitReader> unit = open_unit()(s);
            previous_.read(std::move(slice), std::move(unit));
        } else {
            previous_.hold(std::move(slice), std::move(values));
        }
    }

    void solve(const solving::SliceLayout& slice, bool components) {
        if (components) {
            if (!components_) components_ = solving::make_component_solver(tables_, previous_);
            components_->solve(
                slice, configuration_range(slice.men[0].size(), slices_.range, slices_.ranges),
                output_, times_);
        } else {
            whole_->solve(slice, output_, progress_, times_);
        }
        progress_.slice_finished();
    }

    const solving::PairTables tables_;
    const SlicesToSolve& slices_;
    const SliceSolving solving_;
    const bool men_move_sideways_;
    const int threads_ = static_cast<int>(
        tbb::global_control::active_value(tbb::global_control::max_allowed_parallelism));
    solving::SolveProgress progress_;
    SolveTimes times_;
    solving::PreviousSlice previous_;
    solving::SliceOutput output_;  // the values of the slice being solved
    std::unique_ptr<solving::WholeSliceSolver> whole_;
    std::unique_ptr<solving::ComponentSolver> components_;
};

}  // namespace

std::uint64_t solver_result_bytes(const BoardSpec& board, Material m) {
    const std::uint64_t n = ClassIndex(board, m).size();
    return 3 * (m == m.mirrored() ? n : 2 * n);  // a class and its mirror have the same size
}

std::uint64_t solver_bytes(const Variant& v, Material m, int threads, bool in_units,
                           bool whole_slices_compact) {
    const BoardSpec board = v.info().board;
    const ClassIndex index(board, m), mirror(board, m.mirrored());
    const bool single = m == m.mirrored();
    const bool sideways = men_move_sideways(v);
    const std::uint64_t kings_per_men = index.kings_per_men();
    std::uint64_t pair = index.size() + (single ? 0 : mirror.size()), largest = 0, per_thread = 0;
    for (int s = 0; s < index.slice_count(); ++s) {
        if (solved_by_components(sideways, index.men_in_slice(s), kings_per_men, threads, in_units))
            // A component buffer: 4 bytes of state for each of 2 x kings_per_men positions (8),
            // the buckets' room kept between components (up to 8 entries: 32), and their entries
            // within a component (about 3 per position, with the vectors' slack: 48).
            per_thread = 96 * kings_per_men;
        else if (!whole_slices_compact)
            largest = std::max(
                largest, index.positions_in_slice(s) + (single ? 0 : mirror.positions_in_slice(s)));
    }
    // Plus, with components, each class's table of flipped kings indices (4 bytes per index).
    const std::uint64_t flipped = per_thread > 0 ? 8 * kings_per_men : 0;
    // In units, the results are not held, and each thread keeps decoded chunks of the slice
    // before (PreviousChunks: 2 bytes a position, 64 Ki positions or one men configuration each).
    const std::uint64_t results = in_units ? 0 : 3 * pair;
    const std::uint64_t chunks =
        in_units && index.slice_count() > 1
            ? PreviousChunks::capacity * 2 * std::max<std::uint64_t>(kings_per_men, 1 << 16)
            : 0;
    return results + 8 * largest + largest / 4 + flipped +
           static_cast<std::uint64_t>(threads) * (per_thread + chunks);
}

void check_solvable(const Variant& v, Metric metric) {
    if (metric == Metric::mtc && men_move_sideways(v))
        throw Error(v.name() +
                    ": --metric mtc is not available where men move sideways (their moves "
                    "stay in a slice; docs/generating.md)");
    if (!is_distance(metric)) throw Error("the solver computes dtw or mtc");
}

void solve_slices(const Variant& v, const PairLayout& layout, const SolvedStore& store,
                  const SlicesToSolve& slices, SliceValues previous, const SliceFn& solved,
                  SliceSolving solving) {
    PairSolver(v, layout, store, slices, solving).run(std::move(previous), solved);
}

ConfigurationRange configuration_range(std::uint64_t n, int r, int ranges) {
    if (ranges < 1 || r < 0 || r >= ranges) throw Error("bad range of configurations");
    // n * k / ranges without overflow: n = q * ranges + rest.
    const std::uint64_t q = n / static_cast<unsigned>(ranges),
                        rest = n % static_cast<unsigned>(ranges);
    const auto at = [&](int k) {
        const auto uk = static_cast<std::uint64_t>(k);
        return q * uk + rest * uk / static_cast<unsigned>(ranges);
    };
    return {at(r), at(r + 1)};
}

bool slice_in_components(const Variant& v, const ClassIndex& index, int slice, int threads) {
    const bool sideways = men_move_sideways(v);
    return solved_by_components(sideways, index.men_in_slice(slice), index.kings_per_men(), threads,
                                true);
}

std::uint64_t largest_whole_slice(const Variant& v, Material m, int threads, bool in_units) {
    const BoardSpec board = v.info().board;
    const ClassIndex index(board, m), mirror(board, m.mirrored());
    const bool sideways = men_move_sideways(v);
    std::uint64_t largest = 0;
    for (int s = 0; s < index.slice_count(); ++s)
        if (!solved_by_components(sideways, index.men_in_slice(s), index.kings_per_men(), threads,
                                  in_units))
            largest = std::max(largest, index.positions_in_slice(s) +
                                            (m == m.mirrored() ? 0 : mirror.positions_in_slice(s)));
    return largest;
}

std::uint64_t held_slice_positions(const Variant& v, Material m, int threads,
                                   std::uint64_t chunk_positions, bool whole_slices_compact) {
    const BoardSpec board = v.info().board;
    const ClassIndex index(board, m), mirror(board, m.mirrored());
    const bool sideways = men_move_sideways(v);
    std::uint64_t largest = 0;
    for (int s = 0; s < index.slice_count(); ++s) {
        const bool components = solved_by_components(sideways, index.men_in_slice(s),
                                                     index.kings_per_men(), threads, true);
        const bool streamed =
            UnitStream::streams(index.kings_per_men(), chunk_positions) && components;
        if (!streamed && (components || !whole_slices_compact))
            largest = std::max(largest, index.positions_in_slice(s) +
                                            (m == m.mirrored() ? 0 : mirror.positions_in_slice(s)));
    }
    return largest;
}

std::vector<PairResult> solve_pair(const Variant& v, Material m, const SolvedStore& store,
                                   const ProgressFn& progress, SolveTimes* times,
                                   SliceSolving solving, const GenerationTuning& tuning,
                                   Metric metric) {
    const PairLayout layout(v.info().board, m, tuning);
    std::vector<PairResult> results;
    for (int c = 0; c < layout.classes(); ++c) {
        const std::uint64_t n = layout.index(c).size();
        results.push_back(
            {layout.material(c), huge_vector<std::uint16_t>(n), std::vector<std::uint8_t>(n)});
    }
    const SlicesToSolve every_slice{.progress = progress, .times = times, .metric = metric};
    solve_slices(
        v, layout, store, every_slice, {},
        [&](const SliceValues& slice) {
            for (int c = 0; c < layout.classes(); ++c)
                scatter_slice(layout, c, slice, results[c].outcomes, results[c].capture);
        },
        solving);
    return results;
}

}  // namespace damas
