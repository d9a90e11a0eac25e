// abikit's ELF decoding against llvm-readelf-14 / llvm-readobj-14 (and ld.lld-14 for
// link-check) on objects built at test time:
//  - RISC-V: clang-14 -c for riscv32/riscv64 and the ABIs ilp32, ilp32f, ilp32d, lp64, lp64f,
//    lp64d with -march strings with and without C (and -mrelax), riscv64-unknown-elf-gcc for
//    ilp32e and Ztso (llc-14 implements neither), llvm-mc-14 for RVE assembly;
//  - AMDGPU: clang-14 OpenCL kernels for several processors and xnack/sramecc settings with code
//    object versions 4 and 5, llc-14 for code object versions 2 and 3;
//  - CUDA cubins from /usr/local/cuda/bin/ptxas for several SM versions (skipped when absent);
//  - notes assembled by llvm-mc-14 from random and hand-picked MessagePack documents and V2
//    NT_AMD_HSA_* records.
// For every object: the same e_machine, e_flags, OS/ABI and ABI version; the same decoded flag
// names (readobj) and AMDGPU processor; every relocation (offset, type, type name where readelf
// knows it, symbol name, addend); every symbol (index, value, size, name, section index); the
// note blocks as llvm-readelf prints them (owner, size, type, decoded body incl. the metadata
// YAML; blank lines and trailing blanks ignored, abikit's extra "Problem:" lines dropped); RISC-V
// build attributes (tag, value); and `--json` output that parses. Pairs of objects: abikit's
// link-check reports a conflict exactly when ld.lld-14 refuses to link them.
#define MSGPACK_NO_BOOST
#include "abikit/diag.h"
#include "abikit/elf.h"
#include "abikit/emit.h"
#include "oracle.h"

#include <gtest/gtest.h>
#include <map>
#include <msgpack.hpp>
#include <nlohmann/json.hpp>
#include <random>
#include <regex>
#include <set>
#include <sstream>

using namespace abikit;

namespace {

// The LLVM tools that read an object: those of the LLVM that built it (llvm-readelf-14 cannot
// read code object v6 flags or notes), else 14's. compareObject sets them.
std::string g_llvm = "14";
std::string readelfTool() {
  return "llvm-readelf-" + g_llvm;
}
std::string readobjTool() {
  return "llvm-readobj-" + g_llvm;
}
const std::string kPtxas = "/usr/local/cuda/bin/ptxas";

std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  std::string l;
  while (std::getline(in, l)) out.push_back(l);
  return out;
}

std::string rtrim(std::string s) {
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.pop_back();
  return s;
}

std::string tool(const std::vector<std::string>& argv) {
  oracle::RunResult r = oracle::run(argv);
  EXPECT_EQ(r.exit_code, 0) << argv[0] << " failed: " << r.err;
  return r.out;
}

bool build(const std::vector<std::string>& argv, const std::string& what) {
  oracle::RunResult r = oracle::run(argv);
  if (r.exit_code != 0) {
    ADD_FAILURE() << what << ": " << argv[0] << " failed:\n" << r.err;
    return false;
  }
  return true;
}

uint64_t hexValue(const std::string& s) {
  return std::stoull(s, nullptr, 16);
}

// ----- llvm-readobj -h ---------------------------------------------------------------------------

struct ReadobjHeader {
  uint64_t machine = 0, flags = 0, osabi = 0, abi_version = 0, cls = 0;
  std::set<std::string> flag_names;
};

ReadobjHeader readobjHeader(const std::string& path) {
  ReadobjHeader h;
  std::smatch m;
  bool in_flags = false;
  for (const std::string& l : lines(tool({readobjTool(), "-h", path}))) {
    if (in_flags) {
      if (std::regex_search(l, m, std::regex("^\\s*\\]"))) {
        in_flags = false;
      } else if (std::regex_search(l, m, std::regex("^\\s*(EF_\\w+)"))) {
        h.flag_names.insert(m[1]);
      }
      continue;
    }
    if (std::regex_search(l, m, std::regex("Machine: \\S+ \\(0x([0-9A-Fa-f]+)\\)")))
      h.machine = hexValue(m[1]);
    else if (std::regex_search(l, m, std::regex("Flags \\[ \\(0x([0-9A-Fa-f]+)\\)"))) {
      h.flags = hexValue(m[1]);
      in_flags = l.find(']') == std::string::npos;
    } else if (std::regex_search(l, m, std::regex("OS/ABI: .*\\(0x([0-9A-Fa-f]+)\\)")) ||
               std::regex_search(l, m, std::regex("OS/ABI: 0x([0-9A-Fa-f]+)")))
      h.osabi = hexValue(m[1]);
    else if (std::regex_search(l, m, std::regex("ABIVersion: (\\d+)")))
      h.abi_version = std::stoull(m[1]);
    else if (std::regex_search(l, m, std::regex("Class: .*\\(0x([0-9A-Fa-f]+)\\)")))
      h.cls = hexValue(m[1]);
  }
  return h;
}

// ----- llvm-readelf -r ---------------------------------------------------------------------------

struct ReadelfReloc {
  uint64_t offset = 0, info = 0;
  std::string type, symbol;
  bool has_symbol = false, has_addend = false;
  int64_t addend = 0;
};
struct ReadelfRelocSection {
  std::string name;
  std::vector<ReadelfReloc> rows;
};

int64_t signedHex(const std::string& s) {
  if (!s.empty() && s[0] == '-') return -int64_t(hexValue(s.substr(1)));
  return int64_t(hexValue(s));
}

