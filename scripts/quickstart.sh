#!/usr/bin/env bash
# Builds abikit and runs it on the bundled example header for several targets.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh build
cmake -S . -B build/release -G Ninja -DCMAKE_BUILD_TYPE=Release -DABIKIT_BUILD_TESTS=OFF >/dev/null
cmake --build build/release --target abikit_cli
abikit=build/release/abikit

run() { echo; echo "\$ abikit $*"; "$abikit" "$@"; }
run describe --target dpu-upmem-dpurte
