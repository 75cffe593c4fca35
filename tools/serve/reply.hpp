// One answer of the explorer, apart from HTTP: what the JSON API (serve_api.hpp) and the routes
// (route.hpp) return and the HTTP server (http_server.hpp) sends.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace damas::cli {

struct ApiReply {
    int status = 200;
    std::string body;
    std::string content_type = "application/json";
    std::vector<std::pair<std::string, std::string>> headers;  // beyond type and length
    std::string note;  // for the server's log only (an internal error's cause), never sent
};

// {"error": message}: the body of every error answer. Bytes of the message that are not UTF-8
// are replaced (U+FFFD), so that any message can be sent.
ApiReply error_reply(int status, std::string_view message);

}  // namespace damas::cli
