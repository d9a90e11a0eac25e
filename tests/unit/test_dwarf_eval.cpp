// The DWARF expression evaluator (reference dwarf.md §2): vectors worked by hand from the rules,
// and the algebraic laws of the extension operations checked on random cases (no executable
// oracle knows those operations).
#include "abikit/dwarf.h"
#include "abikit/dwarf_eval.h"
#include "abikit/target.h"

#include <gtest/gtest.h>
#include <map>
#include <random>
#include <string>
#include <vector>

using namespace abikit;
using namespace abikit::dwarf;

namespace {

// Every register and memory byte it has is available; writes are applied.
class TestMachine : public Machine, public DieResolver {
public:
  std::map<uint32_t, std::vector<uint8_t>> regs;
  std::map<std::pair<uint32_t, uint64_t>, uint8_t> mem;
  struct Die {
    DieInfo info;
    std::vector<uint8_t> loc, value;
  };
  std::map<uint64_t, Die> dies;
  ExprFormat format;

  void setReg(uint32_t reg, uint64_t v, size_t bytes) {
    auto& r = regs[reg];
    r.assign(bytes, 0);
    for (size_t i = 0; i < bytes && i < 8; ++i) r[i] = uint8_t(v >> (8 * i));
  }
  void setMem(uint32_t space, uint64_t addr, std::vector<uint8_t> b) {
    for (size_t i = 0; i < b.size(); ++i) mem[{space, addr + i}] = b[i];
  }
  void addDie(uint64_t off, uint16_t tag, std::string location = "", bool list = false,
              std::vector<uint8_t> value = {}) {
    Die& d = dies[off];
    d.info.tag = tag;
    if (!location.empty()) {
      d.loc = encode(parseText(location), format);
      d.info.has_location = true;
      d.info.location_is_list = list;
    }
    if (!value.empty()) {
      d.value = value;
      d.info.has_const_value = true;
    }
  }
  void addBaseType(uint64_t off, uint32_t bits, uint8_t encoding, uint32_t count = 1) {
    Die& d = dies[off];
    d.info.tag = kTagBaseType;
    d.info.base_type = {off, bits, encoding, count};
  }

  bool readRegister(uint32_t reg, uint64_t at, std::span<uint8_t> out) override {
    auto it = regs.find(reg);
    if (it == regs.end() || at + out.size() > it->second.size()) return false;
    std::copy_n(it->second.begin() + ptrdiff_t(at), out.size(), out.begin());
    return true;
  }
  bool writeRegister(uint32_t reg, uint64_t at, std::span<const uint8_t> in) override {
    auto it = regs.find(reg);
    if (it == regs.end() || at + in.size() > it->second.size()) return false;
    std::copy(in.begin(), in.end(), it->second.begin() + ptrdiff_t(at));
    return true;
  }
  bool readMemory(uint32_t space, uint64_t addr, std::span<uint8_t> out) override {
    for (size_t i = 0; i < out.size(); ++i) {
      auto it = mem.find({space, addr + i});
      if (it == mem.end()) return false;
      out[i] = it->second;
    }
    return true;
  }
  bool writeMemory(uint32_t space, uint64_t addr, std::span<const uint8_t> in) override {
    for (size_t i = 0; i < in.size(); ++i) {
      auto it = mem.find({space, addr + i});
      if (it == mem.end()) return false;
      it->second = in[i];
    }
    return true;
  }
  bool entryValue(uint32_t reg, std::span<uint8_t> out) override {
    return readRegister(reg, 0, out);
  }
  bool byUnitOffset(uint64_t off, DieInfo& out) override {
    auto it = dies.find(off);
    if (it == dies.end()) return false;
    out = it->second.info;
    out.location = it->second.loc;
    out.const_value = it->second.value;
    return true;
  }
  bool bySectionOffset(uint64_t off, DieInfo& out) override { return byUnitOffset(off, out); }
};

Target amdgpu(const char* cpu = "gfx90a") {
  TargetOptions o;
  o.triple = "amdgcn-amd-amdhsa";
  o.mcpu = cpu;
  return resolveTarget(o);
}

struct Fixture {
  Target target = amdgpu();
  TestMachine m;
  Evaluator ev{target, m, &m};
  Fixture() {
    ev.options().lane = 5;
    ev.options().subprogram_lanes = 64;
    ev.options().apertures = {{3, 0x1000000000000}, {5, 0x2000000000000}};
    ev.reset();
  }
  EvalResult eval(const std::string& text, ResultKind kind = ResultKind::Location) {
    return ev.evaluate(assemble(text, m.format), kind);
  }
  uint64_t value(const std::string& text) {
    return ev.valueInfo(eval(text, ResultKind::Value)).low();
  }
  std::vector<uint8_t> read(const std::string& text, uint64_t bytes) {
    std::vector<uint8_t> out;
    ev.read(eval(text).location, bytes * 8, out);
    return out;
  }
  EvalErrorKind failure(const std::string& text, ResultKind kind = ResultKind::Location) {
    try {
      eval(text, kind);
    } catch (const EvalError& e) {
      return e.evalKind();
    }
    ADD_FAILURE() << "no error for " << text;
    return EvalErrorKind::Unsupported;
  }
};

uint64_t le(const std::vector<uint8_t>& b) {
  uint64_t v = 0;
  for (size_t i = b.size(); i-- > 0;) v = v << 8 | b[i];
  return v;
}

} // namespace

