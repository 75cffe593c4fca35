#include "gen/units/unit_file.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <map>
#include <mutex>
#include <string>
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

// "<class>.<slice>." : what the names of a slice's unit file and its parts start with.
std::string slice_prefix(const std::filesystem::path& unit) {
    return unit.stem().string() + ".";
}

// The part a file of the slice names ("<prefix><r>-<K>.unit"), if it names one.
std::optional<UnitPart> part_named(const std::string& name, const std::string& prefix) {
    static const std::string suffix = ".unit";
    if (name.size() <= prefix.size() + suffix.size() || !name.starts_with(prefix) ||
        !name.ends_with(suffix))
        return std::nullopt;
    const char* p = name.data() + prefix.size();
    const char* end = name.data() + name.size() - suffix.size();
    UnitPart part;
    auto [q, ec] = std::from_chars(p, end, part.range);
    if (ec != std::errc() || q == end || *q != '-') return std::nullopt;
    auto [r, ec2] = std::from_chars(q + 1, end, part.ranges);
    if (ec2 != std::errc() || r != end || part.ranges < 2 || part.range < 0 ||
        part.range >= part.ranges)
        return std::nullopt;
    return part;
}

// The range a part's header names: "1-3".
std::string part_label(UnitPart part) {
    return std::to_string(part.range) + "-" + std::to_string(part.ranges);
}

}  // namespace

std::filesystem::path unit_part_path(const std::filesystem::path& unit, UnitPart part) {
    if (part.whole()) return unit;
    return unit.parent_path() / (slice_prefix(unit) + part_label(part) + ".unit");
}

bool unit_part_opens(const std::filesystem::path& unit, const Variant& v, const PairLayout& layout,
                     int slice, UnitPart part) {
    const chunked_file::Fd fd(unit_part_path(unit, part), O_RDONLY);
    if (!fd) return false;
    return part.whole()
               ? chunked_file::read_table(fd.get(), v, layout.material(0), slice,
                                          layout.slice_positions(slice))
                     .has_value()
               : chunked_file::read_part_table(fd.get(), v, layout.material(0), slice,
                                               layout.slice_positions(slice), part_label(part))
                     .has_value();
}

void remove_unit_files(const std::filesystem::path& unit) {
    const std::string prefix = slice_prefix(unit);
    std::error_code ec;
    for (const auto& e : std::filesystem::directory_iterator(unit.parent_path(), ec)) {
        std::string name = e.path().filename().string();
        if (name.ends_with(".tmp")) name.resize(name.size() - 4);
        if (name == unit.filename().string() || part_named(name, prefix)) {
            std::error_code removing;
            std::filesystem::remove(e.path(), removing);
        }
    }
}

struct UnitStream::Impl {
    Impl(const std::filesystem::path& p, const Variant& v, const PairLayout& l, int s, bool split,
         UnitPart pt)
        : path(unit_part_path(p, pt)),
          variant(v),
          layout(l),
          slice(s),
          part(pt),
          chunks(slice_chunks(l, s, split ? Chunking::parts : Chunking::configurations)),
          out(path, chunks.size()) {}
    std::filesystem::path path;
    Variant variant;
    const PairLayout& layout;
    int slice;
    UnitPart part;
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
                       const PairLayout& layout, int slice, bool split, UnitPart part)
    : impl_(std::make_unique<Impl>(path, v, layout, slice, split, part)) {}

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
    if (!impl_->part.whole()) {
        impl_->out.close_part(impl_->variant, impl_->layout.material(0), impl_->slice,
                              part_label(impl_->part));
        return;
    }
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
    const std::vector<UnitReader::Chunk> chunks =
        slice_chunks(layout, values.slice, Chunking::runs);
    chunked_file::Writer out(path, chunks.size());
    chunked_file::put_held_chunks(out, path, chunks, values.outcomes, values.capture,
                                  held_chunk_streamed_above(layout.unit_chunk_positions()));
    out.close(v, layout.material(0), values.slice, layout.slice_positions(values.slice));
}

