// Call frame information: bytes → CIEs, FDEs and instructions (reference dwarf.md §4.1, DWARF 5
// §6.4.1 and §7.24, the LSB .eh_frame format). Two passes over the section: the first splits it
// into entries by their lengths and reads every CIE, the second reads the FDEs (so that a
// .debug_frame FDE may name a CIE after it). Every read is bounded by its entry; every error
// names the byte offset in the section of the field or instruction that fails.
#include "abikit/dwarf_cfi.h"
#include "bytes.h"
#include "cfi_internal.h"

#include <algorithm>
#include <array>
#include <limits>

namespace abikit::dwarf {

namespace {

using detail::ByteReader;
using detail::ReadStatus;
using O = CfaOperand;

// The instruction table, written once: code, name, operands.
constexpr CfaInfo kCfa[] = {
    {Cfa::nop, "DW_CFA_nop", {O::None, O::None, O::None}},
    {Cfa::set_loc, "DW_CFA_set_loc", {O::Address, O::None, O::None}},
    {Cfa::advance_loc1, "DW_CFA_advance_loc1", {O::CodeDelta, O::None, O::None}},
    {Cfa::advance_loc2, "DW_CFA_advance_loc2", {O::CodeDelta, O::None, O::None}},
    {Cfa::advance_loc4, "DW_CFA_advance_loc4", {O::CodeDelta, O::None, O::None}},
    {Cfa::offset_extended, "DW_CFA_offset_extended", {O::Register, O::FactoredU, O::None}},
    {Cfa::restore_extended, "DW_CFA_restore_extended", {O::Register, O::None, O::None}},
    {Cfa::undefined, "DW_CFA_undefined", {O::Register, O::None, O::None}},
    {Cfa::same_value, "DW_CFA_same_value", {O::Register, O::None, O::None}},
    {Cfa::register_, "DW_CFA_register", {O::Register, O::Register, O::None}},
    {Cfa::remember_state, "DW_CFA_remember_state", {O::None, O::None, O::None}},
    {Cfa::restore_state, "DW_CFA_restore_state", {O::None, O::None, O::None}},
    {Cfa::def_cfa, "DW_CFA_def_cfa", {O::Register, O::Offset, O::None}},
    {Cfa::def_cfa_register, "DW_CFA_def_cfa_register", {O::Register, O::None, O::None}},
    {Cfa::def_cfa_offset, "DW_CFA_def_cfa_offset", {O::Offset, O::None, O::None}},
    {Cfa::def_cfa_expression, "DW_CFA_def_cfa_expression", {O::Expression, O::None, O::None}},
    {Cfa::expression, "DW_CFA_expression", {O::Register, O::Expression, O::None}},
    {Cfa::offset_extended_sf, "DW_CFA_offset_extended_sf", {O::Register, O::FactoredS, O::None}},
    {Cfa::def_cfa_sf, "DW_CFA_def_cfa_sf", {O::Register, O::FactoredS, O::None}},
    {Cfa::def_cfa_offset_sf, "DW_CFA_def_cfa_offset_sf", {O::FactoredS, O::None, O::None}},
    {Cfa::val_offset, "DW_CFA_val_offset", {O::Register, O::FactoredU, O::None}},
    {Cfa::val_offset_sf, "DW_CFA_val_offset_sf", {O::Register, O::FactoredS, O::None}},
    {Cfa::val_expression, "DW_CFA_val_expression", {O::Register, O::Expression, O::None}},
    {Cfa::GNU_args_size, "DW_CFA_GNU_args_size", {O::Offset, O::None, O::None}},
    {Cfa::GNU_negative_offset_extended,
     "DW_CFA_GNU_negative_offset_extended",
     {O::Register, O::FactoredNeg, O::None}},
    {Cfa::LLVM_def_aspace_cfa,
     "DW_CFA_LLVM_def_aspace_cfa",
     {O::Register, O::Offset, O::AddressSpace}},
    {Cfa::LLVM_def_aspace_cfa_sf,
     "DW_CFA_LLVM_def_aspace_cfa_sf",
     {O::Register, O::FactoredS, O::AddressSpace}},
    {Cfa::advance_loc, "DW_CFA_advance_loc", {O::CodeDelta, O::None, O::None}},
    {Cfa::offset, "DW_CFA_offset", {O::Register, O::FactoredU, O::None}},
    {Cfa::restore, "DW_CFA_restore", {O::Register, O::None, O::None}},
};

struct CfaTable {
  std::array<int16_t, 256> index{};
  CfaTable() {
    index.fill(-1);
    for (size_t i = 0; i < std::size(kCfa); ++i) index[size_t(kCfa[i].op)] = int16_t(i);
  }
};

const CfaTable& cfaTable() {
  static const CfaTable kTable;
  return kTable;
}

using detail::hexString;

std::string cfiErrorMessage(CfiErrorKind kind, CfiSectionKind section, uint64_t offset,
                            const std::string& detail) {
  return std::string(cfiErrorKindName(kind)) + " at byte " + std::to_string(offset) + " (" +
         hexString(offset) + ") of " + std::string(cfiSectionName(section)) + ": " + detail;
}

// Whether `aug` is the bracket grammar of vendor augmentations (reference dwarf.md §4.1, §7.30),
// "[vendor:vX.Y(:options)]" repeated, with vendors abikit knows (AMD's; they add no fields).
bool knownVendorAugmentation(std::string_view aug) {
  if (aug.empty()) return false;
  while (!aug.empty()) {
    if (aug[0] != '[') return false;
    size_t close = aug.find(']');
    if (close == std::string_view::npos) return false;
    std::string_view group = aug.substr(1, close - 1);
    aug.remove_prefix(close + 1);
    size_t colon = group.find(':');
    if (colon == std::string_view::npos) return false;
    std::string_view vendor = group.substr(0, colon);
    if (vendor != "amd" && vendor != "amdgpu") return false;
    std::string_view rest = group.substr(colon + 1);
    std::string_view version = rest.substr(0, rest.find(':'));
    if (version.size() < 4 || version[0] != 'v') return false;
    size_t dot = version.find('.');
    if (dot == std::string_view::npos || dot < 2 || dot + 1 == version.size()) return false;
    for (size_t i = 1; i < version.size(); ++i)
      if (i != dot && (version[i] < '0' || version[i] > '9')) return false;
  }
  return true;
}

// A pending FDE of the first pass.
struct PendingFde {
  uint64_t offset, length, id, id_offset, body, end;
  bool dwarf64;
  uint32_t index;
};

class Parser {
public:
  Parser(std::span<const uint8_t> bytes, const CfiFormat& format, CfiSection& out)
      : bytes_(bytes), f_(format), out_(out) {}

