// Writing a solved pair's table files, and telling whether a pair's files are complete.
//
// Owns: what the writer reads of a solved pair (PairSource: each class's wdl values, held or
// read in passes, then its DTW values by block), the generator's two sources (a pair solved
// whole, its results in memory; a pair solved in units, streamed from its unit files), and the
// writing itself: each class's wdl file coded as gen/write/wdl_policy.hpp says, its DTW file, and
// the mirror layout for one wdl file of a pair. `damas recode` (gen/run/recode.hpp) writes a
// folder's wdl files again through this same path from their DTW files, so that a recoded folder
// holds the files gen would write with the new codec.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <span>
#include <vector>

#include "gen/options.hpp"
#include "gen/write/wdl_choice.hpp"
#include "gen/write/writer.hpp"
#include "index/material.hpp"

namespace damas {

struct PairResult;
class PairLayout;

// A class's wdl values as the writer takes them: held (a pair solved whole: fastest, its values
// are in memory anyway) or read in passes (a pair in units: from its unit files, never held, or
// from a copy packed 2 bits a position where the budget allows: gen/plan/plan.hpp, wdl_packed).
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
    // Calls f with class c's distance values by block, coded for `metric` (dtw or mtc:
    // format.hpp); what is needed to give them is held meanwhile.
    virtual void with_distance(int c, Metric metric,
                               const std::function<void(const DtwValues&)>& f) const = 0;
    // Written within a memory budget: the writer holds nothing it can compute again.
    virtual bool bounded() const { return false; }
    // Whether with_distance does more than give the values (a pair in units hands each class's
    // outcomes to its solved class file), so that a class whose distance file holds no values
    // (the mtc mirror layout) is still read through.
    virtual bool distance_pass_needed() const { return false; }
};

// The pair solved whole (gen/solve/solver.hpp's results), or solved in units (read from its unit
// files, gen/units/unit_file.hpp; the first wdl pass packed for the others where the budget
// allows).
std::unique_ptr<PairSource> results_source(const std::vector<PairResult>& results);
// `solved`, when given, also takes each class's outcomes (capture positions resolved) in class
// order as its DTW file is written: a class's solved class file (gen/units/solved_class_file.hpp).
using ClassOutcomesFn = std::function<void(int c, std::span<const std::uint16_t> outcomes)>;
std::unique_ptr<PairSource> units_source(const GenerateOptions& o, const PairLayout& layout,
                                         bool wdl_packed, ClassOutcomesFn solved = {});

// Which of a pair's files write_pair writes: both (the distance file dtw or mtc, as
// distance_metric says), or the wdl files only (damas recode: the DTW files stay; a wdl header's
// counts, all that a DTW header takes from it, do not depend on the codec), or the distance
// files only, given the wdl files on disk (damas recode --mtc-codec).
enum class PairFiles { wdl_and_dtw, wdl_only, distance_only };

// Writes the pair's table files; returns the bytes written.
std::uint64_t write_pair(const GenerateOptions& o, const PairSource& pair,
                         PairFiles files = PairFiles::wdl_and_dtw);

// A cut pair's wdl files written in parts (damas-mpi, gen/plan/work_graph.hpp): where each
// class's coding (and, with the mirror layout, the class that keeps the values) is chosen by
// estimate (wdl_policy.hpp's choose_by_estimate); a smaller pair writes both files whole to keep
// the smaller, one unit of work. What write_pair decides, from the whole classes:
// estimate_wdl_class, class c's coding, estimated bytes and counts (a pass for each codec's
// estimate, two for a codec with a model, and one for the counts), each class on its own;
// choose_pair_wdl, given them, the class that keeps the values and the model of each file that
// does, fitted to its whole class (a pass, a codec with a model only).
bool wdl_in_parts(const GenerateOptions& o, std::uint64_t positions);
WdlFileChoice estimate_wdl_class(const GenerateOptions& o, const PairSource& pair, int c);
PairWdlChoice choose_pair_wdl(const GenerateOptions& o, const PairSource& pair,
                              std::vector<WdlFileChoice> estimates);
// The wdl files of pair m that keep values, written in parts: 1 with the mirror layout or a class
// that is its own mirror, else 2; 0 where not wdl_in_parts.
int wdl_files_in_parts(const GenerateOptions& o, Material m);
// The parts of each such file for a pair cut into `ranges`: at most the blocks of the smallest
// file of any wdl codec.
int wdl_parts(std::uint64_t positions, int ranges);
PairWdlChoice choose_pair_wdl(const GenerateOptions& o, const PairSource& pair);

// The pair's files are complete and in the layout a run with these options writes.
bool pair_complete(const GenerateOptions& o, Material m, std::uint64_t positions);
// The pair's wdl files are (write_pair's PairFiles::wdl_only: a cut pair's first unit of
// writing, gen/plan/work_graph.hpp).
bool pair_wdl_complete(const GenerateOptions& o, Material m, std::uint64_t positions);
// Whether class m's distance file gets the mirror layout (an mtc file whose class's wdl file,
// of header `wdl`, has it: GenerateOptions::mirror_mtc): its header alone, no values.
bool distance_mirrored(const GenerateOptions& o, Material m, const TableHeader& wdl);
// The candidate wdl files of a pair getting the mirror layout that a killed run left.
void remove_candidates(const GenerateOptions& o, Material m);
// After a pair is written: the temporary files a killed run may have left for its classes.
void remove_leftovers(const GenerateOptions& o, Material m);

TableInfo table_info(const Variant& v, Material m);
// The writer's options for a run's files: its threads, durability and dtw codec.
WriteOptions write_options(const GenerateOptions& o);

}  // namespace damas
