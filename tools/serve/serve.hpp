// `damas serve`: the explorer over HTTP.
//
// Owns: the wiring of the explorer's parts: the JSON API over the database (serve_api.hpp), the
// routes from request targets to it and to the page's files embedded in the binary (route.hpp,
// web_assets.hpp), and the HTTP server (http_server.hpp: event-driven, with its limits on
// connections, time and size, and one log line per request).
#pragma once

#include <cstddef>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <string>

#include "tools/serve/http_server.hpp"

namespace damas::cli {

// The most worker threads (requests computed at once) a server may have.
inline constexpr int max_serve_threads = 1024;

struct ServeOptions {
    std::filesystem::path dir;
    std::string host = "127.0.0.1";
    int port = 8080;  // 0: any free port
    HttpLimits limits;
    std::size_t cache_mib = 64;
    std::FILE* log = stderr;  // one line per request; nullptr: none
    // Called once the socket is bound, with the port (before any request is served).
    std::function<void(int)> on_listening;
};

// Serves until the process ends. Throws Error when the folder holds no table, a limit is out of
// range or the address cannot be bound.
void serve(const ServeOptions& o);

}  // namespace damas::cli
