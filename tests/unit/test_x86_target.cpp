// x86 host targets: resolution and its errors, the data model per compiler, the refusal of the
// calling convention, and the record layouts of reference/hosts.md's measured table (x86_64 and
// i386 columns, each checked with clang-22 too).
#include "abikit/callconv.h"
#include "test_cparse_util.h"

#include <gtest/gtest.h>

namespace {

using namespace abikit;
using abikit::cparse_test::parse;
using abikit::cparse_test::targetFor;

std::string targetError(const std::string& triple, const std::string& march = "",
                        const std::string& compiler = "") {
  TargetOptions o;
  o.triple = triple;
  o.march = march;
  o.compiler = compiler;
  try {
    resolveTarget(o);
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Target);
    return e.message();
  }
  return "(no error)";
}

TEST(X86Target, TriplesNormalise) {
  for (const char* t :
       {"x86_64-linux-gnu", "x86_64-pc-linux-gnu", "x86_64-unknown-linux-gnu", "amd64-linux-gnu"})
    EXPECT_EQ(targetFor(t).triple, "x86_64-linux-gnu") << t;
  for (const char* t : {"i386-linux-gnu", "i686-linux-gnu", "i686-pc-linux-gnu"})
    EXPECT_EQ(targetFor(t).triple, "i386-linux-gnu") << t;
  Target t = targetFor("x86_64-linux-gnu");
  EXPECT_EQ(t.family, Family::X86);
  EXPECT_EQ(t.compiler, Compiler::Clang22);
  EXPECT_EQ(t.host().psabi, "System V AMD64 psABI");
  EXPECT_EQ(t.elf.machine, 62);
  EXPECT_TRUE(t.elf.rela);
  Target i = targetFor("i386-linux-gnu");
  EXPECT_EQ(i.elf.machine, 3);
  EXPECT_FALSE(i.elf.rela);
  EXPECT_EQ(i.cpu, "i686");
}

TEST(X86Target, Windows) {
  Target m = targetFor("x86_64-pc-windows-msvc");
  EXPECT_EQ(m.triple, "x86_64-pc-windows-msvc");
  EXPECT_EQ(m.data.record_rules, RecordRules::Microsoft);
  EXPECT_TRUE(m.data.ms_extensions);
  EXPECT_EQ(m.data.of(IntKind::Long).size, 4u);
  EXPECT_EQ(m.data.of(FloatKind::LongDouble).size, 8u);
  EXPECT_EQ(m.data.of(m.data.wchar_type).size, 2u);
  EXPECT_EQ(m.data.va_list_kind, VaListKind::CharPtr);
  EXPECT_FALSE(m.data.of(FloatKind::Float128).supported());
  EXPECT_EQ(m.elf.machine, 0u); // COFF objects
  EXPECT_EQ(m.host().psabi, "Microsoft x64");
  EXPECT_EQ(targetFor("x86_64-windows-msvc").triple, "x86_64-pc-windows-msvc");
  Target g = targetFor("x86_64-w64-mingw32");
  EXPECT_EQ(g.triple, "x86_64-w64-windows-gnu");
  EXPECT_EQ(g.data.record_rules, RecordRules::Itanium);
  EXPECT_TRUE(g.data.ms_bitfields);
  EXPECT_FALSE(g.data.ms_extensions);
  EXPECT_EQ(g.data.of(FloatKind::LongDouble).size, 16u);
  EXPECT_EQ(g.data.size_type, IntKind::ULongLong);
  // The dialect's macros: no GNU identity under MSVC, the GNU one (and __declspec) on MinGW.
  auto has = [](const Target& t, const char* name) {
    for (const auto& [k, v] : predefinedMacros(t, Language::C))
      if (k == name) return true;
    return false;
  };
  EXPECT_FALSE(has(m, "__GNUC__"));
  EXPECT_FALSE(has(m, "__STDC__"));
  EXPECT_TRUE(has(m, "_MSC_VER"));
  EXPECT_TRUE(has(g, "__GNUC__"));
  EXPECT_TRUE(has(g, "__declspec(a)"));
}