std::vector<ReadelfRelocSection> readelfRelocs(const std::string& path) {
  std::vector<ReadelfRelocSection> out;
  std::smatch m;
  for (const std::string& l : lines(tool({readelfTool(), "-r", path}))) {
    if (std::regex_search(l, m, std::regex("^Relocation section '(.*)' at offset"))) {
      out.push_back({m[1], {}});
      continue;
    }
    if (out.empty() || !std::regex_search(l, std::regex("^[0-9a-f]{8}"))) continue;
    // Offset, Info, Type, then either the addend alone (RELA without a symbol) or the symbol's
    // value and "NAME", "NAME + ADDEND", "NAME - ADDEND" (names may end in blanks: GCC's ".L0 ").
    static const std::regex with_symbol("^(\\S+) +(\\S+) +(\\S+) +([0-9a-f]+) (.*)$");
    static const std::regex without("^(\\S+) +(\\S+) +(\\S+)(?: +(-?[0-9a-f]+))?\\s*$");
    ReadelfReloc r;
    if (std::regex_match(l, m, with_symbol)) {
      r.has_symbol = true;
      std::string tail = m[5];
      // ELF32 rows put two more blanks before the name.
      if (m[1].length() == 8 && tail.rfind("  ", 0) == 0) tail = tail.substr(2);
      size_t plus = tail.rfind(" + "), minus = tail.rfind(" - ");
      size_t at = plus != std::string::npos ? plus : minus;
      if (at != std::string::npos && (minus == std::string::npos || at >= minus)) {
        r.has_addend = true;
        r.addend = signedHex(tail.substr(at + 3));
        if (at == minus) r.addend = -r.addend;
        r.symbol = tail.substr(0, at);
      } else {
        r.symbol = tail;
      }
    } else if (std::regex_match(l, m, without)) {
      if (m[4].matched) {
        r.has_addend = true;
        r.addend = signedHex(m[4]);
      }
    } else {
      ADD_FAILURE() << "unparsed llvm-readelf relocation line: " << l;
      continue;
    }
    r.offset = hexValue(m[1]);
    r.info = hexValue(m[2]);
    r.type = m[3];
    out.back().rows.push_back(r);
  }
  return out;
}

// ----- llvm-readelf -s ---------------------------------------------------------------------------

struct ReadelfSymbol {
  uint64_t index = 0, value = 0, size = 0;
  std::string type, ndx, name;
};
struct ReadelfSymbolTable {
  std::string name;
  std::vector<ReadelfSymbol> rows;
};

std::vector<ReadelfSymbolTable> readelfSymbols(const std::string& path) {
  std::vector<ReadelfSymbolTable> out;
  std::smatch m;
  const std::regex row(
      "^\\s*(\\d+): ([0-9a-f]+) +(\\d+) (.*?) +(LOCAL|GLOBAL|WEAK|UNIQUE|<[^>]*>: \\d+|\\d+) "
      "+(DEFAULT|INTERNAL|HIDDEN|PROTECTED)(?: \\[<other: 0x[0-9a-f]+>\\])? +(\\S+) ?(.*)$");
  for (const std::string& l : lines(tool({readelfTool(), "-s", path}))) {
    if (std::regex_search(l, m, std::regex("^Symbol table '(.*)' contains"))) {
      out.push_back({m[1], {}});
      continue;
    }
    if (out.empty() || l.find("Num:") != std::string::npos || rtrim(l).empty()) continue;
    if (!std::regex_match(l, m, row)) {
      ADD_FAILURE() << "unparsed llvm-readelf symbol line: " << l;
      continue;
    }
    ReadelfSymbol s;
    s.index = std::stoull(m[1]);
    s.value = hexValue(m[2]);
    s.size = std::stoull(m[3]);
    s.type = rtrim(m[4]);
    s.ndx = m[7];
    s.name = m[8];
    out.back().rows.push_back(s);
  }
  return out;
}

// ----- llvm-readelf --notes ----------------------------------------------------------------------

std::vector<std::string> noteLinesReadelf(const std::string& path) {
  // LLVM 19 and older read y/n/yes/no/on/off as YAML booleans and tag such strings !str; abikit
  // writes LLVM 22's YAML 1.2 (docs/elf.md).
  static const std::regex yaml11("!str (y|Y|yes|Yes|YES|n|N|no|No|NO|on|On|ON|off|Off|OFF)$");
  std::vector<std::string> out;
  for (const std::string& l : lines(tool({readelfTool(), "--notes", path}))) {
    if (l.rfind("Displaying notes found in", 0) == 0) continue;
    if (rtrim(l).empty()) continue;
    out.push_back(g_llvm == "22" ? rtrim(l) : std::regex_replace(rtrim(l), yaml11, "$1"));
  }
  return out;
}

std::vector<std::string> noteLinesAbikit(const ElfFile& f) {
  std::string text;
  appendElfText(f, ElfViewOptions{false, false, true}, text);
  std::vector<std::string> out;
  bool in_notes = false;
  for (const std::string& l : lines(text)) {
    if (l.rfind("Notes in ", 0) == 0) {
      in_notes = true;
      continue;
    }
    if (!in_notes || rtrim(l).empty() || l.rfind("    Problem: ", 0) == 0) continue;
    out.push_back(rtrim(l));
  }
  return out;
}

// ----- llvm-readelf -A (RISC-V) ------------------------------------------------------------------

std::vector<std::pair<uint64_t, std::string>> readelfAttributes(const std::string& path) {
  std::vector<std::pair<uint64_t, std::string>> out;
  std::smatch m;
  bool in_attr = false;
  for (const std::string& l : lines(tool({readelfTool(), "-A", path}))) {
    if (l.find("Attribute {") != std::string::npos) {
      in_attr = true;
      out.push_back({0, ""});
    } else if (in_attr && std::regex_search(l, m, std::regex("^\\s*Tag: (\\d+)"))) {
      out.back().first = std::stoull(m[1]);
    } else if (in_attr && std::regex_search(l, m, std::regex("^\\s*Value: (.*)$"))) {
      out.back().second = rtrim(m[1]);
    } else if (in_attr && l.find('}') != std::string::npos) {
      in_attr = false;
    }
  }
  return out;
}

// ----- the comparison ----------------------------------------------------------------------------

struct Counts {
  size_t objects = 0, relocations = 0, symbols = 0, notes = 0, attributes = 0;
};
Counts g_counts;

