#!/usr/bin/env bash
# `abikit layout --json` against `clang-14 -fsyntax-only` on the same generated header of 20,000
# records (written by abikit_bench_layout --write-header), timed with hyperfine.
# Usage: bench/layout_vs_clang.sh [build-dir]   (default build/bench, configured if missing)
# RUNS=N sets the number of timed runs (default 20).
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build/bench}
. bench/build.sh
bench_build "$build" abikit_cli abikit_bench_layout
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
hdr=$work/gen.h
"$build/bench/abikit_bench_layout" --write-header "$hdr"
target=(--target riscv64-unknown-elf -march=rv64gc)
# Both must accept the header; abikit must lay out all 20,000 records.
clang-14 -target riscv64-unknown-elf -fsyntax-only "$hdr"
records=$("$build/abikit" layout "${target[@]}" "$hdr" --json | grep -c '^  {"name"')
echo "header: $(stat -c %s "$hdr") bytes, $records records laid out by abikit"
[ "$records" -eq 20000 ] || { echo "expected 20000 records" >&2; exit 1; }
hyperfine --warmup 3 --runs "${RUNS:-20}" --export-json "$work/h.json" \
  -n abikit "$build/abikit layout ${target[*]} $hdr --json > /dev/null" \
  -n clang "clang-14 -target riscv64-unknown-elf -fsyntax-only $hdr"
python3 - "$work/h.json" <<'PY'
import json, sys
r = {x["command"]: x["mean"] for x in json.load(open(sys.argv[1]))["results"]}
print("clang-14 -fsyntax-only / abikit layout --json = %.1fx (target: at least 20x)"
      % (r["clang"] / r["abikit"]))
PY
