#!/usr/bin/env bash
# damas-mpi against damas (docs/distributed.md): the files of an MPI run are byte-identical to
# those of one process, for any number of ranks (oversubscribed too), for gen and gen-rules; a
# rank killed in the middle ends the job, and the rerun completes the same files (slow); a
# second job on a folder being written refuses.
# Pairs cut over ranks (slices into ranges of men configurations, docs/distributed.md): the same
# files, with ranges really solved and distance files written in parts by several ranks (the
# summary counts them), and a killed cut run resumed (slow).
# Usage: mpi_gen_checks.sh DAMAS DAMAS_MPI SCRATCH CHECK [PURE RULES]
#        (CHECK: identical, identical_5, ranks, cut, cut_5, cut_kill, rules, kill, lock, plan,
#        errors; for rules, PURE and
#        RULES are portuguese 2-4's pure tables and the same with its rule tables, made by one
#        process: the ctest fixture of tests/limits, shared with test_rules_resume)
set -euo pipefail
damas=$1 damas_mpi=$2 scratch=$3 check=$4 pure=${5:-} rules=${6:-}
rm -rf "$scratch"
mkdir -p "$scratch"
mpi=(mpirun --oversubscribe -q)
[ "$(id -u)" -eq 0 ] && mpi+=(--allow-run-as-root)
# Containers (CI) often forbid the cross-memory attach OpenMPI uses for large messages on one
# host; damas-mpi's messages are 8 bytes, so nothing is lost without it.
export OMPI_MCA_btl_vader_single_copy_mechanism=none

fail() { echo "FAIL: $*" >&2; exit 1; }

# The table files and the manifest's record of them (size, checksum), the same in both folders;
# the manifest's other fields (options, generator) may differ.
same_database() {
    local a=$1/$3 b=$2/$3
    diff -r -q -x manifest.json -x .damas.lock "$a" "$b" || fail "$a and $b differ"
    python3 - "$a/manifest.json" "$b/manifest.json" <<'PY' || fail "manifests of $a and $b differ"
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
assert a["files"] == b["files"], "files differ"
assert all(r["complete"] for r in a["runs"].values()), "a run is not complete"
assert all(r["complete"] for r in b["runs"].values()), "b run is not complete"
assert sorted(a["runs"]) == sorted(b["runs"])
PY
    [ "$(find "$b" -name '*.tmp' | wc -l)" -eq 0 ] || fail "$b has .tmp files"
    [ ! -e "$b/units" ] || fail "$b has unit files left"
}

case $check in
identical|identical_5)  # 2 ranks of 1 thread, english 2-4 (fast) or 2-5 (slow)
    pieces=4
    [ "$check" = identical_5 ] && pieces=5
    "$damas" gen -v english -p $pieces -d "$scratch/one" -q --no-sync
    "${mpi[@]}" -np 2 "$damas_mpi" gen -v english -p $pieces -t 1 -d "$scratch/mpi" -q --no-sync
    same_database "$scratch/one" "$scratch/mpi" english
    ;;
ranks)  # 1, 3 and 4 ranks on 2 cores; one of them with every pair in units
    "$damas" gen -v russian -p 4 -d "$scratch/one" -q --no-sync
    for n in 1 3 4; do
        "${mpi[@]}" -np $n "$damas_mpi" gen -v russian -p 4 -t 1 -d "$scratch/mpi$n" -q --no-sync
        same_database "$scratch/one" "$scratch/mpi$n" russian
    done
    "${mpi[@]}" -np 3 "$damas_mpi" gen -v russian -p 4 -t 1 --in-units -d "$scratch/units" -q \
        --no-sync
    same_database "$scratch/one" "$scratch/units" russian
    ;;
