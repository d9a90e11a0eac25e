// _Atomic(T), the _Atomic qualifier and <stdatomic.h>: layouts as clang-14/19/22 give them
// (measured with `clang-N -target T -S -emit-llvm` on sizeof/_Alignof of each type; all three
// versions agree), what C11 and clang refuse, and the calling-convention commands' refusal.
// tests/differential/diff_layout.cpp compares random records holding atomics with clang.
#include "abikit/callconv.h"
#include "abikit/diag.h"
#include "test_cparse_util.h"

using namespace abikit;
using namespace abikit::cparse_test;

namespace {

constexpr const char* kValues = R"(
struct S3 { char a[3]; };
struct S5 { char a[5]; };
struct S12 { int a[3]; };
struct S16 { long long a, b; };
struct S17 { char a[17]; };
struct S32 { long long a, b, c, d; };
struct E {};
)";

// sizeof and _Alignof of _Atomic(T) for each T of kValues and a few scalars.
struct Expected {
  const char* triple;
  unsigned s3[2], s5[2], s12[2], s16[2], s17[2], s32[2], ld[2], d[2], ll[2], cd[2], e[2];
};

const Expected kTable[] = {
    // MaxAtomicPromoteWidth 128.
    {"x86_64-linux-gnu",
     {4, 4},
     {8, 8},
     {16, 16},
     {16, 16},
     {17, 1},
     {32, 8},
     {16, 16},
     {8, 8},
     {8, 8},
     {16, 16},
     {1, 1}},
    {"aarch64-linux-gnu",
     {4, 4},
     {8, 8},
     {16, 16},
     {16, 16},
     {17, 1},
     {32, 8},
     {16, 16},
     {8, 8},
     {8, 8},
     {16, 16},
     {1, 1}},
    {"riscv32-unknown-elf",
     {4, 4},
     {8, 8},
     {16, 16},
     {16, 16},
     {17, 1},
     {32, 8},
     {16, 16},
     {8, 8},
     {8, 8},
     {16, 16},
     {1, 1}},
    {"riscv64-unknown-elf",
     {4, 4},
     {8, 8},
     {16, 16},
     {16, 16},
     {17, 1},
     {32, 8},
     {16, 16},
     {8, 8},
     {8, 8},
     {16, 16},
     {1, 1}},
    {"x86_64-pc-windows-msvc",
     {4, 4},
     {8, 8},
     {16, 16},
     {16, 16},
     {17, 1},
     {32, 8},
     {8, 8},
     {8, 8},
     {8, 8},
     {16, 16},
     {4, 4}},
    // 64: i386's 12-byte long double and 16-byte records keep their size and alignment, but
    // _Atomic(double) and _Atomic(long long) are 8-aligned (4 without _Atomic).
    {"i386-linux-gnu",
     {4, 4},
     {8, 8},
     {12, 4},
     {16, 4},
     {17, 1},
     {32, 4},
     {12, 4},
     {8, 8},
     {8, 8},
     {16, 4},
     {1, 1}},
    {"amdgcn-amd-amdhsa",
     {4, 4},
     {8, 8},
     {12, 4},
     {16, 8},
     {17, 1},
     {32, 8},
     {8, 8},
     {8, 8},
     {8, 8},
     {16, 8},
     {1, 1}},
    // NVPTX: 0, every _Atomic(T) is laid out as T.
    {"nvptx64-nvidia-cuda",
     {3, 1},
     {5, 1},
     {12, 4},
     {16, 8},
     {17, 1},
     {32, 8},
     {8, 8},
     {8, 8},
     {8, 8},
     {16, 8},
     {1, 1}},
    {"nvptx-nvidia-cuda",
     {3, 1},
     {5, 1},
     {12, 4},
     {16, 8},
     {17, 1},
     {32, 8},
     {8, 8},
     {8, 8},
     {8, 8},
     {16, 8},
     {1, 1}},
};

std::string asserts(const Expected& x) {
  std::string s = kValues;
  auto add = [&](const char* type, const unsigned(&v)[2]) {
    s += "_Static_assert(sizeof(_Atomic(" + std::string(type) + ")) == " + std::to_string(v[0]) +
         ", \"size of _Atomic(" + type + ")\");\n";
    s += "_Static_assert(_Alignof(_Atomic(" + std::string(type) + ")) == " + std::to_string(v[1]) +
         ", \"alignment of _Atomic(" + type + ")\");\n";
  };
  add("struct S3", x.s3);
  add("struct S5", x.s5);
  add("struct S12", x.s12);
  add("struct S16", x.s16);
  add("struct S17", x.s17);
  add("struct S32", x.s32);
  add("long double", x.ld);
  add("double", x.d);
  add("long long", x.ll);
  add("_Complex double", x.cd);
  add("struct E", x.e);
  return s;
}

} // namespace

