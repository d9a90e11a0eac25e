// Graphcore IPU (colossus-graphcore-elf): data model, registers, stack, memory, ELF identity,
// relocations, predefined macros and the <ipudef.h> header. Sources: seeds/001 (IPU ABI) and
// reference/ipu.md (Graphcore's LLVM fork: clang target, driver and tests, the Colossus
// backend, lld); see docs/targets/ipu.md for where the two differ and what abikit follows.
#include "family.h"

#include <array>
#include <cstdio>
#include <initializer_list>

namespace abikit {

std::string_view ipuArchName(IpuArch arch) {
  switch (arch) {
  case IpuArch::Ipu1:
    return "ipu1";
  case IpuArch::Ipu2:
    return "ipu2";
  case IpuArch::Ipu21:
    return "ipu21";
  }
  return "?";
}

std::string_view ipuModeName(IpuMode mode) {
  switch (mode) {
  case IpuMode::Worker:
    return "worker";
  case IpuMode::Supervisor:
    return "supervisor";
  case IpuMode::Both:
    return "both";
  }
  return "?";
}

namespace detail {
namespace {

// ----- registers ------------------------------------------------------------------------------
//
// One table per register file, written once with the roles the Colossus backend gives them
// (CC_Save, getReservedRegs, ARF_GP_REGISTERS = 8 on ipu1/ipu2/ipu21) and the backend's DWARF
// numbers (DwarfRegNum in ColossusRegisterInfo.td). Pairs and quads hold their lowest-numbered
// register in the least significant bits.

constexpr uint32_t kCaller = kRoleCallerSaved;
constexpr uint32_t kCallee = kRoleCalleeSaved;
constexpr uint32_t kArgRet = kRoleArgument | kRoleReturn | kRoleCallerSaved;
constexpr uint32_t kRes = kRoleReserved;
constexpr uint32_t kZero = kRoleZero | kRoleReadOnly | kRoleReserved;

constexpr RegisterInfo kMrf[] = {
    {"$m0", "", "mrf", 32, 0, kArgRet, "", "integer argument/return 1"},
    {"$m1", "", "mrf", 32, 1, kArgRet, "", "integer argument/return 2"},
    {"$m2", "", "mrf", 32, 2, kArgRet, "", "integer argument/return 3"},
    {"$m3", "", "mrf", 32, 3, kArgRet, "", "integer argument/return 4"},
    {"$m4", "", "mrf", 32, 4, kCaller, "", "scratch"},
    {"$m5", "", "mrf", 32, 5, kCaller, "", "scratch"},
    {"$m6", "", "mrf", 32, 6, kCaller, "", "scratch"},
    {"$m7", "", "mrf", 32, 7, kCallee, "", "scratch"},
    {"$m8", "$bp", "mrf", 32, 8, kCallee | kRoleBasePointer, "",
     "base pointer when the frame needs one (then reserved), else callee-saved scratch"},
    {"$m9", "$fp", "mrf", 32, 9, kCallee | kRoleFramePointer, "",
     "frame pointer when the frame needs one (then reserved), else callee-saved scratch"},
    {"$m10", "$lr", "mrf", 32, 10, kRoleReturnAddress | kCallee, "",
     "link register: a call writes the return address; functions that call save it at CFA-4"},
    {"$m11", "$sp", "mrf", 32, 11, kRoleStackPointer | kCallee | kRes, "",
     "stack pointer, 8-byte aligned"},
    {"$m12", "$mworker_base", "mrf", 32, 12, kRoleReadOnly | kRoleSpecialInput | kRes, "",
     "worker scratch-space base (read-only); a vertex derives its stack pointer from it"},
    {"$m13", "$mvertex_base", "mrf", 32, 13, kRoleReadOnly | kRoleSpecialInput | kRes, "",
     "address of the vertex state (read-only)"},
    {"$m14", "", "mrf", 32, 14, kRes, "", "unimplemented; never allocated"},
    {"$m15", "$mzero", "mrf", 32, 15, kZero, "", "hard-wired zero"},
    {"$m0:1", "", "mrf", 64, 32, kArgRet, "$m0 $m1",
     "64-bit integer-vector argument/return pair; $m0 = bits 31..0"},
    {"$m2:3", "", "mrf", 64, 33, kArgRet, "$m2 $m3",
     "64-bit integer-vector argument/return pair; $m2 = bits 31..0"},
    {"$m4:5", "", "mrf", 64, 34, kCaller, "$m4 $m5", ""},
    {"$m6:7", "", "mrf", 64, 35, 0, "$m6 $m7", "$m6 is caller-saved, $m7 callee-saved"},
    {"$m8:9", "", "mrf", 64, 36, kCallee, "$m8 $m9", "base pointer and frame pointer"},
    {"$m10:11", "", "mrf", 64, 37, kRes, "$m10 $m11", "link register and stack pointer"},
    {"$m12:13", "", "mrf", 64, 38, kRes | kRoleReadOnly, "$m12 $m13", "read-only bases"},
    {"$m14:15", "", "mrf", 64, 39, kRes, "$m14 $m15", "unimplemented register and zero"},
};

constexpr RegisterInfo kArf[] = {
    {"$a0", "", "arf", 32, 15, kArgRet, "",
     "float argument/return 1; the backend's DWARF number 15 is also $m15's (the fork's LLDB "
     "numbers $a0-$a15 as 16-31)"},
    {"$a1", "", "arf", 32, 16, kArgRet, "", "float argument/return 2"},
    {"$a2", "", "arf", 32, 17, kArgRet, "", "float argument/return 3"},
    {"$a3", "", "arf", 32, 18, kArgRet, "", "float argument/return 4"},
    {"$a4", "", "arf", 32, 19, kArgRet, "", "float argument/return 5"},
    {"$a5", "", "arf", 32, 20, kArgRet, "", "float argument/return 6"},
    {"$a6", "", "arf", 32, 21, kCallee, "", "scratch"},
    {"$a7", "", "arf", 32, 22, kCallee, "", "scratch"},
    {"$a8", "", "arf", 32, 23, kRes, "", "not allocated (ARF_GP_REGISTERS = 8)"},
    {"$a9", "", "arf", 32, 24, kRes, "", "not allocated (ARF_GP_REGISTERS = 8)"},
    {"$a10", "", "arf", 32, 25, kRes, "", "not allocated (ARF_GP_REGISTERS = 8)"},
    {"$a11", "", "arf", 32, 26, kRes, "", "not allocated (ARF_GP_REGISTERS = 8)"},
    {"$a12", "", "arf", 32, 27, kRes, "", "not allocated (ARF_GP_REGISTERS = 8)"},
    {"$a13", "", "arf", 32, 28, kRes, "", "not allocated (ARF_GP_REGISTERS = 8)"},
    {"$a14", "", "arf", 32, 29, kRes, "", "not allocated (ARF_GP_REGISTERS = 8)"},
    {"$a15", "$azero", "arf", 32, 31, kZero, "", "hard-wired zero (DWARF 30 is unused)"},
    {"$a0:1", "$ap0", "arf", 64, 40, kArgRet, "$a0 $a1",
     "64-bit float-vector argument/return pair; $a0 = bits 31..0"},
    {"$a2:3", "$ap1", "arf", 64, 41, kArgRet, "$a2 $a3",
     "64-bit float-vector argument/return pair; $a2 = bits 31..0"},
    {"$a4:5", "$ap2", "arf", 64, 42, kArgRet, "$a4 $a5",
     "64-bit float-vector argument/return pair; $a4 = bits 31..0"},
    {"$a6:7", "$ap3", "arf", 64, 43, kCallee, "$a6 $a7", ""},
    {"$a8:9", "$ap4", "arf", 64, 44, kRes, "$a8 $a9", ""},
    {"$a10:11", "$ap5", "arf", 64, 45, kRes, "$a10 $a11", ""},
    {"$a12:13", "$ap6", "arf", 64, 46, kRes, "$a12 $a13", ""},
    {"$a14:15", "$azeros", "arf", 64, 47, kRes, "$a14 $a15", "also spelled $ap15"},
    {"$a0:3", "$aq0", "arf", 128, 48, kRes, "$a0 $a1 $a2 $a3",
     "never allocated as a unit; calls use pairs, never quads"},
    {"$a4:7", "$aq1", "arf", 128, 49, kRes, "$a4 $a5 $a6 $a7",
     "never allocated as a unit; calls use pairs, never quads"},
    {"$a8:11", "$aq2", "arf", 128, 50, kRes, "$a8 $a9 $a10 $a11", ""},
    {"$a12:15", "$aq15", "arf", 128, 51, kRes, "$a12 $a13 $a14 $a15", ""},
    {"$a0:7", "$ao0", "arf", 256, 76, 0, "$a0 $a1 $a2 $a3 $a4 $a5 $a6 $a7",
     "octad used by a few instructions; not used by calls"},
    {"$a8:15", "$ao1", "arf", 256, 77, kRes, "$a8 $a9 $a10 $a11 $a12 $a13 $a14 $a15", ""},
};

constexpr size_t kNumMrf = std::size(kMrf);
constexpr size_t kNumArf = std::size(kArf);

/// The register table of one mode and ABI variant. Supervisor and "both" code has no $a file,
/// so those registers are absent. The seed's text (--abi-variant=documented) calls $m10 caller
/// save and returns floats in $a0-$a3 only.
template <size_t N> constexpr std::array<RegisterInfo, N> buildRegisters(bool documented) {
  std::array<RegisterInfo, N> out{};
  size_t n = 0;
  for (const RegisterInfo& r : kMrf) out[n++] = r;
  if constexpr (N > kNumMrf)
    for (const RegisterInfo& r : kArf) out[n++] = r;
  if (documented) {
    for (RegisterInfo& r : out) {
      std::string_view name = r.name;
      if (name == "$m10") {
        r.roles = kRoleReturnAddress | kRoleCallerSaved;
        r.note = "link register: a call writes the return address (caller save in the seed)";
      } else if (name == "$a4" || name == "$a5" || name == "$a4:5") {
        r.roles &= ~uint32_t(kRoleReturn);
      }
    }
  }
  return out;
}

constexpr auto kRegsWorker = buildRegisters<kNumMrf + kNumArf>(false);
constexpr auto kRegsWorkerDoc = buildRegisters<kNumMrf + kNumArf>(true);
constexpr auto kRegsMrfOnly = buildRegisters<kNumMrf>(false);
constexpr auto kRegsMrfOnlyDoc = buildRegisters<kNumMrf>(true);

// ----- DWARF ----------------------------------------------------------------------------------
//
// The backend's DwarfRegNum (ColossusRegisterInfo.td). It gives 15 to both $m15 ($mzero) and $a0:
// in worker code 15 is $a0 (the register a variable can live in; $m15 is hard-wired zero), in
// supervisor and "both" code, which have no $a file, it is $m15. Numbers 73-92 also name the
// backend's encoding-only registers ($ap7-$ap14, $aq3-$aq14, $ao1-$ao14, which overlap each other
// and 76/77); abikit keeps only the octads at 76 and 77. Accumulators are named by the backend's
// definitions (ACC0-ACC7, ACCD0-ACCD3, ACCQ0-ACCQ1; its assembly prints them as bare numbers).

using DM = DwarfRegMode;
constexpr DwarfRegisterRange kDwarfMrfPairs[] = {
    {32, 1, 64, DM::Any, "$m0:1", 0, false, 0},   {33, 1, 64, DM::Any, "$m2:3", 0, false, 0},
    {34, 1, 64, DM::Any, "$m4:5", 0, false, 0},   {35, 1, 64, DM::Any, "$m6:7", 0, false, 0},
    {36, 1, 64, DM::Any, "$m8:9", 0, false, 0},   {37, 1, 64, DM::Any, "$m10:11", 0, false, 0},
    {38, 1, 64, DM::Any, "$m12:13", 0, false, 0}, {39, 1, 64, DM::Any, "$m14:15", 0, false, 0},
};
constexpr DwarfRegisterRange kDwarfArf[] = {
    {15, 15, 32, DM::Any, "$a", 0, true, 0},      {31, 1, 32, DM::Any, "$a15", 0, false, 0},
    {40, 1, 64, DM::Any, "$a0:1", 0, false, 0},   {41, 1, 64, DM::Any, "$a2:3", 0, false, 0},
    {42, 1, 64, DM::Any, "$a4:5", 0, false, 0},   {43, 1, 64, DM::Any, "$a6:7", 0, false, 0},
    {44, 1, 64, DM::Any, "$a8:9", 0, false, 0},   {45, 1, 64, DM::Any, "$a10:11", 0, false, 0},
    {46, 1, 64, DM::Any, "$a12:13", 0, false, 0}, {47, 1, 64, DM::Any, "$a14:15", 0, false, 0},
    {48, 1, 128, DM::Any, "$a0:3", 0, false, 0},  {49, 1, 128, DM::Any, "$a4:7", 0, false, 0},
    {50, 1, 128, DM::Any, "$a8:11", 0, false, 0}, {51, 1, 128, DM::Any, "$a12:15", 0, false, 0},
    {52, 8, 32, DM::Any, "ACC", 0, true, 0},      {60, 4, 64, DM::Any, "ACCD", 0, true, 0},
    {64, 2, 128, DM::Any, "ACCQ", 0, true, 0},    {76, 1, 256, DM::Any, "$a0:7", 0, false, 0},
    {77, 1, 256, DM::Any, "$a8:15", 0, false, 0},
};

/// Worker code: $m0-$m14 (15 is $a0), the $a file and the accumulators. Other code: $m0-$m15.
template <size_t N> constexpr std::array<DwarfRegisterRange, N> buildDwarfRegisters() {
  constexpr bool arf = N > 1 + std::size(kDwarfMrfPairs);
  std::array<DwarfRegisterRange, N> out{};
  size_t n = 0;
  out[n++] = {0, arf ? 15u : 16u, 32, DM::Any, "$m", 0, true, 0};
  for (const DwarfRegisterRange& r : kDwarfMrfPairs) out[n++] = r;
  if constexpr (arf)
    for (const DwarfRegisterRange& r : kDwarfArf) out[n++] = r;
  return out;
}
constexpr auto kDwarfWorker =
    buildDwarfRegisters<1 + std::size(kDwarfMrfPairs) + std::size(kDwarfArf)>();
constexpr auto kDwarfMrfOnly = buildDwarfRegisters<1 + std::size(kDwarfMrfPairs)>();

constexpr DwarfAddressSpace kDwarfSpaces[] = {
    {0, 1, "global", 32, DwarfSpaceScope::Process, false},
};

DwarfTargetInfo ipuDwarfInfo(bool has_arf) {
  DwarfTargetInfo d;
  d.registers = has_arf ? std::span<const DwarfRegisterRange>(kDwarfWorker)
                        : std::span<const DwarfRegisterRange>(kDwarfMrfOnly);
  d.spaces = kDwarfSpaces;
  d.lanes = 1;
  d.address_bits = 32;
  // The CIE of the fork's tests (dwarf-debug-frame.s, dwarf-eh-frame.s): return address $m10,
  // code alignment 1, data alignment -4; .eh_frame adds augmentation "zR".
  d.return_address_column = 10;
  d.code_alignment = 1;
  d.data_alignment = -4;
  d.default_same_value = false;
  d.cie_augmentation = "";
  return d;
}

// ----- memory ---------------------------------------------------------------------------------

constexpr uint32_t kTmemBaseIpu1 = 0x40000; // TMEM_REGION0_BASE_ADDR (ipuArchInfo.cpp)
constexpr uint32_t kTmemBaseIpu2 = 0x4c000;

constexpr AddressSpaceInfo kAddressSpaces[] = {
    {0, "generic", "", 32, 0, true, 0, "the only address space: the tile's memory map"},
};

constexpr std::string_view kTmemNote =
    "default image base (TMEM_REGION0_BASE_ADDR): the linker's start address, and the origin of "
    "R_COLOSSUS_RUN and R_COLOSSUS_RELATIVE_16_S2; the size is not in the compiler sources";
constexpr MemoryRegion kMemoryIpu1[] = {{"TMEM region 0", kTmemBaseIpu1, 0, kTmemNote}};
constexpr MemoryRegion kMemoryIpu2[] = {{"TMEM region 0", kTmemBaseIpu2, 0, kTmemNote}};

// ----- the <ipudef.h> header ------------------------------------------------------------------
//
// The type declarations of the Graphcore toolchain's <ipudef.h> (clang/lib/Headers in the fork):
// the native half type and the short vectors, with their sizes spelled as numbers (they are
// fixed on this target). The fp8 `quarter` types exist only from ipu21 on. The header's inline
// conversion helpers and C++ parts are not declarations of types and are left out.

constexpr std::string_view kIpudefText = R"(/* <ipudef.h>: the IPU's native types. */
#ifndef _IPUDEF_H
#define _IPUDEF_H

typedef __fp16 half;
typedef __fp16 half2 __attribute__((vector_size(4)));
typedef __fp16 half4 __attribute__((vector_size(8)));
typedef __fp16 half8 __attribute__((vector_size(16)));
typedef float float2 __attribute__((vector_size(8)));
typedef float float4 __attribute__((vector_size(16)));

#if defined(__IPU_ARCH_VERSION__) && __IPU_ARCH_VERSION__ >= 21
typedef struct quarter {
  unsigned char value;
} quarter;
typedef struct quarter_metadata {
  enum format { f152, f143 } fmt;
  signed char scale;
} quarter_metadata;
#endif

typedef char char2 __attribute__((vector_size(2)));
typedef unsigned char uchar2 __attribute__((vector_size(2)));
typedef char char4 __attribute__((vector_size(4)));
typedef unsigned char uchar4 __attribute__((vector_size(4)));
typedef short short2 __attribute__((vector_size(4)));
typedef unsigned short ushort2 __attribute__((vector_size(4)));
typedef short short4 __attribute__((vector_size(8)));
typedef unsigned short ushort4 __attribute__((vector_size(8)));
typedef int int2 __attribute__((vector_size(8)));
typedef unsigned int uint2 __attribute__((vector_size(8)));
typedef int int4 __attribute__((vector_size(16)));
typedef unsigned int uint4 __attribute__((vector_size(16)));
typedef long long2 __attribute__((vector_size(8)));
typedef long long4 __attribute__((vector_size(16)));
typedef long long longlong2 __attribute__((vector_size(16)));
typedef long long longlong4 __attribute__((vector_size(32)));

#endif /* _IPUDEF_H */
)";

constexpr BuiltinHeader kHeaders[] = {{"ipudef.h", kIpudefText}};

// ----- ELF ------------------------------------------------------------------------------------

constexpr uint32_t kEfArchMask = 0xff; // EF_GRAPHCORE_ARCH
constexpr uint32_t kEfIpu1 = 0x1;
constexpr uint32_t kEfIpu2 = 0x2;
constexpr uint32_t kEfIpu21 = 0x21;

// Instruction relocations keep the other bits of the 32-bit little-endian word at r_offset and
// replace the field (lld's Colossus relocate: (word & ~mask) | value).
using M = RelocBitMove;
constexpr M kLow18[] = {{0, 0, 18}};
constexpr M kLow19[] = {{0, 0, 19}};
constexpr M kLow20[] = {{0, 0, 20}};
constexpr M kLow21[] = {{0, 0, 21}};
constexpr M kRun[] = {{0, 0, 12}, {12, 16, 4}};

constexpr RelocationType kRelocations[] = {
    {0, "R_COLOSSUS_NONE", 0, "", "no relocation (tombstone for debug references)"},
    {1, "R_COLOSSUS_8", 1, "S + A", "8-bit unsigned data"},
    {2, "R_COLOSSUS_16", 2, "S + A", "16-bit unsigned data"},
    {3, "R_COLOSSUS_20", 4, "S + A",
     "20-bit unsigned immediate in bits 19..0 of the instruction word (setzi)", kLow20, 20, true},
    {4, "R_COLOSSUS_32", 4, "S + A", "32-bit data (also .eh_frame)"},
    {5, "R_COLOSSUS_64", 8, "S + A", "64-bit data"},
    {6,
     "R_COLOSSUS_RELATIVE_16_S2",
     2,
     "(S + A - TMEM_REGION0_BASE) >> 2",
     "16-bit word offset from the image base; S + A must be 4-byte aligned",
     {},
     16},
    {7, "R_COLOSSUS_18_S2", 4, "(S + A) >> 2",
     "18-bit word address in bits 17..0 of the instruction word; S + A 4-byte aligned", kLow18, 18,
     true},
    {8, "R_COLOSSUS_19_S2", 4, "(S + A) >> 2",
     "19-bit word address in bits 18..0 of the instruction word (bri); S + A 4-byte aligned",
     kLow19, 19, true},
    {9, "R_COLOSSUS_RUN", 4, "(S + A - TMEM_REGION0_BASE) >> 2",
     "16-bit word offset of a `run` target: value bits 15..12 to word bits 19..16, bits 11..0 to "
     "word bits 11..0; S + A 4-byte aligned",
     kRun, 16, true},
    {14,
     "R_COLOSSUS_16_S3",
     2,
     "(S + A) >> 3",
     "16-bit address in 8-byte units; S + A 8-aligned",
     {},
     16},
    {15,
     "R_COLOSSUS_16_S4",
     2,
     "(S + A) >> 4",
     "16-bit address in 16-byte units; S + A 16-aligned",
     {},
     16},
    {16,
     "R_COLOSSUS_16_S5",
     2,
     "(S + A) >> 5",
     "16-bit address in 32-byte units; S + A 32-aligned",
     {},
     16},
    {17, "R_COLOSSUS_21", 4, "S + A", "21-bit unsigned value in bits 20..0 of the word", kLow21, 21,
     true},
};

std::string hex32(uint64_t v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
  return buf;
}

std::string archFlagName(uint32_t arch) {
  switch (arch) {
  case kEfIpu1:
    return "ipu1";
  case kEfIpu2:
    return "ipu2";
  case kEfIpu21:
    return "ipu21";
  case 0:
    return "none";
  }
  return hex32(arch);
}

ElfFlagsInfo decodeIpuFlags(const ElfHeaderFacts& h) {
  ElfFlagsInfo info;
  info.target = "colossus-graphcore-elf";
  uint32_t arch = h.flags & kEfArchMask;
  std::string name = archFlagName(arch);
  info.properties.emplace_back("arch", name);
  switch (arch) {
  case kEfIpu1:
    info.processor = "ipu1";
    info.flag_names.push_back("EF_GRAPHCORE_ARCH_IPU1");
    break;
  case kEfIpu2:
    info.processor = "ipu2";
    info.flag_names.push_back("EF_GRAPHCORE_ARCH_IPU2");
    break;
  case kEfIpu21:
    info.processor = "ipu21";
    info.flag_names.push_back("EF_GRAPHCORE_ARCH_IPU21");
    break;
  case 0:
    // The linker writes 0 when it has only binary inputs and ignores 0 when comparing.
    info.problems.push_back("no IPU architecture in e_flags (EF_GRAPHCORE_ARCH is 0)");
    break;
  default:
    info.problems.push_back("unknown IPU architecture " + name + " in e_flags");
    break;
  }
  if (uint32_t unknown = h.flags & ~kEfArchMask)
    info.problems.push_back("unknown e_flags bits " + hex32(unknown));
  if (h.elf_class != kElfClass32) info.problems.push_back("IPU objects are ELFCLASS32");
  if (h.data != kElfData2Lsb)
    info.problems.push_back("IPU objects are little-endian (ELFDATA2LSB)");
  if (h.osabi != kOsabiStandalone)
    info.problems.push_back("EI_OSABI is " + std::to_string(h.osabi) +
                            "; IPU objects use ELFOSABI_STANDALONE (255)");
  return info;
}

void ipuLinkConflicts(const ElfFlagsInfo& a, const ElfFlagsInfo& b, std::vector<std::string>& out) {
  // lld compares the EF_GRAPHCORE_ARCH fields of objects that both have one (and only warns).
  std::string_view x = a.property("arch"), y = b.property("arch");
  if (x.empty() || y.empty() || x == "none" || y == "none" || x == y) return;
  out.push_back("IPU architecture " + std::string(x) + " vs " + std::string(y) +
                " (the Graphcore linker warns: objects compiled for different IPU arch)");
}

// In DWARF sections: the unsigned data relocations R_COLOSSUS_8/16/32/64 (S + A), and
// R_COLOSSUS_NONE, the tombstone of a debug reference.
constexpr DebugRelocation kDebugRelocations[] = {{0, DebugRelocKind::Ignore},
                                                 {1, DebugRelocKind::Absolute},
                                                 {2, DebugRelocKind::Absolute},
                                                 {4, DebugRelocKind::Absolute},
                                                 {5, DebugRelocKind::Absolute}};

const ElfMachineInfo kElf = {kEmGraphcoreIpu, kEmGraphcoreIpuName, Family::IPU,      kRelocations,
                             decodeIpuFlags,  ipuLinkConflicts,    kDebugRelocations};

// ----- resolution -----------------------------------------------------------------------------

bool handles(const Triple& t) {
  return t.arch == "colossus";
}

bool oneOf(std::string_view s, std::initializer_list<std::string_view> list) {
  for (std::string_view x : list)
    if (s == x) return true;
  return false;
}

IpuArch parseArch(const std::string& name, std::string_view flag) {
  if (name == "ipu1") return IpuArch::Ipu1;
  if (name == "ipu2") return IpuArch::Ipu2;
  if (name == "ipu21") return IpuArch::Ipu21;
  targetError("unknown IPU processor '" + name + "' in " + std::string(flag) +
              " (known: ipu1, ipu2, ipu21)");
}

void resolve(const TargetOptions& o, const Triple& t, Target& out) {
  rejectUnusedOption("IPU", "-mabi", o.mabi);
  rejectUnusedOption("IPU", "-mcmodel", o.mcmodel);
  if (o.code_object_version) targetError("-mcode-object-version is an AMDGPU option");
  if (o.wavefront_size) targetError("-m[no-]wavefrontsize64 is an AMDGPU option");
  if (!oneOf(t.vendor, {"", "unknown", "graphcore"}) || !oneOf(t.os, {"", "unknown", "elf"}) ||
      !oneOf(t.env, {"", "unknown", "elf"}))
    targetError("unknown IPU triple '" + t.text +
                "' (expected colossus-graphcore-elf, colossus-graphcore--elf, "
                "colossus-unknown-unknown or colossus)");

  // The processor: -mcpu (abikit's spelling) or -march (the Graphcore driver's spelling).
  // Without either, the fork's driver, backend and linker all use ipu1.
  IpuArch arch = IpuArch::Ipu1;
  if (!o.mcpu.empty()) arch = parseArch(o.mcpu, "-mcpu");
  if (!o.march.empty()) {
    IpuArch a = parseArch(o.march, "-march");
    if (!o.mcpu.empty() && a != arch)
      targetError("-mcpu=" + o.mcpu + " and -march=" + o.march + " name different IPU processors");
    arch = a;
  }
  IpuMode mode =
      o.msupervisor ? (o.mworker ? IpuMode::Both : IpuMode::Supervisor) : IpuMode::Worker;

  IpuTarget ipu;
  ipu.arch = arch;
  ipu.mode = mode;
  ipu.tmem_region0_base = arch == IpuArch::Ipu1 ? kTmemBaseIpu1 : kTmemBaseIpu2;
  ipu.repeat_count_bits = arch == IpuArch::Ipu1 ? 12 : 16; // CSR_W_REPEAT_COUNT mask width
  ipu.mrf_gp_registers = 12;
  ipu.arf_gp_registers = 8;

  const bool documented = o.abi_variant == AbiVariant::Documented;
  out.triple = "colossus-graphcore-elf";
  out.arch = "colossus";
  out.cpu = std::string(ipuArchName(arch));
  out.spelling = "colossus-graphcore-elf -mcpu=" + out.cpu;
  if (mode == IpuMode::Supervisor) out.spelling += " -msupervisor";
  if (mode == IpuMode::Both) out.spelling += " -msupervisor -mworker";
  if (documented) out.spelling += " --abi-variant=documented";

  // Data model: clang's ColossusTargetInfo (ILP32, long long 8/8, double and long double 8/4).
  DataModel& d = out.data;
  d.endian = Endian::Little;
  d.char_signed = true; // Colossus is not in the driver's unsigned-char list
  d.of(IntKind::Bool) = {1, 1};
  d.of(IntKind::Char) = d.of(IntKind::SChar) = d.of(IntKind::UChar) = {1, 1};
  d.of(IntKind::Short) = d.of(IntKind::UShort) = {2, 2};
  d.of(IntKind::Int) = d.of(IntKind::UInt) = {4, 4};
  d.of(IntKind::Long) = d.of(IntKind::ULong) = {4, 4};
  d.of(IntKind::LongLong) = d.of(IntKind::ULongLong) = {8, 8};
  // No __int128 (32-bit target). No _Float16 or __bf16 in the Graphcore fork.
  d.of(FloatKind::Fp16) = {2, 2}; // `half` in <ipudef.h>
  d.of(FloatKind::Float) = {4, 4};
  d.of(FloatKind::Double) = {8, 4};
  d.of(FloatKind::LongDouble) = {8, 4};
  d.float_formats[size_t(FloatKind::Fp16)] = FloatFormat::IEEEHalf;
  d.float_formats[size_t(FloatKind::Float)] = FloatFormat::IEEESingle;
  d.float_formats[size_t(FloatKind::Double)] = FloatFormat::IEEEDouble;
  d.float_formats[size_t(FloatKind::LongDouble)] = FloatFormat::IEEEDouble;
  d.pointer = {4, 4};
  d.function_pointer = {4, 4};
  d.size_type = IntKind::UInt;
  d.ptrdiff_type = IntKind::Int;
  d.intptr_type = IntKind::Int;
  d.intmax_type = IntKind::LongLong;
  d.int64_type = IntKind::LongLong;
  d.wchar_type = IntKind::Int;
  d.wint_type = IntKind::UInt;
  d.char16_type = IntKind::UShort;
  d.char32_type = IntKind::UInt;
  d.sig_atomic_type = IntKind::Int;
  d.va_list_kind = VaListKind::VoidPtr;
  d.va_list = {4, 4};
  d.max_vector_align = 8;      // MaxVectorAlign = 64 bits
  d.biggest_alignment = 4;     // SuitableAlign = 32 bits
  d.default_aligned_attr = 16; // clang's default, not overridden
  d.max_align_t_align = 8;     // max(alignof(long long), alignof(long double))
  d.bitint_max_width = 128;    // hasBitIntType
  d.bitint_max_align = 8;      // capped by the long long alignment
  d.max_atomic_inline_bits = 32;
  d.has_sync_cas = false; // the target defines no __GCC_HAVE_SYNC_COMPARE_AND_SWAP_N
  d.bitfield_type_alignment = true;
  d.zero_length_bitfield_alignment = true; // UseZeroLengthBitfieldAlignment

  out.stack.grows_down = true;
  out.stack.alignment = 8;
  out.stack.stack_pointer = "$m11";
  out.stack.return_address = "$m10";
  out.stack.frame_pointer = "$m9";
  out.stack.argument_area =
      "offset N is the address $m11 + N at the call (the callee's $m11 on entry): earlier "
      "arguments at lower addresses, later arguments at higher addresses; 4-byte slots aligned "
      "to 4, 64-bit vectors in 8-byte slots aligned to 8";

  if (mode == IpuMode::Worker)
    out.registers = documented ? std::span<const RegisterInfo>(kRegsWorkerDoc)
                               : std::span<const RegisterInfo>(kRegsWorker);
  else
    out.registers = documented ? std::span<const RegisterInfo>(kRegsMrfOnlyDoc)
                               : std::span<const RegisterInfo>(kRegsMrfOnly);
  out.dwarf = ipuDwarfInfo(mode == IpuMode::Worker);
  out.address_spaces = kAddressSpaces;
  out.memory = arch == IpuArch::Ipu1 ? std::span<const MemoryRegion>(kMemoryIpu1)
                                     : std::span<const MemoryRegion>(kMemoryIpu2);

  uint32_t flags = arch == IpuArch::Ipu1 ? kEfIpu1 : arch == IpuArch::Ipu2 ? kEfIpu2 : kEfIpu21;
  out.elf = {kElfClass32, kElfData2Lsb, kOsabiStandalone,   0, kEmGraphcoreIpu,
             flags,       true,         kEmGraphcoreIpuName};

  // Macros: the fork's ColossusTargetInfo defines none; its driver passes these on the cc1
  // command line (clang/test/Driver/colossus-march.c, colossus-msupervisor.c).
  std::string version = arch == IpuArch::Ipu1 ? "1" : arch == IpuArch::Ipu2 ? "2" : "21";
  out.macros = {{"__IPU__", "1"},
                {"__IPU_ARCH_VERSION__", version},
                {"__IPU_REPEAT_COUNT_SIZE__", std::to_string(ipu.repeat_count_bits)}};
  if (mode != IpuMode::Worker) out.macros.emplace_back("__SUPERVISOR__", "1");
  out.headers = kHeaders;

  auto prop = [&](std::string key, std::string value, bool number = false) {
    TargetProperty p;
    p.key = std::move(key);
    p.value = std::move(value);
    p.is_number = number;
    out.properties.push_back(std::move(p));
  };
  auto list = [&](std::string key, std::vector<std::string> values) {
    TargetProperty p;
    p.key = std::move(key);
    p.list = std::move(values);
    out.properties.push_back(std::move(p));
  };
  prop("arch", out.cpu);
  prop("mode", std::string(ipuModeName(mode)));
  prop("e_flags_arch", arch == IpuArch::Ipu1   ? "EF_GRAPHCORE_ARCH_IPU1"
                       : arch == IpuArch::Ipu2 ? "EF_GRAPHCORE_ARCH_IPU2"
                                               : "EF_GRAPHCORE_ARCH_IPU21");
  prop("tmem_region0_base", std::to_string(ipu.tmem_region0_base), true);
  prop("repeat_count_bits", std::to_string(ipu.repeat_count_bits), true);
  if (ipu.hasArf()) {
    list("register_files", {"mrf", "arf"});
    prop("mrf_gp_registers", std::to_string(ipu.mrf_gp_registers), true);
    prop("arf_gp_registers", std::to_string(ipu.arf_gp_registers), true);
    prop("float_arguments", "$a registers (hardware float)");
    prop("half_arguments_and_returns", "yes");
  } else {
    list("register_files", {"mrf"});
    prop("mrf_gp_registers", std::to_string(ipu.mrf_gp_registers), true);
    prop("float_arguments", "$m registers (soft-float: no $a file outside worker mode)");
    prop("half_arguments_and_returns", "no");
  }
  prop("dwarf_version", "4", true);
  prop("dwarf_register_numbers",
       "LLVM backend: $m0-$m15 = 0-15, $a0-$a14 = 15-29, $a15 = 31 (the fork's LLDB uses "
       "$a0-$a15 = 16-31)");
  prop("linker_max_page_size", "4", true);
  out.detail = ipu;
}

void summaries(std::vector<TargetSummary>& out) {
  TargetSummary s;
  s.family = Family::IPU;
  s.name = "colossus-graphcore-elf";
  s.description = "Graphcore IPU (Colossus tile processor), 32-bit, little-endian; worker code "
                  "by default, -msupervisor for supervisor code, both flags for code that runs "
                  "in either mode";
  s.cpus = {"ipu1", "ipu2", "ipu21"};
  out.push_back(std::move(s));
}

} // namespace

// Graphcore's popc is the only compiler for the IPU; --abi-variant=documented follows the ABI
// document instead where the two differ (docs/targets/ipu.md).
constexpr Compiler kIpuCompilers[] = {Compiler::GraphcorePopc};
const FamilyInfo kIpuFamily = {Family::IPU, "ipu",     "IPU", handles,
                               resolve,     summaries, &kElf, kIpuCompilers};

} // namespace detail

