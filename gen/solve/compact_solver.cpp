#include "gen/solve/compact_solver.hpp"

#include <tbb/blocked_range.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <map>
#include <mutex>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "gen/process/huge_pages.hpp"
#include "gen/solve/exits.hpp"
#include "gen/solve/king_quarters.hpp"
#include "gen/solve/previous_slice.hpp"
#include "gen/units/unit_file.hpp"
#include "index/binomial.hpp"
#include "index/flip.hpp"
#include "index/man_rows.hpp"
#include "rules/error.hpp"
#include "rules/movegen.hpp"
#include "rules/unmove.hpp"
#include "table/outcome.hpp"

namespace damas {
namespace {

// The byte of a position (see the header).
constexpr std::uint8_t max_pending = 100, draw_exit = 101, drawn = 102, overflowed = 103,
                       win_code = 104, loss_code = 180;
constexpr int byte_distances = 76;  // a byte holds wins and losses in 0..75 plies
// The positions whose losses wait for their exits (defer_loss): at most a 256th of a slice's.
constexpr std::uint64_t deferred_share = 256;
// The chunks of the slice before a thread keeps decoded (gen/solve/previous_slice.hpp): 2 Mi
// positions in all, and at least 6 (a position's man moves reach at most a few configurations
// there). The positions of a chunk of the slice before's unit (chunks of chunk_positions): a part
// of a configuration where they are split, else a configuration or a run of small ones of about a
// chunk.
std::uint64_t previous_chunk_positions(std::uint64_t kings_per_men, std::uint64_t chunk_positions) {
    return compact_splits_configurations(kings_per_men, chunk_positions)
               ? chunk_positions
               : std::max(kings_per_men, chunk_positions);
}
int chunks_kept(std::uint64_t kings_per_men, std::uint64_t chunk_positions) {
    const std::uint64_t chunk = previous_chunk_positions(kings_per_men, chunk_positions);
    return static_cast<int>(std::clamp<std::uint64_t>((std::uint64_t{2} << 20) / chunk, 6,
                                                      solving::PreviousChunks::capacity));
}

bool is_open(std::uint8_t b) {
    return b >= 1 && b <= draw_exit;
}
bool is_pending(std::uint8_t b) {
    return b >= 1 && b <= max_pending;
}
std::uint8_t code_of(Outcome o) {
    if (o.value == Value::draw) return drawn;
    return static_cast<std::uint8_t>((o.value == Value::win ? win_code : loss_code) + o.plies);
}
// The outcome a byte names (an open position reads as a draw: what it is if never resolved);
// not for `overflowed`.
Outcome outcome_of(std::uint8_t b) {
    if (b >= loss_code) return {Value::loss, static_cast<std::uint16_t>(b - loss_code)};
    if (b >= win_code) return {Value::win, static_cast<std::uint16_t>(b - win_code)};
    return {Value::draw, 0};
}

template <class R>
class CompactSolver {
  public:
    CompactSolver(const Variant& v, const PairLayout& layout, const SolvedStore& store,
                  const GenerationTuning& tuning, const ProgressFn& progress)
        : variant_(v),
          flip_(v.info().board),
          layout_(layout),
          store_(store),
          progress_(progress),
          k_(layout.kings_per_men()),
          code_distances_(std::clamp(tuning.compact_byte_distances, 1, byte_distances)),
          deferred_batch_(std::max<std::size_t>(1, tuning.compact_deferred_batch)) {}

    void run(int first, int end, const CompactSliceFn& solved, const OpenUnit& open_unit,
             const OpenUnitStream& stream_unit, SolveTimes* times) {
        total_ = layout_.positions();
        for (int s = 0; s < first; ++s) done_ += layout_.slice_positions(s);
        if (first > 0) read_previous(open_unit, first - 1);
        for (int s = first; s < end; ++s) {
            start_slice(s, static_cast<bool>(stream_unit));
            if (grouped_) {
                const std::unique_ptr<UnitStream> unit = stream_unit(s);
                for (std::uint32_t g = 0; g < groups_.size(); ++g) {
                    solve_group(g);
                    put_group(*unit);
                    end_group();
                }
                unit->close();
            } else {
                solve_group(0);
                solved(s, [this](std::uint64_t from, std::span<std::uint16_t> outcomes,
                                 std::span<std::uint8_t> capture) {
                    values(from, outcomes, capture);
                });
                end_group();
            }
            if (s + 1 < end) read_previous(open_unit, s);
        }
        if (times) *times = times_;
    }

