// The probing library: the public C++ API over a database folder (engines and the CLI use it).
//
// Owns: the Tablebase handle. A handle holds the folder, one BlockCache of decompressed blocks
// shared by every table and thread, and for every variant folder present a fixed array of class
// slots indexed by a dense class number (material_slot in probe.cpp): no string, map or vector
// lookup on the probe path. A slot holds the class's index and, per metric, an atomic pointer to
// its open table file (an open table costs one load) and, when there is none, why (untried,
// absent, corrupt, io error) and when to try again. Tables open on first use under one mutex.
//
// Failures do not stick (engines run for hours while folders are regenerated):
// - a table that could not be opened (missing, damaged, unreadable) answers its status at once
//   for retry_delay (1 s by default), then the next probe that needs it tries the file again;
// - a read error of an open table (a block that no longer matches: the file was rewritten in
//   place, or removed) makes the probe look at the path, at most once per retry_delay: if it
//   names another file now (another inode, size or modification time), the table is let go and
//   opened again; a damaged file that did not change stays open and keeps answering its error;
// - a file replaced by a rename (or removed) while open is still read through the open
//   descriptor, whose values are those of the file opened: refresh() makes the handle let go of
//   every open table and cached block, so the next probes open the files the folder holds then.
// Tables let go are freed once no probe can hold them (probe/retired_files.hpp): a probe pays two
// uncontended atomic adds for this, and nothing is allocated per probe.
//
// Values are from the point of view of the side to move. Distances are in plies (one move of
// one side): the DTW is the number of plies until the game ends with best play, the winner
// taking the shortest way and the loser the longest; 0 means the game is over (no legal move,
// or turkish's king against a lone man). The files store no value where the side to move must
// capture; the probe resolves those positions by searching the captures (table/outcome.hpp).
// A WDL file in the mirror layout (format.hpp) stores no value at all: a WDL probe of its class
// searches one ply into the mirror class (about 1.7 times the average cost); a DTW probe reads
// the value from the DTW's parity. An MTC file in the mirror layout (a --metric mtc folder's
// classes whose WDL file has it) stores none either: probe_distance searches one ply too, a
// man move counting 1 and a king move 1 + the MTC after it.
//
// Thread safety: every member function (refresh and set_retry_delay too) may be called from any
// number of threads at once on one handle; construction and destruction may not overlap any
// other call. Steady-state
// probes (tables open, per-thread scratch allocated) do not allocate.
//
// Square masks (SquareMasks, and the C API in damas_probe.h) use PDN numbering: bit n-1 is
// square n of the variant's numeric numbering (brazilian and russian: the english numbering,
// square 1 = b8 .. 32 = g1); turkish: bit 8 * rank + file, a1 = bit 0 .. h8 = bit 63.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "index/class_limits.hpp"
#include "limits/draw_rules.hpp"
#include "rules/position.hpp"
#include "rules/variant.hpp"
#include "table/block_cache.hpp"
#include "table/format.hpp"
#include "table/outcome.hpp"

