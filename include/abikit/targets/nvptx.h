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
  /// The `.version` (x 10) each LLVM's back end writes by default for this -mcpu (the lowest
  /// PTX ISA version that LLVM accepts for it); 0 = the processor is unknown to that LLVM.
  uint16_t llvm14_ptx = 0;
  uint16_t llvm19_ptx = 0;
  uint16_t llvm22_ptx = 0;
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

/// Which kernel pointer parameters llc declares `.ptr [.global|.shared|.const] .align N` and with
/// which N: LLVM 14, for the OpenCL driver interface (-nvidia-nvcl) only, N = the pointee's
/// OpenCL alignment; LLVM 19, -nvcl only, N = the parameter's `align` attribute (1: clang sets
/// none); LLVM 22, every kernel, N as LLVM 19.
enum class NvptxKernelPointers : uint8_t { NvclPointeeAlign, NvclAlignOne, AlignOne };

/// How the selected compiler's NVPTX back end passes values, where LLVM versions differ (data in
/// src/target/nvptx.cpp, read by src/callconv/nvptx.cpp and src/emit/ptx.cpp).
struct NvptxCallRules {
  std::string_view backend = "llc-14"; // how messages name the back end
  /// The least alignment of a byval aggregate's .param in a non-kernel function (LLVM 14: 4, a
  /// workaround for an old ptxas bug; later: the aggregate's own alignment).
  uint8_t byval_min_align = 4;
  /// A byval aggregate's .param is aligned to at least the ABI alignment of its IR type
  /// (LLVM 15 and later: getFunctionByValParamAlign; LLVM 14: the byval alignment only).
  bool byval_ir_align = false;
  /// The least alignment of the array .params (aggregates, vectors, i128, half) of a function
  /// with internal linkage whose address is not taken (LLVM 15 and later: 16; 0 = not raised).
  uint8_t local_array_align = 0;
  /// Variadic functions compile: the extra arguments in a buffer whose generic address is one
  /// more .param after the fixed ones (LLVM's ExpandVariadics pass).
  bool variadic_buffer = false;
  /// The widest _BitInt of a width other than 32, 64 and 128 that can be passed or returned
  /// (LLVM 14: 16; LLVM 19: 64, wider ones crash clang; LLVM 22: 127, wider than 64 bits as a
  /// .b128 scalar, which ptxas accepts from PTX ISA 8.3 and sm_70).
  uint8_t max_odd_bitint_bits = 16;
  /// An aggregate whose IR type holds an integer of an odd width (a bit-field run, an odd
  /// _BitInt) can be passed and returned (LLVM 14: "Cannot select").
  bool odd_int_aggregates = false;
  /// An aggregate holding an array of integers wider than 64 bits (i128, and odd widths where
  /// those pass), and a vector of 128-bit integers, can be passed and returned (LLVM 14 fails to
  /// select them, LLVM 19 crashes).
  bool i128_arrays_and_vectors = false;
  /// The IR type of a record with bit-fields is modelled (clang-14's bit-field runs; clang 19
  /// and later lower bit-fields to "access units", which abikit does not model yet).
  bool bitfield_records = true;
  /// LLVM 19's back end fails on two kinds of vector (checked with llc-19): a vector of two 8-bit
  /// integers as a call argument ("Copy one register into another with a different width"), and
  /// a vector of 16-bit elements whose count is even, above 4 and not a power of two (6, 10, 12,
  /// 14, 18, ...) as an argument or return value (a crash). Kernel parameters are not affected.
  bool vector_bugs = false;
  NvptxKernelPointers kernel_pointers = NvptxKernelPointers::NvclPointeeAlign;
};

struct NvptxTarget {
  bool is64 = true;             // nvptx64 (64-bit addresses) or nvptx
  unsigned sm = 20;             // processor: sm_XX -> XX (sm_90a -> 90, arch_specific = true)
  bool arch_specific = false;   // the "a" suffix (sm_90a)
  bool family_specific = false; // the "f" suffix (sm_100f)
  unsigned ptx_version = 32;    // PTX ISA version x 10: 32 = ".version 3.2"
  const NvptxProcessor* processor = nullptr;
  NvptxCallRules call;
};

} // namespace abikit
