#include "gen/generate.hpp"

#include <tbb/blocked_range.h>
#include <tbb/global_control.h>

#include <malloc.h>
#include <sys/resource.h>
#include <tbb/parallel_for.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <thread>

#include "gen/compact_solver.hpp"
#include "gen/huge_pages.hpp"
#include "gen/pair_graph.hpp"
#include "gen/pair_runner.hpp"
#include "gen/plan.hpp"
#include "gen/run_record.hpp"
#include "gen/solved_store.hpp"
#include "gen/solver.hpp"
#include "gen/threads.hpp"
#include "gen/unit_file.hpp"
#include "gen/writer.hpp"
#include "index/class_index.hpp"
#include "rules/error.hpp"
#include "table/table_file.hpp"

namespace damas {
namespace {

std::string gib(double bytes) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2f GiB", bytes / (1024.0 * 1024.0 * 1024.0));
    return buf;
}

TableInfo table_info(const Variant& v, Material m) {
    return {v,
            {static_cast<std::uint8_t>(m.white_men), static_cast<std::uint8_t>(m.white_kings),
             static_cast<std::uint8_t>(m.black_men), static_cast<std::uint8_t>(m.black_kings)},
            generator_version()};
}

bool files_complete(const GenerateOptions& o, Material m, std::uint64_t positions) {
    for (Metric metric : {Metric::wdl, Metric::dtw})
        if (!table_complete(table_path(o.dir, o.variant, m.name(), metric),
                            table_info(o.variant, m), metric, positions))
            return false;
    return true;
}

// Whether the wdl file of a complete class holds its values (format.hpp's layouts).
bool wdl_holds_values(const GenerateOptions& o, Material m) {
    return TableFile(table_path(o.dir, o.variant, m.name(), Metric::wdl)).holds_values();
}

// The pair's files are complete and in the layout a run with these options writes.
bool pair_complete(const GenerateOptions& o, Material m, std::uint64_t positions) {
    const Material mirror = m.mirrored();
    if (!files_complete(o, m, positions)) return false;
    if (m == mirror) return wdl_holds_values(o, m);
    if (!files_complete(o, mirror, positions)) return false;  // a mirror has the same size
    const int stored = (wdl_holds_values(o, m) ? 1 : 0) + (wdl_holds_values(o, mirror) ? 1 : 0);
    return stored == (mirror_layout_allowed(o, m) ? 1 : 2);
}

struct WrittenClass {
    TableHeader wdl, dtw;
};

// Where a pair that gets the mirror layout writes its full wdl files until one is chosen: no
// file at a table's own path ever holds anything but its final bytes.
std::filesystem::path candidate_path(const GenerateOptions& o, Material m) {
    std::filesystem::path p = table_path(o.dir, o.variant, m.name(), Metric::wdl);
    p += ".full.tmp";
    return p;
}

// Where earlier versions wrote a class's wdl file with each codec before renaming the smaller:
// a run they killed may have left such files, which a rerun removes.
std::filesystem::path codec_path(const std::filesystem::path& wdl_path, const char* codec) {
    std::filesystem::path p = wdl_path;
    p += '.';
    p += codec;
    p += ".tmp";
    return p;
}

void remove_candidates(const GenerateOptions& o, Material m) {
    std::error_code ec;
    for (const Material c : {m, m.mirrored()}) {
        const std::filesystem::path wdl = table_path(o.dir, o.variant, c.name(), Metric::wdl);
        for (const std::filesystem::path& p : {wdl, candidate_path(o, c)}) {
            if (p != wdl) std::filesystem::remove(p, ec);
            for (const char* codec : {"zstd", "context"}) {
                std::filesystem::path candidate = codec_path(p, codec);
                std::filesystem::remove(candidate, ec);
                candidate += ".tmp";  // a killed writer's own temporary file
                std::filesystem::remove(candidate, ec);
            }
        }
    }
}

// After a pair is written: the temporary files a killed run may have left for its classes.
void remove_leftovers(const GenerateOptions& o, Material m) {
    remove_candidates(o, m);
    for (const Material c : {m, m.mirrored()})
        for (const Metric metric : {Metric::wdl, Metric::dtw}) {
            std::filesystem::path tmp = table_path(o.dir, o.variant, c.name(), metric);
            tmp += ".tmp";
            std::error_code ec;
            std::filesystem::remove(tmp, ec);
        }
}

WriteOptions write_options(const GenerateOptions& o) {
    WriteOptions wo;
    wo.threads = static_cast<unsigned>(std::max(1, o.threads));
    wo.durable = o.durable;
    return wo;
}

// f(i) for i in [0, n), in parallel: the passes over a class's values before it is written
// (hundreds of millions of positions; one thread took a tenth of a pair's writing time).
template <class F>
void for_each_index_in_parallel(std::size_t n, const F& f) {
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, n, std::size_t{1} << 16),
                      [&](const auto& r) {
                          for (std::size_t i = r.begin(); i != r.end(); ++i) f(i);
                      });
}

