#include "gen/run/recode.hpp"

#include <tbb/blocked_range.h>
#include <tbb/global_control.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <chrono>
#include <memory>
#include <optional>
#include <set>
#include <string>

#include "folder/lock.hpp"
#include "folder/manifest.hpp"
#include "folder/run_record.hpp"
#include "gen/process/progress.hpp"
#include "gen/process/threads.hpp"
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

// A pair as the writer reads it, from the classes' DTW files: the wdl values only.
class DtwFilesSource : public PairSource {
  public:
    DtwFilesSource(const GenerateOptions& o, Material m) : o_(o) {
        materials_.push_back(m);
        if (m.mirrored() != m) materials_.push_back(m.mirrored());
        for (const Material c : materials_) {
            auto dtw = std::make_unique<TableFile>(path_of(o, c, Metric::dtw));
            const TableHeader& h = dtw->header();
            if (h.metric != Metric::dtw || !(h.variant == o.variant) ||
                h.material != table_info(o.variant, c).material)
                throw Error(dtw->path().string() + ": not the DTW table of " + o.variant.name() +
                            " " + c.name());
            dtw_.push_back(std::move(dtw));
        }
    }
    int classes() const override { return static_cast<int>(materials_.size()); }
    Material material(int c) const override { return materials_[c]; }
    std::uint64_t positions(int c) const override { return dtw_[c]->size(); }
    ClassWdl wdl(int c) const override {
        std::vector<std::uint16_t> plies(positions(c));
        dtw_[c]->read_all(plies);
        std::vector<std::uint8_t> values(plies.size());
        const bool giveaway = o_.variant.giveaway;
        tbb::parallel_for(tbb::blocked_range<std::size_t>(0, values.size(), std::size_t{1} << 16),
                          [&](const auto& r) {
                              for (std::size_t i = r.begin(); i != r.end(); ++i)
                                  values[i] = dtw_outcome(plies[i], giveaway);
                          });
        plies = {};
        dispatch(o_.variant.base, [&](auto rules) {
            apply_position_rules<decltype(rules)>(o_.variant, materials_[c], values);
        });
        return ClassWdl(std::move(values));
    }
    void with_distance(int, Metric, const std::function<void(const DtwValues&)>&) const override {
        throw Error("recode writes no DTW file");
    }

  private:
    const GenerateOptions& o_;
    std::vector<Material> materials_;
    std::vector<std::unique_ptr<TableFile>> dtw_;
};

// Every class with a DTW file in the variant's folder.
std::set<Material> classes_with_dtw(const GenerateOptions& o) {
    const std::filesystem::path folder = o.dir / o.variant.name();
    std::error_code ec;
    if (!std::filesystem::is_directory(folder, ec))
        throw Error("no database folder " + folder.string());
    std::set<Material> out;
    for (const auto& entry : std::filesystem::directory_iterator(folder)) {
        const std::filesystem::path& p = entry.path();
        if (p.extension() != ".dtw") continue;
        if (const std::optional<Material> m = Material::parse(p.stem().string())) out.insert(*m);
    }
    return out;
}

// The classes to recode, each pair once (by its first class), every mirror checked present.
std::vector<Material> pairs_to_recode(const RecodeOptions& r) {
    const std::set<Material> present = classes_with_dtw(r.gen);
    std::set<Material> asked = r.only.empty() ? present : std::set<Material>();
    for (const Material m : r.only) {
        if (!present.count(m))
            throw Error(path_of(r.gen, m, Metric::dtw).string() +
                        ": no such file (recode reads a class's wdl values from its DTW file)");
        asked.insert(m);
    }
    std::vector<Material> pairs;
    for (const Material m : asked) {
        const Material first = std::min(m, m.mirrored());
        if (!present.count(m.mirrored()))
            throw Error(path_of(r.gen, m.mirrored(), Metric::dtw).string() +
                        ": no such file (the mirror of " + m.name() + ", written with it)");
        if (std::find(pairs.begin(), pairs.end(), first) == pairs.end()) pairs.push_back(first);
    }
    if (pairs.empty())
        throw Error("no DTW file in " + (r.gen.dir / r.gen.variant.name()).string() +
                    ": nothing to recode");
    return pairs;
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

}  // namespace

RecodeSummary recode_folder(const RecodeOptions& r, Progress& progress) {
    const auto start = std::chrono::steady_clock::now();
    GenerateOptions o = r.gen;
    const int threads = checked_threads(o.threads, "threads");
    o.threads = threads;
    tbb::global_control limit(tbb::global_control::max_allowed_parallelism,
                              static_cast<std::size_t>(threads));
    const std::vector<Material> pairs = pairs_to_recode(r);
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
        if (r.dtw) {
            const std::uint64_t before = pair_bytes(o, m, Metric::dtw);
            s.dtw_files_written += recode_dtw_file(o, m);
            if (m.mirrored() != m) s.dtw_files_written += recode_dtw_file(o, m.mirrored());
            const std::uint64_t after = pair_bytes(o, m, Metric::dtw);
            s.dtw_bytes_before += before;
            s.dtw_bytes_after += after;
            line += " dtw " + std::to_string(before) + " -> " + std::to_string(after) + " bytes";
        }
        const DtwFilesSource source(o, m);
        for (int c = 0; c < source.classes(); ++c) s.positions += source.positions(c);
        s.classes += source.classes();
        if (r.wdl) {
            const std::uint64_t before = pair_bytes(o, m, Metric::wdl);
            write_pair(o, source, PairFiles::wdl_only);
            remove_leftovers(o, m);
            const std::uint64_t after = pair_bytes(o, m, Metric::wdl);
            s.wdl_bytes_before += before;
            s.wdl_bytes_after += after;
            line += " wdl " + std::to_string(before) + " -> " + std::to_string(after) + " bytes";
        }
        progress.message(line);
    }
    if (run) run->finish();
    s.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return s;
}

}  // namespace damas
