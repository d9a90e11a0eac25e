// Internal: fast number formatting and the per-relocation facts shared by the ELF writers.
#pragma once

#include "abikit/elf.h"

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

namespace abikit::detail {

/// Appends to a std::string through a raw cursor: reserve once, write many small pieces.
class FastOut {
public:
  explicit FastOut(std::string& s) : s_(s) {}
  /// Makes room for at least `n` more bytes.
  char* room(size_t n) {
    size_t used = s_.size();
    if (s_.capacity() - used < n) s_.reserve(std::max(s_.capacity() * 2, used + n + 4096));
    s_.resize(used + n);
    return s_.data() + used;
  }
  void commit(char* end) { s_.resize(size_t(end - s_.data())); }
  std::string& str() { return s_; }

private:
  std::string& s_;
};

inline char* putHex(char* p, uint64_t v, int width) {
  static const char kHex[] = "0123456789abcdef";
  for (int i = width - 1; i >= 0; --i) {
    p[i] = kHex[v & 15];
    v >>= 4;
  }
  return p + width;
}

/// Hex without leading zeros (at least one digit).
inline char* putHexMin(char* p, uint64_t v) {
  int digits = 1;
  for (uint64_t x = v >> 4; x; x >>= 4) ++digits;
  return putHex(p, v, digits);
}

inline char* putDec(char* p, uint64_t v) {
  char buf[24];
  int n = 0;
  do {
    buf[n++] = char('0' + v % 10);
    v /= 10;
  } while (v);
  while (n) *p++ = buf[--n];
  return p;
}

/// Right-aligned decimal in `width` columns.
inline char* putDecRight(char* p, uint64_t v, int width) {
  char buf[24];
  char* e = putDec(buf, v);
  int n = int(e - buf);
  for (int i = n; i < width; ++i) *p++ = ' ';
  std::memcpy(p, buf, size_t(n));
  return p + n;
}

inline char* putStr(char* p, std::string_view s) {
  if (s.empty()) return p; // s.data() may be null
  std::memcpy(p, s.data(), s.size());
  return p + s.size();
}

/// Left-aligned string padded to `width` (at least one space after it).
inline char* putPadded(char* p, std::string_view s, size_t width) {
  p = putStr(p, s);
  for (size_t i = s.size(); i < width; ++i) *p++ = ' ';
  return p;
}

/// The name shown for a relocation's symbol: the symbol name, or for a section symbol without a
/// name the section's name.
inline std::string_view relocationSymbolName(const ElfFile& f, const ElfSymbol& s) {
  if (s.name.empty() && s.type() == kSttSection && s.shndx < f.sections().size())
    return f.sections()[s.shndx].name;
  return s.name;
}

} // namespace abikit::detail
