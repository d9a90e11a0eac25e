// Test-side writer of .debug_frame / .eh_frame bytes: fixed-size fields in either byte order,
// LEB128s, strings, and entries whose length is patched when they end. Used by the CFI unit
// tests, the differential test's hand-written sections and the fuzzer's seeds. Header-only.
#pragma once

#include "abikit/target.h"

#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <string_view>
#include <vector>

namespace abikit::test {

class CfiBuilder {
public:
  explicit CfiBuilder(Endian endian = Endian::Little) : endian_(endian) {}

  std::vector<uint8_t> bytes;

  size_t size() const { return bytes.size(); }
  CfiBuilder& u8(uint64_t v) { return fixed(1, v); }
  CfiBuilder& u16(uint64_t v) { return fixed(2, v); }
  CfiBuilder& u32(uint64_t v) { return fixed(4, v); }
  CfiBuilder& u64(uint64_t v) { return fixed(8, v); }
  CfiBuilder& fixed(unsigned n, uint64_t v) {
    for (unsigned i = 0; i < n; ++i) {
      unsigned shift = endian_ == Endian::Little ? 8 * i : 8 * (n - 1 - i);
      bytes.push_back(uint8_t(v >> shift));
    }
    return *this;
  }
  CfiBuilder& uleb(uint64_t v) {
    do {
      uint8_t b = v & 0x7f;
      v >>= 7;
      bytes.push_back(v ? uint8_t(b | 0x80) : b);
    } while (v);
    return *this;
  }
  CfiBuilder& sleb(int64_t v) {
    while (true) {
      uint8_t b = uint8_t(v & 0x7f);
      v >>= 7;
      bool done = (v == 0 && !(b & 0x40)) || (v == -1 && (b & 0x40));
      bytes.push_back(done ? b : uint8_t(b | 0x80));
      if (done) return *this;
    }
  }
  CfiBuilder& str(std::string_view s) {
    bytes.insert(bytes.end(), s.begin(), s.end());
    bytes.push_back(0);
    return *this;
  }
  CfiBuilder& raw(std::initializer_list<uint8_t> b) {
    bytes.insert(bytes.end(), b.begin(), b.end());
    return *this;
  }
  CfiBuilder& raw(const std::vector<uint8_t>& b) {
    bytes.insert(bytes.end(), b.begin(), b.end());
    return *this;
  }

  /// Starts an entry (its length field); end() patches the length. Returns the entry's offset.
  size_t begin(bool dwarf64 = false) {
    size_t at = bytes.size();
    if (dwarf64) {
      u32(0xffffffff);
      u64(0);
    } else {
      u32(0);
    }
    open_.push_back({at, dwarf64});
    return at;
  }
  /// Pads with DW_CFA_nop to a multiple of `align` bytes (counting the length field), then
  /// patches the length.
  void end(size_t align = 1) {
    Open o = open_.back();
    open_.pop_back();
    while ((bytes.size() - o.at) % align) bytes.push_back(0);
    size_t field = o.dwarf64 ? 12 : 4;
    uint64_t length = bytes.size() - o.at - field;
    std::vector<uint8_t> saved;
    saved.swap(bytes);
    if (o.dwarf64) {
      fixed(8, length);
      std::copy(bytes.begin(), bytes.end(), saved.begin() + std::ptrdiff_t(o.at + 4));
    } else {
      fixed(4, length);
      std::copy(bytes.begin(), bytes.end(), saved.begin() + std::ptrdiff_t(o.at));
    }
    bytes.swap(saved);
  }

private:
  struct Open {
    size_t at;
    bool dwarf64;
  };
  Endian endian_;
  std::vector<Open> open_;
};

} // namespace abikit::test
