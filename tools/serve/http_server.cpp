// The explorer's HTTP server on Boost.Beast (see http_server.hpp). The only file that includes
// Beast and Asio: they are heavy to compile.
#include "tools/serve/http_server.hpp"

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/http.hpp>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <unordered_map>
#include <vector>

#include "rules/error.hpp"
#include "tools/serve/target.hpp"

namespace damas::cli {
namespace {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = net::ip::tcp;
using Clock = std::chrono::steady_clock;
using error_code = boost::system::error_code;

// How long a closing connection goes on reading (and dropping) what its client still sends,
// at most, so that the client reads our last answer before the socket is closed.
constexpr std::chrono::milliseconds linger_time{1000};
constexpr std::size_t read_chunk = 16 * 1024;
// Refusals (over a connection limit) being written at once; past this a refused connection is
// closed without an answer.
constexpr int max_refusing = 64;

std::chrono::steady_clock::duration seconds(double s) {
    return std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(s));
}

std::string format_seconds(double s) {
    char text[32];
    std::snprintf(text, sizeof text, "%g s", s);
    return text;
}

// The workers: a fixed set of threads and a bounded queue of requests waiting for one.
class WorkerPool {
  public:
    WorkerPool(int threads, int max_queued) : max_queued_(static_cast<std::size_t>(max_queued)) {
        for (int i = 0; i < threads; ++i) workers_.emplace_back([this] { work(); });
    }
    ~WorkerPool() {
        {
            std::lock_guard lock(mutex_);
            stopping_ = true;
        }
        ready_.notify_all();
        for (std::thread& t : workers_) t.join();
    }
    // False when max_queued tasks already wait.
    bool try_submit(std::function<void()> task) {
        {
            std::lock_guard lock(mutex_);
            if (queue_.size() >= max_queued_) return false;
            queue_.push_back(std::move(task));
        }
        ready_.notify_one();
        return true;
    }

  private:
    void work() {
        for (;;) {
            std::function<void()> task;
            {
                std::unique_lock lock(mutex_);
                ready_.wait(lock, [&] { return !queue_.empty() || stopping_; });
                if (queue_.empty()) return;
                task = std::move(queue_.front());
                queue_.pop_front();
            }
            task();
        }
    }

    std::size_t max_queued_;
    std::mutex mutex_;
    std::condition_variable ready_;
    std::deque<std::function<void()>> queue_;
    std::vector<std::thread> workers_;
    bool stopping_ = false;
};

// What the connections share: the limits, the handler, the workers, the count of connections
// open (in all and per client address), the log.
struct Shared {
    net::io_context& io;
    const HttpServerOptions& options;
    const HttpHandler& handler;
    WorkerPool& pool;
    std::mutex count_mutex;  // connections end on the event loop, but only by convention
    int open = 0;
    int refusing = 0;
    std::unordered_map<std::string, int> per_client;

    // Counts a new connection in, or says which limit refuses it (0: none).
    int admit(const std::string& client) {
        std::lock_guard lock(count_mutex);
        if (open >= options.limits.max_connections) return 503;
        int& mine = per_client[client];
        if (mine >= options.limits.max_per_client) return 429;
        ++mine;
        ++open;
        return 0;
    }
    void release(const std::string& client) {
        std::lock_guard lock(count_mutex);
        --open;
        if (const auto it = per_client.find(client); it != per_client.end() && --it->second == 0)
            per_client.erase(it);
    }

