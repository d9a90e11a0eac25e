// AMDGPU registers: the SGPR/VGPR/AGPR files of each processor generation, their DWARF numbers
// (reference/dwarf.md §3.1, wave32 and wave64) and their call roles (LLVM's AMDGPU calling
// convention as clang-14/llc-14 apply it; docs/targets/amdgpu.md "Registers").
#include "family.h"

#include <deque>
#include <iterator>

namespace abikit::detail {
namespace {

struct RegSpec {
  unsigned sgprs;    // addressable SGPRs: 104 (GFX6-7), 102 (GFX8-9), 106 (GFX10+)
  unsigned wave;     // 32 or 64: selects the DWARF numbers of vector registers, EXEC and VCC
  AmdgpuAgprs agprs; // accumulation registers
  bool flat_scratch; // GFX7 and later
};

enum class RegVariant : uint8_t {
  Gfx6,
  Gfx7,
  Gfx8,
  Gfx9,
  Gfx908,
  Gfx90a,
  Gfx10Wave32,
  Gfx10Wave64
};

constexpr RegSpec kRegSpecs[] = {
    {104, 64, AmdgpuAgprs::None, false},        {104, 64, AmdgpuAgprs::None, true},
    {102, 64, AmdgpuAgprs::None, true},         {102, 64, AmdgpuAgprs::None, true},
    {102, 64, AmdgpuAgprs::AllClobbered, true}, {102, 64, AmdgpuAgprs::HighPreserved, true},
    {106, 32, AmdgpuAgprs::None, true},         {106, 64, AmdgpuAgprs::None, true},
};

// VGPRs preserved across calls: v40-v47, v56-v63, ..., v248-v255 (8 of every 16 from v40).
bool vgprPreserved(unsigned n) {
  return n >= 40 && ((n - 40) % 16) < 8;
}

struct RegTable {
  std::deque<std::string> strings; // stable storage for generated names and notes
  std::vector<RegisterInfo> regs;
  std::string_view keep(std::string s) {
    strings.push_back(std::move(s));
    return strings.back();
  }
};

constexpr uint32_t kCaller = kRoleCallerSaved;
constexpr uint32_t kCallee = kRoleCalleeSaved;

RegTable buildRegisters(const RegSpec& spec) {
  RegTable t;
  const bool w64 = spec.wave == 64;
  auto add = [&](std::string_view name, std::string_view file, uint16_t bits, int32_t dwarf,
                 uint32_t roles, std::string_view components, std::string_view note) {
    t.regs.push_back({name, "", file, bits, dwarf, roles, components, note});
  };
  // Scalar registers.
  for (unsigned n = 0; n < spec.sgprs; ++n) {
    std::string_view name = t.keep("s" + std::to_string(n));
    int32_t dwarf = n < 64 ? int32_t(32 + n) : int32_t(1088 + (n - 64));
    uint32_t roles = 0;
    std::string_view note;
    if (n <= 3) {
      roles = kRoleSpecialInput | kRoleReserved;
      note = "private segment buffer descriptor s[0:3] (scratch resource); never allocated";
    } else if (n <= 14) {
      roles = kCaller | kRoleSpecialInput;
      static constexpr std::string_view kInputs[] = {
          "dispatch pointer s[4:5] at function entry",
          "dispatch pointer s[4:5] at function entry",
          "queue pointer s[6:7] at function entry",
          "queue pointer s[6:7] at function entry",
          "implicit argument pointer s[8:9] at function entry",
          "implicit argument pointer s[8:9] at function entry",
          "dispatch id s[10:11] at function entry",
          "dispatch id s[10:11] at function entry",
          "work-group id x at function entry",
          "work-group id y at function entry",
          "work-group id z at function entry",
      };
      note = kInputs[n - 4];
    } else if (n <= 29) {
      roles = kCaller;
    } else if (n <= 31) {
      roles = kRoleReturnAddress | kCaller;
      note = "return address s[30:31]";
    } else if (n == 32) {
      roles = kRoleStackPointer | kRoleReserved;
      note = "stack pointer: unswizzled wave offset into scratch (lane offset x wavefront size)";
    } else if (n == 33) {
      roles = kRoleFramePointer | kCallee;
      note = "frame pointer";
    } else if (n == 34) {
      roles = kRoleBasePointer | kCallee;
      note = "base pointer when the frame is realigned";
    } else {
      roles = kCallee;
    }
    add(name, "sgpr", 32, dwarf, roles, "", note);
  }
  // SGPR tuples with a fixed meaning.
  add("s[0:3]", "sgpr", 128, -1, kRoleSpecialInput | kRoleReserved, "s0 s1 s2 s3",
      "private segment buffer descriptor (scratch resource)");
  add("s[4:5]", "sgpr", 64, -1, kCaller | kRoleSpecialInput, "s4 s5", "dispatch pointer");
  add("s[6:7]", "sgpr", 64, -1, kCaller | kRoleSpecialInput, "s6 s7", "queue pointer");
  add("s[8:9]", "sgpr", 64, -1, kCaller | kRoleSpecialInput, "s8 s9", "implicit argument pointer");
  add("s[10:11]", "sgpr", 64, -1, kCaller | kRoleSpecialInput, "s10 s11", "dispatch id");
  add("s[30:31]", "sgpr", 64, -1, kRoleReturnAddress | kCaller, "s30 s31", "return address");
  // Vector registers: one 32-bit element per lane; DWARF numbers depend on the wavefront size.
  const int32_t vbase = w64 ? 2560 : 1536;
  const std::string_view lanes =
      w64 ? "per lane; the DWARF register is the whole wave (64 x 32 bits)"
          : "per lane; the DWARF register is the whole wave (32 x 32 bits)";
  for (unsigned n = 0; n < 256; ++n) {
    std::string_view name = t.keep("v" + std::to_string(n));
    uint32_t roles;
    std::string_view note = lanes;
    if (n <= 30) {
      roles = kRoleArgument | kRoleReturn | kCaller;
    } else if (n == 31) {
      roles = kRoleReturn | kRoleSpecialInput | kCaller;
      note = "packed work-item ids at function entry (x bits 0-9, y 10-19, z 20-29); not an "
             "argument register; return dword 31";
    } else {
      roles = vgprPreserved(n) ? kCallee : kCaller;
    }
    add(name, "vgpr", 32, vbase + int32_t(n), roles, "", note);
  }
  if (spec.agprs != AmdgpuAgprs::None) {
    const int32_t abase = w64 ? 3072 : 2048;
    for (unsigned n = 0; n < 256; ++n) {
      std::string_view name = t.keep("a" + std::to_string(n));
      bool preserved = spec.agprs == AmdgpuAgprs::HighPreserved && n >= 32;
      add(name, "agpr", 32, abase + int32_t(n), preserved ? kCallee : kCaller, "",
          "accumulation register; per lane");
    }
  }
  // Special registers.
  add("exec", "special", uint16_t(spec.wave), w64 ? 17 : 1, kCallee | kRoleReserved, "",
      w64 ? "execution mask (EXEC_MASK_64); preserved across calls"
          : "execution mask (EXEC_MASK_32, exec_lo); preserved across calls");
  add("vcc", "special", uint16_t(spec.wave), w64 ? 768 : 512, kCaller, "",
      w64 ? "vector condition code (VCC_64)" : "vector condition code (VCC_32, vcc_lo)");
  add("pc", "special", 64, 16, kRoleReserved, "", "program counter (PC_64)");
  add("m0", "special", 32, -1, kCaller, "",
      "memory descriptor register; not preserved by LLVM 14 calls");
  if (spec.flat_scratch)
    add("flat_scratch", "special", 64, -1, kRoleReserved, "",
        "flat scratch base; never written by callable functions");
  return t;
}

std::span<const RegisterInfo> registersFor(RegVariant v) {
  static const RegTable kTables[] = {
      buildRegisters(kRegSpecs[0]), buildRegisters(kRegSpecs[1]), buildRegisters(kRegSpecs[2]),
      buildRegisters(kRegSpecs[3]), buildRegisters(kRegSpecs[4]), buildRegisters(kRegSpecs[5]),
      buildRegisters(kRegSpecs[6]), buildRegisters(kRegSpecs[7]),
  };
  static_assert(std::size(kRegSpecs) == size_t(RegVariant::Gfx10Wave64) + 1);
  return kTables[size_t(v)].regs;
}

} // namespace

std::span<const RegisterInfo> amdgpuRegisters(unsigned gfx_major, AmdgpuAgprs agprs,
                                              unsigned wave) {
  switch (gfx_major) {
  case 6:
    return registersFor(RegVariant::Gfx6);
  case 7:
    return registersFor(RegVariant::Gfx7);
  case 8:
    return registersFor(RegVariant::Gfx8);
  case 9:
    return registersFor(agprs == AmdgpuAgprs::AllClobbered    ? RegVariant::Gfx908
                        : agprs == AmdgpuAgprs::HighPreserved ? RegVariant::Gfx90a
                                                              : RegVariant::Gfx9);
  default:
    return registersFor(wave == 64 ? RegVariant::Gfx10Wave64 : RegVariant::Gfx10Wave32);
  }
}

} // namespace abikit::detail
