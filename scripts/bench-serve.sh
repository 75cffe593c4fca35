#!/usr/bin/env bash
# The explorer's load figure (docs/performance.md): damas serve on an english database of 2-5
# pieces with its rule tables, and bench/serve_load sending 10,000 requests from 32 keep-alive
# clients (random 5-piece positions with their moves, requested once before the timing, and one
# bad request in ten, which must get 400).
# usage: scripts/bench-serve.sh [DIR=db-bench-serve] [RUNS=3]
# Needs the benchmarks built: cmake -B build -DDAMAS_BUILD_BENCH=ON && cmake --build build
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:-db-bench-serve}
runs=${2:-3}
damas=${DAMAS:-build/damas}
load=build/bench/serve_load
[ -x "$load" ] || { echo "bench-serve.sh: $load is missing (build with -DDAMAS_BUILD_BENCH=ON)" >&2; exit 2; }
"$damas" gen -v english -p 5 -d "$dir" --quiet
"$damas" gen-rules -v english -p 5 -d "$dir" --quiet > /dev/null
port_file=$(mktemp)
"$damas" serve -d "$dir" --port 0 --quiet > "$port_file" &
server=$!
trap 'kill $server 2>/dev/null; rm -f "$port_file"' EXIT
for _ in $(seq 50); do grep -q listening "$port_file" && break; sleep 0.1; done
port=$(sed -n 's|.*:\([0-9]*\)/$|\1|p' "$port_file")
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
for _ in $(seq "$runs"); do "$load" "$port" english 5 32 10000 10; done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
