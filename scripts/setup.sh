#!/usr/bin/env bash
# First README command: install the Debian 12 packages, build Release into build/, then run the
# default job (see the end of this script). Safe to run again: it only redoes what changed.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(build-essential cmake ninja-build pkg-config clang clang-format libclang-rt-14-dev
          libzstd-dev libtbb-dev libcli11-dev libgtest-dev libgmock-dev libbenchmark-dev
          libxxhash-dev libfmt-dev
          libcpp-httplib-dev libboost-dev nlohmann-json3-dev python3 python3-dev pybind11-dev
          libopenmpi-dev openmpi-bin
          chromium chromium-driver)
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

cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DDAMAS_WERROR=ON -DDAMAS_SLOW_TESTS=OFF \
      -DPython_EXECUTABLE="$(command -v python3)" > /dev/null
cmake --build build --parallel "$(nproc)"

# The Python package, so that `import damas` works from any folder: into the active virtual
# environment if there is one, else the user's site-packages (no root, no pip, no network).
python_site=$(python3 -c 'import site, sys, sysconfig
print(sysconfig.get_paths()["platlib"] if sys.prefix != sys.base_prefix else site.getusersitepackages())')
cmake --install build --component python --prefix "$python_site" > /dev/null

# Default job: generate the english database up to 4 pieces and its rule tables for the
# move-limit draw rules (a few seconds; a rerun skips what is complete), then probe a position:
# two kings against one, White to move, its value pure and under the rules.
build/damas gen --variant english --pieces 4 --dir db --quiet
build/damas gen-rules --variant english --pieces 4 --dir db --quiet
build/damas probe --variant english --dir db "W:WK18,K22:BK5"
build/damas best --variant english --dir db "W:WK18,K22:BK5"
python3 -c 'import damas; print(damas.Tablebase("db", variant="english").probe("W:WK18,K22:BK5"))'
