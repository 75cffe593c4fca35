// Generation in units (gen/plan/plan.hpp, gen/units/unit_file.hpp) writes the same files as
// generation with every pair held whole:
//  - every class of every variant with up to 4 pieces (3 on 10x10 and turkish), byte for byte,
//    every pair solved in units (test_gen_units_slow: 5 pieces, 4 on 10x10 and turkish), and
//    again with every smaller class read through the block cache;
//  - a run in units killed at several moments resumes to the same files, and a damaged unit file
//    is solved again;
//  - the plan: a budget too small is refused before anything is written;
//  - units are named by metric: a run resumed with the other --metric solves the pair again
//    instead of reading the units a killed run of the other metric left.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <thread>

#include "gen/plan/plan.hpp"
#include "gen/solve/compact/compact_solver.hpp"
#include "gen/solve/solver.hpp"
#include "gen/store/solved_store.hpp"
#include "gen/units/unit_file.hpp"
#include "rules/error.hpp"
#include "units_compare.hpp"

namespace damas {
namespace {

using Tree = std::map<std::string, std::vector<char>>;

// Every pair solved in units, and again with every smaller class read through the block cache
// (SolvedStore::read_through): captures searched at each lookup, values from the files' blocks,
// as a probe does; both against one run with every pair held whole.
class UnitsAgree : public ::testing::TestWithParam<Variant> {};

TEST_P(UnitsAgree, SameFilesAsPairsHeldWholeAlsoReadThrough) {
    const Variant v = GetParam();
    test::expect_same_files_in_units(
        v, test::small_set(v) ? 3 : 4,
        {test::UnitsRun{PairSolving::units}, test::UnitsRun{PairSolving::units_read_through}});
}

INSTANTIATE_TEST_SUITE_P(AllVariants, UnitsAgree, ::testing::ValuesIn(all_variants()),
                         test::variant_test_name);

// The wdl writer from the units (units_compare.hpp): english and international here, russian in
// test_gen_units_slow.
TEST(UnitsCodecs, ContextCodecAndEstimatesFromUnits) {
    for (const char* name : {"english", "international"})
        test::expect_wdl_codecs_from_units(parse_variant(name).value());
}

// The byte-a-position solver (gen/solve/compact/compact_solver.hpp), which the plan takes for the
// pairs whose slices the state words cannot hold, on every pair of every variant's 2-3 set (english
// 2-4 below, and every 2-4 set in test_gen_units_slow).
class CompactAgrees : public ::testing::TestWithParam<Variant> {};

TEST_P(CompactAgrees, SameFilesAsPairsHeldWhole) {
    test::expect_same_files_in_units(GetParam(), 3, PairSolving::units_compact);
}

INSTANTIATE_TEST_SUITE_P(AllVariants, CompactAgrees, ::testing::ValuesIn(all_variants()),
                         test::variant_test_name);

// The groups the byte-a-position solver holds at a time, counted by hand: a configuration and
// its flip's on the diagonal boards; on the turkish board (8 squares a row, men on rows 1-6) the
// configurations with the same men on each row, both classes, halved where a row has an odd
// number of White or Black men (each configuration's mirror, files reversed, is another one).
TEST(CompactGroups, ConfigurationsQuietMovesConnect) {
    const auto group = [](const char* variant, const char* material) {
        return compact_group_positions(parse_variant(variant).value(),
                                       Material::parse(material).value());
    };
    // english 1102: a White man, a White king, two Black kings: 31 * C(30, 2) king placements.
    EXPECT_EQ(group("english", "1102"), 2u * 31 * 435);
    // turkish 1102: the man's row holds 8 configurations, 4 kept; 63 * C(62, 2) king placements.
    EXPECT_EQ(group("turkish", "1102"), 2u * 4 * 63 * 1891);
    // turkish 2010: two White men on two rows (8 * 8, more than C(8, 2) on one), a Black man on a
    // third (8), halved; no king.
    EXPECT_EQ(group("turkish", "2010"), 2u * 8 * 8 * 8 / 2);
    // turkish 2020: each man on a row of its own, halved (2,048), beats a pair of White men on
    // one row and of Black men on another (28 * 28 = 784: no halving, a pair can be symmetric).
    EXPECT_EQ(group("turkish", "2020"), 2u * 8 * 8 * 8 * 8 / 2);
    // turkish 0304: no man, one configuration of C(64, 3) * C(61, 4) king placements, held a
    // quarter (gen/solve/king_quarters.hpp: the four images of a placement of 3 White kings under
    // files and rows reversed are distinct): 41,664 / 4 White placements.
    EXPECT_EQ(group("turkish", "0304"), std::uint64_t{2} * 10416 * 521855);
    // turkish 0205: the 5 Black kings decide, C(64, 5) / 4 = 1,906,128 placements, C(59, 2).
    EXPECT_EQ(group("turkish", "0205"), std::uint64_t{2} * 1906128 * 1711);
    // turkish 0303, its own mirror: one class, a quarter; 0204 (2 and 4 kings, which can be
    // their own mirror image) is held whole.
    EXPECT_EQ(group("turkish", "0303"), std::uint64_t{1} * 10416 * 35990);
    EXPECT_EQ(group("turkish", "0204"), std::uint64_t{2} * 2016 * 557845);
}

// Small classes on the paths of large ones (units_compare.hpp: small_chunks_and_bytes): here the
// 8x8 diagonal board, the turkish one and a 10x10 one; in test_gen_units_slow the giveaway sets
// (byte-a-position) and russian and italian (components streamed).
TEST(CompactAgrees, OverflowMapAndSplitChunks) {
    for (const char* name : {"english", "turkish", "international"})
        test::expect_compact_overflow_and_split_chunks(parse_variant(name).value());
}

// The byte-a-position solver without its bit a position of captures, testing the positions
// again (GenerationTuning::compact_capture_bits): the same files. In turkish the positions of a
// king against a lone man that can capture it hold their value (the rule ends the game first), so
// the test again leaves them unmarked, as the bits do (turkish 1001: W:Wa2:BKb2 a loss in 0).
TEST(CompactAgrees, CapturesTestedAgain) {
    GenerationTuning tuning;
    tuning.compact_capture_bits = false;
    for (const char* name : {"english", "turkish", "international"}) {
        const Variant v = parse_variant(name).value();
        test::expect_same_files_in_units(v, test::small_set(v) ? 3 : 4, PairSolving::units_compact,
                                         automatic_wdl_codec, 0, std::nullopt, tuning);
    }
}

TEST(UnitsAgree, ComponentsStreamedToTheirUnits) {
    for (const char* name : {"english", "international"})
        test::expect_components_streamed(parse_variant(name).value());
}

std::string units_args(const std::filesystem::path& dir) {
    return "gen -q --in-units -v english -p 4 -t 2 -d " + dir.string();
}

// The table files (.wdl, .dtw) in dir's english folder.
int table_files_in(const std::filesystem::path& dir) {
    const std::filesystem::path folder = dir / "english";
    if (!std::filesystem::exists(folder)) return 0;
    int n = 0;
    for (const auto& e : std::filesystem::directory_iterator(folder))
        n += e.path().extension() == ".wdl" || e.path().extension() == ".dtw" ? 1 : 0;
    return n;
}

// Starts the run on dir and kills it after `delay`, or once the folder holds `tables` table
// files if that comes first: a delay measured on the reference run outlives the next run when
// the machine's load drops meanwhile.
bool run_and_kill(const std::filesystem::path& dir, std::chrono::milliseconds delay, int tables) {
    return test::run_and_kill(
        {"gen", "-q", "--in-units", "-v", "english", "-p", "4", "-t", "2", "-d", dir.string()},
        delay, [&] { return table_files_in(dir) >= tables; });
}

std::vector<std::filesystem::path> unit_files(const std::filesystem::path& dir) {
    std::vector<std::filesystem::path> out;
    const std::filesystem::path units = units_dir(dir, parse_variant("english").value());
    if (!std::filesystem::exists(units)) return out;
    for (const auto& e : std::filesystem::directory_iterator(units))
        if (e.path().extension() == ".unit") out.push_back(e.path());
    return out;
}

TEST(UnitsResume, KilledRunsAndDamagedUnitsResumeToIdenticalFiles) {
    const auto start = std::chrono::steady_clock::now();
    test::ScratchDir reference("units-reference");
    ASSERT_EQ(test::run_damas(units_args(reference.path)), 0);
    const double run_ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    const Tree expected = test::tree_bytes(reference.path);
    test::ScratchDir dir("units-killed");
    const int all_tables = table_files_in(reference.path);
    int interrupted = 0, units_left = 0, damaged = 0;
    for (const auto& [fraction, share] :
         {std::pair{0.2, 0.4}, {0.4, 0.7}, {0.6, 0.9}, {0.8, 0.97}}) {
        const auto delay = std::chrono::milliseconds(static_cast<int>(fraction * run_ms));
        interrupted += run_and_kill(dir.path, delay, static_cast<int>(share * all_tables)) ? 1 : 0;
        const std::vector<std::filesystem::path> units = unit_files(dir.path);
        units_left += units.empty() ? 0 : 1;
        if (units.empty()) continue;
        // Damage one, in its chunk table or in its first chunk (found only when read, while a
        // slice is solved or the files written): the rerun must solve it again.
        std::fstream f(units.front(), std::ios::in | std::ios::out | std::ios::binary);
        if (damaged % 2 == 0)
            f.seekp(-1, std::ios::end);
        else
            f.seekp(100, std::ios::beg);
        f.put('\x5a');
        ++damaged;
    }
    EXPECT_GE(interrupted, 2);
    ASSERT_EQ(test::run_damas(units_args(dir.path)), 0);
    EXPECT_TRUE(test::tree_bytes(dir.path) == expected)
        << "resumed files differ (" << units_left << " kills left unit files, " << damaged
        << " damaged)";
}

// The units a killed run of one metric leaves for a pair (its slices solved from a folder of
// that metric), then a run in units: of the same metric, it resumes from every one of them (so
// they are valid units); of the other, it resumes from none, and its table files are the
// reference's.
TEST(UnitsResume, UnitsOfTheOtherMetricAreNotRead) {
    const Variant v = parse_variant("english").value();
    // 2101 + 0121 (men to advance, crowning into 1201), named as the plan names it.
    Material pair = Material::parse("2101").value();
    for (const PairStep& step : plan_generation(test::generate_options(v, 4, "unused")).pairs)
        if (step.material == pair.mirrored()) pair = step.material;
    test::ScratchDir mtc("units-metric-mtc");
    GenerateOptions o = test::generate_options(v, 4, mtc.path);
    o.metric = Metric::mtc;
    test::generate_quietly(o);
    const std::filesystem::path& dtw = test::shared_database(v, 4);
    const auto tables = [](const std::filesystem::path& dir) {
        Tree out;
        for (const auto& [name, bytes] : test::tree_bytes(dir))
            if (name.ends_with(".wdl") || name.ends_with(".dtw") || name.ends_with(".mtc"))
                out[name] = bytes;
        return out;
    };
    for (const auto& [left, run] :
         {std::pair{Metric::mtc, Metric::mtc}, std::pair{Metric::mtc, Metric::dtw},
          std::pair{Metric::dtw, Metric::mtc}}) {
        const std::string what =
            std::string("units of ") + metric_name(left) + ", run of " + metric_name(run);
        test::ScratchDir dir("units-metric");
        GenerateOptions options = test::generate_options(v, 4, dir.path);
        options.metric = run;
        options.pair_solving = PairSolving::units;
        const PairLayout layout(v.info().board, pair, options.tuning);
        SolvedStore store(v, left == Metric::mtc ? mtc.path : dtw);
        store.set_distance_metric([left](Material) { return left; });
        store.load_below(pair);
        store.load_below(pair.mirrored());
        std::filesystem::create_directories(units_dir(dir.path, v));
        SlicesToSolve slices;
        slices.metric = left;
        int units = 0;
        solve_slices(v, layout, store, slices, {}, [&](const SliceValues& slice) {
            write_unit(unit_path(dir.path, v, pair, slice.slice, left), v, layout, slice);
            ++units;
        });
        ASSERT_EQ(units, layout.slice_count());
        const GenerateSummary s = test::generate_quietly(options);
        EXPECT_EQ(s.units_resumed, left == run ? static_cast<std::uint64_t>(units) : 0u) << what;
        EXPECT_TRUE(tables(dir.path) == tables(run == Metric::mtc ? mtc.path : dtw)) << what;
    }
}

TEST(UnitsPlan, TooSmallABudgetIsRefusedBeforeWriting) {
    test::ScratchDir dir("units-budget");
    EXPECT_EQ(test::run_damas("gen -q -v english -p 4 --memory 1M -d " + dir.path.string()), 2);
    EXPECT_TRUE(test::tree_bytes(dir.path).empty());
    EXPECT_EQ(test::run_damas("gen -q -v english -p 4 --memory lots -d " + dir.path.string()), 2);
    EXPECT_EQ(test::run_damas("gen -v english -p 4 --plan --json -d " + dir.path.string()), 0);
    EXPECT_TRUE(test::tree_bytes(dir.path).empty());
}

TEST(UnitsPlan, MemorySizes) {
    EXPECT_EQ(parse_memory_size("512M"), std::uint64_t{512} << 20);
    EXPECT_EQ(parse_memory_size("12G"), std::uint64_t{12} << 30);
    EXPECT_EQ(parse_memory_size("1.5GiB"), std::uint64_t{3} << 29);
    EXPECT_EQ(parse_memory_size("4096"), 4096u);
    for (const char* bad : {"", "G", "12X", "-1G", "0", "1e30"})
        EXPECT_THROW(parse_memory_size(bad), Error) << bad;
}

// A bounded plan holds less than the whole plan, and a pair in units less than held whole.
TEST(UnitsPlan, BoundedPlansFitTheirBudget) {
    GenerateOptions o;
    o.variant = parse_variant("english").value();
    o.max_pieces = 6;
    const GenerationPlan whole = plan_generation(o);
    o.memory_bytes = whole.peak_bytes / 2;
    const GenerationPlan bounded = plan_generation(o);
    EXPECT_FALSE(whole.bounded);
    EXPECT_TRUE(bounded.bounded);
    EXPECT_LE(bounded.peak_bytes, o.memory_bytes);
    EXPECT_GT(bounded.units, 0u);
    EXPECT_EQ(bounded.positions, whole.positions);
}

// The sets issue 18 names plan within 16 GiB on 2 threads, every pair of each within it
// (turkish 2-7 since its pairs without men are held a quarter, gen/solve/king_quarters.hpp).
TEST(UnitsPlan, TheIssuesSetsFitSixteenGiB) {
    const std::uint64_t budget = std::uint64_t{16} << 30;
    for (const auto& [variant, pieces] :
         std::vector<std::pair<const char*, int>>{{"international", 6},
                                                  {"english", 7},
                                                  {"russian", 7},
                                                  {"turkish", 7},
                                                  {"international", 7},
                                                  {"english", 8}}) {
        GenerateOptions o;
        o.variant = parse_variant(variant).value();
        o.max_pieces = pieces;
        o.threads = 2;
        o.memory_bytes = budget;
        const GenerationPlan plan = plan_generation(o);
        EXPECT_LE(plan.peak_bytes, budget) << variant << " 2-" << pieces;
        for (const PairStep& step : plan.pairs)
            EXPECT_LE(step.peak_bytes, budget) << variant << " " << step.material.name();
    }
}

// The time model (gen/plan/plan.cpp) whatever its fitted constants, which docs/performance.md
// compares with measured runs ("The time model against measured runs") and scripts/pair-rates.py
// refits: per position, a pair costs more with more kings and never less with more pieces (more
// with the most than with the fewest), a class without kings more than one with a single king,
// a variant with flying kings more than english; and a run's modelled time is its CPU time
// divided by its threads.
TEST(UnitsPlan, TimeModelShape) {
    // A budget that holds every pair whole: no pair in units, no class loaded again.
    const auto plan = [](const char* variant, int pieces, int threads) {
        GenerateOptions o;
        o.variant = parse_variant(variant).value();
        o.max_pieces = pieces;
        o.threads = threads;
        o.memory_bytes = std::uint64_t{1} << 60;
        const GenerationPlan p = plan_generation(o);
        EXPECT_FALSE(p.bounded) << variant << " 2-" << pieces;
        return p;
    };
    // Seconds a position of each pair, by its first class.
    const auto per_position = [](const GenerationPlan& p) {
        std::map<Material, double> out;
        for (const PairStep& step : p.pairs)
            out[step.material] = step.seconds / static_cast<double>(step.positions);
        return out;
    };
    const auto kings = [](Material m) { return m.white_kings + m.black_kings; };

    // english 2-7: the cheapest and dearest pair of each (pieces, kings).
    std::map<std::pair<int, int>, std::pair<double, double>> range;
    for (const auto& [m, cost] : per_position(plan("english", 7, 1))) {
        const auto key = std::pair{m.pieces(), kings(m)};
        const auto it = range.find(key);
        if (it == range.end())
            range[key] = {cost, cost};
        else
            it->second = {std::min(it->second.first, cost), std::max(it->second.second, cost)};
    }
    const auto has = [&](int pieces, int k) { return range.count({pieces, k}) > 0; };
    const auto cheapest = [&](int pieces, int k) { return range.at({pieces, k}).first; };
    const auto dearest = [&](int pieces, int k) { return range.at({pieces, k}).second; };
    int more_kings = 0, more_pieces = 0, without_kings = 0;
    for (int pieces = 2; pieces <= 7; ++pieces) {
        for (int k = 1; k < pieces; ++k) {
            if (!has(pieces, k) || !has(pieces, k + 1)) continue;
            EXPECT_GT(cheapest(pieces, k + 1), dearest(pieces, k)) << pieces << " pieces, " << k;
            ++more_kings;
        }
        for (int k = 0; k <= pieces; ++k) {
            if (!has(pieces, k) || !has(pieces + 1, k)) continue;
            // (equal where the pieces do not count, up to the rounding of seconds / positions)
            EXPECT_GE(cheapest(pieces + 1, k) * (1 + 1e-9), dearest(pieces, k))
                << pieces << " pieces, " << k;
            ++more_pieces;
        }
        if (has(pieces, 0) && has(pieces, 1)) {
            EXPECT_GT(cheapest(pieces, 0), dearest(pieces, 1)) << pieces << " pieces";
            ++without_kings;
        }
    }
    EXPECT_GT(cheapest(7, 1), dearest(2, 1));  // more pieces: more, from the fewest to the most
    EXPECT_GT(more_kings, 0);
    EXPECT_GT(more_pieces, 0);
    EXPECT_GT(without_kings, 0);

    // Flying kings, on 8x8 (russian, brazilian) and on 10x10 (international), against english's
    // short kings: every pair with a king costs more.
    const std::map<Material, double> english = per_position(plan("english", 5, 1));
    for (const char* flying : {"russian", "brazilian", "international"}) {
        int compared = 0;
        for (const auto& [m, cost] : per_position(plan(flying, 5, 1))) {
            if (kings(m) == 0 || !english.count(m)) continue;
            EXPECT_GT(cost, english.at(m)) << flying << " " << m.name();
            ++compared;
        }
        EXPECT_GT(compared, 20) << flying;
    }

    // The modelled seconds are the CPU-seconds divided by the threads, pair by pair.
    const GenerationPlan one = plan("english", 6, 1), two = plan("english", 6, 2),
                         four = plan("english", 6, 4);
    EXPECT_NEAR(one.seconds, 2 * two.seconds, 1e-9 * one.seconds);
    EXPECT_NEAR(one.seconds, 4 * four.seconds, 1e-9 * one.seconds);
    ASSERT_EQ(one.pairs.size(), four.pairs.size());
    for (std::size_t i = 0; i < one.pairs.size(); ++i)
        EXPECT_NEAR(one.pairs[i].seconds, 4 * four.pairs[i].seconds, 1e-9 * one.pairs[i].seconds)
            << one.pairs[i].material.name();
}

}  // namespace
}  // namespace damas
