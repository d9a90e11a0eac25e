// C front-end speed: a generated header of 20,000 typical records (5-10 fields: stdint and
// kernel-style typedefs, pointers, arrays sized by macros, nested records, enums, bit-fields,
// comments and #ifdef blocks), parsed, and parsed + laid out; a macro-heavy variant of the same
// declarations; and the fixed cost of one small header (predefined macros, built-in headers).
// bench/cparse_vs_clang.sh compares the whole CLI with clang-14 -fsyntax-only on the same header
// (`abikit_bench_cparse --write-header FILE` writes it).
#include "abikit/cparse.h"
#include "abikit/layout.h"
#include "gen_header.h"

#include <benchmark/benchmark.h>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace {

constexpr size_t kRecords = 20000;

using abikit::bench::Rng; // gen_header.h's

// `macros`: fields are written through function-like macros (as many real headers do).
std::string generateHeader(size_t records, bool macros) {
  static const char* const kTypes[] = {
      "__u8",         "__u16",  "__u32", "__u64",   "__s32",       "__le32",   "int",
      "unsigned int", "long",   "char",  "uint8_t", "uint16_t",    "uint32_t", "uint64_t",
      "size_t",       "double", "float", "void *",  "const char *"};
  Rng rng{0x9E3779B97F4A7C15ull};
  std::string h = "/* Generated: " + std::to_string(records) +
                  " records. */\n"
                  "#include <stdint.h>\n#include <stddef.h>\n\n"
                  "typedef unsigned char __u8;\ntypedef unsigned short __u16;\n"
                  "typedef unsigned int __u32;\ntypedef unsigned long long __u64;\n"
                  "typedef int __s32;\ntypedef __u32 __le32;\n"
                  "#define NAME_LEN 16\n#define MAX_SLOTS (4 * 2)\n";
  if (macros)
    h += "#define FIELD(t, n) t n;\n#define ARRAY(t, n, c) t n[c];\n"
         "#define BITS(t, n, w) t n : w;\n#define PTR(t, n) t *n;\n";
  h.reserve(records * 200);
  size_t enums = 0;
  for (size_t r = 0; r < records; ++r) {
    std::string rs = std::to_string(r);
    if (r % 100 == 0) {
      std::string es = std::to_string(enums++);
      h += "enum kind" + es + " { KIND" + es + "_NONE, KIND" + es + "_ONE, KIND" + es +
           "_MAX = 255 };\n";
    }
    if (r % 40 == 0) h += "/* Records " + rs + " and following. */\n";
    bool guarded = r % 25 == 0;
    if (guarded) h += "#ifdef __KERNEL__\nstruct kernel_only" + rs + " { int x; };\n#else\n";
    h += "struct rec" + rs + " {\n";
    size_t fields = 5 + rng.below(6);
    for (size_t f = 0; f < fields; ++f) {
      std::string name = "f" + std::to_string(f);
      std::string type = kTypes[rng.below(std::size(kTypes))];
      unsigned k = unsigned(rng.below(100));
      h += "\t";
      if (k < 12) {
        std::string count = rng.below(2) ? "NAME_LEN" : "MAX_SLOTS";
        h += macros ? "ARRAY(" + type + ", " + name + ", " + count + ")"
                    : type + " " + name + "[" + count + "];";
      } else if (k < 20) {
        std::string w = std::to_string(1 + rng.below(16));
        h += macros ? "BITS(__u32, " + name + ", " + w + ")" : "__u32 " + name + " : " + w + ";";
      } else if (k < 28 && r > 0) {
        std::string t = "struct rec" + std::to_string(rng.below(r));
        h += macros ? "PTR(" + t + ", " + name + ")" : t + " *" + name + ";";
      } else if (k < 32 && enums) {
        h += "enum kind" + std::to_string(rng.below(enums)) + " " + name + ";";
      } else {
        h += macros ? "FIELD(" + type + ", " + name + ")" : type + " " + name + ";";
      }
      if (k % 7 == 0) h += " /* field " + std::to_string(f) + " */";
      h += "\n";
    }
    h += "};\n";
    if (guarded) h += "#endif\n";
    if (r % 10 == 0) h += "typedef struct rec" + rs + " rec" + rs + "_t;\n";
  }
  return h;
}

const std::string& header() {
  static const std::string h = generateHeader(kRecords, false);
  return h;
}

const std::string& macroHeader() {
  static const std::string h = generateHeader(kRecords, true);
  return h;
}

abikit::Target target() {
  abikit::TargetOptions o;
  o.triple = "riscv64-unknown-elf";
  return abikit::resolveTarget(o);
}

