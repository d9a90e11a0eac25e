// AMDGPU target model: the processor table, target ids, code object versions, e_flags and
// their decoding, link rules, relocations, registers with DWARF numbers and roles, address
// spaces, data model and macros.
#include "abikit/diag.h"
#include "abikit/elf_target.h"
#include "abikit/target.h"

#include <algorithm>
#include <array>
#include <gtest/gtest.h>
#include <map>
#include <set>
#include <string>
#include <vector>

using namespace abikit;

namespace {

Target amd(const std::string& cpu, int cov = 0) {
  TargetOptions o;
  o.triple = "amdgcn-amd-amdhsa";
  o.mcpu = cpu;
  o.code_object_version = cov;
  return resolveTarget(o);
}

std::string targetError(const TargetOptions& o) {
  try {
    resolveTarget(o);
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Target);
    return e.message();
  }
  return "(no error)";
}

std::string targetError(const std::string& cpu, int cov = 0,
                        const std::string& triple = "amdgcn-amd-amdhsa") {
  TargetOptions o;
  o.triple = triple;
  o.mcpu = cpu;
  o.code_object_version = cov;
  return targetError(o);
}

std::map<std::string, std::string> macros(const Target& t) {
  std::map<std::string, std::string> m;
  for (auto& [k, v] : predefinedMacros(t, Language::C)) m[k] = v;
  return m;
}

std::string_view property(const Target& t, std::string_view key) {
  for (const TargetProperty& p : t.properties)
    if (p.key == key) return p.value;
  return {};
}

const ElfMachineInfo& em() {
  const ElfMachineInfo* m = findElfMachine(abikit::kEmAmdgpu);
  EXPECT_NE(m, nullptr);
  return *m;
}

ElfFlagsInfo decode(uint8_t osabi, uint8_t abi, uint32_t flags, uint8_t cls = 2) {
  return em().decodeFlags({cls, 1, osabi, abi, abikit::kEmAmdgpu, flags});
}

const AmdgpuProcessor& proc(const char* name) {
  const AmdgpuProcessor* p = findAmdgpuProcessor(name);
  EXPECT_NE(p, nullptr) << name;
  return *p;
}

// ----- the processor table --------------------------------------------------------------------

TEST(AmdgpuTarget, MachValuesMatchReference) {
  // reference/gpu.md §2.5 (AMDGPUUsage and LLVM's elf-header-flags-mach.ll).
  const std::map<std::string, uint16_t> expected = {
      {"r600", 0x001},
      {"r630", 0x002},
      {"rs880", 0x003},
      {"rv670", 0x004},
      {"rv710", 0x005},
      {"rv730", 0x006},
      {"rv770", 0x007},
      {"cedar", 0x008},
      {"cypress", 0x009},
      {"juniper", 0x00a},
      {"redwood", 0x00b},
      {"sumo", 0x00c},
      {"barts", 0x00d},
      {"caicos", 0x00e},
      {"cayman", 0x00f},
      {"turks", 0x010},
      {"gfx600", 0x020},
      {"gfx601", 0x021},
      {"gfx700", 0x022},
      {"gfx701", 0x023},
      {"gfx702", 0x024},
      {"gfx703", 0x025},
      {"gfx704", 0x026},
      {"gfx801", 0x028},
      {"gfx802", 0x029},
      {"gfx803", 0x02a},
      {"gfx810", 0x02b},
      {"gfx900", 0x02c},
      {"gfx902", 0x02d},
      {"gfx904", 0x02e},
      {"gfx906", 0x02f},
      {"gfx908", 0x030},
      {"gfx909", 0x031},
      {"gfx90c", 0x032},
      {"gfx1010", 0x033},
      {"gfx1011", 0x034},
      {"gfx1012", 0x035},
      {"gfx1030", 0x036},
      {"gfx1031", 0x037},
      {"gfx1032", 0x038},
      {"gfx1033", 0x039},
      {"gfx602", 0x03a},
      {"gfx705", 0x03b},
      {"gfx805", 0x03c},
      {"gfx1035", 0x03d},
      {"gfx1034", 0x03e},
      {"gfx90a", 0x03f},
      {"gfx940", 0x040},
      {"gfx1100", 0x041},
      {"gfx1013", 0x042},
      {"gfx1150", 0x043},
      {"gfx1103", 0x044},
      {"gfx1036", 0x045},
      {"gfx1101", 0x046},
      {"gfx1102", 0x047},
      {"gfx1200", 0x048},
      {"gfx1250", 0x049},
      {"gfx1151", 0x04a},
      {"gfx941", 0x04b},
      {"gfx942", 0x04c},
      {"gfx1201", 0x04e},
      {"gfx950", 0x04f},
      {"gfx1310", 0x050},
      {"gfx9-generic", 0x051},
      {"gfx10-1-generic", 0x052},
      {"gfx10-3-generic", 0x053},
      {"gfx11-generic", 0x054},
      {"gfx1152", 0x055},
      {"gfx1154", 0x057},
      {"gfx1153", 0x058},
      {"gfx12-generic", 0x059},
      {"gfx1251", 0x05a},
      {"gfx12-5-generic", 0x05b},
      {"gfx1172", 0x05c},
      {"gfx1170", 0x05d},
      {"gfx1171", 0x05e},
      {"gfx9-4-generic", 0x05f},
      {"gfx11-7-generic", 0x062},
      {"gfx13-generic", 0x063},
  };
  std::map<std::string, uint16_t> actual;
  std::set<uint16_t> machs;
  for (const AmdgpuProcessor& p : amdgpuProcessors()) {
    actual[std::string(p.name)] = p.mach;
    EXPECT_TRUE(machs.insert(p.mach).second) << "duplicate mach " << p.mach;
    EXPECT_EQ(findAmdgpuProcessorByMach(p.mach), &p);
    EXPECT_EQ(findAmdgpuProcessor(p.name), &p);
  }
  EXPECT_EQ(actual, expected);
  for (uint16_t reserved : {0x000, 0x011, 0x01f, 0x027, 0x04d, 0x056, 0x060, 0x061, 0x0ff})
    EXPECT_EQ(findAmdgpuProcessorByMach(reserved), nullptr) << reserved;
}

