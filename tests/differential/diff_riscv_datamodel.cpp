// RISC-V target model against the real compilers:
//  - predefinedMacros(target, C) against `clang-14 -target T -march=M -mabi=A -E -dM -x c
//    /dev/null` for every ABI clang-14 accepts (ilp32/ilp32f/ilp32d, lp64/lp64f/lp64d), bare-metal
//    and Linux triples and several -march strings: every macro both define has the same value
//    (the only exception: clang-14's older extension versions, checked to be exactly those), the
//    key macros are defined by both, and each side defines nothing else the other lacks except
//    the listed, documented ones;
//  - sizeof/_Alignof of every scalar type of the data model, the standard typedefs, vector,
//    _BitInt, max_align_t, char signedness and lock-free atomics as generated _Static_asserts
//    compiled by clang-14 for that target; unsupported types must be rejected;
//  - e_flags / ELF class / e_machine of an object clang-14 writes for the target;
//  - the same data model against riscv64-unknown-elf-gcc (GCC 12), including ilp32e, which
//    clang-14 does not accept, and the GCC macro values that must agree.
// Differences between GCC and clang are listed in docs/targets/riscv.md.
#include "abikit/target.h"
#include "oracle.h"

#include <cctype>
#include <cstring>
#include <gtest/gtest.h>
#include <map>
#include <set>
#include <string>
#include <vector>

using namespace abikit;

