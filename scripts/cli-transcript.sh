#!/usr/bin/env bash
# A transcript of the command line: every command, in text and --json, errors included, on small
# databases it generates into a scratch folder. Two builds that behave the same print the same
# transcript (timings, memory figures and the version are masked), so a refactoring is checked by
#   scripts/cli-transcript.sh OLD/damas > before.txt; scripts/cli-transcript.sh NEW/damas > after.txt
#   diff before.txt after.txt
# Usage: scripts/cli-transcript.sh [DAMAS_BINARY] (default build/damas)
set -uo pipefail
damas=$(realpath "${1:-build/damas}")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
db=$work/db

# Masks what differs from run to run: times, rates, memory measured, the scratch folder.
mask() {
    sed -E -e "s#$work#WORK#g" -e "s#$damas#damas#g" \
        -e 's/("(seconds|load_seconds|peak_resident_bytes|positions_per_second|cpu_seconds|user_seconds|system_seconds|resident_bytes)"): ?[0-9.e+-]+/\1: N/g' \
        -e 's/[0-9]+(\.[0-9]+)? ?(s|ms|min|h)\b/T/g' \
        -e 's/[0-9]+(\.[0-9]+)? ?(MiB|GiB|KiB|MB|GB|kB) (peak|resident)/M \3/g' \
        -e 's/peak [0-9.]+ ?(MiB|GiB|KiB|MB|GB)/peak M/g' \
        -e 's/[0-9.]+ ?M positions\/s/R positions\/s/g' \
        -e 's/\([0-9.]+ M pos\/s/(R M pos\/s/g' \
        -e 's/peak resident memory [0-9.]+ ?(MiB|GiB)/peak resident memory M/g' \
        -e 's/\(git [^)]*\)/(git)/g' \
        -e 's/("(budget_bytes|available_bytes)"): ?[0-9]+/\1: N/g' \
        -e 's/budget [0-9.]+ GiB \(three quarters/budget B (three quarters/g'
}

run() {
    echo "\$ damas $*" | mask
    "$damas" "$@" > out.txt 2> err.txt
    local code=$?
    mask < out.txt
    sed 's/^/stderr: /' err.txt | mask
    echo "exit $code"
}

# Help of every command.
run --help
for c in perft moves count index unindex gen recode verify probe best line annotate stats info \
         gen-rules probe-rules svg serve; do
    run "$c" --help
done

# Game rules.
run perft -v english -d 6
run perft -v international -d 4 --json
run perft -v russian -d 4 --keep-duplicates
run perft -v turkish --fen "W:Wa2,b3:Bh7" -d 3
run moves -v english
run moves -v russian --json
run moves -v international --fen "W:WK28:B19,23,32,33" --json
run moves -v english --fen "garbage"
run moves -v nosuch
run perft -v english -d 99

# Index.
for v in english international turkish; do
    run count -v "$v" -p 3
done
run count -v brazilian -p 4 --json
run index -v english --fen "W:WK18,K22:BK5"
run index -v international --fen "W:W31:B19" --json
run unindex -v english --class 0201 --index 123
run unindex -v english --class 0201 --index 99999999999
run index -v english --fen "W:W99:B1"

# Generation, plans and rule tables.
run gen -v english -p 4 -d "$db" -q --json
run gen -v english -p 4 -d "$db" -q
run gen -v international -p 3 -d "$db" -q --json
run gen -v portuguese -p 4 -d "$db" -q
run gen -v turkish -p 3 -d "$db" -q --compact
run gen -v english-giveaway -p 3 -d "$db" -q
run gen -v english -p 6 --plan --memory 16G
run gen -v international -p 7 --plan --json --memory 16G
run gen -v english -p 5 --memory 1G --plan
run gen -v english -p 9 -d "$db"
run gen-rules -v english -p 4 -d "$db" -q --json
run gen-rules -v portuguese -p 4 -d "$db" -q
run gen-rules -v international -p 3 -d "$db" -q
run gen-rules -v international -p 3 -d "$db" -q --edition fmjd

# Folder checks.
run verify -d "$db" -q
run verify -d "$db" --json
run verify -d "$db" --deep -c 0201 -c 1101 -q
run info -d "$db"
run info -d "$db" --json
cp -r "$db" db2
run recode -v english -d db2 --wdl-codec zstd -q --json
run recode -v english -d db2 --dtw-codec zstd -q
run verify -d db2 -q

