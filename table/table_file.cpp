#include "table/table_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <atomic>
#include <cerrno>
#include <cstring>

#include "index/class_index.hpp"
#include "rules/error.hpp"
#include "table/bytes.hpp"
#include "table/hash.hpp"

namespace damas {
namespace {

std::atomic<std::uint32_t> next_table_id{1};

// Per-thread reusable buffers for decompression.
struct Scratch {
    std::vector<std::byte> compressed;
    std::vector<std::byte> plain;
};

Scratch& scratch() {
    thread_local Scratch s;
    return s;
}

// Reads exactly out.size() bytes at offset; false on error or end of file (errno then 0).
bool pread_all(int fd, std::uint64_t offset, std::span<std::byte> out) {
    std::size_t done = 0;
    while (done < out.size()) {
        const ssize_t r =
            ::pread(fd, out.data() + done, out.size() - done, static_cast<off_t>(offset + done));
        if (r < 0 && errno == EINTR) continue;
        if (r == 0) errno = 0;
        if (r <= 0) return false;
        done += static_cast<std::size_t>(r);
    }
    return true;
}

}  // namespace

std::string TableIdentity::name() const {
    std::string s = variant.name();
    s += ' ';
    s += material.name();
    s += ' ';
    s += metric_name(metric);
    return s;
}

void check_identity(const TableHeader& h, const TableIdentity& expected, std::string_view what) {
    const auto& c = h.material;
    const TableIdentity held{h.variant, Material{c[0], c[1], c[2], c[3]}, h.metric};
    std::string why;
    if (!(held.variant == expected.variant) || held.material != expected.material ||
        held.metric != expected.metric) {
        why = "it holds the " + held.name() + " table";
    } else {
        const std::uint64_t size = table_positions(
            expected.metric, ClassIndex(expected.variant.info().board, expected.material).size());
        if (h.positions != size)
            why = "it has " + std::to_string(h.positions) + " positions, the class " +
                  std::to_string(size);
    }
    if (why.empty()) return;
    throw Error(std::string(what) + ": the header does not match the file's name (" + why +
                ", expected the " + expected.name() + " table)");
}

const char* read_status_name(ReadStatus s) {
    switch (s) {
        case ReadStatus::ok:
            return "ok";
        case ReadStatus::not_in_cache:
            return "not in cache";
        case ReadStatus::out_of_range:
            return "index out of range";
        case ReadStatus::io_error:
            return "read error";
        case ReadStatus::corrupt_block:
            return "corrupt block";
    }
    return "unknown status";
}

namespace {

FileStamp stamp_of(const struct stat& st) {
    return {static_cast<std::uint64_t>(st.st_dev), static_cast<std::uint64_t>(st.st_ino),
            static_cast<std::uint64_t>(st.st_size),
            static_cast<std::int64_t>(st.st_mtim.tv_sec) * 1'000'000'000 + st.st_mtim.tv_nsec};
}

}  // namespace

TableFile::TableFile(const std::filesystem::path& path) : path_(path), id_(next_table_id++) {
    fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd_ < 0) {
        const int e = errno;
        if (e == ENOENT) throw Error(path.string() + ": no such table file");
        throw TableIoError(path.string() + ": cannot open: " + std::strerror(e));
    }
    try {
        struct stat st {};
        if (::fstat(fd_, &st) != 0)
            throw TableIoError(path.string() + ": cannot stat: " + std::strerror(errno));
        if (!S_ISREG(st.st_mode)) throw Error(path.string() + ": not a regular file");
        stamp_ = stamp_of(st);
        const auto actual = static_cast<std::uint64_t>(st.st_size);
        if (actual < format::header_size)
            throw Error(path.string() + ": truncated (" + std::to_string(actual) +
                        " bytes, shorter than a table header)");
        HeaderBytes hb{};
        read_exact(0, hb, "header");
        header_ = decode_header(hb, path.string());
        if (actual != header_.file_size)
            throw Error(path.string() + ": " +
                        (actual < header_.file_size ? "truncated" : "too long") + " (" +
                        std::to_string(actual) + " bytes, the header says " +
                        std::to_string(header_.file_size) + ")");
        load_table();
    } catch (...) {
        ::close(fd_);
        throw;
    }
}

bool TableFile::replaced_on_disk() const noexcept {
    struct stat st {};
    if (::stat(path_.c_str(), &st) != 0) return true;
    return !(stamp_of(st) == stamp_);
}

TableFile::TableFile(const std::filesystem::path& path, const TableIdentity& expected)
    : TableFile(path) {
    check_identity(header_, expected, path.string());
}

TableFile::~TableFile() {
    if (fd_ >= 0) ::close(fd_);
}

void TableFile::read_exact(std::uint64_t offset, std::span<std::byte> out, const char* what) const {
    if (pread_all(fd_, offset, out)) return;
    if (errno == 0) throw Error(path_.string() + ": truncated (cannot read the " + what + ")");
    throw TableIoError(path_.string() + ": cannot read the " + what + ": " + std::strerror(errno));
}

void TableFile::load_table() {
    const std::uint64_t b = header_.blocks;
    std::vector<std::byte> raw(format::table_bytes(b));
    read_exact(header_.table_offset, raw, "offset table");
    if (xxh64(raw) != header_.table_checksum)
        throw Error(path_.string() + ": corrupt offset table (checksum mismatch)");
    offsets_.resize(b + 1);
    block_hashes_.resize(b);
    for (std::uint64_t i = 0; i <= b; ++i) offsets_[i] = le::load<std::uint64_t>(&raw[8 * i]);
    for (std::uint64_t i = 0; i < b; ++i)
        block_hashes_[i] = le::load<std::uint64_t>(&raw[8 * (b + 1 + i)]);
    if (offsets_[0] != header_.blocks_offset || offsets_[b] != header_.file_size)
        throw Error(path_.string() + ": corrupt offset table (bounds)");
    load_codec();
    for (std::uint64_t i = 0; i < b; ++i) {
        const std::uint64_t bound = codec_->max_encoded_bytes(positions_in(i));
        if (offsets_[i + 1] <= offsets_[i] || offsets_[i + 1] - offsets_[i] > bound)
            throw Error(path_.string() + ": corrupt offset table (block " + std::to_string(i) +
                        ")");
    }
}

void TableFile::load_codec() {
    const BlockCodec& codec = block_codec(header_.codec);  // decode_header checked the byte
    std::vector<std::byte> raw(header_.model_size);
    if (!raw.empty()) {
        read_exact(header_.table_offset + format::table_bytes(header_.blocks), raw, "model");
        if (xxh64(raw) != header_.model_checksum)
            throw Error(path_.string() + ": corrupt " + codec.name() +
                        " model (checksum mismatch)");
    }
    codec_ = codec.open(header_, raw, path_.string());
    if (codec.reads_wdl()) open_wdl_companion();
}

void TableFile::open_wdl_companion() {
    std::filesystem::path p = path_;
    p.replace_extension(".wdl");
    const Material m{header_.material[0], header_.material[1], header_.material[2],
                     header_.material[3]};
    const std::string what = path_.string() + " (" + block_codec(header_.codec).name() +
                             ": decoded with its class's wdl file)";
    // A file named .wdl is no mtc file's companion of its own (nor does opening it recurse).
    if (p == path_) throw Error(what + ": it is not named as an mtc file (.mtc)");
    if (!std::filesystem::exists(p)) throw Error(what + ": " + p.string() + " is missing");
    try {
        wdl_ = std::make_unique<const TableFile>(p, TableIdentity{header_.variant, m, Metric::wdl});
    } catch (const TableIoError&) {
        throw;
    } catch (const Error& e) {
        throw Error(what + ": " + e.what());
    }
}

ReadStatus TableFile::read_wdl(std::uint64_t first, std::span<std::uint8_t> out,
                               BlockCache* cache) const noexcept {
    if (header_.metric != Metric::wdl || first > header_.positions ||
        out.size() > header_.positions - first)
        return ReadStatus::out_of_range;
    if (!holds_values()) {  // the mirror layout tells no value
        std::fill(out.begin(), out.end(), wdl_unknown);
        return ReadStatus::ok;
    }
    // The last block decoded by this thread, of any file (by id).
    struct Kept {
        std::uint32_t table = 0;
        std::uint64_t block = UINT64_MAX;
        std::vector<std::byte> plain;
    };
    try {
        thread_local Kept kept;
        thread_local std::vector<std::byte> part;
        const std::uint64_t ppb = header_.positions_per_block;
        for (std::size_t i = 0; i < out.size();) {
            const std::uint64_t index = first + i, block = index / ppb;
            const std::uint64_t from = index - block * ppb;  // within the block
            const std::uint64_t to =
                std::min<std::uint64_t>((block + 1) * ppb, first + out.size()) - block * ppb;
            // The bytes of positions [from, to) of the block: bytes from / 4 on.
            const std::size_t first_byte = static_cast<std::size_t>(from / 4);
            const std::size_t bytes = static_cast<std::size_t>((to + 3) / 4) - first_byte;
            const std::byte* packed = nullptr;
            part.resize(bytes);
            if (cache && cache->try_get(BlockKey{id_, block}, first_byte, part)) {
                packed = part.data();
            } else {
                if (kept.table != id_ || kept.block != block) {
                    kept.block = UINT64_MAX;
                    kept.plain.resize(block_size(block));
                    const ReadStatus st = read_block(block, kept.plain);
                    if (st != ReadStatus::ok) return st;
                    kept.table = id_;
                    kept.block = block;
                }
                if (cache) cache->put(BlockKey{id_, block}, kept.plain);
                packed = kept.plain.data() + first_byte;
            }
            for (std::uint64_t j = from; j < to; ++j, ++i) {
                const std::uint64_t k = j - 4 * first_byte;
                out[i] = static_cast<std::uint8_t>(
                    (static_cast<unsigned>(packed[k / 4]) >> (2 * (k % 4))) & 3u);
            }
        }
        return ReadStatus::ok;
    } catch (...) {
        return ReadStatus::io_error;  // out of memory for the kept block
    }
}

std::uint64_t TableFile::positions_in(std::uint64_t block) const {
    const std::uint64_t ppb = header_.positions_per_block;
    return std::min(ppb, header_.positions - block * ppb);
}

std::size_t TableFile::block_size(std::uint64_t block) const {
    return format::block_bytes(header_.metric, positions_in(block));
}

ReadStatus TableFile::read_block(std::uint64_t block, std::span<std::byte> out) const noexcept {
    return read_block_with(block, out, nullptr);
}

ReadStatus TableFile::read_block_with(std::uint64_t block, std::span<std::byte> out,
                                      BlockCache* cache) const noexcept {
    if (block >= header_.blocks || out.size() != block_size(block)) return ReadStatus::out_of_range;
    try {
        const std::uint64_t first = block * header_.positions_per_block;
        const std::uint64_t n = positions_in(block);
        // The wdl values first: reading them uses this thread's scratch too.
        thread_local std::vector<std::uint8_t> wdl;
        if (wdl_) {
            wdl.resize(static_cast<std::size_t>(n));
            if (const ReadStatus st = wdl_->read_wdl(first, wdl, cache); st != ReadStatus::ok)
                return st;
        }
        Scratch& s = scratch();
        const std::uint64_t csize = offsets_[block + 1] - offsets_[block];
        if (s.compressed.size() < csize) s.compressed.resize(csize);
        const std::span<std::byte> comp(s.compressed.data(), csize);
        if (!pread_all(fd_, offsets_[block], comp)) return ReadStatus::io_error;
        const bool decoded = wdl_ ? codec_->decode_given_wdl(first, n, comp, wdl, out)
                                  : codec_->decode(first, n, comp, out);
        if (!decoded) return ReadStatus::corrupt_block;
        if (xxh64(out) != block_hashes_[block]) return ReadStatus::corrupt_block;
        return ReadStatus::ok;
    } catch (...) {
        return ReadStatus::io_error;  // out of memory for the scratch buffers
    }
}

std::uint16_t TableFile::extract(std::span<const std::byte> bytes, std::uint64_t within) const {
    if (header_.metric == Metric::wdl)
        return static_cast<std::uint16_t>((static_cast<unsigned>(bytes[0]) >> (2 * (within % 4))) &
                                          3u);
    return le::load<std::uint16_t>(bytes.data());
}

ReadResult TableFile::probe(std::uint64_t index, BlockCache& cache,
                            bool cache_only) const noexcept {
    if (index >= header_.positions || !holds_values()) return {ReadStatus::out_of_range, 0};
    const std::uint64_t block = index / header_.positions_per_block;
    const std::uint64_t within = index % header_.positions_per_block;
    const bool wdl = header_.metric == Metric::wdl;
    const std::size_t offset = static_cast<std::size_t>(wdl ? within / 4 : 2 * within);
    const std::size_t width = wdl ? 1 : 2;
    std::array<std::byte, 2> bytes{};
    const BlockKey key{id_, block};
    if (cache.try_get(key, offset, std::span(bytes).first(width)))
        return {ReadStatus::ok, extract(bytes, within)};
    if (cache_only) return {ReadStatus::not_in_cache, 0};
    try {
        Scratch& s = scratch();
        const std::size_t n = block_size(block);
        if (s.plain.size() < n) s.plain.resize(n);
        const std::span<std::byte> plain(s.plain.data(), n);
        const ReadStatus st = read_block_with(block, plain, &cache);
        if (st != ReadStatus::ok) return {st, 0};
        cache.put(key, plain);
        return {ReadStatus::ok, extract(plain.subspan(offset, width), within)};
    } catch (...) {
        return {ReadStatus::io_error, 0};
    }
}

ReadResult TableFile::value(std::uint64_t index, BlockCache& cache) const noexcept {
    return probe(index, cache, false);
}

ReadResult TableFile::try_value(std::uint64_t index, BlockCache& cache) const noexcept {
    return probe(index, cache, true);
}

void TableFile::read_all_blocks(void* out, std::size_t value_size) const {
    const std::size_t expected = header_.metric == Metric::wdl ? 1 : 2;
    if (value_size != expected)
        throw Error(path_.string() + ": read_all with the wrong value type for a " +
                    metric_name(header_.metric) + " table");
    if (!holds_values())
        throw Error(path_.string() +
                    ": holds no values (mirror layout: they are one ply away in the mirror class)");
    std::vector<std::byte> plain;
    const std::uint64_t ppb = header_.positions_per_block;
    for (std::uint64_t b = 0; b < header_.blocks; ++b) {
        plain.resize(block_size(b));
        const ReadStatus st = read_block(b, plain);
        if (st != ReadStatus::ok)
            throw Error(path_.string() + ": block " + std::to_string(b) + ": " +
                        read_status_name(st));
        const std::uint64_t first = b * ppb;
        const std::uint64_t n = std::min(ppb, header_.positions - first);
        if (header_.metric != Metric::wdl) {
            auto* o = static_cast<std::uint16_t*>(out) + first;
            for (std::uint64_t i = 0; i < n; ++i) o[i] = le::load<std::uint16_t>(&plain[2 * i]);
        } else {
            auto* o = static_cast<std::uint8_t*>(out) + first;
            for (std::uint64_t i = 0; i < n; ++i)
                o[i] = static_cast<std::uint8_t>(
                    (static_cast<unsigned>(plain[i / 4]) >> (2 * (i % 4))) & 3u);
        }
    }
}

void TableFile::read_all(std::span<std::uint8_t> out) const {
    if (out.size() != header_.positions) throw Error(path_.string() + ": read_all: wrong size");
    read_all_blocks(out.data(), 1);
}

void TableFile::read_all(std::span<std::uint16_t> out) const {
    if (out.size() != header_.positions) throw Error(path_.string() + ": read_all: wrong size");
    read_all_blocks(out.data(), 2);
}

void TableFile::verify() const {
    std::vector<std::byte> buf(1 << 20);
    const auto hash_range = [&](std::uint64_t from, std::uint64_t to) {
        Xxh64Stream h;
        while (from < to) {
            const std::size_t n =
                static_cast<std::size_t>(std::min<std::uint64_t>(buf.size(), to - from));
            read_exact(from, std::span(buf).first(n), "file");
            h.update(std::span(buf).first(n));
            from += n;
        }
        return h.digest();
    };
    const std::uint64_t model_offset = header_.table_offset + format::table_bytes(header_.blocks);
    if (hash_range(header_.table_offset, model_offset) != header_.table_checksum)
        throw Error(path_.string() + ": corrupt offset table (checksum mismatch)");
    if (header_.model_size != 0 &&
        hash_range(model_offset, header_.blocks_offset) != header_.model_checksum)
        throw Error(path_.string() + ": corrupt context model (checksum mismatch)");
    if (hash_range(header_.blocks_offset, header_.file_size) != header_.blocks_checksum)
        throw Error(path_.string() + ": corrupt data (checksum mismatch)");
}

std::vector<std::uint8_t> read_wdl_values(const TableFile& wdl, const TableFile& dtw,
                                          std::span<const std::uint16_t> dtw_values) {
    const TableHeader &w = wdl.header(), &d = dtw.header();
    if (w.metric != Metric::wdl || d.metric != Metric::dtw || !(w.variant == d.variant) ||
        w.material != d.material || w.positions != d.positions)
        throw Error(wdl.path().string() + " and " + dtw.path().string() +
                    " are not the wdl and dtw tables of one class");
    std::vector<std::uint8_t> values(w.positions);
    if (wdl.holds_values()) wdl.read_all(values);
    if (wdl.holds_values() && !wdl.half()) {
        for (std::uint8_t& v : values)
            if (v == wdl_unknown) v = wdl_draw;  // the context codec's skipped positions
        return values;
    }
    // Mirror layout: every value from the dtw's parity. Half layout: those of the odd
    // positions (3 in the file); the even ones stay the file's own, so that a check of the
    // values against their successors (verify --deep) reads them.
    std::vector<std::uint16_t> read;
    std::span<const std::uint16_t> plies = dtw_values;
    if (plies.empty()) {
        read.resize(d.positions);
        dtw.read_all(read);
        plies = read;
    }
    if (plies.size() != values.size())
        throw Error(dtw.path().string() + ": read_wdl_values: wrong number of dtw values");
    const bool mirror = !wdl.holds_values();
    for (std::size_t i = 0; i < values.size(); ++i) {
        if (!mirror && values[i] != wdl_unknown) continue;
        const std::uint8_t v = dtw_outcome(plies[i], w.variant.giveaway);
        values[i] = v == wdl_unknown ? wdl_draw : v;  // fill values may be anything
    }
    return values;
}

}  // namespace damas
