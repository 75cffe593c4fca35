#!/usr/bin/env bash
# Generates the same databases in every generation mode, so that two builds can be compared byte
# for byte (a refactoring proves itself so):
#   scripts/generation-modes.sh OLD_BUILD_DIR /tmp/before; scripts/generation-modes.sh build /tmp/after
#   diff -r /tmp/before /tmp/after
# The build folder holds damas (and damas-mpi for the MPI case). Each case writes OUT/<case>/ and
# appends its wall and CPU time to OUT/times.txt (not part of the comparison: compare with -x).
# Usage: scripts/generation-modes.sh BUILD_DIR OUT_DIR [english-pieces (default 6)] [CASE...]
# (the cases to run, default all: english-whole english-512M english-in-units
# english-read-through english-compact english-rules international turkish-compact english-mpi)
set -euo pipefail
bin=$(realpath "$1")
out=$2
pieces=${3:-6}
shift $(($# < 3 ? $# : 3))
cases=" ${*:-english-whole english-512M english-in-units english-read-through english-compact english-rules international turkish-compact english-mpi} "
wanted() { [[ $cases == *" $1 "* ]]; }
mkdir -p "$out"
out=$(realpath "$out")
threads=2

timed() {
    local name=$1
    shift
    local start=$SECONDS
    /usr/bin/time -f "$name %e s wall %U s user %S s system" -a -o "$out/times.txt" "$@"
    echo "$name done in $((SECONDS - start)) s" >&2
}

gen() {
    local name=$1
    shift
    wanted "$name" || return 0
    timed "$name" "$bin/damas" gen -q -t "$threads" -d "$out/$name" "$@"
}

gen english-whole -v english -p "$pieces"
gen english-512M -v english -p "$pieces" --memory 512M
gen english-in-units -v english -p "$pieces" --in-units
gen english-read-through -v english -p "$pieces" --in-units --read-through
gen english-compact -v english -p "$pieces" --compact
if wanted english-rules; then
    # The rule tables of the english set, on a folder of the pure tables made first.
    "$bin/damas" gen -q -t "$threads" -v english -p "$pieces" -d "$out/english-rules"
    timed english-rules "$bin/damas" gen-rules -q -t "$threads" -v english -p "$pieces" \
        -d "$out/english-rules"
fi
gen international -v international -p 5
gen turkish-compact -v turkish -p 5 --compact
if wanted english-mpi && [ -x "$bin/damas-mpi" ]; then
    timed english-mpi mpirun --allow-run-as-root --oversubscribe -np 2 \
        "$bin/damas-mpi" gen -q -t 1 -v english -p 5 -d "$out/english-mpi"
fi
