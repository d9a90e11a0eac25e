// NVPTX DWARF data: the two register numberings of an NVPTX object (PTX register names packed
// into numbers, as LLVM writes them into .debug_info/.debug_loc; SASS registers by class and
// index, as ptxas writes them into a cubin's .debug_frame), the memory spaces of
// DW_AT_address_class, and the CIE ptxas writes. Part of the NVPTX family (nvptx.cpp calls
// nvptxDwarfInfo()); docs/targets/nvptx.md, "DWARF", gives the sources and the measurements.
#include "family.h"

#include <array>
#include <string>

namespace abikit {

uint64_t nvptxDwarfRegisterNumber(std::string_view ptx_name) {
  // LLVM's NVPTXRegisterInfo (encodeRegisterForDwarf, cuda-gdb's encoding): the bytes of the
  // name, first byte most significant; names longer than 8 bytes get no number.
  if (ptx_name.empty() || ptx_name.size() > 8) return 0;
  uint64_t n = 0;
  for (char c : ptx_name) n = (n << 8) | uint8_t(c);
  return n;
}

std::string nvptxDwarfRegisterName(uint64_t number) {
  std::string name;
  for (int shift = 56; shift >= 0; shift -= 8) {
    auto c = char((number >> shift) & 0xff);
    if (c == 0 && name.empty()) continue;
    bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '_' || c == '$' || (c == '%' && name.empty());
    if (!ok) return "";
    name += c;
  }
  return name.size() >= 2 && name[0] == '%' ? name : "";
}

namespace detail {
namespace {

using M = DwarfRegMode;

// SASS registers in ptxas's CFI: (register class << 24) | index, the classes of the CUDA
// debugger API (cudadebugger.h CUDBGRegClass: 2 predicate, 5 32-bit register, 9 uniform
// predicate, 11 32-bit uniform register; 1 the condition code, whose size nothing documents).
constexpr DwarfRegisterRange kSass[] = {
    {0x01000000, 1, 0, M::Any, "CC", 0, false, 0},
    {0x02000000, 8, 1, M::Any, "P", 0, true, 0},
    {0x05000000, 255, 32, M::Any, "R", 0, true, 0},
    {0x050000ff, 1, 32, M::Any, "RZ", 0, false, 0},
};
// Uniform registers exist from sm_75 (Turing).
constexpr DwarfRegisterRange kUniform[] = {
    {0x09000000, 8, 1, M::Any, "UP", 0, true, 0},
    {0x0b000000, 255, 32, M::Any, "UR", 0, true, 0},
    {0x0b0000ff, 1, 32, M::Any, "URZ", 0, false, 0},
};
// The PTX names LLVM gives fixed registers, packed: %SP (the frame; LLVM names the local depot
// %SP too) and %SPL (the frame's .local address). Pointer-sized.
constexpr DwarfRegisterRange kPtxFixed[] = {
    {0x00255350, 1, 0, M::Any, "%SP", 0, false, 0},
    {0x2553504c, 1, 0, M::Any, "%SPL", 0, false, 0},
};

template <size_t N> constexpr std::array<DwarfRegisterRange, N> buildRegisters(uint32_t bits) {
  std::array<DwarfRegisterRange, N> out{};
  size_t n = 0;
  for (DwarfRegisterRange r : kPtxFixed) {
    r.bits = bits;
    out[n++] = r;
  }
  for (const DwarfRegisterRange& r : kSass) out[n++] = r;
  if constexpr (N > std::size(kPtxFixed) + std::size(kSass))
    for (const DwarfRegisterRange& r : kUniform) out[n++] = r;
  return out;
}
constexpr size_t kNumOld = std::size(kPtxFixed) + std::size(kSass);
constexpr size_t kNumAll = kNumOld + std::size(kUniform);
constexpr auto kRegs64 = buildRegisters<kNumAll>(64);
constexpr auto kRegs64Old = buildRegisters<kNumOld>(64);
constexpr auto kRegs32 = buildRegisters<kNumAll>(32);
constexpr auto kRegs32Old = buildRegisters<kNumOld>(32);

// The memory spaces among the DW_AT_address_class codes of the PTX writer's guide (LLVM's
// NVPTXAS::DWARF_AddressSpace): the ones LLVM writes for variables and a debugger reads. No id 0:
// NVPTX DWARF has no default space (see docs).
using S = DwarfSpaceScope;
template <uint8_t Bits>
constexpr DwarfAddressSpace kSpaces[] = {
    {4, 1, "const", Bits, S::Process, false}, {5, 1, "global", Bits, S::Process, false},
    {6, 1, "local", Bits, S::Lane, false},    {7, 1, "param", Bits, S::Lane, false},
    {8, 1, "shared", Bits, S::Wave, false},   {12, 1, "generic", Bits, S::Lane, false},
};

} // namespace

DwarfTargetInfo nvptxDwarfInfo(bool is64, unsigned sm) {
  const bool uniform = sm >= 75;
  DwarfTargetInfo d;
  if (is64)
    d.registers = uniform ? std::span<const DwarfRegisterRange>(kRegs64)
                          : std::span<const DwarfRegisterRange>(kRegs64Old);
  else
    d.registers = uniform ? std::span<const DwarfRegisterRange>(kRegs32)
                          : std::span<const DwarfRegisterRange>(kRegs32Old);
  d.spaces = is64 ? std::span<const DwarfAddressSpace>(kSpaces<64>)
                  : std::span<const DwarfAddressSpace>(kSpaces<32>);
  d.lanes = 1; // DWARF describes one thread; a warp's threads are not lanes of a register
  d.address_bits = is64 ? 64 : 32;
  d.map = nullptr; // the debugger reads generic addresses as such
  // The CIE ptxas 13.0 writes (sm_75 to sm_121; LLVM writes no CFI for NVPTX): return address
  // R20 (the return address is R20:R21), code alignment 4, data alignment -4, no augmentation;
  // the CIE lists a rule for every register it cares about, the rest are undefined.
  d.return_address_column = 0x05000014;
  d.code_alignment = 4;
  d.data_alignment = -4;
  d.default_same_value = false;
  d.cie_augmentation = "";
  return d;
}

} // namespace detail
} // namespace abikit
