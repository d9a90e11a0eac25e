// abikit — RISC-V target details (part of Target::detail).
#pragma once

#include "abikit/riscv_isa.h"

#include <cstdint>
#include <string_view>

namespace abikit {

enum class RiscvAbi : uint8_t { ILP32, ILP32F, ILP32D, ILP32E, LP64, LP64F, LP64D, LP64Q, LP64E };
enum class RiscvCodeModel : uint8_t { Medlow, Medany, Large };

std::string_view riscvAbiName(RiscvAbi abi);            // "ilp32d"
std::string_view riscvCodeModelName(RiscvCodeModel cm); // "medlow", "medany", "large"

/// How the selected compiler's RISC-V calling convention differs from clang-14's (the table in
/// src/target/riscv.cpp says which compiler does what).
struct RiscvCallRules {
  /// _Float16 (and __fp16) fields take part in the hardware floating-point convention: a struct
  /// of a half and an int goes in fa0 + a0 (clang 19 and later; clang-14 keeps it in integers).
  bool half_in_fp_convention = false;
  /// An integer narrower than XLEN that goes on the stack is still sign or zero extended
  /// (clang 19 and later; clang-14 leaves its upper bits unspecified).
  bool extend_on_stack = false;
  /// Every _BitInt passed directly (up to 2×XLEN) is extended by its own signedness, over
  /// both registers if it takes two (clang-22); before, _BitInt followed the rules of the
  /// integer of its size (unsigned _BitInt(17) sign-extended on RV64, none above XLEN).
  bool bitint_extend_by_signedness = false;
  /// An empty record (no fields but unnamed bit-fields, empty records and zero-length arrays) is
  /// ignored only when its size is zero: `struct { char : 7; }` is passed in a register (clang
  /// 19 and later; clang-14 ignores every empty record).
  bool ignore_only_zero_sized_empty = false;
};

struct RiscvTarget {
  unsigned xlen = 64;
  RiscvAbi abi = RiscvAbi::LP64D;
  unsigned abi_flen = 64; // ABI_FLEN: 0, 32, 64 or 128
  bool e_abi = false;     // ilp32e / lp64e: a0-a5 only
  bool linux_os = false;  // *-linux-* triple (else bare metal)
  RiscvCodeModel code_model = RiscvCodeModel::Medlow;
  RiscvISAInfo isa;
  RiscvCallRules call;

  unsigned argGPRs() const { return e_abi ? 6 : 8; }
  unsigned argFPRs() const { return abi_flen ? 8 : 0; }
};

} // namespace abikit
