// mtc_codecs: the bytes an mtc table file's values (format.hpp) would take under candidate
// codings, to choose the mtc files' codec by measurement. Not a benchmark of speed and not a
// test.
//
//   build/bench/mtc_codecs [--fold K] [--adapt L] FILE.mtc...
//
// Reads every value through TableFile, computes which positions the probe never reads (the side
// to move must capture: wdl_context's skipped flag) and prints per candidate the bytes summed over
// the files: zstd candidates compress each 8 Ki-position block at the writer's level and search
// for 16-bit tables; the entropies are static (fitted to the file, the model's own bytes not
// counted) over the positions the probe reads, in bytes; "mtc-context (the file)" is the file
// the writer makes with table/codecs/mtc_context.hpp, header and offset table included.
// "(a) mtc-wdl" codes the blocks given the wdl values the class's wdl file (FILE with .wdl) holds,
// as the mtc-wdl codec does (none where it has the mirror layout), "(b)" given every wdl value, as
// a decoder that resolved the mirror and half layouts by search would; --adapt L: their contexts'
// adaptation (mtc_context::Shape; 0: mtc-context's). "folded below K" (--fold K):
// the distances below K made one symbol, for a probe that would resolve them by a short search.
// --quick: only the file's bytes against mtc-context's.
#include <zstd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <string>
#include <unordered_map>
#include <vector>

#include "table/bytes.hpp"
#include "table/codec.hpp"
#include "table/codecs/mtc_context.hpp"
#include "table/codecs/wdl_context.hpp"
#include "table/format.hpp"
#include "table/table_file.hpp"

