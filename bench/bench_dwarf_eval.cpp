// DWARF expression evaluation (reference dwarf.md §2): typical location expressions of AMDGPU and
// RISC-V code, each evaluated and its result read, in a machine whose registers and memory are
// arrays. Counters: evaluations per second and the heap allocations per evaluation after warm-up
// (the issue asks for none; a counting operator new below measures it).
#include "abikit/dwarf.h"
#include "abikit/dwarf_eval.h"
#include "abikit/target.h"
#include "alloc_counter.h"

#include <atomic>
#include <benchmark/benchmark.h>
#include <cstdlib>
#include <cstring>
#include <new>

using abikit::bench::g_allocations;

namespace {

using namespace abikit;
using namespace abikit::dwarf;

class ArrayMachine : public Machine {
public:
  uint8_t regs[4096][8] = {};
  uint8_t vgpr[256] = {};
  uint8_t mem[7][65536] = {};
  bool readRegister(uint32_t reg, uint64_t at, std::span<uint8_t> out) override {
    if (reg >= 2560 && reg < 2816) {
      if (at + out.size() > sizeof vgpr) return false;
      std::memcpy(out.data(), vgpr + at, out.size());
      return true;
    }
    if (reg >= 4096 || at + out.size() > 8) return false;
    std::memcpy(out.data(), regs[reg] + at, out.size());
    return true;
  }
  bool writeRegister(uint32_t, uint64_t, std::span<const uint8_t>) override { return false; }
  bool readMemory(uint32_t space, uint64_t addr, std::span<uint8_t> out) override {
    if (space >= 7 || addr >= 65536 || out.size() > 65536 - addr) return false;
    std::memcpy(out.data(), mem[space] + addr, out.size());
    return true;
  }
  bool writeMemory(uint32_t, uint64_t, std::span<const uint8_t>) override { return false; }
};

struct Case {
  const char* triple;
  const char* cpu;
  const char* text;
};
// What compilers emit: a spilled value in AMDGPU scratch (the CFA idiom of reference dwarf.md
// §4.5 with a piece of the lane's VGPR element: 10 operations), the lane's element of a VGPR, a
// RISC-V stack slot, and a value computed from a register (DW_OP_stack_value).
constexpr Case kCases[] = {
    {"amdgcn-amd-amdhsa", "gfx90a",
     "DW_OP_regx 0x20, DW_OP_deref_size 0x4, DW_OP_lit6, DW_OP_shl, DW_OP_lit6, "
     "DW_OP_LLVM_form_aspace_address, DW_OP_LLVM_offset_uconst 0x10, DW_OP_piece 0x4, "
     "DW_OP_regx 0xa00, DW_OP_piece 0x4"},
    {"amdgcn-amd-amdhsa", "gfx90a",
     "DW_OP_regx 0xa00, DW_OP_LLVM_push_lane, DW_OP_lit4, DW_OP_mul, DW_OP_LLVM_offset"},
    {"riscv64-unknown-elf", "", "DW_OP_breg2 24"},
    {"riscv64-unknown-elf", "",
     "DW_OP_breg10 0, DW_OP_lit3, DW_OP_shl, DW_OP_constu 0x100, DW_OP_plus, DW_OP_stack_value"},
};

void BM_DwarfEvaluate(benchmark::State& state) {
  const Case& c = kCases[state.range(0)];
  TargetOptions o;
  o.triple = c.triple;
  o.mcpu = c.cpu;
  static ArrayMachine m;
  Target t = resolveTarget(o);
  Evaluator ev(t, m);
  ev.options().lane = 5;
  ev.options().subprogram_lanes = t.dwarf.lanes > 1 ? t.dwarf.lanes : 0;
  Expression e = assemble(c.text, ev.options().format);
  std::vector<uint8_t> out;
  out.reserve(64);
  // Warm-up: the evaluator's pools reach their size.
  for (int i = 0; i < 4; ++i) {
    ev.reset();
    ev.read(ev.evaluate(e, ResultKind::Location).location, 64, out);
  }
  uint64_t before = g_allocations.load();
  for (auto _ : state) {
    ev.reset();
    EvalResult r = ev.evaluate(e, ResultKind::Location);
    ev.read(r.location, 64, out);
    benchmark::DoNotOptimize(out.data());
  }
  state.counters["allocs/eval"] =
      double(g_allocations.load() - before) / double(std::max<int64_t>(state.iterations(), 1));
  state.counters["ops"] = double(e.ops.size());
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_DwarfEvaluate)->DenseRange(0, 3);

} // namespace
