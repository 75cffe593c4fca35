// The solved classes the generator reads while it solves a larger one.
//
// Owns: in-memory outcome arrays of solved classes, one packed u16 per position
// (plies << 2 | value), and their indexers. A class comes either straight from the solver (every
// position known) or from its files through the same reader engines use (table/table_file), in
// which case the positions where the side to move must capture are unknown and resolved by
// searching the captures (table/outcome.hpp), exactly as a probe does.
//
// A run whose budget cannot hold every class a pair reads (gen/plan/plan.hpp) reads some of them
// through a bounded cache of decompressed blocks instead (read_through): 16 KB blocks of the
// class's dtw (and wdl) file, the same reader and cache engines probe with. Those classes are
// never completed: their capture positions are searched at each lookup, as a probe does. The
// plan holds the smallest classes whole (captures reach them most often, per byte) and reads the
// largest (the crowning classes of the pair's own size) through the cache.
//
// A run on a budget frees classes that later pairs load again; those it keeps on disk as solved
// class files (gen/units/solved_class_file.hpp: the outcomes with the captures resolved), so
// that loading one again is reading it, not searching its captures (use_solved_files). It writes
// each as soon as the class is complete, not when it is freed: a run killed meanwhile (a multi-hour
// run stopped and resumed) then reads them again too, where it searched every capture of the
// classes it had held (international 2-6: 1,096 s of a 3,065 s pair after a restart).
//
// A pair solved for mtc (hold_values) reads only the values of the classes it reaches, never a
// distance (every exit counts 1 ply: gen/solve/exits.hpp), so the store then holds them at 2 bits
// a position (4 to a byte, as the wdl files' blocks), loads them from the wdl files (the distance
// file only where the wdl file holds no value: mirror layout, the odd positions of the half
// layout) and reads through the cache only the wdl files' blocks where those hold the values.
// Its solved class files then hold the values alone (<class>.wdl.solved). A pair solved for dtw
// reads dtw classes only (a dtw class's smaller classes are dtw: --dtw-pieces), held as before.
//
// Thread safety: load() before a parallel phase; lookup() is then safe from any thread.
#pragma once

#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <span>
#include <vector>

#include "gen/units/class_values.hpp"
#include "index/class_index.hpp"
#include "index/flip.hpp"
#include "index/material.hpp"
#include "rules/variant.hpp"
#include "table/block_cache.hpp"
#include "table/outcome.hpp"
#include "table/table_file.hpp"

namespace damas {

constexpr std::uint16_t pack_outcome(Outcome o) {
    return static_cast<std::uint16_t>((o.plies << 2) | static_cast<int>(o.value));
}
constexpr Outcome unpack_outcome(std::uint16_t packed) {
    return {static_cast<Value>(packed & 3), static_cast<std::uint16_t>(packed >> 2)};
}
inline constexpr int max_plies = (1 << 14) - 1;  // what a packed outcome can hold

struct SolvedClass {
    Material material;
    std::unique_ptr<ClassIndex> index;
    std::vector<std::uint16_t> outcomes;  // packed, by index
    // Or the values alone (held for a pair solved for mtc: SolvedStore::hold_values), 2 bits a
    // position: gen/units/class_values.hpp.
    std::vector<std::uint8_t> values;
    bool values_only = false;
    // Every position holds its value, capture positions included (a class straight from the
    // solver); otherwise capture positions hold fill values and are resolved by search.
    bool complete = false;
    // Read through the block cache instead (outcomes empty): its table files.
    struct Files {
        // The distance file (dtw or mtc: `metric`) and the wdl file (null in the mirror layout:
        // the values from the distance file).
        std::unique_ptr<TableFile> distance, wdl;
        Metric metric = Metric::dtw;
        bool giveaway = false;
        // Only the values are read (plies 0): the distance file only where the wdl file holds
        // no value for the position.
        bool values_only = false;
        // The distance file has the mirror layout too (an mtc file: table/format.hpp): no file
        // holds a value. Loaded, the class is worked out whole from its mirror
        // (SolvedStore::load_mirrored); read through, each lookup searches one ply (stored()).
        bool mirrored = false;
        // The outcome load() would hold at `index` (a fill value at capture positions). Throws
        // Error naming the file if a block cannot be read.
        Outcome read(std::uint64_t index, BlockCache& cache) const;
        // The packed outcomes of positions [first, first + out.size()), a block at a time.
        void read_range(std::uint64_t first, std::span<std::uint16_t> out) const;
        // The values of positions [first, first + n) into `values` (first a
        // multiple of 4, the bytes zero: gen/units/class_values.hpp), a block at a time.
        void read_values(std::uint64_t first, std::uint64_t n, std::uint8_t* values) const;
    };
    std::unique_ptr<const Files> files;
    // Loaded from an mtc file folded at mtc_fold (table/mtc_fold.hpp) whose folded distances
    // are not resolved yet (SolvedStore::resolve_folded); 0 once they are.
    int mtc_fold = 0;
    // Worked out from its mirror's values (SolvedStore::load_mirrored).
    bool derived = false;
};

// What solving m reads: every class one move away, complete (their capture positions resolved,
// since a move may land on one), and every class that a capture search from those reaches, of
// which only the quiet positions are read (to complete them).
struct StoreNeeds {
    std::set<Material> complete, quiet;
};
StoreNeeds store_needs(Material m);
// Both sets of m and of its mirror, together: the classes the store holds while the pair of m is
// solved.
std::set<Material> store_closure(Material m);
// What a one-ply search of a position of m reads (a class whose files hold no value: the mtc
// mirror layout): its mirror, and both sets of m and of its mirror.
std::set<Material> search_reads(Material m);

class SolvedStore {
  public:
    SolvedStore(Variant v, std::filesystem::path dir)
        : variant_(v), flip_(v.info().board), dir_(std::move(dir)) {}

