#include "gen/write/table_parts.hpp"

#include "gen/write/table_writing.hpp"
#include "table/table_file.hpp"

namespace damas {

using namespace writing;

namespace {

constexpr char part_magic[8] = {'D', 'A', 'M', 'A', 'S', 'P', 'R', 'T'};
constexpr std::uint32_t part_version = 2;
constexpr std::size_t part_header_checked = 88;  // the bytes the header's checksum covers
constexpr std::uint64_t part_table_offset = 128;

// The distance table's header as write_coded_table starts it (counts from options.counts_from,
// or none for a part), its codec and the encoders' settings.
struct DistanceTable {
    TableHeader header;
    std::unique_ptr<const TableCodec> codec;
};

// Where a table of header h has its offset table and its blocks (after its model).
void place_blocks(TableHeader& h) {
    h.table_offset = format::header_size;
    h.blocks_offset = h.table_offset + format::table_bytes(h.blocks) + h.model_size;
}

DistanceTable distance_table(const TableInfo& info, Metric metric, std::uint64_t positions,
                             const WriteOptions& opt) {
    if (!is_distance(metric)) throw Error("a table in parts: not a distance metric");
    const BlockCodec& codec = modelless_codec(opt, metric);
    const std::uint32_t ppb = codec.positions_per_block(metric, opt.positions_per_block);
    if (ppb % 4 != 0 || format::block_bytes(metric, ppb) > format::max_block_bytes)
        throw Error("invalid positions per block " + std::to_string(ppb));
    const TableHeader no_counts;
    WriteOptions counted = opt;
    if (!counted.counts_from) counted.counts_from = &no_counts;
    DistanceTable t;
    TableHeader& h = t.header;
    h = start_header(info, metric, ppb, positions, std::span<const std::uint16_t>(), counted);
    h.codec = codec.id();
    t.codec = table_codec(codec, h, nullptr, 1, 1, opt);
    if (!t.codec || !t.codec->model().empty())
        throw Error(std::string(codec.name()) +
                    " codec: a table with a model is not written in parts");
    h.model_size = 0;
    h.model_checksum = 0;
    place_blocks(h);
    return t;
}

// A part file's header, as written.
struct PartHeader {
    Metric metric = Metric::dtw;
    Codec codec = Codec::zstd;
    bool half = false;
    std::uint8_t mtc_fold = 0;
    std::uint32_t positions_per_block = 0;
    std::array<std::uint8_t, 4> material{};
    std::uint64_t positions = 0, first = 0, end = 0, blocks_offset = 0, file_size = 0;
    std::uint64_t table_checksum = 0, blocks_checksum = 0;
    std::uint64_t model_checksum = 0;  // the table's model, that its blocks are coded with
};

std::array<std::byte, part_table_offset> encode_part_header(const PartHeader& p) {
    std::array<std::byte, part_table_offset> b{};
    std::memcpy(b.data(), part_magic, sizeof part_magic);
    le::store<std::uint32_t>(&b[8], part_version);
    b[12] = static_cast<std::byte>(p.metric);
    b[13] = static_cast<std::byte>(p.codec);
    b[14] = static_cast<std::byte>(p.half ? 1 : 0);
    b[15] = static_cast<std::byte>(p.mtc_fold);
    le::store<std::uint32_t>(&b[16], p.positions_per_block);
    for (std::size_t i = 0; i < 4; ++i) b[20 + i] = static_cast<std::byte>(p.material[i]);
    const std::uint64_t fields[] = {p.positions,       p.first,         p.end,
                                    p.blocks_offset,   p.file_size,     p.table_checksum,
                                    p.blocks_checksum, p.model_checksum};
    for (std::size_t i = 0; i < std::size(fields); ++i)
        le::store<std::uint64_t>(&b[24 + 8 * i], fields[i]);
    le::store<std::uint64_t>(&b[part_header_checked],
                             xxh64(std::span<const std::byte>(b.data(), part_header_checked)));
    return b;
}

// The part's header the table expects for blocks `range` (its offsets and checksums aside).
PartHeader expected_part(const TableHeader& h, BlockRange range) {
    PartHeader p;
    p.metric = h.metric;
    p.codec = h.codec;
    p.half = h.half;
    p.model_checksum = h.model_checksum;
    p.mtc_fold = h.mtc_fold;
    p.positions_per_block = h.positions_per_block;
    p.material = h.material;
    p.positions = h.positions;
    p.first = range.first;
    p.end = range.end;
    p.blocks_offset = part_table_offset + format::table_bytes(range.end - range.first);
    return p;
}

// A part file open for reading: its header and offset table checked against `expected`.
class PartReader {
  public:
    PartReader(const std::filesystem::path& path, const PartHeader& expected) : path_(path) {
        fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
        if (fd_ < 0) fail("cannot open: " + std::string(std::strerror(errno)));
        std::array<std::byte, part_table_offset> b{};
        read_at(0, b);
        if (std::memcmp(b.data(), part_magic, sizeof part_magic) != 0 ||
            le::load<std::uint32_t>(&b[8]) != part_version)
            fail("not a table part of this version");
        if (le::load<std::uint64_t>(&b[part_header_checked]) !=
            xxh64(std::span<const std::byte>(b.data(), part_header_checked)))
            fail("damaged header");
        header_ = expected;
        header_.file_size = le::load<std::uint64_t>(&b[56]);
        header_.table_checksum = le::load<std::uint64_t>(&b[64]);
        header_.blocks_checksum = le::load<std::uint64_t>(&b[72]);
        if (encode_part_header(header_) != b) fail("of another table, codec or range of blocks");
        const std::uint64_t n = expected.end - expected.first;
        table_.resize(format::table_bytes(n));
        read_at(part_table_offset, table_);
        if (xxh64(table_) != header_.table_checksum) fail("damaged offset table");
        std::uint64_t at = header_.blocks_offset;
        for (std::uint64_t i = 0; i <= n; ++i) {
            const std::uint64_t off = le::load<std::uint64_t>(&table_[8 * i]);
            if (off < at) fail("damaged offset table");
            at = off;
        }
        if (at != header_.file_size) fail("damaged offset table");
        struct stat st {};
        if (::fstat(fd_, &st) != 0 || static_cast<std::uint64_t>(st.st_size) != at)
            fail("truncated");
    }
    PartReader(const PartReader&) = delete;
    PartReader& operator=(const PartReader&) = delete;
    ~PartReader() { ::close(fd_); }

