// Internal: a checked cursor over one debug section for the debug-information reader. Every read
// that would pass the end (or the limit set for the current unit) throws abikit::Error with the
// file offset, through DebugInfo::fail.
#pragma once

#include "abikit/dwarf_info.h"
#include "bytes.h"

#include <string>
#include <string_view>

namespace abikit::dwarf::detail {

class Cursor {
public:
  Cursor(const DebugInfo& info, const SectionBytes& section, std::string_view name,
         uint64_t pos = 0)
      : info_(info), section_(section), name_(name), r_(section.bytes, info.sections().endian) {
    seek(pos);
  }

  uint64_t pos() const { return r_.pos(); }
  void seek(uint64_t pos) {
    if (pos > section_.bytes.size())
      fail(pos, "offset 0x" + hex(pos) + " is past the section's end");
    r_ = ByteReader(section_.bytes, info_.sections().endian);
    r_.setLimit(limit_);
    r_.skip(pos);
    if (r_.pos() != pos) fail(pos, "offset 0x" + hex(pos) + " is past the end of its unit");
  }
  /// Reads stop at `end` (a unit's or list's end).
  void limit(uint64_t end) {
    limit_ = end;
    uint64_t p = r_.pos();
    r_ = ByteReader(section_.bytes, info_.sections().endian);
    r_.setLimit(end);
    r_.skip(p);
  }
  bool atEnd() const { return r_.atEnd(); }
  uint64_t left() const { return r_.left(); }

  uint64_t fixed(unsigned n, const char* what) {
    uint64_t v = 0;
    if (r_.fixed(n, v) != ReadStatus::Ok) truncated(what);
    return v;
  }
  uint8_t u8(const char* what) { return uint8_t(fixed(1, what)); }
  uint64_t uleb(const char* what) {
    uint64_t v = 0;
    ReadStatus st = r_.uleb(v);
    if (st == ReadStatus::Truncated) truncated(what);
    if (st == ReadStatus::Overflow) fail(pos(), std::string(what) + ": a LEB128 over 64 bits");
    return v;
  }
  int64_t sleb(const char* what) {
    int64_t v = 0;
    ReadStatus st = r_.sleb(v);
    if (st == ReadStatus::Truncated) truncated(what);
    if (st == ReadStatus::Overflow) fail(pos(), std::string(what) + ": a LEB128 over 64 bits");
    return v;
  }
  std::span<const uint8_t> bytes(uint64_t n, const char* what) {
    if (r_.left() < n) truncated(what);
    std::span<const uint8_t> out = section_.bytes.subspan(r_.pos(), size_t(n));
    r_.skip(n);
    return out;
  }
  /// A NUL-terminated string (the NUL is consumed, not returned).
  std::string_view cstring(const char* what) {
    const uint8_t* p = r_.data() + r_.pos();
    const uint64_t n = r_.left();
    for (uint64_t i = 0; i < n; ++i)
      if (p[i] == 0) {
        r_.skip(i + 1);
        return {reinterpret_cast<const char*>(p), size_t(i)};
      }
    fail(pos(), std::string(what) + ": a string without its terminating NUL");
  }

  [[noreturn]] void truncated(const char* what) const {
    fail(pos(), std::string(what) + " runs past the end of " +
                    (limit_ < section_.bytes.size() ? "its unit" : std::string(name_)));
  }
  /// A unit's initial length (DWARF 5 §7.4) at the current position: 4 bytes, or 0xffffffff and 8
  /// (sets `dwarf64`); a reserved value, or a length past the section's end, is an error naming
  /// `what` ("unit", "line table", ...). Afterwards reads stop at the unit's end, returned.
  uint64_t initialLength(const char* what, bool& dwarf64) {
    const uint64_t at = pos();
    uint64_t length = fixed(4, "the unit length");
    dwarf64 = length == 0xffffffffu;
    if (dwarf64)
      length = fixed(8, "the 64-bit unit length");
    else if (length >= 0xfffffff0u)
      fail(at, "reserved unit length 0x" + hex(length));
    if (length > left())
      fail(at, std::string(what) + " of 0x" + hex(length) + " bytes runs past the section's end");
    const uint64_t end = pos() + length;
    limit(end);
    return end;
  }
  [[noreturn]] void fail(uint64_t at, std::string message) const {
    info_.fail(section_, name_, at, std::move(message));
  }
  static std::string hex(uint64_t v);

private:
  const DebugInfo& info_;
  const SectionBytes& section_;
  std::string_view name_;
  uint64_t limit_ = ~uint64_t(0);
  ByteReader r_;
};

/// A NUL-terminated string at `offset` of a string section.
std::string_view stringAt(const DebugInfo& info, const SectionBytes& s, std::string_view name,
                          uint64_t offset, const SectionBytes& from, std::string_view from_name,
                          uint64_t at);

} // namespace abikit::dwarf::detail
