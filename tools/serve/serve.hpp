// `damas serve`: the explorer over HTTP (cpp-httplib from Debian).
//
// Owns: the HTTP side of the explorer: routes to tools/serve/serve_api.hpp's functions, the page's
// files embedded in the binary at build time (web/, see web_assets.hpp), the limits (request
// size, threads, queued connections, timeouts) and one log line per request.
//
// Connections: a fixed pool of `threads` workers serves them, each connection held by one
// worker while it is kept alive (at most 100 requests, 5 s idle); at most `max_queued` more wait
// for a worker, beyond that the listening socket's backlog holds them (the accept loop waits), so
// no number of clients makes the server allocate without bound.
#pragma once

#include <cstddef>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <string>

namespace damas::cli {

// The most worker threads (connections served at once) a server may have. They wait on sockets,
// not on the CPU, so this bound is not gen/process/threads.hpp's few per core.
inline constexpr int max_serve_threads = 1024;

struct ServeOptions {
    std::filesystem::path dir;
    std::string host = "127.0.0.1";
    int port = 8080;  // 0: any free port
    int threads = 32;
    int max_queued = 128;
    std::size_t cache_mib = 64;
    std::FILE* log = stderr;  // one line per request; nullptr: none
    // Called once the socket is bound, with the port (before any request is served).
    std::function<void(int)> on_listening;
};

// Serves until the process ends. Throws Error when the folder holds no table or the address
// cannot be bound.
void serve(const ServeOptions& o);

}  // namespace damas::cli