// A class's wdl values as the writer takes them: held (a pair solved whole: fastest, its values
// are in memory anyway) or read in passes (a pair in units: from its unit files, never held, or
// from a copy packed 2 bits a position where the budget allows: gen/plan.hpp, wdl_packed).
class ClassWdl {
  public:
    explicit ClassWdl(std::vector<std::uint8_t> held)
        : positions_(held.size()), held_(std::move(held)), in_passes_(false) {}
    ClassWdl(std::uint64_t positions, WdlPasses passes)
        : positions_(positions), passes_(std::move(passes)), in_passes_(true) {}
    ClassWdl(ClassWdl&&) = default;

    // The values packed from one pass: later passes unpack them instead of reading the stream.
    static ClassWdl packed(std::uint64_t positions, const WdlPasses& stream) {
        auto packed = std::make_shared<std::vector<std::uint8_t>>((positions + 3) / 4);
        const WdlValues values = stream();
        std::vector<std::uint8_t> block(std::size_t{1} << 16);
        for (std::uint64_t first = 0; first < positions; first += block.size()) {
            const std::span<std::uint8_t> v(
                block.data(),
                static_cast<std::size_t>(std::min<std::uint64_t>(block.size(), positions - first)));
            values(first, v);
            std::uint8_t* to = packed->data() + first / 4;  // block.size() is a multiple of 4
            for (std::size_t i = 0; i < v.size(); ++i)
                to[i / 4] = static_cast<std::uint8_t>(to[i / 4] | (v[i] & 3) << (2 * (i % 4)));
        }
        return ClassWdl(positions, [packed] {
            return WdlValues([packed](std::uint64_t first, std::span<std::uint8_t> out) {
                for (std::size_t i = 0; i < out.size(); ++i) {
                    const std::uint64_t p = first + i;
                    out[i] = ((*packed)[p / 4] >> (2 * (p % 4))) & 3;
                }
            });
        });
    }

    std::uint64_t positions() const { return positions_; }
    WdlPasses passes() const { return in_passes_ ? passes_ : wdl_passes_over(held_); }
    // The wdl header's counts: from the held values in parallel, else in one pass.
    TableHeader counts(const TableInfo& info, unsigned threads) const {
        return in_passes_ ? wdl_table_counts(info, positions_, passes_, threads)
                          : wdl_table_counts(info, held_);
    }

  private:
    std::uint64_t positions_;
    std::vector<std::uint8_t> held_;
    WdlPasses passes_;
    bool in_passes_;
};

// A solved pair as the writer reads it, one class at a time, so that a pair in units never has
// its whole results in memory: each class's wdl values (1 byte a position), then its DTW values
// by block.
class PairSource {
  public:
    virtual ~PairSource() = default;
    virtual int classes() const = 0;
    virtual Material material(int c) const = 0;
    virtual std::uint64_t positions(int c) const = 0;
    // Class c's wdl values as the writer takes them: unknown where the side to move must capture.
    virtual ClassWdl wdl(int c) const = 0;
    // Calls f with class c's DTW values by block (what is needed to give them is held meanwhile).
    virtual void with_dtw(int c, const std::function<void(const DtwValues&)>& f) const = 0;
    // Written within a memory budget: the writer holds nothing it can compute again.
    virtual bool bounded() const { return false; }
};

std::uint8_t wdl_code(std::uint16_t outcome, std::uint8_t capture) {
    return capture ? wdl_unknown : static_cast<std::uint8_t>(unpack_outcome(outcome).value);
}
std::uint16_t dtw_code(std::uint16_t outcome, std::uint8_t capture) {
    const Outcome v = unpack_outcome(outcome);
    return capture ? dtw_unknown : v.value == Value::draw ? dtw_draw : v.plies;
}

