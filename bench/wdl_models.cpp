// wdl_models: the size a wdl table file's values would take under candidate context models, to
// choose the context codec's model (table/codecs/wdl_context.hpp) by measurement. Not a benchmark
// of speed (bench_probe_file times decoding) and not a test.
//
//   build/bench/wdl_models FILE.wdl [--stride N]
//
// Reads a sample of the file's blocks through TableFile as the prober does (every N-th pair of
// blocks: 64 Ki positions), computes per position the flags the decoder could compute from the
// position (table/codecs/wdl_context.hpp's threat, and candidate features), and prints for each
// candidate model the estimated file bytes: each candidate's static probabilities are fitted to
// the sample (as the writer does), the code length is the sum of -log2 of the 12-bit
// probabilities the coder would use, plus the coder's 5 flush bytes per block, scaled to the
// whole file.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <string>
#include <vector>

#include "index/binomial.hpp"
#include "index/class_index.hpp"
#include "rules/movegen.hpp"
#include "rules/variants.hpp"
#include "table/codecs/wdl_context.hpp"
#include "table/codecs/wdl_mix.hpp"
#include "table/table_file.hpp"

namespace damas {
namespace {

// Feature bits per position.
constexpr std::uint8_t f_threat = 1;       // the opponent could capture (the codec's threat flag)
constexpr std::uint8_t f_few_moves = 2;    // the side to move has at most 2 quiet moves
constexpr std::uint8_t f_threats2 = 4;     // the opponent has 2 or more captures
constexpr std::uint8_t f_crowns = 8;       // the side to move can crown a man
constexpr std::uint8_t f_opp_crowns = 16;  // the opponent could crown a man
constexpr std::uint8_t f_many_moves = 32;  // the side to move has 7 or more quiet moves

template <class R>
void compute_features(const ClassIndex& index, std::uint64_t first, std::span<std::uint8_t> out) {
    using G = MoveGenerator<R>;
    index.for_each_position(first, first + out.size(), [&](std::uint64_t i, const Position& p) {
        std::uint8_t f = 0;
        if (!G::has_capture(p)) {
            Position other = p;
            other.side = ~p.side;
            const bool threat = G::has_capture(other);
            if (threat) {
                f |= f_threat;
                if (G::count(other) >= 2) f |= f_threats2;
            }
            const int moves = G::count_quiet(p);
            if (moves <= 2) f |= f_few_moves;
            if (moves >= 7) f |= f_many_moves;
            MoveList list;
            G::generate_man_moves(p, list);
            for (const Move& m : list)
                if (m.promotes) f |= f_crowns;
            if (!threat) {
                G::generate_man_moves(other, list);
                for (const Move& m : list)
                    if (m.promotes) f |= f_opp_crowns;
            }
        }
        out[i - first] = f;
    });
}

struct Candidate {
    std::string name;
    std::vector<std::uint32_t> distances;
    std::uint8_t features = f_threat;  // the feature bits in the context
    int shift = 0;                     // 0: static; else adaptive with this shift
    bool big_blocks = false;           // 64 Ki positions a block, else 32 Ki
    int mix_shift2 = 0;                // adaptive: average with a second rate (0: none)
};

constexpr std::uint32_t small_block = 32 * 1024;
constexpr std::uint32_t big_block = 64 * 1024;

struct Sample {
    std::vector<std::uint8_t> values;    // 0..3 (3: not coded)
    std::vector<std::uint8_t> features;  // by position
    std::vector<std::uint32_t> starts;   // of each sampled 64 Ki block
    std::vector<std::uint32_t> sizes;
};

std::size_t context_of(const Candidate& c, const std::uint8_t* v, std::size_t i,
                       std::uint8_t features) {
    std::size_t ctx = 0;
    for (std::size_t k = c.distances.size(); k-- > 0;) {
        const std::uint32_t d = c.distances[k];
        ctx = ctx * 4 + (i >= d ? v[i - d] : 3u);
    }
    for (int b = 0; b < 8; ++b)
        if (c.features & (1u << b)) ctx = ctx * 2 + ((features >> b) & 1u);
    return ctx;
}

std::size_t context_count(const Candidate& c) {
    std::size_t n = std::size_t{1} << (2 * c.distances.size());
    for (int b = 0; b < 8; ++b)
        if (c.features & (1u << b)) n *= 2;
    return n;
}

// Calls f(ctx, v) for each coded position of every block of the candidate's size.
template <class F>
void for_each_coded(const Candidate& c, const Sample& s, F&& f, auto&& block_start) {
    for (std::size_t b = 0; b < s.starts.size(); ++b) {
        const std::uint32_t n = s.sizes[b];
        const std::uint32_t step = c.big_blocks ? big_block : small_block;
        for (std::uint32_t at = 0; at < n; at += step) {
            const std::uint8_t* v = &s.values[s.starts[b] + at];
            const std::uint8_t* ft = &s.features[s.starts[b] + at];
            const std::uint32_t len = std::min(step, n - at);
            block_start();
            for (std::uint32_t i = 0; i < len; ++i)
                if (v[i] != 3) f(context_of(c, v, i, ft[i]), v[i]);
        }
    }
}

std::uint16_t kt(std::uint64_t ones, std::uint64_t n) {
    const double p = (static_cast<double>(ones) + 0.5) / (static_cast<double>(n) + 1.0);
    return static_cast<std::uint16_t>(std::clamp<long>(std::lround(p * 4096), 1, 4095));
}

double cost(std::uint32_t p12, bool bit) {
    return -std::log2((bit ? p12 : 4096 - p12) / 4096.0);
}

// Estimated coded bytes of the sample (without the model).
double coded_bytes(const Candidate& c, const Sample& s, std::size_t& model_contexts) {
    const std::size_t n = context_count(c);
    std::vector<std::array<std::uint64_t, 3>> counts(n, {0, 0, 0});
    for_each_coded(
        c, s, [&](std::size_t ctx, std::uint8_t v) { counts[ctx][v]++; }, [] {});
    std::vector<std::uint16_t> p0(2 * n);
    model_contexts = 0;
    for (std::size_t i = 0; i < n; ++i) {
        const auto& k = counts[i];
        p0[2 * i] = kt(k[0] + k[2], k[0] + k[1] + k[2]);
        p0[2 * i + 1] = kt(k[2], k[0] + k[2]);
        if (k[0] + k[1] + k[2]) ++model_contexts;
    }
    double bits = 0;
    std::size_t blocks = 0;
    std::vector<std::uint32_t> pa(2 * n), pb(2 * n);  // 16-bit probabilities
    const auto code = [&](std::size_t j, bool bit) {
        if (c.shift == 0) {
            bits += cost(p0[j], bit);
            return;
        }
        std::uint32_t p = pa[j];
        if (c.mix_shift2) p = (pa[j] + pb[j]) / 2;
        bits += cost(std::clamp<std::uint32_t>(p >> 4, 1, 4095), bit);
        const std::uint32_t target = bit ? 65535 : 0;
        pa[j] = static_cast<std::uint32_t>(
            static_cast<int>(pa[j]) +
            ((static_cast<int>(target) - static_cast<int>(pa[j])) >> c.shift));
        if (c.mix_shift2)
            pb[j] = static_cast<std::uint32_t>(
                static_cast<int>(pb[j]) +
                ((static_cast<int>(target) - static_cast<int>(pb[j])) >> c.mix_shift2));
    };
    for_each_coded(
        c, s,
        [&](std::size_t ctx, std::uint8_t v) {
            code(2 * ctx, v != 1);
            if (v != 1) code(2 * ctx + 1, v == 2);
        },
        [&] {
            ++blocks;
            if (c.shift != 0) {
                for (std::size_t j = 0; j < 2 * n; ++j) pa[j] = pb[j] = std::uint32_t{p0[j]} << 4;
            }
        });
    return bits / 8 + 5.0 * static_cast<double>(blocks);
}

double stretch(double p) {
    return std::log(p / (1 - p));
}
double squash(double x) {
    return 1 / (1 + std::exp(-x));
}

// Logistic mixing of adaptive parts (paq's mixer): each part's probability, stretched, weighted
// by weights chosen by the decision (first or second) and the threat flag; the weights learn
// online, starting from weights learnt over the whole sample.
double mixed_bytes(const std::vector<Candidate>& parts, const Sample& s, bool big, double lr) {
    const std::size_t np = parts.size();
    std::vector<std::vector<std::uint32_t>> p0(np), pa(np);
    for (std::size_t q = 0; q < np; ++q) {
        const std::size_t n = context_count(parts[q]);
        std::vector<std::array<std::uint64_t, 3>> counts(n, {0, 0, 0});
        Candidate c = parts[q];
        c.big_blocks = big;
        for_each_coded(
            c, s, [&](std::size_t ctx, std::uint8_t v) { counts[ctx][v]++; }, [] {});
        p0[q].resize(2 * n);
        for (std::size_t i = 0; i < n; ++i) {
            const auto& k = counts[i];
            p0[q][2 * i] = std::uint32_t{kt(k[0] + k[2], k[0] + k[1] + k[2])} << 4;
            p0[q][2 * i + 1] = std::uint32_t{kt(k[2], k[0] + k[2])} << 4;
        }
    }
    std::vector<double> w0(4 * np, 1.0 / static_cast<double>(np)), w;
    double bits = 0;
    std::size_t blocks = 0;
    std::vector<std::size_t> ctx(np);
    for (int pass = 0; pass < 2; ++pass) {
        bits = 0;
        blocks = 0;
        w = w0;
        const std::uint32_t step = big ? big_block : small_block;
        for (std::size_t b = 0; b < s.starts.size(); ++b) {
            for (std::uint32_t at = 0; at < s.sizes[b]; at += step) {
                const std::uint8_t* v = &s.values[s.starts[b] + at];
                const std::uint8_t* ft = &s.features[s.starts[b] + at];
                const std::uint32_t len = std::min(step, s.sizes[b] - at);
                ++blocks;
                for (std::size_t q = 0; q < np; ++q) pa[q] = p0[q];
                if (pass == 1) w = w0;
                for (std::uint32_t i = 0; i < len; ++i) {
                    if (v[i] == 3) continue;
                    for (std::size_t q = 0; q < np; ++q) ctx[q] = context_of(parts[q], v, i, ft[i]);
                    const auto code = [&](int j, bool bit) {
                        double* wj = &w[np * static_cast<std::size_t>(2 * j + (ft[i] & f_threat))];
                        double x = 0;
                        std::array<double, 8> st{};
                        for (std::size_t q = 0; q < np; ++q) {
                            const double pq =
                                std::clamp((pa[q][2 * ctx[q] + j] + 0.5) / 65536.0, 1e-4, 1 - 1e-4);
                            st[q] = stretch(pq);
                            x += wj[q] * st[q];
                        }
                        const double p = squash(x);
                        const auto p12 = static_cast<std::uint32_t>(
                            std::clamp<long>(std::lround(p * 4096), 1, 4095));
                        bits += cost(p12, bit);
                        const double err = (bit ? 1.0 : 0.0) - p;
                        for (std::size_t q = 0; q < np; ++q) wj[q] += lr * err * st[q];
                        for (std::size_t q = 0; q < np; ++q) {
                            std::uint32_t& a = pa[q][2 * ctx[q] + j];
                            const int target = bit ? 65535 : 0;
                            a = static_cast<std::uint32_t>(
                                static_cast<int>(a) +
                                ((target - static_cast<int>(a)) >> parts[q].shift));
                        }
                    };
                    code(0, v[i] != 1);
                    if (v[i] != 1) code(1, v[i] == 2);
                }
            }
        }
        if (pass == 0 && !std::getenv("FIXED")) w0 = w;
    }
    return bits / 8 + 5.0 * static_cast<double>(blocks);
}

// The codecs themselves on the sample's 32 Ki blocks: the static model and the mixed one, fitted
// to the sample, every block encoded, decoded back (checked) and timed.
double cpu_now() {
    timespec t{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

template <class Model>
void real_codec(const char* name, Model model, const Sample& s, const TableHeader& h,
                const Material& m, std::uint32_t stride, double scale, auto&& fit, auto&& encode,
                auto&& decode, auto&& serialize, bool features) {
    const auto flags_of = wdl_context::make_position_flags(h.variant, m, h.half, features);
    std::vector<std::vector<std::uint8_t>> flags;
    std::vector<std::pair<std::size_t, std::uint32_t>> blocks;  // start in the sample, size
    double flag_seconds = 0;
    for (std::size_t b = 0; b < s.starts.size(); ++b)
        for (std::uint32_t at = 0; at < s.sizes[b]; at += small_block) {
            const std::uint32_t n = std::min(small_block, s.sizes[b] - at);
            blocks.emplace_back(s.starts[b] + at, n);
            flags.emplace_back(n);
            const double t0 = cpu_now();
            flags_of->compute(static_cast<std::uint64_t>(b) * stride * 2 * small_block + at,
                              flags.back());
            flag_seconds += cpu_now() - t0;
            for (std::uint32_t i = 0; i < n; ++i)
                if ((flags.back()[i] & wdl_context::skipped) !=
                    (s.values[s.starts[b] + at + i] == 3))
                    throw Error("the flags do not match the file's unknowns");
        }
    fit(model, blocks, flags);
    std::uint64_t bytes = 0;
    double seconds = 0;
    std::vector<std::byte> coded, out;
    for (std::size_t j = 0; j < blocks.size(); ++j) {
        const std::span<const std::uint8_t> v(&s.values[blocks[j].first], blocks[j].second);
        encode(model, v, flags[j], coded);
        bytes += coded.size();
        out.assign((v.size() + 3) / 4, std::byte{0});
        const auto t0 = cpu_now();
        const bool ok = decode(model, std::span<const std::byte>(coded),
                               std::span<const std::uint8_t>(flags[j]), std::span<std::byte>(out));
        seconds += cpu_now() - t0;
        for (std::size_t i = 0; ok && i < v.size(); ++i)
            if (((static_cast<unsigned>(out[i / 4]) >> (2 * (i % 4))) & 3) != v[i])
                throw Error(std::string(name) + ": a value decodes wrong");
        if (!ok) throw Error(std::string(name) + ": a block does not decode");
    }
    const double model_bytes = static_cast<double>(serialize(model).size());
    std::printf(
        "  codec %-20s %12.0f bytes (model %.0f), decode %.0f us a block, its flags %.0f us\n",
        name,
        static_cast<double>(bytes) * scale + model_bytes +
            static_cast<double>(format::header_size + format::table_bytes(h.blocks)),
        model_bytes, 1e6 * seconds / static_cast<double>(blocks.size()),
        1e6 * flag_seconds / static_cast<double>(blocks.size()));
    std::fflush(stdout);
}

int run(int argc, char** argv) {
    if (argc < 2) {
        std::fprintf(stderr, "usage: wdl_models FILE.wdl [--stride N]\n");
        return 2;
    }
    const std::string path = argv[1];
    std::uint32_t stride = 8;
    for (int a = 2; a + 1 < argc; a += 2)
        if (std::string(argv[a]) == "--stride")
            stride = static_cast<std::uint32_t>(std::atoi(argv[a + 1]));
    const TableFile file(path);
    const TableHeader& h = file.header();
    if (!file.holds_values() || h.metric != Metric::wdl || h.positions_per_block != small_block)
        throw Error(path + ": not a stored wdl table of 32 Ki positions a block");
    const Material m{h.material[0], h.material[1], h.material[2], h.material[3]};
    const BoardSpec& board = h.variant.info().board;
    const ClassIndex index(board, m);
    const int free = make_tables(board).squares - m.men();
    const std::uint64_t sk =
        m.black_kings > 0 ? binomial(free - m.white_kings, m.black_kings) : index.kings_per_men();
    const std::uint64_t k = index.kings_per_men();

    Sample s;
    const std::uint64_t pairs = (h.blocks + 1) / 2;
    std::vector<std::byte> raw;
    for (std::uint64_t pair = 0; pair < pairs; pair += stride) {
        const auto start = static_cast<std::uint32_t>(s.values.size());
        std::uint32_t size = 0;
        for (std::uint64_t b = 2 * pair; b < std::min<std::uint64_t>(2 * pair + 2, h.blocks); ++b) {
            raw.resize(file.block_size(b));
            if (file.read_block(b, raw) != ReadStatus::ok) throw Error(path + ": unreadable block");
            const std::uint64_t n =
                std::min<std::uint64_t>(small_block, h.positions - b * small_block);
            for (std::uint64_t i = 0; i < n; ++i)
                s.values.push_back(static_cast<std::uint8_t>(
                    (static_cast<unsigned>(raw[i / 4]) >> (2 * (i % 4))) & 3));
            size += static_cast<std::uint32_t>(n);
        }
        s.features.resize(s.values.size());
        dispatch(h.variant.base, [&](auto rules) {
            compute_features<decltype(rules)>(
                index, 2 * pair * small_block,
                std::span<std::uint8_t>(s.features).subspan(start, size));
        });
        s.starts.push_back(start);
        s.sizes.push_back(size);
    }
    if (h.codec != Codec::context) {
        // A zstd file's unknowns are filled: mark the positions the probe never reads.
        auto flags = wdl_context::make_position_flags(h.variant, m, false);
        for (std::size_t b = 0; b < s.starts.size(); ++b) {
            std::vector<std::uint8_t> f(s.sizes[b]);
            flags->compute(static_cast<std::uint64_t>(b) * stride * 2 * small_block, f);
            for (std::size_t i = 0; i < f.size(); ++i)
                if (f[i] & wdl_context::skipped) s.values[s.starts[b] + i] = 3;
        }
    }
    const double scale = static_cast<double>(h.positions) / static_cast<double>(s.values.size());
    std::printf("%s: %llu positions, file %llu bytes, sample 1/%u (%zu positions), S %llu K %llu\n",
                path.c_str(), static_cast<unsigned long long>(h.positions),
                static_cast<unsigned long long>(h.file_size), stride, s.values.size(),
                static_cast<unsigned long long>(sk), static_cast<unsigned long long>(k));
    std::array<std::uint64_t, 8> feature_counts{};
    std::uint64_t coded = 0;
    for (std::size_t i = 0; i < s.values.size(); ++i) {
        if (s.values[i] == 3) continue;
        ++coded;
        for (int b = 0; b < 8; ++b)
            if (s.features[i] & (1u << b)) feature_counts[b]++;
    }
    std::printf("coded %.1f%%; features:",
                100.0 * static_cast<double>(coded) / static_cast<double>(s.values.size()));
    for (int b = 0; b < 6; ++b)
        std::printf(" %.1f%%",
                    100.0 * static_cast<double>(feature_counts[b]) / static_cast<double>(coded));
    std::printf("\n");

    const auto cap = [](std::uint64_t d) {
        return static_cast<std::uint32_t>(std::min<std::uint64_t>(d, 1u << 30));
    };
    const std::vector<std::uint32_t> base{1, 3, 4, cap(sk), cap(4 * sk), cap(k)};
    std::vector<Candidate> candidates;
    const auto with = [&](std::vector<std::uint32_t> extra) {
        auto d = base;
        d.insert(d.end(), extra.begin(), extra.end());
        return d;
    };
    candidates.push_back({"static (main)", base});
    candidates.push_back({"static 64Ki", base, f_threat, 0, true});
    for (int shift : {4, 5, 6, 7})
        candidates.push_back({"adaptive " + std::to_string(shift), base, f_threat, shift});
    candidates.push_back({"adaptive 4+7", base, f_threat, 4, false, 7});
    candidates.push_back({"adaptive 5 64Ki", base, f_threat, 5, true});
    candidates.push_back({"+d2", with({2})});
    candidates.push_back({"+d5", with({5})});
    candidates.push_back({"+dS+1", with({cap(sk + 1)})});
    candidates.push_back({"+d2S", with({cap(2 * sk)})});
    candidates.push_back({"+d2K", with({cap(2 * k)})});
    candidates.push_back({"+few", base, f_threat | f_few_moves});
    candidates.push_back({"+many", base, f_threat | f_many_moves});
    candidates.push_back({"+threats2", base, f_threat | f_threats2});
    candidates.push_back({"+crowns", base, f_threat | f_crowns});
    candidates.push_back({"+opp_crowns", base, f_threat | f_opp_crowns});
    candidates.push_back({"+all features", base, 63});
    candidates.push_back({"+all features adaptive 5", base, 63, 5});
    candidates.push_back({"+all +S+1 adaptive 4+7 64Ki", with({cap(sk + 1)}), 63, 4, true, 7});
    const std::uint64_t blocks = h.blocks;
    const double overhead = static_cast<double>(format::header_size + format::table_bytes(blocks));
    if (std::getenv("REAL")) {
        real_codec(
            "context", wdl_context::model_shape(board, m), s, h, m, stride, scale,
            [&](wdl_context::Model& model, const auto& sampled, const auto& flags) {
                wdl_context::Counts counts(model.contexts());
                for (std::size_t j = 0; j < sampled.size(); ++j)
                    wdl_context::count_block(
                        model,
                        std::span<const std::uint8_t>(&s.values[sampled[j].first], flags[j].size()),
                        flags[j], counts);
                wdl_context::set_probabilities(model, counts);
            },
            [](const wdl_context::Model& model, auto v, auto f, auto& out) {
                wdl_context::encode_block(model, v, f, out);
            },
            [](const wdl_context::Model& model, auto in, auto f, auto out) {
                return wdl_context::decode_block(model, in, f, out);
            },
            [](const wdl_context::Model& model) { return wdl_context::serialize(model); }, false);
        wdl_mix::Workspace ws;
        real_codec(
            "context-mix", wdl_mix::model_shape(board, m), s, h, m, stride, scale,
            [&](wdl_mix::Model& model, const auto& sampled, const auto& flags) {
                wdl_mix::Counts counts(model);
                for (std::size_t j = 0; j < sampled.size(); ++j)
                    wdl_mix::count_block(
                        model,
                        std::span<const std::uint8_t>(&s.values[sampled[j].first], flags[j].size()),
                        flags[j], counts);
                wdl_mix::set_probabilities(model, counts);
            },
            [&](const wdl_mix::Model& model, auto v, auto f, auto& out) {
                wdl_mix::encode_block(model, v, f, out, ws);
            },
            [&](const wdl_mix::Model& model, auto in, auto f, auto out) {
                return wdl_mix::decode_block(model, in, f, out, ws);
            },
            [](const wdl_mix::Model& model) { return wdl_mix::serialize(model); }, true);
        return 0;
    }
    if (std::getenv("MIX")) {
        const std::vector<std::uint32_t> local{1, 2, 3, 4, 5, cap(sk), cap(sk + 1)};
        const std::vector<std::uint32_t> far{1,           cap(sk), cap(sk + 1), cap(2 * sk),
                                             cap(4 * sk), cap(k),  cap(2 * k)};
        std::vector<std::pair<std::string, std::vector<Candidate>>> mixes{
            {"mix base+all", {{"a", base, f_threat, 5}, {"b", base, 63, 5}}},
            {"mix 4 parts",
             {{"a", base, f_threat, 5},
              {"b", base, 63, 5},
              {"c", local, f_threat | f_threats2, 5},
              {"d", far, f_threat | f_many_moves, 5}}},
        };
        for (const double lr : {0.01})
            for (const bool big : {false, true})
                for (const auto& [name, parts] : mixes) {
                    const double bytes = mixed_bytes(parts, s, big, lr);
                    std::printf("  %-22s lr %.3f %s %12.0f bytes\n", name.c_str(), lr,
                                big ? "64Ki" : "32Ki", bytes * scale + overhead);
                    std::fflush(stdout);
                }
        return 0;
    }
    for (const Candidate& c : candidates) {
        std::size_t used = 0;
        const double bytes = coded_bytes(c, s, used);
        const double table = c.big_blocks
                                 ? static_cast<double>(format::table_bytes((blocks + 1) / 2)) + 256
                                 : overhead;
        std::printf("  %-26s %12.0f bytes  (%zu contexts used)\n", c.name.c_str(),
                    bytes * scale + table, used);
        std::fflush(stdout);
    }
    return 0;
}

}  // namespace
}  // namespace damas

int main(int argc, char** argv) {
    try {
        return damas::run(argc, argv);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "wdl_models: %s\n", e.what());
        return 1;
    }
}
