#!/usr/bin/env bash
# `abikit compat` on five targets against what a user without it runs: clang-22 -fsyntax-only of
# the same header once per target (x86_64-linux-gnu, x86_64-pc-windows-msvc, aarch64-linux-gnu,
# nvptx64-nvidia-cuda, dpu-upmem-dpurte; for the DPU, which clang cannot target, riscv32 stands
# in), on the generated header of 20,000 records (abikit_bench_layout --write-header), timed with
# hyperfine in one run.
# Usage: bench/compat_vs_clang.sh [build-dir]   (default build/bench, configured if missing)
# RUNS=N sets the number of timed runs (default 10).
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build/bench}
. bench/build.sh
bench_build "$build" abikit_cli abikit_bench_layout
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
hdr=$work/gen.h
"$build/bench/abikit_bench_layout" --write-header "$hdr"
targets=(x86_64-linux-gnu x86_64-pc-windows-msvc aarch64-linux-gnu nvptx64-nvidia-cuda
  dpu-upmem-dpurte)
args=()
for t in "${targets[@]}"; do args+=(--target "$t"); done
# abikit exits 1 when the layouts differ (they do): only 2 is an error.
"$build/abikit" compat "$hdr" "${args[@]}" > "$work/report.txt" || [ $? -eq 1 ]
echo "header: $(stat -c %s "$hdr") bytes; $(tail -1 "$work/report.txt")"
clang_all="for t in x86_64-linux-gnu x86_64-pc-windows-msvc aarch64-linux-gnu nvptx64-nvidia-cuda \
riscv32-unknown-elf; do clang-22 --target=\$t -fsyntax-only -w $hdr || exit 1; done"
bash -c "$clang_all"
hyperfine --warmup 2 --runs "${RUNS:-10}" --export-json "$work/h.json" \
  -n abikit "$build/abikit compat $hdr ${args[*]} > /dev/null; [ \$? -le 1 ]" \
  -n clang "$clang_all"
python3 - "$work/h.json" <<'PY'
import json, sys
r = {x["command"]: x["mean"] for x in json.load(open(sys.argv[1]))["results"]}
print("abikit compat (5 targets): %.3f s; 5x clang-22 -fsyntax-only: %.3f s; ratio %.1fx"
      % (r["abikit"], r["clang"], r["clang"] / r["abikit"]))
PY
