// Layout speed: a generated header of 20,000 records (structs and unions with scalars,
// pointers, arrays, nested records, enums, typedefs, bit-fields, packed/aligned attributes and
// #pragma pack), laid out once parsed, and parsed + laid out, and written as JSON.
// bench/layout_vs_clang.sh compares the whole CLI with clang-14 -fsyntax-only on the same header
// (`abikit_bench_layout --write-header FILE` writes it).
#include "abikit/cparse.h"
#include "abikit/emit.h"
#include "abikit/layout.h"
#include "gen_header.h"

#include <benchmark/benchmark.h>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace {

constexpr size_t kRecords = 20000;

const std::string& header() {
  static const std::string h = abikit::bench::generateHeader(kRecords);
  return h;
}

abikit::Target target() {
  abikit::TargetOptions o;
  o.triple = "riscv64-unknown-elf";
  o.march = "rv64gc";
  return abikit::resolveTarget(o);
}

// Layout only: the header parsed once, every record laid out by a fresh engine per iteration.
void BM_LayoutParsedRecords(benchmark::State& state) {
  abikit::Target t = target();
  abikit::TypeContext ctx(t, abikit::Language::C);
  abikit::LayoutEngine parse_engine(ctx);
  abikit::TranslationUnit tu =
      abikit::parseSource(ctx, parse_engine, "gen.h", header(), abikit::ParseOptions{});
  for (auto _ : state) {
    abikit::LayoutEngine engine(ctx);
    uint64_t sum = 0;
    for (const abikit::RecordDecl* rd : tu.records) sum += engine.of(*rd).size;
    benchmark::DoNotOptimize(sum);
  }
  state.SetItemsProcessed(int64_t(state.iterations() * tu.records.size()));
}
BENCHMARK(BM_LayoutParsedRecords)->Unit(benchmark::kMillisecond);

// Parse and lay out, as `abikit layout` does before printing.
void BM_ParseAndLayout(benchmark::State& state) {
  abikit::Target t = target();
  for (auto _ : state) {
    abikit::TypeContext ctx(t, abikit::Language::C);
    abikit::LayoutEngine engine(ctx);
    abikit::TranslationUnit tu =
        abikit::parseSource(ctx, engine, "gen.h", header(), abikit::ParseOptions{});
    uint64_t sum = 0;
    for (const abikit::RecordDecl* rd : tu.records) sum += engine.of(*rd).size;
    benchmark::DoNotOptimize(sum);
  }
  state.SetItemsProcessed(int64_t(state.iterations() * kRecords));
}
BENCHMARK(BM_ParseAndLayout)->Unit(benchmark::kMillisecond);

// Parse, lay out and write the JSON document (`abikit layout --json`).
void BM_ParseLayoutJson(benchmark::State& state) {
  abikit::Target t = target();
  for (auto _ : state) {
    abikit::TypeContext ctx(t, abikit::Language::C);
    abikit::LayoutEngine engine(ctx);
    abikit::TranslationUnit tu =
        abikit::parseSource(ctx, engine, "gen.h", header(), abikit::ParseOptions{});
    std::string json = abikit::layoutJson(engine, tu.records);
    benchmark::DoNotOptimize(json.data());
  }
  state.SetItemsProcessed(int64_t(state.iterations() * kRecords));
}
BENCHMARK(BM_ParseLayoutJson)->Unit(benchmark::kMillisecond);

// The text view of the same records (parsed once).
void BM_LayoutText(benchmark::State& state) {
  abikit::Target t = target();
  abikit::TypeContext ctx(t, abikit::Language::C);
  abikit::LayoutEngine engine(ctx);
  abikit::TranslationUnit tu =
      abikit::parseSource(ctx, engine, "gen.h", header(), abikit::ParseOptions{});
  for (auto _ : state) {
    std::string text = abikit::layoutText(engine, tu.records);
    benchmark::DoNotOptimize(text.data());
  }
  state.SetItemsProcessed(int64_t(state.iterations() * tu.records.size()));
}
BENCHMARK(BM_LayoutText)->Unit(benchmark::kMillisecond);

} // namespace

int main(int argc, char** argv) {
  if (argc == 3 && std::strcmp(argv[1], "--write-header") == 0) {
    const std::string& h = header();
    FILE* f = std::fopen(argv[2], "wb");
    if (!f || std::fwrite(h.data(), 1, h.size(), f) != h.size() || std::fclose(f)) {
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