// A pair solved whole: its results in memory.
class ResultsSource : public PairSource {
  public:
    explicit ResultsSource(const std::vector<PairResult>& r) : r_(r) {}
    int classes() const override { return static_cast<int>(r_.size()); }
    Material material(int c) const override { return r_[c].material; }
    std::uint64_t positions(int c) const override { return r_[c].outcomes.size(); }
    ClassWdl wdl(int c) const override {
        const PairResult& r = r_[c];
        std::vector<std::uint8_t> out(r.outcomes.size());
        for_each_index_in_parallel(
            out.size(), [&](std::size_t i) { out[i] = wdl_code(r.outcomes[i], r.capture[i]); });
        return ClassWdl(std::move(out));
    }
    void with_dtw(int c, const std::function<void(const DtwValues&)>& f) const override {
        const PairResult& r = r_[c];
        // Converted block by block as the writer encodes: no copy of the class is held.
        f([&r](std::uint64_t first, std::span<std::uint16_t> out) {
            for (std::size_t k = 0; k < out.size(); ++k)
                out[k] = dtw_code(r.outcomes[first + k], r.capture[first + k]);
        });
    }

  private:
    const std::vector<PairResult>& r_;
};

// A pair solved in units: each class's values streamed from the unit files in class order
// (ClassStream: a chunk of each slice's unit at a time), never the pair's whole results.
class UnitsSource : public PairSource {
  public:
    UnitsSource(const GenerateOptions& o, const PairLayout& layout, bool wdl_packed)
        : o_(o), layout_(layout), wdl_packed_(wdl_packed) {}
    bool bounded() const override { return true; }
    int classes() const override { return layout_.classes(); }
    Material material(int c) const override { return layout_.material(c); }
    std::uint64_t positions(int c) const override { return layout_.index(c).size(); }
    // Each pass streams the class from its unit files again (a chunk of each slice at a time),
    // or the first one packs the values for the others.
    ClassWdl wdl(int c) const override {
        const GenerateOptions& o = o_;
        const PairLayout& layout = layout_;
        WdlPasses units = [&o, &layout, c] {
            auto stream = std::make_shared<ClassStream>(o.dir, o.variant, layout, c);
            auto outcomes = std::make_shared<std::vector<std::uint16_t>>();
            auto capture = std::make_shared<std::vector<std::uint8_t>>();
            return WdlValues(
                [stream, outcomes, capture](std::uint64_t, std::span<std::uint8_t> out) {
                    outcomes->resize(out.size());
                    capture->resize(out.size());
                    stream->next(*outcomes, *capture);
                    for (std::size_t i = 0; i < out.size(); ++i)
                        out[i] = wdl_code((*outcomes)[i], (*capture)[i]);
                });
        };
        if (wdl_packed_) return ClassWdl::packed(positions(c), units);
        return ClassWdl(positions(c), std::move(units));
    }
    void with_dtw(int c, const std::function<void(const DtwValues&)>& f) const override {
        ClassStream stream(o_.dir, o_.variant, layout_, c);
        std::vector<std::uint16_t> outcomes;
        std::vector<std::uint8_t> capture;
        // The writer asks for the blocks in order (write_dtw_table by block).
        f([&](std::uint64_t, std::span<std::uint16_t> out) {
            outcomes.resize(out.size());
            capture.resize(out.size());
            stream.next(outcomes, capture);
            for (std::size_t i = 0; i < out.size(); ++i) out[i] = dtw_code(outcomes[i], capture[i]);
        });
    }

  private:
    const GenerateOptions& o_;
    const PairLayout& layout_;
    bool wdl_packed_;
};

// Writes the wdl file with the chosen coding (zstd if that codec cannot code the values), the
// header's counts from `counts`.
TableHeader write_wdl_with(const GenerateOptions& o, Material m, const ClassWdl& wdl,
                           const TableHeader& counts, const WdlCoding& coding,
                           const std::filesystem::path& path, WriteOptions wo) {
    const TableInfo info = table_info(o.variant, m);
    wo.counts_from = &counts;
    if (const auto h = write_wdl_table(path, info, wdl.positions(), wdl.passes(), coding.codec,
                                       coding.half, wo))
        return *h;
    return *write_wdl_table(path, info, wdl.positions(), wdl.passes(), Codec::zstd, false, wo);
}

