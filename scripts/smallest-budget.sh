#!/usr/bin/env bash
# The smallest --memory budget, in whole MiB, that `damas gen --plan` accepts for a set: a binary
# search, which the plan allows since a budget it accepts is accepted with more memory too
# (gen/plan/plan.hpp; tests/gen/test_plan_budgets.cpp). Generates nothing.
# Usage: scripts/smallest-budget.sh VARIANT PIECES [more gen flags, e.g. -c 2211]
# THREADS (default 2) is passed as -t: the plan counts each thread's buffers.
# DAMAS=path picks the binary (default build/damas).
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -ge 2 ] || { echo "usage: $0 VARIANT PIECES [gen flags...]" >&2; exit 2; }
damas=${DAMAS:-build/damas}
threads=${THREADS:-2}
variant=$1 pieces=$2
shift 2

fits() {  # MiB [gen flags...]
    local mib=$1
    shift
    "$damas" gen -v "$variant" -p "$pieces" -t "$threads" --memory "${mib}M" --plan --json "$@" \
        -d /nonexistent-damas-plan | python3 -c 'import json, sys; sys.exit(0 if json.load(sys.stdin)["fits"] else 1)'
}

low=1 high=1024
while ! fits "$high" "$@"; do
    low=$high high=$((high * 2))
    [ "$high" -le $((1 << 30)) ] || { echo "no budget up to 1 PiB fits" >&2; exit 1; }
done
while [ $((high - low)) -gt 1 ]; do  # low refused (or 1), high accepted
    mid=$(((low + high) / 2))
    if fits "$mid" "$@"; then high=$mid; else low=$mid; fi
done
fits "$low" "$@" && high=$low
echo "$variant 2-$pieces${*:+ $*}: ${high}M on $threads threads"