TEST(AmdgpuTarget, Llvm14Processors) {
  // `llc-14 -mtriple=amdgcn-amd-amdhsa -mcpu=help` (canonical names).
  const std::set<std::string> expected = {
      "gfx600",  "gfx601",  "gfx602",  "gfx700",  "gfx701",  "gfx702",  "gfx703",  "gfx704",
      "gfx705",  "gfx801",  "gfx802",  "gfx803",  "gfx805",  "gfx810",  "gfx900",  "gfx902",
      "gfx904",  "gfx906",  "gfx908",  "gfx909",  "gfx90a",  "gfx90c",  "gfx1010", "gfx1011",
      "gfx1012", "gfx1013", "gfx1030", "gfx1031", "gfx1032", "gfx1033", "gfx1034", "gfx1035"};
  std::set<std::string> actual;
  for (const AmdgpuProcessor& p : amdgpuProcessors())
    if (p.in_llvm14) actual.insert(std::string(p.name));
  EXPECT_EQ(actual, expected);
}

TEST(AmdgpuTarget, FeatureSupport) {
  // reference/gpu.md §2.4 plus the generic processors of AMDGPUUsage.
  const std::set<std::string> xnack = {
      "gfx801",       "gfx810",         "gfx900",         "gfx902",  "gfx904",  "gfx906",
      "gfx908",       "gfx909",         "gfx90a",         "gfx90c",  "gfx940",  "gfx941",
      "gfx942",       "gfx950",         "gfx1010",        "gfx1011", "gfx1012", "gfx1013",
      "gfx9-generic", "gfx9-4-generic", "gfx10-1-generic"};
  const std::set<std::string> sramecc = {"gfx906", "gfx908", "gfx90a", "gfx940",
                                         "gfx941", "gfx942", "gfx950", "gfx9-4-generic"};
  for (const AmdgpuProcessor& p : amdgpuProcessors()) {
    SCOPED_TRACE(std::string(p.name));
    EXPECT_EQ(p.supports_xnack, xnack.count(std::string(p.name)) == 1);
    EXPECT_EQ(p.supports_sramecc, sramecc.count(std::string(p.name)) == 1);
    if (p.decode_only) continue;
    bool gfx10plus = p.generation.substr(0, 5) == "GFX10" || p.generation.substr(0, 5) == "GFX11" ||
                     p.generation.substr(0, 5) == "GFX12";
    EXPECT_EQ(p.supports_wave32, gfx10plus);
    EXPECT_EQ(p.default_wave_size, gfx10plus ? 32 : 64);
    EXPECT_EQ(p.is_generic, std::string(p.name).find("generic") != std::string::npos);
  }
}

TEST(AmdgpuTarget, AliasesAreUnique) {
  std::set<std::string> all;
  for (const AmdgpuProcessor& p : amdgpuProcessors()) {
    EXPECT_TRUE(all.insert(std::string(p.name)).second) << p.name;
    std::string a(p.aliases);
    size_t i = 0;
    while (i < a.size()) {
      size_t j = a.find(' ', i);
      if (j == std::string::npos) j = a.size();
      std::string alias = a.substr(i, j - i);
      EXPECT_TRUE(all.insert(alias).second) << alias;
      EXPECT_EQ(findAmdgpuProcessor(alias), &p) << alias;
      i = j + 1;
    }
  }
  EXPECT_EQ(findAmdgpuProcessor("fiji")->name, "gfx803");
  EXPECT_EQ(findAmdgpuProcessor("polaris11")->name, "gfx803");
  EXPECT_EQ(findAmdgpuProcessor("tahiti")->name, "gfx600");
  EXPECT_EQ(findAmdgpuProcessor("hainan")->name, "gfx602");
  EXPECT_EQ(findAmdgpuProcessor("stoney")->name, "gfx810");
  EXPECT_EQ(findAmdgpuProcessor("gfx9999"), nullptr);
  EXPECT_EQ(findAmdgpuProcessor(""), nullptr);
  EXPECT_EQ(findAmdgpuProcessor("fiji polaris10"), nullptr);
}

// ----- target ids -----------------------------------------------------------------------------

TEST(AmdgpuTarget, TargetIdValid) {
  struct Row {
    const char* text;
    const char* canonical;
    FeatureSetting xnack, sramecc;
  };
  using F = FeatureSetting;
  const Row rows[] = {
      {"gfx906", "gfx906", F::Any, F::Any},
      {"gfx906:xnack+", "gfx906:xnack+", F::On, F::Any},
      {"gfx906:xnack-", "gfx906:xnack-", F::Off, F::Any},
      {"gfx906:xnack+:sramecc-", "gfx906:sramecc-:xnack+", F::On, F::Off},
      {"gfx906:sramecc+:xnack-", "gfx906:sramecc+:xnack-", F::Off, F::On},
      {"gfx90a:sramecc-", "gfx90a:sramecc-", F::Any, F::Off},
      {"gfx1030", "gfx1030", F::Unsupported, F::Unsupported},
      {"gfx1010:xnack-", "gfx1010:xnack-", F::Off, F::Unsupported},
      {"fiji", "gfx803", F::Unsupported, F::Unsupported},
      {"carrizo:xnack+", "gfx801:xnack+", F::On, F::Unsupported},
      {"gfx942:xnack+:sramecc+", "gfx942:sramecc+:xnack+", F::On, F::On},
      {"gfx9-generic:xnack-", "gfx9-generic:xnack-", F::Off, F::Unsupported},
  };
  for (const Row& r : rows) {
    SCOPED_TRACE(r.text);
    AmdgpuTargetId id = parseAmdgpuTargetId(r.text);
    EXPECT_EQ(id.canonical(), r.canonical);
    EXPECT_EQ(id.xnack, r.xnack);
    EXPECT_EQ(id.sramecc, r.sramecc);
  }
}

