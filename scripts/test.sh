#!/usr/bin/env bash
# Second README command: build and run the whole fast test suite (slow checks: ctest -L slow).
set -euo pipefail
cd "$(dirname "$0")/.."
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DDAMAS_WERROR=ON > /dev/null
cmake --build build --parallel "$(nproc)"
ctest --test-dir build --label-exclude slow --output-on-failure --parallel "$(nproc)"
if [ -x .ci/fuzz ]; then .ci/fuzz; fi
