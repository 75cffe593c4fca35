// An independent reference solver for small piece counts, written for the tests without the
// generator's code: it shares only the move generator (MoveGenerator<R>::generate, make_move)
// and the board geometry. No un-moves, no class index, no colour flip, no outcome.hpp: every
// position is a node of its own (both sides to move), found by enumerating every placement,
// and the game graph is built from forward moves only.
//
// Values (RULES.md): the side to move with no legal move loses (S000 7.2), or wins in giveaway
// ("perde-ganha", S004). Turkish: a side with a single piece, a man, against at least one king
// has lost on the spot (S004 "no máximo uma peça contra uma dama", RULES.md "win" row); that is a
// win condition, so giveaway (where only "cannot move" decides) does not use it.
// DTW: plies to the end with best play, the winner the shortest way, the loser the longest;
// 0 at a position where the game is over.
//
// Method: positions are grouped by (pieces, men). A move either stays in its group (quiet,
// not crowning) or leaves it for a group with fewer pieces or fewer men, solved before. Inside a
// group: the explicit successor lists (forward moves), their reversal, and the textbook
// retrograde count: a position is a win in d + 1 when a successor is a loss in d (the first,
// smallest d reached, since distances are processed in increasing order); a loss when every
// successor is a win, at 1 + the largest of their distances, and it is only scheduled at that
// distance; what is never resolved is a draw.
#pragma once

#include <algorithm>
#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "rules/movegen.hpp"

namespace damas::test {

enum class Wdl : std::uint8_t { loss = 0, draw = 1, win = 2 };  // same numbers as the files

struct RefResult {
    Wdl value = Wdl::draw;
    std::uint16_t dtw = 0;  // 0 for draws
    bool operator==(const RefResult&) const = default;
};

inline const char* wdl_name(Wdl v) {
    return v == Wdl::win ? "win" : v == Wdl::loss ? "loss" : "draw";
}

// The best result for the side to move from the results after each move (from the opponent's
// point of view). `results` must not be empty.
inline RefResult best_of(const std::vector<RefResult>& results) {
    bool win = false, draw = false;
    int win_d = 0, loss_d = 0;
    for (const RefResult& r : results) {
        if (r.value == Wdl::loss) {
            if (!win || r.dtw + 1 < win_d) win_d = r.dtw + 1;
            win = true;
        } else if (r.value == Wdl::draw) {
            draw = true;
        } else {
            loss_d = std::max(loss_d, r.dtw + 1);
        }
    }
    if (win) return {Wdl::win, static_cast<std::uint16_t>(win_d)};
    if (draw) return {Wdl::draw, 0};
    return {Wdl::loss, static_cast<std::uint16_t>(loss_d)};
}

template <class R>
class ReferenceSolver {
    using B = typename R::Board;

  public:
    static constexpr int max_pieces = 3;  // the key packs at most 3 pieces

    ReferenceSolver(bool giveaway, int pieces) : giveaway_(giveaway) {
        if (pieces > max_pieces) throw std::invalid_argument("reference solver: at most 3 pieces");
        for (int n = 2; n <= pieces; ++n)
            for (int men = 0; men <= n; ++men) solve_group(n, men);
    }

    // The result of any position with 2..pieces pieces, at least one per side, no man on its
    // promotion row.
    RefResult result(const Position& p) const {
        if (!p.of(p.side)) return no_move();
        const Group& g = group_of(p);
        const std::uint32_t k = key(p);
        const auto it = std::lower_bound(g.keys.begin(), g.keys.end(), k);
        if (it == g.keys.end() || *it != k)
            throw std::logic_error("reference solver: position not enumerated");
        return g.results[static_cast<std::size_t>(it - g.keys.begin())];
    }

    // Turkish "king against a lone man": the result if the material ends the game, else draw
    // with dtw 0xFFFF as "no".
    RefResult material_end(const Position& p) const {
        if constexpr (R::king_beats_lone_man) {
            if (!giveaway_) {
                const auto lone_man = [&](Color c) {
                    return popcount(p.of(c)) == 1 && popcount(p.of(c) & p.kings) == 0;
                };
                const auto has_king = [&](Color c) { return (p.of(c) & p.kings) != 0; };
                if (lone_man(p.side) && has_king(~p.side)) return {Wdl::loss, 0};
                if (lone_man(~p.side) && has_king(p.side)) return {Wdl::win, 0};
            }
        }
        return {Wdl::draw, 0xFFFF};
    }
    static bool ends(const RefResult& r) { return !(r.value == Wdl::draw && r.dtw == 0xFFFF); }

