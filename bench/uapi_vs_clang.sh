#!/usr/bin/env bash
# Real headers: the Linux UAPI headers installed on this machine (/usr/include/linux/*.h), each
# one that both clang-14 and abikit accept on its own for riscv64, all included from one file,
# timed with hyperfine:
#   - `abikit layout FILE --json -I ...`: every header preprocessed and parsed, every record laid
#     out and written as JSON;
#   - `clang-14 -fsyntax-only FILE -I ...`.
# Usage: bench/uapi_vs_clang.sh [build-dir]   (default build/bench, configured if missing)
# RUNS=N sets the number of timed runs (default 20).
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build/bench}
. bench/build.sh
bench_build "$build" abikit_cli
abikit=$(realpath "$build/abikit")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# <asm/...> lives in a multiarch directory on Debian-like systems.
asm=$(dirname "$(ls -d /usr/include/*/asm/types.h 2>/dev/null | head -1)")
inc=(-I "$(dirname "$asm")" -I /usr/include)
target=(--target riscv64-unknown-linux-gnu -march=rv64gc)
ctarget=(-target riscv64-unknown-linux-gnu -nostdinc -w)
for f in /usr/include/linux/*.h; do
  h=${f#/usr/include/}
  printf '#include <%s>\n' "$h" >"$work/one.h"
  if clang-14 "${ctarget[@]}" "${inc[@]}" -fsyntax-only "$work/one.h" 2>/dev/null &&
    "$abikit" layout "${target[@]}" "${inc[@]}" "$work/one.h" >/dev/null 2>&1; then
    printf '#include <%s>\n' "$h" >>"$work/all.h"
  fi
done
clang-14 "${ctarget[@]}" "${inc[@]}" -fsyntax-only "$work/all.h"
"$abikit" layout "${target[@]}" "${inc[@]}" "$work/all.h" --json >"$work/all.json"
files=$(clang-14 "${ctarget[@]}" "${inc[@]}" -M "$work/all.h" | tr ' ' '\n' | grep -c '\.h$')
bytes=$(clang-14 "${ctarget[@]}" "${inc[@]}" -M "$work/all.h" | tr ' ' '\n' | grep '\.h$' |
  grep -v "$work" | xargs cat | wc -c)
echo "$(wc -l <"$work/all.h") headers included, $files files read, $bytes bytes," \
  "$(grep -c '^  {"name"' "$work/all.json") records laid out by abikit"
hyperfine --warmup 3 --runs "${RUNS:-20}" --export-json "$work/h.json" \
  -n abikit "$abikit layout ${target[*]} ${inc[*]} $work/all.h --json > /dev/null" \
  -n clang "clang-14 ${ctarget[*]} ${inc[*]} -fsyntax-only $work/all.h"
python3 - "$work/h.json" <<'PY'
import json, sys
r = {x["command"]: x["mean"] for x in json.load(open(sys.argv[1]))["results"]}
print("%-40s %9s %9s" % ("", "ms", "vs clang"))
for name in ("clang", "abikit"):
    print("%-40s %9.1f %8.1fx" % (name, r[name] * 1e3, r["clang"] / r[name]))
PY
