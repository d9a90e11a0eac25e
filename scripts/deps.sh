#!/usr/bin/env bash
# Installs what abikit needs to build and test, from Debian's packages, when it is missing.
# Usage: scripts/deps.sh [build|test|bench]
set -euo pipefail
mode=${1:-build}

need=()
have_pkg() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"; }
want() { for p in "$@"; do have_pkg "$p" || need+=("$p"); done; }

want cmake ninja-build g++ libcli11-dev nlohmann-json3-dev libmsgpack-cxx-dev
if [ "$mode" = test ]; then
  # Oracles (clang/llc 14, GCC for RISC-V), test and benchmark libraries, fuzzing runtime, and
  # real C library headers for the front-end's differential test (picolibc and glibc for RISC-V).
  # llvm-22: llvm-dwarfdump-22 and llvm-mc-22, the only decoder of every DW_OP_LLVM_user operation.
  want clang-14 llvm-14 lld-14 llvm-22 lld-22 libclang-rt-14-dev libgtest-dev libgmock-dev libbenchmark-dev \
       gcc-riscv64-unknown-elf clang-format-14 picolibc-riscv64-unknown-elf libc6-dev-riscv64-cross
  # Variable locations against gdb: RISC-V programs from clang-14/19/22 and GCC run under
  # qemu-user with gdb-multiarch attached. lld-14 cannot link the debug info of clang 19 and 22
  # (ULEB128 relocations): they link with lld-19.
  want gdb-multiarch qemu-user clang-19 lld-19 llvm-19 clang-22
  # Host targets: real headers laid out for x86-64, i386 and AArch64 (glibc's own, its 32-bit
  # stubs and its AArch64 cross headers, Vulkan, zlib), and GCC 12 as the second witness of the
  # x86 data models.
  want libc6-dev libc6-dev-i386 libc6-dev-arm64-cross libvulkan-dev zlib1g-dev gcc-12
fi

if [ "$mode" = bench ]; then
  # The benchmarks and the compilers they are compared with (bench/*_vs_*.sh), and real headers.
  want libbenchmark-dev hyperfine clang-14 clang-22 libvulkan-dev libc6-dev-riscv64-cross
fi

if [ "$(id -u)" -ne 0 ]; then SUDO=sudo; else SUDO=; fi
if [ ${#need[@]} -gt 0 ]; then
  echo "abikit: installing ${need[*]}" >&2
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq || true
  $SUDO apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi

# SDL2's headers for the real-header differential, without the 69 packages libsdl2-dev depends
# on (X11, Wayland, PulseAudio, udev, ...): the package is unpacked, not installed, into
# /var/cache/abikit/sdl2 (docs/compat.md). A failed download only skips that test.
sdl_root=/var/cache/abikit/sdl2
if [ "$mode" = test ] && [ ! -f /usr/include/SDL2/SDL.h ] &&
   [ ! -f "$sdl_root/usr/include/SDL2/SDL.h" ]; then
  tmp=$(mktemp -d)
  chmod 755 "$tmp"
  if (cd "$tmp" && { apt-get download libsdl2-dev >/dev/null 2>&1 ||
                     { $SUDO apt-get update -qq && apt-get download libsdl2-dev >/dev/null 2>&1; }; }); then
    $SUDO mkdir -p "$sdl_root"
    $SUDO dpkg-deb -x "$tmp"/libsdl2-dev_*.deb "$sdl_root"
  else
    echo "abikit: could not download libsdl2-dev; the SDL header test will be skipped" >&2
  fi
  rm -rf "$tmp"
fi
