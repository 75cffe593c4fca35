#include "gen/units/unit_file.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <mutex>
#include <utility>

#include <tbb/parallel_for.h>

#include "gen/process/huge_pages.hpp"
#include "rules/error.hpp"

namespace damas {
namespace {

// How a slice is cut into chunks, each of one class. runs: whole men configurations, about the
// layout's unit_chunk_positions each; split: a class's configurations cut into chunks of that
// where a configuration is larger (written whole, gen/solve/compact/compact_solver.hpp);
// configurations: one configuration each (streamed); parts: each configuration alone, cut into
// chunks where it is larger (streamed, gen/solve/compact/compact_solver.hpp's groups).
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
    chunked_file::Writer out;
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
    const std::vector<std::byte> packed =
        chunked_file::compress(impl_->path, outcomes, capture, hash);
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

void write_unit(const std::filesystem::path& path, const Variant& v, const PairLayout& layout,
                int slice, const SliceChunkFn& values, bool split) {
    const std::vector<UnitReader::Chunk> chunks =
        slice_chunks(layout, slice, split ? Chunking::split : Chunking::runs);
    chunked_file::Writer out(path, chunks.size());
    chunked_file::put_chunks(out, path, chunks, true, values);
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

UnitReader::UnitReader(const std::filesystem::path& path, const Variant& v,
                       const PairLayout& layout, int slice)
    : slice_(slice) {
    fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd_ < 0) throw DamagedUnit{slice};
    // Its chunks cover the slice in order, whole men configurations or parts of one (written
    // either way: gen/solve/compact/compact_solver.hpp splits the large ones).
    auto chunks =
        chunked_file::read_table(fd_, v, layout.material(0), slice, layout.slice_positions(slice));
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
    if (!chunked_file::read_chunk(fd_, c, raw)) throw DamagedUnit{slice_};
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

}  // namespace damas
