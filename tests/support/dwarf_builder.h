// Test-side writer of DWARF debug-information sections: a unit (DWARF 4 or 5, 32- or 64-bit)
// in .debug_info with its abbreviation table, and the .debug_loclists / .debug_loc,
// .debug_str_offsets, .debug_str and .debug_addr contributions its DIEs refer to. Each section
// gets its own made-up file offset, so that errors can be checked by offset. Header-only; the
// byte writing is CfiBuilder's.
#pragma once

#include "abikit/dwarf_info.h"
#include "cfi_builder.h"

#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

namespace abikit::test {

class DwarfBuilder {
public:
  struct Spec {
    uint16_t name, form;
    int64_t implicit_const = 0;
  };

  DwarfBuilder(unsigned version, bool dwarf64, uint8_t address_size)
      : version_(version), offset_size_(dwarf64 ? 8 : 4), address_size_(address_size) {
    unitHeader(info_, version >= 5 ? 1 : 0);
    if (version >= 5) {
      info_.u8(1).u8(address_size); // DW_UT_compile
      info_.fixed(offset_size_, 0);
    } else {
      info_.fixed(offset_size_, 0).u8(address_size);
    }
  }

  // ----- .debug_abbrev
  void abbrev(uint64_t code, uint16_t tag, bool children, std::initializer_list<Spec> specs) {
    abbrev_.uleb(code).uleb(tag).u8(children ? 1 : 0);
    for (const Spec& s : specs) {
      abbrev_.uleb(s.name).uleb(s.form);
      if (s.form == dwarf::DW_FORM_implicit_const) abbrev_.sleb(s.implicit_const);
    }
    abbrev_.uleb(0).uleb(0);
  }
  void endAbbrevs() { abbrev_.uleb(0); }

  // ----- .debug_info: DIEs and attribute values in abbreviation order
  uint64_t here() const { return info_.size(); }
  DwarfBuilder& die(uint64_t code) {
    info_.uleb(code);
    return *this;
  }
  void end() { info_.u8(0); }
  DwarfBuilder& u8(uint64_t v) { return put(info_.u8(v)); }
  DwarfBuilder& u32(uint64_t v) { return put(info_.u32(v)); }
  DwarfBuilder& uleb(uint64_t v) { return put(info_.uleb(v)); }
  DwarfBuilder& sleb(int64_t v) { return put(info_.sleb(v)); }
  DwarfBuilder& addr(uint64_t v) { return put(info_.fixed(address_size_, v)); }
  DwarfBuilder& offset(uint64_t v) { return put(info_.fixed(offset_size_, v)); }
  DwarfBuilder& ref4(uint64_t absolute) { return u32(absolute); } // the unit starts at 0
  DwarfBuilder& string(const std::string& s) {
    for (char c : s) info_.u8(uint8_t(c));
    return u8(0);
  }
  DwarfBuilder& raw(const std::vector<uint8_t>& b) {
    info_.bytes.insert(info_.bytes.end(), b.begin(), b.end());
    return *this;
  }
  DwarfBuilder& exprloc(const std::vector<uint8_t>& e) { return uleb(e.size()).raw(e); }
  /// A location list reference: loclistx in DWARF 5, a .debug_loc offset before.
  DwarfBuilder& listRef(size_t i) { return version_ >= 5 ? uleb(i) : offset(list_starts_.at(i)); }
  void finishUnit() { patchLength(info_, 0); }

  // ----- .debug_loclists (DWARF 5)
  void loclistsHeader(size_t lists) {
    unitHeader(loclists_, 0);
    loclists_.u16(5).u8(address_size_).u8(0).u32(lists);
    base_ = loclists_.size();
    for (size_t i = 0; i < lists; ++i) loclists_.fixed(offset_size_, 0);
  }
  uint64_t loclistsBase() const { return base_; }
  void beginList(size_t i) {
    const uint64_t rel = loclists_.size() - base_;
    for (unsigned b = 0; b < offset_size_; ++b)
      loclists_.bytes[base_ + i * offset_size_ + b] = uint8_t(rel >> (8 * b));
  }
  void lleOffsetPair(uint64_t b, uint64_t e, const std::vector<uint8_t>& x) {
    loclists_.u8(4).uleb(b).uleb(e);
    counted(x);
  }
  void lleStartLength(uint64_t b, uint64_t n, const std::vector<uint8_t>& x) {
    loclists_.u8(8).fixed(address_size_, b).uleb(n);
    counted(x);
  }
  void lleEnd() {
    loclists_.u8(0);
    patchLength(loclists_, 0);
  }