// The class's wdl file at wdl_path, coded as gen/wdl_policy.hpp says.
TableHeader write_class_wdl(const GenerateOptions& o, Material m, const ClassWdl& wdl,
                            const std::filesystem::path& wdl_path, const WriteOptions& wo) {
    const WdlCoding coding =
        choose_by_estimate(o, wdl.positions())
            ? estimated_wdl_coding(o, m, wdl.positions(), wdl.passes(), wo).coding
            : asked_wdl_coding(o, m);
    const TableHeader counts = wdl.counts(table_info(o.variant, m), wo.threads);
    return write_wdl_with(o, m, wdl, counts, coding, wdl_path, wo);
}

// Class c's DTW file, its header's counts taken from its wdl header.
TableHeader write_class_dtw(const GenerateOptions& o, const PairSource& source, int c,
                            const TableHeader& wdl, WriteOptions wo) {
    wo.counts_from = &wdl;
    const Material m = source.material(c);
    TableHeader h;
    source.with_dtw(c, [&](const DtwValues& values) {
        h = write_dtw_table(table_path(o.dir, o.variant, m.name(), Metric::dtw),
                            table_info(o.variant, m), source.positions(c), values, wo);
    });
    return h;
}

// A pair with the mirror layout whose classes are large: the class whose wdl file is estimated
// smaller gets it (with the codec estimated smaller), the other the mirror layout, so that only
// one wdl file is written whole. Returns the bytes written.
std::uint64_t write_pair_by_estimate(const GenerateOptions& o, const PairSource& pair) {
    WriteOptions wo = write_options(o);
    wo.hold_flags = !pair.bounded();
    // Held whole, one class's wdl values in memory at a time (those of the class that keeps them
    // are taken again for its file); in units, none: each is read in passes from the unit files.
    WdlChoice choice[2];
    TableHeader counts[2];
    for (int c = 0; c < 2; ++c) {
        const ClassWdl wdl = pair.wdl(c);
        choice[c] = estimated_wdl_coding(o, pair.material(c), wdl.positions(), wdl.passes(), wo);
        counts[c] = wdl.counts(table_info(o.variant, pair.material(c)), wo.threads);
    }
    // The second class on a tie, as apply_mirror_layout.
    const int kept = choice[0].bytes < choice[1].bytes ? 0 : 1;
    TableHeader headers[2];
    for (int c = 0; c < 2; ++c) {
        const Material m = pair.material(c);
        const std::filesystem::path path = table_path(o.dir, o.variant, m.name(), Metric::wdl);
        headers[c] =
            c == kept
                ? write_wdl_with(o, m, pair.wdl(c), counts[c], choice[c].coding, path, wo)
                : write_wdl_mirror_table(path, table_info(o.variant, m), counts[c], o.durable);
    }
    std::uint64_t bytes = 0;
    for (int c = 0; c < 2; ++c)
        bytes += headers[c].file_size + write_class_dtw(o, pair, c, headers[c], wo).file_size;
    return bytes;
}

// Of a pair's two full wdl files (at their candidate paths), moves the smaller to its table
// path and writes the other class's file in the mirror layout (the second class on a tie, so the
// bytes are the same on every run). A run killed in between leaves a pair that pair_complete()
// rejects. Returns the bytes saved.
std::uint64_t apply_mirror_layout(const GenerateOptions& o, const PairSource& pair,
                                  const WrittenClass* written) {
    const int drop = written[0].wdl.file_size < written[1].wdl.file_size ? 1 : 0;
    const Material kept = pair.material(1 - drop), mirrored = pair.material(drop);
    std::filesystem::rename(candidate_path(o, kept),
                            table_path(o.dir, o.variant, kept.name(), Metric::wdl));
    const TableHeader h =
        write_wdl_mirror_table(table_path(o.dir, o.variant, mirrored.name(), Metric::wdl),
                               table_info(o.variant, mirrored), written[drop].wdl, o.durable);
    return written[drop].wdl.file_size - h.file_size;
}

