// The C interface (damas_probe.h) over the C++ Tablebase: argument checks, square masks to a
// Position, statuses and values to plain ints. No exception crosses it.
#include "probe/damas_probe.h"

#include <chrono>
#include <cstdio>
#include <cstring>
#include <exception>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "probe/limits_probe.hpp"
#include "probe/probe.hpp"
#include "rules/error.hpp"
#include "rules/notation.hpp"
#include "rules/printable.hpp"

struct damas_tablebase {
    std::unique_ptr<damas::Tablebase> tb;
};

namespace {

using damas::ProbeResult;
using damas::ProbeStatus;

static_assert(DAMAS_OK == static_cast<int>(ProbeStatus::ok));
static_assert(DAMAS_NOT_IN_DATABASE == static_cast<int>(ProbeStatus::not_in_database));
static_assert(DAMAS_NOT_IN_CACHE == static_cast<int>(ProbeStatus::not_in_cache));
static_assert(DAMAS_ERROR_CORRUPT == static_cast<int>(ProbeStatus::error_corrupt));
static_assert(DAMAS_ERROR_IO == static_cast<int>(ProbeStatus::error_io));
static_assert(DAMAS_INVALID_POSITION == static_cast<int>(ProbeStatus::invalid_position));
static_assert(DAMAS_INVALID_ARGUMENT == static_cast<int>(ProbeStatus::invalid_argument));
static_assert(DAMAS_NO_RULE_TABLE == static_cast<int>(ProbeStatus::no_rule_table));
static_assert(DAMAS_UNREACHABLE_COUNTS == static_cast<int>(ProbeStatus::unreachable_counts));
static_assert(DAMAS_LOSS == static_cast<int>(damas::Value::loss));
static_assert(DAMAS_DRAW == static_cast<int>(damas::Value::draw));
static_assert(DAMAS_WIN == static_cast<int>(damas::Value::win));
static_assert(DAMAS_UNKNOWN == static_cast<int>(damas::Value::unknown));
static_assert(DAMAS_TURKISH + 1 == damas::base_variant_count);

std::optional<damas::Variant> variant_of(int number) {
    const int base = number & ~DAMAS_GIVEAWAY;
    if (base < 0 || base >= damas::base_variant_count) return std::nullopt;
    return damas::Variant{static_cast<damas::BaseVariant>(base), (number & DAMAS_GIVEAWAY) != 0};
}

int metric_of(damas::Metric m) {
    return m == damas::Metric::dtw   ? DAMAS_METRIC_DTW
           : m == damas::Metric::mtc ? DAMAS_METRIC_MTC
                                     : DAMAS_METRIC_NONE;
}

damas_result result_of(ProbeResult r) {
    return {static_cast<int>(r.status), static_cast<int>(r.ok() ? r.value : damas::Value::unknown),
            static_cast<int>(r.plies), r.ok() ? metric_of(r.metric) : DAMAS_METRIC_NONE};
}

damas_result failed(int status) {
    return {status, DAMAS_UNKNOWN, 0, DAMAS_METRIC_NONE};
}

enum class Kind { wdl, wdl_cached, dtw, distance };

damas_result probe(const damas_tablebase* handle, int variant, uint64_t white, uint64_t black,
                   uint64_t kings, int side, Kind kind) {
    const auto v = variant_of(variant);
    if (!handle || !v || (side != DAMAS_WHITE && side != DAMAS_BLACK))
        return failed(DAMAS_INVALID_ARGUMENT);
    const damas::SquareMasks masks{white, black, kings,
                                   side == DAMAS_WHITE ? damas::Color::white : damas::Color::black};
    const auto p = damas::position_from_masks(*v, masks);
    if (!p) return failed(DAMAS_INVALID_POSITION);
    switch (kind) {
        case Kind::wdl:
            return result_of(handle->tb->probe_wdl(*v, *p));
        case Kind::wdl_cached:
            return result_of(handle->tb->probe_wdl_cached(*v, *p));
        case Kind::dtw:
            return result_of(handle->tb->probe_dtw(*v, *p));
        case Kind::distance:
            return result_of(handle->tb->probe_distance(*v, *p));
    }
    return failed(DAMAS_INVALID_ARGUMENT);
}

void write_error(char* error, size_t size, const char* text) {
    if (error && size > 0) std::snprintf(error, size, "%s", damas::printable(text, 1000).c_str());
}

// The FEN inside the PDN tag form [FEN "W:..."], or the text itself.
std::string_view fen_text(std::string_view s) {
    constexpr std::string_view open = "[FEN \"", close = "\"]";
    if (s.size() >= open.size() + close.size() && s.substr(0, open.size()) == open &&
        s.substr(s.size() - close.size()) == close)
        return s.substr(open.size(), s.size() - open.size() - close.size());
    return s;
}

// The position of a FEN, or nullopt (and the message) if it does not parse.
std::optional<damas::Position> position_of_fen(damas::Variant v, const char* fen,
                                               std::string* message = nullptr) {
    if (!fen) {
        if (message) *message = "no FEN given";
        return std::nullopt;
    }
    try {
        return damas::parse_fen(v, fen_text(fen));
    } catch (const std::exception& e) {
        if (message) *message = e.what();
    }
    return std::nullopt;
}

// The rules of the counts' edition; none where the edition or the forcada side is unknown.
std::optional<damas::DrawRules> rules_of(damas::Variant v, const damas_rule_counts* c) {
    const int edition = c ? c->edition : DAMAS_EDITION_SEED;
    if (edition != DAMAS_EDITION_SEED && edition != DAMAS_EDITION_FMJD) return std::nullopt;
    if (c && (c->forcada_side < DAMAS_FORCADA_SIDE_UNKNOWN ||
              c->forcada_side > DAMAS_FORCADA_SIDE_BLACK))
        return std::nullopt;
    try {
        return damas::draw_rules(
            v, edition == DAMAS_EDITION_FMJD ? damas::Edition::fmjd : damas::Edition::seed);
    } catch (const std::exception&) {  // fmjd outside international
        return std::nullopt;
    }
}

damas::RuleCounters counters_of(const damas_rule_counts* c) {
    damas::RuleCounters r;
    if (!c) return r;
    r.plies_since_capture = c->plies_since_capture;
    r.plies_in_ending = c->plies_in_ending;
    if (c->forcada_plies >= 0) {
        r.forcada_plies = c->forcada_plies;
        if (c->forcada_plies > 0) r.forcada_started = true;
    }
    if (c->forcada_side == DAMAS_FORCADA_SIDE_WHITE) r.forcada_side = damas::Color::white;
    if (c->forcada_side == DAMAS_FORCADA_SIDE_BLACK) r.forcada_side = damas::Color::black;
    return r;
}

damas_rule_result rule_failed(int status) {
    damas_rule_result r{};
    r.status = status;
    r.value = r.rule_value = DAMAS_UNKNOWN;
    return r;
}

damas_rule_result probe_rules(const damas_tablebase* tb, damas::Variant v, const damas::Position& p,
                              const damas_rule_counts* counts) {
    const auto rules = rules_of(v, counts);
    if (!rules) return rule_failed(DAMAS_INVALID_ARGUMENT);
    const damas::RulesResult res = tb->tb->probe_rules(*rules, p, counters_of(counts));
    if (!res.ok()) return rule_failed(static_cast<int>(res.status));
    const damas::RulesAnswer& a = res.answer;
    damas_rule_result r{};
    r.status = DAMAS_OK;
    r.value = static_cast<int>(a.pure.value);
    r.plies = a.pure.value == damas::Value::draw ? 0 : a.pure.plies;
    r.rule_value = static_cast<int>(a.rule.value);
    r.rule_plies = a.rule.value == damas::Value::draw ? 0 : a.rule.plies;
    r.plies_left = a.plies_left;
    r.exact = a.exact ? 1 : 0;
    std::snprintf(r.count, sizeof r.count, "%s", a.count.c_str());
    return r;
}

int probe_root(const damas_tablebase* tb, damas::Variant v, const damas::Position& p,
               const damas_rule_counts* counts, damas_root_move* moves, int capacity, int* count) {
    std::optional<damas::DrawRules> rules;
    if (counts) {
        rules = rules_of(v, counts);
        if (!rules) return DAMAS_INVALID_ARGUMENT;
    }
    std::vector<damas::RootMove> list;
    const damas::ProbeStatus s =
        tb->tb->probe_root(v, p, list, rules ? &*rules : nullptr, counters_of(counts));
    if (s != damas::ProbeStatus::ok) return static_cast<int>(s);
    *count = static_cast<int>(list.size());
    if (static_cast<int>(list.size()) > capacity) return DAMAS_INVALID_ARGUMENT;
    const damas::VariantInfo& vi = v.info();
    for (std::size_t i = 0; i < list.size(); ++i) {
        const damas::RootMove& m = list[i];
        damas_root_move& out = moves[i];
        std::snprintf(out.notation, sizeof out.notation, "%s", m.notation.c_str());
        out.from = damas::square_number(vi, m.move.from);
        out.to = damas::square_number(vi, m.move.to);
        out.value = static_cast<int>(m.result.value);
        out.plies = m.result.plies;
        out.rule_value = m.rule ? static_cast<int>(m.rule->value) : DAMAS_UNKNOWN;
        out.rule_plies = m.rule && m.rule->value != damas::Value::draw ? m.rule->plies : 0;
        out.metric = metric_of(m.result.metric);
    }
    return DAMAS_OK;
}

std::optional<damas::Position> masks_position(damas::Variant v, uint64_t white, uint64_t black,
                                              uint64_t kings, int side) {
    const damas::SquareMasks masks{white, black, kings,
                                   side == DAMAS_WHITE ? damas::Color::white : damas::Color::black};
    return damas::position_from_masks(v, masks);
}

}  // namespace