  private:
    int mirror(int c) const { return layout_.classes() == 1 ? 0 : 1 - c; }
    // Whether a byte holds the outcome (else it goes to the overflow map).
    bool fits(Outcome o) const { return o.value == Value::draw || o.plies < code_distances_; }

    // A men configuration of the slice being solved: its class and its rank in the slice's list.
    struct Member {
        int c;
        std::uint32_t j;
        // Its mirror configuration (turkish, files reversed), which the group does not hold.
        std::uint32_t mirror = none;
        static constexpr std::uint32_t none = UINT32_MAX;
    };

    // The position at group-local `local` of the group being solved (White to move), and its
    // class.
    Position position_at(std::uint64_t local, int& c) const {
        if (quarters_) return quarters_->position_at(local, c);
        std::uint64_t j = 0;
        if (grouped_) {
            const Member& m = groups_[group_][local / k_];
            c = m.c;
            j = m.j;
        } else {
            c = local < layout_.slice_positions(0, slice_) ? 0 : 1;
            j = (local - layout_.slice_base(c, slice_)) / k_;
        }
        return layout_.index(c).unindex(slice_men_[c][j] * k_ + local % k_);
    }
    // Where a White-to-move position of class c is: its slice, and its group-local position if
    // that is the slice being solved, or its slice-local one if it is the slice before (else
    // `local` is left alone).
    int locate(int c, const Position& p, std::uint64_t& local) const {
        if (quarters_) {  // no men: one slice
            local = quarters_->locate(c, p);
            return slice_;
        }
        const ClassIndex& index = layout_.index(c);
        const int s = index.slice_of(p);
        if (s != slice_ && s != previous_slice_) return s;
        std::uint64_t i = index.index(p);
        if (s == slice_) {
            std::uint64_t j = slice_men_[c].rank(i / k_);
            if (grouped_ && stands_for_mirror_[c][j]) {  // held as its mirror
                i = index.index(reverse_files(p));
                j = slice_men_[c].rank(i / k_);
            }
            local = group_start(c, j) + i % k_;
        } else
            local = layout_.slice_base(c, s) + previous_men_[c].rank(i / k_) * k_ + i % k_;
        return s;
    }
    // The first group-local position of configuration j of class c's list, which quiet moves
    // reach from the group being solved: so it is in that group.
    std::uint64_t group_start(int c, std::uint64_t j) const {
        if (!grouped_) return layout_.slice_base(c, slice_) + j * k_;
        if (group_of_[c][j] != group_)
            throw Error("a quiet move leaves its group of configurations");
        return std::uint64_t{rank_in_group_[c][j]} * k_;
    }