namespace damas {

// The largest cache budget a handle accepts (1 TiB): more overflowed the byte count.
inline constexpr std::size_t max_cache_mib = std::size_t{1} << 20;
// The largest class any table may have (the slots are sized for it): index/material.hpp's.
inline constexpr int max_table_pieces = max_class_pieces;

enum class ProbeStatus : std::uint8_t {
    ok,
    not_in_database,   // a class needed has no table file, or the position has more pieces than
                       // the handle's cap
    not_in_cache,      // probe_wdl_cached, or any probe under CachedReadsOnly: a block or a table
                       // needed is not loaded (nothing was read or opened)
    error_corrupt,     // a table file is damaged (header, size, checksum of a block)
    error_io,          // a table file could not be read
    invalid_position,  // pieces off the board or on one square, a man on a row it cannot stand
                       // on, kings that are not pieces, the side not to move without pieces
    invalid_argument,  // probe_rules: a negative count, a forcada count or side outside portuguese
    no_rule_table,     // probe_rules: a rule table (.dtr, .dtr-fmjd, .dtr-forcada...) is not
                       // in the folder (damas gen-rules has not been run for its class)
    unreachable_counts,  // probe_rules, probe_root: no game reaches the counts given at the
                         // position (RulesResult::unreachable says why)
};
const char* probe_status_name(ProbeStatus s);  // "ok", "not in the database", ...
const char* value_name(Value v);               // "win", "draw", "loss", "unknown"

struct ProbeResult {
    ProbeStatus status = ProbeStatus::ok;
    Value value = Value::unknown;  // for the side to move; meaningful when status is ok
    std::uint16_t plies = 0;       // probe_dtw: the DTW in plies (0 for a draw); probe_wdl: 0;
                                   // probe_distance: the DTW or the MTC, as `metric` says
    // What `plies` counts: Metric::dtw (plies to the end of the game), Metric::mtc (plies to the
    // next conversion: table/format.hpp), or Metric::wdl (no distance: probe_wdl).
    Metric metric = Metric::wdl;
    bool ok() const { return status == ProbeStatus::ok; }
};
const char* distance_name(Metric m);  // "dtw", "mtc", or "" for wdl

struct TablebaseOptions {
    std::filesystem::path dir;  // the database root, holding one folder per variant
    // Budget of the decompressed block cache; more than max_cache_mib is refused (Error).
    std::size_t cache_mib = 64;
    int max_pieces = 0;  // probe only positions with at most this many pieces; 0: 10
    // Problems found while probing (a damaged file, once per file), one line each. Called from
    // whichever thread met the problem, never from two threads at once.
    std::function<void(const std::string&)> message;
    // How long a table that failed (to open, or a read whose file changed) answers its failure
    // before the next probe tries its file again (see the top of this file).
    std::chrono::milliseconds retry_delay{1000};
};

// ---- Under the move-limit draw rules (limits/draw_rules.hpp).

// The counts already used at the position; the defaults mean "the count starts now".
struct RuleCounters {
    int plies_since_capture = 0;  // plies since the last capture or man move (king-move rules)
    int plies_in_ending = 0;      // plies since the current limited ending began
    // Portuguese forcada: whether the count has started (default: iff the three-king side has a
    // king on the long diagonal now; a king there always means started) and plies since.
    std::optional<bool> forcada_started;
    int forcada_plies = 0;
    // The side whose three kings started the forcada. Needed only once the lone king has
    // captured down to 1 king against 1, where the position no longer tells; unset there, both
    // sides are answered and the answer is exact only where they agree.
    std::optional<Color> forcada_side;
};

struct RulesAnswer {
    Outcome pure;        // value and DTW
    Outcome rule;        // value under the rules and its dtr distance (0 for a draw)
    std::string count;   // the count in force at the position ("the 5-move rule")
    int plies_left = 0;  // plies that count has left
    // false only in portuguese 1 king against 1 with the forcada running and its side not given
    // (RuleCounters::forcada_side), where that side changes the answer: `rule` is then a draw
    bool exact = true;
    bool differs() const { return pure.value != rule.value; }
    std::string summary() const;  // "win", "win, drawn by the 5-move rule"
};

struct RulesResult {
    ProbeStatus status = ProbeStatus::ok;
    RulesAnswer answer;                   // when ok
    std::filesystem::path missing_table;  // no_rule_table: the first rule table not there
    std::string unreachable;              // unreachable_counts: why no game reaches them
    bool ok() const { return status == ProbeStatus::ok; }
};

// One legal move at the root and its value (probe_root).
struct RootMove {
    Move move;
    std::string notation;  // PDN: "9-14", "18x11"; with every capture when two share their ends
    Position after;
    // For the side that plays the move, counting that move: a win in plies, a draw (plies 0),
    // a loss in plies.
    ProbeResult result;
    // The same under the move-limit rules (plies: the dtr distance), when asked for.
    std::optional<Outcome> rule;
    // With rule: the count in force after the move ("the 5-move rule") and its plies left;
    // empty when the move ends the game or the count had run out at the root.
    std::string rule_count;
    int rule_plies_left = 0;
};

// One table file of the folder, as identify() finds it.
struct TableListing {
    Variant variant;
    std::string class_name;  // "0201"
    Metric metric = Metric::wdl;
    std::filesystem::path path;
    std::uint64_t file_bytes = 0;
    TableHeader header;  // valid when error is empty
    std::string error;   // why the file cannot be used, or empty
};

// Square masks in PDN numbering (see the top of this file).
struct SquareMasks {
    std::uint64_t white = 0;
    std::uint64_t black = 0;
    std::uint64_t kings = 0;  // a subset of white | black
    Color side = Color::white;
};
// The position of the masks on the variant's board, or nullopt if a bit names no square.
std::optional<Position> position_from_masks(Variant v, const SquareMasks& masks);
SquareMasks masks_from_position(Variant v, const Position& p);

// While an object of this type is alive on a thread, every Tablebase read made by that thread
// (probe_wdl, probe_dtw, probe_rules, read_rule_value, probe_root: table values and opening
// table files) answers from what is loaded only: a read that would touch the disk (a block not
// cached, a table not open yet, or a failed table due to be tried again) answers
// ProbeStatus::not_in_cache instead: no message, no failure remembered, nothing cached (only
// the cache's recency of the blocks read changes). For a caller that holds a lock a disk read
// must not be made under (the Python package probes under the GIL this way first, and releases
// it only to probe again when the answer is not_in_cache). Nests; not to be moved to another
// thread.
class CachedReadsOnly {
  public:
    CachedReadsOnly() noexcept;
    ~CachedReadsOnly();
    CachedReadsOnly(const CachedReadsOnly&) = delete;
    CachedReadsOnly& operator=(const CachedReadsOnly&) = delete;
    static bool active() noexcept;  // on the calling thread