  void run() {
    uint64_t off = 0;
    std::vector<PendingFde> fdes;
    while (off < bytes_.size()) {
      ByteReader r = readerAt(off, bytes_.size());
      uint64_t len32 = 0;
      if (r.fixed(4, len32) != ReadStatus::Ok)
        fail(CfiErrorKind::IllFormed, off, "the length of an entry runs past the end");
      bool dwarf64 = false;
      uint64_t length = len32;
      if (len32 == 0xffffffff) {
        dwarf64 = true;
        if (r.fixed(8, length) != ReadStatus::Ok)
          fail(CfiErrorKind::IllFormed, off, "the 64-bit length of an entry runs past the end");
      } else if (len32 >= 0xfffffff0) {
        fail(CfiErrorKind::IllFormed, off, "reserved length " + hexString(len32));
      }
      if (length == 0) { // the zero terminator (LSB); nothing after it is read
        out_.entries.push_back({CfiEntryKind::Terminator, 0, off});
        break;
      }
      uint64_t body = r.pos();
      if (length > bytes_.size() - body)
        fail(CfiErrorKind::IllFormed, off,
             "an entry of " + std::to_string(length) + " bytes runs past the end of the section (" +
                 std::to_string(bytes_.size() - body) + " bytes left)");
      uint64_t end = body + length;
      r.setLimit(size_t(end));
      bool eh = f_.section == CfiSectionKind::EhFrame;
      unsigned id_size = dwarf64 && !eh ? 8 : 4;
      uint64_t id = 0;
      if (r.fixed(id_size, id) != ReadStatus::Ok)
        fail(CfiErrorKind::IllFormed, body, "the CIE id or pointer runs past the end of the entry");
      uint64_t cie_id = eh ? 0 : dwarf64 ? ~uint64_t(0) : 0xffffffff;
      if (id == cie_id) {
        out_.entries.push_back({CfiEntryKind::Cie, uint32_t(out_.cies.size()), off});
        cie(r, off, length, dwarf64, end);
      } else {
        uint32_t index = uint32_t(fdes.size());
        out_.entries.push_back({CfiEntryKind::Fde, index, off});
        fdes.push_back({off, length, id, body, r.pos(), end, dwarf64, index});
      }
      off = end;
    }
    out_.fdes.resize(fdes.size());
    for (const PendingFde& p : fdes) fde(p);
  }

private:
  [[noreturn]] void fail(CfiErrorKind kind, uint64_t at, std::string detail) const {
    throw CfiError(kind, f_.section, at, std::move(detail));
  }