UnitReader::UnitReader(const std::filesystem::path& path, const Variant& v,
                       const PairLayout& layout, int slice)
    : slice_(slice) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        const bool missing = errno == ENOENT;
        try {
            if (missing && open_parts(path, v, layout)) return;
        } catch (const DamagedUnit&) {
            for (const int part : fds_) ::close(part);  // no destructor for a throwing constructor
            throw;
        }
        throw DamagedUnit{slice};
    }
    fds_.push_back(fd);
    // Its chunks cover the slice in order, whole men configurations or parts of one (written
    // either way: gen/solve/compact/compact_solver.hpp splits the large ones).
    auto chunks =
        chunked_file::read_table(fd, v, layout.material(0), slice, layout.slice_positions(slice));
    if (!chunks) {
        ::close(fd);
        fds_.clear();
        throw DamagedUnit{slice};
    }
    chunks_ = std::move(*chunks);
    file_.assign(chunks_.size(), 0);
}

bool UnitReader::open_parts(const std::filesystem::path& path, const Variant& v,
                            const PairLayout& layout) {
    // The parts present, by their count of ranges; the first complete set is the slice's.
    const std::string prefix = slice_prefix(path);
    std::map<int, std::vector<int>> present;
    std::error_code ec;
    for (const auto& e : std::filesystem::directory_iterator(path.parent_path(), ec))
        if (const auto part = part_named(e.path().filename().string(), prefix))
            present[part->ranges].push_back(part->range);
    const auto complete = std::find_if(present.begin(), present.end(), [](const auto& set) {
        return static_cast<int>(set.second.size()) == set.first;
    });
    if (complete == present.end()) return false;
    const int ranges = complete->first;
    const std::uint64_t positions = layout.slice_positions(slice_);
    std::vector<std::pair<Chunk, std::uint32_t>> all;
    for (int r = 0; r < ranges; ++r) {
        const std::filesystem::path part = unit_part_path(path, {r, ranges});
        const int fd = ::open(part.c_str(), O_RDONLY | O_CLOEXEC);
        if (fd < 0) throw DamagedUnit{slice_};
        fds_.push_back(fd);
        auto chunks = chunked_file::read_part_table(fd, v, layout.material(0), slice_, positions,
                                                    part_label({r, ranges}));
        if (!chunks) throw DamagedUnit{slice_};
        for (const Chunk& c : *chunks)
            all.emplace_back(c, static_cast<std::uint32_t>(fds_.size() - 1));
    }
    std::sort(all.begin(), all.end(),
              [](const auto& a, const auto& b) { return a.first.first < b.first.first; });
    std::uint64_t next = 0;  // the parts cover the slice, each position once
    for (const auto& [c, file] : all) {
        if (c.first != next) throw DamagedUnit{slice_};
        next += c.positions;
        chunks_.push_back(c);
        file_.push_back(file);
    }
    if (next != positions) throw DamagedUnit{slice_};
    return true;
}

UnitReader::~UnitReader() {
    for (const int fd : fds_) ::close(fd);
}

std::size_t UnitReader::chunk_at(std::uint64_t at) const {
    const auto it = std::upper_bound(chunks_.begin(), chunks_.end(), at,
                                     [](std::uint64_t x, const Chunk& c) { return x < c.first; });
    return static_cast<std::size_t>(it - chunks_.begin()) - 1;
}

void UnitReader::read(std::size_t i, std::vector<std::uint16_t>& outcomes,
                      std::vector<std::uint8_t>& capture) const {
    const Chunk& c = chunks_[i];
    outcomes.resize(c.positions);
    capture.resize(c.positions);
    if (!chunked_file::read_chunk_parts(fds_[file_[i]], c,
                                        std::as_writable_bytes(std::span(outcomes)),
                                        std::as_writable_bytes(std::span(capture))))
        throw DamagedUnit{slice_};
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
