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
3. Threads: the same number of probes split over 1, 2 and 4 threads; probes per second, and
   the cores the process kept busy (CPU time over wall time: above 1 only if the GIL is let go
   during probes and the host has a core free; on a loaded host scaling cannot show).
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


def threaded_probes_per_second(tb, fens, threads, total):
    per_thread = total // threads
    barrier = threading.Barrier(threads + 1)

    def work(offset):
        barrier.wait()
        n = len(fens)
        for i in range(per_thread):
            tb.probe(fens[(offset + i) % n])

    workers = [threading.Thread(target=work, args=(k * 997,)) for k in range(threads)]
    for w in workers:
        w.start()
    barrier.wait()
    start, cpu_start = time.perf_counter(), time.process_time()
    for w in workers:
        w.join()
    wall = time.perf_counter() - start
    return per_thread * threads / wall, (time.process_time() - cpu_start) / wall


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

    total = args.rounds * 20
    single = None
    for threads in (1, 2, 4):
        rate, cores = max(threaded_probes_per_second(tb, fens, threads, total)
                          for _ in range(args.repeats))
        single = single or rate
        print(f"{threads} thread(s): {rate / 1000:.0f} k probes/s, {rate / single:.2f}x one "
              f"thread, {cores:.2f} cores busy (of {os.cpu_count()}; load average "
              f"{os.getloadavg()[0]:.1f})")


if __name__ == "__main__":
    main()
