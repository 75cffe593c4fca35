#!/usr/bin/env bash
# First README command: install the Debian 12 packages, build Release into build/, then run the
# default job (see the end of this script). Safe to run again: it only redoes what changed.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(build-essential cmake ninja-build pkg-config clang libclang-rt-14-dev
          libzstd-dev libtbb-dev libcli11-dev libgtest-dev libgmock-dev libbenchmark-dev
          libxxhash-dev libfmt-dev)
missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
    sudo_cmd=()
    [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
    "${sudo_cmd[@]}" apt-get update -qq
    DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DDAMAS_WERROR=ON > /dev/null
cmake --build build --parallel "$(nproc)"

# Default job: perft of every variant's initial position (until the generator lands).
for v in international brazilian portuguese russian italian english turkish; do
    printf '%-14s ' "$v"
    build/damas perft --variant "$v" --depth 6 | tail -n 1
done
