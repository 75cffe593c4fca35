// The context codec (table/codecs/wdl_context.hpp) and the half layout (table/format.hpp) at the
// file level: round trips on real classes (the decoder finds the skipped positions from the
// positions themselves), damaged models and blocks, header rules, and the writer's refusals.
// Whole databases against zstd ones: test_probe_mirror (ContextCodec, HalfLayout).
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>

#include "gen/write/writer.hpp"
#include "index/class_index.hpp"
#include "rules/error.hpp"
#include "rules/movegen.hpp"
#include "rules/variants.hpp"
#include "table/codecs/wdl_context.hpp"
#include "table/codecs/wdl_mix.hpp"
#include "table/table_file.hpp"
#include "table_fixtures.hpp"

namespace damas {
namespace {

using test::ScratchDir;
using Moves = MoveGenerator<English>;

const Variant english{BaseVariant::english, false};

TableInfo info_of(Material m) {
    return TableInfo{
        english,
        {static_cast<std::uint8_t>(m.white_men), static_cast<std::uint8_t>(m.white_kings),
         static_cast<std::uint8_t>(m.black_men), static_cast<std::uint8_t>(m.black_kings)},
        "damas-test 0.1"};
}

// Values with some structure (runs, as real tables have) and wdl_unknown where the side to move
// must capture, as the generator passes them.
std::vector<std::uint8_t> class_values(const ClassIndex& index, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::vector<std::uint8_t> v(index.size());
    std::uint8_t run = 1;
    index.for_each_position(0, index.size(), [&](std::uint64_t i, const Position& p) {
        if (rng() % 16 == 0) run = static_cast<std::uint8_t>(rng() % 3);
        v[i] = Moves::has_capture(p) ? wdl_unknown : run;
    });
    return v;
}

int row_sum(const Position& p) {
    int sum = 0;
    for (int y = 0; y < 8; ++y) sum += popcount(p.occupied() & English::Board::row(y)) * y;
    return sum;
}

// Every position reads back: its value, or 3 where the codec skips it.
void expect_round_trip(const std::filesystem::path& path, const ClassIndex& index,
                       const std::vector<std::uint8_t>& values, bool half,
                       Codec codec = Codec::context) {
    const TableFile t(path);
    EXPECT_EQ(t.header().codec, codec);
    EXPECT_EQ(t.half(), half);
    std::vector<std::uint8_t> all(values.size());
    t.read_all(all);
    BlockCache cache(1 << 20);
    std::uint64_t skipped = 0;
    index.for_each_position(0, index.size(), [&](std::uint64_t i, const Position& p) {
        const bool skip = values[i] == wdl_unknown || (half && row_sum(p) % 2 == 1);
        skipped += skip;
        ASSERT_EQ(all[i], skip ? wdl_unknown : values[i]) << i;
        const ReadResult r = t.value(i, cache);
        ASSERT_TRUE(r.ok()) << i;
        ASSERT_EQ(r.value, all[i]) << i;
    });
    EXPECT_GT(skipped, 0u);
    EXPECT_LT(skipped, values.size());
    t.verify();
}

// Both context codecs: the static model (codec 1, which older files have) and the mixed one.
const Codec context_codecs[] = {Codec::context, Codec::context_mix};

TEST(ContextCodec, RoundTripsEveryPositionOfAClass) {
    ScratchDir dir("context");
    const Material m = *Material::parse("1201");
    const ClassIndex index(English::Board::spec, m);
    const auto values = class_values(index, 7);
    const auto path = dir.path / "1201.wdl";
    for (const Codec codec : context_codecs) {
        const auto h = write_wdl_table(path, info_of(m), values, codec, false);
        ASSERT_TRUE(h.has_value());
        EXPECT_GT(h->blocks, 1u);  // several blocks, the last one partial
        expect_round_trip(path, index, values, false, codec);
    }
}

TEST(ContextCodec, HalfLayoutSkipsTheOddPositions) {
    ScratchDir dir("context-half");
    const Material m = *Material::parse("1111");
    ASSERT_TRUE(wdl_context::odd_half_allowed(english, m));
    const ClassIndex index(English::Board::spec, m);
    const auto values = class_values(index, 8);
    const auto path = dir.path / "1111.wdl";
    for (const Codec codec : context_codecs) {
        ASSERT_TRUE(write_wdl_table(path, info_of(m), values, codec, true).has_value());
        expect_round_trip(path, index, values, true, codec);
    }
}

TEST(ContextCodec, SameBytesWhateverTheThreads) {
    ScratchDir dir("context-threads");
    const Material m = *Material::parse("1201");
    const auto values = class_values(ClassIndex(English::Board::spec, m), 9);
    for (const Codec codec : context_codecs) {
        write_wdl_table(dir.path / "a.wdl", info_of(m), values, codec, false, {.threads = 1});
        write_wdl_table(dir.path / "b.wdl", info_of(m), values, codec, false, {.threads = 3});
        EXPECT_EQ(test::file_bytes(dir.path / "a.wdl"), test::file_bytes(dir.path / "b.wdl"));
    }
}

// The mixed model's features are those of the position: the flags a decoder computes.
TEST(ContextMixCodec, FeaturesAreThoseOfThePosition) {
    const Material m = *Material::parse("2111");
    const ClassIndex index(English::Board::spec, m);
    std::vector<std::uint8_t> flags(index.size());
    wdl_context::make_position_flags(english, m, false, true)->compute(0, flags);
    std::array<std::uint64_t, 8> seen{};
    index.for_each_position(0, index.size(), [&](std::uint64_t i, const Position& p) {
        const std::uint8_t f = flags[i];
        for (int b = 0; b < 8; ++b) seen[b] += (f >> b) & 1;
        if (Moves::has_capture(p)) {
            ASSERT_EQ(f, wdl_context::skipped) << i;
            return;
        }
        Position other = p;
        other.side = ~p.side;
        const int threats = Moves::has_capture(other) ? Moves::count(other) : 0;
        ASSERT_EQ((f & wdl_context::threat) != 0, threats > 0) << i;
        ASSERT_EQ((f & wdl_context::threats) != 0, threats >= 2) << i;
        MoveList moves;
        Moves::generate(p, moves);
        ASSERT_EQ((f & wdl_context::few_moves) != 0, moves.size() <= 2) << i;
        ASSERT_EQ((f & wdl_context::many_moves) != 0, moves.size() >= 7) << i;
        bool crowns = false;
        for (const Move& mv : moves) crowns |= mv.promotes && !(p.kings & bit(mv.from));
        ASSERT_EQ((f & wdl_context::can_crown) != 0, crowns) << i;
    });
    for (int b = 1; b < 7; ++b) EXPECT_GT(seen[b], 0u) << b;  // every feature occurs
}

// A damaged mixed model is an error, never a crash: every truncation, every byte changed.
TEST(ContextMixCodec, DamagedModelBytesAreAnErrorNeverACrash) {
    const Material m = *Material::parse("1201");
    const ClassIndex index(English::Board::spec, m);
    const auto values = class_values(index, 16);
    const std::size_t n = 8192;
    std::vector<std::uint8_t> flags(n);
    wdl_context::make_position_flags(english, m, false, true)->compute(0, flags);
    wdl_mix::Model model = wdl_mix::model_shape(English::Board::spec, m);
    wdl_mix::Counts counts(model);
    const std::span<const std::uint8_t> block(values.data(), n);
    wdl_mix::count_block(model, block, flags, counts);
    wdl_mix::set_probabilities(model, counts);
    const auto bytes = wdl_mix::serialize(model);
    const auto parsed = wdl_mix::parse(bytes, "test");
    ASSERT_EQ(parsed.parts.size(), model.parts.size());
    EXPECT_EQ(parsed.initial, model.initial);
    EXPECT_EQ(parsed.weights, model.weights);
    for (std::size_t size = 0; size < bytes.size(); ++size)
        EXPECT_THROW(wdl_mix::parse(std::span(bytes).first(size), "test"), Error) << size;
    std::vector<std::byte> coded, out((n + 3) / 4);
    wdl_mix::Workspace w;
    wdl_mix::encode_block(model, block, flags, coded, w);
    for (std::size_t at = 0; at < bytes.size(); ++at) {
        auto bad = bytes;
        bad[at] ^= std::byte{0x5A};
        try {
            // A model that still parses decodes without a crash (the offset table's hashes
            // tell the values are wrong: BlockIsReportedNeverMisread).
            const auto other = wdl_mix::parse(bad, "test");
            (void)wdl_mix::decode_block(other, coded, flags, out, w);
        } catch (const Error& e) {
            EXPECT_NE(std::string(e.what()).find("corrupt mixed context model"), std::string::npos);
        }
    }
    // The same workspace decodes a good block after all that.
    ASSERT_TRUE(wdl_mix::decode_block(model, coded, flags, out, w));
    for (std::size_t i = 0; i < n; ++i)
        ASSERT_EQ((static_cast<unsigned>(out[i / 4]) >> (2 * (i % 4))) & 3,
                  flags[i] & wdl_context::skipped ? 3u : values[i])
            << i;
}

// The generator chooses the codec of large classes from estimates (gen/run/generate.cpp): stride 1
// is the exact size of the file each writer writes, a sample is close to it, and neither
// depends on the threads.
TEST(WdlEstimate, StrideOneIsTheExactSizeOfEitherCodec) {
    ScratchDir dir("estimate");
    for (const char* name : {"1201", "1111"}) {
        const Material m = *Material::parse(name);
        const auto values = class_values(ClassIndex(English::Board::spec, m), 11);
        const bool half = wdl_context::odd_half_allowed(english, m);
        const auto zstd = write_wdl_table(dir.path / "z.wdl", info_of(m), values);
        for (const Codec codec : context_codecs) {
            const auto context =
                write_wdl_table(dir.path / "c.wdl", info_of(m), values, codec, half);
            ASSERT_TRUE(context.has_value());
            EXPECT_EQ(estimate_wdl_bytes(info_of(m), values, codec, half, 1),
                      std::filesystem::file_size(dir.path / "c.wdl"))
                << name;
        }
        EXPECT_EQ(estimate_wdl_bytes(info_of(m), values, Codec::zstd, false, 1),
                  std::filesystem::file_size(dir.path / "z.wdl"))
            << name;
        EXPECT_EQ(zstd.file_size, std::filesystem::file_size(dir.path / "z.wdl"));
    }
}

TEST(WdlEstimate, ASampleIsCloseAndThreadIndependent) {
    const Material m = *Material::parse("2201");  // 2.6 M positions: 40 zstd blocks, 80 context
    const ClassIndex index(English::Board::spec, m);
    const auto values = class_values(index, 12);
    for (const Codec codec : {Codec::zstd, Codec::context, Codec::context_mix}) {
        const auto exact = estimate_wdl_bytes(info_of(m), values, codec, false, 1);
        const auto one = estimate_wdl_bytes(info_of(m), values, codec, false, 4, {.threads = 1});
        const auto three = estimate_wdl_bytes(info_of(m), values, codec, false, 4, {.threads = 3});
        ASSERT_TRUE(exact && one && three);
        EXPECT_EQ(*one, *three);
        EXPECT_NEAR(static_cast<double>(*one), static_cast<double>(*exact),
                    0.1 * static_cast<double>(*exact));
    }
}

TEST(WdlEstimate, NothingForTheContextCodecWhereItWritesNothing) {
    const Material m = *Material::parse("1201");
    auto values = class_values(ClassIndex(English::Board::spec, m), 13);
    *std::find_if(values.begin(), values.end(), [](std::uint8_t x) { return x != wdl_unknown; }) =
        wdl_unknown;
    EXPECT_FALSE(estimate_wdl_bytes(info_of(m), values, Codec::context, false, 1).has_value());
    EXPECT_TRUE(estimate_wdl_bytes(info_of(m), values, Codec::zstd, false, 1).has_value());
    EXPECT_THROW(estimate_wdl_bytes(info_of(m), values, Codec::zstd, false, 0), Error);
}

// Values read in passes (a pair solved in units streams them from its unit files, never holding
// a class): each pass asked for in order, from 0, in consecutive ranges; counted.
struct CountedPasses {
    std::span<const std::uint8_t> values;
    int opened = 0;
    WdlPasses passes() {
        return [this] {
            ++opened;
            auto next = std::make_shared<std::uint64_t>(0);
            return WdlValues([this, next](std::uint64_t first, std::span<std::uint8_t> out) {
                if (first != *next) throw Error("a pass read out of order");
                std::copy_n(values.begin() + static_cast<std::ptrdiff_t>(first), out.size(),
                            out.begin());
                *next += out.size();
            });
        };
    }
};

// The same bytes, estimates and counts from passes as from values held, with the passes each
// function says it makes, at any thread count and whether flags are held or computed again.
TEST(WdlPasses, SameFilesEstimatesAndCountsAsValuesHeld) {
    ScratchDir dir("passes");
    for (const char* name : {"1201", "1111"}) {
        const Material m = *Material::parse(name);
        const auto values = class_values(ClassIndex(English::Board::spec, m), 14);
        const bool half = wdl_context::odd_half_allowed(english, m);
        CountedPasses in{values};
        const TableHeader counts = wdl_table_counts(info_of(m), values.size(), in.passes(), 3);
        EXPECT_EQ(in.opened, 1);
        const TableHeader held = wdl_table_counts(info_of(m), values);
        EXPECT_EQ(std::tie(counts.wins, counts.draws, counts.losses, counts.unknown),
                  std::tie(held.wins, held.draws, held.losses, held.unknown));
        for (const unsigned threads : {1u, 3u}) {
            // Compressed within 16,000 bytes: 4 or 5 blocks read back (of 12 and 21, about 3.5 KB
            // each), the others computed again.
            for (const auto& [hold_flags, limit] :
                 {std::pair{HeldFlags::none, UINT64_MAX}, std::pair{HeldFlags::plain, UINT64_MAX},
                  std::pair{HeldFlags::compressed, UINT64_MAX},
                  std::pair{HeldFlags::compressed, std::uint64_t{16000}}}) {
                const WriteOptions wo{.threads = threads,
                                      .counts_from = &counts,
                                      .hold_flags = hold_flags,
                                      .held_flags_limit = limit};
                in.opened = 0;
                write_wdl_table(dir.path / "z.wdl", info_of(m), values.size(), in.passes(),
                                Codec::zstd, false, wo);
                EXPECT_EQ(in.opened, 1);
                write_wdl_table(dir.path / "z0.wdl", info_of(m), values);
                EXPECT_EQ(test::file_bytes(dir.path / "z.wdl"),
                          test::file_bytes(dir.path / "z0.wdl"));
                in.opened = 0;
                ASSERT_TRUE(write_wdl_table(dir.path / "c.wdl", info_of(m), values.size(),
                                            in.passes(), Codec::context, half, wo));
                EXPECT_EQ(in.opened, 2);
                ASSERT_TRUE(
                    write_wdl_table(dir.path / "c0.wdl", info_of(m), values, Codec::context, half));
                EXPECT_EQ(test::file_bytes(dir.path / "c.wdl"),
                          test::file_bytes(dir.path / "c0.wdl"));
                expect_round_trip(dir.path / "c.wdl", ClassIndex(English::Board::spec, m), values,
                                  half);
                for (const Codec codec : {Codec::zstd, Codec::context}) {
                    in.opened = 0;
                    EXPECT_EQ(estimate_wdl_bytes(info_of(m), values.size(), in.passes(), codec,
                                                 half && codec == Codec::context, 3, wo),
                              estimate_wdl_bytes(info_of(m), values, codec,
                                                 half && codec == Codec::context, 3));
                    EXPECT_EQ(in.opened, codec == Codec::zstd ? 1 : 2);
                }
            }
        }
    }
}

TEST(WdlPasses, AnInvalidValueIsRefused) {
    const Material m = *Material::parse("1201");
    auto values = class_values(ClassIndex(English::Board::spec, m), 15);
    values[values.size() / 2] = 7;
    CountedPasses in{values};
    EXPECT_THROW(wdl_table_counts(info_of(m), values.size(), in.passes(), 2), Error);
    WriteOptions no_counts;
    EXPECT_THROW(write_wdl_table("/nonexistent/x.wdl", info_of(m), values.size(), in.passes(),
                                 Codec::zstd, false, no_counts),
                 Error);
}

TEST(ContextCodec, RefusesWhatItCannotCode) {
    ScratchDir dir("context-refuse");
    const Material m = *Material::parse("1201");
    const ClassIndex index(English::Board::spec, m);
    auto values = class_values(index, 10);
    // A position the probe reads without a value (a rule ended the game): zstd must keep it.
    const auto quiet =
        std::find_if(values.begin(), values.end(), [](std::uint8_t x) { return x != wdl_unknown; });
    *quiet = wdl_unknown;
    const auto path = dir.path / "1201.wdl";
    EXPECT_FALSE(write_wdl_table(path, info_of(m), values, Codec::context, false).has_value());
    EXPECT_FALSE(std::filesystem::exists(path));
    // The half layout of a class that is not its own mirror would lose values.
    EXPECT_THROW(write_wdl_table(path, info_of(m), class_values(index, 11), Codec::context, true),
                 Error);
    // Nor where kings fly: a long king move keeps the parity of the row sum.
    EXPECT_FALSE(wdl_context::odd_half_allowed(Variant{BaseVariant::brazilian, false},
                                               *Material::parse("1111")));
}

struct DamagedContextFile : testing::TestWithParam<Codec> {
    ScratchDir dir{"context-damaged"};
    Material m = *Material::parse("1201");
    ClassIndex index{English::Board::spec, m};
    std::vector<std::uint8_t> values = class_values(index, 12);
    std::filesystem::path good = dir.path / "good.wdl";
    std::filesystem::path bad = dir.path / "bad.wdl";
    TableHeader h;
    std::vector<char> bytes;
    void SetUp() override {
        h = *write_wdl_table(good, info_of(m), values, GetParam(), false);
        bytes = test::file_bytes(good);
    }
    void write_flipped(std::uint64_t offset) {
        auto b = bytes;
        b[offset] = static_cast<char>(b[offset] ^ 0x10);
        test::write_bytes(bad, b);
    }
};

TEST_P(DamagedContextFile, ModelIsReportedAtOpen) {
    write_flipped(h.table_offset + format::table_bytes(h.blocks) + h.model_size / 2);
    try {
        TableFile t(bad);
        FAIL() << "opened a file with a damaged model";
    } catch (const Error& e) {
        // "corrupt context model", "corrupt context-mix model"
        EXPECT_NE(std::string(e.what()).find(std::string("corrupt ") +
                                             block_codec(GetParam()).name() + " model"),
                  std::string::npos)
            << e.what();
    }
}

TEST_P(DamagedContextFile, BlockIsReportedNeverMisread) {
    write_flipped(h.blocks_offset + 40);  // inside the first block
    const TableFile t(bad);
    BlockCache cache(1 << 20);
    EXPECT_EQ(t.value(0, cache).status, ReadStatus::corrupt_block);
    EXPECT_EQ(t.value(h.positions - 1, cache).status, ReadStatus::ok);  // other blocks are fine
    EXPECT_THROW(t.verify(), Error);
}

// Named by the codec ("context", "context_mix": gtest's names are identifiers), not by the
// enum's byte, which ctest printed the same for both ("1-byte object").
std::string codec_name(const testing::TestParamInfo<Codec>& info) {
    std::string name = block_codec(info.param).name();
    std::replace(name.begin(), name.end(), '-', '_');
    return name;
}

INSTANTIATE_TEST_SUITE_P(BothModels, DamagedContextFile, testing::ValuesIn(context_codecs),
                         codec_name);

TEST(ContextCodec, TruncatedBlockBytesAreDetected) {
    const Material m = *Material::parse("1201");
    const ClassIndex index(English::Board::spec, m);
    const auto values = class_values(index, 13);
    const std::size_t n = 4096;
    std::vector<std::uint8_t> flags(n);
    wdl_context::make_position_flags(english, m, false)->compute(0, flags);
    wdl_context::Model model = wdl_context::model_shape(English::Board::spec, m);
    wdl_context::Counts counts(model.contexts());
    const std::span<const std::uint8_t> block(values.data(), n);
    wdl_context::count_block(model, block, flags, counts);
    wdl_context::set_probabilities(model, counts);
    std::vector<std::byte> coded, out((n + 3) / 4);
    wdl_context::encode_block(model, block, flags, coded);
    EXPECT_TRUE(wdl_context::decode_block(model, coded, flags, out));
    EXPECT_FALSE(
        wdl_context::decode_block(model, std::span(coded).first(coded.size() / 2), flags, out));
    // The model survives its own serialisation.
    const auto parsed = wdl_context::parse(wdl_context::serialize(model), "test");
    EXPECT_EQ(parsed.distances, model.distances);
    EXPECT_EQ(parsed.first, model.first);
    EXPECT_EQ(parsed.second, model.second);
}

TEST(ContextCodec, HeaderRulesAreChecked) {
    TableHeader h;
    h.variant = english;
    h.material = {1, 2, 0, 1};
    h.metric = Metric::dtw;
    h.generator = "test";
    h.codec = Codec::context;
    h.model_size = 100;
    h.positions_per_block = 1024;
    h.table_offset = format::header_size;
    h.blocks_offset = h.table_offset + format::table_bytes(0) + h.model_size;
    h.file_size = h.blocks_offset;
    const auto bytes = encode_header(h);
    EXPECT_EQ(bytes[8], std::byte{3});                 // the new fields need version 3
    EXPECT_THROW(decode_header(bytes, "dtw"), Error);  // the context codec is for wdl only
    h.codec = Codec::zstd;
    h.model_size = 0;
    h.half = true;
    h.metric = Metric::wdl;
    h.blocks_offset = h.table_offset + format::table_bytes(0);
    h.file_size = h.blocks_offset;
    EXPECT_THROW(decode_header(encode_header(h), "half"), Error);  // half needs the codec
    h.half = false;
    const auto plain = encode_header(h);
    EXPECT_EQ(plain[8], std::byte{2});  // older readers still read zstd files
    EXPECT_NO_THROW(decode_header(plain, "plain"));
}

}  // namespace
}  // namespace damas