TEST(DwarfEval, LiteralsAndArithmetic) {
  Fixture f;
  EXPECT_EQ(f.value("DW_OP_lit31"), 31u);
  EXPECT_EQ(f.value("DW_OP_consts -1, DW_OP_lit1, DW_OP_plus"), 0u);          // wraps at 64 bits
  EXPECT_EQ(f.value("DW_OP_consts -7, DW_OP_lit2, DW_OP_div"), uint64_t(-3)); // toward zero
  EXPECT_EQ(f.value("DW_OP_consts -7, DW_OP_lit2, DW_OP_mod"), (uint64_t(-7)) % 2); // unsigned
  EXPECT_EQ(f.value("DW_OP_consts -16, DW_OP_lit2, DW_OP_shra"), uint64_t(-4));
  EXPECT_EQ(f.value("DW_OP_consts -16, DW_OP_lit2, DW_OP_shr"), uint64_t(-16) >> 2);
  EXPECT_EQ(f.value("DW_OP_lit1, DW_OP_constu 0x40, DW_OP_shl"), 0u); // shift >= width
  EXPECT_EQ(f.value("DW_OP_consts -1, DW_OP_lit1, DW_OP_lt"), 1u);    // generic: signed
  EXPECT_EQ(f.value("DW_OP_consts -5, DW_OP_abs"), 5u);
  EXPECT_EQ(f.value("DW_OP_lit0, DW_OP_not"), ~uint64_t(0));
  EXPECT_EQ(f.value("DW_OP_lit3, DW_OP_plus_uconst 0x4"), 7u);
  EXPECT_EQ(f.value("DW_OP_lit1, DW_OP_lit2, DW_OP_lit3, DW_OP_rot, DW_OP_drop, DW_OP_drop"), 3u);
  EXPECT_EQ(f.value("DW_OP_lit1, DW_OP_lit2, DW_OP_lit3, DW_OP_pick 0x2"), 1u);
  EXPECT_EQ(f.value("DW_OP_lit1, DW_OP_lit2, DW_OP_swap, DW_OP_minus"), 1u);
  // bra: lit1 bra +1 skips lit5 (1 byte).
  EXPECT_EQ(f.value("DW_OP_lit0, DW_OP_lit1, DW_OP_bra 1, DW_OP_lit5, DW_OP_lit7"), 7u);
  EXPECT_EQ(f.value("DW_OP_lit2, DW_OP_skip 1, DW_OP_lit5"), 2u); // branch to the end: done
  EXPECT_EQ(f.failure("DW_OP_lit1, DW_OP_lit0, DW_OP_div"), EvalErrorKind::Evaluation);
  EXPECT_EQ(f.failure("DW_OP_plus"), EvalErrorKind::IllFormed);                 // underflow
  EXPECT_EQ(f.failure("DW_OP_lit1, DW_OP_pick 0x1"), EvalErrorKind::IllFormed); // past the stack
  EXPECT_EQ(f.failure("DW_OP_skip 2, DW_OP_const2u 0x1234"), EvalErrorKind::IllFormed);
  EXPECT_EQ(f.failure("DW_OP_skip -3"), EvalErrorKind::Evaluation);      // the step limit
  EXPECT_EQ(f.failure("", ResultKind::Value), EvalErrorKind::IllFormed); // no value
}