    // Keeps a class (takes the outcomes; only their values while hold_values()); `complete` as
    // in SolvedClass.
    void add(Material m, std::vector<std::uint16_t> outcomes, bool complete);
    // From now on classes are held as their values only (2 bits a position: what a pair solved
    // for mtc reads), or as packed outcomes. Classes held whole the other way are converted to
    // values, or dropped to be loaded again with their distances; classes read through are
    // opened again.
    void hold_values(bool values_only);
    bool holds_values() const { return values_only_; }
    // Makes sure the classes solving m reads are in memory (store_needs), loading from the files
    // what is missing and resolving the capture positions of those one move away, so that they
    // are complete. Throws Error if a file is missing or corrupt.
    void load_below(Material m);
    // Loads one class from its files (no-op if it is in memory).
    void add_from_files(Material m) {
        if (!has(m)) load(m);
    }
    bool has(Material m) const { return classes_.count(m) != 0; }
    // From now on these classes are read through a cache of cache_bytes (their files opened,
    // never loaded whole) and the others loaded whole; a class held the other way is dropped and
    // opened again as asked the next time it is needed.
    void read_through(const std::set<Material>& classes, std::size_t cache_bytes);
    bool reads_through(Material m) const { return read_through_.count(m) != 0; }
    BlockCacheStats cache_stats() const { return cache_ ? cache_->stats() : BlockCacheStats{}; }
    // A run on a budget (gen/run/pair_runner.hpp): classes load from their solved class files
    // (gen/units/solved_class_file.hpp) where these are whole, with nothing to search; and a class
    // that `loaded_again` says a later pair loads is written to one once it is complete (added
    // complete, or loaded and its captures resolved), in chunks of chunk_positions (the run's
    // GenerationTuning::unit_chunk_positions).
    void use_solved_files(std::function<bool(Material)> loaded_again,
                          std::uint64_t chunk_positions) {
        loaded_again_ = std::move(loaded_again);
        solved_chunk_positions_ = chunk_positions;
    }
    // The distance file of each class read from the folder: dtw, or mtc (the run's
    // distance_metric, gen/options.hpp). A pair solved for mtc reads only the values, a pair
    // solved for dtw only dtw classes (the smaller classes of a dtw class are dtw classes).
    void set_distance_metric(std::function<Metric(Material)> metric_of) {
        distance_metric_ = std::move(metric_of);
    }
    Metric distance_metric(Material m) const {
        return distance_metric_ ? distance_metric_(m) : Metric::dtw;
    }
    // A class loaded whole from a folded mtc file holds its values and its distances but for the
    // folded ones (1 to the fold: SolvedClass::mtc_fold), which lookups return as 1; what reads
    // its distances resolves them first. This loads what a search of its moves reads, resolves
    // each folded distance by that search (table/mtc_fold.hpp), and works out again a mirror
    // worked out from the folded distances. No-op where nothing is folded.
    void resolve_folded(Material m);
    // The classes whose distances the reader reads (every class unless set). A class worked out
    // from its mirror (the mirror layout) resolves the mirror's folded distances first only if
    // its own are read; else it is worked out from them as loaded, its values right and its
    // distances worked out again once the mirror is resolved. verify --deep reads the
    // distances of the pair it checks only, and resolves that pair.
    void read_distances_of(std::function<bool(Material)> reads) {
        distances_read_ = std::move(reads);
    }
    // Frees every class that `keep` does not hold.
    void retain(const std::set<Material>& keep);
    // Frees the classes of `pieces` pieces that `keep` does not hold.
    void evict(int pieces, const std::set<Material>& keep);
    std::size_t bytes() const;  // the classes held whole and the cache
    // Classes loaded whole so far, and of those, from solved class files.
    std::uint64_t classes_loaded() const { return classes_loaded_; }
    std::uint64_t classes_from_solved_files() const { return classes_from_solved_files_; }
    const std::filesystem::path& dir() const { return dir_; }

