// The explorer's JSON API, apart from HTTP: each request is a function from the path's variant
// and the query's parameters to a status and a body, so that tests and the server share it.
//
// Owns: one Tablebase over the database folder (thread-safe; it probes under the rules too), the
// list of variants found there, and the class statistics computed so far (a class is read whole
// once, then served from memory).
//   GET /api/v1                       the variants served and their largest class
//   GET /api/v1/{variant}?fen=...     the root analysis (probe/study/root_analysis.hpp) as JSON;
//       optional plies_since_capture, plies_in_ending, forcada_plies,
//       forcada_side (white or black), edition (seed or fmjd)
//   GET /api/v1/{variant}/svg?fen=...[&move=M]   the board (tools/render/svg.hpp)
//   GET /api/v1/{variant}/stats?class=0201       `damas stats` of a class and its longest wins
//   GET /{variant}?fen=...            the same position in the shape of lichess's tablebase API
//       (tools/render/tablebase_json.hpp), with the counts of /api/v1; {variant} is a damas
//       name or lidraughts' (standard, antidraughts); an unknown one is 404, as lichess's is
// Bad input is 400, a position whose tables are missing 404, a damaged table 500; every error
// body is {"error": "one line"}. No answer names the database's folder (an internal error's
// cause goes to ApiReply::note, for the log).
#pragma once

#include <cstddef>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "probe/limits_probe.hpp"
#include "probe/probe.hpp"
#include "tools/serve/reply.hpp"
#include "tools/serve/target.hpp"

namespace damas::cli {

// The longest FEN a request may carry (the longest legal one is far shorter).
inline constexpr std::size_t max_fen_length = 400;

class ExplorerApi {
  public:
    // Throws Error if dir is not a database folder with at least one variant.
    ExplorerApi(const std::filesystem::path& dir, std::size_t cache_mib);
    ~ExplorerApi();

    ApiReply variants() const;
    ApiReply position(std::string_view variant, const QueryParams& q) const;
    ApiReply svg(std::string_view variant, const QueryParams& q) const;
    ApiReply stats(std::string_view variant, const QueryParams& q) const;
    ApiReply tablebase(std::string_view variant, const QueryParams& q) const;

    const std::vector<Variant>& served() const { return served_; }

  private:
    ApiReply without_folder(ApiReply r) const;

    std::unique_ptr<Tablebase> tb_;
    std::vector<std::string> folder_names_;  // the folder's absolute path, as given and resolved
    std::vector<Variant> served_;
    mutable std::mutex stats_mutex_;
    mutable std::map<std::string, std::string> stats_cache_;  // "variant/class" -> JSON
};

}  // namespace damas::cli