// Writes the pair's table files; returns the bytes written.
std::uint64_t write_pair(const GenerateOptions& o, const PairSource& pair) {
    const Material m = pair.material(0);
    const bool mirror_layout = pair.classes() == 2 && mirror_layout_allowed(o, m);
    if (mirror_layout && choose_by_estimate(o, pair.positions(0)))
        return write_pair_by_estimate(o, pair);
    WriteOptions wo = write_options(o);
    wo.hold_flags = !pair.bounded();
    WrittenClass written[2];
    std::uint64_t bytes = 0;
    for (int c = 0; c < pair.classes(); ++c) {
        const Material x = pair.material(c);
        const std::filesystem::path path =
            mirror_layout ? candidate_path(o, x)
                          : table_path(o.dir, o.variant, x.name(), Metric::wdl);
        written[c].wdl = write_class_wdl(o, x, pair.wdl(c), path, wo);
        written[c].dtw = write_class_dtw(o, pair, c, written[c].wdl, wo);
        bytes += written[c].wdl.file_size + written[c].dtw.file_size;
    }
    if (mirror_layout) bytes -= apply_mirror_layout(o, pair, written);
    return bytes;
}

// The process's CPU time so far (all threads), to tell a busy host from a slow pair.
double cpu_seconds() {
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    const auto seconds = [](const timeval& t) {
        return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) * 1e-6;
    };
    return seconds(u.ru_utime) + seconds(u.ru_stime);
}

// The process's peak resident memory since the last reset (VmHWM), 0 if unknown; then resets
// it (clear_refs 5), so that each pair's own peak is measured.
std::uint64_t take_peak_resident_bytes() {
    // What the pair freed goes back to the system before the next one is measured (malloc keeps
    // freed heap memory of its arenas otherwise).
    ::malloc_trim(0);
    std::uint64_t kib = 0;
    {
        std::ifstream status("/proc/self/status");
        std::string key;
        while (status >> key)
            if (key == "VmHWM:") {
                status >> kib;
                break;
            }
    }
    std::ofstream("/proc/self/clear_refs") << "5";
    return kib * 1024;
}

}  // namespace

const char* generator_version() {
    return "damas-gen 0.1.0";
}

std::filesystem::path default_database_dir() {
    if (const char* env = std::getenv("DAMAS_DB"); env && *env) return env;
    return "db";
}

std::vector<Material> planned_classes(const GenerateOptions& o) {
    const int max_pieces = o.only ? o.only->pieces() : o.max_pieces;
    std::vector<Material> all = classes_up_to(max_pieces);
    if (o.max_per_side > 0)
        std::erase_if(all, [&](Material m) {
            return m.white() > o.max_per_side || m.black() > o.max_per_side;
        });
    if (!o.only) return all;
    std::set<Material> needed{*o.only, o.only->mirrored()};
    std::vector<Material> todo(needed.begin(), needed.end());
    while (!todo.empty()) {
        const Material m = todo.back();
        todo.pop_back();
        // A class is solved with its mirror, so the mirror's dependencies are needed too.
        for (Material d : dependencies(m))
            for (Material e : {d, d.mirrored()})
                if (needed.insert(e).second) todo.push_back(e);
    }
    std::erase_if(all, [&](Material m) { return !needed.count(m); });
    return all;
}

namespace {

// The classes of `top` pieces that m or its mirror reach in one move (by crowning).
std::set<Material> top_dependencies(Material m, int top) {
    std::set<Material> out;
    for (Material c : {m, m.mirrored()})
        for (Material d : dependencies(c))
            if (d.pieces() == top) out.insert(d);
    return out;
}

// For a run that keeps the solved classes: for each class of the top size, the last pair that
// needs it in memory (the one that solves it or the last one that crowns into it). It is freed
// after that pair, so no class is ever read twice.
struct TopUses {
    std::map<Material, std::size_t> last_use;

