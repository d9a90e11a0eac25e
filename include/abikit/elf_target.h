// abikit — what each target family knows about its ELF objects: the e_machine value, the
// relocation table, how e_flags decode, and which differences prevent linking. The tables live
// in the family files under src/target/; the reader (src/elf/) only consults them.
#pragma once

#include "abikit/elf_constants.h"
#include "abikit/target.h"

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace abikit {

/// One move of value bits into the patched word: bits [from, from+count) of the relocated value
/// go to bits [to, to+count) of the little-endian word at r_offset.
struct RelocBitMove {
  uint8_t from = 0;
  uint8_t to = 0;
  uint8_t count = 0;
};

struct RelocationType {
  uint32_t type = 0;
  std::string_view name;        // "R_DPU_IMM24"
  uint8_t size = 0;             // bytes of the patched field/word (0: no patch)
  std::string_view calculation; // "S + A", "S + A - P", "(S + A) >> 2", ...
  std::string_view description;
  /// How the value is placed, when the field is not a plain little-endian integer: the moves
  /// are ORed into the word (it is assumed zero in the object). Empty: the value overwrites
  /// `size` bytes at r_offset.
  std::span<const RelocBitMove> moves = {};
  uint8_t value_bits = 0;   // width of the value the field holds (0: size * 8)
  bool overwrite = false;   // with moves: clear the destination bits first instead of ORing
  bool sign_extend = false; // the value is signed (range checks use value_bits as signed)
};

/// How a relocation is applied to a non-allocated section of a relocatable object (the DWARF
/// sections, as llvm-dwarfdump reads a .o). S: the symbol's value plus its section's address; A:
/// the addend (RELA) or, for the Set kinds in a REL table, the field's contents; V: the field's
/// contents; P: the address of the field. The field is RelocationType::size bytes in the file's
/// byte order.
enum class DebugRelocKind : uint8_t {
  Ignore,     // a marker (R_*_NONE, R_RISCV_RELAX, R_RISCV_ALIGN): the bytes stay
  Absolute,   // S + A; an error when it fits the field neither as signed nor as unsigned
  Set,        // S + A, truncated to the field (RISC-V SET8/16/32, AMDGPU ABS32_LO)
  High32,     // (S + A) >> 32 (AMDGPU ABS32_HI)
  Add,        // V + S + A, modulo the field
  Sub,        // V - S - A, modulo the field
  Set6,       // the low 6 bits of the byte = S + A
  Sub6,       // the low 6 bits of the byte = V - S - A
  SetUleb128, // S + A, with the next relocation (SubUleb128 at the same offset) subtracted
  SubUleb128, // V - S - A of the preceding SetUleb128, re-encoded at the ULEB128's length
  PcRelative, // S + A - P (checked as Absolute)
};

/// One relocation type a family allows in debug sections; every other type is an error there.
struct DebugRelocation {
  uint32_t type = 0;
  DebugRelocKind kind = DebugRelocKind::Ignore;
};

/// e_flags (and the e_ident fields that qualify them) decoded for one object.
struct ElfFlagsInfo {
  std::string target;    // the abikit target this object was built for: "amdgcn-amd-amdhsa"
  std::string processor; // "gfx906", "sm_70", "ipu2", "" when the flags do not say
  std::vector<std::string> flag_names; // symbolic names of the set flags/fields
  /// Properties that matter for linking, as key/value ("abi_version" -> "2",
  /// "float_abi" -> "double", "rve" -> "yes", "xnack" -> "on", "arch" -> "ipu2").
  std::vector<std::pair<std::string, std::string>> properties;
  std::vector<std::string> problems; // unknown bits, reserved values, inconsistencies
  std::string_view property(std::string_view key) const {
    for (const auto& [k, v] : properties)
      if (k == key) return v;
    return {};
  }
};

struct ElfHeaderFacts {
  uint8_t elf_class = 0;
  uint8_t data = 0;
  uint8_t osabi = 0;
  uint8_t abi_version = 0;
  uint16_t machine = 0;
  uint32_t flags = 0;
  /// The object says it is for Linux: OSABI GNU/Linux, a PT_INTERP segment (a dynamic loader) or
  /// a .note.ABI-tag section (glibc's objects); filled by the reader, not from the header.
  bool linux_os = false;
};

struct ElfMachineInfo {
  uint16_t machine = 0;
  std::string_view name; // "EM_DPU"
  Family family = Family::RISCV;
  std::span<const RelocationType> relocations;
  ElfFlagsInfo (*decodeFlags)(const ElfHeaderFacts& header) = nullptr;
  /// Appends one line per reason why objects with these decoded flags cannot be linked.
  void (*linkConflicts)(const ElfFlagsInfo& a, const ElfFlagsInfo& b,
                        std::vector<std::string>& out) = nullptr;
  /// The relocations that may appear in the DWARF sections of a relocatable object and how each
  /// is applied (abikit::debugSections); the size of the field is RelocationType::size.
  std::span<const DebugRelocation> debug_relocations = {};
  /// What llvm-objdump and llvm-dwarfdump call the format after "elf32-"/"elf64-" ("littleriscv");
  /// empty: "unknown".
  std::string_view llvm_format = {};

  const RelocationType* relocation(uint32_t type) const {
    for (const RelocationType& r : relocations)
      if (r.type == type) return &r;
    return nullptr;
  }
  const DebugRelocation* debugRelocation(uint32_t type) const {
    for (const DebugRelocation& r : debug_relocations)
      if (r.type == type) return &r;
    return nullptr;
  }
};

/// Every machine abikit knows (one per family, plus EM_CUDA for NVPTX cubins).
std::span<const ElfMachineInfo* const> elfMachines();
const ElfMachineInfo* findElfMachine(uint16_t machine);

/// Applies a relocation value to the bytes of the field at r_offset (little-endian), following
/// RelocationType::moves or overwriting `size` bytes. `field` must hold `size` bytes.
void applyRelocation(const RelocationType& rel, uint64_t value, std::span<uint8_t> field);

} // namespace abikit
