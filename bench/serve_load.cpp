// Load benchmark of `damas serve`: C concurrent clients (keep-alive connections, one thread
// each) send N requests in all: random positions of a given number of pieces (each requested
// once before the timing, so that their blocks are cached) with their moves, and one bad request
// in `bad_every` (unknown variant, malformed FEN, too many pieces, a bad count, no FEN), which
// must get 400. Prints requests/s, latency percentiles, transport errors and wrong statuses.
// With SLOW > 0, that many more connections drip a request's header block meanwhile, one byte
// every DRIP_MS, each opened again when the server closes it (its deadline), from before the
// timing to its end; their count of closes is printed.
//
// usage: serve_load PORT VARIANT PIECES [CLIENTS=32] [REQUESTS=10000] [BAD_EVERY=10] [SLOW=0]
//        [DRIP_MS=4000]
// The server must run on 127.0.0.1:PORT (damas serve -d DIR --port PORT --quiet).
// SERVE_LOAD_API=lichess in the environment sends the same positions to the lichess-shaped API,
// GET /{variant}?fen= (an unknown variant is then 404, and a position beyond the tables is no
// bad request there: it is answered "unknown").
#include <httplib.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "rules/notation.hpp"
#include "rules/variant.hpp"

namespace {

using namespace damas;
using Clock = std::chrono::steady_clock;

struct Target {
    std::string path;
    int status;  // expected
};

// A random position with `pieces` pieces, both sides present, legal for the variant.
std::string random_fen(Variant v, int pieces, std::mt19937_64& rng) {
    const GeometryTables g = make_tables(v.info().board);
    for (;;) {
        Position p;
        std::vector<int> squares(g.squares);
        for (int i = 0; i < g.squares; ++i) squares[i] = i;
        std::shuffle(squares.begin(), squares.end(), rng);
        const int white = 1 + static_cast<int>(rng() % static_cast<unsigned>(pieces - 1));
        for (int i = 0; i < pieces; ++i) {
            const Bitboard b = bit(g.bit_of_square[squares[i]]);
            p.pieces[i < white ? 0 : 1] |= b;
            if (rng() % 2) p.kings |= b;
        }
        p.side = rng() % 2 ? Color::white : Color::black;
        try {
            validate(v, p);
            return to_fen(v, p);
        } catch (const std::exception&) {
        }
    }
}

std::string encode(const std::string& s) {
    return httplib::detail::encode_query_param(s);
}

// A connection to 127.0.0.1:port that has sent the start of a request; -1 if refused.
int open_slow(int port) {
    const int fd = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_port = htons(static_cast<std::uint16_t>(port));
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    const std::string start = "GET /api/v1 HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ";
    if (connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0 ||
        send(fd, start.data(), start.size(), MSG_NOSIGNAL) < 0) {
        close(fd);
        return -1;
    }
    return fd;
}

// `count` slow clients dripping a byte each every `drip_ms` until `stop`; the number of times
// the server closed one (then opened again) is returned.
int drip(int port, int count, int drip_ms, const std::atomic<bool>& stop) {
    std::vector<int> fds;
    for (int i = 0; i < count; ++i) fds.push_back(open_slow(port));
    int closed = 0;
    while (!stop) {
        const auto next = Clock::now() + std::chrono::milliseconds(drip_ms);
        for (int& fd : fds) {
            if (fd >= 0 && send(fd, "a", 1, MSG_NOSIGNAL) == 1) continue;
            if (fd >= 0) {
                ++closed;
                close(fd);
            }
            fd = open_slow(port);
        }
        while (!stop && Clock::now() < next)
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    for (const int fd : fds)
        if (fd >= 0) close(fd);
    return closed;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 4) {
        std::fprintf(stderr,
                     "usage: serve_load PORT VARIANT PIECES [CLIENTS=32] [REQUESTS=10000] "
                     "[BAD_EVERY=10]\n");
        return 2;
    }
    const int port = std::atoi(argv[1]);
    const auto variant = parse_variant(argv[2]);
    const int pieces = std::atoi(argv[3]);
    const int clients = argc > 4 ? std::atoi(argv[4]) : 32;
    const int requests = argc > 5 ? std::atoi(argv[5]) : 10000;
    const int bad_every = argc > 6 ? std::atoi(argv[6]) : 10;
    const int slow = argc > 7 ? std::atoi(argv[7]) : 0;
    const int drip_ms = argc > 8 ? std::atoi(argv[8]) : 4000;
    if (!variant || pieces < 2 || clients < 1 || requests < 1 || bad_every < 2 || slow < 0 ||
        drip_ms < 1) {
        std::fprintf(stderr, "serve_load: bad arguments\n");
        return 2;
    }
    const char* api = std::getenv("SERVE_LOAD_API");
    const bool lichess = api && std::string(api) == "lichess";
    const std::string base = (lichess ? "/" : "/api/v1/") + variant->name();

    // The positions, each requested once (warm-up: its tables and blocks are then cached).
    std::mt19937_64 rng(20261124);
    std::vector<Target> good;
    httplib::Client warm("127.0.0.1", port);
    for (int i = 0; i < 400; ++i) {
        const std::string path = base + "?fen=" + encode(random_fen(*variant, pieces, rng));
        const auto r = warm.Get(path.c_str());
        if (!r) {
            std::fprintf(stderr, "serve_load: no server on 127.0.0.1:%d\n", port);
            return 1;
        }
        if (r->status == 200) good.push_back({path, 200});
    }
    std::vector<Target> bad = {
        {lichess ? "/chess?fen=W:W21:B9" : "/api/v1/chess?fen=W:W21:B9", lichess ? 404 : 400},
        {base + "?fen=" + encode("W:W99,x:B1"), 400},
        {base + "?fen=" + encode("W:W21:B9") + "&plies_since_capture=-3", 400},
        {base, 400},
    };
    if (!lichess)
        bad.push_back({base + "?fen=" + encode(std::string(variant->info().initial_fen)), 400});
    std::printf("%zu distinct %d-piece positions, %zu kinds of bad request\n", good.size(), pieces,
                bad.size());

    std::atomic<bool> stop_dripping{false};
    int slow_closed = 0;
    std::thread dripper;
    if (slow > 0) {
        dripper = std::thread([&] { slow_closed = drip(port, slow, drip_ms, stop_dripping); });
        std::this_thread::sleep_for(std::chrono::milliseconds(500));  // all of them connected
    }
    std::atomic<int> next{0}, errors{0}, wrong{0};
    std::atomic<long> bytes{0};
    std::vector<std::vector<double>> latencies(clients);
    const auto start = Clock::now();
    std::vector<std::thread> threads;
    for (int c = 0; c < clients; ++c)
        threads.emplace_back([&, c] {
            httplib::Client client("127.0.0.1", port);
            client.set_keep_alive(true);
            client.set_tcp_nodelay(true);
            for (int i; (i = next++) < requests;) {
                const Target& t = i % bad_every == bad_every - 1
                                      ? bad[static_cast<std::size_t>(i / bad_every) % bad.size()]
                                      : good[static_cast<std::size_t>(i) % good.size()];
                const auto t0 = Clock::now();
                const auto r = client.Get(t.path.c_str());
                latencies[c].push_back(
                    std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
                if (!r)
                    ++errors;
                else {
                    if (r->status != t.status) ++wrong;
                    bytes += static_cast<long>(r->body.size());
                }
            }
        });
    for (std::thread& t : threads) t.join();
    const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
    stop_dripping = true;
    if (dripper.joinable()) dripper.join();
    std::vector<double> all;
    for (const auto& l : latencies) all.insert(all.end(), l.begin(), l.end());
    std::sort(all.begin(), all.end());
    const auto pct = [&](double q) {
        return all[std::min(all.size() - 1,
                            static_cast<std::size_t>(q * static_cast<double>(all.size())))];
    };
    std::printf("%d requests from %d clients in %.2f s: %.0f requests/s, %.1f MB received\n",
                requests, clients, seconds, requests / seconds,
                static_cast<double>(bytes.load()) / 1e6);
    std::printf("latency ms: p50 %.2f, p90 %.2f, p99 %.2f, max %.2f\n", pct(0.5), pct(0.9),
                pct(0.99), all.back());
    std::printf("transport errors %d, wrong statuses %d\n", errors.load(), wrong.load());
    if (slow > 0)
        std::printf("%d slow clients dripping a byte every %d ms: closed by the server %d times\n",
                    slow, drip_ms, slow_closed);
    return errors || wrong ? 1 : 0;
}