  ByteReader readerAt(uint64_t pos, uint64_t limit) const {
    ByteReader r(bytes_, f_.endian);
    r.skip(pos);
    r.setLimit(size_t(limit));
    return r;
  }

  // A read of a header field: Truncated and Overflow become IllFormed at the field.
  void check(ReadStatus s, uint64_t at, const char* what, const char* entry) const {
    if (s == ReadStatus::Ok) return;
    if (s == ReadStatus::Truncated)
      fail(CfiErrorKind::IllFormed, at, std::string(what) + " runs past the end of the " + entry);
    fail(CfiErrorKind::IllFormed, at, std::string(what) + " does not fit in 64 bits");
  }

  // The format nibble and application of a pointer encoding; IllFormed for a format nibble no
  // one defines, Unsupported for applications abikit does not compute.
  void checkEncoding(uint8_t enc, uint64_t at, bool allow_indirect, const char* what) const {
    if (enc == eh_pe::omit) return;
    switch (enc & 0x0f) {
    case eh_pe::absptr:
    case eh_pe::uleb128:
    case eh_pe::udata2:
    case eh_pe::udata4:
    case eh_pe::udata8:
    case eh_pe::sleb128:
    case eh_pe::sdata2:
    case eh_pe::sdata4:
    case eh_pe::sdata8:
      break;
    default:
      fail(CfiErrorKind::IllFormed, at,
           std::string(what) + ": pointer encoding " + hexString(enc) + " has no value format " +
               hexString(enc & 0x0f));
    }
    uint8_t app = enc & 0x70;
    if (app == eh_pe::funcrel || app == eh_pe::aligned)
      fail(CfiErrorKind::Unsupported, at,
           std::string(what) + ": pointer encoding " + hexString(enc) +
               (app == eh_pe::funcrel ? " (DW_EH_PE_funcrel)" : " (DW_EH_PE_aligned)") +
               " is not supported");
    if (app > eh_pe::aligned)
      fail(CfiErrorKind::IllFormed, at,
           std::string(what) + ": pointer encoding " + hexString(enc) + " has no application " +
               hexString(app));
    if ((enc & eh_pe::indirect) && !allow_indirect)
      fail(CfiErrorKind::Unsupported, at,
           std::string(what) + ": pointer encoding " + hexString(enc) +
               " is DW_EH_PE_indirect: the address would have to be read from memory");
  }