TEST(Atomic, LayoutFollowsEachTargetsPromoteWidth) {
  for (const Expected& x : kTable) {
    SCOPED_TRACE(x.triple);
    EXPECT_EQ(parseError(asserts(x), x.triple), "");
  }
}

TEST(Atomic, FieldsAndQualifierForms) {
  // clang-22 -fdump-record-layouts-simple: offsets 0, 4, 8, 16, 24 and size 32 on x86-64.
  Parsed p = parse(R"(
struct S3 { char a[3]; };
struct T {
  char c;
  _Atomic(struct S3) a;   /* 4/4 */
  _Atomic int b;          /* the qualifier */
  int _Atomic * _Atomic q; /* an atomic pointer to an atomic int */
  const _Atomic long long volatile ll;
};
typedef _Atomic struct S3 AS3;
struct U { char c; AS3 x[3]; };
)",
                   "x86_64-linux-gnu");
  EXPECT_EQ(p.offsetOf("T", "a"), 4u);
  EXPECT_EQ(p.offsetOf("T", "b"), 8u);
  EXPECT_EQ(p.offsetOf("T", "q"), 16u);
  EXPECT_EQ(p.offsetOf("T", "ll"), 24u);
  EXPECT_EQ(p.sizeOf("T"), 32u);
  EXPECT_EQ(p.sizeOf("U"), 16u);
  EXPECT_EQ(p.offsetOf("U", "x"), 4u);
  const RecordDecl* t = p.record("T");
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(typeName(t->fields[1].type, *p.ctx), "_Atomic(struct S3)");
  EXPECT_EQ(typeName(t->fields[2].type, *p.ctx), "_Atomic(int)");
  EXPECT_EQ(typeName(t->fields[4].type, *p.ctx), "const volatile _Atomic(long long)");
  // The same type however it is written.
  EXPECT_EQ(t->fields[2].type, p.ctx->atomicOf(p.ctx->intType(IntKind::Int)));
}

TEST(Atomic, StdatomicHeader) {
  Parsed p = parse(R"(
#include <stdatomic.h>
struct R { atomic_flag f; atomic_llong n; atomic_bool b; memory_order o; atomic_uintptr_t u; };
_Static_assert(sizeof(atomic_flag) == 1, "");
_Static_assert(ATOMIC_INT_LOCK_FREE == 2, "");
_Static_assert(memory_order_seq_cst == 5, "");
)",
                   "i386-linux-gnu");
  EXPECT_EQ(p.offsetOf("R", "n"), 8u); // 8-aligned on i386, unlike long long
  EXPECT_EQ(p.offsetOf("R", "b"), 16u);
  EXPECT_EQ(p.offsetOf("R", "o"), 20u);
  EXPECT_EQ(p.offsetOf("R", "u"), 24u);
  EXPECT_EQ(p.sizeOf("R"), 32u);
  // C++ (CUDA): bool, and extern "C".
  EXPECT_EQ(parseError("#include <stdatomic.h>\nstruct R { atomic_flag f; atomic_int i; };",
                       "nvptx64-nvidia-cuda", Language::CUDA),
            "");
}