namespace damas {
namespace {

std::size_t compress(std::span<const std::byte> in) {
    static ZSTD_CCtx* cctx = ZSTD_createCCtx();
    ZSTD_CCtx_reset(cctx, ZSTD_reset_session_and_parameters);
    ZSTD_CCtx_setParameter(cctx, ZSTD_c_compressionLevel, format::dtw_zstd_level);
    const format::ZstdSearch& s = format::dtw_zstd_search;
    ZSTD_CCtx_setParameter(cctx, ZSTD_c_strategy, s.strategy);
    ZSTD_CCtx_setParameter(cctx, ZSTD_c_hashLog, s.hash_log);
    ZSTD_CCtx_setParameter(cctx, ZSTD_c_chainLog, s.chain_log);
    ZSTD_CCtx_setParameter(cctx, ZSTD_c_searchLog, s.search_log);
    ZSTD_CCtx_setParameter(cctx, ZSTD_c_minMatch, s.min_match);
    ZSTD_CCtx_setParameter(cctx, ZSTD_c_checksumFlag, 0);
    static std::vector<std::byte> out;
    out.resize(ZSTD_compressBound(in.size()));
    return ZSTD_compress2(cctx, out.data(), out.size(), in.data(), in.size());
}

// The smaller of the u16 values interleaved and as two planes, plus the tag (zstd-planes).
std::size_t planes_bytes(std::span<const std::uint16_t> v) {
    std::vector<std::byte> plain(2 * v.size()), planes(2 * v.size());
    for (std::size_t i = 0; i < v.size(); ++i) {
        plain[2 * i] = static_cast<std::byte>(v[i] & 0xFF);
        plain[2 * i + 1] = static_cast<std::byte>(v[i] >> 8);
        planes[i] = plain[2 * i];
        planes[v.size() + i] = plain[2 * i + 1];
    }
    return 1 + std::min(compress(plain), compress(planes));
}

// One byte a value where every value is below 255, else the planes (a tag byte either way).
std::size_t byte_bytes(std::span<const std::uint16_t> v) {
    if (*std::max_element(v.begin(), v.end()) >= 255) return planes_bytes(v);
    std::vector<std::byte> b(v.size());
    for (std::size_t i = 0; i < v.size(); ++i) b[i] = static_cast<std::byte>(v[i]);
    return 1 + compress(b);
}

// Positions the probe never reads replaced by the previous value read (the block's first).
std::vector<std::uint16_t> fill_previous(std::span<const std::uint16_t> v,
                                         std::span<const std::uint8_t> care) {
    std::vector<std::uint16_t> out(v.begin(), v.end());
    std::uint16_t fill = 0;
    for (std::size_t i = 0; i < v.size(); ++i)
        if (care[i]) {
            fill = v[i];
            break;
        }
    for (std::size_t i = 0; i < v.size(); ++i) {
        if (care[i])
            fill = v[i];
        else
            out[i] = fill;
    }
    return out;
}

double entropy_bytes(const std::unordered_map<std::uint64_t, std::uint64_t>& joint) {
    std::unordered_map<std::uint64_t, std::uint64_t> ctx;
    for (const auto& [k, c] : joint) ctx[k >> 20] += c;
    double bits = 0;
    for (const auto& [k, c] : joint)
        bits -= static_cast<double>(c) *
                std::log2(static_cast<double>(c) / static_cast<double>(ctx[k >> 20]));
    return bits / 8;
}

// The bytes of the file the writer makes of values v with mtc-context (header and offset table
// included), added to total; each block decoded back through the codec seam.
void mtc_context_file(const TableHeader& h, std::span<const std::uint16_t> v,
                      const std::string& path, double& total) {
    TableHeader ch = h;
    ch.codec = Codec::mtc_context;
    ch.positions_per_block = mtc_context::positions_per_block;
    ch.blocks = (ch.positions + ch.positions_per_block - 1) / ch.positions_per_block;
    const BlockCodec& codec = block_codec(Codec::mtc_context);
    const auto table = codec.model_builder(ch, {})->finish();
    const auto encoder = table->encoder({});
    std::vector<std::byte> plain, coded, decoded;
    total += static_cast<double>(format::header_size + format::table_bytes(ch.blocks));
    for (std::uint64_t b = 0; b < ch.blocks; ++b) {
        const std::uint64_t first = b * ch.positions_per_block;
        const std::size_t n = static_cast<std::size_t>(
            std::min<std::uint64_t>(ch.positions_per_block, v.size() - first));
        encoder->encode(first, v.subspan(first, n), plain, coded);
        total += static_cast<double>(coded.size());
        decoded.resize(plain.size());
        if (!table->decode(first, n, coded, decoded) || decoded != plain)
            throw Error(path + ": mtc-context does not decode what it coded");
    }
}

// The bytes of mtc-wdl's blocks (table/codecs/mtc_context.hpp given the wdl values `wdl`) of
// values v, header and offset table included, added to total; each block decoded back.
void given_wdl_file(const TableHeader& h, std::span<const std::uint16_t> v,
                    std::span<const std::uint8_t> flags, std::span<const std::uint8_t> wdl,
                    std::uint64_t s, std::uint32_t adapt, const std::string& path, double& total) {
    const std::uint32_t ppb = mtc_context::positions_per_block;
    mtc_context::Shape shape;
    shape.second = static_cast<std::uint32_t>(std::clamp<std::uint64_t>(s, 1, ppb));
    shape.adapt = adapt;
    std::vector<std::uint16_t> values;
    std::vector<std::byte> coded, decoded;
    total += static_cast<double>(format::header_size +
                                 format::table_bytes((h.positions + ppb - 1) / ppb));
    for (std::uint64_t first = 0; first < v.size(); first += ppb) {
        const std::size_t n =
            static_cast<std::size_t>(std::min<std::uint64_t>(ppb, v.size() - first));
        values.assign(v.begin() + first, v.begin() + first + n);
        const auto f = flags.subspan(first, n);
        for (std::size_t i = 0; i < n; ++i)
            if (f[i] & wdl_context::skipped) values[i] = dtw_unknown;
        const auto w = wdl.subspan(first, n);
        mtc_context::encode_block(shape, values, f, w, coded);
        total += static_cast<double>(coded.size());
        decoded.resize(2 * n);
        if (!mtc_context::decode_block(shape, coded, f, w, decoded))
            throw Error(path + ": mtc-wdl does not decode what it coded");
        for (std::size_t i = 0; i < n; ++i)
            if (le::load<std::uint16_t>(&decoded[2 * i]) != values[i])
                throw Error(path + ": mtc-wdl decodes another value");
    }
}

// The wdl values an mtc-wdl decoder of the mtc file at `path` would know: its class's wdl file
// (the same name, .wdl) where that holds values, else none (every one wdl_unknown).
std::vector<std::uint8_t> wdl_file_values(const std::string& path, std::uint64_t positions,
                                          bool& stored) {
    std::filesystem::path p = path;
    p.replace_extension(".wdl");
    std::vector<std::uint8_t> w(positions, wdl_unknown);
    const TableFile file(p);
    stored = file.holds_values();
    if (stored) file.read_all(w);
    return w;
}

int run(int argc, char** argv) {
    int fold = 0;
    std::uint32_t adapt = mtc_context::adapt_given_wdl;
    bool quick = false;
    std::vector<std::string> files;
    for (int a = 1; a < argc; ++a) {
        if (std::string(argv[a]) == "--quick")
            quick = true;
        else if (std::string(argv[a]) == "--adapt" && a + 1 < argc)
            adapt = static_cast<std::uint32_t>(std::atoi(argv[++a]));
        else if (std::string(argv[a]) == "--fold" && a + 1 < argc)
            fold = std::atoi(argv[++a]);
        else
            files.push_back(argv[a]);
    }
    enum {
        now,
        planes_prev,
        bytes_prev,
        bytes_prev_32k,
        dist_bytes,
        bytes_folded,
        dist_folded,
        h0,
        h_left,
        h_left_up,
        h_dist_left_up,
        h_dist_folded,
        h_folded,
        real_context,
        wdl_file,
        wdl_all,
        count
    };
    const char* names[count] = {"zstd-planes (now)",
                                "planes, capture fill previous",
                                "bytes, fill previous",
                                "bytes, fill previous, 32 Ki",
                                "distance bytes (wdl known)",
                                "bytes, folded below K",
                                "distance bytes, folded below K",
                                "H0(value)",
                                "H(value | left)",
                                "H(value | left, S)",
                                "H(distance | wdl, left, S)",
                                "H(distance folded | wdl, left, S)",
                                "H(value folded | left, S)",
                                "mtc-context (the file)",
                                "(a) mtc-wdl, the wdl file's values",
                                "(b) mtc-wdl, every wdl value"};
    std::vector<double> total(count, 0);
    std::uint64_t positions = 0, read = 0, draws = 0, file_bytes = 0, mirror_read = 0;
    std::vector<std::uint64_t> histogram(64, 0);
    for (const std::string& path : files) {
        const TableFile file(path);
        const TableHeader& h = file.header();
        file_bytes += h.file_size;
        const Material m{h.material[0], h.material[1], h.material[2], h.material[3]};
        std::vector<std::uint16_t> v(file.size());
        file.read_all(v);
        std::vector<std::uint8_t> flags(v.size()), care(v.size());
        wdl_context::make_position_flags(h.variant, m, false)->compute(0, flags);
        const std::uint64_t s = wdl_context::model_shape(h.variant.info().board, m).distances[3];
        positions += v.size();
        for (std::size_t i = 0; i < v.size(); ++i) {
            care[i] = !(flags[i] & wdl_context::skipped);
            read += care[i];
            if (care[i] && v[i] == mtc_draw) ++draws;
            if (care[i] && v[i] != mtc_draw) ++histogram[std::min(63, mtc_distance(v[i]))];
        }
        // Symbol of a value: draw 1 (a win at distance 0 cannot be), else the value.
        std::vector<std::uint16_t> sym(v.size()), dist(v.size()), sym_fold(v.size()),
            dist_fold(v.size());
        for (std::size_t i = 0; i < v.size(); ++i) {
            sym[i] = v[i] == mtc_draw ? 1 : v[i];
            const bool known = care[i] && v[i] != mtc_draw;
            dist[i] = static_cast<std::uint16_t>(known ? mtc_distance(v[i]) : 0);
            const int d = mtc_distance(v[i]);
            sym_fold[i] = v[i] == mtc_draw ? 1
                          : d < fold       ? static_cast<std::uint16_t>(v[i] & 1)
                                           : v[i];
            dist_fold[i] = static_cast<std::uint16_t>(known && dist[i] >= fold ? dist[i] : 0);
        }
        {
            // (a): the wdl values its class's wdl file holds; (b): every one, as a decoder that
            // resolved the mirror and half layouts by search would know them.
            bool stored = false;
            const std::vector<std::uint8_t> known = wdl_file_values(path, v.size(), stored);
            given_wdl_file(h, v, flags, known, s, adapt, path, total[wdl_file]);
            std::vector<std::uint8_t> all(v.size());
            for (std::size_t i = 0; i < v.size(); ++i)
                all[i] = v[i] == dtw_unknown ? wdl_unknown
                         : v[i] == mtc_draw  ? wdl_draw
                         : (v[i] & 1)        ? wdl_win
                                             : wdl_loss;
            given_wdl_file(h, v, flags, all, s, adapt, path, total[wdl_all]);
            if (!stored)
                for (std::size_t i = 0; i < v.size(); ++i) mirror_read += care[i];
        }
        if (quick) {
            total[now] += static_cast<double>(h.file_size);
            mtc_context_file(h, v, path, total[real_context]);
            continue;
        }
        std::vector<std::uint8_t> dist_care(v.size());
        for (std::size_t i = 0; i < v.size(); ++i) dist_care[i] = care[i] && v[i] != mtc_draw;
        for (std::size_t b = 0; b < v.size(); b += 8192) {
            const std::size_t n = std::min<std::size_t>(8192, v.size() - b);
            const auto part = [&](const std::vector<std::uint16_t>& x) {
                return std::span(x).subspan(b, n);
            };
            const auto c = std::span(care).subspan(b, n);
            const auto dc = std::span(dist_care).subspan(b, n);
            std::vector<std::uint16_t> major(v.begin() + b, v.begin() + b + n);
            total[now] += static_cast<double>(planes_bytes(major));
            total[planes_prev] += static_cast<double>(planes_bytes(fill_previous(part(v), c)));
            total[bytes_prev] += static_cast<double>(byte_bytes(fill_previous(part(sym), c)));
            total[dist_bytes] += static_cast<double>(byte_bytes(fill_previous(part(dist), dc)));
            total[bytes_folded] +=
                static_cast<double>(byte_bytes(fill_previous(part(sym_fold), c)));
            total[dist_folded] +=
                static_cast<double>(byte_bytes(fill_previous(part(dist_fold), dc)));
        }
        mtc_context_file(h, v, path, total[real_context]);
        for (std::size_t b = 0; b < v.size(); b += 32768) {
            const std::size_t n = std::min<std::size_t>(32768, v.size() - b);
            total[bytes_prev_32k] += static_cast<double>(byte_bytes(
                fill_previous(std::span(sym).subspan(b, n), std::span(care).subspan(b, n))));
        }
        // Static entropies over the positions read. Context category: 0 not read, 1 draw, else
        // 2 + 2 * min(distance, 15) + win.
        const auto cat = [&](std::size_t i, std::size_t back) -> std::uint64_t {
            if (i < back || !care[i - back]) return 0;
            const std::uint16_t x = v[i - back];
            if (x == mtc_draw) return 1;
            return 2 + 2 * static_cast<std::uint64_t>(std::min(15, mtc_distance(x))) + (x & 1);
        };
        std::unordered_map<std::uint64_t, std::uint64_t> j0, j1, j2, j3, j4, j5;
        for (std::size_t i = 0; i < v.size(); ++i) {
            if (!care[i]) continue;
            const std::uint64_t x = std::min<std::uint64_t>(sym[i], (1 << 20) - 1);
            const std::uint64_t left = cat(i, 1), up = cat(i, static_cast<std::size_t>(s));
            ++j0[x];
            ++j1[(left << 20) | x];
            ++j2[(((left << 6) | up) << 20) | x];
            ++j5[(((left << 6) | up) << 20) | sym_fold[i]];
            if (v[i] != mtc_draw) {
                const std::uint64_t w = v[i] & 1;
                ++j3[(((((left << 6) | up) << 1) | w) << 20) | dist[i]];
                ++j4[(((((left << 6) | up) << 1) | w) << 20) | dist_fold[i]];
            }
        }
        total[h0] += entropy_bytes(j0);
        total[h_left] += entropy_bytes(j1);
        total[h_left_up] += entropy_bytes(j2);
        total[h_dist_left_up] += entropy_bytes(j3);
        total[h_dist_folded] += entropy_bytes(j4);
        total[h_folded] += entropy_bytes(j5);
    }
    std::printf(
        "%llu positions, %llu read by the probe (%llu draws, %llu in classes whose wdl "
        "file holds no values), file %llu B, fold %d\n",
        static_cast<unsigned long long>(positions), static_cast<unsigned long long>(read),
        static_cast<unsigned long long>(draws), static_cast<unsigned long long>(mirror_read),
        static_cast<unsigned long long>(file_bytes), fold);
    for (int c = 0; c < count; ++c)
        std::printf("%-36s %14.0f B  %.3f bits a position  %.3f of now\n", names[c], total[c],
                    8.0 * total[c] / static_cast<double>(positions), total[c] / total[now]);
    std::printf("distances of the wins and losses read:");
    for (int d = 0; d < 64; ++d)
        if (histogram[d]) std::printf(" %d:%llu", d, static_cast<unsigned long long>(histogram[d]));
    std::printf("\n");
    return 0;
}

}  // namespace
}  // namespace damas

int main(int argc, char** argv) {
    try {
        return damas::run(argc, argv);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "mtc_codecs: %s\n", e.what());
        return 2;
    }
}