    RefResult no_move() const { return {giveaway_ ? Wdl::win : Wdl::loss, 0}; }

    // Every enumerated position of a group, for callers that walk them.
    template <class F>
    void for_each(F&& f) const {
        for (const auto& [gk, g] : groups_)
            for (std::size_t i = 0; i < g.keys.size(); ++i) f(decode(g.keys[i]), g.results[i]);
    }
    std::uint64_t positions() const {
        std::uint64_t n = 0;
        for (const auto& [gk, g] : groups_) n += g.keys.size();
        return n;
    }

    // Unique key of a position with at most 3 pieces: side, then per piece in bit order
    // 9 bits (bit + 1, black?, king?).
    static std::uint32_t key(const Position& p) {
        std::uint32_t k = p.side == Color::black ? 1u : 0u;
        int shift = 1;
        for_each_bit(p.occupied(), [&](int b) {
            const std::uint32_t code = (static_cast<std::uint32_t>(b + 1) << 2) |
                                       (((p.pieces[1] >> b) & 1) != 0 ? 2u : 0u) |
                                       (((p.kings >> b) & 1) != 0 ? 1u : 0u);
            k |= code << shift;
            shift += 9;
        });
        return k;
    }
    static Position decode(std::uint32_t k) {
        Position p;
        p.side = (k & 1) != 0 ? Color::black : Color::white;
        for (k >>= 1; k != 0; k >>= 9) {
            const std::uint32_t code = k & 0x1FF;
            const Bitboard b = bit(static_cast<int>(code >> 2) - 1);
            p.pieces[(code & 2) != 0 ? 1 : 0] |= b;
            if (code & 1) p.kings |= b;
        }
        return p;
    }

  private:
    struct Group {
        std::vector<std::uint32_t> keys;  // sorted
        std::vector<RefResult> results;
    };

    static std::pair<int, int> group_key(const Position& p) {
        return {popcount(p.occupied()), popcount(p.occupied() & ~p.kings)};
    }
    const Group& group_of(const Position& p) const {
        const auto it = groups_.find(group_key(p));
        if (it == groups_.end()) throw std::logic_error("reference solver: group not solved");
        return it->second;
    }

    // Every placement of n pieces, `men` of them men, at least one per side, men never on their
    // promotion row, either side to move.
    std::vector<std::uint32_t> enumerate(int n, int men) const {
        std::vector<int> squares;
        for_each_bit(B::mask, [&](int b) { squares.push_back(b); });
        const Bitboard white_promotion = B::row(B::height - 1), black_promotion = B::row(0);
        std::vector<std::uint32_t> keys;
        std::vector<int> chosen(static_cast<std::size_t>(n));
        const auto place = [&](auto&& self, int depth, std::size_t first) -> void {
            if (depth == n) {
                for (int kinds = 0; kinds < (1 << (2 * n)); ++kinds) {
                    Position p;
                    int man_count = 0;
                    bool legal = true;
                    for (int i = 0; i < n; ++i) {
                        const int kind = (kinds >> (2 * i)) & 3;  // bit 0 black, bit 1 king
                        const Bitboard b = bit(chosen[static_cast<std::size_t>(i)]);
                        const bool black = (kind & 1) != 0, king = (kind & 2) != 0;
                        p.pieces[black ? 1 : 0] |= b;
                        if (king) {
                            p.kings |= b;
                        } else {
                            ++man_count;
                            if (b & (black ? black_promotion : white_promotion)) legal = false;
                        }
                    }
                    if (!legal || man_count != men || !p.pieces[0] || !p.pieces[1]) continue;
                    for (Color side : {Color::white, Color::black}) {
                        p.side = side;
                        keys.push_back(key(p));
                    }
                }
                return;
            }
            for (std::size_t s = first; s < squares.size(); ++s) {
                chosen[static_cast<std::size_t>(depth)] = squares[s];
                self(self, depth + 1, s + 1);
            }
        };
        place(place, 0, 0);
        std::sort(keys.begin(), keys.end());
        return keys;
    }

