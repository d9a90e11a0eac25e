// AMDGPU device-function calling convention: golden lowerings checked against clang-14 -O1 and
// llc-14 (gfx906) when they were written (the register or stack slot of every byte, the IR
// signature's extension, byval and sret attributes), the rejections, kernels in `abikit call`
// (the CLI is tests/cli/test_call_cli.cpp).
#include "abikit/callconv.h"
#include "abikit/cparse.h"
#include "abikit/diag.h"
#include "abikit/layout.h"

#include <gtest/gtest.h>
#include <string>

namespace {

using namespace abikit;

class Amdgpu {
public:
  explicit Amdgpu(const std::string& cpu = "gfx906", LanguageMode lang = Language::C)
      : target_(make(cpu)), ctx_(target_, lang), layout_(ctx_) {}

  FunctionLowering lower(const std::string& src, const std::string& fn) {
    tu_ = parseSource(ctx_, layout_, "test.h", src, ParseOptions{});
    const FunctionDecl* f = tu_.findFunction(fn);
    EXPECT_NE(f, nullptr) << fn;
    return lowerFunction(ctx_, layout_, *f);
  }

  std::string error(const std::string& src, const std::string& fn) {
    try {
      lower(src, fn);
    } catch (const Error& e) {
      return e.message();
    }
    return "";
  }

private:
  static Target make(const std::string& cpu) {
    TargetOptions o;
    o.triple = "amdgcn-amd-amdhsa";
    o.mcpu = cpu;
    return resolveTarget(o);
  }
  Target target_;
  TypeContext ctx_;
  LayoutEngine layout_;
  TranslationUnit tu_;
};

/// "kind [offset+size loc]..." for compact comparisons.
std::string parts(const ArgLowering& a) {
  std::string s;
  switch (a.kind) {
  case ArgKind::Direct:
    s = a.byval ? "byval" + std::to_string(a.align) : "direct";
    break;
  case ArgKind::Extend:
    s = a.extend == ExtendKind::Sign ? "sext" : "zext";
    break;
  case ArgKind::Indirect:
    s = std::string(a.sret ? "sret" : "indirect") + std::to_string(a.align);
    break;
  case ArgKind::Ignore:
    return "ignore";
  }
  for (const ArgPart& p : a.parts) {
    s += " " + std::to_string(p.offset) + "+" + std::to_string(p.size) + ":";
    switch (p.loc.kind) {
    case ArgLocation::Kind::Register:
      s += std::string(p.loc.reg);
      break;
    case ArgLocation::Kind::Stack:
      s += "s" + std::to_string(p.loc.stack_offset);
      break;
    case ArgLocation::Kind::Kernarg:
      s += "k" + std::to_string(p.loc.stack_offset);
      break;
    case ArgLocation::Kind::Param:
      s += p.loc.param;
      break;
    }
  }
  return s;
}

TEST(AmdgpuCallconv, Scalars) {
  Amdgpu a;
  FunctionLowering f = a.lower(
      "void f(char c, unsigned short us, int i, long long l, double d, float x, _Float16 h, "
      "_Bool b, __int128 q, void *p, __attribute__((address_space(3))) int *lp, "
      "_BitInt(17) bi, unsigned _BitInt(65) big);",
      "f");
  ASSERT_EQ(f.params.size(), 13u);
  EXPECT_EQ(parts(f.ret), "ignore");
  EXPECT_EQ(parts(f.params[0]), "sext 0+1:v0");
  EXPECT_EQ(parts(f.params[1]), "zext 0+2:v1");
  EXPECT_EQ(parts(f.params[2]), "direct 0+4:v2");
  EXPECT_EQ(parts(f.params[3]), "direct 0+4:v3 4+4:v4"); // no even-register alignment
  EXPECT_EQ(parts(f.params[4]), "direct 0+4:v5 4+4:v6");
  EXPECT_EQ(parts(f.params[5]), "direct 0+4:v7");
  EXPECT_EQ(parts(f.params[6]), "direct 0+2:v8");
  EXPECT_EQ(parts(f.params[7]), "zext 0+1:v9");
  EXPECT_EQ(parts(f.params[8]), "direct 0+4:v10 4+4:v11 8+4:v12 12+4:v13");
  EXPECT_EQ(parts(f.params[9]), "direct 0+4:v14 4+4:v15");
  EXPECT_EQ(parts(f.params[10]), "direct 0+4:v16"); // 32-bit local pointer
  EXPECT_EQ(parts(f.params[11]), "sext 0+3:v17");   // _BitInt < 32 bits is extended (clang-14)
  EXPECT_EQ(parts(f.params[12]), "direct 0+4:v18 4+4:v19 8+1:v20");
  EXPECT_EQ(f.stack_bytes, 0u);
}

TEST(AmdgpuCallconv, VectorsSplitIntoRegisterUnits) {
  Amdgpu a;
  FunctionLowering f = a.lower("typedef short s3 __attribute__((ext_vector_type(3)));\n"
                               "typedef char c4 __attribute__((ext_vector_type(4)));\n"
                               "typedef _Float16 h2 __attribute__((ext_vector_type(2)));\n"
                               "typedef float f3 __attribute__((ext_vector_type(3)));\n"
                               "typedef double d2 __attribute__((vector_size(16)));\n"
                               "void f(s3 a, c4 b, h2 c, f3 d, d2 e);",
                               "f");
  EXPECT_EQ(parts(f.params[0]), "direct 0+4:v0 4+2:v1");               // v2i16 packing
  EXPECT_EQ(parts(f.params[1]), "direct 0+1:v2 1+1:v3 2+1:v4 3+1:v5"); // a VGPR per byte
  EXPECT_EQ(parts(f.params[2]), "direct 0+4:v6");
  EXPECT_EQ(parts(f.params[3]), "direct 0+4:v7 4+4:v8 8+4:v9");
  EXPECT_EQ(parts(f.params[4]), "direct 0+4:v10 4+4:v11 8+4:v12 12+4:v13");
}

TEST(AmdgpuCallconv, SixteenBitVectorsOnGfx7TakeARegisterEach) {
  Amdgpu a("gfx700");
  FunctionLowering f = a.lower(
      "typedef short s3 __attribute__((ext_vector_type(3)));\nvoid f(s3 a, long l, int i);", "f");
  EXPECT_EQ(parts(f.params[0]), "direct 0+2:v0 2+2:v1 4+2:v2");
  EXPECT_EQ(parts(f.params[1]), "direct 0+4:v3 4+4:v4");
  EXPECT_EQ(parts(f.params[2]), "direct 0+4:v5");
  EXPECT_NE(a.error("void g(_Float16 h);", "g").find("16-bit instructions"), std::string::npos);
}

// The example of reference/gpu.md §2.14 and the budget, checked with llc-14: v0-v30 for 31
// ints, a long long split between v30 and the stack, a char in a 4-byte slot, byval aggregates
// copied into the outgoing area at their alignment.
TEST(AmdgpuCallconv, StackArgumentsAndByval) {
  Amdgpu a;
  std::string src = "struct B12 { int a, b, c; };\n"
                    "struct A16 { int a __attribute__((aligned(16))); };\n"
                    "struct D { double d; int x; int y; int z; };\nvoid f(";
  for (int i = 0; i < 30; ++i) src += "int a" + std::to_string(i) + ", ";
  src += "long long l, char c, struct B12 b, struct A16 q, struct D d);";
  FunctionLowering f = a.lower(src, "f");
  ASSERT_EQ(f.params.size(), 35u);
  EXPECT_EQ(parts(f.params[29]), "direct 0+4:v29");
  EXPECT_EQ(parts(f.params[30]), "direct 0+4:v30 4+4:s0");
  EXPECT_EQ(parts(f.params[31]), "sext 0+1:s4");
  EXPECT_EQ(parts(f.params[32]), "byval4 0+12:s8");
  EXPECT_EQ(parts(f.params[33]), "byval16 0+16:s32");
  EXPECT_EQ(parts(f.params[34]), "byval8 0+24:s48");
  EXPECT_EQ(f.stack_bytes, 72u);
  ASSERT_EQ(f.notes.size(), 2u);
  EXPECT_NE(f.notes[0].find("b, q, d"), std::string::npos);
}

TEST(AmdgpuCallconv, AggregatesPackedFlattenedOrByval) {
  Amdgpu a;
  std::string decls = "struct P3 { char a, b, c; };\n"
                      "struct S6 { char a; short b; char c; short d; };\n"
                      "struct Big { char a; int b; double c; short d[3]; };\n"
                      "struct F4 { float x, y, z, w; };\n"
                      "struct One { double d; };\n"
                      "struct Empty { };\n"
                      "typedef short s3 __attribute__((ext_vector_type(3)));\n"
                      "typedef char c4 __attribute__((ext_vector_type(4)));\n";
  FunctionLowering f = a.lower(decls + "void f(char c, struct P3 p, struct S6 s, struct Big b, "
                                       "long long l, double d, s3 x, c4 y, struct F4 f4);",
                               "f");
  EXPECT_EQ(parts(f.params[1]), "direct 0+3:v1");        // i32
  EXPECT_EQ(parts(f.params[2]), "direct 0+4:v2 4+4:v3"); // [2 x i32]
  // Flattened into i8, i32, double, [3 x i16]: one VGPR per element unit.
  EXPECT_EQ(parts(f.params[3]), "direct 0+1:v4 4+4:v5 8+4:v6 12+4:v7 16+2:v8 18+2:v9 20+2:v10");
  // The budget of 16 is used up by the char vector: the last struct is byval (IR checked).
  EXPECT_EQ(parts(f.params[8]), "byval4 0+16:s0");

  FunctionLowering g = a.lower(decls + "void g(struct One o, struct Empty e, struct F4 f4);", "g");
  EXPECT_EQ(parts(g.params[0]), "direct 0+4:v0 4+4:v1"); // the single element, a double
  EXPECT_EQ(parts(g.params[1]), "ignore");
  EXPECT_EQ(parts(g.params[2]), "direct 0+4:v2 4+4:v3 8+4:v4 12+4:v5");
}

TEST(AmdgpuCallconv, RecordLoweringPaddingAndBitFields) {
  Amdgpu a;
  // clang-14's IR: { i8, [15 x i8], i112, [4 x i8], [12 x i8], i8, [15 x i8] } for the first
  // (an array of an over-aligned 1-byte typedef is [4 x i8], the C array is 16 bytes); each i8
  // is a VGPR of its own.
  FunctionLowering f =
      a.lower("enum __attribute__((packed)) E { E0 = 1 };\n"
              "typedef long long L16 __attribute__((aligned(16)));\n"
              "typedef enum E E16 __attribute__((aligned(16)));\n"
              "struct S { enum E a : 1; L16 b : 64; long long c : 46; E16 d[4]; int e : 1; };\n"
              "union U { int a; char c[5]; };\n"
              "void f(union U u, struct S s);",
              "f");
  EXPECT_EQ(parts(f.params[0]), "direct 0+4:v0 4+4:v1");
  const ArgLowering& s = f.params[1];
  EXPECT_EQ(s.kind, ArgKind::Direct);
  ASSERT_GE(s.parts.size(), 24u);
  EXPECT_EQ(parts(s).substr(0, 24), "direct 0+1:v2 1+1:v3 2+1");
  // The i112 storage of the two bit-fields at byte 16: four units, the last of 2 bytes.
  EXPECT_EQ(s.parts[16].offset, 16u);
  EXPECT_EQ(s.parts[19].offset, 28u);
  EXPECT_EQ(s.parts[19].size, 2u);
  EXPECT_EQ(s.parts[20].offset, 32u); // [4 x i8]
  EXPECT_EQ(s.parts[24].offset, 36u); // [12 x i8] padding
}

// Arrays of an over-aligned typedef: clang's IR array is [3 x [1 x i32]] (stride 4) while the
// C elements are 8 apart; the registers hold the memory at the IR offsets (llc-14 checked).
TEST(AmdgpuCallconv, OverAlignedArrayElementsUseTheIrStride) {
  Amdgpu a;
  FunctionLowering f = a.lower("enum E { E0 = 34 };\n"
                               "typedef enum E T __attribute__((aligned(8)));\n"
                               "struct S { T f0[3][1]; };\nstruct S f(void);",
                               "f");
  ASSERT_EQ(f.ret.parts.size(), 15u);
  EXPECT_EQ(parts(f.ret).substr(0, 41), "direct 0+4:v0 4+4:v1 8+4:v2 12+1:v3 13+1:");
  EXPECT_EQ(f.ret.parts[14].offset, 23u);
}

TEST(AmdgpuCallconv, Returns) {
  Amdgpu a;
  std::string decls = "struct Big { int a[20]; };\nstruct C40 { char c[40]; };\n"
                      "struct P3 { char a, b, c; };\nstruct Flex { int n; int d[]; };\n"
                      "typedef float f64v __attribute__((ext_vector_type(64)));\n"
                      "typedef double d2 __attribute__((ext_vector_type(2)));\n";
  FunctionLowering f = a.lower(decls + "struct Big f(int x);", "f");
  EXPECT_EQ(parts(f.ret), "sret4 0+4:v0 4+4:v1"); // flat sret pointer
  EXPECT_EQ(parts(f.params[0]), "direct 0+4:v2");
  f = a.lower(decls + "struct C40 g(int x);", "g");
  EXPECT_EQ(parts(f.ret), "sret8 0+4:v0"); // 40 VGPRs: demoted to a private pointer
  EXPECT_EQ(parts(f.params[0]), "direct 0+4:v1");
  EXPECT_FALSE(f.notes.empty());
  f = a.lower(decls + "f64v h(float x);", "h");
  EXPECT_EQ(f.ret.parts.size(), 1u);
  EXPECT_EQ(parts(f.params[0]), "direct 0+4:v1");
  f = a.lower(decls + "struct Flex i(void);", "i");
  EXPECT_EQ(parts(f.ret), "sret4 0+4:v0 4+4:v1");
  f = a.lower(decls + "struct P3 j(void);", "j");
  EXPECT_EQ(parts(f.ret), "direct 0+3:v0");
  f = a.lower(decls + "d2 k(void);", "k");
  EXPECT_EQ(parts(f.ret), "direct 0+4:v0 4+4:v1 8+4:v2 12+4:v3");
  f = a.lower(decls + "signed char l(void);", "l");
  EXPECT_EQ(parts(f.ret), "sext 0+1:v0");
  f = a.lower("struct W { char c[124]; };\nstruct W m(void);", "m"); // 31 regs ≤ 16? no: sret
  EXPECT_EQ(f.ret.kind, ArgKind::Indirect);
  f = a.lower("struct R { char c[32]; };\nstruct R n(void);", "n"); // 8 regs, 32 units: v0-v31
  EXPECT_EQ(f.ret.kind, ArgKind::Direct);
  ASSERT_EQ(f.ret.parts.size(), 32u);
  EXPECT_EQ(f.ret.parts[31].loc.reg, "v31");
}

TEST(AmdgpuCallconv, Rejections) {
  Amdgpu a;
  EXPECT_NE(a.error("int v(int a, ...);", "v").find("variadic"), std::string::npos);
  EXPECT_NE(a.error("void h(__fp16 x);", "h").find("__fp16"), std::string::npos);
  EXPECT_NE(a.error("__fp16 r(void);", "r").find("__fp16"), std::string::npos);
  EXPECT_NE(a.error("union U { short a; unsigned short b; } __attribute__((transparent_union));\n"
                    "void t(union U u);",
                    "t")
                .find("invalid IR"),
            std::string::npos);
  EXPECT_NE(
      a.error("void p(__attribute__((address_space(2))) int *x);", "p").find("address space 2"),
      std::string::npos);
  // A transparent union whose first member is an int is passed as the int.
  FunctionLowering f = a.lower(
      "union V { int a; unsigned b; } __attribute__((transparent_union));\nvoid g(union V v);",
      "g");
  EXPECT_EQ(parts(f.params[0]), "direct 0+4:v0");
  // Objects beyond what a part can describe are refused.
  EXPECT_NE(a.error("struct G { char c[5000000000]; };\nvoid g2(struct G);", "g2").find("4 GiB"),
            std::string::npos);
  // A record of a million padding bytes is refused rather than described.
  EXPECT_NE(
      a.error("struct H { char c; } __attribute__((aligned(1 << 20)));\nvoid h2(struct H);", "h2"),
      "");
}

// OpenCL built-in types are pointers (images and samplers into the constant space, event_t into
// the private space, queues and pipes into the global space); llc-14 checked.
TEST(AmdgpuCallconv, OpenClDeviceFunctions) {
  Amdgpu a("gfx906", LanguageMode(Language::OpenCL, 200)); // queue_t: OpenCL C 2.0
  FunctionLowering f = a.lower("#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n"
                               "void f(read_only image2d_t i, event_t e, int x, sampler_t s,\n"
                               "       queue_t q, bool b, half h);",
                               "f");
  EXPECT_EQ(parts(f.params[0]), "direct 0+4:v0 4+4:v1");
  EXPECT_EQ(parts(f.params[1]), "direct 0+4:v2");
  EXPECT_EQ(parts(f.params[2]), "direct 0+4:v3");
  EXPECT_EQ(parts(f.params[3]), "direct 0+4:v4 4+4:v5");
  EXPECT_EQ(parts(f.params[4]), "direct 0+4:v6 4+4:v7");
  EXPECT_EQ(parts(f.params[5]), "zext 0+1:v8");
  EXPECT_EQ(parts(f.params[6]), "direct 0+2:v9");
}

TEST(AmdgpuCallconv, KernelsLiveInTheKernargSegment) {
  Amdgpu a("gfx906", Language::OpenCL);
  FunctionLowering f = a.lower("__kernel void k(__global float *p, char c, float4 v);", "k");
  EXPECT_EQ(parts(f.ret), "ignore");
  EXPECT_EQ(parts(f.params[0]), "direct 0+8:k0");
  EXPECT_EQ(parts(f.params[1]), "direct 0+1:k8");
  EXPECT_EQ(parts(f.params[2]), "direct 0+16:k16");
  EXPECT_EQ(f.stack_bytes, 0u);
}

} // namespace
