#!/usr/bin/env python3
"""How fast `damas hub` answers, as a GUI sees it (docs/performance.md, "damas hub").

    bench/hub_latency.py DAMAS DB [STUB_ENGINE] [--rounds N]

First go: N fresh `damas hub -d DB -v english` processes, each sent the handshake, a position
inside the tablebase (W:WK18,K22:BK5, 3 pieces) and `go think`; the time from `go` to `done`
and from starting the process to `done`, once the tables are in the page cache (a first
process warms it and is not counted). Proxy: with STUB_ENGINE (build/tests/hub/stub_hub_engine),
the round trip of `ping` to `pong`, 2,000 times, straight to the stub and through
`damas hub --engine STUB`; the difference is what the proxy adds a command.
"""

import statistics
import subprocess
import sys
import time

POSITION = "W:WK18,K22:BK5"


def start(argv):
    return subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                            bufsize=1)


def ask(p, line, until):
    p.stdin.write(line + "\n")
    p.stdin.flush()
    while True:
        answer = p.stdout.readline()
        if not answer:
            raise SystemExit(f"the engine ended before {until}")
        if answer.split(" ", 1)[0].strip() == until:
            return answer


def first_go(damas, db):
    t0 = time.perf_counter()
    p = start([damas, "hub", "-d", db, "-v", "english"])
    ask(p, "hub", "wait")
    ask(p, "init", "ready")
    p.stdin.write(f"pos pos={POSITION}\n")
    t_go = time.perf_counter()
    ask(p, "go think", "done")
    t_done = time.perf_counter()
    p.stdin.close()
    p.wait()
    return (t_done - t_go) * 1000, (t_done - t0) * 1000


def ping_round_trip(argv, n):
    p = start(argv)
    ask(p, "hub", "wait")
    ask(p, "init", "ready")
    times = []
    for _ in range(n):
        t = time.perf_counter()
        ask(p, "ping", "pong")
        times.append((time.perf_counter() - t) * 1000)
    p.stdin.close()
    p.wait()
    return times


def summary(values):
    values = sorted(values)
    return (f"median {statistics.median(values):.3f} ms, "
            f"p90 {values[int(0.9 * (len(values) - 1))]:.3f} ms, max {values[-1]:.3f} ms")


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    rounds = 20
    if "--rounds" in sys.argv:
        rounds = int(sys.argv[sys.argv.index("--rounds") + 1])
        args.remove(str(rounds))
    if len(args) < 2:
        raise SystemExit(__doc__)
    damas, db = args[0], args[1]
    first_go(damas, db)  # warms the page cache
    runs = [first_go(damas, db) for _ in range(rounds)]
    print(f"first go inside the tablebase, go -> done ({rounds} fresh processes): "
          + summary([r[0] for r in runs]))
    print("                             process start -> done: " + summary([r[1] for r in runs]))
    if len(args) > 2:
        stub = args[2]
        direct = ping_round_trip([stub], 2000)
        proxied = ping_round_trip([damas, "hub", "-d", db, "--engine", stub], 2000)
        print("ping -> pong straight to the engine:   " + summary(direct))
        print("ping -> pong through damas hub --engine: " + summary(proxied))
        print(f"the proxy adds (medians): "
              f"{statistics.median(proxied) - statistics.median(direct):.3f} ms a command")


if __name__ == "__main__":
    main()