    const PartHeader& header() const { return header_; }
    // Block i's offset in the part file (i = its blocks: the end) and hash.
    std::uint64_t offset(std::uint64_t i) const { return le::load<std::uint64_t>(&table_[8 * i]); }
    std::uint64_t hash(std::uint64_t i) const {
        return le::load<std::uint64_t>(&table_[8 * (header_.end - header_.first + 1 + i)]);
    }
    void read_at(std::uint64_t offset, std::span<std::byte> out) const {
        std::size_t done = 0;
        while (done < out.size()) {
            const ssize_t r = ::pread(fd_, out.data() + done, out.size() - done,
                                      static_cast<off_t>(offset + done));
            if (r < 0 && errno == EINTR) continue;
            if (r < 0) fail("read failed: " + std::string(std::strerror(errno)));
            if (r == 0) fail("truncated");
            done += static_cast<std::size_t>(r);
        }
    }
    [[noreturn]] void fail(const std::string& what) const {
        throw Error(path_.string() + ": " + what);
    }

  private:
    std::filesystem::path path_;
    int fd_ = -1;
    PartHeader header_;
    std::vector<std::byte> table_;
};

// The end block a part file's header says (PartReader checks it with the rest).
std::uint64_t part_end(const std::filesystem::path& path) {
    std::array<std::byte, part_table_offset> b{};
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) throw Error(path.string() + ": cannot open: " + std::strerror(errno));
    const ssize_t r = ::pread(fd, b.data(), b.size(), 0);
    ::close(fd);
    if (r != static_cast<ssize_t>(b.size())) throw Error(path.string() + ": truncated");
    return le::load<std::uint64_t>(&b[40]);
}

// Encodes blocks `range` of the table of header h (offsets aside) into the part file `part`:
// encode(worker, block, out) codes block `block` of the table, produce(block, out) gives its
// values first, in block order (write_blocks').
template <class Encode, class Produce>
void write_part(const std::filesystem::path& part, const TableHeader& h, BlockRange range,
                unsigned threads, bool durable, const Encode& encode, const Produce& produce) {
    if (range.first >= range.end || range.end > h.blocks)
        throw Error("a table part: blocks " + std::to_string(range.first) + " to " +
                    std::to_string(range.end) + " of " + std::to_string(h.blocks));
    // The part's frame: its blocks, its offset table after its own header.
    TableHeader frame = h;
    frame.blocks = range.end - range.first;
    frame.table_offset = part_table_offset;
    frame.blocks_offset = part_table_offset + format::table_bytes(frame.blocks);
    TmpFile file(part);
    write_blocks(
        file, frame, threads,
        [&](std::size_t w, std::uint64_t b, EncodedBlock& out) { encode(w, range.first + b, out); },
        [&](std::uint64_t b, EncodedBlock& out) { produce(range.first + b, out); });
    PartHeader p = expected_part(h, range);
    p.file_size = frame.file_size;
    p.table_checksum = frame.table_checksum;
    p.blocks_checksum = frame.blocks_checksum;
    file.write_at(0, encode_part_header(p));
    file.commit(durable);
}

bool part_complete(const std::filesystem::path& part, const TableHeader& h, BlockRange range) {
    if (!std::filesystem::exists(part)) return false;
    try {
        PartReader(part, expected_part(h, range));
        return true;
    } catch (const Error&) {
        return false;
    }
}

// The table of header h (its counts, codec and model's size and checksum; offsets aside) at
// `table` from its parts: its model, the offset table from the parts' and their blocks' bytes.
TableHeader assemble_table(const std::filesystem::path& table, TableHeader h,
                           std::span<const std::byte> model,
                           std::span<const std::filesystem::path> parts, bool durable) {
    place_blocks(h);
    encode_header(h);  // checks the text fields before any file is created
    std::vector<std::byte> offsets(format::table_bytes(h.blocks));
    Xxh64Stream blocks_hash;
    std::uint64_t pos = h.blocks_offset;
    std::uint64_t next = 0;  // the first block not assembled yet
    std::vector<std::byte> buffer(std::size_t{8} << 20);
    TmpFile file(table);
    if (!model.empty()) file.write_at(h.table_offset + format::table_bytes(h.blocks), model);
    for (const std::filesystem::path& path : parts) {
        // The part's range: from the block the part before ended at, to the end it says.
        const BlockRange range{next, part_end(path)};
        if (range.end <= next || range.end > h.blocks)
            throw Error(path.string() + ": not the part after block " + std::to_string(next) +
                        " of " + std::to_string(h.blocks));
        {
            const PartReader part(path, expected_part(h, range));
            const std::uint64_t n = range.end - range.first;
            for (std::uint64_t i = 0; i < n; ++i) {
                le::store<std::uint64_t>(&offsets[8 * (range.first + i)],
                                         pos + part.offset(i) - part.header().blocks_offset);
                le::store<std::uint64_t>(&offsets[8 * (h.blocks + 1 + range.first + i)],
                                         part.hash(i));
            }
            Xxh64Stream part_hash;
            const std::uint64_t from = part.header().blocks_offset, to = part.header().file_size;
            for (std::uint64_t at = from; at < to;) {
                const std::span<std::byte> chunk(
                    buffer.data(),
                    static_cast<std::size_t>(std::min<std::uint64_t>(buffer.size(), to - at)));
                part.read_at(at, chunk);
                part_hash.update(chunk);
                blocks_hash.update(chunk);
                file.write_at(pos + (at - from), chunk);
                at += chunk.size();
            }
            if (part_hash.digest() != part.header().blocks_checksum) {
                std::error_code ec;
                std::filesystem::remove(path, ec);
                throw Error(path.string() +
                            ": damaged blocks (removed; run again to write the part again)");
            }
            pos += to - from;
        }
        next = range.end;
    }
    if (next != h.blocks)
        throw Error(table.string() + ": its parts cover " + std::to_string(next) + " of its " +
                    std::to_string(h.blocks) + " blocks");
    le::store<std::uint64_t>(&offsets[8 * h.blocks], pos);
    h.file_size = pos;
    h.table_checksum = xxh64(offsets);
    h.blocks_checksum = blocks_hash.digest();
    file.write_at(h.table_offset, offsets);
    file.write_at(0, encode_header(h));
    file.commit(durable);
    return h;
}

}  // namespace

