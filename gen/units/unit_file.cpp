#include "gen/units/unit_file.hpp"

#include <fcntl.h>
#include <unistd.h>
#include <zstd.h>

#include <algorithm>
#include <atomic>
#include <bit>
#include <cerrno>
#include <cstring>
#include <memory>
#include <mutex>
#include <string>

#include <tbb/parallel_for.h>

#include "gen/process/huge_pages.hpp"
#include "rules/error.hpp"
#include "table/hash.hpp"

namespace damas {
namespace {

static_assert(std::endian::native == std::endian::little, "unit files are little-endian");

constexpr char magic[8] = {'D', 'A', 'M', 'A', 'S', 'U', 'N', 'I'};
constexpr std::uint32_t version = 2;
constexpr std::size_t header_size = 88, label_size = 32, entry_size = 40;

std::string label(const Variant& v, Material pair) {
    return v.name() + " " + pair.name();
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

Header make_header(const Variant& v, Material pair, int slice, std::uint64_t positions,
                   std::uint64_t chunks, std::uint64_t table_offset, std::uint64_t table_hash) {
    Header h;
    std::memcpy(h.bytes, magic, 8);
    const std::uint32_t ver = version, sl = static_cast<std::uint32_t>(slice);
    std::memcpy(h.bytes + 8, &ver, 4);
    std::memcpy(h.bytes + 12, &sl, 4);
    put64(h.bytes + 16, positions);
    const std::string name = label(v, pair);
    std::memcpy(h.bytes + 24, name.data(), std::min(name.size(), label_size));
    put64(h.bytes + 56, chunks);
    put64(h.bytes + 64, table_offset);
    put64(h.bytes + 72, table_hash);
    put64(h.bytes + 80, xxh64(std::as_bytes(std::span(h.bytes, 80))));
    return h;
}

// A chunk's values as stored: outcomes, then capture flags.
std::vector<std::byte> chunk_bytes(std::span<const std::uint16_t> outcomes,
                                   std::span<const std::uint8_t> capture) {
    std::vector<std::byte> raw(outcomes.size() * 2 + capture.size());
    std::memcpy(raw.data(), outcomes.data(), outcomes.size() * 2);
    std::memcpy(raw.data() + outcomes.size() * 2, capture.data(), capture.size());
    return raw;
}

class Fd {
  public:
    Fd(const std::filesystem::path& path, int flags) : path_(path) {
        fd_ = ::open(path.c_str(), flags | O_CLOEXEC, 0644);
    }
    ~Fd() {
        if (fd_ >= 0) ::close(fd_);
    }
    Fd(const Fd&) = delete;
    Fd& operator=(const Fd&) = delete;
    int get() const { return fd_; }
    explicit operator bool() const { return fd_ >= 0; }

    [[noreturn]] void fail(const std::string& what) const {
        throw Error(path_.string() + ": " + what + ": " + std::strerror(errno));
    }

  private:
    std::filesystem::path path_;
    int fd_ = -1;
};

// Writes <path>.tmp with the chunks given, then the table and header, and renames it.
class UnitWriter {
  public:
    UnitWriter(const std::filesystem::path& path, std::uint64_t chunks)
        : path_(path), tmp_(path.string() + ".tmp") {
        std::filesystem::create_directories(path.parent_path());
        fd_ = std::make_unique<Fd>(tmp_, O_WRONLY | O_CREAT | O_TRUNC);
        if (!*fd_) fd_->fail("cannot create");
        table_.resize(chunks);
    }
    ~UnitWriter() {
        if (fd_) {
            fd_.reset();
            std::error_code ec;
            std::filesystem::remove(tmp_, ec);
        }
    }
    // Chunk k (in position order) compressed; any order, one call at a time.
    void put(std::size_t k, std::uint64_t first, std::uint64_t positions,
             std::span<const std::byte> compressed, std::uint64_t hash) {
        table_[k] = {first, positions, end_, compressed.size(), hash};
        pwrite_all(compressed.data(), compressed.size(), end_);
        end_ += compressed.size();
    }
    void close(const Variant& v, Material pair, int slice, std::uint64_t positions) {
        std::vector<unsigned char> table(table_.size() * entry_size);
        for (std::size_t k = 0; k < table_.size(); ++k) {
            const UnitReader::Chunk& c = table_[k];
            unsigned char* at = table.data() + k * entry_size;
            put64(at, c.first), put64(at + 8, c.positions), put64(at + 16, c.offset);
            put64(at + 24, c.bytes), put64(at + 32, c.hash);
        }
        pwrite_all(table.data(), table.size(), end_);
        const Header h = make_header(v, pair, slice, positions, table_.size(), end_,
                                     xxh64(std::as_bytes(std::span(table))));
        pwrite_all(h.bytes, header_size, 0);
        fd_.reset();
        if (::rename(tmp_.c_str(), path_.c_str()) != 0)
            throw Error(path_.string() + ": cannot rename: " + std::strerror(errno));
    }

  private:
    void pwrite_all(const void* data, std::size_t n, std::uint64_t at) {
        const char* p = static_cast<const char*>(data);
        while (n > 0) {
            const ssize_t w = ::pwrite(fd_->get(), p, n, static_cast<off_t>(at));
            if (w < 0 && errno == EINTR) continue;
            if (w <= 0) fd_->fail("cannot write");
            p += w, n -= static_cast<std::size_t>(w), at += static_cast<std::uint64_t>(w);
        }
    }

    std::filesystem::path path_, tmp_;
    std::unique_ptr<Fd> fd_;
    std::vector<UnitReader::Chunk> table_;
    std::uint64_t end_ = header_size;
};

// How a slice is cut into chunks: runs of whole men configurations of one class (about the
// layout's unit_chunk_positions each), parts of at most that of one configuration where a
// configuration is larger (split), or one configuration each (a streamed unit).
// runs: whole configurations, about a chunk's positions each; split: a class's configurations
// cut into chunks (written whole, gen/solve/compact_solver.hpp); configurations: one each (streamed);
// parts: each configuration alone, cut into chunks (streamed, gen/solve/compact_solver.hpp's groups).
enum class Chunking { runs, split, configurations, parts };

std::vector<UnitReader::Chunk> slice_chunks(const PairLayout& layout, int slice,
                                            Chunking chunking) {
    std::vector<UnitReader::Chunk> chunks;
    const std::uint64_t k = layout.kings_per_men(), chunk = layout.unit_chunk_positions();
    const bool split = chunking == Chunking::split;
    const std::uint64_t per = chunking == Chunking::configurations || chunking == Chunking::parts
                                  ? 1
                                  : std::max<std::uint64_t>(1, chunk / k);
    for (int c = 0; c < layout.classes(); ++c) {
        const std::uint64_t configs = layout.men_in_slice(c, slice);
        const std::uint64_t base = layout.slice_base(c, slice);
        if (chunking == Chunking::parts && k > chunk) {
            for (std::uint64_t j = 0; j < configs; ++j)
                for (std::uint64_t at = 0; at < k; at += chunk)
                    chunks.push_back({base + j * k + at, std::min(chunk, k - at)});
            continue;
        }
        if (split && k > chunk) {
            for (std::uint64_t at = 0; at < configs * k; at += chunk)
                chunks.push_back({base + at, std::min(chunk, configs * k - at)});
            continue;
        }
        for (std::uint64_t j = 0; j < configs; j += per)
            chunks.push_back({base + j * k, std::min(per, configs - j) * k});
    }
    return chunks;
}

}  // namespace

// A chunk's bytes compressed, and the xxh64 of its values.
std::vector<std::byte> compress_chunk(const std::filesystem::path& path,
                                      std::span<const std::uint16_t> outcomes,
                                      std::span<const std::uint8_t> capture, std::uint64_t& hash) {
    const std::vector<std::byte> raw = chunk_bytes(outcomes, capture);
    std::vector<std::byte> packed(ZSTD_compressBound(raw.size()));
    const std::size_t n = ZSTD_compress(packed.data(), packed.size(), raw.data(), raw.size(), 1);
    if (ZSTD_isError(n)) throw Error(path.string() + ": zstd: " + ZSTD_getErrorName(n));
    packed.resize(n);
    hash = xxh64(raw);
    return packed;
}

struct UnitStream::Impl {
    Impl(const std::filesystem::path& p, const Variant& v, const PairLayout& l, int s, bool split)
        : path(p),
          variant(v),
          layout(l),
          slice(s),
          chunks(slice_chunks(l, s, split ? Chunking::parts : Chunking::configurations)),
          out(p, chunks.size()) {}
    std::filesystem::path path;
    Variant variant;
    const PairLayout& layout;
    int slice;
    std::vector<UnitReader::Chunk> chunks;
    UnitWriter out;
    std::mutex writing;
    std::uint64_t put = 0;
};

// A configuration of a sixteenth of a chunk's positions (4 Ki: 12 KB of values) still makes
// a chunk that zstd compresses well; below that, the per-chunk costs (a table entry, a frame,
// a call) would grow, and such slices are small enough to hold. Streaming these mid-sized
// configurations is what keeps international 2122 + 2221 (45,540 king placements per
// configuration, slices of 6 G positions) from holding 18 GB of a slice's values.
bool UnitStream::streams(std::uint64_t kings_per_men, std::uint64_t chunk_positions) {
    return kings_per_men * 16 >= chunk_positions;
}

UnitStream::UnitStream(const std::filesystem::path& path, const Variant& v,
                       const PairLayout& layout, int slice, bool split)
    : impl_(std::make_unique<Impl>(path, v, layout, slice, split)) {}

UnitStream::~UnitStream() = default;

void UnitStream::put(std::uint64_t first, std::span<const std::uint16_t> outcomes,
                     std::span<const std::uint8_t> capture) {
    const auto it =
        std::lower_bound(impl_->chunks.begin(), impl_->chunks.end(), first,
                         [](const UnitReader::Chunk& c, std::uint64_t x) { return c.first < x; });
    if (it == impl_->chunks.end() || it->first != first || it->positions != outcomes.size())
        throw Error(impl_->path.string() + ": not a chunk of the unit");
    std::uint64_t hash = 0;
    const std::vector<std::byte> packed = compress_chunk(impl_->path, outcomes, capture, hash);
    const std::lock_guard lock(impl_->writing);
    impl_->out.put(static_cast<std::size_t>(it - impl_->chunks.begin()), first, outcomes.size(),
                   packed, hash);
    ++impl_->put;
}

void UnitStream::close() {
    if (impl_->put != impl_->chunks.size())
        throw Error(impl_->path.string() + ": closed with chunks missing");
    impl_->out.close(impl_->variant, impl_->layout.material(0), impl_->slice,
                     impl_->layout.slice_positions(impl_->slice));
}

namespace {

// Every chunk's values (from `values`; with capture flags or, for a solved class file, without)
// compressed in parallel and put in `out`.
void put_chunks(UnitWriter& out, const std::filesystem::path& path,
                const std::vector<UnitReader::Chunk>& chunks, bool with_capture,
                const SliceChunkFn& values, std::size_t first_slot = 0) {
    std::mutex writing;
    tbb::parallel_for(std::size_t{0}, chunks.size(), [&](std::size_t k) {
        const UnitReader::Chunk& c = chunks[k];
        thread_local std::vector<std::uint16_t> outcomes;
        thread_local std::vector<std::uint8_t> capture;
        outcomes.resize(c.positions);
        capture.resize(with_capture ? c.positions : 0);
        values(c.first, outcomes, capture);
        std::uint64_t hash = 0;
        const std::vector<std::byte> packed = compress_chunk(path, outcomes, capture, hash);
        const std::lock_guard lock(writing);
        out.put(first_slot + k, c.first, c.positions, packed, hash);
    });
}

// A solved class file's positions [first, first + outcomes.size()) (first a multiple of
// chunk_positions): its chunks compressed in parallel and put in `out`.
void put_class_run(UnitWriter& out, const std::filesystem::path& path, std::uint64_t first,
                   std::span<const std::uint16_t> outcomes, std::uint64_t chunk_positions) {
    std::vector<UnitReader::Chunk> chunks;
    for (std::uint64_t at = 0; at < outcomes.size(); at += chunk_positions)
        chunks.push_back(
            {.first = first + at,
             .positions = std::min<std::uint64_t>(chunk_positions, outcomes.size() - at)});
    put_chunks(
        out, path, chunks, false,
        [&](std::uint64_t at, std::span<std::uint16_t> part, std::span<std::uint8_t>) {
            std::copy_n(outcomes.begin() + static_cast<std::ptrdiff_t>(at - first), part.size(),
                        part.begin());
        },
        static_cast<std::size_t>(first / chunk_positions));
}

}  // namespace

void write_unit(const std::filesystem::path& path, const Variant& v, const PairLayout& layout,
                int slice, const SliceChunkFn& values, bool split) {
    const std::vector<UnitReader::Chunk> chunks =
        slice_chunks(layout, slice, split ? Chunking::split : Chunking::runs);
    UnitWriter out(path, chunks.size());
    put_chunks(out, path, chunks, true, values);
    out.close(v, layout.material(0), slice, layout.slice_positions(slice));
}

void write_unit(const std::filesystem::path& path, const Variant& v, const PairLayout& layout,
                const SliceValues& values) {
    write_unit(
        path, v, layout, values.slice,
        [&](std::uint64_t first, std::span<std::uint16_t> outcomes,
            std::span<std::uint8_t> capture) {
            std::copy_n(values.outcomes.begin() + static_cast<std::ptrdiff_t>(first),
                        outcomes.size(), outcomes.begin());
            std::copy_n(values.capture.begin() + static_cast<std::ptrdiff_t>(first), capture.size(),
                        capture.begin());
        },
        false);
}

namespace {

// The chunk table of the unit (or solved class file) open at fd, checked against the header
// expected for it: chunks in order, covering `positions`. Nothing if anything differs.
std::optional<std::vector<UnitReader::Chunk>> read_chunk_table(int fd, const Variant& v, Material m,
                                                               int slice, std::uint64_t positions) {
    Header h;
    if (::pread(fd, h.bytes, header_size, 0) != static_cast<ssize_t>(header_size))
        return std::nullopt;
    const std::uint64_t count = get64(h.bytes + 56), table_offset = get64(h.bytes + 64);
    const Header expected =
        make_header(v, m, slice, positions, count, table_offset, get64(h.bytes + 72));
    if (std::memcmp(expected.bytes, h.bytes, header_size) != 0 || count == 0 || count > positions)
        return std::nullopt;
    std::vector<unsigned char> table(count * entry_size);
    if (::pread(fd, table.data(), table.size(), static_cast<off_t>(table_offset)) !=
            static_cast<ssize_t>(table.size()) ||
        xxh64(std::as_bytes(std::span(table))) != get64(h.bytes + 72))
        return std::nullopt;
    std::vector<UnitReader::Chunk> chunks;
    std::uint64_t next = 0;
    for (std::size_t k = 0; k < count; ++k) {
        const unsigned char* at = table.data() + k * entry_size;
        const UnitReader::Chunk c{get64(at), get64(at + 8), get64(at + 16), get64(at + 24),
                                  get64(at + 32)};
        if (c.first != next || c.positions == 0) return std::nullopt;
        next += c.positions;
        chunks.push_back(c);
    }
    if (next != positions) return std::nullopt;
    return chunks;
}

// Chunk c's raw bytes (raw.size() of them), checked; false if damaged.
bool read_chunk(int fd, const UnitReader::Chunk& c, std::vector<std::byte>& raw) {
    thread_local std::vector<std::byte> packed;
    packed.resize(c.bytes);
    if (::pread(fd, packed.data(), packed.size(), static_cast<off_t>(c.offset)) !=
        static_cast<ssize_t>(packed.size()))
        return false;
    const std::size_t n = ZSTD_decompress(raw.data(), raw.size(), packed.data(), packed.size());
    return !ZSTD_isError(n) && n == raw.size() && xxh64(raw) == c.hash;
}

}  // namespace

UnitReader::UnitReader(const std::filesystem::path& path, const Variant& v,
                       const PairLayout& layout, int slice)
    : slice_(slice) {
    fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd_ < 0) throw DamagedUnit{slice};
    // Its chunks cover the slice in order, whole men configurations or parts of one (written
    // either way: gen/solve/compact_solver.hpp splits the large ones).
    auto chunks =
        read_chunk_table(fd_, v, layout.material(0), slice, layout.slice_positions(slice));
    if (!chunks) throw DamagedUnit{slice};
    chunks_ = std::move(*chunks);
}

UnitReader::~UnitReader() {
    if (fd_ >= 0) ::close(fd_);
}

std::size_t UnitReader::chunk_at(std::uint64_t at) const {
    const auto it = std::upper_bound(chunks_.begin(), chunks_.end(), at,
                                     [](std::uint64_t x, const Chunk& c) { return x < c.first; });
    return static_cast<std::size_t>(it - chunks_.begin()) - 1;
}

void UnitReader::read(std::size_t i, std::vector<std::uint16_t>& outcomes,
                      std::vector<std::uint8_t>& capture) const {
    const Chunk& c = chunks_[i];
    thread_local std::vector<std::byte> raw;
    raw.resize(c.positions * 3);
    if (!read_chunk(fd_, c, raw)) throw DamagedUnit{slice_};
    outcomes.resize(c.positions);
    capture.resize(c.positions);
    std::memcpy(outcomes.data(), raw.data(), c.positions * 2);
    std::memcpy(capture.data(), raw.data() + c.positions * 2, c.positions);
}

std::optional<SliceValues> read_unit(const std::filesystem::path& path, const Variant& v,
                                     const PairLayout& layout, int slice) {
    try {
        const UnitReader in(path, v, layout, slice);
        SliceValues values;
        values.slice = slice;
        values.outcomes = huge_vector<std::uint16_t>(layout.slice_positions(slice));
        values.capture.assign(values.outcomes.size(), 0);
        tbb::parallel_for(std::size_t{0}, in.chunks(), [&](std::size_t k) {
            thread_local std::vector<std::uint16_t> outcomes;
            thread_local std::vector<std::uint8_t> capture;
            in.read(k, outcomes, capture);
            const UnitReader::Chunk& c = in.chunk(k);
            std::copy(outcomes.begin(), outcomes.end(),
                      values.outcomes.begin() + static_cast<std::ptrdiff_t>(c.first));
            std::copy(capture.begin(), capture.end(),
                      values.capture.begin() + static_cast<std::ptrdiff_t>(c.first));
        });
        return values;
    } catch (const DamagedUnit&) {
        return std::nullopt;
    }
}

struct ClassStream::Cursor {
    std::unique_ptr<UnitReader> reader;
    // The class's configurations of the slice planned so far: the rank of the next one.
    std::uint64_t passed = 0;
    std::size_t chunk = SIZE_MAX;    // held in outcomes and capture
    std::size_t planned = SIZE_MAX;  // the chunk the segment's plan reached
    std::vector<std::uint16_t> outcomes;
    std::vector<std::uint8_t> capture;
};

// A run of segment positions from one chunk of one slice.
struct ClassStream::Piece {
    int slice;
    std::size_t chunk;
    std::uint64_t from, positions;  // within the chunk
};

struct ClassStream::Decoded {
    int slice = 0;
    std::size_t chunk = 0;
    std::vector<std::uint16_t> outcomes;
    std::vector<std::uint8_t> capture;
};

ClassStream::ClassStream(const std::filesystem::path& dir, const Variant& v,
                         const PairLayout& layout, int c)
    : layout_(layout), c_(c), walk_(layout.walk_slices(c)), decoded_(chunks_at_once) {
    for (int s = 0; s < layout.slice_count(); ++s) {
        auto cursor = std::make_unique<Cursor>();
        cursor->reader =
            std::make_unique<UnitReader>(unit_path(dir, v, layout.material(0), s), v, layout, s);
        slices_.push_back(std::move(cursor));
    }
}

ClassStream::~ClassStream() = default;

// The next segment's pieces, up to segment_positions positions or as many as chunks_at_once
// chunks not held yet allow; returns how many such chunks (in decoded_, in order of first use).
std::size_t ClassStream::plan_segment() {
    const std::uint64_t k = layout_.kings_per_men();
    pieces_.clear();
    for (auto& cur : slices_) cur->planned = cur->chunk;
    std::size_t fresh = 0;
    std::uint64_t n = 0;
    const std::uint64_t segment = segment_positions(layout_.unit_chunk_positions());
    while (n < segment) {
        const int s = walk_.slice();
        if (s < 0) break;
        Cursor& cur = *slices_[static_cast<std::size_t>(s)];
        const std::uint64_t at = layout_.slice_base(c_, s) + cur.passed * k + within_;
        const auto holds = [&](std::size_t i) {
            if (i == SIZE_MAX) return false;
            const UnitReader::Chunk& chunk = cur.reader->chunk(i);
            return at >= chunk.first && at < chunk.first + chunk.positions;
        };
        if (!holds(cur.planned)) {
            if (fresh == chunks_at_once) break;
            cur.planned = cur.reader->chunk_at(at);
            decoded_[fresh].slice = s;
            decoded_[fresh].chunk = cur.planned;
            ++fresh;
        }
        const UnitReader::Chunk& chunk = cur.reader->chunk(cur.planned);
        const std::uint64_t from = at - chunk.first;
        const std::uint64_t take = std::min({k - within_, segment - n, chunk.positions - from});
        pieces_.push_back({s, cur.planned, from, take});
        n += take;
        within_ += take;
        if (within_ == k) {
            within_ = 0;
            ++cur.passed;
            walk_.next();
        }
    }
    return fresh;
}

void ClassStream::fill() {
    const std::size_t fresh = plan_segment();
    tbb::parallel_for(std::size_t{0}, fresh, [&](std::size_t i) {
        Decoded& d = decoded_[i];
        slices_[static_cast<std::size_t>(d.slice)]->reader->read(d.chunk, d.outcomes, d.capture);
    });
    std::uint64_t n = 0;
    for (const Piece& p : pieces_) n += p.positions;
    outcomes_.resize(n);
    capture_.resize(n);
    std::size_t next_fresh = 0;
    std::uint64_t at = 0;
    for (const Piece& p : pieces_) {
        Cursor& cur = *slices_[static_cast<std::size_t>(p.slice)];
        if (cur.chunk != p.chunk) {  // the first piece of a chunk decoded for this segment
            Decoded& d = decoded_[next_fresh++];
            std::swap(cur.outcomes, d.outcomes);
            std::swap(cur.capture, d.capture);
            cur.chunk = p.chunk;
        }
        const auto from = static_cast<std::ptrdiff_t>(p.from);
        const auto to = static_cast<std::ptrdiff_t>(at);
        std::copy_n(cur.outcomes.begin() + from, p.positions, outcomes_.begin() + to);
        std::copy_n(cur.capture.begin() + from, p.positions, capture_.begin() + to);
        at += p.positions;
    }
    taken_ = 0;
}

void ClassStream::next(std::span<std::uint16_t> outcomes, std::span<std::uint8_t> capture) {
    std::size_t done = 0;
    while (done < outcomes.size()) {
        if (taken_ == outcomes_.size()) {
            fill();
            if (outcomes_.empty()) throw Error("a class's values read beyond its end");
        }
        const std::size_t n = std::min(outcomes.size() - done, outcomes_.size() - taken_);
        const auto from = static_cast<std::ptrdiff_t>(taken_);
        std::copy_n(outcomes_.begin() + from, n,
                    outcomes.begin() + static_cast<std::ptrdiff_t>(done));
        std::copy_n(capture_.begin() + from, n,
                    capture.begin() + static_cast<std::ptrdiff_t>(done));
        taken_ += n;
        done += n;
    }
}

namespace {
constexpr int solved_class_slice = -1;  // a unit header's slice field: all ones
}  // namespace


// Chunks are gathered a batch at a time and compressed in parallel: compressed one by one on the
// writer's serial reading thread, they held up the pass that writes them.
struct SolvedClassWriter::Impl {
    Impl(const std::filesystem::path& p, const Variant& v, Material c, std::uint64_t n,
         std::uint64_t chunk)
        : path(p),
          variant(v),
          m(c),
          positions(n),
          chunk_positions(chunk),
          out(p, (n + chunk - 1) / chunk) {}
    std::uint64_t batch_positions() const { return batch_chunks * chunk_positions; }
    // The chunks in `pending` (all full but the class's last) compressed and written.
    void flush() {
        put_class_run(out, path, written, pending, chunk_positions);
        written += pending.size();
        pending.clear();
    }
    std::filesystem::path path;
    Variant variant;
    Material m;
    std::uint64_t positions, chunk_positions, written = 0;
    UnitWriter out;
    std::vector<std::uint16_t> pending;
};

SolvedClassWriter::SolvedClassWriter(const std::filesystem::path& path, const Variant& v,
                                     Material m, std::uint64_t positions,
                                     std::uint64_t chunk_positions)
    : impl_(std::make_unique<Impl>(path, v, m, positions, chunk_positions)) {}

SolvedClassWriter::~SolvedClassWriter() = default;

void SolvedClassWriter::append(std::span<const std::uint16_t> outcomes) {
    Impl& w = *impl_;
    if (w.written + w.pending.size() + outcomes.size() > w.positions)
        throw Error(w.path.string() + ": more values than the class has");
    while (!outcomes.empty()) {
        const std::size_t n = std::min<std::size_t>(
            outcomes.size(), static_cast<std::size_t>(w.batch_positions() - w.pending.size()));
        w.pending.insert(w.pending.end(), outcomes.begin(),
                         outcomes.begin() + static_cast<std::ptrdiff_t>(n));
        outcomes = outcomes.subspan(n);
        if (w.pending.size() == w.batch_positions()) w.flush();
    }
}

void SolvedClassWriter::close() {
    Impl& w = *impl_;
    if (!w.pending.empty()) w.flush();
    if (w.written != w.positions) throw Error(w.path.string() + ": closed with values missing");
    w.out.close(w.variant, w.m, solved_class_slice, w.positions);
}

void write_solved_class(const std::filesystem::path& path, const Variant& v, Material m,
                        std::span<const std::uint16_t> outcomes, std::uint64_t chunk_positions) {
    UnitWriter out(path, (outcomes.size() + chunk_positions - 1) / chunk_positions);
    put_class_run(out, path, 0, outcomes, chunk_positions);
    out.close(v, m, solved_class_slice, outcomes.size());
}

std::optional<std::vector<std::uint16_t>> read_solved_class(const std::filesystem::path& path,
                                                            const Variant& v, Material m,
                                                            std::uint64_t positions) {
    const Fd fd(path, O_RDONLY);
    if (!fd) return std::nullopt;
    const auto chunks = read_chunk_table(fd.get(), v, m, solved_class_slice, positions);
    if (!chunks) return std::nullopt;
    std::vector<std::uint16_t> outcomes = huge_vector<std::uint16_t>(positions);
    std::atomic<bool> damaged{false};
    tbb::parallel_for(std::size_t{0}, chunks->size(), [&](std::size_t k) {
        const UnitReader::Chunk& c = (*chunks)[k];
        thread_local std::vector<std::byte> raw;
        raw.resize(c.positions * 2);
        if (!read_chunk(fd.get(), c, raw)) {
            damaged = true;
            return;
        }
        std::memcpy(outcomes.data() + c.first, raw.data(), raw.size());
    });
    if (damaged) return std::nullopt;
    return outcomes;
}

}  // namespace damas
