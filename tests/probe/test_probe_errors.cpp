// The probing library on a damaged or incomplete database, on bad positions and with the cache
// alone: always a clear status, never a crash, never a wrong value. Also square masks, the piece
// cap, identify and verify.
#include <gtest/gtest.h>

#include <string>

#include "gen/verify/verify.hpp"
#include "probe/probe.hpp"
#include "rules/error.hpp"
#include "rules/notation.hpp"
#include "table/table_file.hpp"
#include "test_probe_fixtures.hpp"

namespace damas {
namespace {

using test::ScratchDir;

const Variant english{BaseVariant::english, false};

// One english 2..3 piece database for the whole suite; each test damages its own copy.
class ProbeErrors : public testing::Test {
  protected:
    static void SetUpTestSuite() {
        pristine_ = new ScratchDir("errors-pristine");
        test::generate_quietly(english, 3, pristine_->path);
    }
    static void TearDownTestSuite() {
        delete pristine_;
        pristine_ = nullptr;
    }

    void SetUp() override {
        std::filesystem::copy(pristine_->path, dir.path,
                              std::filesystem::copy_options::recursive |
                                  std::filesystem::copy_options::overwrite_existing);
    }

    std::filesystem::path table(const std::string& name, Metric m) const {
        return table_path(dir.path, english, name, m);
    }
    std::unique_ptr<Tablebase> open_copy(int max_pieces = 0) {
        return Tablebase::open(dir.path, 4, max_pieces,
                               [this](const std::string& line) { messages.push_back(line); });
    }
    static std::unique_ptr<Tablebase> open_pristine() {
        return Tablebase::open(pristine_->path, 4);
    }
    static std::unique_ptr<Tablebase> open_pristine_uncached() {
        return Tablebase::open(pristine_->path, 0);
    }