BlockRange part_blocks(std::uint64_t blocks, int part, int parts) {
    if (parts < 1 || part < 0 || part >= parts || static_cast<std::uint64_t>(parts) > blocks)
        throw Error("part " + std::to_string(part) + " of " + std::to_string(parts) + " of " +
                    std::to_string(blocks) + " blocks");
    const auto k = static_cast<std::uint64_t>(parts);
    const auto r = static_cast<std::uint64_t>(part);
    return {blocks * r / k, blocks * (r + 1) / k};
}

std::uint64_t distance_table_blocks(Metric metric, std::uint64_t positions,
                                    const WriteOptions& options) {
    const std::uint32_t ppb =
        modelless_codec(options, metric).positions_per_block(metric, options.positions_per_block);
    return (positions + ppb - 1) / ppb;
}

void write_distance_part(const std::filesystem::path& part, const std::filesystem::path& table,
                         const TableInfo& info, Metric metric, std::uint64_t positions,
                         BlockRange range, const DtwValues& values, const WriteOptions& options) {
    WriteOptions opt = options;
    // As write_distance_table: an mtc codec that reads the class's wdl file is given its values
    // (read_wdl_beside).
    const std::unique_ptr<const TableFile> wdl_file = read_wdl_beside(table, info, metric, opt);
    const DistanceTable t = distance_table(info, metric, positions, opt);
    const std::uint32_t ppb = t.header.positions_per_block;
    const unsigned threads = std::max(1u, opt.threads);
    std::vector<std::unique_ptr<BlockEncoder>> encoders;
    for (unsigned w = 0; w < threads; ++w)
        encoders.push_back(t.codec->encoder({.fill = opt.fill,
                                             .zstd_level = opt.zstd_level,
                                             .wdl = opt.mtc_wdl,
                                             .wdl_of_values = opt.mtc_wdl_of_values}));
    write_part(
        part, t.header, range, threads, opt.durable,
        [&](std::size_t w, std::uint64_t b, EncodedBlock& out) {
            const BlockSpan at = block_span(b, ppb, positions);
            encoders[w]->encode(at.first, std::span<const std::uint16_t>(out.values), out.plain,
                                out.compressed);
            out.hash = xxh64(out.plain);
        },
        [&](std::uint64_t b, EncodedBlock& out) {
            const BlockSpan at = block_span(b, ppb, positions);
            out.values.resize(at.n);
            values(at.first, out.values);
            fold_mtc_values(metric, opt, out.values);
        });
}