  // An encoded pointer at r.pos(). `apply`: add the base of the application (pcrel, datarel,
  // textrel); an address range is the value format alone.
  uint64_t pointer(ByteReader& r, uint8_t enc, uint8_t address_size, bool apply, const char* what,
                   const char* entry) const {
    uint64_t at = r.pos();
    uint64_t v = 0;
    ReadStatus st = ReadStatus::Ok;
    auto sext = [&](unsigned n) {
      unsigned shift = 64 - 8 * n;
      v = uint64_t(int64_t(v << shift) >> shift);
    };
    switch (enc & 0x0f) {
    case eh_pe::absptr:
      st = r.fixed(address_size, v);
      break;
    case eh_pe::uleb128:
      st = r.uleb(v);
      break;
    case eh_pe::udata2:
      st = r.fixed(2, v);
      break;
    case eh_pe::udata4:
      st = r.fixed(4, v);
      break;
    case eh_pe::udata8:
      st = r.fixed(8, v);
      break;
    case eh_pe::sleb128: {
      int64_t s = 0;
      st = r.sleb(s);
      v = uint64_t(s);
      break;
    }
    case eh_pe::sdata2:
      st = r.fixed(2, v);
      sext(2);
      break;
    case eh_pe::sdata4:
      st = r.fixed(4, v);
      sext(4);
      break;
    case eh_pe::sdata8:
      st = r.fixed(8, v);
      break;
    }
    check(st, at, what, entry);
    if (!apply) return v;
    switch (enc & 0x70) {
    case eh_pe::pcrel:
      return v + f_.section_address + at;
    case eh_pe::datarel:
      if (!f_.data_base)
        fail(CfiErrorKind::Evaluation, at,
             std::string(what) + " is DW_EH_PE_datarel and no data base was given");
      return v + *f_.data_base;
    case eh_pe::textrel:
      if (!f_.text_base)
        fail(CfiErrorKind::Evaluation, at,
             std::string(what) + " is DW_EH_PE_textrel and no text base was given");
      return v + *f_.text_base;
    default:
      return v;
    }
  }

  void cie(ByteReader& r, uint64_t offset, uint64_t length, bool dwarf64, uint64_t end) {
    CfiCie c;
    c.offset = offset;
    c.length = length;
    c.dwarf64 = dwarf64;
    const char* entry = "CIE";
    uint64_t at = r.pos();
    uint64_t v = 0;
    check(r.fixed(1, v), at, "the version", entry);
    c.version = uint8_t(v);
    if (v != 1 && v != 3 && v != 4)
      fail(CfiErrorKind::IllFormed, at, "CIE version " + std::to_string(v) + " is not 1, 3 or 4");
    at = r.pos();
    const uint8_t* s = r.data() + r.pos();
    const uint8_t* nul = std::find(s, r.data() + r.size(), uint8_t(0));
    if (nul == r.data() + r.size())
      fail(CfiErrorKind::IllFormed, at, "the augmentation string runs past the end of the CIE");
    c.augmentation = std::string_view(reinterpret_cast<const char*>(s), size_t(nul - s));
    r.skip(c.augmentation.size() + 1);
    std::string_view aug = c.augmentation;
    c.z_augmentation = !aug.empty() && aug[0] == 'z';
    bool eh_aug = aug == "eh";
    c.understood = aug.empty() || c.z_augmentation || eh_aug || knownVendorAugmentation(aug);
    c.address_size = f_.address_size;
    if (c.understood && c.version >= 4) {
      at = r.pos();
      check(r.fixed(1, v), at, "the address size", entry);
      if (v != 4 && v != 8)
        fail(CfiErrorKind::Unsupported, at,
             "CIE address size " + std::to_string(v) + " is not supported (4 or 8)");
      c.address_size = uint8_t(v);
      at = r.pos();
      check(r.fixed(1, v), at, "the segment selector size", entry);
      c.segment_selector_size = uint8_t(v);
      if (v != 0)
        fail(CfiErrorKind::Unsupported, at,
             "segment selectors (size " + std::to_string(v) + ") are not supported");
    }
    if (c.understood && eh_aug) {
      uint64_t p = 0;
      check(r.fixed(c.address_size, p), r.pos(), "the \"eh\" augmentation's pointer", entry);
      c.eh_data = p;
    }
    if (c.understood) {
      at = r.pos();
      check(r.uleb(c.code_alignment_factor), at, "the code alignment factor", entry);
      at = r.pos();
      check(r.sleb(c.data_alignment_factor), at, "the data alignment factor", entry);
      at = r.pos();
      if (c.version == 1)
        check(r.fixed(1, c.return_address_register), at, "the return address register", entry);
      else
        check(r.uleb(c.return_address_register), at, "the return address register", entry);
    }
    if (c.understood && c.z_augmentation) zAugmentation(r, c, end);
    c.instructions_offset = r.pos();
    c.instructions_size = end - r.pos();
    c.first_instruction = uint32_t(out_.instructions.size());
    if (c.understood) instructions(r, c, dwarf64, end, entry);
    c.instruction_count = uint32_t(out_.instructions.size() - c.first_instruction);
    out_.cies.push_back(c);
  }

