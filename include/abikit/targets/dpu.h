// abikit — UPMEM DPU target details (part of Target::detail).
#pragma once

#include <cstdint>

namespace abikit {

enum class DpuVersion : uint8_t { V1A, V1B };

struct DpuTarget {
  DpuVersion version = DpuVersion::V1A;
  uint32_t iram_bytes = 0;        // instruction memory (8-byte slots in the ELF view)
  uint32_t iram_instructions = 0; // how many instructions fit
  uint32_t wram_bytes = 0;
  uint64_t mram_bytes = 0; // 0 = not fixed by the processor
  uint32_t atomic_bytes = 0;
  uint32_t threads = 0;     // hardware threads (tasklets)
  uint32_t abi_version = 2; // ELF e_flags ABI version
};

} // namespace abikit
