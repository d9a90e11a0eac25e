// DWARF call frame information: hand-worked sections from reference dwarf.md §4 (the AMDGPU CIE
// of §4.1, the CFA-in-scratch and register-in-a-lane patterns of §4.5, the address-space CFA
// instructions of §4.3), remember/restore_state (nested, with the CFA), restore to the CIE's
// rule, DWARF64 .debug_frame, .eh_frame with pcrel/datarel pointers and the "zPLR"
// augmentation, every error at its byte offset with its kind, and the llvm-dwarfdump-22 text.
#include "../support/cfi_builder.h"
#include "abikit/dwarf_cfi.h"

#include <gtest/gtest.h>
#include <string>
#include <vector>

namespace {

using namespace abikit;
using namespace abikit::dwarf;
using test::CfiBuilder;

Target targetOf(const std::string& triple, const std::string& cpu = "") {
  TargetOptions o;
  o.triple = triple;
  o.mcpu = cpu;
  return resolveTarget(o);
}

const Target& gfx90a() {
  static const Target t = targetOf("amdgcn-amd-amdhsa", "gfx90a");
  return t;
}

const Target& rv64() {
  static const Target t = targetOf("riscv64-unknown-elf");
  return t;
}

CfiFormat debugFrame(uint8_t address_size = 8) {
  CfiFormat f;
  f.address_size = address_size;
  return f;
}

CfiFormat ehFrame(uint64_t address = 0) {
  CfiFormat f;
  f.section = CfiSectionKind::EhFrame;
  f.section_address = address;
  return f;
}

// The AMDGPU CIE of reference §4.1: version 4, "[amd:v0.0]", address size 8, no segment
// selector, code and data alignment 4, return address column 16 (PC_64).
void amdgpuCie(CfiBuilder& b, std::initializer_list<uint8_t> initial = {}, bool dwarf64 = false) {
  b.begin(dwarf64);
  if (dwarf64)
    b.u64(~uint64_t(0));
  else
    b.u32(0xffffffff);
  b.u8(4).str("[amd:v0.0]").u8(8).u8(0).uleb(4).sleb(4).uleb(16).raw(initial);
  b.end();
}

std::string rowText(const CfiSection& s, const CfiRow& r, const Target& t) {
  return displayCfiRow(s, r, s.cies[0], displayOptionsFor(t, ExtEncoding::User), false);
}

CfiError parseError(const std::vector<uint8_t>& bytes, const CfiFormat& f) {
  try {
    parseCfi(bytes, f);
  } catch (const CfiError& e) {
    return e;
  }
  ADD_FAILURE() << "parsed";
  return CfiError(CfiErrorKind::IllFormed, f.section, 0, "");
}

CfiError tableError(const CfiSection& s, size_t fde, const DwarfTargetInfo* t = nullptr) {
  try {
    buildTable(s, s.fdes[fde], t);
  } catch (const CfiError& e) {
    return e;
  }
  ADD_FAILURE() << "built";
  return CfiError(CfiErrorKind::IllFormed, s.format.section, 0, "");
}

// --- §4.1 and §4.5: the AMDGPU patterns --------------------------------------------------------

// §4.5: the CFA in scratch (DW_OP_regx SGPR32, DW_OP_deref_size 4, DW_OP_lit6, DW_OP_shl,
// DW_OP_lit6, DW_OP_LLVM_form_aspace_address), an SGPR spilled into a lane of a VGPR
// (DW_OP_regx VGPR40, DW_OP_LLVM_offset_uconst 8), then the CFA moved with the address-space
// instructions of §4.3 (0x30, 0x31) and the return address column made undefined.
std::vector<uint8_t> amdgpuPatterns() {
  CfiBuilder b;
  amdgpuCie(b, {0x0f, 0x09, 0x90, 0x40, 0x94, 0x04, 0x36, 0x24, 0x36, 0xe9, 0x02});
  b.begin();
  b.u32(0).u64(0x1000).u64(0x40);
  b.raw({0x41});                                                 // advance_loc 1 (× 4)
  b.raw({0x10, 0x41, 0x06, 0x90, 0xa8, 0x14, 0xe9, 0x05, 0x08}); // expression SGPR33
  b.raw({0x42});                                                 // advance_loc 2
  b.raw({0x30, 0x40, 0x10, 0x06}); // LLVM_def_aspace_cfa SGPR32 16 AS6
  b.raw({0x0e, 0x20});             // def_cfa_offset 32 (keeps AS 6)
  b.raw({0x41});                   // advance_loc 1
  b.raw({0x31, 0x40, 0x7e, 0x05}); // _sf SGPR32 -2 (× 4) AS5
  b.raw({0x07, 0x10});             // undefined PC_64
  b.end();
  return b.bytes;
}

TEST(DwarfCfi, AmdgpuCieFields) {
  std::vector<uint8_t> bytes = amdgpuPatterns();
  CfiSection s = parseCfi(bytes, debugFrame());
  ASSERT_EQ(s.cies.size(), 1u);
  ASSERT_EQ(s.fdes.size(), 1u);
  const CfiCie& c = s.cies[0];
  EXPECT_EQ(c.version, 4);
  EXPECT_EQ(c.augmentation, "[amd:v0.0]");
  EXPECT_TRUE(c.understood);
  EXPECT_EQ(c.address_size, 8);
  EXPECT_EQ(c.segment_selector_size, 0);
  EXPECT_EQ(c.code_alignment_factor, 4u);
  EXPECT_EQ(c.data_alignment_factor, 4);
  EXPECT_EQ(c.return_address_register, 16u);
  // The target's default CIE says the same (src/target/amdgpu_dwarf.cpp).
  const DwarfTargetInfo& t = gfx90a().dwarf;
  EXPECT_EQ(t.cie_augmentation, c.augmentation);
  EXPECT_EQ(t.code_alignment, c.code_alignment_factor);
  EXPECT_EQ(t.data_alignment, c.data_alignment_factor);
  EXPECT_EQ(t.return_address_column, c.return_address_register);
  const CfiFde& f = s.fdes[0];
  EXPECT_EQ(f.initial_location, 0x1000u);
  EXPECT_EQ(f.address_range, 0x40u);
  EXPECT_EQ(f.offset, c.length + 4);
  ASSERT_EQ(s.instructionsOf(c).size(), 1u);
  EXPECT_EQ(s.instructionsOf(c)[0].op, Cfa::def_cfa_expression);
  EXPECT_EQ(s.instructionsOf(c)[0].expr_size, 9u);
  ASSERT_EQ(s.instructionsOf(f).size(), 8u);
  EXPECT_EQ(s.instructionsOf(f)[0].op, Cfa::advance_loc);
  EXPECT_EQ(s.instructionsOf(f)[4].op, Cfa::def_cfa_offset);
  EXPECT_EQ(s.instructionsOf(f)[6].op, Cfa::LLVM_def_aspace_cfa_sf);
  EXPECT_EQ(s.instructionsOf(f)[6].operandSigned(1), -2);
  EXPECT_EQ(s.instructionsOf(f)[6].operand[2], 5u);
}

TEST(DwarfCfi, AmdgpuRows) {
  std::vector<uint8_t> bytes = amdgpuPatterns();
  CfiSection s = parseCfi(bytes, debugFrame());
  const DwarfTargetInfo& t = gfx90a().dwarf;
  CfiTable table = buildTable(s, s.fdes[0], &t);
  ASSERT_EQ(table.size(), 4u);
  EXPECT_EQ(table.address(0), 0x1000u);
  EXPECT_EQ(table.address(1), 0x1004u);
  EXPECT_EQ(table.address(2), 0x100cu);
  EXPECT_EQ(table.address(3), 0x1010u);

  CfiRow r0 = table.row(0);
  EXPECT_EQ(r0.cfa.kind, CfaRuleKind::Expression);
  EXPECT_EQ(r0.cfa.expr_size, 9u);
  EXPECT_TRUE(r0.rules.empty());
  // Every column no instruction names keeps its value (§4.1).
  EXPECT_EQ(r0.rule(16, t).kind, RegisterRuleKind::SameValue);
  EXPECT_EQ(r0.rule(2600, t).kind, RegisterRuleKind::SameValue);

  CfiRow r1 = table.row(1);
  ASSERT_EQ(r1.rules.count(65), 1u);
  EXPECT_EQ(r1.rules.at(65).kind, RegisterRuleKind::Expression);
  std::span<const uint8_t> e = s.bytes.subspan(r1.rules.at(65).expr_offset, 6);
  EXPECT_EQ(std::vector<uint8_t>(e.begin(), e.end()),
            (std::vector<uint8_t>{0x90, 0xa8, 0x14, 0xe9, 0x05, 0x08}));

  CfiRow r2 = table.row(2);
  EXPECT_EQ(r2.cfa.kind, CfaRuleKind::RegisterOffset);
  EXPECT_EQ(r2.cfa.reg, 64u); // SGPR32
  EXPECT_EQ(r2.cfa.offset, 32);
  EXPECT_EQ(r2.cfa.address_space, 6u); // private_wave, kept by def_cfa_offset
  EXPECT_TRUE(r2.cfa.has_address_space);

  CfiRow r3 = table.row(3);
  EXPECT_EQ(r3.cfa.offset, -8); // -2 × data alignment 4
  EXPECT_EQ(r3.cfa.address_space, 5u);
  EXPECT_EQ(r3.rule(16, t).kind, RegisterRuleKind::Undefined); // no caller
  EXPECT_EQ(r3.rule(65, t).kind, RegisterRuleKind::Expression);

  EXPECT_EQ(rowText(s, r0, gfx90a()),
            "0x1000: CFA=DW_OP_regx SGPR32, DW_OP_deref_size 0x4, DW_OP_lit6, DW_OP_shl, "
            "DW_OP_lit6, DW_OP_LLVM_user DW_OP_LLVM_form_aspace_address");
  EXPECT_EQ(rowText(s, r2, gfx90a()),
            "0x100c: CFA=SGPR32+32 in addrspace6: SGPR33=[DW_OP_regx VGPR40, DW_OP_LLVM_user "
            "DW_OP_LLVM_offset_uconst 0x8]");
  EXPECT_EQ(rowText(s, r3, gfx90a()),
            "0x1010: CFA=SGPR32-8 in addrspace5: PC_REG=undefined, SGPR33=[DW_OP_regx VGPR40, "
            "DW_OP_LLVM_user DW_OP_LLVM_offset_uconst 0x8]");
}

TEST(DwarfCfi, RowAtPc) {
  std::vector<uint8_t> bytes = amdgpuPatterns();
  CfiSection s = parseCfi(bytes, debugFrame());
  CfiTable table = buildTable(s, s.fdes[0]);
  EXPECT_FALSE(table.rowAt(0xfff));
  EXPECT_FALSE(table.rowAt(0x1040)); // one past the range
  EXPECT_EQ(table.rowAt(0x1000)->address, 0x1000u);
  EXPECT_EQ(table.rowAt(0x1003)->address, 0x1000u);
  EXPECT_EQ(table.rowAt(0x1004)->address, 0x1004u);
  EXPECT_EQ(table.rowAt(0x100f)->address, 0x100cu);
  EXPECT_EQ(table.rowAt(0x103f)->cfa.address_space, 5u);
  ASSERT_TRUE(rowForPc(s, 0x1008));
  EXPECT_EQ(rowForPc(s, 0x1008)->rules.size(), 1u);
  EXPECT_FALSE(rowForPc(s, 0x2000));
  std::vector<CfiRow> all = table.rows();
  ASSERT_EQ(all.size(), 4u);
  for (size_t i = 0; i < all.size(); ++i) {
    EXPECT_EQ(all[i].address, table.row(i).address);
    EXPECT_EQ(all[i].cfa, table.row(i).cfa);
    EXPECT_EQ(all[i].rules, table.row(i).rules);
  }
}

TEST(DwarfCfi, AddressSpacesOfTheTarget) {
  // §4.3: an address space the target does not have is ill-formed (4 is reserved on AMDGPU);
  // private_lane<N> (0x20 + N, Seed) only for lanes the wave has.
  for (uint8_t as : {4, 7, 0x1f, 0x60, 0x7f}) {
    CfiBuilder b;
    amdgpuCie(b);
    b.begin();
    b.u32(0).u64(0).u64(16);
    b.raw({0x30, 0x40, 0x00, as});
    b.end();
    CfiSection s = parseCfi(b.bytes, debugFrame());
    CfiError e = tableError(s, 0, &gfx90a().dwarf);
    EXPECT_EQ(e.cfiKind(), CfiErrorKind::IllFormed) << int(as);
    EXPECT_EQ(e.offset(), s.fdes[0].instructions_offset) << int(as);
    EXPECT_NO_THROW(buildTable(s, s.fdes[0])); // no target: not checked
  }
  for (uint8_t as : {0, 1, 2, 3, 5, 6, 0x20, 0x3f, 0x5f}) {
    CfiBuilder b;
    amdgpuCie(b);
    b.begin();
    b.u32(0).u64(0).u64(16);
    b.raw({0x30, 0x40, 0x00, as});
    b.end();
    CfiSection s = parseCfi(b.bytes, debugFrame());
    EXPECT_NO_THROW(buildTable(s, s.fdes[0], &gfx90a().dwarf)) << int(as);
  }
  // gfx1030 runs wave32 by default: private_lane<40> does not exist there.
  Target w32 = targetOf("amdgcn-amd-amdhsa", "gfx1030");
  ASSERT_EQ(w32.dwarf.lanes, 32u);
  CfiBuilder b;
  amdgpuCie(b);
  b.begin();
  b.u32(0).u64(0).u64(16);
  b.raw({0x30, 0x40, 0x00, 0x48});
  b.end();
  CfiSection s = parseCfi(b.bytes, debugFrame());
  EXPECT_EQ(tableError(s, 0, &w32.dwarf).cfiKind(), CfiErrorKind::IllFormed);
}

TEST(DwarfCfi, CfaRuleChangesNeedARegisterRule) {
  // §4.3: def_cfa_offset and def_cfa_offset_sf change one part of a register + offset rule;
  // with no rule (the AMDGPU CIE defines none) or an expression rule they are ill-formed, at
  // the instruction. def_cfa_register makes the rule R+0 instead (as GCC 12's RISC-V CIEs need,
  // and gdb and llvm-dwarfdump do): see CfaRegisterWithoutARule.
  for (std::vector<uint8_t> insn : {std::vector<uint8_t>{0x0e, 0x10}, {0x13, 0x7f}}) {
    CfiBuilder b;
    amdgpuCie(b);
    b.begin();
    b.u32(0).u64(0).u64(16).raw({0x00, 0x00}).raw(insn);
    b.end();
    CfiSection s = parseCfi(b.bytes, debugFrame());
    CfiError e = tableError(s, 0);
    EXPECT_EQ(e.cfiKind(), CfiErrorKind::IllFormed);
    EXPECT_EQ(e.offset(), s.fdes[0].instructions_offset + 2);
    EXPECT_NE(std::string(e.what()).find("no CFA rule"), std::string::npos) << e.what();

    CfiBuilder x;
    amdgpuCie(x, {0x0f, 0x02, 0x90, 0x40});
    x.begin();
    x.u32(0).u64(0).u64(16).raw(insn);
    x.end();
    CfiSection sx = parseCfi(x.bytes, debugFrame());
    CfiError ex = tableError(sx, 0);
    EXPECT_EQ(ex.offset(), sx.fdes[0].instructions_offset);
    EXPECT_NE(std::string(ex.what()).find("is an expression"), std::string::npos) << ex.what();
  }
}

TEST(DwarfCfi, CfaRegisterWithoutARule) {
  // GCC 12's RISC-V CIE: "DW_CFA_def_cfa_register: X2" with no CFA rule before it is CFA=X2+0;
  // after an expression rule, def_cfa_register also makes R+0.
  CfiBuilder b;
  b.begin();
  b.u32(0xffffffff).u8(3).str("").uleb(1).sleb(-4).uleb(1).raw({0x0d, 0x02});
  b.end();
  b.begin();
  b.u32(0).u64(0x1000).u64(0x20).raw(
      {0x41, 0x0e, 0x10, 0x41, 0x0f, 0x02, 0x72, 0x08, 0x41, 0x0d, 0x08});
  b.end();
  CfiSection s = parseCfi(b.bytes, debugFrame());
  CfiTable t = buildTable(s, s.fdes[0], &rv64().dwarf);
  ASSERT_EQ(t.size(), 4u);
  CfiRow r0 = t.row(0), r1 = t.row(1), r3 = t.row(3);
  EXPECT_EQ(r0.cfa.kind, CfaRuleKind::RegisterOffset);
  EXPECT_EQ(r0.cfa.reg, 2u);
  EXPECT_EQ(r0.cfa.offset, 0);
  EXPECT_EQ(r1.cfa.offset, 16);
  EXPECT_EQ(r3.cfa.kind, CfaRuleKind::RegisterOffset);
  EXPECT_EQ(r3.cfa.reg, 8u);
  EXPECT_EQ(r3.cfa.offset, 0);
}

// --- remember/restore_state, restore
// --------------------------------------------------------------

// An .eh_frame as llvm-mc-22 writes it for riscv64 ("zR", pcrel sdata4), at section address
// 0x10000, with the FDE for [0x400, 0x414).
std::vector<uint8_t> riscvEh(std::initializer_list<uint8_t> cie_insns,
                             std::initializer_list<uint8_t> fde_insns) {
  CfiBuilder b;
  b.begin();
  b.u32(0).u8(1).str("zR").uleb(1).sleb(-8).u8(1).uleb(1).u8(0x1b).raw(cie_insns);
  b.end(4);
  size_t fde = b.begin();
  b.u32(uint32_t(fde + 4)); // the CIE pointer: back to offset 0
  size_t field = b.size();
  b.u32(uint32_t(0x400 - (0x10000 + field))); // pcrel
  b.u32(0x14).uleb(0).raw(fde_insns);
  b.end(4);
  b.u32(0); // the zero terminator
  return b.bytes;
}

TEST(DwarfCfi, CfaAsAnExpression) {
  // §4.3: {R, B, AS} ≡ DW_OP_constu AS; DW_OP_LLVM_aspace_bregx R, B; an expression rule is its
  // own expression.
  std::vector<uint8_t> bytes = amdgpuPatterns();
  CfiSection s = parseCfi(bytes, debugFrame());
  CfiTable t = buildTable(s, s.fdes[0]);
  const CfiCie& c = s.cieOf(s.fdes[0]);
  EXPECT_EQ(toText(*cfaExpression(s, t.row(0), c, false)),
            "DW_OP_regx 0x40, DW_OP_deref_size 0x4, DW_OP_lit6, DW_OP_shl, DW_OP_lit6, "
            "DW_OP_LLVM_form_aspace_address");
  std::optional<Expression> e = cfaExpression(s, t.row(2), c, false);
  ASSERT_TRUE(e);
  EXPECT_EQ(toText(*e), "DW_OP_constu 0x6, DW_OP_LLVM_aspace_bregx 0x40 32");
  EXPECT_EQ(e->ops[1].offset, 2u); // as decode() gives them
  std::vector<uint8_t> rv = riscvEh({0x0c, 0x02, 0x10}, {});
  CfiSection sr = parseCfi(rv, ehFrame());
  EXPECT_EQ(toText(*cfaExpression(sr, buildTable(sr, sr.fdes[0]).row(0), sr.cies[0], false)),
            "DW_OP_bregx 0x2 16");
  CfiBuilder none;
  amdgpuCie(none);
  none.begin();
  none.u32(0).u64(0).u64(4);
  none.end();
  CfiSection sn = parseCfi(none.bytes, debugFrame());
  EXPECT_FALSE(cfaExpression(sn, buildTable(sn, sn.fdes[0]).row(0), sn.cies[0], false));
}

TEST(DwarfCfi, RememberRestoreState) {
  std::vector<uint8_t> bytes =
      riscvEh({0x0c, 0x02, 0x00}, // def_cfa X2 0
              {0x44, 0x0e, 0x10,  // advance 4; def_cfa_offset 16
               0x44, 0x81, 0x01,  // advance 4; offset X1 1 (× -8)
               0x0a, 0x88, 0x02,  // remember; offset X8 2
               0x44, 0x0b,        // advance 4; restore_state
               0x44, 0xc1});      // advance 4; restore X1 (no rule in the CIE: removed)
  CfiSection s = parseCfi(bytes, ehFrame(0x10000));
  ASSERT_EQ(s.fdes.size(), 1u);
  EXPECT_EQ(s.fdes[0].initial_location, 0x400u);
  EXPECT_EQ(s.fdes[0].address_range, 0x14u);
  ASSERT_EQ(s.entries.size(), 3u);
  EXPECT_EQ(s.entries[2].kind, CfiEntryKind::Terminator);
  CfiTable t = buildTable(s, s.fdes[0]);
  std::vector<std::string> rows;
  t.forEachRow([&](const CfiRow& r) { rows.push_back(rowText(s, r, rv64())); });
  EXPECT_EQ(rows, (std::vector<std::string>{
                      "0x400: CFA=X2",
                      "0x404: CFA=X2+16",
                      "0x408: CFA=X2+16: X1=[CFA-8], X8=[CFA-16]",
                      "0x40c: CFA=X2+16: X1=[CFA-8]",
                      "0x410: CFA=X2+16",
                  }));
  // RISC-V has no default-same-value rule: unnamed columns are undefined.
  EXPECT_EQ(t.row(0).rule(8, rv64().dwarf).kind, RegisterRuleKind::Undefined);
}

TEST(DwarfCfi, NestedRememberStateRestoresTheCfaToo) {
  std::vector<uint8_t> bytes = riscvEh({0x0c, 0x02, 0x10}, // def_cfa X2 16
                                       {0x0a,              // remember (A: X2+16, no rules)
                                        0x0c, 0x08, 0x00, 0x81, 0x01, // def_cfa X8 0; offset X1
                                        0x0a,                         // remember (B: X8, X1)
                                        0x89, 0x03, 0x0e, 0x20, // offset X9 3; def_cfa_offset 32
                                        0x44, 0x0b,             // advance 4; restore_state (B)
                                        0x44, 0x0b,             // advance 4; restore_state (A)
                                        0x44});
  CfiSection s = parseCfi(bytes, ehFrame(0x10000));
  CfiTable t = buildTable(s, s.fdes[0]);
  std::vector<std::string> rows;
  t.forEachRow([&](const CfiRow& r) { rows.push_back(rowText(s, r, rv64())); });
  EXPECT_EQ(rows, (std::vector<std::string>{
                      "0x400: CFA=X8+32: X1=[CFA-8], X9=[CFA-24]",
                      "0x404: CFA=X8: X1=[CFA-8]",
                      "0x408: CFA=X2+16",
                      "0x40c: CFA=X2+16",
                  }));
}

TEST(DwarfCfi, RestoreGoesBackToTheCieRule) {
  std::vector<uint8_t> bytes =
      riscvEh({0x0c, 0x02, 0x00, 0x81, 0x01}, // def_cfa X2 0; offset X1 1 → [CFA-8]
              {0x81, 0x03,                    // offset X1 3 → [CFA-24]
               0x08, 0x05,                    // same_value X5
               0x06, 0x81, 0x01,              // restore_extended X129 (no rule anywhere)
               0x44, 0xc1,                    // advance 4; restore X1
               0x06, 0x05});                  // restore_extended X5
  CfiSection s = parseCfi(bytes, ehFrame(0x10000));
  CfiTable t = buildTable(s, s.fdes[0]);
  ASSERT_EQ(t.size(), 2u);
  EXPECT_EQ(rowText(s, t.row(0), rv64()), "0x400: CFA=X2: X1=[CFA-24], X5=same");
  EXPECT_EQ(rowText(s, t.row(1), rv64()), "0x404: CFA=X2: X1=[CFA-8]");
  // The CIE's own table.
  CfiTable ct = buildTable(s, s.cies[0]);
  ASSERT_EQ(ct.size(), 1u);
  EXPECT_EQ(rowText(s, ct.row(0), rv64()), "CFA=X2: X1=[CFA-8]");
}

TEST(DwarfCfi, RestoreStateErrors) {
  std::vector<uint8_t> bytes = riscvEh({0x0c, 0x02, 0x00}, {0x0a, 0x0b, 0x0b});
  CfiSection s = parseCfi(bytes, ehFrame());
  CfiError e = tableError(s, 0);
  EXPECT_EQ(e.cfiKind(), CfiErrorKind::IllFormed);
  EXPECT_EQ(e.offset(), s.fdes[0].instructions_offset + 2);

  // remember_state is bounded (no memory grows without limit): the 1025th is an error.
  CfiBuilder b;
  b.begin();
  b.u32(0xffffffff).u8(1).str("").uleb(1).sleb(-8).u8(1).raw({0x0c, 0x02, 0x00});
  b.end();
  b.begin();
  b.u32(0).u64(0).u64(0x10);
  size_t first = b.size();
  for (size_t i = 0; i <= kMaxRememberDepth; ++i) b.u8(0x0a);
  b.end();
  CfiSection deep = parseCfi(b.bytes, debugFrame());
  CfiError d = tableError(deep, 0);
  EXPECT_EQ(d.cfiKind(), CfiErrorKind::Evaluation);
  EXPECT_EQ(d.offset(), first + kMaxRememberDepth);
}

TEST(DwarfCfi, RestoreInACieIsIllFormed) {
  std::vector<uint8_t> bytes = riscvEh({0x0c, 0x02, 0x00, 0xc1}, {});
  CfiSection s = parseCfi(bytes, ehFrame());
  CfiError e = tableError(s, 0);
  EXPECT_EQ(e.cfiKind(), CfiErrorKind::IllFormed);
  EXPECT_EQ(e.offset(), s.cies[0].instructions_offset + 3);
}

TEST(DwarfCfi, AdvanceAndSetLoc) {
  CfiBuilder b;
  b.begin();
  b.u32(0xffffffff).u8(3).str("").uleb(2).sleb(-4).uleb(1).raw({0x0c, 0x02, 0x00});
  b.end();
  b.begin();
  b.u32(0).u64(0x1000).u64(0x10000);
  b.raw({0x02, 0x10});                   // advance_loc1 16 (× 2)
  b.raw({0x03, 0x00, 0x01});             // advance_loc2 256
  b.raw({0x04, 0x00, 0x00, 0x01, 0x00}); // advance_loc4 65536 → past the range: allowed
  b.u8(0x01).u64(0x30000);               // set_loc
  b.raw({0x40});                         // advance_loc 0: a row at the same address
  b.end();
  CfiSection s = parseCfi(b.bytes, debugFrame());
  CfiTable t = buildTable(s, s.fdes[0]);
  std::vector<uint64_t> addresses;
  for (size_t i = 0; i < t.size(); ++i) addresses.push_back(t.address(i));
  EXPECT_EQ(addresses, (std::vector<uint64_t>{0x1000, 0x1020, 0x1220, 0x21220, 0x30000, 0x30000}));
  std::string text = displayCfi(s, displayOptionsFor(rv64(), ExtEncoding::User));
  EXPECT_NE(text.find("  DW_CFA_advance_loc1: 32 to 0x1020\n"
                      "  DW_CFA_advance_loc2: 512 to 0x1220\n"
                      "  DW_CFA_advance_loc4: 131072 to 0x21220\n"
                      "  DW_CFA_set_loc: 30000\n"
                      "  DW_CFA_advance_loc: 0 to 0x30000\n"),
            std::string::npos)
      << text;

  // set_loc must move forward (DWARF 5 §6.4.2.1).
  CfiBuilder back;
  back.raw(
      std::vector<uint8_t>(b.bytes.begin(), b.bytes.begin() + std::ptrdiff_t(s.fdes[0].offset)));
  back.begin();
  back.u32(0).u64(0x1000).u64(0x100).raw({0x44}).u8(0x01).u64(0x1004);
  back.end();
  CfiSection sb = parseCfi(back.bytes, debugFrame());
  CfiError e = tableError(sb, 0);
  EXPECT_EQ(e.cfiKind(), CfiErrorKind::IllFormed);
  EXPECT_EQ(e.offset(), sb.fdes[0].instructions_offset + 1);
}

// --- formats ------------------------------------------------------------------------------------

TEST(DwarfCfi, Dwarf64DebugFrame) {
  CfiBuilder b;
  // def_cfa 96: reserved on AMDGPU, no name (reg96). The text is llvm-dwarfdump-22's for these
  // bytes.
  amdgpuCie(b, {0x0c, 0x60, 0x00}, true);
  b.begin(true);
  b.u64(0).u64(0x2000).u64(0x10).raw({0x41, 0x0e, 0x08});
  b.end(8);
  CfiSection s = parseCfi(b.bytes, debugFrame());
  ASSERT_EQ(s.cies.size(), 1u);
  ASSERT_EQ(s.fdes.size(), 1u);
  EXPECT_TRUE(s.cies[0].dwarf64);
  EXPECT_TRUE(s.fdes[0].dwarf64);
  EXPECT_EQ(s.fdes[0].offset, 12 + s.cies[0].length);
  EXPECT_EQ(s.fdes[0].initial_location, 0x2000u);
  std::string text = displayCfi(s, displayOptionsFor(gfx90a(), ExtEncoding::User));
  EXPECT_EQ(text, "\n"
                  "00000000 000000000000001c ffffffffffffffff CIE\n"
                  "  Format:                DWARF64\n"
                  "  Version:               4\n"
                  "  Augmentation:          \"[amd:v0.0]\"\n"
                  "  Address size:          8\n"
                  "  Segment desc size:     0\n"
                  "  Code alignment factor: 4\n"
                  "  Data alignment factor: 4\n"
                  "  Return address column: 16\n"
                  "\n"
                  "  DW_CFA_def_cfa: reg96 +0\n"
                  "\n"
                  "  CFA=reg96\n"
                  "\n"
                  "00000028 000000000000001c 0000000000000000 FDE cie=00000000 "
                  "pc=00002000...00002010\n"
                  "  Format:       DWARF64\n"
                  "  DW_CFA_advance_loc: 4 to 0x2004\n"
                  "  DW_CFA_def_cfa_offset: +8\n"
                  "  DW_CFA_nop:\n"
                  "\n"
                  "  0x2000: CFA=reg96\n"
                  "  0x2004: CFA=reg96+8\n"
                  "\n");
}

TEST(DwarfCfi, EhFramePointerEncodings) {
  // "zPLR": personality sdata4|pcrel, LSDA udata2, FDE pointers uleb128|pcrel; section at 0x8000.
  CfiBuilder b;
  b.begin();
  b.u32(0).u8(1).str("zPLR").uleb(1).sleb(-8).u8(1);
  b.uleb(7).u8(0x1b);
  size_t personality_field = b.size();
  b.u32(0x100).u8(0x02).u8(0x11).raw({0x0c, 0x02, 0x00});
  b.end();
  size_t fde = b.begin();
  b.u32(uint32_t(fde + 4));
  size_t field = b.size();
  b.uleb(0x30).uleb(0x20).uleb(2).u16(0x1234).raw({0x44, 0x0e, 0x10});
  b.end();
  CfiSection s = parseCfi(b.bytes, ehFrame(0x8000));
  const CfiCie& c = s.cies[0];
  EXPECT_TRUE(c.z_augmentation);
  EXPECT_EQ(c.fde_encoding, 0x11);
  EXPECT_EQ(c.lsda_encoding, 0x02);
  EXPECT_EQ(c.personality_encoding, 0x1b);
  EXPECT_EQ(c.personality, 0x8000 + personality_field + 0x100);
  const CfiFde& f = s.fdes[0];
  EXPECT_EQ(f.initial_location, 0x8000 + field + 0x30);
  EXPECT_EQ(f.address_range, 0x20u); // the value format alone
  EXPECT_EQ(f.lsda, 0x1234u);
  EXPECT_EQ(f.augmentation_data.size(), 2u);
  EXPECT_EQ(s.findFde(f.initial_location + 0x1f), &f);
  EXPECT_EQ(s.findFde(f.initial_location + 0x20), nullptr);
}

TEST(DwarfCfi, EhFrameDatarelNeedsADataBase) {
  CfiBuilder b;
  b.begin();
  b.u32(0).u8(1).str("zR").uleb(1).sleb(-8).u8(1).uleb(1).u8(0x3b).raw({0x0c, 0x02, 0x00});
  b.end();
  size_t fde = b.begin();
  b.u32(uint32_t(fde + 4));
  size_t field = b.size();
  b.u32(0x40).u32(0x10).uleb(0);
  b.end();
  CfiError e = parseError(b.bytes, ehFrame());
  EXPECT_EQ(e.cfiKind(), CfiErrorKind::Evaluation);
  EXPECT_EQ(e.offset(), field);
  CfiFormat f = ehFrame();
  f.data_base = 0x9000;
  CfiSection s = parseCfi(b.bytes, f);
  EXPECT_EQ(s.fdes[0].initial_location, 0x9040u);
}

TEST(DwarfCfi, IndirectFdeAddressIsUnsupported) {
  CfiBuilder b;
  b.begin();
  b.u32(0).u8(1).str("zR").uleb(1).sleb(-8).u8(1).uleb(1);
  size_t enc = b.size();
  b.u8(0x9b);
  b.end();
  CfiError e = parseError(b.bytes, ehFrame());
  EXPECT_EQ(e.cfiKind(), CfiErrorKind::Unsupported);
  EXPECT_EQ(e.offset(), enc);
  EXPECT_NE(std::string(e.what()).find("DW_EH_PE_indirect"), std::string::npos);
}

TEST(DwarfCfi, UnknownAugmentationReadsOnlyWhatDwarfAllows) {
  // A .debug_frame CIE with an augmentation abikit does not know: only length, id, version and
  // augmentation are read; its FDE keeps its address and range, nothing else.
  CfiBuilder b;
  b.begin();
  b.u32(0xffffffff).u8(4).str("[arm:v1.0]").raw({0xff, 0xff, 0xff});
  b.end();
  b.begin();
  b.u32(0).u64(0x5000).u64(0x80).raw({0xff, 0xff});
  b.end();
  CfiSection s = parseCfi(b.bytes, debugFrame());
  EXPECT_FALSE(s.cies[0].understood);
  EXPECT_TRUE(s.fdes[0].opaque);
  EXPECT_EQ(s.fdes[0].initial_location, 0x5000u);
  EXPECT_TRUE(s.instructionsOf(s.fdes[0]).empty());
  try {
    rowForPc(s, 0x5010);
    ADD_FAILURE() << "no error";
  } catch (const CfiError& e) {
    EXPECT_EQ(e.cfiKind(), CfiErrorKind::Unsupported);
    EXPECT_EQ(e.offset(), s.fdes[0].offset);
  }
  // The AMD vendor augmentations and "eh" are understood.
  for (const char* aug : {"[amd:v0.0]", "[amdgpu:v0.0]", "[amd:v12.3:opt]"}) {
    CfiBuilder k;
    k.begin();
    k.u32(0xffffffff).u8(4).str(aug).u8(8).u8(0).uleb(4).sleb(4).uleb(16);
    k.end();
    EXPECT_TRUE(parseCfi(k.bytes, debugFrame()).cies[0].understood) << aug;
  }
  CfiBuilder eh;
  eh.begin();
  eh.u32(0).u8(1).str("eh").u64(0x1234).uleb(1).sleb(-8).u8(1).raw({0x0c, 0x02, 0x00});
  eh.end();
  CfiSection se = parseCfi(eh.bytes, ehFrame());
  EXPECT_EQ(se.cies[0].eh_data, 0x1234u);
  EXPECT_EQ(se.cies[0].return_address_register, 1u);
  ASSERT_EQ(se.instructions.size(), 1u);
}

TEST(DwarfCfi, BigEndian) {
  // Every fixed-size field in the target's byte order: lengths, ids, addresses, advance_loc2.
  CfiBuilder b(Endian::Big);
  b.begin();
  b.u32(0xffffffff).u8(3).str("").uleb(4).sleb(-4).uleb(65).raw({0x0c, 0x01, 0x10});
  b.end();
  b.begin();
  b.u32(0).u32(0x10000).u32(0x200).raw({0x03, 0x01, 0x00, 0x9f, 0x02});
  b.end();
  CfiFormat f = debugFrame(4);
  f.endian = Endian::Big;
  CfiSection s = parseCfi(b.bytes, f);
  ASSERT_EQ(s.fdes.size(), 1u);
  EXPECT_EQ(s.cies[0].return_address_register, 65u);
  EXPECT_EQ(s.fdes[0].initial_location, 0x10000u);
  EXPECT_EQ(s.fdes[0].address_range, 0x200u);
  CfiTable t = buildTable(s, s.fdes[0]);
  ASSERT_EQ(t.size(), 2u);
  EXPECT_EQ(t.address(1), 0x10400u); // 0x100 × 4
  EXPECT_EQ(t.row(1).rules.at(31).offset, -8);
  EXPECT_EQ(t.row(1).cfa.offset, 16);
}

// --- errors at their byte offset
// ------------------------------------------------------------------

TEST(DwarfCfi, ParseErrorsAtTheirOffset) {
  struct Case {
    const char* what;
    std::vector<uint8_t> bytes;
    CfiErrorKind kind;
    uint64_t offset;
    const char* message;
  };
  std::vector<uint8_t> good = riscvEh({0x0c, 0x02, 0x00}, {0x44});
  auto with = [&](size_t at, std::initializer_list<uint8_t> b) {
    std::vector<uint8_t> v = good;
    std::copy(b.begin(), b.end(), v.begin() + std::ptrdiff_t(at));
    return v;
  };
  std::vector<uint8_t> truncated(good.begin(), good.begin() + 6);
  std::vector<Case> cases = {
      {"length past the end", truncated, CfiErrorKind::IllFormed, 0, "runs past the end"},
      {"reserved length", with(0, {0xf0, 0xff, 0xff, 0xff}), CfiErrorKind::IllFormed, 0,
       "reserved length"},
      {"version 2", with(8, {2}), CfiErrorKind::IllFormed, 8, "CIE version 2"},
      {"unknown opcode", with(17, {0x1d}), CfiErrorKind::IllFormed, 17,
       "unknown call frame instruction 0x1d"},
      {"CIE pointer", with(0x18, {0x10}), CfiErrorKind::IllFormed, 0x18, "names no CIE"},
      {"'z' not first", with(10, {'z'}), CfiErrorKind::IllFormed, 0, "'z' is not the first"},
      {"bad format nibble", with(16, {0x07}), CfiErrorKind::IllFormed, 16, "no value format"},
      {"funcrel", with(16, {0x43}), CfiErrorKind::Unsupported, 16, "DW_EH_PE_funcrel"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.what);
    CfiError e = parseError(c.bytes, ehFrame());
    EXPECT_EQ(e.cfiKind(), c.kind);
    EXPECT_EQ(e.offset(), c.offset);
    EXPECT_TRUE(e.hasOffset());
    EXPECT_NE(std::string(e.what()).find(c.message), std::string::npos) << e.what();
  }
  // A truncated operand: the error is at the instruction.
  CfiBuilder b;
  b.begin();
  b.u32(0xffffffff).u8(4).str("").u8(8).u8(0).uleb(1).sleb(-8).uleb(1);
  size_t at = b.size();
  b.raw({0x0c, 0x02, 0x80});
  b.end();
  CfiError e = parseError(b.bytes, debugFrame());
  ASSERT_EQ(at, 15u);
  EXPECT_EQ(e.offset(), at);
  EXPECT_EQ(e.format(),
            "abikit: error: IllFormed at byte 15 (0xf) of .debug_frame: DW_CFA_def_cfa: "
            "an operand runs past the end of the CIE");
}

TEST(DwarfCfi, HeaderFieldsOutOfRange) {
  CfiBuilder a; // address size 2
  a.begin();
  a.u32(0xffffffff).u8(4).str("");
  size_t as = a.size();
  a.u8(2).u8(0).uleb(1).sleb(-8).uleb(1);
  a.end();
  CfiError e = parseError(a.bytes, debugFrame());
  EXPECT_EQ(e.cfiKind(), CfiErrorKind::Unsupported);
  EXPECT_EQ(e.offset(), as);
  CfiBuilder g; // a segment selector
  g.begin();
  g.u32(0xffffffff).u8(4).str("").u8(8);
  size_t seg = g.size();
  g.u8(4).uleb(1).sleb(-8).uleb(1);
  g.end();
  e = parseError(g.bytes, debugFrame());
  EXPECT_EQ(e.cfiKind(), CfiErrorKind::Unsupported);
  EXPECT_EQ(e.offset(), seg);
}

TEST(DwarfCfi, ExpressionErrorsAtTheOperation) {
  CfiBuilder b;
  amdgpuCie(b);
  b.begin();
  b.u32(0).u64(0).u64(16);
  size_t insn = b.size();
  b.raw({0x10, 0x05, 0x03, 0x30, 0x0a, 0x01}); // DW_CFA_expression reg5 [lit0, const2u <1 byte>]
  b.end();
  CfiError e = parseError(b.bytes, debugFrame());
  EXPECT_EQ(e.cfiKind(), CfiErrorKind::IllFormed);
  EXPECT_EQ(e.offset(), insn + 4); // the const2u
  EXPECT_NE(std::string(e.what()).find("Truncated at byte 1"), std::string::npos) << e.what();
}

TEST(DwarfCfi, ZeroAlignmentFactors) {
  CfiBuilder b;
  b.begin();
  b.u32(0xffffffff).u8(1).str("").uleb(0).sleb(0).u8(1).raw({0x0c, 0x02, 0x00});
  b.end();
  b.begin();
  b.u32(0).u64(0).u64(16).raw({0x44, 0x81, 0x01});
  b.end();
  CfiSection s = parseCfi(b.bytes, debugFrame());
  EXPECT_EQ(tableError(s, 0).offset(), s.fdes[0].instructions_offset);
  std::string text = displayCfi(s, displayOptionsFor(rv64(), ExtEncoding::User));
  EXPECT_NE(text.find("  DW_CFA_advance_loc: 4*code_alignment_factor\n"
                      "  DW_CFA_offset: X1 1*data_alignment_factor\n\n\n"),
            std::string::npos)
      << text;
}

// --- the display form
// -----------------------------------------------------------------------------

TEST(DwarfCfi, DisplayEveryInstruction) {
  CfiBuilder b;
  b.begin();
  b.u32(0xffffffff).u8(4).str("").u8(8).u8(0).uleb(4).sleb(-8).uleb(1).raw({0x0c, 0x02, 0x00});
  b.end();
  b.begin();
  b.u32(0).u64(0x100).u64(0x100);
  b.raw({0x05, 0x28, 0x02});             // offset_extended F8_H (40) 2 → -16
  b.raw({0x11, 0x09, 0x7e});             // offset_extended_sf X9 -2 → +16
  b.raw({0x14, 0x0a, 0x03});             // val_offset X10 3 → -24
  b.raw({0x15, 0x0b, 0x7f});             // val_offset_sf X11 -1 → +8
  b.raw({0x09, 0x0c, 0x0d});             // register X12 X13
  b.raw({0x10, 0x0e, 0x02, 0x72, 0x08}); // expression X14 [DW_OP_breg2 X2+8]
  b.raw({0x16, 0x0f, 0x01, 0x30});       // val_expression X15 [DW_OP_lit0]
  b.raw({0x2e, 0x10});                   // GNU_args_size 16
  b.raw({0x2f, 0x10, 0x01});             // GNU_negative_offset_extended X16 1 → +8
  b.raw({0x12, 0x08, 0x7e});             // def_cfa_sf X8 -2 → +16
  b.raw({0x13, 0x7c});                   // def_cfa_offset_sf -4 → +32
  b.raw({0x0d, 0x02});                   // def_cfa_register X2
  b.raw({0x0f, 0x02, 0x72, 0x00});       // def_cfa_expression
  b.raw({0x07, 0x11, 0x08, 0x12});       // undefined X17, same_value X18
  b.end();
  CfiSection s = parseCfi(b.bytes, debugFrame());
  std::string text = displayCfi(s, displayOptionsFor(rv64(), ExtEncoding::User));
  EXPECT_NE(text.find("  DW_CFA_offset_extended: F8_H -16\n"
                      "  DW_CFA_offset_extended_sf: X9 16\n"
                      "  DW_CFA_val_offset: X10 -24\n"
                      "  DW_CFA_val_offset_sf: X11 8\n"
                      "  DW_CFA_register: X12 X13\n"
                      "  DW_CFA_expression: X14 DW_OP_breg2 X2+8\n"
                      "  DW_CFA_val_expression: X15 DW_OP_lit0\n"
                      "  : +16\n"
                      "  DW_CFA_GNU_negative_offset_extended: X16 8\n"
                      "  DW_CFA_def_cfa_sf: X8 16\n"
                      "  DW_CFA_def_cfa_offset_sf: 32\n"
                      "  DW_CFA_def_cfa_register: X2\n"
                      "  DW_CFA_def_cfa_expression: DW_OP_breg2 X2+0\n"
                      "  DW_CFA_undefined: X17\n"
                      "  DW_CFA_same_value: X18\n"
                      "\n"
                      "  0x100: CFA=DW_OP_breg2 X2+0: X9=[CFA+16], X10=CFA-24, X11=CFA+8, X12=X13, "
                      "X14=[DW_OP_breg2 X2+8], X15=DW_OP_lit0, X16=[CFA+8], X17=undefined, "
                      "X18=same, F8_H=[CFA-16]\n"),
            std::string::npos)
      << text;
}

TEST(DwarfCfi, ManyColumnsAndRowsStayLinear) {
  // 100,000 registers saved, then 100,000 rows: the table keeps 100,000 changes, not 10^10.
  CfiBuilder b;
  b.begin();
  b.u32(0xffffffff).u8(4).str("").u8(8).u8(0).uleb(1).sleb(-8).uleb(1).raw({0x0c, 0x02, 0x00});
  b.end();
  b.begin();
  b.u32(0).u64(0).u64(1 << 20);
  const size_t n = 100000;
  for (size_t i = 0; i < n; ++i) b.u8(0x05).uleb(i + 64).uleb(1);
  for (size_t i = 0; i < n; ++i) b.u8(0x41);
  for (size_t i = 0; i < 1000; ++i) b.raw({0x0a, 0x0b}); // remember/restore: no copies
  b.end();
  CfiSection s = parseCfi(b.bytes, debugFrame());
  CfiTable t = buildTable(s, s.fdes[0]);
  EXPECT_EQ(t.size(), n + 1);
  std::optional<CfiRow> last = t.rowAt(n);
  ASSERT_TRUE(last);
  EXPECT_EQ(last->rules.size(), n);
  size_t visited = 0;
  t.forEachRow([&](const CfiRow& r) { visited += r.rules.size() == n; });
  EXPECT_EQ(visited, n + 1);
}

} // namespace
