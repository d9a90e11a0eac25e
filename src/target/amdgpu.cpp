// AMDGPU (amdgcn-amd-amdhsa): the processor table, target ids, data model, address spaces,
// registers with their DWARF numbers and call roles, macros and the EM_AMDGPU ELF identity,
// e_flags and relocations. Sources: reference/gpu.md Part 2 and 3, reference/dwarf.md §3,
// seeds/003 (AMDGPUUsage), LLVM's AMDGPUUsage (LLVM 20) and TargetParser tables, and
// clang-14/llc-14/llvm-mc-14 (see docs/targets/amdgpu.md).
#include "family.h"

#include <algorithm>
#include <cstdio>
#include <iterator>

namespace abikit::detail {
namespace {

// ----- processors -----------------------------------------------------------------------------

enum : uint32_t {
  X = 1u << 0,     // xnack
  E = 1u << 1,     // sramecc
  W32 = 1u << 2,   // wave32 (and default wavefront size 32)
  L14 = 1u << 3,   // known to LLVM 14
  FMA = 1u << 4,   // FEATURE_FAST_FMA_F32
  GEN = 1u << 5,   // generic processor (code object v6+)
  A908 = 1u << 6,  // AGPRs, none preserved
  A90A = 1u << 7,  // AGPRs, a32-a255 preserved
  DEC = 1u << 8,   // decode only
  APU = 1u << 9,   // APU rather than dGPU
  R600 = 1u << 10, // r600 architecture
};

constexpr AmdgpuProcessor row(std::string_view name, std::string_view aliases, uint16_t mach,
                              std::string_view gen, uint32_t f, uint8_t maj, uint8_t min,
                              uint8_t step, std::string_view props, std::string_view features,
                              std::string_view note) {
  AmdgpuProcessor p;
  p.name = name;
  p.aliases = aliases;
  p.mach = mach;
  p.generation = gen;
  p.supports_xnack = f & X;
  p.supports_sramecc = f & E;
  p.supports_wave32 = f & W32;
  p.default_wave_size = (f & DEC) && !(f & R600) ? 0 : (f & W32) ? 32 : 64;
  p.is_generic = f & GEN;
  p.in_llvm14 = f & L14;
  p.features = features;
  p.note = note;
  p.decode_only = f & DEC;
  p.fast_fma_f32 = f & FMA;
  p.agprs = (f & A908)   ? AmdgpuAgprs::AllClobbered
            : (f & A90A) ? AmdgpuAgprs::HighPreserved
                         : AmdgpuAgprs::None;
  p.isa_major = maj;
  p.isa_minor = min;
  p.isa_stepping = step;
  p.dgpu = !(f & APU);
  p.properties = props;
  return p;
}

constexpr std::string_view kNoFlat = "no-generic-address-space";
constexpr std::string_view kOffset = "offset-flat-scratch";
constexpr std::string_view kAbsolute = "absolute-flat-scratch";
constexpr std::string_view kAbsPacked = "absolute-flat-scratch packed-work-item-ids";
constexpr std::string_view kArchPacked = "architected-flat-scratch packed-work-item-ids";
constexpr std::string_view kGfx10Feat = "cumode wavefrontsize64";
constexpr std::string_view kR600Note = "r600 architecture: recognised in ELF files only";
constexpr std::string_view kMachOnly =
    "known only by its EF_AMDGPU_MACH value (LLVM's newest e_flags test)";

// clang-format off
constexpr AmdgpuProcessor kProcessors[] = {
    // R600 (the r600 triple architecture; no amdgcn code).
    row("r600", "rv630 rv635", 0x001, "R600", DEC | R600, 0, 0, 0, kNoFlat, "", kR600Note),
    row("r630", "", 0x002, "R600", DEC | R600, 0, 0, 0, kNoFlat, "", kR600Note),
    row("rs880", "rs780 rv610 rv620", 0x003, "R600", DEC | R600, 0, 0, 0, kNoFlat, "", kR600Note),
    row("rv670", "", 0x004, "R600", DEC | R600, 0, 0, 0, kNoFlat, "", kR600Note),
    row("rv710", "", 0x005, "R700", DEC | R600, 0, 0, 0, kNoFlat, "", kR600Note),
    row("rv730", "", 0x006, "R700", DEC | R600, 0, 0, 0, kNoFlat, "", kR600Note),
    row("rv770", "rv740", 0x007, "R700", DEC | R600, 0, 0, 0, kNoFlat, "", kR600Note),
    row("cedar", "palm", 0x008, "Evergreen", DEC | R600, 0, 0, 0, kNoFlat, "", kR600Note),
    row("cypress", "hemlock", 0x009, "Evergreen", DEC | R600, 0, 0, 0, kNoFlat, "", kR600Note),
    row("juniper", "", 0x00a, "Evergreen", DEC | R600, 0, 0, 0, kNoFlat, "", kR600Note),
    row("redwood", "", 0x00b, "Evergreen", DEC | R600, 0, 0, 0, kNoFlat, "", kR600Note),
    row("sumo", "sumo2", 0x00c, "Evergreen", DEC | R600, 0, 0, 0, kNoFlat, "", kR600Note),
    row("barts", "", 0x00d, "Northern Islands", DEC | R600, 0, 0, 0, kNoFlat, "", kR600Note),
    row("caicos", "", 0x00e, "Northern Islands", DEC | R600, 0, 0, 0, kNoFlat, "", kR600Note),
    row("cayman", "aruba", 0x00f, "Northern Islands", DEC | R600, 0, 0, 0, kNoFlat, "", kR600Note),
    row("turks", "", 0x010, "Northern Islands", DEC | R600, 0, 0, 0, kNoFlat, "", kR600Note),
    // GFX6 (Southern Islands).
    row("gfx600", "tahiti", 0x020, "GFX6", L14 | FMA, 6, 0, 0, kNoFlat, "", ""),
    row("gfx601", "pitcairn verde", 0x021, "GFX6", L14, 6, 0, 1, kNoFlat, "", ""),
    row("gfx602", "hainan oland", 0x03a, "GFX6", L14, 6, 0, 2, kNoFlat, "", ""),
    // GFX7 (Sea Islands).
    row("gfx700", "kaveri", 0x022, "GFX7", L14 | APU, 7, 0, 0, kOffset, "", ""),
    row("gfx701", "hawaii", 0x023, "GFX7", L14 | FMA, 7, 0, 1, kOffset, "", ""),
    row("gfx702", "", 0x024, "GFX7", L14 | FMA, 7, 0, 2, kOffset, "", ""),
    row("gfx703", "kabini mullins", 0x025, "GFX7", L14 | APU, 7, 0, 3, kOffset, "", ""),
    row("gfx704", "bonaire", 0x026, "GFX7", L14, 7, 0, 4, kOffset, "", ""),
    row("gfx705", "", 0x03b, "GFX7", L14 | APU, 7, 0, 5, kOffset, "", ""),
    // GFX8 (Volcanic Islands).
    row("gfx801", "carrizo", 0x028, "GFX8", L14 | X | FMA | APU, 8, 0, 1, kOffset, "", ""),
    row("gfx802", "iceland tonga", 0x029, "GFX8", L14, 8, 0, 2, kOffset, "", ""),
    row("gfx803", "fiji polaris10 polaris11", 0x02a, "GFX8", L14, 8, 0, 3, kOffset, "", ""),
    row("gfx805", "tongapro", 0x03c, "GFX8", L14, 8, 0, 5, kOffset, "", ""),
    row("gfx810", "stoney", 0x02b, "GFX8", L14 | X | APU, 8, 1, 0, kOffset, "", ""),
    // GFX9 (Vega, CDNA).
    row("gfx900", "", 0x02c, "GFX9", L14 | X | FMA, 9, 0, 0, kAbsolute, "", ""),
    row("gfx902", "", 0x02d, "GFX9", L14 | X | FMA | APU, 9, 0, 2, kAbsolute, "", ""),
    row("gfx904", "", 0x02e, "GFX9", L14 | X | FMA, 9, 0, 4, kAbsolute, "", ""),
    row("gfx906", "", 0x02f, "GFX9", L14 | X | E | FMA, 9, 0, 6, kAbsolute, "", ""),
    row("gfx908", "", 0x030, "GFX9", L14 | X | E | FMA | A908, 9, 0, 8, kAbsolute, "", ""),
    row("gfx909", "", 0x031, "GFX9", L14 | X | FMA | APU, 9, 0, 9, kAbsolute, "", ""),
    row("gfx90a", "", 0x03f, "GFX9", L14 | X | E | FMA | A90A, 9, 0, 10, kAbsPacked, "tgsplit",
        "kernarg preload"),
    row("gfx90c", "", 0x032, "GFX9", L14 | X | FMA | APU, 9, 0, 12, kAbsolute, "", ""),
    row("gfx940", "", 0x040, "GFX9", X | E | FMA | A90A, 9, 4, 0, kArchPacked, "tgsplit",
        "kernarg preload; no longer in LLVM's newest processor list"),
    row("gfx941", "", 0x04b, "GFX9", X | E | FMA | A90A, 9, 4, 1, kArchPacked, "tgsplit",
        "kernarg preload; no longer in LLVM's newest processor list"),
    row("gfx942", "", 0x04c, "GFX9", X | E | FMA | A90A, 9, 4, 2, kArchPacked, "tgsplit",
        "kernarg preload"),
    row("gfx950", "", 0x04f, "GFX9", X | E | FMA | A90A, 9, 5, 0, kArchPacked, "tgsplit",
        "kernarg preload"),
    // GFX10.1 (RDNA 1).
    row("gfx1010", "", 0x033, "GFX10.1", L14 | X | W32 | FMA, 10, 1, 0, kAbsolute, kGfx10Feat, ""),
    row("gfx1011", "", 0x034, "GFX10.1", L14 | X | W32 | FMA, 10, 1, 1, kAbsolute, kGfx10Feat, ""),
    row("gfx1012", "", 0x035, "GFX10.1", L14 | X | W32 | FMA, 10, 1, 2, kAbsolute, kGfx10Feat, ""),
    row("gfx1013", "", 0x042, "GFX10.1", L14 | X | W32 | FMA | APU, 10, 1, 3, kAbsolute, kGfx10Feat,
        ""),
    // GFX10.3 (RDNA 2).
    row("gfx1030", "", 0x036, "GFX10.3", L14 | W32 | FMA, 10, 3, 0, kAbsolute, kGfx10Feat, ""),
    row("gfx1031", "", 0x037, "GFX10.3", L14 | W32 | FMA, 10, 3, 1, kAbsolute, kGfx10Feat, ""),
    row("gfx1032", "", 0x038, "GFX10.3", L14 | W32 | FMA, 10, 3, 2, kAbsolute, kGfx10Feat, ""),
    row("gfx1033", "", 0x039, "GFX10.3", L14 | W32 | FMA | APU, 10, 3, 3, kAbsolute, kGfx10Feat, ""),
    row("gfx1034", "", 0x03e, "GFX10.3", L14 | W32 | FMA, 10, 3, 4, kAbsolute, kGfx10Feat, ""),
    row("gfx1035", "", 0x03d, "GFX10.3", L14 | W32 | FMA | APU, 10, 3, 5, kAbsolute, kGfx10Feat, ""),
    row("gfx1036", "", 0x045, "GFX10.3", W32 | FMA | APU, 10, 3, 6, kAbsolute, kGfx10Feat, ""),
    // GFX11 (RDNA 3).
    row("gfx1100", "", 0x041, "GFX11", W32 | FMA, 11, 0, 0, kArchPacked, kGfx10Feat, ""),
    row("gfx1101", "", 0x046, "GFX11", W32 | FMA, 11, 0, 1, kArchPacked, kGfx10Feat, ""),
    row("gfx1102", "", 0x047, "GFX11", W32 | FMA, 11, 0, 2, kArchPacked, kGfx10Feat, ""),
    row("gfx1103", "", 0x044, "GFX11", W32 | FMA | APU, 11, 0, 3, kArchPacked, kGfx10Feat, ""),
    row("gfx1150", "", 0x043, "GFX11", W32 | FMA | APU, 11, 5, 0, kArchPacked, kGfx10Feat, ""),
    row("gfx1151", "", 0x04a, "GFX11", W32 | FMA | APU, 11, 5, 1, kArchPacked, kGfx10Feat, ""),
    row("gfx1152", "", 0x055, "GFX11", W32 | FMA | APU, 11, 5, 2, kArchPacked, kGfx10Feat, ""),
    row("gfx1153", "", 0x058, "GFX11", W32 | FMA | APU, 11, 5, 3, kArchPacked, kGfx10Feat, ""),
    // GFX12 (RDNA 4).
    row("gfx1200", "", 0x048, "GFX12", W32 | FMA, 12, 0, 0, kArchPacked, kGfx10Feat, ""),
    row("gfx1201", "", 0x04e, "GFX12", W32 | FMA, 12, 0, 1, kArchPacked, kGfx10Feat, ""),
    // Generic processors (code object V6 and later).
    row("gfx9-generic", "", 0x051, "GFX9", GEN | X | FMA, 0, 0, 0, kAbsolute, "",
        "runs on gfx900 gfx902 gfx904 gfx906 gfx909 gfx90c"),
    row("gfx9-4-generic", "", 0x05f, "GFX9", GEN | X | E | FMA | A90A, 0, 0, 0, kAbsolute, "",
        "runs on gfx940 gfx941 gfx942 gfx950"),
    row("gfx10-1-generic", "", 0x052, "GFX10.1", GEN | X | W32 | FMA, 0, 0, 0, kAbsolute, kGfx10Feat,
        "runs on gfx1010 gfx1011 gfx1012 gfx1013"),
    row("gfx10-3-generic", "", 0x053, "GFX10.3", GEN | W32 | FMA, 0, 0, 0, kAbsolute, kGfx10Feat,
        "runs on gfx1030 to gfx1036"),
    row("gfx11-generic", "", 0x054, "GFX11", GEN | W32 | FMA, 0, 0, 0, kArchPacked, kGfx10Feat,
        "runs on gfx1100 to gfx1103 and gfx1150 to gfx1153"),
    row("gfx12-generic", "", 0x059, "GFX12", GEN | W32 | FMA, 0, 0, 0, kArchPacked, kGfx10Feat,
        "runs on gfx1200 gfx1201"),
    // Known only by their EF_AMDGPU_MACH values.
    row("gfx1250", "", 0x049, "GFX12.5", DEC, 0, 0, 0, "", "",
        "known only by its EF_AMDGPU_MACH value; the value is gfx1210 in an older AMDGPUUsage"),
    row("gfx1251", "", 0x05a, "GFX12.5", DEC, 0, 0, 0, "", "", kMachOnly),
    row("gfx12-5-generic", "", 0x05b, "GFX12.5", DEC | GEN, 0, 0, 0, "", "", kMachOnly),
    row("gfx1154", "", 0x057, "GFX11", DEC, 0, 0, 0, "", "", kMachOnly),
    row("gfx1170", "", 0x05d, "GFX11.7", DEC, 0, 0, 0, "", "", kMachOnly),
    row("gfx1171", "", 0x05e, "GFX11.7", DEC, 0, 0, 0, "", "", kMachOnly),
    row("gfx1172", "", 0x05c, "GFX11.7", DEC, 0, 0, 0, "", "", kMachOnly),
    row("gfx11-7-generic", "", 0x062, "GFX11.7", DEC | GEN, 0, 0, 0, "", "", kMachOnly),
    row("gfx1310", "", 0x050, "GFX13", DEC, 0, 0, 0, "", "", kMachOnly),
    row("gfx13-generic", "", 0x063, "GFX13", DEC | GEN, 0, 0, 0, "", "", kMachOnly),
};
// clang-format on

bool isR600(const AmdgpuProcessor& p) {
  return p.mach >= 0x001 && p.mach <= 0x01f;
}

bool hasAlias(std::string_view aliases, std::string_view name) {
  size_t i = 0;
  while (i < aliases.size()) {
    size_t j = aliases.find(' ', i);
    if (j == std::string_view::npos) j = aliases.size();
    if (aliases.substr(i, j - i) == name) return true;
    i = j + 1;
  }
  return false;
}

/// The GFX major version of a processor ("GFX10.3" -> 10); 0 for r600.
unsigned gfxMajor(const AmdgpuProcessor& p) {
  if (p.generation.substr(0, 3) != "GFX") return 0;
  unsigned v = 0;
  for (size_t i = 3; i < p.generation.size() && p.generation[i] >= '0' && p.generation[i] <= '9';
       ++i)
    v = v * 10 + unsigned(p.generation[i] - '0');
  return v;
}

std::string machConstant(const AmdgpuProcessor& p) {
  std::string s = isR600(p) ? "EF_AMDGPU_MACH_R600_" : "EF_AMDGPU_MACH_AMDGCN_";
  for (char c : p.name) s += c == '-' ? '_' : char(c >= 'a' && c <= 'z' ? c - 'a' + 'A' : c);
  return s;
}

std::string hexText(uint32_t v, int digits = 0) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%0*x", digits, v);
  return buf;
}

// How llvm-dwarfdump-22 names AMDGPU DWARF registers (dwarf.md §3.1 numbers; docs/dwarf.md), for
// every processor (no names when e_flags has none): wave64 vector ranges only, VGPR0-511.
constexpr DwarfRegisterName kDwarfNames[] = {
    {1, 1, "EXEC_LO", "", 0, false},  {16, 1, "PC_REG", "", 0, false},
    {17, 1, "EXEC", "", 0, false},    {32, 64, "SGPR", "", 0, true},
    {1088, 42, "SGPR", "", 64, true}, {2560, 512, "VGPR", "", 0, true},
    {3072, 256, "AGPR", "", 0, true}};

// ----- address spaces -------------------------------------------------------------------------

// pointer_bits is sizeof(T __attribute__((address_space(N))) *) in clang-14 C: only local and
// private pointers are 32-bit there, although LLVM's DataLayout makes 2 and 6 32-bit too.
constexpr AddressSpaceInfo kSpaces[] = {
    {0, "generic", "__generic", 64, 64, true, 0, "flat addressing"},
    {1, "global", "__global", 64, 64, true, 0, ""},
    {2, "region", "", 64, 32, false, 0,
     "GDS; 32-bit in LLVM's DataLayout but 8 bytes as clang-14 C sizeof; NULL not implemented "
     "for AMDHSA"},
    {3, "local", "__local", 32, 32, true, 0xFFFFFFFF,
     "LDS (group segment); OpenCL NULL is 0xffffffff, an address_space(3) null constant in C is 0"},
    {4, "constant", "__constant", 64, 64, true, 0, "same memory as global, read-only"},
    {5, "private", "__private", 32, 32, true, 0xFFFFFFFF,
     "scratch, swizzled per lane; OpenCL NULL is 0xffffffff, an address_space(5) null constant "
     "in C is 0"},
    {6, "constant-32bit", "", 64, 32, true, 0,
     "32-bit constant address; 8 bytes as clang-14 C sizeof"},
    {7, "buffer-fat-pointer", "", 64, 160, false, 0,
     "experimental: 128-bit buffer descriptor + 32-bit offset; non-integral"},
    {8, "buffer-resource", "", 64, 128, false, 0,
     "experimental, newer LLVM only: a 128-bit buffer descriptor (V#)"},
    {9, "buffer-strided-pointer", "", 64, 192, false, 0,
     "experimental, newer LLVM only: descriptor + offset + index"},
};

// ----- ELF ------------------------------------------------------------------------------------

constexpr uint32_t kMachMask = 0x0ff;
constexpr uint32_t kXnackV3 = 0x100;
constexpr uint32_t kSrameccV3 = 0x200;
constexpr uint32_t kXnackV4Mask = 0x300;
constexpr uint32_t kSrameccV4Mask = 0xc00;
constexpr uint32_t kGenericVersionMask = 0xff000000;

uint32_t v4Field(FeatureSetting s) {
  switch (s) {
  case FeatureSetting::Unsupported:
    return 0;
  case FeatureSetting::Any:
    return 1;
  case FeatureSetting::Off:
    return 2;
  case FeatureSetting::On:
    return 3;
  }
  return 0;
}

FeatureSetting fromV4Field(uint32_t v) {
  constexpr FeatureSetting kMap[] = {FeatureSetting::Unsupported, FeatureSetting::Any,
                                     FeatureSetting::Off, FeatureSetting::On};
  return kMap[v & 3];
}

constexpr RelocationType kRelocations[] = {
    {0, "R_AMDGPU_NONE", 0, "", "no relocation"},
    {1, "R_AMDGPU_ABS32_LO", 4, "(S + A) & 0xFFFFFFFF", "low 32 bits of an absolute address"},
    {2, "R_AMDGPU_ABS32_HI", 4, "(S + A) >> 32", "high 32 bits of an absolute address"},
    {3, "R_AMDGPU_ABS64", 8, "S + A", "64-bit absolute address"},
    {4, "R_AMDGPU_REL32", 4, "S + A - P", "32-bit PC-relative"},
    {5, "R_AMDGPU_REL64", 8, "S + A - P", "64-bit PC-relative"},
    {6, "R_AMDGPU_ABS32", 4, "S + A", "32-bit absolute address"},
    {7, "R_AMDGPU_GOTPCREL", 4, "G + GOT + A - P", "PC-relative GOT entry"},
    {8, "R_AMDGPU_GOTPCREL32_LO", 4, "(G + GOT + A - P) & 0xFFFFFFFF",
     "low 32 bits of a PC-relative GOT entry"},
    {9, "R_AMDGPU_GOTPCREL32_HI", 4, "(G + GOT + A - P) >> 32",
     "high 32 bits of a PC-relative GOT entry"},
    {10, "R_AMDGPU_REL32_LO", 4, "(S + A - P) & 0xFFFFFFFF", "low 32 bits of a PC-relative value"},
    {11, "R_AMDGPU_REL32_HI", 4, "(S + A - P) >> 32", "high 32 bits of a PC-relative value"},
    {13, "R_AMDGPU_RELATIVE64", 8, "B + A", "dynamic: load base plus addend"},
    {14, "R_AMDGPU_REL16", 2, "((S + A - P) - 4) / 4", "16-bit branch offset in dwords"},
};

/// The code object version an object's header says, 0 when it cannot tell.
unsigned codeObjectVersion(const ElfHeaderFacts& h) {
  if (h.osabi != kOsabiAmdgpuHsa) return 0;
  return h.abi_version <= 4 ? h.abi_version + 2u : 0u;
}

void featureProperty(ElfFlagsInfo& info, std::string_view key, FeatureSetting s) {
  info.properties.emplace_back(std::string(key), std::string(featureSettingName(s)));
}

ElfFlagsInfo decodeAmdgpuFlags(const ElfHeaderFacts& h) {
  ElfFlagsInfo info;
  const uint32_t mach = h.flags & kMachMask;
  const AmdgpuProcessor* p = mach ? findAmdgpuProcessorByMach(uint16_t(mach)) : nullptr;
  const bool r600 = p && isR600(*p);
  std::string os;
  switch (h.osabi) {
  case kOsabiAmdgpuHsa:
    os = "amdhsa";
    break;
  case kOsabiAmdgpuPal:
    os = "amdpal";
    break;
  case kOsabiAmdgpuMesa3d:
    os = "mesa3d";
    break;
  case 0:
    os = "unknown";
    break;
  default:
    os = "unknown";
    info.problems.push_back("unknown AMDGPU OSABI " + std::to_string(h.osabi) +
                            " (known: 0, 64 amdhsa, 65 amdpal, 66 mesa3d)");
  }
  if (r600)
    info.target = "r600--";
  else if (h.osabi == kOsabiAmdgpuHsa)
    info.target = "amdgcn-amd-amdhsa";
  else if (h.osabi == kOsabiAmdgpuPal)
    info.target = "amdgcn-amd-amdpal";
  else if (h.osabi == kOsabiAmdgpuMesa3d)
    info.target = "amdgcn-mesa-mesa3d";
  else
    info.target = "amdgcn--";
  info.properties.emplace_back("os", os);
  if (r600 ? h.elf_class != kElfClass32 : h.elf_class != kElfClass64)
    info.problems.push_back(r600 ? "r600 objects are ELFCLASS32" : "amdgcn objects are ELFCLASS64");

  // The e_flags layout: by ABI version for amdhsa; LLVM writes the V3 layout for other OSes.
  unsigned cov = codeObjectVersion(h);
  if (h.osabi == kOsabiAmdgpuHsa && cov == 0)
    info.problems.push_back("unknown AMDGPU HSA ABI version " + std::to_string(h.abi_version) +
                            " (known: 0 to 4, code object V2 to V6)");
  if (h.osabi != kOsabiAmdgpuHsa && h.abi_version != 0)
    info.problems.push_back("ABI version " + std::to_string(h.abi_version) + " with OSABI " +
                            std::to_string(h.osabi) + " (expected 0)");
  info.properties.emplace_back("code_object_version", cov ? std::to_string(cov) : "unknown");
  const bool v4 = cov >= 4;

  // Processor.
  if (mach == 0) {
    info.flag_names.push_back("EF_AMDGPU_MACH_NONE");
  } else if (!p) {
    info.flag_names.push_back("EF_AMDGPU_MACH " + hexText(mach, 3));
    info.problems.push_back("unknown or reserved EF_AMDGPU_MACH value " + hexText(mach, 3));
  } else {
    info.processor = std::string(p->name);
    info.flag_names.push_back(machConstant(*p));
  }
  info.properties.emplace_back("mach", hexText(mach, 3));
  if (r600) {
    if (uint32_t unknown = h.flags & ~kMachMask)
      info.problems.push_back("unknown e_flags bits " + hexText(unknown) + " for r600");
    return info;
  }

  // Features.
  FeatureSetting xnack, sramecc;
  uint32_t known = kMachMask;
  if (v4) {
    xnack = fromV4Field((h.flags & kXnackV4Mask) >> 8);
    sramecc = fromV4Field((h.flags & kSrameccV4Mask) >> 10);
    static constexpr const char* kXn[] = {
        "EF_AMDGPU_FEATURE_XNACK_UNSUPPORTED_V4", "EF_AMDGPU_FEATURE_XNACK_ANY_V4",
        "EF_AMDGPU_FEATURE_XNACK_OFF_V4", "EF_AMDGPU_FEATURE_XNACK_ON_V4"};
    static constexpr const char* kSr[] = {
        "EF_AMDGPU_FEATURE_SRAMECC_UNSUPPORTED_V4", "EF_AMDGPU_FEATURE_SRAMECC_ANY_V4",
        "EF_AMDGPU_FEATURE_SRAMECC_OFF_V4", "EF_AMDGPU_FEATURE_SRAMECC_ON_V4"};
    info.flag_names.push_back(kXn[v4Field(xnack)]);
    info.flag_names.push_back(kSr[v4Field(sramecc)]);
    known |= kXnackV4Mask | kSrameccV4Mask;
    if (p && !p->decode_only) {
      if ((xnack == FeatureSetting::Unsupported) == p->supports_xnack)
        info.problems.push_back("xnack is " + std::string(featureSettingName(xnack)) + " but " +
                                info.processor +
                                (p->supports_xnack ? " supports" : " does not support") + " it");
      if ((sramecc == FeatureSetting::Unsupported) == p->supports_sramecc)
        info.problems.push_back("sramecc is " + std::string(featureSettingName(sramecc)) + " but " +
                                info.processor +
                                (p->supports_sramecc ? " supports" : " does not support") + " it");
    }
    if (cov >= 6) {
      known |= kGenericVersionMask;
      unsigned gv = (h.flags & kGenericVersionMask) >> 24;
      info.properties.emplace_back("generic_version", std::to_string(gv));
      if (gv) info.flag_names.push_back("EF_AMDGPU_GENERIC_VERSION_V" + std::to_string(gv));
      if (p && p->is_generic && gv == 0)
        info.problems.push_back("generic processor " + info.processor +
                                " without a generic version");
      if (p && !p->is_generic && gv != 0)
        info.problems.push_back("generic version " + std::to_string(gv) +
                                " on the non-generic processor " + info.processor);
    } else if (p && p->is_generic) {
      info.problems.push_back("generic processor " + info.processor +
                              " needs code object version 6 or later");
    }
  } else {
    // V2 (as LLVM writes it) and V3: a set bit means on (or any); clear means off.
    bool x = h.flags & kXnackV3, s = h.flags & kSrameccV3;
    xnack = x ? FeatureSetting::On : FeatureSetting::Off;
    sramecc = s ? FeatureSetting::On : FeatureSetting::Off;
    if (p && !p->decode_only && !p->supports_xnack) xnack = FeatureSetting::Unsupported;
    if (p && !p->decode_only && !p->supports_sramecc) sramecc = FeatureSetting::Unsupported;
    if (x) info.flag_names.push_back("EF_AMDGPU_FEATURE_XNACK_V3");
    if (s) info.flag_names.push_back("EF_AMDGPU_FEATURE_SRAMECC_V3");
    known |= kXnackV3 | kSrameccV3;
    if (p && !p->decode_only && x && !p->supports_xnack)
      info.problems.push_back("xnack set but " + info.processor + " does not support it");
    if (p && !p->decode_only && s && !p->supports_sramecc)
      info.problems.push_back("sramecc set but " + info.processor + " does not support it");
    if (p && p->is_generic)
      info.problems.push_back("generic processor " + info.processor +
                              " needs code object version 6 or later");
  }
  featureProperty(info, "xnack", xnack);
  featureProperty(info, "sramecc", sramecc);
  if (uint32_t unknown = h.flags & ~known)
    info.problems.push_back("unknown e_flags bits " + hexText(unknown));
  return info;
}

void amdgpuLinkConflicts(const ElfFlagsInfo& a, const ElfFlagsInfo& b,
                         std::vector<std::string>& out) {
  if (a.property("os") != b.property("os"))
    out.push_back("OS " + std::string(a.property("os")) + " vs " + std::string(b.property("os")));
  if (a.property("code_object_version") != b.property("code_object_version"))
    out.push_back("code object version " + std::string(a.property("code_object_version")) + " vs " +
                  std::string(b.property("code_object_version")));
  if (a.processor != b.processor) {
    out.push_back("processor " + (a.processor.empty() ? std::string("none") : a.processor) +
                  " vs " + (b.processor.empty() ? std::string("none") : b.processor));
    return; // feature settings of different processors are not comparable
  }
  for (std::string_view f : {"sramecc", "xnack"}) {
    std::string_view x = a.property(f), y = b.property(f);
    if ((x == "on" && y == "off") || (x == "off" && y == "on"))
      out.push_back(std::string(f) + " " + std::string(x) + " vs " + std::string(y));
  }
}

// In DWARF sections (what LLVM's AMDGPU object writer uses there): addresses and offsets.
constexpr DebugRelocation kDebugRelocations[] = {{0, DebugRelocKind::Ignore},
                                                 {1, DebugRelocKind::Set},
                                                 {2, DebugRelocKind::High32},
                                                 {3, DebugRelocKind::Absolute},
                                                 {6, DebugRelocKind::Absolute}};

const ElfMachineInfo kElf = {kEmAmdgpu,         kEmAmdgpuName,     Family::AMDGPU,
                             kRelocations,      decodeAmdgpuFlags, amdgpuLinkConflicts,
                             kDebugRelocations, "amdgpu"};

// ----- resolution -----------------------------------------------------------------------------

bool handles(const Triple& t) {
  return t.arch == "amdgcn" || t.arch == "r600";
}

void setDataModel(DataModel& d) {
  d.endian = Endian::Little;
  d.char_signed = true;
  d.of(IntKind::Bool) = {1, 1};
  d.of(IntKind::Char) = d.of(IntKind::SChar) = d.of(IntKind::UChar) = {1, 1};
  d.of(IntKind::Short) = d.of(IntKind::UShort) = {2, 2};
  d.of(IntKind::Int) = d.of(IntKind::UInt) = {4, 4};
  d.of(IntKind::Long) = d.of(IntKind::ULong) = {8, 8};
  d.of(IntKind::LongLong) = d.of(IntKind::ULongLong) = {8, 8};
  d.of(IntKind::Int128) = d.of(IntKind::UInt128) = {16, 16}; // IR i128 has ABI alignment 8
  d.floats = {};
  d.float_formats = {};
  d.of(FloatKind::Fp16) = {2, 2};
  d.float_formats[size_t(FloatKind::Fp16)] = FloatFormat::IEEEHalf;
  d.of(FloatKind::Float16) = {2, 2};
  d.float_formats[size_t(FloatKind::Float16)] = FloatFormat::IEEEHalf;
  d.of(FloatKind::Float) = {4, 4};
  d.float_formats[size_t(FloatKind::Float)] = FloatFormat::IEEESingle;
  d.of(FloatKind::Double) = {8, 8};
  d.float_formats[size_t(FloatKind::Double)] = FloatFormat::IEEEDouble;
  d.of(FloatKind::LongDouble) = {8, 8};
  d.float_formats[size_t(FloatKind::LongDouble)] = FloatFormat::IEEEDouble;
  d.pointer = d.function_pointer = {8, 8};
  d.size_type = IntKind::ULong;
  d.ptrdiff_type = IntKind::Long;
  d.intptr_type = IntKind::Long;
  d.intmax_type = IntKind::LongLong;
  d.int64_type = IntKind::LongLong;
  d.wchar_type = IntKind::Int;
  d.wint_type = IntKind::Int;
  d.char16_type = IntKind::UShort;
  d.char32_type = IntKind::UInt;
  d.sig_atomic_type = IntKind::Int;
  d.va_list_kind = VaListKind::CharPtr;
  d.va_list = {8, 8};
  d.max_vector_align = 0;
  d.biggest_alignment = 8;
  d.default_aligned_attr = 16;
  d.max_align_t_align = 8;
  d.bitint_max_width = 128;
  d.bitint_max_align = 8;
  d.max_atomic_inline_bits = 64;
  d.max_atomic_promote_bits = 64;
  d.has_sync_cas = false;
  d.bitfield_type_alignment = true;
  d.zero_length_bitfield_alignment = false;
}

void addProperty(Target& t, std::string key, std::string value, bool number = false) {
  TargetProperty p;
  p.key = std::move(key);
  p.value = std::move(value);
  p.is_number = number;
  t.properties.push_back(std::move(p));
}

void addListProperty(Target& t, std::string key, std::vector<std::string> list) {
  TargetProperty p;
  p.key = std::move(key);
  p.list = std::move(list);
  t.properties.push_back(std::move(p));
}

std::vector<std::string> splitSpaces(std::string_view s) {
  std::vector<std::string> out;
  size_t i = 0;
  while (i < s.size()) {
    size_t j = s.find(' ', i);
    if (j == std::string_view::npos) j = s.size();
    if (j > i) out.emplace_back(s.substr(i, j - i));
    i = j + 1;
  }
  return out;
}

unsigned resolveCodeObjectVersion(int v) {
  if (v == 0) return 4;
  if (v == 4 || v == 5) return unsigned(v);
  if (v == 2 || v == 3)
    targetError("code object version " + std::to_string(v) +
                " is recognised only when reading ELF files; targets are described for code "
                "object version 4 (the LLVM 14 default) or 5");
  if (v == 6)
    targetError("code object version 6 is not supported by LLVM 14 (which knows 2 to 5); "
                "targets are described for code object version 4 or 5");
  targetError("unknown AMDGPU code object version " + std::to_string(v) + " (known: 2 to 6)");
}

void resolve(const TargetOptions& o, const Triple& t, Target& out) {
  rejectUnusedOption("AMDGPU", "-march", o.march);
  rejectUnusedOption("AMDGPU", "-mabi", o.mabi);
  rejectUnusedOption("AMDGPU", "-mcmodel", o.mcmodel);
  if (o.msupervisor || o.mworker) targetError("-msupervisor/-mworker are IPU options");
  if (t.arch == "r600")
    targetError("the r600 architecture is not supported (abikit describes amdgcn-amd-amdhsa); "
                "r600 objects are recognised when reading ELF files");
  if (t.os == "amdpal" || t.os == "mesa3d")
    targetError("'" + t.text + "' is not described (abikit describes amdgcn-amd-amdhsa); " + t.os +
                " objects are recognised when reading ELF files");
  if (!(t.vendor == "amd" && t.os == "amdhsa" && t.env.empty()))
    targetError("unknown AMDGPU triple '" + t.text + "' (expected amdgcn-amd-amdhsa)");

  AmdgpuTarget amd;
  amd.code_object_version = resolveCodeObjectVersion(o.code_object_version);
  AmdgpuTargetId id;
  if (!o.mcpu.empty()) {
    id = parseAmdgpuTargetId(o.mcpu);
    if (id.processor->is_generic)
      targetError("'" + std::string(id.processor->name) +
                  "' is a generic processor: it needs code object version 6, which LLVM 14 does "
                  "not support");
  }
  const AmdgpuProcessor* p = id.processor;
  amd.processor = p;
  amd.xnack = id.xnack;
  amd.sramecc = id.sramecc;
  amd.wavefront_size = p ? p->default_wave_size : 64;
  if (o.wavefront_size == 32 && !(p && p->supports_wave32))
    targetError("-mno-wavefrontsize64: " +
                (p ? "'" + std::string(p->name) + "'" : std::string("the generic processor")) +
                " has no wave32 mode (GFX10 and later have)");
  const unsigned default_wave = amd.wavefront_size;
  if (o.wavefront_size) amd.wavefront_size = unsigned(o.wavefront_size);

  out.arch = "amdgcn";
  out.triple = "amdgcn-amd-amdhsa";
  out.cpu = p ? std::string(p->name) : "generic";
  const std::string target_id = p ? id.canonical() : "";
  out.spelling = "amdgcn-amd-amdhsa";
  if (p) out.spelling += " -mcpu=" + target_id;
  if (amd.code_object_version != 4)
    out.spelling += " -mcode-object-version=" + std::to_string(amd.code_object_version);
  if (amd.wavefront_size != default_wave)
    out.spelling += amd.wavefront_size == 64 ? " -mwavefrontsize64" : " -mno-wavefrontsize64";
  setDataModel(out.data);

  out.registers =
      amdgpuRegisters(p ? gfxMajor(*p) : 6, p ? p->agprs : AmdgpuAgprs::None, amd.wavefront_size);
  out.dwarf_register_names = kDwarfNames;
  out.dwarf = amdgpuDwarfInfo(amd.wavefront_size);
  out.stack.grows_down = false;
  out.stack.alignment = 16;
  out.stack.stack_pointer = "s32";
  out.stack.return_address = "s[30:31]";
  out.stack.frame_pointer = "s33";
  out.stack.argument_area =
      "the stack grows upwards in private (scratch) memory, 16-byte aligned per lane at calls "
      "(the DataLayout says S32); stack argument offset N is lane byte address s32/W + N where "
      "s32 is the caller's unswizzled stack pointer and W the wavefront size (MUBUF: s[0:3], "
      "s32 offset:N); arguments that do not fit v0-v30 go there in order, each piece in a "
      "4-byte-aligned slot";
  out.address_spaces = kSpaces;
  out.memory = {};
  // OpenCL C 3.0's optional features as clang-14 enables them for amdgcn: images only (clang 22
  // adds the generic address space where the processor has flat memory, pipes and enqueue).
  out.opencl3_features = kClImages;

  uint32_t flags = p ? amdgpuElfFlags(*p, amd.xnack, amd.sramecc, amd.code_object_version) : 0;
  out.elf = {
      kElfClass64, kElfData2Lsb, kOsabiAmdgpuHsa, uint8_t(amd.code_object_version - 2), kEmAmdgpu,
      flags,       true,         kEmAmdgpuName};

  // Macros as clang-14 -dM shows them. Without -mcpu clang-14 looks up the first processor row
  // (gfx600) for its features, hence FP_FAST_FMAF.
  out.macros = {{"__AMD__", "1"},
                {"__AMDGPU__", "1"},
                {"__AMDGCN__", "1"},
                {"__AMDGCN_WAVEFRONT_SIZE", std::to_string(amd.wavefront_size)},
                {"FP_FAST_FMA", "1"},
                {"__HAS_FMAF__", "1"},
                {"__HAS_FP64__", "1"},
                {"__HAS_LDEXPF__", "1"},
                {"__NO_MATH_ERRNO__", "1"},
                {"__PIC__", "1"},
                {"__pic__", "1"}};
  // A HIP device compilation takes the host's whole transferable data model (clang-14's
  // AMDGPUTargetInfo::setAuxTarget), but for long double's format (its size and alignment are
  // the host's) and __float128 (the host's, or none, in the device's double format); the driver
  // adds the Microsoft dialect and char's sign (docs/offload.md).
  out.offload.copies = kOffloadInts | kOffloadFloats | kOffloadBitFieldRules | kOffloadAtomics |
                       kOffloadDialect | kOffloadAlignedAttr | kOffloadAlignLimits |
                       kOffloadLongDoubleSize | kOffloadFloat128;
  out.offload.default_host = "x86_64-linux-gnu";
  // The HIP toolchain writes DWARF CFI directives whatever the host.
  out.language_macros.push_back({Language::HIP, "__GCC_HAVE_DWARF2_CFI_ASM", "1"});
  if (!p || p->fast_fma_f32) out.macros.emplace_back("FP_FAST_FMAF", "1");
  if (p) {
    std::string guard = "__";
    for (char c : p->name) guard += c == '-' ? '_' : c;
    guard += "__";
    out.macros.emplace_back(guard, "1");
    out.macros.emplace_back("__amdgcn_processor__", "\"" + std::string(p->name) + "\"");
    out.macros.emplace_back("__amdgcn_target_id__", "\"" + target_id + "\"");
    if (amd.xnack == FeatureSetting::On || amd.xnack == FeatureSetting::Off)
      out.macros.emplace_back("__amdgcn_feature_xnack__",
                              amd.xnack == FeatureSetting::On ? "1" : "0");
    if (amd.sramecc == FeatureSetting::On || amd.sramecc == FeatureSetting::Off)
      out.macros.emplace_back("__amdgcn_feature_sramecc__",
                              amd.sramecc == FeatureSetting::On ? "1" : "0");
  }

  if (p) {
    addProperty(out, "processor", std::string(p->name));
    addListProperty(out, "aliases", splitSpaces(p->aliases));
    addProperty(out, "mach", hexText(p->mach, 3));
    addProperty(out, "generation", std::string(p->generation));
    std::vector<std::string> feats;
    if (p->supports_sramecc)
      feats.push_back("sramecc:" + std::string(featureSettingName(amd.sramecc)));
    if (p->supports_xnack) feats.push_back("xnack:" + std::string(featureSettingName(amd.xnack)));
    addListProperty(out, "target_id_features", std::move(feats));
    addListProperty(out, "other_features", splitSpaces(p->features));
    addProperty(out, "target_id", target_id);
    addProperty(out, "amdhsa_target", "amdgcn-amd-amdhsa--" + target_id);
    if (p->isa_major)
      addProperty(out, "isa_version",
                  std::to_string(p->isa_major) + "." + std::to_string(p->isa_minor) + "." +
                      std::to_string(p->isa_stepping));
    addProperty(out, "kind", p->dgpu ? "dGPU" : "APU");
    addListProperty(out, "processor_properties", splitSpaces(p->properties));
    addProperty(out, "known_to_llvm14", p->in_llvm14 ? "yes" : "no");
    if (!p->note.empty()) addProperty(out, "processor_note", std::string(p->note));
  } else {
    addProperty(out, "processor", "none (clang's default without -mcpu: EF_AMDGPU_MACH_NONE)");
  }
  addProperty(out, "wavefront_size", std::to_string(amd.wavefront_size), true);
  addProperty(out, "code_object_version", std::to_string(amd.code_object_version), true);
  addProperty(out, "agprs",
              !p || p->agprs == AmdgpuAgprs::None     ? "none"
              : p->agprs == AmdgpuAgprs::AllClobbered ? "a0-a255, none preserved across calls"
                                                      : "a0-a255, a32-a255 preserved across calls");
  out.detail = amd;
}

void summaries(std::vector<TargetSummary>& out) {
  TargetSummary s;
  s.family = Family::AMDGPU;
  s.name = "amdgcn-amd-amdhsa";
  s.description = "AMD GCN/RDNA/CDNA GPUs, HSA code objects V4 (default) and V5; -mcpu takes "
                  "a target id (gfx90a:xnack+)";
  for (const AmdgpuProcessor& p : kProcessors)
    if (!p.decode_only && !p.is_generic) s.cpus.emplace_back(p.name);
  out.push_back(std::move(s));
}

} // namespace

