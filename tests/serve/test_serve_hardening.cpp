// `damas serve` against hostile and careless clients, over raw sockets: the header block's cap
// (431), text that is not UTF-8 (400 with a JSON message), no answer naming the database's folder
// (a missing rule table, a damaged table), log lines that a request cannot forge, pipelined
// requests answered in order, and slow, idle or too many connections that neither block other
// clients nor stay open past their deadline. The server runs with deadlines of 1 s, so that the
// suite takes a few seconds.
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <thread>

#include "probe/probe.hpp"
#include "table/table_file.hpp"
#include "tests/support/generate.hpp"
#include "tests/support/process.hpp"
#include "tests/support/scratch.hpp"

namespace damas {
namespace {

using nlohmann::json;
using Clock = std::chrono::steady_clock;
const Variant hardening_english{BaseVariant::english, false};
constexpr int max_per_client = 40;

struct Answer {
    int status = 0;
    std::string head;  // the status line and the fields
    std::string body;
    json body_json() const { return json::parse(body, nullptr, false); }
};

// The answers in `bytes`, in order (each with a Content-Length).
std::vector<Answer> parse_answers(std::string_view bytes) {
    std::vector<Answer> out;
    while (!bytes.empty()) {
        const std::size_t end = bytes.find("\r\n\r\n");
        if (end == std::string_view::npos || !bytes.starts_with("HTTP/1.1 ")) break;
        Answer a;
        a.head = std::string(bytes.substr(0, end));
        a.status = std::stoi(a.head.substr(9, 3));
        std::string lower = a.head;
        for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        const std::size_t at = lower.find("content-length: ");
        const std::size_t length = at == std::string::npos ? 0 : std::stoul(lower.substr(at + 16));
        if (bytes.size() < end + 4 + length) break;
        a.body = std::string(bytes.substr(end + 4, length));
        bytes.remove_prefix(end + 4 + length);
        out.push_back(std::move(a));
    }
    return out;
}

// A client connection; every call has a deadline of a few seconds, so that a server that hangs
// fails the test instead of stalling it.
class Socket {
  public:
    explicit Socket(int port) : fd_(socket(AF_INET, SOCK_STREAM, 0)) {
        sockaddr_in a{};
        a.sin_family = AF_INET;
        a.sin_port = htons(static_cast<std::uint16_t>(port));
        a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        if (connect(fd_, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0)
            throw std::runtime_error("cannot connect");
    }
    ~Socket() { close(fd_); }
    Socket(const Socket&) = delete;
    Socket& operator=(const Socket&) = delete;

    bool send_all(std::string_view data) {
        while (!data.empty()) {
            const ssize_t n = ::send(fd_, data.data(), data.size(), MSG_NOSIGNAL);
            if (n <= 0) return false;
            data.remove_prefix(static_cast<std::size_t>(n));
        }
        return true;
    }
    // What arrives until the server closes the connection (or `limit` passes).
    std::string read_to_end(std::chrono::milliseconds limit = std::chrono::milliseconds(5000)) {
        std::string out;
        const auto end = Clock::now() + limit;
        for (char buf[65536]; Clock::now() < end;) {
            pollfd p{fd_, POLLIN, 0};
            if (poll(&p, 1, 50) <= 0) continue;
            const ssize_t n = ::recv(fd_, buf, sizeof buf, 0);
            if (n <= 0) break;
            out.append(buf, static_cast<std::size_t>(n));
        }
        return out;
    }
    // The next answer on a kept-alive connection (nullopt if none comes within `limit`).
    std::optional<Answer> read_answer(std::chrono::milliseconds limit);
    // Whether the server closed the connection within `limit` (reading and dropping data).
    bool closed_within(std::chrono::milliseconds limit) {
        const auto end = Clock::now() + limit;
        for (char buf[4096]; Clock::now() < end;) {
            pollfd p{fd_, POLLIN, 0};
            if (poll(&p, 1, 20) <= 0) continue;
            if (::recv(fd_, buf, sizeof buf, 0) <= 0) return true;
        }
        return false;
    }

  private:
    int fd_;
    std::string pending_;  // read past the last answer
};

std::optional<Answer> Socket::read_answer(std::chrono::milliseconds limit) {
    const auto end = Clock::now() + limit;
    for (char buf[4096]; Clock::now() < end;) {
        if (auto answers = parse_answers(pending_); !answers.empty()) {
            const std::size_t used = pending_.find("\r\n\r\n") + 4 + answers[0].body.size();
            pending_.erase(0, used);
            return answers[0];
        }
        pollfd p{fd_, POLLIN, 0};
        if (poll(&p, 1, 20) <= 0) continue;
        const ssize_t n = ::recv(fd_, buf, sizeof buf, 0);
        if (n <= 0) break;
        pending_.append(buf, static_cast<std::size_t>(n));
    }
    return std::nullopt;
}

std::string get_request(const std::string& target, bool close_after = true) {
    return "GET " + target + " HTTP/1.1\r\nHost: 127.0.0.1\r\n" +
           (close_after ? "Connection: close\r\n" : "") + "\r\n";
}

class ServeHardening : public testing::Test {
  protected:
    static void SetUpTestSuite() {
        dir_ = new test::ScratchDir("serve-hardening");
        // No rule tables: every position's answer says why it has no value under the rules.
        test::generate_quietly(hardening_english, 3, dir_->path);
        // A damaged table: the middle of class 0201's WDL file overwritten.
        const auto damaged = table_path(dir_->path, hardening_english, "0201", Metric::wdl);
        {
            std::fstream f(damaged, std::ios::in | std::ios::out | std::ios::binary);
            f.seekp(static_cast<std::streamoff>(std::filesystem::file_size(damaged) / 2));
            const std::string junk(64, '\x5a');
            f.write(junk.data(), static_cast<std::streamsize>(junk.size()));
        }
        folder_ = std::filesystem::absolute(dir_->path).lexically_normal().string();
        log_ = dir_->path / "serve.log";
        server_ = new test::ChildProcess(
            test::damas_argv({"serve", "-d", dir_->path.string(), "--port", "0", "--threads", "2",
                              "--request-timeout", "1", "--idle-timeout", "1", "--max-per-client",
                              std::to_string(max_per_client)}),
            {.out = {}, .err = log_, .out_to_pipe = true});
        const std::string line = server_->read_line();
        port_ = std::stoi(line.substr(line.rfind(':') + 1));
    }
    static void TearDownTestSuite() {
        server_->stop(SIGTERM);
        delete server_;
        delete dir_;
    }

