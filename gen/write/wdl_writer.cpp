// The wdl writers of gen/write/writer.hpp beyond a table of held values: any codec
// (table/codec.hpp) for values held or read in passes (WdlPasses), size estimates of any codec from
// a sample of blocks, and the header's counts.
#include "gen/write/table_writing.hpp"

namespace damas {

using namespace writing;

namespace {

// Values read in a pass, opened at the first block the writer asks for (after the codec's
// model pass, so that two passes are never open at once).
struct PassReader {
    const WdlPasses& passes;
    std::optional<WdlValues> values;
    void operator()(std::uint64_t first, std::size_t n, EncodedBlock& block) {
        if (!values) values = passes();
        block.bytes.resize(n);
        (*values)(first, block.bytes);
    }
};

}  // namespace

std::optional<TableHeader> write_wdl_table(const std::filesystem::path& path, const TableInfo& info,
                                           std::span<const std::uint8_t> values, Codec codec,
                                           bool half, const WriteOptions& opt) {
    const WdlPasses passes = wdl_passes_over(values);
    return write_coded_table(path, info, values, opt, Metric::wdl,
                             Coding{block_codec(codec), half, &passes});
}

std::optional<TableHeader> write_wdl_table(const std::filesystem::path& path, const TableInfo& info,
                                           std::uint64_t positions, const WdlPasses& passes,
                                           Codec codec, bool half, const WriteOptions& opt) {
    if (!opt.counts_from) throw Error("write_wdl_table: values in passes need counts_from");
    PassReader reader{passes, std::nullopt};
    return write_coded_table(
        path, info, positions, std::span<const std::uint8_t>(),
        [](std::size_t, std::uint64_t, std::size_t, const EncodedBlock& block) {
            return std::span<const std::uint8_t>(block.bytes);
        },
        opt, Metric::wdl, Coding{block_codec(codec), half, &passes},
        [&](std::uint64_t first, std::size_t n, EncodedBlock& block) { reader(first, n, block); });
}

std::optional<std::uint64_t> estimate_wdl_bytes(const TableInfo& info,
                                                std::span<const std::uint8_t> values, Codec codec,
                                                bool half, std::uint32_t stride,
                                                const WriteOptions& opt) {
    return estimate_wdl_bytes(info, values.size(), wdl_passes_over(values), codec, half, stride,
                              opt);
}

// The sampled blocks encoded as the writer would: the codec's model from them (a pass, if it
// has one), then a pass encoding them.
std::optional<std::uint64_t> estimate_wdl_bytes(const TableInfo& info, std::uint64_t positions,
                                                const WdlPasses& passes, Codec c, bool half,
                                                std::uint32_t stride, const WriteOptions& opt) {
    if (stride == 0) throw Error("estimate_wdl_bytes: stride 0");
    const BlockCodec& codec = block_codec(c);
    if (half && !codec.codes_half())
        throw Error(std::string(codec.name()) + " codec: it has no half layout");
    const unsigned threads = std::max(1u, opt.threads);
    // No header is written: the win/draw/loss counts are not needed.
    const TableHeader no_counts;
    WriteOptions uncounted = opt;
    uncounted.counts_from = &no_counts;
    TableHeader h = start_header(info, Metric::wdl, codec.positions_per_block(Metric::wdl, 0),
                                 positions, std::span<const std::uint8_t>(), uncounted);
    h.codec = codec.id();
    h.half = half;
    const Sample sample{stride, h.blocks};
    const std::unique_ptr<const TableCodec> table =
        table_codec(codec, h, &passes, stride, threads, opt);
    if (!table) return std::nullopt;
    struct Worker {
        std::unique_ptr<BlockEncoder> encoder;
        std::vector<std::byte> plain, coded;
        std::uint64_t bytes = 0;
    };
    std::vector<Worker> workers(threads);
    for (Worker& w : workers) w.encoder = table->encoder({});
    for_each_block_of_pass(passes(), h.positions, h.positions_per_block, threads,
                           [&](std::size_t w, std::uint64_t b, std::span<const std::uint8_t> v) {
                               if (b % stride != 0) return;
                               Worker& worker = workers[w];
                               worker.encoder->encode(b * h.positions_per_block, v, worker.plain,
                                                      worker.coded);
                               worker.bytes += worker.coded.size();
                           });
    std::uint64_t sampled = 0;
    for (const Worker& w : workers) sampled += w.bytes;
    return format::header_size + format::table_bytes(h.blocks) + table->model().size() +
           sample.scale(sampled);
}

TableHeader wdl_table_counts(const TableInfo& info, std::span<const std::uint8_t> values) {
    return start_header(info, Metric::wdl, format::wdl_positions_per_block, values.size(), values,
                        {});
}

TableHeader wdl_table_counts(const TableInfo& info, std::uint64_t positions,
                             const WdlPasses& passes, unsigned threads) {
    threads = std::max(1u, threads);
    std::vector<std::array<std::uint64_t, 256>> counts(threads);
    for (auto& c : counts) c.fill(0);
    for_each_block_of_pass(passes(), positions, format::wdl_positions_per_block, threads,
                           [&](std::size_t w, std::uint64_t, std::span<const std::uint8_t> v) {
                               for (const std::uint8_t x : v) ++counts[w][x];
                           });
    TableHeader total;
    for (std::size_t x = 0; x < 256; ++x) {
        std::uint64_t n = 0;
        for (const auto& c : counts) n += c[x];
        if (x > wdl_unknown && n != 0)
            throw Error("write_wdl_table: invalid value " + std::to_string(x) + " (" +
                        std::to_string(n) + " positions)");
        if (x == wdl_loss) total.losses = n;
        if (x == wdl_draw) total.draws = n;
        if (x == wdl_win) total.wins = n;
        if (x == wdl_unknown) total.unknown = n;
    }
    WriteOptions counted;
    counted.counts_from = &total;
    return start_header(info, Metric::wdl, format::wdl_positions_per_block, positions,
                        std::span<const std::uint8_t>(), counted);
}

WdlPasses wdl_passes_over(std::span<const std::uint8_t> values) {
    return [values] {
        return WdlValues([values](std::uint64_t first, std::span<std::uint8_t> out) {
            std::copy_n(values.begin() + static_cast<std::ptrdiff_t>(first), out.size(),
                        out.begin());
        });
    };
}

}  // namespace damas
