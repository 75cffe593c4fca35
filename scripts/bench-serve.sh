#!/usr/bin/env bash
# The explorer's load figure (docs/performance.md): damas serve on an english database of 2-5
# pieces with its rule tables, and bench/serve_load sending 10,000 requests from 32 keep-alive
# clients (random 5-piece positions with their moves, requested once before the timing, and one
# bad request in ten, which must get 400 or 404), then the same on the lichess-shaped API. Then
# the hostile cases: the same load for longer while 200 more connections drip a header block a
# byte every 4 s (bench/serve_load's SLOW), and one request with a 100 MB header block
# (bench/serve_header_flood.py: the server's memory before, during and after).
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
# --max-per-client above the 232 connections the slow case opens, all from 127.0.0.1.
"$damas" serve -d "$dir" --port 0 --quiet --max-per-client 256 > "$port_file" &
server=$!
trap 'kill $server 2>/dev/null; rm -f "$port_file"' EXIT
for _ in $(seq 50); do grep -q listening "$port_file" && break; sleep 0.1; done
port=$(sed -n 's|.*:\([0-9]*\)/$|\1|p' "$port_file")
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
for _ in $(seq "$runs"); do "$load" "$port" english 5 32 10000 10; done
echo "-- the same on the lichess-shaped API, GET /english?fen="
for _ in $(seq "$runs"); do SERVE_LOAD_API=lichess "$load" "$port" english 5 32 10000 10; done
echo "-- 32 clients while 200 slow ones drip a byte every 4 s"
for _ in $(seq "$runs"); do "$load" "$port" english 5 32 200000 10 200 4000; done
echo "-- one request with a header block of 100 MB"
python3 bench/serve_header_flood.py "$port" "$server" 100
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
