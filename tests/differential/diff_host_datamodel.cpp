// Host targets (x86_64-linux-gnu, i386-linux-gnu, aarch64-linux-gnu, x86_64-pc-windows-msvc,
// x86_64-w64-windows-gnu) against every clang abikit models for them and finds installed, and
// against the native GCC 12 (x86-64, and -m32 for i386):
//  - predefinedMacros(target, C) against `clang-N --target T -E -dM -x c /dev/null`: every
//    macro, both ways;
//  - sizeof, _Alignof and __alignof__ of every scalar type, pointers, va_list, _Complex,
//    max_align_t, vectors and the widest _BitInt, as _Static_asserts the compiler must accept;
//    every type abikit calls unsupported must be rejected;
//  - the ELF identity (class, e_machine, e_flags, REL or RELA) of an object clang writes;
//  - every register's DWARF number: `.cfi_offset N` assembled by llvm-mc-22 and named by
//    llvm-dwarfdump-22 must be the register abikit gives that number.
#include "abikit/target.h"
#include "oracle.h"

#include <algorithm>
#include <bit>
#include <gtest/gtest.h>
#include <map>
#include <string>
#include <vector>

using namespace abikit;

namespace {

const char* const kTriples[] = {"x86_64-linux-gnu", "i386-linux-gnu", "aarch64-linux-gnu",
                                "x86_64-pc-windows-msvc", "x86_64-w64-windows-gnu"};

bool isWindows(const std::string& triple) {
  return triple.find("windows") != std::string::npos;
}

struct Case {
  std::string triple;
  std::string compiler; // "clang-22"; "gcc-12": the native GCC (-m64 or -m32)
};

std::vector<Case> cases(bool with_gcc) {
  std::vector<Case> out;
  for (const char* t : kTriples) {
    for (const std::string& cc : oracle::modelledClangs(t)) out.push_back({t, cc});
    // The native GCC (x86-64, -m32): no AArch64 or Windows cross compiler is installed.
    if (with_gcc && !oracle::findProgram("gcc-12").empty() &&
        std::string(t).rfind("aarch64", 0) != 0 && !isWindows(t))
      out.push_back({t, "gcc-12"});
  }
  return out;
}

std::string caseName(const ::testing::TestParamInfo<Case>& info) {
  std::string s = info.param.triple + "_" + oracle::compilerTag(info.param.compiler);
  for (char& ch : s)
    if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
  return s;
}

bool isGcc(const Case& c) {
  return c.compiler.rfind("gcc", 0) == 0;
}

Target resolve(const Case& c) {
  TargetOptions o;
  o.triple = c.triple;
  if (!isGcc(c)) o.compiler = c.compiler;
  return resolveTarget(o);
}

std::vector<std::string> compilerArgs(const Case& c) {
  if (isGcc(c)) return {"gcc-12", c.triple.rfind("x86_64", 0) == 0 ? "-m64" : "-m32"};
  return {c.compiler, "--target=" + c.triple};
}

std::map<std::string, std::string> compilerMacros(const Case& c) {
  return oracle::compilerMacros(compilerArgs(c));
}

oracle::RunResult compile(const Case& c, const oracle::ScratchDir& dir, const std::string& name,
                          const std::string& source, bool object = false) {
  dir.write(name, source);
  std::vector<std::string> argv = compilerArgs(c);
  for (const char* a : {"-ffreestanding", "-std=gnu17", "-x", "c"}) argv.push_back(a);
  if (!isGcc(c)) argv.push_back("-nostdlibinc"); // the compiler's own <stddef.h> only
  if (object) {
    for (const char* a : {"-c", "-o"}) argv.push_back(a);
    argv.push_back(dir.file(name + ".o"));
  } else {
    argv.push_back("-fsyntax-only");
  }
  argv.push_back(dir.file(name));
  return oracle::run(argv);
}

class HostMacros : public ::testing::TestWithParam<Case> {};

TEST_P(HostMacros, EveryMacroMatches) {
  const Case& c = GetParam();
  std::map<std::string, std::string> ours;
  for (auto& [k, v] : predefinedMacros(resolve(c), Language::C)) ours[k] = v;
  std::map<std::string, std::string> theirs = compilerMacros(c);
  ASSERT_GT(theirs.size(), 250u);
  for (const auto& [name, value] : theirs) {
    auto it = ours.find(name);
    if (it == ours.end()) {
      if (oracle::kUnmodelledClangMacros.count(name)) continue;
      ADD_FAILURE() << c.compiler << " defines " << name << " " << value << "; abikit does not";
      continue;
    }
    EXPECT_EQ(it->second, value) << name;
  }
  for (const auto& [name, value] : ours)
    EXPECT_TRUE(name == "__abikit__" || theirs.count(name))
        << c.compiler << " does not define " << name << " " << value;
}

INSTANTIATE_TEST_SUITE_P(Host, HostMacros, ::testing::ValuesIn(cases(false)), caseName);

// ----- sizes and alignments ---------------------------------------------------------------

class HostLayout : public ::testing::TestWithParam<Case> {};

TEST_P(HostLayout, StaticAssertsCompile) {
  const Case& c = GetParam();
  const bool gcc = isGcc(c);
  Target t = resolve(c);
  const DataModel& d = t.data;
  std::string s = "#include <stddef.h>\n"
                  "#define CHECK(T, S, A, P) _Static_assert(sizeof(T) == S && _Alignof(T) == A "
                  "&& __alignof__(T) == P, #T)\n";
  std::vector<std::string> rejects;
  // __alignof__ is the preferred alignment: double and (unsigned) long long naturally aligned.
  auto check = [&](const std::string& type, SizeAlign sa, unsigned pref) {
    s += "CHECK(" + type + ", " + std::to_string(sa.size) + ", " + std::to_string(sa.align) + ", " +
         std::to_string(pref) + ");\n";
  };
  for (size_t i = 0; i < kNumIntKinds; ++i) {
    IntKind k = IntKind(i);
    bool natural = k == IntKind::LongLong || k == IntKind::ULongLong;
    if (d.ints[i].supported())
      check(intKindName(k), d.ints[i], natural ? d.ints[i].size : d.ints[i].align);
    else
      rejects.push_back(std::string(intKindName(k)) + " x;\n");
  }
  for (size_t i = 0; i < kNumFloatKinds; ++i) {
    FloatKind k = FloatKind(i);
    // GCC 12 has no __fp16 on x86 and __bf16 only as a storage type it refuses to declare.
    if (gcc && (k == FloatKind::Fp16 || k == FloatKind::BFloat16)) continue;
    if (d.floats[i].supported())
      check(floatKindName(k), d.floats[i],
            k == FloatKind::Double ? d.floats[i].size : d.floats[i].align);
    else if (!gcc)
      rejects.push_back(std::string(floatKindName(k)) + " x;\n");
  }
  check("void *", d.pointer, d.pointer.align);
  check("void (*)(void)", d.function_pointer, d.function_pointer.align);
  check("__builtin_va_list", d.va_list, d.va_list.align);
  // A complex type's preferred alignment is its element's.
  const SizeAlign dbl = d.of(FloatKind::Double);
  check("double _Complex", {uint16_t(2 * dbl.size), dbl.align}, dbl.size);
  // GCC's <stddef.h> adds a __float128 member to max_align_t on i386 (16, clang's 8):
  // docs/targets/x86.md.
  if (!gcc || t.data.pointer.size == 8)
    s += "_Static_assert(_Alignof(max_align_t) == " + std::to_string(d.max_align_t_align) +
         ", \"max_align_t\");\n";
  s += "_Static_assert(__BIGGEST_ALIGNMENT__ == " + std::to_string(d.biggest_alignment) +
       ", \"biggest\");\n";
  s += "struct __attribute__((aligned)) Aligned { char c; };\n"
       "_Static_assert(_Alignof(struct Aligned) == " +
       std::to_string(d.default_aligned_attr) + ", \"aligned\");\n";
  // GCC caps vector alignment at 16 and aligns i386's 8-byte vectors to 4 (docs/targets/x86.md):
  // abikit follows clang, so GCC is asked about 16-byte vectors only.
  for (unsigned n : {8u, 16u, 32u, 64u, 256u}) {
    if (gcc && n != 16) continue;
    unsigned align = d.max_vector_align ? std::min<unsigned>(n, d.max_vector_align) : n;
    std::string v = "v" + std::to_string(n);
    s += "typedef char " + v + " __attribute__((vector_size(" + std::to_string(n) + ")));\n";
    s += "_Static_assert(sizeof(" + v + ") == " + std::to_string(n) + " && _Alignof(" + v +
         ") == " + std::to_string(align) + ", \"" + v + "\");\n";
  }
  for (unsigned n : {1u, 2u, 4u, 8u, 16u})
    s += "_Static_assert(__atomic_always_lock_free(" + std::to_string(n) +
         ", 0) == " + std::to_string(n * 8 <= d.max_atomic_inline_bits) + ", \"lock-free " +
         std::to_string(n) + "\");\n";
  if (!gcc && d.bitint_max_width) {
    for (uint32_t w : {2u, 33u, 65u, 129u, 255u, d.bitint_max_width}) {
      if (w > d.bitint_max_width) continue;
      const uint64_t pow2 = std::max<uint64_t>(8, std::bit_ceil(uint64_t(w)));
      const uint64_t align = std::min<uint64_t>(pow2, uint64_t(d.bitint_max_align) * 8);
      const uint64_t size = (w + align - 1) / align * align / 8;
      s += "_Static_assert(sizeof(_BitInt(" + std::to_string(w) + ")) == " + std::to_string(size) +
           " && _Alignof(_BitInt(" + std::to_string(w) + ")) == " + std::to_string(align / 8) +
           ", \"_BitInt(" + std::to_string(w) + ")\");\n";
    }
    rejects.push_back("_BitInt(" + std::to_string(d.bitint_max_width + 1) + ") x;\n");
  }
  oracle::ScratchDir dir;
  oracle::RunResult r = compile(c, dir, "checks.c", s);
  EXPECT_EQ(r.exit_code, 0) << r.err << "\n" << s;
  for (size_t i = 0; i < rejects.size(); ++i) {
    oracle::RunResult bad = compile(c, dir, "reject" + std::to_string(i) + ".c", rejects[i]);
    EXPECT_NE(bad.exit_code, 0) << c.compiler << " accepts " << rejects[i];
  }
}

TEST_P(HostLayout, ElfIdentityMatchesObject) {
  const Case& c = GetParam();
  Target t = resolve(c);
  oracle::ScratchDir dir;
  oracle::RunResult r = compile(c, dir, "o.c", "int x = 1; int f(void) { return x; }\n", true);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::string bytes = oracle::readFile(dir.file("o.c.o"));
  ASSERT_GT(bytes.size(), 64u);
  auto u8 = [&](size_t o) { return uint8_t(bytes[o]); };
  if (isWindows(c.triple)) {
    // A COFF object (IMAGE_FILE_MACHINE_AMD64): abikit gives no ELF identity.
    EXPECT_EQ(t.elf.machine, 0u);
    EXPECT_EQ(uint16_t(u8(0) | u8(1) << 8), 0x8664);
    return;
  }
  EXPECT_EQ(u8(4), t.elf.elf_class);
  EXPECT_EQ(u8(5), t.elf.data);
  EXPECT_EQ(u8(7), t.elf.osabi);
  EXPECT_EQ(uint16_t(u8(18) | u8(19) << 8), t.elf.machine);
  const size_t fo = t.elf.elf_class == 2 ? 48 : 36;
  EXPECT_EQ(uint32_t(u8(fo) | u8(fo + 1) << 8 | u8(fo + 2) << 16 | uint32_t(u8(fo + 3)) << 24),
            t.elf.flags);
  // REL or RELA: the section name the relocations of .text live in.
  EXPECT_NE(bytes.find(t.elf.rela ? ".rela.text" : ".rel.text"), std::string::npos);
  if (!t.elf.rela) {
    EXPECT_EQ(bytes.find(".rela.text"), std::string::npos);
  }
}

INSTANTIATE_TEST_SUITE_P(Host, HostLayout, ::testing::ValuesIn(cases(true)), caseName);

} // namespace

