#include "gen/units/solved_class_file.hpp"

#include <fcntl.h>

#include <algorithm>
#include <atomic>
#include <cstring>

#include <tbb/parallel_for.h>

#include "gen/process/huge_pages.hpp"
#include "gen/units/chunked_file.hpp"
#include "gen/units/class_values.hpp"
#include "rules/error.hpp"
#include "table/bytes.hpp"

namespace damas {
namespace {

constexpr int solved_class_slice = -1;  // the header's slice field: all ones

// A solved class file's positions [first, first + outcomes.size()) (first a multiple of
// chunk_positions): its chunks compressed in parallel and put in `out`.
// `fill(at, part)`: the packed outcomes of positions [at, at + part.size()).
template <class Fill>
void put_class_run(chunked_file::Writer& out, const std::filesystem::path& path,
                   std::uint64_t first, std::uint64_t positions, std::uint64_t chunk_positions,
                   Fill&& fill) {
    std::vector<chunked_file::Chunk> chunks;
    for (std::uint64_t at = 0; at < positions; at += chunk_positions)
        chunks.push_back({.first = first + at,
                          .positions = std::min<std::uint64_t>(chunk_positions, positions - at)});
    chunked_file::put_chunks(
        out, path, chunks, false,
        [&](std::uint64_t at, std::span<std::uint16_t> part, std::span<std::uint8_t>) {
            fill(at, part);
        },
        static_cast<std::size_t>(first / chunk_positions));
}

void put_class_run(chunked_file::Writer& out, const std::filesystem::path& path,
                   std::uint64_t first, std::span<const std::uint16_t> outcomes,
                   std::uint64_t chunk_positions) {
    put_class_run(out, path, first, outcomes.size(), chunk_positions,
                  [&](std::uint64_t at, std::span<std::uint16_t> part) {
                      std::copy_n(outcomes.begin() + static_cast<std::ptrdiff_t>(at - first),
                                  part.size(), part.begin());
                  });
}

// The chunks of a solved class file, each given to `use(chunk, its packed outcomes)` in
// parallel; false if the file is missing, damaged or not this class's.
template <class Use>
bool read_class_chunks(const std::filesystem::path& path, const Variant& v, Material m,
                       std::uint64_t positions, Use&& use) {
    const chunked_file::Fd fd(path, O_RDONLY);
    if (!fd) return false;
    const auto chunks = chunked_file::read_table(fd.get(), v, m, solved_class_slice, positions);
    if (!chunks) return false;
    std::atomic<bool> damaged{false};
    tbb::parallel_for(std::size_t{0}, chunks->size(), [&](std::size_t k) {
        const chunked_file::Chunk& c = (*chunks)[k];
        thread_local std::vector<std::byte> raw;
        raw.resize(c.positions * 2);
        if (!chunked_file::read_chunk(fd.get(), c, raw)) {
            damaged = true;
            return;
        }
        use(c, std::span<const std::byte>(raw));
    });
    return !damaged;
}

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
    chunked_file::Writer out;
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
    chunked_file::Writer out(path, (outcomes.size() + chunk_positions - 1) / chunk_positions);
    put_class_run(out, path, 0, outcomes, chunk_positions);
    out.close(v, m, solved_class_slice, outcomes.size());
}

std::optional<std::vector<std::uint16_t>> read_solved_class(const std::filesystem::path& path,
                                                            const Variant& v, Material m,
                                                            std::uint64_t positions) {
    std::vector<std::uint16_t> outcomes = huge_vector<std::uint16_t>(positions);
    if (!read_class_chunks(path, v, m, positions,
                           [&](const chunked_file::Chunk& c, std::span<const std::byte> raw) {
                               std::memcpy(outcomes.data() + c.first, raw.data(), raw.size());
                           }))
        return std::nullopt;
    return outcomes;
}

void write_solved_values(const std::filesystem::path& path, const Variant& v, Material m,
                         std::span<const std::uint8_t> values, std::uint64_t positions,
                         std::uint64_t chunk_positions) {
    chunked_file::Writer out(path, (positions + chunk_positions - 1) / chunk_positions);
    put_class_run(out, path, 0, positions, chunk_positions,
                  [&](std::uint64_t at, std::span<std::uint16_t> part) {
                      for (std::size_t i = 0; i < part.size(); ++i)
                          part[i] = static_cast<std::uint16_t>(value_at(values.data(), at + i));
                  });
    out.close(v, m, solved_class_slice, positions);
}

// A chunk's first and last bytes of values may be shared with its neighbours (chunks need not
// start at multiples of 4 positions): those are or-ed in atomically, the others stored.
std::optional<std::vector<std::uint8_t>> read_solved_values(const std::filesystem::path& path,
                                                            const Variant& v, Material m,
                                                            std::uint64_t positions) {
    std::vector<std::uint8_t> values = huge_vector<std::uint8_t>(value_bytes(positions));
    if (!read_class_chunks(
            path, v, m, positions,
            [&](const chunked_file::Chunk& c, std::span<const std::byte> raw) {
                const std::uint64_t end = c.first + c.positions;
                for (std::uint64_t byte = c.first / 4; byte < value_bytes(end); ++byte) {
                    unsigned bits = 0;
                    for (std::uint64_t i = std::max(c.first, 4 * byte);
                         i < std::min(end, 4 * byte + 4); ++i)
                        bits |= (le::load<std::uint16_t>(&raw[2 * (i - c.first)]) & 3u)
                                << value_shift_of(i);
                    if (4 * byte >= c.first && 4 * byte + 4 <= end)
                        values[byte] = static_cast<std::uint8_t>(bits);
                    else
                        std::atomic_ref<std::uint8_t>(values[byte])
                            .fetch_or(static_cast<std::uint8_t>(bits));
                }
            }))
        return std::nullopt;
    return values;
}

}  // namespace damas
