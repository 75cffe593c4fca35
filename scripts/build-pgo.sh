#!/usr/bin/env bash
# A profile-guided build of the damas command, in build-pgo/: an instrumented binary generates a
# small database to record where the time goes, then damas is rebuilt with that record. The
# generator runs about a tenth faster than build/damas (docs/performance.md). Train on the
# variant you will generate: the profile only guides the code the training run executed.
# Usage: scripts/build-pgo.sh [variant [pieces]]   (default: english 5; after scripts/setup.sh)
set -euo pipefail
cd "$(dirname "$0")/.."
variant=${1:-english}
pieces=${2:-5}
dir=build-pgo
profile="$PWD/$dir/profile"
# Bad arguments fail now, not after the instrumented build.
case "$pieces" in
    [2-8]) ;;
    *) echo "build-pgo.sh: pieces must be 2..8, not '$pieces'" >&2; exit 2 ;;
esac
if [ -x build/damas ]; then build/damas count --variant "$variant" --pieces 2 > /dev/null; fi
train=$(mktemp -d)
trap 'rm -rf "$train"' EXIT

build_step() {  # configures build-pgo/ for a PGO step ($1) and builds damas
    cmake -S . -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Release -DDAMAS_BUILD_TESTS=OFF \
        -DDAMAS_BUILD_BENCH=OFF -DDAMAS_PGO="$1" -DDAMAS_PGO_DIR="$profile" > /dev/null
    cmake --build "$dir" --target damas --parallel "$(nproc)"
}

rm -rf "$profile"
build_step generate
echo "training: damas gen --variant $variant --pieces $pieces (instrumented, slower than usual)"
"$dir/damas" gen --variant "$variant" --pieces "$pieces" --dir "$train" --quiet
build_step use
echo "profile-guided build: $dir/damas (trained on $variant, $pieces pieces)"
