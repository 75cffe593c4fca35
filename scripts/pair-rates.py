#!/usr/bin/env python3
"""Generation rates per pair from a `damas gen` log, by pieces and men: what gen/plan/plan.cpp's time
model is fitted to (positions_per_second). Each pair's line reads
  0102+0201: 29760 positions in 0.01 s (...; CPU 0.01 s; ...)
and the rate is taken per CPU-second (wall time is unreliable on a shared host), then times the
thread count for a rate in positions per second of a run of that many threads.

usage: scripts/pair-rates.py LOG [--threads 2] [--min-positions N] [--pairs]
"""
import argparse
import re
import sys
from collections import defaultdict

LINE = re.compile(r"^(\d{4})(?:\+(\d{4}))?: (\d+) positions in ([\d.]+) s \(.*?CPU ([\d.]+) s")


def men_kings(name):
    white_men, white_kings, black_men, black_kings = (int(c) for c in name)
    return white_men + black_men, white_kings + black_kings


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("log")
    parser.add_argument("--threads", type=int, default=2, help="threads of the run (default 2)")
    parser.add_argument("--min-positions", type=float, default=0,
                        help="leave out pairs smaller than this (their CPU is mostly rounding)")
    parser.add_argument("--pairs", action="store_true", help="also print every pair's line")
    args = parser.parse_args()

    groups = defaultdict(lambda: [0, 0, 0.0, 0.0])  # pairs, positions, CPU-s, wall-s
    totals = defaultdict(lambda: [0, 0.0])
    with open(args.log) as log:
        for line in log:
            m = LINE.match(line)
            if not m:
                continue
            name, positions, wall, cpu = m.group(1), int(m.group(3)), float(m.group(4)), float(
                m.group(5))
            men, kings = men_kings(name)
            pieces = men + kings
            totals[pieces][0] += positions
            totals[pieces][1] += cpu
            if positions < args.min_positions:
                continue
            g = groups[(pieces, men)]
            g[0] += 1
            g[1] += positions
            g[2] += cpu
            g[3] += wall
            if args.pairs:
                rate = positions / cpu / 1e6 if cpu > 0 else float("nan")
                print(f"{m.group(0).split(':')[0]:>10} pieces {pieces} men {men}: "
                      f"{positions / 1e6:10.1f} M positions, {cpu:9.2f} CPU-s, "
                      f"{rate:6.2f} M/CPU-s")
    if not groups:
        sys.exit(f"{args.log}: no pair lines")
    print(f"{'pieces':>6} {'men':>4} {'pairs':>5} {'positions':>12} {'CPU-s':>10} "
          f"{'M/CPU-s':>8} {'M/s on ' + str(args.threads):>10}")
    for (pieces, men), (pairs, positions, cpu, _) in sorted(groups.items()):
        rate = positions / cpu / 1e6 if cpu > 0 else float("nan")
        print(f"{pieces:>6} {men:>4} {pairs:>5} {positions / 1e6:11.1f}M {cpu:10.2f} "
              f"{rate:8.2f} {rate * args.threads:10.2f}")
    print("by pieces (every pair):")
    for pieces, (positions, cpu) in sorted(totals.items()):
        rate = positions / cpu / 1e6 if cpu > 0 else float("nan")
        print(f"{pieces:>6} {positions / 1e6:11.1f}M positions {cpu:10.2f} CPU-s "
              f"{rate:8.2f} M/CPU-s")
    all_positions = sum(t[0] for t in totals.values())
    all_cpu = sum(t[1] for t in totals.values())
    print(f"all: {all_positions / 1e9:.2f} G positions, {all_cpu:.1f} CPU-s, "
          f"{all_positions / all_cpu / 1e6:.2f} M/CPU-s")


if __name__ == "__main__":
    main()
