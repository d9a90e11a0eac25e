// Hostile ELF objects through the command line: tens of thousands of sections, symbol tables
// and relocation sections (the lookups per section must stay linear), and small objects whose
// valid output is a gigabyte (many relocation sections over one table, many symbols naming one
// long string: the output must stream in bounded memory). Every object is generated here (no
// checked-in megabytes) and run under a time and memory limit: one clear error and exit 1 with
// nothing on stdout, or the correct answer. Also: an error found late in a large table prints
// nothing, and a failed write to stdout is one error and exit 1.
#include "../unit/elf_writer.h"
#include "abikit/elf.h"
#include "abikit/emit.h"
#include "cli_runner.h"

#include <cstdlib>
#include <gtest/gtest.h>
#include <string>
#include <vector>

namespace {

using abikit::test::CliLimits;
using abikit::test::CliResult;
using abikit::test::runCli;
using abikit::test::TempDir;

constexpr double kSeconds = 2;
constexpr size_t kMemory = size_t(512) << 20;

CliLimits hostileLimits(const std::string& stdout_path = {}) {
  CliLimits l;
  l.seconds = kSeconds;
  l.memory_bytes = kMemory;
  l.stdout_path = stdout_path;
  return l;
}

// Under ASan (ABIKIT_TEST_SANITIZED) the CLI is many times slower: the gigabyte outputs are cut
// down there (the cases keep their shape; the release run checks the full sizes).
size_t scaled(size_t n) {
  return std::getenv("ABIKIT_TEST_SANITIZED") ? (n + 7) / 8 : n;
}

// Within the limits (the runner applies them; this also says by how much a case missed).
void expectBounded(const CliResult& r) {
  EXPECT_FALSE(r.timed_out) << r.summary();
  EXPECT_EQ(r.signal, 0) << r.summary();
  if (!std::getenv("ABIKIT_TEST_SANITIZED")) {
    EXPECT_LT(r.seconds, kSeconds) << r.summary();
    EXPECT_LT(size_t(r.max_rss_kb) * 1024, kMemory) << r.summary();
  }
}

void expectOk(const CliResult& r) {
  expectBounded(r);
  EXPECT_EQ(r.exit_code, 0) << r.summary();
  EXPECT_TRUE(r.err.empty()) << r.summary();
}

// One clear error with a byte offset, exit 1, nothing on stdout.
void expectOneError(const CliResult& r, std::string_view want) {
  expectBounded(r);
  EXPECT_EQ(r.exit_code, 1) << r.summary();
  EXPECT_EQ(r.out_bytes, 0u) << r.summary();
  EXPECT_NE(r.err.find(want), std::string::npos) << r.summary();
  EXPECT_NE(r.err.find(": error: "), std::string::npos) << r.summary();
  EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << r.summary(); // one line
}

// ----- a raw ELF64 little-endian builder (any number of sections) -------------------------------

struct Shdr {
  uint32_t name = 0, type = 0;
  uint64_t flags = 0, addr = 0, offset = 0, size = 0;
  uint32_t link = 0, info = 0;
  uint64_t align = 1, entsize = 0;
};

void put(std::string& b, uint64_t v, int n) {
  for (int i = 0; i < n; ++i) b += char(uint8_t(v >> (8 * i)));
}

class RawElf {
public:
  // Section names: offsets into kNames.
  static constexpr char kNames[] = "\0.rel\0.symtab\0.strtab\0.shstrtab\0.rela";
  static constexpr uint32_t kRel = 1, kSymtab = 6, kStrtab = 14, kShstrtab = 22, kRela = 32;