    void solve_group(int n, int men) {
        constexpr std::uint16_t none = 0xFFFF;
        Group g;
        g.keys = enumerate(n, men);
        const std::size_t size = g.keys.size();
        const auto local = [&](const Position& q) -> std::size_t {
            const auto it = std::lower_bound(g.keys.begin(), g.keys.end(), key(q));
            if (it == g.keys.end() || *it != key(q))
                throw std::logic_error("reference solver: successor not enumerated");
            return static_cast<std::size_t>(it - g.keys.begin());
        };

        // Successors: in-group edges, and what leaving moves give.
        std::vector<std::uint32_t> succ_start(size + 1, 0), succ;
        std::vector<std::uint16_t> win(size, none), loss(size, 0), pending(size, 0);
        std::vector<std::uint8_t> draw_exit(size, 0), resolved(size, 0);
        std::vector<std::vector<std::uint32_t>> buckets;
        const auto schedule = [&](std::size_t i, int d) {
            if (buckets.size() <= static_cast<std::size_t>(d))
                buckets.resize(static_cast<std::size_t>(d) + 1);
            buckets[static_cast<std::size_t>(d)].push_back(static_cast<std::uint32_t>(i));
        };
        std::vector<std::uint32_t> here;
        MoveList moves;
        for (std::size_t i = 0; i < size; ++i) {
            succ_start[i] = static_cast<std::uint32_t>(succ.size());
            const Position p = decode(g.keys[i]);
            if (const RefResult end = material_end(p); ends(end)) {
                if (end.value == Wdl::win) win[i] = 0;
                schedule(i, 0);
                continue;
            }
            MoveGenerator<R>::generate(p, moves);
            if (moves.empty()) {
                if (giveaway_) win[i] = 0;
                schedule(i, 0);
                continue;
            }
            here.clear();
            for (const Move& m : moves) {
                const Position q = make_move(p, m);
                if (group_key(q) == std::make_pair(n, men)) {
                    here.push_back(static_cast<std::uint32_t>(local(q)));
                    continue;
                }
                const RefResult r = result(q);  // a smaller group, already solved
                if (r.value == Wdl::loss)
                    win[i] = std::min<std::uint16_t>(win[i], static_cast<std::uint16_t>(r.dtw + 1));
                else if (r.value == Wdl::win)
                    loss[i] =
                        std::max<std::uint16_t>(loss[i], static_cast<std::uint16_t>(r.dtw + 1));
                else
                    draw_exit[i] = 1;
            }
            std::sort(here.begin(), here.end());
            here.erase(std::unique(here.begin(), here.end()), here.end());
            succ.insert(succ.end(), here.begin(), here.end());
            pending[i] = static_cast<std::uint16_t>(here.size());
            if (win[i] != none)
                schedule(i, win[i]);
            else if (pending[i] == 0 && !draw_exit[i])
                schedule(i, loss[i]);
        }
        succ_start[size] = static_cast<std::uint32_t>(succ.size());

        // Predecessors: the successor lists reversed.
        std::vector<std::uint32_t> pred_start(size + 1, 0), pred(succ.size());
        for (std::uint32_t s : succ) ++pred_start[s + 1];
        for (std::size_t i = 0; i < size; ++i) pred_start[i + 1] += pred_start[i];
        {
            std::vector<std::uint32_t> fill(pred_start.begin(), pred_start.end() - 1);
            for (std::size_t i = 0; i < size; ++i)
                for (std::uint32_t e = succ_start[i]; e < succ_start[i + 1]; ++e)
                    pred[fill[succ[e]]++] = static_cast<std::uint32_t>(i);
        }

        g.results.assign(size, RefResult{Wdl::draw, 0});
        for (std::size_t d = 0; d < buckets.size(); ++d) {
            for (std::size_t b = 0; b < buckets[d].size(); ++b) {
                const std::uint32_t i = buckets[d][b];
                if (resolved[i]) continue;
                Wdl value;
                if (win[i] == d)
                    value = Wdl::win;
                else if (win[i] == none && pending[i] == 0 && !draw_exit[i] && loss[i] == d)
                    value = Wdl::loss;
                else
                    continue;
                resolved[i] = 1;
                g.results[i] = {value, static_cast<std::uint16_t>(d)};
                const auto next = static_cast<std::uint16_t>(d + 1);
                for (std::uint32_t e = pred_start[i]; e < pred_start[i + 1]; ++e) {
                    const std::uint32_t q = pred[e];
                    if (resolved[q]) continue;
                    if (value == Wdl::loss) {
                        if (next < win[q]) {
                            win[q] = next;
                            schedule(q, next);
                        }
                    } else {
                        loss[q] = std::max(loss[q], next);
                        if (--pending[q] == 0 && win[q] == none && !draw_exit[q])
                            schedule(q, loss[q]);
                    }
                }
            }
        }
        groups_.emplace(std::make_pair(n, men), std::move(g));
    }

    bool giveaway_;
    std::map<std::pair<int, int>, Group> groups_;
};

}  // namespace damas::test
