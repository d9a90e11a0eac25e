// DWARF call frame information against llvm-dwarfdump-22. Two kinds of seeded programs:
//
//  - directive programs: functions whose CFI is written with the assembler's .cfi_* directives
//    (def_cfa, def_cfa_register, def_cfa_offset, adjust_cfa_offset, offset, rel_offset,
//    register, undefined, same_value, restore, remember_state, restore_state, val_offset,
//    llvm_def_aspace_cfa, return_column, signal_frame) and .cfi_escape for every other
//    instruction (the expression instructions with generated expressions, the _sf and extended
//    forms, restore_extended, GNU_args_size, LLVM_def_aspace_cfa(_sf) 0x30/0x31, advance_loc*,
//    set_loc), assembled by llvm-mc-22 into the .eh_frame or .debug_frame (32- and 64-bit DWARF)
//    of riscv64, riscv32 and amdgcn (gfx90a, gfx1030) objects;
//  - hand-written sections: .debug_frame and .eh_frame bytes with CIE versions 1, 3 and 4, the
//    augmentations "", "[amd:v0.0]", "zR", "zPLR", "zRS", ..., every .eh_frame pointer format
//    with and without pcrel, 32- and 64-bit DWARF, several CIEs, the zero terminator.
//
// abikit reads the section from the object with its ELF reader (applying the object's
// relocations to it, as llvm-dwarfdump does), parses it and prints it; the text must be
// llvm-dwarfdump-22's, line for line: entry headers, one line per instruction, one per row.
// The programs stay inside what both read the same; the known differences are checked one by
// one in KnownDivergences (docs/dwarf.md, "Call frame information").
// CI: 400 directive programs and 200 hand-written FDEs; tests/differential/run --count N for more.
#include "../support/cfi_builder.h"
#include "../support/dwarf_expr_gen.h"
#include "abikit/dwarf_cfi.h"
#include "abikit/elf.h"
#include "abikit/elf_target.h"
#include "oracle.h"

#include <array>
#include <gtest/gtest.h>
#include <random>
#include <sstream>

namespace {

using namespace abikit;
using namespace abikit::dwarf;

struct Config {
  const char* name;
  const char* mc_triple;
  const char* mcpu; // "" for none
  const char* target;
  CfiSectionKind section;
  bool dwarf64;
  uint8_t address_size;
  bool amdgpu;
};

const Config kConfigs[] = {
    {"riscv64-eh", "riscv64", "", "riscv64-unknown-elf", CfiSectionKind::EhFrame, false, 8, false},
    {"riscv64-debug", "riscv64", "", "riscv64-unknown-elf", CfiSectionKind::DebugFrame, false, 8,
     false},
    {"riscv64-debug64", "riscv64", "", "riscv64-unknown-elf", CfiSectionKind::DebugFrame, true, 8,
     false},
    {"riscv32-eh", "riscv32", "", "riscv32-unknown-elf", CfiSectionKind::EhFrame, false, 4, false},
    {"riscv32-debug", "riscv32", "", "riscv32-unknown-elf", CfiSectionKind::DebugFrame, false, 4,
     false},
    {"gfx90a-debug", "amdgcn-amd-amdhsa", "gfx90a", "amdgcn-amd-amdhsa", CfiSectionKind::DebugFrame,
     false, 8, true},
    {"gfx1030-debug64", "amdgcn-amd-amdhsa", "gfx1030", "amdgcn-amd-amdhsa",
     CfiSectionKind::DebugFrame, true, 8, true},
};

Target targetOf(const Config& c) {
  TargetOptions o;
  o.triple = c.target;
  o.mcpu = c.mcpu;
  return resolveTarget(o);
}

// ---------------------------------------------------------------------------------------------
// The generator of valid instructions

// DWARF register numbers: named and unnamed ones of each family, LEB128 boundaries, large ones
// (below 2^32: llvm-dwarfdump keeps register numbers in 32 bits).
const std::vector<uint64_t>& registers(bool amdgpu) {
  static const std::vector<uint64_t> kRiscv = {0,    1,    2,    5,    8,     9,     31,       32,
                                               40,   63,   64,   95,   96,    127,   128,      3072,
                                               3087, 4096, 7202, 8000, 16383, 16384, 0xfffffff};
  static const std::vector<uint64_t> kAmdgpu = {0,    1,    2,    15,   16,   17,   32,   33,
                                                63,   64,   95,   96,   1087, 1088, 1129, 1130,
                                                1536, 2048, 2560, 2600, 2815, 3072, 3327, 0x10000};
  return amdgpu ? kAmdgpu : kRiscv;
}

// The CFA state the generator keeps so that every program is valid for both readers.
enum class CfaKind : uint8_t { Unspecified, RegOffset, Expr };
struct GenState {
  CfaKind cfa = CfaKind::Unspecified;
  std::vector<CfaKind> saved; // remember_state
  uint64_t row = 0;           // the current row's address
  bool in_cie = false;
  bool set_loc = false; // set_loc reads an address_size address in both readers
  uint8_t address_size = 8;
};

class InstructionGen {
public:
  InstructionGen(uint64_t seed, const Config& c)
      : rng_(seed), amdgpu_(c.amdgpu), exprs_(seed, exprOptions(c)) {}

