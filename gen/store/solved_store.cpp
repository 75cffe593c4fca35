#include "gen/store/solved_store.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <atomic>
#include <numeric>
#include <optional>

#include "folder/files.hpp"
#include "gen/process/huge_pages.hpp"
#include "gen/store/block_cursor.hpp"
#include "gen/units/solved_class_file.hpp"
#include "rules/error.hpp"
#include "table/mtc_fold.hpp"
#include "table/table_file.hpp"

namespace damas {

void SolvedStore::add(Material m, std::vector<std::uint16_t> outcomes, bool complete) {
    SolvedClass c{m,
                  std::make_unique<ClassIndex>(variant_.info().board, m),
                  std::move(outcomes),
                  {},
                  false,
                  complete,
                  nullptr};
    if (values_only_) to_values(c);
    keep(std::move(c));
}

void SolvedStore::keep(SolvedClass c) {
    const Material m = c.material;
    const SolvedClass& kept = classes_.insert_or_assign(m, std::move(c)).first->second;
    by_key_[key(m)] = &kept;
    save_if_loaded_again(kept);
}

// A byte of values at a time (4 positions), so that no two threads write one byte.
void SolvedStore::to_values(SolvedClass& c) const {
    const std::uint64_t n = c.outcomes.size();
    std::vector<std::uint8_t> values = huge_vector<std::uint8_t>(value_bytes(n));
    tbb::parallel_for(tbb::blocked_range<std::uint64_t>(0, values.size(), 4096),
                      [&](const auto& r) {
                          for (std::uint64_t i = 4 * r.begin(); i < std::min(n, 4 * r.end()); ++i)
                              put_value(values.data(), i, unpack_outcome(c.outcomes[i]).value);
                      });
    c.values = std::move(values);
    c.values_only = true;
    std::vector<std::uint16_t>().swap(c.outcomes);
}

void SolvedStore::hold_values(bool values_only) {
    if (values_only == values_only_) return;
    values_only_ = values_only;
    std::vector<Material> dropped;
    for (auto& [m, c] : classes_)
        if (c.files || !values_only)
            dropped.push_back(m);
        else
            to_values(c);
    for (const Material m : dropped) drop(m);
}

StoreNeeds store_needs(Material m) {
    StoreNeeds needs;
    std::vector<Material> todo;
    for (const Material d : dependencies(m)) {
        needs.complete.insert(d);
        todo.push_back(d);
    }
    while (!todo.empty()) {
        const Material c = todo.back();
        todo.pop_back();
        for (const Material d : capture_dependencies(c))
            if (needs.quiet.insert(d).second) todo.push_back(d);
    }
    return needs;
}

std::set<Material> store_closure(Material m) {
    std::set<Material> out;
    for (const Material c : {m, m.mirrored()}) {
        const StoreNeeds needs = store_needs(c);
        out.insert(needs.complete.begin(), needs.complete.end());
        out.insert(needs.quiet.begin(), needs.quiet.end());
    }
    return out;
}

void SolvedStore::load_below(Material m) {
    const StoreNeeds needs = store_needs(m);
    for (const auto* set : {&needs.complete, &needs.quiet})
        for (const Material c : *set)
            if (!has(c)) load(c);
    // Once what their capture searches read is in memory, their capture positions are resolved.
    for (const Material c : needs.complete)
        if (!classes_.at(c).complete && !classes_.at(c).files) complete(classes_.at(c));
}

// Sets each position of c to what outcome_of(rules, p) gives (nothing: left as it is), in
// parallel; held as values, a byte of them (4 positions) at a time, so that no two threads
// write one byte.
template <class F>
void SolvedStore::set_outcomes(SolvedClass& c, const F& outcome_of) const {
    const std::uint64_t n = c.index->size(), step = c.values_only ? 4 : 1;
    dispatch(variant_.base, [&](auto rules) {
        tbb::parallel_for(
            tbb::blocked_range<std::uint64_t>(0, (n + step - 1) / step, 4096), [&](const auto& r) {
                c.index->for_each_position(step * r.begin(), std::min(n, step * r.end()),
                                           [&](std::uint64_t i, const Position& p) {
                                               const std::optional<Outcome> o =
                                                   outcome_of(rules, p);
                                               if (!o) return;
                                               if (c.values_only)
                                                   set_value(c.values.data(), i, o->value);
                                               else
                                                   c.outcomes[i] = pack_outcome(*o);
                                           });
            });
    });
}

// Replaces the fill values of the capture positions by their outcomes, so that lookups read
// every position directly. A capture search only reads quiet positions of smaller classes.
void SolvedStore::complete(SolvedClass& c) {
    set_outcomes(c, [this](auto rules, const Position& p) -> std::optional<Outcome> {
        using R = decltype(rules);
        if (!MoveGenerator<R>::has_capture(p)) return std::nullopt;
        return resolve_outcome<R>(p, variant_.giveaway,
                                  [this](const Position& q) { return stored(q); });
    });
    c.complete = true;
    save_if_loaded_again(c);
}

void SolvedStore::save_if_loaded_again(const SolvedClass& c) const {
    if (!loaded_again_ || !c.complete || c.files || !loaded_again_(c.material)) return;
    std::error_code ec;
    if (c.values_only) {
        // Either form gives the values (load_solved_file).
        const std::filesystem::path path =
            solved_class_path(dir_, variant_, c.material, Metric::wdl);
        if (!std::filesystem::exists(path, ec) &&
            !std::filesystem::exists(
                solved_class_path(dir_, variant_, c.material, distance_metric(c.material)), ec))
            write_solved_values(path, variant_, c.material, c.values, c.index->size(),
                                solved_chunk_positions_);
        return;
    }
    const std::filesystem::path path =
        solved_class_path(dir_, variant_, c.material, distance_metric(c.material));
    if (!std::filesystem::exists(path, ec))
        write_solved_class(path, variant_, c.material, c.outcomes, solved_chunk_positions_);
}

// The class from its solved class file, if that is whole (else it is loaded from its tables).
// Held as values: from the values-only form, else from the one with distances (written by a
// pair in units).
bool SolvedStore::load_solved_file(Material m) {
    if (!loaded_again_) return false;
    std::error_code ec;
    if (values_only_) {
        const std::uint64_t n = ClassIndex(variant_.info().board, m).size();
        for (const Metric form : {Metric::wdl, distance_metric(m)}) {
            const std::filesystem::path path = solved_class_path(dir_, variant_, m, form);
            if (!std::filesystem::exists(path, ec)) continue;
            auto values = read_solved_values(path, variant_, m, n);
            if (!values) {
                std::filesystem::remove(path, ec);  // damaged: the tables give the values again
                continue;
            }
            keep({m,
                  std::make_unique<ClassIndex>(variant_.info().board, m),
                  {},
                  std::move(*values),
                  true,
                  true,
                  nullptr});
            return true;
        }
        return false;
    }
    const std::filesystem::path path = solved_class_path(dir_, variant_, m, distance_metric(m));
    if (!std::filesystem::exists(path, ec)) return false;
    auto outcomes =
        read_solved_class(path, variant_, m, ClassIndex(variant_.info().board, m).size());
    if (!outcomes) {
        std::filesystem::remove(path, ec);  // damaged: the tables give the values again
        return false;
    }
    add(m, std::move(*outcomes), true);
    return true;
}

void SolvedStore::drop(Material m) {
    by_key_[key(m)] = nullptr;
    classes_.erase(m);
    // A class read through whose lookups search into m goes too: it opens again with what it
    // reads when next loaded.
    std::vector<Material> searching;
    for (const auto& [c, held] : classes_)
        if (held.files && held.files->mirrored && search_reads(c).count(m)) searching.push_back(c);
    for (const Material c : searching)
        if (has(c)) drop(c);
}

void SolvedStore::read_through(const std::set<Material>& classes, std::size_t cache_bytes) {
    std::vector<Material> changed;
    for (const auto& [m, c] : classes_)
        if (classes.count(m) != (c.files != nullptr)) changed.push_back(m);
    for (const Material m : changed)
        if (has(m)) drop(m);  // a drop may take others with it
    read_through_ = classes;
    if (classes.empty()) cache_bytes = 0;
    if (cache_bytes != cache_bytes_) cache_.reset();
    if (cache_bytes > 0 && !cache_) cache_ = std::make_unique<BlockCache>(cache_bytes);
    cache_bytes_ = cache_bytes;
}

void SolvedStore::drop_unless(const std::set<Material>& keep, int pieces) {
    std::vector<Material> freed;
    for (const auto& [m, c] : classes_)
        if ((pieces == 0 || m.pieces() == pieces) && !keep.count(m)) freed.push_back(m);
    for (const Material m : freed)
        if (has(m)) drop(m);  // a drop may take others with it
}

void SolvedStore::evict(int pieces, const std::set<Material>& keep) {
    drop_unless(keep, pieces);
}

void SolvedStore::retain(const std::set<Material>& keep) {
    drop_unless(keep, 0);
}

std::size_t SolvedStore::bytes() const {
    std::size_t n = 0;
    for (const auto& [m, c] : classes_)
        n += c.outcomes.size() * sizeof(std::uint16_t) + c.values.size();
    return n + (cache_ ? cache_->capacity_bytes() : 0);
}

void SolvedStore::missing(Material m) {
    throw Error("class " + m.name() + " is needed but not loaded (generate it first)");
}

// The class's outcomes in memory, read a window of blocks at a time (the values, 2 bytes a
// position, and no more: the whole dtw and wdl arrays beside them took 5 bytes a position while
// a class loaded).
void SolvedStore::load(Material m) {
    if (reads_through(m)) return open(m);
    ++classes_loaded_;
    if (load_solved_file(m)) return void(++classes_from_solved_files_);
    std::unique_ptr<const SolvedClass::Files> files = open_files(m);
    if (files->mirrored) return load_mirrored(m);
    if (values_only_) return load_values(m, *files);
    // Looked up at random by the pairs that capture or crown into this class.
    std::vector<std::uint16_t> outcomes = huge_vector<std::uint16_t>(files->distance->size());
    const std::uint64_t dtw_block = files->distance->header().positions_per_block;
    const std::uint64_t window =
        files->wdl ? std::lcm(dtw_block, std::uint64_t{files->wdl->header().positions_per_block})
                   : dtw_block;
    tbb::parallel_for(
        std::uint64_t{0}, (outcomes.size() + window - 1) / window, [&](std::uint64_t w) {
            const std::uint64_t first = w * window;
            const std::size_t n =
                static_cast<std::size_t>(std::min<std::uint64_t>(window, outcomes.size() - first));
            files->read_range(first, std::span(outcomes).subspan(first, n));
        });
    add(m, std::move(outcomes), false);
    if (files->metric == Metric::mtc) classes_.at(m).mtc_fold = files->distance->header().mtc_fold;
}

// The class's values (2 bits a position), read a window of blocks at a time: whole bytes of
// values (a multiple of 4 positions), the wdl file's blocks and, only where it holds no values,
// the distance file's.
void SolvedStore::load_values(Material m, const SolvedClass::Files& files) {
    const std::uint64_t n = files.distance->size();
    std::vector<std::uint8_t> values = huge_vector<std::uint8_t>(value_bytes(n));
    std::uint64_t window = files.wdl ? files.wdl->header().positions_per_block : 1;
    if (!files.wdl || files.wdl->half())
        window = std::lcm(window, std::uint64_t{files.distance->header().positions_per_block});
    window = std::lcm(window, std::uint64_t{4});
    tbb::parallel_for(std::uint64_t{0}, (n + window - 1) / window, [&](std::uint64_t w) {
        const std::uint64_t first = w * window;
        files.read_values(first, std::min(window, n - first), values.data());
    });
    keep({m,
          std::make_unique<ClassIndex>(variant_.info().board, m),
          {},
          std::move(values),
          true,
          false,
          nullptr});
}

}  // namespace damas

