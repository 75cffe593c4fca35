#include "gen/units/chunked_file.hpp"

#include <fcntl.h>
#include <unistd.h>
#include <zstd.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cerrno>
#include <cstring>
#include <memory>
#include <mutex>

#include <tbb/parallel_for.h>

#include "rules/error.hpp"
#include "table/hash.hpp"

namespace damas::chunked_file {
namespace {

static_assert(std::endian::native == std::endian::little, "unit files are little-endian");

constexpr char magic[8] = {'D', 'A', 'M', 'A', 'S', 'U', 'N', 'I'};
constexpr std::uint32_t version = 2;
constexpr std::size_t header_size = 88, label_size = 32, entry_size = 40;

// "english 2211", and for a part of a slice "english 2211 1-3".
std::string label(const Variant& v, Material m, const std::string& part = {}) {
    return v.name() + " " + m.name() + (part.empty() ? "" : " " + part);
}

struct Header {
    unsigned char bytes[header_size] = {};
};

void put64(unsigned char* at, std::uint64_t x) {
    std::memcpy(at, &x, 8);
}
std::uint64_t get64(const unsigned char* at) {
    std::uint64_t x;
    std::memcpy(&x, at, 8);
    return x;
}

Header make_header(const Variant& v, Material m, int slice, std::uint64_t positions,
                   std::uint64_t chunks, std::uint64_t table_offset, std::uint64_t table_hash,
                   const std::string& part = {}) {
    Header h;
    std::memcpy(h.bytes, magic, 8);
    const std::uint32_t ver = version, sl = static_cast<std::uint32_t>(slice);
    std::memcpy(h.bytes + 8, &ver, 4);
    std::memcpy(h.bytes + 12, &sl, 4);
    put64(h.bytes + 16, positions);
    const std::string name = label(v, m, part);
    std::memcpy(h.bytes + 24, name.data(), std::min(name.size(), label_size));
    put64(h.bytes + 56, chunks);
    put64(h.bytes + 64, table_offset);
    put64(h.bytes + 72, table_hash);
    put64(h.bytes + 80, xxh64(std::as_bytes(std::span(h.bytes, 80))));
    return h;
}

// A chunk's values as stored: outcomes, then capture flags (their bytes, one after the other).
std::array<std::span<const std::byte>, 2> stored_parts(std::span<const std::uint16_t> outcomes,
                                                       std::span<const std::uint8_t> capture) {
    return {std::as_bytes(outcomes), std::as_bytes(capture)};
}

// A frame of the stored bytes `parts` (one after the other) compressed, handed to `sink` a
// piece at a time as zstd writes it; returns their xxh64. Streamed from the values where they are:
// a copy of them in stored order and a frame buffer of ZSTD_compressBound filled with zeros took 6
// bytes a position of the chunk beside them (a kings-only slice is a chunk a class: english
// 0109 + 0901 peaked 5.3 GiB above its plan while it wrote its unit).
template <class Sink>
std::uint64_t compress_parts(const std::filesystem::path& path,
                             const std::array<std::span<const std::byte>, 2>& parts, Sink&& sink) {
    const auto check = [&](std::size_t r) {
        if (ZSTD_isError(r)) throw Error(path.string() + ": zstd: " + ZSTD_getErrorName(r));
    };
    const std::unique_ptr<ZSTD_CCtx, decltype(&ZSTD_freeCCtx)> cctx(ZSTD_createCCtx(),
                                                                    ZSTD_freeCCtx);
    if (!cctx) throw Error(path.string() + ": zstd: out of memory");
    check(ZSTD_CCtx_setParameter(cctx.get(), ZSTD_c_compressionLevel, 1));
    check(ZSTD_CCtx_setPledgedSrcSize(cctx.get(), parts[0].size() + parts[1].size()));
    std::vector<std::byte> piece(ZSTD_CStreamOutSize());
    Xxh64Stream digest;
    for (std::size_t p = 0; p < parts.size(); ++p) {
        digest.update(parts[p]);
        ZSTD_inBuffer in{parts[p].data(), parts[p].size(), 0};
        const ZSTD_EndDirective end = p + 1 == parts.size() ? ZSTD_e_end : ZSTD_e_continue;
        for (bool done = false; !done;) {
            ZSTD_outBuffer out{piece.data(), piece.size(), 0};
            const std::size_t left = ZSTD_compressStream2(cctx.get(), &out, &in, end);
            check(left);
            sink(std::span<const std::byte>(piece.data(), out.pos));
            done = end == ZSTD_e_end ? left == 0 : in.pos == in.size;
        }
    }
    return digest.digest();
}

}  // namespace

Fd::Fd(const std::filesystem::path& path, int flags) : path_(path) {
    fd_ = ::open(path.c_str(), flags | O_CLOEXEC, 0644);
}

Fd::~Fd() {
    if (fd_ >= 0) ::close(fd_);
}

void Fd::fail(const std::string& what) const {
    throw Error(path_.string() + ": " + what + ": " + std::strerror(errno));
}

Writer::Writer(const std::filesystem::path& path, std::uint64_t chunks)
    : path_(path), tmp_(path.string() + ".tmp"), end_(header_size) {
    std::filesystem::create_directories(path.parent_path());
    fd_ = std::make_unique<Fd>(tmp_, O_WRONLY | O_CREAT | O_TRUNC);
    if (!*fd_) fd_->fail("cannot create");
    table_.resize(chunks);
}

Writer::~Writer() {
    if (fd_) {
        fd_.reset();
        std::error_code ec;
        std::filesystem::remove(tmp_, ec);
    }
}

void Writer::put(std::size_t k, std::uint64_t first, std::uint64_t positions,
                 std::span<const std::byte> compressed, std::uint64_t hash) {
    table_[k] = {first, positions, end_, compressed.size(), hash};
    pwrite_all(compressed.data(), compressed.size(), end_);
    end_ += compressed.size();
}

void Writer::put_streamed(std::size_t k, std::uint64_t first,
                          std::span<const std::uint16_t> outcomes,
                          std::span<const std::uint8_t> capture) {
    const std::uint64_t offset = end_;
    const std::uint64_t hash = compress_parts(path_, stored_parts(outcomes, capture),
                                              [&](std::span<const std::byte> piece) {
                                                  pwrite_all(piece.data(), piece.size(), end_);
                                                  end_ += piece.size();
                                              });
    table_[k] = {first, outcomes.size(), offset, end_ - offset, hash};
}

void Writer::close_part(const Variant& v, Material m, int slice, const std::string& part) {
    std::erase_if(table_, [](const Chunk& c) { return c.positions == 0; });
    std::uint64_t positions = 0;
    for (const Chunk& c : table_) positions += c.positions;
    close(v, m, slice, positions, part);
}

void Writer::close(const Variant& v, Material m, int slice, std::uint64_t positions,
                   const std::string& part) {
    std::vector<unsigned char> table(table_.size() * entry_size);
    for (std::size_t k = 0; k < table_.size(); ++k) {
        const Chunk& c = table_[k];
        unsigned char* at = table.data() + k * entry_size;
        put64(at, c.first), put64(at + 8, c.positions), put64(at + 16, c.offset);
        put64(at + 24, c.bytes), put64(at + 32, c.hash);
    }
    pwrite_all(table.data(), table.size(), end_);
    const Header h = make_header(v, m, slice, positions, table_.size(), end_,
                                 xxh64(std::as_bytes(std::span(table))), part);
    pwrite_all(h.bytes, header_size, 0);
    fd_.reset();
    if (::rename(tmp_.c_str(), path_.c_str()) != 0)
        throw Error(path_.string() + ": cannot rename: " + std::strerror(errno));
}

void Writer::pwrite_all(const void* data, std::size_t n, std::uint64_t at) {
    const char* p = static_cast<const char*>(data);
    while (n > 0) {
        const ssize_t w = ::pwrite(fd_->get(), p, n, static_cast<off_t>(at));
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) fd_->fail("cannot write");
        p += w, n -= static_cast<std::size_t>(w), at += static_cast<std::uint64_t>(w);
    }
}

