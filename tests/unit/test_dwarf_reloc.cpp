// The DWARF of relocatable objects: abikit::debugSections applies the relocations of the debug
// sections with each family's ElfMachineInfo::debug_relocations. Objects written by the test's
// ELF writer for the targets without an installable compiler (DPU, IPU) and for RISC-V and
// AMDGPU; every RISC-V kind (ADD/SUB, SET6/SUB6, SET, ULEB128 pairs) on raw bytes; hostile
// relocations (outside the section, unknown or misplaced types, a bad symbol index, unpaired or
// overflowing ULEB128s) fail with one error at the relocation's entry. Real compilers' objects
// against llvm-dwarfdump: tests/differential/diff_dwarf_reloc.cpp.
#include "../support/dwarf_builder.h"
#include "abikit/dwarf_info.h"
#include "abikit/elf.h"
#include "abikit/elf_constants.h"
#include "elf_writer.h"

#include <gtest/gtest.h>
#include <string>
#include <vector>

namespace {

using namespace abikit;
using namespace abikit::dwarf;
using abikit::test::DwarfBuilder;
using abikit::test::ElfWriter;

struct Machine {
  const char* name;
  uint16_t machine;
  bool is64;
  uint32_t offset_type;  // a 4-byte S + A (DW_FORM_strp)
  uint32_t address_type; // an address-sized S + A (DW_FORM_addr)
};

// A compile unit "cu.c" [0x100, 0x140) holding subprogram "fn" [0x120, 0x130), every name and
// address written as 0 (RELA) or as the addend (REL), relocated against the section symbols of
// .text and .debug_str and a function symbol.
std::vector<uint8_t> objectWithRelocatedUnit(const Machine& m, bool rela) {
  const uint8_t asize = m.is64 ? 8 : 4;
  DwarfBuilder b(4, false, asize);
  b.abbrev(
      1, DW_TAG_compile_unit, true,
      {{DW_AT_name, DW_FORM_strp}, {DW_AT_low_pc, DW_FORM_addr}, {DW_AT_high_pc, DW_FORM_data4}});
  b.abbrev(
      2, DW_TAG_subprogram, false,
      {{DW_AT_name, DW_FORM_strp}, {DW_AT_low_pc, DW_FORM_addr}, {DW_AT_high_pc, DW_FORM_data4}});
  b.endAbbrevs();
  auto a = [&](int64_t addend) { return rela ? 0 : uint64_t(addend); };
  b.die(1);
  const uint64_t cu_name = b.here();
  b.u32(a(4));
  const uint64_t cu_low = b.here();
  b.addr(a(0x100)).u32(0x40);
  b.die(2);
  const uint64_t fn_name = b.here();
  b.u32(a(9));
  const uint64_t fn_low = b.here();
  b.addr(a(0)).u32(0x10);
  b.end();
  b.finishUnit();

  ElfWriter w(m.is64 ? 2 : 1, 1, m.machine);
  const uint32_t text = w.addSection(".text", 1, 6, std::vector<uint8_t>(0x200, 0));
  const uint32_t info = w.addSection(".debug_info", 1, 0, b.infoBytes());
  w.addSection(".debug_abbrev", 1, 0, b.abbrevBytes());
  const std::string str("\0\0\0\0cu.c\0fn\0", 12);
  const uint32_t strs = w.addSection(".debug_str", 1, 0x30, {str.begin(), str.end()});
  const uint32_t text_sym = w.addSymbol("", 0, 0, kSttSection, kStbLocal, uint16_t(text));
  const uint32_t str_sym = w.addSymbol("", 0, 0, kSttSection, kStbLocal, uint16_t(strs));
  const uint32_t fn = w.addSymbol("fn", 0x120, 0x10, kSttFunc, kStbGlobal, uint16_t(text));
  w.addRelocation(info, cu_name, m.offset_type, str_sym, 4, rela);
  w.addRelocation(info, cu_low, m.address_type, text_sym, 0x100, rela);
  w.addRelocation(info, fn_name, m.offset_type, str_sym, 9, rela);
  w.addRelocation(info, fn_low, m.address_type, fn, 0, rela);
  return w.build();
}

class DwarfReloc : public testing::TestWithParam<std::tuple<Machine, bool>> {};

TEST_P(DwarfReloc, UnitReadWithRelocationsApplied) {
  const auto& [m, rela] = GetParam();
  const std::vector<uint8_t> bytes = objectWithRelocatedUnit(m, rela);
  ElfFile f = ElfFile::fromMemory("t.o", bytes);
  DebugSections s = debugSections(f);
  EXPECT_EQ(s.owned.size(), 1u); // .debug_info
  DebugInfo info(std::move(s));
  ASSERT_EQ(info.units().size(), 1u);
  const Unit& u = info.units()[0];
  ASSERT_EQ(u.dies.size(), 2u);
  EXPECT_EQ(info.name(u, u.dies[0]), "cu.c");
  EXPECT_EQ(info.name(u, u.dies[1]), "fn");
  std::vector<PcRange> r;
  info.pcRanges(u, u.dies[0], r);
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0].begin, 0x100u);
  EXPECT_EQ(r[0].end, 0x140u);
  info.pcRanges(u, u.dies[1], r);
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0].begin, 0x120u);
  EXPECT_EQ(r[0].end, 0x130u);
  EXPECT_EQ(variablesAt(info, 0x124).function, "fn");
}

