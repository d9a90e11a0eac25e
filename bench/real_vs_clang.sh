#!/usr/bin/env bash
# The C front-end on real headers against clang -fsyntax-only (clang-22 when installed, else
# clang-14): one translation unit of the Linux UAPI headers installed here (each one that both
# accept), glibc's common headers (libc6-dev-riscv64-cross) and vulkan_core.h (libvulkan-dev),
# for riscv64-linux-gnu, preprocessed once by clang (-E -P) so that both read the same text.
# Timed with hyperfine:
#   - `abikit layout FILE --record R`: the whole text parsed, one layout printed;
#   - `abikit layout FILE --json`: every record laid out and written as JSON;
#   - `clang -fsyntax-only FILE`;
# then the in-process BM_ParseRealHeaders (parse + layout of every record) and, beside it, the
# generated header's BM_Parse/BM_ParseAndLayout.
# Usage: bench/real_vs_clang.sh [build-dir]   (default build/bench, configured if missing)
# RUNS=N sets the number of timed runs (default 20). KEEP=FILE keeps the preprocessed text there.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build/bench}
scripts/deps.sh bench
. bench/build.sh
bench_build "$build" abikit_cli abikit_bench_cparse
clang=$(command -v clang-22 || command -v clang-14)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
asm=$(dirname "$(ls -d /usr/include/*/asm/types.h 2>/dev/null | head -1)")
triple=riscv64-linux-gnu
cross=/usr/$triple/include
inc=(-I "$cross")
[ -d "$cross/asm" ] || inc+=(-I "$(dirname "$asm")")
[ -d "$cross/linux" ] || inc+=(-I /usr/include)
ctarget=(-target "$triple" -w)
one() { "$clang" "${ctarget[@]}" "${inc[@]}" -fsyntax-only -x c "$1" 2>/dev/null; }
: >"$work/all.h"
for h in stdio.h stdlib.h string.h stdint.h stddef.h time.h signal.h pthread.h unistd.h \
  fcntl.h sys/stat.h sys/types.h sys/socket.h netinet/in.h arpa/inet.h sys/ioctl.h termios.h \
  dirent.h sys/mman.h sys/time.h sys/resource.h sys/wait.h poll.h sched.h semaphore.h; do
  printf '#include <%s>\n' "$h" >"$work/one.h"
  one "$work/one.h" && printf '#include <%s>\n' "$h" >>"$work/all.h"
done
for f in /usr/include/linux/*.h; do
  printf '#include <linux/%s>\n' "$(basename "$f")" >"$work/one.h"
  cat "$work/all.h" "$work/one.h" >"$work/try.h"
  one "$work/try.h" && cat "$work/one.h" >>"$work/all.h"
done
if [ -f /usr/include/vulkan/vulkan_core.h ]; then
  printf '#include "/usr/include/vulkan/vulkan_core.h"\n' >>"$work/all.h"
fi
"$clang" "${ctarget[@]}" "${inc[@]}" -E -P "$work/all.h" -o "$work/real.i"
# What abikit does not accept is dropped from the list, one header at a time, from the end.
target=(--target riscv64-unknown-linux-gnu -march=rv64gc)
while ! "$build/abikit" layout "${target[@]}" "$work/real.i" --record __abikit_none >/dev/null 2>"$work/err" &&
  ! grep -q "no record named" "$work/err"; do
  [ -s "$work/all.h" ] || { cat "$work/err" >&2; exit 1; }
  echo "dropped: $(tail -1 "$work/all.h") ($(head -1 "$work/err"))"
  sed -i '$d' "$work/all.h"
  "$clang" "${ctarget[@]}" "${inc[@]}" -E -P "$work/all.h" -o "$work/real.i"
done
[ -n "${KEEP:-}" ] && cp "$work/real.i" "$KEEP"
"$build/abikit" layout "${target[@]}" "$work/real.i" --json >"$work/all.json"
records=$(grep -c '^  {"name"' "$work/all.json")
first=$(sed -n 's/^  {"name": "\([^"]*\)".*/\1/p' "$work/all.json" | sed -n 1p)
echo "real.i: $(wc -l <"$work/all.h") headers, $(stat -c %s "$work/real.i") bytes, $records records; clang: $clang"
hyperfine -N --warmup 3 --runs "${RUNS:-20}" --export-json "$work/h.json" \
  -n abikit-parse "$build/abikit layout ${target[*]} $work/real.i --record $first" \
  -n abikit-json "$build/abikit layout ${target[*]} $work/real.i --json" \
  -n clang "$clang ${ctarget[*]} -fsyntax-only $work/real.i" >/dev/null
ABIKIT_REAL_HEADER=$work/real.i "$build/bench/abikit_bench_cparse" \
  --benchmark_filter='BM_ParseRealHeaders|BM_Parse$|BM_ParseAndLayout' \
  --benchmark_repetitions=5 --benchmark_report_aggregates_only=true \
  --benchmark_out="$work/b.json" --benchmark_out_format=json >/dev/null
python3 - "$work/h.json" "$work/b.json" <<'PY'
import json, sys
r = {x["command"]: (x["mean"], x["median"]) for x in json.load(open(sys.argv[1]))["results"]}
c = r["clang"][1]
print("%-34s %10s %10s" % ("whole CLI (median of runs)", "ms", "vs clang"))
for name in ("clang", "abikit-parse", "abikit-json"):
    print("%-34s %10.2f %9.1fx" % (name, r[name][1] * 1e3, c / r[name][1]))
print("%-34s %10s" % ("in-process (median of 5)", "ms"))
for b in json.load(open(sys.argv[2]))["benchmarks"]:
    if b.get("aggregate_name") == "median":
        print("%-34s %10.2f" % (b["run_name"], b["real_time"]))
PY
