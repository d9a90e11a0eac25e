#!/usr/bin/env bash
# The C front-end against `clang-14 -fsyntax-only` on the same generated header of 20,000 typical
# records (written by abikit_bench_cparse --write-header), timed with hyperfine:
#   - `abikit layout FILE --record rec0`: the whole header preprocessed and parsed, one layout
#     printed (the front-end's share of the CLI);
#   - `abikit layout FILE --json`: every record laid out and written as JSON;
#   - `clang-14 -fsyntax-only FILE`.
# Then the in-process numbers of abikit_bench_cparse (parse, parse + layout of every record).
# Usage: bench/cparse_vs_clang.sh [build-dir]   (default build/bench, configured if missing)
# RUNS=N sets the number of timed runs (default 20).
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build/bench}
if [ ! -f "$build/build.ninja" ]; then
  cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DABIKIT_BUILD_BENCH=ON \
    -DABIKIT_BUILD_TESTS=OFF >/dev/null
fi
cmake --build "$build" --target abikit_cli abikit_bench_cparse >/dev/null
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
hdr=$work/gen.h
"$build/bench/abikit_bench_cparse" --write-header "$hdr"
target=(--target riscv64-unknown-elf -march=rv64gc)
# Both must accept the header; abikit must lay out all 20,000 records.
clang-14 -target riscv64-unknown-elf -fsyntax-only "$hdr"
records=$("$build/abikit" layout "${target[@]}" "$hdr" --json | grep -c '^  {"name"')
echo "header: $(stat -c %s "$hdr") bytes, $records records laid out by abikit"
[ "$records" -eq 20000 ] || { echo "expected 20000 records" >&2; exit 1; }
hyperfine --warmup 3 --runs "${RUNS:-20}" --export-json "$work/h.json" \
  -n abikit-parse "$build/abikit layout ${target[*]} $hdr --record rec0 > /dev/null" \
  -n abikit-json "$build/abikit layout ${target[*]} $hdr --json > /dev/null" \
  -n clang "clang-14 -target riscv64-unknown-elf -fsyntax-only $hdr"
python3 - "$work/h.json" <<'PY'
import json, sys
r = {x["command"]: x["mean"] for x in json.load(open(sys.argv[1]))["results"]}
print("clang-14 -fsyntax-only / abikit layout --record rec0 = %.1fx" % (r["clang"] / r["abikit-parse"]))
print("clang-14 -fsyntax-only / abikit layout --json        = %.1fx" % (r["clang"] / r["abikit-json"]))
PY
"$build/bench/abikit_bench_cparse" --benchmark_filter='BM_Parse$|BM_ParseAndLayout' \
  --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
