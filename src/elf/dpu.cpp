// UPMEM DPU: the linker's address-space value fixup (reference dpu.md §5.4).
#include "abikit/elf.h"

namespace abikit {

uint32_t dpuLinkerValue(uint64_t va) {
  const uint32_t v = uint32_t(va);                              // the linker works on 32-bit values
  if ((v & 0xF0000000u) == 0xF0000000u) return v - 0xF0000000u; // atomic
  if (v & 0x80000000u) {                                        // IRAM
    // Byte address to instruction index; the low three bits count extra instructions, so
    // `label + 1` is the next instruction.
    uint32_t t = v & 0x7FFFFFFFu;
    return (t >> 3) + (t & 7u);
  }
  if (v & 0x08000000u) return v - 0x08000000u; // MRAM
  return v;                                    // WRAM
}

} // namespace abikit