    TopUses(const std::vector<PairStep>& pairs, int top) {
        for (std::size_t i = 0; i < pairs.size(); ++i) {
            const Material m = pairs[i].material;
            if (m.pieces() != top) continue;
            for (Material d : top_dependencies(m, top)) last_use[d] = i;
            last_use[m] = last_use[m.mirrored()] = i;
        }
    }
    // The classes of the top size still needed at pair i or later.
    std::set<Material> needed_from(std::size_t i) const {
        std::set<Material> out;
        for (const auto& [m, last] : last_use)
            if (last >= i) out.insert(m);
        return out;
    }
};

// Removes the pair's unit files of slices `from` on (and what a killed writer left of them).
void remove_units(const GenerateOptions& o, Material m, int slices, int from = 0) {
    for (int s = from; s < slices; ++s) {
        const std::filesystem::path path = unit_path(o.dir, o.variant, m, s);
        std::error_code ec;
        std::filesystem::remove(path, ec);
        std::filesystem::path tmp = path;
        tmp += ".tmp";
        std::filesystem::remove(tmp, ec);
    }
}

// The first slice of the pair without a unit file: where a rerun continues.
int first_missing_unit(const GenerateOptions& o, const PairLayout& layout) {
    int s = 0;
    while (s < layout.slice_count() &&
           std::filesystem::exists(unit_path(o.dir, o.variant, layout.material(0), s)))
        ++s;
    return s;
}

std::unique_ptr<UnitReader> open_pair_unit(const GenerateOptions& o, const PairLayout& layout,
                                           int s) {
    return std::make_unique<UnitReader>(unit_path(o.dir, o.variant, layout.material(0), s),
                                        o.variant, layout, s);
}

bool unit_opens(const GenerateOptions& o, const PairLayout& layout, int s) {
    try {
        open_pair_unit(o, layout, s);
        return true;
    } catch (const DamagedUnit&) {
        return false;
    }
}

// Whether slice s of a pair in units goes to the byte-a-position solver: every slice of a
// compact pair whose men configurations it splits, else those the other solver would solve whole
// (gen/compact_solver.hpp).
bool slice_by_bytes(const GenerateOptions& o, const PairLayout& layout, bool compact, int s) {
    if (!compact) return false;
    if (compact_splits_configurations(layout.kings_per_men())) return true;
    const int threads = static_cast<int>(
        tbb::global_control::active_value(tbb::global_control::max_allowed_parallelism));
    return !slice_in_components(o.variant, layout.index(0), s, threads);
}

// Solves slices [first, end) of the pair by one solver, each written to its unit file.
void solve_unit_range(const GenerateOptions& o, const PairLayout& layout, const SolvedStore& store,
                      int first, int end, bool by_bytes, Progress& progress, SolveTimes& times,
                      GenerateSummary& summary) {
    const Material m = layout.material(0);
    const auto open_unit = [&](int s) { return open_pair_unit(o, layout, s); };
    const auto update = [&](std::uint64_t d, std::uint64_t) { progress.update(d); };
    SolveTimes range;
    if (by_bytes) {
        // Whole configurations per chunk where the other solver may read the unit next.
        const bool split = compact_splits_configurations(layout.kings_per_men());
        solve_slices_compact(
            o.variant, layout, store, first,
            [&](int slice, const SliceChunkFn& values) {
                write_unit(unit_path(o.dir, o.variant, m, slice), o.variant, layout, slice, values,
                           split);
                ++summary.units_written;
            },
            open_unit, update, &range, end);
    } else {
        solve_slices(
            o.variant, layout, store, first, {},
            [&](const SliceValues& slice) {
                write_unit(unit_path(o.dir, o.variant, m, slice.slice), o.variant, layout, slice);
                ++summary.units_written;
            },
            update, &range, SliceSolving::automatic, open_unit,
            [&](int s) {
                ++summary.units_written;
                return std::make_unique<UnitStream>(unit_path(o.dir, o.variant, m, s), o.variant,
                                                    layout, s);
            },
            end);
    }
    times.initialise += range.initialise;
    times.resolve += range.resolve;
    times.components += range.components;
}

// Solves the slices of the pair that have no unit file yet, each written to its unit file as
// soon as it is solved, the slice before read back from its unit file. A damaged unit file is
// solved again, with every slice after it.
void solve_units(const GenerateOptions& o, const PairLayout& layout, const SolvedStore& store,
                 bool compact, Progress& progress, SolveTimes& times, GenerateSummary& summary) {
    const Material m = layout.material(0);
    for (bool retry = false;; retry = true) {
        int first = first_missing_unit(o, layout);
        while (first > 0 && !unit_opens(o, layout, first - 1)) --first;  // damaged: again
        remove_units(o, m, layout.slice_count(), first);
        if (!retry) summary.units_resumed += static_cast<std::uint64_t>(first);
        if (first > 0 && !retry)
            progress.message(pair_label(m) + ": " + std::to_string(first) + " of " +
                             std::to_string(layout.slice_count()) + " units complete, resumed");
        try {
            for (int s = first; s < layout.slice_count();) {
                const bool by_bytes = slice_by_bytes(o, layout, compact, s);
                int end = s + 1;
                while (end < layout.slice_count() &&
                       slice_by_bytes(o, layout, compact, end) == by_bytes)
                    ++end;
                solve_unit_range(o, layout, store, s, end, by_bytes, progress, times, summary);
                s = end;
            }
            return;
        } catch (const DamagedUnit& d) {
            remove_units(o, m, layout.slice_count(), d.slice);
            progress.message(pair_label(m) + ": unit " + std::to_string(d.slice) +
                             " is damaged; solving it again");
        }
    }
}

// Solves the pair in units and writes its table files from them; returns the bytes written.
// A damaged unit file found while writing is solved again, with every slice after it.
std::uint64_t solve_and_write_in_units(const GenerateOptions& o, Material m, SolvedStore& store,
                                       const PairStep& step, Progress& progress, SolveTimes& times,
                                       GenerateSummary& summary,
                                       std::chrono::steady_clock::time_point& solved) {
    const PairLayout layout(o.variant.info().board, m);
    for (;;) {
        solve_units(o, layout, store, step.compact, progress, times, summary);
        solved = std::chrono::steady_clock::now();
        if (step.empty_store_before_writing) store.retain({});
        try {
            return write_pair(o, UnitsSource(o, layout, step.wdl_packed));
        } catch (const DamagedUnit& d) {
            remove_units(o, m, layout.slice_count(), d.slice);
        }
        progress.message(pair_label(m) + ": a unit file is damaged; solving it again");
        store.load_below(m);
        store.load_below(m.mirrored());
    }
}

}  // namespace