TEST(AmdgpuTarget, TargetIdInvalid) {
  struct Row {
    const char* text;
    const char* message;
    size_t index;
  };
  const Row rows[] = {
      {"", "missing AMDGPU processor name in target id", 0},
      {":xnack+", "missing AMDGPU processor name in target id", 0},
      {"gfx9999", "unknown AMDGPU processor 'gfx9999'", 0},
      {"gfx906:", "empty feature in target id", 7},
      {"gfx906::xnack+", "empty feature in target id", 7},
      {"gfx906:xnack", "target-id feature 'xnack' needs '+' or '-'", 12},
      {"gfx906:xnack+:", "empty feature in target id", 14},
      {"gfx906:foo+", "unknown target-id feature 'foo' (known: sramecc, xnack)", 7},
      {"gfx906:XNACK+", "unknown target-id feature 'XNACK' (known: sramecc, xnack)", 7},
      {"gfx906:xnack*", "unknown target-id feature 'xnack*' (known: sramecc, xnack)", 7},
      {"gfx906:xnack+:xnack-", "target-id feature 'xnack' given twice", 14},
      {"gfx906:sramecc+:sramecc+", "target-id feature 'sramecc' given twice", 16},
      {"gfx1030:xnack+", "processor 'gfx1030' does not support the 'xnack' feature", 8},
      {"gfx900:sramecc-", "processor 'gfx900' does not support the 'sramecc' feature", 7},
      {"fiji:xnack+", "processor 'gfx803' does not support the 'xnack' feature", 5},
      {"r600", "processor 'r600' belongs to the r600 architecture, not amdgcn", 0},
      {"gfx1250",
       "processor 'gfx1250' is known only by its EF_AMDGPU_MACH value (0x049); abikit has no "
       "target description for it",
       0},
  };
  for (const Row& r : rows) {
    SCOPED_TRACE(r.text);
    try {
      parseAmdgpuTargetId(r.text);
      ADD_FAILURE() << "accepted";
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), ErrorKind::Target);
      EXPECT_EQ(e.message(), r.message);
      EXPECT_TRUE(e.hasOptionPosition());
      EXPECT_EQ(e.option(), "-mcpu");
      EXPECT_EQ(e.optionValue(), r.text);
      EXPECT_EQ(e.optionIndex(), r.index);
    }
  }
}

TEST(AmdgpuTarget, TargetIdThroughResolve) {
  Target t = amd("gfx906:xnack+:sramecc-");
  EXPECT_EQ(t.cpu, "gfx906");
  EXPECT_EQ(t.spelling, "amdgcn-amd-amdhsa -mcpu=gfx906:sramecc-:xnack+");
  EXPECT_EQ(t.amdgpu().xnack, FeatureSetting::On);
  EXPECT_EQ(t.amdgpu().sramecc, FeatureSetting::Off);
  EXPECT_EQ(property(t, "target_id"), "gfx906:sramecc-:xnack+");
  EXPECT_EQ(property(t, "amdhsa_target"), "amdgcn-amd-amdhsa--gfx906:sramecc-:xnack+");
  EXPECT_EQ(property(t, "mach"), "0x02f");
  EXPECT_EQ(property(t, "isa_version"), "9.0.6");
  EXPECT_EQ(amd("polaris10").cpu, "gfx803");
  EXPECT_EQ(amd("gfx906", 5).spelling, "amdgcn-amd-amdhsa -mcpu=gfx906 -mcode-object-version=5");
}

// ----- code object versions, triples and options ---------------------------------------------

TEST(AmdgpuTarget, CodeObjectVersions) {
  EXPECT_EQ(amd("gfx906").amdgpu().code_object_version, 4u);
  EXPECT_EQ(amd("gfx906").elf.abi_version, 2);
  EXPECT_EQ(amd("gfx906", 4).elf.abi_version, 2);
  EXPECT_EQ(amd("gfx906", 5).elf.abi_version, 3);
  EXPECT_EQ(amd("gfx906", 5).amdgpu().code_object_version, 5u);
  EXPECT_EQ(targetError("gfx906", 2),
            "code object version 2 is recognised only when reading ELF files; targets are "
            "described for code object version 4 (the LLVM 14 default) or 5");
  EXPECT_EQ(targetError("gfx906", 3),
            "code object version 3 is recognised only when reading ELF files; targets are "
            "described for code object version 4 (the LLVM 14 default) or 5");
  EXPECT_EQ(targetError("gfx906", 6),
            "code object version 6 is not supported by LLVM 14 (which knows 2 to 5); targets are "
            "described for code object version 4 or 5");
  EXPECT_EQ(targetError("gfx906", 7), "unknown AMDGPU code object version 7 (known: 2 to 6)");
  EXPECT_EQ(targetError("gfx906", -1), "unknown AMDGPU code object version -1 (known: 2 to 6)");
  EXPECT_EQ(targetError("gfx9-generic"),
            "'gfx9-generic' is a generic processor: it needs code object version 6, which LLVM "
            "14 does not support");
}

TEST(AmdgpuTarget, TriplesAndOptions) {
  EXPECT_EQ(targetError("gfx906", 0, "amdgcn-amd-amdpal"),
            "'amdgcn-amd-amdpal' is not described (abikit describes amdgcn-amd-amdhsa); amdpal "
            "objects are recognised when reading ELF files");
  EXPECT_EQ(targetError("gfx906", 0, "amdgcn-mesa-mesa3d"),
            "'amdgcn-mesa-mesa3d' is not described (abikit describes amdgcn-amd-amdhsa); mesa3d "
            "objects are recognised when reading ELF files");
  EXPECT_EQ(targetError("", 0, "r600--"),
            "the r600 architecture is not supported (abikit describes amdgcn-amd-amdhsa); r600 "
            "objects are recognised when reading ELF files");
  EXPECT_EQ(targetError("gfx906", 0, "amdgcn-amd-linux"),
            "unknown AMDGPU triple 'amdgcn-amd-linux' (expected amdgcn-amd-amdhsa)");
  EXPECT_EQ(targetError("gfx906", 0, "amdgcn"),
            "unknown AMDGPU triple 'amdgcn' (expected amdgcn-amd-amdhsa)");
  TargetOptions o;
  o.triple = "amdgcn-amd-amdhsa";
  o.mcpu = "gfx906";
  o.march = "gfx906";
  EXPECT_EQ(targetError(o), "option '-march=gfx906' is not used by AMDGPU targets");
  o.march.clear();
  o.mcmodel = "large";
  EXPECT_EQ(targetError(o), "option '-mcmodel=large' is not used by AMDGPU targets");
  o.mcmodel.clear();
  o.msupervisor = true;
  EXPECT_EQ(targetError(o), "-msupervisor/-mworker are IPU options");
}

