// Layout speed: a generated header of 20,000 records (structs and unions with scalars,
// pointers, arrays, nested records, enums, typedefs, bit-fields, packed/aligned attributes and
// #pragma pack), laid out once parsed, and parsed + laid out, and written as JSON.
// bench/layout_vs_clang.sh compares the whole CLI with clang-14 -fsyntax-only on the same header
// (`abikit_bench_layout --write-header FILE` writes it).
#include "abikit/cparse.h"
#include "abikit/emit.h"
#include "abikit/layout.h"

#include <benchmark/benchmark.h>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace {

constexpr size_t kRecords = 20000;

// A small deterministic generator (no dependence on the standard library's distributions).
struct Rng {
  uint64_t s;
  uint64_t next() {
    s ^= s << 13;
    s ^= s >> 7;
    s ^= s << 17;
    return s;
  }
  uint64_t below(uint64_t n) { return next() % n; }
  bool chance(unsigned pct) { return below(100) < pct; }
};

std::string generateHeader(size_t records) {
  static const char* const kScalars[] = {"char",
                                         "signed char",
                                         "unsigned char",
                                         "short",
                                         "unsigned short",
                                         "int",
                                         "unsigned",
                                         "long",
                                         "unsigned long",
                                         "long long",
                                         "unsigned long long",
                                         "float",
                                         "double",
                                         "_Bool",
                                         "void *",
                                         "char *",
                                         "const char *",
                                         "size_t",
                                         "uint8_t",
                                         "uint16_t",
                                         "uint32_t",
                                         "uint64_t",
                                         "int32_t",
                                         "int64_t"};
  static const char* const kBitTypes[] = {"unsigned",      "int",      "unsigned short",
                                          "unsigned char", "uint32_t", "_Bool"};
  Rng rng{0x2545F4914F6CDD1Dull};
  std::string h = "#include <stddef.h>\n#include <stdint.h>\n\n";
  h.reserve(records * 220);
  size_t enums = 0;
  std::vector<bool> unions(records);
  auto tag = [&](size_t r) {
    return std::string(unions[r] ? "union r" : "struct r") + std::to_string(r);
  };
  for (size_t r = 0; r < records; ++r) {
    if (r % 50 == 0) {
      h += "enum e" + std::to_string(enums) + " { E" + std::to_string(enums) + "_A, E" +
           std::to_string(enums) + "_B = " + std::to_string(rng.below(1000)) + " };\n";
      ++enums;
    }
    bool is_union = unions[r] = rng.chance(10);
    bool pack = rng.chance(5);
    if (pack) h += "#pragma pack(push, " + std::to_string(1u << rng.below(3)) + ")\n";
    h += is_union ? "union" : "struct";
    if (rng.chance(8)) h += " __attribute__((packed))";
    if (rng.chance(5)) h += " __attribute__((aligned(" + std::to_string(4u << rng.below(3)) + ")))";
    h += " r" + std::to_string(r) + " {\n";
    size_t fields = 3 + rng.below(8);
    for (size_t f = 0; f < fields; ++f) {
      h += "  ";
      unsigned k = unsigned(rng.below(100));
      std::string name = "m" + std::to_string(f);
      if (k < 50) {
        h += std::string(kScalars[rng.below(std::size(kScalars))]) + " " + name;
      } else if (k < 62) {
        h += std::string(kScalars[rng.below(std::size(kScalars))]) + " " + name + "[" +
             std::to_string(1 + rng.below(16)) + "]";
      } else if (k < 80 && !is_union) {
        const char* t = kBitTypes[rng.below(std::size(kBitTypes))];
        unsigned limit = std::strcmp(t, "_Bool") == 0            ? 1
                         : std::strcmp(t, "unsigned char") == 0  ? 8
                         : std::strcmp(t, "unsigned short") == 0 ? 16
                                                                 : 32;
        h += std::string(t) + " " + name + " : " + std::to_string(1 + rng.below(limit));
      } else if (k < 90 && r > 0) {
        h += tag(rng.below(r)) + " *" + name;
      } else if (k < 95 && enums) {
        h += "enum e" + std::to_string(rng.below(enums)) + " " + name;
      } else {
        h += "double " + name + " __attribute__((aligned(" + std::to_string(8u << rng.below(2)) +
             ")))";
      }
      h += ";\n";
    }
    h += "};\n";
    if (pack) h += "#pragma pack(pop)\n";
    if (r % 10 == 9) h += "typedef " + tag(r) + " t" + std::to_string(r) + ";\n";
  }
  return h;
}

const std::string& header() {
  static const std::string h = generateHeader(kRecords);
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