    // The slice's men configurations, and with a unit stream and configurations of at least 4 Ki
    // positions, its groups: the configurations quiet moves connect (king moves keep the men,
    // and turkish sideways man moves their rows), each solved alone. A group is a configuration
    // and its flip's in the mirror class on the diagonal boards, and on the turkish board every
    // configuration with the same men per row (its flips'), so a group holds a small part of the
    // slice: turkish 1213 + 1312, 8.3 G positions of a 48.7 G slice.
    void start_slice(int s, bool can_stream) {
        slice_ = s;
        for (int c = 0; c < layout_.classes(); ++c) slice_men_[c] = layout_.slice_men(c, s);
        grouped_ = can_stream && UnitStream::streams(k_, layout_.unit_chunk_positions());
        groups_.clear();
        if (grouped_) make_groups();
        // A kings-only turkish pair with a side of an odd number of kings (one slice): a quarter
        // held.
        const Material m = layout_.index(0).material();
        if (grouped_ && KingQuarters::holds(variant_.info().board, m))
            quarters_ = std::make_unique<KingQuarters>(m, layout_.classes());
    }
    void make_groups() {
        std::map<std::pair<Bitboard, Bitboard>, std::uint32_t> ids;
        std::vector<std::uint32_t> mirror_of[2];
        std::vector<bool> halved;  // by group: no configuration is its own mirror
        for (int c = 0; c < layout_.classes(); ++c) {
            const SliceMen& men = slice_men_[c];
            group_of_[c].assign(men.size(), 0);
            mirror_of[c].assign(men.size(), Member::none);
            for (std::uint64_t j = 0; j < men.size(); ++j) {
                const MenPlacement placement = layout_.index(c).men(men[j]);
                // In the first class's colours (a mirror configuration is the flip of one).
                Bitboard white = placement.white, black = placement.black;
                if (c == 1)
                    white = flip_.rotate(placement.black), black = flip_.rotate(placement.white);
                auto key = group_key(white, black);
                if (layout_.classes() == 1)
                    key = std::min(key, group_key(flip_.rotate(black), flip_.rotate(white)));
                const auto [it, added] =
                    ids.try_emplace(key, static_cast<std::uint32_t>(halved.size()));
                if (added) halved.push_back(R::men_move_sideways);
                group_of_[c][j] = it->second;
                if constexpr (R::men_move_sideways) {
                    const Bitboard w = damas::reverse_files(placement.white);
                    const Bitboard b = damas::reverse_files(placement.black);
                    const std::uint64_t m = layout_.index(c).men_index(w, b);
                    if (m == men[j]) halved[it->second] = false;
                    mirror_of[c][j] = static_cast<std::uint32_t>(men.rank(m));
                }
            }
        }
        // A halved group holds one of each pair of mirror configurations, the one first in the
        // slice's list: no position of it is its own mirror, so the mirror of a move is a move
        // and un-moves count as they do unhalved.
        groups_.assign(halved.size(), {});
        for (int c = 0; c < layout_.classes(); ++c) {
            const std::uint64_t n = slice_men_[c].size();
            rank_in_group_[c].assign(n, 0);
            stands_for_mirror_[c].assign(n, false);
            for (std::uint64_t j = 0; j < n; ++j) {
                const std::uint32_t g = group_of_[c][j];
                std::uint32_t mirror = Member::none;
                if (halved[g]) {
                    if (mirror_of[c][j] < j) {
                        stands_for_mirror_[c][j] = true;
                        continue;
                    }
                    mirror = mirror_of[c][j];
                }
                rank_in_group_[c][j] = static_cast<std::uint32_t>(groups_[g].size());
                groups_[g].push_back({c, static_cast<std::uint32_t>(j), mirror});
            }
        }
    }
    // A position with its files reversed (gen/solve/king_quarters.hpp), which has the same value.
    static Position reverse_files(const Position& p) {
        Position m = p;
        m.pieces[0] = damas::reverse_files(p.pieces[0]);
        m.pieces[1] = damas::reverse_files(p.pieces[1]);
        m.kings = damas::reverse_files(p.kings);
        return m;
    }
    // What quiet moves keep of a configuration: its squares, or (turkish) its men per row.
    std::pair<Bitboard, Bitboard> group_key(Bitboard white, Bitboard black) const {
        if constexpr (!R::men_move_sideways) {
            return {white, black};
        } else {
            Bitboard w = 0, b = 0;
            for (int y = 0; y < R::Board::height; ++y) {
                w |= static_cast<Bitboard>(popcount(white & R::Board::row(y))) << (4 * y);
                b |= static_cast<Bitboard>(popcount(black & R::Board::row(y))) << (4 * y);
            }
            return {w, b};
        }
    }

