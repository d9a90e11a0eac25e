// Hostile input: every class of malformed object the reader must reject with an abikit::Error at
// the right byte offset (never a crash, a hang or an out-of-bounds read; the unit tests also run
// under ASan+UBSan), and a sweep of truncations and byte flips over whole objects.
#include "abikit/diag.h"
#include "abikit/elf.h"
#include "abikit/emit.h"
#include "elf_writer.h"

#include <functional>
#include <gtest/gtest.h>
#include <random>

namespace {

using abikit::ElfFile;
using abikit::test::ElfWriter;

/// Runs `use` on the bytes (after opening) and returns the abikit::Error it must throw.
abikit::Error errorOf(const std::vector<uint8_t>& bytes,
                      const std::function<void(const ElfFile&)>& use = {}) {
  try {
    ElfFile f = ElfFile::fromMemory("bad.o", bytes);
    if (use) use(f);
  } catch (const abikit::Error& e) {
    return e;
  }
  ADD_FAILURE() << "no error";
  return abikit::Error(abikit::ErrorKind::Elf, "");
}

void expectErrorAt(const std::vector<uint8_t>& bytes, uint64_t offset, const std::string& text,
                   const std::function<void(const ElfFile&)>& use = {}) {
  abikit::Error e = errorOf(bytes, use);
  EXPECT_TRUE(e.hasOffset()) << e.message();
  EXPECT_EQ(e.offset(), offset) << e.message();
  EXPECT_NE(e.message().find(text), std::string::npos) << e.message();
  EXPECT_EQ(e.format().rfind("bad.o: error: ", 0), 0u) << e.format();
}

// Reads everything the CLI can show, and checks that checkElfView() (run by the CLI before it
// streams anything) fails exactly when the text and JSON writers fail, with their first error.
void readAll(const ElfFile& f) {
  const abikit::ElfViewOptions all{true, true, true};
  std::string checked;
  try {
    abikit::checkElfView(f, all);
  } catch (const abikit::Error& e) {
    checked = e.format();
  }
  for (bool json : {false, true}) {
    std::string out, written;
    try {
      if (json)
        abikit::appendElfJson(f, all, out);
      else
        abikit::appendElfText(f, all, out);
    } catch (const abikit::Error& e) {
      written = e.format();
    }
    EXPECT_EQ(checked, written) << (json ? "JSON" : "text");
  }
  if (!checked.empty()) abikit::checkElfView(f, all); // throws that error
}

ElfWriter object(uint8_t cls = 2, uint8_t data = 1) {
  ElfWriter w(cls, data, abikit::kEmRiscv, 0x5);
  uint32_t text = w.addSection(".text", 1, 6, std::vector<uint8_t>(32, 0x13), 0, 0, 4);
  w.addSymbol("f", 0, 32, 2, 1, uint16_t(text));
  w.addSymbol("g", 0, 0, 0, 1, 0);
  w.addRelocation(text, 4, 19, 2, 0);
  w.addNote(".note", "GNU", 3, {1, 2, 3, 4});
  return w;
}

// ----- the header ------------------------------------------------------------------------------

TEST(ElfHostile, TruncatedIdentificationAndHeader) {
  expectErrorAt({}, 0, "not an ELF file");
  expectErrorAt({0x7f, 'E', 'L'}, 0, "not an ELF file");
  expectErrorAt({0x7f, 'E', 'L', 'G', 2, 1, 1}, 0, "bad magic");
  expectErrorAt({0x7f, 'E', 'L', 'F', 2, 1}, 6, "truncated ELF identification");
  for (uint8_t cls : {1, 2}) {
    ElfWriter w = object(cls);
    std::vector<uint8_t> b = w.build();
    size_t need = cls == 2 ? 64 : 52;
    for (size_t n = 16; n < need; ++n) {
      std::vector<uint8_t> cut(b.begin(), b.begin() + long(n));
      expectErrorAt(cut, n, "truncated ELF header");
    }
  }
}

TEST(ElfHostile, BadClassAndEncoding) {
  std::vector<uint8_t> b = object().build();
  b[4] = 3;
  expectErrorAt(b, 4, "unknown ELF class 3");
  b[4] = 2;
  b[5] = 0;
  expectErrorAt(b, 5, "unknown ELF data encoding 0");
}

TEST(ElfHostile, SectionHeaderTablePastTheEnd) {
  for (uint8_t cls : {1, 2}) {
    ElfWriter w = object(cls);
    std::vector<uint8_t> b = w.build();
    // Table moved to the end of the file.
    std::vector<uint8_t> c = b;
    w.setWord(c, w.eShoff(), c.size() - 8);
    expectErrorAt(c, w.eShoff(), "section header table");
    // Huge offset (overflow-safe).
    c = b;
    w.setWord(c, w.eShoff(), cls == 2 ? ~uint64_t(0) - 10 : 0xfffffff0u);
    expectErrorAt(c, w.eShoff(), "extends past the end of the file");
    // Huge count.
    c = b;
    w.set16(c, w.eShnum(), 0xfeff);
    expectErrorAt(c, w.eShoff(), "extends past the end of the file");
    // Truncated file: the table's last entry is cut.
    c.assign(b.begin(), b.end() - 1);
    expectErrorAt(c, w.eShoff(), "extends past the end of the file");
  }
}

TEST(ElfHostile, ExtendedCountsThatDoNotFit) {
  ElfWriter w = object();
  std::vector<uint8_t> b = w.build();
  w.set16(b, w.eShnum(), 0);
  w.setWord(b, w.sectionHeaderField(0, w.shSize()), uint64_t(1) << 40);
  expectErrorAt(b, w.shoff + w.shSize(), "extends past the end of the file");
  w.setWord(b, w.sectionHeaderField(0, w.shSize()), 0);
  expectErrorAt(b, w.eShnum(), "extended count");
  b = w.build();
  w.set16(b, w.eShstrndx(), 0xffff);
  w.set32(b, w.sectionHeaderField(0, w.shLink()), 1000);
  expectErrorAt(b, w.shoff + w.shLink(), "section name table index 1000");
}

TEST(ElfHostile, HeaderFieldsThatLie) {
  ElfWriter w = object();
  std::vector<uint8_t> b = w.build();
  std::vector<uint8_t> c = b;
  w.set16(c, w.eShentsize(), 32);
  expectErrorAt(c, w.eShentsize(), "e_shentsize is 32");
  c = b;
  w.set16(c, w.eShstrndx(), 99);
  expectErrorAt(c, w.eShstrndx(), "section name table index 99");
  c = b;
  w.setWord(c, w.eShoff(), 8); // overlaps the ELF header
  expectErrorAt(c, w.eShoff(), "overlaps the ELF header");
  c = b;
  w.setWord(c, w.eShoff(), 0);
  expectErrorAt(c, w.eShnum(), "e_shoff is 0");
  c = b;
  w.set16(c, w.ePhnum(), 3);
  expectErrorAt(c, w.ePhnum(), "e_phoff is 0");
  c = b;
  w.set16(c, w.ePhnum(), 3);
  w.setWord(c, w.ePhoff(), 64);
  w.set16(c, w.is64() ? 54 : 42, 0);
  expectErrorAt(c, w.is64() ? 54 : 42, "e_phentsize is 0");
}

TEST(ElfHostile, ProgramHeadersPastTheEnd) {
  for (uint8_t cls : {1, 2}) {
    ElfWriter w = object(cls);
    w.addSegment(1, 5, 0, 100);
    std::vector<uint8_t> b = w.build();
    ElfFile::fromMemory("ok.o", b);
    std::vector<uint8_t> c = b;
    w.set16(c, w.ePhnum(), 60000);
    expectErrorAt(c, w.ePhoff(), "program header table");
    c = b;
    w.setWord(c, w.phoff + (cls == 2 ? 32 : 16), c.size() + 1); // p_filesz
    expectErrorAt(c, w.phoff + (cls == 2 ? 8 : 4), "segment 0");
    c = b;
    w.setWord(c, w.ePhoff(), 4);
    expectErrorAt(c, w.ePhoff(), "overlaps the ELF header");
  }
}

// ----- sections ----------------------------------------------------------------------------------

TEST(ElfHostile, SectionContentsPastTheEnd) {
  for (uint8_t cls : {1, 2}) {
    ElfWriter w = object(cls);
    std::vector<uint8_t> b = w.build();
    std::vector<uint8_t> c = b;
    w.setWord(c, w.sectionHeaderField(1, w.shSize()), c.size());
    expectErrorAt(c, w.sectionHeaderField(1, w.shOffset()), "section [1]");
    c = b;
    w.setWord(c, w.sectionHeaderField(1, w.shOffset()), cls == 2 ? ~uint64_t(0) : 0xffffffffu);
    expectErrorAt(c, w.sectionHeaderField(1, w.shOffset()), "extends past the end");
    // Offset + size wraps around.
    c = b;
    w.setWord(c, w.sectionHeaderField(1, w.shSize()), cls == 2 ? ~uint64_t(0) - 2 : 0xfffffffeu);
    expectErrorAt(c, w.sectionHeaderField(1, w.shOffset()), "extends past the end");
    // Contents overlapping the section header table.
    c = b;
    w.setWord(c, w.sectionHeaderField(1, w.shOffset()), w.shoff);
    expectErrorAt(c, w.sectionHeaderField(1, w.shOffset()), "overlaps");
  }
}

TEST(ElfHostile, OverlappingSectionsAreReported) {
  ElfWriter w = object();
  std::vector<uint8_t> b = w.build();
  // .text moved onto .note: legal but reported.
  w.setWord(b, w.sectionHeaderField(1, w.shOffset()), w.section_offsets[2]);
  ElfFile f = ElfFile::fromMemory("x.o", b);
  ASSERT_FALSE(f.problems().empty());
  EXPECT_NE(f.problems()[0].find("overlap"), std::string::npos);
}

TEST(ElfHostile, ProcessorSpecificSectionsPastTheEndAreNotRead) {
  // CUDA's .nv.global-like sections have a file offset but no bytes.
  ElfWriter w = object();
  uint32_t s = w.addSection(".nv.global", 0x70000007, 3, {}, 0, 0, 4);
  std::vector<uint8_t> b = w.build();
  w.setWord(b, w.sectionHeaderField(s, w.shSize()), 1 << 20);
  ElfFile f = ElfFile::fromMemory("x.cubin", b);
  ASSERT_FALSE(f.problems().empty());
  EXPECT_THROW(f.contents(f.sections()[s]), abikit::Error);
}

TEST(ElfHostile, BadStringOffsets) {
  ElfWriter w = object();
  std::vector<uint8_t> b = w.build();
  std::vector<uint8_t> c = b;
  w.set32(c, w.sectionHeaderField(1, w.shName()), 100000);
  expectErrorAt(c, w.sectionHeaderField(1, 0), "string offset 100000");
  // Symbol name outside .strtab: found when the symbols are read.
  c = b;
  uint64_t sym1 = w.section_offsets[w.symtab_index] + w.symentsize();
  w.set32(c, sym1, 5000);
  expectErrorAt(c, sym1, "string offset 5000", [](const ElfFile& f) { readAll(f); });
  // A string table that does not end with NUL.
  c = b;
  uint64_t strtab = w.section_offsets[w.strtab_index];
  uint64_t strtab_size = 5; // "\0f\0g\0"
  c[strtab + strtab_size - 1] = 'x';
  expectErrorAt(c, strtab + strtab_size - 1, "does not end with a NUL");
  // The section name table is not SHT_STRTAB.
  c = b;
  w.set32(c, w.sectionHeaderField(w.shstrtab_index, w.shType()), 1);
  expectErrorAt(c, w.sectionHeaderField(w.shstrtab_index, w.shType()), "not SHT_STRTAB");
}

TEST(ElfHostile, LinksAndEntrySizes) {
  ElfWriter w = object();
  std::vector<uint8_t> b = w.build();
  uint32_t rela = w.reloc_sections.at(0);
  std::vector<uint8_t> c = b;
  w.set32(c, w.sectionHeaderField(w.symtab_index, w.shLink()), 77);
  expectErrorAt(c, w.sectionHeaderField(w.symtab_index, w.shLink()), "sh_link 77");
  c = b;
  w.set32(c, w.sectionHeaderField(w.symtab_index, w.shLink()), 1); // .text, not a string table
  expectErrorAt(c, w.sectionHeaderField(w.symtab_index, w.shLink()), "not a string table");
  c = b;
  w.setWord(c, w.sectionHeaderField(w.symtab_index, w.shEntsize()), 12);
  expectErrorAt(c, w.sectionHeaderField(w.symtab_index, w.shEntsize()), "sh_entsize is 12");
  c = b;
  w.setWord(c, w.sectionHeaderField(w.symtab_index, w.shSize()), 25);
  expectErrorAt(c, w.sectionHeaderField(w.symtab_index, w.shSize()), "not a multiple");
  c = b;
  w.set32(c, w.sectionHeaderField(rela, w.shLink()), 1);
  expectErrorAt(c, w.sectionHeaderField(rela, w.shLink()), "is not a symbol table");
  c = b;
  w.set32(c, w.sectionHeaderField(rela, w.shInfo()), 4000);
  expectErrorAt(c, w.sectionHeaderField(rela, w.shInfo()), "sh_info 4000");
  c = b;
  w.setWord(c, w.sectionHeaderField(rela, w.shEntsize()), 16);
  expectErrorAt(c, w.sectionHeaderField(rela, w.shEntsize()), "sh_entsize is 16");
}

TEST(ElfHostile, SymbolAndRelocationIndices) {
  for (uint8_t cls : {1, 2}) {
    ElfWriter w = object(cls);
    std::vector<uint8_t> b = w.build();
    // Relocation naming symbol 9 of a 3-entry table.
    std::vector<uint8_t> c = b;
    uint64_t entry = w.section_offsets[w.reloc_sections.at(0)];
    uint64_t info = entry + (cls == 2 ? 8 : 4);
    w.setWord(c, info, cls == 2 ? (uint64_t(9) << 32) | 19 : (9u << 8) | 19);
    expectErrorAt(c, info, "names symbol 9", [](const ElfFile& f) { readAll(f); });
    // Symbol with a section index that names no section.
    c = b;
    uint64_t sym1 = w.section_offsets[w.symtab_index] + w.symentsize();
    uint64_t shndx = sym1 + (cls == 2 ? 6 : 14);
    w.set16(c, shndx, 300);
    expectErrorAt(c, shndx, "section index 300", [](const ElfFile& f) { readAll(f); });
    // SHN_XINDEX without a SHT_SYMTAB_SHNDX section.
    w.set16(c, shndx, 0xffff);
    expectErrorAt(c, shndx, "SHN_XINDEX", [](const ElfFile& f) { readAll(f); });
  }
}

// ----- notes -------------------------------------------------------------------------------------

TEST(ElfHostile, NoteSizesAndAlignment) {
  for (uint8_t cls : {1, 2}) {
    ElfWriter w = object(cls);
    std::vector<uint8_t> b = w.build();
    const uint32_t note = 2; // .text, .note, then the tables
    uint64_t n = w.section_offsets[note];
    auto notes = [](const ElfFile& f) { f.notes(); };
    std::vector<uint8_t> c = b;
    w.set32(c, n, 1000); // namesz
    expectErrorAt(c, n, "note name", notes);
    c = b;
    w.set32(c, n + 4, 0x7fffffff); // descsz
    expectErrorAt(c, n + 4, "note descriptor", notes);
    c = b;
    w.setWord(c, w.sectionHeaderField(note, w.shAddralign()), 16);
    expectErrorAt(c, w.sectionHeaderField(note, w.shAddralign()), "note alignment 16", notes);
    c = b;
    w.setWord(c, w.sectionHeaderField(note, w.shSize()), 18); // cuts the descriptor
    expectErrorAt(c, n + 4, "note descriptor", notes);
    c = b;
    w.setWord(c, w.sectionHeaderField(note, w.shSize()), 8); // cuts the header
    expectErrorAt(c, n, "truncated note header", notes);
  }
}

std::vector<uint8_t> withNote(const std::string& owner, uint32_t type,
                              const std::vector<uint8_t>& desc, uint64_t* desc_offset) {
  ElfWriter w(2, 1, abikit::kEmAmdgpu, 0x52f, 64, 2);
  w.addNote(".note", owner, type, desc);
  std::vector<uint8_t> b = w.build();
  *desc_offset = w.section_offsets[1] + 12 + ((owner.size() + 1 + 3) & ~size_t(3));
  return b;
}

void expectNoteError(const std::string& owner, uint32_t type, const std::vector<uint8_t>& desc,
                     uint64_t at, const std::string& text) {
  uint64_t d;
  std::vector<uint8_t> b = withNote(owner, type, desc, &d);
  SCOPED_TRACE(text);
  expectErrorAt(b, d + at, text, [](const ElfFile& f) {
    for (const abikit::ElfNote& n : f.notes()) abikit::decodeNote(f, n);
  });
}

TEST(ElfHostile, MalformedMessagePack) {
  expectNoteError("AMDGPU", 32, {}, 0, "empty MessagePack");
  expectNoteError("AMDGPU", 32, {0x81, 0xa1, 'a'}, 3, "truncated MessagePack");
  expectNoteError("AMDGPU", 32, {0x82, 0xa1, 'a', 1}, 4, "truncated MessagePack");
  expectNoteError("AMDGPU", 32, {0xdf, 0xff, 0xff, 0xff, 0xff}, 5, "truncated MessagePack");
  expectNoteError("AMDGPU", 32, {0xdb, 0x7f, 0xff, 0xff, 0xff, 'x'}, 6, "truncated MessagePack");
  expectNoteError("AMDGPU", 32, {0xc1}, 0, "invalid type byte");
  expectNoteError("AMDGPU", 32, {0x91, 0xc1}, 1, "invalid type byte");
  expectNoteError("AMDGPU", 32, {0x81, 0xa1, 'a', 1, 0x00, 0x00}, 4, "2 bytes of data after");
  expectNoteError("AMDGPU", 32, {0x81, 0x90, 0x01}, 1, "map key is not a scalar");
  expectNoteError("AMDGPU", 32, {0x82, 0xa1, 'a', 1, 0xa1, 'a', 2}, 5, "duplicate key 'a'");
  expectNoteError("AMDGPU", 32, {0x81, 0xa1, 'a', 0xd4, 1, 2}, 4, "extension types");
  std::vector<uint8_t> deep(100, 0x91);
  deep.push_back(0x01);
  expectNoteError("AMDGPU", 32, deep, 64, "nested deeper than 64");
}

TEST(ElfHostile, MalformedCodeObjectV2Notes) {
  expectNoteError("AMD", 1, {2, 0, 0, 0}, 0, "NT_AMD_HSA_CODE_OBJECT_VERSION");
  expectNoteError("AMD", 2, {1, 0, 0, 0}, 0, "NT_AMD_HSA_HSAIL");
  expectNoteError("AMD", 3, {4, 0}, 0, "NT_AMD_HSA_ISA_VERSION");
  expectNoteError("AMD", 3, {40, 0, 7, 0, 8, 0, 0, 0, 0, 0, 0, 0, 3, 0, 0, 0, 'A', 0}, 0,
                  "name sizes do not fit");
  expectNoteError("AMD", 12, {1, 0, 0, 0, 2}, 0, "NT_AMD_PAL_METADATA");
  expectNoteError("GNU", 1, {0, 0, 0, 0}, 0, "NT_GNU_ABI_TAG");
}

TEST(ElfHostile, MalformedRiscvAttributes) {
  auto attrs = [](std::vector<uint8_t> body, uint64_t at, const std::string& text) {
    ElfWriter w(1, 1, abikit::kEmRiscv, 0);
    uint32_t s = w.addSection(".riscv.attributes", abikit::kShtRiscvAttributes, 0, body);
    std::vector<uint8_t> b = w.build();
    SCOPED_TRACE(text);
    expectErrorAt(b, w.section_offsets[s] + at, text, [](const ElfFile& f) { readAll(f); });
  };
  attrs({'B'}, 0, "format version");
  attrs({'A', 100, 0, 0, 0, 'r'}, 1, "subsection length 100");
  attrs({'A', 3, 0, 0}, 1, "truncated length");
  attrs({'A', 8, 0, 0, 0, 'r', 'i', 's', 'c'}, 5, "not NUL-terminated");
  // vendor "riscv", Tag_File, size 8, Tag_RISCV_arch with an unterminated string.
  attrs({'A', 17, 0, 0, 0, 'r', 'i', 's', 'c', 'v', 0, 1, 7, 0, 0, 0, 5, 'r'}, 17,
        "not NUL-terminated");
  // Tag_RISCV_stack_align with an overlong ULEB128.
  std::vector<uint8_t> b = {'A', 28, 0, 0, 0, 'r', 'i', 's', 'c', 'v', 0, 1, 18, 0, 0, 0, 4};
  for (int i = 0; i < 11; ++i) b.push_back(0xff);
  b.push_back(0x01);
  attrs(b, 17, "does not fit in 64 bits");
}

// ----- sweeps ------------------------------------------------------------------------------------

// Every prefix of real-looking objects, and random byte flips: only abikit::Error may come out.
void survive(const std::vector<uint8_t>& bytes) {
  try {
    ElfFile f = ElfFile::fromMemory("x.o", bytes);
    readAll(f);
    std::vector<const ElfFile*> one = {&f};
    abikit::linkConflicts(one);
  } catch (const abikit::Error& e) {
    EXPECT_FALSE(e.message().empty());
  }
}

std::vector<std::vector<uint8_t>> seeds() {
  std::vector<std::vector<uint8_t>> out;
  for (uint8_t cls : {1, 2})
    for (uint8_t data : {1, 2}) out.push_back(object(cls, data).build());
  ElfWriter a(2, 1, abikit::kEmAmdgpu, 0x52f, 64, 2);
  a.addNote(".note", "AMDGPU", 32, {0x82, 0xae, 'a', 'm', 'd',  'h', 's', 'a',  '.', 'v', 'e', 'r',
                                    's',  'i',  'o', 'n', 0x92, 1,   1,   0xae, 'a', 'm', 'd', 'h',
                                    's',  'a',  '.', 'k', 'e',  'r', 'n', 'e',  'l', 's', 0x90});
  a.addNote(".note", "AMD", 3, {4, 0, 7,   0,   8,   0, 0,   0,   0,   0,   0,   0,   3, 0,
                                0, 0, 'A', 'M', 'D', 0, 'A', 'M', 'D', 'G', 'P', 'U', 0});
  uint32_t ro = a.addSection(".rodata", 1, 2, std::vector<uint8_t>(64, 0), 0, 0, 64);
  a.addSymbol("k.kd", 0, 64, 1, 1, uint16_t(ro));
  out.push_back(a.build());
  ElfWriter r(1, 1, abikit::kEmRiscv, 0x5);
  r.addSection(".riscv.attributes", abikit::kShtRiscvAttributes, 0,
               {'A', 32, 0, 0,   0,   'r', 'i', 's', 'c', 'v', 0,   1, 21, 0, 0,  0,
                4,   16, 5, 'r', 'v', '3', '2', 'i', '2', 'p', '0', 0, 6,  1, 14, 3});
  out.push_back(r.build());
  ElfWriter d(1, 1, abikit::kEmDpu, 0x02800000);
  uint32_t text = d.addSection(".text", 1, 6, std::vector<uint8_t>(32, 0), 0, 0, 8);
  d.addSymbol("f", 0x80000000, 32, 2, 1, uint16_t(text));
  d.addRelocation(text, 8, 138, 1, 0x123456);
  out.push_back(d.build());
  return out;
}

TEST(ElfHostile, EveryTruncation) {
  for (const std::vector<uint8_t>& s : seeds())
    for (size_t n = 0; n <= s.size(); ++n)
      survive(std::vector<uint8_t>(s.begin(), s.begin() + long(n)));
}

TEST(ElfHostile, RandomByteFlips) {
  std::mt19937_64 rng(0xe1f);
  for (const std::vector<uint8_t>& s : seeds()) {
    for (int round = 0; round < 1500; ++round) {
      std::vector<uint8_t> c = s;
      int flips = 1 + int(rng() % 4);
      for (int k = 0; k < flips; ++k) {
        size_t at = rng() % c.size();
        c[at] = (rng() % 3 == 0) ? uint8_t(0xff) : uint8_t(rng());
      }
      survive(c);
    }
  }
}

} // namespace
