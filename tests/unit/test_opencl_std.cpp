// OpenCL C versions (-cl-std): what each changes, as clang-14/19/22 do. Checked with
// `clang-N -target T -x cl -cl-std=V -nogpulib` (-E -dM for macros, -emit-llvm for sizes and
// parameter types, -fsyntax-only for what is refused); tests/differential/diff_opencl_std.cpp
// compares random records with clang.
#include "abikit/diag.h"
#include "abikit/emit.h"
#include "abikit/kernarg.h"
#include "test_cparse_util.h"

#include <map>

using namespace abikit;
using namespace abikit::cparse_test;

namespace {

Target targetFor(const char* triple, const char* compiler) {
  TargetOptions o;
  o.triple = triple;
  o.compiler = compiler;
  return resolveTarget(o);
}

std::map<std::string, std::string> macros(const Target& t, LanguageMode mode) {
  std::map<std::string, std::string> m;
  for (auto& [name, value] : predefinedMacros(t, mode)) m[name] = value;
  return m;
}

LanguageMode cl(uint16_t v) {
  return LanguageMode(Language::OpenCL, v);
}

} // namespace

TEST(OpenCLStd, ParsesClangSpellings) {
  EXPECT_EQ(parseOpenCLStandard("CL1.0"), 100);
  EXPECT_EQ(parseOpenCLStandard("cl"), 100);
  EXPECT_EQ(parseOpenCLStandard("cl1.1"), 110);
  EXPECT_EQ(parseOpenCLStandard("CL1.2"), 120);
  EXPECT_EQ(parseOpenCLStandard("CL2.0"), 200);
  EXPECT_EQ(parseOpenCLStandard("cl3.0"), 300);
  EXPECT_THROW(parseOpenCLStandard("CL2.1"), Error);
  EXPECT_THROW(parseOpenCLStandard(""), Error);
  try {
    parseOpenCLStandard("clc++2021");
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(e.message().find("C++ for OpenCL is not supported"), std::string::npos);
  }
  EXPECT_EQ(LanguageMode(Language::OpenCL).opencl_version, 120); // clang's default
}

// __OPENCL_C_VERSION__ and the generic address space's feature macro; clang defines neither
// __OPENCL_VERSION__ nor __IMAGE_SUPPORT__.
TEST(OpenCLStd, VersionMacros) {
  const Target amd = targetFor("amdgcn-amd-amdhsa", "clang-14");
  for (uint16_t v : {100, 110, 120, 200, 300}) {
    auto m = macros(amd, cl(v));
    EXPECT_EQ(m["__OPENCL_C_VERSION__"], std::to_string(v));
    EXPECT_EQ(m["CL_VERSION_3_0"], "300");
    EXPECT_EQ(m["__ENDIAN_LITTLE__"], "1");
    EXPECT_EQ(m.count("__opencl_c_generic_address_space"), v == 200 ? 1u : 0u) << v;
    EXPECT_EQ(m.count("__OPENCL_VERSION__"), 0u);
    EXPECT_EQ(m.count("__IMAGE_SUPPORT__"), 0u);
  }
  // OpenCL C 3.0's generic address space: clang-22 enables it for NVPTX, clang-14/19 do not;
  // x86 has it with every clang.
  EXPECT_EQ(macros(targetFor("nvptx64-nvidia-nvcl", "clang-22"), cl(300))
                .count("__opencl_c_generic_address_space"),
            1u);
  EXPECT_EQ(macros(targetFor("nvptx64-nvidia-nvcl", "clang-19"), cl(300))
                .count("__opencl_c_generic_address_space"),
            0u);
  EXPECT_EQ(macros(targetFor("x86_64-linux-gnu", "clang-14"), cl(300))
                .count("__opencl_c_generic_address_space"),
            1u);
  EXPECT_EQ(macros(amd, Language::C).count("__OPENCL_C_VERSION__"), 0u);
}

// clang-14 -emit-llvm: `struct S { char *p; int x; }` is { i8 addrspace(5)*, i32 } (8 bytes)
// at CL1.x and at CL3.0 (no generic space on amdgcn), { i8*, i32 } (16 bytes) at CL2.0.
TEST(OpenCLStd, UnqualifiedPointeeOnAmdgpu) {
  const char* src = "struct S { char *p; int x; };\ntypedef int *IP;\n"
                    "struct T { IP a; int **b; __global int *g; int (*arr)[3]; };\n";
  for (uint16_t v : {100, 110, 120, 200, 300}) {
    SCOPED_TRACE(v);
    Parsed p = parse(src, "amdgcn-amd-amdhsa", cl(v), {}, "k.cl");
    const bool generic = v == 200;
    EXPECT_EQ(p.sizeOf("S"), generic ? 16u : 8u);
    EXPECT_EQ(p.alignOf("S"), generic ? 8u : 4u);
    // IP, int ** (both levels) and int (*)[3] follow the deduction; __global stays 64-bit.
    EXPECT_EQ(p.offsetOf("T", "b"), generic ? 8u : 4u);
    EXPECT_EQ(p.offsetOf("T", "g"), generic ? 16u : 8u);
    EXPECT_EQ(p.sizeOf("T"), generic ? 32u : 24u);
    auto* b = dyn<PointerType>(stripTypedefs(p.field("T", "b")->type));
    ASSERT_NE(b, nullptr);
    EXPECT_EQ(b->address_space, generic ? 0u : 5u);
    EXPECT_EQ(dyn<PointerType>(stripTypedefs(b->pointee))->address_space, generic ? 0u : 5u);
  }
  // NVPTX maps private to 0: the version changes no size.
  for (uint16_t v : {120, 200})
    EXPECT_EQ(parse("struct S { char *p; int x; };\n", "nvptx64-nvidia-nvcl", cl(v), {}, "k.cl")
                  .sizeOf("S"),
              16u);
}

