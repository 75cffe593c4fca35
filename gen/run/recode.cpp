#include "gen/run/recode.hpp"

#include <tbb/blocked_range.h>
#include <tbb/global_control.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <chrono>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>

#include "folder/lock.hpp"
#include "folder/manifest.hpp"
#include "folder/run_record.hpp"
#include "gen/process/progress.hpp"
#include "gen/process/threads.hpp"
#include "gen/store/solved_store.hpp"
#include "gen/write/pair_writer.hpp"
#include "gen/write/writer.hpp"
#include "index/class_index.hpp"
#include "rules/error.hpp"
#include "table/bytes.hpp"
#include "table/outcome.hpp"
#include "table/table_file.hpp"

namespace damas {
namespace {

std::filesystem::path path_of(const GenerateOptions& o, Material m, Metric metric) {
    return table_path(o.dir, o.variant, m.name(), metric);
}

// What the DTW values do not give: unknown where the side to move must capture (the generator
// stores no value there; the DTW codec stores fill values), and the outcome of a position that a
// rule ends on the spot (turkish's king against a lone man: DTW 0 there, whoever wins), both
// found from the positions themselves as the generator does (gen/solve/position_initialiser.hpp).
template <class R>
void apply_position_rules(const Variant& v, Material m, std::span<std::uint8_t> values) {
    const ClassIndex index(v.info().board, m);
    tbb::parallel_for(tbb::blocked_range<std::uint64_t>(0, index.size(), 4096), [&](const auto& r) {
        index.for_each_position(r.begin(), r.end(), [&](std::uint64_t i, const Position& p) {
            const Outcome ended = material_outcome<R>(p, v.giveaway);
            if (ended.value != Value::unknown)
                values[i] = static_cast<std::uint8_t>(ended.value);
            else if (MoveGenerator<R>::has_capture(p))
                values[i] = wdl_unknown;
        });
    });
}

// The codecs that code no value where the side to move must capture (they decode as
// dtw_unknown); the others store a fill value there.
bool codes_no_capture_values(Codec c) {
    return c == Codec::mtc_context || c == Codec::mtc_wdl;
}

// The mtc file values of class m, whose mtc file has the mirror layout: each quiet position's
// value and MTC from its successors (the mirror class's file holds theirs), dtw_unknown where the
// side to move must capture, as the generator gives them.
std::vector<std::uint16_t> mtc_values_from_mirror(const GenerateOptions& o, Material m) {
    const std::filesystem::path folder = o.dir / o.variant.name();
    SolvedStore store(o.variant, o.dir);
    store.set_distance_metric([&folder](Material c) {
        return std::filesystem::exists(folder / (c.name() + ".dtw")) ? Metric::dtw : Metric::mtc;
    });
    store.add_from_files(m);
    const ClassIndex index(o.variant.info().board, m);
    std::vector<std::uint16_t> values(index.size());
    dispatch(o.variant.base, [&](auto rules) {
        using R = decltype(rules);
        tbb::parallel_for(tbb::blocked_range<std::uint64_t>(0, index.size(), 4096),
                          [&](const auto& r) {
                              index.for_each_position(
                                  r.begin(), r.end(), [&](std::uint64_t i, const Position& p) {
                                      if (MoveGenerator<R>::has_capture(p)) {
                                          values[i] = dtw_unknown;
                                          return;
                                      }
                                      const Outcome v = store.stored(p);
                                      values[i] = v.value == Value::draw
                                                      ? mtc_draw
                                                      : mtc_encode(v.value == Value::win, v.plies);
                                  });
                          });
    });
    return values;
}

// A pair as the writer reads it, from the classes' distance files (DTW or MTC: the folder's
// metric of the class). DTW: the wdl values only, read from the file when asked. MTC: both
// classes' values held from the start, read before any file of the pair is written (an
// mtc-wdl file decodes given its class's wdl file as it is now), for the wdl values and for the
// mtc files written again.
class DistanceFilesSource : public PairSource {
  public:
    DistanceFilesSource(const GenerateOptions& o, Material m, Metric metric)
        : o_(o), metric_(metric) {
        materials_.push_back(m);
        if (m.mirrored() != m) materials_.push_back(m.mirrored());
        for (const Material c : materials_) {
            auto file = std::make_unique<TableFile>(path_of(o, c, metric));
            const TableHeader& h = file->header();
            if (h.metric != metric || !(h.variant == o.variant) ||
                h.material != table_info(o.variant, c).material)
                throw Error(file->path().string() + ": not the " + metric_name(metric) +
                            " table of " + o.variant.name() + " " + c.name());
            files_.push_back(std::move(file));
        }
        if (metric != Metric::mtc) return;
        for (std::size_t c = 0; c < materials_.size(); ++c) {
            if (!files_[c]->holds_values()) {  // the mirror layout: from the other class's
                held_.push_back(mtc_values_from_mirror(o, materials_[c]));
                continue;
            }
            std::vector<std::uint16_t>& values = held_.emplace_back(files_[c]->size());
            files_[c]->read_all(values);
            if (!codes_no_capture_values(files_[c]->header().codec))
                dispatch(o.variant.base, [&](auto rules) {
                    mark_captures<decltype(rules)>(materials_[c], values);
                });
        }
    }
    int classes() const override { return static_cast<int>(materials_.size()); }
    Material material(int c) const override { return materials_[c]; }
    std::uint64_t positions(int c) const override { return files_[c]->size(); }
    // The codec of the pair's mtc values (a file in the mirror layout has none of its own).
    Codec codec() const {
        for (const auto& f : files_)
            if (f->holds_values()) return f->header().codec;
        return files_[0]->header().codec;
    }
    // Whether class c's distance file has the mirror layout.
    bool mirrored(int c) const { return !files_[c]->holds_values(); }
    // The fold of the mtc files that hold values (table/mtc_fold.hpp).
    int mtc_fold() const {
        int fold = 0;
        for (const auto& f : files_)
            if (f->holds_values()) fold = std::max<int>(fold, f->header().mtc_fold);
        return fold;
    }
    ClassWdl wdl(int c) const override {
        std::vector<std::uint16_t> read;
        if (metric_ != Metric::mtc) {
            read.resize(positions(c));
            files_[c]->read_all(read);
        }
        const std::vector<std::uint16_t>& plies = metric_ == Metric::mtc ? held_[c] : read;
        std::vector<std::uint8_t> values(plies.size());
        const bool giveaway = o_.variant.giveaway;
        const bool mtc = metric_ == Metric::mtc;
        tbb::parallel_for(tbb::blocked_range<std::size_t>(0, values.size(), std::size_t{1} << 16),
                          [&](const auto& r) {
                              for (std::size_t i = r.begin(); i != r.end(); ++i)
                                  values[i] =
                                      mtc ? mtc_outcome(plies[i]) : dtw_outcome(plies[i], giveaway);
                          });
        read = {};
        dispatch(o_.variant.base, [&](auto rules) {
            apply_position_rules<decltype(rules)>(o_.variant, materials_[c], values);
        });
        return ClassWdl(std::move(values));
    }
    void with_distance(int c, Metric metric,
                       const std::function<void(const DtwValues&)>& f) const override {
        if (metric != Metric::mtc || metric_ != Metric::mtc)
            throw Error("recode writes no DTW file from a whole pair");
        const std::vector<std::uint16_t>& values = held_[c];
        f([&](std::uint64_t first, std::span<std::uint16_t> out) {
            std::copy_n(values.begin() + static_cast<std::ptrdiff_t>(first), out.size(),
                        out.begin());
        });
    }

