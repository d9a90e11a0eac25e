# Sourced by the bench/*_vs_*.sh scripts: `bench_build DIR TARGET...` configures DIR as a Release
# build with the benchmarks (if it is not configured yet) and builds the targets in it.
bench_build() {
  local dir=$1
  shift
  if [ ! -f "$dir/build.ninja" ]; then
    cmake -S . -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Release -DABIKIT_BUILD_BENCH=ON \
      -DABIKIT_BUILD_TESTS=OFF >/dev/null
  fi
  cmake --build "$dir" --target "$@" >/dev/null
}
