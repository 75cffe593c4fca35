// damas.hpp: the installed C++ interface of the damas endgame tablebase prober (draughts
// family), for engines written in C++17 or later.
//
//   #include <damas.hpp>                     // -I <prefix>/include/damas (pkg-config damas-probe)
//   damas::api::Tablebase tb("db");           // throws damas::api::Error if it cannot open
//   const auto p = damas::api::parse_fen(damas::api::Variant::english, "W:WK18,K19:BK1");
//   const damas::api::Result r = tb.probe_dtw(damas::api::Variant::english, p);
//   if (r.ok() && r.value == damas::api::Value::win) ...   // r.plies: the DTW
//
// Owns nothing but a handle of the C interface (damas_probe.h): this header is inline code over
// it, and includes only it and the standard library, so it compiles from C++17 (-std=c++17
// -Wall -Wextra -Wpedantic) with no header of the library's internals, and a program links
// libdamas-probe's C symbols only (no C++ ABI to match). The library itself is C++20; its own
// C++ API (probe/probe.hpp) is for code built with it and is not installed.
//
// Everything the C interface says holds here: square masks in PDN numbering (bit n-1 is square
// n; turkish: bit 8 * rank + file), values for the side to move, distances in plies, thread
// safety (every const member function and refresh may be called from any number of threads at
// once; construction, move and destruction may not overlap other calls), failures that do not
// stick (see damas_probe.h). Probes answer a status, never throw; bad input to parse_fen and a
// folder that cannot be opened throw Error.
#ifndef DAMAS_HPP
#define DAMAS_HPP

#include <array>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "damas_probe.h"

