// The explorer's JSON API (see serve_api.hpp).
#include "tools/serve/serve_api.hpp"

#include <charconv>
#include <nlohmann/json.hpp>

#include "index/flip.hpp"
#include "index/material.hpp"
#include "probe/study/class_stats.hpp"
#include "probe/study/root_analysis.hpp"
#include "probe/study/tablebase_answer.hpp"
#include "rules/error.hpp"
#include "rules/notation.hpp"
#include "table/table_file.hpp"
#include "tools/render/analysis_json.hpp"
#include "tools/render/svg.hpp"
#include "tools/render/tablebase_json.hpp"

namespace damas::cli {
namespace {

// Keys in the order written: the answer reads as `damas best --json` does (analysis_json.hpp).
using json = Json;

// Thrown inside a request's handling: the reply's status and its one-line message.
struct RequestError {
    int status;
    std::string message;
};

// Text of the request echoed in a message is UTF-8 (route.cpp checks it); replacing what is not
// keeps any other string from making the answer fail.
std::string dump(const json& j) {
    return j.dump(-1, ' ', false, json::error_handler_t::replace);
}

ApiReply json_reply(const json& j) {
    return {200, dump(j), "application/json", {}, {}};
}

const std::string* param(const QueryParams& q, const char* name) {
    const auto it = q.find(name);
    return it == q.end() ? nullptr : &it->second;
}

int count_param(const QueryParams& q, const char* name) {
    const std::string* s = param(q, name);
    if (!s) return 0;
    int v = -1;
    const auto [end, ec] = std::from_chars(s->data(), s->data() + s->size(), v);
    if (ec != std::errc() || end != s->data() + s->size() || v < 0 || v > 10000)
        throw RequestError{400, std::string(name) + " must be a whole number from 0 to 10000"};
    return v;
}

int status_of(ProbeStatus s) {
    switch (s) {
        case ProbeStatus::ok:
            return 200;
        case ProbeStatus::not_in_database:
        case ProbeStatus::not_in_cache:
            return 404;
        case ProbeStatus::invalid_position:
        case ProbeStatus::invalid_argument:
        case ProbeStatus::unreachable_counts:
            return 400;
        default:
            return 500;
    }
}

}  // namespace

ExplorerApi::ExplorerApi(const std::filesystem::path& dir, std::size_t cache_mib)
    : tb_(Tablebase::open(dir, cache_mib)) {
    for (const std::filesystem::path& p : {std::filesystem::absolute(dir), tb_->dir()}) {
        std::error_code ec;
        const std::filesystem::path canonical = std::filesystem::weakly_canonical(p, ec);
        for (const std::filesystem::path& q : {p, ec ? p : canonical})
            if (const std::string s = q.lexically_normal().string(); s.size() > 1)
                folder_names_.push_back(s);
    }
    for (const Variant v : all_variants())
        if (tb_->largest_class(v) > 0) served_.push_back(v);
    if (served_.empty()) throw Error("no table file under " + dir.string());
}

ExplorerApi::~ExplorerApi() = default;

namespace {

// A first position for the page: two kings against one, in any database of 3 pieces or more.
std::string example_fen(Variant v) {
    const GeometryTables g = make_tables(v.info().board);
    Position p;
    const Bitboard white =
        bit(g.bit_of_square[g.squares / 2]) | bit(g.bit_of_square[g.squares / 2 + 1]);
    const Bitboard black = bit(g.bit_of_square[0]);
    p.pieces = {white, black};
    p.kings = white | black;
    return to_fen(v, p);
}

}  // namespace

ApiReply ExplorerApi::variants() const {
    json list = json::array();
    for (const Variant v : served_)
        list.push_back({{"name", v.name()},
                        {"largest_class", tb_->largest_class(v)},
                        {"initial_fen", std::string(v.info().initial_fen)},
                        {"example_fen", example_fen(v)}});
    return json_reply({{"variants", list}});
}

namespace {

struct Request {
    Variant variant;
    Position position;
};

// The variant and the position, whatever the database holds.
Request parse_position(std::string_view variant_name, const QueryParams& q) {
    const auto v = parse_variant(variant_name);
    if (!v)
        throw RequestError{400, "unknown variant '" + std::string(variant_name.substr(0, 40)) +
                                    "' (known: " + variant_names() + ")"};
    const std::string* fen = param(q, "fen");
    if (!fen || fen->empty()) throw RequestError{400, "missing parameter fen"};
    if (fen->size() > max_fen_length)
        throw RequestError{400,
                           "fen longer than " + std::to_string(max_fen_length) + " characters"};
    Request r{*v, {}};
    try {
        r.position = parse_fen(*v, *fen);
    } catch (const Error& e) {
        throw RequestError{400, e.what()};
    }
    return r;
}

// The same for a variant the database serves, with no more pieces than its largest class.
Request parse_request(const Tablebase& tb, const std::vector<Variant>& served,
                      std::string_view variant_name, const QueryParams& q) {
    const Request r = parse_position(variant_name, q);
    const Variant v = r.variant;
    if (std::find(served.begin(), served.end(), v) == served.end())
        throw RequestError{404, "no " + v.name() + " tables in this database"};
    const int pieces = popcount(r.position.occupied());
    if (pieces > tb.largest_class(v))
        throw RequestError{400, "too many pieces: " + std::to_string(pieces) + " (the " + v.name() +
                                    " tables hold up to " + std::to_string(tb.largest_class(v)) +
                                    ")"};
    return r;
}

RootQuery root_query(Variant v, const QueryParams& q) {
    const std::string* edition_text = param(q, "edition");
    const auto edition = parse_edition(edition_text ? *edition_text : "seed");
    if (!edition) throw RequestError{400, "unknown edition (known: seed, fmjd)"};
    RootQuery r;
    try {
        r.rules = draw_rules(v, *edition);
    } catch (const Error& e) {
        throw RequestError{400, e.what()};
    }
    StatedCounts stated{count_param(q, "plies_since_capture"), count_param(q, "plies_in_ending"),
                        std::nullopt, std::nullopt};
    if (param(q, "forcada_plies")) stated.forcada_plies = count_param(q, "forcada_plies");
    if (const std::string* side = param(q, "forcada_side")) stated.forcada_side = *side;
    try {
        r.counters = counters_stated(v, stated);
    } catch (const Error& e) {
        throw RequestError{400, e.what()};
    }
    return r;
}

// A failure the request did not cause is "internal error" to the client (its message may name
// files) and its message goes to the server's log.
template <class F>
ApiReply guarded(F&& f) {
    try {
        return f();
    } catch (const RequestError& e) {
        return error_reply(e.status, e.message);
    } catch (const std::exception& e) {
        ApiReply r = error_reply(500, "internal error");
        r.note = e.what();
        return r;
    }
}

// The hint of a missing rule table without the database's path: the server's clients neither
// know nor need where it lies.
std::string rule_table_hint(const DrawRules& rules, const Position& p,
                            const std::filesystem::path& missing) {
    std::string hint = "no rule table " + missing.filename().string() +
                       ": the value under the move-limit draw rules needs damas gen-rules -v " +
                       rules.variant.name() + " -p " + std::to_string(popcount(p.occupied()));
    if (rules.edition == Edition::fmjd) hint += " --edition fmjd";
    return hint + " on the database";
}

}  // namespace

// Defence in depth: whatever a lower layer's message says, no answer names the folder.
ApiReply ExplorerApi::without_folder(ApiReply r) const {
    for (const std::string& name : folder_names_)
        for (std::size_t at = r.body.find(name); at != std::string::npos;
             at = r.body.find(name, at))
            r.body.replace(at, name.size(), "(the database)");
    return r;
}

ApiReply ExplorerApi::position(std::string_view variant, const QueryParams& q) const {
    return without_folder(guarded([&] {
        const Request r = parse_request(*tb_, served_, variant, q);
        const RootQuery rq = root_query(r.variant, q);
        RootAnalysis a = study::analyse_root(*tb_, r.variant, r.position, rq);
        if (!a.missing_rule_table.empty())
            a.rules_missing = rule_table_hint(rq.rules, r.position, a.missing_rule_table);
        if (!a.root.ok()) {
            if (a.root.status == ProbeStatus::not_in_database)
                return error_reply(404, "the tables of class " + class_of(r.variant, r.position) +
                                            " (or of a class its moves lead to) are not in the "
                                            "database");
            return error_reply(status_of(a.root.status), probe_status_name(a.root.status));
        }
        // An mtc class answers "mtc" in place of "dtw" (the page marks it: plies to the next
        // conversion, not to the end of the game).
        return json_reply(root_json(r.variant, r.position, rq, a));
    }));
}

ApiReply ExplorerApi::svg(std::string_view variant, const QueryParams& q) const {
    return without_folder(guarded([&] {
        const Request r = parse_position(variant, q);
        SvgOptions o;
        if (const std::string* m = param(q, "move"); m && !m->empty()) {
            o.move = find_move(r.variant, r.position, *m);
            if (!o.move) throw RequestError{400, "not a legal move: " + m->substr(0, 40)};
        }
        return ApiReply{200, board_svg(r.variant, r.position, o), "image/svg+xml", {}, {}};
    }));
}

ApiReply ExplorerApi::stats(std::string_view variant, const QueryParams& q) const {
    return without_folder(guarded([&] {
        const auto v = parse_variant(variant);
        if (!v)
            throw RequestError{400, "unknown variant '" + std::string(variant.substr(0, 40)) + "'"};
        if (std::find(served_.begin(), served_.end(), *v) == served_.end())
            throw RequestError{404, "no " + v->name() + " tables in this database"};
        const std::string* name = param(q, "class");
        if (!name) throw RequestError{400, "missing parameter class"};
        const auto m = Material::parse(*name);
        if (!m || m->white() == 0 || m->black() == 0)
            throw RequestError{400, "bad class '" + name->substr(0, 20) +
                                        "' (four digits wm wk bm bk, a piece on each side)"};
        if (m->pieces() > tb_->largest_class(*v))
            throw RequestError{400, "too many pieces in class " + m->name()};
        if (!std::filesystem::exists(table_path(tb_->dir(), *v, m->name(), Metric::wdl)))
            throw RequestError{404, "class " + m->name() + " is not in the database"};
        const std::string key = v->name() + "/" + m->name();
        std::lock_guard lock(stats_mutex_);
        if (const auto it = stats_cache_.find(key); it != stats_cache_.end())
            return ApiReply{200, it->second, "application/json", {}, {}};
        const DrawRules rules = draw_rules(*v);
        ClassStats s = study::class_stats(
            *v, tb_->dir(), *m,
            [&](const Position& p) {
                const ProbeResult r = tb_->probe_distance(*v, p);
                if (!r.ok()) throw Error(probe_status_name(r.status));
                return r;
            },
            10);
        s.rules = study::rule_stats(tb_->dir(), rules, *m);
        json out = stats_json(s, rules);
        json longest = json::array();
        for (const auto& [plies, p] : s.longest_wins)
            longest.push_back({{"fen", to_fen(*v, p)}, {distance_key(s.metric), plies}});
        out["variant"] = v->name();
        out["longest_wins"] = std::move(longest);
        return ApiReply{200, stats_cache_[key] = dump(out), "application/json", {}, {}};
    }));
}

namespace {

// The variant of a lichess-shaped path: damas's names, and lidraughts' where they name one of
// damas's variants (lidraughts' "standard" is international, "antidraughts" international
// giveaway; its brazilian and russian are damas's names; frisian, frysk and breakthrough are not
// damas variants).
std::optional<Variant> tablebase_variant(std::string_view name) {
    if (name == "standard") return Variant{BaseVariant::international, false};
    if (name == "antidraughts") return Variant{BaseVariant::international, true};
    return parse_variant(name);
}

}  // namespace

ApiReply ExplorerApi::tablebase(std::string_view variant, const QueryParams& q) const {
    return without_folder(guarded([&] {
        const auto v = tablebase_variant(variant);
        if (!v)
            throw RequestError{404, "unknown variant '" + std::string(variant.substr(0, 40)) +
                                        "' (known: standard, antidraughts, " + variant_names() +
                                        ")"};
        if (std::find(served_.begin(), served_.end(), *v) == served_.end())
            throw RequestError{404, "no " + v->name() + " tables in this database"};
        // The variant's own name: parse_position reads the fen and its length.
        const Request r = parse_position(v->name(), q);
        const RootQuery rq = root_query(r.variant, q);
        // Positions beyond the tables are answered "unknown", as lichess answers them.
        const study::TablebaseAnswer a = study::tablebase_answer(*tb_, r.variant, r.position, rq);
        if (a.status != ProbeStatus::ok)
            return error_reply(status_of(a.status), probe_status_name(a.status));
        std::string missing;
        if (a.rules_missing)
            missing = rule_table_hint(rq.rules, r.position, a.missing_rule_table) +
                      " (the categories are the pure values where it is missing)";
        return json_reply(tablebase_json(a, missing));
    }));
}

}  // namespace damas::cli