    static ScratchDir* pristine_;
    ScratchDir dir{"errors-" +
                   std::string(testing::UnitTest::GetInstance()->current_test_info()->name())};
    std::vector<std::string> messages;
};
ScratchDir* ProbeErrors::pristine_ = nullptr;

Position fen(const std::string& text) {
    return parse_fen(english, text);
}

// Every position of a class, White to move.
std::vector<Position> class_positions(const std::string& name) {
    const ClassIndex index(english.info().board, *Material::parse(name));
    std::vector<Position> out;
    for (std::uint64_t i = 0; i < index.size(); ++i) out.push_back(index.unindex(i));
    return out;
}

void flip_bit(const std::filesystem::path& path, std::size_t byte) {
    auto bytes = test::file_bytes(path);
    ASSERT_LT(byte, bytes.size());
    bytes[byte] = static_cast<char>(bytes[byte] ^ 0x10);
    test::write_bytes(path, bytes);
}

TEST_F(ProbeErrors, MissingClassIsNotInDatabase) {
    std::filesystem::remove(table("0201", Metric::wdl));
    const auto tb = open_copy();
    EXPECT_EQ(tb->probe_wdl(english, fen("W:WK18,K19:BK1")).status, ProbeStatus::not_in_database);
    // Black to move with one king against two is stored as 0201 after the colour flip.
    EXPECT_EQ(tb->probe_wdl(english, fen("B:WK1:BK18,K19")).status, ProbeStatus::not_in_database);
    EXPECT_EQ(tb->probe_dtw(english, fen("W:WK18,K19:BK1")).status, ProbeStatus::not_in_database);
    EXPECT_TRUE(tb->probe_wdl(english, fen("W:WK18:BK1")).ok());
    // The mirror class 0102 needs 0201's wdl file if its own has the mirror layout (format.hpp).
    const bool mirror_stored = TableFile(table("0102", Metric::wdl)).holds_values();
    EXPECT_EQ(tb->probe_wdl(english, fen("W:WK18:BK1,K2")).ok(), mirror_stored);
    EXPECT_TRUE(tb->probe_dtw(english, fen("W:WK18:BK1,K2")).ok());  // read from the dtw
}

TEST_F(ProbeErrors, CaptureIntoMissingClassIsNotInDatabase) {
    std::filesystem::remove(table("0101", Metric::wdl));
    const auto tb = open_copy();
    // White must capture 18x9, leaving one king against one (0101).
    EXPECT_EQ(tb->probe_wdl(english, fen("W:WK18:BK14,K1")).status, ProbeStatus::not_in_database);
    EXPECT_TRUE(tb->probe_wdl(english, fen("W:WK18:BK1,K2")).ok());
}

TEST_F(ProbeErrors, MissingDtwFileLeavesWdl) {
    std::filesystem::remove(table("0201", Metric::dtw));
    const auto tb = open_copy();
    const ProbeResult wdl = tb->probe_wdl(english, fen("W:WK18,K19:BK1"));
    EXPECT_TRUE(wdl.ok());
    EXPECT_EQ(wdl.value, Value::win);
    EXPECT_EQ(tb->probe_dtw(english, fen("W:WK18,K19:BK1")).status, ProbeStatus::not_in_database);
}

TEST_F(ProbeErrors, TruncatedFileIsCorrupt) {
    const auto path = table("0201", Metric::wdl);
    std::filesystem::resize_file(path, std::filesystem::file_size(path) - 1);
    const auto tb = open_copy();
    for (int i = 0; i < 2; ++i)  // the failure is remembered
        EXPECT_EQ(tb->probe_wdl(english, fen("W:WK18,K19:BK1")).status, ProbeStatus::error_corrupt);
    ASSERT_EQ(messages.size(), 1u);
    EXPECT_NE(messages[0].find("truncated"), std::string::npos) << messages[0];
    EXPECT_NE(messages[0].find("0201.wdl"), std::string::npos) << messages[0];
    EXPECT_TRUE(tb->probe_wdl(english, fen("W:WK18:BK1")).ok());
}

TEST_F(ProbeErrors, TruncatedToNothingIsCorrupt) {
    std::filesystem::resize_file(table("0201", Metric::wdl), 0);
    const auto tb = open_copy();
    EXPECT_EQ(tb->probe_wdl(english, fen("W:WK18,K19:BK1")).status, ProbeStatus::error_corrupt);
}

// Flips one bit in several places of a class's blocks: every probe of the class either fails
// with error_corrupt or gives exactly the pristine value.
void check_damaged_class(const Tablebase& damaged, const Tablebase& pristine, const char* name,
                         bool dtw, int& errors) {
    for (const Position& p : class_positions(name)) {
        const ProbeResult good =
            dtw ? pristine.probe_dtw(english, p) : pristine.probe_wdl(english, p);
        const ProbeResult got = dtw ? damaged.probe_dtw(english, p) : damaged.probe_wdl(english, p);
        ASSERT_TRUE(good.ok());
        if (got.ok()) {
            ASSERT_EQ(got.value, good.value) << to_fen(english, p);
            ASSERT_EQ(got.plies, good.plies) << to_fen(english, p);
        } else {
            ASSERT_EQ(got.status, ProbeStatus::error_corrupt) << probe_status_name(got.status);
            ++errors;
        }
    }
}

TEST_F(ProbeErrors, FlippedBitInBlockIsCorruptNeverWrong) {
    const auto pristine = open_pristine();
    for (const Metric m : {Metric::wdl, Metric::dtw}) {
        const auto path = table("0201", m);
        const TableHeader h = TableFile(path).header();
        const std::size_t data = h.blocks_offset;
        const std::size_t size = h.file_size - data;
        for (const std::size_t at : {data + size / 2, data + size - 20, data + 12}) {
            SetUp();  // a fresh copy
            flip_bit(path, at);
            const auto damaged = open_copy();
            int errors = 0;
            check_damaged_class(*damaged, *pristine, "0201", m == Metric::dtw, errors);
            EXPECT_GT(errors, 0) << metric_name(m) << " byte " << at;
            if (m == Metric::dtw) {  // the WDL file is intact
                int wdl_errors = 0;
                check_damaged_class(*damaged, *pristine, "0201", false, wdl_errors);
                EXPECT_EQ(wdl_errors, 0);
            }
        }
    }
}

TEST_F(ProbeErrors, HeaderOfAnotherClassIsCorrupt) {
    std::filesystem::copy_file(table("0102", Metric::wdl), table("0201", Metric::wdl),
                               std::filesystem::copy_options::overwrite_existing);
    const auto tb = open_copy();
    EXPECT_EQ(tb->probe_wdl(english, fen("W:WK18,K19:BK1")).status, ProbeStatus::error_corrupt);
    ASSERT_EQ(messages.size(), 1u);
    EXPECT_NE(messages[0].find("does not match"), std::string::npos) << messages[0];
}

TEST_F(ProbeErrors, PieceCap) {
    const auto tb = open_copy(2);
    EXPECT_EQ(tb->max_pieces(), 2);
    EXPECT_EQ(tb->largest_class(english), 2);
    EXPECT_EQ(tb->probe_wdl(english, fen("W:WK18,K19:BK1")).status, ProbeStatus::not_in_database);
    EXPECT_TRUE(tb->probe_wdl(english, fen("W:WK18:BK1")).ok());
    const auto uncapped = open_copy();
    EXPECT_EQ(uncapped->largest_class(english), 3);
    EXPECT_EQ(uncapped->largest_class(Variant{BaseVariant::brazilian, false}), 0);
    EXPECT_EQ(uncapped
                  ->probe_wdl(Variant{BaseVariant::brazilian, false},
                              parse_fen(Variant{BaseVariant::brazilian, false}, "W:WKa1:BKh8"))
                  .status,
              ProbeStatus::not_in_database);
}

TEST_F(ProbeErrors, CachedProbeReadsNothing) {
    const auto tb = open_copy();
    const Position p = fen("W:WK18,K19:BK1");
    EXPECT_EQ(tb->probe_wdl_cached(english, p).status, ProbeStatus::not_in_cache);
    const ProbeResult read = tb->probe_wdl(english, p);
    ASSERT_TRUE(read.ok());
    const ProbeResult cached = tb->probe_wdl_cached(english, p);
    ASSERT_TRUE(cached.ok());
    EXPECT_EQ(cached.value, read.value);
    // With no cache at all, only the conditional probe suffers.
    const auto uncached = Tablebase::open(dir.path, 0);
    EXPECT_TRUE(uncached->probe_wdl(english, p).ok());
    EXPECT_EQ(uncached->probe_wdl_cached(english, p).status, ProbeStatus::not_in_cache);
}

// CachedReadsOnly (probe.hpp): a table never opened and a damaged block answer not_in_cache in
// the mode, reporting nothing and caching nothing; what a normal probe has learnt (a class not
// there, within the retry delay) is answered as it is.
TEST_F(ProbeErrors, CachedReadsOnlyReportsNothing) {
    std::filesystem::remove(table("0201", Metric::wdl));
    const auto damaged = table("0102", Metric::dtw);
    const TableHeader h = TableFile(damaged).header();
    auto bytes = test::file_bytes(damaged);  // every block damaged
    for (std::size_t i = h.blocks_offset; i < bytes.size(); ++i)
        bytes[i] = static_cast<char>(bytes[i] ^ 0x10);
    test::write_bytes(damaged, bytes);
    const Position missing = fen("W:WK18,K19:BK1"), corrupt = fen("W:WK18:BK1,K2");
    const auto tb = open_copy();
    tb->set_retry_delay(std::chrono::hours(1));
    {
        const CachedReadsOnly cached;
        EXPECT_TRUE(CachedReadsOnly::active());
        EXPECT_EQ(tb->probe_wdl(english, missing).status, ProbeStatus::not_in_cache);
        EXPECT_EQ(tb->probe_dtw(english, corrupt).status, ProbeStatus::not_in_cache);
    }
    EXPECT_FALSE(CachedReadsOnly::active());
    EXPECT_EQ(tb->probe_wdl(english, missing).status, ProbeStatus::not_in_database);
    ASSERT_TRUE(tb->probe_dtw(english, fen("W:WK18:BK1")).ok());  // opens 0101's tables
    const std::uint64_t insertions = tb->cache_stats().insertions;
    {
        const CachedReadsOnly cached;
        EXPECT_EQ(tb->probe_wdl(english, missing).status, ProbeStatus::not_in_database);
    }
    {
        const CachedReadsOnly cached;
        { const CachedReadsOnly nested; }
        EXPECT_TRUE(CachedReadsOnly::active());
        EXPECT_EQ(tb->probe_dtw(english, corrupt).status, ProbeStatus::not_in_cache);
    }
    EXPECT_TRUE(messages.empty());
    EXPECT_EQ(tb->cache_stats().insertions, insertions);
    EXPECT_EQ(tb->probe_dtw(english, corrupt).status, ProbeStatus::error_corrupt);
    EXPECT_EQ(messages.size(), 1u);
    // Open tables whose blocks are not cached (no cache at all): not_in_cache in the mode.
    const auto uncached = open_pristine_uncached();
    const Position quiet = fen("W:WK18:BK1");
    ASSERT_TRUE(uncached->probe_dtw(english, quiet).ok());
    const CachedReadsOnly cached;
    EXPECT_EQ(uncached->probe_dtw(english, quiet).status, ProbeStatus::not_in_cache);
}

TEST_F(ProbeErrors, InvalidPositions) {
    const auto tb = open_copy();
    Position p = fen("W:WK18:BK1");
    Position overlap = p;
    overlap.pieces[1] |= overlap.pieces[0];
    Position off_board = p;
    off_board.pieces[0] |= bit(40);
    Position loose_king = p;
    const Bitboard board = make_tables(english.info().board).mask;
    loose_king.kings |= bit(lowest_bit(board & ~p.occupied()));
    Position crowned_man = fen("W:WK1:BK32");  // then a white man on White's promotion row
    crowned_man.kings &= ~crowned_man.pieces[0];
    Position no_opponent = p;
    no_opponent.pieces[1] = 0;
    no_opponent.kings &= no_opponent.pieces[0];
    for (const Position& bad : {overlap, off_board, loose_king, crowned_man, no_opponent}) {
        EXPECT_EQ(tb->probe_wdl(english, bad).status, ProbeStatus::invalid_position);
        EXPECT_EQ(tb->probe_dtw(english, bad).status, ProbeStatus::invalid_position);
        EXPECT_EQ(tb->probe_wdl_cached(english, bad).status, ProbeStatus::invalid_position);
    }
}

TEST_F(ProbeErrors, GameOverPositions) {
    const auto tb = open_copy();
    const ProbeResult no_pieces = tb->probe_dtw(english, fen("W:W:BK1"));
    ASSERT_TRUE(no_pieces.ok());
    EXPECT_EQ(no_pieces.value, Value::loss);
    EXPECT_EQ(no_pieces.plies, 0);
}

TEST_F(ProbeErrors, IdentifyAndVerify) {
    flip_bit(table("0102", Metric::dtw),
             TableFile(table("0102", Metric::dtw)).header().blocks_offset + 5);
    const auto tb = open_copy();
    const std::vector<TableListing> tables = tb->identify();
    std::size_t classes = 0;
    for (const Material m : classes_up_to(3)) classes += m.white() && m.black() ? 1 : 0;
    EXPECT_EQ(tables.size(), 2 * classes);
    for (const TableListing& t : tables) {
        EXPECT_EQ(t.variant, english);
        EXPECT_TRUE(t.error.empty()) << t.error;
        EXPECT_EQ(t.header.positions,
                  ClassIndex(english.info().board, *Material::parse(t.class_name)).size());
        EXPECT_EQ(t.file_bytes, t.header.file_size);
    }
    // The folder's verifier (gen/verify/verify.hpp) finds the damaged file, and only it.
    const VerifyReport report = verify_database(dir.path, false);
    EXPECT_EQ(report.files_bad, 1);
    int bad = 0;
    for (const std::string& problem : report.problems)
        if (problem.find("bad file") != std::string::npos) {
            ++bad;
            EXPECT_NE(problem.find("0102.dtw"), std::string::npos) << problem;
            EXPECT_NE(problem.find("checksum"), std::string::npos) << problem;
        }
    EXPECT_EQ(bad, 1);
}

TEST_F(ProbeErrors, OpenMissingFolderThrows) {
    EXPECT_THROW(Tablebase::open(dir.path / "nothing"), Error);
}

TEST_F(ProbeErrors, MemoryIsBounded) {
    const auto tb = Tablebase::open(dir.path, 64);
    const std::size_t before = tb->memory_bytes();
    EXPECT_GE(before, 64u * 1024 * 1024 - BlockCache::default_slot_bytes);
    for (const Position& p : class_positions("0201")) tb->probe_dtw(english, p);
    EXPECT_GT(tb->memory_bytes(), before);
    EXPECT_LT(tb->memory_bytes(), before + 1024 * 1024);
}

// ---- Square masks

TEST(SquareMasks, NumericVariantsFollowTheirFenNumbers) {
    for (const char* name : {"english", "international", "italian", "portuguese"}) {
        const Variant v = *parse_variant(name);
        const int squares = v.info().board.width * v.info().board.height / 2;
        for (int n = 1; n <= squares; ++n) {
            const Position p = parse_fen(v, "W:WK" + std::to_string(n) + ":B");
            const SquareMasks m = masks_from_position(v, p);
            EXPECT_EQ(m.white, std::uint64_t{1} << (n - 1)) << name << " " << n;
            EXPECT_EQ(m.kings, m.white);
            const auto back = position_from_masks(v, m);
            ASSERT_TRUE(back);
            EXPECT_EQ(*back, p);
        }
    }
}

TEST(SquareMasks, AlgebraicVariants) {
    const Variant brazilian = *parse_variant("brazilian");
    SquareMasks m = masks_from_position(brazilian, parse_fen(brazilian, "W:WKb8:BKg1"));
    EXPECT_EQ(m.white, std::uint64_t{1} << 0);   // square 1
    EXPECT_EQ(m.black, std::uint64_t{1} << 31);  // square 32
    const Variant turkish = *parse_variant("turkish");
    m = masks_from_position(turkish, parse_fen(turkish, "B:Wa2,Kh1:Bh7,Ka8"));
    EXPECT_EQ(m.white, (std::uint64_t{1} << 8) | (std::uint64_t{1} << 7));
    EXPECT_EQ(m.black, (std::uint64_t{1} << 55) | (std::uint64_t{1} << 56));
    EXPECT_EQ(m.kings, (std::uint64_t{1} << 7) | (std::uint64_t{1} << 56));
    EXPECT_EQ(m.side, Color::black);
    EXPECT_EQ(*position_from_masks(turkish, m), parse_fen(turkish, "B:Wa2,Kh1:Bh7,Ka8"));
}

TEST(SquareMasks, BitsWithoutASquareAreRejected) {
    EXPECT_FALSE(position_from_masks(english, {std::uint64_t{1} << 32, 1, 0, Color::white}));
    EXPECT_FALSE(position_from_masks(english, {1, 2, std::uint64_t{1} << 40, Color::white}));
    const Variant international = *parse_variant("international");
    EXPECT_TRUE(position_from_masks(international, {std::uint64_t{1} << 49, 1, 0, Color::white}));
    EXPECT_FALSE(position_from_masks(international, {std::uint64_t{1} << 50, 1, 0, Color::white}));
}

}  // namespace
}  // namespace damas
