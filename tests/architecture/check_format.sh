#!/bin/sh
# Fails, naming the files, where a tracked C or C++ source differs from what .clang-format gives.
# Usage: check_format.sh CLANG_FORMAT SOURCE_DIR
set -eu
clang_format=$1
cd "$2"
if ! git rev-parse --is-inside-work-tree > /dev/null 2>&1; then
    echo "not a git checkout: nothing to check"
    exit 0
fi
# shellcheck disable=SC2046
if ! report=$("$clang_format" --dry-run --Werror $(git ls-files '*.c' '*.h' '*.cpp' '*.hpp') 2>&1); then
    echo "$report" | grep -o '^[^:]*\.[ch]p*:' | sort -u | sed 's/:$/: not formatted (clang-format -i)/'
    exit 1
fi
