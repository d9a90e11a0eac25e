// abikit — Graphcore IPU (Colossus) target details (part of Target::detail).
#pragma once

#include <cstdint>
#include <string_view>

namespace abikit {

enum class IpuArch : uint8_t { Ipu1, Ipu2, Ipu21 };
/// Worker threads have the float register file ($a); supervisor code has only $m; "both" is
/// code compiled to run in either mode (no $a registers either).
enum class IpuMode : uint8_t { Worker, Supervisor, Both };

std::string_view ipuArchName(IpuArch arch); // "ipu1", "ipu2", "ipu21"
std::string_view ipuModeName(IpuMode mode); // "worker", "supervisor", "both"

struct IpuTarget {
  IpuArch arch = IpuArch::Ipu1; // the fork's driver, backend and linker default to ipu1
  IpuMode mode = IpuMode::Worker;
  uint32_t tmem_region0_base = 0x40000; // default image base (TMEM_REGION0_BASE_ADDR)
  uint32_t repeat_count_bits = 12;      // width of the `rpt` count (__IPU_REPEAT_COUNT_SIZE__)
  uint32_t mrf_gp_registers = 12;       // $m0-$m11 are general purpose (MRF_GP_REGISTERS)
  uint32_t arf_gp_registers = 8;        // $a0-$a7 are allocatable (ARF_GP_REGISTERS)

  /// The $a register file exists (worker code only): float, half and the float vectors are
  /// passed in $a. Supervisor and "both" code passes float as soft-float in $m.
  bool hasArf() const { return mode == IpuMode::Worker; }
  /// __fp16 (`half`) is a legal parameter and return type only in worker mode (the driver
  /// passes -fnative-half-type -fallow-half-arguments-and-returns only there).
  bool halfArgsAndReturns() const { return mode == IpuMode::Worker; }
};

/// The value the linker writes into the field of an R_COLOSSUS_* relocation whose symbol value
/// plus addend is `s_plus_a` (the `calculation` column of the relocation table): e.g.
/// (S + A - TMEM_REGION0_BASE) >> 2 for R_COLOSSUS_RUN. Throws abikit::Error (ErrorKind::Elf)
/// for an unknown type, a misaligned value or one that does not fit the field, as the
/// Graphcore linker reports them. The result is what applyRelocation() places.
uint64_t ipuRelocationValue(uint32_t type, uint64_t s_plus_a, uint32_t tmem_region0_base);

} // namespace abikit