  // ----- .debug_loc (DWARF 2-4)
  void beginLocList() { list_starts_.push_back(loc_.size()); }
  void locPair(uint64_t b, uint64_t e, const std::vector<uint8_t>& x) {
    loc_.fixed(address_size_, b).fixed(address_size_, e).u16(x.size());
    loc_.bytes.insert(loc_.bytes.end(), x.begin(), x.end());
  }
  void locBase(uint64_t base) {
    loc_.fixed(address_size_,
               address_size_ >= 8 ? ~uint64_t(0) : (uint64_t(1) << (8 * address_size_)) - 1)
        .fixed(address_size_, base);
  }
  void locEnd() { loc_.fixed(address_size_, 0).fixed(address_size_, 0); }

  // ----- .debug_str_offsets / .debug_str and .debug_addr (DWARF 5): each returns its base
  uint64_t strOffsets(const std::vector<std::string>& strings) {
    unitHeader(str_offsets_, 0);
    str_offsets_.u16(5).u16(0);
    const uint64_t base = str_offsets_.size();
    for (const std::string& s : strings) {
      str_offsets_.fixed(offset_size_, str_.size());
      for (char c : s) str_.u8(uint8_t(c));
      str_.u8(0);
    }
    patchLength(str_offsets_, 0);
    return base;
  }
  uint64_t addrTable(const std::vector<uint64_t>& addresses) {
    unitHeader(addr_, 0);
    addr_.u16(5).u8(address_size_).u8(0);
    const uint64_t base = addr_.size();
    for (uint64_t a : addresses) addr_.fixed(address_size_, a);
    patchLength(addr_, 0);
    return base;
  }

  const std::vector<uint8_t>& infoBytes() const { return info_.bytes; }
  const std::vector<uint8_t>& abbrevBytes() const { return abbrev_.bytes; }

  /// The sections, with made-up file offsets (0x100, 0x10000, 0x20000, ...).
  dwarf::DebugSections sections() const {
    dwarf::DebugSections s;
    s.file = "built.o";
    s.info = {info_.bytes, 0x100, 0};
    s.abbrev = {abbrev_.bytes, 0x10000, 0};
    s.loclists = {loclists_.bytes, 0x20000, 0};
    s.loc = {loc_.bytes, 0x30000, 0};
    s.str = {str_.bytes, 0x40000, 0};
    s.str_offsets = {str_offsets_.bytes, 0x50000, 0};
    s.addr = {addr_.bytes, 0x60000, 0};
    return s;
  }

private:
  DwarfBuilder& put(CfiBuilder&) { return *this; }
  void unitHeader(CfiBuilder& b, int) {
    if (offset_size_ == 8) b.u32(0xffffffffu);
    b.fixed(offset_size_, 0); // patched by patchLength
    if (&b == &info_) b.u16(version_);
  }
  void patchLength(CfiBuilder& b, size_t at) {
    const size_t field = offset_size_ == 8 ? at + 4 : at;
    const uint64_t n = b.size() - field - offset_size_;
    for (unsigned i = 0; i < offset_size_; ++i) b.bytes[field + i] = uint8_t(n >> (8 * i));
  }
  void counted(const std::vector<uint8_t>& x) {
    loclists_.uleb(x.size());
    loclists_.bytes.insert(loclists_.bytes.end(), x.begin(), x.end());
  }

  unsigned version_;
  unsigned offset_size_;
  uint8_t address_size_;
  uint64_t base_ = 0;
  std::vector<uint64_t> list_starts_;
  CfiBuilder info_, abbrev_, loclists_, loc_, str_, str_offsets_, addr_;
};

} // namespace abikit::test
