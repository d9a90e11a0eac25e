#!/usr/bin/env bash
# Builds everything and runs every test: unit and golden tests (warnings as errors), the
# differential tests against the real compilers (bounded samples), the unit tests again under
# AddressSanitizer + UndefinedBehaviorSanitizer, the fuzzers (bounded time) and the formatting
# check.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh test
jobs=$(nproc)

echo "== build (warnings as errors)"
cmake -S . -B build/ci -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DABIKIT_WERROR=ON \
      -DABIKIT_BUILD_BENCH=ON >/dev/null
cmake --build build/ci -j "$jobs"

echo "== unit, golden and differential tests"
ctest --test-dir build/ci --output-on-failure -j "$jobs"

echo "== unit tests under ASan+UBSan (clang-14; the fuzzers are built in the same tree)"
CXX=clang++-14 cmake -S . -B build/san -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
      -DABIKIT_SANITIZE=ON -DABIKIT_BUILD_FUZZ=ON -DABIKIT_WERROR=ON >/dev/null
cmake --build build/san -j "$jobs" --target abikit_unit_tests abikit_cli_tests abikit_cli \
  abikit_fuzzers
ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
  ctest --test-dir build/san --output-on-failure -L unit
echo "== command-line and hostile-input tests under ASan+UBSan (no address-space limit there)"
ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 ABIKIT_TEST_SANITIZED=1 \
  ctest --test-dir build/san --output-on-failure -L cli

echo "== fuzzers (bounded time: every fuzzer, 24 s each)"
ABIKIT_FUZZ_BUILD=build/san scripts/fuzz.sh "${ABIKIT_FUZZ_SECONDS:-24}"

echo "== formatting"
scripts/check-format.sh

echo "== all tests passed"
