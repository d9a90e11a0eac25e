// Internal: the bounded byte reader and the LEB128 codec of the DWARF module (reference dwarf.md
// §1.1). A reader never reads past its end: every read reports failure instead (modelled on
// gimli's EndianSlice). The ELF module's attribute parser has its own ULEB128 reader bound to
// ElfFile errors; this one is the core library's and knows nothing of files.
#pragma once

#include "abikit/target.h"

#include <cstdint>
#include <span>
#include <vector>

namespace abikit::dwarf::detail {

enum class ReadStatus : uint8_t { Ok, Truncated, Overflow };

class ByteReader {
public:
  ByteReader(std::span<const uint8_t> bytes, Endian endian)
      : full_(bytes), bytes_(bytes), endian_(endian) {}

  size_t pos() const { return pos_; }
  size_t size() const { return bytes_.size(); }
  size_t fullSize() const { return full_.size(); }
  /// Reads stop at `end` (at most the size) until the limit is set again.
  void setLimit(size_t end) { bytes_ = full_.first(end < full_.size() ? end : full_.size()); }
  size_t left() const { return bytes_.size() - pos_; }
  bool atEnd() const { return pos_ >= bytes_.size(); }
  const uint8_t* data() const { return bytes_.data(); }

  /// A fixed-size unsigned integer of `n` (1..8) bytes in the reader's byte order.
  ReadStatus fixed(unsigned n, uint64_t& value) {
    if (left() < n) return ReadStatus::Truncated;
    value = 0;
    for (unsigned i = 0; i < n; ++i) {
      unsigned shift = endian_ == Endian::Little ? 8 * i : 8 * (n - 1 - i);
      value |= uint64_t(bytes_[pos_ + i]) << shift;
    }
    pos_ += n;
    return ReadStatus::Ok;
  }

  /// Unsigned LEB128. Redundant padding (0x80 0x00) is accepted; bits past 64 must be zero.
  ReadStatus uleb(uint64_t& value) {
    value = 0;
    unsigned shift = 0;
    size_t p = pos_;
    bool overflow = false;
    while (true) {
      if (p >= bytes_.size()) return ReadStatus::Truncated;
      uint8_t b = bytes_[p++];
      uint64_t group = b & 0x7f;
      if (shift < 64) {
        if (shift > 57 && (group >> (64 - shift)) != 0) overflow = true;
        value |= group << shift;
      } else if (group != 0) {
        overflow = true;
      }
      shift += shift < 64 ? 7 : 0;
      if (!(b & 0x80)) break;
    }
    if (overflow) return ReadStatus::Overflow;
    pos_ = p;
    return ReadStatus::Ok;
  }

  /// Signed LEB128, sign-extended; every bit from bit 63 on must be the same (the sign).
  ReadStatus sleb(int64_t& value) {
    uint64_t v = 0;
    size_t p = pos_;
    size_t k = 0;  // index of the byte
    int high = -1; // the bits from bit 63 on (0x00 or 0x7f) once the tenth byte is read
    bool overflow = false;
    uint8_t b = 0;
    do {
      if (p >= bytes_.size()) return ReadStatus::Truncated;
      b = bytes_[p++];
      uint8_t group = b & 0x7f;
      if (k < 9) {
        v |= uint64_t(group) << (7 * k);
      } else if (k == 9) {
        if (group != 0 && group != 0x7f) overflow = true;
        high = group;
        v |= uint64_t(group & 1) << 63;
      } else if (group != high) {
        overflow = true;
      }
      ++k;
    } while (b & 0x80);
    if (overflow) return ReadStatus::Overflow;
    if (k <= 9 && (b & 0x40)) v |= ~uint64_t(0) << (7 * k);
    value = int64_t(v);
    pos_ = p;
    return ReadStatus::Ok;
  }

  bool skip(uint64_t n) {
    if (left() < n) return false;
    pos_ += size_t(n);
    return true;
  }

private:
  std::span<const uint8_t> full_;
  std::span<const uint8_t> bytes_;
  Endian endian_;
  size_t pos_ = 0;
};

inline void writeUleb(std::vector<uint8_t>& out, uint64_t v) {
  do {
    uint8_t b = v & 0x7f;
    v >>= 7;
    out.push_back(v ? uint8_t(b | 0x80) : b);
  } while (v);
}

inline void writeSleb(std::vector<uint8_t>& out, int64_t v) {
  while (true) {
    uint8_t b = uint8_t(v & 0x7f);
    v >>= 7; // arithmetic shift
    bool done = (v == 0 && !(b & 0x40)) || (v == -1 && (b & 0x40));
    out.push_back(done ? b : uint8_t(b | 0x80));
    if (done) return;
  }
}

inline void writeFixed(std::vector<uint8_t>& out, unsigned n, uint64_t v, Endian endian) {
  for (unsigned i = 0; i < n; ++i) {
    unsigned shift = endian == Endian::Little ? 8 * i : 8 * (n - 1 - i);
    out.push_back(uint8_t(v >> shift));
  }
}

} // namespace abikit::dwarf::detail