uint64_t ipuRelocationValue(uint32_t type, uint64_t v, uint32_t tmem_region0_base) {
  const RelocationType* rel = detail::kElf.relocation(type);
  if (!rel) throw Error(ErrorKind::Elf, "unknown IPU relocation type " + std::to_string(type));
  // Messages are built only on failure: this runs once per relocation.
  std::string_view name = rel->name;
  auto aligned = [&](uint64_t n) {
    if (v & (n - 1))
      throw Error(ErrorKind::Elf, std::string(name) + ": " + detail::hex32(v) +
                                      " is not aligned to " + std::to_string(n) + " bytes");
  };
  auto fits = [&](uint64_t x, unsigned bits) {
    if (bits < 64 && (x >> bits) != 0)
      throw Error(ErrorKind::Elf, std::string(name) + ": value " + detail::hex32(x) +
                                      " does not fit in " + std::to_string(bits) +
                                      " unsigned bits");
    return x;
  };
  switch (type) {
  case 0:
    return 0;
  case 1:
    return fits(v, 8);
  case 2:
    return fits(v, 16);
  case 3:
    return fits(v, 20);
  case 4:
    return fits(v, 32);
  case 5:
    return v;
  case 6:
  case 9:
    aligned(4);
    return fits((v - tmem_region0_base) >> 2, 16);
  case 7:
    aligned(4);
    return fits(v >> 2, 18);
  case 8:
    aligned(4);
    return fits(v >> 2, 19);
  case 14:
    aligned(8);
    return fits(v >> 3, 16);
  case 15:
    aligned(16);
    return fits(v >> 4, 16);
  case 16:
    aligned(32);
    return fits(v >> 5, 16);
  case 17:
    return fits(v, 21);
  }
  throw Error(ErrorKind::Elf, "unknown IPU relocation type " + std::to_string(type));
}

} // namespace abikit
