#!/usr/bin/env python3
"""Benchmark of the Python package: what a probe from Python costs over the same C++ calls, and
how Python threads probing one Tablebase scale (probes release the GIL).

    python3 bench/python_probe.py --dir db --variant english     (scripts/setup.sh's database)

1. Cached overhead: tb.probe(fen) on positions whose blocks are cached, against
   tb._time_cpp_probe(fen, n), which runs what probe() runs in C++ (parse the FEN, probe the
   value and DTW, probe under the rules, print the FEN) n times without Python in between.
   The difference is the cost of Python: the call, the arguments, the GIL released and taken
   back, the result objects. Both in the thread's CPU time, best of --repeats alternated runs.
2. GIL: the longest pause of the main thread while another spends a second in one C++ call
   (the whole second if the call held the GIL).
3. Threads: the same number of calls split over 1, 2 and 4 threads; positions per second, and
   the cores the process kept busy (CPU time over wall time: above 1 only if the GIL is let go
   and the host has a core free; on a loaded host scaling cannot show). For: tb.probe cached
   (answered under the GIL: no scaling expected, but no slowdown), tb.probe uncached
   (cache_mib=0: every block decompressed with the GIL released), tb.probe_many cached (one
   release of the GIL per list of positions), tb.best cached, and the C++ calls alone
   (tb._time_cpp_probe from each thread: the engine's own scaling).
"""

import argparse
import os
import random
import threading
import time

import damas


def random_positions(tb, count, seed):
    """Positions of kings only (3 and 4 pieces, White and Black to move) that the folder has."""
    rng = random.Random(seed)
    squares = range(1, 33) if tb.variant.startswith("english") else range(1, 51)
    out = []
    while len(out) < count:
        white, black = rng.choice([(2, 1), (1, 2), (3, 1), (2, 2), (1, 1)])
        picked = rng.sample(list(squares), white + black)
        side = rng.choice("WB")
        fen = "%s:W%s:B%s" % (side, ",".join("K%d" % s for s in picked[:white]),
                              ",".join("K%d" % s for s in picked[white:]))
        try:
            tb.probe(fen)
        except (LookupError, ValueError):
            continue
        out.append(fen)
    return out


# Both timed in this thread's CPU time (time.thread_time_ns), which other processes on a busy
# host do not inflate as they do the wall time.
def python_ns_per_probe(tb, fens, rounds):
    probe = tb.probe
    start = time.thread_time_ns()
    for _ in range(rounds):
        for fen in fens:
            probe(fen)
    return (time.thread_time_ns() - start) / (rounds * len(fens))


def cpp_ns_per_probe(tb, fens, rounds):
    start = time.thread_time_ns()
    for fen in fens:
        tb._time_cpp_probe(fen, rounds)
    return (time.thread_time_ns() - start) / (rounds * len(fens))


def threaded_probes_per_second(call, fens, threads, total):
    """call(fens, offset, count) probes about count positions and returns how many; returns
    (positions/s, cores busy)."""
    per_thread = total // threads
    barrier = threading.Barrier(threads + 1)
    done = []

    def work(offset):
        barrier.wait()
        done.append(call(fens, offset, per_thread))

    workers = [threading.Thread(target=work, args=(k * 997,)) for k in range(threads)]
    for w in workers:
        w.start()
    barrier.wait()
    start, cpu_start = time.perf_counter(), time.process_time()
    for w in workers:
        w.join()
    wall = time.perf_counter() - start
    return sum(done) / wall, (time.process_time() - cpu_start) / wall


def probe_each(tb):
    def call(fens, offset, count):
        n = len(fens)
        for i in range(count):
            tb.probe(fens[(offset + i) % n])
        return count
    return call


def best_each(tb):
    def call(fens, offset, count):
        n = len(fens)
        for i in range(count):
            tb.best(fens[(offset + i) % n])
        return count
    return call


def probe_many_lists(tb):
    def call(fens, offset, count):
        rotated = fens[offset % len(fens):] + fens[:offset % len(fens)]
        lists = max(1, count // len(fens))
        for _ in range(lists):
            tb.probe_many(rotated)
        return lists * len(fens)
    return call


def cpp_alone(tb):
    def call(fens, offset, count):
        per_fen = max(1, count // len(fens))
        for i in range(len(fens)):
            tb._time_cpp_probe(fens[(offset + i) % len(fens)], per_fen)
        return per_fen * len(fens)
    return call


def longest_pause_during_a_call(tb, fen, seconds):
    """The main thread's longest pause while another thread spends `seconds` in one C++ call."""
    calls = max(1000, int(seconds * 1e9 / tb._time_cpp_probe(fen, 1000)))
    worker = threading.Thread(target=tb._time_cpp_probe, args=(fen, calls))
    begin = last = time.perf_counter()
    worker.start()
    longest = 0.0
    while worker.is_alive():
        now = time.perf_counter()
        longest, last = max(longest, now - last), now
    return longest, time.perf_counter() - begin


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--dir", default=os.environ.get("DAMAS_DB", "db"))
    parser.add_argument("--variant", default="english")
    parser.add_argument("--positions", type=int, default=64)
    parser.add_argument("--rounds", type=int, default=1000)
    parser.add_argument("--repeats", type=int, default=15)
    args = parser.parse_args()

    tb = damas.Tablebase(args.dir, variant=args.variant, cache_mib=64)
    fens = random_positions(tb, args.positions, 1)
    for fen in fens:  # every block needed is cached from here on
        tb.probe(fen)
    print(f"{tb!r}: {len(fens)} positions of 3 and 4 kings, cached")

    py, cpp = [], []
    for _ in range(args.repeats):  # alternated, so that a busy host weighs on both alike
        py.append(python_ns_per_probe(tb, fens, args.rounds // 10))
        cpp.append(cpp_ns_per_probe(tb, fens, args.rounds // 10))
    py_ns, cpp_ns = min(py), min(cpp)
    print(f"tb.probe from Python: {py_ns:.0f} ns; the same in C++: {cpp_ns:.0f} ns; "
          f"overhead of Python {(py_ns - cpp_ns) / 1000:.2f} us (best of {args.repeats})")

    pause, call = longest_pause_during_a_call(tb, fens[0], 1.0)
    print(f"GIL: while one thread spent {call:.2f} s in a probe loop in C++, the main thread ran "
          f"Python with pauses of at most {pause * 1000:.1f} ms")

    uncached = damas.Tablebase(args.dir, variant=args.variant, cache_mib=0)
    total = args.rounds * 20
    cases = [
        ("tb.probe, cached", probe_each(tb), total),
        ("tb.probe, uncached (cache_mib=0)", probe_each(uncached), total // 20),
        ("tb.probe_many, cached, lists of %d" % len(fens), probe_many_lists(tb), total),
        ("tb.best, cached", best_each(tb), total // 10),
        ("C++ alone (_time_cpp_probe)", cpp_alone(tb), total * 2),
    ]
    for name, call, count in cases:
        single = None
        for threads in (1, 2, 4):
            rate, cores = max(threaded_probes_per_second(call, fens, threads, count)
                              for _ in range(args.repeats))
            single = single or rate
            print(f"{name}: {threads} thread(s): {rate / 1000:.1f} k positions/s, "
                  f"{rate / single:.2f}x one thread, {cores:.2f} cores busy (of "
                  f"{os.cpu_count()}; load average {os.getloadavg()[0]:.1f})")


if __name__ == "__main__":
    main()
