// abikit — NVPTX target details (part of Target::detail) and the SM processor table.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace abikit {

/// One row of the SM table (data in src/target/nvptx.cpp).
struct NvptxProcessor {
  std::string_view name; // "sm_90a"
  uint16_t sm = 0;       // 90
  char suffix = 0;       // 0, 'a' (architecture-specific) or 'f' (family-specific)
  /// Lowest PTX ISA version (x 10) whose `.target` accepts this processor, as ptxas 13.0
  /// checks it together with `.address_size 64` (which itself needs 2.3).
  uint16_t min_ptx = 0;
  /// The `.version` (x 10) LLVM 14 writes by default for this -mcpu; 0 = unknown to LLVM 14.
  uint16_t llvm14_ptx = 0;
  bool ptxas13 = false; // accepted by `ptxas -arch` of CUDA 13.0
  std::string_view note;
};

std::span<const NvptxProcessor> nvptxProcessors();

/// The DWARF register number LLVM gives a PTX register in .debug_info and .debug_loc (cuda-gdb's
/// encoding: the bytes of the name, first byte most significant): "%rd1" -> 0x25726431. 0 for an
/// empty name or one longer than 8 bytes (LLVM then writes no location).
uint64_t nvptxDwarfRegisterNumber(std::string_view ptx_name);
/// The PTX register name a DWARF register number encodes ("%r5" for 0x257235), or "" when the
/// number is no such name ('%' and then letters, digits, '_' or '$').
std::string nvptxDwarfRegisterName(uint64_t number);
const NvptxProcessor* findNvptxProcessor(std::string_view name);

struct NvptxTarget {
  bool is64 = true;             // nvptx64 (64-bit addresses) or nvptx
  unsigned sm = 20;             // processor: sm_XX -> XX (sm_90a -> 90, arch_specific = true)
  bool arch_specific = false;   // the "a" suffix (sm_90a)
  bool family_specific = false; // the "f" suffix (sm_100f)
  unsigned ptx_version = 32;    // PTX ISA version x 10: 32 = ".version 3.2"
  const NvptxProcessor* processor = nullptr;
};

} // namespace abikit
