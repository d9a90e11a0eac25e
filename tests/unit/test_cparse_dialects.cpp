// The front-end's dialects: OpenCL C 2.0 (.cl) and CUDA/HIP kernel declarations (.cu/.hip).
// Sizes are clang-14's (`clang-14 -x cl -cl-std=CL2.0 --target=...`, which includes the OpenCL
// default header).
#include "test_cparse_util.h"

using namespace abikit;
using namespace abikit::cparse_test;

TEST(CParseDialects, LanguageFromPath) {
  EXPECT_EQ(languageForPath("k.cl"), Language::OpenCL);
  EXPECT_EQ(languageForPath("dir/k.cu"), Language::CUDA);
  EXPECT_EQ(languageForPath("k.hip"), Language::HIP);
  EXPECT_EQ(languageForPath("k.h"), Language::C);
  EXPECT_EQ(languageForPath("-"), Language::C);
}

TEST(CParseDialects, OpenCLTypes) {
  const char* src =
      "typedef struct { float4 v; uchar c; half h; long l; bool b; size_t s; int3 i3; "
      "double2 d2; ulong u; } S;\n";
  for (const char* triple : {"amdgcn-amd-amdhsa", "nvptx64-nvidia-cuda", "nvptx-nvidia-cuda"}) {
    SCOPED_TRACE(triple);
    Parsed p = parse(src, triple, Language::OpenCL, {}, "k.cl");
    EXPECT_EQ(p.sizeOf("S"), 96u);
    EXPECT_EQ(p.alignOf("S"), 16u);
    EXPECT_EQ(p.fieldType("S", "v"), "float4");
    EXPECT_EQ(p.fieldType("S", "b"), "bool");
    EXPECT_EQ(p.fieldType("S", "h"), "half");
    auto* v = dyn<VectorType>(stripTypedefs(p.field("S", "i3")->type));
    ASSERT_NE(v, nullptr);
    EXPECT_EQ(v->count, 3u);
    EXPECT_EQ(v->vkind, VectorKind::Ext);
    EXPECT_EQ(p.offsetOf("S", "l"), 24u); // long is 64-bit in OpenCL whatever the target
  }
  Parsed p = parse("struct S { long long x; };\n", "amdgcn-amd-amdhsa", Language::OpenCL);
  EXPECT_EQ(p.sizeOf("S"), 16u); // OpenCL reserves long long as 128-bit
}

TEST(CParseDialects, OpenCLKernels) {
  Parsed p = parse(
      "kernel void k(global float4 *p, __local int *l, constant char *c, read_only image2d_t img,\n"
      "              sampler_t s, int n, __global uchar *restrict r, write_only pipe int pp);\n"
      "__kernel void k2(__private int *x, generic int *g);\nvoid helper(void);\n",
      "amdgcn-amd-amdhsa", LanguageMode(Language::OpenCL, 200), {}, "k.cl");
  const FunctionDecl* k = p.function("k");
  EXPECT_EQ(k->type->fkind, FunctionKind::Kernel);
  ASSERT_EQ(k->type->params.size(), 8u);
  auto as = [&](const FunctionDecl* f, size_t i) {
    return dyn<PointerType>(stripTypedefs(f->type->params[i].type))->address_space;
  };
  EXPECT_EQ(as(k, 0), 1u);
  EXPECT_EQ(as(k, 1), 3u);
  EXPECT_EQ(as(k, 2), 4u);
  auto* img = dyn<OpenCLType>(k->type->params[3].type);
  ASSERT_NE(img, nullptr);
  EXPECT_EQ(img->okind, OpenCLKind::Image2d);
  EXPECT_EQ(img->access, AccessQual::ReadOnly);
  EXPECT_EQ(dyn<OpenCLType>(k->type->params[4].type)->okind, OpenCLKind::Sampler);
  auto* pipe = dyn<OpenCLType>(k->type->params[7].type);
  ASSERT_NE(pipe, nullptr);
  EXPECT_EQ(pipe->okind, OpenCLKind::Pipe);
  EXPECT_EQ(pipe->access, AccessQual::WriteOnly);
  EXPECT_EQ(typeName(pipe->pipe_element, *p.ctx), "int");
  EXPECT_EQ(typeName(k->type, *p.ctx),
            "void (__global float4 *, __local int *, __constant char *, __read_only image2d_t, "
            "sampler_t, int, __global uchar *restrict, __write_only pipe int)");
  const FunctionDecl* k2 = p.function("k2");
  EXPECT_EQ(k2->type->fkind, FunctionKind::Kernel);
  EXPECT_EQ(as(k2, 0), 5u);
  EXPECT_EQ(as(k2, 1), 0u);
  EXPECT_EQ(p.function("helper")->type->fkind, FunctionKind::Normal);
  // On NVPTX __local is the shared space (3) and __private is generic (0).
  Parsed n = parse("kernel void k(__local int *l, __private int *q);\n", "nvptx64-nvidia-cuda",
                   Language::OpenCL);
  EXPECT_EQ(as(n.function("k"), 0), 3u);
  EXPECT_EQ(as(n.function("k"), 1), 0u);
}

