// dtw_codecs: the bytes a dtw (or dtr) table file's blocks would take under candidate block
// encodings, to choose the 16-bit tables' codec by measurement. Not a benchmark of speed and
// not a test.
//
//   build/bench/dtw_codecs FILE.dtw...
//
// Reads every block through TableFile as the prober does (the unknown positions already hold the
// writer's fill value) and compresses each block again under each candidate, at the writer's
// zstd level and search for 16-bit tables (format.hpp).
#include <zstd.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstring>
#include <vector>

#include "table/codecs/wdl_context.hpp"
#include "table/format.hpp"
#include "table/table_file.hpp"

namespace damas {
namespace {

std::size_t compress(std::span<const std::byte> in, int level, bool cheap_search,
                     int min_match = 0) {
    static ZSTD_CCtx* cctx = ZSTD_createCCtx();
    ZSTD_CCtx_reset(cctx, ZSTD_reset_session_and_parameters);
    ZSTD_CCtx_setParameter(cctx, ZSTD_c_compressionLevel, level);
    if (cheap_search) {
        const format::ZstdSearch& s = format::dtw_zstd_search;
        ZSTD_CCtx_setParameter(cctx, ZSTD_c_strategy, s.strategy);
        ZSTD_CCtx_setParameter(cctx, ZSTD_c_hashLog, s.hash_log);
        ZSTD_CCtx_setParameter(cctx, ZSTD_c_chainLog, s.chain_log);
        ZSTD_CCtx_setParameter(cctx, ZSTD_c_searchLog, s.search_log);
        ZSTD_CCtx_setParameter(cctx, ZSTD_c_minMatch, min_match ? min_match : s.min_match);
    }
    ZSTD_CCtx_setParameter(cctx, ZSTD_c_checksumFlag, 0);
    static std::vector<std::byte> out;
    out.resize(ZSTD_compressBound(in.size()));
    return ZSTD_compress2(cctx, out.data(), out.size(), in.data(), in.size());
}

// The block's distinct values by decreasing frequency; symbol of each position.
struct Ranked {
    std::vector<std::uint16_t> palette;
    std::vector<std::uint16_t> symbol;
};
Ranked rank(std::span<const std::uint16_t> v, bool by_frequency) {
    std::vector<std::pair<std::uint16_t, std::uint32_t>> count;
    std::vector<std::uint16_t> sorted(v.begin(), v.end());
    std::sort(sorted.begin(), sorted.end());
    for (std::size_t i = 0; i < sorted.size();) {
        std::size_t j = i;
        while (j < sorted.size() && sorted[j] == sorted[i]) ++j;
        count.push_back({sorted[i], static_cast<std::uint32_t>(j - i)});
        i = j;
    }
    if (by_frequency)
        std::stable_sort(count.begin(), count.end(),
                         [](auto a, auto b) { return a.second > b.second; });
    Ranked r;
    std::array<std::uint16_t, 65536> of{};
    for (std::size_t k = 0; k < count.size(); ++k) {
        r.palette.push_back(count[k].first);
        of[count[k].first] = static_cast<std::uint16_t>(k);
    }
    for (const std::uint16_t x : v) r.symbol.push_back(of[x]);
    return r;
}

std::vector<std::byte> bytes_of(const Ranked& r, bool planes) {
    std::vector<std::byte> out;
    const auto put16 = [&](std::uint16_t x) {
        out.push_back(static_cast<std::byte>(x & 0xFF));
        out.push_back(static_cast<std::byte>(x >> 8));
    };
    put16(static_cast<std::uint16_t>(r.palette.size()));
    for (const std::uint16_t x : r.palette) put16(x);
    if (r.palette.size() <= 256) {
        for (const std::uint16_t s : r.symbol) out.push_back(static_cast<std::byte>(s));
    } else if (planes) {
        for (const std::uint16_t s : r.symbol) out.push_back(static_cast<std::byte>(s & 0xFF));
        for (const std::uint16_t s : r.symbol) out.push_back(static_cast<std::byte>(s >> 8));
    } else {
        for (const std::uint16_t s : r.symbol) put16(s);
    }
    return out;
}

// Unknowns (mask) replaced by the previous known value (the block's first known before it).
std::vector<std::uint16_t> fill_previous(std::span<const std::uint16_t> v,
                                         std::span<const std::uint8_t> unknown) {
    std::vector<std::uint16_t> out(v.begin(), v.end());
    std::uint16_t fill = 0;
    for (std::size_t i = 0; i < v.size(); ++i)
        if (!unknown[i]) {
            fill = v[i];
            break;
        }
    for (std::size_t i = 0; i < v.size(); ++i) {
        if (unknown[i])
            out[i] = fill;
        else
            fill = v[i];
    }
    return out;
}

int run(int argc, char** argv) {
    constexpr int candidates = 12;
    const char* names[candidates] = {
        "u16 (now)",           "u16 planes",         "rank by value",    "rank by frequency",
        "rank, fill previous", "rank, 16 Ki blocks", "rank prev, 16 Ki", "split: draws + ranks",
        "split one frame",     "planes mm4",         "planes mm3",       "best of u16, planes"};
    std::array<std::uint64_t, candidates> total{};
    std::uint64_t positions = 0, file_bytes = 0, over256 = 0, blocks = 0, unknowns = 0;
    for (int a = 1; a < argc; ++a) {
        const TableFile file(argv[a]);
        const TableHeader& h = file.header();
        file_bytes += h.file_size;
        positions += file.size();
        const Material m{h.material[0], h.material[1], h.material[2], h.material[3]};
        auto flags = wdl_context::make_position_flags(h.variant, m, false);
        std::vector<std::byte> plain;
        std::vector<std::uint16_t> pair_now, pair_prev;
        for (std::uint64_t b = 0; b < h.blocks; ++b) {
            plain.resize(file.block_size(b));
            if (file.read_block(b, plain) != ReadStatus::ok) throw Error("cannot read a block");
            std::vector<std::uint16_t> v(plain.size() / 2);
            std::memcpy(v.data(), plain.data(), plain.size());
            std::vector<std::uint8_t> f(v.size()), unknown(v.size());
            flags->compute(b * h.positions_per_block, f);
            for (std::size_t i = 0; i < f.size(); ++i) {
                unknown[i] = (f[i] & wdl_context::skipped) != 0;
                unknowns += unknown[i];
            }
            ++blocks;
            std::array<std::size_t, candidates> size{};
            size[0] = compress(plain, format::dtw_zstd_level, true);
            std::vector<std::byte> planes(plain.size());
            for (std::size_t i = 0; i < v.size(); ++i) {
                planes[i] = plain[2 * i];
                planes[v.size() + i] = plain[2 * i + 1];
            }
            size[1] = compress(planes, format::dtw_zstd_level, true);
            size[9] = compress(planes, format::dtw_zstd_level, true, 4);
            size[10] = compress(planes, format::dtw_zstd_level, true, 3);
            size[11] = std::min(size[0], size[1]) + 1;
            const Ranked by_value = rank(v, false), by_freq = rank(v, true);
            over256 += by_value.palette.size() > 256;
            size[2] = compress(bytes_of(by_value, false), format::dtw_zstd_level, true);
            size[3] = compress(bytes_of(by_freq, false), format::dtw_zstd_level, true);
            const std::vector<std::uint16_t> prev = fill_previous(v, unknown);
            size[4] = compress(bytes_of(rank(prev, true), false), format::dtw_zstd_level, true);
            {
                // Draw plane (a bit a position) and the non-draw values' ranks, apart / together.
                std::vector<std::byte> draws((v.size() + 7) / 8), rest;
                std::vector<std::uint16_t> non_draw;
                for (std::size_t i = 0; i < v.size(); ++i) {
                    if (v[i] == dtw_draw)
                        draws[i / 8] |= std::byte{1} << (i % 8);
                    else
                        non_draw.push_back(v[i]);
                }
                const std::vector<std::byte> ranks = bytes_of(rank(non_draw, true), false);
                size[7] = compress(draws, format::dtw_zstd_level, true) +
                          compress(ranks, format::dtw_zstd_level, true);
                std::vector<std::byte> both = draws;
                both.insert(both.end(), ranks.begin(), ranks.end());
                size[8] = compress(both, format::dtw_zstd_level, true);
            }
            pair_now.insert(pair_now.end(), v.begin(), v.end());
            pair_prev.insert(pair_prev.end(), prev.begin(), prev.end());
            if (b % 2 == 1 || b + 1 == h.blocks) {
                size[5] =
                    compress(bytes_of(rank(pair_now, true), false), format::dtw_zstd_level, true);
                size[6] =
                    compress(bytes_of(rank(pair_prev, true), false), format::dtw_zstd_level, true);
                pair_now.clear();
                pair_prev.clear();
            }
            for (int c = 0; c < candidates; ++c) total[c] += size[c];
        }
    }
    std::printf(
        "%llu positions (%llu unknown), %llu blocks (%llu with more than 256 values), "
        "file %llu B\n",
        static_cast<unsigned long long>(positions), static_cast<unsigned long long>(unknowns),
        static_cast<unsigned long long>(blocks), static_cast<unsigned long long>(over256),
        static_cast<unsigned long long>(file_bytes));
    for (int c = 0; c < candidates; ++c)
        std::printf("%-22s %12llu B  %.3f bits a position  %.3f of now\n", names[c],
                    static_cast<unsigned long long>(total[c]),
                    8.0 * static_cast<double>(total[c]) / static_cast<double>(positions),
                    static_cast<double>(total[c]) / static_cast<double>(total[0]));
    return 0;
}

}  // namespace
}  // namespace damas

int main(int argc, char** argv) {
    try {
        return damas::run(argc, argv);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "dtw_codecs: %s\n", e.what());
        return 2;
    }
}
