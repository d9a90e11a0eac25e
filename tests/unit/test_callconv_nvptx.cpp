// NVPTX calling convention with --compiler clang-14: clang-14's NVPTXABIInfo decisions (extension,
// byval aggregates at their C alignment, direct aggregate returns, never sret), the .param names
// and sizes, the IR alignment of returned aggregates, and what clang-14/llc-14 cannot compile.
// Every expectation was checked with clang-14 -S -emit-llvm / llc-14 (docs/targets/nvptx.md,
// "Calling convention").
#include "abikit/callconv.h"
#include "abikit/cparse.h"
#include "abikit/diag.h"

#include <gtest/gtest.h>
#include <memory>

namespace {

using namespace abikit;

struct Env {
  Target target;
  std::unique_ptr<TypeContext> ctx;
  std::unique_ptr<LayoutEngine> layout;
  TranslationUnit tu;

  explicit Env(const std::string& text, const char* triple = "nvptx64-nvidia-cuda") {
    TargetOptions o;
    o.triple = triple;
    o.compiler = "clang-14"; // test_nvptx_compilers.cpp has what clang-19 and clang-22 change
    target = resolveTarget(o);
    ctx = std::make_unique<TypeContext>(target, Language::C);
    layout = std::make_unique<LayoutEngine>(*ctx);
    tu = parseSource(*ctx, *layout, "t.h", text, ParseOptions{});
  }

  FunctionLowering lower(const char* name) {
    const FunctionDecl* fd = tu.findFunction(name);
    EXPECT_NE(fd, nullptr) << name;
    return lowerFunction(*ctx, *layout, *fd);
  }

  std::string error(const char* name) {
    try {
      lower(name);
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), ErrorKind::Unsupported);
      return e.message();
    }
    return "(no error)";
  }
};

void expectParam(const ArgLowering& a, ArgKind kind, ExtendKind ext, uint32_t size,
                 const std::string& param) {
  EXPECT_EQ(a.kind, kind) << param;
  EXPECT_EQ(a.extend, ext) << param;
  ASSERT_EQ(a.parts.size(), 1u) << param;
  EXPECT_EQ(a.parts[0].offset, 0u);
  EXPECT_EQ(a.parts[0].size, size) << param;
  EXPECT_EQ(a.parts[0].loc.kind, ArgLocation::Kind::Param);
  EXPECT_EQ(a.parts[0].loc.param, param);
}

bool hasNote(const FunctionLowering& f, const char* text) {
  for (const std::string& n : f.notes)
    if (n.find(text) != std::string::npos) return true;
  return false;
}

const char* const kTypes = R"(
struct S3 { char a, b, c; };
struct Seed { double dbl; char c[4]; };
struct __attribute__((packed)) PL { long long x; };
struct AL { int a __attribute__((aligned(16))); };
union U { char c; short s; int x : 3; };
struct BF { char a; int b : 20; };
struct Q { int b : 20; char c; };
struct E {};
struct Odd { int a : 20; int b; };
struct I128A { __int128 x[2]; };
struct Huge { char c; } __attribute__((aligned(256)));
typedef float float3 __attribute__((ext_vector_type(3)));
typedef char char3 __attribute__((ext_vector_type(3)));
typedef double double4 __attribute__((ext_vector_type(4)));
typedef __int128 i128x2 __attribute__((ext_vector_type(2)));
enum __attribute__((packed)) Small { SA = 1, SB = 200 };
)";

TEST(NvptxCallconv, ScalarsAreExtendedByClangRules) {
  Env env(std::string(kTypes) +
          "char f(_Bool b, char c, unsigned char uc, short s, unsigned short us, int i, long l, "
          "long long ll, float fl, double d, long double ld, void *p, enum Small e, "
          "_BitInt(7) b7, unsigned _BitInt(1) b1, _BitInt(32) b32, unsigned _BitInt(16) b16);");
  FunctionLowering f = env.lower("f");
  EXPECT_EQ(f.stack_bytes, 0u);
  expectParam(f.ret, ArgKind::Extend, ExtendKind::Sign, 1, "func_retval0");
  const ExtendKind S = ExtendKind::Sign, Z = ExtendKind::Zero, N = ExtendKind::None;
  struct {
    ArgKind kind;
    ExtendKind ext;
    uint32_t size;
  } want[] = {{ArgKind::Extend, Z, 1},
              {ArgKind::Extend, S, 1},
              {ArgKind::Extend, Z, 1},
              {ArgKind::Extend, S, 2},
              {ArgKind::Extend, Z, 2},
              {ArgKind::Direct, N, 4},
              {ArgKind::Direct, N, 8},
              {ArgKind::Direct, N, 8},
              {ArgKind::Direct, N, 4},
              {ArgKind::Direct, N, 8},
              {ArgKind::Direct, N, 8},
              {ArgKind::Direct, N, 8},
              // packed enum: its underlying unsigned char; _BitInt narrower than int extends
              {ArgKind::Extend, Z, 1},
              {ArgKind::Extend, S, 1},
              {ArgKind::Extend, Z, 1},
              {ArgKind::Direct, N, 4},
              {ArgKind::Extend, Z, 2}};
  ASSERT_EQ(f.params.size(), std::size(want));
  for (size_t k = 0; k < f.params.size(); ++k) {
    expectParam(f.params[k], want[k].kind, want[k].ext, want[k].size,
                "f_param_" + std::to_string(k));
    EXPECT_EQ(f.params[k].align, 0u) << k; // scalars are not .param byte arrays
  }
}

