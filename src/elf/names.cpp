// Names for people: ELF types, OS/ABI values, section/segment/symbol kinds, flag letters.
#include "abikit/elf.h"

namespace abikit {

namespace {
constexpr uint16_t kEmAmdgpu = 224;
constexpr uint16_t kEmRiscv = 243;
} // namespace

std::string_view elfTypeName(uint16_t t) {
  switch (t) {
  case 0:
    return "NONE";
  case 1:
    return "REL";
  case 2:
    return "EXEC";
  case 3:
    return "DYN";
  case 4:
    return "CORE";
  }
  return {};
}

std::string_view elfOsabiName(uint8_t osabi, uint16_t machine) {
  switch (osabi) {
  case 0:
    return "NONE";
  case 1:
    return "HPUX";
  case 2:
    return "NETBSD";
  case 3:
    return "GNU";
  case 6:
    return "SOLARIS";
  case 7:
    return "AIX";
  case 8:
    return "IRIX";
  case 9:
    return "FREEBSD";
  case 10:
    return "TRU64";
  case 11:
    return "MODESTO";
  case 12:
    return "OPENBSD";
  case 13:
    return "OPENVMS";
  case 14:
    return "NSK";
  case 15:
    return "AROS";
  case 16:
    return "FENIXOS";
  case 17:
    return "CLOUDABI";
  case 255:
    return "STANDALONE";
  }
  if (machine == kEmAmdgpu) {
    switch (osabi) {
    case 64:
      return "AMDGPU_HSA";
    case 65:
      return "AMDGPU_PAL";
    case 66:
      return "AMDGPU_MESA3D";
    }
  }
  return {};
}

std::string_view elfSectionTypeName(uint32_t type, uint16_t machine) {
  switch (type) {
  case 0:
    return "NULL";
  case 1:
    return "PROGBITS";
  case 2:
    return "SYMTAB";
  case 3:
    return "STRTAB";
  case 4:
    return "RELA";
  case 5:
    return "HASH";
  case 6:
    return "DYNAMIC";
  case 7:
    return "NOTE";
  case 8:
    return "NOBITS";
  case 9:
    return "REL";
  case 10:
    return "SHLIB";
  case 11:
    return "DYNSYM";
  case 14:
    return "INIT_ARRAY";
  case 15:
    return "FINI_ARRAY";
  case 16:
    return "PREINIT_ARRAY";
  case 17:
    return "GROUP";
  case 18:
    return "SYMTAB_SHNDX";
  case 19:
    return "RELR";
  case 0x6fff4c00:
    return "LLVM_ODRTAB";
  case 0x6fff4c01:
    return "LLVM_LINKER_OPTIONS";
  case 0x6fff4c02:
    return "LLVM_CALL_GRAPH_PROFILE";
  case 0x6fff4c03:
    return "LLVM_ADDRSIG";
  case 0x6fff4c04:
    return "LLVM_DEPENDENT_LIBRARIES";
  case 0x6fff4c05:
    return "LLVM_SYMPART";
  case 0x6fff4c08:
    return "LLVM_BB_ADDR_MAP";
  case 0x6ffffff5:
    return "GNU_ATTRIBUTES";
  case 0x6ffffff6:
    return "GNU_HASH";
  case 0x6ffffffd:
    return "VERDEF";
  case 0x6ffffffe:
    return "VERNEED";
  case 0x6fffffff:
    return "VERSYM";
  }
  if (machine == kEmRiscv && type == kShtRiscvAttributes) return "RISCV_ATTRIBUTES";
  return {};
}

std::string_view elfSegmentTypeName(uint32_t type) {
  switch (type) {
  case 0:
    return "NULL";
  case 1:
    return "LOAD";
  case 2:
    return "DYNAMIC";
  case 3:
    return "INTERP";
  case 4:
    return "NOTE";
  case 5:
    return "SHLIB";
  case 6:
    return "PHDR";
  case 7:
    return "TLS";
  case 0x6474e550:
    return "GNU_EH_FRAME";
  case 0x6474e551:
    return "GNU_STACK";
  case 0x6474e552:
    return "GNU_RELRO";
  case 0x6474e553:
    return "GNU_PROPERTY";
  }
  return {};
}

std::string_view elfSymbolTypeName(uint8_t type, uint16_t machine, uint8_t osabi) {
  switch (type) {
  case 0:
    return "NOTYPE";
  case 1:
    return "OBJECT";
  case 2:
    return "FUNC";
  case 3:
    return "SECTION";
  case 4:
    return "FILE";
  case 5:
    return "COMMON";
  case 6:
    return "TLS";
  case 10:
    if (machine == kEmAmdgpu) return "AMDGPU_HSA_KERNEL";
    if (osabi == 0 || osabi == 3 || osabi == 9) return "GNU_IFUNC";
    return {};
  }
  return {};
}

std::string_view elfSymbolBindingName(uint8_t binding) {
  switch (binding) {
  case 0:
    return "LOCAL";
  case 1:
    return "GLOBAL";
  case 2:
    return "WEAK";
  case 10:
    return "GNU_UNIQUE";
  }
  return {};
}

std::string_view elfVisibilityName(uint8_t visibility) {
  switch (visibility & 3) {
  case 0:
    return "DEFAULT";
  case 1:
    return "INTERNAL";
  case 2:
    return "HIDDEN";
  default:
    return "PROTECTED";
  }
}

std::string_view elfSpecialSectionIndexName(uint32_t shndx, uint16_t machine) {
  switch (shndx) {
  case kShnUndef:
    return "UND";
  case kShnAbs:
    return "ABS";
  case kShnCommon:
    return "COMMON";
  case kShnXindex:
    return "XINDEX";
  }
  if (machine == kEmAmdgpu && shndx == kShnAmdgpuLds) return "AMDGPU_LDS";
  return {};
}

std::string elfSectionFlagLetters(uint64_t flags) {
  static constexpr struct {
    uint64_t bit;
    char letter;
  } kFlags[] = {{0x1, 'W'},   {0x2, 'A'},   {0x4, 'X'},   {0x10, 'M'},
                {0x20, 'S'},  {0x40, 'I'},  {0x80, 'L'},  {0x100, 'O'},
                {0x200, 'G'}, {0x400, 'T'}, {0x800, 'C'}, {0x80000000, 'E'}};
  std::string out;
  uint64_t known = 0;
  for (const auto& f : kFlags) {
    known |= f.bit;
    if (flags & f.bit) out += f.letter;
  }
  uint64_t rest = flags & ~known;
  if (rest & 0x0ff00000) out += 'o';
  if (rest & 0x70000000) out += 'p';
  if (rest & ~uint64_t(0x7ff00000)) out += 'x';
  return out;
}

const RelocationType* elfRelocationType(const ElfFile& file, uint32_t type) {
  return file.machine() ? file.machine()->relocation(type) : nullptr;
}

} // namespace abikit
