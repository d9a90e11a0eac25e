// `abikit compat` speed: the generated 20,000-record header (gen_header.h) laid out on five
// targets — x86_64-linux-gnu, x86_64-pc-windows-msvc, aarch64-linux-gnu, nvptx64-nvidia-cuda,
// dpu-upmem-dpurte — and compared record by record, as the command does (parse on each target,
// compareLayouts, the text report); and the comparison alone, the five parses done once.
// bench/compat_vs_clang.sh times the whole CLI against clang-22 -fsyntax-only on the same header
// for the same five targets.
#include "abikit/compat.h"
#include "abikit/cparse.h"
#include "abikit/emit.h"
#include "abikit/layout.h"
#include "gen_header.h"

#include <benchmark/benchmark.h>
#include <memory>
#include <string>
#include <vector>

namespace {

constexpr size_t kRecords = 20000;

const std::string& header() {
  static const std::string h = abikit::bench::generateHeader(kRecords);
  return h;
}

const char* const kTriples[] = {"x86_64-linux-gnu", "x86_64-pc-windows-msvc", "aarch64-linux-gnu",
                                "nvptx64-nvidia-cuda", "dpu-upmem-dpurte"};

// One target's parse of the header (as cmd_compat.cpp keeps it).
struct Side {
  abikit::Target target;
  abikit::TypeContext ctx;
  abikit::LayoutEngine engine;
  abikit::TranslationUnit tu;
  explicit Side(abikit::Target t)
      : target(std::move(t)), ctx(target, abikit::Language::C), engine(ctx),
        tu(abikit::parseSource(ctx, engine, "gen.h", header(), abikit::ParseOptions{})) {}
};

std::vector<std::unique_ptr<Side>> parseAll() {
  std::vector<std::unique_ptr<Side>> out;
  for (const char* triple : kTriples) {
    abikit::TargetOptions o;
    o.triple = triple;
    out.push_back(std::make_unique<Side>(abikit::resolveTarget(o)));
  }
  return out;
}

std::vector<abikit::CompatSide> sidesOf(const std::vector<std::unique_ptr<Side>>& parsed) {
  std::vector<abikit::CompatSide> sides;
  for (const auto& s : parsed) sides.push_back({&s->engine, s->tu.records});
  return sides;
}

// The whole job of `abikit compat gen.h --target ...` (five targets), without the file I/O.
void BM_CompatFiveTargets(benchmark::State& state) {
  size_t differing = 0;
  for (auto _ : state) {
    std::vector<std::unique_ptr<Side>> parsed = parseAll();
    std::vector<std::string> names;
    for (const auto& s : parsed) names.push_back(s->target.spelling);
    std::vector<abikit::CompatRecord> records = abikit::compareLayouts(sidesOf(parsed));
    std::string text = abikit::compatText(names, records);
    benchmark::DoNotOptimize(text.data());
    differing = 0;
    for (const abikit::CompatRecord& r : records) differing += !r.same();
  }
  state.counters["records_differing"] = double(differing);
  state.SetItemsProcessed(int64_t(state.iterations() * kRecords));
}
BENCHMARK(BM_CompatFiveTargets)->Unit(benchmark::kMillisecond);

// compareLayouts alone: the five parses (and their layouts) made once.
void BM_CompatCompareOnly(benchmark::State& state) {
  std::vector<std::unique_ptr<Side>> parsed = parseAll();
  std::vector<abikit::CompatSide> sides = sidesOf(parsed);
  for (auto _ : state) {
    std::vector<abikit::CompatRecord> records = abikit::compareLayouts(sides);
    benchmark::DoNotOptimize(records.data());
  }
  state.SetItemsProcessed(int64_t(state.iterations() * kRecords));
}
BENCHMARK(BM_CompatCompareOnly)->Unit(benchmark::kMillisecond);

} // namespace
