// Internal: the number formatting of the call frame information files (messages and the
// llvm-dwarfdump-22 text).
#pragma once

#include <charconv>
#include <cstddef>
#include <cstdint>
#include <string>

namespace abikit::dwarf::detail {

/// Lowercase hexadecimal, at least `width` digits ("%0*llx").
inline void appendHex(std::string& out, uint64_t v, int width = 0) {
  char buf[24];
  auto r = std::to_chars(buf, buf + sizeof buf, v, 16);
  for (ptrdiff_t n = r.ptr - buf; n < width; ++n) out += '0';
  out.append(buf, r.ptr);
}

/// "0x1a"
inline std::string hexString(uint64_t v) {
  std::string s = "0x";
  appendHex(s, v);
  return s;
}

template <typename T> void appendDecimal(std::string& out, T v) {
  char buf[24];
  auto r = std::to_chars(buf, buf + sizeof buf, v);
  out.append(buf, r.ptr);
}

} // namespace abikit::dwarf::detail