namespace {

const char* const kClang = "clang-14";
const char* const kGcc = "riscv64-unknown-elf-gcc";

struct Case {
  std::string triple, march, mabi, mcmodel;
};

std::string describeCase(const Case& c) {
  std::string s = c.triple;
  if (!c.march.empty()) s += " -march=" + c.march;
  if (!c.mabi.empty()) s += " -mabi=" + c.mabi;
  if (!c.mcmodel.empty()) s += " -mcmodel=" + c.mcmodel;
  return s;
}

/// abikit's target for a case as `compiler` builds it (the clang-14 comparisons name it: the
/// default is the newest clang).
Target resolve(const Case& c, const std::string& compiler = kClang) {
  TargetOptions o;
  o.triple = c.triple;
  o.march = c.march;
  o.mabi = c.mabi;
  o.mcmodel = c.mcmodel;
  o.compiler = compiler;
  return resolveTarget(o);
}

std::vector<std::string> targetArgs(const Case& c, bool gcc) {
  std::vector<std::string> a;
  if (!gcc) a = {"-target", c.triple};
  if (!c.march.empty()) a.push_back("-march=" + c.march);
  if (!c.mabi.empty()) a.push_back("-mabi=" + c.mabi);
  if (!c.mcmodel.empty()) a.push_back("-mcmodel=" + c.mcmodel);
  return a;
}

// Every -march/-mabi pair clang-14 accepts that the tests use (clang-14 knows no Zicsr, Q, E
// ABIs or version 2.1 of I). The ABI is always explicit: clang-14 chooses ilp32/lp64 for F-only
// ISAs where current clang (and abikit) choose ilp32f/lp64f.
const std::pair<const char*, const char*> kIsaAbi32[] = {
    {"rv32i", "ilp32"},
    {"rv32imac", "ilp32"},
    {"rv32ima", "ilp32"},
    {"rv32imafc", "ilp32f"},
    {"rv32imafc", "ilp32"},
    {"rv32imafdc", "ilp32d"},
    {"rv32imafdc", "ilp32f"},
    {"rv32gc", "ilp32"},
    {"rv32g", "ilp32d"},
    {"rv32imafdc_zfh", "ilp32d"},
    {"rv32imac_zba_zbb_zbs", "ilp32"},
    {"rv32imc", "ilp32"},
};
const std::pair<const char*, const char*> kIsaAbi64[] = {
    {"rv64i", "lp64"},           {"rv64imac", "lp64"},
    {"rv64imafc", "lp64f"},      {"rv64gc", "lp64d"},
    {"rv64gc", "lp64"},          {"rv64gc", "lp64f"},
    {"rv64gcv", "lp64d"},        {"rv64gc_zba_zbb_zbs", "lp64d"},
    {"rv64imafdc_zfh", "lp64d"}, {"rv64gcv_zvl256b", "lp64d"},
    {"rv64ima", "lp64"},         {"rv64gc_zbkb_zbkc_zbkx_zkne_zknd_zknh", "lp64d"},
};

std::vector<Case> clangCases() {
  std::vector<Case> out;
  for (const char* os : {"unknown-elf", "unknown-linux-gnu"}) {
    for (const auto& [m, a] : kIsaAbi32) out.push_back({std::string("riscv32-") + os, m, a, ""});
    for (const auto& [m, a] : kIsaAbi64) out.push_back({std::string("riscv64-") + os, m, a, ""});
    // Triple defaults (-march and -mabi from the triple).
    out.push_back({std::string("riscv32-") + os, "", "", ""});
    out.push_back({std::string("riscv64-") + os, "", "", ""});
  }
  // -mabi alone chooses -march=rv32imafdc / rv64imafdc.
  out.push_back({"riscv32-unknown-elf", "", "ilp32", ""});
  out.push_back({"riscv64-unknown-elf", "", "lp64f", ""});
  out.push_back({"riscv64-unknown-elf", "rv64gc", "lp64d", "medany"});
  out.push_back({"riscv32-unknown-elf", "rv32imac", "ilp32", "medany"});
  out.push_back({"riscv64-unknown-elf", "rv64gc", "lp64d", "medium"});
  out.push_back({"riscv64-linux-gnu", "", "", ""});
  out.push_back({"riscv64-unknown-linux-musl", "", "", ""});
  out.push_back({"riscv32-unknown-linux-musl", "rv32imac", "ilp32", ""});
  out.push_back({"riscv64", "", "", ""});
  return out;
}

std::string caseName(const ::testing::TestParamInfo<Case>& info) {
  std::string s = std::to_string(info.index) + "_";
  for (char ch : describeCase(info.param))
    s += ((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9')) ? ch
                                                                                            : '_';
  return s;
}

using MacroMap = std::map<std::string, std::string>;

MacroMap compilerMacros(const char* cc, const Case& c, bool gcc) {
  std::vector<std::string> argv = {cc};
  for (const std::string& a : targetArgs(c, gcc)) argv.push_back(a);
  return oracle::compilerMacros(argv);
}

MacroMap abikitMacros(const Target& t) {
  MacroMap m;
  for (const auto& [k, v] : predefinedMacros(t, Language::C)) m[k] = v;
  return m;
}

// clang-14 knows these extensions only at version 2.0; abikit (like current LLVM and GCC 12)
// uses the ratified versions. Both values are checked exactly (docs/targets/riscv.md).
const std::map<std::string, std::pair<std::string, std::string>> kClang14Versions = {
    {"__riscv_i", {"2001000", "2000000"}},
    {"__riscv_a", {"2001000", "2000000"}},
    {"__riscv_f", {"2002000", "2000000"}},
    {"__riscv_d", {"2002000", "2000000"}},
};

const std::set<std::string>& kClangOnly = oracle::kUnmodelledClangMacros;

bool isExtensionMacroOf(const std::string& name, const Target& t) {
  if (name.rfind("__riscv_", 0) != 0) return false;
  return t.riscv().isa.has(name.substr(8));
}

bool isKeyMacro(const std::string& name) {
  auto ends = [&](const char* s) {
    size_t n = std::strlen(s);
    return name.size() >= n && name.compare(name.size() - n, n, s) == 0;
  };
  return name.rfind("__SIZEOF_", 0) == 0 || ends("_TYPE__") || ends("_MAX__") ||
         name == "__CHAR_UNSIGNED__" || name == "__BIGGEST_ALIGNMENT__" ||
         name.rfind("__riscv_float_abi_", 0) == 0 || name.rfind("__riscv_cmodel_", 0) == 0 ||
         name == "__riscv_xlen" || name == "__riscv_flen";
}

class ClangMacros : public ::testing::TestWithParam<Case> {};

TEST_P(ClangMacros, MatchClang14) {
  if (oracle::findProgram(kClang).empty()) GTEST_SKIP() << "clang-14 not installed";
  const Case& c = GetParam();
  Target t = resolve(c);
  MacroMap ours = abikitMacros(t);
  MacroMap theirs = compilerMacros(kClang, c, false);
  ASSERT_FALSE(theirs.empty());

  size_t compared = 0;
  for (const auto& [name, value] : theirs) {
    auto it = ours.find(name);
    if (it == ours.end()) {
      EXPECT_TRUE(kClangOnly.count(name))
          << describeCase(c) << ": abikit lacks " << name << " " << value;
      continue;
    }
    ++compared;
    auto v = kClang14Versions.find(name);
    if (v != kClang14Versions.end()) {
      EXPECT_EQ(it->second, v->second.first) << describeCase(c) << ": " << name;
      EXPECT_EQ(value, v->second.second) << describeCase(c) << ": " << name;
      continue;
    }
    EXPECT_EQ(it->second, value) << describeCase(c) << ": " << name;
  }
  EXPECT_GT(compared, 250u) << describeCase(c);
  // What abikit defines beyond clang-14: its own marker and the macros of extensions clang-14
  // does not list (Zicsr, Zifencei, Zmmul, Zaamo, Zalrsc, Zve*: current LLVM defines them).
  for (const auto& [name, value] : ours) {
    if (theirs.count(name)) continue;
    EXPECT_TRUE(name == "__abikit__" || isExtensionMacroOf(name, t))
        << describeCase(c) << ": clang-14 does not define " << name << " " << value;
  }
  // Key macros: both define them.
  size_t keys = 0;
  for (const auto& [name, value] : theirs)
    if (isKeyMacro(name)) {
      ++keys;
      EXPECT_TRUE(ours.count(name)) << describeCase(c) << ": " << name;
    }
  EXPECT_GT(keys, 60u);
  for (const char* must :
       {"__SIZEOF_INT__", "__SIZEOF_LONG__", "__SIZEOF_POINTER__", "__SIZEOF_LONG_DOUBLE__",
        "__SIZEOF_SIZE_T__", "__SIZEOF_WCHAR_T__", "__CHAR_UNSIGNED__", "__BIGGEST_ALIGNMENT__",
        "__SIZE_TYPE__", "__INTMAX_TYPE__", "__INT64_TYPE__", "__PTRDIFF_TYPE__", "__INTPTR_TYPE__",
        "__WCHAR_TYPE__", "__LONG_MAX__", "__INTMAX_MAX__", "__SIZE_MAX__", "__riscv_xlen",
        "__riscv"}) {
    EXPECT_TRUE(theirs.count(must)) << describeCase(c) << ": clang lacks " << must;
    EXPECT_TRUE(ours.count(must)) << describeCase(c) << ": abikit lacks " << must;
  }
  if (t.riscv().isa.flen()) {
    EXPECT_TRUE(theirs.count("__riscv_flen")) << describeCase(c);
    EXPECT_TRUE(ours.count("__riscv_flen")) << describeCase(c);
  }
}

INSTANTIATE_TEST_SUITE_P(Riscv, ClangMacros, ::testing::ValuesIn(clangCases()), caseName);

// ----- the newer clangs: every macro, with --compiler ----------------------------------------

struct VersionCase {
  Case c;
  std::string compiler; // "clang-19", "clang-22"
};

std::vector<VersionCase> versionCases() {
  std::vector<VersionCase> out;
  for (const std::string& cc : oracle::modelledClangs("riscv64-unknown-elf"))
    if (cc != "clang-14")
      for (const Case& c : clangCases()) out.push_back({c, cc});
  return out;
}

class ClangMacrosByVersion : public ::testing::TestWithParam<VersionCase> {};

TEST_P(ClangMacrosByVersion, MatchEveryMacro) {
  const VersionCase& v = GetParam();
  TargetOptions o;
  o.triple = v.c.triple;
  o.march = v.c.march;
  o.mabi = v.c.mabi;
  o.mcmodel = v.c.mcmodel;
  o.compiler = v.compiler;
  Target t = resolveTarget(o);
  MacroMap ours = abikitMacros(t);
  MacroMap theirs = compilerMacros(v.compiler.c_str(), v.c, false);
  ASSERT_FALSE(theirs.empty());
  std::string what = describeCase(v.c) + " --compiler " + v.compiler;
  size_t compared = 0;
  for (const auto& [name, value] : theirs) {
    auto it = ours.find(name);
    if (it == ours.end()) {
      EXPECT_TRUE(kClangOnly.count(name)) << what << ": abikit lacks " << name << " " << value;
      continue;
    }
    ++compared;
    EXPECT_EQ(it->second, value) << what << ": " << name;
  }
  EXPECT_GT(compared, 250u) << what;
  for (const auto& [name, value] : ours)
    EXPECT_TRUE(name == "__abikit__" || theirs.count(name))
        << what << ": " << v.compiler << " does not define " << name << " " << value;
}

INSTANTIATE_TEST_SUITE_P(Riscv, ClangMacrosByVersion, ::testing::ValuesIn(versionCases()),
                         [](const ::testing::TestParamInfo<VersionCase>& info) {
                           std::string s = std::to_string(info.index) + "_" +
                                           oracle::compilerTag(info.param.compiler) + "_";
                           for (char ch : describeCase(info.param.c))
                             s += std::isalnum(static_cast<unsigned char>(ch)) ? ch : '_';
                           return s;
                         });

// ---------------------------------------------------------------------------------------------
// Sizes, alignments and typedefs as _Static_asserts.

const char* cSpelling(IntKind k) {
  return intKindName(k);
}
const char* cSpelling(FloatKind k) {
  return floatKindName(k);
}

struct Checks {
  std::string source;               // must compile
  std::vector<std::string> rejects; // each must fail to compile
};

// `gcc`: leave out what GCC 12 does not have (__fp16, _Float16 on RISC-V, _BitInt) and the
// typedefs newlib's GCC configuration spells differently (docs/targets/riscv.md).
Checks makeChecks(const Target& t, bool gcc) {
  const DataModel& d = t.data;
  Checks c;
  std::string& s = c.source;
  s += "#include <stddef.h>\n#include <stdint.h>\n";
  s += "#define CHECK(T, S, A) _Static_assert(sizeof(T) == S && _Alignof(T) == A, #T)\n";
  s += "#define SAME(T, U) _Static_assert(__builtin_types_compatible_p(T, U), #T \" is \" #U)\n";
  auto check = [&](const std::string& type, const SizeAlign& sa) {
    s +=
        "CHECK(" + type + ", " + std::to_string(sa.size) + ", " + std::to_string(sa.align) + ");\n";
  };
  for (size_t i = 0; i < kNumIntKinds; ++i) {
    IntKind k = IntKind(i);
    if (d.ints[i].supported())
      check(cSpelling(k), d.ints[i]);
    else
      c.rejects.push_back(std::string(cSpelling(k)) + " x;\n");
  }
  for (size_t i = 0; i < kNumFloatKinds; ++i) {
    FloatKind k = FloatKind(i);
    if (gcc && (k == FloatKind::Fp16 || k == FloatKind::Float16)) continue;
    if (d.floats[i].supported())
      check(cSpelling(k), d.floats[i]);
    else if (!gcc)
      c.rejects.push_back(std::string(cSpelling(k)) + " x;\n");
  }
  check("void *", d.pointer);
  check("void (*)(void)", d.function_pointer);
  check("__builtin_va_list", d.va_list);
  s += std::string("SAME(__builtin_va_list, ") +
       (d.va_list_kind == VaListKind::VoidPtr ? "void *" : "char *") + ");\n";
  s += std::string("SAME(size_t, ") + cSpelling(d.size_type) + ");\n";
  s += std::string("SAME(ptrdiff_t, ") + cSpelling(d.ptrdiff_type) + ");\n";
  s += std::string("SAME(intptr_t, ") + cSpelling(d.intptr_type) + ");\n";
  s += std::string("SAME(intmax_t, ") + cSpelling(d.intmax_type) + ");\n";
  s += std::string("SAME(int64_t, ") + cSpelling(d.int64_type) + ");\n";
  s += std::string("SAME(wchar_t, ") + cSpelling(d.wchar_type) + ");\n";
  s += std::string("SAME(__WINT_TYPE__, ") + cSpelling(d.wint_type) + ");\n";
  s += std::string("SAME(__CHAR16_TYPE__, ") + cSpelling(d.char16_type) + ");\n";
  if (!gcc || d.pointer.size == 8)
    s += std::string("SAME(__CHAR32_TYPE__, ") + cSpelling(d.char32_type) + ");\n";
  s += "_Static_assert(((char)-1 < 0) == " + std::to_string(d.char_signed) + ", \"char\");\n";
  s += "_Static_assert(_Alignof(max_align_t) == " + std::to_string(d.max_align_t_align) +
       ", \"max_align_t\");\n";
  s += "_Static_assert(__BIGGEST_ALIGNMENT__ == " + std::to_string(d.biggest_alignment) +
       ", \"biggest\");\n";
  s += "struct __attribute__((aligned)) Aligned { char c; };\n";
  s += "_Static_assert(_Alignof(struct Aligned) == " + std::to_string(d.default_aligned_attr) +
       ", \"aligned\");\n";
  for (unsigned n : {8u, 16u, 64u, 256u, 1024u}) {
    unsigned align = d.max_vector_align ? std::min<unsigned>(n, d.max_vector_align) : n;
    // GCC caps vector alignment at BIGGEST_ALIGNMENT (16); clang does not.
    if (gcc) align = std::min<unsigned>(align, d.biggest_alignment);
    std::string v = "v" + std::to_string(n);
    s += "typedef char " + v + " __attribute__((vector_size(" + std::to_string(n) + ")));\n";
    s += "CHECK(" + v + ", " + std::to_string(n) + ", " + std::to_string(align) + ");\n";
  }
  // GCC 12 does not call 1- and 2-byte atomics always lock-free on RISC-V (no Zabha).
  for (unsigned n : {1u, 2u, 4u, 8u, 16u}) {
    if (gcc && n < 4) continue;
    s += "_Static_assert(__atomic_always_lock_free(" + std::to_string(n) +
         ", 0) == " + std::to_string(n * 8 <= d.max_atomic_inline_bits) + ", \"lock-free " +
         std::to_string(n) + "\");\n";
  }
  if (!gcc && d.bitint_max_width) {
    std::string w = std::to_string(d.bitint_max_width);
    s += "_Static_assert(_Alignof(_BitInt(" + w +
         ")) == " + std::to_string(std::min<unsigned>(16, d.bitint_max_align)) +
         ", \"_BitInt\");\n";
    c.rejects.push_back("_BitInt(" + std::to_string(d.bitint_max_width + 1) + ") x;\n");
  }
  return c;
}

oracle::RunResult compile(const char* cc, const Case& c, bool gcc, const std::string& source,
                          const oracle::ScratchDir& dir, const std::string& name) {
  dir.write(name, source);
  std::vector<std::string> argv = {cc};
  for (const std::string& a : targetArgs(c, gcc)) argv.push_back(a);
  for (const char* a : {"-fsyntax-only", "-ffreestanding", "-std=gnu17", "-x", "c"})
    argv.push_back(a);
  // Only the compiler's own freestanding headers (<stddef.h>, <stdint.h>), never the host's.
  if (!gcc) argv.push_back("-nostdlibinc");
  argv.push_back(dir.file(name));
  return oracle::run(argv);
}

class ClangLayout : public ::testing::TestWithParam<Case> {};

TEST_P(ClangLayout, StaticAssertsCompile) {
  if (oracle::findProgram(kClang).empty()) GTEST_SKIP() << "clang-14 not installed";
  const Case& c = GetParam();
  Target t = resolve(c);
  Checks checks = makeChecks(t, false);
  oracle::ScratchDir dir;
  oracle::RunResult r = compile(kClang, c, false, checks.source, dir, "checks.c");
  EXPECT_EQ(r.exit_code, 0) << describeCase(c) << ":\n" << r.err << "\n" << checks.source;
  EXPECT_GE(checks.rejects.size(), 2u); // __bf16, __float128 (+ __int128 on RV32, _BitInt)
  for (size_t i = 0; i < checks.rejects.size(); ++i) {
    oracle::RunResult bad =
        compile(kClang, c, false, checks.rejects[i], dir, "reject" + std::to_string(i) + ".c");
    EXPECT_NE(bad.exit_code, 0) << describeCase(c) << ": clang accepts " << checks.rejects[i];
  }
}

TEST_P(ClangLayout, ElfIdentityMatchesClangObject) {
  if (oracle::findProgram(kClang).empty()) GTEST_SKIP() << "clang-14 not installed";
  const Case& c = GetParam();
  Target t = resolve(c);
  oracle::ScratchDir dir;
  dir.write("f.c", "int f(int x) { return x + 1; }\n");
  std::vector<std::string> argv = {kClang};
  for (const std::string& a : targetArgs(c, false)) argv.push_back(a);
  for (const std::string& a :
       {std::string("-c"), dir.file("f.c"), std::string("-o"), dir.file("f.o")})
    argv.push_back(a);
  oracle::RunResult r = oracle::run(argv);
  ASSERT_EQ(r.exit_code, 0) << describeCase(c) << ": " << r.err;
  std::string obj = oracle::readFile(dir.file("f.o"));
  ASSERT_GE(obj.size(), 64u);
  auto u8 = [&](size_t o) { return uint8_t(obj[o]); };
  auto u16 = [&](size_t o) { return uint16_t(u8(o) | u8(o + 1) << 8); };
  auto u32 = [&](size_t o) { return uint32_t(u16(o) | uint32_t(u16(o + 2)) << 16); };
  EXPECT_EQ(u8(4), t.elf.elf_class) << describeCase(c);
  EXPECT_EQ(u8(5), t.elf.data) << describeCase(c);
  EXPECT_EQ(u8(7), t.elf.osabi) << describeCase(c);
  EXPECT_EQ(u16(18), t.elf.machine) << describeCase(c);
  EXPECT_EQ(u32(u8(4) == 2 ? 0x30 : 0x24), t.elf.flags) << describeCase(c);
}

INSTANTIATE_TEST_SUITE_P(Riscv, ClangLayout, ::testing::ValuesIn(clangCases()), caseName);

// ---------------------------------------------------------------------------------------------
// GCC 12 (riscv64-unknown-elf-gcc, newlib multilib configuration).

std::vector<Case> gccCases() {
  std::vector<Case> out;
  const std::pair<const char*, const char*> pairs[] = {
      {"rv32i", "ilp32"},
      {"rv32imac", "ilp32"},
      {"rv32imafc", "ilp32f"},
      {"rv32imafdc", "ilp32d"},
      {"rv32gc", "ilp32d"},
      {"rv32e", "ilp32e"},
      {"rv32emac", "ilp32e"},
      {"rv32ec", "ilp32e"},
      {"rv64i", "lp64"},
      {"rv64imac", "lp64"},
      {"rv64imafc", "lp64f"},
      {"rv64gc", "lp64d"},
      {"rv64imafdc", "lp64d"},
      {"rv64gc", "lp64"},
      {"rv32imafd_zicsr_zifencei", "ilp32d"},
      {"rv64gc_zba_zbb_zbs", "lp64d"},
  };
  for (const auto& [m, a] : pairs)
    out.push_back({m[2] == '3' ? "riscv32-unknown-elf" : "riscv64-unknown-elf", m, a, ""});
  out.push_back({"riscv64-unknown-elf", "rv64gc", "lp64d", "medany"});
  return out;
}

std::string normalizeGccType(std::string s) {
  // GCC spells "short int", "long unsigned int"; clang (and abikit) "short", "long unsigned int".
  const std::pair<const char*, const char*> map[] = {{"short unsigned int", "unsigned short"},
                                                     {"short int", "short"}};
  for (const auto& [from, to] : map)
    if (s == from) return to;
  return s;
}

// GCC macros that differ from clang's by design (docs/targets/riscv.md, "GCC"):
//  - __INT_FAST8/16 types are int in GCC, signed char/short in clang;
//  - newlib's GCC configuration makes int32_t/char32_t `long` on RV32;
//  - GCC 12 calls the E base version 1.9;
//  - sub-word atomics are not lock-free in GCC (no Zabha);
//  - GCC writes limits in hexadecimal (compared numerically below).
bool gccDiffersByDesign(const std::string& name, const Target& t) {
  if (name.find("_FAST8") != std::string::npos || name.find("_FAST16") != std::string::npos)
    return true;
  bool rv32 = t.riscv().xlen == 32;
  if (rv32 &&
      (name == "__INT32_TYPE__" || name == "__UINT32_TYPE__" || name == "__INT_LEAST32_TYPE__" ||
       name == "__UINT_LEAST32_TYPE__" || name == "__CHAR32_TYPE__" || name == "__INT32_MAX__" ||
       name == "__UINT32_MAX__" || name == "__INT_LEAST32_MAX__" || name == "__UINT_LEAST32_MAX__"))
    return true;
  if (name == "__riscv_e") return true;
  if (name == "__GCC_ATOMIC_BOOL_LOCK_FREE" || name == "__GCC_ATOMIC_CHAR_LOCK_FREE" ||
      name == "__GCC_ATOMIC_SHORT_LOCK_FREE" || name == "__GCC_ATOMIC_CHAR16_T_LOCK_FREE")
    return true;
  return false;
}

// Integer constants: GCC writes 0x7fffffffL, clang 2147483647L.
bool sameIntegerConstant(const std::string& a, const std::string& b) {
  auto parse = [](const std::string& s, unsigned long long& v, std::string& suffix) {
    size_t i = 0;
    int base = 10;
    if (s.rfind("0x", 0) == 0) {
      base = 16;
      i = 2;
    }
    if (i >= s.size()) return false;
    v = 0;
    size_t start = i;
    for (; i < s.size(); ++i) {
      char c = s[i];
      int d = c >= '0' && c <= '9'                   ? c - '0'
              : (base == 16 && c >= 'a' && c <= 'f') ? c - 'a' + 10
                                                     : -1;
      if (d < 0) break;
      v = v * base + unsigned(d);
    }
    if (i == start) return false;
    suffix = s.substr(i);
    return true;
  };
  unsigned long long va, vb;
  std::string sa, sb;
  if (!parse(a, va, sa) || !parse(b, vb, sb)) return a == b;
  return va == vb && sa == sb;
}

class Gcc : public ::testing::TestWithParam<Case> {};

TEST_P(Gcc, StaticAssertsCompile) {
  if (oracle::findProgram(kGcc).empty()) GTEST_SKIP() << kGcc << " not installed";
  const Case& c = GetParam();
  Target t = resolve(c);
  Checks checks = makeChecks(t, true);
  oracle::ScratchDir dir;
  oracle::RunResult r = compile(kGcc, c, true, checks.source, dir, "checks.c");
  EXPECT_EQ(r.exit_code, 0) << describeCase(c) << ":\n" << r.err << "\n" << checks.source;
  for (size_t i = 0; i < checks.rejects.size(); ++i) {
    oracle::RunResult bad =
        compile(kGcc, c, true, checks.rejects[i], dir, "reject" + std::to_string(i) + ".c");
    EXPECT_NE(bad.exit_code, 0) << describeCase(c) << ": gcc accepts " << checks.rejects[i];
  }
}

TEST_P(Gcc, MacrosAgree) {
  if (oracle::findProgram(kGcc).empty()) GTEST_SKIP() << kGcc << " not installed";
  const Case& c = GetParam();
  Target t = resolve(c);
  MacroMap ours = abikitMacros(t);
  MacroMap theirs = compilerMacros(kGcc, c, true);
  size_t compared = 0;
  for (const auto& [name, value] : theirs) {
    bool relevant =
        name.rfind("__riscv", 0) == 0 || name.rfind("__SIZEOF_", 0) == 0 ||
        name == "__CHAR_UNSIGNED__" || name == "__BIGGEST_ALIGNMENT__" ||
        name.find("_TYPE__") != std::string::npos ||
        (name.find("_MAX__") != std::string::npos && name.find("FLT") == std::string::npos &&
         name.find("DBL") == std::string::npos) ||
        (name.find("_WIDTH__") != std::string::npos) || name.rfind("__GCC_ATOMIC_", 0) == 0 ||
        name.rfind("__GCC_HAVE_SYNC_COMPARE_AND_SWAP_", 0) == 0;
    if (!relevant || gccDiffersByDesign(name, t)) continue;
    auto it = ours.find(name);
    if (it == ours.end()) {
      // GCC-only macros that abikit does not model: types clang does not predefine.
      EXPECT_TRUE(name == "__SIG_ATOMIC_TYPE__" || name == "__SCHAR_WIDTH__" ||
                  name == "__LONG_LONG_WIDTH__" || name == "__GCC_ATOMIC_TEST_AND_SET_TRUEVAL")
          << describeCase(c) << ": abikit lacks " << name << " " << value;
      continue;
    }
    ++compared;
    EXPECT_TRUE(normalizeGccType(value) == it->second || sameIntegerConstant(value, it->second))
        << describeCase(c) << ": " << name << " gcc=" << value << " abikit=" << it->second;
  }
  EXPECT_GT(compared, 80u) << describeCase(c);
  // The E base and its ABI macros.
  if (t.riscv().e_abi) {
    EXPECT_TRUE(theirs.count("__riscv_abi_rve") && ours.count("__riscv_abi_rve"));
    EXPECT_TRUE(theirs.count("__riscv_32e") && ours.count("__riscv_32e"));
  }
}

TEST_P(Gcc, ElfFlagsMatchGccObject) {
  if (oracle::findProgram(kGcc).empty()) GTEST_SKIP() << kGcc << " not installed";
  const Case& c = GetParam();
  Target t = resolve(c);
  oracle::ScratchDir dir;
  dir.write("f.c", "int f(int x) { return x + 1; }\n");
  std::vector<std::string> argv = {kGcc};
  for (const std::string& a : targetArgs(c, true)) argv.push_back(a);
  for (const std::string& a :
       {std::string("-c"), dir.file("f.c"), std::string("-o"), dir.file("f.o")})
    argv.push_back(a);
  oracle::RunResult r = oracle::run(argv);
  ASSERT_EQ(r.exit_code, 0) << describeCase(c) << ": " << r.err;
  std::string obj = oracle::readFile(dir.file("f.o"));
  ASSERT_GE(obj.size(), 64u);
  auto u8 = [&](size_t o) { return uint8_t(obj[o]); };
  uint32_t flags = 0;
  size_t off = u8(4) == 2 ? 0x30 : 0x24;
  for (int i = 3; i >= 0; --i) flags = flags << 8 | u8(off + size_t(i));
  EXPECT_EQ(u8(4), t.elf.elf_class) << describeCase(c);
  EXPECT_EQ(flags, t.elf.flags) << describeCase(c);
}

INSTANTIATE_TEST_SUITE_P(Riscv, Gcc, ::testing::ValuesIn(gccCases()), caseName);

} // namespace