    // The outcome stored for a position (after the colour flip), with no rule applied and no
    // capture resolved: what the files say. For capture positions it is a fill value.
    Outcome stored(const Position& p) const {
        const Position w = p.side == Color::white ? p : flip_(p);
        const SolvedClass& c = find(Material::of(w));
        if (c.files && c.files->mirrored) return searched(w);
        if (c.files) return c.files->read(c.index->index(w), *cache_);
        if (c.values_only) return {value_at(c.values.data(), c.index->index(w)), 0};
        return unpack_outcome(c.outcomes[c.index->index(w)]);
    }

    // The outcome of any position whose class (after the colour flip) is loaded.
    template <class R>
    Outcome lookup(const Position& p) const {
        if (!p.of(p.side)) return no_move_outcome(variant_.giveaway);
        if (const Outcome m = material_outcome<R>(p, variant_.giveaway); m.value != Value::unknown)
            return m;
        const Position w = p.side == Color::white ? p : flip_(p);
        const SolvedClass& c = find(Material::of(w));
        if (c.complete) {
            const std::uint64_t i = c.index->index(w);
            return c.values_only ? Outcome{value_at(c.values.data(), i), 0}
                                 : unpack_outcome(c.outcomes[i]);
        }
        return resolve_outcome<R>(p, variant_.giveaway,
                                  [this](const Position& q) { return stored(q); });
    }

    // The outcome after move mv of p as the distance of p's class counts it: as looked up for
    // dtw; for mtc, a conversion (a capture or a man move) counts its own ply only (plies 0 after
    // it), and a position that must capture converts at once (MTC 1), where lookup() would have
    // searched its captures for a distance.
    template <class R>
    Outcome lookup_after(const Position& p, const Move& mv, Metric metric) const {
        const Position q = make_move(p, mv);
        Outcome after = lookup<R>(q);
        if (metric != Metric::mtc || after.value == Value::draw) return after;
        if (mv.is_capture() || !(p.kings & bit(mv.from)))
            after.plies = 0;
        else if (q.of(q.side) && MoveGenerator<R>::has_capture(q))
            after.plies = 1;
        return after;
    }
    // p's outcome from its successors (a game over where it has no move): what a quiet
    // position's value and distance must be (verify --deep), and how a class whose files hold
    // none (the mtc mirror layout) is read.
    template <class R>
    Outcome from_successors(const Position& p, Metric metric) const {
        MoveList moves;
        MoveGenerator<R>::generate(p, moves);
        if (moves.empty()) return no_move_outcome(variant_.giveaway);
        BestOutcome best;
        for (const Move& mv : moves) best.add(lookup_after<R>(p, mv, metric));
        Outcome o = best.result();
        if (o.value == Value::draw) o.plies = 0;
        return o;
    }