TEST(CParseDialects, OpenCLErrors) {
  EXPECT_EQ(errorLine("kernel void k(read_only int x);\n", "amdgcn-amd-amdhsa", Language::OpenCL),
            "test.h:1:15: error: access qualifier can only be used for pipe and image type");
  EXPECT_EQ(errorLine("struct S { kernel int x; };\n", "amdgcn-amd-amdhsa", Language::OpenCL),
            "test.h:1:12: error: 'kernel' can only be used with functions");
  // In C, kernel and global are ordinary identifiers.
  Parsed c = parse("struct S { int kernel; int global; };\n", "amdgcn-amd-amdhsa");
  EXPECT_NE(c.field("S", "kernel"), nullptr);
}

TEST(CParseDialects, CudaAndHipKernels) {
  const char* src =
      "struct S { int a; };\n__global__ void k(int *p, float x);\n__device__ int d(int);\n"
      "__global__ void k2(S s) __launch_bounds__(256);\n"
      "extern \"C\" { __global__ void k3(const S *__restrict__ s); }\n"
      "extern \"C\" int e(bool b);\n__host__ __device__ __forceinline__ int hd(void) { return 0; "
      "}\n";
  for (Language lang : {Language::CUDA, Language::HIP}) {
    Parsed p = parse(src, lang == Language::CUDA ? "nvptx64-nvidia-cuda" : "amdgcn-amd-amdhsa",
                     lang, {}, lang == Language::CUDA ? "k.cu" : "k.hip");
    EXPECT_EQ(p.function("k")->type->fkind, FunctionKind::Kernel);
    EXPECT_EQ(p.function("d")->type->fkind, FunctionKind::Normal);
    EXPECT_EQ(p.function("k2")->type->fkind, FunctionKind::Kernel);
    EXPECT_EQ(p.function("k3")->type->fkind, FunctionKind::Kernel);
    EXPECT_EQ(typeName(p.function("e")->type->params[0].type, *p.ctx), "bool");
    EXPECT_TRUE(p.function("hd")->is_definition);
    // C++: a struct's tag is also a type name.
    EXPECT_EQ(typeName(p.function("k2")->type->params[0].type, *p.ctx), "struct S");
  }
  EXPECT_EQ(errorLine("template <typename T> void f(T);\n", "nvptx64-nvidia-cuda", Language::CUDA),
            "test.h:1:1: error: C++ 'template' is not supported (C declarations only)");
}

TEST(CParseDialects, HipLongDoubleFollowsTheHost) {
  Parsed p = parse("struct S { char c; long double d; };\n", "amdgcn-amd-amdhsa", Language::HIP);
  EXPECT_EQ(p.sizeOf("S"), 32u);
}
