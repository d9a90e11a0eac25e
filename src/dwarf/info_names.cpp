// Names of attribute values (DW_LANG_*, DW_ATE_*, ...), the configurable codes of the
// heterogeneous-debugging attributes (reference dwarf.md §1.6), and type names as llvm-dwarfdump
// prints them after a DW_AT_type reference.
#include "abikit/dwarf_info.h"

namespace abikit::dwarf {

namespace {

enum class Group : uint8_t {
  None,
  LANG,
  ATE,
  CC,
  ACCESS,
  VIRTUALITY,
  VIS,
  ID,
  INL,
  ORD,
  DS,
  END,
  DEFAULTED
};

Group groupOf(uint16_t attr) {
  switch (attr) {
  case DW_AT_language:
  case DW_AT_APPLE_runtime_class:
    return Group::LANG;
  case DW_AT_encoding:
    return Group::ATE;
  case DW_AT_calling_convention:
    return Group::CC;
  case DW_AT_accessibility:
    return Group::ACCESS;
  case DW_AT_virtuality:
    return Group::VIRTUALITY;
  case DW_AT_visibility:
    return Group::VIS;
  case DW_AT_identifier_case:
    return Group::ID;
  case DW_AT_inline:
    return Group::INL;
  case DW_AT_ordering:
    return Group::ORD;
  case DW_AT_decimal_sign:
    return Group::DS;
  case DW_AT_endianity:
    return Group::END;
  case DW_AT_defaulted:
    return Group::DEFAULTED;
  default:
    return Group::None;
  }
}

struct ValueName {
  Group group;
  uint16_t code;
  std::string_view name;
};

constexpr ValueName kValueNames[] = {
#define ABIKIT_DW_LANG(n, c, lb) {Group::LANG, c, "DW_LANG_" #n},
#define ABIKIT_DW_ENUM(g, n, c) {Group::g, c, "DW_" #g "_" #n},
#include "abikit/dwarf_values.def"
};

struct LangBound {
  uint16_t code;
  int8_t lower_bound;
};
constexpr LangBound kLangBounds[] = {
#define ABIKIT_DW_LANG(n, c, lb) {c, lb},
#define ABIKIT_DW_ENUM(g, n, c)
#include "abikit/dwarf_values.def"
};

} // namespace

std::string_view attrValueName(uint16_t attr, uint64_t value) {
  const Group g = groupOf(attr);
  if (g == Group::None || value > 0xffff) return {};
  for (const ValueName& v : kValueNames)
    if (v.group == g && v.code == value) return v.name;
  return {};
}

std::optional<uint64_t> languageLowerBound(uint64_t language) {
  for (const LangBound& l : kLangBounds)
    if (l.code == language)
      return l.lower_bound < 0 ? std::nullopt : std::optional<uint64_t>(l.lower_bound);
  return std::nullopt;
}

HeteroAttrCodes heteroAttrCodes(HeteroAttrPreset preset) {
  HeteroAttrCodes c;
  switch (preset) {
  case HeteroAttrPreset::Llvm:
    // What upstream LLVM assigned (llvm-dwarfdump-22 names these codes).
    c.memory_space = 0x3e0f;
    c.address_space = 0x3e10;
    c.lanes = 0x3e11;
    c.lane_pc = 0x3e12;
    c.vector_size = 0x3e13;
    break;
  case HeteroAttrPreset::RocmLegacy:
    c.active_lane = 0x3e08;
    c.augmentation = 0x3e09;
    c.lanes = 0x3e0a;
    c.lane_pc = 0x3e0b;
    c.vector_size = 0x3e0c;
    break;
  case HeteroAttrPreset::None:
    break;
  }
  return c;
}

std::string_view HeteroAttrCodes::nameOf(uint16_t attr) const {
  if (attr < 0x2000) return {}; // every preset's codes are vendor codes (0x2000-0x3fff)
  if (attr == lanes) return "DW_AT_LLVM_lanes";
  if (attr == lane_pc) return "DW_AT_LLVM_lane_pc";
  if (attr == active_lane) return "DW_AT_LLVM_active_lane";
  if (attr == vector_size) return "DW_AT_LLVM_vector_size";
  if (attr == augmentation) return "DW_AT_LLVM_augmentation";
  if (attr == iterations) return "DW_AT_LLVM_iterations";
  if (attr == address_space) return "DW_AT_LLVM_address_space";
  if (attr == memory_space) return "DW_AT_LLVM_memory_space";
  return {};
}

} // namespace abikit::dwarf
