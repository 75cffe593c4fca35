// An HTTP/1.1 server for answers computed by a function, event-driven (Boost.Beast on Asio), so
// that a slow or idle client costs a socket and a small buffer, never a thread.
//
// Owns: the sockets, the reading and writing of requests and answers, the limits below, the
// workers that compute the answers, and one log line per request. Knows nothing of the explorer:
// the handler maps a GET request's target to its answer (route.hpp).
//
// Threads: one runs the event loop (accepting, reading, writing every connection); `threads`
// workers call the handler, at most `max_queued` requests waiting for one (beyond that: 503).
// A connection's requests are answered one after the other, in the order sent, pipelined or not.
//
// Limits, each a client error with a JSON body {"error": ...} where an answer is possible:
// - a request's header block (request line and fields together) over max_header_bytes: 431;
//   a body over max_body_bytes: 413; a request that cannot be parsed: 400; another method than
//   GET and HEAD: 405. The connection is then closed (after reading what the client goes on
//   sending for a moment, so that the answer is not lost to a reset).
// - request_timeout: from a request's first byte to its last (408 past it), and again for
//   writing its answer (closed past it). The deadline does not restart with each byte.
// - idle_timeout: how long a connection may wait, between requests, for the next one's first
//   byte.
// - max_connections open at once (503 beyond) and max_per_client from one address (429 beyond).
#pragma once

#include <cstddef>
#include <cstdio>
#include <functional>
#include <string>
#include <string_view>

#include "tools/serve/reply.hpp"

namespace damas::cli {

struct HttpLimits {
    int threads = 32;
    int max_queued = 128;
    int max_connections = 1024;
    int max_per_client = 64;
    double request_timeout = 10;  // seconds
    double idle_timeout = 5;      // seconds
    std::size_t max_header_bytes = 32 * 1024;
    std::size_t max_body_bytes = 1024;
};

struct HttpServerOptions {
    std::string host = "127.0.0.1";
    int port = 8080;  // 0: any free port
    HttpLimits limits;
    std::FILE* log = stderr;  // one line per request; nullptr: none
    // Called once the socket listens, with its port (before any request is read).
    std::function<void(int)> on_listening;
};

// The answer to a GET (or HEAD) request for `target`, as sent (percent-encoded). Called from the
// worker threads at once: it must be thread-safe.
using HttpHandler = std::function<ApiReply(std::string_view target)>;

// Throws Error if a limit is out of range or the address cannot be bound; else serves until the
// process ends.
void run_http_server(const HttpServerOptions& o, const HttpHandler& handler);

}  // namespace damas::cli
