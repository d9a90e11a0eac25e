// Names for people: ELF types, OS/ABI values, section/segment/symbol kinds, flag letters. Each
// name comes from its constant's line in abikit/elf_constants.def.
#include "abikit/elf.h"

namespace abikit {

std::string_view elfTypeName(uint16_t t) {
  switch (t) {
#define ABIKIT_ELF_ET(Id, NAME, value)                                                             \
  case value:                                                                                      \
    return NAME;
#include "abikit/elf_constants.def"
  }
  return {};
}

std::string_view elfMachineName(uint16_t machine) {
  switch (machine) {
#define ABIKIT_ELF_EM(Id, NAME, value)                                                             \
  case value:                                                                                      \
    return NAME;
#include "abikit/elf_constants.def"
  }
  return {};
}

std::string_view elfOsabiName(uint8_t osabi, uint16_t machine) {
  switch (osabi) {
#define ABIKIT_ELF_OSABI(Id, NAME, value)                                                          \
  case value:                                                                                      \
    return NAME;
#include "abikit/elf_constants.def"
  }
#define ABIKIT_ELF_OSABI_FOR(Em, Id, NAME, value)                                                  \
  if (machine == kEm##Em && osabi == value) return NAME;
#include "abikit/elf_constants.def"
  return {};
}

std::string_view elfSectionTypeName(uint32_t type, uint16_t machine) {
  switch (type) {
#define ABIKIT_ELF_SHT(Id, NAME, value)                                                            \
  case value:                                                                                      \
    return NAME;
#include "abikit/elf_constants.def"
  }
#define ABIKIT_ELF_SHT_FOR(Em, Id, NAME, value)                                                    \
  if (machine == kEm##Em && type == value) return NAME;
#include "abikit/elf_constants.def"
  return {};
}

std::string_view elfSegmentTypeName(uint32_t type) {
  switch (type) {
#define ABIKIT_ELF_PT(Id, NAME, value)                                                             \
  case value:                                                                                      \
    return NAME;
#include "abikit/elf_constants.def"
  }
  return {};
}

std::string_view elfSymbolTypeName(uint8_t type, uint16_t machine, uint8_t osabi) {
  switch (type) {
#define ABIKIT_ELF_STT(Id, NAME, value)                                                            \
  case value:                                                                                      \
    return NAME;
#include "abikit/elf_constants.def"
  }
  // The processor-specific types first, then the OS-specific ones.
#define ABIKIT_ELF_STT_FOR(Em, Id, NAME, value)                                                    \
  if (machine == kEm##Em && type == value) return NAME;
#include "abikit/elf_constants.def"
  const bool gnu_like = osabi == kOsabiNone || osabi == kOsabiGnu || osabi == kOsabiFreebsd;
#define ABIKIT_ELF_STT_OS(Id, NAME, value)                                                         \
  if (gnu_like && type == value) return NAME;
#include "abikit/elf_constants.def"
  return {};
}

std::string_view elfSymbolBindingName(uint8_t binding) {
  switch (binding) {
#define ABIKIT_ELF_STB(Id, NAME, value)                                                            \
  case value:                                                                                      \
    return NAME;
#include "abikit/elf_constants.def"
  }
  return {};
}

std::string_view elfVisibilityName(uint8_t visibility) {
  switch (visibility & 3) {
#define ABIKIT_ELF_STV(Id, NAME, value)                                                            \
  case value:                                                                                      \
    return NAME;
#include "abikit/elf_constants.def"
  }
  return {};
}

std::string_view elfSpecialSectionIndexName(uint32_t shndx, uint16_t machine) {
  switch (shndx) {
#define ABIKIT_ELF_SHN(Id, NAME, value)                                                            \
  case value:                                                                                      \
    return NAME;
#include "abikit/elf_constants.def"
  }
#define ABIKIT_ELF_SHN_FOR(Em, Id, NAME, value)                                                    \
  if (machine == kEm##Em && shndx == value) return NAME;
#include "abikit/elf_constants.def"
  return {};
}

std::string elfSectionFlagLetters(uint64_t flags) {
  static constexpr struct {
    uint64_t bit;
    char letter;
  } kFlags[] = {
#define ABIKIT_ELF_SHF(Id, LETTER, value) {value, LETTER},
#include "abikit/elf_constants.def"
  };
  std::string out;
  uint64_t known = 0;
  for (const auto& f : kFlags) {
    known |= f.bit;
    if (flags & f.bit) out += f.letter;
  }
  uint64_t rest = flags & ~known;
  if (rest & kShfMaskos) out += 'o';
  if (rest & kShfMaskproc) out += 'p';
  if (rest & ~(kShfMaskos | kShfMaskproc)) out += 'x';
  return out;
}

const RelocationType* elfRelocationType(const ElfFile& file, uint32_t type) {
  return file.machine() ? file.machine()->relocation(type) : nullptr;
}

} // namespace abikit
