#!/usr/bin/env bash
# The memory figure of damas annotate on one very long game (docs/performance.md, "annotate"):
# an english database of 2-3 pieces with its rule tables, one game of about SIZE MB (a king on
# each side going back and forth, inside the tablebase at every ply, so that every position is
# probed under the rules and commented: "[FEN "W:WK32:BK1"] 1. 32-27 1-6 27-32 6-1 ..."),
# annotated as text, to a file and with --json, the peak resident set of each from
# /usr/bin/time -v.
# usage: scripts/bench-annotate-memory.sh [SIZE_MB=20] [DIR=db-bench-annotate]
set -euo pipefail
cd "$(dirname "$0")/.."
size_mb=${1:-20}
dir=${2:-db-bench-annotate}
damas=${DAMAS:-build/damas}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$damas" gen -v english -p 3 -d "$dir" --quiet
"$damas" gen-rules -v english -p 3 -d "$dir" --quiet > /dev/null

# The game: White's king 32 <-> 27, Black's king 1 <-> 6, one move number at its start and no
# other (PDN allows it; 5 bytes a ply, the most plies a megabyte holds), until SIZE MB.
game="$work/long.pdn"
awk -v bytes=$((size_mb * 1000 * 1000)) 'BEGIN {
    print "[Event \"long game\"]"
    print "[FEN \"W:WK32:BK1\"]"
    print ""
    written = 0; plies = 0; line = "1."
    while (written < bytes) {
        line = line " 32-27 1-6 27-32 6-1"
        plies += 4
        if (length(line) > 70) { print line; written += length(line) + 1; line = "" }
    }
    print line " *"
    printf "%d plies\n", plies > "/dev/stderr"
}' > "$game"
echo "game: $(du -h "$game" | cut -f1), $(wc -l < "$game") lines"

peak() {  # the command's peak resident set in MiB, and its time
    /usr/bin/time -v "$@" 2> "$work/time" > /dev/null || { cat "$work/time" >&2; exit 1; }
    awk -F': ' '/Maximum resident/ { rss = $2 } /Elapsed/ { t = $2 } /User time/ { u = $2 }
        /System time/ { s = $2 }
        END { printf "peak %.1f MiB, %.1f s CPU, %s elapsed\n", rss / 1024, u + s, t }' "$work/time"
}
echo "annotate (text):   $(peak "$damas" annotate -v english -d "$dir" "$game")"
echo "annotate (-o):     $(peak "$damas" annotate -v english -d "$dir" "$game" -o "$work/out.pdn")"
echo "annotate (--json): $(peak "$damas" annotate -v english -d "$dir" "$game" --json)"