/// Compares abikit's reading of an object with the LLVM tools of version `llvm` ("22").
void compareObject(const std::string& path, const std::string& what,
                   const std::string& llvm = "14") {
  SCOPED_TRACE(what);
  g_llvm = llvm;
  ElfFile f = ElfFile::open(path);
  ++g_counts.objects;

  // Header and flags.
  ReadobjHeader h = readobjHeader(path);
  EXPECT_EQ(f.header().machine, h.machine);
  EXPECT_EQ(f.header().flags, h.flags);
  EXPECT_EQ(f.header().osabi, h.osabi);
  EXPECT_EQ(f.header().abi_version, h.abi_version);
  EXPECT_EQ(f.header().elf_class, h.cls);
  ASSERT_NE(f.machine(), nullptr) << "machine " << h.machine;
  const ElfFlagsInfo& fi = f.flagsInfo();
  EXPECT_TRUE(fi.problems.empty()) << fi.problems.front();
  std::set<std::string> ours(fi.flag_names.begin(), fi.flag_names.end());
  // Fields whose value is 0 are named by the family tables but not listed by readobj.
  for (const char* zero : {"EF_RISCV_FLOAT_ABI_SOFT", "EF_AMDGPU_FEATURE_XNACK_UNSUPPORTED_V4",
                           "EF_AMDGPU_FEATURE_SRAMECC_UNSUPPORTED_V4"})
    ours.erase(zero);
  if (!h.flag_names.empty()) {
    EXPECT_EQ(ours, h.flag_names);
  }
  for (const std::string& n : h.flag_names) {
    const std::string prefix = "EF_AMDGPU_MACH_AMDGCN_";
    if (n.rfind(prefix, 0) == 0) {
      std::string cpu = n.substr(prefix.size());
      for (char& c : cpu) c = c == '_' ? '-' : char(std::tolower(uint8_t(c))); // GFX9_4_GENERIC
      EXPECT_EQ(fi.processor, cpu);
    }
  }

  // Relocations.
  std::vector<ReadelfRelocSection> rr = readelfRelocs(path);
  std::vector<ElfRelocationTable> ours_r = f.relocationTables();
  ASSERT_EQ(rr.size(), ours_r.size());
  for (size_t s = 0; s < rr.size(); ++s) {
    const ElfRelocationTable& t = ours_r[s];
    EXPECT_EQ(rr[s].name, t.section().name);
    ASSERT_EQ(rr[s].rows.size(), t.size()) << rr[s].name;
    for (size_t i = 0; i < t.size(); ++i) {
      const ReadelfReloc& x = rr[s].rows[i];
      ElfRelocation r = t[i];
      SCOPED_TRACE(rr[s].name + " #" + std::to_string(i));
      EXPECT_EQ(r.offset, x.offset);
      EXPECT_EQ(r.info, x.info);
      const RelocationType* rt = elfRelocationType(f, r.type);
      if (x.type != "Unknown") {
        ASSERT_NE(rt, nullptr) << x.type;
        EXPECT_EQ(rt->name, x.type);
      }
      EXPECT_EQ(r.symbol != 0, x.has_symbol);
      if (r.symbol) {
        ElfSymbol sym = t.symbols()[r.symbol];
        std::string name(sym.name);
        if (name.empty() && sym.type() == 3) name = std::string(f.sections()[sym.shndx].name);
        EXPECT_EQ(name, x.symbol);
      }
      EXPECT_EQ(t.rela(), x.has_addend);
      if (t.rela()) {
        EXPECT_EQ(r.addend, x.addend);
      }
      ++g_counts.relocations;
    }
  }

  // Symbols.
  std::vector<ReadelfSymbolTable> rs = readelfSymbols(path);
  std::vector<ElfSymbolTable> ours_s = f.symbolTables();
  ASSERT_EQ(rs.size(), ours_s.size());
  for (size_t s = 0; s < rs.size(); ++s) {
    const ElfSymbolTable& t = ours_s[s];
    EXPECT_EQ(rs[s].name, t.section().name);
    ASSERT_EQ(rs[s].rows.size(), t.size());
    for (size_t i = 0; i < t.size(); ++i) {
      const ReadelfSymbol& x = rs[s].rows[i];
      ElfSymbol sym = t[i];
      SCOPED_TRACE(rs[s].name + " #" + std::to_string(i) + " " + x.name);
      EXPECT_EQ(x.index, i);
      EXPECT_EQ(sym.value, x.value);
      EXPECT_EQ(sym.size, x.size);
      std::string name(sym.name);
      if (name.empty() && sym.type() == 3 && sym.shndx < f.sections().size())
        name = std::string(f.sections()[sym.shndx].name); // readelf shows the section's name
      EXPECT_EQ(name, x.name);
      if (std::isdigit(uint8_t(x.ndx[0]))) {
        EXPECT_EQ(std::to_string(sym.shndx), x.ndx);
      }
      if (x.ndx == "UND") {
        EXPECT_EQ(sym.shndx, 0u);
      }
      if (x.ndx == "ABS") {
        EXPECT_EQ(sym.shndx, kShnAbs);
      }
      std::string_view type = elfSymbolTypeName(sym.type(), f.header().machine, f.header().osabi);
      if (!type.empty() && x.type.find('<') == std::string::npos) {
        EXPECT_EQ(type, x.type);
      }
      ++g_counts.symbols;
    }
  }

  // Notes.
  std::vector<std::string> nr = noteLinesReadelf(path), na = noteLinesAbikit(f);
  EXPECT_EQ(na, nr);
  g_counts.notes += f.notes().size();

  // RISC-V build attributes.
  if (const ElfSection* s = f.findSection(".riscv.attributes")) {
    auto expect = readelfAttributes(path);
    BuildAttributes a = parseRiscvAttributes(f, *s);
    std::vector<std::pair<uint64_t, std::string>> got;
    for (const auto& sub : a.subsections)
      for (const auto& at : sub.attributes)
        got.push_back(
            {at.tag, at.is_string ? std::string(at.string_value) : std::to_string(at.int_value)});
    EXPECT_EQ(got, expect);
    EXPECT_TRUE(a.problems.empty());
    g_counts.attributes += got.size();
  }

  // The JSON view parses and carries everything.
  std::string json;
  appendElfJson(f, ElfViewOptions{true, true, true}, json);
  nlohmann::json doc = nlohmann::json::parse(json);
  size_t nrel = 0;
  for (const auto& t : doc["relocations"]) nrel += t["entries"].size();
  size_t expect_rel = 0;
  for (const auto& t : ours_r) expect_rel += t.size();
  EXPECT_EQ(nrel, expect_rel);
  EXPECT_EQ(doc["target"]["triple"], fi.target);
}

