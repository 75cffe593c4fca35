// A distance table written in parts and assembled (gen/write/table_parts.hpp): the bytes of
// write_distance_table for dtw (zstd-planes) and mtc (mtc-wdl, given the class's wdl values);
// a part of another range is not complete; a damaged part is an error and is removed, a missing
// one an error; no table is left either way.
#include <gtest/gtest.h>

#include <cstring>
#include <fstream>

#include "gen/write/table_parts.hpp"
#include "index/class_index.hpp"
#include "rules/error.hpp"
#include "rules/movegen.hpp"
#include "tests/support/scratch.hpp"

namespace damas {
namespace {

struct Case {
    Metric metric;
    std::vector<std::uint16_t> values;
    std::vector<std::uint8_t> wdl;  // beside the mtc file
};

// 10.5 blocks of distances, some unknown, and their wdl values.
Case make_case(Metric metric) {
    Case c{metric, {}, {}};
    const std::size_t n = format::dtw_positions_per_block * 21 / 2;
    std::uint32_t x = 12345;
    for (std::size_t i = 0; i < n; ++i) {
        x = x * 1103515245u + 12345u;
        const std::uint32_t r = (x >> 16) % 16;
        const int plies = static_cast<int>((x >> 8) % 40 + i / 4096);
        if (r == 0) {
            c.values.push_back(dtw_unknown);
            c.wdl.push_back(wdl_unknown);
        } else if (r < 4) {
            c.values.push_back(metric == Metric::mtc ? mtc_draw : dtw_draw);
            c.wdl.push_back(wdl_draw);
        } else {
            const bool win = metric == Metric::mtc ? r % 2 == 0 : plies % 2 == 1;
            c.values.push_back(metric == Metric::mtc ? mtc_encode(win, plies)
                                                     : static_cast<std::uint16_t>(plies));
            c.wdl.push_back(win ? wdl_win : wdl_loss);
        }
    }
    return c;
}

class TableParts : public ::testing::TestWithParam<Metric> {};

TEST_P(TableParts, AssembledFileIsTheWholeWritersBytes) {
    const Case c = make_case(GetParam());
    test::ScratchDir dir(std::string("table-parts-") + metric_name(c.metric));
    const Variant v = *parse_variant("english");
    const TableInfo info{v, {2, 1, 1, 1}, generator_version()};
    const std::string ext = std::string(".") + metric_name(c.metric);
    WriteOptions wo;
    wo.durable = false;
    wo.threads = 2;
    const TableHeader counts = wdl_table_counts(info, c.wdl);
    wo.counts_from = &counts;
    const DtwValues values = [&](std::uint64_t first, std::span<std::uint16_t> out) {
        std::copy_n(c.values.begin() + static_cast<std::ptrdiff_t>(first), out.size(), out.begin());
    };
    const auto whole = dir.path / "whole" / ("x" + ext);
    const auto parted = dir.path / "parted" / ("x" + ext);
    // mtc-wdl codes given the class's wdl values (here held, not a file beside).
    wo.mtc_wdl = [&](std::uint64_t first, std::span<std::uint8_t> out) {
        std::copy_n(c.wdl.begin() + static_cast<std::ptrdiff_t>(first), out.size(), out.begin());
    };
    write_distance_table(whole, info, c.metric, c.values.size(), values, wo);

    const std::uint64_t blocks = distance_table_blocks(c.metric, c.values.size(), wo);
    ASSERT_EQ(blocks, 11u);
    constexpr int k = 3;
    std::vector<std::filesystem::path> parts;
    for (int r = 0; r < k; ++r) {
        parts.push_back(dir.path / ("x." + std::to_string(r) + ".part"));
        write_distance_part(parts.back(), parted, info, c.metric, c.values.size(),
                            part_blocks(blocks, r, k), values, wo);
        EXPECT_TRUE(distance_part_complete(parts.back(), info, c.metric, c.values.size(),
                                           part_blocks(blocks, r, k), wo));
        EXPECT_FALSE(distance_part_complete(parts.back(), info, c.metric, c.values.size(),
                                            part_blocks(blocks, (r + 1) % k, k), wo));
    }
    assemble_distance_table(parted, info, c.metric, c.values.size(), parts, wo);
    EXPECT_TRUE(test::file_bytes(whole) == test::file_bytes(parted));

    // Parts out of order, one missing, one damaged: errors, and no table.
    std::filesystem::remove(parted);
    const std::vector<std::filesystem::path> swapped{parts[1], parts[0], parts[2]};
    EXPECT_THROW(assemble_distance_table(parted, info, c.metric, c.values.size(), swapped, wo),
                 Error);
    const std::vector<std::filesystem::path> short_of_one{parts[0], parts[1]};
    EXPECT_THROW(assemble_distance_table(parted, info, c.metric, c.values.size(), short_of_one, wo),
                 Error);
    {
        std::fstream f(parts[1], std::ios::in | std::ios::out | std::ios::binary);
        f.seekp(-5, std::ios::end);
        f.put('\x5a');
    }
    EXPECT_TRUE(distance_part_complete(parts[1], info, c.metric, c.values.size(),
                                       part_blocks(blocks, 1, k), wo))
        << "its blocks are checked as they are assembled";
    try {
        assemble_distance_table(parted, info, c.metric, c.values.size(), parts, wo);
        ADD_FAILURE() << "a damaged part assembled";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("damaged"), std::string::npos) << e.what();
    }
    EXPECT_FALSE(std::filesystem::exists(parts[1])) << "the damaged part is removed";
    EXPECT_THROW(assemble_distance_table(parted, info, c.metric, c.values.size(), parts, wo),
                 Error);
    EXPECT_FALSE(std::filesystem::exists(parted));
    EXPECT_FALSE(std::filesystem::exists(parted.string() + ".tmp"));
}

INSTANTIATE_TEST_SUITE_P(Metrics, TableParts, ::testing::Values(Metric::dtw, Metric::mtc),
                         [](const auto& param_info) {
                             return std::string(metric_name(param_info.param));
                         });

// A class's wdl values with runs, wdl_unknown where the side to move must capture (as the
// generator gives them).
std::vector<std::uint8_t> english_wdl_values(Material m) {
    const ClassIndex index(English::Board::spec, m);
    std::vector<std::uint8_t> out(index.size());
    std::uint32_t x = 99;
    std::uint8_t run = wdl_draw;
    index.for_each_position(0, index.size(), [&](std::uint64_t i, const Position& p) {
        x = x * 1103515245u + 12345u;
        if ((x >> 16) % 16 == 0) run = static_cast<std::uint8_t>((x >> 8) % 3);
        out[i] = MoveGenerator<English>::has_capture(p) ? wdl_unknown : run;
    });
    return out;
}

// The model bytes of a wdl file (after its offset table).
std::vector<std::byte> model_of(const std::filesystem::path& path, const TableHeader& h) {
    const std::vector<char> bytes = test::file_bytes(path);
    const std::size_t at = h.table_offset + format::table_bytes(h.blocks);
    std::vector<std::byte> model(h.model_size);
    std::memcpy(model.data(), bytes.data() + at, model.size());
    return model;
}

// A wdl file of each codec with a model (and zstd) written in parts with the whole file's model,
// then assembled: the whole writer's bytes; a part coded with another model is not complete; a
// damaged part is refused (and removed).
TEST(WdlTableParts, AssembledFileIsTheWholeWritersBytes) {
    const Variant v = *parse_variant("english");
    const Material m{1, 2, 1, 1};
    const std::vector<std::uint8_t> values = english_wdl_values(m);
    const TableInfo info{v, {1, 2, 1, 1}, generator_version()};
    test::ScratchDir dir("wdl-parts");
    WriteOptions wo;
    wo.durable = false;
    wo.threads = 2;
    const TableHeader counts = wdl_table_counts(info, values);
    const WdlValues read = [&](std::uint64_t first, std::span<std::uint8_t> out) {
        std::copy_n(values.begin() + static_cast<std::ptrdiff_t>(first), out.size(), out.begin());
    };
    for (const Codec codec : {Codec::zstd, Codec::context, Codec::context_mix}) {
        const std::string name = block_codec(codec).name();
        const auto whole = dir.path / (name + ".whole.wdl");
        const auto parted = dir.path / (name + ".parted.wdl");
        const std::optional<TableHeader> written =
            write_wdl_table(whole, info, values, codec, false, wo);
        ASSERT_TRUE(written) << name;
        const std::vector<std::byte> model = model_of(whole, *written);
        EXPECT_EQ(model.empty(), codec == Codec::zstd) << name;
        const TableHeader h = wdl_table_header(info, values.size(), codec, false, model, counts);
        ASSERT_EQ(h.blocks, written->blocks) << name;
        ASSERT_GE(h.blocks, 3u) << name;
        const std::unique_ptr<const TableCodec> coder = open_wdl_codec(h, model);
        constexpr int k = 3;
        std::vector<std::filesystem::path> parts;
        for (int r = 0; r < k; ++r) {
            parts.push_back(dir.path / (name + "." + std::to_string(r) + ".part"));
            write_wdl_part(parts.back(), h, *coder, part_blocks(h.blocks, r, k), read, wo);
            EXPECT_TRUE(wdl_part_complete(parts.back(), h, part_blocks(h.blocks, r, k)));
            EXPECT_FALSE(wdl_part_complete(parts.back(), h, part_blocks(h.blocks, (r + 1) % k, k)));
        }
        assemble_wdl_table(parted, h, model, parts, false);
        EXPECT_TRUE(test::file_bytes(whole) == test::file_bytes(parted)) << name;
        if (codec == Codec::zstd) continue;
        // Another model: its parts are not these.
        std::vector<std::byte> other = model;
        other.back() ^= std::byte{1};
        EXPECT_THROW(open_wdl_codec(h, other), Error);
        const TableHeader h_other =
            wdl_table_header(info, values.size(), codec, false, other, counts);
        EXPECT_FALSE(wdl_part_complete(parts[0], h_other, part_blocks(h.blocks, 0, k)));
        {
            std::fstream f(parts[2], std::ios::in | std::ios::out | std::ios::binary);
            f.seekp(-3, std::ios::end);
            f.put('\x33');
        }
        std::filesystem::remove(parted);
        EXPECT_THROW(assemble_wdl_table(parted, h, model, parts, false), Error) << name;
        EXPECT_FALSE(std::filesystem::exists(parts[2])) << "the damaged part is removed";
        EXPECT_FALSE(std::filesystem::exists(parted));
    }
}

}  // namespace
}  // namespace damas
