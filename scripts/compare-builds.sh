#!/usr/bin/env bash
# Compares two builds of the abikit CLI on the same inputs: for refactorings that must not change
# any answer. Runs `layout --json`, `call --json`, `ptx` and `kernarg --json` on every example,
# every golden-test input, every Linux UAPI header installed (/usr/include/linux/*.h, each on its
# own) and N generated headers, for each of seven targets, with both binaries; counts the runs
# whose stdout and exit status are identical and lists those that differ (stderr differences are
# counted apart: error texts may change on purpose).
# Usage: scripts/compare-builds.sh OLD_ABIKIT NEW_ABIKIT [N_GENERATED=600] [SEED=1]
set -euo pipefail
old=$(realpath "$1") new=$(realpath "$2") n=${3:-600} seed=${4:-1}
cd "$(dirname "$0")/.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/gen"
python3 - "$work/gen" "$n" "$seed" <<'PY'
import random, sys
out, n, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
rng = random.Random(seed)
scalars = ["char", "signed char", "unsigned char", "short", "unsigned short", "int", "unsigned",
           "long", "unsigned long", "long long", "unsigned long long", "float", "double",
           "_Bool", "void *", "char *", "int (*)(int)", "long double"]
def member(i, records):
    r = rng.random()
    if r < 0.12 and records:
        t = "struct " + rng.choice(records)
    else:
        t = rng.choice(scalars)
    name = "m%d" % i
    if "(*)" in t:
        return "int (*%s)(int);" % name
    if r > 0.85 and t in ("char", "short", "int", "unsigned", "long long", "unsigned char"):
        w = {"char": 8, "unsigned char": 8, "short": 16, "int": 32, "unsigned": 32,
             "long long": 64}[t]
        return "%s %s : %d;" % (t, name, rng.randint(0 if rng.random() < 0.1 else 1, w))
    decl = "%s %s" % (t, name)
    if rng.random() < 0.2:
        decl += "[%d]" % rng.randint(1, 5)
    if rng.random() < 0.08:
        decl += " __attribute__((aligned(%d)))" % rng.choice([1, 2, 4, 8, 16])
    if rng.random() < 0.05:
        decl += " __attribute__((packed))"
    return decl + ";"
for k in range(n):
    lines, records = [], []
    if rng.random() < 0.3:
        lines.append("#pragma pack(%d)" % rng.choice([1, 2, 4, 8]))
    for r in range(rng.randint(1, 6)):
        name = "R%d_%d" % (k, r)
        kind = "union" if rng.random() < 0.15 else "struct"
        body = " ".join(member(i, records) for i in range(rng.randint(1, 8)))
        attr = " __attribute__((packed))" if rng.random() < 0.1 else ""
        lines.append("%s %s { %s }%s;" % (kind, name, body, attr))
        if kind == "struct":
            records.append(name)
    for f in range(rng.randint(0, 4)):
        params = ", ".join(rng.choice(["int", "double", "float", "char", "long long", "void *"] +
                                      ["struct " + x for x in records]) for _ in range(rng.randint(0, 9)))
        ret = rng.choice(["void", "int", "double", "long long"] + ["struct " + x for x in records])
        lines.append("%s f%d_%d(%s);" % (ret, k, f, params or "void"))
    open("%s/g%04d.h" % (out, k), "w").write("\n".join(lines) + "\n")
PY
inputs=(examples/*.h examples/*.cl examples/*.cu)
while IFS= read -r f; do inputs+=("$f"); done < <(find tests/golden -name '*.h' | sort)
inputs+=("$work"/gen/*.h)
uapi=()
asm=$(dirname "$(ls -d /usr/include/*/asm/types.h 2>/dev/null | head -1)" 2>/dev/null || true)
if [ -n "$asm" ]; then
  for f in /usr/include/linux/*.h; do
    h="$work/uapi_$(basename "$f")"
    printf '#include <linux/%s>\n' "$(basename "$f")" >"$h"
    uapi+=("$h")
  done
fi
targets=("--target riscv64-unknown-elf -march=rv64gc -mabi=lp64d"
  "--target riscv32-unknown-elf -march=rv32imac -mabi=ilp32"
  "--target riscv32-unknown-elf -march=rv32e -mabi=ilp32e"
  "--target nvptx64-nvidia-cuda -mcpu=sm_80" "--target amdgcn-amd-amdhsa -mcpu=gfx90a"
  "--target dpu-upmem-dpurte" "--target colossus-graphcore-elf -mcpu=ipu2")
same=0 differ=0 stderr_only=0
run() { # run LABEL ARGS...: both binaries, compared
  "$old" "$@" >"$work/o.out" 2>"$work/o.err" && oc=0 || oc=$?
  "$new" "$@" >"$work/n.out" 2>"$work/n.err" && nc=0 || nc=$?
  if [ "$oc" != "$nc" ] || ! cmp -s "$work/o.out" "$work/n.out"; then
    differ=$((differ + 1))
    echo "DIFFERS (exit $oc/$nc): $*"
  else
    same=$((same + 1))
    if ! cmp -s "$work/o.err" "$work/n.err"; then
      stderr_only=$((stderr_only + 1))
      echo "stderr differs: $*"
    fi
  fi
}
for t in "${targets[@]}"; do
  read -r -a ta <<<"$t"
  for f in "${inputs[@]}"; do
    run layout "${ta[@]}" "$f" --json
    run call "${ta[@]}" "$f" --json
    case "$t" in *nvptx*) run ptx "${ta[@]}" "$f" ;; esac
    case "$t:$f" in *amdgcn*:*.cl) run kernarg "${ta[@]}" "$f" --json ;; esac
  done
  case "$t" in
  *riscv64*)
    for f in "${uapi[@]}"; do
      run layout --target riscv64-unknown-linux-gnu -march=rv64gc -I "$(dirname "$asm")" \
        -I /usr/include "$f" --json
    done
    ;;
  esac
done
echo "compare-builds: $same runs identical ($stderr_only of them with another stderr), $differ differ"
[ "$differ" -eq 0 ]
