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
#include <gtest/gtest.h>

#include <fstream>
#include <numeric>

#include "gen/store/solved_store.hpp"
#include "gen/units/solved_class_file.hpp"
#include "gen/units/unit_file.hpp"
#include "units_compare.hpp"

namespace damas {
namespace {

const Variant english = parse_variant("english").value();
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
    o.variant = english;
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
    write_solved_class(whole, english, m, values, chunk);
    {
        SolvedClassWriter w(streamed, english, m, values.size(), chunk);
        for (std::size_t at = 0; at < values.size(); at += 777)
            w.append(std::span(values).subspan(at, std::min<std::size_t>(777, values.size() - at)));
        w.close();
    }
    for (const auto& p : {whole, streamed}) {
        const auto read = read_solved_class(p, english, m, values.size());
        ASSERT_TRUE(read.has_value()) << p;
        EXPECT_TRUE(*read == values) << p;
    }
    EXPECT_FALSE(read_solved_class(dir.path / "none.solved", english, m, values.size()));
    EXPECT_FALSE(read_solved_class(whole, english, m.mirrored(), values.size()));
    EXPECT_FALSE(read_solved_class(whole, english, m, values.size() + 1));
    EXPECT_FALSE(read_solved_class(whole, parse_variant("russian").value(), m, values.size()));
    // A unit reader does not take it for a unit.
    EXPECT_FALSE(read_unit(whole, english, PairLayout(english.info().board, m), 0));
    flip_byte(streamed, 200);  // in the first chunk
    EXPECT_FALSE(read_solved_class(streamed, english, m, values.size()));
    std::filesystem::resize_file(whole, std::filesystem::file_size(whole) - 1);
    EXPECT_FALSE(read_solved_class(whole, english, m, values.size()));
    // Closed short, or destroyed unfinished: no file, nor its temporary one.
    {
        SolvedClassWriter w(dir.path / "short.solved", english, m, values.size(), chunk);
        w.append(std::span(values).first(10));
        EXPECT_THROW(w.close(), Error);
    }
    EXPECT_FALSE(std::filesystem::exists(dir.path / "short.solved"));
    EXPECT_FALSE(std::filesystem::exists(dir.path / "short.solved.tmp"));
}

TEST(SolvedClassFiles, StoreLoadsThemAndFallsBackToTheTables) {
    test::ScratchDir dir("solved-store");
    test::generate_quietly(english, 4, dir.path);
    const Material m = Material::parse("1110").value();
    const Material above = one_move_above(m);
    ASSERT_NE(above, m);
    // The class completed from its tables: what its solved file holds.
    SolvedStore tables(english, dir.path);
    tables.load_below(above);
    std::vector<std::uint16_t> complete(ClassIndex(english.info().board, m).size());
    const ClassIndex index(english.info().board, m);
    index.for_each_position(0, index.size(), [&](std::uint64_t i, const Position& p) {
        complete[i] = pack_outcome(tables.lookup<English>(p));
    });

    const std::filesystem::path path = solved_class_path(dir.path, english, m);
    std::filesystem::create_directories(path.parent_path());
    write_solved_class(path, english, m, complete, run_chunk);
    SolvedStore store(english, dir.path);
    store.use_solved_files([](Material) { return false; }, run_chunk);
    store.add_from_files(m);
    EXPECT_EQ(store.classes_from_solved_files(), 1u);
    index.for_each_position(0, index.size(), [&](std::uint64_t i, const Position& p) {
        ASSERT_EQ(pack_outcome(store.lookup<English>(p)), complete[i]) << i;
    });

    flip_byte(path, 150);
    SolvedStore damaged(english, dir.path);
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
    test::generate_quietly(english, 4, dir.path);
    const Material m = Material::parse("1110").value();
    const Material above = one_move_above(m);
    ASSERT_NE(above, m);
    const std::filesystem::path path = solved_class_path(dir.path, english, m);
    std::filesystem::create_directories(path.parent_path());

    SolvedStore store(english, dir.path);
    store.use_solved_files([&](Material c) { return c == m; }, run_chunk);
    store.load_below(above);  // loads m from its tables and resolves its captures
    ASSERT_TRUE(std::filesystem::exists(path));
    for (const Material c : store_needs(above).complete) {
        if (c == m) continue;
        EXPECT_FALSE(std::filesystem::exists(solved_class_path(dir.path, english, c))) << c.name();
    }

    SolvedStore again(english, dir.path);  // the rerun: reads it, searches nothing
    again.use_solved_files([](Material) { return false; }, run_chunk);
    again.add_from_files(m);
    EXPECT_EQ(again.classes_from_solved_files(), 1u);
    const ClassIndex index(english.info().board, m);
    index.for_each_position(0, index.size(), [&](std::uint64_t i, const Position& p) {
        ASSERT_EQ(pack_outcome(again.lookup<English>(p)), pack_outcome(store.lookup<English>(p)))
            << i;
    });

    // A class added complete (a pair's results) is written at once too.
    std::filesystem::remove(path);
    SolvedStore solver(english, dir.path);
    solver.use_solved_files([&](Material c) { return c == m; }, run_chunk);
    solver.add(m, some_outcomes(index.size()), true);
    EXPECT_EQ(read_solved_class(path, english, m, index.size()), some_outcomes(index.size()));
}

TEST(SolvedClassFiles, BoundedRunReadsThemAndWritesTheSameFiles) {
    test::ScratchDir whole("solved-whole"), bounded("solved-bounded");
    test::generate_quietly(english, 4, whole.path);
    GenerateOptions o;
    o.variant = english;
    o.max_pieces = 4;
    o.dir = bounded.path;
    o.threads = 2;
    o.pair_solving = PairSolving::units;  // classes loaded again between pairs
    Progress progress(Progress::Mode::quiet);
    const GenerateSummary s = generate(o, progress);
    EXPECT_GT(s.classes_from_solved_files, 0u);
    EXPECT_LE(s.classes_from_solved_files, s.classes_loaded);
    EXPECT_FALSE(std::filesystem::exists(units_dir(bounded.path, english)));
    EXPECT_TRUE(test::tree_bytes(whole.path) == test::tree_bytes(bounded.path));
}

}  // namespace
}  // namespace damas