  std::mt19937_64& rng() { return rng_; }
  size_t pick(size_t n) { return n ? size_t(rng_() % n) : 0; }
  uint64_t reg() {
    const auto& r = registers(amdgpu_);
    return pick(4) == 0 ? pick(100000) : r[pick(r.size())];
  }
  // A factored operand n with |n × factor| < 2^31 (llvm-dwarfdump keeps row offsets in 32 bits).
  uint64_t factor() { return pick(3) == 0 ? pick(1 << 20) : pick(64); }
  int64_t sfactor() { return int64_t(factor()) * (pick(2) ? -1 : 1); }
  uint64_t offset() { return pick(3) == 0 ? pick(uint64_t(1) << 30) : pick(256); }
  uint64_t space() { return pick(4) == 0 ? pick(1000) : pick(8); }

  std::vector<uint8_t> expression() {
    std::vector<uint8_t> e = encode(exprs_.next(), format_);
    test::CfiBuilder b;
    b.uleb(e.size()).raw(e);
    return b.bytes;
  }

  // One valid instruction for the state (and the state after it).
  std::vector<uint8_t> instruction(GenState& st) {
    test::CfiBuilder b;
    format_.address_size = st.address_size;
    while (true) {
      switch (pick(26)) {
      case 0: {
        uint64_t r = pick(64);
        b.u8(0x80 | r).uleb(factor());
        return b.bytes;
      }
      case 1:
        b.u8(0x05).uleb(reg()).uleb(factor());
        return b.bytes;
      case 2:
        b.u8(0x11).uleb(reg()).sleb(sfactor());
        return b.bytes;
      case 3:
        b.u8(0x14).uleb(reg()).uleb(factor());
        return b.bytes;
      case 4:
        b.u8(0x15).uleb(reg()).sleb(sfactor());
        return b.bytes;
      case 5:
        if (st.in_cie) continue;
        b.u8(0xc0 | pick(64));
        return b.bytes;
      case 6:
        if (st.in_cie) continue;
        b.u8(0x06).uleb(reg());
        return b.bytes;
      case 7:
        b.u8(pick(2) ? 0x07 : 0x08).uleb(reg());
        return b.bytes;
      case 8:
        b.u8(0x09).uleb(reg()).uleb(reg());
        return b.bytes;
      case 9:
        b.u8(0x0a);
        st.saved.push_back(st.cfa);
        return b.bytes;
      case 10:
        if (st.saved.empty()) continue;
        b.u8(0x0b);
        st.cfa = st.saved.back();
        st.saved.pop_back();
        return b.bytes;
      case 11:
        b.u8(0x0c).uleb(reg()).uleb(offset());
        st.cfa = CfaKind::RegOffset;
        return b.bytes;
      case 12:
        b.u8(0x12).uleb(reg()).sleb(sfactor());
        st.cfa = CfaKind::RegOffset;
        return b.bytes;
      case 13:
        if (st.cfa != CfaKind::RegOffset) continue;
        b.u8(0x0d).uleb(reg());
        return b.bytes;
      case 14:
        if (st.cfa != CfaKind::RegOffset) continue;
        b.u8(0x0e).uleb(offset());
        return b.bytes;
      case 15:
        if (st.cfa != CfaKind::RegOffset) continue;
        b.u8(0x13).sleb(sfactor());
        return b.bytes;
      case 16:
        b.u8(0x0f).raw(expression());
        st.cfa = CfaKind::Expr;
        return b.bytes;
      case 17:
        b.u8(pick(2) ? 0x10 : 0x16).uleb(reg()).raw(expression());
        return b.bytes;
      case 18:
        b.u8(0x30).uleb(reg()).uleb(offset()).uleb(space());
        st.cfa = CfaKind::RegOffset;
        return b.bytes;
      case 19:
        b.u8(0x31).uleb(reg()).sleb(sfactor()).uleb(space());
        st.cfa = CfaKind::RegOffset;
        return b.bytes;
      case 20:
        b.u8(0x2e).uleb(offset());
        return b.bytes;
      case 21:
        b.u8(0x00);
        return b.bytes;
      case 22: { // advance_loc*: not in a CIE (its rows have no address in llvm-dwarfdump)
        if (st.in_cie) continue;
        uint64_t d = pick(64);
        switch (pick(4)) {
        case 0:
          b.u8(0x40 | d);
          break;
        case 1:
          d = pick(256);
          b.u8(0x02).u8(d);
          break;
        case 2:
          d = pick(65536);
          b.u8(0x03).u16(d);
          break;
        default:
          d = pick(1 << 20);
          b.u8(0x04).u32(d);
          break;
        }
        advanced_ += d;
        return b.bytes;
      }
      case 23: {
        if (st.in_cie || !st.set_loc) continue;
        uint64_t to = st.row + advanced_ * caf_ + 1 + pick(0x10000);
        b.u8(0x01).fixed(st.address_size, to);
        set_to_ = to;
        return b.bytes;
      }
      default:
        continue;
      }
    }
  }

