// The one reader of ELF bytes (after gimli's EndianSlice): a bounded slice of bytes in one byte
// order. It reads u8/u16/u32/u64, ELF-class words, ULEB128/SLEB128 values and NUL-terminated
// strings, at an offset or advancing a position, and checks every read against the slice's end.
// The callers check ranges first where the error must say which field is wrong; a read the
// caller did not check that leaves the slice is an Error at the file offset of the read.
#pragma once

#include "abikit/diag.h"
#include "abikit/elf.h"

#include <cstdint>
#include <cstring>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace abikit::detail {

class EndianSlice {
public:
  EndianSlice() = default;
  /// `bytes` in big- or little-endian order. `name` (the file) and `base_offset` (the file offset
  /// of bytes[0]) make the errors; `name` must outlive the slice.
  EndianSlice(std::span<const uint8_t> bytes, bool big_endian, std::string_view name = {},
              uint64_t base_offset = 0)
      : data_(bytes.data()), size_(bytes.size()), base_(base_offset), name_(name),
        big_(big_endian) {}

  bool bigEndian() const { return big_; }
  const uint8_t* data() const { return data_; }
  uint64_t size() const { return size_; }
  uint64_t position() const { return pos_; }
  uint64_t remaining() const { return size_ - pos_; }
  bool empty() const { return pos_ == size_; }
  /// The file offset of the next byte.
  uint64_t offset() const { return base_ + pos_; }
  /// `n` more bytes can be read at the position / at `at`.
  bool has(uint64_t n) const { return n <= size_ - pos_; }
  bool hasAt(uint64_t at, uint64_t n) const { return at <= size_ && n <= size_ - at; }

  // ----- at an offset from the slice's start (the position does not move) -----

  uint8_t u8At(uint64_t at) const {
    need(at, 1);
    return data_[at];
  }
  uint16_t u16At(uint64_t at) const { return load<uint16_t>(at); }
  uint32_t u32At(uint64_t at) const { return load<uint32_t>(at); }
  uint64_t u64At(uint64_t at) const { return load<uint64_t>(at); }
  /// An ELF-class-sized field: 8 bytes in ELF64, 4 in ELF32.
  uint64_t wordAt(uint64_t at, bool is64) const { return is64 ? u64At(at) : u32At(at); }
  /// An unsigned value of `n` (at most 8) bytes.
  uint64_t uintAt(uint64_t at, uint64_t n) const {
    need(at, n);
    uint64_t v = 0;
    for (uint64_t i = 0; i < n && i < 8; ++i) {
      const uint64_t byte = data_[at + (big_ ? n - 1 - i : i)];
      v |= byte << (8 * i);
    }
    return v;
  }
  /// The slice [at, at + n) of this one (the same byte order and file).
  EndianSlice sub(uint64_t at, uint64_t n) const {
    need(at, n);
    return EndianSlice({data_ + at, size_t(n)}, big_, name_, base_ + at);
  }

  // ----- advancing -----

  uint8_t u8() { return advance(1, u8At(pos_)); }
  uint16_t u16() { return advance(2, u16At(pos_)); }
  uint32_t u32() { return advance(4, u32At(pos_)); }
  uint64_t u64() { return advance(8, u64At(pos_)); }
  uint64_t word(bool is64) { return is64 ? u64() : u32(); }
  void skip(uint64_t n) {
    need(pos_, n);
    pos_ += n;
  }
  /// The next `n` bytes as a slice of their own; this one moves past them.
  EndianSlice take(uint64_t n) {
    EndianSlice s = sub(pos_, n);
    pos_ += n;
    return s;
  }

  enum class Leb { Ok, Truncated, TooBig };
  /// A ULEB128 / SLEB128 value that fits in 64 bits. Unless Ok, the position does not move.
  Leb uleb(uint64_t& value) { return leb(false, value); }
  Leb sleb(int64_t& value) {
    uint64_t v = 0;
    Leb r = leb(true, v);
    if (r == Leb::Ok) value = int64_t(v);
    return r;
  }
  /// A NUL-terminated string (without its NUL); std::nullopt, the position unmoved, when the
  /// slice has no NUL after the position.
  std::optional<std::string_view> cstr() {
    const void* nul = std::memchr(data_ + pos_, 0, size_t(size_ - pos_));
    if (!nul) return std::nullopt;
    const char* s = reinterpret_cast<const char*>(data_ + pos_);
    const size_t n = size_t(static_cast<const uint8_t*>(nul) - (data_ + pos_));
    pos_ += n + 1;
    return std::string_view(s, n);
  }

private:
  void need(uint64_t at, uint64_t n) const {
    if (!hasAt(at, n)) [[unlikely]]
      outOfRange(at, n);
  }
  [[noreturn]] [[gnu::cold]] [[gnu::noinline]] void outOfRange(uint64_t at, uint64_t n) const {
    throw Error::atOffset("read of " + std::to_string(n) + " bytes past the end of the data (" +
                              std::to_string(size_) + " bytes from offset " +
                              std::to_string(base_) + ")",
                          std::string(name_), base_ + at);
  }
  Leb leb(bool is_signed, uint64_t& value) {
    uint64_t v = 0;
    unsigned shift = 0;
    for (uint64_t p = pos_;; shift += 7) {
      if (p >= size_) return Leb::Truncated;
      const uint8_t b = data_[p++];
      // The 10th byte holds bit 63 only: its other value bits are 0 (ULEB128) or repeat the
      // sign (SLEB128), and it ends the value.
      if (shift >= 64 || (shift == 63 && (is_signed ? b != 0 && b != 0x7f : (b & 0x7e) != 0)))
        return Leb::TooBig;
      v |= uint64_t(b & 0x7f) << shift;
      if (!(b & 0x80)) {
        if (is_signed && shift < 57 && (b & 0x40)) v |= ~uint64_t(0) << (shift + 7);
        pos_ = p;
        value = v;
        return Leb::Ok;
      }
    }
  }
  template <class T> T load(uint64_t at) const {
    need(at, sizeof(T));
    T v;
    std::memcpy(&v, data_ + at, sizeof(T));
    if (big_) {
      if constexpr (sizeof(T) == 2)
        v = T((v >> 8) | (v << 8));
      else if constexpr (sizeof(T) == 4)
        v = __builtin_bswap32(v);
      else
        v = __builtin_bswap64(v);
    }
    return v;
  }
  template <class T> T advance(uint64_t n, T v) {
    pos_ += n;
    return v;
  }

  const uint8_t* data_ = nullptr;
  uint64_t size_ = 0;
  uint64_t pos_ = 0;
  uint64_t base_ = 0;
  std::string_view name_;
  bool big_ = false;
};

/// The whole file in its byte order.
inline EndianSlice fileBytes(const ElfFile& f) {
  return EndianSlice(f.bytes(), f.header().bigEndian(), f.name());
}

} // namespace abikit::detail