// ----- generated programs ------------------------------------------------------------------------

std::string randomC(std::mt19937_64& rng) {
  auto pick = [&](int n) { return int(rng() % uint64_t(n)); };
  std::ostringstream c;
  int ne = 1 + pick(4), ng = 1 + pick(4), nf = 1 + pick(4);
  for (int i = 0; i < ne; ++i)
    c << "extern int ext" << i << "(int);\nextern int edata" << i << ";\n";
  for (int i = 0; i < ng; ++i) {
    c << "int gdata" << i << " = " << pick(100) << ";\n";
    c << "static int sdata" << i << "[4] = {" << pick(9) << ", 2, 3, " << pick(9) << "};\n";
    c << "const long table" << i << "[8] = {1, 2, 3, 4, 5, 6, 7, " << pick(1000) << "};\n";
    c << "int *ptr" << i << " = &gdata" << i << ";\n";
    c << "int (*fptr" << i << ")(int) = ext" << pick(ne) << ";\n";
    c << "const char *str" << i << " = \"s" << pick(1000) << "\";\n";
  }
  for (int i = 0; i < nf; ++i) {
    c << "__attribute__((noinline)) static int helper" << i << "(int x) { return x * "
      << 1 + pick(7) << " + sdata" << pick(ng) << "[x & 3]; }\n";
    c << "int func" << i << "(int x) {\n  switch (x) {\n";
    for (int k = 0; k < 6; ++k)
      c << "  case " << k << ": return ext" << pick(ne) << "(x + " << k << ");\n";
    c << "  }\n  return ext" << pick(ne) << "(x) + gdata" << pick(ng) << " + edata" << pick(ne)
      << " + (int)table" << pick(ng) << "[x & 7] + fptr" << pick(ng) << "(x) + helper" << i
      << "(x) + *ptr" << pick(ng) << " + str" << pick(ng) << "[1];\n}\n";
  }
  return c.str();
}

std::string randomOpenCL(std::mt19937_64& rng) {
  auto pick = [&](int n) { return int(rng() % uint64_t(n)); };
  static const char* const kTypes[] = {"__global int*",
                                       "__global float*",
                                       "__global const char*",
                                       "__constant int*",
                                       "__local float*",
                                       "int",
                                       "uint",
                                       "char",
                                       "uchar",
                                       "short",
                                       "long",
                                       "float",
                                       "float4",
                                       "int2",
                                       "__global uint4*",
                                       "ulong"};
  static const char* const kNames[] = {"n", "y", "on", "x", "a", "data", "out", "Off", "count"};
  std::ostringstream c;
  c << "constant int ctab[8] = {1, 2, 3, 4, 5, 6, 7, " << pick(100) << "};\n";
  c << "__attribute__((noinline)) int helper(int x) { return x + ctab[x & 7]; }\n";
  int nk = 1 + pick(3);
  for (int k = 0; k < nk; ++k) {
    if (pick(3) == 0) c << "__attribute__((reqd_work_group_size(64, 1, 1)))\n";
    c << "__kernel void kern" << k << "(";
    int na = pick(6);
    std::set<std::string> used;
    for (int i = 0; i < na; ++i) {
      std::string t = kTypes[pick(int(std::size(kTypes)))];
      std::string name = kNames[pick(int(std::size(kNames)))];
      while (used.count(name)) name += "_";
      used.insert(name);
      c << (i ? ", " : "") << t << " " << name;
    }
    c << ") {\n  __local int tmp[16];\n  tmp[get_local_id(0) & 15] = "
         "helper((int)get_global_id(0));\n";
    c << "  barrier(CLK_LOCAL_MEM_FENCE);\n";
    c << "}\n";
  }
  return c.str();
}

// ----- RISC-V ------------------------------------------------------------------------------------

struct RiscvConfig {
  std::string triple, march, mabi;
  std::vector<std::string> extra;
};

TEST(ElfReadelf, RiscvObjectsFromClang) {
  const RiscvConfig configs[] = {
      {"riscv32-unknown-elf", "rv32i", "ilp32", {}},
      {"riscv32-unknown-elf", "rv32imac", "ilp32", {"-mrelax"}},
      {"riscv32-unknown-elf", "rv32imafc", "ilp32f", {}},
      {"riscv32-unknown-elf", "rv32imafdc", "ilp32d", {"-fPIC"}},
      {"riscv32-unknown-elf", "rv32imafd", "ilp32d", {"-mno-relax"}},
      {"riscv64-unknown-elf", "rv64imac", "lp64", {"-mcmodel=medany"}},
      {"riscv64-unknown-elf", "rv64imafc", "lp64f", {}},
      {"riscv64-unknown-elf", "rv64gc", "lp64d", {"-mrelax"}},
      {"riscv64-unknown-linux-gnu", "rv64gc", "lp64d", {"-fPIC"}},
      {"riscv64-unknown-elf", "rv64g", "lp64d", {}},
  };
  std::mt19937_64 rng(oracle::sampleSeed(0x515c));
  const uint64_t per = oracle::sampleCount(2);
  oracle::ScratchDir dir;
  int n = 0;
  for (const std::string& clang : oracle::installedClangs())
    for (const RiscvConfig& c : configs)
      for (uint64_t k = 0; k < per; ++k) {
        std::string name = "r" + std::to_string(n++);
        dir.write(name + ".c", randomC(rng));
        std::string src = dir.file(name + ".c"), obj = dir.file(name + ".o");
        std::vector<std::string> argv = {clang,
                                         "-target",
                                         c.triple,
                                         "-march=" + c.march,
                                         "-mabi=" + c.mabi,
                                         k % 2 ? "-O2" : "-O0",
                                         "-c",
                                         src,
                                         "-o",
                                         obj};
        argv.insert(argv.end(), c.extra.begin(), c.extra.end());
        std::string what = clang + " " + c.triple + " -march=" + c.march + " -mabi=" + c.mabi;
        if (build(argv, what)) compareObject(obj, what, clang.substr(clang.find('-') + 1));
      }
}