TEST(AmdgpuTarget, NoProcessor) {
  Target t = amd("");
  EXPECT_EQ(t.cpu, "generic");
  EXPECT_EQ(t.amdgpu().processor, nullptr);
  EXPECT_EQ(t.elf.flags, 0u); // EF_AMDGPU_MACH_NONE, as llc-14 without -mcpu
  EXPECT_EQ(t.amdgpu().wavefront_size, 64u);
  EXPECT_EQ(t.spelling, "amdgcn-amd-amdhsa");
  auto m = macros(t);
  EXPECT_EQ(m.count("__amdgcn_processor__"), 0u);
  EXPECT_EQ(m["FP_FAST_FMAF"], "1");
}

TEST(AmdgpuTarget, WavefrontSize) {
  // -mwavefrontsize64 on a wave32 processor: the wave64 register file, DWARF numbers and macro.
  TargetOptions o;
  o.triple = "amdgcn-amd-amdhsa";
  o.mcpu = "gfx1030";
  Target w32 = resolveTarget(o);
  o.wavefront_size = 64;
  Target w64 = resolveTarget(o);
  EXPECT_EQ(w32.amdgpu().wavefront_size, 32u);
  EXPECT_EQ(w64.amdgpu().wavefront_size, 64u);
  EXPECT_EQ(w32.spelling, "amdgcn-amd-amdhsa -mcpu=gfx1030");
  EXPECT_EQ(w64.spelling, "amdgcn-amd-amdhsa -mcpu=gfx1030 -mwavefrontsize64");
  EXPECT_EQ(macros(w64)["__AMDGCN_WAVEFRONT_SIZE"], "64");
  EXPECT_EQ(w64.dwarf.lanes, 64u);
  ASSERT_NE(w64.dwarf.findRegister(2560), nullptr); // VGPR0, wave64
  EXPECT_EQ(w64.dwarf.findRegister(1536), nullptr); // VGPR0, wave32
  ASSERT_NE(w32.dwarf.findRegister(1536), nullptr);
  EXPECT_EQ(w32.dwarf.findRegister(2560), nullptr);
  auto exec = [](const Target& t) {
    for (const RegisterInfo& r : t.registers)
      if (r.name == "exec") return r;
    return RegisterInfo{};
  };
  EXPECT_EQ(exec(w64).dwarf, 17);
  EXPECT_EQ(exec(w64).bits, 64u);
  EXPECT_EQ(exec(w32).dwarf, 1);
  // The same as the default: nothing changes; wave32 where the processor has none: an error.
  o.mcpu = "gfx90a";
  EXPECT_EQ(resolveTarget(o).spelling, "amdgcn-amd-amdhsa -mcpu=gfx90a");
  o.wavefront_size = 32;
  EXPECT_EQ(targetError(o), "-mno-wavefrontsize64: 'gfx90a' has no wave32 mode (GFX10 and later "
                            "have)");
  o.mcpu = "gfx1100";
  EXPECT_EQ(resolveTarget(o).spelling, "amdgcn-amd-amdhsa -mcpu=gfx1100");
  TargetOptions r;
  r.triple = "riscv64-unknown-elf";
  r.wavefront_size = 64;
  EXPECT_EQ(targetError(r), "-m[no-]wavefrontsize64 is an AMDGPU option");
}

// ----- e_flags --------------------------------------------------------------------------------

TEST(AmdgpuTarget, ElfIdentity) {
  struct Row {
    const char* cpu;
    int cov;
    uint32_t flags;
  };
  // Values as llc-14 writes them (see also the differential test).
  const Row rows[] = {
      {"gfx906", 0, 0x52f},
      {"gfx906:xnack+", 4, 0x72f},
      {"gfx906:xnack-", 4, 0x62f},
      {"gfx906:sramecc+", 4, 0x52f | 0x800 | 0x400},
      {"gfx906:sramecc-:xnack-", 5, 0xa2f},
      {"gfx908:sramecc-:xnack-", 4, 0xa30},
      {"gfx90a:xnack+", 4, 0x73f},
      {"gfx90a", 5, 0x53f},
      {"gfx1030", 4, 0x036},
      {"gfx1010", 4, 0x133},
      {"gfx1010:xnack+", 4, 0x333},
      {"gfx801", 4, 0x128},
      {"gfx600", 4, 0x020},
      {"tahiti", 4, 0x020},
      {"gfx942", 4, 0x54c},
      {"gfx1201", 5, 0x04e},
  };
  for (const Row& r : rows) {
    SCOPED_TRACE(r.cpu);
    Target t = amd(r.cpu, r.cov);
    EXPECT_EQ(t.elf.flags, r.flags);
    EXPECT_EQ(t.elf.elf_class, 2);
    EXPECT_EQ(t.elf.data, 1);
    EXPECT_EQ(t.elf.osabi, 64);
    EXPECT_EQ(t.elf.machine, 224);
    EXPECT_EQ(t.elf.machine_name, "EM_AMDGPU");
    EXPECT_TRUE(t.elf.rela);
  }
}

TEST(AmdgpuTarget, ElfFlagsOlderAndNewerVersions) {
  using F = FeatureSetting;
  // V2/V3 (LLVM 14 writes the V3 layout into V2 objects): any is encoded as on.
  EXPECT_EQ(amdgpuElfFlags(proc("gfx906"), F::Any, F::Any, 3), 0x32fu);
  EXPECT_EQ(amdgpuElfFlags(proc("gfx906"), F::Any, F::Any, 2), 0x32fu);
  EXPECT_EQ(amdgpuElfFlags(proc("gfx906"), F::Off, F::Any, 3), 0x22fu);
  EXPECT_EQ(amdgpuElfFlags(proc("gfx900"), F::Any, F::Unsupported, 2), 0x12cu);
  EXPECT_EQ(amdgpuElfFlags(proc("gfx803"), F::Unsupported, F::Unsupported, 2), 0x2au);
  EXPECT_EQ(amdgpuElfFlags(proc("gfx90a"), F::On, F::Any, 3), 0x33fu);
  // V6 adds the generic version in bits 24..31.
  EXPECT_EQ(amdgpuElfFlags(proc("gfx9-generic"), F::Any, F::Unsupported, 6, 1), 0x01000151u);
  EXPECT_EQ(amdgpuElfFlags(proc("gfx12-generic"), F::Unsupported, F::Unsupported, 6, 2),
            0x02000059u);
  // Settings a processor does not support are dropped.
  EXPECT_EQ(amdgpuElfFlags(proc("gfx1030"), F::On, F::On, 4), 0x036u);
}