// R_DPU_32 and R_COLOSSUS_32 are the families' 32-bit data relocations (src/target/dpu.cpp,
// ipu.cpp); RISC-V R_RISCV_32; AMDGPU R_AMDGPU_ABS32 and R_AMDGPU_ABS64.
INSTANTIATE_TEST_SUITE_P(
    Families, DwarfReloc,
    testing::Combine(testing::Values(Machine{"dpu", kEmDpu, false, 1, 1},
                                     Machine{"ipu", kEmGraphcoreIpu, false, 4, 4},
                                     Machine{"rv32", kEmRiscv, false, 1, 1},
                                     Machine{"rv64", kEmRiscv, true, 1, 2},
                                     Machine{"amdgpu", kEmAmdgpu, true, 6, 3}),
                     testing::Bool()),
    [](const auto& i) {
      return std::string(std::get<0>(i.param).name) + (std::get<1>(i.param) ? "_rela" : "_rel");
    });

// ----- one relocation kind at a time, on the bytes of .debug_info (not read as a unit) --------

struct Reloc {
  uint64_t offset;
  uint32_t type;
  uint32_t symbol; // 1: the symbol at 0x30 in .text (0: none)
  int64_t addend;
};

// .debug_info holding `bytes`, relocated by `relocs` (RISC-V, ELF64); the relocated bytes.
std::vector<uint8_t> relocated(std::vector<uint8_t> bytes, const std::vector<Reloc>& relocs,
                               uint16_t machine = kEmRiscv, std::vector<uint8_t>* image = nullptr) {
  ElfWriter w(2, 1, machine);
  const uint32_t text = w.addSection(".text", 1, 6, std::vector<uint8_t>(0x100, 0));
  const uint32_t info = w.addSection(".debug_info", 1, 0, std::move(bytes));
  w.addSymbol("sym", 0x30, 0, kSttFunc, kStbGlobal, uint16_t(text));
  for (const Reloc& r : relocs) w.addRelocation(info, r.offset, r.type, r.symbol, r.addend);
  std::vector<uint8_t> elf = w.build();
  if (image) *image = elf;
  ElfFile f = ElfFile::fromMemory("t.o", elf);
  DebugSections s = debugSections(f);
  return {s.info.bytes.begin(), s.info.bytes.end()};
}

TEST(DwarfRelocRiscv, EveryKind) {
  using V = std::vector<uint8_t>;
  // R_RISCV_64 then ADD64/SUB64 (a label difference), ADD32/SUB32, ADD16/SUB16, ADD8/SUB8.
  EXPECT_EQ(relocated(V(8, 0), {{0, 2, 1, 2}}), (V{0x32, 0, 0, 0, 0, 0, 0, 0}));
  EXPECT_EQ(relocated(V{5, 0, 0, 0, 0, 0, 0, 0}, {{0, 36, 1, 0x10}, {0, 40, 0, 0x8}}),
            (V{0x3d, 0, 0, 0, 0, 0, 0, 0}));
  EXPECT_EQ(relocated(V{1, 0, 0, 0}, {{0, 35, 1, 0}, {0, 39, 1, 0x40}}),
            (V{0xc1, 0xff, 0xff, 0xff}));
  EXPECT_EQ(relocated(V{0, 0}, {{0, 34, 1, 2}, {0, 38, 0, 1}}), (V{0x31, 0}));
  EXPECT_EQ(relocated(V{0}, {{0, 33, 1, 0}, {0, 37, 0, 0x31}}), (V{0xff}));
  // SET6 / SUB6 keep the top two bits (DW_CFA_advance_loc's opcode); SET8/16/32 truncate.
  EXPECT_EQ(relocated(V{0x40}, {{0, 53, 0, 0x45}}), (V{0x45}));
  EXPECT_EQ(relocated(V{0x45}, {{0, 52, 0, 0x6}}), (V{0x7f}));
  EXPECT_EQ(relocated(V{0}, {{0, 54, 1, 0x100}}), (V{0x30}));
  EXPECT_EQ(relocated(V{0, 0}, {{0, 55, 1, 0}}), (V{0x30, 0}));
  EXPECT_EQ(relocated(V{0, 0, 0, 0}, {{0, 56, 1, 0}}), (V{0x30, 0, 0, 0}));
  // R_RISCV_32_PCREL: P is the section's address (0) plus the offset.
  EXPECT_EQ(relocated(V{0, 0, 0, 0, 0, 0, 0, 0}, {{4, 57, 1, 0}}), (V{0, 0, 0, 0, 0x2c, 0, 0, 0}));
  // RELAX and ALIGN leave the bytes.
  EXPECT_EQ(relocated(V{7}, {{0, 51, 0, 0}, {0, 43, 0, 4}}), (V{7}));
  // A ULEB128 pair, re-encoded at the length it has (two bytes: 0x80 0x00 holds 0 padded).
  EXPECT_EQ(relocated(V{0x80, 0x00, 9}, {{0, 60, 1, 0x10}, {0, 61, 0, 0x2}}), (V{0xbe, 0x00, 9}));
  EXPECT_EQ(relocated(V{0x80, 0x80, 0x00}, {{0, 60, 1, 0x100}, {0, 61, 1, 0}}),
            (V{0x80, 0x82, 0x00}));
}