namespace {

// LLVM's name of the DWARF register abikit calls `name`: x86 upper-cases the psABI name
// (fs.base: FS_BASE); AArch64 prints the 32-bit view of x registers (W0, WSP), the byte view of
// vector registers (B0) and "regN" for the numbers it has no register for (pc).
std::string llvmName(const Target& t, const RegisterInfo& r) {
  std::string n(r.name);
  if (t.family == Family::AArch64) {
    if (n == "sp") return "WSP";
    if (n[0] == 'x') return "W" + n.substr(1);
    if (n[0] == 'v') return "B" + n.substr(1);
    return "reg" + std::to_string(r.dwarf);
  }
  for (char& c : n) c = c == '.' ? '_' : char(std::toupper(static_cast<unsigned char>(c)));
  return n;
}

class HostDwarfRegisters : public ::testing::TestWithParam<std::string> {};

TEST_P(HostDwarfRegisters, NumbersMatchLlvm) {
  if (oracle::findProgram("llvm-mc-22").empty() || oracle::findProgram("llvm-dwarfdump-22").empty())
    GTEST_SKIP() << "llvm-mc-22 / llvm-dwarfdump-22 not installed";
  TargetOptions o;
  o.triple = GetParam();
  Target t = resolveTarget(o);
  std::string src = ".text\nf:\n.cfi_startproc\n";
  // Register k is saved at CFA-16-8k (CFA-8 is x86's return address, set by the CIE).
  std::map<std::string, std::string> expected; // "CFA-24" -> "RAX"
  int k = 0;
  for (const RegisterInfo& r : t.registers) {
    if (r.dwarf < 0) continue;
    const std::string at = std::to_string(16 + 8 * k++);
    src += ".cfi_offset " + std::to_string(r.dwarf) + ", -" + at + "\n";
    expected["CFA-" + at] = llvmName(t, r);
  }
  src += "ret\n.cfi_endproc\n";
  oracle::ScratchDir dir;
  dir.write("r.s", src);
  oracle::RunResult a = oracle::run({"llvm-mc-22", "-triple=" + t.triple, "-filetype=obj",
                                     dir.file("r.s"), "-o", dir.file("r.o")});
  ASSERT_EQ(a.exit_code, 0) << a.err;
  oracle::RunResult d = oracle::run({"llvm-dwarfdump-22", "--eh-frame", dir.file("r.o")});
  ASSERT_EQ(d.exit_code, 0) << d.err;
  // The unwind row llvm-dwarfdump prints: "0x0: CFA=RSP+8: RAX=[CFA-16], ..."
  std::map<std::string, std::string> got;
  const size_t row = d.out.rfind("0x0: CFA=");
  ASSERT_NE(row, std::string::npos) << d.out;
  const std::string line = d.out.substr(row, d.out.find('\n', row) - row);
  for (size_t at = line.find("=[CFA-"); at != std::string::npos; at = line.find("=[CFA-", at + 1)) {
    size_t b = line.rfind(' ', at) + 1;
    got[line.substr(at + 2, line.find(']', at) - at - 2)] = line.substr(b, at - b);
  }
  for (const auto& [where, name] : expected) EXPECT_EQ(got[where], name) << where;
}

INSTANTIATE_TEST_SUITE_P(Host, HostDwarfRegisters, ::testing::ValuesIn([] {
                           // Windows has the same numbers (and no DWARF CFI of its own).
                           std::vector<std::string> v;
                           for (const char* t : kTriples)
                             if (!isWindows(t)) v.push_back(t);
                           return v;
                         }()),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           std::string s = info.param;
                           for (char& ch : s)
                             if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
                           return s;
                         });

} // namespace
