// The effect of a DPU relocation on its instruction field (shown by `abikit elf --relocs`).
#include "abikit/elf.h"
#include "bytes.h"

#include <algorithm>

namespace abikit {

std::optional<RelocationPatch> relocationPatch(const ElfFile& file, const ElfRelocationTable& table,
                                               const ElfRelocation& r) {
  // Only DPU relocations are all V = S + A (dpu.md §5.2); elsewhere the calculation (RISC-V
  // %hi, IPU's >> 2, ...) transforms the value before the bits move, which is not modelled here.
  if (file.header().machine != kEmDpu) return std::nullopt;
  const RelocationType* type = elfRelocationType(file, r.type);
  if (!type || type->moves.empty() || type->size == 0 || !table.rela()) return std::nullopt;
  const ElfSection* target = table.target();
  if (!target || !target->hasContents()) return std::nullopt;
  const bool linked = file.header().type != kEtRel;
  uint64_t off = r.offset;
  if (linked) {
    if (off < target->addr) return std::nullopt;
    off -= target->addr;
  }
  if (off > target->size || target->size - off < type->size) return std::nullopt;
  std::span<const uint8_t> bytes = file.contents(*target);
  uint64_t s = r.symbol ? table.symbols()[r.symbol].value : 0;
  RelocationPatch p;
  p.size = type->size;
  p.value = s + uint64_t(r.addend);
  if (!file.header().is64()) p.value &= 0xffffffffu; // ELF32 address arithmetic
  // The DPU linker converts IRAM/MRAM/atomic addresses in allocated sections (dpu.md §5.4).
  if (file.header().machine == kEmDpu && linked && (target->flags & kShfAlloc))
    p.value = dpuLinkerValue(p.value);
  // The field is little-endian (applyRelocation's order), at most 8 bytes of it are shown.
  const size_t n = type->size < 8 ? type->size : 8;
  uint8_t field[8] = {};
  std::copy_n(bytes.begin() + ptrdiff_t(off), n, field);
  p.before = detail::EndianSlice({field, n}, false).uintAt(0, n);
  applyRelocation(*type, p.value, std::span<uint8_t>(field, n));
  p.after = detail::EndianSlice({field, n}, false).uintAt(0, n);
  return p;
}

} // namespace abikit
