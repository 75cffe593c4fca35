// A handle recovers when its folder's files change under it (issue 23): a table missing or
// damaged when first probed is tried again after the retry delay; an open table whose file is
// rewritten in place is opened again; damas_refresh picks up a table replaced by a rename (new
// values); threads probing while files are removed, damaged and restored, or while the handle
// is refreshed, get every answer right once the files are good again. Run under TSan by .ci/tsan.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <fstream>
#include <random>
#include <thread>
#include <vector>

#include "gen/write/writer.hpp"
#include "probe/damas_probe.h"
#include "probe/probe.hpp"
#include "table/table_file.hpp"
#include "test_probe_fixtures.hpp"

namespace damas {
namespace {

using namespace std::chrono_literals;
using test::ScratchDir;

const Variant english{BaseVariant::english, false};
constexpr int english_number = DAMAS_ENGLISH;

struct Sample {
    Position position;
    ProbeResult wdl, dtw;
};

// Rewrites the file in place (same inode, O_TRUNC) with these bytes.
void write_in_place(const std::filesystem::path& path, const std::string& bytes) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

// Puts a file's bytes back at the end of a test, whatever it did to the file.
struct Restore {
    std::filesystem::path path;
    std::string bytes;
    explicit Restore(std::filesystem::path p) : path(std::move(p)), bytes(test::slurp(path)) {}
    ~Restore() { write_in_place(path, bytes); }
};

damas_result c_probe(const damas_tablebase* tb, const Position& p, bool dtw) {
    const SquareMasks m = masks_from_position(english, p);
    const int side = p.side == Color::white ? DAMAS_WHITE : DAMAS_BLACK;
    return dtw ? damas_probe_dtw(tb, english_number, m.white, m.black, m.kings, side)
               : damas_probe_wdl(tb, english_number, m.white, m.black, m.kings, side);
}

bool same(const damas_result& c, const ProbeResult& r) {
    return c.status == DAMAS_OK && r.ok() && c.value == static_cast<int>(r.value) &&
           c.plies == r.plies;
}

// The wdl table at path with wins and losses swapped, written to `to`: a valid table of the same
// class with other values.
void write_swapped_wdl(const std::filesystem::path& path, const std::filesystem::path& to) {
    std::vector<std::uint8_t> values;
    {
        const TableFile file(path);
        values.resize(file.size());
        file.read_all(values);
    }
    for (std::uint8_t& x : values)
        if (x == wdl_win || x == wdl_loss) x = x == wdl_win ? wdl_loss : wdl_win;
    write_wdl_table(to, TableInfo{english, {0, 2, 0, 1}, "test"}, values);
}

int swapped(Value v) {
    return v == Value::draw ? DAMAS_DRAW : v == Value::win ? DAMAS_LOSS : DAMAS_WIN;
}

class ProbeRecover : public testing::Test {
  protected:
    static void SetUpTestSuite() {
        dir_ = new ScratchDir("recover");
        // Every wdl file holds its values (no mirror layout): a class's wdl probe reads it alone.
        GenerateOptions o = test::generate_options(english, 3, dir_->path, 1);
        o.mirror_wdl = false;
        test::generate_quietly(o);
        const auto tb = Tablebase::open(dir_->path, 8);
        std::mt19937_64 rng(11);
        samples_ = new std::vector<Sample>;
        for (const Material m : classes_up_to(3)) {
            if (m.white() == 0 || m.black() == 0) continue;
            const ClassIndex index(english.info().board, m);
            for (int k = 0; k < 40; ++k) {
                Position p = index.unindex(rng() % index.size());
                if (k % 2) p = flip(english.info().board, p);
                const Sample s{p, tb->probe_wdl(english, p), tb->probe_dtw(english, p)};
                if (s.wdl.ok() && s.dtw.ok()) samples_->push_back(s);
            }
        }
    }
    static void TearDownTestSuite() {
        delete samples_;
        delete dir_;
    }
    static std::filesystem::path path_of(const char* name, Metric metric) {
        return table_path(dir_->path, english, name, metric);
    }
    // Quiet White-to-move positions of a class, with their values.
    static std::vector<Sample> quiet_of(Material m) {
        std::vector<Sample> out;
        for (const Sample& s : *samples_)
            if (Material::of(s.position) == m && s.position.side == Color::white &&
                !MoveGenerator<English>::has_capture(s.position))
                out.push_back(s);
        return out;
    }
    void SetUp() override {
        char error[200];
        tb = damas_open(dir_->path.c_str(), 0, 0, error, sizeof error);  // no cache: reads
        ASSERT_NE(tb, nullptr) << error;
        ASSERT_EQ(damas_set_retry_delay(tb, 100), DAMAS_OK);
    }
    void TearDown() override { damas_close(tb); }

