// The ELF reader on objects made by the test-side writer: both classes, both byte orders,
// sections, symbols (incl. SHN_XINDEX), REL and RELA relocations, notes in sections (4- and
// 8-byte alignment) and in PT_NOTE segments, the extended section numbering.
#include "abikit/diag.h"
#include "abikit/elf.h"
#include "elf_writer.h"

#include <gtest/gtest.h>

namespace {

using abikit::ElfFile;
using abikit::test::ElfWriter;

struct Format {
  uint8_t cls;
  uint8_t data;
};
const Format kFormats[] = {{1, 1}, {1, 2}, {2, 1}, {2, 2}};

std::string formatName(const Format& f) {
  return std::string(f.cls == 2 ? "ELF64" : "ELF32") + (f.data == 2 ? "MSB" : "LSB");
}

// An object with text/data/bss, symbols of every kind, REL and RELA relocations and a note.
ElfWriter sampleObject(Format fmt, uint16_t machine = abikit::kEmRiscv) {
  ElfWriter w(fmt.cls, fmt.data, machine, 0x5);
  uint32_t text = w.addSection(".text", 1, 6, std::vector<uint8_t>(64, 0x13), 0, 0, 4);
  uint32_t data = w.addSection(".data", 1, 3, std::vector<uint8_t>(16, 0), 0, 0, 8);
  uint32_t bss = w.addNobits(".bss", 1 << 20);
  w.addSymbol("", 0, 0, 3, 0, uint16_t(text)); // section symbol
  w.addSymbol("local_fn", 8, 12, 2, 0, uint16_t(text));
  w.addSymbol("main", 0, 64, 2, 1, uint16_t(text), 2); // hidden
  w.addSymbol("counter", 4, 4, 1, 2, uint16_t(data));  // weak
  w.addSymbol("buffer", 0, 1 << 20, 1, 1, uint16_t(bss));
  w.addSymbol("extern_fn", 0, 0, 0, 1, 0);
  w.addSymbol("abs", 0x1234, 0, 0, 1, 0xfff1);
  w.addRelocation(text, 4, 19, 6, 0);   // RELA against extern_fn
  w.addRelocation(text, 12, 26, 3, -8); // negative addend
  w.addRelocation(data, 8, fmt.cls == 2 ? 2 : 1, 4, 16);
  w.addRelocation(text, 20, 27, 1, 0, false); // REL against the section symbol
  w.addNote(".note.test", "GNU", 3, {0xde, 0xad, 0xbe, 0xef});
  std::vector<uint8_t> version; // in the file's byte order
  w.put32(version, 2);
  w.put32(version, 1);
  w.addNote(".note.test", "AMD", 1, version);
  return w;
}

TEST(ElfReader, RoundTripsEveryClassAndByteOrder) {
  for (const Format& fmt : kFormats) {
    SCOPED_TRACE(formatName(fmt));
    ElfWriter w = sampleObject(fmt);
    std::vector<uint8_t> bytes = w.build();
    ElfFile f = ElfFile::fromMemory("sample.o", bytes);
    EXPECT_EQ(f.header().elf_class, fmt.cls);
    EXPECT_EQ(f.header().data, fmt.data);
    EXPECT_EQ(f.header().machine, 243);
    EXPECT_EQ(f.header().flags, 0x5u);
    EXPECT_EQ(f.header().type, 1);
    EXPECT_TRUE(f.problems().empty()) << f.problems().front();

    ASSERT_NE(f.findSection(".text"), nullptr);
    EXPECT_EQ(f.findSection(".text")->size, 64u);
    EXPECT_EQ(f.contents(*f.findSection(".text")).size(), 64u);
    EXPECT_EQ(f.contents(*f.findSection(".text"))[0], 0x13);
    const abikit::ElfSection* bss = f.findSection(".bss");
    ASSERT_NE(bss, nullptr);
    EXPECT_EQ(bss->type, abikit::kShtNobits);
    EXPECT_EQ(bss->size, 1u << 20); // larger than the file: fine for NOBITS
    EXPECT_TRUE(f.contents(*bss).empty());

    auto tables = f.symbolTables();
    ASSERT_EQ(tables.size(), 1u);
    const abikit::ElfSymbolTable& t = tables[0];
    ASSERT_EQ(t.size(), 8u);
    EXPECT_EQ(t[0].name, "");
    EXPECT_EQ(t[1].type(), 3);
    EXPECT_EQ(t[2].name, "local_fn");
    EXPECT_EQ(t[2].value, 8u);
    EXPECT_EQ(t[2].size, 12u);
    EXPECT_EQ(t[3].name, "main");
    EXPECT_EQ(t[3].binding(), 1);
    EXPECT_EQ(t[3].visibility(), 2);
    EXPECT_EQ(t[4].binding(), 2);
    EXPECT_EQ(t[5].size, 1u << 20);
    EXPECT_EQ(t[6].shndx, 0u);
    EXPECT_EQ(t[7].shndx, abikit::kShnAbs);
    EXPECT_EQ(t[7].value, 0x1234u);

    auto relocs = f.relocationTables();
    ASSERT_EQ(relocs.size(), 3u); // .rela.text, .rela.data, .rel.text
    const abikit::ElfRelocationTable& rt = relocs[0];
    EXPECT_TRUE(rt.rela());
    EXPECT_EQ(rt.section().name, ".rela.text");
    ASSERT_NE(rt.target(), nullptr);
    EXPECT_EQ(rt.target()->name, ".text");
    ASSERT_EQ(rt.size(), 2u);
    EXPECT_EQ(rt[0].offset, 4u);
    EXPECT_EQ(rt[0].type, 19u);
    EXPECT_EQ(rt[0].symbol, 6u);
    EXPECT_EQ(rt.symbols()[rt[0].symbol].name, "extern_fn");
    EXPECT_EQ(rt[1].addend, -8);
    EXPECT_EQ(relocs[1].section().name, ".rela.data");
    EXPECT_EQ(relocs[1][0].addend, 16);
    const abikit::ElfRelocationTable& rel = relocs[2];
    EXPECT_FALSE(rel.rela());
    EXPECT_EQ(rel[0].type, 27u);
    EXPECT_EQ(rel[0].symbol, 1u);
    EXPECT_EQ(rel[0].addend, 0);

    auto notes = f.notes();
    ASSERT_EQ(notes.size(), 2u);
    EXPECT_EQ(notes[0].name, "GNU");
    EXPECT_EQ(notes[0].type, 3u);
    EXPECT_EQ(notes[0].desc.size(), 4u);
    EXPECT_EQ(notes[1].name, "AMD");
    abikit::DecodedNote d = abikit::decodeNote(f, notes[1]);
    EXPECT_EQ(d.type_name, "NT_AMD_HSA_CODE_OBJECT_VERSION");
    EXPECT_EQ(d.body, "[Major: 2, Minor: 1]");
  }
}

TEST(ElfReader, MachineKnowledgeComesFromTheFamilyTables) {
  ElfWriter w = sampleObject({1, 1});
  std::vector<uint8_t> bytes = w.build();
  ElfFile f = ElfFile::fromMemory("rv.o", bytes);
  ASSERT_NE(f.machine(), nullptr);
  EXPECT_EQ(f.machine()->name, "EM_RISCV");
  EXPECT_EQ(f.flagsInfo().target, "riscv32-unknown-elf");
  const abikit::RelocationType* r = abikit::elfRelocationType(f, 19);
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(r->name, "R_RISCV_CALL_PLT");

  ElfWriter u(1, 1, 0x1234);
  u.addSection(".text", 1, 6, {1, 2, 3, 4});
  std::vector<uint8_t> ub = u.build();
  ElfFile g = ElfFile::fromMemory("unknown.o", ub);
  EXPECT_EQ(g.machine(), nullptr);
  EXPECT_TRUE(g.flagsInfo().target.empty());
  EXPECT_EQ(abikit::elfRelocationType(g, 1), nullptr);
}

TEST(ElfReader, NotesWithEightByteAlignment) {
  for (const Format& fmt : kFormats) {
    SCOPED_TRACE(formatName(fmt));
    ElfWriter w(fmt.cls, fmt.data, abikit::kEmRiscv);
    w.addNote(".note.gnu.property", "GNU", 5, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}, 8);
    w.addNote(".note.gnu.property", "AMDGPU", 32, {0x80}, 8);
    std::vector<uint8_t> bytes = w.build();
    ElfFile f = ElfFile::fromMemory("n.o", bytes);
    auto notes = f.notes();
    ASSERT_EQ(notes.size(), 2u);
    EXPECT_EQ(notes[0].desc.size(), 12u);
    EXPECT_EQ(notes[0].desc[11], 12);
    // The descriptor starts at the 12-byte header plus "GNU\0" rounded up to 8: 16.
    EXPECT_EQ(notes[0].desc_offset, notes[0].offset + 16);
    // "AMDGPU\0" is 7 bytes: 12 + 7 rounds up to 24; the first note took 16 + 16 bytes.
    EXPECT_EQ(notes[1].offset, notes[0].offset + 32);
    EXPECT_EQ(notes[1].desc_offset, notes[1].offset + 24);
    EXPECT_EQ(notes[1].name, "AMDGPU");
    EXPECT_EQ(notes[1].desc.size(), 1u);
  }
}

