// AMDGPU kernel arguments: golden kernarg segments and .amdgpu_metadata text written by clang-14
// (-cl-kernel-arg-info, gfx906) when the cases were made, for code object V4 and LLVM 14's
// preliminary V5, hidden-argument modes, OpenCL type names and qualifiers, HIP byref and
// coercion, the YAML quoting rules, and the rejections (the CLI is
// tests/cli/test_kernarg_cli.cpp).
#include "abikit/cparse.h"
#include "abikit/diag.h"
#include "abikit/emit.h"
#include "abikit/kernarg.h"

#include <gtest/gtest.h>
#include <memory>

namespace {

using namespace abikit;

// The OpenCL cases were written by clang-14 -cl-std=CL2.0 (test_opencl_std.cpp has what the
// other versions change).
const LanguageMode kCl20(Language::OpenCL, 200);

struct Kernels {
  Target target;
  std::unique_ptr<TypeContext> ctx;
  std::unique_ptr<LayoutEngine> layout;
  TranslationUnit tu;

  Kernels(const std::string& src, LanguageMode lang, const std::string& cpu = "gfx906",
          int co = 4) {
    TargetOptions o;
    o.triple = "amdgcn-amd-amdhsa";
    o.mcpu = cpu;
    o.code_object_version = co;
    target = resolveTarget(o);
    ctx = std::make_unique<TypeContext>(target, lang);
    layout = std::make_unique<LayoutEngine>(*ctx);
    tu = parseSource(*ctx, *layout, "k.cl", src, ParseOptions{});
  }

  KernelArguments get(const std::string& name, HiddenArgs h = HiddenArgs::Auto, bool names = true) {
    KernargOptions o;
    o.hidden = h;
    o.arg_names = names;
    const FunctionDecl* f = tu.findFunction(name);
    EXPECT_NE(f, nullptr);
    return computeKernelArguments(*layout, *f, o);
  }

  std::string yaml(const std::string& name, HiddenArgs h = HiddenArgs::Auto) {
    std::vector<KernelArguments> one{get(name, h)};
    return kernargYaml(target, one);
  }