namespace damas::api {

struct Error : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// A base variant; giveaway(v) is its giveaway form (the side that cannot move wins).
enum class Variant : int {
    international = DAMAS_INTERNATIONAL,
    brazilian = DAMAS_BRAZILIAN,
    portuguese = DAMAS_PORTUGUESE,
    russian = DAMAS_RUSSIAN,
    italian = DAMAS_ITALIAN,
    english = DAMAS_ENGLISH,
    turkish = DAMAS_TURKISH,
};
constexpr Variant giveaway(Variant v) {
    return static_cast<Variant>(static_cast<int>(v) | DAMAS_GIVEAWAY);
}
// "english", "turkish-giveaway", ...; nullopt for an unknown name.
inline std::optional<Variant> variant_from_name(const std::string& name) {
    const int v = damas_variant_from_name(name.c_str());
    if (v < 0) return std::nullopt;
    return static_cast<Variant>(v);
}
inline std::string variant_name(Variant v) {
    const char* name = damas_variant_name(static_cast<int>(v));
    return name ? name : "";
}

enum class Side : int { white = DAMAS_WHITE, black = DAMAS_BLACK };

enum class Status : int {
    ok = DAMAS_OK,
    not_in_database = DAMAS_NOT_IN_DATABASE,  // a class needed is missing, or too many pieces
    not_in_cache = DAMAS_NOT_IN_CACHE,        // probe_wdl_cached: a block needed is not cached
    error_corrupt = DAMAS_ERROR_CORRUPT,      // a table file is damaged
    error_io = DAMAS_ERROR_IO,                // a table file could not be opened or read
    invalid_position = DAMAS_INVALID_POSITION,
    invalid_argument = DAMAS_INVALID_ARGUMENT,
    no_rule_table = DAMAS_NO_RULE_TABLE,            // a rule table is missing: run damas gen-rules
    unreachable_counts = DAMAS_UNREACHABLE_COUNTS,  // no game reaches the counts given
};
inline const char* status_name(Status s) {
    return damas_status_string(static_cast<int>(s));
}

enum class Value : int {
    loss = DAMAS_LOSS,
    draw = DAMAS_DRAW,
    win = DAMAS_WIN,
    unknown = DAMAS_UNKNOWN,
};
inline const char* value_name(Value v) {
    return damas_value_string(static_cast<int>(v));
}

// International's editions of the limited endings: the seed text (10 moves) or FMJD's (16).
enum class Edition : int { seed = DAMAS_EDITION_SEED, fmjd = DAMAS_EDITION_FMJD };

// A position as square masks in PDN numbering; kings is a subset of white | black.
struct Position {
    std::uint64_t white = 0;
    std::uint64_t black = 0;
    std::uint64_t kings = 0;
    Side side = Side::white;  // to move
};

// The position of a FEN ("W:WK18,K19:BK1", or the PDN tag form [FEN "W:..."]); throws Error
// with the one-line reason if it does not parse.
inline Position parse_fen(Variant v, const std::string& fen) {
    Position p;
    int side = DAMAS_WHITE;
    std::array<char, 512> error{};
    if (damas_parse_fen(static_cast<int>(v), fen.c_str(), &p.white, &p.black, &p.kings, &side,
                        error.data(), error.size()) != DAMAS_OK)
        throw Error(error.data());
    p.side = static_cast<Side>(side);
    return p;
}
// The FEN of a position; throws Error for masks naming no square of the variant.
inline std::string to_fen(Variant v, const Position& p) {
    std::array<char, 256> out{};
    if (damas_print_fen(static_cast<int>(v), p.white, p.black, p.kings, static_cast<int>(p.side),
                        out.data(), out.size()) != DAMAS_OK)
        throw Error("the masks name squares the " + variant_name(v) + " board does not have");
    return out.data();
}

// What a distance counts (damas_probe.h's enum damas_metric): nothing (probe_wdl), plies to the
// end of the game (dtw), or plies to the next capture or man move (mtc: gen --metric mtc).
enum class Metric { none = DAMAS_METRIC_NONE, dtw = DAMAS_METRIC_DTW, mtc = DAMAS_METRIC_MTC };

struct Result {
    Status status = Status::ok;
    Value value = Value::unknown;  // for the side to move; unknown unless ok
    int plies = 0;  // probe_dtw: the DTW in plies (0 for a draw); probe_distance: as `metric`
    Metric metric = Metric::none;  // what plies counts
    bool ok() const { return status == Status::ok; }
};

// The move-limit counts already used at a position (all 0: every count starts now).
struct RuleCounts {
    int plies_since_capture = 0;  // since the last capture or man move (king-move rules)
    int plies_in_ending = 0;      // since the current limited ending began
    int forcada_plies = 0;        // portuguese 3 kings against 1: plies since the forcada count
                                  // started (0: started iff a king is on the long diagonal)
    Edition edition = Edition::seed;
    // Portuguese, the forcada run on into 1 king against 1: the side whose three kings started
    // it (the position no longer tells); unset, `exact` says whether that side matters.
    std::optional<Side> forcada_side;
};

struct RuleResult {
    Status status = Status::ok;  // the fields below are meaningful when ok
    Value value = Value::unknown;
    int plies = 0;                      // the pure DTW (0 for a draw)
    Value rule_value = Value::unknown;  // under the move-limit rules
    int rule_plies = 0;  // to the rule's goal (the end of the game, or the capture or man move
                         // that restarts the count in a position still won); 0 for a draw
    int plies_left = 0;  // plies the count in force has left
    bool exact = true;   // false only where RuleCounts::forcada_side is unset and matters
    std::string count;   // the count in force, e.g. "the 5-move rule"
    bool ok() const { return status == Status::ok; }
};

// One legal move at the root, for the side that plays it, counting the move.
struct RootMove {
    std::string notation;  // PDN: "9-14", "18x11"; every capture when two share their ends
    int from = 0, to = 0;  // square numbers
    Value value = Value::unknown;
    int plies = 0;  // DTW or MTC, as metric says (0 for a draw)
    Metric metric = Metric::none;
    // Under the move-limit rules, when counts were given.
    std::optional<Value> rule_value;
    int rule_plies = 0;
};

class Tablebase {
  public:
    // Problems met while probing (a damaged file, once per file), one line each; called from
    // whichever thread met one, never from two at once.
    using MessageFn = std::function<void(const std::string&)>;

    // Opens a database folder (holding one folder per variant); tables open on first use.
    // cache_mib: the block cache's budget (at most DAMAS_MAX_CACHE_MIB); max_pieces: probe only
    // positions with at most that many pieces (0: 10). Throws Error if it cannot be opened.
    explicit Tablebase(const std::string& dir, std::size_t cache_mib = 64, int max_pieces = 0,
                       MessageFn message = {})
        : message_(message ? std::make_unique<MessageFn>(std::move(message)) : nullptr) {
        std::array<char, 512> error{};
        tb_.reset(damas_open_with_messages(dir.c_str(), cache_mib, max_pieces,
                                           message_ ? &relay : nullptr, message_.get(),
                                           error.data(), error.size()));
        if (!tb_) throw Error(error.data());
    }

