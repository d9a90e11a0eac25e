// `abikit ptx`: PTX prototypes byte for byte as the compilers print them. Every expected text
// below was produced by the real tools and copied verbatim:
//  - llc-14 through `clang-14 -target nvptx64-nvidia-cuda -S -O1` (definitions, and callers for
//    the `.extern .func` declarations), nvptx-nvidia-cuda the same way;
//  - kernels: the same C compiled to IR whose functions were given the ptx_kernel calling
//    convention, then `llc-14 -O1` (clang-14 ignores __attribute__((nvptx_kernel)));
//  - nvptx64-nvidia-nvcl: `clang-14 -target nvptx64-nvidia-nvcl -x cl -cl-std=CL1.2 -S -O1`;
//  - --ptx-style=nvcc: `nvcc -arch=sm_75 --ptx -rdc=true` (CUDA 13.0) with extern "C".
// tests/differential/diff_ptx.cpp checks random prototypes the same way on every run.
#include "abikit/cparse.h"
#include "abikit/diag.h"
#include "abikit/emit.h"

#include <gtest/gtest.h>
#include <memory>

namespace {

using namespace abikit;

struct Env {
  Target target;
  std::unique_ptr<TypeContext> ctx;
  std::unique_ptr<LayoutEngine> layout;
  TranslationUnit tu;

  Env(const std::string& text, const char* triple = "nvptx64-nvidia-cuda", const char* mcpu = "",
      LanguageMode lang = Language::C) {
    TargetOptions o;
    o.triple = triple;
    o.mcpu = mcpu;
    o.compiler = "clang-14"; // test_nvptx_compilers.cpp has what clang-19 and clang-22 change
    target = resolveTarget(o);
    ctx = std::make_unique<TypeContext>(target, lang);
    layout = std::make_unique<LayoutEngine>(*ctx);
    tu = parseSource(*ctx, *layout, "t.h", text, ParseOptions{});
  }

  std::string ptx(std::vector<const char*> names, PtxOptions o = {}) {
    std::vector<const FunctionDecl*> fns;
    for (const char* n : names) {
      fns.push_back(tu.findFunction(n));
      EXPECT_NE(fns.back(), nullptr) << n;
    }
    return ptxPrototypes(*ctx, *layout, fns, o);
  }
  std::string ptx(const char* name, PtxOptions o = {}) { return ptx(std::vector{name}, o); }

  std::string error(std::vector<const char*> names, PtxOptions o = {}) {
    try {
      ptx(names, o);
    } catch (const Error& e) {
      return e.message();
    }
    return "(no error)";
  }
  std::string error(const char* name, PtxOptions o = {}) { return error(std::vector{name}, o); }
};

PtxOptions module() {
  PtxOptions o;
  o.module = true;
  return o;
}
PtxOptions nvcc() {
  PtxOptions o;
  o.style = PtxStyle::Nvcc;
  return o;
}

const char* const kTypes = R"(
struct S3 { char a, b, c; };
struct Seed { double dbl; char c[4]; };
struct __attribute__((packed)) PL { long long x; };
struct AL { int a __attribute__((aligned(16))); };
union U { char c; short s; int x : 3; };
struct BF { char a; int b : 20; };
struct E {};
struct Big { char a[200]; };
struct Huge { char c; } __attribute__((aligned(256)));
typedef struct S3 S3A __attribute__((aligned(8)));
typedef float float3 __attribute__((ext_vector_type(3)));
typedef char char3 __attribute__((ext_vector_type(3)));
typedef short short2 __attribute__((vector_size(4)));
typedef double double4 __attribute__((ext_vector_type(4)));
enum __attribute__((packed)) Small { SA = 1, SB = 200 };
)";

const char* const kFunctions = R"(
char scalars(_Bool b, char c, unsigned char uc, short s, unsigned short us, int i, long l,
             long long ll, float f, double d, long double ld, void *p, enum Small e) { return c; }
