// The wdl writers of gen/writer.hpp beyond the plain zstd table: the context codec
// (table/wdl_context.hpp), size estimates of either codec from a sample of blocks, the header's
// counts, and all of these for values read in passes (WdlPasses) instead of held.
#include "gen/table_writing.hpp"
#include "table/wdl_context.hpp"

namespace damas {

using namespace writing;

namespace {

TableHeader context_header(const TableInfo& info, std::uint64_t positions,
                           std::span<const std::uint8_t> values, bool half,
                           const WriteOptions& opt) {
    const Material m{info.material[0], info.material[1], info.material[2], info.material[3]};
    if (half && !wdl_context::odd_half_allowed(info.variant, m))
        throw Error("write_wdl_context_table: the half layout is not valid for " + m.name());
    TableHeader h =
        start_header(info, Metric::wdl, wdl_context::positions_per_block, positions, values, opt);
    h.codec = Codec::context;
    h.half = half;
    return h;
}

// The flags of block b's positions (sample k = b / stride): kept in `held` (at k * positions per
// block) when it is not empty, else computed into a buffer of the calling thread.
std::span<const std::uint8_t> block_flags(const wdl_context::PositionFlags& flagger,
                                          const TableHeader& h, std::uint64_t k,
                                          const BlockSpan& at, std::span<std::uint8_t> held,
                                          bool compute) {
    thread_local std::vector<std::uint8_t> scratch;
    std::span<std::uint8_t> f;
    if (held.empty()) {
        scratch.resize(at.n);
        f = scratch;
    } else {
        f = held.subspan(k * h.positions_per_block, at.n);
    }
    if (compute || held.empty()) flagger.compute(at.first, f);
    return f;
}

// The model counted from the sampled blocks of one pass (their flags kept in `held` unless it is
// empty), in parallel; nothing if a position the probe reads there has no value.
std::optional<wdl_context::Model> context_model(const TableHeader& h, const WdlValues& values,
                                                const Sample& sample, std::span<std::uint8_t> held,
                                                unsigned threads) {
    const Material m{h.material[0], h.material[1], h.material[2], h.material[3]};
    const auto flagger = wdl_context::make_position_flags(h.variant, m, h.half);
    wdl_context::Model model = wdl_context::model_shape(h.variant.info().board, m);
    std::vector<wdl_context::Counts> counts(threads, wdl_context::Counts(model.contexts()));
    std::atomic<bool> uncodable{false};
    for_each_block_of_pass(
        values, h.positions, h.positions_per_block, threads,
        [&](std::size_t w, std::uint64_t b, std::span<const std::uint8_t> v) {
            if (b % sample.stride != 0 || uncodable) return;
            const BlockSpan at = block_span(b, h.positions_per_block, h.positions);
            const auto f = block_flags(*flagger, h, b / sample.stride, at, held, true);
            for (std::size_t i = 0; i < at.n; ++i)
                if (!(f[i] & wdl_context::skipped) && v[i] > wdl_win) uncodable = true;
            if (!uncodable) wdl_context::count_block(model, v, f, counts[w]);
        });
    if (uncodable) return std::nullopt;
    for (unsigned t = 1; t < threads; ++t) counts[0].add(counts[t]);
    wdl_context::set_probabilities(model, counts[0]);
    return model;
}

// The context-coded file of header h (counts filled in): the model from one pass, the blocks
// from a second.
std::optional<TableHeader> write_context_table(const std::filesystem::path& path, TableHeader h,
                                               const WdlPasses& passes, const WriteOptions& opt) {
    const unsigned threads = std::max(1u, opt.threads);
    // The flags of every position (a byte each), or none: computed again per block below.
    std::vector<std::uint8_t> flags(opt.hold_flags ? h.positions : 0);
    const auto flagger = wdl_context::make_position_flags(
        h.variant, Material{h.material[0], h.material[1], h.material[2], h.material[3]}, h.half);
    const std::optional<wdl_context::Model> model =
        context_model(h, passes(), Sample{1, h.blocks}, flags, threads);
    // A position the probe reads has no value (a rule ended the game there): zstd only.
    if (!model) return std::nullopt;
    const std::vector<std::byte> model_bytes = wdl_context::serialize(*model);
    h.model_size = static_cast<std::uint32_t>(model_bytes.size());
    h.model_checksum = xxh64(model_bytes);
    h.table_offset = format::header_size;
    h.blocks_offset = h.table_offset + format::table_bytes(h.blocks) + h.model_size;
    encode_header(h);  // checks the text fields before any file is created

    TmpFile file(path);
    file.write_at(h.table_offset + format::table_bytes(h.blocks), model_bytes);
    const WdlValues values = passes();
    write_blocks(
        file, h, threads,
        [&](std::size_t, std::uint64_t b, EncodedBlock& out) {
            const BlockSpan at = block_span(b, h.positions_per_block, h.positions);
            const std::span<const std::uint8_t> v(out.bytes);
            const auto f = block_flags(*flagger, h, b, at, flags, false);
            out.plain.assign((at.n + 3) / 4, std::byte{0});
            for (std::size_t i = 0; i < at.n; ++i) {
                const unsigned x = (f[i] & wdl_context::skipped) ? wdl_unknown : v[i];
                out.plain[i / 4] |= static_cast<std::byte>(x << (2 * (i % 4)));
            }
            out.hash = xxh64(out.plain);
            wdl_context::encode_block(*model, v, f, out.compressed);
        },
        [&](std::uint64_t b, EncodedBlock& out) {
            const BlockSpan at = block_span(b, h.positions_per_block, h.positions);
            out.bytes.resize(at.n);
            values(at.first, out.bytes);
        });
    file.write_at(0, encode_header(h));
    file.commit(opt.durable);
    return h;
}

}  // namespace

std::optional<TableHeader> write_wdl_context_table(const std::filesystem::path& path,
                                                   const TableInfo& info,
                                                   std::span<const std::uint8_t> values, bool half,
                                                   const WriteOptions& opt) {
    return write_context_table(path, context_header(info, values.size(), values, half, opt),
                               wdl_passes_over(values), opt);
}

std::optional<TableHeader> write_wdl_context_table(const std::filesystem::path& path,
                                                   const TableInfo& info, std::uint64_t positions,
                                                   const WdlPasses& passes, bool half,
                                                   const WriteOptions& opt) {
    if (!opt.counts_from) throw Error("write_wdl_context_table: values in passes need counts_from");
    return write_context_table(path, context_header(info, positions, {}, half, opt), passes, opt);
}

std::optional<std::uint64_t> estimate_wdl_bytes(const TableInfo& info,
                                                std::span<const std::uint8_t> values, Codec codec,
                                                bool half, std::uint32_t stride,
                                                const WriteOptions& opt) {
    return estimate_wdl_bytes(info, values.size(), wdl_passes_over(values), codec, half, stride,
                              opt);
}

std::optional<std::uint64_t> estimate_wdl_bytes(const TableInfo& info, std::uint64_t positions,
                                                const WdlPasses& passes, Codec codec, bool half,
                                                std::uint32_t stride, const WriteOptions& opt) {
    if (stride == 0) throw Error("estimate_wdl_bytes: stride 0");
    const unsigned threads = std::max(1u, opt.threads);
    // No header is written: the win/draw/loss counts are not needed.
    const TableHeader no_counts;
    WriteOptions uncounted = opt;
    uncounted.counts_from = &no_counts;
    std::vector<std::uint64_t> bytes(threads, 0);
    if (codec == Codec::zstd) {
        const TableHeader h = start_header(info, Metric::wdl, format::wdl_positions_per_block,
                                           positions, std::span<const std::uint8_t>(), uncounted);
        const Sample sample{stride, h.blocks};
        std::vector<std::unique_ptr<Compressor>> comps;
        for (unsigned t = 0; t < threads; ++t)
            comps.push_back(std::make_unique<Compressor>(format::wdl_zstd_level));
        for_each_block_of_pass(
            passes(), h.positions, h.positions_per_block, threads,
            [&](std::size_t w, std::uint64_t b, std::span<const std::uint8_t> v) {
                if (b % stride != 0) return;
                std::vector<std::byte> plain, compressed;
                encode_plain(v, FillRule::previous, plain);
                comps[w]->compress(plain, compressed);
                bytes[w] += compressed.size();
            });
        return format::header_size + format::table_bytes(h.blocks) + sample.scale(sum(bytes));
    }
    const TableHeader h = context_header(info, positions, {}, half, uncounted);
    const Sample sample{stride, h.blocks};
    // The sampled blocks' flags, kept for the second pass or computed again there.
    std::vector<std::uint8_t> flags(opt.hold_flags ? sample.count() * h.positions_per_block : 0);
    const std::optional<wdl_context::Model> model =
        context_model(h, passes(), sample, flags, threads);
    if (!model) return std::nullopt;
    const auto flagger = wdl_context::make_position_flags(
        h.variant, Material{h.material[0], h.material[1], h.material[2], h.material[3]}, h.half);
    for_each_block_of_pass(
        passes(), h.positions, h.positions_per_block, threads,
        [&](std::size_t w, std::uint64_t b, std::span<const std::uint8_t> v) {
            if (b % stride != 0) return;
            const BlockSpan at = block_span(b, h.positions_per_block, h.positions);
            const auto f = block_flags(*flagger, h, b / stride, at, flags, false);
            std::vector<std::byte> compressed;
            wdl_context::encode_block(*model, v, f, compressed);
            bytes[w] += compressed.size();
        });
    return format::header_size + format::table_bytes(h.blocks) +
           wdl_context::serialize(*model).size() + sample.scale(sum(bytes));
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

TableHeader write_wdl_table(const std::filesystem::path& path, const TableInfo& info,
                            std::uint64_t positions, const WdlPasses& passes,
                            const WriteOptions& options) {
    if (!options.counts_from) throw Error("write_wdl_table: values in passes need counts_from");
    const WdlValues values = passes();
    return write_table(
        path, info, positions, std::span<const std::uint8_t>(),
        [](std::size_t, std::uint64_t, std::size_t, const EncodedBlock& block) {
            return std::span<const std::uint8_t>(block.bytes);
        },
        options, Metric::wdl,
        [&](std::uint64_t first, std::size_t n, EncodedBlock& block) {
            block.bytes.resize(n);
            values(first, block.bytes);
        });
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