TEST(AmdgpuTarget, DecodeRoundTripEveryProcessor) {
  using F = FeatureSetting;
  unsigned checked = 0;
  for (const AmdgpuProcessor& p : amdgpuProcessors()) {
    std::vector<F> xs = {F::Unsupported}, ss = {F::Unsupported};
    if (p.supports_xnack) xs = {F::Any, F::On, F::Off};
    if (p.supports_sramecc) ss = {F::Any, F::On, F::Off};
    const bool r600 = p.generation.substr(0, 3) != "GFX";
    for (unsigned cov : {4u, 5u, 6u}) {
      if (p.is_generic != (cov == 6)) continue;
      for (F x : xs)
        for (F s : ss) {
          SCOPED_TRACE(std::string(p.name) + " v" + std::to_string(cov));
          uint32_t flags = amdgpuElfFlags(p, x, s, cov, p.is_generic ? 1 : 0);
          ElfFlagsInfo info = decode(64, uint8_t(cov - 2), flags, r600 ? 1 : 2);
          EXPECT_EQ(info.processor, p.name);
          EXPECT_TRUE(info.problems.empty()) << info.problems.front();
          if (!r600) {
            EXPECT_EQ(info.property("xnack"), featureSettingName(x));
            EXPECT_EQ(info.property("sramecc"), featureSettingName(s));
            EXPECT_EQ(info.property("code_object_version"), std::to_string(cov));
            EXPECT_EQ(info.target, "amdgcn-amd-amdhsa");
          } else {
            EXPECT_EQ(info.target, "r600--");
          }
          ++checked;
        }
    }
    // Through resolveTarget: the e_flags describe predicts decode to the same target id.
    if (p.decode_only || p.is_generic) continue;
    for (F x : xs)
      for (F s : ss) {
        AmdgpuTargetId id{&p, x, s};
        for (int cov : {4, 5}) {
          SCOPED_TRACE(id.canonical() + " v" + std::to_string(cov));
          Target t = amd(id.canonical(), cov);
          ElfFlagsInfo info = em().decodeFlags({t.elf.elf_class, t.elf.data, t.elf.osabi,
                                                t.elf.abi_version, t.elf.machine, t.elf.flags});
          EXPECT_EQ(info.processor, t.cpu);
          EXPECT_TRUE(info.problems.empty());
          EXPECT_EQ(info.property("xnack"), featureSettingName(x));
          EXPECT_EQ(info.property("sramecc"), featureSettingName(s));
          EXPECT_EQ(info.property("code_object_version"), std::to_string(cov));
          ++checked;
        }
      }
  }
  EXPECT_GT(checked, 300u);
}

TEST(AmdgpuTarget, DecodeNames) {
  ElfFlagsInfo v4 = decode(64, 2, 0x72f);
  EXPECT_EQ(v4.flag_names, (std::vector<std::string>{"EF_AMDGPU_MACH_AMDGCN_GFX906",
                                                     "EF_AMDGPU_FEATURE_XNACK_ON_V4",
                                                     "EF_AMDGPU_FEATURE_SRAMECC_ANY_V4"}));
  EXPECT_EQ(v4.property("mach"), "0x02f");
  EXPECT_EQ(v4.property("os"), "amdhsa");
  ElfFlagsInfo v3 = decode(64, 1, 0x32f);
  EXPECT_EQ(v3.flag_names,
            (std::vector<std::string>{"EF_AMDGPU_MACH_AMDGCN_GFX906", "EF_AMDGPU_FEATURE_XNACK_V3",
                                      "EF_AMDGPU_FEATURE_SRAMECC_V3"}));
  EXPECT_EQ(v3.property("xnack"), "on");
  EXPECT_EQ(v3.property("code_object_version"), "3");
  ElfFlagsInfo v6 = decode(64, 4, 0x01000153);
  EXPECT_EQ(v6.processor, "gfx10-3-generic");
  EXPECT_EQ(v6.property("generic_version"), "1");
  EXPECT_EQ(v6.flag_names[0], "EF_AMDGPU_MACH_AMDGCN_GFX10_3_GENERIC");
  ElfFlagsInfo none = decode(64, 2, 0);
  EXPECT_EQ(none.processor, "");
  EXPECT_EQ(none.flag_names[0], "EF_AMDGPU_MACH_NONE");
  EXPECT_TRUE(none.problems.empty());
  // PAL and Mesa objects carry the V3 layout with ABI version 0 (llc-14).
  ElfFlagsInfo pal = decode(65, 0, 0x23f);
  EXPECT_EQ(pal.target, "amdgcn-amd-amdpal");
  EXPECT_EQ(pal.processor, "gfx90a");
  EXPECT_EQ(pal.property("xnack"), "off");
  EXPECT_EQ(pal.property("sramecc"), "on");
  EXPECT_TRUE(pal.problems.empty());
  EXPECT_EQ(decode(66, 0, 0x33f).target, "amdgcn-mesa-mesa3d");
  EXPECT_EQ(decode(0, 0, 0x02f).target, "amdgcn--");
  ElfFlagsInfo r600 = decode(64, 2, 0x009, 1);
  EXPECT_EQ(r600.processor, "cypress");
  EXPECT_EQ(r600.flag_names[0], "EF_AMDGPU_MACH_R600_CYPRESS");
}