    void solve_group(std::uint32_t g) {
        const auto t0 = std::chrono::steady_clock::now();
        group_ = g;
        size_ = quarters_  ? quarters_->size()
                : grouped_ ? groups_[g].size() * k_
                           : layout_.slice_positions(slice_);
        bytes_ = make_huge_array<std::atomic<std::uint8_t>>(size_);
        capture_ = make_huge_array<std::atomic<std::uint64_t>>((size_ + 63) / 64);
        highest_ = 0;
        // A 256th of the group's positions listed at most, a 32nd of a byte each: still
        // hundreds of positions a unit chunk when sorted.
        deferred_limit_ = std::max<std::size_t>(
            deferred_batch_,
            size_ / deferred_share /
                static_cast<std::uint64_t>(tbb::this_task_arena::max_concurrency()));
        for_ranges(size_, [&](std::uint64_t begin, std::uint64_t end) {
            for (std::uint64_t local = begin; local < end; ++local) initialise(local);
        });
        report(size_ / 2);
        const auto t1 = std::chrono::steady_clock::now();
        for (int d = 0; d <= highest_.load(); ++d) resolve_level(d);
        const auto t2 = std::chrono::steady_clock::now();
        times_.initialise += std::chrono::duration<double>(t1 - t0).count();
        times_.resolve += std::chrono::duration<double>(t2 - t1).count();
    }
    void end_group() {
        done_ += size_;
        if (quarters_)
            done_ += layout_.slice_positions(slice_) - size_;
        else if (grouped_)
            for (const Member& m : groups_[group_])
                if (m.mirror != Member::none) done_ += k_;
        report(0);
        bytes_.reset();
        overflow_ = {};
        levels_.clear();
        capture_.reset();
    }
    // The solved group's values to the slice's unit, a configuration (or a part of a large one)
    // a chunk, in parallel: each member's from the bytes, and each configuration a held
    // position stands for (a halved group's mirrors, a quartered pair's classes) position by
    // position, located.
    void put_group(UnitStream& unit) const {
        struct Put {
            int c;
            std::uint64_t j;      // its rank in the slice's list
            std::uint64_t local;  // where its bytes are, unless located
            bool located;
        };
        std::vector<Put> puts;
        if (quarters_) {
            for (int c = 0; c < layout_.classes(); ++c) puts.push_back({c, 0, 0, true});
        } else {
            const std::vector<Member>& group = groups_[group_];
            for (std::size_t e = 0; e < group.size(); ++e) {
                puts.push_back({group[e].c, group[e].j, e * k_, false});
                if (group[e].mirror != Member::none)
                    puts.push_back({group[e].c, group[e].mirror, 0, true});
            }
        }
        const std::uint64_t part = split_ ? std::min(k_, layout_.unit_chunk_positions()) : k_;
        const std::uint64_t parts = (k_ + part - 1) / part;
        tbb::parallel_for(std::uint64_t{0}, puts.size() * parts, [&](std::uint64_t i) {
            const Put& put = puts[i / parts];
            const std::uint64_t at = (i % parts) * part, n = std::min(part, k_ - at);
            thread_local std::vector<std::uint16_t> outcomes;
            thread_local std::vector<std::uint8_t> capture;
            outcomes.resize(n);
            capture.resize(n);
            if (!put.located) {
                values(put.local + at, outcomes, capture);
            } else {
                const std::uint64_t first = slice_men_[put.c][put.j] * k_ + at;
                layout_.index(put.c).for_each_position(
                    first, first + n, [&](std::uint64_t x, const Position& p) {
                        std::uint64_t local = 0;
                        locate(put.c, p, local);
                        values(local, std::span(outcomes).subspan(x - first, 1),
                               std::span(capture).subspan(x - first, 1));
                    });
            }
            unit.put(layout_.slice_base(put.c, slice_) + put.j * k_ + at, outcomes, capture);
        });
    }

    template <class F>
    static void for_ranges(std::uint64_t n, F&& f) {
        constexpr std::uint64_t part = std::uint64_t{1} << 16;
        tbb::parallel_for(std::uint64_t{0}, (n + part - 1) / part,
                          [&](std::uint64_t j) { f(j * part, std::min(n, (j + 1) * part)); });
    }

    // Whether a quiet move's successor stays in the slice; if not (a man move to the slice
    // before), its outcome goes to `exit`.
    bool in_slice(int c, const Position& p, const Move& m, Outcome& exit) const {
        const Position after = flip_(make_move(p, m));
        std::uint64_t local = 0;
        const int s = locate(mirror(c), after, local);
        if (s == slice_) return true;
        if (s != previous_slice_)
            throw Error("a man move leads to slice " + std::to_string(s) + ", not the one before");
        exit = unpack_outcome(
            *previous_chunks_->local().outcomes(*previous_unit_, previous_slice_, local, 1));
        return false;
    }

    void initialise(std::uint64_t local) {
        int c = 0;
        const Position p = position_at(local, c);
        if (const Outcome m = material_outcome<R>(p, variant_.giveaway);
            m.value != Value::unknown) {
            schedule(local, m);  // the whole pair ends the game on the spot
            return;
        }
        MoveList moves;
        solving::Exits exits;
        int pending = 0;
        if (MoveGenerator<R>::has_capture(p)) {
            capture_[local / 64].fetch_or(std::uint64_t{1} << (local % 64),
                                          std::memory_order_relaxed);
            MoveGenerator<R>::generate_captures(p, moves);
            for (const Move& m : moves) exits.add(store_.lookup<R>(make_move(p, m)));
        } else {
            MoveGenerator<R>::generate(p, moves);
            if (moves.size() == 0) {  // no move: lost, or won in giveaway, at once
                schedule(local, {variant_.giveaway ? Value::win : Value::loss, 0});
                return;
            }
            for (const Move& m : moves) {
                Outcome exit;
                if (m.promotes)
                    exits.add(store_.lookup<R>(make_move(p, m)));
                else if (in_slice(c, p, m, exit))
                    ++pending;
                else
                    exits.add(exit);
            }
        }
        if (exits.win != solving::Exits::no_win)
            schedule(local, {Value::win, static_cast<std::uint16_t>(exits.win)});
        else if (pending == 0)
            schedule(local, exits.draw
                                ? Outcome{Value::draw, 0}
                                : Outcome{Value::loss, static_cast<std::uint16_t>(exits.loss)});
        else if (exits.draw)
            bytes_[local].store(draw_exit, std::memory_order_relaxed);
        else if (pending > max_pending)
            throw Error("too many quiet moves in one position");
        else
            bytes_[local].store(static_cast<std::uint8_t>(pending), std::memory_order_relaxed);
    }