__int128 wide(__int128 a, unsigned __int128 b) { return a; }
void nothing(void) {}
int answer(void) { return 42; }
struct S3 s3(struct S3 x, char c) { return x; }
struct Seed seed(struct Seed x) { return x; }
struct PL pl(struct PL x) { return x; }
struct AL al(struct AL x) { return x; }
union U un(union U x) { return x; }
struct BF bf(struct BF x) { return x; }
_Complex float cf(_Complex float x, _Complex char y) { return x; }
float3 vec(float3 a, char3 b, short2 c, double4 d) { return a; }
_BitInt(7) bi(_BitInt(7) a, unsigned _BitInt(1) b, _BitInt(32) c, _BitInt(128) d) { return a; }
struct E empty_ret(struct E e, int x) { return e; }
static int internal(int x) { return x * 3; }
int ext(int, struct S3);
void ext_void(void);
struct S3 ext_agg(short);
__attribute__((nvptx_kernel)) void kern(_Bool b, char c, unsigned char uc, short s, int i, long l,
    long long ll, float f, double d, long double ld, int *p, struct S3 x, __int128 w, float3 v,
    _Complex double z, unsigned _BitInt(1) one, _BitInt(64) b64, struct E e);
__attribute__((nvptx_kernel)) void kern0(void);
)";

struct Golden {
  const char* fn;
  const char* text;
};

// llc-14, nvptx64-nvidia-cuda.
const Golden kLlc64[] = {
    {"scalars", ".visible .func  (.param .b32 func_retval0) scalars(\n"
                "\t.param .b32 scalars_param_0,\n"
                "\t.param .b32 scalars_param_1,\n"
                "\t.param .b32 scalars_param_2,\n"
                "\t.param .b32 scalars_param_3,\n"
                "\t.param .b32 scalars_param_4,\n"
                "\t.param .b32 scalars_param_5,\n"
                "\t.param .b64 scalars_param_6,\n"
                "\t.param .b64 scalars_param_7,\n"
                "\t.param .b32 scalars_param_8,\n"
                "\t.param .b64 scalars_param_9,\n"
                "\t.param .b64 scalars_param_10,\n"
                "\t.param .b64 scalars_param_11,\n"
                "\t.param .b32 scalars_param_12\n"
                ")\n"},
    {"wide", ".visible .func  (.param .align 16 .b8 func_retval0[16]) wide(\n"
             "\t.param .align 16 .b8 wide_param_0[16],\n"
             "\t.param .align 16 .b8 wide_param_1[16]\n"
             ")\n"},
    {"nothing", ".visible .func nothing()\n"},
    {"answer", ".visible .func  (.param .b32 func_retval0) answer()\n"},
    {"s3", ".visible .func  (.param .align 1 .b8 func_retval0[3]) s3(\n"
           "\t.param .align 4 .b8 s3_param_0[3],\n"
           "\t.param .b32 s3_param_1\n"
           ")\n"},
    {"seed", ".visible .func  (.param .align 8 .b8 func_retval0[16]) seed(\n"
             "\t.param .align 8 .b8 seed_param_0[16]\n"
             ")\n"},
    {"pl", ".visible .func  (.param .align 8 .b8 func_retval0[8]) pl(\n"
           "\t.param .align 4 .b8 pl_param_0[8]\n"
           ")\n"},
    {"al", ".visible .func  (.param .align 4 .b8 func_retval0[16]) al(\n"
           "\t.param .align 16 .b8 al_param_0[16]\n"
           ")\n"},
    {"un", ".visible .func  (.param .align 2 .b8 func_retval0[4]) un(\n"
           "\t.param .align 4 .b8 un_param_0[4]\n"
           ")\n"},
    {"bf", ".visible .func  (.param .align 1 .b8 func_retval0[4]) bf(\n"
           "\t.param .align 4 .b8 bf_param_0[4]\n"
           ")\n"},
    {"cf", ".visible .func  (.param .align 4 .b8 func_retval0[8]) cf(\n"
           "\t.param .align 4 .b8 cf_param_0[8],\n"
           "\t.param .align 4 .b8 cf_param_1[2]\n"
           ")\n"},
    {"vec", ".visible .func  (.param .align 16 .b8 func_retval0[16]) vec(\n"
            "\t.param .align 16 .b8 vec_param_0[16],\n"
            "\t.param .align 4 .b8 vec_param_1[4],\n"
            "\t.param .align 4 .b8 vec_param_2[4],\n"
            "\t.param .align 32 .b8 vec_param_3[32]\n"
            ")\n"},
    {"bi", ".visible .func  (.param .b32 func_retval0) bi(\n"
           "\t.param .b32 bi_param_0,\n"
           "\t.param .b32 bi_param_1,\n"
           "\t.param .b32 bi_param_2,\n"
           "\t.param .align 16 .b8 bi_param_3[16]\n"
           ")\n"},
    {"empty_ret", ".visible .func  (.param .align 1 .b8 func_retval0[0]) empty_ret(\n"
                  "\t.param .align 4 .b8 empty_ret_param_0[0],\n"
                  "\t.param .b32 empty_ret_param_1\n"
                  ")\n"},
    {"internal", ".func  (.param .b32 func_retval0) internal(\n"
                 "\t.param .b32 internal_param_0\n"
                 ")\n"},
    {"ext", ".extern .func  (.param .b32 func_retval0) ext\n"
            "(\n"
            "\t.param .b32 ext_param_0,\n"
            "\t.param .align 4 .b8 ext_param_1[3]\n"
            ")\n"
            ";\n"},
    {"ext_void", ".extern .func ext_void\n"
                 "()\n"
                 ";\n"},
    {"ext_agg", ".extern .func  (.param .align 1 .b8 func_retval0[3]) ext_agg\n"
                "(\n"
                "\t.param .b32 ext_agg_param_0\n"
                ")\n"
                ";\n"},
    {"kern", ".visible .entry kern(\n"
             "\t.param .u8 kern_param_0,\n"
             "\t.param .u8 kern_param_1,\n"
             "\t.param .u8 kern_param_2,\n"
             "\t.param .u16 kern_param_3,\n"
             "\t.param .u32 kern_param_4,\n"
             "\t.param .u64 kern_param_5,\n"
             "\t.param .u64 kern_param_6,\n"
             "\t.param .f32 kern_param_7,\n"
             "\t.param .f64 kern_param_8,\n"
             "\t.param .f64 kern_param_9,\n"
             "\t.param .u64 kern_param_10,\n"
             "\t.param .align 1 .b8 kern_param_11[3],\n"
             "\t.param .align 16 .b8 kern_param_12[16],\n"
             "\t.param .align 16 .b8 kern_param_13[16],\n"
             "\t.param .align 8 .b8 kern_param_14[16],\n"
             "\t.param .u8 kern_param_15,\n"
             "\t.param .u64 kern_param_16,\n"
             "\t.param .align 1 .b8 kern_param_17[0]\n"
             ")\n"},
    {"kern0", ".visible .entry kern0()\n"},
};