TEST(DwarfEval, TypedValues) {
  Fixture f;
  f.m.addBaseType(0x30, 32, 0x07); // unsigned int
  f.m.addBaseType(0x38, 32, 0x05); // int
  f.m.addBaseType(0x40, 32, 0x04); // float
  f.m.addBaseType(0x48, 32, 0x01); // address: not integral
  EXPECT_EQ(f.value("DW_OP_const_type 0x30 [ff ff ff ff], DW_OP_const_type 0x30 [01 00 00 00], "
                    "DW_OP_plus"),
            0u); // wraps at 32 bits
  EXPECT_EQ(f.value("DW_OP_const_type 0x38 [f9 ff ff ff], DW_OP_const_type 0x38 [02 00 00 00], "
                    "DW_OP_mod"),
            0xffffffffu); // signed: -7 mod 2 = -1
  EXPECT_EQ(f.value("DW_OP_const_type 0x38 [ff ff ff ff], DW_OP_convert 0x0"), ~uint64_t(0));
  EXPECT_EQ(f.value("DW_OP_const_type 0x30 [ff ff ff ff], DW_OP_convert 0x0"), 0xffffffffu);
  EXPECT_EQ(f.value("DW_OP_lit3, DW_OP_convert 0x40, DW_OP_reinterpret 0x30"), 0x40400000u);
  EXPECT_EQ(f.value("DW_OP_const_type 0x40 [00 00 20 40], DW_OP_convert 0x38"), 2u); // 2.5 → 2
  EXPECT_EQ(f.failure("DW_OP_lit1, DW_OP_const_type 0x30 [01 00 00 00], DW_OP_plus"),
            EvalErrorKind::IllFormed); // different types
  EXPECT_EQ(f.failure("DW_OP_const_type 0x48 [01 00 00 00], DW_OP_neg"), EvalErrorKind::IllFormed);
  EXPECT_EQ(f.failure("DW_OP_const_type 0x30 [01 00]"), EvalErrorKind::IllFormed);  // wrong size
  EXPECT_EQ(f.failure("DW_OP_lit1, DW_OP_convert 0x99"), EvalErrorKind::IllFormed); // no DIE
}