TEST(X86Target, UnmodelledCombinationsAreErrors) {
  EXPECT_NE(targetError("i686-pc-windows-msvc").find("64-bit Windows only"), std::string::npos);
  EXPECT_NE(targetError("i686-w64-windows-gnu").find("64-bit Windows only"), std::string::npos);
  EXPECT_NE(targetError("x86_64-pc-windows-cygnus").find("unknown x86 triple"), std::string::npos);
  EXPECT_NE(targetError("x86_64-linux-gnu", "x86-64-v3").find("-march/-mcpu are not modelled"),
            std::string::npos);
  EXPECT_NE(targetError("i586-linux-gnu").find("not i586"), std::string::npos);
  EXPECT_NE(targetError("x86_64-apple-darwin").find("unknown x86 triple"), std::string::npos);
  EXPECT_NE(targetError("x86_64-linux-gnu", "", "gcc-12").find("does not model gcc-12"),
            std::string::npos);
  EXPECT_NE(targetError("x86_64-linux-gnu", "", "popc").find("compiler of IPU targets"),
            std::string::npos);
}

TEST(X86Target, DataModelPerCompiler) {
  const DataModel d22 = targetFor("x86_64-linux-gnu").data;
  const DataModel d14 = targetFor("x86_64-linux-gnu clang-14").data;
  EXPECT_EQ(d22.of(FloatKind::LongDouble).size, 16);
  EXPECT_EQ(d22.float_formats[size_t(FloatKind::LongDouble)], FloatFormat::X87);
  EXPECT_TRUE(d22.of(FloatKind::Float16).supported());
  EXPECT_FALSE(d14.of(FloatKind::Float16).supported());
  EXPECT_FALSE(d14.of(FloatKind::BFloat16).supported());
  EXPECT_EQ(d22.bitint_max_width, 8388608u);
  EXPECT_EQ(d14.bitint_max_width, 128u);
  EXPECT_EQ(d22.va_list_kind, VaListKind::X86_64Tag);
  EXPECT_EQ(d22.va_list.size, 24);

  const DataModel i = targetFor("i386-linux-gnu").data;
  EXPECT_EQ(i.of(IntKind::LongLong).align, 4);
  EXPECT_EQ(i.of(FloatKind::Double).align, 4);
  EXPECT_EQ(i.of(FloatKind::LongDouble).size, 12);
  EXPECT_FALSE(i.of(IntKind::Int128).supported());
  EXPECT_EQ(i.flt_eval_method, 2);
}

TEST(X86Target, LockFreeMacrosFollowEachClang) {
  auto macro = [](const char* spec, const char* name) {
    for (auto& [k, v] : predefinedMacros(targetFor(spec), Language::C))
      if (k == name) return v;
    return std::string("(undefined)");
  };
  // clang 14 calls an atomic lock-free only when the type is aligned to its size.
  EXPECT_EQ(macro("i386-linux-gnu clang-14", "__GCC_ATOMIC_LLONG_LOCK_FREE"), "1");
  EXPECT_EQ(macro("i386-linux-gnu", "__GCC_ATOMIC_LLONG_LOCK_FREE"), "2");
  EXPECT_EQ(macro("i386-linux-gnu clang-14", "__FLT_EVAL_METHOD__"), "2");
  EXPECT_EQ(macro("x86_64-linux-gnu", "__x86_64__"), "1");
  EXPECT_EQ(macro("i386-linux-gnu", "__i386__"), "1");
  EXPECT_EQ(macro("i386-linux-gnu", "__x86_64__"), "(undefined)");
}

// reference/hosts.md, "Measured differences": the x86_64 and i386 columns.
constexpr std::string_view kRows = R"(
struct R1 { char a:4; int b:6; short c:10; char d; };
struct R2 { char c; long long x:20; int y:20; };
struct R3 { char a; int:0; char b; long long:3; char c; };
struct R4 { _Bool f:1; unsigned u:3; };
struct R5 { char c; long double ld; };
#pragma pack(1)
struct R6 { char c; int x __attribute__((aligned(8))); };
#pragma pack()
struct R7 { char c; float v __attribute__((vector_size(64))); };
struct R8 { char a; int:4; char b; };
struct R9 { char c; double d; long long l; };
typedef struct { __builtin_va_list ap; int x; } R10;
)";

