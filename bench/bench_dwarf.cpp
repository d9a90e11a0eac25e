// DWARF expressions: decoding, decoding and printing the llvm-dwarfdump-22 display form, the
// canonical text, parsing it, and encoding, over 10,000 generated expressions (the generator of
// the round-trip tests: every operation of the user encoding, LEB128 edge values, blocks, nested
// entry_values). Items are expressions; bytes are the encoded expressions' bytes. The comparison
// with llvm-dwarfdump-22 on the same expressions: docs/dwarf.md, "Speed".
#include "../tests/support/dwarf_expr_gen.h"
#include "abikit/dwarf.h"

#include <benchmark/benchmark.h>

namespace {

using namespace abikit::dwarf;

struct Corpus {
  ExprFormat format;
  std::vector<std::vector<uint8_t>> bytes;
  std::vector<std::string> texts;
  size_t total = 0;
  DisplayOptions display;
  Corpus() {
    abikit::test::ExprGenOptions o;
    abikit::test::ExprGenerator gen(1, o);
    for (int i = 0; i < 10000; ++i) {
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
