// Deep verify (gen/verify/verify.hpp) on generated sets, and its power to detect a wrong value.
//  - passes on english and brazilian up to 4 pieces, turkish, italian and english-giveaway up
//    to 3, international up to 3 (turkish up to 4 is in test_gen_verify_slow: 84 M positions);
//  - after one class's WDL file is rewritten with one value changed (a valid file, checksums
//    and all, so only the deep check can see it), deep verify reports that very position; the
//    same for one DTW value changed by two plies (same parity, so the WDL it implies is
//    unchanged) and for a draw turned into a win;
//  - the counts of a mirror-layout wdl file (its only content) are checked;
//  - MTC files (gen --metric mtc, alone and mixed with DTW classes) pass on english 2-4, and one
//    MTC changed by two plies (its result bit kept) is found;
//  - with classes named, only those are recomputed (a wrong value elsewhere goes unseen, one in
//    a named class is found), and a named class without files is a problem.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "gen/store/solved_store.hpp"
#include "gen/verify/verify.hpp"
#include "gen/write/writer.hpp"
#include "gen_fixtures.hpp"
#include "index/material.hpp"
#include "rules/error.hpp"
#include "rules/movegen.hpp"
#include "table/outcome.hpp"
#include "table/table_file.hpp"

namespace damas {
namespace {

using test::ScratchDir;

void expect_deep_verify_passes(const std::string& variant, int pieces,
                               WdlCodec codec = automatic_wdl_codec) {
    const Variant v = *parse_variant(variant);
    // The default codec: the suite's shared database (tests/support/generate.hpp), read only.
    ScratchDir scratch(variant + "-verify-" + std::to_string(pieces));
    std::filesystem::path dir = scratch.path;
    if (codec == automatic_wdl_codec)
        dir = test::shared_database(v, pieces);
    else
        test::generate_quietly(v, pieces, dir, 2, codec);
    std::uint64_t positions = 0;
    for (const Material m : classes_up_to(pieces))
        positions += ClassIndex(v.info().board, m).size();
    const VerifyReport r = verify_database(dir, true);
    EXPECT_TRUE(r.ok()) << variant << ": " << (r.problems.empty() ? "" : r.problems.front());
    EXPECT_EQ(r.files, 2 * static_cast<int>(classes_up_to(pieces).size()));
    EXPECT_EQ(r.files_bad, 0);
    EXPECT_EQ(r.inconsistencies, 0u);
    // Every class was deep-checked: the positions checked are the stored (non-capture) ones,
    // more than half of all positions in these sets.
    EXPECT_GT(r.positions_checked, positions / 2) << variant;
    EXPECT_LE(r.positions_checked, positions) << variant;
}

TEST(DeepVerify, English4) {
    expect_deep_verify_passes("english", 4);
}
// The context codec everywhere, so the half layout for 1111, 2020 and 0202.
TEST(DeepVerify, English4ContextCodec) {
    expect_deep_verify_passes("english", 4, Codec::context);
}
// MTC files (gen --metric mtc): each MTC recomputed from the successors, a conversion counting 1;
// and a folder mixing DTW classes (2-3 pieces) and MTC classes (4).
TEST(DeepVerify, English4Mtc) {
    for (const int dtw_pieces : {0, 3}) {
        const Variant v = *parse_variant("english");
        ScratchDir dir("english-verify-mtc-" + std::to_string(dtw_pieces));
        GenerateOptions o = test::generate_options(v, 4, dir.path);
        o.metric = Metric::mtc;
        o.dtw_pieces = dtw_pieces;
        const GenerateSummary s = test::generate_quietly(o);
        const VerifyReport r = verify_database(dir.path, true);
        EXPECT_TRUE(r.ok()) << (r.problems.empty() ? "" : r.problems.front());
        EXPECT_EQ(r.inconsistencies, 0u);
        EXPECT_GT(r.positions_checked, s.positions / 2);
    }
}
TEST(DeepVerify, Brazilian4) {
    expect_deep_verify_passes("brazilian", 4);
}
TEST(DeepVerify, Turkish3) {
    expect_deep_verify_passes("turkish", 3);
}
TEST(DeepVerify, Italian3) {
    expect_deep_verify_passes("italian", 3);
}
TEST(DeepVerify, EnglishGiveaway3) {
    expect_deep_verify_passes("english-giveaway", 3);
}
TEST(DeepVerify, International3) {
    expect_deep_verify_passes("international", 3);
}

// The generator's loader of smaller classes checks each file's header against the class it loads
// (a class's mirror has the same size, so the sizes alone cannot tell a swapped pair).
TEST(Loader, RefusesAFileUnderAnotherClassName) {
    const Variant v = *parse_variant("english");
    ScratchDir dir("loader-swap");
    test::generate_quietly(v, 3, dir.path);
    const std::filesystem::path folder = dir.path / "english";
    for (const char* ext : {".wdl", ".dtw"}) {
        const std::string e = ext;
        std::filesystem::rename(folder / ("0201" + e), folder / ("swap" + e));
        std::filesystem::rename(folder / ("0102" + e), folder / ("0201" + e));
        std::filesystem::rename(folder / ("swap" + e), folder / ("0102" + e));
    }
    SolvedStore store(v, dir.path);
    try {
        store.add_from_files(*Material::parse("0201"));
        ADD_FAILURE() << "loaded the files of 0102 as 0201";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("the header does not match the file's name"),
                  std::string::npos)
            << e.what();
    }
}

// A mirror-layout class worked out from its mirror's folded distances where its own are not
// read (as verify --deep loads the classes below the pair it checks) has its values right, and
// its distances once the mirror is resolved: those of a store that reads every class's.
TEST(Loader, WorksOutAMirrorFromFoldedDistancesAgainOnceResolved) {
    const Variant v = *parse_variant("english");
    ScratchDir dir("loader-folded-mirror");
    GenerateOptions o = test::generate_options(v, 4, dir.path);
    o.metric = Metric::mtc;
    o.mtc_fold = 4;
    test::generate_quietly(o);
    const Material m = *Material::parse("0103");  // its mirror 0301 holds the values
    ASSERT_FALSE(TableFile(table_path(dir.path, v, m.name(), Metric::mtc)).holds_values());
    const auto mtc_store = [&](SolvedStore& s) {
        s.set_distance_metric([](Material) { return Metric::mtc; });
    };
    SolvedStore every(v, dir.path), values_only(v, dir.path);
    mtc_store(every);
    mtc_store(values_only);
    values_only.read_distances_of([](Material) { return false; });
    every.add_from_files(m);
    values_only.add_from_files(m);
    const ClassIndex index(v.info().board, m);
    std::uint64_t other_distances = 0;
    for (std::uint64_t i = 0; i < index.size(); ++i) {
        const Position p = index.unindex(i);
        if (MoveGenerator<English>::has_capture(p)) continue;
        const Outcome want = every.stored(p), got = values_only.stored(p);
        ASSERT_EQ(got.value, want.value) << i;
        other_distances += got.plies != want.plies;
    }
    EXPECT_GT(other_distances, 0u);  // some distances were worked out from folded ones
    values_only.resolve_folded(m.mirrored());
    for (std::uint64_t i = 0; i < index.size(); ++i) {
        const Position p = index.unindex(i);
        if (MoveGenerator<English>::has_capture(p)) continue;
        ASSERT_EQ(values_only.stored(p), every.stored(p)) << i;
    }
}

// A generated english 3-piece set, and one class's values with the capture positions marked
// unknown again (as the generator hands them to the writer).
struct Tampering {
    Variant v = *parse_variant("english");
    Material m = *Material::parse("0201");
    ScratchDir dir{"verify-tamper"};
    ClassIndex index{v.info().board, m};
    std::vector<std::uint8_t> wdl;
    std::vector<std::uint16_t> dtw;

