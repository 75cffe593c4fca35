// `damas serve` (see serve.hpp).
#include "tools/serve/serve.hpp"

#include <httplib.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include <chrono>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include "rules/error.hpp"
#include "tools/serve/serve_api.hpp"
#include "tools/serve/web_assets.hpp"

namespace damas::cli {
namespace {

// GET requests carry no body; anything larger is refused.
constexpr std::size_t max_body_bytes = 1024;

// A fixed pool of workers with a bounded queue: enqueue (called by the accept loop) waits while
// the queue is full, so that waiting connections stay in the kernel's backlog, not in memory.
class BoundedPool : public httplib::TaskQueue {
  public:
    BoundedPool(int threads, int max_queued) : max_queued_(static_cast<std::size_t>(max_queued)) {
        for (int i = 0; i < threads; ++i) workers_.emplace_back([this] { work(); });
    }
    ~BoundedPool() override { shutdown(); }

    void enqueue(std::function<void()> fn) override {
        std::unique_lock lock(mutex_);
        room_.wait(lock, [&] { return queue_.size() < max_queued_ || stopping_; });
        queue_.push_back(std::move(fn));
        ready_.notify_one();
    }
    void shutdown() override {
        {
            std::lock_guard lock(mutex_);
            if (stopping_ && workers_.empty()) return;
            stopping_ = true;
        }
        ready_.notify_all();
        room_.notify_all();
        for (std::thread& t : workers_) t.join();
        workers_.clear();
    }

  private:
    void work() {
        for (;;) {
            std::function<void()> fn;
            {
                std::unique_lock lock(mutex_);
                ready_.wait(lock, [&] { return !queue_.empty() || stopping_; });
                if (queue_.empty()) return;
                fn = std::move(queue_.front());
                queue_.pop_front();
            }
            room_.notify_one();
            fn();
        }
    }

    std::size_t max_queued_;
    std::mutex mutex_;
    std::condition_variable ready_, room_;
    std::deque<std::function<void()>> queue_;
    std::vector<std::thread> workers_;
    bool stopping_ = false;
};

void send(httplib::Response& res, const ApiReply& r) {
    res.status = r.status;
    res.set_content(r.body, r.content_type.c_str());
}

const char* reason_of(int status) {
    switch (status) {
        case 404:
            return "not found";
        case 405:
            return "method not allowed";
        case 413:
            return "request too large";
        case 414:
            return "request line too long";
        default:
            return "bad request (malformed or oversized)";
    }
}

// Each request's start, for the log line (a connection is served by one thread at a time);
// unset for a request httplib refused before routing it.
thread_local std::optional<std::chrono::steady_clock::time_point> request_start;

void add_routes(httplib::Server& server, const ExplorerApi& api) {
    server.Get("/api/v1",
               [&](const httplib::Request&, httplib::Response& res) { send(res, api.variants()); });
    server.Get(R"(/api/v1/([^/]+))", [&](const httplib::Request& req, httplib::Response& res) {
        send(res, api.position(req.matches[1].str(), req.params));
    });
    server.Get(R"(/api/v1/([^/]+)/svg)", [&](const httplib::Request& req, httplib::Response& res) {
        send(res, api.svg(req.matches[1].str(), req.params));
    });
    server.Get(R"(/api/v1/([^/]+)/stats)",
               [&](const httplib::Request& req, httplib::Response& res) {
                   send(res, api.stats(req.matches[1].str(), req.params));
               });
    for (const WebAsset& a : web_assets()) {
        const auto handler = [&a](const httplib::Request&, httplib::Response& res) {
            res.set_content(a.body.data(), a.body.size(), std::string(a.content_type).c_str());
            res.set_header("Cache-Control", "no-cache");
        };
        server.Get(std::string(a.path), handler);
        if (a.path == "/index.html") server.Get("/", handler);
    }
}

// httplib 0.11 listens with a backlog of 5 (fixed in the library): a burst of clients then saw
// their connections dropped and retried by the kernel a second later. Linux lets listen() be
// called again on the listening socket to raise it; httplib does not expose the socket, so it is
// found among the process's descriptors by its port.
void raise_listen_backlog(int port, int backlog) {
    for (int fd = 3; fd < 4096; ++fd) {
        int listening = 0;
        socklen_t size = sizeof listening;
        if (getsockopt(fd, SOL_SOCKET, SO_ACCEPTCONN, &listening, &size) != 0 || !listening)
            continue;
        sockaddr_storage address{};
        socklen_t length = sizeof address;
        if (getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length) != 0) continue;
        const int bound = address.ss_family == AF_INET
                              ? ntohs(reinterpret_cast<sockaddr_in*>(&address)->sin_port)
                          : address.ss_family == AF_INET6
                              ? ntohs(reinterpret_cast<sockaddr_in6*>(&address)->sin6_port)
                              : -1;
        if (bound == port) ::listen(fd, backlog);
    }
}

}  // namespace