std::vector<std::byte> compress(const std::filesystem::path& path,
                                std::span<const std::uint16_t> outcomes,
                                std::span<const std::uint8_t> capture, std::uint64_t& hash) {
    std::vector<std::byte> packed;
    hash = compress_parts(path, stored_parts(outcomes, capture),
                          [&](std::span<const std::byte> piece) {
                              packed.insert(packed.end(), piece.begin(), piece.end());
                          });
    return packed;
}

void put_chunks(Writer& out, const std::filesystem::path& path, const std::vector<Chunk>& chunks,
                bool with_capture, const ValuesFn& values, std::size_t first_slot) {
    std::mutex writing;
    tbb::parallel_for(std::size_t{0}, chunks.size(), [&](std::size_t k) {
        const Chunk& c = chunks[k];
        // A chunk's own buffers, freed with it (kept by each thread, those of one large chunk
        // stayed resident for the rest of the run).
        std::vector<std::uint16_t> outcomes(c.positions);
        std::vector<std::uint8_t> capture(with_capture ? c.positions : 0);
        values(c.first, outcomes, capture);
        std::uint64_t hash = 0;
        const std::vector<std::byte> packed = compress(path, outcomes, capture, hash);
        const std::lock_guard lock(writing);
        out.put(first_slot + k, c.first, c.positions, packed, hash);
    });
}

