#include "gen/write/writer.hpp"

#include "gen/write/table_writing.hpp"
#include "table/mtc_fold.hpp"
#include "table/table_file.hpp"

namespace damas {

using namespace writing;

bool table_complete(const std::filesystem::path& path, const TableInfo& info, Metric metric,
                    std::uint64_t positions) {
    if (!std::filesystem::exists(path)) return false;
    try {
        const auto& c = info.material;
        const TableFile file(path, {info.variant, Material{c[0], c[1], c[2], c[3]}, metric});
        if (file.size() != positions) return false;
        file.verify();
    } catch (const Error&) {
        return false;
    }
    return true;
}

TableHeader write_wdl_table(const std::filesystem::path& path, const TableInfo& info,
                            std::span<const std::uint8_t> values, const WriteOptions& options) {
    return write_table(path, info, values, options, Metric::wdl);
}

TableHeader write_mirror_table(const std::filesystem::path& path, const TableInfo& info,
                               Metric metric, const TableHeader& counts, bool durable) {
    TableHeader h;
    h.variant = info.variant;
    h.material = info.material;
    h.metric = metric;
    h.generator = info.generator;
    h.layout = Layout::mirror;
    h.positions_per_block = format::default_positions_per_block(metric);
    h.positions = counts.positions;
    h.blocks = 0;
    h.wins = counts.wins, h.draws = counts.draws;
    h.losses = counts.losses, h.unknown = counts.unknown;
    h.table_offset = format::header_size;
    h.blocks_offset = h.table_offset + format::table_bytes(0);
    h.file_size = h.blocks_offset;
    std::vector<std::byte> table(format::table_bytes(0));
    le::store<std::uint64_t>(table.data(), h.file_size);  // off[0] = off[B] = the file's end
    h.table_checksum = xxh64(table);
    h.blocks_checksum = Xxh64Stream().digest();
    TmpFile file(path);
    file.write_at(h.table_offset, table);
    file.write_at(0, encode_header(h));
    file.commit(durable);
    return h;
}

TableHeader write_dtw_table(const std::filesystem::path& path, const TableInfo& info,
                            std::span<const std::uint16_t> values, const WriteOptions& options) {
    return write_table(path, info, values, options, Metric::dtw);
}

TableHeader write_dtw_table(const std::filesystem::path& path, const TableInfo& info,
                            std::uint64_t positions, const DtwValues& values,
                            const WriteOptions& options) {
    return write_distance_table(path, info, Metric::dtw, positions, values, options);
}

std::unique_ptr<const TableFile> read_wdl_beside(const std::filesystem::path& table,
                                                 const TableInfo& info, Metric metric,
                                                 WriteOptions& options) {
    if (metric != Metric::mtc || !block_codec(options.mtc_codec).reads_wdl() || options.mtc_wdl ||
        options.mtc_wdl_of_values)
        return nullptr;
    std::filesystem::path wdl_path = table;
    wdl_path.replace_extension(".wdl");
    const auto& c = info.material;
    auto wdl_file = std::make_unique<const TableFile>(
        wdl_path, TableIdentity{info.variant, Material{c[0], c[1], c[2], c[3]}, Metric::wdl});
    if (wdl_file->header().layout == Layout::stored && !wdl_file->header().half) {
        options.mtc_wdl_of_values = true;
        return nullptr;
    }
    options.mtc_wdl = [f = wdl_file.get()](std::uint64_t first, std::span<std::uint8_t> out) {
        if (const ReadStatus st = f->read_wdl(first, out); st != ReadStatus::ok)
            throw Error(f->path().string() + ": " + read_status_name(st));
    };
    return wdl_file;
}

void fold_mtc_values(Metric metric, const WriteOptions& options, std::span<std::uint16_t> values) {
    if (metric != Metric::mtc || options.mtc_fold == 0) return;
    for (std::uint16_t& v : values) v = fold_mtc(v, options.mtc_fold);
}

TableHeader write_distance_table(const std::filesystem::path& path, const TableInfo& info,
                                 Metric metric, std::uint64_t positions, const DtwValues& values,
                                 const WriteOptions& options) {
    if (!is_distance(metric)) throw Error("write_distance_table: not a distance metric");
    if (!options.counts_from) throw Error("write_dtw_table: values by block need counts_from");
    // An mtc codec that reads the class's wdl file (mtc-wdl) is given its values as its readers
    // will read them (read_wdl_beside), unless the caller gives them.
    WriteOptions o = options;
    const std::unique_ptr<const TableFile> wdl_file = read_wdl_beside(path, info, metric, o);
    return write_table(
        path, info, positions, std::span<const std::uint16_t>(),
        [](std::size_t, std::uint64_t, std::size_t, const EncodedBlock& block) {
            return std::span<const std::uint16_t>(block.values);
        },
        o, metric,
        [&](std::uint64_t first, std::size_t n, EncodedBlock& block) {
            block.values.resize(n);
            values(first, block.values);
            fold_mtc_values(metric, o, block.values);
        });
}

TableHeader write_dtr_table(const std::filesystem::path& path, const TableInfo& info, Metric metric,
                            std::span<const std::uint16_t> values, const WriteOptions& options) {
    if (!is_dtr(metric)) throw Error("write_dtr_table: not a dtr metric");
    return write_table(path, info, values, options, metric);
}

}  // namespace damas