  // "z" then R, P, L, S, B, G (LSB; B and G are AArch64's, with no data). A letter abikit does
  // not know makes the CIE one it does not understand (its instructions are not read).
  void zAugmentation(ByteReader& r, CfiCie& c, uint64_t end) {
    const char* entry = "CIE";
    uint64_t at = r.pos();
    uint64_t n = 0;
    check(r.uleb(n), at, "the augmentation data length", entry);
    if (n > r.left())
      fail(CfiErrorKind::IllFormed, at,
           "augmentation data of " + std::to_string(n) + " bytes runs past the end of the CIE");
    uint64_t data = r.pos(), data_end = data + n;
    c.augmentation_data = bytes_.subspan(size_t(data), size_t(n));
    r.setLimit(size_t(data_end));
    const char* what = "the augmentation data";
    for (size_t i = 1; i < c.augmentation.size() && c.understood; ++i) {
      uint64_t e = 0;
      switch (c.augmentation[i]) {
      case 'R':
        at = r.pos();
        check(r.fixed(1, e), at, what, "augmentation data");
        checkEncoding(uint8_t(e), at, false, "the FDE pointer encoding ('R')");
        if (e == eh_pe::omit)
          fail(CfiErrorKind::IllFormed, at, "the FDE pointer encoding ('R') is DW_EH_PE_omit");
        c.fde_encoding = uint8_t(e);
        break;
      case 'L':
        at = r.pos();
        check(r.fixed(1, e), at, what, "augmentation data");
        checkEncoding(uint8_t(e), at, true, "the LSDA pointer encoding ('L')");
        c.lsda_encoding = uint8_t(e);
        break;
      case 'P':
        at = r.pos();
        check(r.fixed(1, e), at, what, "augmentation data");
        checkEncoding(uint8_t(e), at, true, "the personality pointer encoding ('P')");
        c.personality_encoding = uint8_t(e);
        if (e != eh_pe::omit)
          c.personality = pointer(r, uint8_t(e), c.address_size, true, "the personality pointer",
                                  "augmentation data");
        break;
      case 'S':
        c.signal_frame = true;
        break;
      case 'B':
      case 'G':
        break;
      case 'z':
        fail(CfiErrorKind::IllFormed, c.offset,
             "augmentation \"" + std::string(c.augmentation) + "\": 'z' is not the first letter");
      default:
        c.understood = false;
        break;
      }
    }
    r.setLimit(size_t(end));
    r.skip(data_end - r.pos());
  }

