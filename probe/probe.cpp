#include "probe/probe.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <mutex>
#include <system_error>

#include "index/class_index.hpp"
#include "index/flip.hpp"
#include "index/man_rows.hpp"
#include "index/material.hpp"
#include "probe/retired_files.hpp"
#include "rules/error.hpp"
#include "rules/notation.hpp"
#include "table/mtc_fold.hpp"
#include "table/table_file.hpp"

namespace damas {
namespace {

// ---- Dense class numbers: every (wm, wk, bm, bk) with at most max_table_pieces pieces.

constexpr int count_radix = max_table_pieces + 1;
constexpr int count_keys = count_radix * count_radix * count_radix * count_radix;

constexpr int count_key(int wm, int wk, int bm, int bk) {
    return wm + count_radix * (wk + count_radix * (bm + count_radix * bk));
}

struct SlotNumbering {
    std::array<std::int16_t, count_keys> slot_of_key{};  // -1: too many pieces
    int slots = 0;
};

constexpr SlotNumbering make_slot_numbering() {
    SlotNumbering n;
    for (int key = 0; key < count_keys; ++key) {
        int rest = key, total = 0;
        for (int i = 0; i < 4; ++i, rest /= count_radix) total += rest % count_radix;
        n.slot_of_key[key] = static_cast<std::int16_t>(total <= max_table_pieces ? n.slots++ : -1);
    }
    return n;
}

constexpr SlotNumbering slot_numbering = make_slot_numbering();
constexpr int class_slots = slot_numbering.slots;  // 1001

// The slot of a class, or -1 when it has more than max_table_pieces pieces.
inline int material_slot(int wm, int wk, int bm, int bk) {
    if (wm + wk + bm + bk > max_table_pieces) return -1;
    return slot_numbering.slot_of_key[count_key(wm, wk, bm, bk)];
}

int variant_number(Variant v) {
    return static_cast<int>(v.base) + (v.giveaway ? base_variant_count : 0);
}
constexpr int variant_numbers = 2 * base_variant_count;

// ---- Slots.

enum class TableState : std::uint8_t { untried, ready, absent, corrupt, io_error };

std::int64_t now_ns() {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

// One table of a class. Written under the open mutex; the probe reads `file` alone while the
// table is open.
struct TableSlot {
    std::atomic<const TableFile*> file{nullptr};         // the open table, or null
    std::atomic<TableState> state{TableState::untried};  // why file is null (or ready)
    std::atomic<std::int64_t> retry_at{0};  // a failed table is opened again from then (ns)
    std::atomic<std::int64_t> check_at{0};  // a read error looks at the file again from then
    std::atomic<bool> reported{false};      // a problem of this file was reported
};

struct ClassSlot {
    std::array<TableSlot, metric_count> tables;  // by Metric (wdl, dtw and the rule tables)
    const ClassIndex* index = nullptr;  // set under the open mutex before a file is published
};

struct VariantTables {
    Variant variant;
    std::atomic<int> largest{0};  // most pieces of a complete class (at open or refresh)
    std::array<ClassSlot, class_slots> slots;
};

ProbeStatus status_of(ReadStatus s) {
    switch (s) {
        case ReadStatus::ok:
            return ProbeStatus::ok;
        case ReadStatus::not_in_cache:
            return ProbeStatus::not_in_cache;
        case ReadStatus::io_error:
            return ProbeStatus::error_io;
        case ReadStatus::out_of_range:
        case ReadStatus::corrupt_block:
            return ProbeStatus::error_corrupt;
    }
    return ProbeStatus::error_corrupt;
}

ProbeStatus status_of(TableState s) {
    switch (s) {
        case TableState::ready:
            return ProbeStatus::ok;
        case TableState::untried:
            return ProbeStatus::not_in_cache;
        case TableState::absent:
            return ProbeStatus::not_in_database;
        case TableState::corrupt:
            return ProbeStatus::error_corrupt;
        case TableState::io_error:
            return ProbeStatus::error_io;
    }
    return ProbeStatus::error_corrupt;
}

// ---- Square masks.

struct MaskTables {
    // By base variant: the layout bit of mask bit k (-1: no such square).
    std::array<std::array<std::int8_t, 64>, base_variant_count> layout_of_mask_bit{};
    std::array<std::array<std::int8_t, 64>, base_variant_count> mask_of_layout_bit{};
};

MaskTables make_mask_tables() {
    MaskTables t;
    for (int b = 0; b < base_variant_count; ++b) {
        auto& to_layout = t.layout_of_mask_bit[b];
        auto& to_mask = t.mask_of_layout_bit[b];
        to_layout.fill(-1);
        to_mask.fill(-1);
        const VariantInfo& vi = info(static_cast<BaseVariant>(b));
        const GeometryTables g = make_tables(vi.board);
        for (int sq = 0; sq < g.squares; ++sq) {
            const int layout = g.bit_of_square[sq];
            const int mask =
                vi.board.grid == Grid::orthogonal ? layout : square_number(vi, layout) - 1;
            to_layout[mask] = static_cast<std::int8_t>(layout);
            to_mask[layout] = static_cast<std::int8_t>(mask);
        }
    }
    return t;
}

const MaskTables& mask_tables() {
    static const MaskTables t = make_mask_tables();
    return t;
}

// Maps every set bit through table; false if one maps nowhere.
bool remap(Bitboard in, const std::array<std::int8_t, 64>& table, Bitboard& out) {
    out = 0;
    for (; in; in = clear_lowest(in)) {
        const int to = table[lowest_bit(in)];
        if (to < 0) return false;
        out |= bit(to);
    }
    return true;
}

// ---- Position checks.

template <class B>
constexpr Bitboard men_squares(Color c) {
    const RowRange rows = man_rows(B::spec, c);
    Bitboard m = 0;
    for (int y = rows.first; y <= rows.last; ++y) m |= B::row(y);
    return m;
}

template <class R>
ProbeStatus check_position(const Position& p, int cap) {
    using B = typename R::Board;
    const Bitboard white = p.of(Color::white), black = p.of(Color::black);
    const Bitboard occupied = white | black;
    if (p.side != Color::white && p.side != Color::black) return ProbeStatus::invalid_position;
    if ((white & black) || (occupied & ~B::mask) || (p.kings & ~occupied))
        return ProbeStatus::invalid_position;
    if ((p.men(Color::white) & ~men_squares<B>(Color::white)) ||
        (p.men(Color::black) & ~men_squares<B>(Color::black)))
        return ProbeStatus::invalid_position;
    if (!p.of(~p.side)) return ProbeStatus::invalid_position;  // the game ended a move ago
    if (popcount(occupied) > cap) return ProbeStatus::not_in_database;
    return ProbeStatus::ok;
}

enum class Mode { wdl, dtw };

// CachedReadsOnly's flag (probe.hpp).
thread_local bool cached_reads_only = false;

// The table a listed file's name says it holds (identify lists only names that parse).
TableIdentity listed_identity(const TableListing& t) {
    return {t.variant, *Material::parse(t.class_name), t.metric};
}

}  // namespace

// ---- The handle.

struct Tablebase::Impl {
    TablebaseOptions options;
    int cap = max_table_pieces;
    mutable BlockCache cache;
    // By variant_number; published once (a folder that appears is picked up by refresh).
    std::array<std::atomic<VariantTables*>, variant_numbers> variants{};
    std::atomic<std::int64_t> retry_ns;