    Tampering() {
        test::generate_quietly(v, 3, dir.path);
        test::ClassTables t = test::read_class(dir.path, v, m);
        wdl = std::move(t.wdl);
        dtw = std::move(t.dtw);
        for (std::uint64_t i = 0; i < index.size(); ++i)
            if (MoveGenerator<English>::has_capture(index.unindex(i))) {
                wdl[i] = wdl_unknown;
                dtw[i] = dtw_unknown;
            }
    }
    // The first stored position with this wdl value and a distance of at least min_plies.
    std::uint64_t first(std::uint8_t value, std::uint16_t min_plies = 0) const {
        for (std::uint64_t i = 0; i < wdl.size(); ++i)
            if (wdl[i] == value && (value == wdl_draw || dtw[i] >= min_plies)) return i;
        ADD_FAILURE() << "no such position";
        return 0;
    }
    TableInfo info() const {
        return {v,
                {static_cast<std::uint8_t>(m.white_men), static_cast<std::uint8_t>(m.white_kings),
                 static_cast<std::uint8_t>(m.black_men), static_cast<std::uint8_t>(m.black_kings)},
                generator_version()};
    }
    void write() const {
        write_wdl_table(table_path(dir.path, v, m.name(), Metric::wdl), info(), wdl);
        write_dtw_table(table_path(dir.path, v, m.name(), Metric::dtw), info(), dtw);
    }
    // Deep verify reports the position `i` of class m, and nothing is wrong with the files.
    void expect_detected(std::uint64_t i) const {
        const VerifyReport r = verify_database(dir.path, true);
        EXPECT_FALSE(r.ok());
        EXPECT_EQ(r.files_bad, 0);
        EXPECT_GE(r.inconsistencies, 1u);
        std::string needle = "english 0201 index ";
        needle += std::to_string(i);
        needle += ' ';
        const bool named = std::any_of(r.problems.begin(), r.problems.end(), [&](const auto& p) {
            return p.find(needle) != std::string::npos;
        });
        EXPECT_TRUE(named) << "no problem names " << needle;
    }
};

TEST(DeepVerify, UntouchedSetPasses) {
    Tampering t;
    t.write();  // rewritten unchanged: still consistent
    EXPECT_TRUE(verify_database(t.dir.path, true).ok());
}

TEST(DeepVerify, DetectsAWinTurnedIntoALoss) {
    Tampering t;
    const std::uint64_t i = t.first(wdl_win, 3);
    t.wdl[i] = wdl_loss;
    t.write();
    t.expect_detected(i);
}

TEST(DeepVerify, DetectsADrawTurnedIntoAWin) {
    Tampering t;
    const std::uint64_t i = t.first(wdl_draw);
    t.wdl[i] = wdl_win;
    t.dtw[i] = 5;
    t.write();
    t.expect_detected(i);
}

TEST(DeepVerify, NamedClassesOnly) {
    Tampering t;
    const std::uint64_t i = t.first(wdl_win, 3);
    t.wdl[i] = wdl_loss;
    t.write();
    VerifyOptions others;
    others.deep = true;
    const Material unrelated = *Material::parse("0110");  // never reaches 0201
    others.deep_classes = {unrelated};
    const VerifyReport elsewhere = verify_database(t.dir.path, others);
    // (The folder check sees the rewritten file differ from the manifest: not counted here.)
    EXPECT_EQ(elsewhere.inconsistencies, 0u);
    EXPECT_TRUE(elsewhere.problems.empty());
    // 0110's stored positions only.
    EXPECT_GT(elsewhere.positions_checked, 0u);
    EXPECT_LE(elsewhere.positions_checked, ClassIndex(t.v.info().board, unrelated).size());

    VerifyOptions named;
    named.deep = true;
    named.deep_classes = {t.m};
    const VerifyReport found = verify_database(t.dir.path, named);
    EXPECT_EQ(found.inconsistencies, 1u);
    ASSERT_FALSE(found.problems.empty());
    EXPECT_NE(found.problems.front().find("english 0201 index " + std::to_string(i) + " "),
              std::string::npos)
        << found.problems.front();

    VerifyOptions absent;
    absent.deep = true;
    absent.deep_classes = {*Material::parse("0301")};
    const VerifyReport missing = verify_database(t.dir.path, absent);
    EXPECT_EQ(missing.inconsistencies, 1u);
    EXPECT_EQ(missing.positions_checked, 0u);
    ASSERT_EQ(missing.problems.size(), 1u);
    EXPECT_EQ(missing.problems.front(),
              "0301: no intact wdl and dtw (or mtc) files to check deeply");
}

TEST(DeepVerify, DetectsAWrongDistance) {
    Tampering t;
    const std::uint64_t i = t.first(wdl_win, 3);
    t.dtw[i] = static_cast<std::uint16_t>(t.dtw[i] + 2);  // same parity, same result
    t.write();
    t.expect_detected(i);
}

// One MTC changed by two plies (the result bit kept) in a valid mtc file: found.
TEST(DeepVerify, DetectsAWrongMtc) {
    const Variant v = *parse_variant("english");
    ScratchDir dir("verify-mtc-wrong");
    GenerateOptions o = test::generate_options(v, 4, dir.path);
    o.metric = Metric::mtc;
    test::generate_quietly(o);
    const Material m = *Material::parse("0301");
    const std::filesystem::path path = table_path(dir.path, v, m.name(), Metric::mtc);
    std::vector<std::uint16_t> mtc(TableFile(path).size());
    TableFile(path).read_all(mtc);
    const ClassIndex index(v.info().board, m);
    std::uint64_t i = 0;
    while (i < mtc.size() && (mtc_outcome(mtc[i]) != wdl_win ||
                              MoveGenerator<English>::has_capture(index.unindex(i))))
        ++i;
    ASSERT_LT(i, mtc.size());
    mtc[i] = mtc_encode(true, mtc_distance(mtc[i]) + 2);
    const TableHeader h = TableFile(path).header();
    write_distance_table(path, {v, h.material, generator_version()}, Metric::mtc, mtc.size(),
                         [&](std::uint64_t first, std::span<std::uint16_t> out) {
                             std::copy_n(mtc.begin() + static_cast<std::ptrdiff_t>(first),
                                         out.size(), out.begin());
                         },
                         {.counts_from = &h});
    const VerifyReport r = verify_database(dir.path, true);
    EXPECT_EQ(r.files_bad, 0);
    // It, and positions of the mirror class whose MTC it gives.
    EXPECT_GE(r.inconsistencies, 1u);
    const std::string needle = "english 0301 index " + std::to_string(i) + " ";
    EXPECT_TRUE(std::any_of(r.problems.begin(), r.problems.end(),
                            [&](const auto& p) { return p.find(needle) != std::string::npos; }))
        << "no problem names " << needle;
}

// A half-layout file stores the values of its even positions: a wrong one is found like any
// other (the odd ones come from the dtw, which is checked too).
TEST(DeepVerify, DetectsAWrongValueInAHalfLayoutFile) {
    const Variant v = *parse_variant("english");
    ScratchDir dir("verify-half");
    test::generate_quietly(v, 4, dir.path, 2, Codec::context);
    const Material m = *Material::parse("1111");
    const std::filesystem::path path = table_path(dir.path, v, m.name(), Metric::wdl);
    ASSERT_TRUE(TableFile(path).half());
    std::vector<std::uint8_t> wdl(TableFile(path).size());
    TableFile(path).read_all(wdl);  // 3 where the file stores nothing
    const auto changed = std::find(wdl.begin(), wdl.end(), wdl_win);
    ASSERT_NE(changed, wdl.end());
    *changed = wdl_loss;
    const TableHeader h = TableFile(path).header();
    ASSERT_TRUE(write_wdl_table(path, {v, h.material, generator_version()}, wdl, Codec::context,
                                true, {.counts_from = &h}));
    const VerifyReport r = verify_database(dir.path, true);
    EXPECT_EQ(r.files_bad, 0);
    const std::string needle = "english 1111 index " + std::to_string(changed - wdl.begin()) + " ";
    EXPECT_TRUE(std::any_of(r.problems.begin(), r.problems.end(),
                            [&](const auto& p) { return p.find(needle) != std::string::npos; }))
        << "no problem names " << needle;
}

// A mirror-layout wdl file holds only its class's counts: deep verify checks them against the
// values (here a valid file whose counts move one draw to the wins).
TEST(DeepVerify, DetectsWrongCountsInAMirrorLayoutFile) {
    const Variant v = *parse_variant("english");
    ScratchDir dir("verify-mirror-counts");
    test::generate_quietly(v, 3, dir.path);
    const Material m = *Material::parse("0201");
    const Material mirrored =
        TableFile(table_path(dir.path, v, m.name(), Metric::wdl)).holds_values() ? m.mirrored() : m;
    const std::filesystem::path path = table_path(dir.path, v, mirrored.name(), Metric::wdl);
    TableHeader h = TableFile(path).header();
    ASSERT_EQ(h.layout, Layout::mirror);
    ASSERT_GT(h.draws, 0u);
    ++h.wins;
    --h.draws;
    write_wdl_mirror_table(path, {v, h.material, generator_version()}, h);
    const VerifyReport r = verify_database(dir.path, true);
    EXPECT_EQ(r.files_bad, 0);
    EXPECT_EQ(r.inconsistencies, 1u);
    ASSERT_FALSE(r.problems.empty());
    EXPECT_NE(r.problems.front().find("english " + mirrored.name() + ": the wdl header counts"),
              std::string::npos)
        << r.problems.front();
}

}  // namespace
}  // namespace damas
