// Speed of the AMDGPU lowering: every device function of a header of 1,000 prototypes (scalars,
// vectors, packed, flattened and byval aggregates, enough arguments to reach the stack), and
// the kernarg segments of 1,000 OpenCL kernels (pointers, images, pipes, records), parsed once
// and computed per iteration (items/s = functions or kernels per second).
#include "abikit/callconv.h"
#include "abikit/cparse.h"
#include "abikit/kernarg.h"
#include "abikit/layout.h"

#include <benchmark/benchmark.h>
#include <string>

namespace {

constexpr int kCount = 1000;

abikit::Target gfx906() {
  abikit::TargetOptions o;
  o.triple = "amdgcn-amd-amdhsa";
  o.mcpu = "gfx906";
  return abikit::resolveTarget(o);
}

std::string deviceHeader() {
  std::string s =
      "struct P { char a, b, c; };\nstruct Q { char c; int i; double d; short s[3]; };\n"
      "struct F { float x, y, z, w; };\nstruct B { int a[20]; };\n"
      "typedef short s3 __attribute__((ext_vector_type(3)));\n"
      "typedef float v4f __attribute__((ext_vector_type(4)));\n";
  const char* types[] = {"int",      "long long", "char",     "double",        "float",
                         "struct P", "void *",    "s3",       "struct Q",      "v4f",
                         "struct F", "_Bool",     "struct B", "unsigned short"};
  for (int i = 0; i < kCount; ++i) {
    s += i % 9 == 0 ? "struct B" : types[i % 5];
    s += " f" + std::to_string(i) + "(";
    int n = 2 + i % 13;
    for (int k = 0; k < n; ++k) s += std::string(k ? ", " : "") + types[(i + 5 * k) % 14];
    s += ");\n";
  }
  return s;
}

std::string kernels() {
  std::string s = "#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n"
                  "struct R { float4 v; char c; int a[3]; };\ntypedef struct { uint u; } W;\n";
  const char* params[] = {"__global float *",
                          "int",
                          "__local int *",
                          "read_only image2d_t",
                          "sampler_t",
                          "struct R",
                          "float3",
                          "__constant char *",
                          "W",
                          "write_only pipe int",
                          "long",
                          "half"};
  for (int i = 0; i < kCount; ++i) {
    s += "__kernel void k" + std::to_string(i) + "(";
    int n = 1 + i % 10;
    for (int k = 0; k < n; ++k)
      s += std::string(k ? ", " : "") + params[(i + 7 * k) % 12] + " p" + std::to_string(k);
    s += ") {}\n";
  }
  return s;
}

void BM_AmdgpuDeviceFunctions(benchmark::State& state) {
  abikit::Target target = gfx906();
  abikit::TypeContext ctx(target, abikit::Language::C);
  abikit::LayoutEngine layout(ctx);
  abikit::TranslationUnit tu =
      abikit::parseSource(ctx, layout, "bench.h", deviceHeader(), abikit::ParseOptions{});
  for (auto _ : state) {
    size_t parts = 0;
    for (const abikit::FunctionDecl* f : tu.functions)
      parts += abikit::lowerFunction(ctx, layout, *f).params.size();
    benchmark::DoNotOptimize(parts);
  }
  state.SetItemsProcessed(int64_t(state.iterations()) * kCount);
}
BENCHMARK(BM_AmdgpuDeviceFunctions);

void BM_AmdgpuKernarg(benchmark::State& state) {
  abikit::Target target = gfx906();
  abikit::TypeContext ctx(target, abikit::Language::OpenCL);
  abikit::LayoutEngine layout(ctx);
  abikit::TranslationUnit tu =
      abikit::parseSource(ctx, layout, "bench.cl", kernels(), abikit::ParseOptions{});
  abikit::KernargOptions options;
  options.hidden = abikit::HiddenArgs::All;
  for (auto _ : state) {
    size_t args = 0;
    for (const abikit::FunctionDecl* f : tu.functions)
      args += abikit::computeKernelArguments(layout, *f, options).args.size();
    benchmark::DoNotOptimize(args);
  }
  state.SetItemsProcessed(int64_t(state.iterations()) * kCount);
}
BENCHMARK(BM_AmdgpuKernarg);

} // namespace