TEST(ElfReader, NotesFromProgramHeadersWhenThereAreNoSections) {
  for (const Format& fmt : kFormats) {
    SCOPED_TRACE(formatName(fmt));
    ElfWriter w(fmt.cls, fmt.data, abikit::kEmAmdgpu, 0x2f, 64, 2);
    w.e_type = 3;
    w.addNote(".note", "AMD", 11, {'g', 'f', 'x'});
    w.no_sections = true;
    // The note section's data follows the program header table.
    uint64_t ph = w.ehsize() + (fmt.cls == 2 ? 56 : 32);
    uint64_t at = (ph + 3) & ~uint64_t(3);
    w.addSegment(abikit::kPtNote, 4, at, 20);
    std::vector<uint8_t> bytes = w.build();
    ASSERT_EQ(w.section_offsets[1], at);
    ElfFile f = ElfFile::fromMemory("exe", bytes);
    EXPECT_TRUE(f.sections().empty());
    ASSERT_EQ(f.segments().size(), 1u);
    auto notes = f.notes();
    ASSERT_EQ(notes.size(), 1u);
    EXPECT_EQ(notes[0].segment, &f.segments()[0]);
    EXPECT_EQ(abikit::decodeNote(f, notes[0]).body, "gfx");
  }
}

TEST(ElfReader, ExtendedSectionNumbering) {
  for (const Format& fmt : kFormats) {
    SCOPED_TRACE(formatName(fmt));
    ElfWriter w = sampleObject(fmt);
    std::vector<uint8_t> bytes = w.build();
    uint32_t n = uint32_t((bytes.size() - w.shoff) / w.shentsize());
    // e_shnum = 0: the count is in section 0's sh_size; e_shstrndx = SHN_XINDEX: in sh_link.
    w.set16(bytes, w.eShnum(), 0);
    w.setWord(bytes, w.sectionHeaderField(0, w.shSize()), n);
    w.set16(bytes, w.eShstrndx(), 0xffff);
    w.set32(bytes, w.sectionHeaderField(0, w.shLink()), w.shstrtab_index);
    ElfFile f = ElfFile::fromMemory("x.o", bytes);
    EXPECT_EQ(f.header().shnum, n);
    EXPECT_EQ(f.header().shstrndx, w.shstrtab_index);
    EXPECT_NE(f.findSection(".rela.text"), nullptr);
  }
}