TEST(ElfReadelf, RiscvObjectsFromGcc) {
  if (oracle::findProgram("riscv64-unknown-elf-gcc").empty())
    GTEST_SKIP() << "riscv64-unknown-elf-gcc is not installed";
  // GCC covers what llc-14 cannot: the E ABI and Ztso.
  const RiscvConfig configs[] = {
      {"", "rv32ec", "ilp32e", {}},     {"", "rv32e", "ilp32e", {}},
      {"", "rv64gc_ztso", "lp64d", {}}, {"", "rv32imac_ztso", "ilp32", {}},
      {"", "rv32imafc", "ilp32f", {}},  {"", "rv64imac", "lp64", {"-mcmodel=medany"}},
      {"", "rv64imafdc", "lp64f", {}},
  };
  std::mt19937_64 rng(oracle::sampleSeed(0x9cc));
  const uint64_t per = oracle::sampleCount(2);
  oracle::ScratchDir dir;
  int n = 0;
  for (const RiscvConfig& c : configs)
    for (uint64_t k = 0; k < per; ++k) {
      std::string name = "g" + std::to_string(n++);
      dir.write(name + ".c", randomC(rng));
      std::vector<std::string> argv = {"riscv64-unknown-elf-gcc",
                                       "-march=" + c.march,
                                       "-mabi=" + c.mabi,
                                       k % 2 ? "-O2" : "-O0",
                                       "-c",
                                       dir.file(name + ".c"),
                                       "-o",
                                       dir.file(name + ".o")};
      argv.insert(argv.end(), c.extra.begin(), c.extra.end());
      std::string what = "gcc -march=" + c.march + " -mabi=" + c.mabi;
      if (build(argv, what)) compareObject(dir.file(name + ".o"), what);
    }
}

TEST(ElfReadelf, RiscvAssemblyFromLlvmMc) {
  oracle::ScratchDir dir;
  dir.write("e.s", ".attribute arch, \"rv32e1p9\"\n.attribute stack_align, 4\n"
                   "addi a0, a0, 1\ncall foo\nlui a1, %hi(bar)\naddi a1, a1, %lo(bar)\n"
                   ".data\n.word bar+4\n.quad foo-8\n");
  struct Mc {
    std::string triple, attrs, abi;
  };
  const Mc mcs[] = {{"riscv32", "+e", "ilp32e"},
                    {"riscv32", "+e,+c", "ilp32e"},
                    {"riscv64", "+c,+d", "lp64d"},
                    {"riscv64", "+f", "lp64f"}};
  int n = 0;
  for (const Mc& m : mcs) {
    std::string obj = dir.file("mc" + std::to_string(n++) + ".o");
    std::string what = "llvm-mc " + m.triple + " " + m.attrs + " " + m.abi;
    if (build({"llvm-mc-14", "-triple=" + m.triple, "-mattr=" + m.attrs, "-target-abi=" + m.abi,
               "-filetype=obj", dir.file("e.s"), "-o", obj},
              what))
      compareObject(obj, what);
  }
}

// ----- AMDGPU ------------------------------------------------------------------------------------

TEST(ElfReadelf, AmdgpuObjectsFromClang) {
  struct Config {
    const char* clang;
    std::string mcpu;
    int cov; // 0: the compiler's default
  };
  const Config configs[] = {
      {"clang-14", "gfx803", 4},
      {"clang-14", "gfx900", 4},
      {"clang-14", "gfx900:xnack+", 4},
      {"clang-14", "gfx906", 4},
      {"clang-14", "gfx906:xnack-", 4},
      {"clang-14", "gfx906:sramecc+:xnack+", 4},
      {"clang-14", "gfx908", 5},
      {"clang-14", "gfx908:sramecc-", 5},
      {"clang-14", "gfx90a:xnack+", 5},
      {"clang-14", "gfx90a", 4},
      {"clang-14", "gfx1010", 4},
      {"clang-14", "gfx1030", 5},
      {"clang-14", "gfx1035", 4},
      {"clang-14", "gfx700", 5},
      {"clang-14", "gfx90c", 4},
      // Code object v6 (clang-22's default) and the generic processors it brings.
      {"clang-22", "gfx90a", 0},
      {"clang-22", "gfx942:xnack+", 0},
      {"clang-22", "gfx1100", 0},
      {"clang-22", "gfx1201", 5},
      {"clang-22", "gfx9-generic", 0},
      {"clang-22", "gfx10-3-generic", 0},
      {"clang-22", "gfx11-generic", 6},
      {"clang-22", "gfx12-generic", 0},
      {"clang-22", "gfx9-4-generic:sramecc-", 0},
      {"clang-19", "gfx906", 0},
      {"clang-19", "gfx1030", 6},
      {"clang-19", "gfx10-1-generic", 6},
  };
  std::mt19937_64 rng(oracle::sampleSeed(0xa3d));
  const uint64_t per = oracle::sampleCount(2);
  oracle::ScratchDir dir;
  int n = 0;
  for (const Config& c : configs) {
    if (oracle::findProgram(c.clang).empty()) continue;
    for (uint64_t k = 0; k < per; ++k) {
      std::string name = "k" + std::to_string(n++);
      dir.write(name + ".cl", randomOpenCL(rng));
      std::vector<std::string> argv = {c.clang,           "-target",   "amdgcn-amd-amdhsa",
                                       "-mcpu=" + c.mcpu, "-nogpulib", k % 2 ? "-O2" : "-O0"};
      // clang-14 takes the version as an LLVM option; the newer ones as a driver option (their
      // module flag overrides the LLVM option).
      if (c.cov && std::string(c.clang) == "clang-14")
        for (const std::string& a :
             {std::string("-mllvm"), "--amdhsa-code-object-version=" + std::to_string(c.cov)})
          argv.push_back(a);
      else if (c.cov)
        argv.push_back("-mcode-object-version=" + std::to_string(c.cov));
      for (const std::string& a :
           {std::string("-c"), dir.file(name + ".cl"), std::string("-o"), dir.file(name + ".o")})
        argv.push_back(a);
      if (rng() % 2) argv.push_back("-cl-kernel-arg-info");
      if (rng() % 2) argv.push_back("-cl-std=CL2.0");
      std::string what = std::string(c.clang) + " amdgcn " + c.mcpu + " code object " +
                         (c.cov ? "v" + std::to_string(c.cov) : std::string("default"));
      if (build(argv, what))
        compareObject(dir.file(name + ".o"), what, std::string(c.clang).substr(6));
    }
  }
}

