// libFuzzer target for the HTTP server's request parsing: each input is sent, as raw bytes, to
// the server (tools/serve/http_server.hpp) running in this process on a port of 127.0.0.1, and
// the answer is read until the server closes the connection. The server's handler decodes the
// target as the explorer's routes do (target.hpp) and echoes it as JSON, and writes a log line
// per request (to /dev/null). The input is also decoded directly. A crash, a sanitizer report, or
// a connection the server neither answers nor closes within 5 s is a bug.
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <thread>

#include "tools/serve/http_server.hpp"
#include "tools/serve/target.hpp"

namespace {

int port = 0;

damas::cli::ApiReply echo(std::string_view target) {
    std::string problem;
    const auto t = damas::cli::decode_target(target, problem);
    if (!t) return damas::cli::error_reply(400, problem);
    nlohmann::json query = nlohmann::json::object();
    for (const auto& [name, value] : t->query) query[name] = value;
    const nlohmann::json body{{"path", t->path}, {"query", query}};
    return {200, body.dump(), "application/json", {}, {}};
}

void start_server() {
    static std::mutex mutex;
    static std::condition_variable listening;
    std::thread([] {
        damas::cli::HttpServerOptions o;
        o.port = 0;
        o.limits.threads = 2;
        o.limits.request_timeout = 2;
        o.limits.idle_timeout = 2;
        o.limits.max_header_bytes = 8 * 1024;
        o.log = std::fopen("/dev/null", "w");
        o.on_listening = [](int p) {
            std::lock_guard lock(mutex);
            port = p;
            listening.notify_all();
        };
        damas::cli::run_http_server(o, echo);
    }).detach();
    std::unique_lock lock(mutex);
    listening.wait(lock, [] { return port != 0; });
}

// Sends the input, closes the sending side, reads until the server closes.
void send_to_server(std::string_view input) {
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_port = htons(static_cast<std::uint16_t>(port));
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    int fd = -1;
    // Interrupted by libFuzzer's timer signal, a connection is tried afresh.
    for (int tries = 0; fd < 0; ++tries) {
        fd = socket(AF_INET, SOCK_STREAM, 0);
        if (connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0) break;
        if (errno != EINTR || tries == 100) {
            std::perror("fuzz_http: connect");
            std::abort();
        }
        close(fd);
        fd = -1;
    }
    while (!input.empty()) {
        const ssize_t n = send(fd, input.data(), input.size(), MSG_NOSIGNAL);
        if (n <= 0) break;  // the server closed: it refused the request early
        input.remove_prefix(static_cast<std::size_t>(n));
    }
    shutdown(fd, SHUT_WR);
    const auto end = std::chrono::steady_clock::now() + std::chrono::seconds(5);
    for (char buf[16384];;) {
        if (std::chrono::steady_clock::now() > end) {
            std::fprintf(stderr, "fuzz_http: the server neither answered nor closed in 5 s\n");
            std::abort();
        }
        pollfd p{fd, POLLIN, 0};
        if (poll(&p, 1, 100) <= 0) continue;
        const ssize_t n = recv(fd, buf, sizeof buf, 0);
        if (n == 0 || (n < 0 && errno != EINTR)) break;
    }
    close(fd);
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
    start_server();
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view input(reinterpret_cast<const char*>(data), size);
    std::string problem;
    (void)damas::cli::decode_target(input, problem);
    (void)damas::cli::escape_for_log(input);
    send_to_server(input);
    return 0;
}