    void log(const std::string& client, std::string_view method, std::string_view target,
             int status, std::size_t bytes, double ms, const std::string& note) const {
        if (!options.log) return;
        std::fprintf(options.log, "%s %s %s %d %zu %.3fms%s%s\n", client.c_str(),
                     method.empty() ? "-" : escape_for_log(method, 20).c_str(),
                     escape_for_log(target).c_str(), status, bytes, ms,
                     note.empty() ? "" : " note: ", escape_for_log(note, 500).c_str());
    }
};

http::response<http::string_body> make_response(ApiReply r, bool head, bool keep_alive) {
    http::response<http::string_body> res;
    res.version(11);
    res.result(static_cast<unsigned>(r.status));
    res.set(http::field::content_type, r.content_type);
    for (const auto& [name, value] : r.headers) res.set(name, value);
    res.keep_alive(keep_alive);
    if (head) {
        res.content_length(r.body.size());  // the body's length, without the body
    } else {
        res.body() = std::move(r.body);
        res.prepare_payload();
    }
    return res;
}

// A connection past a limit: one short answer (503 or 429), then closed.
class Refusal : public std::enable_shared_from_this<Refusal> {
  public:
    Refusal(Shared& shared, tcp::socket socket, int status)
        : shared_(shared), stream_(std::move(socket)) {
        const char* why = status == 429 ? "too many connections from this address"
                                        : "too many connections, try again later";
        ApiReply r = error_reply(status, why);
        r.headers.emplace_back("Retry-After", "1");
        res_ = make_response(std::move(r), false, false);
    }
    ~Refusal() {
        std::lock_guard lock(shared_.count_mutex);
        --shared_.refusing;
    }
    void start() {
        stream_.expires_after(linger_time);
        http::async_write(stream_, res_, [self = shared_from_this()](error_code, std::size_t) {
            error_code ignored;
            self->stream_.socket().shutdown(tcp::socket::shutdown_both, ignored);
        });
    }

  private:
    Shared& shared_;
    beast::tcp_stream stream_;
    http::response<http::string_body> res_;
};

// One client connection: reads a request, has a worker answer it, writes the answer, and again.
class Connection : public std::enable_shared_from_this<Connection> {
  public:
    Connection(Shared& shared, tcp::socket socket, std::string client)
        : shared_(shared),
          limits_(shared.options.limits),
          stream_(std::move(socket)),
          deadline_(shared.io),
          buffer_(limits_.max_header_bytes + limits_.max_body_bytes + 2 * read_chunk),
          client_(std::move(client)) {}
    ~Connection() { shared_.release(client_); }

    void start() { read_request(); }

  private:
    // Waits (idle_timeout at most) for the next request's first byte, unless it is here.
    void read_request() {
        parser_.emplace();
        parser_->header_limit(static_cast<std::uint32_t>(limits_.max_header_bytes));
        parser_->body_limit(limits_.max_body_bytes);
        if (buffer_.size() > 0) return read_rest();
        if (buffer_.capacity() > 2 * read_chunk) buffer_.shrink_to_fit();
        stream_.expires_after(seconds(limits_.idle_timeout));
        stream_.async_read_some(buffer_.prepare(read_chunk),
                                [self = shared_from_this()](error_code ec, std::size_t n) {
                                    if (ec) return;  // idle too long, or closed: dropped
                                    self->buffer_.commit(n);
                                    self->read_rest();
                                });
    }

    // The rest of the request, within request_timeout of its first byte.
    void read_rest() {
        started_ = Clock::now();
        header_bytes_ = 0;
        // The deadline is a timer of ours, not the stream's (which would close the socket), so
        // that the client is told 408 before the connection closes.
        stream_.expires_never();
        reading_ = true;
        deadline_.expires_after(seconds(limits_.request_timeout));
        deadline_.async_wait([self = shared_from_this()](error_code ec) {
            if (ec || !self->reading_) return;
            self->timed_out_ = true;
            error_code ignored;
            self->stream_.socket().cancel(ignored);
        });
        read_header();
    }

    // The header block, some at a time, counted here: the parser's header_limit bounds what one
    // call parses, not the block as a whole.
    void read_header() {
        http::async_read_some(
            stream_, buffer_, *parser_, [self = shared_from_this()](error_code ec, std::size_t n) {
                self->header_bytes_ += n;
                if (ec) return self->on_read(ec);
                const bool header_done = self->parser_->is_header_done();
                const std::size_t at_least =
                    self->header_bytes_ + (header_done ? 0 : self->buffer_.size());
                if (at_least > self->limits_.max_header_bytes)
                    return self->on_read(http::error::header_limit);
                if (!header_done) return self->read_header();
                if (self->parser_->is_done()) return self->on_read({});
                http::async_read(self->stream_, self->buffer_, *self->parser_,
                                 [self](error_code e, std::size_t) { self->on_read(e); });
            });
    }