TEST(Ptx, Llc14Nvptx64) {
  Env env(std::string(kTypes) + kFunctions);
  for (const Golden& g : kLlc64) EXPECT_EQ(env.ptx(g.fn), g.text) << g.fn;
}

TEST(Ptx, SeveralPrototypesAreSeparatedByABlankLine) {
  Env env(std::string(kTypes) + kFunctions);
  EXPECT_EQ(env.ptx({"nothing", "ext_void", "nothing"}),
            ".visible .func nothing()\n\n.extern .func ext_void\n()\n;\n");
}

TEST(Ptx, Llc14Nvptx32) {
  Env env("struct S3 { char a, b, c; };\n"
          "long longs(long a, long long b, void *p, void (*fp)(void)) { return a; }\n"
          "_BitInt(128) wide(_BitInt(128) a, unsigned _BitInt(128) b) { return a; }\n"
          "struct S3 agg(struct S3 x) { return x; }\n"
          "__attribute__((nvptx_kernel)) void kern32(int *p, long l, long long ll, struct S3 s, "
          "_BitInt(128) w) {}\n",
          "nvptx-nvidia-cuda");
  EXPECT_EQ(env.ptx("longs"), ".visible .func  (.param .b32 func_retval0) longs(\n"
                              "\t.param .b32 longs_param_0,\n"
                              "\t.param .b64 longs_param_1,\n"
                              "\t.param .b32 longs_param_2,\n"
                              "\t.param .b32 longs_param_3\n"
                              ")\n");
  EXPECT_EQ(env.ptx("wide"), ".visible .func  (.param .align 16 .b8 func_retval0[16]) wide(\n"
                             "\t.param .align 8 .b8 wide_param_0[16],\n"
                             "\t.param .align 8 .b8 wide_param_1[16]\n"
                             ")\n");
  EXPECT_EQ(env.ptx("agg"), ".visible .func  (.param .align 1 .b8 func_retval0[3]) agg(\n"
                            "\t.param .align 4 .b8 agg_param_0[3]\n"
                            ")\n");
  EXPECT_EQ(env.ptx("kern32"), ".visible .entry kern32(\n"
                               "\t.param .u32 kern32_param_0,\n"
                               "\t.param .u32 kern32_param_1,\n"
                               "\t.param .u64 kern32_param_2,\n"
                               "\t.param .align 1 .b8 kern32_param_3[3],\n"
                               "\t.param .align 8 .b8 kern32_param_4[16]\n"
                               ")\n");
}