void expectFailure(std::vector<uint8_t> bytes, const std::vector<Reloc>& relocs,
                   const std::string& words, size_t bad_entry, uint64_t field = 0) {
  std::vector<uint8_t> image;
  try {
    relocated(bytes, relocs, kEmRiscv, &image);
    ADD_FAILURE() << "no error; expected: " << words;
  } catch (const Error& e) {
    EXPECT_NE(e.message().find(words), std::string::npos) << e.message();
    // The offset is the relocation entry's (ELF64 RELA: 24 bytes each) plus `field`.
    ElfFile f = ElfFile::fromMemory("t.o", image);
    const ElfSection* rela = f.findSection(".rela.debug_info");
    ASSERT_TRUE(rela);
    EXPECT_EQ(e.offset(), rela->offset + 24 * bad_entry + field) << e.message();
  }
}

TEST(DwarfRelocRiscv, HostileRelocationsFailAtTheirEntry) {
  using V = std::vector<uint8_t>;
  expectFailure(V(8, 0), {{0, 2, 1, 0}, {0x1000, 1, 1, 0}},
                "relocation 1 of section [5] '.rela.debug_info': R_RISCV_32 (1) at offset 0x1000 "
                "of .debug_info: outside the section (0x8 bytes)",
                1);
  expectFailure(V(8, 0), {{6, 1, 1, 0}},
                "R_RISCV_32 (1) at offset 0x6 of .debug_info: its "
                "4-byte field does not fit in the section (0x8 bytes)",
                0);
  expectFailure(V(8, 0), {{0, 150, 1, 0}},
                "relocation type 150 at offset 0x0 of .debug_info: unknown to abikit for EM_RISCV",
                0);
  expectFailure(V(8, 0), {{0, 26, 1, 0}},
                "R_RISCV_HI20 (26) at offset 0x0 of .debug_info: not a relocation abikit applies "
                "in a debug section",
                0);
  expectFailure(V(8, 0), {{0, 61, 1, 0}},
                "R_RISCV_SUB_ULEB128 (61) at offset 0x0 of .debug_info: no SET_ULEB128 relocation "
                "at the same offset precedes it",
                0);
  expectFailure(V(8, 0), {{0, 60, 1, 0}, {1, 61, 1, 0}},
                "R_RISCV_SET_ULEB128 (60) at offset 0x0 of .debug_info: not followed by its "
                "SUB_ULEB128 relocation at the same offset",
                0);
  expectFailure(V(8, 0), {{0, 60, 1, 0x100}, {0, 61, 0, 0}},
                "the difference 0x130 does not fit the 1-byte ULEB128 there", 0);
  expectFailure(V(2, 0x80), {{0, 60, 1, 0}, {0, 61, 0, 0}},
                "the ULEB128 there runs past the end of the section", 0);
  expectFailure(V(8, 0), {{0, 1, 1, int64_t(0x100000000)}},
                "the value 0x100000030 does not fit its 4 bytes", 0);
  // The symbol index is checked by the reader of the relocation (its r_info field).
  expectFailure(V(8, 0), {{0, 1, 7, 0}}, "names symbol 7, but the symbol table has 2 entries", 0,
                8);
}

TEST(DwarfRelocRiscv, UnknownMachineIsAnError) {
  ElfWriter w(2, 1, 62); // EM_X86_64
  const uint32_t info = w.addSection(".debug_info", 1, 0, std::vector<uint8_t>(8, 0));
  w.addRelocation(info, 0, 1, 0, 0);
  const std::vector<uint8_t> elf = w.build();
  ElfFile f = ElfFile::fromMemory("t.o", elf);
  try {
    (void)debugSections(f);
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(e.message().find("e_machine 62 is no machine abikit knows the relocations of"),
              std::string::npos)
        << e.message();
  }
}

} // namespace
