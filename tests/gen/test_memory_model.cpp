// The memory model (gen/plan/plan.hpp) against what a run takes: the planned peak of a pair is an
// upper bound of its measured peak, whichever way the pair is solved.
//  - a unit file of a slice held whole is written from the values where they are: a kings-only
//    slice is a chunk of one men configuration a class, and copies of a chunk's values while it
//    was compressed (9 bytes a position of each chunk in flight) put english 0109 + 0901 (10
//    pieces, 1.29 G positions in one slice) 5.3 GiB over its plan; it reads back to the same
//    values, a chunk taking its values alone;
//  - small runs, every way of solving their pairs (held whole, in units, reading the smaller
//    classes through the cache, a byte a position), mtc and dtw: each pair's peak resident memory
//    (the run's line for the pair: VmHWM from the pair's start) is at most its planned peak. The
//    slow set adds english 0106 + 0601 in units (47 M positions in one slice of two
//    configurations), whose measured peak was 40% over its plan before.
#include <gtest/gtest.h>

#include <fstream>
#include <regex>
#include <string>
#include <vector>

#include "gen/process/resources.hpp"
#include "gen/units/unit_file.hpp"
#include "tests/support/cli.hpp"
#include "tests/support/scratch.hpp"

namespace damas {
namespace {

const Variant english = parse_variant("english").value();

std::uint64_t resident_bytes() {
    std::ifstream status("/proc/self/status");
    std::string key;
    std::uint64_t kib = 0;
    while (status >> key)
        if (key == "VmRSS:") {
            status >> kib;
            break;
        }
    return kib * 1024;
}

constexpr std::uint64_t mib = std::uint64_t{1} << 20;

// english 0105 + 0501: one slice of 10.9 M positions, a men configuration (5.4 M king placements)
// a class, so its unit is two chunks of 5.4 M positions.
TEST(MemoryModel, AHeldSliceIsWrittenAndReadWithoutCopies) {
    prepare_generation_process();
    const Material m = Material::parse("0105").value();
    const PairLayout layout(english.info().board, m);
    ASSERT_EQ(layout.slice_count(), 1);
    const std::uint64_t n = layout.slice_positions(0);
    ASSERT_GT(n, 10'000'000u);
    SliceValues values;
    values.slice = 0;
    values.outcomes.resize(n);
    values.capture.resize(n);
    for (std::uint64_t i = 0; i < n; ++i) {  // some noise, as values have
        const std::uint64_t h = (i * 0x9E3779B97F4A7C15ull) >> 52;
        values.outcomes[i] = static_cast<std::uint16_t>(h & 0x3ff);
        values.capture[i] = static_cast<std::uint8_t>(h >> 11);
    }
    test::ScratchDir dir("memory-model");
    const std::filesystem::path unit = dir.path / "0105.0.unit";
    reset_peak_resident();
    const std::uint64_t before = resident_bytes();
    write_unit(unit, english, layout, values);
    const std::uint64_t written = peak_resident_bytes();
    // Its frames are written as zstd makes them: what it takes beside the values is zstd's
    // contexts and buffers, a few MiB, where copies took 9 bytes a position (93 MiB).
    EXPECT_LE(written, before + 8 * mib) << "writing took " << (written - before) / mib << " MiB";

    const UnitReader reader(unit, english, layout, 0);
    ASSERT_EQ(reader.chunks(), 2u);
    std::vector<std::uint16_t> outcomes;
    std::vector<std::uint8_t> capture;
    reset_peak_resident();
    const std::uint64_t before_reading = resident_bytes();
    for (std::size_t k = 0; k < reader.chunks(); ++k) {
        reader.read(k, outcomes, capture);
        const UnitReader::Chunk& c = reader.chunk(k);
        ASSERT_EQ(outcomes.size(), c.positions);
        EXPECT_TRUE(std::equal(outcomes.begin(), outcomes.end(),
                               values.outcomes.begin() + static_cast<std::ptrdiff_t>(c.first)));
        EXPECT_TRUE(std::equal(capture.begin(), capture.end(),
                               values.capture.begin() + static_cast<std::ptrdiff_t>(c.first)));
    }
    // A chunk's values (3 bytes a position, 16 MiB) and a block of its frame at a time.
    const std::uint64_t chunk_values = 3 * reader.chunk(0).positions;
    EXPECT_LE(peak_resident_bytes(), before_reading + chunk_values + 8 * mib)
        << "reading took " << (peak_resident_bytes() - before_reading) / mib << " MiB";

    // A damaged frame reads as damaged.
    {
        std::fstream f(unit, std::ios::in | std::ios::out | std::ios::binary);
        f.seekp(static_cast<std::streamoff>(reader.chunk(1).offset + reader.chunk(1).bytes / 2));
        const char x = 0x55;
        f.write(&x, 1);
    }
    const UnitReader damaged(unit, english, layout, 0);
    EXPECT_THROW(damaged.read(1, outcomes, capture), DamagedUnit);
}

struct PairPeak {
    std::string pair;
    double peak = 0, planned = 0;  // MiB
};

// The pairs' lines of a run: "<pair>: ... peak <n> MiB, planned <m>)".
std::vector<PairPeak> pair_peaks(const std::string& output) {
    static const std::regex line(
        R"(([0-9+]+): [0-9]+ positions[^\n]*peak ([0-9]+) MiB, planned ([0-9]+)\))");
    std::vector<PairPeak> peaks;
    for (auto it = std::sregex_iterator(output.begin(), output.end(), line);
         it != std::sregex_iterator(); ++it)
        peaks.push_back({(*it)[1], std::stod((*it)[2]), std::stod((*it)[3])});
    return peaks;
}

void expect_within_plan(const std::string& args) {
    test::ScratchDir dir("memory-model-run");
    const test::CliRun run = test::run_shell(
        test::damas_command("gen " + args + " -t 2 --no-sync -d " + dir.path.string()) + " 2>&1");
    ASSERT_EQ(run.exit_code, 0) << args << "\n" << run.out;
    const std::vector<PairPeak> peaks = pair_peaks(run.out);
    ASSERT_FALSE(peaks.empty()) << args << "\n" << run.out;
    for (const PairPeak& p : peaks)
        EXPECT_LE(p.peak, p.planned)
            << args << ": " << p.pair << " peaked at " << p.peak << " MiB, planned " << p.planned;
}

// english 2-3 every way, mtc and dtw; 2-4 whole and in units, and international 2-3 in units
// (about 10 s on a loaded 2-core host; every way of english 2-4 in the slow set).
TEST(MemoryModel, EveryWayOfSolvingStaysWithinItsPlan) {
    for (const std::string way : {"", "--in-units", "--read-through", "--compact"})
        for (const std::string metric : {"mtc", "dtw"})
            expect_within_plan("-v english -p 3 --metric " + metric + " " + way);
    for (const std::string way : {"", "--in-units"})
        expect_within_plan("-v english -p 4 --metric mtc " + way);
    expect_within_plan("-v international -p 3 --metric mtc --in-units");
}

#ifdef DAMAS_TEST_SLOW
TEST(MemoryModel, LargeConfigurationsInUnitsStayWithinTheirPlan) {
    expect_within_plan("-v english -p 7 -c 0601 --metric mtc --in-units");
    expect_within_plan("-v english -p 6 -c 0501 --metric dtw --compact");
    expect_within_plan("-v english -p 5 --metric mtc --in-units");
    for (const std::string way : {"--read-through", "--compact"})
        for (const std::string metric : {"mtc", "dtw"})
            expect_within_plan("-v english -p 4 --metric " + metric + " " + way);
}
#endif

}  // namespace
}  // namespace damas
