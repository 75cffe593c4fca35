#include "gen/plan/disk_model.hpp"

#include <algorithm>
#include <array>
#include <cstdio>
#include <optional>

namespace damas {
namespace {

// Bits a position of the files of the classes of one board, kind and number of pieces, with the
// default codecs and layouts (wdl: automatic and the mirror layout; dtw: zstd-planes; mtc:
// mtc-wdl and the mirror layout, the runs' mtc files recoded with `damas recode --mtc-codec
// mtc-wdl`), summed over the classes of that row in the run named (`damas info --json`, bytes
// over positions; docs/performance.md, "Disk model"). Nothing: not measured (the row below it
// serves).
struct MeasuredBits {
    int board_width;
    bool kings_only;
    int pieces;
    std::optional<double> wdl, dtw, mtc;
    const char* run;
};

// clang-format off
constexpr std::array measured_rows{
    // 8x8: english 2-6, a run of each metric.
    MeasuredBits{8, false, 2, 3.2853, 5.0064, 2.7019, "english 2-6"},
    MeasuredBits{8, true, 2, 3.5565, 4.9919, 3.0242, "english 2-6"},
    MeasuredBits{8, false, 3, 0.1562, 2.4194, 0.1789, "english 2-6"},
    MeasuredBits{8, true, 3, 0.1839, 2.5785, 1.5825, "english 2-6"},
    MeasuredBits{8, false, 4, 0.1355, 1.8767, 0.0541, "english 2-6"},
    MeasuredBits{8, true, 4, 0.1662, 1.5095, 0.5190, "english 2-6"},
    MeasuredBits{8, false, 5, 0.0412, 2.7901, 0.1039, "english 2-6"},
    MeasuredBits{8, true, 5, 0.0258, 2.7433, 1.1103, "english 2-6"},
    MeasuredBits{8, false, 6, 0.0415, 2.1091, 0.0685, "english 2-6"},
    MeasuredBits{8, true, 6, 0.0225, 1.6487, 0.2268, "english 2-6"},
    // english 2-7, the whole set's wdl and dtw (zstd-planes, recoded), nearly all of it classes
    // with men.
    MeasuredBits{8, false, 7, 0.0252, 2.615, std::nullopt, "english 2-7"},
    // english 0404, 0304 and 0403 (`gen -v english -p 8 -c 0404 --metric mtc`), the three
    // classes' files.
    MeasuredBits{8, true, 8, 0.0534, std::nullopt, 0.2835, "english 0404"},
    // 10x10: international 2-5, a run of each metric.
    MeasuredBits{10, false, 2, 1.4486, 3.0586, 1.0658, "international 2-5"},
    MeasuredBits{10, true, 2, 1.1135, 1.1298, 0.9371, "international 2-5"},
    MeasuredBits{10, false, 3, 0.0966, 1.0778, 0.0662, "international 2-5"},
    MeasuredBits{10, true, 3, 0.0714, 0.4388, 0.0500, "international 2-5"},
    MeasuredBits{10, false, 4, 0.0755, 0.8809, 0.0317, "international 2-5"},
    MeasuredBits{10, true, 4, 0.0805, 0.6506, 0.0250, "international 2-5"},
    MeasuredBits{10, false, 5, 0.0342, 1.0871, 0.0511, "international 2-5"},
    MeasuredBits{10, true, 5, 0.0079, 0.7836, 0.1549, "international 2-5"},
    // international 2-6, the whole set's wdl and dtw, nearly all of it 6-piece classes with men;
    // its five kings-only 6-piece classes' wdl files (985.2 M positions, 2,591,220 bytes).
    MeasuredBits{10, false, 6, 0.0329, 1.103, std::nullopt, "international 2-6"},
    MeasuredBits{10, true, 6, 0.0210, std::nullopt, std::nullopt, "international 2-6"},
};
// clang-format on

// The other codecs' bytes against the defaults', measured on the same files: mtc-context,
// zstd-planes and zstd against mtc-wdl (english 2-5 / international 2-4; zstd taken as
// zstd-planes times dtw's factor), zstd against zstd-planes for dtw (english 2-7's files
// recoded), both classes' wdl values against the mirror layout (the option's own figure), both
// classes' mtc values against the mirror layout (english 2-6 / international 2-5: 58,561,200 /
// 24,532,322 bytes and 39,407,228 / 11,030,970; --full-wdl stores both anyway).
constexpr double dtw_zstd_factor = 1.195;
constexpr double full_wdl_factor = 2.0;
double full_mtc_factor(const BoardSpec& board) {
    return board.width == 10 ? 3.572 : 2.387;
}
double mtc_codec_factor(const BoardSpec& board, Codec codec) {
    const bool ten = board.width == 10;
    switch (codec) {
        case Codec::mtc_context:
            return ten ? 1.457 : 1.144;
        case Codec::zstd_planes:
            return ten ? 3.269 : 1.849;
        case Codec::zstd:
            return mtc_codec_factor(board, Codec::zstd_planes) * dtw_zstd_factor;
        default:
            return 1.0;
    }
}

// The mtc files' bytes with the distances up to the fold stored as one (table/mtc_fold.hpp),
// against none (the rows), by fold: each board's 2-5 set generated at each fold (`damas gen -v V
// -p 5 --metric mtc --mtc-fold N`, docs/performance.md, "Folded MTC distances"), english's
// bytes of 2,652,911 and international's of 11,030,970.
struct FoldFactor {
    int fold;
    double eight, ten;  // english, international
};
// clang-format off
constexpr std::array measured_folds{
    FoldFactor{2, 0.933, 0.813},  // english 2,475,385 B, international 8,964,236
    FoldFactor{4, 0.654, 0.432},  // 1,734,206 and 4,770,624
    FoldFactor{5, 0.580, 0.354},  // 1,537,904 and 3,902,924
    FoldFactor{6, 0.536, 0.322},  // 1,421,229 and 3,548,578
    FoldFactor{8, 0.444, 0.262},  // 1,179,173 and 2,893,157
};
// clang-format on

// The measured factor of the fold, or between the measured folds either side of it, linearly (3
// between 2 and 4, 7 between 6 and 8).
double mtc_fold_factor(const BoardSpec& board, int fold) {
    const bool ten = board.width == 10;
    if (fold < 2) return 1.0;
    const auto factor = [ten](const FoldFactor& f) { return ten ? f.ten : f.eight; };
    const FoldFactor* below = &measured_folds.front();
    for (const FoldFactor& f : measured_folds) {
        if (f.fold == fold) return factor(f);
        if (f.fold > fold) {
            const double t = static_cast<double>(fold - below->fold) / (f.fold - below->fold);
            return factor(*below) + t * (factor(f) - factor(*below));
        }
        below = &f;
    }
    return factor(measured_folds.back());
}

// The measured row of this board and kind with most pieces at most `pieces` that has `field`,
// else the one with fewest pieces.
template <class Field>
const MeasuredBits* row_for(const BoardSpec& board, bool kings_only, int pieces, Field field) {
    const MeasuredBits* best = nullptr;
    const MeasuredBits* fewest = nullptr;
    for (const MeasuredBits& r : measured_rows) {
        if ((r.board_width == 10) != (board.width == 10) || r.kings_only != kings_only ||
            !(r.*field))
            continue;
        if (r.pieces <= pieces && (!best || r.pieces > best->pieces)) best = &r;
        if (!fewest || r.pieces < fewest->pieces) fewest = &r;
    }
    return best ? best : fewest;
}

double bits_of(const BoardSpec& board, bool kings_only, int pieces,
               std::optional<double> MeasuredBits::*field) {
    const MeasuredBits* r = row_for(board, kings_only, pieces, field);
    if (!r) r = row_for(board, !kings_only, pieces, field);
    return r ? *(r->*field) : 0.0;
}

}  // namespace

TableBits table_bits_per_position(const BoardSpec& board, Material m, const GenerateOptions& o) {
    const bool kings_only = m.men() == 0;
    TableBits bits;
    bits.wdl = bits_of(board, kings_only, m.pieces(), &MeasuredBits::wdl) *
               (o.mirror_wdl ? 1.0 : full_wdl_factor);
    if (distance_metric(o, m) == Metric::mtc)
        bits.distance = bits_of(board, kings_only, m.pieces(), &MeasuredBits::mtc) *
                        mtc_codec_factor(board, o.mtc_codec) * mtc_fold_factor(board, o.mtc_fold) *
                        (o.mirror_wdl && o.mirror_mtc ? 1.0 : full_mtc_factor(board));
    else
        bits.distance = bits_of(board, kings_only, m.pieces(), &MeasuredBits::dtw) *
                        (o.distance_codec == Codec::zstd ? dtw_zstd_factor : 1.0);
    return bits;
}

std::string disk_model_text(const BoardSpec& board, const GenerateOptions& o) {
    int most_men = 0, most_kings = 0;
    std::string runs;
    for (const MeasuredBits& r : measured_rows) {
        if ((r.board_width == 10) != (board.width == 10)) continue;
        int& most = r.kings_only ? most_kings : most_men;
        most = std::max(most, r.pieces);
        if (runs.find(r.run) == std::string::npos)
            runs += (runs.empty() ? "" : ", ") + std::string(r.run);
    }
    char text[384];
    std::snprintf(
        text, sizeof text,
        "bits a position measured by pieces and kind of class on %s (with men up to %d "
        "pieces, kings only up to %d; classes beyond take the last)%s%s",
        runs.c_str(), most_men, most_kings,
        o.metric == Metric::mtc && o.mtc_codec != Codec::mtc_wdl
            ? ", times the codec's measured factor"
            : "",
        o.metric == Metric::mtc && o.mtc_fold >= 2 ? ", mtc times the fold's measured factor" : "");
    return text;
}

}  // namespace damas
