# Sourced by the bench/*_vs_*.sh scripts: `bench_build DIR TARGET...` configures DIR as a Release
# build with the benchmarks (if it is not configured yet) and builds the targets in it.
# NATIVE=1 configures it with -DABIKIT_NATIVE=ON (-march=native; see docs/performance.md, "Code
# generation"): use another DIR for it, e.g. build/bench-native.
bench_build() {
  local dir=$1
  shift
  if [ ! -f "$dir/build.ninja" ]; then
    local native=OFF
    [ "${NATIVE:-0}" = 1 ] && native=ON
    cmake -S . -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Release -DABIKIT_BUILD_BENCH=ON \
      -DABIKIT_BUILD_TESTS=OFF -DABIKIT_NATIVE=$native >/dev/null
  fi
  cmake --build "$dir" --target "$@" >/dev/null
  local cache=$dir/CMakeCache.txt
  echo "build: $dir ($(sed -n 's/^ABIKIT_NATIVE:BOOL=/ABIKIT_NATIVE=/p' "$cache"))"
}