struct Row {
  const char* name;
  uint64_t size64, align64, size32, align32;
};
constexpr Row kExpected[] = {
    {"R1", 8, 4, 8, 4},    {"R2", 8, 8, 8, 4},   {"R3", 7, 1, 7, 1},       {"R4", 4, 4, 4, 4},
    {"R5", 32, 16, 16, 4}, {"R6", 5, 1, 5, 1},   {"R7", 128, 64, 128, 64}, {"R8", 3, 1, 3, 1},
    {"R9", 24, 8, 20, 4},  {"R10", 32, 8, 8, 4},
};

TEST(X86Target, MeasuredRecordLayouts) {
  auto p64 = parse(kRows, "x86_64-linux-gnu");
  auto p32 = parse(kRows, "i386-linux-gnu");
  for (const Row& r : kExpected) {
    SCOPED_TRACE(r.name);
    EXPECT_EQ(p64.sizeOf(r.name), r.size64);
    EXPECT_EQ(p64.alignOf(r.name), r.align64);
    EXPECT_EQ(p32.sizeOf(r.name), r.size32);
    EXPECT_EQ(p32.alignOf(r.name), r.align32);
  }
  EXPECT_EQ(p32.offsetOf("R9", "d"), 4u); // double is 4-aligned in i386 records
  EXPECT_EQ(p32.offsetOf("R9", "l"), 12u);
  EXPECT_EQ(p64.offsetOf("R5", "ld"), 16u);
}

TEST(X86Target, PreferredAlignmentInConstantExpressions) {
  auto p = parse("struct S { int a[_Alignof(double)]; int b[__alignof__(double)];"
                 " int c[__alignof__(long long)]; int d[_Alignof(struct { double x; })]; };",
                 "i386-linux-gnu");
  EXPECT_EQ(p.sizeOf("S"), 4u * (4 + 8 + 8 + 4));
}

TEST(X86Target, CallingConventionIsRefused) {
  auto p = parse("int f(int a, double b);", "x86_64-linux-gnu");
  try {
    lowerFunction(*p.ctx, *p.layout, *p.function("f"));
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Unsupported);
    EXPECT_NE(e.message().find("does not model the calling convention of host target"),
              std::string::npos)
        << e.message();
  }
}

} // namespace

// The intrinsic headers' types (clang's definitions): alignments as their aligned attributes
// say on every x86 target, including i386; the unaligned variants are 1-aligned.
TEST(X86Target, IntrinsicHeaderTypes) {
  for (const char* triple : {"x86_64-linux-gnu", "i386-linux-gnu", "x86_64-pc-windows-msvc"}) {
    cparse_test::Parsed p = cparse_test::parse(
        "#include <x86intrin.h>\n"
        "struct S { char c; __m64 m; __m128 a; __m128i_u u; __m256d d; __m512i z; __mmask64 k; };",
        triple);
    EXPECT_EQ(p.offsetOf("struct S", "m"), 8u) << triple;
    EXPECT_EQ(p.offsetOf("struct S", "a"), 16u) << triple;
    EXPECT_EQ(p.offsetOf("struct S", "u"), 32u) << triple;
    EXPECT_EQ(p.offsetOf("struct S", "d"), 64u) << triple;
    EXPECT_EQ(p.offsetOf("struct S", "z"), 128u) << triple;
    EXPECT_EQ(p.sizeOf("struct S"), 256u) << triple;
  }
  // The functions are not declared: a call is an error, not a guess.
  EXPECT_NE(cparse_test::errorLine("#include <xmmintrin.h>\nint a[sizeof(_mm_setzero_ps())];",
                                   "x86_64-linux-gnu"),
            "");
}
