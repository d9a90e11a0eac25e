// Lookups in a target's DWARF data (DwarfTargetInfo): registers and address spaces by number and
// by name. The data itself is in each family's file.
#include "abikit/target.h"

#include <cctype>
#include <charconv>

namespace abikit {

namespace {

bool startsWithNoCase(std::string_view s, std::string_view prefix) {
  if (s.size() < prefix.size()) return false;
  for (size_t i = 0; i < prefix.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(s[i])) !=
        std::tolower(static_cast<unsigned char>(prefix[i])))
      return false;
  return true;
}

// A decimal number with no sign and no leading zero (but "0"), or nullopt.
bool decimal(std::string_view s, uint64_t& v) {
  if (s.empty() || (s.size() > 1 && s[0] == '0')) return false;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  return ec == std::errc() && p == s.data() + s.size();
}

} // namespace

const DwarfRegisterRange* findDwarfRegister(const DwarfTargetInfo& d, uint32_t reg, uint32_t lanes,
                                            unsigned address_bits) {
  for (const DwarfRegisterRange& r : d.registers) {
    if (reg < r.first || reg - r.first >= r.count) continue;
    switch (r.mode) {
    case DwarfRegMode::Any:
      return &r;
    case DwarfRegMode::Wave32:
      return lanes == 32 ? &r : nullptr;
    case DwarfRegMode::Wave64:
      return lanes == 64 ? &r : nullptr;
    case DwarfRegMode::Proc32:
      return address_bits == 32 ? &r : nullptr;
    case DwarfRegMode::Proc64:
      return address_bits == 64 ? &r : nullptr;
    }
  }
  return nullptr;
}

int64_t dwarfRegisterNumber(const DwarfTargetInfo& d, std::string_view name, uint32_t lanes,
                            unsigned address_bits) {
  for (const DwarfRegisterRange& r : d.registers) {
    if (!startsWithNoCase(name, r.prefix)) continue;
    std::string_view rest = name.substr(r.prefix.size());
    uint32_t reg = r.first;
    if (r.numbered) {
      uint64_t n = 0;
      if (!decimal(rest, n) || n < r.index0 || n - r.index0 >= r.count) continue;
      reg = r.first + uint32_t(n - r.index0);
    } else if (!rest.empty()) {
      continue;
    }
    if (findDwarfRegister(d, reg, lanes, address_bits) == &r) return reg;
  }
  return -1;
}

std::string dwarfRegisterName(const DwarfRegisterRange& r, uint32_t reg) {
  std::string s(r.prefix);
  if (r.numbered) s += std::to_string(reg - r.first + r.index0);
  return s;
}

const DwarfAddressSpace* findDwarfSpace(const DwarfTargetInfo& d, uint32_t id) {
  for (const DwarfAddressSpace& s : d.spaces)
    if (id >= s.first && id - s.first < s.count) return &s;
  return nullptr;
}

int64_t dwarfSpaceNumber(const DwarfTargetInfo& d, std::string_view name) {
  uint64_t v = 0;
  if (decimal(name, v)) return v <= UINT32_MAX ? int64_t(v) : -1;
  for (const DwarfAddressSpace& s : d.spaces) {
    if (s.count == 1) {
      if (name == s.name) return s.first;
    } else if (name.substr(0, s.name.size()) == s.name && decimal(name.substr(s.name.size()), v) &&
               v < s.count) {
      return s.first + int64_t(v);
    }
  }
  if (name == "global" || name == "none") return 0; // the default space of every target
  return -1;
}

std::string dwarfSpaceName(const DwarfTargetInfo& d, uint32_t id) {
  const DwarfAddressSpace* s = findDwarfSpace(d, id);
  if (!s) return id == 0 ? "global" : std::to_string(id);
  return s->count == 1 ? std::string(s->name)
                       : std::string(s->name) + std::to_string(id - s->first);
}

} // namespace abikit
