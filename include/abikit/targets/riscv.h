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

struct RiscvTarget {
  unsigned xlen = 64;
  RiscvAbi abi = RiscvAbi::LP64D;
  unsigned abi_flen = 64; // ABI_FLEN: 0, 32, 64 or 128
  bool e_abi = false;     // ilp32e / lp64e: a0-a5 only
  bool linux_os = false;  // *-linux-* triple (else bare metal)
  RiscvCodeModel code_model = RiscvCodeModel::Medlow;
  RiscvISAInfo isa;

  unsigned argGPRs() const { return e_abi ? 6 : 8; }
  unsigned argFPRs() const { return abi_flen ? 8 : 0; }
};

} // namespace abikit