    static ScratchDir* dir_;
    static std::vector<Sample>* samples_;
    damas_tablebase* tb = nullptr;
};
ScratchDir* ProbeRecover::dir_ = nullptr;
std::vector<Sample>* ProbeRecover::samples_ = nullptr;

TEST_F(ProbeRecover, MissingTableIsTriedAgainAfterTheDelay) {
    const Material m{0, 2, 0, 1};
    const std::vector<Sample> quiet = quiet_of(m);
    ASSERT_FALSE(quiet.empty());
    const auto path = path_of("0201", Metric::wdl);
    const auto away = path.string() + ".away";
    std::filesystem::rename(path, away);
    EXPECT_EQ(c_probe(tb, quiet[0].position, false).status, DAMAS_NOT_IN_DATABASE);
    std::filesystem::rename(away, path);
    std::this_thread::sleep_for(150ms);  // the delay is 100 ms
    for (const Sample& s : quiet) EXPECT_TRUE(same(c_probe(tb, s.position, false), s.wdl));
}

TEST_F(ProbeRecover, DamagedTableIsTriedAgainAfterTheDelay) {
    const std::vector<Sample> quiet = quiet_of({0, 2, 0, 1});
    const auto path = path_of("0201", Metric::dtw);
    const Restore restore(path);
    const std::string& good = restore.bytes;
    write_in_place(path, good.substr(0, good.size() / 2));
    EXPECT_EQ(c_probe(tb, quiet[0].position, true).status, DAMAS_ERROR_CORRUPT);
    write_in_place(path, good);
    std::this_thread::sleep_for(150ms);
    for (const Sample& s : quiet) EXPECT_TRUE(same(c_probe(tb, s.position, true), s.dtw));
}

TEST_F(ProbeRecover, OpenTableRewrittenInPlaceIsOpenedAgain) {
    const std::vector<Sample> quiet = quiet_of({0, 2, 0, 1});
    const auto path = path_of("0201", Metric::wdl);
    const Restore restore(path);
    write_swapped_wdl(path, path.string() + ".new");
    const std::string other = test::slurp(path.string() + ".new");
    std::filesystem::remove(path.string() + ".new");
    for (const Sample& s : quiet) ASSERT_TRUE(same(c_probe(tb, s.position, false), s.wdl));
    // Rewritten in place with other values: the open table's blocks no longer match its offset
    // table; the first read error looks at the path and lets the table go.
    write_in_place(path, other);
    for (const Sample& s : quiet) c_probe(tb, s.position, false);
    int changed = 0;
    for (const Sample& s : quiet) {
        const damas_result r = c_probe(tb, s.position, false);
        ASSERT_EQ(r.status, DAMAS_OK);
        EXPECT_EQ(r.value, swapped(s.wdl.value));
        changed += r.value != static_cast<int>(s.wdl.value);
    }
    EXPECT_GT(changed, 0);
}

TEST_F(ProbeRecover, RefreshReadsATableReplacedByRename) {
    const std::vector<Sample> quiet = quiet_of({0, 2, 0, 1});
    const auto path = path_of("0201", Metric::wdl);
    for (const Sample& s : quiet) ASSERT_TRUE(same(c_probe(tb, s.position, false), s.wdl));
    const Restore restore(path);
    write_swapped_wdl(path, path.string() + ".new");
    std::filesystem::rename(path.string() + ".new", path);

    // The open descriptor still reads the file opened: the old values, not an error.
    for (const Sample& s : quiet) EXPECT_TRUE(same(c_probe(tb, s.position, false), s.wdl));
    ASSERT_EQ(damas_refresh(tb), DAMAS_OK);
    int changed = 0;
    for (const Sample& s : quiet) {
        const damas_result r = c_probe(tb, s.position, false);
        ASSERT_EQ(r.status, DAMAS_OK);
        EXPECT_EQ(r.value, swapped(s.wdl.value));
        changed += r.value != static_cast<int>(s.wdl.value);
    }
    EXPECT_GT(changed, 0);
    EXPECT_EQ(damas_refresh(nullptr), DAMAS_INVALID_ARGUMENT);
    EXPECT_EQ(damas_set_retry_delay(tb, -1), DAMAS_INVALID_ARGUMENT);
}

// Threads probe one handle while files are removed, truncated and rewritten in place, and the
// handle is refreshed; every probe that starts once the files have been good for three retry
// delays gets the right answer.
TEST_F(ProbeRecover, ThreadsRecoverOnceFilesAreGoodAgain) {
    damas_tablebase* cached = damas_open(dir_->path.c_str(), 1, 0, nullptr, 0);
    ASSERT_NE(cached, nullptr);
    ASSERT_EQ(damas_set_retry_delay(cached, 100), DAMAS_OK);
    const std::vector<std::filesystem::path> victims = {
        path_of("0201", Metric::wdl), path_of("0201", Metric::dtw), path_of("1101", Metric::wdl),
        path_of("1101", Metric::dtw), path_of("0102", Metric::wdl)};
    std::vector<std::string> good;
    for (const auto& p : victims) good.push_back(test::slurp(p));

    // Missing when the threads start: their first probes of these tables fail.
    for (const auto& p : victims) std::filesystem::remove(p);
    using Clock = std::chrono::steady_clock;
    std::atomic<bool> stop{false};
    std::atomic<Clock::rep> settled{Clock::time_point::max().time_since_epoch().count()};
    constexpr int threads = 4;
    std::vector<int> checked(threads, 0), wrong(threads, 0);
    std::vector<std::thread> pool;
    for (int t = 0; t < threads; ++t)
        pool.emplace_back([&, t] {
            std::size_t k = static_cast<std::size_t>(t) * 17;
            while (!stop.load()) {
                const Sample& s = (*samples_)[k++ % samples_->size()];
                const damas_tablebase* handle = k % 3 == 0 ? cached : tb;
                const bool dtw = k % 2 == 0;
                const Clock::rep started = Clock::now().time_since_epoch().count();
                const damas_result r = c_probe(handle, s.position, dtw);
                if (started < settled.load()) continue;
                ++checked[t];
                wrong[t] += !same(r, dtw ? s.dtw : s.wdl);
            }
        });
    for (int round = 0; round < 3; ++round)
        for (std::size_t i = 0; i < victims.size(); ++i) {
            if (round > 0) std::filesystem::remove(victims[i]);
            std::this_thread::sleep_for(20ms);
            write_in_place(victims[i], good[i].substr(0, good[i].size() / 3));
            std::this_thread::sleep_for(20ms);
            write_in_place(victims[i], good[i]);
            std::this_thread::sleep_for(20ms);
            write_in_place(victims[i], good[i].substr(0, good[i].size() / 2));
            std::this_thread::sleep_for(20ms);
            write_in_place(victims[i], good[i]);
            if (round == 1) damas_refresh(cached);
        }
    settled.store((Clock::now() + 300ms).time_since_epoch().count());
    while (Clock::now().time_since_epoch().count() < settled.load() + 1'000'000'000)
        std::this_thread::sleep_for(50ms);
    stop.store(true);
    for (auto& th : pool) th.join();
    damas_close(cached);
    for (int t = 0; t < threads; ++t) {
        EXPECT_GT(checked[t], 0) << "thread " << t;
        EXPECT_EQ(wrong[t], 0) << "thread " << t << " of " << checked[t];
    }
}

// Refreshes while threads probe: no probe fails or reads a freed table (TSan, ASan), the
// tables are opened again each time.
TEST_F(ProbeRecover, RefreshWhileThreadsProbe) {
    std::atomic<bool> stop{false};
    constexpr int threads = 4;
    std::vector<int> wrong(threads, 0);
    std::vector<std::thread> pool;
    for (int t = 0; t < threads; ++t)
        pool.emplace_back([&, t] {
            std::size_t k = static_cast<std::size_t>(t) * 29;
            while (!stop.load()) {
                const Sample& s = (*samples_)[k++ % samples_->size()];
                const bool dtw = k % 2 == 0;
                wrong[t] += !same(c_probe(tb, s.position, dtw), dtw ? s.dtw : s.wdl);
            }
        });
    for (int i = 0; i < 40; ++i) {
        std::this_thread::sleep_for(5ms);
        ASSERT_EQ(damas_refresh(tb), DAMAS_OK);
    }
    stop.store(true);
    for (auto& th : pool) th.join();
    for (int t = 0; t < threads; ++t) EXPECT_EQ(wrong[t], 0) << "thread " << t;
    EXPECT_EQ(damas_largest(tb, english_number), 3);
}

}  // namespace
}  // namespace damas