TEST(NvptxCallconv, AggregatesAreByvalAtTheirCAlignment) {
  Env env(std::string(kTypes) +
          "void f(struct S3 a, struct Seed b, struct PL c, struct AL d, union U e, "
          "_Complex float g, _Complex char h);");
  FunctionLowering f = env.lower("f");
  EXPECT_EQ(f.ret.kind, ArgKind::Ignore);
  EXPECT_TRUE(f.ret.parts.empty());
  uint32_t sizes[] = {3, 16, 8, 16, 4, 8, 2};
  uint32_t aligns[] = {1, 8, 1, 16, 4, 4, 1};
  for (size_t k = 0; k < 7; ++k) {
    const ArgLowering& a = f.params[k];
    expectParam(a, ArgKind::Indirect, ExtendKind::None, sizes[k], "f_param_" + std::to_string(k));
    EXPECT_TRUE(a.byval);
    EXPECT_FALSE(a.sret);
    EXPECT_EQ(a.align, aligns[k]) << k;
  }
  // The seed's 12-byte example is sizeof = 16 bytes (reference/gpu.md §1.2).
  EXPECT_EQ(f.params[1].parts[0].size, 16u);
  EXPECT_TRUE(hasNote(f, "at least 4"));
}

TEST(NvptxCallconv, AggregateReturnsAreDirectAtTheirIrAlignment) {
  Env env(std::string(kTypes) +
          "struct S3 s3(void); struct PL pl(void); struct AL al(void); union U u(void);"
          "struct BF bf(void); struct Q q(void); struct Seed seed(void); _Complex char cc(void);");
  struct {
    const char* fn;
    uint32_t size, align;
  } want[] = {
      {"s3", 3, 1},    // { i8, i8, i8 }
      {"pl", 8, 8},    // { i64 }: packed in C, not in IR
      {"al", 16, 4},   // { i32, [12 x i8] }
      {"u", 4, 2},     // { i16, [2 x i8] }: the storage is the most aligned member
      {"bf", 4, 1},    // { i8, [3 x i8] }: the i24 storage is clipped by the end
      {"q", 4, 1},     // { [3 x i8], i8 }
      {"seed", 16, 8}, // { double, [4 x i8], [4 x i8] }
      {"cc", 2, 1},    // { i8, i8 }
  };
  for (const auto& w : want) {
    FunctionLowering f = env.lower(w.fn);
    expectParam(f.ret, ArgKind::Direct, ExtendKind::None, w.size, "func_retval0");
    EXPECT_FALSE(f.ret.sret) << w.fn;
    EXPECT_EQ(f.ret.align, w.align) << w.fn;
  }
  EXPECT_TRUE(hasNote(env.lower("al"), "not to its C alignment 16"));
}

TEST(NvptxCallconv, VectorsAndInt128AreByteArraysOfTheirIrType) {
  Env env(std::string(kTypes) +
          "float3 f(float3 a, char3 b, double4 c, __int128 d, unsigned __int128 e, "
          "_BitInt(128) g);");
  FunctionLowering f = env.lower("f");
  expectParam(f.ret, ArgKind::Direct, ExtendKind::None, 16, "func_retval0");
  EXPECT_EQ(f.ret.align, 16u);
  uint32_t sizes[] = {16, 4, 32, 16, 16, 16};
  uint32_t aligns[] = {16, 4, 32, 16, 16, 16};
  for (size_t k = 0; k < 6; ++k) {
    expectParam(f.params[k], ArgKind::Direct, ExtendKind::None, sizes[k],
                "f_param_" + std::to_string(k));
    EXPECT_EQ(f.params[k].align, aligns[k]) << k;
  }
}

TEST(NvptxCallconv, ThirtyTwoBit) {
  Env env(std::string("struct S3 { char a, b, c; };\n") +
              "long f(long a, void *p, _BitInt(128) w, struct S3 s);\n"
              "_BitInt(128) g(void);\n",
          "nvptx-nvidia-cuda");
  FunctionLowering f = env.lower("f");
  expectParam(f.ret, ArgKind::Direct, ExtendKind::None, 4, "func_retval0");
  expectParam(f.params[0], ArgKind::Direct, ExtendKind::None, 4, "f_param_0");
  expectParam(f.params[1], ArgKind::Direct, ExtendKind::None, 4, "f_param_1");
  // No __int128 on 32-bit nvptx: clang passes a wide _BitInt byval (C alignment 8).
  expectParam(f.params[2], ArgKind::Indirect, ExtendKind::None, 16, "f_param_2");
  EXPECT_TRUE(f.params[2].byval);
  EXPECT_EQ(f.params[2].align, 8u);
  FunctionLowering g = env.lower("g");
  expectParam(g.ret, ArgKind::Direct, ExtendKind::None, 16, "func_retval0");
  EXPECT_EQ(g.ret.align, 16u);
}

