// abikit — Graphcore IPU (Colossus) target details (part of Target::detail).
#pragma once

#include <cstdint>

namespace abikit {

enum class IpuArch : uint8_t { Ipu1, Ipu2, Ipu21 };
/// Worker threads have the float register file ($a); supervisor code has only $m; "both" is
/// code compiled to run in either mode (no $a registers either).
enum class IpuMode : uint8_t { Worker, Supervisor, Both };

struct IpuTarget {
  IpuArch arch = IpuArch::Ipu2;
  IpuMode mode = IpuMode::Worker;
  uint32_t tmem_region0_base = 0; // default image base (TMEM_REGION0_BASE_ADDR)
};

} // namespace abikit