struct PairRunner::State {
    const GenerateOptions& o;
    const GenerationPlan& plan;
    Progress& progress;
    TopUses top_uses;
    SolvedStore store;
    GenerateSummary summary;

    State(const GenerateOptions& options, const GenerationPlan& p, Progress& pr)
        : o(options),
          plan(p),
          progress(pr),
          top_uses(p.pairs, p.classes.back().pieces()),
          store(options.variant, options.dir) {
        summary.peak_bytes_estimate = p.peak_bytes;
        summary.budget_bytes = p.budget_bytes;
    }
};

PairRunner::PairRunner(const GenerateOptions& o, const GenerationPlan& plan, Progress& progress)
    : state_(std::make_unique<State>(o, plan, progress)) {}
PairRunner::~PairRunner() = default;

const GenerateSummary& PairRunner::summary() const {
    return state_->summary;
}

bool PairRunner::skip_if_complete(std::size_t i) {
    const GenerateOptions& o = state_->o;
    const PairStep& step = state_->plan.pairs.at(i);
    const Material m = step.material;
    if (!pair_complete(o, m, ClassIndex(o.variant.info().board, m).size())) return false;
    remove_candidates(o, m);  // left by a run killed after its last step
    remove_units(o, m, step.slices);
    state_->summary.classes_skipped += m == m.mirrored() ? 1 : 2;
    state_->progress.message(pair_label(m) + " complete, skipped");
    return true;
}