TEST(ElfReadelf, AmdgpuCodeObjectV2AndV3FromLlc) {
  struct Config {
    std::string mcpu, attrs;
    int cov;
  };
  const Config configs[] = {{"gfx803", "", 2}, {"gfx900", "+xnack", 2}, {"gfx801", "", 2},
                            {"gfx906", "", 3}, {"gfx900", "+xnack", 3}, {"gfx908", "+sramecc", 3},
                            {"gfx1030", "", 3}};
  std::mt19937_64 rng(oracle::sampleSeed(0x1c2));
  const uint64_t per = oracle::sampleCount(1);
  oracle::ScratchDir dir;
  int n = 0;
  for (const Config& c : configs)
    for (uint64_t k = 0; k < per; ++k) {
      std::string name = "v" + std::to_string(n++);
      dir.write(name + ".cl", randomOpenCL(rng));
      std::string what = "llc " + c.mcpu + c.attrs + " code object v" + std::to_string(c.cov);
      if (!build({"clang-14", "-target", "amdgcn-amd-amdhsa", "-mcpu=" + c.mcpu, "-nogpulib", "-O1",
                  "-cl-kernel-arg-info", "-S", "-emit-llvm", dir.file(name + ".cl"), "-o",
                  dir.file(name + ".ll")},
                 what))
        continue;
      std::vector<std::string> argv = {"llc-14",
                                       "-mtriple=amdgcn-amd-amdhsa",
                                       "-mcpu=" + c.mcpu,
                                       "--amdhsa-code-object-version=" + std::to_string(c.cov),
                                       "-filetype=obj",
                                       dir.file(name + ".ll"),
                                       "-o",
                                       dir.file(name + ".o")};
      if (!c.attrs.empty()) argv.push_back("-mattr=" + c.attrs);
      if (build(argv, what)) compareObject(dir.file(name + ".o"), what);
    }
}

// ----- CUDA cubins -------------------------------------------------------------------------------

std::string randomPtx(std::mt19937_64& rng, unsigned sm) {
  std::ostringstream p;
  p << ".version 8.8\n.target sm_" << sm << "\n.address_size 64\n";
  int ng = 1 + int(rng() % 3);
  for (int i = 0; i < ng; ++i) p << ".visible .global .align 4 .b8 g" << i << "[16];\n";
  p << ".extern .func (.param .b32 r) ext(.param .b32 a);\n";
  p << ".visible .entry kern(.param .u64 p, .param .u32 n)\n{\n"
       "  .reg .b32 %r<8>; .reg .b64 %rd<8>;\n"
       "  ld.param.u64 %rd1, [p]; ld.param.u32 %r1, [n];\n";
  for (int i = 0; i < ng; ++i)
    p << "  mov.u64 %rd2, g" << i << "; cvta.global.u64 %rd3, %rd2; ld.u32 %r2, [%rd3];\n";
  p << "  { .param .b32 a0; st.param.b32 [a0], %r2; .param .b32 r0;\n"
       "    call.uni (r0), ext, (a0); ld.param.b32 %r3, [r0]; }\n"
       "  cvta.to.global.u64 %rd4, %rd1; st.global.u32 [%rd4], %r3;\n  ret;\n}\n";
  return p.str();
}

TEST(ElfReadelf, CubinsFromPtxas) {
  if (oracle::findProgram(kPtxas).empty())
    GTEST_SKIP() << kPtxas << " is not installed: no cubins to compare";
  std::mt19937_64 rng(oracle::sampleSeed(0xc0b));
  oracle::ScratchDir dir;
  int n = 0;
  for (unsigned sm : {75u, 80u, 86u, 89u, 90u, 100u, 120u}) {
    std::string name = "c" + std::to_string(n++);
    dir.write(name + ".ptx", randomPtx(rng, sm));
    std::string what = "ptxas sm_" + std::to_string(sm);
    if (build({kPtxas, "-c", "-arch=sm_" + std::to_string(sm), dir.file(name + ".ptx"), "-o",
               dir.file(name + ".cubin")},
              what)) {
      compareObject(dir.file(name + ".cubin"), what);
      ElfFile f = ElfFile::open(dir.file(name + ".cubin"));
      EXPECT_EQ(f.flagsInfo().processor, "sm_" + std::to_string(sm));
    }
  }
}

// ----- notes from MessagePack documents ----------------------------------------------------------

// Strings that exercise the YAML writer's quoting and tags.
const char* const kTrickyStrings[] = {"n",
                                      "y",
                                      "yes",
                                      "no",
                                      "on",
                                      "Off",
                                      "true",
                                      "True",
                                      "TRUE",
                                      "null",
                                      "~",
                                      "",
                                      " a",
                                      "a ",
                                      "nan",
                                      "inf",
                                      "Infinity",
                                      "0x10",
                                      "017",
                                      "019",
                                      "1e5",
                                      "1.5",
                                      ".5",
                                      "-",
                                      "-1",
                                      "+1",
                                      "0b11",
                                      "0o7",
                                      "a:b",
                                      "a#b",
                                      "@x",
                                      "x@y",
                                      "*p",
                                      "p*",
                                      "'q'",
                                      "\"d\"",
                                      "l\nm",
                                      "tab\there",
                                      "caf\xc3\xa9",
                                      "\x01",
                                      "\x7f",
                                      "a/b",
                                      "a\\b",
                                      "[x]",
                                      "{y}",
                                      "!t",
                                      "%p",
                                      "a,b",
                                      "-a",
                                      "?q",
                                      ":c",
                                      ".inf",
                                      "1e",
                                      "e5",
                                      "12abc",
                                      "0x",
                                      "NaN",
                                      "nan(1)",
                                      "1_000",
                                      "Yes",
                                      "Y",
                                      "ON",
                                      "~x",
                                      "x\xffy",
                                      "\x1f",
                                      "a\rb",
                                      "\x1b",
                                      "\xc2\x85",
                                      "\xc2\xa0",
                                      "\xe2\x80\xa8",
                                      "float*",
                                      "OpenCL C",
                                      "global_buffer",
                                      "amdgcn-amd-amdhsa--gfx906:sramecc+:xnack-",
                                      "18446744073709551616",
                                      "-9223372036854775809"};