  void fde(const PendingFde& p) {
    CfiFde& d = out_.fdes[p.index];
    d.offset = p.offset;
    d.length = p.length;
    d.dwarf64 = p.dwarf64;
    d.cie_pointer = p.id;
    const char* entry = "FDE";
    bool eh = f_.section == CfiSectionKind::EhFrame;
    uint64_t cie_offset = p.id;
    if (eh) {
      if (p.id > p.id_offset)
        fail(CfiErrorKind::IllFormed, p.id_offset,
             "CIE pointer " + hexString(p.id) + " points before the start of the section");
      cie_offset = p.id_offset - p.id;
    }
    auto it = std::lower_bound(out_.cies.begin(), out_.cies.end(), cie_offset,
                               [](const CfiCie& c, uint64_t o) { return c.offset < o; });
    if (it == out_.cies.end() || it->offset != cie_offset)
      fail(CfiErrorKind::IllFormed, p.id_offset,
           "CIE pointer " + hexString(p.id) + " names no CIE (offset " + hexString(cie_offset) +
               ")");
    d.cie = uint32_t(it - out_.cies.begin());
    const CfiCie& c = *it;
    ByteReader r = readerAt(p.body, p.end);
    d.instructions_offset = p.end;
    d.first_instruction = uint32_t(out_.instructions.size());
    if (!c.understood) {
      // DWARF lets a reader that does not understand the augmentation read an FDE's address
      // and range in .debug_frame (they are plain addresses there); nothing else.
      d.opaque = true;
      if (!eh) {
        check(r.fixed(c.address_size, d.initial_location), r.pos(), "the initial location", entry);
        check(r.fixed(c.address_size, d.address_range), r.pos(), "the address range", entry);
      }
      return;
    }
    d.initial_location =
        pointer(r, c.fde_encoding, c.address_size, true, "the initial location", entry);
    d.address_range = pointer(r, c.fde_encoding, c.address_size, false, "the address range", entry);
    if (c.z_augmentation) {
      uint64_t at = r.pos(), n = 0;
      check(r.uleb(n), at, "the augmentation data length", entry);
      if (n > r.left())
        fail(CfiErrorKind::IllFormed, at,
             "augmentation data of " + std::to_string(n) + " bytes runs past the end of the FDE");
      uint64_t data_end = r.pos() + n;
      d.augmentation_data = bytes_.subspan(r.pos(), size_t(n));
      r.setLimit(size_t(data_end));
      if (c.lsda_encoding != eh_pe::omit)
        d.lsda = pointer(r, c.lsda_encoding, c.address_size, true, "the LSDA pointer",
                         "augmentation data");
      r.setLimit(size_t(p.end));
      r.skip(data_end - r.pos());
    }
    d.instructions_offset = r.pos();
    d.instructions_size = p.end - r.pos();
    instructions(r, c, p.dwarf64, p.end, entry);
    d.instruction_count = uint32_t(out_.instructions.size() - d.first_instruction);
  }

  void instructions(ByteReader& r, const CfiCie& c, bool dwarf64, uint64_t end, const char* entry) {
    const CfaTable& table = cfaTable();
    ExprFormat ef = cfiExprFormat(out_, c, dwarf64);
    while (r.pos() < end) {
      CfiInstruction in;
      in.offset = r.pos();
      uint64_t code = 0;
      r.fixed(1, code);
      uint8_t primary = uint8_t(code) & 0xc0;
      int16_t k = table.index[primary ? primary : size_t(code)];
      if (k < 0)
        fail(CfiErrorKind::IllFormed, in.offset,
             "unknown call frame instruction " + hexString(code) + " in a " + entry);
      const CfaInfo& info = kCfa[size_t(k)];
      in.op = info.op;
      for (int i = 0; i < 3; ++i) {
        if (i == 0 && primary) {
          in.operand[0] = code & 0x3f;
          continue;
        }
        operand(r, info, i, in, c, ef, entry);
      }
      out_.instructions.push_back(in);
    }
  }

