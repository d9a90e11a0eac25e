// Lowering speed of the DPU and IPU calling conventions: every function of a header of 1,000
// prototypes with mixed scalar, 64-bit, vector and aggregate parameters, parsed once and lowered
// per iteration (items/s = functions lowered per second).
#include "abikit/callconv.h"
#include "abikit/cparse.h"
#include "abikit/layout.h"

#include <benchmark/benchmark.h>
#include <string>

namespace {

constexpr int kFunctions = 1000;

std::string header(bool ipu) {
  std::string s = "struct P { int x, y; };\nstruct Q { char c; double d; };\n";
  s += ipu ? "#include <ipudef.h>\n" : "typedef int int2 __attribute__((vector_size(8)));\n";
  const char* types[] = {"int",    "long long",      "char",     "double", "float",    "struct P",
                         "void *", "unsigned short", "struct Q", "int2",   "long long"};
  for (int i = 0; i < kFunctions; ++i) {
    s += i % 7 == 0 ? "struct Q" : types[i % 4];
    s += " f" + std::to_string(i) + "(";
    int n = 2 + i % 9;
    for (int k = 0; k < n; ++k) s += std::string(k ? ", " : "") + types[(i + 3 * k) % 11];
    s += ");\n";
  }
  return s;
}

void lowerAll(benchmark::State& state, const char* triple, bool ipu, bool supervisor,
              abikit::AbiVariant variant) {
  abikit::TargetOptions o;
  o.triple = triple;
  o.msupervisor = supervisor;
  o.abi_variant = variant;
  abikit::Target target = abikit::resolveTarget(o);
  abikit::TypeContext ctx(target, abikit::Language::C);
  abikit::LayoutEngine layout(ctx);
  abikit::TranslationUnit tu =
      abikit::parseSource(ctx, layout, "bench.h", header(ipu), abikit::ParseOptions{});
  for (auto _ : state) {
    size_t parts = 0;
    for (const abikit::FunctionDecl* f : tu.functions) {
      abikit::FunctionLowering l = abikit::lowerFunction(ctx, layout, *f);
      parts += l.params.size();
    }
    benchmark::DoNotOptimize(parts);
  }
  state.SetItemsProcessed(int64_t(state.iterations()) * kFunctions);
}

void BM_DpuCompiler(benchmark::State& state) {
  lowerAll(state, "dpu-upmem-dpurte", false, false, abikit::AbiVariant::Compiler);
}
BENCHMARK(BM_DpuCompiler);

void BM_IpuWorker(benchmark::State& state) {
  lowerAll(state, "colossus-graphcore-elf", true, false, abikit::AbiVariant::Compiler);
}
BENCHMARK(BM_IpuWorker);

void BM_IpuSupervisor(benchmark::State& state) {
  lowerAll(state, "colossus-graphcore-elf", true, true, abikit::AbiVariant::Compiler);
}
BENCHMARK(BM_IpuSupervisor);

void BM_IpuDocumented(benchmark::State& state) {
  lowerAll(state, "colossus-graphcore-elf", true, false, abikit::AbiVariant::Documented);
}
BENCHMARK(BM_IpuDocumented);

} // namespace
