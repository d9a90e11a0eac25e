#!/usr/bin/env bash
# Builds the libFuzzer targets with clang-14 (with ASan+UBSan) and runs each for a bounded time.
# Usage: scripts/fuzz.sh [seconds-per-fuzzer]   (default 30)
# ABIKIT_FUZZ_BUILD=DIR uses (and configures when needed) that build tree instead of build/fuzz;
# scripts/test.sh passes the tree where it built the sanitized unit tests.
set -euo pipefail
cd "$(dirname "$0")/.."
secs=${1:-30}
build=${ABIKIT_FUZZ_BUILD:-build/fuzz}
if [ ! -f "$build/build.ninja" ]; then
  CXX=clang++-14 cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DABIKIT_BUILD_FUZZ=ON -DABIKIT_BUILD_TESTS=OFF >/dev/null
fi
cmake --build "$build" --target abikit_fuzzers
shopt -s nullglob
for exe in "$build"/tests/fuzz/abikit_fuzz_*; do
  name=${exe##*/abikit_fuzz_}
  corpus=tests/fuzz/corpus/$name
  work=$(mktemp -d)
  [ -d "$corpus" ] && cp -r "$corpus"/. "$work"/
  echo "== fuzz $name for ${secs}s"
  ASAN_OPTIONS=detect_leaks=1 "$exe" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 \
    -print_final_stats=1 "$work" 2>&1 | tail -n 12
  rm -rf "$work"
done