TEST(DwarfEval, MemoryAndConversions) {
  Fixture f;
  f.m.setMem(0, 0x1000, {0x44, 0x33, 0x22, 0x11, 0x88, 0x77, 0x66, 0x55});
  EXPECT_EQ(f.value("DW_OP_addr 0x1000, DW_OP_deref"), 0x5566778811223344u);
  EXPECT_EQ(f.value("DW_OP_addr 0x1000, DW_OP_deref_size 0x2"), 0x3344u);
  // C3 then C1: the address plus 4 is again a memory location.
  EXPECT_EQ(le(f.read("DW_OP_addr 0x1000, DW_OP_lit4, DW_OP_plus", 4)), 0x55667788u);
  EXPECT_EQ(f.value("DW_OP_addr 0x1004"), 0x1004u);
  // A local-memory location is no value: plus on it is ill-formed; offset works.
  EXPECT_EQ(f.failure("DW_OP_lit0, DW_OP_lit3, DW_OP_LLVM_form_aspace_address, DW_OP_lit4, "
                      "DW_OP_plus"),
            EvalErrorKind::IllFormed);
  f.m.setMem(3, 4, {1, 2, 3, 4});
  EXPECT_EQ(le(f.read("DW_OP_lit0, DW_OP_lit3, DW_OP_LLVM_form_aspace_address, "
                      "DW_OP_LLVM_offset_uconst 0x4",
                      4)),
            0x04030201u);
  // Negative displacements: consts -4 is signed.
  EXPECT_EQ(le(f.read("DW_OP_addr 0x1008, DW_OP_consts -4, DW_OP_LLVM_offset", 4)), 0x55667788u);
  // Bit offsets.
  EXPECT_EQ(le(f.read("DW_OP_addr 0x1000, DW_OP_lit4, DW_OP_LLVM_bit_offset", 1)), 0x34u);
  EXPECT_EQ(f.failure("DW_OP_addr 0x0, DW_OP_consts -1, DW_OP_LLVM_offset"),
            EvalErrorKind::Evaluation); // before the start of memory
  EXPECT_EQ(f.failure("DW_OP_addr 0x2000, DW_OP_deref"), EvalErrorKind::Evaluation); // unmapped
}

TEST(DwarfEval, AmdgpuSpacesAndLanes) {
  Fixture f; // wave64, lane 5
  // private_lane(5, A=8) is private_wave byte (8/4)*64*4 + 5*4 + 0 = 532.
  f.m.setMem(6, 532, {0xaa, 0xbb, 0xcc, 0xdd});
  EXPECT_EQ(le(f.read("DW_OP_lit8, DW_OP_lit5, DW_OP_LLVM_form_aspace_address", 4)), 0xddccbbaau);
  // private_lane<5> (0x25, Seed) is the same memory.
  EXPECT_EQ(le(f.read("DW_OP_lit8, DW_OP_const1u 0x25, DW_OP_LLVM_form_aspace_address", 4)),
            0xddccbbaau);
  // A generic address in the private aperture.
  EXPECT_EQ(le(f.read("DW_OP_constu 0x2000000000008, DW_OP_lit1, "
                      "DW_OP_LLVM_form_aspace_address",
                      4)),
            0xddccbbaau);
  // The lane's element of a wave64 VGPR.
  std::vector<uint8_t> v(256, 0);
  v[20] = 0x34;
  v[21] = 0x12;
  f.m.regs[2560] = v;
  EXPECT_EQ(le(f.read("DW_OP_regx 0xa00, DW_OP_LLVM_push_lane, DW_OP_lit4, DW_OP_mul, "
                      "DW_OP_LLVM_offset",
                      4)),
            0x1234u);
  EXPECT_EQ(f.failure("DW_OP_regx 0x600"), EvalErrorKind::IllFormed); // wave32 VGPR in wave64
  EXPECT_EQ(f.failure("DW_OP_lit0, DW_OP_lit4, DW_OP_LLVM_form_aspace_address"),
            EvalErrorKind::IllFormed); // reserved space
  f.ev.options().profile = Profile::Newest;
  EXPECT_EQ(f.failure("DW_OP_lit0, DW_OP_const1u 0x25, DW_OP_LLVM_form_aspace_address"),
            EvalErrorKind::IllFormed); // private_lane<N>: Seed only
  f.ev.options().lane.reset();
  EXPECT_EQ(f.failure("DW_OP_LLVM_push_lane"), EvalErrorKind::Evaluation); // missing context
}