TEST(Ptx, OpenClDriverInterface) {
  // nvptx64-nvidia-nvcl: no linkage directives; kernel pointers carry their state space and
  // the pointee's OpenCL alignment.
  Env env("typedef struct { char a; double d; } S;\n"
          "__kernel void k(__global int *a, __local char *b, __constant double *c, __global S *s, "
          "__global float4 *v, __global void *vp, int x, char c2, __global char3 *c3) {}\n"
          "int dev(int a);\n"
          "int call_dev(int x) { return dev(x) + 1; }\n"
          "static int st(int a) { return a; }\n",
          "nvptx64-nvidia-nvcl", "", Language::OpenCL);
  EXPECT_EQ(env.ptx("k"), ".entry k(\n"
                          "\t.param .u64 .ptr .global .align 4 k_param_0,\n"
                          "\t.param .u64 .ptr .shared .align 1 k_param_1,\n"
                          "\t.param .u64 .ptr .const .align 8 k_param_2,\n"
                          "\t.param .u64 .ptr .global .align 8 k_param_3,\n"
                          "\t.param .u64 .ptr .global .align 16 k_param_4,\n"
                          "\t.param .u64 .ptr .global .align 1 k_param_5,\n"
                          "\t.param .u32 k_param_6,\n"
                          "\t.param .u8 k_param_7,\n"
                          "\t.param .u64 .ptr .global .align 4 k_param_8\n"
                          ")\n");
  EXPECT_EQ(env.ptx("dev"), ".func  (.param .b32 func_retval0) dev\n(\n"
                            "\t.param .b32 dev_param_0\n)\n;\n");
  EXPECT_EQ(env.ptx("call_dev"), ".func  (.param .b32 func_retval0) call_dev(\n"
                                 "\t.param .b32 call_dev_param_0\n)\n");
  EXPECT_EQ(env.ptx("st"), ".func  (.param .b32 func_retval0) st(\n\t.param .b32 st_param_0\n)\n");
  // A module declares externs as such (ptxas wants an undecorated declaration defined).
  std::string m = env.ptx({"k", "dev"}, module());
  EXPECT_NE(m.find(".target sm_20, texmode_independent\n"), std::string::npos);
  EXPECT_NE(m.find(".extern .func  (.param .b32 func_retval0) dev\n"), std::string::npos);
}

TEST(Ptx, NvccStyle) {
  // nvcc 13: aggregates at their C alignment (a typedef's included) for parameters and return
  // values alike, no floor of 4, except device parameters over 128 bytes (aligned to 4).
  Env env(std::string(kTypes) +
          "struct S3 s3(struct S3 x, char c, _Bool b) { return x; }\n"
          "struct PL pl(struct PL x) { return x; }\n"
          "struct AL al(struct AL x) { return x; }\n"
          "struct BF bf(struct BF x) { return x; }\n"
          "int big(struct Big x) { return 0; }\n"
          "S3A s3a(S3A x) { return x; }\n"
          "_Complex float cf(_Complex float x) { return x; }\n"
          "__int128 wide(__int128 a) { return a; }\n"
          "long double ld(long double a, void *p) { return a; }\n"
          "int ext(struct S3 s, short h);\n"
          "__attribute__((nvptx_kernel)) void kern(struct S3 x, struct Big b, int *p, char c, "
          "float f, double d) {}\n");
  const Golden want[] = {
      {"s3", ".visible .func  (.param .align 1 .b8 func_retval0[3]) s3(\n"
             "\t.param .align 1 .b8 s3_param_0[3],\n"
             "\t.param .b32 s3_param_1,\n"
             "\t.param .b32 s3_param_2\n"
             ")\n"},
      {"pl", ".visible .func  (.param .align 1 .b8 func_retval0[8]) pl(\n"
             "\t.param .align 1 .b8 pl_param_0[8]\n"
             ")\n"},
      {"al", ".visible .func  (.param .align 16 .b8 func_retval0[16]) al(\n"
             "\t.param .align 16 .b8 al_param_0[16]\n"
             ")\n"},
      {"bf", ".visible .func  (.param .align 4 .b8 func_retval0[4]) bf(\n"
             "\t.param .align 4 .b8 bf_param_0[4]\n"
             ")\n"},
      {"big", ".visible .func  (.param .b32 func_retval0) big(\n"
              "\t.param .align 4 .b8 big_param_0[200]\n"
              ")\n"},
      {"s3a", ".visible .func  (.param .align 8 .b8 func_retval0[3]) s3a(\n"
              "\t.param .align 8 .b8 s3a_param_0[3]\n"
              ")\n"},
      {"cf", ".visible .func  (.param .align 4 .b8 func_retval0[8]) cf(\n"
             "\t.param .align 4 .b8 cf_param_0[8]\n"
             ")\n"},
      {"wide", ".visible .func  (.param .align 16 .b8 func_retval0[16]) wide(\n"
               "\t.param .align 16 .b8 wide_param_0[16]\n"
               ")\n"},
      {"ld", ".visible .func  (.param .b64 func_retval0) ld(\n"
             "\t.param .b64 ld_param_0,\n"
             "\t.param .b64 ld_param_1\n"
             ")\n"},
      {"ext", ".extern .func  (.param .b32 func_retval0) ext\n"
              "(\n"
              "\t.param .align 1 .b8 ext_param_0[3],\n"
              "\t.param .b32 ext_param_1\n"
              ")\n"
              ";\n"},
      {"kern", ".visible .entry kern(\n"
               "\t.param .align 1 .b8 kern_param_0[3],\n"
               "\t.param .align 1 .b8 kern_param_1[200],\n"
               "\t.param .u64 kern_param_2,\n"
               "\t.param .u8 kern_param_3,\n"
               "\t.param .f32 kern_param_4,\n"
               "\t.param .f64 kern_param_5\n"
               ")\n"},
  };
  for (const Golden& g : want) EXPECT_EQ(env.ptx(g.fn, nvcc()), g.text) << g.fn;
}