    // One request on its own connection; its answer.
    static Answer ask(const std::string& request) {
        Socket s(port_);
        s.send_all(request);
        const auto answers = parse_answers(s.read_to_end());
        return answers.empty() ? Answer{} : answers[0];
    }
    static void expect_json_error(const Answer& a, int status, const std::string& part = "") {
        EXPECT_EQ(a.status, status) << a.head << a.body;
        const json j = a.body_json();
        ASSERT_TRUE(j.is_object() && j.contains("error")) << a.body;
        EXPECT_NE(j["error"].get<std::string>().find(part), std::string::npos) << a.body;
        EXPECT_NE(a.head.find("Content-Type: application/json"), std::string::npos) << a.head;
    }

    static test::ScratchDir* dir_;
    static std::string folder_;
    static std::filesystem::path log_;
    static test::ChildProcess* server_;
    static int port_;
};
test::ScratchDir* ServeHardening::dir_ = nullptr;
std::string ServeHardening::folder_;
std::filesystem::path ServeHardening::log_;
test::ChildProcess* ServeHardening::server_ = nullptr;
int ServeHardening::port_ = 0;

TEST_F(ServeHardening, HeaderBlockOverTheCapIs431) {
    // 30 fields of 1 KiB pass (the cap is 32 KiB for the whole block), 40 do not; neither do
    // 4,000 fields of 10 bytes.
    const auto with_fields = [](int count, int size) {
        std::string r = "GET /api/v1 HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n";
        for (int i = 0; i < count; ++i)
            r += "X-F" + std::to_string(i) + ": " +
                 std::string(static_cast<std::size_t>(size), 'a') + "\r\n";
        return r + "\r\n";
    };
    EXPECT_EQ(ask(with_fields(30, 1000)).status, 200);
    expect_json_error(ask(with_fields(40, 1000)), 431, "header");
    expect_json_error(ask(with_fields(4000, 10)), 431, "header");
    // One field of 100 KiB: refused once the cap is read, the rest dropped.
    expect_json_error(ask(with_fields(1, 100 * 1024)), 431, "header");
    EXPECT_TRUE(server_->running());
}

TEST_F(ServeHardening, TextThatIsNotUtf8Is400WithAMessage) {
    for (const char* target :
         {"/api/v1/english?fen=%ff", "/api/v1/english?fen=W:W21:B9%c0%af",
          "/api/v1/english/svg?fen=W:W21:B9&move=%ff", "/api/v1/english/stats?class=%fe%ff",
          "/api/v1/%ff?fen=W:W21:B9", "/api/v1/%ff/stats?class=0201", "/%ed%a0%80",
          "/api/v1/english?%ff=1", "/api/v1/english?fen=%zz", "/api/v1/english?fen=%f"}) {
        SCOPED_TRACE(target);
        expect_json_error(ask(get_request(target)), 400);
    }
    // Well-formed UTF-8 that is no variant or FEN is an ordinary bad request.
    expect_json_error(ask(get_request("/api/v1/%c3%a9checs?fen=W:W21:B9")), 400, "unknown variant");
}

TEST_F(ServeHardening, NoAnswerNamesTheFolderOrTheLibrary) {
    // A position without its rule table (200 with rules_missing), one in the damaged class
    // (500), its stats, a missing page, and an unreadable request.
    const Answer plain = ask(get_request("/api/v1/english?fen=W:WK18:BK1"));
    ASSERT_EQ(plain.status, 200) << plain.body;
    ASSERT_TRUE(plain.body_json().contains("rules_missing")) << plain.body;
    EXPECT_NE(plain.body_json()["rules_missing"].get<std::string>().find("damas gen-rules"),
              std::string::npos);
    std::vector<Answer> answers{plain};
    bool damaged = false;
    for (const char* fen : {"W:WK18,K19:BK1", "B:WK18,K19:BK1", "W:W22,K19:BK1", "W:WK5,K19:BK1"}) {
        answers.push_back(ask(get_request(std::string("/api/v1/english?fen=") + fen)));
        damaged = damaged || answers.back().status == 500;
    }
    EXPECT_TRUE(damaged) << "no position of the damaged class was refused";
    answers.push_back(ask(get_request("/api/v1/english/stats?class=0201")));
    EXPECT_EQ(answers.back().status, 500) << answers.back().body;
    answers.push_back(ask(get_request("/nothing")));
    answers.push_back(ask("BREW /pot HTCPCP/1.0\r\n\r\n"));
    answers.push_back(ask(get_request("/api/v1/english/svg?fen=W:W21:B9")));
    for (const Answer& a : answers) {
        ASSERT_NE(a.status, 0);
        for (const std::string& text : {a.head, a.body}) {
            EXPECT_EQ(text.find(folder_), std::string::npos) << text;
            for (const char* name : {"Beast", "Boost", "boost", "httplib", "Server:"})
                EXPECT_EQ(text.find(name), std::string::npos) << name << " in " << text;
        }
    }
}

TEST_F(ServeHardening, LogLinesCannotBeForged) {
    const auto lines_of_log = [] {
        std::ifstream in(log_, std::ios::binary);
        std::stringstream all;
        all << in.rdbuf();
        return all.str();
    };
    const std::size_t before = lines_of_log().size();
    // Raw bytes past 0x7f are taken in a target (here refused: not UTF-8) and logged escaped;
    // control bytes make the request unreadable.
    ask("GET /\xc3\xa9\xff\x80 HTTP/1.1\r\nConnection: close\r\n\r\n");
    ask("GET /a\x1b[2J\rforged 200 HTTP/1.1\r\nConnection: close\r\n\r\n");
    ask("GET /b%1b%0d%0aforged HTTP/1.1\r\nConnection: close\r\n\r\n");
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    const std::string added = lines_of_log().substr(before);
    for (const char c : added) {
        const auto u = static_cast<unsigned char>(c);
        EXPECT_TRUE(c == '\n' || (u >= 0x20 && u < 0x7f)) << "byte " << int(u) << " in " << added;
    }
    EXPECT_EQ(std::count(added.begin(), added.end(), '\n'), 3) << added;
    EXPECT_NE(added.find("/\\xc3\\xa9\\xff\\x80 400"), std::string::npos) << added;
    EXPECT_NE(added.find("(unreadable request) 400"), std::string::npos) << added;
}

TEST_F(ServeHardening, PipelinedRequestsAreAnsweredInOrder) {
    Socket s(port_);
    // Three requests in one write, the last closing the connection.
    ASSERT_TRUE(s.send_all(get_request("/api/v1", false) +
                           get_request("/api/v1/english?fen=W:WK18:BK1", false) +
                           get_request("/nothing", true)));
    const auto answers = parse_answers(s.read_to_end());
    ASSERT_EQ(answers.size(), 3u);
    EXPECT_EQ(answers[0].status, 200);
    EXPECT_TRUE(answers[0].body_json().contains("variants")) << answers[0].body;
    EXPECT_EQ(answers[1].status, 200);
    EXPECT_EQ(answers[1].body_json()["fen"], "W:WK18:BK1") << answers[1].body;
    EXPECT_EQ(answers[2].status, 404);
}

TEST_F(ServeHardening, SlowClientsBlockNoOneAndMeetTheirDeadline) {
    // More slow clients than worker threads, each sending a byte every 100 ms of a request it
    // never ends: the deadline (1 s from the first byte) ends them, and meanwhile a client
    // on a kept-alive connection is answered at once, request after request.
    std::vector<std::unique_ptr<Socket>> slow;
    for (int i = 0; i < 20; ++i) {
        slow.push_back(std::make_unique<Socket>(port_));
        slow.back()->send_all("GET /api/v1 HTTP/1.1\r\nX-Slow: ");
    }
    Socket normal(port_);
    double worst_ms = 0;
    int answered = 0;
    const auto start = Clock::now();
    for (int tick = 0; tick < 6; ++tick) {
        for (auto& s : slow) s->send_all("a");
        for (int i = 0; i < 5; ++i) {
            const auto t0 = Clock::now();
            ASSERT_TRUE(normal.send_all(get_request("/api/v1", false)));
            const auto got = normal.read_answer(std::chrono::milliseconds(3000));
            worst_ms = std::max(
                worst_ms, std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
            if (got && got->status == 200) ++answered;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    EXPECT_EQ(answered, 30);
    EXPECT_LT(worst_ms, 500) << "a normal request waited behind slow clients";
    // 1 s after their first byte, the slow clients are told 408 and closed (with a margin for a
    // loaded host).
    const auto since = Clock::now() - start;
    const auto told = parse_answers(slow[0]->read_to_end(std::chrono::milliseconds(3000)));
    ASSERT_EQ(told.size(), 1u);
    expect_json_error(told[0], 408, "not complete within 1 s");
    for (auto& s : slow)
        EXPECT_TRUE(s->closed_within(std::chrono::milliseconds(3000) -
                                     std::chrono::duration_cast<std::chrono::milliseconds>(since)))
            << "a slow client outlived the request deadline";
}

TEST_F(ServeHardening, IdleAndSurplusConnectionsAreClosed) {
    // A connection that sends nothing is closed after the idle timeout (1 s).
    {
        Socket idle(port_);
        const auto t0 = Clock::now();
        EXPECT_TRUE(idle.closed_within(std::chrono::milliseconds(4000)));
        EXPECT_GT(Clock::now() - t0, std::chrono::milliseconds(500));
    }
    // Past max_per_client connections from one address, the next is answered 429 and closed.
    std::vector<std::unique_ptr<Socket>> held;
    for (int i = 0; i < max_per_client; ++i) held.push_back(std::make_unique<Socket>(port_));
    Socket surplus(port_);
    const auto answers = parse_answers(surplus.read_to_end(std::chrono::milliseconds(3000)));
    ASSERT_EQ(answers.size(), 1u);
    expect_json_error(answers[0], 429, "too many connections");
    held.clear();
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    EXPECT_EQ(ask(get_request("/api/v1")).status, 200);
}

TEST_F(ServeHardening, ClientErrorsAreAnsweredAtOnceInJson) {
    // A malformed request is answered 400 at once, not after a timeout.
    const auto t0 = Clock::now();
    expect_json_error(ask("\x01\x02 NOT HTTP\r\n\r\n"), 400, "malformed");
    EXPECT_LT(Clock::now() - t0, std::chrono::milliseconds(500));
    expect_json_error(ask("POST /api/v1 HTTP/1.1\r\nContent-Length: 2\r\n\r\n{}"), 405);
    expect_json_error(ask("GET /api/v1 HTTP/1.1\r\nContent-Length: 5000\r\n\r\n"), 413);
    expect_json_error(ask(get_request("api/v1")), 400);
    // HEAD: the fields of the GET answer, no body.
    Socket s(port_);
    s.send_all("HEAD /api/v1 HTTP/1.1\r\nConnection: close\r\n\r\n");
    const std::string head = s.read_to_end();
    EXPECT_TRUE(head.starts_with("HTTP/1.1 200")) << head;
    EXPECT_TRUE(head.ends_with("\r\n\r\n")) << head;
}

}  // namespace
}  // namespace damas