# Probing.
for fen in "W:WK18,K22:BK5" "B:WK18,K22:BK5" "W:W18:B14" "W:WK1:BK32" "W:W18,K22:B5,K9"; do
    run probe -v english -d "$db" "$fen"
    run probe -v english -d "$db" "$fen" --json
    run best -v english -d "$db" "$fen"
    run best -v english -d "$db" "$fen" --json
    run line -v english -d "$db" "$fen"
    run line -v english -d "$db" "$fen" --json
done
run probe -v english -d "$db" "W:WK18,K22:BK5" --plies-since-capture 30
run best -v english -d "$db" "W:WK18,K22:BK5" --plies-since-capture 60 --json
run probe -v portuguese -d "$db" "W:WK8,K10,K17:BK18" --plies-since-capture 24 --forcada-plies 0
run probe -v portuguese -d "$db" "W:WK8,K10,K17:BK18" --json
run line -v portuguese -d "$db" "W:WK8,K10,K17:BK18" --forcada-plies 3
run probe -v international -d "$db" "W:WK44,K50:BK7"
run probe -v international -d "$db" "W:WK44,K50:BK7" --edition fmjd --json
run best -v international -d "$db" "W:WK44,45:BK7" --edition fmjd
run probe -v turkish -d "$db" "W:Wa2,b3:Bh7"
run probe -v english-giveaway -d "$db" "W:W18:BK5"
run probe -v english -d "$db" "W:W18,K22,K23,K24:BK5"
run probe -v english -d "$db" "garbage"
run probe -v english -d "$db" "garbage" --json
run probe -v english -d "$work/nosuch" "W:WK18,K22:BK5"
run probe -v english -d "$db/english" "W:WK18,K22:BK5"
run probe -v russian -d "$db" "W:WK18,K22:BK5"
run probe-rules -v english -d "$db" "W:WK18,K22:BK5"
run stats -v english -d "$db"
run stats -v english -d "$db" --class 0201 --json
run stats -v portuguese -d "$db" --class 0301

# Annotation.
cat > game.pdn <<'EOF'
[White "Ann"]
[Black "Bob"]
[FEN "W:WK18,K19:BK1"]

1... 18-14 {Ann thinks} 1-5 2. 14-10 5-1 3. 10-6 (3. 19-15 1-6) 1x10 4. 19-15 *

[White "Cy"]
[Black "Di"]
[FEN "W:WK18,K22:BK5"]

1... 22-17 5-9 2. 17-13 9-14 *
EOF
run annotate -v english -d "$db" game.pdn
run annotate -v english -d "$db" game.pdn --json
run annotate -v english -d "$db" game.pdn -o out.pdn
cat out.pdn
printf '[FEN "W:WK18,K19:BK1"]\n\n1... 18-15 *\n' > bad.pdn
run annotate -v english -d "$db" bad.pdn
printf '[FEN "W:WK18,K19:BK1"]\n\n1... 18-14 {open *\n' > bad2.pdn
run annotate -v english -d "$db" bad2.pdn

# Pictures.
run svg -v english "W:WK18,K22:BK5"
run svg -v international "W:W31,32:B19" --move 31-26 --square-size 30 --no-numbers
run svg -v english "garbage"

# The explorer's API.
port=$((20000 + RANDOM % 20000))
"$damas" serve -d "$db" --port "$port" -q > serve.out 2> serve.err &
serve_pid=$!
for _ in $(seq 50); do
    curl -s "http://127.0.0.1:$port/api/v1" > /dev/null 2>&1 && break
    sleep 0.1
done
for target in "/api/v1" "/api/v1/english?fen=W:WK18,K22:BK5" \
              "/api/v1/english?fen=W:WK18,K22:BK5&plies_since_capture=30" \
              "/api/v1/english?fen=garbage" "/api/v1/nosuch?fen=W:WK18,K22:BK5" \
              "/api/v1/english/svg?fen=W:WK18,K22:BK5&move=18-14" \
              "/api/v1/english/stats?class=0201" "/api/v1/international?fen=W:WK44,K50:BK7"; do
    echo "\$ GET $target"
    curl -s -w '\nstatus %{http_code}\n' "http://127.0.0.1:$port$target" | mask
done
kill "$serve_pid"
wait "$serve_pid" 2> /dev/null