using Packer = msgpack::packer<msgpack::sbuffer>;

void packString(Packer& pk, const std::string& s) {
  pk.pack_str(uint32_t(s.size()));
  pk.pack_str_body(s.data(), uint32_t(s.size()));
}

void packScalar(Packer& pk, std::mt19937_64& rng) {
  switch (rng() % 9) {
  case 0:
    pk.pack_nil();
    break;
  case 1:
    rng() % 2 ? pk.pack_true() : pk.pack_false();
    break;
  case 2:
    pk.pack_uint64(rng() % 300);
    break;
  case 3:
    pk.pack_uint64(rng());
    break;
  case 4:
    pk.pack_int64(-int64_t(rng() % 100000) - 1);
    break;
  case 5: {
    const double kFloats[] = {1.5, -0.25, 1e300, 0.1, 123456789.0, 3.0};
    pk.pack_double(kFloats[rng() % std::size(kFloats)]);
    break;
  }
  default:
    packString(pk, kTrickyStrings[rng() % std::size(kTrickyStrings)]);
  }
}

// Random document: maps and arrays nested up to `depth`; no array directly inside an array
// (LLVM 14's YAML writer loses that structure; docs/elf.md).
void packValue(Packer& pk, std::mt19937_64& rng, int depth, bool in_array) {
  int kind = depth > 0 ? int(rng() % 4) : 0;
  if (kind == 1 || (kind == 2 && in_array)) {
    uint32_t n = uint32_t(rng() % 4);
    std::set<std::string> keys;
    std::vector<std::string> list;
    while (list.size() < n) {
      std::string k = rng() % 3 ? std::string(".key") + std::to_string(rng() % 20)
                                : std::string(kTrickyStrings[rng() % 12]);
      if (keys.insert(k).second) list.push_back(k);
    }
    pk.pack_map(n);
    for (const std::string& k : list) {
      packString(pk, k);
      packValue(pk, rng, depth - 1, false);
    }
  } else if (kind == 2) {
    uint32_t n = uint32_t(rng() % 4);
    pk.pack_array(n);
    for (uint32_t i = 0; i < n; ++i) packValue(pk, rng, depth - 1, true);
  } else {
    packScalar(pk, rng);
  }
}

std::string
noteAsm(const std::vector<std::pair<std::string, std::pair<uint32_t, std::string>>>& notes) {
  std::string blob;
  auto put32 = [&](uint32_t v) {
    for (int i = 0; i < 4; ++i) blob += char(v >> (8 * i));
  };
  for (const auto& [owner, td] : notes) {
    put32(uint32_t(owner.size() + 1));
    put32(uint32_t(td.second.size()));
    put32(td.first);
    blob += owner;
    blob += '\0';
    while (blob.size() % 4) blob += '\0';
    blob += td.second;
    while (blob.size() % 4) blob += '\0';
  }
  std::string s = ".section .note,\"a\",@note\n.p2align 2\n";
  for (size_t i = 0; i < blob.size(); i += 16) {
    s += ".byte ";
    for (size_t j = i; j < std::min(blob.size(), i + 16); ++j)
      s += (j > i ? "," : "") + std::to_string(uint8_t(blob[j]));
    s += "\n";
  }
  return s;
}

TEST(ElfReadelf, MetadataNotesFromMessagePackDocuments) {
  std::mt19937_64 rng(oracle::sampleSeed(0x3a9));
  oracle::ScratchDir dir;
  std::vector<std::pair<std::string, std::pair<uint32_t, std::string>>> notes;
  // Every tricky string as a key and as a value, then random documents.
  {
    msgpack::sbuffer b;
    Packer pk(b);
    pk.pack_map(2);
    packString(pk, "values");
    pk.pack_array(uint32_t(std::size(kTrickyStrings)));
    for (const char* s : kTrickyStrings) packString(pk, s);
    packString(pk, "keys");
    pk.pack_map(uint32_t(std::size(kTrickyStrings)));
    for (const char* s : kTrickyStrings) {
      packString(pk, s);
      pk.pack_uint64(1);
    }
    notes.push_back({"AMDGPU", {32, std::string(b.data(), b.size())}});
  }
  const uint64_t count = oracle::sampleCount(60);
  for (uint64_t i = 0; i < count; ++i) {
    std::string bytes;
    {
      msgpack::sbuffer m;
      Packer mp(m);
      packValue(mp, rng, 4, false);
      bytes.assign(m.data(), m.size());
    }
    // Root: always a map or an array of maps (a scalar root is shown as raw bytes).
    msgpack::sbuffer root;
    Packer rp(root);
    rp.pack_map(2);
    packString(rp, "amdhsa.version");
    rp.pack_array(2);
    rp.pack_uint64(1);
    rp.pack_uint64(rng() % 3);
    packString(rp, "doc");
    std::string doc(root.data(), root.size());
    doc += bytes;
    notes.push_back({"AMDGPU", {32, doc}});
  }
  // V2 records.
  auto le32 = [](uint32_t v) {
    std::string s;
    for (int i = 0; i < 4; ++i) s += char(v >> (8 * i));
    return s;
  };
  notes.push_back({"AMD", {1, le32(2) + le32(1)}});
  notes.push_back({"AMD", {2, le32(1) + le32(0) + std::string("\x01\x00\x02\x00", 4)}});
  notes.push_back({"AMD",
                   {3, std::string("\x04\x00\x07\x00", 4) + le32(9) + le32(0) + le32(6) +
                           std::string("AMD\0AMDGPU\0", 11)}});
  notes.push_back({"AMD", {10, "---\nVersion: [ 1, 0 ]\nKernels: []\n...\n"}});
  notes.push_back({"AMD", {11, "amdgcn-amd-amdhsa--gfx906"}});
  notes.push_back({"AMD", {12, le32(0x2c0a) + le32(5) + le32(7) + le32(9)}});
  notes.push_back({"AMD", {13, "xyz"}});
  notes.push_back({"GNU", {3, std::string("\xde\xad\xbe\xef", 4)}});
  notes.push_back({"GNU", {1, le32(0) + le32(3) + le32(2) + le32(0)}});
  dir.write("notes.s", noteAsm(notes));
  if (!build({"llvm-mc-14", "-triple=amdgcn-amd-amdhsa", "-mcpu=gfx906", "-filetype=obj",
              dir.file("notes.s"), "-o", dir.file("notes.o")},
             "notes"))
    return;
  ElfFile f = ElfFile::open(dir.file("notes.o"));
  std::vector<std::string> nr = noteLinesReadelf(dir.file("notes.o")), na = noteLinesAbikit(f);
  ASSERT_EQ(na.size(), nr.size());
  for (size_t i = 0; i < na.size(); ++i) EXPECT_EQ(na[i], nr[i]) << "line " << i;
  g_counts.notes += f.notes().size();
}