  private:
    // dtw_unknown where the side to move must capture, as the generator gives them.
    template <class R>
    void mark_captures(Material m, std::span<std::uint16_t> values) const {
        const ClassIndex index(o_.variant.info().board, m);
        tbb::parallel_for(tbb::blocked_range<std::uint64_t>(0, index.size(), 4096),
                          [&](const auto& r) {
                              index.for_each_position(r.begin(), r.end(),
                                                      [&](std::uint64_t i, const Position& p) {
                                                          if (MoveGenerator<R>::has_capture(p))
                                                              values[i] = dtw_unknown;
                                                      });
                          });
    }

    const GenerateOptions& o_;
    Metric metric_;
    std::vector<Material> materials_;
    std::vector<std::unique_ptr<TableFile>> files_;
    std::vector<std::vector<std::uint16_t>> held_;  // mtc only
};

// Every class with a distance file in the variant's folder, and which (a class has one).
std::map<Material, Metric> classes_with_distance(const GenerateOptions& o) {
    const std::filesystem::path folder = o.dir / o.variant.name();
    std::error_code ec;
    if (!std::filesystem::is_directory(folder, ec))
        throw Error("no database folder " + folder.string());
    std::map<Material, Metric> out;
    for (const auto& entry : std::filesystem::directory_iterator(folder)) {
        const std::filesystem::path& p = entry.path();
        const Metric metric = p.extension() == ".dtw" ? Metric::dtw : Metric::mtc;
        if (p.extension() != ".dtw" && p.extension() != ".mtc") continue;
        const std::optional<Material> m = Material::parse(p.stem().string());
        if (!m) continue;
        if (!out.emplace(*m, metric).second)
            throw Error(p.string() + ": the class has both a DTW and an MTC file");
    }
    return out;
}

// The classes to recode, each pair once (by its first class), every mirror checked present.
std::vector<Material> pairs_to_recode(const RecodeOptions& r,
                                      const std::map<Material, Metric>& present) {
    std::set<Material> asked;
    if (r.only.empty())
        for (const auto& [m, metric] : present) asked.insert(m);
    for (const Material m : r.only) {
        if (!present.count(m))
            throw Error(path_of(r.gen, m, Metric::dtw).string() +
                        ": no such file, nor an .mtc file (recode reads a class's wdl values from "
                        "its distance file)");
        asked.insert(m);
    }
    std::vector<Material> pairs;
    for (const Material m : asked) {
        const Material first = std::min(m, m.mirrored());
        const auto mirror = present.find(m.mirrored());
        if (mirror == present.end() || mirror->second != present.at(m))
            throw Error(path_of(r.gen, m.mirrored(), present.at(m)).string() +
                        ": no such file (the mirror of " + m.name() + ", written with it)");
        if (std::find(pairs.begin(), pairs.end(), first) == pairs.end()) pairs.push_back(first);
    }
    if (pairs.empty())
        throw Error("no DTW or MTC file in " + (r.gen.dir / r.gen.variant.name()).string() +
                    ": nothing to recode");
    return pairs;
}

// The metric options a gen run that wrote these classes had: mtc with dtw up to the largest
// DTW class where the folder has MTC classes (what distance_metric and the manifest take).
void take_folder_metric(GenerateOptions& o, const std::map<Material, Metric>& present) {
    int most_dtw = 0, fewest_mtc = 0;
    for (const auto& [m, metric] : present) {
        if (metric == Metric::dtw) most_dtw = std::max(most_dtw, m.pieces());
        if (metric == Metric::mtc && (fewest_mtc == 0 || m.pieces() < fewest_mtc))
            fewest_mtc = m.pieces();
    }
    if (fewest_mtc == 0) return;
    if (most_dtw >= fewest_mtc)
        throw Error("the folder " + (o.dir / o.variant.name()).string() +
                    " has DTW and MTC classes of the same number of pieces: not a folder gen "
                    "writes");
    o.metric = Metric::mtc;
    o.dtw_pieces = most_dtw;
}

std::uint64_t file_bytes(const GenerateOptions& o, Material m, Metric metric) {
    std::error_code ec;
    const std::uintmax_t size = std::filesystem::file_size(path_of(o, m, metric), ec);
    return ec ? 0 : static_cast<std::uint64_t>(size);
}

std::uint64_t pair_bytes(const GenerateOptions& o, Material m, Metric metric) {
    return file_bytes(o, m, metric) + (m.mirrored() != m ? file_bytes(o, m.mirrored(), metric) : 0);
}

// Class c's dtw file written again with o.distance_codec from its own decoded blocks (recode.hpp);
// false if it has that codec already.
bool recode_dtw_file(const GenerateOptions& o, Material c) {
    const std::filesystem::path path = path_of(o, c, Metric::dtw);
    const TableFile old(path, TableIdentity{o.variant, c, Metric::dtw});
    const TableHeader h = old.header();
    if (h.codec == o.distance_codec) return false;
    WriteOptions wo = write_options(o);
    wo.positions_per_block = h.positions_per_block;
    wo.counts_from = &h;
    write_dtw_table(
        path, table_info(o.variant, c), h.positions,
        [&](std::uint64_t first, std::span<std::uint16_t> out) {
            thread_local std::vector<std::byte> block;
            const std::uint64_t b = first / h.positions_per_block;
            block.resize(old.block_size(b));
            if (first % h.positions_per_block != 0 || block.size() != 2 * out.size() ||
                old.read_block(b, block) != ReadStatus::ok)
                throw Error(path.string() + ": cannot read block " + std::to_string(b));
            for (std::size_t i = 0; i < out.size(); ++i)
                out[i] = le::load<std::uint16_t>(&block[2 * i]);
        },
        wo);
    return true;
}

// An mtc file's codec after the recode, and whether the file is written again: for another
// codec, or because the wdl file it is coded given (mtc-wdl) is written again.
struct MtcRecode {
    Codec codec;
    bool write;
};
// Also written again where its layout changes (GenerateOptions::mirror_mtc): with the wdl files
// whenever those are written and an mtc file may have the mirror layout; else where a class's
// mtc layout is not the one its wdl file and the options ask for.
MtcRecode mtc_recode(const RecodeOptions& r, const GenerateOptions& o,
                     const DistanceFilesSource& source) {
    const Codec now = source.codec();
    const Codec target = r.mtc ? r.gen.mtc_codec : now;
    const bool reads_wdl = now == Codec::mtc_wdl || target == Codec::mtc_wdl;
    bool any_mirrored = false, layout_changes = false;
    for (int c = 0; c < source.classes(); ++c) {
        const Material m = source.material(c);
        const bool wdl_mirrored =
            !TableFile(path_of(o, m, Metric::wdl), TableIdentity{o.variant, m, Metric::wdl})
                 .holds_values();
        any_mirrored = any_mirrored || source.mirrored(c);
        layout_changes = layout_changes || source.mirrored(c) != (o.mirror_mtc && wdl_mirrored);
    }
    const bool with_wdl = r.wdl && (reads_wdl || o.mirror_mtc || any_mirrored);
    return {target, target != now || with_wdl || (!r.wdl && layout_changes)};
}

// The pair's files written again as the options ask; the line reports it.
void recode_pair(const RecodeOptions& r, const GenerateOptions& o, Material m, Metric metric,
                 RecodeSummary& s, std::string& line) {
    if (r.dtw && metric == Metric::dtw) {
        const std::uint64_t before = pair_bytes(o, m, Metric::dtw);
        s.dtw_files_written += recode_dtw_file(o, m);
        if (m.mirrored() != m) s.dtw_files_written += recode_dtw_file(o, m.mirrored());
        const std::uint64_t after = pair_bytes(o, m, Metric::dtw);
        s.dtw_bytes_before += before;
        s.dtw_bytes_after += after;
        line += " dtw " + std::to_string(before) + " -> " + std::to_string(after) + " bytes";
    }
    const DistanceFilesSource source(o, m, metric);
    for (int c = 0; c < source.classes(); ++c) s.positions += source.positions(c);
    s.classes += source.classes();
    // Both classes of a pair written by gen have one codec.
    MtcRecode mtc =
        metric == Metric::mtc ? mtc_recode(r, o, source) : MtcRecode{o.mtc_codec, false};
    GenerateOptions po = o;
    po.mtc_codec = mtc.codec;
    if (metric == Metric::mtc) {
        const int fold = source.mtc_fold();
        po.mtc_fold = r.mtc_fold.value_or(fold);
        if (fold != 0 && po.mtc_fold != fold)
            throw Error(m.name() + ": its mtc files store the distances 1 to " +
                        std::to_string(fold) +
                        " as one; recode keeps that fold (generate the class again for another)");
        mtc.write = mtc.write || po.mtc_fold != fold;
    }
    const std::uint64_t wdl_before = pair_bytes(o, m, Metric::wdl);
    const std::uint64_t mtc_before = pair_bytes(o, m, Metric::mtc);
    if (r.wdl)
        write_pair(po, source, mtc.write ? PairFiles::wdl_and_dtw : PairFiles::wdl_only);
    else if (mtc.write)
        write_pair(po, source, PairFiles::distance_only);
    if (r.wdl || mtc.write) remove_leftovers(o, m);
    if (r.wdl) {
        const std::uint64_t after = pair_bytes(o, m, Metric::wdl);
        s.wdl_bytes_before += wdl_before;
        s.wdl_bytes_after += after;
        line += " wdl " + std::to_string(wdl_before) + " -> " + std::to_string(after) + " bytes";
    }
    if (metric == Metric::mtc && (r.mtc || mtc.write)) {
        const std::uint64_t after = pair_bytes(o, m, Metric::mtc);
        s.mtc_bytes_before += mtc_before;
        s.mtc_bytes_after += after;
        if (mtc.write) s.mtc_files_written += source.classes();
        line += " mtc " + std::to_string(mtc_before) + " -> " + std::to_string(after) + " bytes";
    }
}

}  // namespace

RecodeSummary recode_folder(const RecodeOptions& r, Progress& progress) {
    const auto start = std::chrono::steady_clock::now();
    GenerateOptions o = r.gen;
    const int threads = checked_threads(o.threads, "threads");
    o.threads = threads;
    tbb::global_control limit(tbb::global_control::max_allowed_parallelism,
                              static_cast<std::size_t>(threads));
    const std::map<Material, Metric> present = classes_with_distance(o);
    take_folder_metric(o, present);
    const std::vector<Material> pairs = pairs_to_recode(r, present);
    for (const auto& [asked, metric] : {std::pair{r.dtw, Metric::dtw}, {r.mtc, Metric::mtc}})
        if (asked && std::none_of(pairs.begin(), pairs.end(),
                                  [&](Material m) { return present.at(m) == metric; }))
            throw Error(std::string("no ") + (metric == Metric::dtw ? "DTW" : "MTC") +
                        " file among the classes to recode in " +
                        (o.dir / o.variant.name()).string() + ": nothing for --" +
                        metric_name(metric) + "-codec to write");
    std::vector<Material> classes;
    o.max_pieces = 2;  // the manifest's record of the run: the largest class recoded
    for (const Material m : pairs) {
        classes.push_back(m);
        if (m.mirrored() != m) classes.push_back(m.mirrored());
        o.max_pieces = std::max(o.max_pieces, m.pieces());
    }
    // One writer at a time; the new files in the manifest where the folder has one.
    std::optional<WriterRun> run;
    std::optional<FolderLock> lock;
    if (read_manifest_if_any(o.dir, o.variant))
        run.emplace(run_description(o), classes, progress.messenger());
    else
        lock.emplace(o.dir, o.variant);
    RecodeSummary s;
    for (const Material m : pairs) {
        std::string line = m.name();
        if (m.mirrored() != m) line += '+' + m.mirrored().name();
        line += ':';
        recode_pair(r, o, m, present.at(m), s, line);
        progress.message(line);
    }
    if (run) run->finish();
    s.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return s;
}

}  // namespace damas
