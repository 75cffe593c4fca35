// The C interface (damas_probe.h) over the C++ Tablebase: argument checks, square masks to a
// Position, statuses and values to plain ints. No exception crosses it.
#include "probe/damas_probe.h"

#include <cstdio>
#include <cstring>
#include <exception>
#include <optional>

#include "probe/probe.hpp"

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

damas_result result_of(ProbeResult r) {
    return {static_cast<int>(r.status), static_cast<int>(r.ok() ? r.value : damas::Value::unknown),
            static_cast<int>(r.plies)};
}

damas_result failed(int status) {
    return {status, DAMAS_UNKNOWN, 0};
}

enum class Kind { wdl, wdl_cached, dtw };

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
    }
    return failed(DAMAS_INVALID_ARGUMENT);
}

void write_error(char* error, size_t size, const char* text) {
    if (error && size > 0) std::snprintf(error, size, "%s", text);
}

}  // namespace

extern "C" {

damas_tablebase* damas_open(const char* dir, size_t cache_mib, int max_pieces, char* error,
                            size_t error_size) {
    if (!dir) {
        write_error(error, error_size, "no database folder given");
        return nullptr;
    }
    try {
        auto handle = std::make_unique<damas_tablebase>();
        handle->tb = damas::Tablebase::open(dir, cache_mib, max_pieces);
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
    if (status == DAMAS_INVALID_ARGUMENT) return "invalid argument";
    if (status < DAMAS_OK || status > DAMAS_INVALID_POSITION) return "unknown status";
    return damas::probe_status_name(static_cast<ProbeStatus>(status));
}

const char* damas_value_string(int value) {
    if (value < DAMAS_LOSS || value > DAMAS_UNKNOWN) return "unknown";
    return damas::value_name(static_cast<damas::Value>(value));
}

}  // extern "C"
