#include "gen/units/class_stream.hpp"

#include <algorithm>
#include <cstdint>
#include <utility>

#include <tbb/parallel_for.h>

#include "folder/files.hpp"
#include "gen/units/unit_file.hpp"
#include "rules/error.hpp"

namespace damas {

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
                         const PairLayout& layout, int c, Metric distance)
    : layout_(layout), c_(c), walk_(layout.walk_slices(c)), decoded_(chunks_at_once) {
    for (int s = 0; s < layout.slice_count(); ++s) {
        auto cursor = std::make_unique<Cursor>();
        cursor->reader = std::make_unique<UnitReader>(
            unit_path(dir, v, layout.material(0), s, distance), v, layout, s);
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

void ClassStream::skip(std::uint64_t n) {
    const std::uint64_t held = std::min<std::uint64_t>(n, outcomes_.size() - taken_);
    taken_ += static_cast<std::size_t>(held);
    n -= held;
    const std::uint64_t k = layout_.kings_per_men();
    while (n > 0) {
        const int s = walk_.slice();
        if (s < 0) throw Error("a class's values skipped beyond its end");
        const std::uint64_t take = std::min(k - within_, n);
        within_ += take;
        n -= take;
        if (within_ == k) {
            within_ = 0;
            ++slices_[static_cast<std::size_t>(s)]->passed;
            walk_.next();
        }
    }
}

}  // namespace damas