// ----- link-check against ld.lld -----------------------------------------------------------------

TEST(ElfReadelf, LinkCheckAgreesWithLld) {
  oracle::ScratchDir dir;
  dir.write("a.c", "int fa(int x) { return x + 1; }\n");
  dir.write("b.c", "int fb(int x) { return x + 2; }\n");
  dir.write("a.cl", "__kernel void ka(__global int* p) { p[0] = 1; }\n");
  dir.write("b.cl", "__kernel void kb(__global int* p) { p[0] = 2; }\n");
  struct Obj {
    std::vector<std::string> argv; // compiler and options, without the source and output
  };
  auto rv = [](std::string triple, std::string march, std::string mabi) {
    return std::vector<std::string>{"clang-14", "-target", triple, "-march=" + march,
                                    "-mabi=" + mabi};
  };
  auto gcc = [](std::string march, std::string mabi) {
    return std::vector<std::string>{"riscv64-unknown-elf-gcc", "-march=" + march, "-mabi=" + mabi};
  };
  auto am = [](std::string mcpu) {
    return std::vector<std::string>{"clang-14", "-target", "amdgcn-amd-amdhsa", "-nogpulib",
                                    "-mcpu=" + mcpu};
  };
  const std::pair<std::vector<std::string>, std::vector<std::string>> pairs[] = {
      {rv("riscv64-unknown-elf", "rv64gc", "lp64"), rv("riscv64-unknown-elf", "rv64gc", "lp64d")},
      {rv("riscv64-unknown-elf", "rv64gc", "lp64d"), rv("riscv64-unknown-elf", "rv64gc", "lp64d")},
      {rv("riscv64-unknown-elf", "rv64gc", "lp64"), rv("riscv64-unknown-elf", "rv64imac", "lp64")},
      {rv("riscv32-unknown-elf", "rv32imafc", "ilp32f"),
       rv("riscv32-unknown-elf", "rv32imafdc", "ilp32d")},
      {rv("riscv32-unknown-elf", "rv32imac", "ilp32"), gcc("rv32ec", "ilp32e")},
      {gcc("rv32ec", "ilp32e"), gcc("rv32e", "ilp32e")},
      {rv("riscv64-unknown-elf", "rv64gc", "lp64d"), gcc("rv64gc_ztso", "lp64d")},
      {rv("riscv32-unknown-elf", "rv32imac", "ilp32"),
       rv("riscv64-unknown-elf", "rv64imac", "lp64")},
      {am("gfx906"), am("gfx908")},
      {am("gfx906"), am("gfx906")},
      {am("gfx906:xnack+"), am("gfx906:xnack-")},
      {am("gfx906"), am("gfx906:xnack-")},
      {am("gfx906:xnack+"), am("gfx906")},
      {am("gfx906:sramecc+"), am("gfx906:sramecc-")},
      {am("gfx90a:sramecc+:xnack+"), am("gfx90a:xnack+")},
      {am("gfx1030"), am("gfx1031")},
      {rv("riscv64-unknown-elf", "rv64gc", "lp64d"), am("gfx906")},
  };
  int n = 0;
  for (const auto& [x, y] : pairs) {
    std::string what = x[0] + " " + x.back() + " + " + y[0] + " " + y.back();
    SCOPED_TRACE(what);
    bool cl_x = x.back().rfind("-mcpu", 0) == 0, cl_y = y.back().rfind("-mcpu", 0) == 0;
    std::string ox = dir.file("x" + std::to_string(n) + ".o");
    std::string oy = dir.file("y" + std::to_string(n++) + ".o");
    std::vector<std::string> ax = x, ay = y;
    ax.insert(ax.end(), {"-c", dir.file(cl_x ? "a.cl" : "a.c"), "-o", ox});
    ay.insert(ay.end(), {"-c", dir.file(cl_y ? "b.cl" : "b.c"), "-o", oy});
    if (!build(ax, what) || !build(ay, what)) continue;
    ElfFile fx = ElfFile::open(ox), fy = ElfFile::open(oy);
    std::vector<const ElfFile*> files = {&fx, &fy};
    std::vector<LinkConflict> conflicts = linkConflicts(files);
    oracle::RunResult lld = oracle::run({"ld.lld-14", "-r", ox, oy, "-o", dir.file("out.o")});
    EXPECT_EQ(conflicts.empty(), lld.exit_code == 0)
        << "lld: " << lld.err
        << "\nabikit: " << (conflicts.empty() ? "compatible" : conflicts[0].line());
  }
}

TEST(ElfReadelf, Summary) {
  // Runs last (gtest runs tests in order within a file): what the comparisons covered.
  std::printf("compared %zu objects: %zu relocations, %zu symbols, %zu notes, %zu attributes\n",
              g_counts.objects, g_counts.relocations, g_counts.symbols, g_counts.notes,
              g_counts.attributes);
  EXPECT_GT(g_counts.objects, 0u);
}

} // namespace