    // Sets a position's first byte (one thread per position): its value, or the level it may
    // resolve at.
    void schedule(std::uint64_t local, Outcome o) {
        if (o.plies > max_plies) throw Error("distance beyond " + std::to_string(max_plies));
        if (fits(o)) {
            bytes_[local].store(code_of(o), std::memory_order_relaxed);
        } else {
            const std::lock_guard lock(overflow_mutex_);
            overflow_[local] = pack_outcome(o);
            levels_[o.plies].push_back(local);
            bytes_[local].store(overflowed, std::memory_order_relaxed);
        }
        if (o.value != Value::draw) raise_highest(o.plies);
    }
    void raise_highest(int d) {
        int cur = highest_.load(std::memory_order_relaxed);
        while (d > cur && !highest_.compare_exchange_weak(cur, d, std::memory_order_relaxed)) {
        }
    }

    // Level d: every position whose byte (or overflow entry) names a win or a loss in d.
    void resolve_level(int d) {
        std::atomic<std::uint64_t> resolved{0};
        if (d < code_distances_) {
            const auto win = static_cast<std::uint8_t>(win_code + d),
                       loss = static_cast<std::uint8_t>(loss_code + d);
            for_ranges(size_, [&](std::uint64_t begin, std::uint64_t end) {
                std::uint64_t n = 0;
                for (std::uint64_t local = begin; local < end; ++local) {
                    const std::uint8_t b = bytes_[local].load(std::memory_order_relaxed);
                    if (b != win && b != loss) continue;
                    ++n;
                    tell_predecessors(local, b == win ? Value::win : Value::loss, d);
                }
                resolved += n;
            });
        }
        std::vector<std::uint64_t> listed;
        {
            const std::lock_guard lock(overflow_mutex_);
            if (const auto it = levels_.find(d); it != levels_.end()) {
                listed = std::move(it->second);
                levels_.erase(it);
            }
        }
        tbb::parallel_for(std::size_t{0}, listed.size(), [&](std::size_t i) {
            const std::uint64_t local = listed[i];
            Outcome o;
            {
                const std::lock_guard lock(overflow_mutex_);
                if (bytes_[local].load(std::memory_order_relaxed) != overflowed) return;
                o = unpack_outcome(overflow_.at(local));
            }
            if (o.value == Value::draw || o.plies != d) return;  // bettered since
            ++resolved;
            tell_predecessors(local, o.value, d);
        });
        settle_all_deferred(d);
        report(resolved.load());
    }

    // A position resolved at d tells its predecessors in the slice (un-moves of the side that
    // moved, kings and turkish sideways men): a loss offers a win in d + 1, a win takes one
    // from their pending count. Predecessors that must capture are left alone (they cannot
    // have made the quiet move).
    void tell_predecessors(std::uint64_t local, Value value, int d) {
        int c = 0;
        const Position after = flip_(position_at(local, c));
        const int before_class = mirror(c);
        UnmoveGenerator<R>::template for_each<false, true>(after, [&](const Unmove& u) {
            std::uint64_t q = 0;
            if (locate(before_class, u.before, q) != slice_)
                throw Error("an un-move leaves the slice");
            if (capture_[q / 64].load(std::memory_order_relaxed) & (std::uint64_t{1} << (q % 64)))
                return;
            if (value == Value::loss)
                offer_win(q, d);
            else
                take_pending(q, d);
        });
    }

    // Whether a win in `plies` betters what byte b says: an open position, or a win or loss
    // not final yet (scheduled beyond `plies`, or a loss at `plies` itself).
    static bool bettered_by_win(Outcome current, bool open, int plies) {
        if (open) return true;
        if (current.value == Value::draw) return false;
        return current.plies > plies || (current.value == Value::loss && current.plies == plies);
    }

    void offer_win(std::uint64_t q, int d) {
        const Outcome win{Value::win, static_cast<std::uint16_t>(d + 1)};
        std::uint8_t b = bytes_[q].load(std::memory_order_relaxed);
        for (;;) {
            if (b == overflowed || !fits(win)) return settle_overflowing(q, win);
            if (!bettered_by_win(outcome_of(b), is_open(b), d + 1)) return;
            if (bytes_[q].compare_exchange_weak(b, code_of(win), std::memory_order_relaxed))
                return raise_highest(d + 1);
        }
    }

