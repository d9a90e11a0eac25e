// abikit — NVPTX target details (part of Target::detail).
#pragma once

namespace abikit {

struct NvptxTarget {
  bool is64 = true;           // nvptx64 (64-bit addresses) or nvptx
  unsigned sm = 20;           // processor: sm_XX -> XX (sm_90a -> 90, arch_specific = true)
  bool arch_specific = false; // the "a" suffix (sm_90a)
  unsigned ptx_version = 32;  // PTX ISA version x 10: 32 = ".version 3.2"
};

} // namespace abikit