  RawElf() {
    sections_.push_back({});
    Shdr names;
    names.name = kShstrtab;
    names.type = 3;
    names.offset = add(std::string_view(kNames, sizeof kNames), 1);
    names.size = sizeof kNames;
    shstrndx_ = section(names);
  }
  /// Appends bytes after the ELF header; their file offset.
  uint64_t add(std::string_view bytes, uint64_t align = 8) {
    while ((64 + data_.size()) % align) data_ += '\0';
    uint64_t at = 64 + data_.size();
    data_ += bytes;
    return at;
  }
  uint32_t section(const Shdr& s) {
    sections_.push_back(s);
    return uint32_t(sections_.size() - 1);
  }
  /// A string table holding `text` (a NUL is added at both ends); its section index.
  uint32_t strtab(std::string_view text) {
    std::string b(1, '\0');
    b += text;
    b += '\0';
    Shdr s;
    s.name = kStrtab;
    s.type = 3;
    s.offset = add(b, 1);
    s.size = b.size();
    return section(s);
  }
  /// A symbol table of `count` entries after the null one, each named at `name` of string table
  /// `strings`, in section `shndx`; its section index.
  uint32_t symtab(uint32_t strings, size_t count, uint32_t name, uint16_t shndx = 0xfff1) {
    std::string b(24, '\0');
    for (size_t i = 0; i < count; ++i) {
      put(b, name, 4);
      b += char(0x12); // GLOBAL FUNC
      b += char(0);
      put(b, shndx, 2);
      put(b, 0x1000 + i, 8);
      put(b, 4, 8);
    }
    Shdr s;
    s.name = kSymtab;
    s.type = 2;
    s.offset = add(b);
    s.size = b.size();
    s.link = strings;
    s.info = 1;
    s.align = 8;
    s.entsize = 24;
    return section(s);
  }
  /// RELA entries R_RISCV_64 (2) against `symbol`.
  static std::string relaEntries(size_t count, uint32_t symbol) {
    std::string b;
    for (size_t i = 0; i < count; ++i) {
      put(b, i * 8, 8);
      put(b, (uint64_t(symbol) << 32) | 2, 8);
      put(b, 5, 8);
    }
    return b;
  }
  std::string build(uint16_t machine = abikit::kEmRiscv) const {
    std::string out;
    out += "\x7f"
           "ELF";
    out += char(2); // ELFCLASS64
    out += char(1); // little-endian
    out += char(1);
    out.append(9, '\0');
    std::string body = data_;
    while ((64 + body.size()) % 8) body += '\0';
    const uint64_t shoff = 64 + body.size();
    const size_t n = sections_.size();
    const bool extended = n >= 0xff00;
    put(out, 1, 2); // ET_REL
    put(out, machine, 2);
    put(out, 1, 4);
    put(out, 0, 8); // e_entry
    put(out, 0, 8); // e_phoff
    put(out, shoff, 8);
    put(out, 0, 4);
    put(out, 64, 2);
    put(out, 56, 2);
    put(out, 0, 2);
    put(out, 64, 2);
    put(out, extended ? 0 : n, 2);
    put(out, shstrndx_, 2);
    out += body;
    for (size_t i = 0; i < n; ++i) {
      Shdr s = sections_[i];
      if (i == 0 && extended) s.size = n;
      put(out, s.name, 4);
      put(out, s.type, 4);
      put(out, s.flags, 8);
      put(out, s.addr, 8);
      put(out, s.offset, 8);
      put(out, s.size, 8);
      put(out, s.link, 4);
      put(out, s.info, 4);
      put(out, s.align, 8);
      put(out, s.entsize, 8);
    }
    return out;
  }

private:
  std::string data_;
  std::vector<Shdr> sections_;
  uint32_t shstrndx_ = 0;
};

// ----- quadratic time: lookups per section ------------------------------------------------------

// 65,000 empty SHT_REL sections linked to one symbol table: each found its table's
// SHT_SYMTAB_SHNDX by scanning every section (13-23 s).
TEST(HostileElf, ManyEmptyRelocationSectionsAreLinear) {
  TempDir dir;
  RawElf e;
  uint32_t strings = e.strtab("x");
  uint32_t symbols = e.symtab(strings, 1, 1);
  for (int i = 0; i < 65000; ++i) {
    Shdr s;
    s.name = RawElf::kRel;
    s.type = 9;
    s.offset = 64;
    s.link = symbols;
    s.entsize = 16;
    e.section(s);
  }
  std::string path = dir.write("rel.o", e.build());
  CliResult r = runCli({"elf", path, "--relocs"}, {}, hostileLimits());
  expectOk(r);
  EXPECT_NE(r.out.find("Relocation section '.rel' (section 65003, REL) applies to no section, "
                       "symbols from '.symtab', 0 entries:"),
            std::string::npos)
      << r.summary();
  expectOk(runCli({"elf", path, "--relocs", "--json"}, {}, hostileLimits("/dev/null")));
}

// 10^5 symbol tables (35 s), and 30,000 tables each with its SHT_SYMTAB_SHNDX section.
TEST(HostileElf, ManySymbolTablesAreLinear) {
  TempDir dir;
  {
    RawElf e;
    uint32_t strings = e.strtab("x");
    Shdr t;
    t.name = RawElf::kSymtab;
    t.type = 2;
    t.offset = e.add(std::string(48, '\0'));
    t.size = 48;
    t.link = strings;
    t.info = 1;
    t.entsize = 24;
    for (int i = 0; i < 100000; ++i) e.section(t);
    std::string path = dir.write("symtabs.o", e.build());
    CliResult r = runCli({"elf", path, "--symbols"}, {}, hostileLimits());
    expectOk(r);
    EXPECT_NE(r.out.find("Symbol table '.symtab' (section 100002) contains 2 entries:"),
              std::string::npos)
        << r.summary();
    expectOk(runCli({"elf", path, "--symbols", "--json"}, {}, hostileLimits("/dev/null")));
  }
  {
    // Each symbol's st_shndx is SHN_XINDEX; its table's SHT_SYMTAB_SHNDX entry names section 1.
    RawElf e;
    uint32_t strings = e.strtab("x");
    std::string sym(24, '\0');
    put(sym, 1, 4);
    sym += char(0x11);
    sym += char(0);
    put(sym, 0xffff, 2);
    put(sym, 0, 8); // st_value
    put(sym, 0, 8); // st_size
    uint64_t table = e.add(sym);
    std::string ext;
    put(ext, 0, 4);
    put(ext, 1, 4);
    uint64_t shndx = e.add(ext, 4);
    for (int i = 0; i < 30000; ++i) {
      Shdr t;
      t.name = RawElf::kSymtab;
      t.type = 2;
      t.offset = table;
      t.size = 48;
      t.link = strings;
      t.info = 1;
      t.entsize = 24;
      uint32_t index = e.section(t);
      Shdr x;
      x.type = 18; // SHT_SYMTAB_SHNDX
      x.offset = shndx;
      x.size = 8;
      x.link = index;
      x.entsize = 4;
      e.section(x);
    }
    std::string path = dir.write("xindex.o", e.build());
    CliResult r = runCli({"elf", path, "--symbols"}, {}, hostileLimits());
    expectOk(r);
    EXPECT_NE(r.out.find("OBJECT  GLOBAL DEFAULT     1 x\n"), std::string::npos) << r.summary();
  }
}

// ----- output amplification: streamed in bounded memory -----------------------------------------

// A 322 KB object whose 4,000 relocation sections all point at one 64 KB table: 11 million
// relocations, 0.9 GB of text (1.2 GB of JSON), once held whole in memory (~2 GB).
TEST(HostileElf, RelocationSectionsSharingOneTableStream) {
  TempDir dir;
  auto make = [&](size_t sections) {
    RawElf e;
    uint32_t strings = e.strtab("x");
    uint32_t symbols = e.symtab(strings, 1, 1);
    uint64_t table = e.add(RawElf::relaEntries(65536 / 24, 1));
    for (size_t i = 0; i < sections; ++i) {
      Shdr s;
      s.name = RawElf::kRela;
      s.type = 4;
      s.offset = table;
      s.size = 65536 / 24 * 24;
      s.link = symbols;
      s.align = 8;
      s.entsize = 24;
      e.section(s);
    }
    return e.build();
  };
  std::string path = dir.write("shared.o", make(scaled(4000)));
  expectOk(runCli({"elf", path, "--relocs"}, {}, hostileLimits("/dev/null")));
  // JSON is larger per relocation: a quarter of the sections (300 MB) within the same limits.
  std::string quarter = dir.write("quarter.o", make(scaled(1000)));
  expectOk(runCli({"elf", quarter, "--relocs", "--json"}, {}, hostileLimits("/dev/null")));
}

// 10,000 symbols naming one 100 KB string: 1 GB of output from a 340 KB object.
TEST(HostileElf, SymbolsNamingOneLongStringStream) {
  TempDir dir;
  RawElf e;
  uint32_t strings = e.strtab(std::string(100000, 'A'));
  e.symtab(strings, scaled(10000), 1);
  std::string path = dir.write("names.o", e.build());
  expectOk(runCli({"elf", path, "--symbols"}, {}, hostileLimits("/dev/null")));
  expectOk(runCli({"elf", path, "--symbols", "--json"}, {}, hostileLimits("/dev/null")));
}

// What streams is byte for byte the document built whole, over many chunks, for several files;
// a bad file among them prints nothing of itself (text) or stops the whole document (JSON).
TEST(HostileElf, StreamedOutputIsTheWholeDocument) {
  TempDir dir;
  RawElf e;
  uint32_t strings = e.strtab("a_symbol_name");
  uint32_t symbols = e.symtab(strings, 3000, 1);
  uint64_t table = e.add(RawElf::relaEntries(2000, 7));
  for (int i = 0; i < 20; ++i) {
    Shdr s;
    s.name = RawElf::kRela;
    s.type = 4;
    s.offset = table;
    s.size = 2000 * 24;
    s.link = symbols;
    s.align = 8;
    s.entsize = 24;
    e.section(s);
  }
  const std::string bytes = e.build();
  std::string good = dir.write("good.o", bytes);
  std::string bad = dir.write("bad.o", bytes.substr(0, 200)); // section headers cut off
  const abikit::ElfViewOptions all{true, true, true};
  auto whole = [&](bool json) {
    abikit::ElfFile f = abikit::ElfFile::open(good);
    std::string out;
    if (json)
      abikit::appendElfJson(f, all, out);
    else
      abikit::appendElfText(f, all, out);
    return out;
  };
  const std::string text = whole(false), json = whole(true);
  ASSERT_GT(text.size(), size_t(2) << 20); // many chunks

  CliResult r =
      runCli({"elf", "--symbols", "--relocs", "--notes", good, bad, good}, {}, hostileLimits());
  expectBounded(r);
  EXPECT_EQ(r.exit_code, 1) << r.summary();
  EXPECT_TRUE(r.out == text + "\n" + text) << r.out.size() << " bytes, want " << 2 * text.size();
  EXPECT_NE(r.err.find("bad.o: error: "), std::string::npos) << r.summary();

  r = runCli({"elf", "--json", "--symbols", "--relocs", "--notes", good, good}, {},
             hostileLimits());
  expectOk(r);
  EXPECT_TRUE(r.out == "{\"schema\":\"abikit/1\",\"files\":[" + json + "," + json + "]}\n")
      << r.out.size() << " bytes";
  expectOneError(runCli({"elf", "--json", "--symbols", "--relocs", good, bad}, {}, hostileLimits()),
                 "bad.o: error: ");
}

// ----- errors found late: nothing on stdout -----------------------------------------------------

// The error is in the last entry of a table whose earlier rows alone are megabytes of output:
// every table the view reads is checked before the first byte is written.
TEST(HostileElf, LateErrorsPrintNothing) {
  TempDir dir;
  const size_t n = 100000;
  {
    // The last symbol's name is outside the string table.
    RawElf e;
    uint32_t strings = e.strtab("name");
    std::string b(24, '\0');
    for (size_t i = 0; i < n; ++i) {
      put(b, i + 1 < n ? 1 : 999999, 4);
      b += char(0x12);
      b += char(0);
      put(b, 0xfff1, 2);
      put(b, i, 8);
      put(b, 0, 8);
    }
    Shdr s;
    s.name = RawElf::kSymtab;
    s.type = 2;
    s.offset = e.add(b);
    s.size = b.size();
    s.link = strings;
    s.info = 1;
    s.entsize = 24;
    e.section(s);
    std::string path = dir.write("badsym.o", e.build());
    for (const char* json : {"--symbols", "--json"})
      expectOneError(runCli({"elf", path, "--symbols", json}, {}, hostileLimits()),
                     "string offset 999999 is outside string table");
  }
  {
    // The last relocation names a symbol the table does not have.
    RawElf e;
    uint32_t strings = e.strtab("x");
    uint32_t symbols = e.symtab(strings, 1, 1);
    std::string rela = RawElf::relaEntries(n - 1, 1) + RawElf::relaEntries(1, 5);
    Shdr s;
    s.name = RawElf::kRela;
    s.type = 4;
    s.offset = e.add(rela);
    s.size = rela.size();
    s.link = symbols;
    s.entsize = 24;
    e.section(s);
    std::string path = dir.write("badrel.o", e.build());
    for (const char* json : {"--relocs", "--json"})
      expectOneError(runCli({"elf", path, "--relocs", json}, {}, hostileLimits()),
                     "names symbol 5, but the symbol table has 2 entries");
  }
  {
    // 20,000 good notes, then an NT_AMDGPU_METADATA whose MessagePack is truncated.
    abikit::test::ElfWriter w(2, 1, abikit::kEmAmdgpu);
    for (int i = 0; i < 20000; ++i) w.addNote(".note", "GNU", 0x99, {1, 2, 3, 4});
    w.addNote(".note", "AMDGPU", 32, {0x81, 0xa1});
    std::vector<uint8_t> b = w.build();
    std::string path = dir.write("badnote.o", std::string(b.begin(), b.end()));
    for (const char* json : {"--notes", "--json"})
      expectOneError(runCli({"elf", path, "--notes", json}, {}, hostileLimits()), "error: ");
  }
}

// ----- write errors -----------------------------------------------------------------------------

TEST(HostileElf, FailedWriteIsOneError) {
  TempDir dir;
  RawElf e;
  uint32_t strings = e.strtab(std::string(100000, 'A'));
  e.symtab(strings, scaled(10000), 1);
  std::string big = dir.write("names.o", e.build());
  const std::string want = "abikit: error: cannot write the output: No space left on device\n";
  // A gigabyte of output stops at the first failed chunk.
  CliResult r = runCli({"elf", big, "--symbols"}, {}, hostileLimits("/dev/full"));
  expectBounded(r);
  EXPECT_EQ(r.exit_code, 1) << r.summary();
  EXPECT_EQ(r.err, want) << r.summary();
  // A small output (left in stdio's buffer until the end) and another command.
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"elf", big}, std::vector<std::string>{"elf", "--json", big},
        std::vector<std::string>{"describe", "--target", "riscv64-unknown-elf"}}) {
    r = runCli(args, {}, hostileLimits("/dev/full"));
    expectBounded(r);
    EXPECT_EQ(r.exit_code, 1) << r.summary();
    EXPECT_EQ(r.err, want) << r.summary();
  }
}

} // namespace