    void take_pending(std::uint64_t q, int d) {
        std::uint8_t b = bytes_[q].load(std::memory_order_relaxed);
        for (;;) {
            if (!is_pending(b)) return;  // a win known, a draw exit, resolved or scheduled
            if (b > 1) {
                if (bytes_[q].compare_exchange_weak(b, static_cast<std::uint8_t>(b - 1),
                                                    std::memory_order_relaxed))
                    return;
                continue;
            }
            // Every quiet move in the slice loses: a loss in the longest of d + 1 and the exits'.
            // The exits are read later, in order (defer_loss).
            return defer_loss(q, d);
        }
    }

    // A position whose last pending move lost at level d: its loss is the longest of d + 1 and
    // its exits' losses, which are read from the slice before's unit file. Those reads are
    // batched and sorted, so that the unit's chunks are decoded once for many positions rather
    // than once each (a position's exits are near its own rank in the configurations its man
    // moves reach). The position's byte stays 1 meanwhile: every quiet move of it has been
    // resolved, so nothing else changes it.
    void defer_loss(std::uint64_t q, int d) {
        std::vector<std::uint64_t>& list = deferred_.local();
        list.push_back(q);
        if (list.size() < deferred_limit_) return;
        settle_deferred(list, d);
        list.clear();
    }
    void settle_deferred(std::span<std::uint64_t> positions, int d) {
        std::sort(positions.begin(), positions.end());
        for (const std::uint64_t q : positions) {
            int c = 0;
            const Position p = position_at(q, c);
            const Outcome loss{
                Value::loss, static_cast<std::uint16_t>(std::max(d + 1, longest_exit_loss(c, p)))};
            if (!fits(loss)) {
                settle_overflowing(q, loss);
                continue;
            }
            std::uint8_t b = 1;
            if (bytes_[q].compare_exchange_strong(b, code_of(loss), std::memory_order_relaxed))
                raise_highest(loss.plies);
            else
                throw Error("a position's pending count changed after its last move lost");
        }
    }
    // The lists left at the end of a level, merged and settled in parallel, in order.
    void settle_all_deferred(int d) {
        std::vector<std::uint64_t> all;
        for (std::vector<std::uint64_t>& list : deferred_) {
            all.insert(all.end(), list.begin(), list.end());
            std::vector<std::uint64_t>().swap(list);
        }
        if (all.empty()) return;
        std::sort(all.begin(), all.end());
        constexpr std::size_t part = 4096;
        tbb::parallel_for(std::size_t{0}, (all.size() + part - 1) / part, [&](std::size_t j) {
            settle_deferred(std::span(all).subspan(j * part, std::min(part, all.size() - j * part)),
                            d);
        });
    }

    // The longest loss among the exits of a quiet position with no exit that wins or draws.
    int longest_exit_loss(int c, const Position& p) const {
        MoveList moves;
        MoveGenerator<R>::generate(p, moves);
        solving::Exits exits;
        for (const Move& m : moves) {
            Outcome exit;
            if (m.promotes)
                exits.add(store_.lookup<R>(make_move(p, m)));
            else if (!in_slice(c, p, m, exit))
                exits.add(exit);
        }
        return exits.loss;
    }

    // The rare updates that involve the overflow map (distances beyond a byte), one at a time:
    // bytes that say `overflowed` change only here.
    void settle_overflowing(std::uint64_t q, Outcome proposed) {
        const std::lock_guard lock(overflow_mutex_);
        std::uint8_t b = bytes_[q].load(std::memory_order_relaxed);
        for (;;) {
            const bool open = is_open(b);
            const Outcome current =
                b == overflowed ? unpack_outcome(overflow_.at(q)) : outcome_of(b);
            if (proposed.value == Value::win) {
                if (!bettered_by_win(current, open, proposed.plies)) return;
            } else if (b != 1) {  // a loss: only the last pending move's
                return;
            }
            if (b == overflowed) {
                if (fits(proposed)) {
                    overflow_.erase(q);
                    bytes_[q].store(code_of(proposed), std::memory_order_relaxed);
                } else {
                    overflow_[q] = pack_outcome(proposed);
                    levels_[proposed.plies].push_back(q);
                }
                return raise_highest(proposed.plies);
            }
            const std::uint8_t next = fits(proposed) ? code_of(proposed) : overflowed;
            if (next == overflowed) overflow_[q] = pack_outcome(proposed);
            if (bytes_[q].compare_exchange_strong(b, next, std::memory_order_relaxed)) {
                if (next == overflowed) levels_[proposed.plies].push_back(q);
                return raise_highest(proposed.plies);
            }
            if (next == overflowed) overflow_.erase(q);
        }
    }

