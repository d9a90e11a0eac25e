#!/usr/bin/env bash
# `abikit dwarf --debug-info` against `llvm-dwarfdump-22 --debug-info` on one large executable:
# a generated riscv64 program (FILES translation units of FUNCS functions each: structs, loops,
# calls, many locals; clang-22 -O2 -g, linked by ld.lld-22) whose debug sections pass 20 MB at
# the defaults. Both print the same text (tests/differential/diff_dwarf_dump.cpp proves it line
# by line); hyperfine times them, GNU time gives the peak memory. A second file may be given
# instead (any object both read): bench/dwarf_info_vs_dwarfdump.sh [build-dir] [file].
# FILES, FUNCS, RUNS tune it; KEEP=DIR builds the program in DIR and keeps it.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build/bench}
. bench/build.sh
bench_build "$build" abikit
abikit=$build/abikit
if [ -n "${KEEP:-}" ]; then # build the program in $KEEP and keep it
  work=$KEEP
  mkdir -p "$work"
else
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
fi
file=${2:-}
if [ -z "$file" ] && [ -f "$work/big" ]; then file=$work/big; fi
if [ -z "$file" ]; then
  files=${FILES:-6}
  funcs=${FUNCS:-6500}
  for ((k = 0; k < files; ++k)); do
    python3 - "$k" "$funcs" >"$work/u$k.c" <<'PY'
import random, sys
k, n = int(sys.argv[1]), int(sys.argv[2])
r = random.Random(k)
print("volatile long sink_%d;" % k)
for s in range(200):
    prev = "struct T%d_%d *" % (k, s - 1) if s else "void *"
    print("struct T%d_%d { int a; long b[%d]; char c; double d; %sp; };" % (k, s, 1 + s % 5, prev))
for f in range(n):
    s = r.randrange(200)
    print("__attribute__((noinline)) long g%d_%d(int x, long y, struct T%d_%d *p, double z) {" % (k, f, k, s))
    print("  long acc = y; struct T%d_%d loc = *p; int i;" % (k, s))
    print("  for (i = 0; i < x; ++i) { long t = loc.b[i %% %d] * i + (long)z; acc += t ^ i; sink_%d = t; }" % (1 + s % 5, k))
    if f:
        print("  if (x > %d) acc += g%d_%d(x - 1, acc, (void *)p, z * 0.5);" % (f % 7, k, r.randrange(f)))
    print("  sink_%d = loc.a + loc.c; return acc;\n}" % k)
print("long entry_%d(void) { struct T%d_1 s = {0}; return g%d_%d(3, 4, (void *)&s, 1.0); }" % (k, k, k, n - 1))
PY
  done
  {
    echo 'void *memcpy(void *d, const void *s, unsigned long n) { char *a = d; const char *b = s; while (n--) *a++ = *b++; return d; }'
    echo 'void *memset(void *d, int c, unsigned long n) { char *a = d; while (n--) *a++ = (char)c; return d; }'
    for ((k = 0; k < files; ++k)); do echo "long entry_$k(void);"; done
    echo 'long _start(void) { long r = 0;'
    for ((k = 0; k < files; ++k)); do echo "  r += entry_$k();"; done
    echo '  return r; }'
  } >"$work/main.c"
  ls "$work"/*.c | xargs -P "$(nproc)" -I{} clang-22 --target=riscv64-unknown-elf -march=rv64gc \
    -g -O2 -c {} -o {}.o
  ld.lld-22 -o "$work/big" "$work"/*.o
  file=$work/big
fi
echo "debug sections of $file:"
llvm-readelf-22 -S -W "$file" | python3 -c '
import re, sys
n = sum(int(m.group(1), 16) for l in sys.stdin
        for m in [re.search(r"\] \.debug\S*\s+\S+\s+\S+\s+\S+\s+([0-9a-f]+)", l)] if m)
print("  %.1f MB" % (n / 1e6))' 
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) cores"
cmp <("$abikit" dwarf --debug-info "$file" | tail -n +2) \
  <(llvm-dwarfdump-22 --debug-info "$file" | tail -n +2) >/dev/null &&
  echo "outputs identical" || echo "outputs differ (see tests/differential/diff_dwarf_dump.cpp)"
for tool in "$abikit dwarf" "llvm-dwarfdump-22"; do
  /usr/bin/time -f "  $tool: peak memory %M KB" $tool --debug-info "$file" >/dev/null
done
hyperfine -N --warmup 1 --runs "${RUNS:-5}" \
  -n abikit "$abikit dwarf --debug-info $file" \
  -n llvm-dwarfdump-22 "llvm-dwarfdump-22 --debug-info $file"
