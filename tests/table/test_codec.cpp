// The codec seam (table/codec.hpp), over every registered codec, so that a new codec is tested
// by registering it: the registry (bytes and names, unknown ones refused), a round trip of random
// and real blocks through the codec's model, encoder and decoder (and the decoder a reader opens
// from the model's bytes), a truncated block refused or told apart, the writer's estimate against
// the file it writes, and a table file whose codec byte is unknown or wrong refused with an
// error. The context codec's own cases: test_wdl_context; whole databases: test_probe_mirror.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <set>
#include <string>

#include "gen/run/generate.hpp"
#include "gen/write/writer.hpp"
#include "index/class_index.hpp"
#include "rules/error.hpp"
#include "table/bytes.hpp"
#include "table/codec.hpp"
#include "table/codecs/wdl_context.hpp"
#include "table/hash.hpp"
#include "table/table_file.hpp"
#include "table_fixtures.hpp"

namespace damas {
namespace {

using test::ScratchDir;

const Variant codec_english{BaseVariant::english, false};

TableInfo codec_info_of(Material m) {
    return TableInfo{
        codec_english,
        {static_cast<std::uint8_t>(m.white_men), static_cast<std::uint8_t>(m.white_kings),
         static_cast<std::uint8_t>(m.black_men), static_cast<std::uint8_t>(m.black_kings)},
        "damas-test 0.1"};
}

std::uint64_t class_size(Material m) {
    return ClassIndex(codec_english.info().board, m).size();
}

// The header a writer gives `codec` for class m (counts aside).
TableHeader header_for(const BlockCodec& codec, Material m, Metric metric, bool half) {
    TableHeader h;
    h.variant = codec_english;
    h.material = codec_info_of(m).material;
    h.metric = metric;
    h.codec = codec.id();
    h.half = half;
    h.positions = class_size(m);
    h.positions_per_block = codec.positions_per_block(metric, 0);
    h.blocks = (h.positions + h.positions_per_block - 1) / h.positions_per_block;
    return h;
}

// Uniform values, unknown (3) one time in five if `unknowns`.
std::vector<std::uint8_t> random_wdl(std::uint64_t n, std::uint64_t seed, bool unknowns) {
    std::mt19937_64 rng(seed);
    std::vector<std::uint8_t> v(n);
    for (auto& x : v)
        x = unknowns && rng() % 5 == 0 ? wdl_unknown : static_cast<std::uint8_t>(rng() % 3);
    return v;
}

// The wdl values of a solved class, unknown where the side to move must capture: from the dtw
// file, whose values the generator leaves unknown exactly there.
std::vector<std::uint8_t> real_wdl(const std::vector<std::uint16_t>& dtw) {
    std::vector<std::uint8_t> v(dtw.size());
    for (std::size_t i = 0; i < v.size(); ++i) v[i] = dtw_outcome(dtw[i], false);
    return v;
}

// A small solved database (english 2-4), made once.
const std::filesystem::path& solved_folder() {
    static ScratchDir dir("codec-db");
    static const bool made = [] {
        GenerateOptions o = test::generate_options(codec_english, 4, dir.path);
        o.durable = false;
        test::generate_quietly(o);
        return true;
    }();
    (void)made;
    return dir.path;
}

std::vector<std::uint16_t> solved_dtw(Material m) {
    const TableFile t(table_path(solved_folder(), codec_english, m.name(), Metric::dtw));
    std::vector<std::uint16_t> v(t.size());
    t.read_all(v);
    return v;
}

// The same set solved with --metric mtc --full-mtc (every class's mtc values), made once.
const std::filesystem::path& solved_mtc_folder() {
    static ScratchDir dir("codec-db-mtc");
    static const bool made = [] {
        GenerateOptions o = test::generate_options(codec_english, 4, dir.path);
        o.durable = false;
        o.metric = Metric::mtc;
        o.mirror_mtc = false;
        test::generate_quietly(o);
        return true;
    }();
    (void)made;
    return dir.path;
}

std::vector<std::uint16_t> solved_mtc(Material m) {
    const TableFile t(table_path(solved_mtc_folder(), codec_english, m.name(), Metric::mtc));
    std::vector<std::uint16_t> v(t.size());
    t.read_all(v);
    return v;
}

// The file's codec with its model built from `values` (its blocks given to two workers, in
// reverse order); null if the codec cannot code them.
template <class T>
std::unique_ptr<const TableCodec> build(const BlockCodec& codec, const TableHeader& h,
                                        const std::vector<T>& values) {
    const std::uint32_t ppb = h.positions_per_block;
    const auto builder =
        codec.model_builder(h, {.workers = 2, .stride = 1, .hold = HeldFlags::plain});
    if (builder->needs_values()) {
        if constexpr (sizeof(T) == 1) {
            for (std::uint64_t b = h.blocks; b-- > 0;) {
                const std::uint64_t first = b * ppb;
                const std::size_t n = std::min<std::uint64_t>(ppb, h.positions - first);
                builder->add(b % 2, b, std::span(values).subspan(first, n));
            }
        } else {
            throw Error(std::string(codec.name()) + ": a model from 16-bit values");
        }
    }
    return builder->finish();
}

// The wdl values an mtc-wdl codec is given with mtc values: each value's own (wdl_unknown for
// dtw_unknown), and wdl_unknown one time in seven, as where a wdl file does not tell.
std::vector<std::uint8_t> wdl_given(std::span<const std::uint16_t> mtc) {
    std::vector<std::uint8_t> w(mtc.size());
    for (std::size_t i = 0; i < w.size(); ++i)
        w[i] = i % 7 == 3 || mtc[i] == dtw_unknown ? wdl_unknown
               : mtc[i] == mtc_draw                ? wdl_draw
               : (mtc[i] & 1)                      ? wdl_win
                                                   : wdl_loss;
    return w;
}

// A codec's decoding of block [first, first + n): given the wdl values `wdl` if it reads_wdl.
bool decode_block(const BlockCodec& codec, const TableCodec& table, std::uint64_t first,
                  std::size_t n, std::span<const std::byte> in, std::span<const std::uint8_t> wdl,
                  std::span<std::byte> out) {
    if (!codec.reads_wdl()) return table.decode(first, n, in, out);
    EXPECT_FALSE(table.decode(first, n, in, out)) << codec.name() << ": decoded without wdl";
    return table.decode_given_wdl(first, n, in, wdl.subspan(first, n), out);
}

// Every block of `values` through the codec and back: the decoded bytes are what the encoder
// said, hold the values where they are known (or 3 where the codec codes nothing), and so does
// the decoder a reader opens from the model's bytes; a truncated block is refused or decodes to
// other bytes (the reader's block hash then refuses it). A codec that reads_wdl is given
// wdl_given's values.
template <class T>
void expect_codec_round_trip(const BlockCodec& codec, TableHeader h, const TableCodec* table,
                             const std::vector<T>& values) {
    ASSERT_EQ(values.size(), h.positions);
    ASSERT_TRUE(table) << codec.name();
    const std::uint32_t ppb = h.positions_per_block;
    h.model_size = static_cast<std::uint32_t>(table->model().size());
    EXPECT_EQ(codec.header_problem(h), "") << codec.name();
    const std::unique_ptr<const TableCodec> opened = codec.open(h, table->model(), "test");
    std::vector<std::uint8_t> wdl;
    if constexpr (sizeof(T) == 2) wdl = wdl_given(values);
    EncodeSettings settings;
    if (codec.reads_wdl()) {
        EXPECT_THROW(table->encoder({}), Error) << codec.name();
        settings.wdl = [&wdl](std::uint64_t first, std::span<std::uint8_t> out) {
            std::copy_n(wdl.begin() + static_cast<std::ptrdiff_t>(first), out.size(), out.begin());
        };
    }
    const auto encoder = table->encoder(settings);
    std::vector<std::byte> plain, coded, out, reread;
    for (std::uint64_t b = 0; b < h.blocks; ++b) {
        const std::uint64_t first = b * ppb;
        const std::size_t n = std::min<std::uint64_t>(ppb, h.positions - first);
        const std::span<const T> v = std::span(values).subspan(first, n);
        encoder->encode(first, v, plain, coded);
        ASSERT_EQ(plain.size(), format::block_bytes(h.metric, n));
        EXPECT_LE(coded.size(), table->max_encoded_bytes(n));
        out.assign(plain.size(), std::byte{0xAB});
        ASSERT_TRUE(decode_block(codec, *table, first, n, coded, wdl, out))
            << codec.name() << " block " << b;
        ASSERT_EQ(out, plain) << codec.name() << " block " << b;
        reread.assign(plain.size(), std::byte{0xCD});
        ASSERT_TRUE(decode_block(codec, *opened, first, n, coded, wdl, reread))
            << codec.name() << " block " << b;
        ASSERT_EQ(reread, plain) << codec.name() << " block " << b;
        for (std::size_t i = 0; i < n; ++i) {
            if constexpr (sizeof(T) == 1) {
                const auto x = static_cast<std::uint8_t>(
                    (static_cast<unsigned>(plain[i / 4]) >> (2 * (i % 4))) & 3u);
                if (v[i] != wdl_unknown && x != wdl_unknown) {
                    ASSERT_EQ(x, v[i]) << codec.name() << " " << first + i;
                }
            } else {
                const auto x = le::load<std::uint16_t>(&plain[2 * i]);
                // dtw_unknown where the codec codes nothing (mtc-context: a capture position).
                if (v[i] != dtw_unknown && x != dtw_unknown) {
                    ASSERT_EQ(x, v[i]) << codec.name() << " " << first + i;
                }
            }
        }
        if (coded.size() > 1) {
            const bool ok = decode_block(codec, *table, first, n,
                                         std::span(coded).first(coded.size() / 2), wdl, out);
            EXPECT_TRUE(!ok || out != plain) << codec.name() << " block " << b;
        }
    }
}

class EveryCodec : public testing::TestWithParam<const BlockCodec*> {};

// The codec's name, '-' made '_' (gtest's names are identifiers).
std::string codec_test_name(const testing::TestParamInfo<const BlockCodec*>& info) {
    std::string name = info.param->name();
    std::replace(name.begin(), name.end(), '-', '_');
    return name;
}

INSTANTIATE_TEST_SUITE_P(Codec, EveryCodec,
                         testing::ValuesIn(block_codecs().begin(), block_codecs().end()),
                         codec_test_name);

TEST(CodecRegistry, FindsEachCodecByItsByteAndNameAndNoOther) {
    std::set<unsigned> bytes;
    std::set<std::string> names;
    for (const BlockCodec* c : block_codecs()) {
        const auto byte = static_cast<std::uint8_t>(c->id());
        EXPECT_TRUE(bytes.insert(byte).second) << c->name();
        EXPECT_TRUE(names.insert(c->name()).second) << c->name();
        EXPECT_EQ(find_block_codec(byte), c);
        EXPECT_EQ(find_block_codec(std::string_view(c->name())), c);
        EXPECT_EQ(&block_codec(c->id()), c);
        // Each codes wdl tables or 16-bit ones (mtc-context mtc alone), and a header of a metric
        // it does not code is refused.
        EXPECT_TRUE(c->codes(Metric::wdl) || c->codes(Metric::dtw) || c->codes(Metric::mtc))
            << c->name();
        for (int m = 0; m < metric_count; ++m) {
            const auto metric = static_cast<Metric>(m);
            if (c->codes(metric)) continue;
            TableHeader h;
            h.metric = metric;
            h.codec = c->id();
            EXPECT_NE(c->header_problem(h), "") << c->name() << " " << metric_name(metric);
        }
    }
    EXPECT_EQ(find_block_codec(std::uint8_t{0}), &zstd_block_codec());
    EXPECT_EQ(find_block_codec(std::uint8_t{1}), &context_block_codec());
    for (unsigned b = 0; b < 256; ++b)
        if (!bytes.contains(b)) {
            EXPECT_EQ(find_block_codec(static_cast<std::uint8_t>(b)), nullptr) << b;
            EXPECT_THROW(block_codec(static_cast<Codec>(b)), Error) << b;
        }
    EXPECT_EQ(find_block_codec(std::string_view("lzma")), nullptr);
    // zstd codes every metric; zstd-planes the 16-bit ones (the dtw and dtr files).
    for (int m = 0; m < metric_count; ++m) {
        EXPECT_TRUE(zstd_block_codec().codes(static_cast<Metric>(m)));
        EXPECT_EQ(zstd_planes_block_codec().codes(static_cast<Metric>(m)), m != 0);
    }
}

TEST_P(EveryCodec, RoundTripsRandomBlocks) {
    const BlockCodec& codec = *GetParam();
    const Material m = *Material::parse("1201");  // several blocks, the last one partial
    if (codec.codes(Metric::wdl)) {
        const TableHeader h = header_for(codec, m, Metric::wdl, false);
        ASSERT_GT(h.blocks, 1u);
        // Unknowns where the codec codes every position; a codec that skips the positions the
        // probe never reads refuses an unknown elsewhere.
        auto values = random_wdl(h.positions, 11, true);
        auto table = build(codec, h, values);
        if (!table) {
            values = random_wdl(h.positions, 11, false);
            table = build(codec, h, values);
        }
        expect_codec_round_trip(codec, h, table.get(), values);
    }
    if (codec.codes(Metric::dtw) || codec.codes(Metric::mtc)) {
        const Metric metric = codec.codes(Metric::dtw) ? Metric::dtw : Metric::mtc;
        const TableHeader d = header_for(codec, m, metric, false);
        const auto dtw = test::random_dtw(d.positions, 12);
        expect_codec_round_trip(codec, d, build(codec, d, dtw).get(), dtw);
    }
}

TEST_P(EveryCodec, RoundTripsRealBlocks) {
    const BlockCodec& codec = *GetParam();
    for (const char* name : {"2101", "1111", "0202"}) {
        SCOPED_TRACE(name);
        const Material m = *Material::parse(name);
        const auto dtw = solved_dtw(m);
        const auto wdl = real_wdl(dtw);
        for (const bool half : {false, true}) {
            if (!codec.codes(Metric::wdl)) break;
            if (half && !(codec.codes_half() && wdl_context::odd_half_allowed(codec_english, m)))
                continue;
            const TableHeader h = header_for(codec, m, Metric::wdl, half);
            expect_codec_round_trip(codec, h, build(codec, h, wdl).get(), wdl);
        }
        if (codec.codes(Metric::dtw)) {
            const TableHeader h = header_for(codec, m, Metric::dtw, false);
            expect_codec_round_trip(codec, h, build(codec, h, dtw).get(), dtw);
        }
        if (codec.codes(Metric::mtc)) {
            const auto mtc = solved_mtc(m);
            const TableHeader h = header_for(codec, m, Metric::mtc, false);
            expect_codec_round_trip(codec, h, build(codec, h, mtc).get(), mtc);
        }
    }
}

// The estimate of every block is the size of the file written; one of every 4th block is near it
// (these classes have 6 to 30 blocks, so a quarter of them, and the context model of a quarter,
// miss by up to a fifth; on classes of thousands of blocks the generator's stride 16 is within
// 1-2%).
TEST_P(EveryCodec, EstimatesTheFileItWrites) {
    const BlockCodec& codec = *GetParam();
    ScratchDir dir(std::string("codec-estimate-") + codec.name());
    for (const char* name : {"2101", "1111"}) {
        if (!codec.codes(Metric::wdl)) break;  // no estimates: the dtw files have one codec
        const Material m = *Material::parse(name);
        const auto values = real_wdl(solved_dtw(m));
        for (const bool half : {false, true}) {
            if (half && !(codec.codes_half() && wdl_context::odd_half_allowed(codec_english, m)))
                continue;
            SCOPED_TRACE(std::string(name) + (half ? " half" : ""));
            const auto path = dir.path / (std::string(name) + ".wdl");
            const auto h = write_wdl_table(path, codec_info_of(m), values, codec.id(), half);
            ASSERT_TRUE(h.has_value());
            EXPECT_EQ(h->codec, codec.id());
            EXPECT_EQ(std::filesystem::file_size(path), h->file_size);
            EXPECT_EQ(estimate_wdl_bytes(codec_info_of(m), values, codec.id(), half, 1),
                      h->file_size);
            const auto sampled = estimate_wdl_bytes(codec_info_of(m), values, codec.id(), half, 4);
            ASSERT_TRUE(sampled.has_value());
            EXPECT_NEAR(static_cast<double>(*sampled), static_cast<double>(h->file_size),
                        0.3 * static_cast<double>(h->file_size));
            // And the reader reads it back.
            const TableFile t(path);
            std::vector<std::uint8_t> read(values.size());
            t.read_all(read);
            for (std::size_t i = 0; i < values.size(); ++i)
                if (values[i] != wdl_unknown && read[i] != wdl_unknown) {
                    ASSERT_EQ(read[i], values[i]) << i;
                }
        }
    }
}

// A table file's header with another codec byte (format version 3 at least, where the byte is
// read; the header's checksum made right again).
void set_codec_byte(const std::filesystem::path& path, unsigned byte) {
    auto bytes = test::file_bytes(path);
    if (bytes[8] < 3) bytes[8] = 3;
    bytes[216] = static_cast<char>(byte);
    const std::uint64_t sum = xxh64(std::as_bytes(std::span(bytes.data(), std::size_t{248})));
    for (int i = 0; i < 8; ++i) bytes[248 + i] = static_cast<char>((sum >> (8 * i)) & 0xFF);
    test::write_bytes(path, bytes);
}

// A dtw file of class m written with `codec` (of 16-bit tables) from the solved folder's values;
// an mtc file from the mtc folder's for a codec of mtc tables alone, and for a codec that
// reads_wdl the class's wdl values (each mtc value's) in a wdl file beside it (the same name,
// .wdl), where its readers look for them.
TableHeader write_dtw_with(const BlockCodec& codec, Material m, const std::filesystem::path& path) {
    WriteOptions wo;
    wo.distance_codec = codec.id();
    wo.durable = false;
    if (codec.codes(Metric::dtw)) return write_dtw_table(path, codec_info_of(m), solved_dtw(m), wo);
    wo.mtc_codec = codec.id();
    const TableFile wdl(table_path(solved_mtc_folder(), codec_english, m.name(), Metric::wdl));
    wo.counts_from = &wdl.header();
    const std::vector<std::uint16_t> mtc = solved_mtc(m);
    std::unique_ptr<const TableFile> beside;
    if (codec.reads_wdl()) {
        std::filesystem::path wdl_path = path;
        wdl_path.replace_extension(".wdl");
        std::vector<std::uint8_t> values(mtc.size());
        for (std::size_t i = 0; i < mtc.size(); ++i)
            values[i] = mtc[i] == dtw_unknown ? wdl_unknown
                        : mtc[i] == mtc_draw  ? wdl_draw
                        : (mtc[i] & 1)        ? wdl_win
                                              : wdl_loss;
        WriteOptions plain;
        plain.durable = false;
        write_wdl_table(wdl_path, info_of(m), values, plain);
        beside = std::make_unique<const TableFile>(wdl_path);
        wo.mtc_wdl = [f = beside.get()](std::uint64_t first, std::span<std::uint8_t> out) {
            ASSERT_EQ(f->read_wdl(first, out), ReadStatus::ok);
        };
    }
    return write_distance_table(
        path, codec_info_of(m), Metric::mtc, mtc.size(),
        [&](std::uint64_t first, std::span<std::uint16_t> out) {
            std::copy_n(mtc.begin() + static_cast<std::ptrdiff_t>(first), out.size(), out.begin());
        },
        wo);
}

TEST_P(EveryCodec, AFileWithAnotherCodecByteIsAnError) {
    const BlockCodec& codec = *GetParam();
    ScratchDir dir(std::string("codec-byte-") + codec.name());
    const Material m = *Material::parse("2101");
    // A file of a codec that reads_wdl beside its wdl file (written by write_dtw_with).
    const char* suffix = codec.reads_wdl() ? ".mtc" : ".wdl";
    const auto good = dir.path / (std::string("good") + suffix);
    if (codec.codes(Metric::wdl)) {
        const auto values = real_wdl(solved_dtw(m));
        ASSERT_TRUE(write_wdl_table(good, codec_info_of(m), values, codec.id(), false).has_value());
    } else {
        EXPECT_EQ(write_dtw_with(codec, m, good).codec, codec.id());
    }
    const auto path = dir.path / (std::string("bad") + suffix);
    if (codec.reads_wdl()) std::filesystem::copy_file(dir.path / "good.wdl", dir.path / "bad.wdl");
    for (unsigned b = 0; b < 256; ++b) {
        if (b == static_cast<unsigned>(codec.id())) continue;
        std::filesystem::copy_file(good, path, std::filesystem::copy_options::overwrite_existing);
        set_codec_byte(path, b);
        if (find_block_codec(static_cast<std::uint8_t>(b)) == nullptr) {
            try {
                TableFile t(path);
                ADD_FAILURE() << "codec byte " << b << " accepted";
            } catch (const Error& e) {
                EXPECT_NE(std::string(e.what()).find("unknown codec " + std::to_string(b)),
                          std::string::npos)
                    << e.what();
            }
            continue;
        }
        // Another codec's byte: refused when opened, else every block refused when read.
        try {
            const TableFile t(path);
            if (t.header().metric == Metric::wdl) {
                std::vector<std::uint8_t> all(t.size());
                EXPECT_THROW(t.read_all(all), Error) << "codec byte " << b;
            } else {
                std::vector<std::uint16_t> all(t.size());
                EXPECT_THROW(t.read_all(all), Error) << "codec byte " << b;
            }
        } catch (const Error&) {
        }
    }
}

// The dtw files of the solved english 2-4 classes, written with zstd and with zstd-planes: the
// same values read back; no file larger than zstd's but for the tag byte of each block (each
// block keeps the smaller of its two frames), and together a tenth smaller at least (0.88
// here; about a fifth smaller on 6-piece classes, table/codecs/zstd_codec.cpp).
TEST(ZstdPlanes, SameDistancesInFewerBytes) {
    ScratchDir dir("codec-planes");
    std::uint64_t zstd_bytes = 0, planes_bytes = 0;
    for (const char* name : {"2101", "1111", "0202", "1201", "0211", "1102", "2020"}) {
        SCOPED_TRACE(name);
        const Material m = *Material::parse(name);
        const auto values = solved_dtw(m);
        const std::uint64_t zstd_file =
            write_dtw_with(zstd_block_codec(), m, dir.path / "zstd.dtw").file_size;
        const TableHeader h = write_dtw_with(zstd_planes_block_codec(), m, dir.path / "planes.dtw");
        EXPECT_LE(h.file_size, zstd_file + h.blocks);
        zstd_bytes += zstd_file;
        planes_bytes += h.file_size;
        EXPECT_EQ(h.codec, Codec::zstd_planes);
        const TableFile t(dir.path / "planes.dtw");
        EXPECT_EQ(t.header().codec, Codec::zstd_planes);
        t.verify();
        std::vector<std::uint16_t> read(t.size());
        t.read_all(read);
        ASSERT_EQ(read, values);  // the file's values are already filled: equal everywhere
    }
    EXPECT_LT(static_cast<double>(planes_bytes), 0.9 * static_cast<double>(zstd_bytes))
        << planes_bytes << " against " << zstd_bytes;
}

}  // namespace
}  // namespace damas
