// Text helpers of the dumps laid out like llvm-dwarfdump's (src/emit/dwarf_*_dump.cpp): hex and
// decimal numbers written straight into a string (the dumps write millions of them), and
// raw_ostream::write_escaped, and LLVM's spelling of constants it has no name for.
#pragma once

#include <bit>
#include <charconv>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

namespace abikit::detail {

// The 8 hex digits of x, most significant first, as 8 bytes (one nibble a byte, then ASCII).
inline uint64_t hex8(uint32_t x) {
  uint64_t y = x;
  y = ((y & 0xffff0000ull) << 16) | (y & 0xffffull);
  y = ((y & 0x0000ff000000ff00ull) << 8) | (y & 0x000000ff000000ffull);
  y = ((y & 0x00f000f000f000f0ull) << 4) | (y & 0x000f000f000f000full);
  const uint64_t letters = ((y + 0x0606060606060606ull) >> 4) & 0x0101010101010101ull;
  y += 0x3030303030303030ull + letters * ('a' - '0' - 10);
  if constexpr (std::endian::native == std::endian::little) y = __builtin_bswap64(y);
  return y;
}

// "0x" and at least `width` lowercase hex digits (printf's "0x%0*llx").
inline void hexTo(std::string& out, uint64_t v, int width) {
  int digits = v ? (67 - std::countl_zero(v)) / 4 : 1;
  if (digits < width) digits = width;
  char b[18];
  b[0] = '0';
  b[1] = 'x';
  const uint64_t lo = hex8(uint32_t(v));
  if (digits <= 8) {
    char all[8];
    std::memcpy(all, &lo, 8);
    std::memcpy(b + 2, all + 8 - digits, size_t(digits));
  } else {
    char all[16];
    const uint64_t hi = hex8(uint32_t(v >> 32));
    std::memcpy(all, &hi, 8);
    std::memcpy(all + 8, &lo, 8);
    std::memcpy(b + 2, all + 16 - digits, size_t(digits));
  }
  out.append(b, size_t(2 + digits));
}

inline void decTo(std::string& out, uint64_t v) {
  char b[20];
  out.append(b, size_t(std::to_chars(b, b + 20, v).ptr - b));
}

inline void decTo(std::string& out, int64_t v) {
  char b[21];
  out.append(b, size_t(std::to_chars(b, b + 21, v).ptr - b));
}

inline std::string hexStr(uint64_t v, int width = 1) {
  std::string s;
  hexTo(s, v, width);
  return s;
}

// LLVM's spelling of a constant it has no name for: "DW_TAG_unknown_4a0b" (hex, no "0x").
inline void unknownNameTo(std::string& out, std::string_view prefix, uint64_t v) {
  out += prefix;
  out += "_unknown_";
  hexTo(out, v, 1);
  out.erase(out.size() - size_t((67 - std::countl_zero(v | 1)) / 4) - 2, 2);
}

// `name`, or the unknown spelling above when it is empty.
inline std::string nameOr(std::string_view name, std::string_view prefix, uint64_t v) {
  if (!name.empty()) return std::string(name);
  std::string s;
  unknownNameTo(s, prefix, v);
  return s;
}

// raw_ostream::write_escaped: \\ \t \n \" and octal escapes for what is not printable.
inline void escapedTo(std::string& out, std::string_view s) {
  for (unsigned char c : s) {
    switch (c) {
    case '\\':
      out += "\\\\";
      break;
    case '\t':
      out += "\\t";
      break;
    case '\n':
      out += "\\n";
      break;
    case '"':
      out += "\\\"";
      break;
    default:
      if (c >= 0x20 && c < 0x7f) {
        out += char(c);
      } else {
        out += '\\';
        out += char('0' + ((c >> 6) & 7));
        out += char('0' + ((c >> 3) & 7));
        out += char('0' + (c & 7));
      }
    }
  }
}

} // namespace abikit::detail