cut|cut_5)  # every pair in units, slices cut over 3 and 4 ranks (russian 2-4) or 3 (english 2-5)
    # The cut pairs' distance files written in parts by several ranks, then assembled: mtc
    # (mtc-wdl, which reads the wdl file written first) forced over 3 ranks, dtw by the rule on 4.
    # The mtc run chooses every class's wdl codec by estimate (--large-class), so that its wdl
    # files are written in parts too; the dtw run writes them as one unit a pair.
    variant=russian pieces=4 chunk=256
    [ "$check" = cut_5 ] && variant=english pieces=5 chunk=1024
    "$damas" gen -v $variant -p $pieces -d "$scratch/one" -q --no-sync
    runs=("3 --cut-slices 3 --metric mtc --large-class 1000" "4")  # forced, then the rule on 4
    [ "$check" = cut_5 ] && runs=("3 --cut-slices 3")
    for run in "${runs[@]}"; do
        n=${run%% *} folder=$scratch/cut${run// /} one=$scratch/one
        extra=()
        [ "$run" != "$n" ] && read -r -a extra <<< "${run#* }"
        wdl_parts=0
        if [[ "$run" == *mtc* ]]; then
            one=$scratch/one_mtc
            large=()
            [[ "$run" == *large-class* ]] && large=(--large-class 1000) wdl_parts=1
            "$damas" gen -v $variant -p $pieces --metric mtc "${large[@]}" -d "$one" -q --no-sync
        fi
        "${mpi[@]}" -np "$n" "$damas_mpi" gen -v $variant -p $pieces -t 1 --in-units \
            --unit-chunk $chunk "${extra[@]}" -d "$folder" -q --no-sync --json > "$scratch/cut.json"
        same_database "$one" "$folder" $variant
        python3 - "$scratch/cut.json" $wdl_parts <<'PY' || fail "no slice or file was cut over ranks ($run)"
import json, sys
s = json.load(open(sys.argv[1]))
if sys.argv[2] == "1":
    wdl = [r["wdl_parts_written"] for r in s["ranks"]]
    assert s["wdl_parts_written"] == sum(wdl) > 0, wdl
    assert sum(1 for p in wdl if p > 0) >= 2, wdl
    print("parts of wdl files written by rank:", wdl)
assert s["slice_ranges_solved"] > 0, s["slice_ranges_solved"]
print("ranges of cut slices solved:", s["slice_ranges_solved"])
by_rank = [r["table_parts_written"] for r in s["ranks"]]
assert s["table_parts_written"] == sum(by_rank) > 0, by_rank
assert sum(1 for p in by_rank if p > 0) >= 2, by_rank
print("parts of distance files written by rank:", by_rank)
PY
    done
    ;;
cut_kill)  # kill -9 one rank of a cut run; the rerun resumes from the parts written
    cut=(--in-units --unit-chunk 1024 --cut-slices 3)
    "$damas" gen -v english -p 5 -d "$scratch/one" -q --no-sync
    "${mpi[@]}" -np 3 "$damas_mpi" gen -v english -p 5 -t 1 "${cut[@]}" -d "$scratch/mpi" \
        --no-sync > "$scratch/killed.log" 2>&1 &
    job=$!
    # Once a pair has parts of its slices written (a pair in progress), kill the newest rank.
    for _ in $(seq 1 1200); do
        [ "$(ls "$scratch/mpi/english/units" 2>/dev/null | grep -c -- '-3\.unit$' || true)" -ge 4 ] &&
            break
        sleep 0.1
    done
    victim=$(pgrep -n -f "damas-mpi gen -v english -p 5 -t 1 ${cut[*]} -d $scratch/mpi") ||
        fail "no rank to kill"
    kill -9 "$victim"
    if wait "$job"; then fail "the job did not fail when a rank was killed"; fi
    ls "$scratch/mpi/english/units" | grep -q -- '-3\.unit$' || fail "no part of a slice was kept"
    "${mpi[@]}" -np 2 "$damas_mpi" gen -v english -p 5 -t 1 "${cut[@]}" -d "$scratch/mpi" \
        --no-sync > "$scratch/resumed.log" 2>&1
    grep -q "resumed from its units" "$scratch/resumed.log" || fail "nothing resumed"
    same_database "$scratch/one" "$scratch/mpi" english
    ;;
rules)  # gen-rules over 3 ranks, against one process's files
    one=$rules
    if [ -z "$pure" ]; then
        one=$scratch/one pure=$scratch/pure
        "$damas" gen -v portuguese -p 4 -d "$pure" -q --no-sync
        cp -r "$pure" "$one"
        "$damas" gen-rules -v portuguese -p 4 -d "$one" -q --no-sync
    fi
    cp -r "$pure" "$scratch/mpi"
    "${mpi[@]}" -np 3 "$damas_mpi" gen-rules -v portuguese -p 4 -t 1 -d "$scratch/mpi" -q --no-sync
    same_database "$one" "$scratch/mpi" portuguese
    ;;