  std::string error(const std::string& name) {
    try {
      get(name);
    } catch (const Error& e) {
      return e.message();
    }
    return "";
  }
};

// clang-14 -O0 (hidden arguments) and -O1 (none) for the same kernel, every key.
TEST(Kernarg, OpenClKernelV4) {
  Kernels k("#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n"
            "typedef struct { float x; } Single;\n"
            "struct A16 { int a; int b __attribute__((aligned(16))); };\n"
            "__kernel void k1(__global float *p, int n, __local int *l, __constant char *c,\n"
            "  read_only image2d_t img, sampler_t s, Single sg, struct A16 a, float3 f3,\n"
            "  long l8, half h, __global const volatile int * restrict q,\n"
            "  write_only pipe int pp, queue_t qq, clk_event_t ev) {}\n",
            kCl20);
  KernelArguments o1 = k.get("k1");
  ASSERT_EQ(o1.args.size(), 15u);
  EXPECT_EQ(o1.kernarg_segment_size, 144u);
  EXPECT_EQ(o1.kernarg_segment_align, 16u);
  const uint64_t offsets[] = {0, 8, 12, 16, 24, 32, 40, 44, 80, 96, 104, 112, 120, 128, 136};
  for (size_t i = 0; i < 15; ++i) EXPECT_EQ(o1.args[i].offset, offsets[i]) << i;
  EXPECT_EQ(o1.args[2].value_kind, KernargValueKind::DynamicSharedPointer);
  EXPECT_EQ(o1.args[2].pointee_align, 1u);
  EXPECT_EQ(o1.args[3].address_space, KernargAddressSpace::Constant);
  EXPECT_TRUE(o1.args[3].is_const); // a __constant pointee is const
  EXPECT_EQ(o1.args[4].value_kind, KernargValueKind::Image);
  EXPECT_EQ(o1.args[4].access, KernargAccess::ReadOnly);
  EXPECT_EQ(o1.args[6].type_name, "Single"); // the single element decides size 4, align 4
  EXPECT_EQ(o1.args[6].size, 4u);
  EXPECT_EQ(o1.args[7].size, 32u); // struct A16: IR struct alignment 4, not 16
  EXPECT_EQ(o1.args[7].align, 4u);
  EXPECT_TRUE(o1.args[11].is_const && o1.args[11].is_restrict && o1.args[11].is_volatile);
  EXPECT_EQ(o1.args[12].type_name, "int");
  EXPECT_TRUE(o1.args[12].is_pipe);
  EXPECT_EQ(o1.args[12].access, KernargAccess::WriteOnly);
  EXPECT_EQ(o1.args[13].value_kind, KernargValueKind::Queue);
  EXPECT_EQ(o1.args[14].value_kind, KernargValueKind::GlobalBuffer); // clk_event_t

  KernelArguments o0 = k.get("k1", HiddenArgs::All);
  ASSERT_EQ(o0.args.size(), 22u);
  EXPECT_EQ(o0.kernarg_segment_size, 200u);
  EXPECT_EQ(o0.args[15].value_kind, KernargValueKind::HiddenGlobalOffsetX);
  EXPECT_EQ(o0.args[15].offset, 144u);
  EXPECT_EQ(o0.args[18].value_kind, KernargValueKind::HiddenNone);
  EXPECT_EQ(o0.args[18].address_space, KernargAddressSpace::Global);
  EXPECT_EQ(o0.args[21].value_kind, KernargValueKind::HiddenMultigridSyncArg);
  EXPECT_EQ(o0.args[21].offset, 192u);

  EXPECT_EQ(k.get("k1", HiddenArgs::None).kernarg_segment_size, 144u);
}

TEST(Kernarg, HiddenBlockSizes) {
  Kernels k("__kernel void e(void) {}\n__kernel void c(char c) {}\n", kCl20);
  KernelArguments e0 = k.get("e", HiddenArgs::All), e1 = k.get("e");
  EXPECT_EQ(e0.kernarg_segment_size, 56u);
  EXPECT_EQ(e0.kernarg_segment_align, 8u);
  EXPECT_EQ(e1.kernarg_segment_size, 0u);
  EXPECT_EQ(e1.kernarg_segment_align, 4u);
  KernelArguments c0 = k.get("c", HiddenArgs::All), c1 = k.get("c");
  EXPECT_EQ(c0.kernarg_segment_size, 64u);
  EXPECT_EQ(c0.args[1].offset, 8u);
  EXPECT_EQ(c1.kernarg_segment_size, 4u);
  EXPECT_EQ(k.yaml("e"), "---\n"
                         "amdhsa.kernels:\n"
                         "  - .args:           []\n"
                         "    .kernarg_segment_align: 4\n"
                         "    .kernarg_segment_size: 0\n"
                         "    .language:       OpenCL C\n"
                         "    .language_version:\n"
                         "      - 2\n"
                         "      - 0\n"
                         "    .name:           e\n"
                         "    .symbol:         e.kd\n"
                         "amdhsa.target:   amdgcn-amd-amdhsa--gfx906\n"
                         "amdhsa.version:\n"
                         "  - 1\n"
                         "  - 1\n"
                         "...\n");
}

// llc-14 --amdhsa-code-object-version=5: the V5 kinds at their offsets, the block counted as 56
// bytes at -O0 and not at all at -O1; GFX8 lists the aperture bases, -O1 drops the queue pointer.
TEST(Kernarg, PreliminaryCodeObjectV5) {
  const char* src = "__kernel void k(__global int *p) {}\n__kernel void c(char c) {}\n";
  Kernels g9(src, kCl20, "gfx906", 5);
  KernelArguments a0 = g9.get("k", HiddenArgs::All);
  ASSERT_EQ(a0.args.size(), 16u);
  EXPECT_EQ(a0.args[1].value_kind, KernargValueKind::HiddenBlockCountX);
  EXPECT_EQ(a0.args[1].offset, 8u);
  EXPECT_EQ(a0.args[10].value_kind, KernargValueKind::HiddenGlobalOffsetX);
  EXPECT_EQ(a0.args[10].offset, 48u);
  EXPECT_EQ(a0.args[13].value_kind, KernargValueKind::HiddenGridDims);
  EXPECT_EQ(a0.args[13].offset, 72u);
  EXPECT_EQ(a0.args[14].value_kind, KernargValueKind::HiddenMultigridSyncArg);
  EXPECT_EQ(a0.args[14].offset, 96u);
  EXPECT_EQ(a0.args[15].value_kind, KernargValueKind::HiddenQueuePtr);
  EXPECT_EQ(a0.args[15].offset, 208u);
  EXPECT_EQ(a0.kernarg_segment_size, 64u);
  KernelArguments a1 = g9.get("k");
  EXPECT_EQ(a1.args.size(), 15u);
  EXPECT_EQ(a1.kernarg_segment_size, 8u);
  // A 1-byte explicit argument: the block count starts 4-aligned (LLVM 14), the rest agrees.
  KernelArguments c1 = g9.get("c");
  EXPECT_EQ(c1.args[1].offset, 4u);
  EXPECT_EQ(c1.args[10].offset, 48u);
  EXPECT_EQ(c1.kernarg_segment_size, 4u);
  EXPECT_EQ(c1.kernarg_segment_align, 4u);
  Kernels g8(src, kCl20, "gfx803", 5);
  KernelArguments b1 = g8.get("k");
  ASSERT_EQ(b1.args.size(), 17u);
  EXPECT_EQ(b1.args[15].value_kind, KernargValueKind::HiddenPrivateBase);
  EXPECT_EQ(b1.args[15].offset, 200u);
  EXPECT_EQ(b1.args[16].value_kind, KernargValueKind::HiddenSharedBase);
  EXPECT_NE(g9.yaml("k").find("amdhsa.version:\n  - 1\n  - 2\n"), std::string::npos);
}

TEST(Kernarg, OpenClTypeNames) {
  Kernels k("typedef unsigned int myuint;\n"
            "typedef struct S { int a; } S_t;\n"
            "typedef __global int * gptr;\n"
            "enum E { E0 };\n"
            "__kernel void t(unsigned int a, uint b, signed char d, myuint e, S_t f, struct S g,\n"
            "  __global unsigned int *h, __global myuint *i, gptr j, uint4 l, enum E n,\n"
            "  unsigned long q, __global void *s, __global const char * const v,\n"
            "  __global int * __global *w, __global float (*dd)[4],\n"
            "  __local const float (*ca)[2], read_write image3d_t ee, read_only pipe float4 gg,\n"
            "  const int bb) {}\n",
            kCl20);
  KernelArguments t = k.get("t");
  const char* names[] = {"uint",
                         "uint",
                         "char",
                         "myuint",
                         "S_t",
                         "struct S",
                         "uint*",
                         "myuint*",
                         "int*",
                         "uint4",
                         "enum E",
                         "ulong",
                         "void*",
                         "char*",
                         "__global int **",
                         "__global float[4]*",
                         "const __local float[2]*",
                         "image3d_t",
                         "float4",
                         "int"};
  ASSERT_EQ(t.args.size(), std::size(names));
  for (size_t i = 0; i < std::size(names); ++i) EXPECT_EQ(t.args[i].type_name, names[i]) << i;
  EXPECT_TRUE(t.args[13].is_const);  // pointee const; the pointer's own const is not reported
  EXPECT_TRUE(t.args[16].is_const);  // an array pointee is as const as its elements
  EXPECT_FALSE(t.args[19].is_const); // by-value qualifiers are not reported
  EXPECT_EQ(t.args[17].access, KernargAccess::ReadWrite);
}

TEST(Kernarg, YamlNamesThatReadAsOtherScalars) {
  Kernels k("__kernel void y(int n, int on, int null, int inf, int True, int plain) {}\n", kCl20);
  std::string y = k.yaml("y");
  for (const char* line : {".name:           !str n\n", ".name:           !str on\n",
                           ".name:           'null'\n", ".name:           !str inf\n",
                           ".name:           !str 'True'\n", ".name:           plain\n"})
    EXPECT_NE(y.find(line), std::string::npos) << line << y;
  EXPECT_NE(y.find(".type_name:      int\n"), std::string::npos);
  // Without names, as clang-14 prints it without -cl-kernel-arg-info.
  EXPECT_TRUE(k.get("y", HiddenArgs::Auto, false).args[0].name.empty());
}

TEST(Kernarg, HipByrefCoercionAndNames) {
  Kernels k("struct A16 { int a; int b __attribute__((aligned(16))); };\n"
            "struct S1 { float x; };\nstruct S3 { char a, b, c; };\n"
            "struct SP { int *p; };\n"
            "extern \"C\" __global__ void hk(int *p, char c, A16 a, S1 s, bool b, __int128 i,\n"
            "  S3 s3, long double ld, SP sp, __attribute__((address_space(3))) double *lp) {}\n",
            Language::HIP);
  KernelArguments h = k.get("hk");
  ASSERT_EQ(h.args.size(), 10u);
  const uint64_t offsets[] = {0, 8, 16, 48, 52, 56, 72, 80, 88, 96};
  const uint64_t sizes[] = {8, 1, 32, 4, 1, 16, 3, 8, 8, 4};
  const char* names[] = {"p.coerce", "c", "", "s.coerce", "b", "i", "", "ld", "sp.coerce", "lp"};
  for (size_t i = 0; i < 10; ++i) {
    EXPECT_EQ(h.args[i].offset, offsets[i]) << i;
    EXPECT_EQ(h.args[i].size, sizes[i]) << i;
    EXPECT_EQ(h.args[i].name, names[i]) << i;
    EXPECT_EQ(h.args[i].type_name, "") << i;
  }
  EXPECT_EQ(h.args[0].address_space, KernargAddressSpace::Global); // generic made global
  EXPECT_EQ(h.args[8].value_kind, KernargValueKind::GlobalBuffer); // {int *} is its pointer
  EXPECT_EQ(h.args[9].value_kind, KernargValueKind::DynamicSharedPointer);
  EXPECT_EQ(h.kernarg_segment_size, 100u);
  EXPECT_EQ(h.kernarg_segment_align, 16u);
}

TEST(Kernarg, Rejections) {
  Kernels k("#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n"
            "struct P { __global int *p; };\nstruct B { bool b; };\n"
            "__kernel void b(bool x) {}\n__kernel void s(size_t n) {}\n"
            "__kernel void e(event_t ev) {}\n__kernel void g(int *gp) {}\n"
            "__kernel void pr(__private int *pp) {}\n__kernel void sp(struct P p) {}\n"
            "__kernel void sb(struct B x) {}\n__kernel int r(void) { return 0; }\n"
            "void notk(int a) {}\n__kernel void m(read_only image2d_msaa_t i) {}\n",
            kCl20);
  EXPECT_NE(k.error("b").find("cannot be the type of an OpenCL kernel parameter"),
            std::string::npos);
  EXPECT_NE(k.error("s").find("size_t"), std::string::npos);
  EXPECT_NE(k.error("e").find("event_t"), std::string::npos);
  EXPECT_NE(k.error("g").find("'__global', '__constant' or '__local'"), std::string::npos);
  EXPECT_NE(k.error("pr").find("'__global', '__constant' or '__local'"), std::string::npos);
  EXPECT_NE(k.error("sp").find("may not contain pointers"), std::string::npos);
  EXPECT_NE(k.error("sb").find("field 'b'"), std::string::npos);
  EXPECT_NE(k.error("r").find("must return void"), std::string::npos);
  EXPECT_NE(k.error("notk").find("is not a kernel"), std::string::npos);
  EXPECT_NE(k.error("m").find("msaa"), std::string::npos);
  Kernels big("struct G { char c[3000000000]; };\n"
              "__kernel void g(struct G a, struct G b) {}\n",
              kCl20);
  EXPECT_NE(big.error("g").find("4 GiB"), std::string::npos);
  // Errors carry the parameter's position.
  try {
    k.get("b");
    FAIL();
  } catch (const Error& e) {
    EXPECT_TRUE(e.hasSourcePosition());
    EXPECT_EQ(e.line(), 4u);
  }
}

} // namespace