    // The solved slice's values (unresolved positions are draws).
    void values(std::uint64_t from, std::span<std::uint16_t> outcomes,
                std::span<std::uint8_t> capture) const {
        for (std::size_t i = 0; i < outcomes.size(); ++i) {
            const std::uint64_t local = from + i;
            const std::uint8_t b = bytes_[local].load(std::memory_order_relaxed);
            outcomes[i] = b == overflowed ? overflow_.at(local) : pack_outcome(outcome_of(b));
            capture[i] = (capture_[local / 64].load(std::memory_order_relaxed) >> (local % 64)) & 1;
        }
    }

    // The slice before, from its unit file (written by either solver, in this run or an earlier
    // one): its men configurations, and its values read a chunk at a time.
    void read_previous(const OpenUnit& open_unit, int slice) {
        previous_unit_ = open_unit(slice);
        previous_slice_ = slice;
        for (int c = 0; c < layout_.classes(); ++c) previous_men_[c] = layout_.slice_men(c, slice);
        previous_chunks_ =
            std::make_unique<tbb::enumerable_thread_specific<solving::PreviousChunks>>(
                solving::PreviousChunks(chunks_kept(k_, layout_.unit_chunk_positions())));
    }

    void report(std::uint64_t n) {
        shown_ = std::min(shown_ + n, done_ + size_);
        if (progress_) progress_(std::min(std::max(shown_, done_), total_), total_);
    }

