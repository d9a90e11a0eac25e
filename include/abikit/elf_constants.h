// abikit — the ELF constants (e_machine, sh_type, sh_flags, p_type, symbol and note types, ...),
// each a named constant made from its one line in elf_constants.def, where its printed name is
// written too. Standard library only: the core library (the family tables in src/target/) and
// the ELF reader (src/elf/) both use it.
#pragma once

#include <cstdint>
#include <string_view>

namespace abikit {

#define ABIKIT_ELF_IDENT(Id, NAME, value) inline constexpr uint8_t kElf##Id = value;
#define ABIKIT_ELF_ET(Id, NAME, value) inline constexpr uint16_t kEt##Id = value;
#define ABIKIT_ELF_EM(Id, NAME, value)                                                             \
  inline constexpr uint16_t kEm##Id = value;                                                       \
  inline constexpr std::string_view kEm##Id##Name = NAME;
#define ABIKIT_ELF_OSABI(Id, NAME, value) inline constexpr uint8_t kOsabi##Id = value;
#define ABIKIT_ELF_OSABI_FOR(Em, Id, NAME, value) inline constexpr uint8_t kOsabi##Id = value;
#define ABIKIT_ELF_SHT(Id, NAME, value) inline constexpr uint32_t kSht##Id = value;
#define ABIKIT_ELF_SHT_FOR(Em, Id, NAME, value) inline constexpr uint32_t kSht##Id = value;
#define ABIKIT_ELF_SHF(Id, LETTER, value) inline constexpr uint64_t kShf##Id = value;
#define ABIKIT_ELF_SHN(Id, NAME, value) inline constexpr uint32_t kShn##Id = value;
#define ABIKIT_ELF_SHN_FOR(Em, Id, NAME, value) inline constexpr uint32_t kShn##Id = value;
#define ABIKIT_ELF_PT(Id, NAME, value) inline constexpr uint32_t kPt##Id = value;
#define ABIKIT_ELF_STT(Id, NAME, value) inline constexpr uint8_t kStt##Id = value;
#define ABIKIT_ELF_STT_FOR(Em, Id, NAME, value) inline constexpr uint8_t kStt##Id = value;
#define ABIKIT_ELF_STT_OS(Id, NAME, value) inline constexpr uint8_t kStt##Id = value;
#define ABIKIT_ELF_STB(Id, NAME, value) inline constexpr uint8_t kStb##Id = value;
#define ABIKIT_ELF_STV(Id, NAME, value) inline constexpr uint8_t kStv##Id = value;
#define ABIKIT_ELF_NT(Owner, Id, NAME, value, DESCRIPTION)                                         \
  inline constexpr uint32_t kNt##Id = value;
#define ABIKIT_ELF_VALUE(Id, type, value) inline constexpr type k##Id = value;
#include "abikit/elf_constants.def"

} // namespace abikit