TEST(DwarfEval, RegistersAndProfiles) {
  Fixture f;
  f.m.setReg(32, 0x1000, 4); // SGPR0, 32 bits
  f.m.setMem(0, 0x1008, {1, 2, 3, 4, 5, 6, 7, 8});
  // Seed: a 32-bit register zero-extended to a 64-bit address; Newest: an evaluation error.
  EXPECT_EQ(le(f.read("DW_OP_bregx 0x20 8", 1)), 1u);
  EXPECT_EQ(f.failure("DW_OP_breg0 8"), EvalErrorKind::IllFormed); // PC_32: not in 64-bit code
  // DW_OP_deref_size larger than an address: Seed ill-formed, Newest reads 8 bytes.
  EXPECT_EQ(f.failure("DW_OP_addr 0x1008, DW_OP_deref_size 0x10"), EvalErrorKind::IllFormed);
  f.ev.options().profile = Profile::Newest;
  EXPECT_EQ(f.failure("DW_OP_bregx 0x20 8"), EvalErrorKind::Evaluation);
  EXPECT_EQ(f.value("DW_OP_addr 0x1008, DW_OP_deref_size 0x10"), 0x0807060504030201u);
  // aspace_bregx with a 32-bit space works in both profiles.
  f.m.setMem(3, 0x1004, {9, 8});
  EXPECT_EQ(le(f.read("DW_OP_lit3, DW_OP_LLVM_aspace_bregx 0x20 4", 2)), 0x0809u);
  // A register is located, not read; reading past its 32 bits fails.
  EXPECT_EQ(le(f.read("DW_OP_regx 0x20", 4)), 0x1000u);
  EXPECT_THROW(f.read("DW_OP_regx 0x20", 8), EvalError);
  f.m.regs.erase(32);
  EXPECT_EQ(f.failure("DW_OP_regx 0x20, DW_OP_deref_size 0x4"), EvalErrorKind::Evaluation);
}

TEST(DwarfEval, CompositesInCanonicalForm) {
  Fixture f;
  f.m.setMem(0, 0x100, {1, 2, 3, 4, 5, 6, 7, 8});
  f.m.setReg(32, 0x44332211, 4);
  // Adjacent pieces of the same memory merge into one part.
  LocationInfo d = f.ev.describe(
      f.eval("DW_OP_addr 0x100, DW_OP_piece 0x2, DW_OP_addr 0x102, DW_OP_piece 0x2").location);
  ASSERT_EQ(d.kind, StorageKind::Composite);
  ASSERT_EQ(d.parts.size(), 1u);
  EXPECT_EQ(uint64_t(d.parts[0].bits), 32u);
  EXPECT_EQ(uint64_t(d.parts[0].location.offset), 0x800u);
  // Undefined pieces merge; the composite of a register and memory reads both.
  d = f.ev.describe(f.eval("DW_OP_piece 0x4, DW_OP_piece 0x4").location);
  ASSERT_EQ(d.parts.size(), 1u);
  EXPECT_EQ(d.parts[0].location.kind, StorageKind::Undefined);
  EXPECT_EQ(uint64_t(d.parts[0].bits), 64u);
  EXPECT_EQ(le(f.read("DW_OP_regx 0x20, DW_OP_piece 0x2, DW_OP_addr 0x100, DW_OP_piece 0x2", 4)),
            0x02012211u);
  // A composite inside a composite is flattened.
  d = f.ev.describe(f.eval("DW_OP_regx 0x20, DW_OP_piece 0x4, DW_OP_addr 0x100, DW_OP_piece "
                           "0x4, DW_OP_LLVM_piece_end, DW_OP_LLVM_offset_uconst 0x2, "
                           "DW_OP_piece 0x4")
                        .location);
  ASSERT_EQ(d.parts.size(), 2u);
  EXPECT_EQ(d.parts[0].location.kind, StorageKind::Register);
  EXPECT_EQ(uint64_t(d.parts[0].location.offset), 16u);
  EXPECT_EQ(uint64_t(d.parts[1].location.offset), 0x800u);
  // Reading an undefined piece fails; an incomplete composite cannot be copied.
  EXPECT_THROW(f.read("DW_OP_piece 0x1, DW_OP_addr 0x100, DW_OP_piece 0x1", 2), EvalError);
  EXPECT_EQ(f.failure("DW_OP_addr 0x100, DW_OP_piece 0x1, DW_OP_dup"), EvalErrorKind::IllFormed);
  EXPECT_EQ(f.failure("DW_OP_LLVM_piece_end"), EvalErrorKind::IllFormed);
  EXPECT_EQ(f.failure("DW_OP_regx 0x20, DW_OP_piece 0x5"), EvalErrorKind::IllFormed); // too big
  // bit_piece with an offset.
  std::vector<uint8_t> nibble;
  f.ev.read(f.eval("DW_OP_regx 0x20, DW_OP_bit_piece 0x4 0x4").location, 4, nibble);
  EXPECT_EQ(nibble, std::vector<uint8_t>{0x1});
  // extend broadcasts one location; select_bit_piece picks per lane.
  EXPECT_EQ(le(f.read("DW_OP_regx 0x20, DW_OP_LLVM_extend 0x8 0x3", 3)), 0x111111u);
  f.m.setReg(33, 0x88776655, 4);
  EXPECT_EQ(le(f.read("DW_OP_regx 0x20, DW_OP_regx 0x21, DW_OP_lit5, DW_OP_LLVM_select_bit_piece "
                      "0x8 0x4",
                      4)),
            0x44772255u); // mask 0101: bytes 0 and 2 from SGPR1
  EXPECT_EQ(f.failure("DW_OP_regx 0x20, DW_OP_LLVM_extend 0x0 0x3"), EvalErrorKind::IllFormed);
}