    const Variant variant_;
    const Flipper flip_;
    const PairLayout& layout_;
    const SolvedStore& store_;
    const ProgressFn& progress_;
    const std::uint64_t k_;  // kings placements per men configuration
    // The distances a byte holds (1..byte_distances, fewer in tests: fits), and the fewest
    // losses a thread lists before it settles them (defer_loss).
    const int code_distances_;
    const std::size_t deferred_batch_;
    int slice_ = -1;
    // The men configurations of the slice being solved and of the one before, by class.
    SliceMen slice_men_[2], previous_men_[2];
    // Whether the slice is solved by groups (start_slice), and its unit's chunks split
    // configurations (gen/units/unit_file.hpp).
    bool grouped_ = false;
    const bool split_ = compact_splits_configurations(k_, layout_.unit_chunk_positions());
    std::vector<std::vector<Member>> groups_;
    // By class and rank in the slice's list: each configuration's group and rank there.
    std::vector<std::uint32_t> group_of_[2], rank_in_group_[2];
    // By class and rank in the slice's list: the configurations a halved group holds as their
    // mirror (make_groups).
    std::vector<bool> stands_for_mirror_[2];
    // How the slice is held a quarter (a kings-only pair's, gen/solve/king_quarters.hpp), or null.
    std::unique_ptr<KingQuarters> quarters_;
    std::uint32_t group_ = 0;  // being solved
    std::uint64_t size_ = 0;
    HugeArray<std::atomic<std::uint8_t>> bytes_;
    HugeArray<std::atomic<std::uint64_t>> capture_;  // a bit per position: it must capture
    std::mutex overflow_mutex_;
    std::unordered_map<std::uint64_t, std::uint16_t> overflow_;  // packed outcomes
    std::map<int, std::vector<std::uint64_t>> levels_;  // the overflowed positions by level
    std::atomic<int> highest_{0};
    // Positions whose loss waits for their exits to be read (defer_loss), by thread.
    tbb::enumerable_thread_specific<std::vector<std::uint64_t>> deferred_;
    std::size_t deferred_limit_ = 4096;
    // The slice before (its man moves' exits): its unit file, and each thread's decoded chunks.
    int previous_slice_ = -1;
    std::unique_ptr<UnitReader> previous_unit_;
    mutable std::unique_ptr<tbb::enumerable_thread_specific<solving::PreviousChunks>>
        previous_chunks_;
    std::uint64_t total_ = 0, done_ = 0, shown_ = 0;
    SolveTimes times_;
};

}  // namespace

void solve_slices_compact(const Variant& v, const PairLayout& layout, const SolvedStore& store,
                          const GenerationTuning& tuning, const SlicesToSolve& slices,
                          const CompactSliceFn& solved) {
    const int end = slices.end < 0 ? layout.slice_count() : slices.end;
    dispatch(v.base, [&](auto rules) {
        CompactSolver<decltype(rules)>(v, layout, store, tuning, slices.progress)
            .run(slices.first, end, solved, slices.open_unit, slices.stream_unit, slices.times);
    });
}

bool compact_splits_configurations(std::uint64_t kings_per_men, std::uint64_t chunk_positions) {
    return kings_per_men > 64 * chunk_positions;
}

namespace {

// The most men configurations of class m with the same men on each row that a group holds (a
// turkish group holds those of one class and as many of the mirror's), the best choice of each
// row's White and Black men, row by row: all of them, or half where some row has an odd number
// of White or of Black men (no configuration is then its own mirror: the group is halved).
double most_configurations_by_rows(const BoardSpec& board, Material m) {
    const int wm = m.white_men, bm = m.black_men;
    const GeometryTables t = make_tables(board);
    // best[odd][i][j]: the most configurations of i White and j Black men on the rows so far,
    // odd: with a row of an odd number of either.
    std::vector<std::vector<double>> none(wm + 1, std::vector<double>(bm + 1, 0));
    std::array<std::vector<std::vector<double>>, 2> best{none, none};
    best[0][0][0] = 1;
    for (int y = 0; y < board.height; ++y) {
        const int n = count_bits(t.row(y));
        const int white_max = man_rows(board, Color::white).contains(y) ? n : 0;
        const int black_max = man_rows(board, Color::black).contains(y) ? n : 0;
        auto next = best;
        for (int odd = 0; odd < 2; ++odd)
            for (int i = 0; i <= wm; ++i)
                for (int j = 0; j <= bm; ++j)
                    for (int a = 0; a <= std::min(white_max, i); ++a)
                        for (int b = 0; b <= std::min(std::max(black_max - a, 0), j); ++b) {
                            const double before = best[odd][i - a][j - b];
                            if (before == 0) continue;
                            const int now_odd = odd | (a % 2) | (b % 2);
                            double& to = next[now_odd][i][j];
                            to = std::max(to, before * static_cast<double>(binomial(n, a)) *
                                                  static_cast<double>(binomial(n - a, b)));
                        }
        best.swap(next);
    }
    return std::max(best[0][wm][bm], best[1][wm][bm] / 2);
}

}  // namespace

std::uint64_t compact_group_positions(const Variant& v, Material m) {
    const BoardSpec board = v.info().board;
    if (KingQuarters::holds(board, m)) return KingQuarters::pair_held_positions(m);
    const std::uint64_t k = ClassIndex(board, m).kings_per_men();
    const bool sideways =
        dispatch(v.base, [](auto rules) { return decltype(rules)::men_move_sideways; });
    const double configurations = sideways ? most_configurations_by_rows(board, m) : 1.0;
    return 2 * k * static_cast<std::uint64_t>(configurations);
}

std::uint64_t compact_solver_bytes(const Variant& v, Material m, int threads, bool hybrid,
                                   std::uint64_t chunk_positions) {
    const BoardSpec board = v.info().board;
    const ClassIndex index(board, m), mirror(board, m.mirrored());
    const bool single = m == m.mirrored();
    const std::uint64_t k = index.kings_per_men();
    // A byte and a bit per position of the group being solved (must capture; a group is the
    // slice where configurations are small) and a 32nd of a byte of losses batched, and 16 bytes
    // per configuration of its slice (which group, and where in it); each thread's decoded
    // chunks of the slice before (chunks_kept of them, of 64 Ki positions or of a configuration
    // where the unit's chunks are whole configurations, 3 bytes a position) and small buffers
    // (move lists, a chunk of values while the unit is written).
    const bool grouped = UnitStream::streams(k, chunk_positions);
    const std::uint64_t group = grouped ? compact_group_positions(v, m) : 0;
    std::uint64_t largest = 0, configurations = 0;
    for (int s = 0; s < index.slice_count(); ++s) {
        const std::uint64_t n =
            index.positions_in_slice(s) + (single ? 0 : mirror.positions_in_slice(s));
        if (hybrid && slice_in_components(v, index, s, threads)) continue;
        largest = std::max(largest, grouped ? std::min(n, group) : n);
        if (grouped) configurations = std::max(configurations, n / k);
    }
    const std::uint64_t chunks = static_cast<std::uint64_t>(chunks_kept(k, chunk_positions)) * 3 *
                                 previous_chunk_positions(k, chunk_positions);
    const std::uint64_t quarters =
        grouped && KingQuarters::holds(board, m) ? KingQuarters::table_bytes(m) : 0;
    return largest + largest / 8 + largest / deferred_share * sizeof(std::uint64_t) +
           16 * configurations + quarters +
           static_cast<std::uint64_t>(threads) * ((std::uint64_t{4} << 20) + chunks);
}

}  // namespace damas