  // The row address bookkeeping of set_loc and advance_loc: the generator adds the advances
  // (× the code alignment factor) and remembers a set_loc's address.
  void beginRowTracking(uint64_t caf) {
    caf_ = caf;
    advanced_ = 0;
    set_to_.reset();
  }
  void trackRow(GenState& st) {
    if (set_to_) {
      st.row = *set_to_;
    } else {
      st.row += advanced_ * caf_;
    }
    advanced_ = 0;
    set_to_.reset();
  }

private:
  static test::ExprGenOptions exprOptions(const Config& c) {
    test::ExprGenOptions o;
    o.format.address_size = c.address_size;
    o.format.offset_size = c.dwarf64 ? 8 : 4;
    o.max_ops = 4;
    // Operations llvm-dwarfdump-22 prints in CFI as abikit does: not the typed ones (it has no
    // unit to name base types), not call_ref/implicit_pointer (it decodes CFI expressions as
    // 32-bit DWARF), not entry_value (its ")"), not aspace_bregx (its displacement's sign), nor
    // the four it cannot decode. docs/dwarf.md lists them.
    for (Op op : test::encodableOps(o.format)) {
      switch (op) {
      case Op::const_type:
      case Op::deref_type:
      case Op::xderef_type:
      case Op::reinterpret:
      case Op::regval_type:
      case Op::convert:
      case Op::call_ref:
      case Op::implicit_pointer:
      case Op::entry_value:
      case Op::LLVM_aspace_bregx:
        break;
      default:
        o.only.push_back(op);
      }
    }
    return o;
  }

