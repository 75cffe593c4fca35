// `damas serve` (see serve.hpp).
#include "tools/serve/serve.hpp"

#include "rules/error.hpp"
#include "tools/serve/route.hpp"
#include "tools/serve/serve_api.hpp"

namespace damas::cli {

void serve(const ServeOptions& o) {
    if (o.limits.threads < 1 || o.limits.threads > max_serve_threads)
        throw Error("--threads must be between 1 and " + std::to_string(max_serve_threads));
    const ExplorerApi api(o.dir, o.cache_mib);
    HttpServerOptions http;
    http.host = o.host;
    http.port = o.port;
    http.limits = o.limits;
    http.log = o.log;
    http.on_listening = o.on_listening;
    run_http_server(http, [&api](std::string_view target) { return route(api, target); });
}

}  // namespace damas::cli