TEST(Ptx, NvccStyleRejectsWhatNvccDoesNotShareWithC) {
  Env env(std::string(kTypes) +
          "struct LD { char c; long double x; };\n"
          "struct __attribute__((packed)) ZW { char c; int : 0; char d; };\n"
          "#pragma pack(push, 1)\nstruct PA { char c; int i __attribute__((aligned(2))); };\n"
          "#pragma pack(pop)\n"
          "typedef void *P2 __attribute__((aligned(2)));\n"
          "struct TR { char c; P2 p; };\n"
          "void v(float3 x);\nvoid vp(short2 *x);\nvoid e(struct E x);\nvoid b(_BitInt(8) x);\n"
          "void ld(struct LD x);\nvoid zw(struct ZW x);\nvoid pa(struct PA x);\n"
          "void tr(struct TR x);\nvoid ci(_Complex int x);\nstatic void st(int x) {}\n");
  const std::pair<const char*, const char*> want[] = {
      {"v", "vector"},    {"vp", "vector"},      {"e", "empty"},
      {"b", "_BitInt"},   {"ld", "long double"}, {"zw", "zero-width"},
      {"pa", "aligned"},  {"tr", "typedef"},     {"ci", "floating types only"},
      {"st", "mangling"},
  };
  for (const auto& [fn, text] : want)
    EXPECT_NE(env.error(fn, nvcc()).find(text), std::string::npos)
        << fn << ": " << env.error(fn, nvcc());
  Env thirty_two("void f(int x);", "nvptx-nvidia-cuda");
  EXPECT_NE(thirty_two.error("f", nvcc()).find("64-bit PTX only"), std::string::npos);
}

TEST(Ptx, Rejections) {
  Env env(std::string(kTypes) + kFunctions +
          "void huge(struct Huge h);\n"
          "struct Huge huge_ret(void);\n"
          "__attribute__((nvptx_kernel)) void khuge(struct Huge h);\n"
          "__attribute__((nvptx_kernel)) void kbi(_BitInt(7) x);\n"
          "static __attribute__((nvptx_kernel)) void kstatic(int x) {}\n"
          "int va(int, ...);\n");
  EXPECT_NE(env.error("huge").find(".align 256"), std::string::npos);
  // Returned at its IR type's alignment ({ i8, [255 x i8] }), which ptxas accepts.
  EXPECT_EQ(env.ptx("huge_ret"), ".extern .func  (.param .align 1 .b8 func_retval0[256]) "
                                 "huge_ret\n()\n;\n");
  // A kernel's parameters may be aligned above 128 (ptxas accepts any power of two there).
  EXPECT_EQ(env.ptx("khuge"),
            ".visible .entry khuge(\n\t.param .align 256 .b8 khuge_param_0[256]\n)\n");
  EXPECT_NE(env.error("kbi").find(".u7"), std::string::npos);
  EXPECT_NE(env.error("kstatic").find("static kernel"), std::string::npos);
  EXPECT_NE(env.error("va").find("variadic"), std::string::npos);
  Env amd("void f(int x);", "amdgcn-amd-amdhsa");
  EXPECT_NE(amd.error("f").find("need an NVPTX target"), std::string::npos);
}