  std::mt19937_64 rng_;
  bool amdgpu_;
  test::ExprGenerator exprs_;
  ExprFormat format_;
  uint64_t caf_ = 1, advanced_ = 0;
  std::optional<uint64_t> set_to_;
};

std::string escape(const std::vector<uint8_t>& b) {
  std::string s = "\t.cfi_escape ";
  for (size_t i = 0; i < b.size(); ++i) s += (i ? ", " : "") + std::to_string(b[i]);
  return s + "\n";
}

// ---------------------------------------------------------------------------------------------
// Directive programs

// One function's assembly; `start` is its offset in .text; returns its size in bytes.
uint64_t directiveFunction(const Config& c, InstructionGen& g, uint64_t start, size_t index,
                           std::ostringstream& s, size_t& instructions) {
  const char* nop = c.amdgpu ? "\ts_nop 0\n" : "\tnop\n";
  const uint64_t caf = c.amdgpu ? 4 : 1;
  GenState st;
  st.cfa = c.amdgpu ? CfaKind::Unspecified : CfaKind::RegOffset; // the CIE llvm-mc writes
  st.row = start;
  st.set_loc = c.section == CfiSectionKind::DebugFrame;
  st.address_size = c.address_size;
  s << "f" << index << ":\n\t.cfi_startproc\n";
  if (g.pick(8) == 0) s << "\t.cfi_return_column " << g.pick(40) << "\n";
  if (c.section == CfiSectionKind::EhFrame && g.pick(8) == 0) s << "\t.cfi_signal_frame\n";
  if (c.amdgpu && g.pick(4)) {
    s << "\t.cfi_llvm_def_aspace_cfa " << g.reg() << ", " << g.offset() << ", " << g.space()
      << "\n";
    st.cfa = CfaKind::RegOffset;
  }
  uint64_t size = 0, pending = 0; // code bytes since the last directive
  size_t steps = g.pick(14);
  for (size_t i = 0; i < steps; ++i) {
    if (g.pick(3) == 0) {
      size_t n = 1 + g.pick(3);
      for (size_t k = 0; k < n; ++k) s << nop;
      size += 4 * n;
      pending += 4 * n;
      continue;
    }
    // llvm-mc advances the row to this directive's code position first.
    st.row += pending;
    pending = 0;
    ++instructions;
    bool reg_cfa = st.cfa == CfaKind::RegOffset;
    size_t k = g.pick(16);
    if ((k >= 1 && k <= 3 && !reg_cfa) || (k == 10 && st.saved.empty())) k = 13; // an escape
    switch (k) {
    case 0:
      s << "\t.cfi_def_cfa " << g.reg() << ", " << g.offset() << "\n";
      st.cfa = CfaKind::RegOffset;
      break;
    case 1:
      s << "\t.cfi_def_cfa_register " << g.reg() << "\n";
      break;
    case 2:
      s << "\t.cfi_def_cfa_offset " << g.offset() << "\n";
      break;
    case 3:
      s << "\t.cfi_adjust_cfa_offset " << g.pick(512) << "\n";
      break;
    case 4:
      s << "\t.cfi_offset " << g.reg() << ", " << 8 * g.sfactor() << "\n";
      break;
    case 5:
      s << "\t.cfi_rel_offset " << g.reg() << ", " << 8 * g.pick(64) << "\n";
      break;
    case 6:
      s << "\t.cfi_register " << g.reg() << ", " << g.reg() << "\n";
      break;
    case 7:
      s << (g.pick(2) ? "\t.cfi_undefined " : "\t.cfi_same_value ") << g.reg() << "\n";
      break;
    case 8:
      s << "\t.cfi_restore " << g.reg() << "\n";
      break;
    case 9:
      s << "\t.cfi_remember_state\n";
      st.saved.push_back(st.cfa);
      break;
    case 10:
      s << "\t.cfi_restore_state\n";
      st.cfa = st.saved.back();
      st.saved.pop_back();
      break;
    case 11:
      s << "\t.cfi_val_offset " << g.reg() << ", " << 8 * g.sfactor() << "\n";
      break;
    case 12:
      s << "\t.cfi_llvm_def_aspace_cfa " << g.reg() << ", " << g.offset() << ", " << g.space()
        << "\n";
      st.cfa = CfaKind::RegOffset;
      break;
    default:
      g.beginRowTracking(caf);
      s << escape(g.instruction(st));
      g.trackRow(st);
      break;
    }
  }
  for (size_t k = 0; k < 1 + g.pick(2); ++k) {
    s << nop;
    size += 4;
  }
  s << "\t.cfi_endproc\n";
  return size;
}

// ---------------------------------------------------------------------------------------------
// Hand-written sections

struct CieGen {
  uint64_t offset;
  bool dwarf64;
  uint64_t caf;
  uint8_t fde_encoding; // .eh_frame 'R' (0 when none)
  bool z;
  uint8_t lsda_encoding;
  GenState end; // the state after its initial instructions
};

// A value that `enc`'s format can hold (stored as is; pcrel is added by the reader).
uint64_t encodedValue(InstructionGen& g, uint8_t enc, uint8_t address_size) {
  switch (enc & 0x0f) {
  case eh_pe::udata2:
  case eh_pe::sdata2:
    return g.pick(0x8000);
  case eh_pe::udata4:
  case eh_pe::sdata4:
    return g.pick(0x80000000);
  case eh_pe::absptr:
    return address_size == 4 ? g.pick(0x80000000) : g.rng()() >> 8;
  default:
    return g.rng()() >> 12;
  }
}

void encodePointer(test::CfiBuilder& b, uint8_t enc, uint64_t v, uint8_t address_size) {
  switch (enc & 0x0f) {
  case eh_pe::absptr:
    b.fixed(address_size, v);
    break;
  case eh_pe::uleb128:
    b.uleb(v);
    break;
  case eh_pe::sleb128:
    b.sleb(int64_t(v));
    break;
  case eh_pe::udata2:
  case eh_pe::sdata2:
    b.u16(v);
    break;
  case eh_pe::udata4:
  case eh_pe::sdata4:
    b.u32(v);
    break;
  default:
    b.u64(v);
    break;
  }
}

// A section of `fdes` FDEs and the CIEs they use.
std::vector<uint8_t> handWritten(const Config& c, InstructionGen& g, size_t fdes,
                                 size_t& instructions) {
  const bool eh = c.section == CfiSectionKind::EhFrame;
  test::CfiBuilder b;
  std::vector<CieGen> cies;
  static const char* kEhAug[] = {"zR", "zPLR", "zRS", "zLR", "z", "zPR", "", "zSR", "zBR"};
  static const uint8_t kFormats[] = {eh_pe::absptr, eh_pe::udata2,  eh_pe::udata4,
                                     eh_pe::udata8, eh_pe::sdata2,  eh_pe::sdata4,
                                     eh_pe::sdata8, eh_pe::uleb128, eh_pe::sleb128};
  for (size_t made = 0; made < fdes;) {
    if (cies.empty() || g.pick(5) == 0) {
      CieGen k{};
      k.dwarf64 = g.pick(4) == 0;
      k.offset = b.begin(k.dwarf64);
      unsigned version = eh ? (g.pick(6) ? 1 : 3) : std::array<unsigned, 3>{1, 3, 4}[g.pick(3)];
      std::string aug =
          eh ? kEhAug[g.pick(std::size(kEhAug))] : (version == 4 && g.pick(2) ? "[amd:v0.0]" : "");
      if (eh)
        b.u32(0);
      else if (k.dwarf64)
        b.u64(~uint64_t(0));
      else
        b.u32(0xffffffff);
      b.u8(version).str(aug);
      if (version == 4) b.u8(c.address_size).u8(0);
      k.caf = std::array<uint64_t, 4>{1, 2, 4, 1}[g.pick(4)];
      b.uleb(k.caf).sleb(std::array<int64_t, 4>{-8, -4, 4, 1}[g.pick(4)]);
      if (version == 1)
        b.u8(g.pick(256));
      else
        b.uleb(g.pick(4) ? g.pick(64) : g.reg());
      k.z = !aug.empty() && aug[0] == 'z';
      k.lsda_encoding = eh_pe::omit;
      if (k.z) {
        test::CfiBuilder d;
        for (char ch : aug.substr(1)) {
          if (ch == 'R') {
            k.fde_encoding = kFormats[g.pick(std::size(kFormats))] | (g.pick(2) ? eh_pe::pcrel : 0);
            d.u8(k.fde_encoding);
          } else if (ch == 'L') {
            k.lsda_encoding = std::array<uint8_t, 4>{eh_pe::udata4, eh_pe::sdata4, eh_pe::absptr,
                                                     eh_pe::udata2}[g.pick(4)];
            d.u8(k.lsda_encoding);
          } else if (ch == 'P') {
            uint8_t enc = std::array<uint8_t, 4>{eh_pe::absptr, eh_pe::udata4, eh_pe::sdata8,
                                                 eh_pe::uleb128}[g.pick(4)];
            d.u8(enc);
            encodePointer(d, enc, encodedValue(g, enc, c.address_size), c.address_size);
          }
        }
        b.uleb(d.size()).raw(d.bytes);
      }
      GenState st;
      st.in_cie = true;
      st.address_size = c.address_size;
      if (g.pick(4)) {
        b.u8(0x0c).uleb(g.reg()).uleb(g.offset());
        st.cfa = CfaKind::RegOffset;
        ++instructions;
      }
      for (size_t i = g.pick(4); i > 0; --i, ++instructions) b.raw(g.instruction(st));
      st.saved.clear(); // the FDE's program has its own remember stack
      k.end = st;
      b.end(g.pick(2) ? 4 : 1);
      cies.push_back(k);
      continue;
    }
    const CieGen& k = cies[g.pick(cies.size())];
    b.begin(k.dwarf64);
    size_t field = b.size();
    if (eh)
      b.u32(field - k.offset);
    else
      b.fixed(k.dwarf64 ? 8 : 4, k.offset);
    uint8_t enc = eh ? k.fde_encoding : eh_pe::absptr;
    size_t loc_field = b.size();
    uint64_t stored = encodedValue(g, enc, c.address_size);
    encodePointer(b, enc, stored, c.address_size);
    uint64_t range = g.pick(0x1000);
    encodePointer(b, enc & 0x0f, range, c.address_size);
    if (k.z) {
      test::CfiBuilder d;
      if (k.lsda_encoding != eh_pe::omit)
        encodePointer(d, k.lsda_encoding, encodedValue(g, k.lsda_encoding, c.address_size),
                      c.address_size);
      b.uleb(d.size()).raw(d.bytes);
    }
    GenState st = k.end;
    st.in_cie = false;
    st.row = (enc & eh_pe::pcrel) ? stored + loc_field : stored; // stored values are positive
    st.set_loc = !eh || enc == eh_pe::absptr;
    g.beginRowTracking(k.caf);
    for (size_t i = g.pick(14); i > 0; --i, ++instructions) {
      b.raw(g.instruction(st));
      g.trackRow(st);
      g.beginRowTracking(k.caf);
    }
    b.end(g.pick(2) ? 4 : 1);
    ++made;
  }
  if (eh && g.pick(2)) b.u32(0);
  return b.bytes;
}

std::string sectionAssembly(const Config& c, const std::vector<uint8_t>& bytes) {
  std::ostringstream s;
  s << (c.section == CfiSectionKind::EhFrame ? "\t.section .eh_frame,\"a\",@progbits\n"
                                             : "\t.section .debug_frame,\"\",@progbits\n");
  for (size_t i = 0; i < bytes.size(); ++i)
    s << (i % 32 == 0 ? "\t.byte " : ",") << int(bytes[i])
      << (i % 32 == 31 || i + 1 == bytes.size() ? "\n" : "");
  return s.str();
}

// ---------------------------------------------------------------------------------------------
// Running both readers

struct Dumped {
  std::string llvm;   // llvm-dwarfdump-22's text of the section
  std::string abikit; // abikit's
  std::string llvm_errors;
  size_t abikit_row_errors = 0;
};

// The text llvm-dwarfdump-22 prints after "<section> contents:\n", up to the next section's
// header ("\n.eh_frame contents:"; no line of a CFI dump starts with a dot).
std::string llvmSection(const std::string& out, CfiSectionKind k) {
  std::string key = std::string(cfiSectionName(k)) + " contents:\n";
  size_t p = out.find(key);
  if (p == std::string::npos) return "<no " + key + ">";
  p += key.size();
  size_t e = out.find("\n.", p);
  return out.substr(p, e == std::string::npos ? std::string::npos : e - p);
}

// Applies the object's S + A and S + A - P relocations of `section` to `bytes` (what
// llvm-dwarfdump does for the debug sections of a relocatable object).
void relocate(const ElfFile& f, const ElfSection& section, std::vector<uint8_t>& bytes) {
  for (const ElfRelocationTable& t : f.relocationTables()) {
    if (t.target() != &section) continue;
    for (size_t i = 0; i < t.size(); ++i) {
      ElfRelocation r = t[i];
      const RelocationType* type = f.machine() ? f.machine()->relocation(r.type) : nullptr;
      ASSERT_TRUE(type) << "relocation type " << r.type;
      uint64_t s = t.symbols()[r.symbol].value;
      uint64_t v = s + uint64_t(r.addend);
      if (type->calculation == "S + A - P")
        v -= section.addr + r.offset;
      else
        ASSERT_EQ(type->calculation, "S + A") << type->name;
      ASSERT_LE(r.offset + type->size, bytes.size());
      applyRelocation(*type, v, std::span<uint8_t>(bytes.data() + r.offset, type->size));
    }
  }
}

Dumped dumpBoth(const Config& c, const std::string& assembly, bool dwarf64_flag) {
  Dumped d;
  oracle::ScratchDir dir;
  dir.write("p.s", assembly);
  std::vector<std::string> mc = {
      "llvm-mc-22",   "-triple=" + std::string(c.mc_triple), "-filetype=obj", dir.file("p.s"), "-o",
      dir.file("p.o")};
  if (*c.mcpu) mc.push_back("-mcpu=" + std::string(c.mcpu));
  if (!c.amdgpu) mc.push_back("-mattr=-relax");
  if (dwarf64_flag) mc.push_back("-dwarf64");
  oracle::RunResult r = oracle::run(mc);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  r = oracle::run({"llvm-dwarfdump-22", "--debug-frame", dir.file("p.o")});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  d.llvm = llvmSection(r.out, c.section);
  d.llvm_errors = r.err;

  ElfFile f = ElfFile::open(dir.file("p.o"));
  const ElfSection* sec = f.findSection(cfiSectionName(c.section));
  EXPECT_TRUE(sec);
  if (!sec) return d;
  std::span<const uint8_t> raw = f.contents(*sec);
  std::vector<uint8_t> bytes(raw.begin(), raw.end());
  relocate(f, *sec, bytes);
  CfiFormat fmt;
  fmt.section = c.section;
  fmt.section_address = sec->addr;
  fmt.address_size = c.address_size;
  Target t = targetOf(c);
  try {
    CfiSection s = parseCfi(bytes, fmt);
    std::vector<CfiError> errors;
    d.abikit = displayCfi(s, displayOptionsFor(t, ExtEncoding::User), &errors);
    d.abikit_row_errors = errors.size();
    for (const CfiError& e : errors) ADD_FAILURE() << c.name << ": " << e.what();
  } catch (const Error& e) {
    ADD_FAILURE() << c.name << ": " << e.what();
  }
  return d;
}

struct Tally {
  size_t programs = 0, entries = 0, instruction_lines = 0, row_lines = 0, other_lines = 0;
  std::vector<std::string> failures;
};

void compare(const Config& c, const Dumped& d, const std::string& assembly, Tally& t) {
  std::istringstream a(d.llvm), b(d.abikit);
  std::string la, lb;
  size_t line = 0;
  while (true) {
    bool ga = bool(std::getline(a, la)), gb = bool(std::getline(b, lb));
    if (!ga && !gb) break;
    ++line;
    if (!ga || !gb || la != lb) {
      if (t.failures.size() < 10)
        t.failures.push_back(
            std::string(c.name) + ": line " + std::to_string(line) + "\n  llvm-dwarfdump-22: " +
            (ga ? la : "<end>") + "\n  abikit:            " + (gb ? lb : "<end>") +
            (t.failures.empty() ? "\n--- assembly ---\n" + assembly.substr(0, 6000) : ""));
      return;
    }
    if (la.rfind("  DW_CFA_", 0) == 0 || la.rfind("  :", 0) == 0)
      ++t.instruction_lines;
    else if (la.rfind("  0x", 0) == 0 || la.rfind("  CFA=", 0) == 0)
      ++t.row_lines;
    else if (la.find(" CIE") != std::string::npos || la.find(" FDE ") != std::string::npos ||
             la.find("ZERO terminator") != std::string::npos)
      ++t.entries;
    else
      ++t.other_lines;
  }
}

void expectOracles() {
  for (const char* tool : {"llvm-mc-22", "llvm-dwarfdump-22"})
    ASSERT_FALSE(oracle::findProgram(tool).empty())
        << tool << " is not installed (scripts/deps.sh test installs llvm-22)";
}

TEST(DiffDwarfCfi, DirectiveProgramsAgreeWithLlvmDwarfdump22) {
  expectOracles();
  const uint64_t total = oracle::sampleCount(400);
  const uint64_t seed = oracle::sampleSeed(1);
  const size_t per = size_t((total + std::size(kConfigs) - 1) / std::size(kConfigs));
  Tally t;
  size_t directives = 0;
  for (size_t ci = 0; ci < std::size(kConfigs); ++ci) {
    const Config& c = kConfigs[ci];
    InstructionGen g(seed * 1000 + ci, c);
    for (size_t done = 0; done < per;) {
      size_t n = std::min<size_t>(per - done, 500);
      std::ostringstream s;
      if (c.section == CfiSectionKind::DebugFrame) s << "\t.cfi_sections .debug_frame\n";
      s << "\t.text\n";
      uint64_t start = 0;
      for (size_t i = 0; i < n; ++i)
        start += directiveFunction(c, g, start, done + i, s, directives);
      Dumped d = dumpBoth(c, s.str(), c.dwarf64);
      EXPECT_EQ(d.llvm_errors, "") << c.name;
      compare(c, d, s.str(), t);
      t.programs += n;
      done += n;
    }
  }
  for (const std::string& f : t.failures) ADD_FAILURE() << f;
  std::printf("dwarf-cfi directives: %zu programs (%zu directives), %zu entry headers, %zu "
              "instruction lines, %zu row lines, %zu other lines: all equal\n",
              t.programs, directives, t.entries, t.instruction_lines, t.row_lines, t.other_lines);
  EXPECT_GE(t.programs, total);
}

TEST(DiffDwarfCfi, HandWrittenSectionsAgreeWithLlvmDwarfdump22) {
  expectOracles();
  const uint64_t total = oracle::sampleCount(400) / 2;
  const uint64_t seed = oracle::sampleSeed(1);
  // The configurations whose sections hold no relocations: every one, hand-written.
  const size_t per = size_t((total + std::size(kConfigs) - 1) / std::size(kConfigs));
  Tally t;
  size_t instructions = 0;
  for (size_t ci = 0; ci < std::size(kConfigs); ++ci) {
    const Config& c = kConfigs[ci];
    InstructionGen g(seed * 7919 + ci, c);
    for (size_t done = 0; done < per;) {
      size_t n = std::min<size_t>(per - done, 50);
      std::vector<uint8_t> bytes = handWritten(c, g, n, instructions);
      std::string s = sectionAssembly(c, bytes);
      Dumped d = dumpBoth(c, s, false);
      EXPECT_EQ(d.llvm_errors, "") << c.name;
      compare(c, d, s, t);
      t.programs += n;
      done += n;
    }
  }
  for (const std::string& f : t.failures) ADD_FAILURE() << f;
  std::printf("dwarf-cfi hand-written: %zu FDEs (%zu generated instructions), %zu entry headers, "
              "%zu instruction lines, %zu row lines, %zu other lines: all equal\n",
              t.programs, instructions, t.entries, t.instruction_lines, t.row_lines, t.other_lines);
  EXPECT_GE(t.programs, total);
}

// ---------------------------------------------------------------------------------------------
// Where llvm-dwarfdump-22 and abikit differ (docs/dwarf.md, "Call frame information"): each case
// is a hand-written section; the test checks that llvm-dwarfdump-22 prints what the page says it
// prints and abikit what it says abikit prints.

struct Outputs {
  std::string llvm;   // stdout and stderr
  std::string abikit; // the text, then the row errors, or the parse error
};

Outputs bothOn(const Config& c, const std::vector<uint8_t>& bytes) {
  Outputs o;
  oracle::ScratchDir dir;
  dir.write("p.s", sectionAssembly(c, bytes));
  std::vector<std::string> mc = {
      "llvm-mc-22",   "-triple=" + std::string(c.mc_triple), "-filetype=obj", dir.file("p.s"), "-o",
      dir.file("p.o")};
  if (*c.mcpu) mc.push_back("-mcpu=" + std::string(c.mcpu));
  oracle::RunResult r = oracle::run(mc);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  r = oracle::run({"llvm-dwarfdump-22", "--debug-frame", dir.file("p.o")});
  o.llvm = llvmSection(r.out, c.section) + r.err;
  CfiFormat f;
  f.section = c.section;
  f.address_size = c.address_size;
  try {
    CfiSection s = parseCfi(bytes, f);
    std::vector<CfiError> errors;
    o.abikit = displayCfi(s, displayOptionsFor(targetOf(c), ExtEncoding::User), &errors);
    for (const CfiError& e : errors) o.abikit += std::string("row error: ") + e.what() + "\n";
  } catch (const Error& e) {
    o.abikit = std::string("error: ") + e.what();
  }
  return o;
}

// Sections for the cases: a CIE (debug: version 1, "", caf 1, daf -8, RA 1, def_cfa X2 0) and
// one FDE at [0x1000, 0x1010) with `insns`.
std::vector<uint8_t> debugWith(std::initializer_list<uint8_t> insns, bool dwarf64 = false) {
  test::CfiBuilder b;
  b.begin(dwarf64);
  if (dwarf64)
    b.u64(~uint64_t(0));
  else
    b.u32(0xffffffff);
  b.u8(1).str("").uleb(1).sleb(-8).u8(1).raw({0x0c, 0x02, 0x00});
  b.end();
  b.begin(dwarf64);
  b.fixed(dwarf64 ? 8 : 4, 0).u64(0x1000).u64(0x10).raw(insns);
  b.end();
  return b.bytes;
}

std::vector<uint8_t> ehWith(const char* aug, std::initializer_list<uint8_t> aug_data,
                            std::initializer_list<uint8_t> fde_body) {
  test::CfiBuilder b;
  b.begin();
  b.u32(0).u8(1).str(aug).uleb(1).sleb(-8).u8(1);
  if (aug[0] == 'z') b.uleb(aug_data.size());
  b.raw(aug_data).raw({0x0c, 0x02, 0x00});
  b.end();
  size_t f = b.begin();
  b.u32(uint32_t(f + 4)).raw(fde_body);
  b.end();
  return b.bytes;
}

TEST(DiffDwarfCfi, KnownDivergences) {
  expectOracles();
  const Config& rv = kConfigs[2];  // riscv64 .debug_frame
  const Config& eh = kConfigs[0];  // riscv64 .eh_frame
  const Config& amd = kConfigs[5]; // gfx90a .debug_frame
  struct Case {
    const char* what;
    const Config& config;
    std::vector<uint8_t> bytes;
    const char* llvm;
    const char* abikit;
  };
  test::CfiBuilder amd_cie; // the AMDGPU CIE llvm-mc writes: no CFA rule
  amd_cie.begin();
  amd_cie.u32(0xffffffff).u8(4).str("").u8(8).u8(0).uleb(4).sleb(4).uleb(16);
  amd_cie.end();
  amd_cie.begin();
  amd_cie.u32(0).u64(0).u64(16).raw({0x0d, 0x21});
  amd_cie.end();
  test::CfiBuilder forward; // an FDE before its CIE (at 26)
  forward.begin();
  forward.u32(26).u64(0x1000).u64(0x10).raw({0x0e, 0x10});
  forward.end();
  forward.begin();
  forward.u32(0xffffffff).u8(1).str("").uleb(1).sleb(-8).u8(1).raw({0x0c, 0x02, 0x00});
  forward.end();
  test::CfiBuilder eh_aug; // GCC 2's "eh": a pointer after the string
  eh_aug.begin();
  eh_aug.u32(0).u8(1).str("eh").u64(0x1234).uleb(1).sleb(-8).u8(1).raw({0x0c, 0x02, 0x00});
  eh_aug.end();
  size_t eh_fde = eh_aug.begin();
  eh_aug.u32(uint32_t(eh_fde + 4)).u64(0x1000).u64(0x10);
  eh_aug.end();
  test::CfiBuilder zero; // a zero length in .debug_frame
  zero.u32(0);
  std::vector<uint8_t> zero_then = debugWith({});
  zero.raw(zero_then);
  const std::vector<Case> cases = {
      {"DW_CFA_GNU_negative_offset_extended", rv, debugWith({0x2f, 0x05, 0x01}),
       "invalid extended CFI opcode 0x2f",
       "DW_CFA_GNU_negative_offset_extended: X5 8\n\n  0x1000: CFA=X2: X5=[CFA+8]"},
      {"row offsets past 32 bits", rv, debugWith({0x0c, 0x02, 0x80, 0x80, 0x80, 0x80, 0x08}),
       "0x1000: CFA=X2-2147483648", "0x1000: CFA=X2+2147483648"},
      {"register numbers past 32 bits", rv, debugWith({0x07, 0x85, 0x80, 0x80, 0x80, 0x10}),
       "X5=undefined", "reg4294967301=undefined"},
      {"base types in CFI expressions", rv, debugWith({0x10, 0x05, 0x03, 0xa5, 0x05, 0x0d}),
       "DW_OP_regval_type X5 <base_type ref: 0xd>", "DW_OP_regval_type X5 (0x0000000d)"},
      {"DW_OP_call_ref in 64-bit DWARF CFI", rv,
       debugWith({0x10, 0x05, 0x09, 0x9a, 0x20, 0, 0, 0, 0, 0, 0, 0}, true), "<decoding error>",
       "DW_OP_call_ref 0x20"},
      {"a .debug_frame CIE pointer forward", rv, forward.bytes, "FDE cie=<invalid offset>",
       "FDE cie=0000001a pc=00001000...00001010"},
      {"a zero length in .debug_frame", rv, zero.bytes, "00000000 00000000 ffffffff CIE",
       "00000000 ZERO terminator"},
      {"\"z\" in .debug_frame", rv,
       [] {
         test::CfiBuilder b;
         b.begin();
         b.u32(0xffffffff).u8(1).str("zS").uleb(1).sleb(-8).u8(1).uleb(0);
         b.raw({0x0c, 0x02, 0x00});
         b.end();
         return b.bytes;
       }(),
       "Return address column: 1\n\n  DW_CFA_nop:\n  DW_CFA_def_cfa: X2 +0",
       "Return address column: 1\n\n  DW_CFA_def_cfa: X2 +0"},
      {"unknown .debug_frame augmentation", rv,
       [] {
         test::CfiBuilder b;
         b.begin();
         b.u32(0xffffffff).u8(1).str("xyz").uleb(1).sleb(-8).u8(1).raw({0x0c, 0x02, 0x00});
         b.end();
         return b.bytes;
       }(),
       "DW_CFA_def_cfa: X2 +0", "(augmentation not understood"},
      {"unknown .eh_frame augmentation letter", eh, ehWith("zRX", {0x00}, {0, 0, 0, 0}),
       "unknown augmentation character X", "(augmentation not understood"},
      {"the \"eh\" augmentation", eh, eh_aug.bytes, "unknown augmentation character e",
       "Augmentation:          \"eh\""},
      {"augmentation data longer than its letters", eh,
       ehWith("zR", {0x03, 0x00, 0x00}, {0, 0x10, 0, 0, 0x10, 0, 0, 0, 0}),
       "parsing augmentation data at 0x0 failed", "pc=00001000...00001010"},
      {"pcrel personality in an object", eh,
       ehWith("zPR", {0x1b, 0x00, 0x01, 0x00, 0x00, 0x03}, {0, 0, 0, 0, 0, 0, 0, 0, 0}),
       "Personality Address: 0000000000000100", "Personality Address: 0000000000000112"},
      {"set_loc in .eh_frame (FDE encoding)", eh,
       ehWith("zR", {0x1b}, {0, 0, 0, 0, 0x10, 0, 0, 0, 0, 0x01, 0x08, 0, 0, 0, 0x44, 0, 0, 0}),
       "DW_CFA_set_loc: 4400000008\n", "DW_CFA_set_loc: 2e\n  DW_CFA_advance_loc: 4 to 0x32"},
  };
  size_t checked = 0;
  for (const Case& c : cases) {
    SCOPED_TRACE(c.what);
    Outputs o = bothOn(c.config, c.bytes);
    EXPECT_NE(o.llvm.find(c.llvm), std::string::npos) << "llvm-dwarfdump-22:\n" << o.llvm;
    EXPECT_NE(o.abikit.find(c.abikit), std::string::npos) << "abikit:\n" << o.abikit;
    EXPECT_EQ(o.llvm.find(c.abikit), std::string::npos) << "llvm-dwarfdump-22:\n" << o.llvm;
    checked += !HasFailure();
  }
  std::printf("dwarf-cfi known divergences: %zu cases, %zu as docs/dwarf.md says\n", cases.size(),
              checked);
  // Once a divergence, now the same: def_cfa_register with no CFA rule makes it R+0.
  Outputs agree = bothOn(amd, amd_cie.bytes);
  EXPECT_NE(agree.llvm.find("0x0: CFA=SGPR1"), std::string::npos) << agree.llvm;
  EXPECT_NE(agree.abikit.find("0x0: CFA=SGPR1"), std::string::npos) << agree.abikit;
}

} // namespace