    // Win, draw or loss; may read the disk.
    Result probe_wdl(Variant v, const Position& p) const noexcept {
        return result(damas_probe_wdl(tb_.get(), static_cast<int>(v), p.white, p.black, p.kings,
                                      static_cast<int>(p.side)));
    }
    // The same from the block cache only (deep in a search): Status::not_in_cache when a block
    // needed is not cached yet; never reads the disk.
    Result probe_wdl_cached(Variant v, const Position& p) const noexcept {
        return result(damas_probe_wdl_cached(tb_.get(), static_cast<int>(v), p.white, p.black,
                                             p.kings, static_cast<int>(p.side)));
    }
    // The value and the DTW in plies; may read the disk.
    Result probe_dtw(Variant v, const Position& p) const noexcept {
        return result(damas_probe_dtw(tb_.get(), static_cast<int>(v), p.white, p.black, p.kings,
                                      static_cast<int>(p.side)));
    }
    // The value and the distance the position's class holds, DTW or MTC (Result::metric says
    // which); may read the disk.
    Result probe_distance(Variant v, const Position& p) const noexcept {
        return result(damas_probe_distance(tb_.get(), static_cast<int>(v), p.white, p.black,
                                           p.kings, static_cast<int>(p.side)));
    }
    // The value under the move-limit draw rules given the counts already used, with the pure
    // value and DTW (needs the rule tables of `damas gen-rules`).
    RuleResult probe_rules(Variant v, const Position& p, const RuleCounts& counts = {}) const {
        const damas_rule_counts c = c_counts(counts);
        const damas_rule_result r =
            damas_probe_rules(tb_.get(), static_cast<int>(v), p.white, p.black, p.kings,
                              static_cast<int>(p.side), &c);
        RuleResult out;
        out.status = static_cast<Status>(r.status);
        out.value = static_cast<Value>(r.value);
        out.plies = r.plies;
        out.rule_value = static_cast<Value>(r.rule_value);
        out.rule_plies = r.rule_plies;
        out.plies_left = r.plies_left;
        out.exact = r.exact != 0;
        out.count = r.count;
        return out;
    }
    // Every legal move with its value and DTW, best first (wins by shortest distance, draws,
    // losses by longest); empty when the game is over. counts: also each move's value under the
    // move-limit rules (nullptr: not asked). Allocates.
    Status probe_root(Variant v, const Position& p, std::vector<RootMove>& moves,
                      const RuleCounts* counts = nullptr) const {
        moves.clear();
        std::vector<damas_root_move> raw(DAMAS_MAX_MOVES);
        damas_rule_counts c{};
        if (counts) c = c_counts(*counts);
        int n = 0;
        const auto s = static_cast<Status>(damas_probe_root(
            tb_.get(), static_cast<int>(v), p.white, p.black, p.kings, static_cast<int>(p.side),
            counts ? &c : nullptr, raw.data(), static_cast<int>(raw.size()), &n));
        if (s != Status::ok) return s;
        for (int i = 0; i < n; ++i) {
            const damas_root_move& m = raw[static_cast<std::size_t>(i)];
            RootMove out;
            out.notation = m.notation;
            out.from = m.from;
            out.to = m.to;
            out.value = static_cast<Value>(m.value);
            out.plies = m.plies;
            out.metric = static_cast<Metric>(m.metric);
            if (counts) out.rule_value = static_cast<Value>(m.rule_value);
            out.rule_plies = m.rule_plies;
            moves.push_back(std::move(out));
        }
        return Status::ok;
    }

    // The most pieces of a complete class of the variant (when opened or last refreshed).
    int largest(Variant v) const { return damas_largest(tb_.get(), static_cast<int>(v)); }
    // Lets go of every open table and cached block (see damas_refresh).
    void refresh() { damas_refresh(tb_.get()); }
    // How long a failed table answers its failure before it is tried again (default 1 s).
    void set_retry_delay(std::chrono::milliseconds delay) {
        damas_set_retry_delay(tb_.get(), static_cast<int>(delay.count()));
    }
    // The C handle, for the functions of damas_probe.h.
    const damas_tablebase* handle() const { return tb_.get(); }

  private:
    struct Close {
        void operator()(damas_tablebase* tb) const { damas_close(tb); }
    };
    static void relay(const char* line, void* user_data) {
        try {
            (*static_cast<MessageFn*>(user_data))(line);
        } catch (...) {  // an exception must not cross the C interface
        }
    }
    static Result result(const damas_result& r) {
        return {static_cast<Status>(r.status), static_cast<Value>(r.value), r.plies,
                static_cast<Metric>(r.metric)};
    }
    static damas_rule_counts c_counts(const RuleCounts& c) {
        const int side = !c.forcada_side                  ? DAMAS_FORCADA_SIDE_UNKNOWN
                         : *c.forcada_side == Side::white ? DAMAS_FORCADA_SIDE_WHITE
                                                          : DAMAS_FORCADA_SIDE_BLACK;
        return {c.plies_since_capture, c.plies_in_ending, c.forcada_plies,
                static_cast<int>(c.edition), side};
    }

    std::unique_ptr<MessageFn> message_;  // outlives tb_, which calls it
    std::unique_ptr<damas_tablebase, Close> tb_;
};

}  // namespace damas::api

#endif  // DAMAS_HPP
