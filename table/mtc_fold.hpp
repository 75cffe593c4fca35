// Folded MTC distances (format.hpp, "Folded distances"): the value an mtc file with fold F
// stores, and the bounded search its readers (the probe, the generator's store) tell the folded
// distances apart with.
//
// Owns: the fold of a value and its resolution. The search asks its reader two things: the WDL
// value of any position (captures resolved), and what the files store of a quiet position of the
// pair's classes: an exact MTC, a folded one (1 to F), or none (the mirror layout: a search of
// its moves). "Is the MTC of q at most k" looks at q's moves only where the files cannot answer,
// with k one less at each ply, so it ends within k plies even where king moves go round in
// circles; a folded position's MTC is the least k (1 to F) it holds for.
#pragma once

#include <cstdint>
#include <optional>

#include "rules/movegen.hpp"
#include "table/format.hpp"
#include "table/outcome.hpp"

namespace damas {

// The value an mtc file folded at `fold` stores for mtc value v.
constexpr std::uint16_t fold_mtc(std::uint16_t v, int fold) {
    if (fold < 2 || v == mtc_draw || v == dtw_unknown) return v;
    const int d = mtc_distance(v);
    return d >= 1 && d <= fold ? mtc_encode((v & 1) != 0, 1) : v;
}

// Whether a stored value v of a file folded at `fold` stands for any distance from 1 to fold.
constexpr bool mtc_folded(std::uint16_t v, int fold) {
    return fold >= 2 && v != mtc_draw && v != dtw_unknown && mtc_distance(v) == 1;
}

// What the files store of a quiet position's MTC.
struct StoredMtc {
    enum class Kind : std::uint8_t {
        exact,   // plies
        folded,  // 1 to the file's fold
        none,    // no value stored (mirror layout): its moves are searched
        failed,  // a read failed (the reader keeps why)
    };
    Kind kind = Kind::failed;
    std::uint16_t plies = 0;
};

// Reader: std::optional<Value> value(const Position&) (nullopt: a read failed), and
// StoredMtc stored(const Position&) for a quiet position whose both sides have pieces.
template <class R, class Reader>
class FoldedMtc {
  public:
    FoldedMtc(const Reader& reader, int fold) : reader_(reader), fold_(fold) {}

    // The MTC of quiet position p, of value v (a win or a loss), whose file stores a folded
    // distance. Nothing if a read failed or no distance up to the fold fits (the files disagree).
    std::optional<std::uint16_t> resolve(const Position& p, Value v) const {
        MoveList moves;
        MoveGenerator<R>::generate(p, moves);
        for (int k = 1; k <= fold_; ++k) {
            const std::optional<bool> w = searched_within(p, moves, v, k);
            if (!w) return std::nullopt;
            if (*w) return static_cast<std::uint16_t>(k);
        }
        return std::nullopt;
    }

  private:
    // Whether the MTC of q (value v for its side to move) is at most k.
    std::optional<bool> within(const Position& q, Value v, int k) const {
        MoveList moves;
        if (q.of(q.side)) MoveGenerator<R>::generate(q, moves);
        if (moves.empty()) return true;            // MTC 0
        if (moves[0].is_capture()) return k >= 1;  // it converts at once
        const StoredMtc s = reader_.stored(q);
        switch (s.kind) {
            case StoredMtc::Kind::failed:
                return std::nullopt;
            case StoredMtc::Kind::exact:
                return s.plies <= k;
            case StoredMtc::Kind::folded:
                if (k >= fold_) return true;
                break;
            case StoredMtc::Kind::none:
                break;
        }
        return searched_within(q, moves, v, k);
    }

    // The same from q's moves: a conversion counts 1 ply, a king move 1 + the MTC after it; the
    // winner needs one move within k, the loser has all of them within k.
    std::optional<bool> searched_within(const Position& q, const MoveList& moves, Value v,
                                        int k) const {
        if (moves.empty()) return true;
        if (k < 1) return false;
        for (const Move& mv : moves) {
            const bool converts = mv.is_capture() || !(q.kings & bit(mv.from));
            if (v == Value::loss && converts) continue;
            const Position after = make_move(q, mv);
            if (v == Value::win) {
                const std::optional<Value> a = reader_.value(after);
                if (!a) return std::nullopt;
                if (*a != Value::loss) continue;
                if (converts) return true;
            }
            const std::optional<bool> w =
                within(after, v == Value::win ? Value::loss : Value::win, k - 1);
            if (!w) return std::nullopt;
            if (v == Value::win && *w) return true;
            if (v == Value::loss && !*w) return false;
        }
        return v == Value::loss;
    }

    const Reader& reader_;
    int fold_;
};

}  // namespace damas
