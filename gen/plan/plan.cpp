#include "gen/plan/plan.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <thread>

#include "gen/plan/disk_model.hpp"
#include "gen/solve/compact/compact_solver.hpp"
#include "gen/solve/king_quarters.hpp"
#include "gen/solve/solver.hpp"
#include "gen/store/solved_store.hpp"
#include "gen/units/class_stream.hpp"
#include "gen/units/class_values.hpp"
#include "gen/units/pair_layout.hpp"
#include "gen/units/solved_class_file.hpp"
#include "gen/units/unit_file.hpp"
#include "gen/write/writer.hpp"
#include "index/class_index.hpp"
#include "rules/error.hpp"
#include "rules/variant.hpp"

namespace damas {
namespace {

// What a run takes beyond the modelled arrays: a twentieth of them for what grows with the
// classes but is not modelled (index tables: the model alone fell 2.6% short of english 2-6's
// peak and 4.5% short of international 2-5's), and the program's own (writer blocks, thread
// stacks, the libraries): 32 MiB and a quarter of the modelled bytes, at most 64 MiB (reached
// from 128 MiB modelled on, as before). Measured: english 2-4 at --memory 100M
// peaks at 22, 26 and 31 MiB on 1, 2 and 8 threads; english 2-5's pairs held whole at 135M
// peaked at 53-81 MiB where a flat 64 MiB planned 103-134 MiB, and refused budgets they fit.
std::uint64_t with_overhead(std::uint64_t modelled) {
    constexpr std::uint64_t base = std::uint64_t{32} << 20, most = std::uint64_t{64} << 20;
    return modelled + modelled / 20 + std::min(most, base + modelled / 4);
}

// A class the store holds: 2 bytes a position, or its values alone (2 bits) for a pair solved
// for mtc (`values`: gen/store/solved_store.hpp).
std::uint64_t store_bytes_of(const BoardSpec& board, Material m, bool values) {
    const std::uint64_t positions = ClassIndex(board, m).size();
    return values ? value_bytes(positions) : positions * sizeof(std::uint16_t);
}

// The most modelled bytes whose with_overhead() is within `budget` (with_overhead grows with
// what it is given: a binary search).
std::uint64_t within_overhead(std::uint64_t budget) {
    if (with_overhead(0) > budget) return 0;
    std::uint64_t fits = 0, over = budget + 1;  // with_overhead(x) > x
    while (over - fits > 1) {
        const std::uint64_t mid = fits + (over - fits) / 2;
        (with_overhead(mid) <= budget ? fits : over) = mid;
    }
    return fits;
}

// The block cache of the classes read through it: a sixteenth of the budget, 16 MiB to 1 GiB.
std::uint64_t cache_bytes_for(std::uint64_t budget) {
    return std::clamp<std::uint64_t>(budget / 16, std::uint64_t{16} << 20, std::uint64_t{1} << 30);
}

// Of the classes the pair reads, those held whole within `bytes`: the smallest first (a capture
// reaches the small classes most often for their size; the largest are the crowning classes of
// the pair's own size).
std::set<Material> held_within(const BoardSpec& board, const std::set<Material>& classes,
                               std::uint64_t bytes, bool values) {
    std::vector<std::pair<std::uint64_t, Material>> by_size;
    for (Material m : classes) by_size.emplace_back(store_bytes_of(board, m, values), m);
    std::sort(by_size.begin(), by_size.end());
    std::set<Material> held;
    std::uint64_t used = 0;
    for (const auto& [size, m] : by_size) {
        if (used + size > bytes) break;
        used += size;
        held.insert(m);
    }
    return held;
}

// Generation time in CPU-seconds a position, divided by the thread count for a run's time. A
// pair's cost is set by its kings (a king has many moves and un-moves, a man one or two) and its
// pieces: (46 + 36 kings) ns a position, 1.35 times that for each piece beyond 6 (longer captures,
// more pieces in reach); 0.7 us a position for a class without kings (one position per men
// configuration, its states read at random). Flying kings (up to 13 moves, 17 on 10x10, against 4)
// take 1.42 times as long, and on 10x10 1.15 times more for each piece from 6 pieces on. Pairs in
// units are 10% slower (their units are compressed, then read back), and classes loaded again
// from the files go at 20 M positions a second. The constants are least-squares fits to measured
// runs on this project's host (docs/performance.md, "The time model against measured runs");
// scripts/pair-rates.py refits them from a run's log. Beyond 7 pieces they are an extrapolation.
bool has_flying_kings(const Variant& v) {
    return dispatch(v.base, [](auto rules) { return decltype(rules)::flying_kings; });
}

double cpu_seconds_per_position(const Variant& v, Material m) {
    const int kings = m.white_kings + m.black_kings;
    if (kings == 0) return 0.7e-6;
    const double beyond_six = std::pow(1.35, std::max(0, m.pieces() - 6));
    const bool long_diagonals = v.info().board.width == 10;
    const double flying =
        1.42 * (long_diagonals ? std::pow(1.15, std::max(0, m.pieces() - 5)) : 1.0);
    return (46e-9 + 36e-9 * kings) * beyond_six * (has_flying_kings(v) ? flying : 1.0);
}
constexpr double units_slowdown = 1.1;
// The byte-a-position solver (gen/solve/compact/compact_solver.hpp) per position, against a pair
// held whole, 2 threads, *loaded*: international 0104 + 0401 (21.2 M positions, every slice by
// bytes: configurations split at the default unit chunk) 26.5-28.3 CPU-s against 8.2; english
// 0105 + 0501 (10.9 M) 5.9-6.0 against 2.2 (`damas gen -c C --compact` on a folder holding what
// the pair reads, and without `--compact`).
double compact_slowdown(const BoardSpec& board) {
    return board.width == 10 ? 3.4 : 2.7;
}
std::string one_decimal(double x) {
    char text[32];
    std::snprintf(text, sizeof text, "%.1f", x);
    return text;
}
// Without its bit a position of captures, it tests each predecessor a resolved position tells
// (international 0305: 37 a position, 0.1 us each, loaded, against its 6 us a position).
constexpr double captures_tested_slowdown = 1.6;
// Classes loaded again, positions a second: as outcomes (a pair solved for dtw; not measured
// since the solved class files), and as values from their values-only solved class files (a pair
// solved for mtc: 576 to 2,045 M a second on english 2-6's and international 2-5's largest
// classes, bench/solved_reload.cpp, 2 threads, the files in the page cache, *loaded*; a
// cluster's shared filesystem may be slower: the lowest figure, rounded down).
constexpr double reload_positions_per_second = 20e6;
constexpr double reload_values_per_second = 500e6;

// Unit files (3 bytes of values a position and the capture flags, compressed by zstd), bytes a
// position, measured as the most the units folder held while english 1122 + 2211 was solved in
// units (`gen -v english -p 6 -c 2211 --in-units`): dtw 0.73, mtc 0.18. The table files' bytes:
// gen/plan/disk_model.hpp.
constexpr double unit_bytes_per_position(Metric distance) {
    return distance == Metric::mtc ? 0.18 : 0.73;
}
// A unit chunk's frame while it is compressed (gen/units/chunked_file.hpp), at most the unit
// files' byte a position, in a vector that grows as zstd writes it.
constexpr std::uint64_t unit_frame_bytes(std::uint64_t positions) {
    return 2 * positions;
}

// The pairs in the order they are solved, each named by its first class.
std::vector<Material> pairs_of(const std::vector<Material>& classes) {
    std::vector<Material> pairs;
    std::set<Material> seen;
    for (Material m : classes) {
        if (seen.count(m)) continue;
        seen.insert(m);
        seen.insert(m.mirrored());
        pairs.push_back(m);
    }
    return pairs;
}

std::uint64_t largest_slice_positions(const BoardSpec& board, Material m);

// The memory of PairLayout (gen/units/pair_layout.hpp), in the mode it takes: the lists of the
// slices it keeps, 4 of them at 8 bytes a configuration (at most the largest slice's, both
// classes), and tabled, 6 bytes per men configuration of each class, or computed, 3 bytes per men
// group of each class and each list's directory (4 bytes a group).
std::uint64_t layout_bytes(const BoardSpec& board, Material m, const GenerationTuning& tuning) {
    const ClassIndex index(board, m);
    const std::uint64_t largest_slice_men =
        largest_slice_positions(board, m) / index.kings_per_men();
    const std::uint64_t lists = 4 * 8 * largest_slice_men;
    if (PairLayout::mode_for(board, m, tuning) == LayoutMode::tabled)
        return PairLayout::tabled_bytes(board, m) + lists;
    const std::uint64_t groups =
        index.men_group_count() +
        (m == m.mirrored() ? 0 : ClassIndex(board, m.mirrored()).men_group_count());
    return lists + 3 * groups + 4 * 4 * groups;
}

std::uint64_t largest_slice_positions(const BoardSpec& board, Material m) {
    const ClassIndex index(board, m), mirror(board, m.mirrored());
    std::uint64_t largest = 0;
    for (int s = 0; s < index.slice_count(); ++s)
        largest = std::max(largest, index.positions_in_slice(s) +
                                        (m == m.mirrored() ? 0 : mirror.positions_in_slice(s)));
    return largest;
}

// The most positions of a slice and the one before it, both classes: what the solver holds the
// values of while it solves a pair whole (gen/solve/solver.hpp: the slice being solved and the
// one before, which its man moves reach; a pair of one slice holds one).
std::uint64_t two_slices_positions(const BoardSpec& board, Material m) {
    const ClassIndex index(board, m), mirror(board, m.mirrored());
    std::uint64_t most = 0, before = 0;
    for (int s = 0; s < index.slice_count(); ++s) {
        const std::uint64_t n =
            index.positions_in_slice(s) + (m == m.mirrored() ? 0 : mirror.positions_in_slice(s));
        most = std::max(most, before + n);
        before = n;
    }
    return most;
}

// For each pair, the classes its solving reads (store_closure), and for each class the pairs
// that read it: when the store has room, what a later pair reads is kept rather than loaded and
// completed again (the later the next use, the sooner it is dropped).
class NextUses {
  public:
    explicit NextUses(const std::vector<Material>& pairs) {
        for (std::size_t i = 0; i < pairs.size(); ++i) {
            closures_.push_back(store_closure(pairs[i]));
            for (Material d : closures_.back()) uses_[d].push_back(i);
        }
    }
    const std::set<Material>& closure(std::size_t i) const { return closures_[i]; }
    // The first pair after `i` that reads d; SIZE_MAX if none.
    std::size_t after(Material d, std::size_t i) const {
        const auto it = uses_.find(d);
        if (it == uses_.end()) return SIZE_MAX;
        const auto at = std::upper_bound(it->second.begin(), it->second.end(), i);
        return at == it->second.end() ? SIZE_MAX : *at;
    }