    mutable std::mutex open_mutex;  // guards opening tables and the owners below
    std::vector<std::unique_ptr<VariantTables>> variant_storage;
    mutable std::vector<std::unique_ptr<ClassIndex>> indexes;
    mutable RetiredFiles retired;  // the files refresh or a reopen let go
    mutable std::mutex message_mutex;

    explicit Impl(const TablebaseOptions& o)
        : options(o),
          cap(o.max_pieces <= 0 ? max_table_pieces : std::min(o.max_pieces, max_table_pieces)),
          cache(o.cache_mib * 1024 * 1024),
          retry_ns(std::chrono::nanoseconds(o.retry_delay).count()) {}
    ~Impl();

    VariantTables* tables_of(Variant v) const {
        return variants[variant_number(v)].load(std::memory_order_acquire);
    }

    void message(const std::string& line) const {
        if (!options.message) return;
        std::lock_guard lock(message_mutex);
        try {
            options.message(line);
        } catch (...) {  // a throwing callback must not break a probe
        }
    }

    void scan_folder();
    void refresh();
    int largest_complete_class(Variant v) const;
    TableState open_table(VariantTables& vt, ClassSlot& slot, Material m, Metric metric,
                          const TableFile*& file) const;
    const TableFile* table(VariantTables& vt, ClassSlot& slot, Material m, Metric metric,
                           bool cached_only, ProbeStatus& status) const noexcept {
        const TableFile* f = slot.tables[static_cast<int>(metric)].file.load();
        if (f) {
            status = ProbeStatus::ok;
            return f;
        }
        return table_not_open(vt, slot, m, metric, cached_only, status);
    }
    const TableFile* table_not_open(VariantTables& vt, ClassSlot& slot, Material m, Metric metric,
                                    bool cached_only, ProbeStatus& status) const noexcept;
    ProbeStatus read_failed(ClassSlot& slot, Metric metric, const TableFile& file,
                            ReadStatus s) const noexcept;
    void report_once(TableSlot& t, const std::string& line) const noexcept;

