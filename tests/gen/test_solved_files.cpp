// Solved class files (gen/units/solved_class_file.hpp): a class's complete outcomes kept on disk
// by a run on a budget for the later pairs that load the class again.
//  - written whole or as the values come, they read back to the same values; a missing,
//    damaged, truncated file or one of another class or size reads as nothing;
//  - the store loads a class from its solved file (complete: nothing to search), and from its
//    table files when the solved file is damaged, which it removes;
//  - the store writes a class's file once the class is complete (from the solver, or loaded and
//    its captures resolved), not when it frees it;
//  - a run on a budget that loads classes again reads them from solved files and writes the
//    same files as the run that holds every class, leaving no solved file behind.
// Held as values (SolvedStore::hold_values, for a pair solved for mtc: 2 bits a position):
//  - the values-only solved files read back (and the values of one with distances), chunks at
//    any offset; damaged ones read as nothing;
//  - loaded from the tables (zstd: stored and mirror layouts; context codec: half layout),
//    completed, read through the cache, or converted from outcomes, every value is the one the
//    store holding outcomes gives, in an eighth of its bytes;
//  - mtc runs mixed with dtw classes, in units and reading through the cache, write the same
//    files as the run that holds every pair whole (english 2-5 on budgets: docs/performance.md).
#include <gtest/gtest.h>

#include <fstream>
#include <numeric>

#include "gen/store/solved_store.hpp"
#include "gen/units/class_values.hpp"
#include "gen/units/solved_class_file.hpp"
#include "gen/units/unit_file.hpp"
#include "units_compare.hpp"