// clang-14 -emit-llvm: `void f(int a[4], int *b)` is f(i32 addrspace(5)*, i32*) at CL2.0: an
// array parameter points into private memory in every version.
TEST(OpenCLStd, ArrayParameterIsPrivate) {
  for (uint16_t v : {120, 200}) {
    Parsed p = parse("void f(int a[4], int *b);\n", "amdgcn-amd-amdhsa", cl(v), {}, "k.cl");
    const FunctionDecl* f = p.function("f");
    ASSERT_NE(f, nullptr);
    TypeContext& ctx = *p.ctx;
    auto as = [&](size_t i) {
      return dyn<PointerType>(adjustParameterType(ctx, f->type->params[i].type))->address_space;
    };
    EXPECT_EQ(as(0), 5u);
    EXPECT_EQ(as(1), v == 200 ? 0u : 5u);
  }
  // At CL2.0 `int a[4]` (private) and `int *a` (generic) are different types.
  EXPECT_NE(errorLine("void f(int a[4]);\nvoid f(int *a);\n", "amdgcn-amd-amdhsa", cl(200)), "");
  EXPECT_EQ(errorLine("void f(int a[4]);\nvoid f(int *a);\n", "amdgcn-amd-amdhsa", cl(120)), "");
}

// What clang refuses below OpenCL C 2.0 (and at 3.0 without the feature).
TEST(OpenCLStd, FeaturesOfTheVersion) {
  const char* amd = "amdgcn-amd-amdhsa";
  EXPECT_EQ(errorLine("struct G { generic int *g; };\n", amd, cl(120)),
            "test.h:1:12: error: OpenCL C version 1.2 does not support the 'generic' type "
            "qualifier");
  EXPECT_NE(errorLine("struct G { __generic int *g; };\n", amd, cl(300)), "");
  // After a `*`, clang takes `generic` in every version: the pointee is in the generic space.
  Parsed p = parse("struct G { int * __generic *g; };\n", amd, cl(120), {}, "k.cl");
  EXPECT_EQ(p.sizeOf("G"), 8u);
  EXPECT_EQ(dyn<PointerType>(stripTypedefs(p.field("G", "g")->type))->address_space, 0u);
  EXPECT_EQ(errorLine("struct G { generic int *g; };\n", amd, cl(200)), "");
  EXPECT_EQ(errorLine("struct G { generic int *g; };\n", "x86_64-linux-gnu", cl(300)), "");
  EXPECT_EQ(errorLine("kernel void k(write_only pipe int p);\n", amd, cl(120)),
            "test.h:1:26: error: OpenCL C version 1.2 does not support the 'pipe' type "
            "qualifier");
  EXPECT_EQ(errorLine("kernel void k(write_only pipe int p);\n", amd, cl(200)), "");
  EXPECT_EQ(errorLine("kernel void k(queue_t q);\n", amd, cl(300)),
            "test.h:1:15: error: unknown type name 'queue_t'");
  EXPECT_EQ(errorLine("kernel void k(read_write image2d_t i);\n", amd, cl(110)).substr(0, 70),
            "test.h:1:15: error: access qualifier 'read_write' cannot be used for i");
  EXPECT_EQ(errorLine("kernel void k(read_write image2d_t i);\n", amd, cl(200)), "");
  // Images are in every 1.x version; OpenCL C 3.0 on NVPTX has none.
  EXPECT_EQ(errorLine("kernel void k(read_only image2d_t i);\n", "nvptx64-nvidia-nvcl", cl(120)),
            "");
  EXPECT_EQ(errorLine("kernel void k(read_only image2d_t i);\n", "nvptx64-nvidia-nvcl", cl(300)),
            "test.h:1:25: error: unknown type name 'image2d_t'");
}

// A kernel's pointer parameter without an address space is private at CL1.2 (clang refuses it
// as at 2.0); the metadata's .language_version is the version.
TEST(OpenCLStd, KernelArguments) {
  TargetOptions o;
  o.triple = "amdgcn-amd-amdhsa";
  o.mcpu = "gfx906";
  const Target t = resolveTarget(o);
  for (uint16_t v : {100, 120, 200, 300}) {
    TypeContext ctx(t, cl(v));
    LayoutEngine layout(ctx);
    TranslationUnit tu = parseSource(ctx, layout, "k.cl",
                                     "struct S { int *p; int n; };\n"
                                     "kernel void k(global struct S *s, int n) {}\n"
                                     "kernel void bad(int *p) {}\n",
                                     {});
    KernelArguments k = computeKernelArguments(layout, *tu.findFunction("k"), {});
    EXPECT_EQ(k.language, "OpenCL C");
    EXPECT_EQ(k.language_version, (std::vector<unsigned>{v / 100u, v / 10u % 10u}));
    EXPECT_THROW(computeKernelArguments(layout, *tu.findFunction("bad"), {}), Error);
  }
}

// The fast member path deduces the same address space as the general parser.
TEST(OpenCLStd, FastPathPointerToRecord) {
  const char* src = "struct R { int x; };\nstruct S { struct R *r; char c; };\n";
  for (bool fast : {true, false}) {
    ParseOptions opts;
    opts.fast_paths = fast;
    Parsed p = parse(src, "amdgcn-amd-amdhsa", cl(120), opts, "k.cl");
    EXPECT_EQ(p.sizeOf("S"), 8u);
    EXPECT_EQ(dyn<PointerType>(stripTypedefs(p.field("S", "r")->type))->address_space, 5u);
  }
}
