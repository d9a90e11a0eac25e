// The debugging-information reader and the --debug-info dump on real objects: the RISC-V programs
// of the fuzz corpus (clang-14/19/22 and GCC 12 builds, tests/fuzz/corpus/dwarf_info), or the
// file ABIKIT_BENCH_DWARF names (e.g. the large program bench/dwarf_info_vs_dwarfdump.sh builds).
// BM_Index: units, abbreviations and the DIE index; BM_DumpText: the dump into a string, index
// included (what `abikit dwarf --debug-info` does after reading the file and resolving its
// target); BM_DumpJson likewise.
#include "abikit/dwarf_info.h"
#include "abikit/elf.h"
#include "abikit/emit.h"

#include <benchmark/benchmark.h>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

namespace {

using namespace abikit;

std::vector<std::string> inputs() {
  if (const char* f = std::getenv("ABIKIT_BENCH_DWARF")) return {f};
  std::vector<std::string> out;
  for (const auto& e : std::filesystem::directory_iterator(std::string(ABIKIT_SOURCE_DIR) +
                                                           "/tests/fuzz/corpus/dwarf_info"))
    out.push_back(e.path().string());
  return out;
}

struct Loaded {
  std::vector<ElfFile> files;
  std::vector<Target> targets;
  size_t info_bytes = 0;
};

const Loaded& loaded() {
  static Loaded l = [] {
    Loaded x;
    for (const std::string& p : inputs()) {
      x.files.push_back(ElfFile::open(p));
      x.targets.push_back(elfTarget(x.files.back()));
      x.info_bytes += debugSections(x.files.back()).info.bytes.size();
    }
    return x;
  }();
  return l;
}

void BM_Index(benchmark::State& state) {
  const Loaded& l = loaded();
  for (auto _ : state)
    for (const ElfFile& f : l.files) {
      dwarf::DebugInfo info(debugSections(f));
      benchmark::DoNotOptimize(info.units().size());
    }
  state.SetBytesProcessed(int64_t(state.iterations() * l.info_bytes));
}
BENCHMARK(BM_Index)->Unit(benchmark::kMicrosecond);

void BM_DumpText(benchmark::State& state) {
  const Loaded& l = loaded();
  size_t out = 0;
  for (auto _ : state)
    for (size_t i = 0; i < l.files.size(); ++i) {
      dwarf::DebugInfo info(debugSections(l.files[i]));
      std::string t = dwarfInfoText(l.targets[i], info, DwarfDumpOptions{});
      out = t.size();
      benchmark::DoNotOptimize(t.data());
    }
  state.SetBytesProcessed(int64_t(state.iterations() * l.info_bytes));
  state.counters["last_text_bytes"] = double(out);
}
BENCHMARK(BM_DumpText)->Unit(benchmark::kMicrosecond);

void BM_DumpJson(benchmark::State& state) {
  const Loaded& l = loaded();
  for (auto _ : state)
    for (size_t i = 0; i < l.files.size(); ++i) {
      dwarf::DebugInfo info(debugSections(l.files[i]));
      std::string t = dwarfInfoJson(l.targets[i], info, DwarfDumpOptions{});
      benchmark::DoNotOptimize(t.data());
    }
  state.SetBytesProcessed(int64_t(state.iterations() * l.info_bytes));
}
BENCHMARK(BM_DumpJson)->Unit(benchmark::kMicrosecond);

} // namespace
