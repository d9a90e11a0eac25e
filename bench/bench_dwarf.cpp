// DWARF expressions: decoding, decoding and printing the llvm-dwarfdump-22 display form, the
// canonical text, parsing it, and encoding, over 10,000 generated expressions (the generator of
// the round-trip tests: every operation of the user encoding, LEB128 edge values, blocks, nested
// entry_values). Items are expressions; bytes are the encoded expressions' bytes. The *Append
// benchmarks print into one reused string (the appending toDisplay/toText); their counter
// allocs/expr counts the heap allocations per expression (a counting operator new below).
//   abikit_bench_dwarf --write-asm PATH [N]   the first N (default 10,000) expressions of the same
//                                             generator as exprlocs in a riscv64 .debug_info, for
//                                             llvm-mc-22 (bench/dwarf_vs_dwarfdump.sh)
// The comparison with llvm-dwarfdump-22 on the same expressions: bench/dwarf_vs_dwarfdump.sh and
// docs/dwarf.md, "Speed".
#include "../tests/support/dwarf_expr_asm.h"
#include "../tests/support/dwarf_expr_gen.h"
#include "abikit/dwarf.h"
#include "alloc_counter.h"

#include <atomic>
#include <benchmark/benchmark.h>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>

using abikit::bench::g_allocations;

namespace {

using namespace abikit::dwarf;

struct Corpus {
  ExprFormat format;
  std::vector<std::vector<uint8_t>> bytes;
  std::vector<std::string> texts;
  size_t total = 0;
  DisplayOptions display;
  explicit Corpus(size_t count = 10000) {
    abikit::test::ExprGenOptions o;
    abikit::test::ExprGenerator gen(1, o);
    for (size_t i = 0; i < count; ++i) {
      Expression e = gen.next();
      bytes.push_back(encode(e, format));
      texts.push_back(toText(e));
      total += bytes.back().size();
    }
    abikit::TargetOptions t;
    t.triple = "riscv64-unknown-elf";
    static const abikit::Target kTarget = abikit::resolveTarget(t);
    display = displayOptionsFor(kTarget, ExtEncoding::User);
  }
};

const Corpus& corpus() {
  static const Corpus kCorpus;
  return kCorpus;
}

void report(benchmark::State& state, const Corpus& c) {
  state.SetItemsProcessed(int64_t(state.iterations() * c.bytes.size()));
  state.SetBytesProcessed(int64_t(state.iterations() * c.total));
}

// Heap allocations per expression over the timed loop (the first pass warms the buffers up).
void reportAllocations(benchmark::State& state, const Corpus& c, uint64_t before) {
  double n = double(std::max<int64_t>(int64_t(state.iterations()), 1)) * double(c.bytes.size());
  state.counters["allocs/expr"] = double(g_allocations.load() - before) / n;
}

// Decodes and prints every expression into `e` and `s`: the warm-up of the *Append benchmarks.
template <class Print> void warmUp(const Corpus& c, Expression& e, std::string& s, Print print) {
  for (const auto& b : c.bytes) {
    decode(b, c.format, e);
    s.clear();
    print(e, s);
  }
}

void BM_DwarfDecode(benchmark::State& state) {
  const Corpus& c = corpus();
  Expression e;
  for (auto _ : state)
    for (const auto& b : c.bytes) {
      decode(b, c.format, e);
      benchmark::DoNotOptimize(e.ops.data());
    }
  report(state, c);
}
BENCHMARK(BM_DwarfDecode);

void BM_DwarfDecodeDisplay(benchmark::State& state) {
  const Corpus& c = corpus();
  Expression e;
  for (auto _ : state)
    for (const auto& b : c.bytes) {
      decode(b, c.format, e);
      std::string s = toDisplay(e, c.display);
      benchmark::DoNotOptimize(s.data());
    }
  report(state, c);
}
BENCHMARK(BM_DwarfDecodeDisplay);

void BM_DwarfDecodeText(benchmark::State& state) {
  const Corpus& c = corpus();
  Expression e;
  for (auto _ : state)
    for (const auto& b : c.bytes) {
      decode(b, c.format, e);
      std::string s = toText(e);
      benchmark::DoNotOptimize(s.data());
    }
  report(state, c);
}
BENCHMARK(BM_DwarfDecodeText);

void BM_DwarfDecodeDisplayAppend(benchmark::State& state) {
  const Corpus& c = corpus();
  Expression e;
  std::string s;
  auto print = [&](const Expression& x, std::string& out) { toDisplay(x, c.display, out); };
  warmUp(c, e, s, print);
  uint64_t before = g_allocations.load();
  for (auto _ : state)
    for (const auto& b : c.bytes) {
      decode(b, c.format, e);
      s.clear();
      print(e, s);
      benchmark::DoNotOptimize(s.data());
    }
  reportAllocations(state, c, before);
  report(state, c);
}
BENCHMARK(BM_DwarfDecodeDisplayAppend);

void BM_DwarfDecodeTextAppend(benchmark::State& state) {
  const Corpus& c = corpus();
  Expression e;
  std::string s;
  auto print = [](const Expression& x, std::string& out) { toText(x, out); };
  warmUp(c, e, s, print);
  uint64_t before = g_allocations.load();
  for (auto _ : state)
    for (const auto& b : c.bytes) {
      decode(b, c.format, e);
      s.clear();
      print(e, s);
      benchmark::DoNotOptimize(s.data());
    }
  reportAllocations(state, c, before);
  report(state, c);
}
BENCHMARK(BM_DwarfDecodeTextAppend);

void BM_DwarfParseEncode(benchmark::State& state) {
  const Corpus& c = corpus();
  std::vector<uint8_t> out;
  for (auto _ : state)
    for (const auto& t : c.texts) {
      encode(parseText(t), c.format, out);
      benchmark::DoNotOptimize(out.data());
    }
  report(state, c);
}
BENCHMARK(BM_DwarfParseEncode);

} // namespace

int main(int argc, char** argv) {
  if (argc >= 3 && std::strcmp(argv[1], "--write-asm") == 0) {
    Corpus c(argc >= 4 ? size_t(std::strtoull(argv[3], nullptr, 10)) : 10000);
    std::string s =
        abikit::test::exprlocAssembly(c.format.address_size, c.format.offset_size == 8, c.bytes);
    FILE* f = std::fopen(argv[2], "wb");
    if (!f || std::fwrite(s.data(), 1, s.size(), f) != s.size() || std::fclose(f)) {
      std::perror(argv[2]);
      return 1;
    }
    return 0;
  }
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