void PairRunner::run(std::size_t i) {
    const GenerateOptions& o = state_->o;
    const GenerationPlan& plan = state_->plan;
    Progress& progress = state_->progress;
    SolvedStore& store = state_->store;
    GenerateSummary& summary = state_->summary;
    const int top = plan.classes.back().pieces();
    const PairStep& step = plan.pairs.at(i);
    const Material m = step.material;
    const bool single = m == m.mirrored();
    if (skip_if_complete(i)) return;
    const auto loading = std::chrono::steady_clock::now();
    const double cpu0 = cpu_seconds();
    if (plan.bounded) {
        store.read_through(step.read_through, step.cache_bytes);
        store.retain(step.keep);
    } else
        store.evict(top, state_->top_uses.needed_from(i));
    store.load_below(m);
    store.load_below(m.mirrored());
    const std::string label = pair_label(m);
    const auto t0 = loading;  // the pair's time includes loading what it reads
    const double loaded =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - loading).count();
    summary.load_seconds += loaded;
    progress.start(label + (step.in_units ? " (" + std::to_string(step.slices) + " units" +
                                                (step.compact ? ", a byte a position)" : ")")
                                          : ""),
                   step.positions);
    SolveTimes times;
    auto solved = t0;
    if (step.in_units) {
        ++summary.pairs_in_units;
        summary.bytes_written +=
            solve_and_write_in_units(o, m, store, step, progress, times, summary, solved);
        remove_leftovers(o, m);
        remove_units(o, m, step.slices);
        summary.positions += step.positions;
        summary.classes_built += single ? 1 : 2;
        // Not kept: later pairs read it from its files.
    } else {
        std::vector<PairResult> results = solve_pair(
            o.variant, m, store, [&](std::uint64_t d, std::uint64_t) { progress.update(d); },
            &times);
        solved = std::chrono::steady_clock::now();
        summary.bytes_written += write_pair(o, ResultsSource(results));
        remove_leftovers(o, m);
        for (PairResult& r : results) {
            summary.positions += r.outcomes.size();
            ++summary.classes_built;
            store.add(r.material, std::move(r.outcomes), true);
        }
    }
    const double secs =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const double solving = std::chrono::duration<double>(solved - t0).count() - loaded;
    const std::uint64_t peak = take_peak_resident_bytes();
    if (peak > summary.peak_resident_bytes) {
        summary.peak_resident_bytes = peak;
        summary.peak_pair = label;
    }
    char note[400];
    std::snprintf(note, sizeof note,
                  "%s: %llu positions in %.2f s (%.2f M pos/s; classes loaded in %.2f s; "
                  "solved in %.2f s: initialised in %.2f s, resolved in %.2f s; written in "
                  "%.2f s; CPU %.2f s; peak %.0f MiB, planned %.0f)",
                  label.c_str(), static_cast<unsigned long long>(step.positions), secs,
                  secs > 0 ? static_cast<double>(step.positions) / secs / 1e6 : 0.0, loaded,
                  solving, times.initialise, times.resolve, secs - solving, cpu_seconds() - cpu0,
                  static_cast<double>(peak) / (1024.0 * 1024.0),
                  static_cast<double>(step.peak_bytes) / (1024.0 * 1024.0));
    progress.finish(note);
}

void prepare_generation_process() {
    // Large buffers (slices, chunks, classes' values) are mapped and unmapped, never kept in
    // malloc's arenas: glibc raises its threshold after the first large free, after which blocks
    // up to 32 MiB came from the arenas and stayed there (english 2-6 --memory 512M peaked 160 MiB
    // above a pair's own peak, 680 against 518 MiB).
    ::mallopt(M_MMAP_THRESHOLD, 1 << 20);
}

void check_plan_fits(const GenerateOptions& o, const GenerationPlan& plan, Progress& progress) {
    std::string how = plan.bounded ? "bounded: " + std::to_string(plan.units) + " units" : "whole";
    progress.message("damas gen: " + o.variant.name() + ", " + std::to_string(plan.classes.size()) +
                     " classes, needs about " + gib(static_cast<double>(plan.peak_bytes)) +
                     " of memory (budget " + gib(static_cast<double>(plan.budget_bytes)) + ", " +
                     how + ")");
    if (plan.peak_bytes > plan.budget_bytes)
        throw Error("this run needs about " + gib(static_cast<double>(plan.peak_bytes)) +
                    " of memory but the budget is " + gib(static_cast<double>(plan.budget_bytes)) +
                    (o.memory_bytes ? "" : " (three quarters of the available memory)") +
                    "; raise --memory, or use fewer pieces or --max-per-side");
}

void remove_empty_units_dir(const GenerateOptions& o) {
    std::error_code ec;
    std::filesystem::remove(units_dir(o.dir, o.variant), ec);  // only if empty
}

GenerateSummary generate(const GenerateOptions& o, Progress& progress) {
    prepare_generation_process();
    const auto start = std::chrono::steady_clock::now();
    const int threads = checked_threads(o.threads, "threads");  // before the plan counts them
    const GenerationPlan plan = plan_generation(o);
    check_plan_fits(o, plan, progress);
    tbb::global_control limit(tbb::global_control::max_allowed_parallelism,
                              static_cast<std::size_t>(threads));
    WriterRun run(o, plan.classes, progress);  // one writer at a time; the plan in the manifest
    PairRunner runner(o, plan, progress);
    for (std::size_t i = 0; i < plan.pairs.size(); ++i) runner.run(i);
    remove_empty_units_dir(o);
    run.finish();
    GenerateSummary summary = runner.summary();
    summary.seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return summary;
}

}  // namespace damas