TEST(AmdgpuTarget, DecodeProblems) {
  auto problems = [](uint8_t osabi, uint8_t abi, uint32_t flags, uint8_t cls = 2) {
    return decode(osabi, abi, flags, cls).problems;
  };
  using V = std::vector<std::string>;
  EXPECT_EQ(problems(64, 2, 0x027), V{"unknown or reserved EF_AMDGPU_MACH value 0x027"});
  EXPECT_EQ(problems(64, 2, 0x152f), V{"unknown e_flags bits 0x1000"});
  EXPECT_EQ(problems(64, 2, 0x136), V{"xnack is any but gfx1030 does not support it"});
  EXPECT_EQ(problems(64, 2, 0x02f), (V{"xnack is unsupported but gfx906 supports it",
                                       "sramecc is unsupported but gfx906 supports it"}));
  EXPECT_EQ(problems(64, 9, 0x02a),
            V{"unknown AMDGPU HSA ABI version 9 (known: 0 to 4, code object V2 to V6)"});
  EXPECT_EQ(problems(64, 2, 0x151),
            V{"generic processor gfx9-generic needs code object version 6 or later"});
  EXPECT_EQ(problems(64, 4, 0x151), V{"generic processor gfx9-generic without a generic version"});
  EXPECT_EQ(problems(64, 4, 0x0100052f),
            V{"generic version 1 on the non-generic processor gfx906"});
  EXPECT_EQ(problems(64, 1, 0x136), V{"xnack set but gfx1030 does not support it"});
  EXPECT_EQ(problems(64, 1, 0x400 | 0x02f), V{"unknown e_flags bits 0x400"});
  EXPECT_EQ(problems(64, 2, 0x52f, 1), V{"amdgcn objects are ELFCLASS64"});
  EXPECT_EQ(problems(65, 3, 0x02a), V{"ABI version 3 with OSABI 65 (expected 0)"});
  EXPECT_EQ(problems(3, 0, 0x02a),
            V{"unknown AMDGPU OSABI 3 (known: 0, 64 amdhsa, 65 amdpal, 66 mesa3d)"});
  EXPECT_EQ(problems(64, 2, 0x109, 1), V{"unknown e_flags bits 0x100 for r600"});
}

TEST(AmdgpuTarget, LinkConflicts) {
  auto conflicts = [](ElfFlagsInfo a, ElfFlagsInfo b) {
    std::vector<std::string> out;
    em().linkConflicts(a, b, out);
    return out;
  };
  using V = std::vector<std::string>;
  EXPECT_EQ(conflicts(decode(64, 2, 0x52f), decode(64, 2, 0x53f)), V{"processor gfx906 vs gfx90a"});
  EXPECT_EQ(conflicts(decode(64, 2, 0x72f), decode(64, 2, 0x62f)), V{"xnack on vs off"});
  EXPECT_EQ(conflicts(decode(64, 2, 0x72f), decode(64, 2, 0x52f)), V{});
  EXPECT_EQ(conflicts(decode(64, 2, 0x62f), decode(64, 2, 0x52f)), V{});
  EXPECT_EQ(conflicts(decode(64, 2, 0xd2f), decode(64, 2, 0x92f)), V{"sramecc on vs off"});
  EXPECT_EQ(conflicts(decode(64, 2, 0xe2f), decode(64, 2, 0xb2f)),
            (V{"sramecc on vs off", "xnack off vs on"}));
  EXPECT_EQ(conflicts(decode(64, 2, 0x52f), decode(64, 3, 0x52f)), V{"code object version 4 vs 5"});
  EXPECT_EQ(conflicts(decode(64, 1, 0x32f), decode(65, 0, 0x32f)),
            (V{"OS amdhsa vs amdpal", "code object version 3 vs unknown"}));
  EXPECT_EQ(conflicts(decode(64, 2, 0x000), decode(64, 2, 0x036)), V{"processor none vs gfx1030"});
}

TEST(AmdgpuTarget, Relocations) {
  const ElfMachineInfo& m = em();
  EXPECT_EQ(m.name, "EM_AMDGPU");
  EXPECT_EQ(m.family, Family::AMDGPU);
  const std::map<uint32_t, std::pair<std::string, uint8_t>> expected = {
      {0, {"R_AMDGPU_NONE", 0}},          {1, {"R_AMDGPU_ABS32_LO", 4}},
      {2, {"R_AMDGPU_ABS32_HI", 4}},      {3, {"R_AMDGPU_ABS64", 8}},
      {4, {"R_AMDGPU_REL32", 4}},         {5, {"R_AMDGPU_REL64", 8}},
      {6, {"R_AMDGPU_ABS32", 4}},         {7, {"R_AMDGPU_GOTPCREL", 4}},
      {8, {"R_AMDGPU_GOTPCREL32_LO", 4}}, {9, {"R_AMDGPU_GOTPCREL32_HI", 4}},
      {10, {"R_AMDGPU_REL32_LO", 4}},     {11, {"R_AMDGPU_REL32_HI", 4}},
      {13, {"R_AMDGPU_RELATIVE64", 8}},   {14, {"R_AMDGPU_REL16", 2}},
  };
  EXPECT_EQ(m.relocations.size(), expected.size());
  for (const auto& [type, ns] : expected) {
    const RelocationType* r = m.relocation(type);
    ASSERT_NE(r, nullptr) << type;
    EXPECT_EQ(r->name, ns.first);
    EXPECT_EQ(r->size, ns.second);
    EXPECT_TRUE(r->moves.empty());
  }
  EXPECT_EQ(m.relocation(12), nullptr);
  EXPECT_EQ(m.relocation(15), nullptr);
  EXPECT_EQ(m.relocation(5)->calculation, "S + A - P");
  // The kernel descriptor's entry offset: R_AMDGPU_REL64 written as a plain little-endian word.
  std::array<uint8_t, 8> field{};
  applyRelocation(*m.relocation(5), 0xfffffffffffffff0ull, field);
  EXPECT_EQ(field[0], 0xf0);
  EXPECT_EQ(field[7], 0xff);
}

// ----- registers, stack, address spaces, data model, macros -----------------------------------

