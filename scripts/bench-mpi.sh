#!/usr/bin/env bash
# damas-mpi against damas (docs/performance.md): one process of 2 threads, then 2 ranks of 1
# thread, then 4 ranks of 1 thread on the same cores (oversubscribed); the wall times, the
# speed ratio, each rank's share of time spent waiting for a ready pair, and whether the files
# are byte-identical.  Usage: scripts/bench-mpi.sh [variant [pieces [scratch]]]
set -euo pipefail
cd "$(dirname "$0")/.."
variant=${1:-english} pieces=${2:-5} scratch=${3:-/tmp/damas-bench-mpi}
mpi=(mpirun --oversubscribe -q)
[ "$(id -u)" -eq 0 ] && mpi+=(--allow-run-as-root)
rm -rf "$scratch"
mkdir -p "$scratch"
build/damas gen -v "$variant" -p "$pieces" -t 2 -d "$scratch/one" -q --no-sync --json \
    > "$scratch/one.json"
for n in 2 4; do
    "${mpi[@]}" -np $n build/damas-mpi gen -v "$variant" -p "$pieces" -t 1 -d "$scratch/mpi$n" \
        -q --no-sync --json > "$scratch/mpi$n.json"
done
python3 - "$scratch" "$variant" <<'PY'
import json, subprocess, sys
scratch, variant = sys.argv[1:3]
one = json.load(open(f"{scratch}/one.json"))
print(f"{variant}: {one['positions']} positions; 1 process of 2 threads {one['seconds']:.1f} s")
for n in (2, 4):
    r = json.load(open(f"{scratch}/mpi{n}.json"))
    same = subprocess.run(["diff", "-r", "-q", "-x", "manifest.json", "-x", ".damas.lock",
                           f"{scratch}/one/{variant}", f"{scratch}/mpi{n}/{variant}"],
                          capture_output=True).returncode == 0
    waits = ", ".join(f"{x['wait_share'] * 100:.1f}%" for x in r["ranks"])
    peaks = ", ".join(f"{x['peak_resident_bytes'] / 2**20:.0f}" for x in r["ranks"])
    print(f"{n} ranks of 1 thread: {r['seconds']:.1f} s, {one['seconds'] / r['seconds']:.2f} times "
          f"the speed of one process; waiting {waits}; peak MiB {peaks}; "
          f"{'byte-identical' if same else 'FILES DIFFER'}")
PY
rm -rf "$scratch"
