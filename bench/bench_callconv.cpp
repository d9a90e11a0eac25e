// Lowering speed of the RISC-V calling convention: every function of a generated header of
// 20,000 prototypes (scalars of every kind, FP structs that flatten, packed and over-aligned
// ones, bit-fields, unions, arrays, complex numbers, vectors, large aggregates, variadic
// functions), parsed once and lowered per iteration. `ns_per_signature` is the time per
// function.
//
//   abikit_bench_callconv                         the Google Benchmark runs
//   abikit_bench_callconv --write-header FILE     writes the header (bench/call_vs_clang.sh)
//   abikit_bench_callconv --lower FILE ABI N      parses FILE for riscv ABI and lowers every
//                                                 function N times (for callgrind: the
//                                                 instructions per signature are the difference
//                                                 between two N, see bench/call_vs_clang.sh)
#include "abikit/callconv.h"
#include "abikit/cparse.h"
#include "abikit/diag.h"
#include "abikit/layout.h"

#include <benchmark/benchmark.h>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <memory>
#include <string>

namespace {

constexpr int kFunctions = 20000;

constexpr const char* kDeclarations =
    "struct P { float a; int b; };\n"
    "struct D { double x, y; };\n"
    "struct F2 { float f[2]; };\n"
    "struct Q { long long x, y, z; };\n"
    "struct S3 { int a, b, c; };\n"
    "struct C1 { char c; };\n"
    "struct __attribute__((packed)) PK { char c; float f; };\n"
    "struct AL { float a; float b __attribute__((aligned(8))); };\n"
    "struct BF { int x : 3; float f; };\n"
    "struct ZW { float a; int : 0; float b; };\n"
    "struct E {};\n"
    "struct NE { struct E e; struct { double d[1]; } n; };\n"
    "union U { float f; int i; };\n"
    "struct CX { _Complex float c; };\n"
    "struct LD { long double x; long l; };\n"
    "typedef int v4 __attribute__((vector_size(16)));\n"
    "enum K { K0, K1 = 300 };\n";

// Parameter types, weighted by repetition.
constexpr const char* kTypes[] = {"int",
                                  "long",
                                  "char",
                                  "unsigned int",
                                  "short",
                                  "long long",
                                  "double",
                                  "float",
                                  "double",
                                  "float",
                                  "void *",
                                  "struct P",
                                  "struct D",
                                  "struct F2",
                                  "struct Q",
                                  "struct S3",
                                  "struct C1",
                                  "struct PK",
                                  "struct AL",
                                  "struct BF",
                                  "struct ZW",
                                  "struct E",
                                  "struct NE",
                                  "union U",
                                  "struct CX",
                                  "struct LD",
                                  "v4",
                                  "enum K",
                                  "_Bool",
                                  "long double",
                                  "double _Complex",
                                  "unsigned char",
                                  "struct P",
                                  "int",
                                  "double"};
constexpr int kNumTypes = int(sizeof(kTypes) / sizeof(kTypes[0]));

std::string header() {
  std::string s = kDeclarations;
  uint64_t x = 0x9E3779B97F4A7C15ull;
  auto next = [&] {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    return x;
  };
  for (int i = 0; i < kFunctions; ++i) {
    const char* ret = next() % 4 == 0 ? "void" : kTypes[next() % kNumTypes];
    s += std::string(ret) + " f" + std::to_string(i) + "(";
    int n = int(next() % 11);
    bool variadic = next() % 8 == 0;
    if (variadic && n == 0) n = 1;
    for (int k = 0; k < n; ++k)
      s += std::string(k ? ", " : "") + kTypes[next() % kNumTypes] + " a" + std::to_string(k);
    if (variadic) s += ", ...";
    if (n == 0) s += "void";
    // A definition with an empty body: clang then lowers every signature too.
    s += ") {}\n";
  }
  return s;
}

struct Parsed {
  std::unique_ptr<abikit::Target> target;
  std::unique_ptr<abikit::TypeContext> ctx;
  std::unique_ptr<abikit::LayoutEngine> layout;
  abikit::TranslationUnit tu;
};

Parsed parse(const std::string& abi, const std::string& text) {
  Parsed p;
  abikit::TargetOptions o;
  bool rv32 = abi.rfind("ilp32", 0) == 0;
  o.triple = rv32 ? "riscv32-unknown-elf" : "riscv64-unknown-elf";
  o.mabi = abi;
  if (abi == "lp64q") o.march = "rv64gq";
  p.target = std::make_unique<abikit::Target>(abikit::resolveTarget(o));
  p.ctx = std::make_unique<abikit::TypeContext>(*p.target, abikit::Language::C);
  p.layout = std::make_unique<abikit::LayoutEngine>(*p.ctx);
  p.tu = abikit::parseSource(*p.ctx, *p.layout, "bench.h", text, abikit::ParseOptions{});
  return p;
}

size_t lowerAll(const Parsed& p) {
  size_t parts = 0;
  for (const abikit::FunctionDecl* f : p.tu.functions) {
    abikit::FunctionLowering l = abikit::lowerFunction(*p.ctx, *p.layout, *f);
    parts += l.params.size() + l.ret.parts.size();
  }
  return parts;
}

void lowerAbi(benchmark::State& state, const char* abi) {
  static const std::string text = header();
  Parsed p = parse(abi, text);
  for (auto _ : state) benchmark::DoNotOptimize(lowerAll(p));
  state.SetItemsProcessed(int64_t(state.iterations()) * kFunctions);
  state.counters["ns_per_signature"] =
      benchmark::Counter(double(kFunctions) * 1e-9, benchmark::Counter::kIsIterationInvariantRate |
                                                        benchmark::Counter::kInvert);
}

void BM_Ilp32(benchmark::State& s) {
  lowerAbi(s, "ilp32");
}
void BM_Ilp32d(benchmark::State& s) {
  lowerAbi(s, "ilp32d");
}
void BM_Ilp32e(benchmark::State& s) {
  lowerAbi(s, "ilp32e");
}
void BM_Lp64(benchmark::State& s) {
  lowerAbi(s, "lp64");
}
void BM_Lp64f(benchmark::State& s) {
  lowerAbi(s, "lp64f");
}
void BM_Lp64d(benchmark::State& s) {
  lowerAbi(s, "lp64d");
}
BENCHMARK(BM_Ilp32)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Ilp32d)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Ilp32e)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Lp64)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Lp64f)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Lp64d)->Unit(benchmark::kMillisecond);

} // namespace

int main(int argc, char** argv) {
  try {
    if (argc == 3 && std::strcmp(argv[1], "--write-header") == 0) {
      std::ofstream out(argv[2], std::ios::binary);
      out << header();
      return out ? 0 : 1;
    }
    if (argc == 5 && std::strcmp(argv[1], "--lower") == 0) {
      std::ifstream in(argv[2], std::ios::binary);
      std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
      Parsed p = parse(argv[3], text);
      int n = std::atoi(argv[4]);
      size_t parts = 0;
      for (int i = 0; i < n; ++i) parts += lowerAll(p);
      std::printf("%zu functions lowered %d times (%zu values)\n", p.tu.functions.size(), n, parts);
      return 0;
    }
  } catch (const abikit::Error& e) {
    std::fprintf(stderr, "%s\n", e.format().c_str());
    return 1;
  }
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