TEST(DwarfEval, ImplicitLocationsAndPointers) {
  Fixture f;
  EXPECT_EQ(le(f.read("DW_OP_implicit_value 0x4 [78 56 34 12], DW_OP_LLVM_offset_uconst 0x1", 2)),
            0x3456u);
  EXPECT_EQ(le(f.read("DW_OP_lit7, DW_OP_stack_value", 8)), 7u);
  EXPECT_EQ(f.failure("DW_OP_implicit_value 0x1 [01], DW_OP_LLVM_offset_uconst 0x1"),
            EvalErrorKind::Evaluation); // one past the end is not a location
  // An implicit pointer to a variable with a constant value: deref gives the pointer value,
  // whose location is the constant, offset by the displacement.
  f.m.addDie(0x80, kTagVariable, "", false, {0x2a, 0x2b, 0, 0});
  EXPECT_EQ(f.value("DW_OP_implicit_pointer 0x80 1, DW_OP_deref, DW_OP_deref_size 0x1"), 0x2bu);
  EXPECT_EQ(f.value("DW_OP_implicit_pointer 0x80 0, DW_OP_deref, DW_OP_deref_size 0x1"), 0x2au);
  EXPECT_EQ(f.failure("DW_OP_implicit_pointer 0x80 0, DW_OP_deref_size 0x4"),
            EvalErrorKind::Evaluation); // not the whole pointer
  EXPECT_EQ(f.failure("DW_OP_implicit_pointer 0x80 0, DW_OP_deref, DW_OP_lit1, DW_OP_plus"),
            EvalErrorKind::Evaluation);
  // Writes to implicit storage fail, and a write changes nothing unless every part can change.
  f.m.setMem(0, 0x100, {1, 2});
  auto loc = f.eval("DW_OP_addr 0x100, DW_OP_piece 0x1, DW_OP_lit1, DW_OP_stack_value, "
                    "DW_OP_piece 0x1")
                 .location;
  uint8_t bytes[2] = {0xee, 0xff};
  EXPECT_THROW(f.ev.write(loc, 16, bytes), EvalError);
  EXPECT_EQ((f.m.mem[{0, 0x100}]), 1u);
  f.ev.write(loc, 8, bytes);
  EXPECT_EQ((f.m.mem[{0, 0x100}]), 0xeeu);
  // Bit-exact writes keep the other bits of the byte.
  f.m.setMem(0, 0x200, {0xff});
  uint8_t zero = 0;
  f.ev.write(f.eval("DW_OP_addr 0x200, DW_OP_lit2, DW_OP_LLVM_bit_offset").location, 3, {&zero, 1});
  EXPECT_EQ((f.m.mem[{0, 0x200}]), 0xe3u);
}