namespace damas {
namespace {

const Variant solved_english = parse_variant("english").value();
// The solved class files' chunks in a run (GenerationTuning::unit_chunk_positions).
const std::uint64_t run_chunk = GenerationTuning{}.unit_chunk_positions;

std::vector<std::uint16_t> some_outcomes(std::size_t n) {
    std::vector<std::uint16_t> v(n);
    for (std::size_t i = 0; i < n; ++i) v[i] = static_cast<std::uint16_t>((i * 2654435761u) >> 7);
    return v;
}

void flip_byte(const std::filesystem::path& p, std::streamoff at) {
    std::fstream f(p, std::ios::in | std::ios::out | std::ios::binary);
    f.seekg(at);
    const char c = static_cast<char>(f.get());
    f.seekp(at);
    f.put(static_cast<char>(c ^ 0x10));
}

// A class of english 2-4 that m is one move away from (m itself if none): solving it loads m
// from its tables and completes it.
Material one_move_above(Material m) {
    GenerateOptions o;
    o.variant = solved_english;
    o.max_pieces = 4;
    Material above = m;
    for (const Material c : planned_classes(o))
        if (store_needs(c).complete.count(m)) above = c;
    return above;
}

TEST(SolvedClassFiles, ReadBackOrNothing) {
    const std::uint64_t chunk = 1000;  // many chunks, a partial last one
    test::ScratchDir dir("solved-files");
    const Material m = Material::parse("1102").value();
    const std::vector<std::uint16_t> values = some_outcomes(25'321);
    const std::filesystem::path whole = dir.path / "whole.solved", streamed = dir.path / "s.solved";
    write_solved_class(whole, solved_english, m, values, chunk);
    {
        SolvedClassWriter w(streamed, solved_english, m, values.size(), chunk);
        for (std::size_t at = 0; at < values.size(); at += 777)
            w.append(std::span(values).subspan(at, std::min<std::size_t>(777, values.size() - at)));
        w.close();
    }
    for (const auto& p : {whole, streamed}) {
        const auto read = read_solved_class(p, solved_english, m, values.size());
        ASSERT_TRUE(read.has_value()) << p;
        EXPECT_TRUE(*read == values) << p;
    }
    EXPECT_FALSE(read_solved_class(dir.path / "none.solved", solved_english, m, values.size()));
    EXPECT_FALSE(read_solved_class(whole, solved_english, m.mirrored(), values.size()));
    EXPECT_FALSE(read_solved_class(whole, solved_english, m, values.size() + 1));
    EXPECT_FALSE(read_solved_class(whole, parse_variant("russian").value(), m, values.size()));
    // A unit reader does not take it for a unit.
    EXPECT_FALSE(read_unit(whole, solved_english, PairLayout(solved_english.info().board, m), 0));
    flip_byte(streamed, 200);  // in the first chunk
    EXPECT_FALSE(read_solved_class(streamed, solved_english, m, values.size()));
    std::filesystem::resize_file(whole, std::filesystem::file_size(whole) - 1);
    EXPECT_FALSE(read_solved_class(whole, solved_english, m, values.size()));
    // Closed short, or destroyed unfinished: no file, nor its temporary one.
    {
        SolvedClassWriter w(dir.path / "short.solved", solved_english, m, values.size(), chunk);
        w.append(std::span(values).first(10));
        EXPECT_THROW(w.close(), Error);
    }
    EXPECT_FALSE(std::filesystem::exists(dir.path / "short.solved"));
    EXPECT_FALSE(std::filesystem::exists(dir.path / "short.solved.tmp"));
}

TEST(SolvedClassFiles, StoreLoadsThemAndFallsBackToTheTables) {
    test::ScratchDir dir("solved-store");
    test::generate_quietly(solved_english, 4, dir.path);
    const Material m = Material::parse("1110").value();
    const Material above = one_move_above(m);
    ASSERT_NE(above, m);
    // The class completed from its tables: what its solved file holds.
    SolvedStore tables(solved_english, dir.path);
    tables.load_below(above);
    std::vector<std::uint16_t> complete(ClassIndex(solved_english.info().board, m).size());
    const ClassIndex index(solved_english.info().board, m);
    index.for_each_position(0, index.size(), [&](std::uint64_t i, const Position& p) {
        complete[i] = pack_outcome(tables.lookup<English>(p));
    });

    const std::filesystem::path path = solved_class_path(dir.path, solved_english, m);
    std::filesystem::create_directories(path.parent_path());
    write_solved_class(path, solved_english, m, complete, run_chunk);
    SolvedStore store(solved_english, dir.path);
    store.use_solved_files([](Material) { return false; }, run_chunk);
    store.add_from_files(m);
    EXPECT_EQ(store.classes_from_solved_files(), 1u);
    index.for_each_position(0, index.size(), [&](std::uint64_t i, const Position& p) {
        ASSERT_EQ(pack_outcome(store.lookup<English>(p)), complete[i]) << i;
    });

    flip_byte(path, 150);
    SolvedStore damaged(solved_english, dir.path);
    damaged.use_solved_files([](Material) { return false; }, run_chunk);
    damaged.load_below(above);
    EXPECT_EQ(damaged.classes_from_solved_files(), 0u);
    EXPECT_FALSE(std::filesystem::exists(path));  // removed: the tables give the values
    index.for_each_position(0, index.size(), [&](std::uint64_t i, const Position& p) {
        ASSERT_EQ(pack_outcome(damaged.lookup<English>(p)), complete[i]) << i;
    });
}

// Written once the class is complete, not when it is freed, so that a run killed while it holds
// the class (and resumed) reads the class again instead of searching its captures.
TEST(SolvedClassFiles, WrittenOnceAClassIsComplete) {
    test::ScratchDir dir("solved-eager");
    test::generate_quietly(solved_english, 4, dir.path);
    const Material m = Material::parse("1110").value();
    const Material above = one_move_above(m);
    ASSERT_NE(above, m);
    const std::filesystem::path path = solved_class_path(dir.path, solved_english, m);
    std::filesystem::create_directories(path.parent_path());

    SolvedStore store(solved_english, dir.path);
    store.use_solved_files([&](Material c) { return c == m; }, run_chunk);
    store.load_below(above);  // loads m from its tables and resolves its captures
    ASSERT_TRUE(std::filesystem::exists(path));
    for (const Material c : store_needs(above).complete) {
        if (c == m) continue;
        EXPECT_FALSE(std::filesystem::exists(solved_class_path(dir.path, solved_english, c)))
            << c.name();
    }

    SolvedStore again(solved_english, dir.path);  // the rerun: reads it, searches nothing
    again.use_solved_files([](Material) { return false; }, run_chunk);
    again.add_from_files(m);
    EXPECT_EQ(again.classes_from_solved_files(), 1u);
    const ClassIndex index(solved_english.info().board, m);
    index.for_each_position(0, index.size(), [&](std::uint64_t i, const Position& p) {
        ASSERT_EQ(pack_outcome(again.lookup<English>(p)), pack_outcome(store.lookup<English>(p)))
            << i;
    });

    // A class added complete (a pair's results) is written at once too.
    std::filesystem::remove(path);
    SolvedStore solver(solved_english, dir.path);
    solver.use_solved_files([&](Material c) { return c == m; }, run_chunk);
    solver.add(m, some_outcomes(index.size()), true);
    EXPECT_EQ(read_solved_class(path, solved_english, m, index.size()),
              some_outcomes(index.size()));
}

TEST(SolvedClassFiles, BoundedRunReadsThemAndWritesTheSameFiles) {
    test::ScratchDir whole("solved-whole"), bounded("solved-bounded");
    test::generate_quietly(solved_english, 4, whole.path);
    GenerateOptions o;
    o.variant = solved_english;
    o.max_pieces = 4;
    o.dir = bounded.path;
    o.threads = 2;
    o.pair_solving = PairSolving::units;  // classes loaded again between pairs
    Progress progress(Progress::Mode::quiet);
    const GenerateSummary s = generate(o, progress);
    EXPECT_GT(s.classes_from_solved_files, 0u);
    EXPECT_LE(s.classes_from_solved_files, s.classes_loaded);
    EXPECT_FALSE(std::filesystem::exists(units_dir(bounded.path, solved_english)));
    EXPECT_TRUE(test::tree_bytes(whole.path) == test::tree_bytes(bounded.path));
}

TEST(SolvedClassFiles, ValuesReadBackOrNothing) {
    const std::uint64_t chunk = 1001;  // chunks that start inside a byte of values
    test::ScratchDir dir("solved-values");
    const Material m = Material::parse("1102").value();
    const std::uint64_t n = 25'321;
    std::vector<std::uint8_t> values(value_bytes(n));
    for (std::uint64_t i = 0; i < n; ++i)
        put_value(values.data(), i, static_cast<Value>((i * 2654435761u >> 9) % 3));
    const std::filesystem::path path = dir.path / "values.solved";
    write_solved_values(path, solved_english, m, values, n, chunk);
    const auto read = read_solved_values(path, solved_english, m, n);
    ASSERT_TRUE(read.has_value());
    EXPECT_TRUE(*read == values);
    // As outcomes: the values with no plies.
    const auto outcomes = read_solved_class(path, solved_english, m, n);
    ASSERT_TRUE(outcomes.has_value());
    for (std::uint64_t i = 0; i < n; ++i)
        ASSERT_EQ((*outcomes)[i], static_cast<std::uint16_t>(value_at(values.data(), i))) << i;
    // The values of a file with distances.
    const std::vector<std::uint16_t> packed = some_outcomes(n);
    write_solved_class(dir.path / "wide.solved", solved_english, m, packed, chunk);
    const auto from_wide = read_solved_values(dir.path / "wide.solved", solved_english, m, n);
    ASSERT_TRUE(from_wide.has_value());
    for (std::uint64_t i = 0; i < n; ++i)
        ASSERT_EQ(value_at(from_wide->data(), i), unpack_outcome(packed[i]).value) << i;
    EXPECT_FALSE(read_solved_values(path, solved_english, m, n + 1));
    EXPECT_FALSE(read_solved_values(dir.path / "none.solved", solved_english, m, n));
    flip_byte(path, 200);
    EXPECT_FALSE(read_solved_values(path, solved_english, m, n));
}

// Every class the pairs of `top`-piece classes read, each way the store holds it as values,
// against the store holding outcomes.
void expect_values_as_outcomes(const GenerateOptions& o, const std::vector<Material>& tops) {
    const std::filesystem::path& dir = o.dir;
    const BoardSpec board = solved_english.info().board;
    for (const Material above : tops) {
        SolvedStore outcomes(solved_english, dir), values(solved_english, dir),
            through(solved_english, dir), converted(solved_english, dir);
        for (SolvedStore* s : {&outcomes, &values, &through, &converted})
            s->set_distance_metric([&o](Material m) { return distance_metric(o, m); });
        for (SolvedStore* s : {&values, &through}) s->hold_values(true);
        through.read_through(store_closure(above), 1 << 20);
        for (SolvedStore* s : {&outcomes, &values, &through, &converted}) {
            s->load_below(above);
            s->load_below(above.mirrored());
        }
        converted.hold_values(true);  // held with outcomes, then converted
        // An eighth, but for the bytes that round each class up.
        EXPECT_LE(values.bytes(), outcomes.bytes() / 8 + store_closure(above).size())
            << above.name();
        EXPECT_GE(values.bytes() * 8, outcomes.bytes()) << above.name();
        EXPECT_EQ(converted.bytes(), values.bytes()) << above.name();
        std::uint64_t wins = 0, losses = 0;
        for (const Material c : store_closure(above)) {
            const ClassIndex index(board, c);
            index.for_each_position(0, index.size(), [&](std::uint64_t i, const Position& p) {
                const Outcome want = outcomes.lookup<English>(p);
                wins += want.value == Value::win;
                losses += want.value == Value::loss;
                for (const SolvedStore* s : {&values, &through, &converted}) {
                    const Outcome got = s->lookup<English>(p);
                    ASSERT_EQ(got.value, want.value) << c.name() << " " << i;
                    ASSERT_EQ(s->locate<English>(p).read().value, want.value) << c.name() << i;
                }
            });
        }
        EXPECT_GT(wins, 0u);
        EXPECT_GT(losses, 0u);
    }
}

TEST(StoreValues, EveryWayGivesTheValuesOfTheOutcomes) {
    for (const bool context : {false, true}) {
        test::ScratchDir dir(context ? "store-values-context" : "store-values");
        GenerateOptions o = test::generate_options(solved_english, 4, dir.path);
        o.metric = Metric::mtc;
        o.dtw_pieces = 2;  // the 2-piece classes read as dtw
        // Unfolded: a store holding a folded class's distances also loads what resolving them
        // searches, which the bytes compared here do not count.
        o.mtc_fold = 0;
        if (context) o.wdl_codec = Codec::context;  // the half layout for 1111, 2020 and 0202
        test::generate_quietly(o);
        const std::vector<Material> tops = {Material::parse("1111").value(),
                                            Material::parse("2101").value(),
                                            Material::parse("0202").value()};
        expect_values_as_outcomes(o, tops);
    }
}

// Loading a class from a solved file with distances (a pair in units writes those) or from its
// values-only form, and writing the latter once a class held as values is complete.
TEST(StoreValues, SolvedFilesOfBothForms) {
    test::ScratchDir dir("store-values-solved");
    GenerateOptions o = test::generate_options(solved_english, 4, dir.path);
    o.metric = Metric::mtc;
    test::generate_quietly(o);
    const auto mtc = [](Material) { return Metric::mtc; };
    const Material m = Material::parse("1110").value();
    const Material above = one_move_above(m);
    const std::filesystem::path values_path =
        solved_class_path(dir.path, solved_english, m, Metric::wdl);
    std::filesystem::create_directories(values_path.parent_path());
    SolvedStore written(solved_english, dir.path);
    written.set_distance_metric(mtc);
    written.hold_values(true);
    written.use_solved_files([&](Material c) { return c == m; }, 1001);
    written.load_below(above);
    ASSERT_TRUE(std::filesystem::exists(values_path));
    EXPECT_FALSE(
        std::filesystem::exists(solved_class_path(dir.path, solved_english, m, Metric::mtc)));

    SolvedStore again(solved_english, dir.path);
    again.set_distance_metric(mtc);
    again.hold_values(true);
    again.use_solved_files([](Material) { return false; }, run_chunk);
    again.add_from_files(m);
    EXPECT_EQ(again.classes_from_solved_files(), 1u);
    const ClassIndex index(solved_english.info().board, m);
    index.for_each_position(0, index.size(), [&](std::uint64_t i, const Position& p) {
        ASSERT_EQ(again.lookup<English>(p), written.lookup<English>(p)) << i;
    });
    // A store holding outcomes does not take the values-only form for them.
    SolvedStore wide(solved_english, dir.path);
    wide.set_distance_metric(mtc);
    wide.use_solved_files([](Material) { return false; }, run_chunk);
    wide.add_from_files(m);
    EXPECT_EQ(wide.classes_from_solved_files(), 0u);

    // The form with distances, read as values.
    std::filesystem::remove(values_path);
    SolvedStore outcomes(solved_english, dir.path);
    outcomes.set_distance_metric(mtc);
    outcomes.load_below(above);
    std::vector<std::uint16_t> complete(index.size());
    index.for_each_position(0, index.size(), [&](std::uint64_t i, const Position& p) {
        complete[i] = pack_outcome(outcomes.lookup<English>(p));
    });
    write_solved_class(solved_class_path(dir.path, solved_english, m, Metric::mtc), solved_english,
                       m, complete, run_chunk);
    SolvedStore from_wide(solved_english, dir.path);
    from_wide.set_distance_metric(mtc);
    from_wide.hold_values(true);
    from_wide.use_solved_files([](Material) { return false; }, run_chunk);
    from_wide.add_from_files(m);
    EXPECT_EQ(from_wide.classes_from_solved_files(), 1u);
    index.for_each_position(0, index.size(), [&](std::uint64_t i, const Position& p) {
        ASSERT_EQ(from_wide.lookup<English>(p), (Outcome{unpack_outcome(complete[i]).value, 0}))
            << i;
    });
}

TEST(StoreValues, MtcRunsOnBudgetsWriteTheSameFiles) {
    const auto run = [](const std::filesystem::path& dir, PairSolving how, int dtw_pieces) {
        GenerateOptions o = test::generate_options(solved_english, 4, dir);
        o.metric = Metric::mtc;
        o.dtw_pieces = dtw_pieces;
        o.pair_solving = how;
        return test::generate_quietly(o);
    };
    for (const int dtw_pieces : {3}) {  // 2-3 pieces dtw: both kinds, the store converting
        const std::string tag = std::to_string(dtw_pieces);
        test::ScratchDir whole("mtc-whole-" + tag), units("mtc-units-" + tag),
            through("mtc-through-" + tag);
        run(whole.path, PairSolving::automatic, dtw_pieces);
        const GenerateSummary s = run(units.path, PairSolving::units, dtw_pieces);
        EXPECT_GT(s.classes_from_solved_files, 0u);
        run(through.path, PairSolving::units_read_through, dtw_pieces);
        EXPECT_FALSE(std::filesystem::exists(units_dir(units.path, solved_english)));
        EXPECT_TRUE(test::tree_bytes(whole.path) == test::tree_bytes(units.path)) << tag;
        EXPECT_TRUE(test::tree_bytes(whole.path) == test::tree_bytes(through.path)) << tag;
    }
}

}  // namespace
}  // namespace damas
