#!/usr/bin/env bash
# abikit's decode + display form against `llvm-dwarfdump-22 --debug-info` on the same generated
# expressions (bench_dwarf's corpus: the round-trip generator, seed 1). bench_dwarf --write-asm
# puts the first N expressions as DW_AT_location exprlocs in a riscv64 .debug_info (the writer of
# the differential test, tests/support/dwarf_expr_asm.h); llvm-mc-22 assembles it. hyperfine
# times llvm-dwarfdump-22 on 10,000 and 100,000 expressions: the difference over 90,000 is its
# cost per expression with its start-up cancelled (it prints each DIE's header lines too). abikit's
# figure is BM_DwarfDecodeDisplayAppend's (decode + print into a reused string, 10,000
# expressions per iteration); BM_DwarfDecodeDisplay (a new string each) is shown beside it.
# Usage: bench/dwarf_vs_dwarfdump.sh [build-dir]   (default build/bench, configured if missing)
# SMALL/LARGE set the two sizes, RUNS hyperfine's runs.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build/bench}
small=${SMALL:-10000}
large=${LARGE:-100000}
. bench/build.sh
bench_build "$build" abikit_bench_dwarf
bench=$build/bench/abikit_bench_dwarf
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for n in "$small" "$large"; do
  "$bench" --write-asm "$work/e$n.s" "$n"
  llvm-mc-22 -triple=riscv64 -filetype=obj "$work/e$n.s" -o "$work/e$n.o"
done
# The object holds every expression: one DW_AT_location per expression.
got=$(llvm-dwarfdump-22 --debug-info "$work/e$small.o" | grep -c DW_AT_location)
[ "$got" = "$small" ] || { echo "expected $small locations, llvm-dwarfdump-22 printed $got" >&2; exit 1; }
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) cores"
hyperfine -N --warmup 2 --runs "${RUNS:-10}" --export-json "$work/h.json" \
  -n small "llvm-dwarfdump-22 --debug-info $work/e$small.o -o /dev/null" \
  -n large "llvm-dwarfdump-22 --debug-info $work/e$large.o -o /dev/null"
"$bench" --benchmark_filter='BM_DwarfDecode(Display|DisplayAppend|TextAppend)?$' \
  --benchmark_repetitions="${REPS:-5}" --benchmark_report_aggregates_only=true \
  --benchmark_format=json --benchmark_out="$work/b.json" --benchmark_out_format=json >/dev/null
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
python3 - "$work/h.json" "$work/b.json" "$small" "$large" <<'PY'
import json, sys
h = {x["command"]: x for x in json.load(open(sys.argv[1]))["results"]}
small, large = int(sys.argv[3]), int(sys.argv[4])
# llvm-dwarfdump-22 per expression: the difference between the two sizes (start-up cancels), in
# wall time (medians) and in CPU time (user + system, means).
cpu = lambda x: x["user"] + x["system"]
llvm_wall = (h["large"]["median"] - h["small"]["median"]) / (large - small)
llvm_cpu = (cpu(h["large"]) - cpu(h["small"])) / (large - small)
print("llvm-dwarfdump-22 --debug-info: %d expressions %.3f s, %d expressions %.3f s (wall, "
      "medians): %.2f us per expression; CPU (user + system): %.2f us per expression" %
      (small, h["small"]["median"], large, h["large"]["median"], llvm_wall * 1e6, llvm_cpu * 1e6))
b = {}
for x in json.load(open(sys.argv[2]))["benchmarks"]:
    if x.get("aggregate_name") == "median":
        b[x["run_name"]] = x
# Seconds per expression: items/s counts CPU time; the wall figure scales it by real/CPU time.
def per(name):
    x = b[name]
    cpu_s = 1.0 / x["items_per_second"]
    return cpu_s * x["real_time"] / x["cpu_time"], cpu_s
for name in ("BM_DwarfDecode", "BM_DwarfDecodeDisplay", "BM_DwarfDecodeDisplayAppend",
             "BM_DwarfDecodeTextAppend"):
    allocs = b[name].get("allocs/expr")
    wall, cpu_s = per(name)
    print("%-28s %.3f us per expression (wall), %.3f us (CPU), medians%s" % (
        name, wall * 1e6, cpu_s * 1e6,
        "" if allocs is None else ", %.4f allocations per expression" % allocs))
wall, cpu_s = per("BM_DwarfDecodeDisplayAppend")
print("llvm-dwarfdump-22 / abikit decode + display: %.1fx wall, %.1fx CPU (target: at least 10x)"
      % (llvm_wall / wall, llvm_cpu / cpu_s))
PY