    // `cached_only`: read only loaded blocks and open tables (else not_in_cache). `searching`:
    // the class whose search (search_mirror) asks, which must not search again.
    template <class R, Mode mode>
    ProbeStatus read_stored(VariantTables& vt, const Position& q, bool cached_only, Outcome& out,
                            const Material* searching = nullptr) const noexcept;
    template <class R, Mode mode>
    ProbeStatus search_mirror(VariantTables& vt, Material m, const Position& w, bool cached_only,
                              Outcome& out) const noexcept;
    template <class R, Mode mode>
    ProbeResult probe(Variant v, const Position& p, bool cached_only) const noexcept;
    // `searching`: asked by search_mirror_mtc, whose moves must reach a class that holds its
    // mtc values (a second search is reported corrupt).
    template <class R>
    ProbeResult probe_distance(Variant v, const Position& p, bool cached_only,
                               bool searching = false) const noexcept;
    template <class R>
    ProbeResult search_mirror_mtc(Variant v, const Position& w, bool cached_only) const noexcept;
    // What the mtc file of white-to-move w's class stores of it (table/mtc_fold.hpp's
    // StoredMtc), a failed read's status in `status`.
    template <class R>
    StoredMtc stored_mtc(VariantTables& vt, const Position& w, bool cached_only,
                         ProbeStatus& status) const noexcept;
    // The MTC of quiet white-to-move w, of value `value`, stored folded at `fold`.
    template <class R>
    ProbeResult resolve_folded_mtc(Variant v, const Position& w, Value value, int fold,
                                   bool cached_only) const noexcept;
};

// The most pieces of a class of v whose wdl and distance files (dtw or mtc) open as that class's
// tables (a stray or foreign file, or a class whose distance file is missing, does not count). Only
// the classes with more pieces than the best found so far are opened, so usually one or two.
int Tablebase::Impl::largest_complete_class(Variant v) const {
    std::error_code ec;
    std::vector<Material> named;
    for (const auto& e : std::filesystem::directory_iterator(options.dir / v.name(), ec)) {
        const auto m = Material::parse(e.path().stem().string());
        if (m && m->white() > 0 && m->black() > 0 && m->pieces() <= max_table_pieces &&
            e.path().extension() == ".wdl")
            named.push_back(*m);
    }
    std::sort(named.begin(), named.end(),
              [](Material a, Material b) { return a.pieces() > b.pieces(); });
    for (const Material m : named) {
        try {
            TableFile(table_path(options.dir, v, m.name(), Metric::wdl), {v, m, Metric::wdl});
            const std::filesystem::path dtw = table_path(options.dir, v, m.name(), Metric::dtw);
            const Metric distance = std::filesystem::exists(dtw) ? Metric::dtw : Metric::mtc;
            TableFile(table_path(options.dir, v, m.name(), distance), {v, m, distance});
            return m.pieces();
        } catch (const Error&) {  // not a complete class: the next one
        }
    }
    return 0;
}

Tablebase::Impl::~Impl() {
    for (const auto& vt : variant_storage)
        for (ClassSlot& slot : vt->slots)
            for (TableSlot& t : slot.tables) delete t.file.load();
}

// Publishes a VariantTables for every variant folder present (once per variant) and finds its
// largest complete class. Holds open_mutex.
void Tablebase::Impl::scan_folder() {
    for (const Variant v : all_variants()) {
        const std::filesystem::path folder = options.dir / v.name();
        std::error_code ec;
        if (!std::filesystem::is_directory(folder, ec)) continue;
        VariantTables* vt = tables_of(v);
        if (!vt) {
            variant_storage.push_back(std::make_unique<VariantTables>());
            vt = variant_storage.back().get();
            vt->variant = v;
            variants[variant_number(v)].store(vt, std::memory_order_release);
        }
        vt->largest.store(largest_complete_class(v), std::memory_order_relaxed);
    }
}

// Unpublishes every open table (retired until no probe holds it) and forgets every failure, so
// the next probe of each table opens its file again; then empties the cache.
void Tablebase::Impl::refresh() {
    {
        std::lock_guard lock(open_mutex);
        for (const auto& vt : variant_storage)
            for (ClassSlot& slot : vt->slots)
                for (TableSlot& t : slot.tables) {
                    t.state.store(TableState::untried);
                    if (const TableFile* f = t.file.exchange(nullptr))
                        retired.retire(std::unique_ptr<const TableFile>(f));
                    t.reported.store(false);
                }
        scan_folder();
    }
    retired.reclaim_all();
    cache.clear();
}

// Opens the table if it is not open (never tried, refreshed, or failed and due for a retry),
// under open_mutex. `file`: the open table when the result is ready.
TableState Tablebase::Impl::open_table(VariantTables& vt, ClassSlot& slot, Material m,
                                       Metric metric, const TableFile*& file) const {
    std::lock_guard lock(open_mutex);
    TableSlot& t = slot.tables[static_cast<int>(metric)];
    if ((file = t.file.load())) return TableState::ready;  // another thread was first
    const TableState before = t.state.load(std::memory_order_acquire);
    if (before != TableState::untried && before != TableState::ready &&
        now_ns() < t.retry_at.load(std::memory_order_relaxed))
        return before;  // another thread retried it just now
    const std::filesystem::path path = table_path(options.dir, vt.variant, m.name(), metric);
    TableState result = TableState::ready;
    std::error_code ec;
    if (!std::filesystem::exists(path, ec)) {
        result = ec ? TableState::io_error : TableState::absent;
    } else {
        try {
            if (!slot.index) {
                indexes.push_back(std::make_unique<ClassIndex>(vt.variant.info().board, m));
                slot.index = indexes.back().get();
            }
            auto opened = std::make_unique<TableFile>(path, TableIdentity{vt.variant, m, metric});
            t.reported.store(false);  // a new file: its problems are reported again
            t.check_at.store(0, std::memory_order_relaxed);
            file = opened.release();
            t.file.store(file);
            t.state.store(TableState::ready, std::memory_order_release);
            return TableState::ready;
        } catch (const TableIoError& e) {
            report_once(t, e.what());
            result = TableState::io_error;
        } catch (const Error& e) {
            report_once(t, e.what());
            result = TableState::corrupt;
        } catch (...) {
            report_once(t, path.string() + ": cannot open (out of memory)");
            result = TableState::io_error;
        }
    }
    t.retry_at.store(now_ns() + retry_ns.load(std::memory_order_relaxed),
                     std::memory_order_relaxed);
    t.state.store(result, std::memory_order_release);
    return result;
}

// A table not open (yet, or any more): opened now if never tried, or if it failed and its retry
// delay has passed; else the failure's status.
const TableFile* Tablebase::Impl::table_not_open(VariantTables& vt, ClassSlot& slot, Material m,
                                                 Metric metric, bool cached_only,
                                                 ProbeStatus& status) const noexcept {
    TableSlot& t = slot.tables[static_cast<int>(metric)];
    TableState s = t.state.load(std::memory_order_acquire);
    const TableFile* f = nullptr;
    if (s == TableState::ready && (f = t.file.load())) {  // opened by another thread just now
        status = ProbeStatus::ok;
        return f;
    }
    // ready without a file: refreshed just now, to be opened again.
    const bool due = s == TableState::untried || s == TableState::ready ||
                     now_ns() >= t.retry_at.load(std::memory_order_relaxed);
    if (!due) {
        status = status_of(s);
        return nullptr;
    }
    if (cached_only) {  // opening (or trying again) would touch the disk
        status = ProbeStatus::not_in_cache;
        return nullptr;
    }
    try {
        s = open_table(vt, slot, m, metric, f);
    } catch (...) {
        s = TableState::io_error;  // a mutex failure
    }
    status = status_of(s);
    return f;
}

void Tablebase::Impl::report_once(TableSlot& t, const std::string& line) const noexcept {
    if (t.reported.exchange(true)) return;
    try {
        message(line);
    } catch (...) {
    }
}

// A read of an open table failed. Reported once per file; and, at most once per retry delay,
// the file is looked at: if its path now names another file (removed, replaced, rewritten),
// the table is let go and the next probe opens the file there.
ProbeStatus Tablebase::Impl::read_failed(ClassSlot& slot, Metric metric, const TableFile& file,
                                         ReadStatus s) const noexcept {
    const ProbeStatus status = status_of(s);
    if (status == ProbeStatus::not_in_cache) return status;
    TableSlot& t = slot.tables[static_cast<int>(metric)];
    try {
        report_once(t, file.path().string() + ": " + read_status_name(s));
        const std::int64_t now = now_ns();
        std::int64_t due = t.check_at.load(std::memory_order_relaxed);
        if (now < due ||
            !t.check_at.compare_exchange_strong(due, now + retry_ns.load(std::memory_order_relaxed),
                                                std::memory_order_relaxed))
            return status;
        if (!file.replaced_on_disk()) return status;
        std::lock_guard lock(open_mutex);
        if (t.file.load() != &file) return status;  // refreshed or reopened meanwhile
        t.state.store(TableState::untried);
        t.file.store(nullptr);
        retired.retire(std::unique_ptr<const TableFile>(&file));
    } catch (...) {  // a mutex or an allocation failure: the file stays as it was
    }
    return status;
}

// The stored outcome of a position without capture: colour flip to White to move, find the
// class's slot, index, read.
template <class R, Mode mode>
ProbeStatus Tablebase::Impl::read_stored(VariantTables& vt, const Position& q, bool cached_only,
                                         Outcome& out, const Material* searching) const noexcept {
    const Position w = q.side == Color::white ? q : flip(R::Board::spec, q);
    const Material m{popcount(w.men(Color::white)), popcount(w.kings_of(Color::white)),
                     popcount(w.men(Color::black)), popcount(w.kings_of(Color::black))};
    const int slot_number = material_slot(m.white_men, m.white_kings, m.black_men, m.black_kings);
    if (slot_number < 0 || m.white() == 0 || m.black() == 0) return ProbeStatus::not_in_database;
    ClassSlot& slot = vt.slots[slot_number];
    ProbeStatus status = ProbeStatus::ok;
    const TableFile* wdl = table(vt, slot, m, Metric::wdl, cached_only, status);
    if (!wdl) return status;
    bool stored = wdl->holds_values();
    const bool searched_already = searching && *searching == m;
    if (!stored && mode != Mode::dtw) {
        if (searched_already) return ProbeStatus::error_corrupt;
        return search_mirror<R, mode>(vt, m, w, cached_only, out);
    }
    const std::uint64_t index = slot.index->index(w);
    if (stored) {
        const ReadResult value =
            cached_only ? wdl->try_value(index, cache) : wdl->value(index, cache);
        if (!value.ok()) return read_failed(slot, Metric::wdl, *wdl, value.status);
        if (value.value == wdl_unknown && wdl->half() && !searched_already) {
            // Half layout (format.hpp): an odd position; its moves lead to stored ones.
            if constexpr (mode != Mode::dtw)
                return search_mirror<R, mode>(vt, m, w, cached_only, out);
            stored = false;  // the dtw alone gives the value
        } else {
            if (value.value > wdl_win) return ProbeStatus::error_corrupt;
            out = {static_cast<Value>(value.value), 0};
            if constexpr (mode != Mode::dtw) return ProbeStatus::ok;
            if (out.value == Value::draw) return ProbeStatus::ok;
        }
    }
    const TableFile* dtw = table(vt, slot, m, Metric::dtw, cached_only, status);
    if (!dtw) return status;
    const ReadResult plies = cached_only ? dtw->try_value(index, cache) : dtw->value(index, cache);
    if (!plies.ok()) return read_failed(slot, Metric::dtw, *dtw, plies.status);
    if (!stored && plies.value == dtw_draw) {  // mirror or half layout: the dtw gives the value
        out = {Value::draw, 0};
        return ProbeStatus::ok;
    }
    if (plies.value > dtw_max) return ProbeStatus::error_corrupt;
    const auto parity_value = dtw_outcome(plies.value, vt.variant.giveaway);
    if (!stored) {
        // No class in the mirror or half layout has positions a rule ends on the spot
        // (generate.cpp).
        out.value = static_cast<Value>(parity_value);
    } else if ((!R::king_beats_lone_man || vt.variant.giveaway) &&
               parity_value != static_cast<std::uint8_t>(out.value)) {
        // Without turkish's king-against-lone-man rule the parity of a distance gives the result.
        return ProbeStatus::error_corrupt;
    }
    out.plies = plies.value;
    return ProbeStatus::ok;
}

// The value of a quiet White-to-move position w of class m, whose wdl file has the mirror layout
// or is an odd position of the half layout (format.hpp): the best over its moves. A quiet move
// that does not crown leads to the mirror class (m itself for the half layout), which must hold
// the value (else the search would never end: a second search of m is reported corrupt);
// captures and crowning moves lead to classes with fewer men, searched in turn if need be.
template <class R, Mode mode>
ProbeStatus Tablebase::Impl::search_mirror(VariantTables& vt, Material m, const Position& w,
                                           bool cached_only, Outcome& out) const noexcept {
    const Material mirror = m.mirrored();
    const int mirror_slot =
        material_slot(mirror.white_men, mirror.white_kings, mirror.black_men, mirror.black_kings);
    ProbeStatus status = ProbeStatus::ok;
    const TableFile* stored_side =
        table(vt, vt.slots[mirror_slot], mirror, Metric::wdl, cached_only, status);
    if (!stored_side) return status;
    if (!stored_side->holds_values()) return ProbeStatus::error_corrupt;  // both mirror layout
    MoveList moves;
    MoveGenerator<R>::generate(w, moves);
    if (moves.empty()) {
        out = no_move_outcome(vt.variant.giveaway);
        return ProbeStatus::ok;
    }
    ProbeStatus failure = ProbeStatus::ok;
    const auto stored = [&](const Position& q, Outcome& o) {
        failure = read_stored<R, mode>(vt, q, cached_only, o, &m);
        return failure == ProbeStatus::ok;
    };
    BestOutcome best;
    for (const Move& move : moves) {
        Outcome after;
        if (!try_resolve_outcome<R>(make_move(w, move), vt.variant.giveaway, stored, after))
            return failure;
        best.add(after);
        if (after.value == Value::loss) break;  // a win: no need to look further for wdl
    }
    out = best.result();
    out.plies = 0;
    return out.value == Value::unknown ? ProbeStatus::error_corrupt : ProbeStatus::ok;
}

// The value and MTC of a quiet position w (White to move) whose class's mtc file has the mirror
// layout (format.hpp): the best over its moves, as verify --deep recomputes it. A move that
// converts (a man move: w has no capture) counts its own ply, with the value after it; a king
// move leads to the mirror class, whose mtc file holds the values: 1 ply + the MTC there (1 if
// the side then to move must capture).
template <class R>
ProbeResult Tablebase::Impl::search_mirror_mtc(Variant v, const Position& w,
                                               bool cached_only) const noexcept {
    MoveList moves;
    MoveGenerator<R>::generate(w, moves);
    if (moves.empty()) {
        const Outcome o = no_move_outcome(v.giveaway);
        return {ProbeStatus::ok, o.value, 0, Metric::mtc};
    }
    BestOutcome best;
    for (const Move& move : moves) {
        const Position after = make_move(w, move);
        const bool converts = move.is_capture() || !(w.kings & bit(move.from));
        ProbeResult r = converts ? probe<R, Mode::wdl>(v, after, cached_only)
                                 : probe_distance<R>(v, after, cached_only, true);
        if (!r.ok()) return {r.status};
        best.add({r.value, static_cast<std::uint16_t>(converts ? 0 : r.plies)});
        if (r.value == Value::loss && converts) break;  // a win in 1: none shorter
    }
    const Outcome o = best.result();
    if (o.value == Value::unknown) return {ProbeStatus::error_corrupt};
    return {ProbeStatus::ok, o.value, o.value == Value::draw ? std::uint16_t{0} : o.plies,
            Metric::mtc};
}

template <class R>
StoredMtc Tablebase::Impl::stored_mtc(VariantTables& vt, const Position& w, bool cached_only,
                                      ProbeStatus& status) const noexcept {
    const Material m = Material::of(w);
    const int slot_number = material_slot(m.white_men, m.white_kings, m.black_men, m.black_kings);
    if (slot_number < 0) {
        status = ProbeStatus::error_corrupt;
        return {};
    }
    ClassSlot& slot = vt.slots[slot_number];
    const TableFile* mtc = table(vt, slot, m, Metric::mtc, cached_only, status);
    if (!mtc) return {};
    if (!mtc->holds_values()) return {StoredMtc::Kind::none};
    const ReadResult r = cached_only ? mtc->try_value(slot.index->index(w), cache)
                                     : mtc->value(slot.index->index(w), cache);
    if (!r.ok()) {
        status = read_failed(slot, Metric::mtc, *mtc, r.status);
        return {};
    }
    const auto value = static_cast<std::uint16_t>(r.value);
    if (value == mtc_draw || mtc_outcome(value) == wdl_unknown) {
        status = ProbeStatus::error_corrupt;  // a win or a loss by the wdl files
        return {};
    }
    if (mtc_folded(value, mtc->header().mtc_fold)) return {StoredMtc::Kind::folded};
    return {StoredMtc::Kind::exact, static_cast<std::uint16_t>(mtc_distance(value))};
}

// The reads of a folded distance's search (table/mtc_fold.hpp): values by wdl probes, stored
// distances from the mtc files; the first failure kept.
template <class R>
ProbeResult Tablebase::Impl::resolve_folded_mtc(Variant v, const Position& w, Value value, int fold,
                                                bool cached_only) const noexcept {
    VariantTables* vt = tables_of(v);
    if (!vt) return {ProbeStatus::not_in_database};
    struct Reader {
        const Impl& impl;
        VariantTables& vt;
        Variant v;
        bool cached_only;
        mutable ProbeStatus failure = ProbeStatus::ok;
        std::optional<Value> value(const Position& q) const {
            const ProbeResult r = impl.probe<R, Mode::wdl>(v, q, cached_only);
            if (r.ok()) return r.value;
            failure = r.status;
            return std::nullopt;
        }
        StoredMtc stored(const Position& q) const {
            const Position qw = q.side == Color::white ? q : flip(R::Board::spec, q);
            return impl.stored_mtc<R>(vt, qw, cached_only, failure);
        }
    };
    const Reader reader{*this, *vt, v, cached_only};
    const std::optional<std::uint16_t> plies = FoldedMtc<R, Reader>(reader, fold).resolve(w, value);
    if (!plies)
        return {reader.failure == ProbeStatus::ok ? ProbeStatus::error_corrupt : reader.failure};
    return {ProbeStatus::ok, value, *plies, Metric::mtc};
}

template <class R>
ProbeResult Tablebase::Impl::probe_distance(Variant v, const Position& p, bool cached_only,
                                            bool searching) const noexcept {
    if (const ProbeStatus s = check_position<R>(p, cap); s != ProbeStatus::ok) return {s};
    VariantTables* vt = tables_of(v);
    if (!vt) return {ProbeStatus::not_in_database};
    const Position w = p.side == Color::white ? p : flip(R::Board::spec, p);
    const Material m = Material::of(w);
    const int slot_number = material_slot(m.white_men, m.white_kings, m.black_men, m.black_kings);
    const TableFile* mtc = nullptr;
    if (slot_number >= 0 && m.white() > 0 && m.black() > 0) {
        const RetiredFiles::Reader reading(retired);
        ClassSlot& slot = vt->slots[slot_number];
        ProbeStatus status = ProbeStatus::ok;
        mtc = table(*vt, slot, m, Metric::mtc, cached_only, status);
        if (!mtc && status != ProbeStatus::not_in_database) return {status};
        if (mtc && !mtc->holds_values() && !MoveGenerator<R>::has_capture(p)) {
            // Mirror layout: one ply into the class that holds the values.
            if (searching) return {ProbeStatus::error_corrupt};  // both mirror layout
            return search_mirror_mtc<R>(v, w, cached_only);
        }
        if (mtc && !MoveGenerator<R>::has_capture(p)) {
            // A quiet position: its value and MTC in the file (format.hpp).
            const std::uint64_t index = slot.index->index(w);
            const ReadResult r =
                cached_only ? mtc->try_value(index, cache) : mtc->value(index, cache);
            if (!r.ok()) return {read_failed(slot, Metric::mtc, *mtc, r.status)};
            const auto value = static_cast<std::uint16_t>(r.value);
            const std::uint8_t v8 = mtc_outcome(value);
            if (v8 == wdl_unknown) return {ProbeStatus::error_corrupt};
            const auto out = static_cast<Value>(v8);
            if (mtc_folded(value, mtc->header().mtc_fold))
                return resolve_folded_mtc<R>(v, w, out, mtc->header().mtc_fold, cached_only);
            return {ProbeStatus::ok, out,
                    static_cast<std::uint16_t>(out == Value::draw ? 0 : mtc_distance(value)),
                    Metric::mtc};
        }
    }
    if (!mtc) {  // a dtw class (or a position the files never hold)
        ProbeResult r = probe<R, Mode::dtw>(v, p, cached_only);
        if (r.ok()) r.metric = Metric::dtw;
        return r;
    }
    // It must capture: every capture converts, so a win or a loss is 1 ply from its conversion.
    ProbeResult r = probe<R, Mode::wdl>(v, p, cached_only);
    if (!r.ok()) return r;
    r.plies = r.value == Value::draw ? 0 : 1;
    r.metric = Metric::mtc;
    return r;
}

template <class R, Mode mode>
ProbeResult Tablebase::Impl::probe(Variant v, const Position& p, bool cached_only) const noexcept {
    if (const ProbeStatus s = check_position<R>(p, cap); s != ProbeStatus::ok) return {s};
    const RetiredFiles::Reader reading(retired);
    VariantTables* vt = tables_of(v);
    if (!vt) return {ProbeStatus::not_in_database};
    ProbeStatus failure = ProbeStatus::ok;
    const auto stored = [&](const Position& q, Outcome& out) {
        failure = read_stored<R, mode>(*vt, q, cached_only, out);
        return failure == ProbeStatus::ok;
    };
    Outcome out;
    if (!try_resolve_outcome<R>(p, v.giveaway, stored, out)) return {failure};
    if (out.value == Value::unknown) return {ProbeStatus::error_corrupt};
    if (mode != Mode::dtw || out.value == Value::draw) out.plies = 0;
    return {ProbeStatus::ok, out.value, out.plies, mode == Mode::dtw ? Metric::dtw : Metric::wdl};
}

// ---- Public functions.

const char* probe_status_name(ProbeStatus s) {
    switch (s) {
        case ProbeStatus::ok:
            return "ok";
        case ProbeStatus::not_in_database:
            return "not in the database";
        case ProbeStatus::not_in_cache:
            return "not in the cache";
        case ProbeStatus::error_corrupt:
            return "corrupt table file";
        case ProbeStatus::error_io:
            return "read error";
        case ProbeStatus::invalid_position:
            return "invalid position";
        case ProbeStatus::invalid_argument:
            return "invalid argument";
        case ProbeStatus::no_rule_table:
            return "no rule table";
        case ProbeStatus::unreachable_counts:
            return "counts no game reaches";
    }
    return "unknown status";
}

const char* value_name(Value v) {
    switch (v) {
        case Value::win:
            return "win";
        case Value::draw:
            return "draw";
        case Value::loss:
            return "loss";
        case Value::unknown:
            return "unknown";
    }
    return "unknown";
}

std::optional<Position> position_from_masks(Variant v, const SquareMasks& masks) {
    const auto& table = mask_tables().layout_of_mask_bit[static_cast<int>(v.base)];
    Position p;
    if (!remap(masks.white, table, p.pieces[0]) || !remap(masks.black, table, p.pieces[1]) ||
        !remap(masks.kings, table, p.kings))
        return std::nullopt;
    p.side = masks.side;
    return p;
}

SquareMasks masks_from_position(Variant v, const Position& p) {
    const auto& table = mask_tables().mask_of_layout_bit[static_cast<int>(v.base)];
    SquareMasks m;
    remap(p.of(Color::white), table, m.white);
    remap(p.of(Color::black), table, m.black);
    remap(p.kings, table, m.kings);
    m.side = p.side;
    return m;
}

Tablebase::Tablebase(const TablebaseOptions& options) {
    std::error_code ec;
    if (!std::filesystem::is_directory(options.dir, ec))
        throw Error("no database folder " + options.dir.string());
    if (options.cache_mib > max_cache_mib)
        throw Error("a cache of " + std::to_string(options.cache_mib) +
                    " MiB is too large (at most " + std::to_string(max_cache_mib) + " MiB, 1 TiB)");
    impl_ = std::make_unique<Impl>(options);
    std::lock_guard lock(impl_->open_mutex);
    impl_->scan_folder();
}

std::unique_ptr<Tablebase> Tablebase::open(const std::filesystem::path& dir, std::size_t cache_mib,
                                           int max_pieces,
                                           std::function<void(const std::string&)> message) {
    TablebaseOptions o;
    o.dir = dir;
    o.cache_mib = cache_mib;
    o.max_pieces = max_pieces;
    o.message = std::move(message);
    return std::make_unique<Tablebase>(o);
}

Tablebase::~Tablebase() = default;

CachedReadsOnly::CachedReadsOnly() noexcept : previous_(cached_reads_only) {
    cached_reads_only = true;
}

CachedReadsOnly::~CachedReadsOnly() {
    cached_reads_only = previous_;
}

bool CachedReadsOnly::active() noexcept {
    return cached_reads_only;
}

ProbeResult Tablebase::probe_wdl(Variant v, const Position& p) const noexcept {
    const bool cached_only = cached_reads_only;
    return dispatch(v.base, [&](auto rules) {
        return impl_->probe<decltype(rules), Mode::wdl>(v, p, cached_only);
    });
}

ProbeResult Tablebase::probe_wdl_cached(Variant v, const Position& p) const noexcept {
    return dispatch(
        v.base, [&](auto rules) { return impl_->probe<decltype(rules), Mode::wdl>(v, p, true); });
}

ProbeResult Tablebase::probe_dtw(Variant v, const Position& p) const noexcept {
    const bool cached_only = cached_reads_only;
    return dispatch(v.base, [&](auto rules) {
        return impl_->probe<decltype(rules), Mode::dtw>(v, p, cached_only);
    });
}

ProbeResult Tablebase::probe_distance(Variant v, const Position& p) const noexcept {
    const bool cached_only = cached_reads_only;
    return dispatch(v.base, [&](auto rules) {
        return impl_->probe_distance<decltype(rules)>(v, p, cached_only);
    });
}

const char* distance_name(Metric m) {
    return m == Metric::dtw || m == Metric::mtc ? metric_name(m) : "";
}

ProbeStatus Tablebase::read_rule_value(const DrawRules& rules, const Position& w, Regime regime,
                                       std::uint16_t& dtr, int gap) const noexcept {
    const RetiredFiles::Reader reading(impl_->retired);
    VariantTables* vt = impl_->tables_of(rules.variant);
    if (!vt) return ProbeStatus::not_in_database;
    const Material m{popcount(w.men(Color::white)), popcount(w.kings_of(Color::white)),
                     popcount(w.men(Color::black)), popcount(w.kings_of(Color::black))};
    const int slot_number = material_slot(m.white_men, m.white_kings, m.black_men, m.black_kings);
    if (slot_number < 0 || m.white() == 0 || m.black() == 0 || w.side != Color::white)
        return ProbeStatus::not_in_database;
    ClassSlot& slot = vt->slots[slot_number];
    const bool cached_only = cached_reads_only;
    ProbeStatus status = ProbeStatus::ok;
    if (gap < 0 || gap > forcada_gaps || (gap > 0 && regime != Regime::forcada_running))
        return ProbeStatus::invalid_argument;
    const Metric metric = metric_of(rules, regime, gap);
    const TableFile* file = impl_->table(*vt, slot, m, metric, cached_only, status);
    if (!file) return status == ProbeStatus::not_in_database ? ProbeStatus::no_rule_table : status;
    const std::uint64_t index =
        slot.index->index(w) +
        (gap > 0 ? static_cast<std::uint64_t>(gap - 1) * slot.index->size() : 0);
    const ReadResult r =
        cached_only ? file->try_value(index, impl_->cache) : file->value(index, impl_->cache);
    if (!r.ok()) return impl_->read_failed(slot, metric, *file, r.status);
    dtr = r.value;
    return ProbeStatus::ok;
}

const std::filesystem::path& Tablebase::dir() const {
    return impl_->options.dir;
}
int Tablebase::max_pieces() const {
    return impl_->cap;
}

int Tablebase::largest_class(Variant v) const {
    const VariantTables* vt = impl_->tables_of(v);
    return vt ? std::min(vt->largest.load(std::memory_order_relaxed), impl_->cap) : 0;
}

std::vector<TableListing> Tablebase::identify() const {
    std::vector<TableListing> out;
    for (const Variant v : all_variants()) {
        const std::filesystem::path folder = impl_->options.dir / v.name();
        std::error_code ec;
        if (!std::filesystem::is_directory(folder, ec)) continue;
        std::vector<std::pair<std::filesystem::path, Metric>> paths;
        for (const auto& e : std::filesystem::directory_iterator(folder, ec)) {
            if (!Material::parse(e.path().stem().string())) continue;
            const std::string ext = e.path().extension().string();
            for (int m = 0; m < metric_count; ++m)  // wdl, dtw and the rule tables
                if (ext.size() > 1 && ext.substr(1) == metric_name(static_cast<Metric>(m)))
                    paths.emplace_back(e.path(), static_cast<Metric>(m));
        }
        std::sort(paths.begin(), paths.end());
        for (const auto& [path, metric] : paths) {
            TableListing t;
            t.variant = v;
            t.class_name = path.stem().string();
            t.metric = metric;
            t.path = path;
            t.file_bytes = std::filesystem::file_size(path, ec);
            try {
                t.header = TableFile(path, listed_identity(t)).header();
            } catch (const Error& e) {
                t.error = e.what();
            }
            out.push_back(std::move(t));
        }
    }
    return out;
}

void Tablebase::refresh() {
    impl_->refresh();
}

void Tablebase::set_retry_delay(std::chrono::milliseconds delay) {
    impl_->retry_ns.store(
        std::chrono::nanoseconds(std::max(delay, std::chrono::milliseconds{0})).count(),
        std::memory_order_relaxed);
}

BlockCacheStats Tablebase::cache_stats() const {
    return impl_->cache.stats();
}

std::size_t Tablebase::memory_bytes() const {
    std::size_t n = sizeof(Tablebase) + sizeof(Impl) + impl_->cache.capacity_bytes();
    std::lock_guard lock(impl_->open_mutex);  // no file is let go meanwhile
    for (const auto& vt : impl_->variant_storage) {
        n += sizeof(VariantTables);
        for (const ClassSlot& slot : vt->slots)
            for (const TableSlot& t : slot.tables)
                if (const TableFile* f = t.file.load())
                    n += sizeof(TableFile) + 16 * f->header().blocks;
    }
    n += impl_->indexes.size() * sizeof(ClassIndex);
    return n;
}

}  // namespace damas
