#!/usr/bin/env bash
# RISC-V calling-convention lowering, whole CLI and library:
#  1. `abikit call --json` against `clang-14 -S -emit-llvm` on the same generated header of
#     20,000 function definitions with empty bodies (written by abikit_bench_callconv
#     --write-header; clang emits every definition, so both lower all 20,000 signatures),
#     timed with hyperfine;
#  2. instructions per signature of the library's lowering, with callgrind: the difference
#     between lowering every function of the header 3 times and once, divided by 2 x 20,000
#     (parsing and start-up cancel out);
#  3. ns per signature: abikit_bench_callconv (Google Benchmark).
# Usage: bench/call_vs_clang.sh [build-dir] [abi]   (default build/bench, lp64d)
# RUNS=N sets the number of timed runs (default 10).
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build/bench}
abi=${2:-lp64d}
case "$abi" in
ilp32*) triple=riscv32-unknown-elf ;;
*) triple=riscv64-unknown-elf ;;
esac
. bench/build.sh
bench_build "$build" abikit_cli abikit_bench_callconv
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
hdr=$work/gen.h
"$build/bench/abikit_bench_callconv" --write-header "$hdr"
abikit=("$build/abikit" call --target "$triple" -mabi="$abi" "$hdr" --json)
clang=(clang-14 --target="$triple" -mabi="$abi" -x c -S -emit-llvm -w -o "$work/gen.ll" "$hdr")
# Both must lower all 20,000 functions.
"${clang[@]}"
defines=$(grep -c '^define' "$work/gen.ll")
functions=$("${abikit[@]}" | python3 -c 'import json,sys; print(len(json.load(sys.stdin)["functions"]))')
echo "header: $(stat -c %s "$hdr") bytes; clang-14 emits $defines definitions, abikit lowers $functions functions ($abi)"
[ "$defines" -eq 20000 ] && [ "$functions" -eq 20000 ] || { echo "expected 20000" >&2; exit 1; }
hyperfine --warmup 2 --runs "${RUNS:-10}" --export-json "$work/h.json" \
  -n "abikit call --json" "${abikit[*]} > /dev/null" \
  -n "abikit call (text)" "$build/abikit call --target $triple -mabi=$abi $hdr > /dev/null" \
  -n "clang-14 -S -emit-llvm" "${clang[*]}"
python3 - "$work/h.json" <<'PY'
import json, sys
r = {x["command"]: x for x in json.load(open(sys.argv[1]))["results"]}
a, c = r["abikit call --json"], r["clang-14 -S -emit-llvm"]
print("clang-14 -S -emit-llvm / abikit call --json = %.1fx wall, %.1fx user time"
      % (c["mean"] / a["mean"], c["user"] / a["user"]))
PY
if command -v valgrind >/dev/null; then
  ir() {
    valgrind --tool=callgrind --callgrind-out-file="$work/cg.out" \
      "$build/bench/abikit_bench_callconv" --lower "$hdr" "$abi" "$1" >/dev/null 2>&1
    awk '/^summary:|^totals:/ { print $2; exit }' "$work/cg.out"
  }
  one=$(ir 1)
  three=$(ir 3)
  echo "callgrind: $(((three - one) / 40000)) instructions per signature ($abi, lowering only)"
fi
"$build/bench/abikit_bench_callconv" --benchmark_min_time=0.5 2>/dev/null | grep -E '^BM_|^Bench'