  void operand(ByteReader& r, const CfaInfo& info, int i, CfiInstruction& in, const CfiCie& c,
               const ExprFormat& ef, const char* entry) {
    std::string what = std::string(info.name) + ": an operand";
    ReadStatus st = ReadStatus::Ok;
    switch (info.operand[i]) {
    case O::None:
      return;
    case O::Register:
    case O::Offset:
    case O::FactoredU:
    case O::FactoredNeg:
    case O::AddressSpace:
      st = r.uleb(in.operand[i]);
      break;
    case O::FactoredS: {
      int64_t s = 0;
      st = r.sleb(s);
      in.operand[i] = uint64_t(s);
      break;
    }
    case O::CodeDelta: {
      unsigned n = in.op == Cfa::advance_loc1 ? 1 : in.op == Cfa::advance_loc2 ? 2 : 4;
      st = r.fixed(n, in.operand[i]);
      break;
    }
    case O::Address: {
      // .debug_frame: an address; .eh_frame: a pointer in the FDE encoding (as libgcc reads it).
      in.operand[i] = pointer(r, c.fde_encoding, c.address_size, true, what.c_str(), entry);
      return;
    }
    case O::Expression: {
      uint64_t n = 0;
      st = r.uleb(n);
      if (st == ReadStatus::Ok && n > r.left()) st = ReadStatus::Truncated;
      if (st != ReadStatus::Ok) break;
      in.expr_offset = r.pos();
      in.expr_size = n;
      r.skip(n);
      try {
        decode(bytes_.subspan(size_t(in.expr_offset), size_t(n)), ef, scratch_);
      } catch (const ExprError& e) {
        fail(CfiErrorKind::IllFormed, in.expr_offset + e.position(),
             std::string(info.name) + ": its expression (at byte " +
                 std::to_string(in.expr_offset) + "): " + e.message());
      }
      return;
    }
    }
    if (st == ReadStatus::Truncated)
      fail(CfiErrorKind::IllFormed, in.offset, what + " runs past the end of the " + entry);
    if (st == ReadStatus::Overflow)
      fail(CfiErrorKind::IllFormed, in.offset, what + " does not fit in 64 bits");
  }

  std::span<const uint8_t> bytes_;
  const CfiFormat& f_;
  CfiSection& out_;
  Expression scratch_;
};

} // namespace

std::string_view cfiSectionName(CfiSectionKind k) {
  return k == CfiSectionKind::EhFrame ? ".eh_frame" : ".debug_frame";
}

std::string_view cfiErrorKindName(CfiErrorKind k) {
  switch (k) {
  case CfiErrorKind::IllFormed:
    return "IllFormed";
  case CfiErrorKind::Evaluation:
    return "Evaluation";
  case CfiErrorKind::Unsupported:
    return "Unsupported";
  }
  return "?";
}

CfiError::CfiError(CfiErrorKind kind, CfiSectionKind section, uint64_t offset, std::string detail)
    : Error(Error::atBufferOffset(kind == CfiErrorKind::Unsupported ? ErrorKind::Unsupported
                                                                    : ErrorKind::Input,
                                  cfiErrorMessage(kind, section, offset, detail), offset)),
      cfi_kind_(kind) {}

const CfaInfo* cfaInfo(uint8_t code) {
  uint8_t primary = code & 0xc0;
  int16_t k = cfaTable().index[primary ? primary : code];
  return k < 0 ? nullptr : &kCfa[size_t(k)];
}

const CfaInfo& cfaInfo(Cfa op) {
  return kCfa[size_t(cfaTable().index[size_t(op)])];
}

const CfiFde* CfiSection::findFde(uint64_t pc) const {
  for (const CfiFde& f : fdes)
    if (f.contains(pc)) return &f;
  return nullptr;
}

ExprFormat cfiExprFormat(const CfiSection& s, const CfiCie& cie, bool dwarf64) {
  ExprFormat f;
  f.encoding = s.format.encoding;
  f.address_size = cie.address_size;
  f.offset_size = dwarf64 ? 8 : 4;
  f.endian = s.format.endian;
  return f;
}

CfiSection parseCfi(std::span<const uint8_t> bytes, const CfiFormat& format) {
  if (format.address_size != 4 && format.address_size != 8)
    throw Error(ErrorKind::Input, "CFI address size " + std::to_string(format.address_size) +
                                      " is not supported (4 or 8)");
  if (bytes.size() > std::numeric_limits<uint32_t>::max())
    throw Error(ErrorKind::Input, "a CFI section of 4 GiB or more is not supported");
  CfiSection s;
  s.format = format;
  s.bytes = bytes;
  Parser(bytes, s.format, s).run();
  return s;
}

} // namespace abikit::dwarf