  private:
    bool previous_;
};

class Tablebase {
  public:
    // Opens a database folder. Nothing is read but the folder's listing: tables open on first
    // use. Throws Error if dir is not a folder.
    explicit Tablebase(const TablebaseOptions& options);
    static std::unique_ptr<Tablebase> open(const std::filesystem::path& dir,
                                           std::size_t cache_mib = 64, int max_pieces = 0,
                                           std::function<void(const std::string&)> message = {});
    ~Tablebase();
    Tablebase(const Tablebase&) = delete;
    Tablebase& operator=(const Tablebase&) = delete;

    // Win, draw or loss for the side to move (plies is 0). Thread-safe; may read the disk.
    ProbeResult probe_wdl(Variant v, const Position& p) const noexcept;
    // The same from the cache only, for use deep in a search: never reads the disk nor opens a
    // file; not_in_cache when some block (or table) needed is not loaded yet. Thread-safe.
    ProbeResult probe_wdl_cached(Variant v, const Position& p) const noexcept;
    // The value and the DTW in plies (reads the class's WDL file for the value and its DTW file
    // for the distance, so both must be present). Thread-safe; may read the disk.
    ProbeResult probe_dtw(Variant v, const Position& p) const noexcept;
    // The value and the distance the position's class holds (`metric` says which): its DTW
    // where the class has a dtw file, or its MTC where it has an mtc file (`damas gen --metric
    // mtc`): the plies to the next conversion (a capture or a man move) or the end of the game,
    // the winner converting as soon as it can into a position it still wins, the loser as late
    // as it can. A position that must capture converts at once: MTC 1. probe_dtw never reads an
    // mtc file (a class with none answers not_in_database). Thread-safe; may read the disk.
    ProbeResult probe_distance(Variant v, const Position& p) const noexcept;

    // The value under the move-limit rules given the counts already used, next to the pure value
    // and DTW (which need the wdl and dtw files; the rule value needs the dtr files that `damas
    // gen-rules` writes). A quiet position's side to move wins under the rules iff its dtr value
    // is a win at distance <= the plies its binding count has left; captures are searched, each
    // changing the count as the rules say. `rule.plies` is the dtr distance: plies to the rule's
    // goal (the end of the game, or the capture or man move that restarts the count in a
    // position still won), not the DTW. Thread-safe; may read the disk.
    RulesResult probe_rules(const DrawRules& rules, const Position& p,
                            const RuleCounters& counters) const noexcept;
    // The dtr value (table/format.hpp) of a quiet White-to-move position in a regime, from the
    // class's rule table; with a gap (forcada_running, CountState::gap), from its gap table.
    // Thread-safe; may read the disk.
    ProbeStatus read_rule_value(const DrawRules& rules, const Position& white_to_move,
                                Regime regime, std::uint16_t& dtr, int gap = 0) const noexcept;

    // Every legal move of p with its value and distance for the side that plays it (and, when
    // rules is given, its value under the move-limit rules with the counts at p), best first:
    // wins by shortest distance, draws, losses by longest; ties in the order of the move
    // generator. The distance is p's class's (probe_distance; RootMove::result.metric): the DTW,
    // or the MTC, where a move that converts (a capture or a man move) counts 1.
    // Empty when the game is over at p. The first failure (a missing class or rule table, a
    // damaged file) is the status and `moves` is then incomplete; with skip_missing_rule_tables,
    // a move whose rule table is missing gets no `rule` instead (the others keep theirs).
    // Thread-safe; allocates.
    ProbeStatus probe_root(Variant v, const Position& p, std::vector<RootMove>& moves,
                           const DrawRules* rules = nullptr, const RuleCounters& counters = {},
                           bool skip_missing_rule_tables = false) const noexcept;

    // The folder, the piece cap, and the most pieces of a complete class of a variant (its wdl
    // and dtw or mtc files open as its tables) present when the handle was opened or last refreshed
    // (0 if none).
    // Thread-safe.
    const std::filesystem::path& dir() const;
    int max_pieces() const;
    int largest_class(Variant v) const;

    // Every table file of the folder (wdl, dtw and the rule tables), read now (headers only), by
    // variant then name. Does not touch the probe's tables. Thread-safe.
    std::vector<TableListing> identify() const;

    // Lets go of every open table and cached block and forgets every failure, so the next probe
    // of each table opens the file the folder holds then (a table replaced by a rename is picked
    // up), and looks for variant folders and complete classes again (largest_class). May run
    // while other threads probe: their probes finish on the files they started with, which are
    // freed once no probe holds them (this call waits for that). Not from inside a probe's
    // callback. Thread-safe.
    void refresh();
    // Changes TablebaseOptions::retry_delay (for failures met from now on). Thread-safe.
    void set_retry_delay(std::chrono::milliseconds delay);

    BlockCacheStats cache_stats() const;  // thread-safe
    // Bytes the handle holds now: the cache arena, the slots, the open tables' offset tables
    // and indexes. Thread-safe.
    std::size_t memory_bytes() const;

  private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace damas
