#include "gen/write/pair_writer.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <optional>

#include "gen/solve/solver.hpp"
#include "gen/units/class_stream.hpp"
#include "gen/write/table_parts.hpp"
#include "gen/write/table_writing.hpp"
#include "gen/write/wdl_policy.hpp"
#include "index/class_index.hpp"
#include "rules/error.hpp"
#include "table/table_file.hpp"

namespace damas {

TableInfo table_info(const Variant& v, Material m) {
    return {v,
            {static_cast<std::uint8_t>(m.white_men), static_cast<std::uint8_t>(m.white_kings),
             static_cast<std::uint8_t>(m.black_men), static_cast<std::uint8_t>(m.black_kings)},
            generator_version()};
}

namespace {

bool file_complete(const GenerateOptions& o, Material m, Metric metric, std::uint64_t positions) {
    return table_complete(table_path(o.dir, o.variant, m.name(), metric), table_info(o.variant, m),
                          metric, positions);
}

// Whether the wdl file of a complete class holds its values (format.hpp's layouts).
bool wdl_holds_values(const GenerateOptions& o, Material m) {
    return TableFile(table_path(o.dir, o.variant, m.name(), Metric::wdl)).holds_values();
}

// Whether a complete class's mtc file (if it has one) has the layout these options write: the
// mirror layout where its wdl file has it and mirror_mtc, else its values.
bool distance_layout_as_asked(const GenerateOptions& o, Material m) {
    if (distance_metric(o, m) != Metric::mtc) return true;
    const bool mirrored = o.mirror_mtc && !wdl_holds_values(o, m);
    return TableFile(table_path(o.dir, o.variant, m.name(), Metric::mtc)).holds_values() !=
           mirrored;
}

}  // namespace

// The pair's files are complete and in the layout a run with these options writes.
bool pair_complete(const GenerateOptions& o, Material m, std::uint64_t positions) {
    const Material mirror = m.mirrored();
    return pair_wdl_complete(o, m, positions) &&
           file_complete(o, m, distance_metric(o, m), positions) &&
           distance_layout_as_asked(o, m) &&
           (m == mirror || (file_complete(o, mirror, distance_metric(o, mirror), positions) &&
                            distance_layout_as_asked(o, mirror)));
}

bool distance_mirrored(const GenerateOptions& o, Material m, const TableHeader& wdl) {
    return distance_metric(o, m) == Metric::mtc && o.mirror_mtc && wdl.layout == Layout::mirror;
}

bool pair_wdl_complete(const GenerateOptions& o, Material m, std::uint64_t positions) {
    const Material mirror = m.mirrored();
    for (const Material c : {m, mirror})  // a mirror has the same size
        if (!file_complete(o, c, Metric::wdl, positions)) return false;
    if (m == mirror) return wdl_holds_values(o, m);
    const int stored = (wdl_holds_values(o, m) ? 1 : 0) + (wdl_holds_values(o, mirror) ? 1 : 0);
    return stored == (mirror_layout_allowed(o, m) ? 1 : 2);
}
namespace {

struct WrittenClass {
    TableHeader wdl, distance;
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
}  // namespace

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
        for (const Metric metric : {Metric::wdl, Metric::dtw, Metric::mtc}) {
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
    wo.distance_codec = o.distance_codec;
    wo.mtc_codec = o.mtc_codec;
    wo.mtc_fold = o.mtc_fold;
    return wo;
}

namespace {

// f(i) for i in [0, n), in parallel: the passes over a class's values before it is written
// (hundreds of millions of positions; one thread took a tenth of a pair's writing time).
template <class F>
void for_each_index_in_parallel(std::size_t n, const F& f) {
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, n, std::size_t{1} << 16),
                      [&](const auto& r) {
                          for (std::size_t i = r.begin(); i != r.end(); ++i) f(i);
                      });
}

std::uint8_t wdl_code(std::uint16_t outcome, std::uint8_t capture) {
    return capture ? wdl_unknown : static_cast<std::uint8_t>(unpack_outcome(outcome).value);
}
// The distance file's value (format.hpp): the plies to the end (dtw), or the plies to the next
// conversion with the side to move's result (mtc).
std::uint16_t distance_code(Metric metric, std::uint16_t outcome, std::uint8_t capture) {
    const Outcome v = unpack_outcome(outcome);
    if (capture) return dtw_unknown;
    if (metric == Metric::mtc)
        return v.value == Value::draw ? mtc_draw : mtc_encode(v.value == Value::win, v.plies);
    return v.value == Value::draw ? dtw_draw : v.plies;
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
    void with_distance(int c, Metric metric,
                       const std::function<void(const DtwValues&)>& f) const override {
        const PairResult& r = r_[c];
        // Converted block by block as the writer encodes: no copy of the class is held.
        f([&r, metric](std::uint64_t first, std::span<std::uint16_t> out) {
            for (std::size_t k = 0; k < out.size(); ++k)
                out[k] = distance_code(metric, r.outcomes[first + k], r.capture[first + k]);
        });
    }

  private:
    const std::vector<PairResult>& r_;
};

// A pair solved in units: each class's values streamed from the unit files in class order
// (ClassStream: a chunk of each slice's unit at a time), never the pair's whole results.
class UnitsSource : public PairSource {
  public:
    UnitsSource(const GenerateOptions& o, const PairLayout& layout, bool wdl_packed,
                ClassOutcomesFn solved)
        : o_(o), layout_(layout), wdl_packed_(wdl_packed), solved_(std::move(solved)) {}
    bool bounded() const override { return true; }
    bool distance_pass_needed() const override { return static_cast<bool>(solved_); }
    int classes() const override { return layout_.classes(); }
    Material material(int c) const override { return layout_.material(c); }
    std::uint64_t positions(int c) const override { return layout_.index(c).size(); }
    // Each pass streams the class from its unit files again (a chunk of each slice at a time),
    // or the first one packs the values for the others.
    ClassWdl wdl(int c) const override {
        const GenerateOptions& o = o_;
        const PairLayout& layout = layout_;
        WdlPasses units = [&o, &layout, c] {
            auto stream = std::make_shared<ClassStream>(o.dir, o.variant, layout, c,
                                                        distance_metric(o, layout.material(0)));
            auto outcomes = std::make_shared<std::vector<std::uint16_t>>();
            auto capture = std::make_shared<std::vector<std::uint8_t>>();
            auto next = std::make_shared<std::uint64_t>(0);
            // From any first (a part of the file: gen/write/table_parts.hpp), in order.
            return WdlValues([stream, outcomes, capture, next](std::uint64_t first,
                                                               std::span<std::uint8_t> out) {
                if (first < *next) throw Error("a class's values asked for out of order");
                stream->skip(first - *next);
                *next = first + out.size();
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
    void with_distance(int c, Metric metric,
                       const std::function<void(const DtwValues&)>& f) const override {
        ClassStream stream(o_.dir, o_.variant, layout_, c,
                           distance_metric(o_, layout_.material(0)));
        std::vector<std::uint16_t> outcomes;
        std::vector<std::uint8_t> capture;
        std::uint64_t next = 0;
        // The writer asks for the blocks in order (write_dtw_table by block), from any first
        // (a part of the file: gen/write/table_parts.hpp).
        f([&](std::uint64_t first, std::span<std::uint16_t> out) {
            if (first < next) throw Error("a class's values asked for out of order");
            stream.skip(first - next);
            next = first + out.size();
            outcomes.resize(out.size());
            capture.resize(out.size());
            stream.next(outcomes, capture);
            if (solved_) solved_(c, outcomes);
            for (std::size_t i = 0; i < out.size(); ++i)
                out[i] = distance_code(metric, outcomes[i], capture[i]);
        });
    }

  private:
    const GenerateOptions& o_;
    const PairLayout& layout_;
    bool wdl_packed_;
    ClassOutcomesFn solved_;
};

// A pair held whole keeps the context codec's flags for a file's blocks as they are (a byte a
// position, within the plan's writing memory); a pair in units compressed, within a bit a
// position of its larger class (gen/plan/plan.cpp counts it).
void hold_flags(const PairSource& pair, WriteOptions& wo) {
    if (!pair.bounded()) return;
    std::uint64_t largest = 0;
    for (int c = 0; c < pair.classes(); ++c) largest = std::max(largest, pair.positions(c));
    wo.hold_flags = HeldFlags::compressed;
    wo.held_flags_limit = held_flags_limit(largest);
}

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

// The class's wdl file at wdl_path, coded as gen/write/wdl_policy.hpp says.
TableHeader write_class_wdl(const GenerateOptions& o, Material m, const ClassWdl& wdl,
                            const std::filesystem::path& wdl_path, const WriteOptions& wo) {
    const WdlCoding coding =
        choose_by_estimate(o, wdl.positions())
            ? estimated_wdl_coding(o, m, wdl.positions(), wdl.passes(), wo).coding
            : asked_wdl_coding(o, m);
    const TableHeader counts = wdl.counts(table_info(o.variant, m), wo.threads);
    return write_wdl_with(o, m, wdl, counts, coding, wdl_path, wo);
}

// Reads class c's distances through without coding them, for what the pass does besides
// (PairSource::distance_pass_needed).
void stream_distance(const PairSource& source, int c, Metric metric) {
    source.with_distance(c, metric, [&](const DtwValues& values) {
        std::vector<std::uint16_t> block(format::dtw_positions_per_block);
        const std::uint64_t n = source.positions(c);
        for (std::uint64_t first = 0; first < n; first += block.size())
            values(first, std::span(block).first(std::min<std::uint64_t>(block.size(), n - first)));
    });
}

// Class c's distance file (dtw or mtc: distance_metric), its header's counts taken from its wdl
// header. An mtc file of a codec that reads its class's wdl file (mtc-wdl) is written after it,
// and write_distance_table reads it as its readers will (none of its values where it has the
// mirror layout). Where the wdl file has the mirror layout, so does the mtc file
// (distance_mirrored): its header alone.
TableHeader write_class_distance(const GenerateOptions& o, const PairSource& source, int c,
                                 const TableHeader& wdl, WriteOptions wo) {
    wo.counts_from = &wdl;
    const Material m = source.material(c);
    const Metric metric = distance_metric(o, m);
    if (distance_mirrored(o, m, wdl)) {
        if (source.distance_pass_needed()) stream_distance(source, c, metric);
        return write_mirror_table(table_path(o.dir, o.variant, m.name(), metric),
                                  table_info(o.variant, m), metric, wdl, o.durable);
    }
    TableHeader h;
    source.with_distance(c, metric, [&](const DtwValues& values) {
        h = write_distance_table(table_path(o.dir, o.variant, m.name(), metric),
                                 table_info(o.variant, m), metric, source.positions(c), values, wo);
    });
    return h;
}

// Each class's coding chosen by estimate and its counts, and, with the mirror layout, the class
// whose file keeps the values: the one estimated smaller (the second on a tie, as
// apply_mirror_layout). Held whole, one class's wdl values in memory at a time: `second`, when
// given, keeps the second class's for its file if it keeps them.
WdlFileChoice estimate_class(const GenerateOptions& o, const ClassWdl& wdl, Material m,
                             const WriteOptions& wo) {
    WdlFileChoice x;
    x.material = m;
    const WdlChoice estimate = estimated_wdl_coding(o, m, wdl.positions(), wdl.passes(), wo);
    x.coding = estimate.coding;
    x.estimated_bytes = estimate.bytes;
    x.counts = wdl.counts(table_info(o.variant, m), wo.threads);
    return x;
}

// With the mirror layout, the class whose file keeps the values: the one estimated smaller (the
// second on a tie, as apply_mirror_layout). Returns it (-1: every class keeps its values).
int keep_smaller(const GenerateOptions& o, PairWdlChoice& choice) {
    if (choice.classes.size() != 2 || !mirror_layout_allowed(o, choice.classes[0].material))
        return -1;
    const int kept = choice.classes[0].estimated_bytes < choice.classes[1].estimated_bytes ? 0 : 1;
    choice.classes[static_cast<std::size_t>(1 - kept)].keeps = false;
    return kept;
}

PairWdlChoice choose_by_estimates(const GenerateOptions& o, const PairSource& pair,
                                  const WriteOptions& wo, std::optional<ClassWdl>* second) {
    PairWdlChoice choice;
    for (int c = 0; c < pair.classes(); ++c) {
        ClassWdl wdl = pair.wdl(c);
        choice.classes.push_back(estimate_class(o, wdl, pair.material(c), wo));
        if (c == 1 && second) second->emplace(std::move(wdl));
    }
    if (keep_smaller(o, choice) == 0 && second) second->reset();
    return choice;
}

// A pair whose classes are large: each class's coding chosen by estimate and, with the mirror
// layout, only the file of the class that keeps the values written whole. Returns the bytes
// written.
std::uint64_t write_pair_by_estimate(const GenerateOptions& o, const PairSource& pair,
                                     PairFiles files) {
    WriteOptions wo = write_options(o);
    hold_flags(pair, wo);
    // The first class's values are taken again (in units, packed again from the unit files); in
    // units and not packed, none are held: each pass reads the unit files.
    std::optional<ClassWdl> second;
    const PairWdlChoice choice = choose_by_estimates(o, pair, wo, &second);
    TableHeader headers[2];
    for (int c = 0; c < pair.classes(); ++c) {
        const WdlFileChoice& x = choice.classes[static_cast<std::size_t>(c)];
        const std::filesystem::path path =
            table_path(o.dir, o.variant, x.material.name(), Metric::wdl);
        if (!x.keeps)
            headers[c] = write_wdl_mirror_table(path, table_info(o.variant, x.material), x.counts,
                                                o.durable);
        else if (c == 1 && second)
            headers[c] = write_wdl_with(o, x.material, *second, x.counts, x.coding, path, wo);
        else
            headers[c] = write_wdl_with(o, x.material, pair.wdl(c), x.counts, x.coding, path, wo);
    }
    second.reset();
    std::uint64_t bytes = 0;
    for (int c = 0; c < pair.classes(); ++c) {
        bytes += headers[c].file_size;
        if (files == PairFiles::wdl_and_dtw)
            bytes += write_class_distance(o, pair, c, headers[c], wo).file_size;
    }
    return bytes;
}

// Of a pair's two full wdl files (at their candidate paths), moves the smaller to its table
// path and writes the other class's file in the mirror layout (the second class on a tie, so the
// bytes are the same on every run). A run killed in between leaves a pair that pair_complete()
// rejects. Returns the bytes saved; `written` then holds the headers of the files in place.
std::uint64_t apply_mirror_layout(const GenerateOptions& o, const PairSource& pair,
                                  WrittenClass* written) {
    const int drop = written[0].wdl.file_size < written[1].wdl.file_size ? 1 : 0;
    const Material kept = pair.material(1 - drop), mirrored = pair.material(drop);
    std::filesystem::rename(candidate_path(o, kept),
                            table_path(o.dir, o.variant, kept.name(), Metric::wdl));
    const TableHeader h =
        write_wdl_mirror_table(table_path(o.dir, o.variant, mirrored.name(), Metric::wdl),
                               table_info(o.variant, mirrored), written[drop].wdl, o.durable);
    const std::uint64_t saved = written[drop].wdl.file_size - h.file_size;
    written[drop].wdl = h;
    return saved;
}

}  // namespace

bool wdl_in_parts(const GenerateOptions& o, std::uint64_t positions) {
    return choose_by_estimate(o, positions);
}

int wdl_files_in_parts(const GenerateOptions& o, Material m) {
    if (!wdl_in_parts(o, ClassIndex(o.variant.info().board, m).size())) return 0;
    return m == m.mirrored() || mirror_layout_allowed(o, m) ? 1 : 2;
}

int wdl_parts(std::uint64_t positions, int ranges) {
    std::uint64_t blocks = UINT64_MAX;  // the fewest of any wdl codec's file
    for (const BlockCodec* codec : block_codecs())
        if (codec->codes(Metric::wdl)) {
            const std::uint32_t ppb = codec->positions_per_block(Metric::wdl, 0);
            blocks = std::min(blocks, (positions + ppb - 1) / ppb);
        }
    return static_cast<int>(std::max<std::uint64_t>(
        1, std::min<std::uint64_t>(blocks, static_cast<std::uint64_t>(ranges))));
}

WdlFileChoice estimate_wdl_class(const GenerateOptions& o, const PairSource& pair, int c) {
    WriteOptions wo = write_options(o);
    wo.hold_flags = HeldFlags::none;  // no file is written
    return estimate_class(o, pair.wdl(c), pair.material(c), wo);
}

PairWdlChoice choose_pair_wdl(const GenerateOptions& o, const PairSource& pair,
                              std::vector<WdlFileChoice> estimates) {
    if (estimates.size() != static_cast<std::size_t>(pair.classes()))
        throw Error("choose_pair_wdl: one estimate a class");
    WriteOptions wo = write_options(o);
    wo.hold_flags = HeldFlags::none;  // the blocks are coded elsewhere
    PairWdlChoice choice{std::move(estimates)};
    keep_smaller(o, choice);
    for (int c = 0; c < pair.classes(); ++c) {
        WdlFileChoice& x = choice.classes[static_cast<std::size_t>(c)];
        if (!x.keeps) continue;
        // The codec's model from the whole class, as write_coded_table builds it; zstd where
        // the codec cannot code the values (write_wdl_with).
        const BlockCodec& codec = block_codec(x.coding.codec);
        const TableHeader h = wdl_table_header(table_info(o.variant, x.material), pair.positions(c),
                                               x.coding.codec, x.coding.half, {}, x.counts);
        const ClassWdl wdl = pair.wdl(c);
        const WdlPasses passes = wdl.passes();
        const std::unique_ptr<const TableCodec> table =
            writing::table_codec(codec, h, &passes, 1, std::max(1u, wo.threads), wo);
        if (!table) {
            x.coding = {Codec::zstd, false};
            x.model.clear();
            continue;
        }
        const std::span<const std::byte> model = table->model();
        x.model.assign(model.begin(), model.end());
    }
    return choice;
}

std::unique_ptr<PairSource> results_source(const std::vector<PairResult>& results) {
    return std::make_unique<ResultsSource>(results);
}

std::unique_ptr<PairSource> units_source(const GenerateOptions& o, const PairLayout& layout,
                                         bool wdl_packed, ClassOutcomesFn solved) {
    return std::make_unique<UnitsSource>(o, layout, wdl_packed, std::move(solved));
}

std::uint64_t write_pair(const GenerateOptions& o, const PairSource& pair, PairFiles files) {
    if (files == PairFiles::distance_only) {
        std::uint64_t bytes = 0;
        for (int c = 0; c < pair.classes(); ++c) {
            const Material x = pair.material(c);
            const TableFile wdl(table_path(o.dir, o.variant, x.name(), Metric::wdl),
                                TableIdentity{o.variant, x, Metric::wdl});
            bytes += write_class_distance(o, pair, c, wdl.header(), write_options(o)).file_size;
        }
        return bytes;
    }
    const Material m = pair.material(0);
    const bool mirror_layout = pair.classes() == 2 && mirror_layout_allowed(o, m);
    if (mirror_layout && choose_by_estimate(o, pair.positions(0)))
        return write_pair_by_estimate(o, pair, files);
    WriteOptions wo = write_options(o);
    hold_flags(pair, wo);
    WrittenClass written[2];
    std::uint64_t bytes = 0;
    for (int c = 0; c < pair.classes(); ++c) {
        const Material x = pair.material(c);
        const std::filesystem::path path =
            mirror_layout ? candidate_path(o, x)
                          : table_path(o.dir, o.variant, x.name(), Metric::wdl);
        written[c].wdl = write_class_wdl(o, x, pair.wdl(c), path, wo);
        bytes += written[c].wdl.file_size;
    }
    if (mirror_layout) bytes -= apply_mirror_layout(o, pair, written);
    // The distance files after the wdl files' layout is settled: an mtc file may be coded
    // given its class's wdl file (write_class_distance).
    if (files == PairFiles::wdl_only) return bytes;
    for (int c = 0; c < pair.classes(); ++c) {
        written[c].distance = write_class_distance(o, pair, c, written[c].wdl, wo);
        bytes += written[c].distance.file_size;
    }
    return bytes;
}

}  // namespace damas