    void on_read(error_code ec) {
        reading_ = false;
        deadline_.cancel();
        if (timed_out_)
            return refuse(408,
                          "the request was not complete within " +
                              format_seconds(limits_.request_timeout) + " of its first byte",
                          "(request not complete in time)");
        if (ec == http::error::header_limit || ec == http::error::buffer_overflow)
            return refuse(431, "the request's header block is larger than " +
                                   std::to_string(limits_.max_header_bytes) + " bytes");
        if (ec == http::error::body_limit)
            return refuse(413, "the request's body is larger than " +
                                   std::to_string(limits_.max_body_bytes) + " bytes");
        if (ec == http::error::end_of_stream) return;  // closed between requests
        if (ec.category() == http::make_error_code(http::error::bad_target).category())
            return refuse(400, "malformed request");
        if (ec) return;  // the network: nothing to answer
        const auto& req = parser_->get();
        method_ = std::string(req.method_string());
        target_ = std::string(req.target());
        keep_alive_ = req.keep_alive();
        head_ = req.method() == http::verb::head;
        if (req.method() != http::verb::get && !head_) {
            ApiReply r = error_reply(405, "only GET and HEAD are served");
            r.headers.emplace_back("Allow", "GET, HEAD");
            return answer(std::move(r));
        }
        const bool queued = shared_.pool.try_submit([self = shared_from_this()]() mutable {
            ApiReply r;
            try {
                r = self->shared_.handler(self->target_);
            } catch (const std::exception& e) {
                r = error_reply(500, "internal error");
                r.note = e.what();
            }
            net::io_context& io = self->shared_.io;
            net::post(io, [self = std::move(self), r = std::move(r)]() mutable {
                self->answer(std::move(r));
            });
        });
        if (!queued) {
            ApiReply r = error_reply(503, "the server is busy, try again later");
            r.headers.emplace_back("Retry-After", "1");
            answer(std::move(r));
        }
    }

    // A request that is not answered by the handler: the answer, then the connection closes.
    void refuse(int status, const std::string& why, const char* what = "(unreadable request)") {
        method_.clear();
        target_ = what;
        keep_alive_ = false;
        head_ = false;
        answer(error_reply(status, why));
    }

    void answer(ApiReply r) {
        log(method_, target_, r.status, r.body.size(), r.note);
        res_ = make_response(std::move(r), head_, keep_alive_);
        stream_.expires_after(seconds(limits_.request_timeout));
        http::async_write(stream_, res_, [self = shared_from_this()](error_code ec, std::size_t) {
            if (ec) return;
            if (self->keep_alive_) return self->read_request();
            self->linger();
        });
    }

    // Closes our side, then reads and drops what the client still sends until it closes too
    // (linger_time at most): closing with unread data would reset the connection, and the
    // client could lose the answer.
    void linger() {
        error_code ignored;
        stream_.socket().shutdown(tcp::socket::shutdown_send, ignored);
        buffer_.clear();
        stream_.expires_after(linger_time);
        drain();
    }
    void drain() {
        stream_.async_read_some(buffer_.prepare(read_chunk),
                                [self = shared_from_this()](error_code ec, std::size_t) {
                                    if (!ec) self->drain();
                                });
    }

    void log(std::string_view method, std::string_view target, int status, std::size_t bytes,
             const std::string& note) const {
        const double ms =
            std::chrono::duration<double, std::milli>(Clock::now() - started_).count();
        shared_.log(client_, method, target, status, bytes, ms, note);
    }

    Shared& shared_;
    const HttpLimits& limits_;
    beast::tcp_stream stream_;
    net::steady_timer deadline_;  // of the request being read
    beast::flat_buffer buffer_;
    std::optional<http::request_parser<http::string_body>> parser_;
    http::response<http::string_body> res_;
    std::string client_, method_, target_;
    std::size_t header_bytes_ = 0;  // of the request being read, parsed so far
    bool keep_alive_ = false, head_ = false;
    bool reading_ = false, timed_out_ = false;
    Clock::time_point started_ = Clock::now();
};

class Listener {
  public:
    Listener(Shared& shared, tcp::acceptor& acceptor)
        : shared_(shared), acceptor_(acceptor), retry_(shared.io) {}

