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
    int threads = 32;
    int max_queued = 128;
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
    if (o.threads < 1 || o.threads > max_serve_threads)
        throw Error("--threads must be between 1 and " + std::to_string(max_serve_threads));
    // Tried once before serving, so that a process limit is a one-line error, not an abort.
    check_threads_start(o.threads, "--threads");
    s.host = o.host;
    s.port = o.port;
    s.threads = o.threads;
    s.max_queued = o.max_queued;
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
    cmd->add_option("--threads,-t", o.threads,
                    "Connections served at once, one worker thread each (default 32)");
    cmd->add_option("--max-queued", o.max_queued,
                    "Connections waiting for a worker before the server stops accepting "
                    "(default 128)");
    cmd->add_option("--cache-mib", o.cache_mib, "Block cache budget in MiB (default 64)");
    cmd->add_flag("--quiet,-q", o.quiet, "No log line per request");
    cmd->callback([] { run_serve(o); });
}

}  // namespace damas::cli
