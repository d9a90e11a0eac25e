#!/usr/bin/env bash
# Builds the libFuzzer targets with clang-14 (with ASan+UBSan) and runs each for a bounded time,
# one after the other.
# Usage: scripts/fuzz.sh [DURATION] [NAME...]
#   DURATION per fuzzer: seconds (30, the default) or with a unit: 90s, 20m, 1h.
#   NAME: only these fuzzers (cparse, cli, elf, target, dwarf_expr, ...; default all).
# Each fuzzer starts from its checked-in corpus (tests/fuzz/corpus/<name>/), the seeds
# scripts/fuzz-seeds.sh generates (deep nesting, large counts) and what earlier runs found (kept
# in $ABIKIT_FUZZ_OUT/corpus/<name>/), with tests/fuzz/<name>.dict when there is one, a -max_len
# from the table below and the libFuzzer flags in tests/fuzz/<name>.options (one a line).
# At the end of each: the exec count, coverage (cov, ft) and corpus size (libFuzzer's
# -print_final_stats=1); the full log is $ABIKIT_FUZZ_OUT/logs/<name>.log. A crash, leak, timeout
# or out-of-memory makes the script exit 1 after the last fuzzer, naming the reproducer (in
# $ABIKIT_FUZZ_OUT/artifacts/<name>/; rerun it with `<fuzzer> FILE`).
# Environment: ABIKIT_FUZZ_BUILD=DIR uses (and configures when needed) that build tree instead of
# build/fuzz (scripts/test.sh passes the tree where it built the sanitized unit tests);
# ABIKIT_FUZZ_NO_BUILD=1 runs the fuzzers as they are built; ABIKIT_FUZZ_OUT=DIR (default
# DIR/fuzz-out of the build tree); ABIKIT_FUZZ_TIMEOUT seconds per
# input before it counts as a hang (default 10); ABIKIT_FUZZ_RSS_MB (default 2048).
set -euo pipefail
cd "$(dirname "$0")/.."
duration=${1:-30}
shift || true
case "$duration" in
*h) secs=$((${duration%h} * 3600)) ;;
*m) secs=$((${duration%m} * 60)) ;;
*s) secs=${duration%s} ;;
*) secs=$duration ;;
esac
if ! [[ "$secs" =~ ^[0-9]+$ ]] || [ "$secs" -eq 0 ]; then
  echo "fuzz.sh: bad duration '$duration' (seconds, or 90s, 20m, 1h)" >&2
  exit 2
fi
build=${ABIKIT_FUZZ_BUILD:-build/fuzz}
out=${ABIKIT_FUZZ_OUT:-$build/fuzz-out}
if [ ! -f "$build/build.ninja" ]; then
  CXX=clang++-14 cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DABIKIT_BUILD_FUZZ=ON -DABIKIT_BUILD_TESTS=OFF >/dev/null
fi
[ -n "${ABIKIT_FUZZ_NO_BUILD:-}" ] || cmake --build "$build" --target abikit_fuzzers

# The largest input per fuzzer: 64 KB where deep nesting and large counts need room (the C
# front-end, ELF objects), less where the input is a few words.
max_len() {
  case "$1" in
  cparse | elf*) echo 65536 ;;
  cli | callconv*) echo 16384 ;;
  dwarf_expr | dwarf_eval | dwarf_cfi) echo 4096 ;;
  *) echo 8192 ;;
  esac
}

shopt -s nullglob
failed=()
ran=0
for exe in "$build"/tests/fuzz/abikit_fuzz_*; do
  name=${exe##*/abikit_fuzz_}
  if [ $# -gt 0 ]; then
    want=0
    for n in "$@"; do [ "$n" = "$name" ] && want=1; done
    [ $want = 1 ] || continue
  fi
  ran=$((ran + 1))
  corpus=$out/corpus/$name
  artifacts=$out/artifacts/$name/
  log=$out/logs/$name.log
  seeds=$(mktemp -d)
  mkdir -p "$corpus" "$artifacts" "$out/logs"
  scripts/fuzz-seeds.sh "$name" "$seeds"
  args=(-max_total_time="$secs" -timeout="${ABIKIT_FUZZ_TIMEOUT:-10}"
    -rss_limit_mb="${ABIKIT_FUZZ_RSS_MB:-2048}" -max_len="$(max_len "$name")"
    -print_final_stats=1 -artifact_prefix="$artifacts")
  dict=tests/fuzz/$name.dict
  case "$name" in callconv*) dict=tests/fuzz/cparse.dict ;; esac # C text too
  [ -f "$dict" ] && args+=(-dict="$dict")
  if [ -f "tests/fuzz/$name.options" ]; then
    while read -r opt; do
      case "$opt" in '' | '#'*) ;; *) args+=("$opt") ;; esac
    done <"tests/fuzz/$name.options"
  fi
  dirs=("$corpus" "$seeds")
  [ -d "tests/fuzz/corpus/$name" ] && dirs+=("tests/fuzz/corpus/$name")
  echo "== fuzz $name for ${secs}s (${args[*]:3})"
  rc=0
  ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
    "$exe" "${args[@]}" "${dirs[@]}" >"$log" 2>&1 || rc=$?
  rm -rf "$seeds"
  # The summary: the last status line (cov, ft, corpus) and the final stats.
  grep -E '^#[0-9]+' "$log" | tail -n 1 || true
  grep -E '^stat::' "$log" | sed 's/^/  /' || true
  if [ $rc -ne 0 ]; then
    echo "!! fuzz $name failed (exit $rc); log: $log"
    grep -E 'ERROR: |SUMMARY: |runtime error|Test unit written to|==[0-9]+==' "$log" | head -n 20 || true
    failed+=("$name")
  fi
done
if [ $ran -eq 0 ]; then
  echo "fuzz.sh: no fuzzer named: $*" >&2
  exit 2
fi
if [ ${#failed[@]} -gt 0 ]; then
  echo "fuzz.sh: findings in: ${failed[*]} (reproducers under $out/artifacts/)" >&2
  exit 1
fi