bool distance_part_complete(const std::filesystem::path& part, const TableInfo& info, Metric metric,
                            std::uint64_t positions, BlockRange range,
                            const WriteOptions& options) {
    if (!std::filesystem::exists(part)) return false;
    try {
        return part_complete(part, distance_table(info, metric, positions, options).header, range);
    } catch (const Error&) {
        return false;
    }
}

TableHeader assemble_distance_table(const std::filesystem::path& table, const TableInfo& info,
                                    Metric metric, std::uint64_t positions,
                                    std::span<const std::filesystem::path> parts,
                                    const WriteOptions& options) {
    if (!options.counts_from) throw Error("assemble_distance_table: needs counts_from");
    return assemble_table(table, distance_table(info, metric, positions, options).header, {}, parts,
                          options.durable);
}

TableHeader wdl_table_header(const TableInfo& info, std::uint64_t positions, Codec c, bool half,
                             std::span<const std::byte> model, const TableHeader& counts) {
    const BlockCodec& codec = block_codec(c);
    if (half && !codec.codes_half())
        throw Error(std::string(codec.name()) + " codec: it has no half layout");
    WriteOptions counted;
    counted.counts_from = &counts;
    TableHeader h = start_header(info, Metric::wdl, codec.positions_per_block(Metric::wdl, 0),
                                 positions, std::span<const std::uint8_t>(), counted);
    h.codec = codec.id();
    h.half = half;
    h.model_size = static_cast<std::uint32_t>(model.size());
    h.model_checksum = model.empty() ? 0 : xxh64(model);
    place_blocks(h);
    return h;
}

std::unique_ptr<const TableCodec> open_wdl_codec(const TableHeader& table,
                                                 std::span<const std::byte> model) {
    if (table.metric != Metric::wdl || (model.empty() ? 0 : xxh64(model)) != table.model_checksum ||
        model.size() != table.model_size)
        throw Error("a wdl table in parts: its model is not the header's");
    return block_codec(table.codec).open(table, model, "a wdl table in parts");
}

void write_wdl_part(const std::filesystem::path& part, const TableHeader& table,
                    const TableCodec& codec, BlockRange range, const WdlValues& values,
                    const WriteOptions& options) {
    const std::uint32_t ppb = table.positions_per_block;
    const unsigned threads = std::max(1u, options.threads);
    std::vector<std::unique_ptr<BlockEncoder>> encoders;
    for (unsigned w = 0; w < threads; ++w)
        encoders.push_back(
            codec.encoder({.fill = options.fill, .zstd_level = options.zstd_level, .wdl = {}}));
    write_part(
        part, table, range, threads, options.durable,
        [&](std::size_t w, std::uint64_t b, EncodedBlock& out) {
            const BlockSpan at = block_span(b, ppb, table.positions);
            encoders[w]->encode(at.first, std::span<const std::uint8_t>(out.bytes), out.plain,
                                out.compressed);
            out.hash = xxh64(out.plain);
        },
        [&](std::uint64_t b, EncodedBlock& out) {
            const BlockSpan at = block_span(b, ppb, table.positions);
            out.bytes.resize(at.n);
            values(at.first, out.bytes);
        });
}

bool wdl_part_complete(const std::filesystem::path& part, const TableHeader& table,
                       BlockRange range) {
    return part_complete(part, table, range);
}

TableHeader assemble_wdl_table(const std::filesystem::path& table, const TableHeader& header,
                               std::span<const std::byte> model,
                               std::span<const std::filesystem::path> parts, bool durable) {
    if (model.size() != header.model_size)
        throw Error("assemble_wdl_table: a model of another size than the header's");
    return assemble_table(table, header, model, parts, durable);
}

}  // namespace damas