    void accept() {
        acceptor_.async_accept([this](error_code ec, tcp::socket socket) {
            if (ec) {
                // Out of descriptors, most likely: wait for connections to close.
                retry_.expires_after(std::chrono::milliseconds(50));
                retry_.async_wait([this](error_code) { accept(); });
                return;
            }
            take(std::move(socket));
            accept();
        });
    }

  private:
    void take(tcp::socket socket) {
        error_code ec;
        socket.set_option(tcp::no_delay(true), ec);  // small answers go out at once
        const auto remote = socket.remote_endpoint(ec);
        if (ec) return;
        std::string client = remote.address().to_string();
        if (const int status = shared_.admit(client); status != 0) {
            {
                std::lock_guard lock(shared_.count_mutex);
                if (shared_.refusing >= max_refusing) return;  // closed unanswered
                ++shared_.refusing;
            }
            std::make_shared<Refusal>(shared_, std::move(socket), status)->start();
            return;
        }
        std::make_shared<Connection>(shared_, std::move(socket), std::move(client))->start();
    }

    Shared& shared_;
    tcp::acceptor& acceptor_;
    net::steady_timer retry_;
};

void check_limits(const HttpLimits& l) {
    const auto require = [](bool ok, const std::string& what) {
        if (!ok) throw Error(what);
    };
    require(l.threads >= 1, "the server needs at least 1 worker thread");
    require(l.max_queued >= 1, "--max-queued must be at least 1");
    require(l.max_connections >= 1, "--max-connections must be at least 1");
    require(l.max_per_client >= 1, "--max-per-client must be at least 1");
    require(l.request_timeout > 0 && l.request_timeout <= 3600,
            "--request-timeout must be more than 0 and at most 3600 seconds");
    require(l.idle_timeout > 0 && l.idle_timeout <= 3600,
            "--idle-timeout must be more than 0 and at most 3600 seconds");
    require(l.max_header_bytes >= 1024 && l.max_header_bytes <= (1u << 30),
            "the header limit must be between 1 KiB and 1 GiB");
}

// The acceptor bound to host:port and listening, or an Error.
void bind(tcp::acceptor& acceptor, net::io_context& io, const std::string& host, int port) {
    const std::string where = host + ":" + std::to_string(port);
    const std::string why = " (in use, or not an address of this machine)";
    error_code ec;
    tcp::resolver resolver(io);
    const auto found = resolver.resolve(
        host, std::to_string(port), tcp::resolver::passive | tcp::resolver::numeric_service, ec);
    if (ec || found.empty()) throw Error("cannot listen on " + where + why);
    for (const auto& entry : found) {
        acceptor.close(ec);
        acceptor.open(entry.endpoint().protocol(), ec);
        if (ec) continue;
        acceptor.set_option(tcp::acceptor::reuse_address(true), ec);
        acceptor.bind(entry.endpoint(), ec);
        if (ec) continue;
        // A burst of clients connecting at once waits here rather than being dropped.
        acceptor.listen(256, ec);
        if (!ec) return;
    }
    throw Error("cannot listen on " + where + why);
}

}  // namespace

void run_http_server(const HttpServerOptions& o, const HttpHandler& handler) {
    check_limits(o.limits);
    net::io_context io(1);
    tcp::acceptor acceptor(io);
    bind(acceptor, io, o.host, o.port);
    WorkerPool pool(o.limits.threads, o.limits.max_queued);
    Shared shared{io, o, handler, pool, {}, 0, 0, {}};
    Listener listener(shared, acceptor);
    if (o.on_listening) o.on_listening(acceptor.local_endpoint().port());
    listener.accept();
    // An exception out of a handler ends only the connection it served (its last owner goes
    // with the handler); the loop goes on.
    for (;;) {
        try {
            io.run();
            break;
        } catch (const std::exception& e) {
            if (o.log)
                std::fprintf(o.log, "- internal error: %s\n", escape_for_log(e.what()).c_str());
        }
    }
    throw Error("the server stopped listening");
}

}  // namespace damas::cli