    // Where lookup() would read p's outcome (at: a packed outcome, or the byte of a value and its
    // shift), or the outcome itself (packed) when no stored value gives it: lets a caller
    // prefetch a batch of them before reading them. Trivial: batches are made in hot loops.
    struct Located {
        const void* at;
        std::uint16_t packed;  // the outcome when `at` is null
        std::int8_t shift;     // -1: `at` is a packed outcome; else a value's bits in byte `at`
        Outcome read() const {
            if (!at) return unpack_outcome(packed);
            if (shift < 0) return unpack_outcome(*static_cast<const std::uint16_t*>(at));
            return {static_cast<Value>((*static_cast<const std::uint8_t*>(at) >> shift) & 3), 0};
        }
    };
    template <class R>
    Located locate(const Position& p) const {
        if (!p.of(p.side)) return {nullptr, pack_outcome(no_move_outcome(variant_.giveaway)), -1};
        if (const Outcome m = material_outcome<R>(p, variant_.giveaway); m.value != Value::unknown)
            return {nullptr, pack_outcome(m), -1};
        const Position w = p.side == Color::white ? p : flip_(p);
        const SolvedClass& c = find(Material::of(w));
        if (c.complete) {
            const std::uint64_t i = c.index->index(w);
            if (c.values_only)
                return {&c.values[i / 4], 0, static_cast<std::int8_t>(value_shift_of(i))};
            return {&c.outcomes[i], 0, -1};
        }
        return {nullptr,
                pack_outcome(resolve_outcome<R>(p, variant_.giveaway,
                                                [this](const Position& q) { return stored(q); })),
                -1};
    }

  private:
    const SolvedClass& find(Material m) const {
        const SolvedClass* c = by_key_[key(m)];
        if (!c) missing(m);
        return *c;
    }
    [[noreturn]] static void missing(Material m);
    // Classes by their four digits, so that a lookup is an array access.
    static constexpr int key(Material m) {
        return ((m.white_men * 10 + m.white_kings) * 10 + m.black_men) * 10 + m.black_kings;
    }
    void load(Material m);
    void load_values(Material m, const SolvedClass::Files& files);
    // A class whose files hold no value (Files::mirrored): loads its mirror and what its moves
    // and their captures reach, then each quiet position from its successors.
    void load_mirrored(Material m);
    template <class R>
    void derive_from_successors(SolvedClass& c) const;
    template <class R>
    void resolve_folded(SolvedClass& c) const;
    // `through`: for a class read through, what its lookups search is read through too (the
    // plan counts its cache, not those classes).
    void load_for_search(Material m, bool through);
    Outcome searched(const Position& white_to_move) const;
    // Keeps a class as it is held, and writes its solved class file if that is asked.
    void keep(SolvedClass c);
    void open(Material m);
    std::unique_ptr<const SolvedClass::Files> open_files(Material m) const;
    void complete(SolvedClass& c);
    template <class F>
    void set_outcomes(SolvedClass& c, const F& outcome_of) const;
    // Keeps only the values of a class held with its outcomes.
    void to_values(SolvedClass& c) const;
    void drop(Material m);
    // Drops every class `keep` does not hold (of `pieces` pieces only, unless 0).
    void drop_unless(const std::set<Material>& keep, int pieces);
    // Once a class is complete: its solved class file, if use_solved_files() asks for one.
    void save_if_loaded_again(const SolvedClass& c) const;
    bool load_solved_file(Material m);

    Variant variant_;
    Flipper flip_;  // its shift worked out once: locate() is called in hot loops
    std::filesystem::path dir_;
    std::map<Material, SolvedClass> classes_;
    std::vector<const SolvedClass*> by_key_ = std::vector<const SolvedClass*>(10000, nullptr);
    std::set<Material> read_through_;
    std::set<Material> resolving_;  // classes whose folded distances are being resolved
    std::unique_ptr<BlockCache> cache_;
    std::size_t cache_bytes_ = 0;
    std::function<bool(Material)> loaded_again_;
    std::function<Metric(Material)> distance_metric_;
    std::function<bool(Material)> distances_read_;  // unset: every class's
    std::uint64_t solved_chunk_positions_ = 0;      // of the solved class files written
    bool values_only_ = false;
    std::uint64_t classes_loaded_ = 0, classes_from_solved_files_ = 0;
};

}  // namespace damas
