// The list of ELF machines (one per family) and the generic relocation patcher.
#include "abikit/elf_target.h"
#include "family.h"

namespace abikit {

std::span<const ElfMachineInfo* const> elfMachines() {
  static const ElfMachineInfo* const kMachines[] = {
#define ABIKIT_FAMILY(E, name, Prefix) detail::k##Prefix##Family.elf,
#include "abikit/families.def"
  };
  return kMachines;
}

const ElfMachineInfo* findElfMachine(uint16_t machine) {
  for (const ElfMachineInfo* m : elfMachines())
    if (m && m->machine == machine) return m;
  return nullptr;
}

void applyRelocation(const RelocationType& rel, uint64_t value, std::span<uint8_t> field) {
  size_t n = std::min<size_t>(rel.size, field.size());
  if (n == 0) return;
  uint64_t word = 0;
  for (size_t i = 0; i < n; ++i) word |= uint64_t(field[i]) << (8 * i);
  if (rel.moves.empty()) {
    word = n == 8 ? value : (value & ((uint64_t(1) << (8 * n)) - 1));
  } else {
    for (const RelocBitMove& m : rel.moves) {
      uint64_t mask = (m.count >= 64 ? ~uint64_t(0) : ((uint64_t(1) << m.count) - 1));
      uint64_t bits = (value >> m.from) & mask;
      if (rel.overwrite) word &= ~(mask << m.to);
      word |= bits << m.to;
    }
  }
  for (size_t i = 0; i < n; ++i) field[i] = uint8_t(word >> (8 * i));
}

} // namespace abikit