kill)  # kill -9 one rank in the middle; the job ends; the rerun completes identical files
    "$damas" gen -v english -p 5 -d "$scratch/one" -q --no-sync
    "${mpi[@]}" -np 3 "$damas_mpi" gen -v english -p 5 -t 1 -d "$scratch/mpi" -q --no-sync \
        > "$scratch/killed.log" 2>&1 &
    job=$!
    # Once some pairs are written, kill the newest worker rank.
    for _ in $(seq 1 600); do
        [ "$(ls "$scratch/mpi/english" 2>/dev/null | grep -c '\.dtw$' || true)" -ge 20 ] && break
        sleep 0.1
    done
    victim=$(pgrep -n -f "damas-mpi gen -v english -p 5 -t 1 -d $scratch/mpi") ||
        fail "no rank to kill"
    kill -9 "$victim"
    if wait "$job"; then fail "the job did not fail when a rank was killed"; fi
    if [ "$(ls "$scratch/mpi/english" | grep -c '\.dtw$')" -ge \
         "$(ls "$scratch/one/english" | grep -c '\.dtw$')" ]; then
        fail "the run was complete before the kill: nothing was checked"
    fi
    "${mpi[@]}" -np 2 "$damas_mpi" gen -v english -p 5 -t 1 -d "$scratch/mpi" -q --no-sync
    same_database "$scratch/one" "$scratch/mpi" english
    ;;
lock)  # a second job (damas-mpi or damas) on a folder being written refuses
    "${mpi[@]}" -np 2 "$damas_mpi" gen -v english -p 5 -t 1 -d "$scratch/mpi" -q --no-sync &
    job=$!
    for _ in $(seq 1 600); do
        [ -e "$scratch/mpi/english/manifest.json" ] && break
        sleep 0.05
    done
    set +e
    "${mpi[@]}" -np 2 "$damas_mpi" gen -v english -p 5 -t 1 -d "$scratch/mpi" -q --no-sync \
        2> "$scratch/second.err"
    second=$?
    "$damas" gen -v english -p 5 -d "$scratch/mpi" -q --no-sync 2> "$scratch/third.err"
    third=$?
    running=0
    kill -0 "$job" 2> /dev/null && running=1
    kill "$job" 2> /dev/null
    wait "$job"
    set -e
    [ $running -eq 1 ] || fail "the first job ended before the checks: nothing was checked"
    [ $second -ne 0 ] || fail "a second damas-mpi job on the folder did not refuse"
    grep -q "is being written by another damas" "$scratch/second.err" ||
        fail "second job: $(cat "$scratch/second.err")"
    [ $third -ne 0 ] || fail "damas gen on the folder did not refuse"
    grep -q "is being written by another damas" "$scratch/third.err" ||
        fail "damas gen: $(cat "$scratch/third.err")"
    ;;
plan)  # a plan for a cluster's ranks (-t 32, more than this host's cores) of 9 and 10 pieces
    "${mpi[@]}" -np 1 "$damas_mpi" gen -v english -p 10 -c 0901 --metric mtc -t 32 --memory 64G \
        --plan --ranks 16 --json -d "$scratch/plan" > "$scratch/out"
    python3 - "$scratch/out" <<'PY' || fail "plan: $(cat "$scratch/out")"
import json, sys
plan = json.load(open(sys.argv[1]))
pairs = {p["pair"]: p for p in plan["pairs"]}
assert pairs["0109"]["positions"] == 2 * 645122400, pairs["0109"]
assert plan["ranks"] == 16 and plan["threads_per_rank"] == 32
assert plan["distributed_seconds"] > 0 and plan["disk_bytes"] > 0
PY
    [ ! -e "$scratch/plan" ] || fail "a plan wrote into its folder"
    ;;
errors)  # bad input: one clear line, exit code 2, from every kind of mistake
    for args in "gen -v nosuch -p 4" "gen -v english -p 11" "gen -v english -p 4 --memory 1K" \
                "gen-rules -v english -p 3" "gen --bogus" "gen -v english -p 4 --cut-slices 0" \
                "gen -v english -p 4 --unit-chunk 5"; do
        set +e
        # shellcheck disable=SC2086
        "${mpi[@]}" -np 2 "$damas_mpi" $args -d "$scratch/bad" -q > "$scratch/out" 2> "$scratch/err"
        code=$?
        set -e
        [ $code -ne 0 ] || fail "'$args' succeeded"
        grep -q "error:" "$scratch/err" || fail "'$args': no error line: $(cat "$scratch/err")"
        [ "$(grep -c 'error:' "$scratch/err")" -le 2 ] || fail "'$args': $(cat "$scratch/err")"
    done
    ;;
*) fail "unknown check $check" ;;
esac
rm -rf "$scratch"
echo "ok: $check"