extern "C" {

damas_tablebase* damas_open(const char* dir, size_t cache_mib, int max_pieces, char* error,
                            size_t error_size) {
    return damas_open_with_messages(dir, cache_mib, max_pieces, nullptr, nullptr, error,
                                    error_size);
}

damas_tablebase* damas_open_with_messages(const char* dir, size_t cache_mib, int max_pieces,
                                          damas_message_fn message, void* user_data, char* error,
                                          size_t error_size) {
    if (!dir) {
        write_error(error, error_size, "no database folder given");
        return nullptr;
    }
    try {
        auto handle = std::make_unique<damas_tablebase>();
        std::function<void(const std::string&)> forward;
        if (message)
            forward = [message, user_data](const std::string& line) {
                message(damas::printable(line, 1000).c_str(), user_data);
            };
        handle->tb = damas::Tablebase::open(dir, cache_mib, max_pieces, std::move(forward));
        write_error(error, error_size, "");
        return handle.release();
    } catch (const std::exception& e) {
        write_error(error, error_size, e.what());
    } catch (...) {
        write_error(error, error_size, "cannot open the database");
    }
    return nullptr;
}

void damas_close(damas_tablebase* tb) {
    delete tb;
}

int damas_refresh(damas_tablebase* tb) {
    if (!tb) return DAMAS_INVALID_ARGUMENT;
    try {
        tb->tb->refresh();
        return DAMAS_OK;
    } catch (...) {  // out of memory while looking at the folder again
        return DAMAS_ERROR_IO;
    }
}

int damas_set_retry_delay(damas_tablebase* tb, int milliseconds) {
    if (!tb || milliseconds < 0) return DAMAS_INVALID_ARGUMENT;
    tb->tb->set_retry_delay(std::chrono::milliseconds(milliseconds));
    return DAMAS_OK;
}

damas_result damas_probe_wdl(const damas_tablebase* tb, int variant, uint64_t white, uint64_t black,
                             uint64_t kings, int side_to_move) {
    return probe(tb, variant, white, black, kings, side_to_move, Kind::wdl);
}

damas_result damas_probe_wdl_cached(const damas_tablebase* tb, int variant, uint64_t white,
                                    uint64_t black, uint64_t kings, int side_to_move) {
    return probe(tb, variant, white, black, kings, side_to_move, Kind::wdl_cached);
}

damas_result damas_probe_dtw(const damas_tablebase* tb, int variant, uint64_t white, uint64_t black,
                             uint64_t kings, int side_to_move) {
    return probe(tb, variant, white, black, kings, side_to_move, Kind::dtw);
}

damas_result damas_probe_distance(const damas_tablebase* tb, int variant, uint64_t white,
                                  uint64_t black, uint64_t kings, int side_to_move) {
    return probe(tb, variant, white, black, kings, side_to_move, Kind::distance);
}

damas_result damas_probe_fen(const damas_tablebase* tb, int variant, const char* fen) {
    const auto v = variant_of(variant);
    if (!tb || !v) return failed(DAMAS_INVALID_ARGUMENT);
    const auto p = position_of_fen(*v, fen);
    if (!p) return failed(DAMAS_INVALID_ARGUMENT);
    return result_of(tb->tb->probe_dtw(*v, *p));
}

damas_rule_result damas_probe_rules(const damas_tablebase* tb, int variant, uint64_t white,
                                    uint64_t black, uint64_t kings, int side_to_move,
                                    const damas_rule_counts* counts) {
    const auto v = variant_of(variant);
    if (!tb || !v || (side_to_move != DAMAS_WHITE && side_to_move != DAMAS_BLACK))
        return rule_failed(DAMAS_INVALID_ARGUMENT);
    const auto p = masks_position(*v, white, black, kings, side_to_move);
    if (!p) return rule_failed(DAMAS_INVALID_POSITION);
    try {
        return probe_rules(tb, *v, *p, counts);
    } catch (...) {
        return rule_failed(DAMAS_ERROR_IO);
    }
}

damas_rule_result damas_probe_rules_fen(const damas_tablebase* tb, int variant, const char* fen,
                                        const damas_rule_counts* counts) {
    const auto v = variant_of(variant);
    if (!tb || !v) return rule_failed(DAMAS_INVALID_ARGUMENT);
    const auto p = position_of_fen(*v, fen);
    if (!p) return rule_failed(DAMAS_INVALID_ARGUMENT);
    try {
        return probe_rules(tb, *v, *p, counts);
    } catch (...) {
        return rule_failed(DAMAS_ERROR_IO);
    }
}

int damas_probe_root(const damas_tablebase* tb, int variant, uint64_t white, uint64_t black,
                     uint64_t kings, int side_to_move, const damas_rule_counts* counts,
                     damas_root_move* moves, int capacity, int* count) {
    const auto v = variant_of(variant);
    if (!tb || !v || !count || (capacity > 0 && !moves) ||
        (side_to_move != DAMAS_WHITE && side_to_move != DAMAS_BLACK))
        return DAMAS_INVALID_ARGUMENT;
    *count = 0;
    const auto p = masks_position(*v, white, black, kings, side_to_move);
    if (!p) return DAMAS_INVALID_POSITION;
    try {
        return probe_root(tb, *v, *p, counts, moves, capacity, count);
    } catch (...) {
        return DAMAS_ERROR_IO;
    }
}

int damas_probe_root_fen(const damas_tablebase* tb, int variant, const char* fen,
                         const damas_rule_counts* counts, damas_root_move* moves, int capacity,
                         int* count) {
    const auto v = variant_of(variant);
    if (!tb || !v || !count || (capacity > 0 && !moves)) return DAMAS_INVALID_ARGUMENT;
    *count = 0;
    const auto p = position_of_fen(*v, fen);
    if (!p) return DAMAS_INVALID_ARGUMENT;
    try {
        return probe_root(tb, *v, *p, counts, moves, capacity, count);
    } catch (...) {
        return DAMAS_ERROR_IO;
    }
}

int damas_parse_fen(int variant, const char* fen, uint64_t* white, uint64_t* black, uint64_t* kings,
                    int* side_to_move, char* error, size_t error_size) {
    const auto v = variant_of(variant);
    if (!v || !white || !black || !kings || !side_to_move) {
        write_error(error, error_size, "invalid argument");
        return DAMAS_INVALID_ARGUMENT;
    }
    std::string message;
    const auto p = position_of_fen(*v, fen, &message);
    if (!p) {
        write_error(error, error_size, message.c_str());
        return DAMAS_INVALID_ARGUMENT;
    }
    const damas::SquareMasks m = damas::masks_from_position(*v, *p);
    *white = m.white;
    *black = m.black;
    *kings = m.kings;
    *side_to_move = m.side == damas::Color::white ? DAMAS_WHITE : DAMAS_BLACK;
    write_error(error, error_size, "");
    return DAMAS_OK;
}

int damas_print_fen(int variant, uint64_t white, uint64_t black, uint64_t kings, int side_to_move,
                    char* out, size_t out_size) {
    const auto v = variant_of(variant);
    if (!v || !out || out_size == 0 || (side_to_move != DAMAS_WHITE && side_to_move != DAMAS_BLACK))
        return DAMAS_INVALID_ARGUMENT;
    const auto p = masks_position(*v, white, black, kings, side_to_move);
    if (!p || ((white & black) != 0) || (kings & ~(white | black)) != 0)
        return DAMAS_INVALID_POSITION;
    try {
        const std::string fen = damas::to_fen(*v, *p);
        if (fen.size() + 1 > out_size) return DAMAS_INVALID_ARGUMENT;
        std::snprintf(out, out_size, "%s", fen.c_str());
        return DAMAS_OK;
    } catch (...) {
        return DAMAS_ERROR_IO;
    }
}

int damas_largest(const damas_tablebase* tb, int variant) {
    const auto v = variant_of(variant);
    return tb && v ? tb->tb->largest_class(*v) : 0;
}

int damas_variant_from_name(const char* name) {
    if (!name) return -1;
    const auto v = damas::parse_variant(name);
    if (!v) return -1;
    return static_cast<int>(v->base) | (v->giveaway ? DAMAS_GIVEAWAY : 0);
}

const char* damas_variant_name(int variant) {
    static const auto names = [] {
        std::array<std::string, 2 * damas::base_variant_count> n;
        for (int i = 0; i < 2 * damas::base_variant_count; ++i)
            n[i] = damas::Variant{static_cast<damas::BaseVariant>(i % damas::base_variant_count),
                                  i >= damas::base_variant_count}
                       .name();
        return n;
    }();
    const auto v = variant_of(variant);
    if (!v) return nullptr;
    return names[static_cast<int>(v->base) + (v->giveaway ? damas::base_variant_count : 0)].c_str();
}

const char* damas_status_string(int status) {
    if (status < DAMAS_OK || status > DAMAS_UNREACHABLE_COUNTS) return "unknown status";
    return damas::probe_status_name(static_cast<ProbeStatus>(status));
}

const char* damas_value_string(int value) {
    if (value < DAMAS_LOSS || value > DAMAS_UNKNOWN) return "unknown";
    return damas::value_name(static_cast<damas::Value>(value));
}

}  // extern "C"
