// The explorer's routes, apart from HTTP: a GET request's target (as sent, percent-encoded) to
// its answer: the JSON API (serve_api.hpp) under /api/v1, the page's files (web_assets.hpp), and
// any other one-segment path "/{variant}" the lichess-shaped tablebase API. A target that cannot
// be read (target.hpp) is 400, an unknown path 404.
#pragma once

#include <string_view>

#include "tools/serve/reply.hpp"
#include "tools/serve/serve_api.hpp"

namespace damas::cli {

ApiReply route(const ExplorerApi& api, std::string_view target);

}  // namespace damas::cli