// clang-19 and clang-22 are not modelled for this family yet (docs/targets/amdgpu.md).
constexpr Compiler kClang14Only[] = {Compiler::Clang14};

const FamilyInfo kAmdgpuFamily = {Family::AMDGPU, "amdgpu",  "AMDGPU", handles,
                                  resolve,        summaries, &kElf,    kClang14Only};

} // namespace abikit::detail

// ----- public functions -----------------------------------------------------------------------

namespace abikit {

std::string_view featureSettingName(FeatureSetting s) {
  switch (s) {
  case FeatureSetting::Unsupported:
    return "unsupported";
  case FeatureSetting::Any:
    return "any";
  case FeatureSetting::Off:
    return "off";
  case FeatureSetting::On:
    return "on";
  }
  return "?";
}

std::span<const AmdgpuProcessor> amdgpuProcessors() {
  return detail::kProcessors;
}

const AmdgpuProcessor* findAmdgpuProcessor(std::string_view name) {
  if (name.empty()) return nullptr;
  for (const AmdgpuProcessor& p : detail::kProcessors)
    if (p.name == name) return &p;
  for (const AmdgpuProcessor& p : detail::kProcessors)
    if (detail::hasAlias(p.aliases, name)) return &p;
  return nullptr;
}

const AmdgpuProcessor* findAmdgpuProcessorByMach(uint16_t mach) {
  for (const AmdgpuProcessor& p : detail::kProcessors)
    if (p.mach == mach) return &p;
  return nullptr;
}

std::string AmdgpuTargetId::canonical() const {
  if (!processor) return "";
  std::string s(processor->name);
  auto add = [&](const char* name, FeatureSetting f) {
    if (f == FeatureSetting::On) s += std::string(":") + name + "+";
    if (f == FeatureSetting::Off) s += std::string(":") + name + "-";
  };
  add("sramecc", sramecc); // alphabetical order
  add("xnack", xnack);
  return s;
}

namespace {
[[noreturn]] void failTargetId(std::string message, std::string_view value, size_t index) {
  Error e = Error::atOption(std::move(message), "-mcpu", std::string(value), index);
  throw Error(e);
}
} // namespace

AmdgpuTargetId parseAmdgpuTargetId(std::string_view text) {
  auto fail = [&](std::string message, size_t index) {
    failTargetId(std::move(message), text, index);
  };
  AmdgpuTargetId id;
  size_t colon = text.find(':');
  std::string_view name = text.substr(0, colon);
  if (name.empty()) fail("missing AMDGPU processor name in target id", 0);
  const AmdgpuProcessor* p = findAmdgpuProcessor(name);
  if (!p) fail("unknown AMDGPU processor '" + std::string(name) + "'", 0);
  if (detail::isR600(*p))
    fail("processor '" + std::string(name) + "' belongs to the r600 architecture, not amdgcn", 0);
  if (p->decode_only)
    fail("processor '" + std::string(name) + "' is known only by its EF_AMDGPU_MACH value (" +
             detail::hexText(p->mach, 3) + "); abikit has no target description for it",
         0);
  id.processor = p;
  id.xnack = p->supports_xnack ? FeatureSetting::Any : FeatureSetting::Unsupported;
  id.sramecc = p->supports_sramecc ? FeatureSetting::Any : FeatureSetting::Unsupported;
  bool seen_xnack = false, seen_sramecc = false;
  size_t pos = colon;
  while (pos != std::string_view::npos) {
    size_t start = pos + 1;
    size_t next = text.find(':', start);
    std::string_view item =
        text.substr(start, next == std::string_view::npos ? std::string_view::npos : next - start);
    if (item.empty()) fail("empty feature in target id", start);
    char sign = item.back();
    std::string_view feature = item;
    if (sign == '+' || sign == '-')
      feature.remove_suffix(1);
    else
      sign = 0;
    bool is_xnack = feature == "xnack", is_sramecc = feature == "sramecc";
    if (!is_xnack && !is_sramecc)
      fail("unknown target-id feature '" + std::string(feature) + "' (known: sramecc, xnack)",
           start);
    if (!sign)
      fail("target-id feature '" + std::string(feature) + "' needs '+' or '-'",
           start + item.size());
    if ((is_xnack && seen_xnack) || (is_sramecc && seen_sramecc))
      fail("target-id feature '" + std::string(feature) + "' given twice", start);
    if ((is_xnack && !p->supports_xnack) || (is_sramecc && !p->supports_sramecc))
      fail("processor '" + std::string(p->name) + "' does not support the '" +
               std::string(feature) + "' feature",
           start);
    FeatureSetting setting = sign == '+' ? FeatureSetting::On : FeatureSetting::Off;
    if (is_xnack) {
      id.xnack = setting;
      seen_xnack = true;
    } else {
      id.sramecc = setting;
      seen_sramecc = true;
    }
    pos = next;
  }
  return id;
}

uint32_t amdgpuElfFlags(const AmdgpuProcessor& p, FeatureSetting xnack, FeatureSetting sramecc,
                        unsigned code_object_version, unsigned generic_version) {
  uint32_t flags = p.mach;
  if (code_object_version <= 3) {
    // V2 (as LLVM writes it) and V3 cannot express "any": it is encoded as on.
    if (p.supports_xnack && (xnack == FeatureSetting::On || xnack == FeatureSetting::Any))
      flags |= detail::kXnackV3;
    if (p.supports_sramecc && (sramecc == FeatureSetting::On || sramecc == FeatureSetting::Any))
      flags |= detail::kSrameccV3;
    return flags;
  }
  if (!p.supports_xnack) xnack = FeatureSetting::Unsupported;
  if (!p.supports_sramecc) sramecc = FeatureSetting::Unsupported;
  flags |= detail::v4Field(xnack) << 8;
  flags |= detail::v4Field(sramecc) << 10;
  if (code_object_version >= 6) flags |= (generic_version & 0xffu) << 24;
  return flags;
}

} // namespace abikit