TEST(AmdgpuTarget, ScalarRegisters) {
  struct Row {
    const char* cpu;
    int last_sgpr;
  };
  // Addressable SGPRs, as llvm-mc-14 accepts them.
  for (Row r : {Row{"gfx600", 103}, Row{"gfx700", 103}, Row{"gfx803", 101}, Row{"gfx906", 101},
                Row{"gfx90a", 101}, Row{"gfx1030", 105}, Row{"gfx1100", 105}, Row{"", 103}}) {
    SCOPED_TRACE(r.cpu);
    Target t = amd(r.cpu);
    EXPECT_NE(t.findRegister("s" + std::to_string(r.last_sgpr)), nullptr);
    EXPECT_EQ(t.findRegister("s" + std::to_string(r.last_sgpr + 1)), nullptr);
    EXPECT_EQ(t.findRegister("s0")->dwarf, 32);
    EXPECT_EQ(t.findRegister("s63")->dwarf, 95);
    EXPECT_EQ(t.findRegister("s64")->dwarf, 1088);
    EXPECT_EQ(t.findRegister("s101")->dwarf, 1125);
  }
  Target t = amd("gfx906");
  auto roles = [&](const char* name) { return t.findRegister(name)->roles; };
  EXPECT_EQ(roles("s0"), uint32_t(kRoleSpecialInput | kRoleReserved));
  EXPECT_EQ(roles("s4"), uint32_t(kRoleCallerSaved | kRoleSpecialInput));
  EXPECT_EQ(roles("s14"), uint32_t(kRoleCallerSaved | kRoleSpecialInput));
  EXPECT_EQ(roles("s15"), uint32_t(kRoleCallerSaved));
  EXPECT_EQ(roles("s29"), uint32_t(kRoleCallerSaved));
  EXPECT_EQ(roles("s30"), uint32_t(kRoleReturnAddress | kRoleCallerSaved));
  EXPECT_EQ(roles("s31"), uint32_t(kRoleReturnAddress | kRoleCallerSaved));
  EXPECT_EQ(roles("s32"), uint32_t(kRoleStackPointer | kRoleReserved));
  EXPECT_EQ(roles("s33"), uint32_t(kRoleFramePointer | kRoleCalleeSaved));
  EXPECT_EQ(roles("s34"), uint32_t(kRoleBasePointer | kRoleCalleeSaved));
  EXPECT_EQ(roles("s35"), uint32_t(kRoleCalleeSaved));
  EXPECT_EQ(roles("s101"), uint32_t(kRoleCalleeSaved));
  EXPECT_EQ(t.findRegister("s12")->note, "work-group id x at function entry");
  const RegisterInfo* ra = t.findRegister("s[30:31]");
  ASSERT_NE(ra, nullptr);
  EXPECT_EQ(ra->components, "s30 s31");
  EXPECT_EQ(ra->bits, 64);
  EXPECT_EQ(t.findRegister("s[0:3]")->bits, 128);
}

TEST(AmdgpuTarget, VectorRegisters) {
  Target w64 = amd("gfx906");
  Target w32 = amd("gfx1030");
  EXPECT_EQ(w64.findRegister("v0")->dwarf, 2560);
  EXPECT_EQ(w64.findRegister("v255")->dwarf, 2815);
  EXPECT_EQ(w32.findRegister("v0")->dwarf, 1536);
  EXPECT_EQ(w32.findRegister("v255")->dwarf, 1791);
  EXPECT_EQ(w64.findRegister("v256"), nullptr);
  std::vector<int> preserved;
  for (int n = 0; n < 256; ++n) {
    const RegisterInfo* r = w64.findRegister("v" + std::to_string(n));
    ASSERT_NE(r, nullptr);
    EXPECT_EQ(r->file, "vgpr");
    EXPECT_EQ(r->bits, 32);
    if (r->roles & kRoleCalleeSaved) preserved.push_back(n);
    EXPECT_EQ(bool(r->roles & kRoleArgument), n <= 30) << n;
    EXPECT_EQ(bool(r->roles & kRoleReturn), n <= 31) << n;
    EXPECT_EQ(bool(r->roles & kRoleCallerSaved), !(r->roles & kRoleCalleeSaved)) << n;
    EXPECT_EQ(r->roles, w32.findRegister(r->name)->roles) << n;
  }
  // What LLVM 14 saves in the prologue when a function clobbers every VGPR.
  std::vector<int> expected;
  for (int base = 40; base < 256; base += 16)
    for (int i = 0; i < 8; ++i) expected.push_back(base + i);
  EXPECT_EQ(preserved, expected);
  EXPECT_EQ(w64.findRegister("v31")->roles,
            uint32_t(kRoleReturn | kRoleSpecialInput | kRoleCallerSaved));
}

TEST(AmdgpuTarget, AccumulationRegisters) {
  EXPECT_EQ(amd("gfx906").findRegister("a0"), nullptr);
  EXPECT_EQ(amd("gfx1030").findRegister("a0"), nullptr);
  Target g908 = amd("gfx908");
  EXPECT_EQ(g908.findRegister("a0")->dwarf, 3072);
  EXPECT_EQ(g908.findRegister("a255")->dwarf, 3327);
  EXPECT_EQ(g908.findRegister("a255")->roles, uint32_t(kRoleCallerSaved));
  Target g90a = amd("gfx90a");
  EXPECT_EQ(g90a.findRegister("a31")->roles, uint32_t(kRoleCallerSaved));
  EXPECT_EQ(g90a.findRegister("a32")->roles, uint32_t(kRoleCalleeSaved));
  EXPECT_EQ(g90a.findRegister("a255")->roles, uint32_t(kRoleCalleeSaved));
  EXPECT_NE(amd("gfx942").findRegister("a32"), nullptr);
  EXPECT_EQ(property(g90a, "agprs"), "a0-a255, a32-a255 preserved across calls");
}

TEST(AmdgpuTarget, SpecialRegistersAndStack) {
  Target w64 = amd("gfx906");
  Target w32 = amd("gfx1030");
  EXPECT_EQ(w64.findRegister("exec")->dwarf, 17);
  EXPECT_EQ(w64.findRegister("exec")->bits, 64);
  EXPECT_EQ(w32.findRegister("exec")->dwarf, 1);
  EXPECT_EQ(w32.findRegister("exec")->bits, 32);
  EXPECT_EQ(w64.findRegister("vcc")->dwarf, 768);
  EXPECT_EQ(w32.findRegister("vcc")->dwarf, 512);
  EXPECT_EQ(w64.findRegister("pc")->dwarf, 16);
  EXPECT_EQ(w64.findRegister("m0")->dwarf, -1);
  EXPECT_EQ(w64.findRegister("m0")->roles, uint32_t(kRoleCallerSaved));
  EXPECT_NE(w64.findRegister("flat_scratch"), nullptr);
  EXPECT_EQ(amd("gfx600").findRegister("flat_scratch"), nullptr);
  EXPECT_NE(amd("gfx700").findRegister("flat_scratch"), nullptr);
  for (const Target* t : {&w64, &w32}) {
    EXPECT_FALSE(t->stack.grows_down);
    EXPECT_EQ(t->stack.alignment, 16);
    EXPECT_EQ(t->stack.stack_pointer, "s32");
    EXPECT_EQ(t->stack.return_address, "s[30:31]");
    EXPECT_EQ(t->stack.frame_pointer, "s33");
    EXPECT_NE(t->findRegister(t->stack.stack_pointer), nullptr);
    EXPECT_NE(t->findRegister(t->stack.return_address), nullptr);
    EXPECT_NE(t->stack.argument_area.find("s32"), std::string_view::npos);
  }
  // Every register name is unique.
  std::set<std::string_view> names;
  for (const RegisterInfo& r : w64.registers) EXPECT_TRUE(names.insert(r.name).second) << r.name;
}