TEST(DwarfEval, CallsInBothProfiles) {
  Fixture f;
  f.m.addDie(0x60, kTagDwarfProcedure, "DW_OP_lit4, DW_OP_plus");
  f.m.addDie(0x70, kTagVariable, "DW_OP_addr 0x100");
  f.m.addDie(0x78, kTagVariable);                           // no location
  f.m.addDie(0x88, kTagVariable, "", false, {5, 0});        // a constant
  f.m.addDie(0x90, kTagVariable, "DW_OP_addr 0x200", true); // a location list's entry
  f.m.setMem(0, 0x100, {9});
  EXPECT_EQ(f.value("DW_OP_lit1, DW_OP_call2 0x60"), 5u); // on the caller's stack
  EXPECT_EQ(le(f.read("DW_OP_call4 0x70", 1)), 9u);       // a separate evaluation
  EXPECT_EQ(f.ev.describe(f.eval("DW_OP_call2 0x78").location).kind, StorageKind::Undefined);
  EXPECT_EQ(f.failure("DW_OP_call2 0x99"), EvalErrorKind::IllFormed);
  f.ev.options().profile = Profile::Newest;
  EXPECT_EQ(f.value("DW_OP_lit1, DW_OP_call2 0x60"), 5u);
  EXPECT_EQ(le(f.read("DW_OP_call4 0x70", 1)), 9u);       // exprloc on the stack
  EXPECT_EQ(f.value("DW_OP_lit3, DW_OP_call2 0x78"), 3u); // no effect
  EXPECT_EQ(le(f.read("DW_OP_call2 0x88", 2)), 5u);       // the constant
  EXPECT_EQ(f.ev.describe(f.eval("DW_OP_call2 0x90").location).kind, StorageKind::Memory);
  // Recursion ends.
  f.m.addDie(0x40, kTagDwarfProcedure, "DW_OP_call2 0x40");
  EXPECT_EQ(f.failure("DW_OP_call2 0x40"), EvalErrorKind::Evaluation);
}

TEST(DwarfEval, FrameBaseObjectAndEntryValues) {
  Fixture f;
  f.m.setReg(33, 0x1000, 4);
  f.m.setMem(0, 0x1010, {0x5a});
  f.ev.options().frame_base = assemble("DW_OP_regx 0x21", f.m.format);
  f.ev.options().object_address = assemble("DW_OP_addr 0x1000", f.m.format);
  f.ev.reset();
  EXPECT_EQ(le(f.read("DW_OP_fbreg 16", 1)), 0x5au); // register frame base: its contents
  EXPECT_EQ(le(f.read("DW_OP_push_object_address, DW_OP_LLVM_offset_uconst 0x10", 1)), 0x5au);
  f.ev.options().frame_base = assemble("DW_OP_fbreg 0", f.m.format);
  f.ev.reset();
  EXPECT_EQ(f.failure("DW_OP_fbreg 0"), EvalErrorKind::IllFormed);
  f.m.setReg(16, 0x1234, 8);
  EXPECT_EQ(f.value("DW_OP_entry_value (DW_OP_regx 0x10)"), 0x1234u);
  EXPECT_EQ(f.failure("DW_OP_entry_value (DW_OP_regx 0x20)"), EvalErrorKind::Unsupported);
  f.ev.options().cfi = true;
  EXPECT_EQ(f.failure("DW_OP_push_object_address"), EvalErrorKind::IllFormed);
}

// ----- laws (no executable oracle knows the extension operations) ---------------------------

