// serve: the tablebase explorer, a JSON API and a web page (tools/serve/serve.hpp).
#include <cstdio>
#include <string>

#include "folder/files.hpp"
#include "gen/process/threads.hpp"
#include "rules/error.hpp"
#include "tools/cli/commands.hpp"
#include "tools/serve/serve.hpp"

namespace damas::cli {
namespace {

struct ServeCommandOptions {
    std::string dir;
    std::string host = "127.0.0.1";
    int port = 8080;
    HttpLimits limits;
    int max_header_kib = 32;
    int cache_mib = 64;
    bool quiet = false;
};

void run_serve(const ServeCommandOptions& o) {
    ServeOptions s;
    s.dir = o.dir.empty() ? default_database_dir() : std::filesystem::path(o.dir);
    if (!std::filesystem::is_directory(s.dir))
        throw Error("no database folder " + s.dir.string() + " (give --dir)");
    if (const std::string hint = variant_folder_hint(s.dir); !hint.empty())
        throw Error("no database in " + s.dir.string() + hint);
    if (o.port < 0 || o.port > 65535) throw Error("--port must be between 0 and 65535");
    if (o.cache_mib < 1) throw Error("--cache-mib must be at least 1");
    if (o.limits.threads < 1 || o.limits.threads > max_serve_threads)
        throw Error("--threads must be between 1 and " + std::to_string(max_serve_threads));
    if (o.max_header_kib < 1 || o.max_header_kib > 1024 * 1024)
        throw Error("--max-header-kib must be between 1 and 1048576");
    // Tried once before serving, so that a process limit is a one-line error, not an abort.
    check_threads_start(o.limits.threads, "--threads");
    s.host = o.host;
    s.port = o.port;
    s.limits = o.limits;
    s.limits.max_header_bytes = static_cast<std::size_t>(o.max_header_kib) * 1024;
    s.cache_mib = static_cast<std::size_t>(o.cache_mib);
    s.log = o.quiet ? nullptr : stderr;
    s.on_listening = [&](int port) {
        std::printf("damas serve: listening on http://%s:%d/\n", o.host.c_str(), port);
        std::fflush(stdout);
    };
    serve(s);
}

}  // namespace

void add_serve_commands(CLI::App& app) {
    static ServeCommandOptions o;
    auto* cmd = app.add_subcommand(
        "serve", "The tablebase explorer: a web page at / and a JSON API at /api/v1/{variant}");
    add_dir_option(*cmd, o.dir);
    cmd->add_option("--host", o.host,
                    "Address to listen on (default 127.0.0.1: this machine only)");
    cmd->add_option("--port,-p", o.port, "Port (default 8080; 0: any free port)");
    cmd->add_option("--threads,-t", o.limits.threads,
                    "Worker threads computing answers (default 32); connections are not tied "
                    "to them");
    cmd->add_option("--max-queued", o.limits.max_queued,
                    "Requests waiting for a worker before the server answers 503 (default 128)");
    cmd->add_option("--max-connections", o.limits.max_connections,
                    "Connections open at once; more are answered 503 (default 1024)");
    cmd->add_option("--max-per-client", o.limits.max_per_client,
                    "Connections open at once from one address; more are answered 429 "
                    "(default 64)");
    cmd->add_option("--request-timeout", o.limits.request_timeout,
                    "Seconds from a request's first byte to its last, and to write its answer "
                    "(default 10)");
    cmd->add_option("--idle-timeout", o.limits.idle_timeout,
                    "Seconds a connection may wait between requests (default 5)");
    cmd->add_option("--max-header-kib", o.max_header_kib,
                    "The largest request header block in KiB; larger is answered 431 "
                    "(default 32)");
    cmd->add_option("--cache-mib", o.cache_mib, "Block cache budget in MiB (default 64)");
    cmd->add_flag("--quiet,-q", o.quiet, "No log line per request");
    cmd->callback([] { run_serve(o); });
}

}  // namespace damas::cli