// What clang-14/19/22 refuse (the same words).
TEST(Atomic, RefusedTypes) {
  const char* x86 = "x86_64-linux-gnu";
  EXPECT_NE(
      errorLine("_Atomic(int[2]) a;", x86).find("_Atomic cannot be applied to array type 'int[2]'"),
      std::string::npos);
  EXPECT_NE(errorLine("typedef int A[2]; _Atomic A a;", x86)
                .find("_Atomic cannot be applied to array type"),
            std::string::npos);
  EXPECT_NE(errorLine("typedef void F(void); _Atomic(F) *f;", x86)
                .find("_Atomic cannot be applied to function type"),
            std::string::npos);
  EXPECT_NE(
      errorLine("_Atomic(const int) a;", x86).find("_Atomic cannot be applied to qualified type"),
      std::string::npos);
  EXPECT_NE(errorLine("typedef const int CI; _Atomic(CI) a;", x86)
                .find("_Atomic cannot be applied to qualified type"),
            std::string::npos);
  EXPECT_EQ(errorLine("typedef const int CI; _Atomic CI a;", x86), ""); // as clang
  EXPECT_NE(
      errorLine("_Atomic(_Atomic(int)) a;", x86).find("_Atomic cannot be applied to atomic type"),
      std::string::npos);
  EXPECT_NE(errorLine("struct S; _Atomic(struct S) *p;", x86)
                .find("_Atomic cannot be applied to incomplete type 'struct S'"),
            std::string::npos);
  EXPECT_NE(errorLine("_Atomic(void) *p;", x86).find("incomplete type 'void'"), std::string::npos);
  for (const char* b : {"_BitInt(7)", "_BitInt(8)", "unsigned _BitInt(128)"})
    EXPECT_NE(errorLine("_Atomic(" + std::string(b) + ") a;", x86)
                  .find("_Atomic cannot be applied to integer type"),
              std::string::npos)
        << b;
  EXPECT_NE(errorLine("struct T { _Atomic int b : 3; };", x86)
                .find("bit-field 'b' has non-integral type '_Atomic(int)'"),
            std::string::npos);
}

// DPU and IPU have no compiler to measure: _Atomic is refused by name, not guessed.
TEST(Atomic, UnknownTargetsRefuseIt) {
  for (const char* t : {"dpu-upmem-dpurte", "colossus-graphcore-elf"}) {
    SCOPED_TRACE(t);
    std::string e = errorLine("struct S { _Atomic int x; };", t);
    EXPECT_NE(e.find("test.h:1:12: error: _Atomic types are not supported on"), std::string::npos)
        << e;
    EXPECT_NE(e.find("not documented"), std::string::npos) << e;
    EXPECT_EQ(errorLine("struct S { int x; };", t), "");
  }
}

// No calling convention lowers an atomic value; a pointer to one is an ordinary pointer.
TEST(Atomic, CallRefusesAtomicValues) {
  Parsed p = parse(R"(
struct H { _Atomic int n; };
int f(_Atomic int x);
_Atomic long g(void);
void h(struct H s);
void k(_Atomic int *p);
)",
                   "riscv64-unknown-elf");
  for (const char* name : {"f", "g", "h"}) {
    SCOPED_TRACE(name);
    try {
      lowerFunction(*p.ctx, *p.layout, *p.function(name));
      ADD_FAILURE() << "lowered";
    } catch (const Error& e) {
      EXPECT_NE(e.format().find("holds an _Atomic value, which abikit does not lower"),
                std::string::npos)
          << e.format();
      EXPECT_TRUE(e.hasSourcePosition());
    }
  }
  FunctionLowering k = lowerFunction(*p.ctx, *p.layout, *p.function("k"));
  ASSERT_EQ(k.params.size(), 1u);
}

// C++ (CUDA, HIP) with clang 16 and later: `packed` does not reach a member whose class is not
// POD, and a record holding an _Atomic is not POD; an array of one is packed (clang's
// getAsCXXRecordDecl sees no class through the array). clang-14 packs every member; C always.
TEST(Atomic, PackedCxxRecordsKeepNonPodMembersAligned) {
  const char* src = "struct A { _Atomic(unsigned int) x; };\n"
                    "struct __attribute__((packed)) P { char c; struct A a; };\n"
                    "struct __attribute__((packed)) Q { char c; struct A a[2]; };\n"
                    "struct __attribute__((packed)) PA { char c; int y; };\n"
                    "struct __attribute__((packed)) R { char c; struct PA p; };\n";
  Parsed p22 = parse(src, "nvptx64-nvidia-cuda clang-22", Language::CUDA);
  EXPECT_EQ(p22.offsetOf("P", "a"), 4u);
  EXPECT_EQ(p22.alignOf("P"), 4u);
  EXPECT_EQ(p22.offsetOf("Q", "a"), 1u);
  EXPECT_EQ(p22.offsetOf("R", "p"), 1u); // POD
  Parsed p19 = parse(src, "nvptx64-nvidia-cuda clang-19", Language::CUDA);
  EXPECT_EQ(p19.offsetOf("P", "a"), 4u);
  Parsed p14 = parse(src, "nvptx64-nvidia-cuda clang-14", Language::CUDA);
  EXPECT_EQ(p14.offsetOf("P", "a"), 1u);
  EXPECT_EQ(p14.alignOf("P"), 1u);
  Parsed c = parse(src, "nvptx64-nvidia-cuda clang-22", Language::C);
  EXPECT_EQ(c.offsetOf("P", "a"), 1u);
}