TEST(Ptx, Module) {
  Env env(std::string(kTypes) + kFunctions, "nvptx64-nvidia-cuda", "sm_75");
  EXPECT_EQ(env.ptx({"ext", "s3", "internal", "kern0", "ext"}, module()),
            "//\n"
            "// Generated by abikit: PTX prototypes as llc-14 prints them\n"
            "//\n"
            "\n"
            ".version 6.3\n"
            ".target sm_75\n"
            ".address_size 64\n"
            "\n"
            ".extern .func  (.param .b32 func_retval0) ext\n"
            "(\n"
            "\t.param .b32 ext_param_0,\n"
            "\t.param .align 4 .b8 ext_param_1[3]\n"
            ")\n"
            ";\n"
            "\n"
            "\t// .globl\ts3\n"
            ".visible .func  (.param .align 1 .b8 func_retval0[3]) s3(\n"
            "\t.param .align 4 .b8 s3_param_0[3],\n"
            "\t.param .b32 s3_param_1\n"
            ")\n"
            "{\n\n\n\tret;\n\n}\n"
            ".func  (.param .b32 func_retval0) internal(\n"
            "\t.param .b32 internal_param_0\n"
            ")\n"
            "{\n\n\n\tret;\n\n}\n"
            "\t// .globl\tkern0\n"
            ".visible .entry kern0()\n"
            "{\n\n\n\tret;\n\n}\n");
}

TEST(Ptx, ModuleRejectsWhatPtxasRejects) {
  const std::string text = std::string(kTypes) + kFunctions +
                           "void last_empty(int x, struct E e) {}\n"
                           "void first_empty(struct E e, int x) {}\n"
                           "__attribute__((nvptx_kernel)) void kempty(struct E e) {}\n"
                           "__attribute__((nvptx_kernel)) void kbig(struct Big a, struct Big b, "
                           "struct Big c, struct Big d, struct Big e, struct Big f, "
                           "struct Big g, struct Big h, struct Big i, struct Big j, "
                           "struct Big k, struct Big l, struct Big m, struct Big n, "
                           "struct Big o, struct Big p, struct Big q, struct Big r, "
                           "struct Big s, struct Big t, struct Big u, struct Big v) {}\n"
                           "int _(int x) { return x; }\n";
  Env sm20(text);
  Env sm75(text, "nvptx64-nvidia-cuda", "sm_75");
  Env sm100(text, "nvptx64-nvidia-cuda", "sm_100");
  EXPECT_NE(sm75.error("empty_ret", module()).find("Output parameter cannot be an incomplete"),
            std::string::npos);
  EXPECT_NE(sm20.error("last_empty", module()).find("PTX ISA 6.0"), std::string::npos);
  EXPECT_NE(sm75.ptx("last_empty", module()).find("last_empty_param_1[0]"), std::string::npos);
  EXPECT_NE(sm75.error("first_empty", module()).find("only as the last parameter"),
            std::string::npos);
  EXPECT_NE(sm75.error("kempty", module()).find("incomplete array"), std::string::npos);
  // 22 x 200 bytes: over 4352 bytes of kernel parameters before PTX 8.1, fine from 8.1.
  EXPECT_NE(sm75.error("kbig", module()).find("at most 4352 bytes"), std::string::npos);
  EXPECT_NE(sm100.ptx("kbig", module()).find(".target sm_100\n"), std::string::npos);
  EXPECT_NE(sm75.error("_", module()).find("not a valid PTX identifier"), std::string::npos);
  EXPECT_EQ(sm75.ptx("_"), ".visible .func  (.param .b32 func_retval0) _(\n"
                           "\t.param .b32 __param_0\n)\n"); // as llc-14 prints it
  Env thirty_two("void f(int x);", "nvptx-nvidia-cuda");
  EXPECT_NE(thirty_two.error("f", module()).find("32-Bit compilation is no longer supported"),
            std::string::npos);
}

} // namespace
