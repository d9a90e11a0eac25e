// ELF reading speed: open/validate, decode every relocation with its symbol, and the text and
// JSON views of an object with 1,000,000 relocations made by the test-side writer.
//   abikit_bench_elf                        run the benchmarks
//   abikit_bench_elf --write-object PATH    write the object (used by bench/elf_vs_readelf.sh)
#include "../tests/unit/elf_writer.h"
#include "abikit/elf.h"
#include "abikit/emit.h"

#include <benchmark/benchmark.h>
#include <cstdio>
#include <cstring>

namespace {

constexpr size_t kRelocations = 1000000;
constexpr size_t kSymbols = 1000;

/// A RISC-V ELF64 relocatable object: .data of 8 * kRelocations bytes with one R_RISCV_64
/// against one of kSymbols undefined symbols per 8-byte word.
std::vector<uint8_t> makeObject() {
  abikit::test::ElfWriter w(2, 1, abikit::kEmRiscv, 0x5);
  uint32_t data = w.addSection(".data", 1, 3, std::vector<uint8_t>(8 * kRelocations, 0), 0, 0, 8);
  for (size_t i = 0; i < kSymbols; ++i) w.addSymbol("sym" + std::to_string(i), 0, 0, 0, 1, 0);
  for (size_t i = 0; i < kRelocations; ++i)
    w.addRelocation(data, 8 * i, 2, uint32_t(1 + i % kSymbols), int64_t(i));
  return w.build();
}

const std::vector<uint8_t>& object() {
  static const std::vector<uint8_t> bytes = makeObject();
  return bytes;
}

void BM_Open(benchmark::State& state) {
  const auto& bytes = object();
  for (auto _ : state) {
    abikit::ElfFile f = abikit::ElfFile::fromMemory("bench.o", bytes);
    benchmark::DoNotOptimize(f.sections().size());
  }
}
BENCHMARK(BM_Open);

void BM_DecodeRelocations(benchmark::State& state) {
  abikit::ElfFile f = abikit::ElfFile::fromMemory("bench.o", object());
  for (auto _ : state) {
    uint64_t sum = 0;
    for (const abikit::ElfRelocationTable& t : f.relocationTables())
      for (size_t i = 0; i < t.size(); ++i) {
        abikit::ElfRelocation r = t[i];
        sum += r.offset + uint64_t(r.addend) + t.symbols()[r.symbol].name.size();
      }
    benchmark::DoNotOptimize(sum);
  }
  state.SetItemsProcessed(int64_t(state.iterations() * kRelocations));
}
BENCHMARK(BM_DecodeRelocations)->Unit(benchmark::kMillisecond);

void BM_RelocationsText(benchmark::State& state) {
  abikit::ElfFile f = abikit::ElfFile::fromMemory("bench.o", object());
  std::string out;
  for (auto _ : state) {
    out.clear();
    abikit::appendElfText(f, abikit::ElfViewOptions{false, true, false}, out);
    benchmark::DoNotOptimize(out.data());
  }
  state.SetItemsProcessed(int64_t(state.iterations() * kRelocations));
  state.SetBytesProcessed(int64_t(state.iterations() * out.size()));
}
BENCHMARK(BM_RelocationsText)->Unit(benchmark::kMillisecond);

void BM_RelocationsJson(benchmark::State& state) {
  abikit::ElfFile f = abikit::ElfFile::fromMemory("bench.o", object());
  std::string out;
  for (auto _ : state) {
    out.clear();
    abikit::appendElfJson(f, abikit::ElfViewOptions{false, true, false}, out);
    benchmark::DoNotOptimize(out.data());
  }
  state.SetItemsProcessed(int64_t(state.iterations() * kRelocations));
}
BENCHMARK(BM_RelocationsJson)->Unit(benchmark::kMillisecond);

} // namespace

int main(int argc, char** argv) {
  if (argc == 3 && std::strcmp(argv[1], "--write-object") == 0) {
    const auto& bytes = object();
    FILE* f = std::fopen(argv[2], "wb");
    if (!f || std::fwrite(bytes.data(), 1, bytes.size(), f) != bytes.size() || std::fclose(f)) {
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
