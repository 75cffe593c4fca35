// Pairs in units cut into ranges of men configurations (gen/plan/work_graph.hpp), the units of
// work damas-mpi hands out, run here in one process in random orders that the graph allows:
//  - the files are byte-identical to one process's, with slices really cut (the solvers of state
//    words, as components, and the byte-a-position solver's groups);
//  - a run stopped between units of work resumes from the parts written, and a part lost or
//    parts that do not cover their slice are solved again; a part of a distance file damaged is
//    refused by the assembly and written again by the next run;
//  - the graph: a range reads every range of the slice before, the writing (wdl files, parts of
//    the distance files, their assembly) every range of the last slice, a pair reading a cut
//    pair waits for its files; the rule cuts nothing on one
//    worker; bad input is refused.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <random>
#include <utility>

#include "gen/plan/work_graph.hpp"
#include "gen/run/pair_in_units.hpp"
#include "gen_fixtures.hpp"
#include "rules/error.hpp"

// The slow executable's tests have a suite name of their own: ctest names must differ.
#ifdef DAMAS_TEST_SLOW
#define CUT_SLICES CutSlicesSlow
#else
#define CUT_SLICES CutSlices
#endif

namespace damas {
namespace {

using Tree = std::map<std::string, std::vector<char>>;

// Small classes on the paths of large ones: unit chunks of 256 positions, so that men
// configurations of 16 positions or more are solved one at a time into their unit (streamed),
// which is what can be cut.
GenerateOptions cut_options(const char* variant, int pieces, const std::filesystem::path& dir,
                            PairSolving how = PairSolving::units) {
    GenerateOptions o = test::generate_options(*parse_variant(variant), pieces, dir);
    o.pair_solving = how;
    o.tuning.unit_chunk_positions = 256;
    return o;
}

struct CutRun {
    GenerateSummary summary;
    std::size_t units_of_work = 0, ran = 0;
    std::size_t slices_cut = 0;
};

// The run's units of work with every pair in units cut into `ranges`, taken in a random order
// the graph allows (as workers finishing at random would); stopped without finishing after
// `stop_after` units (a killed run).
CutRun run_cut(const GenerateOptions& o, int ranges, unsigned seed,
               std::size_t stop_after = SIZE_MAX) {
    GenerationRun run(o);
    Progress quiet(Progress::Mode::quiet);
    run.start(true, quiet, quiet);
    const WorkGraph w = work_graph(o, run.plan(), run.graph(), cut_ranges(run.plan(), 1, ranges));
    PairQueue queue(w.graph, complete_work(run.work(), w));
    std::mt19937 rng(seed);
    std::vector<std::size_t> running;
    CutRun out;
    out.units_of_work = w.nodes.size();
    out.slices_cut = w.slices_cut;
    while (!queue.all_done()) {
        while (const auto n = queue.next()) running.push_back(*n);
        if (running.empty()) ADD_FAILURE() << "nothing ready, nothing running";
        if (running.empty()) return out;
        const std::size_t k =
            std::uniform_int_distribution<std::size_t>(0, running.size() - 1)(rng);
        const std::size_t n = running[k];
        running.erase(running.begin() + static_cast<std::ptrdiff_t>(k));
        run_work(run.work(), w, n);
        queue.finish(n);
        if (++out.ran == stop_after) return out;
    }
    run.finish();
    out.summary = run.summary();
    return out;
}

Tree tables(const std::filesystem::path& dir) {
    Tree out;
    for (auto& [name, bytes] : test::tree_bytes(dir))
        if (name.ends_with(".wdl") || name.ends_with(".dtw")) out[name] = std::move(bytes);
    return out;
}

void expect_same_tables(const Tree& a, const Tree& b) {
    ASSERT_EQ(a.size(), b.size());
    for (const auto& [name, bytes] : a) {
        const auto it = b.find(name);
        ASSERT_NE(it, b.end()) << name;
        EXPECT_TRUE(it->second == bytes) << name << " differs";
    }
}

TEST(CUT_SLICES, SameFilesAsOneProcess) {
    for (const auto& [variant, ranges] : {std::pair{"english", 3}, std::pair{"russian", 2}}) {
        const Tree one = tables(test::shared_database(*parse_variant(variant), 4));
        test::ScratchDir dir(std::string("cut-") + variant);
        const CutRun r = run_cut(cut_options(variant, 4, dir.path), ranges, 7u + ranges);
        EXPECT_GT(r.slices_cut, 0u) << variant;
        EXPECT_GT(r.summary.slice_ranges_solved, 0u) << variant;
        expect_same_tables(one, tables(dir.path));
        EXPECT_FALSE(std::filesystem::exists(dir.path / variant / "units")) << variant;
    }
}

// Runs the units of work of a cut run (3 ranges) in the graph's order until found(plan, node),
// after each, names a file; returns it (empty: none did).
template <class Found>
std::filesystem::path run_until(const GenerateOptions& o, const Found& found) {
    GenerationRun run(o);
    Progress quiet(Progress::Mode::quiet);
    run.start(true, quiet, quiet);
    const WorkGraph w = work_graph(o, run.plan(), run.graph(), cut_ranges(run.plan(), 1, 3));
    for (std::size_t n = 0; n < w.nodes.size(); ++n) {
        run_work(run.work(), w, n);
        std::filesystem::path file = found(run.plan(), w.nodes[n]);
        if (!file.empty()) return file;
    }
    return {};
}

// A part of a table file damaged in its blocks: the next cut run (3 ranges) stops with an error
// at its assembly, and the part is removed.
void refused_when_damaged(const GenerateOptions& o, const std::filesystem::path& part) {
    ASSERT_TRUE(std::filesystem::exists(part));
    std::vector<char> bytes = test::file_bytes(part);
    bytes.back() = static_cast<char>(bytes.back() ^ 0x5a);
    test::write_bytes(part, bytes);
    try {
        run_cut(o, 3, 3u);
        ADD_FAILURE() << "a damaged part assembled: " << part;
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("damaged"), std::string::npos) << e.what();
    }
    EXPECT_FALSE(std::filesystem::exists(part)) << "the damaged part is removed";
}

// A cut run stopped after the first part of a distance file of 2 parts or more is written (the
// units of work in the graph's order); then resumed with that part damaged in its blocks: the
// assembly refuses it (and removes it), the next run writes it again; the files the same.
TEST(CUT_SLICES, WritingResumesFromItsParts) {
    const Tree one = tables(test::shared_database(*parse_variant("english"), 3));
    test::ScratchDir dir("cut-write-resume");
    const GenerateOptions o = cut_options("english", 3, dir.path);
    const std::filesystem::path part = run_until(o, [&](const GenerationPlan& plan,
                                                        const WorkNode& node) {
        if (node.kind != WorkNode::Kind::write_part || node.ranges < 2)
            return std::filesystem::path();
        const Material m = plan.pairs[node.pair].material;
        return distance_part_path(o, node.cls == 0 ? m : m.mirrored(), {node.range, node.ranges});
    });
    ASSERT_FALSE(part.empty()) << "no distance file in parts";
    refused_when_damaged(o, part);
    run_cut(o, 3, 4u);
    expect_same_tables(one, tables(dir.path));
    EXPECT_FALSE(std::filesystem::exists(dir.path / "english" / "units"));
}

// Every class's wdl coding chosen by estimate (large_class_positions 1), so that the cut pairs'
// wdl files are written in parts: the same files as the pairs not cut. A run stopped after the
// first wdl part is written, that part damaged in its blocks: the assembly refuses it (and
// removes it), the next run writes it again; then the choice lost: chosen again.
TEST(CUT_SLICES, WdlFilesInPartsResume) {
    test::ScratchDir dir("cut-wdl-parts");
    GenerateOptions o = cut_options("english", 3, dir.path / "one");
    o.large_class_positions = 1;
    const CutRun whole = run_cut(o, 1, 1u);
    EXPECT_EQ(whole.summary.wdl_parts_written, 0u);
    const Tree one = tables(o.dir);
    o.dir = dir.path / "cut";
    std::filesystem::path choice;
    const std::filesystem::path part =
        run_until(o, [&](const GenerationPlan& plan, const WorkNode& node) {
            std::filesystem::path found;
            if (node.kind != WorkNode::Kind::wdl_part) return found;
            const Material m = plan.pairs[node.pair].material;
            for (const Material c : {m, m.mirrored()}) {
                const auto p = o.dir / "english" / "units" /
                               (c.name() + ".wdl." + std::to_string(node.range) + "-" +
                                std::to_string(node.ranges) + ".part");
                if (std::filesystem::exists(p)) found = p;
            }
            choice = o.dir / "english" / "units" / (m.name() + ".wdl.choice");
            return found;
        });
    ASSERT_FALSE(part.empty()) << "no wdl file in parts";
    EXPECT_TRUE(std::filesystem::exists(choice));
    refused_when_damaged(o, part);
    std::filesystem::remove(choice);  // chosen again, its parts checked against the new choice
    const CutRun resumed = run_cut(o, 3, 4u);
    EXPECT_GT(resumed.summary.wdl_parts_written, 0u);
    expect_same_tables(one, tables(o.dir));
    EXPECT_FALSE(std::filesystem::exists(o.dir / "english" / "units"));
}

// The two below take a minute in all: in test_cut_slices_slow (mpi_gen_cut_kill resumes a cut run
// in the slow set too).
#ifdef DAMAS_TEST_SLOW
// The byte-a-position solver's groups cut into ranges (every slice of every pair by it).
TEST(CUT_SLICES, ByteAPositionGroupsSameFiles) {
    for (const char* variant : {"english", "international"}) {
        const int pieces = std::string(variant) == "english" ? 4 : 3;
        const Tree one = tables(test::shared_database(*parse_variant(variant), pieces));
        test::ScratchDir dir(std::string("cut-compact-") + variant);
        const CutRun r =
            run_cut(cut_options(variant, pieces, dir.path, PairSolving::units_compact), 3, 11u);
        EXPECT_GT(r.summary.slice_ranges_solved, 0u) << variant;
        expect_same_tables(one, tables(dir.path));
    }
}

// Stopped between units of work, then resumed; then a part lost and a part that names another
// range: each solved again, the files the same.
TEST(CUT_SLICES, ResumesFromThePartsWritten) {
    const Tree one = tables(test::shared_database(*parse_variant("russian"), 4));
    test::ScratchDir dir("cut-resume");
    const GenerateOptions o = cut_options("russian", 4, dir.path);
    const CutRun full = run_cut(o, 3, 5u, SIZE_MAX);
    std::filesystem::remove_all(dir.path);
    const CutRun stopped = run_cut(o, 3, 5u, full.units_of_work / 2);
    ASSERT_EQ(stopped.ran, full.units_of_work / 2);
    const std::filesystem::path units = dir.path / "russian" / "units";
    std::vector<std::filesystem::path> parts;
    for (const auto& e : std::filesystem::directory_iterator(units))
        if (e.path().filename().string().ends_with("-3.unit")) parts.push_back(e.path());
    ASSERT_GE(parts.size(), 2u) << "no parts written when the run stopped";
    const CutRun resumed = run_cut(o, 3, 9u);
    EXPECT_LT(resumed.summary.slice_ranges_solved, full.summary.slice_ranges_solved);
    expect_same_tables(one, tables(dir.path));

    // Stopped at the same unit again; one part lost, and another copied over its neighbour
    // (a part whose header names another range).
    std::filesystem::remove_all(dir.path);
    run_cut(o, 3, 5u, full.units_of_work / 2);
    std::sort(parts.begin(), parts.end());
    std::filesystem::remove(parts[0]);
    std::string neighbour = parts[1].string();  // <class>.<slice>.<r>-3.unit
    const std::size_t r = neighbour.size() - std::string("0-3.unit").size();
    neighbour[r] = static_cast<char>('0' + (neighbour[r] - '0' + 1) % 3);
    std::filesystem::copy_file(parts[1], neighbour,
                               std::filesystem::copy_options::overwrite_existing);
    run_cut(o, 3, 13u);
    expect_same_tables(one, tables(dir.path));
}
#endif

TEST(CUT_SLICES, GraphOfRangesAndWriting) {
    test::ScratchDir dir("cut-graph");
    const GenerateOptions o = cut_options("english", 4, dir.path);
    GenerationRun run(o);
    EXPECT_EQ(cut_ranges(run.plan(), 1), std::vector<int>(run.plan().pairs.size(), 1));
    EXPECT_EQ(cut_ranges(run.plan(), 4, 1), std::vector<int>(run.plan().pairs.size(), 1));
    EXPECT_THROW(cut_ranges(run.plan(), 4, -1), Error);
    const WorkGraph w = work_graph(o, run.plan(), run.graph(), cut_ranges(run.plan(), 1, 4));
    ASSERT_GT(w.pairs_cut, 0u);
    std::vector<std::size_t> final_node(run.plan().pairs.size(), SIZE_MAX);
    double work = 0;
    for (std::size_t n = 0; n < w.nodes.size(); ++n) {
        const WorkNode& node = w.nodes[n];
        for (const std::size_t d : w.graph.needs[n]) EXPECT_LT(d, n);
        if (node.kind == WorkNode::Kind::range && node.slice > 0) {
            // Every range of the slice before, nothing else.
            std::size_t before = 0;
            for (const std::size_t d : w.graph.needs[n]) {
                EXPECT_EQ(w.nodes[d].pair, node.pair);
                EXPECT_EQ(w.nodes[d].slice, node.slice - 1);
                ++before;
            }
            EXPECT_EQ(before,
                      static_cast<std::size_t>(w.ranges_by_slice[node.pair][node.slice - 1]));
        }
        // The writing: the wdl files read every range of the last slice, each part of a
        // distance file the wdl files, the assembly every part.
        if (node.kind == WorkNode::Kind::write_wdl) {
            EXPECT_EQ(w.graph.needs[n].size(),
                      static_cast<std::size_t>(w.ranges_by_slice[node.pair].back()));
        }
        if (node.kind == WorkNode::Kind::write_part) {
            ASSERT_EQ(w.graph.needs[n].size(), 1u);
            const WorkNode::Kind wdl = w.nodes[w.graph.needs[n][0]].kind;
            EXPECT_TRUE(wdl == WorkNode::Kind::write_wdl || wdl == WorkNode::Kind::wdl_write);
            EXPECT_EQ(node.ranges, w.parts_by_class[node.pair].at(node.cls));
        }
        // Wdl files in parts: each class's estimate reads every range of the last slice, the
        // choice every estimate, each part the choice, the assembly every part.
        if (node.kind == WorkNode::Kind::wdl_estimate) {
            EXPECT_EQ(w.graph.needs[n].size(),
                      static_cast<std::size_t>(w.ranges_by_slice[node.pair].back()));
        }
        if (node.kind == WorkNode::Kind::wdl_choice) {
            for (const std::size_t d : w.graph.needs[n])
                EXPECT_EQ(w.nodes[d].kind, WorkNode::Kind::wdl_estimate);
        }
        if (node.kind == WorkNode::Kind::wdl_part) {
            ASSERT_EQ(w.graph.needs[n].size(), 1u);
            EXPECT_EQ(w.nodes[w.graph.needs[n][0]].kind, WorkNode::Kind::wdl_choice);
            EXPECT_EQ(node.ranges, w.wdl_parts[node.pair].at(node.cls));
        }
        if (node.kind == WorkNode::Kind::wdl_write) {
            const auto& parts = w.wdl_parts[node.pair];
            EXPECT_EQ(w.graph.needs[n].size(),
                      static_cast<std::size_t>(std::accumulate(parts.begin(), parts.end(), 0)));
        }
        if (node.kind == WorkNode::Kind::write) {
            const auto& parts = w.parts_by_class[node.pair];
            EXPECT_EQ(w.graph.needs[n].size(),
                      static_cast<std::size_t>(std::accumulate(parts.begin(), parts.end(), 0)));
            for (const int k : parts) EXPECT_GT(k, 1);
        }
        if (node.kind == WorkNode::Kind::pair || node.kind == WorkNode::Kind::write)
            final_node[node.pair] = n;
        work += w.seconds[n];
    }
    // A pair reads the pairs it reads through their files' node.
    const PairGraph& pairs = run.graph();
    for (std::size_t n = 0; n < w.nodes.size(); ++n) {
        const WorkNode& node = w.nodes[n];
        if (node.kind != WorkNode::Kind::pair &&
            !(node.kind == WorkNode::Kind::range && node.slice == 0))
            continue;
        std::vector<std::size_t> expected;
        for (const std::size_t i : pairs.needs[node.pair]) expected.push_back(final_node[i]);
        EXPECT_EQ(w.graph.needs[n], expected);
    }
    // The model: the cut pairs' time is their time, plus the loads of their ranges of slice 0.
    double planned = 0;
    for (std::size_t i = 0; i < run.plan().pairs.size(); ++i) {
        const PairStep& s = run.plan().pairs[i];
        planned += s.seconds;
        if (!w.ranges_by_slice[i].empty())
            planned += w.ranges_by_slice[i][0] * s.inputs_load_seconds - s.load_seconds;
    }
    EXPECT_NEAR(work, planned, 1e-9 * planned + 1e-12);
    // Handed out by modelled seconds: a node's chain is its seconds and its heaviest reader's.
    std::vector<double> heaviest_reader(w.nodes.size(), 0.0);
    for (std::size_t n = w.nodes.size(); n-- > 0;) {
        EXPECT_NEAR(w.graph.chain[n], w.seconds[n] + heaviest_reader[n], 1e-9 * w.graph.chain[n]);
        for (const std::size_t d : w.graph.needs[n])
            heaviest_reader[d] = std::max(heaviest_reader[d], w.graph.chain[n]);
    }
}

TEST(CUT_SLICES, SliceThatCannotBeCutIsRefused) {
    test::ScratchDir dir("cut-refused");
    GenerateOptions o = cut_options("english", 3, dir.path);
    o.tuning.unit_chunk_positions = 1 << 20;  // no configuration streamed: nothing can be cut
    GenerationRun run(o);
    const WorkGraph w = work_graph(o, run.plan(), run.graph(), cut_ranges(run.plan(), 1, 3));
    EXPECT_EQ(w.pairs_cut, 0u);
    Progress quiet(Progress::Mode::quiet);
    run.start(true, quiet, quiet);
    std::size_t pair = 0;
    while (run.plan().pairs[pair].material.pieces() < 3) run.work().run(pair++);
    EXPECT_THROW(run.work().run_slice_part(pair, 0, {0, 3}), Error);
}

}  // namespace
}  // namespace damas