TEST(AmdgpuTarget, AddressSpaces) {
  Target t = amd("gfx906");
  struct Row {
    uint32_t number;
    const char* name;
    const char* c;
    uint16_t pointer_bits, address_bits;
    bool null_known;
    uint64_t null;
  };
  const Row rows[] = {
      {0, "generic", "__generic", 64, 64, true, 0},
      {1, "global", "__global", 64, 64, true, 0},
      {2, "region", "", 64, 32, false, 0},
      {3, "local", "__local", 32, 32, true, 0xffffffff},
      {4, "constant", "__constant", 64, 64, true, 0},
      {5, "private", "__private", 32, 32, true, 0xffffffff},
      {6, "constant-32bit", "", 64, 32, true, 0},
      {7, "buffer-fat-pointer", "", 64, 160, false, 0},
      {8, "buffer-resource", "", 64, 128, false, 0},
      {9, "buffer-strided-pointer", "", 64, 192, false, 0},
  };
  ASSERT_EQ(t.address_spaces.size(), std::size(rows));
  for (const Row& r : rows) {
    SCOPED_TRACE(r.number);
    const AddressSpaceInfo* a = t.findAddressSpace(r.number);
    ASSERT_NE(a, nullptr);
    EXPECT_EQ(a->name, r.name);
    EXPECT_EQ(a->c_spelling, r.c);
    EXPECT_EQ(a->pointer_bits, r.pointer_bits);
    EXPECT_EQ(a->address_bits, r.address_bits);
    EXPECT_EQ(a->null_known, r.null_known);
    if (r.null_known) {
      EXPECT_EQ(a->null_value, r.null);
    }
  }
}

TEST(AmdgpuTarget, DataModel) {
  const DataModel& d = amd("gfx906").data;
  EXPECT_EQ(d.of(IntKind::Long).size, 8);
  EXPECT_EQ(d.of(IntKind::Int128).size, 16);
  EXPECT_EQ(d.of(IntKind::Int128).align, 16);
  EXPECT_EQ(d.of(FloatKind::Float16).size, 2);
  EXPECT_EQ(d.float_formats[size_t(FloatKind::Float16)], FloatFormat::IEEEHalf);
  EXPECT_EQ(d.of(FloatKind::Fp16).size, 2);
  EXPECT_FALSE(d.of(FloatKind::BFloat16).supported());
  EXPECT_FALSE(d.of(FloatKind::Float128).supported());
  EXPECT_EQ(d.of(FloatKind::LongDouble).size, 8);
  EXPECT_EQ(d.float_formats[size_t(FloatKind::LongDouble)], FloatFormat::IEEEDouble);
  EXPECT_EQ(d.pointer.size, 8);
  EXPECT_EQ(d.biggest_alignment, 8);
  EXPECT_EQ(d.max_atomic_inline_bits, 64);
  EXPECT_EQ(d.va_list_kind, VaListKind::CharPtr);
  // HIP device code copies the host's long double (predefinedMacros' language adjustment).
  EXPECT_EQ(dataModelFor(amd("gfx906"), Language::HIP).of(FloatKind::LongDouble).size, 16);
}

TEST(AmdgpuTarget, Macros) {
  auto g906 = macros(amd("gfx906"));
  EXPECT_EQ(g906["__AMDGPU__"], "1");
  EXPECT_EQ(g906["__AMDGCN__"], "1");
  EXPECT_EQ(g906["__AMD__"], "1");
  EXPECT_EQ(g906["__AMDGCN_WAVEFRONT_SIZE"], "64");
  EXPECT_EQ(g906["__gfx906__"], "1");
  EXPECT_EQ(g906["__amdgcn_processor__"], "\"gfx906\"");
  EXPECT_EQ(g906["__amdgcn_target_id__"], "\"gfx906\"");
  EXPECT_EQ(g906.count("__amdgcn_feature_xnack__"), 0u);
  EXPECT_EQ(g906["FP_FAST_FMAF"], "1");
  EXPECT_EQ(g906["__SIZEOF_INT128__"], "16");
  auto feat = macros(amd("gfx906:xnack+:sramecc-"));
  EXPECT_EQ(feat["__amdgcn_feature_xnack__"], "1");
  EXPECT_EQ(feat["__amdgcn_feature_sramecc__"], "0");
  EXPECT_EQ(feat["__amdgcn_target_id__"], "\"gfx906:sramecc-:xnack+\"");
  auto g1030 = macros(amd("gfx1030"));
  EXPECT_EQ(g1030["__AMDGCN_WAVEFRONT_SIZE"], "32");
  EXPECT_EQ(g1030["__gfx1030__"], "1");
  auto g700 = macros(amd("gfx700"));
  EXPECT_EQ(g700.count("FP_FAST_FMAF"), 0u);
  EXPECT_EQ(g700["FP_FAST_FMA"], "1");
  auto fiji = macros(amd("fiji"));
  EXPECT_EQ(fiji["__gfx803__"], "1");
  EXPECT_EQ(fiji.count("__fiji__"), 0u);
}

TEST(AmdgpuTarget, Summaries) {
  for (const TargetSummary& s : knownTargets()) {
    if (s.family != Family::AMDGPU) continue;
    EXPECT_EQ(s.name, "amdgcn-amd-amdhsa");
    std::set<std::string> cpus(s.cpus.begin(), s.cpus.end());
    for (const AmdgpuProcessor& p : amdgpuProcessors())
      EXPECT_EQ(cpus.count(std::string(p.name)), (!p.decode_only && !p.is_generic) ? 1u : 0u)
          << p.name;
    // Every listed CPU resolves.
    for (const std::string& cpu : s.cpus) EXPECT_EQ(amd(cpu).cpu, cpu);
    return;
  }
  ADD_FAILURE() << "no AMDGPU summary";
}

} // namespace