namespace {

struct Law : Fixture {
  std::mt19937_64 rng{20261128};
  Law() {
    std::vector<uint8_t> mem(512);
    for (auto& b : mem) b = uint8_t(rng());
    m.setMem(0, 0x4000, mem);
    m.setMem(3, 0x100, mem);
    std::vector<uint8_t> v(256);
    for (auto& b : v) b = uint8_t(rng());
    m.regs[2560] = v;
    m.regs[2561] = std::vector<uint8_t>(v.rbegin(), v.rend());
  }
  static std::string hexs(uint64_t v) {
    char b[24];
    snprintf(b, sizeof b, "0x%llx", static_cast<unsigned long long>(v));
    return b;
  }
  // A random byte-addressed location with at least 64 readable bytes after it.
  std::string base() {
    switch (rng() % 3) {
    case 0:
      return "DW_OP_addr " + hexs(0x4000 + rng() % 256);
    case 1:
      return "DW_OP_constu " + hexs(0x100 + rng() % 256) +
             ", DW_OP_lit3, DW_OP_LLVM_form_aspace_address";
    default:
      return "DW_OP_regx " + hexs(2560 + rng() % 2) + ", DW_OP_LLVM_offset_uconst " +
             hexs(rng() % 128);
    }
  }
  std::vector<uint8_t> bytes(const std::string& text, uint64_t n) {
    ev.reset();
    return read(text, n);
  }
};

} // namespace

TEST(DwarfEvalLaws, OffsetForms) {
  Law l;
  for (int i = 0; i < 10000; ++i) {
    std::string b = l.base();
    uint64_t k = l.rng() % 64;
    auto a = l.bytes(b + ", DW_OP_LLVM_offset_uconst " + Law::hexs(k), 8);
    ASSERT_EQ(a, l.bytes(b + ", DW_OP_constu " + Law::hexs(k) + ", DW_OP_LLVM_offset", 8)) << b;
    ASSERT_EQ(a, l.bytes(b + ", DW_OP_constu " + Law::hexs(8 * k) + ", DW_OP_LLVM_bit_offset", 8))
        << b;
  }
}

TEST(DwarfEvalLaws, PiecesExtendAndSelect) {
  Law l;
  for (int i = 0; i < 10000; ++i) {
    std::string b = l.base();
    uint64_t n = 1 + l.rng() % 8;
    auto whole = l.bytes(b, n);
    // A single piece then piece_end is the piece.
    ASSERT_EQ(whole, l.bytes(b + ", DW_OP_piece " + Law::hexs(n) + ", DW_OP_LLVM_piece_end", n));
    // select with an all-ones mask is the "one" input, all-zeros the "zero" input.
    std::string other = l.base();
    uint64_t c = 1 + l.rng() % 8, s = 8 * (1 + l.rng() % 4);
    std::string sel = " DW_OP_LLVM_select_bit_piece " + Law::hexs(s) + " " + Law::hexs(c);
    uint64_t ones = (uint64_t(1) << c) - 1;
    ASSERT_EQ(
        l.bytes(b, c * s / 8),
        l.bytes(other + ", " + b + ", DW_OP_constu " + Law::hexs(ones) + "," + sel, c * s / 8));
    ASSERT_EQ(l.bytes(other, c * s / 8),
              l.bytes(other + ", " + b + ", DW_OP_lit0," + sel, c * s / 8));
    // extend S C is C copies of the first S bits.
    auto first = l.bytes(b, s / 8);
    auto ext = l.bytes(b + ", DW_OP_LLVM_extend " + Law::hexs(s) + " " + Law::hexs(c), c * s / 8);
    for (uint64_t k = 0; k < c; ++k)
      ASSERT_TRUE(std::equal(first.begin(), first.end(), ext.begin() + ptrdiff_t(k * s / 8)));
  }
}

TEST(DwarfEvalLaws, FormAspaceAddressZeroIsMemory) {
  Law l;
  for (int i = 0; i < 10000; ++i) {
    uint64_t a = 0x4000 + l.rng() % 256;
    ASSERT_EQ(l.bytes("DW_OP_addr " + Law::hexs(a), 8),
              l.bytes("DW_OP_constu " + Law::hexs(a) +
                          ", DW_OP_lit0, "
                          "DW_OP_LLVM_form_aspace_address",
                      8));
  }
}
