#!/usr/bin/env bash
# Second README command: build and run the whole fast test suite (slow checks: ctest -L slow),
# then the install, sanitizer and fuzzing checks.
set -euo pipefail
cd "$(dirname "$0")/.."
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DDAMAS_WERROR=ON -DDAMAS_SLOW_TESTS=OFF > /dev/null
cmake --build build --parallel "$(nproc)"
ctest --test-dir build --label-exclude slow --output-on-failure --parallel "$(nproc)"
# The installed library with a C program, the threaded probes under ThreadSanitizer, and 30 s
# of fuzzing each of the FEN parser and the table-file reader.
.ci/install-example
.ci/tsan
.ci/fuzz 30
