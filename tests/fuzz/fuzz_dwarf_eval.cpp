// Fuzzes the DWARF expression evaluator in random machine states. The first byte picks the target
// (AMDGPU wave64 and wave32, RISC-V 64 and 32, NVPTX), the profile and the result kind; the
// second the machine: which registers and memory are available and a seed for their bytes; the
// rest is the expression. DIEs exist at every unit offset: base types of several encodings and
// sizes, DWARF procedures and variables whose locations are slices of the input (so calls nest
// and recurse), constants. Every input must evaluate or throw EvalError (or ExprError from
// decoding); a result must describe, and reading and writing through it must succeed or throw
// EvalError. Anything else (a crash, another exception, a hang, unbounded memory) is a bug.
#include "abikit/dwarf.h"
#include "abikit/dwarf_eval.h"
#include "abikit/target.h"

#include <cstddef>
#include <cstdint>
#include <vector>

using namespace abikit;
using namespace abikit::dwarf;

namespace {

class FuzzMachine : public Machine, public DieResolver {
public:
  uint8_t seed = 0, avail = 0;
  std::span<const uint8_t> input;
  std::vector<uint8_t> written; // the last write, to be read back

  uint8_t byteOf(uint64_t a, uint64_t b) const { return uint8_t(a * 31 + b * 7 + seed); }
  bool readRegister(uint32_t reg, uint64_t at, std::span<uint8_t> out) override {
    if ((reg + avail) % 5 == 0) return false;
    for (size_t i = 0; i < out.size(); ++i) out[i] = byteOf(reg, at + i);
    return true;
  }
  bool writeRegister(uint32_t reg, uint64_t, std::span<const uint8_t> in) override {
    written.assign(in.begin(), in.end());
    return (reg + avail) % 7 != 0;
  }
  bool readMemory(uint32_t space, uint64_t addr, std::span<uint8_t> out) override {
    if (addr >= 4096 || out.size() > 4096 - addr || (space + avail) % 3 == 0) return false;
    for (size_t i = 0; i < out.size(); ++i) out[i] = byteOf(space, addr + i);
    return true;
  }
  bool writeMemory(uint32_t space, uint64_t addr, std::span<const uint8_t> in) override {
    written.assign(in.begin(), in.end());
    return addr < 4096 && (space + avail) % 3 != 0;
  }
  uint32_t registerBits(uint32_t reg) override { return avail & 1 ? 128 + 64 * (reg % 4) : 0; }
  bool entryValue(uint32_t reg, std::span<uint8_t> out) override {
    return readRegister(reg + 1, 0, out);
  }
  bool tlsAddress(uint64_t offset, uint64_t& address) override {
    address = offset + 64;
    return avail & 2;
  }
  bool debugAddr(uint64_t index, uint64_t& value) override {
    value = index * 8;
    return index < 512;
  }
  bool byUnitOffset(uint64_t off, DieInfo& out) override {
    out = DieInfo{};
    switch (off % 8) {
    case 0:
      return false;
    case 1:
    case 2:
      out.tag = kTagBaseType;
      out.base_type = {off, uint32_t(8u << (off % 5)), uint8_t(1 + off % 8),
                       uint32_t(off % 16 == 2 ? 4 : 1)};
      return true;
    case 3:
    case 4:
      out.tag = off % 8 == 3 ? kTagDwarfProcedure : kTagVariable;
      out.has_location = true;
      out.location_is_list = off % 16 == 12;
      out.location = input.subspan(
          std::min<size_t>(input.size(), off % 64),
          std::min<size_t>(input.size() - std::min<size_t>(input.size(), off % 64), off % 13));
      return true;
    case 5:
      out.tag = kTagVariable;
      out.has_const_value = true;
      out.const_value = input.subspan(0, std::min<size_t>(input.size(), off % 11));
      return true;
    default:
      out.tag = kTagVariable;
      return true;
    }
  }
  bool bySectionOffset(uint64_t off, DieInfo& out) override { return byUnitOffset(off, out); }
};

const Target& targetFor(unsigned k) {
  static const Target targets[] = {
      resolveTarget({"amdgcn-amd-amdhsa", "", "", "gfx90a"}),
      resolveTarget({"amdgcn-amd-amdhsa", "", "", "gfx1030"}),
      resolveTarget({"riscv64-unknown-elf", "rv64gcv", "lp64d"}),
      resolveTarget({"riscv32-unknown-elf", "rv32imac", "ilp32"}),
      resolveTarget({"nvptx64-nvidia-cuda"}),
  };
  return targets[k % 5];
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 2) return 0;
  const Target& t = targetFor(data[0] % 5);
  FuzzMachine m;
  m.avail = data[1] & 0x0f;
  m.seed = data[1] & 0xf0;
  std::span<const uint8_t> expr(data + 2, size - 2);
  m.input = expr;
  Evaluator ev(t, m, &m);
  ExprFormat& f = ev.options().format;
  f.address_size = uint8_t(t.data.pointer.size == 4 ? 4 : 8);
  ev.options().profile = data[0] & 0x20 ? Profile::Newest : Profile::Seed;
  if (data[0] & 0x40) ev.options().lane = data[1] % 64;
  ev.options().subprogram_lanes = t.dwarf.lanes > 1 ? t.dwarf.lanes : 0;
  ev.options().cfi = data[0] & 0x80;
  ev.options().apertures = {{3, 0x1000}, {5, 0x2000}};
  ev.options().frame_base = assemble("DW_OP_regx 0x20", f);
  ev.options().object_address = assemble("DW_OP_addr 0x40", f);
  ev.reset();
  const ResultKind kinds[] = {ResultKind::Location, ResultKind::Value, ResultKind::Unspecified};
  try {
    Expression e = decode(expr, f);
    EvalResult r = ev.evaluate(e, kinds[(data[0] >> 3) % 3]);
    if (r.kind == ResultKind::Value) {
      (void)ev.valueInfo(r);
      return 0;
    }
    (void)ev.describe(r.location);
    std::vector<uint8_t> out;
    try {
      ev.read(r.location, 8 * (1 + data[1] % 16), out);
    } catch (const EvalError&) {
    }
    try {
      uint8_t b[4] = {1, 2, 3, 4};
      ev.write(r.location, 1 + data[1] % 32, b);
    } catch (const EvalError&) {
    }
  } catch (const EvalError&) {
  } catch (const ExprError&) {
  }
  return 0;
}
