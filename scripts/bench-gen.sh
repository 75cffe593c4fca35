#!/usr/bin/env bash
# Generator benchmarks (issue 4), not tests: wall time, throughput and peak memory of full runs
# with 2 threads, and the size of the english WDL files. Each run starts from an empty folder.
# Usage: scripts/bench-gen.sh [quick|all|pair [runs]|budget [variant pieces memory]]
#   quick: brazilian 2-5 only; all: also international 2-5 and english 2-6 (tens of minutes);
#   pair:  the largest 6-piece 8x8 pair, english 2211 + 1122, solved and written `runs` times
#          (default 3) with the smaller classes on disk (made once, in $BENCH_DIR/pair).
#   budget: the same set (default english 2-6) without a budget, then with --memory (default
#          700M), then every pair in units (--in-units): wall, CPU and peak memory of each, the
#          plan's peak, and whether the three folders are byte-identical.
# DAMAS=path picks the binary (default build/damas; build-pgo/damas for the profile-guided one).
set -euo pipefail
cd "$(dirname "$0")/.."
mode=${1:-quick}
out=${BENCH_DIR:-/tmp/damas-bench}
threads=${THREADS:-2}
damas=${DAMAS:-build/damas}

run() {  # variant pieces [extra gen options...]
    local dir="$out/$1-$2${3:+-budget}"
    rm -rf "$dir"
    /usr/bin/time -f "peak %M KiB, wall %e s, CPU %U + %S s" "$damas" gen -v "$1" -p "$2" \
        -d "$dir" -t "$threads" -q "${@:3}"
}

# A set without a budget, with one and in units: the files must be the same.
budget() {  # variant pieces memory
    echo "$1 2-$2, no budget:"
    run "$1" "$2"
    echo "$1 2-$2, --memory $3 (planned peak: $("$damas" gen -v "$1" -p "$2" --memory "$3" \
        --plan --json | grep -o '"peak_bytes":[0-9]*' | head -n 1))"
    run "$1" "$2" --memory "$3"
    mv "$out/$1-$2-budget" "$out/$1-$2-memory"
    echo "$1 2-$2, every pair in units:"
    run "$1" "$2" --in-units
    diff -r "$out/$1-$2" "$out/$1-$2-memory" && diff -r "$out/$1-$2" "$out/$1-$2-budget" &&
        echo "byte-identical"
}

# The pair's own line (positions, seconds, M positions/s, the phases, CPU seconds) per run.
pair() {  # runs
    local dir="$out/pair"
    echo "preparing the classes english 2211 needs in $dir (once)"
    "$damas" gen -v english -p 6 -c 2211 -d "$dir" -t "$threads" -q
    for _ in $(seq "$1"); do
        rm -f "$dir"/english/2211.* "$dir"/english/1122.*
        local log
        log=$("$damas" gen -v english -p 6 -c 2211 -d "$dir" -t "$threads" 2>&1) || {
            echo "$log" >&2  # damas's own error message
            exit 1
        }
        grep -E '^1122\+2211: .* positions in' <<< "$log" || {
            echo "bench-gen.sh: the pair's line is missing from damas's output" >&2
            exit 1
        }
    done
}

case "$mode" in
    quick) run brazilian 5 ;;
    all)
        run brazilian 5
        run international 5
        run english 6
        printf 'english 2-6 WDL files: '
        du -cb "$out"/english-6/english/*.wdl | tail -n 1
        ;;
    pair) pair "${2:-3}" ;;
    budget) budget "${2:-english}" "${3:-6}" "${4:-700M}" ;;
    *)
        echo "usage: scripts/bench-gen.sh [quick|all|pair [runs]|budget [variant pieces memory]]" >&2
        exit 2
        ;;
esac