void parseOnce(const abikit::Target& t, const std::string& text, bool layout,
               benchmark::State& state) {
  abikit::TypeContext ctx(t, abikit::Language::C);
  abikit::LayoutEngine engine(ctx);
  abikit::TranslationUnit tu =
      abikit::parseSource(ctx, engine, "gen.h", text, abikit::ParseOptions{});
  if (tu.records.size() != kRecords) state.SkipWithError("unexpected number of records");
  if (layout) {
    uint64_t sum = 0;
    for (const abikit::RecordDecl* rd : tu.records) sum += engine.of(*rd).size;
    benchmark::DoNotOptimize(sum);
  }
  benchmark::DoNotOptimize(tu.records.data());
}

void report(benchmark::State& state, const std::string& text) {
  state.counters["records/s"] =
      benchmark::Counter(double(kRecords), benchmark::Counter::kIsIterationInvariantRate);
  state.SetBytesProcessed(int64_t(state.iterations() * text.size()));
}

// Preprocess and parse (the sizeof/offsetof of no record is needed by the header).
void BM_Parse(benchmark::State& state) {
  abikit::Target t = target();
  for (auto _ : state) parseOnce(t, header(), false, state);
  report(state, header());
}
BENCHMARK(BM_Parse)->Unit(benchmark::kMillisecond);

// Parse and lay out every record, as `abikit layout` does before printing.
void BM_ParseAndLayout(benchmark::State& state) {
  abikit::Target t = target();
  for (auto _ : state) parseOnce(t, header(), true, state);
  report(state, header());
}
BENCHMARK(BM_ParseAndLayout)->Unit(benchmark::kMillisecond);

// The same declarations written through function-like macros.
void BM_ParseMacroHeavy(benchmark::State& state) {
  abikit::Target t = target();
  for (auto _ : state) parseOnce(t, macroHeader(), false, state);
  report(state, macroHeader());
}
BENCHMARK(BM_ParseMacroHeavy)->Unit(benchmark::kMillisecond);

// Real headers: the file named by ABIKIT_REAL_HEADER, one preprocessed translation unit of
// real declarations (bench/real_vs_clang.sh writes it: the Linux UAPI headers, glibc's and
// vulkan_core.h, for riscv64-linux-gnu), parsed and every record laid out.
void BM_ParseRealHeaders(benchmark::State& state) {
  static const std::string text = [] {
    std::string t;
    const char* path = std::getenv("ABIKIT_REAL_HEADER");
    if (!path) return t;
    FILE* f = std::fopen(path, "rb");
    if (!f) return t;
    char buf[1 << 16];
    size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) t.append(buf, n);
    std::fclose(f);
    return t;
  }();
  if (text.empty()) {
    state.SkipWithError("set ABIKIT_REAL_HEADER to a preprocessed header");
    return;
  }
  abikit::TargetOptions o;
  o.triple = "riscv64-unknown-linux-gnu";
  o.march = "rv64gc";
  abikit::Target t = abikit::resolveTarget(o);
  size_t records = 0;
  for (auto _ : state) {
    abikit::TypeContext ctx(t, abikit::Language::C);
    abikit::LayoutEngine engine(ctx);
    abikit::TranslationUnit tu = abikit::parseSource(ctx, engine, "real.i", text, {});
    uint64_t sum = 0;
    for (const abikit::RecordDecl* rd : tu.records) sum += engine.of(*rd).size;
    benchmark::DoNotOptimize(sum);
    records = tu.records.size();
  }
  state.counters["records"] = double(records);
  state.SetBytesProcessed(int64_t(state.iterations() * text.size()));
}
BENCHMARK(BM_ParseRealHeaders)->Unit(benchmark::kMillisecond);

// The fixed cost of a translation unit: predefined macros, the built-in headers and one record.
void BM_SmallHeader(benchmark::State& state) {
  abikit::Target t = target();
  const std::string text =
      "#include <stdint.h>\n#include <stddef.h>\nstruct S { uint32_t a; size_t b; };\n";
  for (auto _ : state) {
    abikit::TypeContext ctx(t, abikit::Language::C);
    abikit::LayoutEngine engine(ctx);
    abikit::TranslationUnit tu = abikit::parseSource(ctx, engine, "small.h", text, {});
    benchmark::DoNotOptimize(tu.records.data());
  }
}
BENCHMARK(BM_SmallHeader)->Unit(benchmark::kMicrosecond);

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
#if defined(__GLIBC__)
  // Each iteration frees everything it allocated. With glibc's defaults the memory goes back to
  // the kernel (the heap is trimmed, large blocks are unmapped) and the next iteration takes it
  // again, one page fault per 4 KiB page: thousands per parse of the benchmark header, in kernel
  // time that belongs to neither the parser nor the CLI (which keeps its heap: see
  // tools/abikit/heap.cpp). Keep the memory in the heap between iterations, as the CLI does.
  mallopt(M_MMAP_THRESHOLD, 32 << 20);
  mallopt(M_TRIM_THRESHOLD, INT_MAX);
#endif
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