void serve(const ServeOptions& o) {
    if (o.threads < 1 || o.threads > max_serve_threads)
        throw Error("--threads must be between 1 and " + std::to_string(max_serve_threads));
    if (o.max_queued < 1) throw Error("--max-queued must be at least 1");
    const ExplorerApi api(o.dir, o.cache_mib);
    httplib::Server server;
    server.new_task_queue = [&] { return new BoundedPool(o.threads, o.max_queued); };
    server.set_payload_max_length(max_body_bytes);
    // Answers go out at once: with Nagle's algorithm a small answer waited for the client's
    // delayed acknowledgement, about 40 ms a request.
    server.set_tcp_nodelay(true);
    server.set_keep_alive_max_count(100);
    server.set_keep_alive_timeout(5);
    server.set_read_timeout(5, 0);
    server.set_write_timeout(5, 0);
    server.set_pre_routing_handler([](const httplib::Request&, httplib::Response&) {
        request_start = std::chrono::steady_clock::now();
        return httplib::Server::HandlerResponse::Unhandled;
    });
    add_routes(server, api);
    // Errors httplib answers itself (no route, oversized requests) get the API's form; an
    // oversized request is a bad request (400) whatever httplib calls it.
    server.set_error_handler([](const httplib::Request&, httplib::Response& res) {
        if (!res.body.empty()) return;
        if (res.status == 413 || res.status == 414) res.status = 400;
        const ApiReply r =
            error_reply(res.status, res.status == 404 ? "no such page" : reason_of(res.status));
        res.set_content(r.body, r.content_type.c_str());
    });
    server.set_exception_handler(
        [](const httplib::Request&, httplib::Response& res, std::exception_ptr) {
            send(res, error_reply(500, "internal error"));
        });
    if (o.log)
        server.set_logger([log = o.log](const httplib::Request& req, const httplib::Response& res) {
            const double ms = request_start ? std::chrono::duration<double, std::milli>(
                                                  std::chrono::steady_clock::now() - *request_start)
                                                  .count()
                                            : 0.0;
            request_start.reset();
            std::string target =
                req.target.size() > 300 ? req.target.substr(0, 300) + "..." : req.target;
            if (req.method.empty()) target = "(unreadable request)";
            std::fprintf(log, "%s %s %s %d %zu %.3fms\n",
                         req.remote_addr.empty() ? "-" : req.remote_addr.c_str(),
                         req.method.empty() ? "-" : req.method.c_str(), target.c_str(), res.status,
                         res.body.size(), ms);
        });
    const int port = o.port == 0 ? server.bind_to_any_port(o.host)
                                 : (server.bind_to_port(o.host, o.port) ? o.port : -1);
    if (port < 0)
        throw Error("cannot listen on " + o.host + ":" + std::to_string(o.port) +
                    " (in use, or not an address of this machine)");
    raise_listen_backlog(port, 256);
    if (o.on_listening) o.on_listening(port);
    if (!server.listen_after_bind()) throw Error("the server stopped listening");
}

}  // namespace damas::cli