void put_held_chunks(Writer& out, const std::filesystem::path& path,
                     const std::vector<Chunk>& chunks, std::span<const std::uint16_t> outcomes,
                     std::span<const std::uint8_t> capture, std::uint64_t large) {
    std::mutex writing;
    tbb::parallel_for(std::size_t{0}, chunks.size(), [&](std::size_t k) {
        const Chunk& c = chunks[k];
        if (c.positions > large) return;
        std::uint64_t hash = 0;
        const std::vector<std::byte> packed = compress(path, outcomes.subspan(c.first, c.positions),
                                                       capture.subspan(c.first, c.positions), hash);
        const std::lock_guard lock(writing);
        out.put(k, c.first, c.positions, packed, hash);
    });
    for (std::size_t k = 0; k < chunks.size(); ++k)
        if (const Chunk& c = chunks[k]; c.positions > large)
            out.put_streamed(k, c.first, outcomes.subspan(c.first, c.positions),
                             capture.subspan(c.first, c.positions));
}

namespace {

// The chunk table of the file at fd: its header checked against v, m and slice, and its
// positions against `positions` (a whole slice's) or, for a part, at most `slice_positions`.
// Chunks in order; a whole slice's cover it, a part's do not overlap and stay within the slice.
std::optional<std::vector<Chunk>> table_of(int fd, const Variant& v, Material m, int slice,
                                           std::uint64_t positions, const std::string* part,
                                           std::uint64_t slice_positions) {
    Header h;
    if (::pread(fd, h.bytes, header_size, 0) != static_cast<ssize_t>(header_size))
        return std::nullopt;
    if (part) positions = get64(h.bytes + 16);
    const std::uint64_t count = get64(h.bytes + 56), table_offset = get64(h.bytes + 64);
    const Header expected = make_header(v, m, slice, positions, count, table_offset,
                                        get64(h.bytes + 72), part ? *part : std::string());
    if (std::memcmp(expected.bytes, h.bytes, header_size) != 0 || count > positions ||
        (count == 0 && !part) || positions > slice_positions)
        return std::nullopt;
    std::vector<unsigned char> table(count * entry_size);
    if (::pread(fd, table.data(), table.size(), static_cast<off_t>(table_offset)) !=
            static_cast<ssize_t>(table.size()) ||
        xxh64(std::as_bytes(std::span(table))) != get64(h.bytes + 72))
        return std::nullopt;
    std::vector<Chunk> chunks;
    std::uint64_t next = 0, held = 0;
    for (std::size_t k = 0; k < count; ++k) {
        const unsigned char* at = table.data() + k * entry_size;
        const Chunk c{get64(at), get64(at + 8), get64(at + 16), get64(at + 24), get64(at + 32)};
        if ((part ? c.first < next : c.first != next) || c.positions == 0 ||
            c.first >= slice_positions || c.positions > slice_positions - c.first)
            return std::nullopt;
        next = c.first + c.positions;
        held += c.positions;
        chunks.push_back(c);
    }
    if (held != positions) return std::nullopt;
    return chunks;
}

}  // namespace

