// Lookups in a target's DWARF data (DwarfTargetInfo) by name. The data itself is in each
// family's file; the lookups by number are DwarfTargetInfo's (target.cpp).
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

int64_t dwarfRegisterNumber(const DwarfTargetInfo& d, std::string_view name) {
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
    if (d.findRegister(reg) == &r) return reg;
  }
  return -1;
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
  const DwarfAddressSpace* s = d.findSpace(id);
  if (!s) return id == 0 ? "global" : std::to_string(id);
  return s->count == 1 ? std::string(s->name)
                       : std::string(s->name) + std::to_string(id - s->first);
}

} // namespace abikit