TEST(ElfReader, SymbolsWithExtendedSectionIndices) {
  for (const Format& fmt : kFormats) {
    SCOPED_TRACE(formatName(fmt));
    ElfWriter w(fmt.cls, fmt.data, abikit::kEmRiscv);
    uint32_t text = w.addSection(".text", 1, 6, std::vector<uint8_t>(8, 0));
    w.addSymbol("a", 0, 0, 2, 1, uint16_t(text));
    w.addSymbol("b", 4, 0, 2, 1, 0xffff); // SHN_XINDEX
    // SHT_SYMTAB_SHNDX: one word per symbol; its sh_link is patched to .symtab below.
    std::vector<uint8_t> shndx;
    w.put32(shndx, 0);
    w.put32(shndx, 0);
    w.put32(shndx, text);
    uint32_t x = w.addSection(".symtab_shndx", abikit::kShtSymtabShndx, 0, shndx, 0, 0, 4, 4);
    std::vector<uint8_t> bytes = w.build();
    w.set32(bytes, w.sectionHeaderField(x, w.shLink()), w.symtab_index);
    ElfFile f = ElfFile::fromMemory("x.o", bytes);
    auto t = f.symbolTables().at(0);
    EXPECT_EQ(t[1].shndx, text);
    EXPECT_EQ(t[2].shndx, text);
    EXPECT_EQ(t[2].name, "b");
  }
}

TEST(ElfReader, SectionHeadersBeforeTheData) {
  ElfWriter w = sampleObject({2, 1});
  w.headers_first = true;
  std::vector<uint8_t> bytes = w.build();
  ElfFile f = ElfFile::fromMemory("x.o", bytes);
  EXPECT_EQ(f.header().shoff, 64u);
  EXPECT_EQ(f.symbolTables().at(0)[3].name, "main");
}

TEST(ElfReader, OpensFilesAndReportsMissingOnes) {
  try {
    ElfFile::open("/nonexistent/abikit-test.o");
    FAIL() << "no error";
  } catch (const abikit::Error& e) {
    EXPECT_NE(e.message().find("cannot open"), std::string::npos);
  }
  try {
    ElfFile::open("/");
    FAIL() << "no error";
  } catch (const abikit::Error& e) {
    EXPECT_NE(e.message().find("not a regular file"), std::string::npos);
  }
}

TEST(ElfReader, NamesForPeople) {
  EXPECT_EQ(abikit::elfTypeName(1), "REL");
  EXPECT_EQ(abikit::elfOsabiName(64, 224), "AMDGPU_HSA");
  EXPECT_EQ(abikit::elfOsabiName(64, 243), "");
  EXPECT_EQ(abikit::elfOsabiName(255, 248), "STANDALONE");
  EXPECT_EQ(abikit::elfSymbolTypeName(10, 224, 64), "AMDGPU_HSA_KERNEL");
  EXPECT_EQ(abikit::elfSymbolTypeName(10, 62, 3), "GNU_IFUNC");
  EXPECT_EQ(abikit::elfSpecialSectionIndexName(0xff00, 224), "AMDGPU_LDS");
  EXPECT_EQ(abikit::elfSpecialSectionIndexName(0xff00, 243), "");
  EXPECT_EQ(abikit::elfSectionTypeName(abikit::kShtRiscvAttributes, 243), "RISCV_ATTRIBUTES");
  EXPECT_EQ(abikit::elfSectionFlagLetters(0x42), "AI");
  EXPECT_EQ(abikit::elfSectionFlagLetters(0x6), "AX");
}

} // namespace