std::optional<std::vector<Chunk>> read_table(int fd, const Variant& v, Material m, int slice,
                                             std::uint64_t positions) {
    return table_of(fd, v, m, slice, positions, nullptr, positions);
}

std::optional<std::vector<Chunk>> read_part_table(int fd, const Variant& v, Material m, int slice,
                                                  std::uint64_t slice_positions,
                                                  const std::string& part) {
    return table_of(fd, v, m, slice, 0, &part, slice_positions);
}

bool read_chunk(int fd, const Chunk& c, std::vector<std::byte>& raw) {
    thread_local std::vector<std::byte> packed;
    packed.resize(c.bytes);
    if (::pread(fd, packed.data(), packed.size(), static_cast<off_t>(c.offset)) !=
        static_cast<ssize_t>(packed.size()))
        return false;
    const std::size_t n = ZSTD_decompress(raw.data(), raw.size(), packed.data(), packed.size());
    return !ZSTD_isError(n) && n == raw.size() && xxh64(raw) == c.hash;
}

bool read_chunk_parts(int fd, const Chunk& c, std::span<std::byte> first,
                      std::span<std::byte> second) {
    const std::unique_ptr<ZSTD_DCtx, decltype(&ZSTD_freeDCtx)> dctx(ZSTD_createDCtx(),
                                                                    ZSTD_freeDCtx);
    if (!dctx) throw Error("zstd: out of memory");
    // The frame is read a block at a time (a large chunk's frame is not held whole).
    std::vector<std::byte> block(std::min(c.bytes, frame_block_bytes));
    std::uint64_t read = 0;
    ZSTD_inBuffer in{block.data(), 0, 0};
    const auto refill = [&] {
        if (in.pos < in.size || read == c.bytes) return true;
        const std::size_t n =
            static_cast<std::size_t>(std::min<std::uint64_t>(block.size(), c.bytes - read));
        if (::pread(fd, block.data(), n, static_cast<off_t>(c.offset + read)) !=
            static_cast<ssize_t>(n))
            return false;
        read += n;
        in = {block.data(), n, 0};
        return true;
    };
    std::size_t left = 1;  // what the frame still holds (0: it is complete)
    for (const std::span<std::byte> part : {first, second}) {
        ZSTD_outBuffer out{part.data(), part.size(), 0};
        while (out.pos < out.size) {
            if (!refill()) return false;
            const std::size_t in_before = in.pos, out_before = out.pos;
            left = ZSTD_decompressStream(dctx.get(), &out, &in);
            if (ZSTD_isError(left)) return false;
            if (in.pos == in_before && out.pos == out_before) return false;  // ended short
        }
    }
    while (left != 0) {  // the frame may end without more output (an empty last block)
        if (!refill()) return false;
        const std::size_t in_before = in.pos;
        ZSTD_outBuffer none{nullptr, 0, 0};
        left = ZSTD_decompressStream(dctx.get(), &none, &in);
        if (ZSTD_isError(left) || (left != 0 && in.pos == in_before)) return false;
    }
    if (in.pos != in.size || read != c.bytes) return false;
    Xxh64Stream digest;
    digest.update(first);
    digest.update(second);
    return digest.digest() == c.hash;
}

}  // namespace damas::chunked_file
