#!/usr/bin/env bash
# Builds abikit and runs its main jobs on the bundled examples for several targets: record
# layouts (examples/example.h), where each argument goes (examples/runtime.h), PTX prototypes and
# AMDGPU kernel arguments (examples/kernels.cl), and one target description.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh build
cmake -S . -B build/release -G Ninja -DCMAKE_BUILD_TYPE=Release -DABIKIT_BUILD_TESTS=OFF >/dev/null
cmake --build build/release --target abikit_cli
abikit=build/release/abikit

run() {
  echo
  echo "\$ abikit $*"
  "$abikit" "$@"
}

# Layout: the same records on five targets.
run layout --target riscv64-unknown-elf -march=rv64gc examples/example.h \
  --record 'struct packet_header' --record 'struct message'
run layout --target dpu-upmem-dpurte examples/example.h --record 'struct message' \
  --record 'struct log_entry'
run layout --target colossus-graphcore-elf -mcpu=ipu2 examples/example.h --record 'struct bounds' \
  --record 'struct particle'
run layout --target nvptx64-nvidia-cuda examples/example.h --record 'struct ring'
run layout --target amdgcn-amd-amdhsa -mcpu=gfx906 examples/example.h --record status_word --json

# Calls: registers and stack slots of every argument.
run call --target riscv32-unknown-elf -march=rv32imafd -mabi=ilp32d examples/runtime.h \
  --function submit --function mix --function vec3_add
run call --target riscv64-unknown-elf examples/runtime.h --function log_printf \
  --variadic-args double,int
run call --target dpu-upmem-dpurte examples/runtime.h --function submit --function mix
run call --target colossus-graphcore-elf -mcpu=ipu2 examples/runtime.h --function mix \
  --function bounds_of
run call --target amdgcn-amd-amdhsa -mcpu=gfx906 examples/runtime.h --function submit

# GPU kernels: PTX prototypes and the AMDGPU kernel argument segment.
run ptx --target nvptx64-nvidia-cuda -mcpu=sm_75 examples/kernels.cl
run kernarg --target amdgcn-amd-amdhsa -mcpu=gfx90a examples/kernels.cl --kernel step

# A target description.
run describe --target dpu-upmem-dpurte
