#!/usr/bin/env bash
# `abikit elf --relocs` against `llvm-readelf-14 -r` on an object with 1,000,000 relocations
# (made by bench_elf's test-side writer), both printing to /dev/null, timed with hyperfine.
# Usage: bench/elf_vs_readelf.sh [build-dir]   (default build/bench, configured if missing)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build/bench}
. bench/build.sh
bench_build "$build" abikit_cli abikit_bench_elf
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
obj=$work/relocs.o
"$build/bench/abikit_bench_elf" --write-object "$obj"
echo "object: $(stat -c %s "$obj") bytes, $(llvm-readelf-14 -r "$obj" | grep -c R_RISCV_64) relocations"
# The two tools must agree on what they print (offsets, types, symbols and addends).
diff <(llvm-readelf-14 -r "$obj" | awk '/R_RISCV/ {print $1, $3, $5, $7}' | head -1000) \
     <("$build/abikit" elf --relocs "$obj" | awk '/R_RISCV/ {print $1, $3, $5, substr($7, 3)}' \
        | head -1000) >/dev/null || { echo "outputs differ" >&2; exit 1; }
hyperfine --warmup 2 --runs "${RUNS:-10}" --export-json "$work/h.json" \
  -n abikit "$build/abikit elf --relocs $obj > /dev/null" \
  -n llvm-readelf "llvm-readelf-14 -r $obj > /dev/null"
python3 - "$work/h.json" <<'PY'
import json, sys
r = {x["command"]: x["mean"] for x in json.load(open(sys.argv[1]))["results"]}
print("llvm-readelf-14 -r / abikit elf --relocs = %.2fx (target: at least 2x)" % (r["llvm-readelf"] / r["abikit"]))
PY
