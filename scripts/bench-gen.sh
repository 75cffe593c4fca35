#!/usr/bin/env bash
# Generator benchmarks (issue 4), not tests: wall time, throughput and peak memory of full runs
# with 2 threads, and the size of the english WDL files. Each run starts from an empty folder.
# Usage: scripts/bench-gen.sh [quick|all]   (quick: brazilian 2-5 only; all: also international
# 2-5 and english 2-6, which take tens of minutes).
set -euo pipefail
cd "$(dirname "$0")/.."
mode=${1:-quick}
out=${BENCH_DIR:-/tmp/damas-bench}
threads=${THREADS:-2}

run() {  # variant pieces
    local dir="$out/$1-$2"
    rm -rf "$dir"
    /usr/bin/time -f "peak %M KiB, wall %e s" build/damas gen -v "$1" -p "$2" -d "$dir" -t "$threads" -q
}

run brazilian 5
if [ "$mode" = all ]; then
    run international 5
    run english 6
    printf 'english 2-6 WDL files: '
    du -cb "$out"/english-6/english/*.wdl | tail -n 1
fi