TEST(NvptxCallconv, KernelsAreClassifiedLikeDeviceFunctions) {
  Env env(std::string(kTypes) +
          "__attribute__((nvptx_kernel)) void k(char c, struct S3 s, struct Odd o, i128x2 v, "
          "_BitInt(20) b, struct Huge h);");
  FunctionLowering f = env.lower("k");
  EXPECT_EQ(f.ret.kind, ArgKind::Ignore);
  expectParam(f.params[0], ArgKind::Extend, ExtendKind::Sign, 1, "k_param_0");
  expectParam(f.params[1], ArgKind::Indirect, ExtendKind::None, 3, "k_param_1");
  EXPECT_EQ(f.params[1].align, 1u);
  // A kernel's parameters are only read by the kernel: llc-14 lowers what calls cannot pass.
  expectParam(f.params[2], ArgKind::Indirect, ExtendKind::None, 8, "k_param_2");
  expectParam(f.params[3], ArgKind::Direct, ExtendKind::None, 32, "k_param_3");
  expectParam(f.params[4], ArgKind::Extend, ExtendKind::Sign, 4, "k_param_4");
  EXPECT_TRUE(hasNote(f, ".u20, which ptxas rejects"));
  EXPECT_FALSE(hasNote(f, "at least 4"));     // no byval floor for kernels
  EXPECT_FALSE(hasNote(f, "only up to 128")); // kernels' params may be aligned above 128
}

TEST(NvptxCallconv, Notes) {
  Env env(std::string(kTypes) + "struct E e(struct E x);\nvoid h(struct Huge x);\n");
  FunctionLowering e = env.lower("e");
  expectParam(e.ret, ArgKind::Direct, ExtendKind::None, 0, "func_retval0");
  expectParam(e.params[0], ArgKind::Indirect, ExtendKind::None, 0, "e_param_0");
  EXPECT_TRUE(hasNote(e, "func_retval0[0]"));
  EXPECT_TRUE(hasNote(e, "unsized array"));
  EXPECT_TRUE(hasNote(env.lower("h"), "only up to 128"));
}

TEST(NvptxCallconv, WhatTheCompilersCannotBuildIsRejected) {
  Env env(std::string(kTypes) + "int va(int n, ...);\n"
                                "int knr();\n"
                                "void half_param(__fp16 h);\n"
                                "__fp16 half_ret(void);\n"
                                "void bi24(_BitInt(24) x);\n"
                                "_BitInt(40) bi40(void);\n"
                                "void bi65(_BitInt(65) x);\n"
                                "void v128(i128x2 v);\n"
                                "void odd_param(struct Odd o);\n"
                                "struct Odd odd_ret(void);\n"
                                "void arr128(struct I128A a);\n"
                                "__attribute__((nvptx_kernel)) int kret(void);\n"
                                "__attribute__((nvptx_kernel)) void kbig(_BitInt(65) x);\n");
  EXPECT_NE(env.error("va").find("variadic"), std::string::npos);
  EXPECT_NE(env.error("knr").find("without a prototype"), std::string::npos);
  EXPECT_NE(env.error("half_param").find("__fp16"), std::string::npos);
  EXPECT_NE(env.error("half_ret").find("__fp16"), std::string::npos);
  EXPECT_NE(env.error("bi24").find("_BitInt(24)"), std::string::npos);
  EXPECT_NE(env.error("bi40").find("_BitInt(40)"), std::string::npos);
  EXPECT_NE(env.error("bi65").find("_BitInt(65)"), std::string::npos);
  EXPECT_NE(env.error("v128").find("128-bit integers"), std::string::npos);
  EXPECT_NE(env.error("odd_param").find("i24"), std::string::npos);
  EXPECT_NE(env.error("odd_ret").find("i24"), std::string::npos);
  EXPECT_NE(env.error("arr128").find("array of integers wider than 64 bits"), std::string::npos);
  EXPECT_NE(env.error("kret").find("must return void"), std::string::npos);
  EXPECT_NE(env.error("kbig").find("_BitInt(65)"), std::string::npos);
  EXPECT_NE(env.error("va").find("function 'va'"), std::string::npos);
}

TEST(NvptxCallconv, Int128DoesNotExistOn32Bit) {
  EXPECT_THROW(Env("void f(__int128 x);", "nvptx-nvidia-cuda").lower("f"), Error);
}

} // namespace