namespace damas {

namespace {

// The outcome a class holds (as read_wdl_values gives it): the wdl file's value (3, the context
// codec's skipped positions: a draw), or the distance file's where the wdl file holds none
// (mirror layout) or not this position (half layout): the dtw's parity, the mtc's own bit.
// The plies: the dtw, or the mtc (format.hpp).
std::uint16_t packed_outcome(std::uint16_t distance, Metric metric, bool has_wdl, std::uint8_t wdl,
                             bool half, bool giveaway) {
    const bool mtc = metric == Metric::mtc;
    std::uint8_t v = wdl;
    if (!has_wdl || (half && v == wdl_unknown))
        v = mtc ? mtc_outcome(distance) : dtw_outcome(distance, giveaway);
    if (v == wdl_unknown) v = wdl_draw;  // fill values may be anything
    Outcome o{static_cast<Value>(v), 0};
    if (o.value == Value::win || o.value == Value::loss)
        o.plies = static_cast<std::uint16_t>(mtc ? mtc_distance(distance) : distance);
    return pack_outcome(o);
}

}  // namespace

void SolvedClass::Files::read_range(std::uint64_t first, std::span<std::uint16_t> out) const {
    BlockCursor dtw(*distance);
    std::optional<BlockCursor> wdl_values;
    if (wdl) wdl_values.emplace(*wdl);
    for (std::size_t i = 0; i < out.size(); ++i) {
        const std::uint64_t at = first + i;
        const std::uint16_t plies = dtw.u16_at(at);
        const std::uint8_t v = wdl_values ? wdl_values->wdl_at(at) : wdl_unknown;
        out[i] = packed_outcome(plies, metric, wdl != nullptr, v, wdl && wdl->half(), giveaway);
    }
}

namespace {

// Whether the wdl value read gives the position's value (else the distance file does, as in
// packed_outcome()).
bool wdl_holds_value(const SolvedClass::Files& f, std::uint8_t wdl) {
    return f.wdl && !(f.wdl->half() && wdl == wdl_unknown);
}
Value value_of_wdl(std::uint8_t wdl) {  // as packed_outcome() reads it
    return static_cast<Value>(wdl == wdl_unknown ? wdl_draw : wdl);
}

}  // namespace

void SolvedClass::Files::read_values(std::uint64_t first, std::uint64_t n,
                                     std::uint8_t* values) const {
    BlockCursor dtw(*distance);
    std::optional<BlockCursor> wdl_values;
    if (wdl) wdl_values.emplace(*wdl);
    for (std::uint64_t at = first; at < first + n; ++at) {
        const std::uint8_t v = wdl_values ? wdl_values->wdl_at(at) : wdl_unknown;
        if (wdl_holds_value(*this, v)) {
            put_value(values, at, value_of_wdl(v));
            continue;
        }
        put_value(values, at,
                  unpack_outcome(packed_outcome(dtw.u16_at(at), metric, wdl != nullptr, v,
                                                wdl && wdl->half(), giveaway))
                      .value);
    }
}

namespace {

[[noreturn]] void read_failed(const TableFile& f, ReadResult r) {
    throw Error(f.path().string() + ": " + read_status_name(r.status));
}

// Held as values: the wdl file's value, and the distance file only where it holds none.
Outcome read_value(const SolvedClass::Files& f, std::uint64_t index, BlockCache& cache) {
    std::uint8_t v = wdl_unknown;
    if (f.wdl) {
        const ReadResult r = f.wdl->value(index, cache);
        if (!r.ok()) read_failed(*f.wdl, r);
        v = static_cast<std::uint8_t>(r.value);
        if (wdl_holds_value(f, v)) return {value_of_wdl(v), 0};
    }
    const ReadResult plies = f.distance->value(index, cache);
    if (!plies.ok()) read_failed(*f.distance, plies);
    return {unpack_outcome(packed_outcome(plies.value, f.metric, f.wdl != nullptr, v,
                                          f.wdl && f.wdl->half(), f.giveaway))
                .value,
            0};
}

}  // namespace

Outcome SolvedClass::Files::read(std::uint64_t index, BlockCache& cache) const {
    if (values_only) return read_value(*this, index, cache);
    const ReadResult plies = distance->value(index, cache);
    if (!plies.ok()) read_failed(*distance, plies);
    std::uint8_t v = wdl_unknown;
    if (wdl) {
        const ReadResult r = wdl->value(index, cache);
        if (!r.ok()) read_failed(*wdl, r);
        v = static_cast<std::uint8_t>(r.value);
    }
    return unpack_outcome(
        packed_outcome(plies.value, metric, wdl != nullptr, v, wdl && wdl->half(), giveaway));
}

std::unique_ptr<const SolvedClass::Files> SolvedStore::open_files(Material m) const {
    auto files = std::make_unique<SolvedClass::Files>();
    // Checked against the class (variant, class, metric, index size) as every reader does.
    files->metric = distance_metric(m);
    files->distance =
        std::make_unique<TableFile>(table_path(dir_, variant_, m.name(), files->metric),
                                    TableIdentity{variant_, m, files->metric});
    auto wdl = std::make_unique<TableFile>(table_path(dir_, variant_, m.name(), Metric::wdl),
                                           TableIdentity{variant_, m, Metric::wdl});
    if (wdl->holds_values()) files->wdl = std::move(wdl);
    files->mirrored = !files->distance->holds_values();
    files->giveaway = variant_.giveaway;
    files->values_only = values_only_;
    return files;
}

void SolvedStore::open(Material m) {
    SolvedClass c{m,
                  std::make_unique<ClassIndex>(variant_.info().board, m),
                  {},
                  {},
                  false,
                  false,
                  open_files(m)};
    const bool mirrored = c.files->mirrored;
    if (!c.files->values_only && c.files->distance->header().mtc_fold != 0)
        throw Error(c.files->distance->path().string() +
                    ": an mtc file with folded distances is read whole, not through the cache "
                    "(give the run more memory)");
    by_key_[key(m)] = &classes_.insert_or_assign(m, std::move(c)).first->second;
    // No file holds its values: each lookup searches one ply (stored()) into what it reads.
    if (mirrored) load_for_search(m, true);
}

std::set<Material> search_reads(Material m) {
    std::set<Material> out{m.mirrored()};
    for (const Material side : {m, m.mirrored()}) {
        const StoreNeeds needs = store_needs(side);
        out.insert(needs.complete.begin(), needs.complete.end());
        out.insert(needs.quiet.begin(), needs.quiet.end());
    }
    out.erase(m);
    return out;
}

// What a search of m's moves reads: its mirror, whose files must hold the values (else the search
// would never end), every class one move from m or from its mirror (a king move of m leads to
// its mirror, whose positions may capture) and what their captures reach.
void SolvedStore::load_for_search(Material m, bool through) {
    const Material mirror = m.mirrored();
    const Metric metric = distance_metric(mirror);
    const std::filesystem::path path = table_path(dir_, variant_, mirror.name(), metric);
    if (!TableFile(path, TableIdentity{variant_, mirror, metric}).holds_values())
        throw Error(path.string() + ": the mtc files of " + m.name() + " and " + mirror.name() +
                    " both have the mirror layout: neither holds the values (regenerate them)");
    for (const Material c : search_reads(m))
        if (!has(c)) through ? open(c) : load(c);
}

void SolvedStore::load_mirrored(Material m) {
    load_for_search(m, false);
    // The mirror's distances, which m's are worked out from: resolved first where m's are read
    // (else resolving the mirror later works m out again).
    if (!distances_read_ || distances_read_(m)) resolve_folded(m.mirrored());
    SolvedClass c{
        m, std::make_unique<ClassIndex>(variant_.info().board, m), {}, {}, false, false, nullptr};
    const std::uint64_t n = c.index->size();
    if (values_only_) {
        c.values = huge_vector<std::uint8_t>(value_bytes(n));
        c.values_only = true;
    } else {
        c.outcomes = huge_vector<std::uint16_t>(n);
    }
    c.derived = true;
    dispatch(variant_.base, [&](auto rules) { derive_from_successors<decltype(rules)>(c); });
    keep(std::move(c));
}

template <class R>
void SolvedStore::derive_from_successors(SolvedClass& c) const {
    const Metric metric = distance_metric(c.material);
    set_outcomes(c, [&](auto, const Position& p) -> std::optional<Outcome> {
        // A fill value where the side to move must capture, as in the files (kept once the
        // class is complete: its captures resolved).
        if (MoveGenerator<R>::has_capture(p))
            return c.complete ? std::nullopt : std::optional<Outcome>(Outcome{Value::draw, 0});
        return from_successors<R>(p, metric);
    });
}

void SolvedStore::resolve_folded(Material m) {
    const auto at = classes_.find(m);
    if (at == classes_.end() || at->second.mtc_fold == 0 || resolving_.count(m)) return;
    resolving_.insert(m);
    try {
        for (const Material c : search_reads(m))
            if (!has(c)) load(c);
    } catch (...) {
        resolving_.erase(m);
        throw;
    }
    resolving_.erase(m);
    SolvedClass& c = classes_.at(m);
    dispatch(variant_.base, [&](auto rules) {
        using R = decltype(rules);
        resolve_folded<R>(c);
        // A mirror worked out while m's distances were folded: its distances again.
        const auto mirror = classes_.find(m.mirrored());
        if (mirror != classes_.end() && mirror->second.derived && m != m.mirrored())
            derive_from_successors<R>(mirror->second);
    });
}

// The search reads values through lookups, and distances from the arrays of m and its mirror
// as loaded (a folded one is searched in turn); a class worked out from its mirror, or whose
// files hold none, is searched.
template <class R>
void SolvedStore::resolve_folded(SolvedClass& c) const {
    struct Reader {
        const SolvedStore& store;
        std::optional<Value> value(const Position& q) const { return store.lookup<R>(q).value; }
        StoredMtc stored(const Position& q) const {
            const Position w = q.side == Color::white ? q : store.flip_(q);
            const SolvedClass& x = store.find(Material::of(w));
            // Values only (held so, or read so through the cache): no distance to read.
            if (x.derived || x.values_only ||
                (x.files && (x.files->mirrored || x.files->values_only)))
                return {StoredMtc::Kind::none};
            const Outcome o = x.files ? x.files->read(x.index->index(w), *store.cache_)
                                      : unpack_outcome(x.outcomes[x.index->index(w)]);
            if (o.value != Value::win && o.value != Value::loss) return {};
            if (x.mtc_fold != 0 && o.plies == 1) return {StoredMtc::Kind::folded};
            return {StoredMtc::Kind::exact, o.plies};
        }
    };
    const Reader reader{*this};
    const FoldedMtc<R, Reader> folded(reader, c.mtc_fold);
    std::vector<std::uint16_t> resolved = huge_vector<std::uint16_t>(c.outcomes.size());
    std::atomic<bool> failed{false};
    tbb::parallel_for(
        tbb::blocked_range<std::uint64_t>(0, c.outcomes.size(), 4096), [&](const auto& r) {
            c.index->for_each_position(r.begin(), r.end(), [&](std::uint64_t i, const Position& p) {
                Outcome o = unpack_outcome(c.outcomes[i]);
                if ((o.value == Value::win || o.value == Value::loss) && o.plies == 1 &&
                    !MoveGenerator<R>::has_capture(p)) {
                    const std::optional<std::uint16_t> plies = folded.resolve(p, o.value);
                    if (plies)
                        o.plies = *plies;
                    else
                        failed.store(true, std::memory_order_relaxed);
                }
                resolved[i] = pack_outcome(o);
            });
        });
    if (failed.load())
        throw Error("class " + c.material.name() +
                    ": a folded mtc distance that no search of up to " +
                    std::to_string(c.mtc_fold) + " plies gives (the files disagree)");
    c.outcomes = std::move(resolved);
    c.mtc_fold = 0;
}

Outcome SolvedStore::searched(const Position& white_to_move) const {
    return dispatch(variant_.base, [&](auto rules) {
        return from_successors<decltype(rules)>(white_to_move,
                                                distance_metric(Material::of(white_to_move)));
    });
}

}  // namespace damas