  private:
    std::vector<std::set<Material>> closures_;
    std::map<Material, std::vector<std::size_t>> uses_;
};

// The modelled bytes a pair whose own need is `modelled` leaves for classes kept ahead: what
// the budget allows, less a thirty-second of it (the model's error: english 2-6 in 512 MiB
// peaked 34 MiB above its plan).
std::uint64_t room_for_kept(std::uint64_t budget, std::uint64_t modelled) {
    const std::uint64_t limit = within_overhead(budget - budget / 32);
    return limit > modelled ? limit - modelled : 0;
}

// Of the classes the store holds (`loaded`) that pair i does not read, those a later pair reads,
// soonest first, within `room` bytes (their total in `bytes`).
std::set<Material> kept_ahead(const BoardSpec& board, const NextUses& uses, std::size_t i,
                              const std::set<Material>& loaded, const std::set<Material>& closure,
                              std::uint64_t room, bool values, std::uint64_t& bytes) {
    std::vector<std::pair<std::size_t, Material>> by_use;
    for (Material d : loaded)
        if (!closure.count(d))
            if (const std::size_t next = uses.after(d, i); next != SIZE_MAX)
                by_use.emplace_back(next, d);
    std::sort(by_use.begin(), by_use.end());
    std::set<Material> kept;
    bytes = 0;
    for (const auto& [next, d] : by_use) {
        const std::uint64_t size = store_bytes_of(board, d, values);
        if (bytes + size > room) break;
        bytes += size;
        kept.insert(d);
    }
    return kept;
}

// The chunk tables of a pair's unit files (gen/units/unit_file.hpp): 40 bytes a chunk, and 4
// more where a reader keeps which file holds it. Solving, those of the slice being written twice
// (its chunk list and the file's table) and of the slice before, read; writing, those of every
// slice, which a class stream (gen/units/class_stream.hpp) reads at once. A slice's chunks are at
// most its men configurations where they stream (parts of those larger than a chunk), else runs
// of them of a chunk's positions.
struct UnitTables {
    std::uint64_t solving = 0, writing = 0;
};

UnitTables unit_table_bytes(const BoardSpec& board, Material m, std::uint64_t chunk) {
    constexpr std::uint64_t entry = 40, read_entry = entry + 4;
    const ClassIndex index(board, m), mirror(board, m.mirrored());
    const std::uint64_t k = index.kings_per_men();
    const bool streams = UnitStream::streams(k, chunk);
    const std::uint64_t parts = (k + chunk - 1) / chunk;
    const std::uint64_t per = std::max<std::uint64_t>(1, chunk / k);
    const auto chunks_of = [&](std::uint64_t configurations) {
        return streams ? configurations * parts : (configurations + per - 1) / per;
    };
    UnitTables t;
    std::uint64_t before = 0;
    for (int s = 0; s < index.slice_count(); ++s) {
        std::uint64_t n = chunks_of(index.men_in_slice(s));
        if (m != m.mirrored()) n += chunks_of(mirror.men_in_slice(s));
        t.solving = std::max(t.solving, 2 * entry * n + read_entry * before);
        t.writing += read_entry * n;
        before = n;
    }
    return t;
}

struct PairCosts {
    Material material;
    std::uint64_t positions, largest_class, whole_solve, units_solve, whole_write, units_write;
    std::uint64_t compact_solve, compact_write;  // in units, a byte a position
    std::uint64_t compact_positions;  // of the slices the byte-a-position solver would take
    // Whether the solver of state words takes the pair held whole / in units: its slices solved
    // whole have fewer than 2^32 positions (gen/solve/solver.hpp's state_word_slice_limit).
    bool whole_in_states, units_in_states;
};

PairCosts pair_costs(const Variant& v, Material m, int threads, const GenerationTuning& tuning) {
    const BoardSpec board = v.info().board;
    const std::uint64_t unit_chunk = tuning.unit_chunk_positions;
    PairCosts c{};
    c.material = m;
    const std::uint64_t a = ClassIndex(board, m).size();
    c.positions = m == m.mirrored() ? a : 2 * a;
    c.largest_class = a;
    const std::uint64_t results = solver_result_bytes(board, m);
    const std::uint64_t layout = layout_bytes(board, m, tuning);
    c.whole_solve = solver_bytes(v, m, threads) + layout + 3 * two_slices_positions(board, m);
    // Writing (gen/run/generate.cpp): held whole, the results, a byte a position of one class at a
    // time for its wdl values and one more for the context codec's position flags; the DTW
    // values are taken block by block. In units, every value is read in passes from the unit
    // files (gen/write/writer.hpp: WdlPasses), a chunk of each slice's unit at a time and a segment
    // gathered from them (gen/units/class_stream.hpp), the chunks decompressed for a segment, each
    // thread's compressed bytes of the chunk it decompresses, and a batch of the solved class file
    // being written (16 chunks of u16, and their compressed bytes). The context codec's flags of
    // the class being written, compressed (gen/write/writer.hpp).
    const ClassIndex index(board, m), mirror(board, m.mirrored());
    const std::uint64_t k = index.kings_per_men(), t = static_cast<std::uint64_t>(threads);
    const bool splits = compact_splits_configurations(k, unit_chunk);
    // A unit's chunk: the solver of state words writes whole men configurations (or 64 Ki
    // positions of small ones: gen/units/unit_file.hpp); the byte-a-position solver cuts the
    // large ones into chunks of 64 Ki positions.
    const std::uint64_t runs_chunk = std::max<std::uint64_t>(unit_chunk, k);
    const std::uint64_t split_chunk = splits ? unit_chunk : runs_chunk;
    const auto reading = [&](std::uint64_t chunk) {
        // A segment's pieces are men configurations (or parts of one): one needs a fresh chunk
        // at most for each configuration it crosses, and at most chunks_at_once.
        const std::uint64_t segment = ClassStream::segment_positions(unit_chunk);
        const std::uint64_t fresh =
            std::min<std::uint64_t>(ClassStream::chunks_at_once, segment / k + 2);
        return 3 * chunk * (static_cast<std::uint64_t>(index.slice_count()) + fresh) + 3 * segment +
               std::min(chunk, chunked_file::frame_block_bytes) * std::min(t, fresh) +
               4 * SolvedClassWriter::batch_chunks * unit_chunk;
    };
    c.whole_write = results + 2 * c.largest_class;
    const UnitTables tables = unit_table_bytes(board, m, unit_chunk);
    c.units_write =
        layout + reading(runs_chunk) + held_flags_limit(c.largest_class) + tables.writing;
    // In units, the values of the slice being solved, unless streamed to its unit file, and the
    // frames of its unit's chunks being compressed, a chunk a thread (gen/units/unit_file.hpp:
    // write_unit compresses the values where they are held, the large chunks straight into the
    // file).
    const std::uint64_t held = held_slice_positions(v, m, threads, unit_chunk);
    const std::uint64_t frames =
        t * unit_frame_bytes(std::min(runs_chunk, held_chunk_streamed_above(unit_chunk)));
    c.units_solve = solver_bytes(v, m, threads, true) + layout + 3 * held + (held ? frames : 0) +
                    tables.solving;
    // With the byte-a-position solver: for every slice where it splits men configurations, else
    // for the slices solved whole beside the components of the others
    // (gen/solve/compact/compact_solver.hpp).
    c.compact_positions = 0;
    for (int s = 0; s < index.slice_count(); ++s)
        if (splits || !slice_in_components(v, index, s, threads))
            c.compact_positions += index.positions_in_slice(s) +
                                   (m == m.mirrored() ? 0 : mirror.positions_in_slice(s));
    // A kings-only turkish pair held a quarter solves a quarter (gen/solve/king_quarters.hpp); its
    // writer's locating every position is counted in the cost of the positions themselves.
    if (KingQuarters::holds(board, m) && UnitStream::streams(index.kings_per_men(), unit_chunk))
        c.compact_positions = KingQuarters::pair_held_positions(m);
    if (splits)
        c.compact_solve =
            compact_solver_bytes(v, m, threads, false, unit_chunk, tuning.compact_capture_bits) +
            layout;
    else
        c.compact_solve =
            compact_solver_bytes(v, m, threads, true, unit_chunk, tuning.compact_capture_bits) +
            solver_bytes(v, m, threads, true, true) + layout +
            3 * held_slice_positions(v, m, threads, unit_chunk, true);
    // Its units are written a chunk a thread, the values gathered for it and its frame.
    c.compact_solve += t * split_chunk * (3 + unit_frame_bytes(1)) + tables.solving;
    c.compact_write =
        layout + reading(split_chunk) + held_flags_limit(c.largest_class) + tables.writing;
    c.whole_in_states = largest_whole_slice(v, m, threads, false) < state_word_slice_limit;
    c.units_in_states = largest_whole_slice(v, m, threads, true) < state_word_slice_limit;
    return c;
}

// How a pair of a bounded run is solved: held whole, in units by the solver of state words, or
// in units a byte a position (gen/solve/compact/compact_solver.hpp, 4.6 times slower on its
// slices); each with every class it reads held whole, or the largest of them read through the
// block cache (whose lookups search the captures again).
enum class Solver { whole, units, compact };

struct Way {
    Solver solver = Solver::whole;
    bool reading_through = false;
};

// A way worked out for one pair within one budget: what the store holds while the pair is
// solved and written, and the modelled bytes (without the overhead and the classes kept ahead).
struct WayPlan {
    Way way;
    std::set<Material> held, read_through;
    std::uint64_t store_bytes = 0, cache_bytes = 0;
    bool empty_store_before_writing = false, wdl_packed = false;
    std::uint64_t modelled = 0;
};

// `hold_none`: every class the pair reads is read through the cache (--read-through), else the
// smallest are held within what the budget leaves beside the pair.
WayPlan plan_way(Way way, const BoardSpec& board, const PairCosts& c,
                 const std::set<Material>& closure, std::uint64_t budget,
                 const GenerationTuning& tuning, bool hold_none, bool values) {
    const auto fits = [&](std::uint64_t bytes) { return with_overhead(bytes) <= budget; };
    const bool whole = way.solver == Solver::whole, compact = way.solver == Solver::compact;
    const std::uint64_t solve = whole ? c.whole_solve : compact ? c.compact_solve : c.units_solve;
    const std::uint64_t write = whole ? c.whole_write : compact ? c.compact_write : c.units_write;
    WayPlan w;
    w.way = way;
    w.held = closure;
    if (way.reading_through) {
        const std::uint64_t cache = cache_bytes_for(budget);
        const std::uint64_t room = within_overhead(budget);
        const std::uint64_t taken = (whole ? std::max(solve, write) : solve) + cache;
        w.held = hold_none ? std::set<Material>{}
                           : held_within(board, closure, room > taken ? room - taken : 0, values);
        for (Material d : closure)
            if (!w.held.count(d)) w.read_through.insert(d);
        if (!w.read_through.empty()) w.cache_bytes = cache;
    }
    for (Material d : w.held) w.store_bytes += store_bytes_of(board, d, values);
    const std::uint64_t store = w.store_bytes + w.cache_bytes;
    if (whole) {
        w.modelled = store + std::max(solve, write);
        return w;
    }
    // Packed wdl values spare the writer five of its seven passes over the unit files (each
    // decompresses the class), which costs more than loading the store's classes again from
    // their solved class files for the next pair: the store is emptied for them where only that
    // makes room (english 2-6 at 512 MiB: 1221 + 2112 and 1122 + 2211).
    const std::uint64_t packed = (c.largest_class + 3) / 4;
    const bool may_pack = tuning.wdl_packed.value_or(true);
    w.empty_store_before_writing =
        !fits(store + write) || (may_pack && !fits(store + write + packed) && fits(write + packed));
    std::uint64_t writing = w.empty_store_before_writing ? write : store + write;
    w.wdl_packed = tuning.wdl_packed.value_or(fits(writing + packed));
    if (w.wdl_packed) writing += packed;
    w.modelled = std::max(store + solve, writing);
    return w;
}

// The ways open to a pair, fastest first: the flags for checks (--in-units, --read-through,
// --compact) leave out the faster ones.
std::vector<Way> ways_for(PairSolving forced) {
    switch (forced) {
        case PairSolving::automatic:
            return {{Solver::whole, false}, {Solver::units, false},   {Solver::units, true},
                    {Solver::whole, true},  {Solver::compact, false}, {Solver::compact, true}};
        case PairSolving::units:
            return {{Solver::units, false},
                    {Solver::units, true},
                    {Solver::compact, false},
                    {Solver::compact, true}};
        case PairSolving::units_read_through:
            return {{Solver::units, true}};
        case PairSolving::units_compact:
            return {{Solver::compact, false}, {Solver::compact, true}};
    }
    return {};
}

// The fastest way that fits the budget, else the one that needs least (the run is then refused,
// naming the least it needs). So a pair never plans more than it takes held whole, and a budget
// that fits some way of every pair is never refused where a smaller one is accepted: a way's
// least need (the fewest classes held) grows with the budget only by its cache, a sixteenth of
// the budget, so a larger budget fits it too.
WayPlan choose_way(const BoardSpec& board, const PairCosts& c, const std::set<Material>& closure,
                   std::uint64_t budget, const GenerateOptions& o, const GenerationTuning& tuning,
                   bool values) {
    const bool hold_none = o.pair_solving == PairSolving::units_read_through;
    std::optional<WayPlan> least;
    for (const Way way : ways_for(o.pair_solving)) {
        // A slice of 2^32 positions or more: the byte-a-position solver alone takes it.
        if ((way.solver == Solver::whole && !c.whole_in_states) ||
            (way.solver == Solver::units && !c.units_in_states))
            continue;
        WayPlan w = plan_way(way, board, c, closure, budget, tuning, hold_none, values);
        if (with_overhead(w.modelled) <= budget) return w;
        if (!least || w.modelled < least->modelled) least = std::move(w);
    }
    if (!least)
        throw Error("class " + c.material.name() +
                    " has a slice of 2^32 positions or more, which only the "
                    "byte-a-position solver takes (not with --read-through)");
    return *least;
}

// The unit chunk that streams the slices of men configurations of k positions
// (UnitStream::streams: a configuration of a sixteenth of a chunk or more): the largest power
// of two that does, below the run's `chunk`; 0 if the run's streams them, or if none from 64
// positions (the least --unit-chunk takes) does. Its chunk tables (a chunk a configuration) are
// counted by pair_costs, so a pair takes it only where that needs less.
std::uint64_t streaming_chunk(std::uint64_t k, std::uint64_t chunk) {
    constexpr std::uint64_t least = 64;
    if (UnitStream::streams(k, chunk) || !UnitStream::streams(k, least)) return 0;
    std::uint64_t streaming = least;
    while (2 * streaming < chunk && UnitStream::streams(k, 2 * streaming)) streaming *= 2;
    return streaming;
}

}  // namespace

GenerationTuning pair_tuning(const GenerateOptions& o, const PairStep& step) {
    GenerationTuning tuning = o.tuning;
    if (step.unit_chunk_positions) tuning.unit_chunk_positions = step.unit_chunk_positions;
    tuning.compact_capture_bits = tuning.compact_capture_bits && step.compact_capture_bits;
    return tuning;
}

std::uint64_t available_memory_bytes() {
    std::ifstream meminfo("/proc/meminfo");
    std::string key, unit;
    std::uint64_t kib = 0;
    while (meminfo >> key >> kib >> unit)
        if (key == "MemAvailable:") return kib * 1024;
    return 0;
}

std::uint64_t parse_memory_size(const std::string& text) {
    const auto bad = [&] {
        return Error("bad memory size '" + text + "' (a number with K, M, G or T, e.g. 512M, 12G)");
    };
    std::size_t used = 0;
    double number = 0;
    try {
        number = std::stod(text, &used);
    } catch (const std::exception&) {
        throw bad();
    }
    std::string unit = text.substr(used);
    if (!unit.empty() && (unit.back() == 'B' || unit.back() == 'b')) unit.pop_back();
    if (unit.size() == 2 && (unit[1] == 'i' || unit[1] == 'I')) unit.pop_back();
    double scale = 1;
    if (unit.empty())
        scale = 1;
    else if (unit.size() == 1 && std::string("kKmMgGtT").find(unit[0]) != std::string::npos)
        scale = std::pow(1024.0, 1 + static_cast<int>(std::string("kmgt").find(static_cast<char>(
                                         std::tolower(static_cast<unsigned char>(unit[0]))))));
    else
        throw bad();
    const double bytes = number * scale;
    if (!(bytes >= 1) || bytes > 1e18) throw bad();
    return static_cast<std::uint64_t>(bytes);
}

GenerationPlan plan_generation(const GenerateOptions& o) {
    GenerationPlan plan;
    const BoardSpec board = o.variant.info().board;
    plan.classes = planned_classes(o);
    if (plan.classes.empty()) throw Error("no class to generate");
    const int threads = o.threads > 0
                            ? o.threads
                            : std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
    plan.threads = threads;
    plan.available_bytes = available_memory_bytes();
    plan.budget_bytes = o.memory_bytes ? o.memory_bytes : plan.available_bytes / 4 * 3;
    if (plan.budget_bytes == 0) plan.budget_bytes = std::uint64_t{8} << 30;  // unknown: 8 GiB
    const std::vector<Material> pairs = pairs_of(plan.classes);
    const int top = plan.classes.back().pieces();

    // First as a run that holds every pair whole and keeps every class below the top size
    // (and those of the top size until the last pair that crowns into them).
    std::map<Material, std::size_t> last_use;
    for (std::size_t i = 0; i < pairs.size(); ++i)
        for (Material c : {pairs[i], pairs[i].mirrored()}) {
            last_use[c] = std::max(last_use[c], i);
            for (Material d : dependencies(c))
                if (d.pieces() == top) last_use[d] = i;
        }
    // The store holds what a pair reads as values only while a pair solved for mtc runs.
    const auto values_for = [&](Material m) { return distance_metric(o, m) == Metric::mtc; };
    std::vector<PairCosts> costs;
    std::uint64_t whole_peak = 0;
    std::array<std::uint64_t, 2> kept_below{};  // as outcomes, as values
    std::set<Material> solved;
    for (std::size_t i = 0; i < pairs.size(); ++i) {
        const Material m = pairs[i];
        const bool values = values_for(m);
        costs.push_back(pair_costs(o.variant, m, threads, o.tuning));
        std::uint64_t held = kept_below[values];
        for (Material c : solved)
            if (c.pieces() == top && last_use[c] >= i) held += store_bytes_of(board, c, values);
        const PairCosts& c = costs.back();
        whole_peak = std::max(whole_peak, held + std::max(c.whole_solve, c.whole_write));
        for (Material x : {m, m.mirrored()})
            if (solved.insert(x).second && x.pieces() < top)
                for (const bool form : {false, true})
                    kept_below[form] += store_bytes_of(board, x, form);
    }
    // A pair with a slice of 2^32 positions or more goes in units whatever the budget.
    const bool all_in_states = std::all_of(costs.begin(), costs.end(),
                                           [](const PairCosts& c) { return c.whole_in_states; });
    plan.bounded = o.pair_solving != PairSolving::automatic || !all_in_states ||
                   with_overhead(whole_peak) > plan.budget_bytes;

    std::uint64_t peak = 0;
    double largest_units = 0;  // bytes
    double wdl_bytes = 0, distance_bytes = 0;
    std::set<Material> loaded;  // what the store holds, in the bounded model
    const NextUses next_uses(pairs);
    for (std::size_t i = 0; i < pairs.size(); ++i) {
        const Material m = pairs[i];
        PairCosts& c = costs[i];
        PairStep step;
        step.material = m;
        step.positions = c.positions;
        step.slices = ClassIndex(board, m).slice_count();
        const std::set<Material>& closure = next_uses.closure(i);
        const bool values = values_for(m);
        std::uint64_t closure_bytes = 0;
        for (Material d : closure) closure_bytes += store_bytes_of(board, d, values);
        step.whole_bytes = with_overhead(closure_bytes + std::max(c.whole_solve, c.whole_write));
        const double per_position = cpu_seconds_per_position(o.variant, m) / threads;
        double seconds = static_cast<double>(c.positions) * per_position;
        if (!plan.bounded) {
            step.peak_bytes = with_overhead(whole_peak);
        } else {
            GenerationTuning tuning = o.tuning;
            WayPlan way = choose_way(board, c, closure, plan.budget_bytes, o, tuning, values);
            // Where it does not fit, another tuning of the pair that needs less: `t`, if it
            // does with a way in units (by bytes alone where `by_bytes`).
            const auto try_tuning = [&](const GenerationTuning& t, bool by_bytes) {
                if (with_overhead(way.modelled) <= plan.budget_bytes) return;
                PairCosts tuned = pair_costs(o.variant, m, threads, t);
                WayPlan w = choose_way(board, tuned, closure, plan.budget_bytes, o, t, values);
                if (w.way.solver == Solver::whole || (by_bytes && w.way.solver != Solver::compact))
                    return;
                if (w.modelled >= way.modelled) return;
                way = std::move(w);
                c = tuned;
                tuning = t;
            };
            // Smaller unit chunks, which stream the slices it would hold; then the
            // byte-a-position solver without its bit a position of captures.
            if (const std::uint64_t streaming = streaming_chunk(
                    ClassIndex(board, m).kings_per_men(), o.tuning.unit_chunk_positions)) {
                GenerationTuning t = tuning;
                t.unit_chunk_positions = streaming;
                try_tuning(t, false);
            }
            if (tuning.compact_capture_bits) {
                GenerationTuning t = tuning;
                t.compact_capture_bits = false;
                try_tuning(t, true);
            }
            if (tuning.unit_chunk_positions != o.tuning.unit_chunk_positions)
                step.unit_chunk_positions = tuning.unit_chunk_positions;
            step.compact_capture_bits = tuning.compact_capture_bits;
            step.in_units = way.way.solver != Solver::whole;
            step.compact = way.way.solver == Solver::compact;
            step.store_bytes = way.store_bytes;
            step.read_through = way.read_through;
            step.cache_bytes = way.cache_bytes;
            step.empty_store_before_writing = way.empty_store_before_writing;
            step.wdl_packed = way.wdl_packed;
            std::set<Material> held = way.held;
            for (Material d : held) {
                const double load = static_cast<double>(ClassIndex(board, d).size()) /
                                    (values_for(step.material) ? reload_values_per_second
                                                               : reload_positions_per_second);
                step.inputs_load_seconds += load;
                if (!loaded.count(d)) {
                    step.load_seconds += load;
                    seconds += load;
                }
            }
            std::uint64_t modelled = way.modelled;
            if (step.in_units) {
                seconds *= units_slowdown;
                step.load_seconds *= units_slowdown;  // as the model counts them in units
                step.inputs_load_seconds *= units_slowdown;
                if (step.compact)
                    seconds += static_cast<double>(c.compact_positions) * per_position *
                               (compact_slowdown(board) *
                                    (tuning.compact_capture_bits ? 1 : captures_tested_slowdown) -
                                1);
                plan.units += static_cast<std::uint64_t>(step.slices);
                largest_units =
                    std::max(largest_units, static_cast<double>(c.positions) *
                                                unit_bytes_per_position(distance_metric(o, m)));
            }
            step.keep = closure;
            if (!step.empty_store_before_writing) {
                const std::set<Material> ahead = kept_ahead(
                    board, next_uses, i, loaded, closure,
                    room_for_kept(plan.budget_bytes, modelled), values, step.kept_ahead_bytes);
                step.keep.insert(ahead.begin(), ahead.end());
                held.insert(ahead.begin(), ahead.end());
                modelled += step.kept_ahead_bytes;
            }
            loaded = step.empty_store_before_writing ? std::set<Material>{} : held;
            if (!step.in_units) loaded.insert({m, m.mirrored()});  // kept by the store, complete
            step.peak_bytes = with_overhead(modelled);
        }
        peak = std::max(peak, step.peak_bytes);
        plan.positions += c.positions;
        // A class and its mirror have the same kind and pieces: the same bits a position.
        const TableBits bits = table_bits_per_position(board, m, o);
        wdl_bytes += static_cast<double>(c.positions) * bits.wdl / 8;
        distance_bytes += static_cast<double>(c.positions) * bits.distance / 8;
        plan.seconds += seconds;
        step.seconds = seconds;
        plan.pairs.push_back(step);
    }
    plan.peak_bytes = peak;
    plan.wdl_bytes = static_cast<std::uint64_t>(wdl_bytes);
    plan.distance_bytes = static_cast<std::uint64_t>(distance_bytes);
    plan.unit_bytes = static_cast<std::uint64_t>(largest_units);
    plan.disk_bytes = plan.wdl_bytes + plan.distance_bytes + plan.unit_bytes;
    plan.disk_model = disk_model_text(board, o);
    plan.time_model =
        "model: CPU per position by pair, (46 + 36 a king) ns, 1.35 times a piece beyond 6, " +
        std::string(has_flying_kings(o.variant)
                        ? "flying kings 1.42 times (on 10x10 1.15 times more a piece beyond 5), "
                        : "") +
        "0.7 us without kings (fitted on this project's 2-core host), divided by " +
        std::to_string(threads) + " threads; pairs in units 10% slower, slices by bytes " +
        one_decimal(compact_slowdown(board)) +
        " times; reloads at 20 M/s (as "
        "values, for mtc: 500 M/s)";
    return plan;
}

PairGraph plan_graph(const GenerationPlan& plan) {
    std::vector<Material> pairs;
    std::vector<std::uint64_t> positions;
    for (const PairStep& s : plan.pairs) {
        pairs.push_back(s.material);
        positions.push_back(s.positions);
    }
    return pair_graph(pairs, positions);
}

}  // namespace damas
