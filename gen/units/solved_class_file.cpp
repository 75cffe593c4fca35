#include "gen/units/solved_class_file.hpp"

#include <fcntl.h>

#include <algorithm>
#include <atomic>
#include <cstring>

#include <tbb/parallel_for.h>

#include "gen/process/huge_pages.hpp"
#include "gen/units/chunked_file.hpp"
#include "rules/error.hpp"

namespace damas {
namespace {

constexpr int solved_class_slice = -1;  // the header's slice field: all ones

// A solved class file's positions [first, first + outcomes.size()) (first a multiple of
// chunk_positions): its chunks compressed in parallel and put in `out`.
void put_class_run(chunked_file::Writer& out, const std::filesystem::path& path,
                   std::uint64_t first, std::span<const std::uint16_t> outcomes,
                   std::uint64_t chunk_positions) {
    std::vector<chunked_file::Chunk> chunks;
    for (std::uint64_t at = 0; at < outcomes.size(); at += chunk_positions)
        chunks.push_back(
            {.first = first + at,
             .positions = std::min<std::uint64_t>(chunk_positions, outcomes.size() - at)});
    chunked_file::put_chunks(
        out, path, chunks, false,
        [&](std::uint64_t at, std::span<std::uint16_t> part, std::span<std::uint8_t>) {
            std::copy_n(outcomes.begin() + static_cast<std::ptrdiff_t>(at - first), part.size(),
                        part.begin());
        },
        static_cast<std::size_t>(first / chunk_positions));
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
    const chunked_file::Fd fd(path, O_RDONLY);
    if (!fd) return std::nullopt;
    const auto chunks = chunked_file::read_table(fd.get(), v, m, solved_class_slice, positions);
    if (!chunks) return std::nullopt;
    std::vector<std::uint16_t> outcomes = huge_vector<std::uint16_t>(positions);
    std::atomic<bool> damaged{false};
    tbb::parallel_for(std::size_t{0}, chunks->size(), [&](std::size_t k) {
        const chunked_file::Chunk& c = (*chunks)[k];
        thread_local std::vector<std::byte> raw;
        raw.resize(c.positions * 2);
        if (!chunked_file::read_chunk(fd.get(), c, raw)) {
            damaged = true;
            return;
        }
        std::memcpy(outcomes.data() + c.first, raw.data(), raw.size());
    });
    if (damaged) return std::nullopt;
    return outcomes;
}

}  // namespace damas
