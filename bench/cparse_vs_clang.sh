#!/usr/bin/env bash
# The C front-end against `clang-14 -fsyntax-only` on the same generated header of 20,000 typical
# records (written by abikit_bench_cparse --write-header), timed with hyperfine:
#   - `abikit layout FILE --record rec0`: the whole header preprocessed and parsed, one layout
#     printed (the front-end's share of the CLI);
#   - `abikit layout FILE --json`: every record laid out and written as JSON;
#   - `clang-14 -fsyntax-only FILE`.
# Then the in-process numbers of abikit_bench_cparse (parse, parse + layout of every record).
# Prints milliseconds, MB/s, records/s and the ratio to clang: of the means of the timed runs, and
# for the CLI runs also of their medians; then, if perf can count, the cycles of the
# `--record rec0` run and of clang.
# Usage: bench/cparse_vs_clang.sh [build-dir]   (default build/bench, configured if missing)
# RUNS=N sets the number of timed runs (default 20).
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build/bench}
. bench/build.sh
bench_build "$build" abikit_cli abikit_bench_cparse
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
"$build/bench/abikit_bench_cparse" --benchmark_filter='BM_Parse$|BM_ParseAndLayout' \
  --benchmark_repetitions=5 --benchmark_report_aggregates_only=true \
  --benchmark_out="$work/b.json" --benchmark_out_format=json
python3 - "$work/h.json" "$work/b.json" "$(stat -c %s "$hdr")" <<'PY'
import json, sys
# The mean of the wall times (and their median: on a shared machine a few runs slowed down by
# other work move the mean more than the median).
results = json.load(open(sys.argv[1]))["results"]
r = {x["command"]: x["mean"] for x in results}
med = {x["command"]: x["median"] for x in results}
size = int(sys.argv[3])
clang = r["clang"]
print("header: %.2f MB, 20000 records" % (size / 1e6))
print("%-34s %9s %9s %12s %9s %9s %9s" % ("", "ms", "MB/s", "records/s", "vs clang",
                                           "median ms", "vs clang"))
def row(name, seconds, median=None):
    line = "%-34s %9.1f %9.0f %12.0f %8.1fx" % (name, seconds * 1e3, size / seconds / 1e6,
                                               20000 / seconds, clang / seconds)
    if median:
        line += " %9.1f %8.1fx" % (median * 1e3, med["clang"] / median)
    print(line)
row("clang-14 -fsyntax-only (wall)", clang, med["clang"])
row("abikit layout --record rec0 (wall)", r["abikit-parse"], med["abikit-parse"])
row("abikit layout --json (wall)", r["abikit-json"], med["abikit-json"])
# In-process: the median of the repetitions (real time), against clang's mean.
for b in json.load(open(sys.argv[2]))["benchmarks"]:
    if b.get("aggregate_name") == "median":
        unit = {"ms": 1e-3, "us": 1e-6, "ns": 1e-9}[b["time_unit"]]
        row("in-process " + b["run_name"], b["real_time"] * unit)
PY
# The CPU work, which other work on a shared machine moves less than the wall time: user + kernel
# cycles of the `--record rec0` run and of clang (perf stat; skipped when perf is not installed
# or may not count).
if command -v perf >/dev/null 2>&1 && perf stat -e cycles:u true >/dev/null 2>&1; then
  cycles() {
    perf stat -x, -r "${RUNS:-20}" -e cycles:u,cycles:k "$@" 2>&1 >/dev/null |
      awk -F, '$3 ~ /^cycles/ && $1 ~ /^[0-9]+$/ {s += $1; n++} END {if (n == 2) print s}'
  }
  ours=$(cycles "$build/abikit" layout "${target[@]}" "$hdr" --record rec0)
  theirs=$(cycles clang-14 -target riscv64-unknown-elf -fsyntax-only "$hdr")
  if [ -n "$ours" ] && [ -n "$theirs" ]; then
    python3 -c 'import sys; a, c = int(sys.argv[1]), int(sys.argv[2]); print(
        "cycles (user + kernel, mean of %s runs): clang-14 %.1f M, abikit layout --record rec0 "
        "%.1f M: %.1fx" % (sys.argv[3], c / 1e6, a / 1e6, c / a))' "$ours" "$theirs" "${RUNS:-20}"
  fi
fi
