// AMDGPU DWARF data (reference dwarf.md §3 and §4.1): register numbers and sizes, address spaces,
// the private-memory swizzle and generic apertures, and the default CIE. Part of the AMDGPU
// family (amdgpu.cpp calls amdgpuDwarfInfo()).
#include "abikit/target.h"

namespace abikit::detail {
namespace {

using M = DwarfRegMode;
// §3.1: one numbering for every processor; vector registers have a range per wave mode, full
// wavefront width (lane L's 32-bit element in bits [32L, 32L+32)).
constexpr DwarfRegisterRange kRegisters[] = {
    {0, 1, 32, M::Proc32, "PC_32", 0, false, 0},
    {1, 1, 32, M::Wave32, "EXEC_MASK_32", 0, false, 0},
    {16, 1, 64, M::Proc64, "PC_64", 0, false, 0},
    {17, 1, 64, M::Wave64, "EXEC_MASK_64", 0, false, 0},
    {32, 64, 32, M::Any, "SGPR", 0, true, 0},
    {1088, 42, 32, M::Any, "SGPR", 64, true, 0},
    {1536, 256, 1024, M::Wave32, "VGPR", 0, true, 32},
    {2048, 256, 1024, M::Wave32, "AGPR", 0, true, 32},
    {2560, 256, 2048, M::Wave64, "VGPR", 0, true, 32},
    {3072, 256, 2048, M::Wave64, "AGPR", 0, true, 32},
};

using S = DwarfSpaceScope;
constexpr uint32_t kGlobal = 0, kGeneric = 1, kRegion = 2, kLocal = 3, kPrivateLane = 5,
                   kPrivateWave = 6, kPrivateLaneN = 0x20;
// §3.2 (64-bit process: the amdgcn triple has no other).
constexpr DwarfAddressSpace kSpaces[] = {
    {kGlobal, 1, "global", 64, S::Process, false},
    {kGeneric, 1, "generic", 64, S::Lane, false},
    {kRegion, 1, "region", 32, S::Process, false},
    {kLocal, 1, "local", 32, S::Wave, false},
    {kPrivateLane, 1, "private_lane", 32, S::Lane, false},
    {kPrivateWave, 1, "private_wave", 32, S::Wave, false},
    {kPrivateLaneN, 64, "private_lane", 32, S::FixedLane, true},
};

// private_lane(L, A) is byte W of private_wave: one dword per lane, interleaved (§3.3).
uint64_t swizzle(uint64_t a, uint32_t lane, uint32_t lanes) {
  return (a / 4) * uint64_t(lanes) * 4 + uint64_t(lane) * 4 + (a % 4);
}

bool mapAmdgpu(uint32_t space, uint64_t address, uint32_t lane, uint32_t lanes,
               std::span<const DwarfAperture> apertures, DwarfPhysicalByte& out) {
  if (space == kGeneric) {
    // Inside the LDS or private aperture: that space of the bound wave / lane; else global.
    for (const DwarfAperture& a : apertures) {
      if (address >= a.base && address - a.base < (uint64_t(1) << 32))
        return mapAmdgpu(a.space, address - a.base, lane, lanes, {}, out);
    }
    out = {kGlobal, address};
    return true;
  }
  if (space >= kPrivateLaneN && space < kPrivateLaneN + 64) {
    lane = space - kPrivateLaneN;
    space = kPrivateLane;
  }
  if (space == kPrivateLane) {
    out = {kPrivateWave, swizzle(address, lane, lanes)};
    return out.address < (uint64_t(1) << 32);
  }
  out = {space, address};
  return true;
}

// clang-14 and clang-19 mark private and LDS variables with the old address classes (1, 2);
// clang-22 with the DWARF address-space numbers (5, 3), which are abikit's ids. The two sets do
// not collide in what either compiler writes, so both are read.
constexpr DwarfSpaceMarker kMarkers[] = {
    {1, kPrivateLane, "clang-14, clang-19: private"},
    {2, kLocal, "clang-14, clang-19: LDS"},
    {3, kLocal, "clang-22: LDS"},
    {5, kPrivateLane, "clang-22: private"},
};

} // namespace

DwarfTargetInfo amdgpuDwarfInfo(unsigned wavefront_size) {
  DwarfTargetInfo d;
  d.registers = kRegisters;
  d.spaces = kSpaces;
  d.lanes = wavefront_size;
  d.address_bits = 64;
  d.map = mapAmdgpu;
  d.return_address_column = 16; // PC_64
  d.code_alignment = 4;
  d.data_alignment = 4;
  d.default_same_value = true;
  d.cie_augmentation = "[amd:v0.0]";
  d.xderef_markers = kMarkers;
  return d;
}

} // namespace abikit::detail
