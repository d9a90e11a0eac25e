// NVPTX target model: triples, the SM table, data model, state spaces, macros, the cubin ELF
// identity and the EM_CUDA e_flags decoder and link rules.
#include "abikit/diag.h"
#include "abikit/elf_target.h"
#include "abikit/target.h"

#include <algorithm>
#include <gtest/gtest.h>
#include <map>
#include <set>
#include <string>
#include <vector>

using namespace abikit;

namespace {

/// The target as clang-14 sees it (test_nvptx_compilers.cpp has what clang-19 and clang-22
/// change).
Target nvptx(const std::string& triple, const std::string& cpu = "") {
  TargetOptions o;
  o.triple = triple;
  o.mcpu = cpu;
  o.compiler = "clang-14";
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

std::string targetError(const std::string& triple, const std::string& cpu = "") {
  TargetOptions o;
  o.triple = triple;
  o.mcpu = cpu;
  return targetError(o);
}

std::map<std::string, std::string> macros(const Target& t, Language lang) {
  std::map<std::string, std::string> m;
  for (auto& [k, v] : predefinedMacros(t, lang)) m[k] = v;
  return m;
}

std::string_view property(const Target& t, std::string_view key) {
  for (const TargetProperty& p : t.properties)
    if (p.key == key) return p.value;
  return {};
}

const ElfMachineInfo& cuda() {
  const ElfMachineInfo* m = findElfMachine(abikit::kEmCuda);
  EXPECT_NE(m, nullptr);
  return *m;
}

ElfFlagsInfo decode(const ElfIdentity& e) {
  return cuda().decodeFlags({e.elf_class, e.data, e.osabi, e.abi_version, e.machine, e.flags});
}

// ----- triples and processors -----------------------------------------------------------------

TEST(NvptxTarget, TriplesNormalise) {
  EXPECT_EQ(nvptx("nvptx64-nvidia-cuda").triple, "nvptx64-nvidia-cuda");
  EXPECT_EQ(nvptx("nvptx-nvidia-cuda").triple, "nvptx-nvidia-cuda");
  EXPECT_EQ(nvptx("nvptx64").triple, "nvptx64-nvidia-cuda");
  EXPECT_EQ(nvptx("nvptx64-unknown-unknown").triple, "nvptx64-nvidia-cuda");
  EXPECT_EQ(nvptx("nvptx64-nvidia").triple, "nvptx64-nvidia-cuda");
  EXPECT_EQ(nvptx("nvptx64-nvidia-nvcl").triple, "nvptx64-nvidia-nvcl");
  EXPECT_EQ(nvptx("nvptx-nvidia-nvcl").triple, "nvptx-nvidia-nvcl");
  Target t = nvptx("nvptx-nvidia-cuda");
  EXPECT_EQ(t.family, Family::NVPTX);
  EXPECT_EQ(t.arch, "nvptx");
  EXPECT_FALSE(t.nvptx().is64);
  EXPECT_TRUE(nvptx("nvptx64-nvidia-cuda").nvptx().is64);
}

TEST(NvptxTarget, BadTriples) {
  EXPECT_EQ(targetError("nvptx64-amd-cuda"),
            "unknown NVPTX triple 'nvptx64-amd-cuda' (expected nvptx64-nvidia-cuda or "
            "nvptx64-nvidia-nvcl)");
  EXPECT_EQ(targetError("nvptx-nvidia-linux"),
            "unknown NVPTX triple 'nvptx-nvidia-linux' (expected nvptx-nvidia-cuda or "
            "nvptx-nvidia-nvcl)");
  EXPECT_EQ(targetError("nvptx64-nvidia-cuda-gnu"),
            "unknown NVPTX triple 'nvptx64-nvidia-cuda-gnu' (expected nvptx64-nvidia-cuda or "
            "nvptx64-nvidia-nvcl)");
}

TEST(NvptxTarget, DefaultProcessorIsLlvm14s) {
  Target t = nvptx("nvptx64-nvidia-cuda");
  EXPECT_EQ(t.cpu, "sm_20");
  EXPECT_EQ(t.nvptx().sm, 20u);
  EXPECT_EQ(t.nvptx().ptx_version, 32u);
  EXPECT_EQ(t.spelling, "nvptx64-nvidia-cuda -mcpu=sm_20 --compiler clang-14");
  EXPECT_EQ(property(t, "ptx_version"), "3.2");
  EXPECT_EQ(property(t, "known_to_llc-14"), "yes");
}

TEST(NvptxTarget, ProcessorSuffixes) {
  Target a = nvptx("nvptx64-nvidia-cuda", "sm_90a");
  EXPECT_EQ(a.nvptx().sm, 90u);
  EXPECT_TRUE(a.nvptx().arch_specific);
  EXPECT_FALSE(a.nvptx().family_specific);
  EXPECT_EQ(a.nvptx().ptx_version, 80u); // not known to LLVM 14: the minimum PTX version
  EXPECT_EQ(property(a, "known_to_llc-14"), "no");
  Target f = nvptx("nvptx64-nvidia-cuda", "sm_100f");
  EXPECT_EQ(f.nvptx().sm, 100u);
  EXPECT_TRUE(f.nvptx().family_specific);
  EXPECT_EQ(f.nvptx().ptx_version, 88u);
  Target k = nvptx("nvptx64-nvidia-cuda", "sm_86");
  EXPECT_EQ(k.nvptx().ptx_version, 71u);
  EXPECT_EQ(property(k, "ptx_version"), "7.1");
  EXPECT_EQ(k.nvptx().processor, findNvptxProcessor("sm_86"));
}

TEST(NvptxTarget, ProcessorTable) {
  std::set<std::string> names, llvm14, ptxas13;
  for (const NvptxProcessor& p : nvptxProcessors()) {
    EXPECT_TRUE(names.insert(std::string(p.name)).second) << p.name;
    std::string expect = "sm_" + std::to_string(p.sm) + (p.suffix ? std::string(1, p.suffix) : "");
    EXPECT_EQ(p.name, expect);
    if (p.llvm14_ptx) {
      llvm14.insert(std::string(p.name));
      EXPECT_GE(p.llvm14_ptx, p.min_ptx) << p.name;
    }
    if (p.ptxas13) ptxas13.insert(std::string(p.name));
    EXPECT_GE(p.min_ptx, 23u) << p.name;
    EXPECT_EQ(findNvptxProcessor(p.name), &p);
  }
  // `llc-14 -march=nvptx64 -mcpu=help`.
  EXPECT_EQ(llvm14, (std::set<std::string>{"sm_20", "sm_21", "sm_30", "sm_32", "sm_35", "sm_37",
                                           "sm_50", "sm_52", "sm_53", "sm_60", "sm_61", "sm_62",
                                           "sm_70", "sm_72", "sm_75", "sm_80", "sm_86"}));
  // `ptxas --help` of CUDA 13.0, option --gpu-name.
  EXPECT_EQ(ptxas13,
            (std::set<std::string>{"sm_75",   "sm_80",   "sm_86",  "sm_87",   "sm_88",   "sm_89",
                                   "sm_90",   "sm_90a",  "sm_100", "sm_100a", "sm_100f", "sm_103",
                                   "sm_103a", "sm_103f", "sm_110", "sm_110a", "sm_110f", "sm_120",
                                   "sm_120a", "sm_120f", "sm_121", "sm_121a", "sm_121f"}));
  EXPECT_EQ(findNvptxProcessor("sm_99"), nullptr);
  EXPECT_EQ(findNvptxProcessor(""), nullptr);
}

TEST(NvptxTarget, BadProcessorsAndOptions) {
  std::string e = targetError("nvptx64-nvidia-cuda", "sm_99");
  EXPECT_EQ(e.substr(0, 62), "unknown NVPTX processor 'sm_99' (known: sm_20, sm_21, sm_30, s");
  EXPECT_NE(e.find("sm_121f)"), std::string::npos);
  EXPECT_NE(targetError("nvptx64-nvidia-cuda", "gfx906").find("unknown NVPTX processor 'gfx906'"),
            std::string::npos);
  EXPECT_NE(targetError("nvptx64-nvidia-cuda", "SM_70").find("unknown NVPTX processor"),
            std::string::npos);
  TargetOptions o;
  o.triple = "nvptx64-nvidia-cuda";
  o.march = "sm_70";
  EXPECT_EQ(targetError(o), "option '-march=sm_70' is not used by NVPTX targets (select the "
                            "processor with -mcpu=sm_XX)");
  o.march.clear();
  o.mabi = "lp64";
  EXPECT_EQ(targetError(o), "option '-mabi=lp64' is not used by NVPTX targets");
  o.mabi.clear();
  o.code_object_version = 5;
  EXPECT_EQ(targetError(o), "-mcode-object-version is an AMDGPU option");
  o.code_object_version = 0;
  o.mworker = true;
  EXPECT_EQ(targetError(o), "-msupervisor/-mworker are IPU options");
}

// ----- data model ------------------------------------------------------------------------------

TEST(NvptxTarget, DataModel64) {
  const DataModel& d = nvptx("nvptx64-nvidia-cuda").data;
  EXPECT_EQ(d.of(IntKind::Long).size, 8);
  EXPECT_EQ(d.of(IntKind::LongLong).size, 8);
  EXPECT_EQ(d.of(IntKind::Int128).size, 16);
  EXPECT_EQ(d.of(IntKind::Int128).align, 16);
  EXPECT_EQ(d.pointer.size, 8);
  EXPECT_EQ(d.size_type, IntKind::ULong);
  EXPECT_EQ(d.ptrdiff_type, IntKind::Long);
  EXPECT_EQ(d.int64_type, IntKind::LongLong);
  EXPECT_EQ(d.va_list_kind, VaListKind::CharPtr);
  EXPECT_EQ(d.va_list.size, 8);
}

TEST(NvptxTarget, DataModel32) {
  const DataModel& d = nvptx("nvptx-nvidia-cuda").data;
  EXPECT_EQ(d.of(IntKind::Long).size, 4);
  EXPECT_EQ(d.of(IntKind::Long).align, 4);
  EXPECT_FALSE(d.of(IntKind::Int128).supported());
  EXPECT_FALSE(d.of(IntKind::UInt128).supported());
  EXPECT_EQ(d.pointer.size, 4);
  EXPECT_EQ(d.function_pointer.size, 4);
  EXPECT_EQ(d.size_type, IntKind::UInt);
  EXPECT_EQ(d.intptr_type, IntKind::Int);
}

TEST(NvptxTarget, FloatsAndLimits) {
  for (const char* triple : {"nvptx-nvidia-cuda", "nvptx64-nvidia-cuda"}) {
    const DataModel& d = nvptx(triple).data;
    EXPECT_TRUE(d.char_signed);
    EXPECT_FALSE(d.of(FloatKind::Float16).supported());
    EXPECT_FALSE(d.of(FloatKind::BFloat16).supported());
    EXPECT_FALSE(d.of(FloatKind::Float128).supported());
    EXPECT_EQ(d.of(FloatKind::Fp16).size, 2);
    EXPECT_EQ(d.of(FloatKind::LongDouble).size, 8);
    EXPECT_EQ(d.of(FloatKind::LongDouble).align, 8);
    EXPECT_EQ(d.float_formats[size_t(FloatKind::LongDouble)], FloatFormat::IEEEDouble);
    EXPECT_EQ(d.biggest_alignment, 8);
    EXPECT_EQ(d.max_vector_align, 0);
    EXPECT_EQ(d.max_align_t_align, 8);
    EXPECT_EQ(d.bitint_max_width, 128);
    EXPECT_EQ(d.max_atomic_inline_bits, 0);
    EXPECT_EQ(d.wint_type, IntKind::Int);
  }
}

TEST(NvptxTarget, StateSpacesAndRegisters) {
  Target t = nvptx("nvptx64-nvidia-cuda", "sm_80");
  EXPECT_TRUE(t.registers.empty());
  EXPECT_FALSE(t.stack.grows_down);
  EXPECT_EQ(t.stack.alignment, 8);
  EXPECT_NE(t.stack.argument_area.find(".param"), std::string_view::npos);
  std::vector<uint32_t> numbers;
  for (const AddressSpaceInfo& a : t.address_spaces) {
    numbers.push_back(a.number);
    EXPECT_EQ(a.pointer_bits, 64);
  }
  EXPECT_EQ(numbers, (std::vector<uint32_t>{0, 1, 3, 4, 5, 101}));
  EXPECT_EQ(t.findAddressSpace(1)->c_spelling, "__global");
  EXPECT_EQ(t.findAddressSpace(3)->c_spelling, "__local");
  EXPECT_EQ(t.findAddressSpace(3)->name, "shared");
  EXPECT_EQ(t.findAddressSpace(4)->c_spelling, "__constant");
  EXPECT_EQ(t.findAddressSpace(0)->c_spelling, "__generic");
  EXPECT_EQ(t.findAddressSpace(5)->c_spelling, "");
  EXPECT_EQ(t.findAddressSpace(101)->name, "param");
  EXPECT_EQ(t.findAddressSpace(2), nullptr);
  for (const AddressSpaceInfo& a : nvptx("nvptx-nvidia-cuda").address_spaces)
    EXPECT_EQ(a.pointer_bits, 32);
}

TEST(NvptxTarget, Macros) {
  Target t = nvptx("nvptx64-nvidia-cuda", "sm_70");
  auto c = macros(t, Language::C);
  EXPECT_EQ(c["__NVPTX__"], "1");
  EXPECT_EQ(c["__PTX__"], "1");
  EXPECT_EQ(c["__SIZEOF_INT128__"], "16");
  EXPECT_EQ(c["__LP64__"], "1");
  EXPECT_EQ(c.count("__CUDA_ARCH__"), 0u);
  auto cuda = macros(t, Language::CUDA);
  EXPECT_EQ(cuda["__CUDA_ARCH__"], "700");
  EXPECT_EQ(macros(nvptx("nvptx64-nvidia-cuda", "sm_90a"), Language::CUDA)["__CUDA_ARCH__"], "900");
  auto c32 = macros(nvptx("nvptx-nvidia-cuda"), Language::C);
  EXPECT_EQ(c32["__ILP32__"], "1");
  EXPECT_EQ(c32.count("__SIZEOF_INT128__"), 0u);
  EXPECT_EQ(c32["__SIZE_TYPE__"], "unsigned int");
}

// ----- ELF ------------------------------------------------------------------------------------

TEST(NvptxTarget, CubinIdentityCuda13) {
  struct Row {
    const char* cpu;
    uint32_t flags;
  };
  // Read from cubins written by ptxas 13.0 (-arch=<cpu>).
  const Row rows[] = {{"sm_75", 0x06004b04},  {"sm_80", 0x06005004},   {"sm_86", 0x06005604},
                      {"sm_89", 0x06005904},  {"sm_90", 0x06005a04},   {"sm_90a", 0x06005a04},
                      {"sm_100", 0x06006402}, {"sm_100a", 0x06006402}, {"sm_103f", 0x06006702},
                      {"sm_110", 0x06006e02}, {"sm_120", 0x06007802},  {"sm_121a", 0x06007902}};
  for (const Row& r : rows) {
    SCOPED_TRACE(r.cpu);
    Target t = nvptx("nvptx64-nvidia-cuda", r.cpu);
    EXPECT_EQ(t.elf.flags, r.flags);
    EXPECT_EQ(t.elf.elf_class, 2);
    EXPECT_EQ(t.elf.osabi, 65);
    EXPECT_EQ(t.elf.abi_version, 8);
    EXPECT_EQ(t.elf.machine, 190);
    EXPECT_EQ(t.elf.machine_name, "EM_CUDA");
    EXPECT_TRUE(t.elf.rela);
  }
}

TEST(NvptxTarget, CubinIdentityOlderToolkits) {
  Target t = nvptx("nvptx64-nvidia-cuda", "sm_70");
  EXPECT_EQ(t.elf.flags, 0x446u); // EF_CUDA_SM70 | EF_CUDA_64BIT_ADDRESS
  EXPECT_EQ(t.elf.osabi, 51);
  EXPECT_EQ(t.elf.abi_version, 7);
  Target t32 = nvptx("nvptx-nvidia-cuda", "sm_80");
  EXPECT_EQ(t32.elf.elf_class, 1);
  EXPECT_EQ(t32.elf.flags, 0x50u);
  Target a32 = nvptx("nvptx-nvidia-cuda", "sm_90a");
  EXPECT_EQ(a32.elf.flags, 0x85au); // EF_CUDA_SM90 | EF_CUDA_ACCELERATORS
  EXPECT_EQ(property(t, "ptxas13_accepts"), "no");
}

TEST(NvptxTarget, DecodeRoundTripEveryProcessor) {
  for (const NvptxProcessor& p : nvptxProcessors()) {
    for (const char* triple : {"nvptx64-nvidia-cuda", "nvptx-nvidia-cuda"}) {
      SCOPED_TRACE(std::string(triple) + " " + std::string(p.name));
      Target t = nvptx(triple, std::string(p.name));
      ElfFlagsInfo info = decode(t.elf);
      EXPECT_TRUE(info.problems.empty()) << info.problems.front();
      EXPECT_EQ(info.target, t.triple.substr(0, t.triple.find('-')) + "-nvidia-cuda");
      // "f" never reaches e_flags; "a" does only in the CUDA ELF ABI version 7 layout.
      std::string expect = "sm_" + std::to_string(p.sm);
      if (p.suffix == 'a' && t.elf.abi_version == 7) expect += "a";
      EXPECT_EQ(info.processor, expect);
      EXPECT_EQ(info.property("sm"), std::to_string(p.sm));
      EXPECT_EQ(info.property("address_size"), t.nvptx().is64 ? "64" : "32");
    }
  }
}

TEST(NvptxTarget, DecodeDetails) {
  // ptxas 13.0 with -g: the top byte is 0x0b.
  ElfFlagsInfo g = cuda().decodeFlags({2, 1, 65, 8, abikit::kEmCuda, 0x0b005a04});
  EXPECT_EQ(g.processor, "sm_90");
  EXPECT_TRUE(g.problems.empty());
  EXPECT_NE(std::find(g.flag_names.begin(), g.flag_names.end(), "undocumented bits 0xb000004"),
            g.flag_names.end());
  // The "a" flag of the newer layout.
  EXPECT_EQ(cuda().decodeFlags({2, 1, 65, 8, abikit::kEmCuda, 0x06006408}).processor, "sm_100a");
  // The older layout with every documented flag.
  ElfFlagsInfo v1 = cuda().decodeFlags({2, 1, 51, 7, abikit::kEmCuda, 0x00501f5a});
  EXPECT_EQ(v1.processor, "sm_90a");
  EXPECT_TRUE(v1.problems.empty()) << v1.problems.front();
  EXPECT_EQ(v1.property("virtual_sm"), "compute_80");
  for (const char* name : {"EF_CUDA_SM90", "EF_CUDA_TEXMODE_UNIFIED", "EF_CUDA_TEXMODE_INDEPENDANT",
                           "EF_CUDA_64BIT_ADDRESS", "EF_CUDA_ACCELERATORS", "EF_CUDA_SW_FLAG_V2",
                           "EF_CUDA_VIRTUAL_SM(80)"})
    EXPECT_NE(std::find(v1.flag_names.begin(), v1.flag_names.end(), name), v1.flag_names.end())
        << name;
}

TEST(NvptxTarget, DecodeProblems) {
  EXPECT_EQ(cuda().decodeFlags({2, 1, 65, 9, abikit::kEmCuda, 0}).problems,
            (std::vector<std::string>{"unknown CUDA ELF ABI version 9 (known: 7, 8)"}));
  EXPECT_EQ(cuda().decodeFlags({2, 1, 51, 8, abikit::kEmCuda, 0x06005a04}).problems,
            (std::vector<std::string>{"CUDA ELF ABI version 8 with OSABI 51 (expected 65)"}));
  EXPECT_EQ(cuda().decodeFlags({2, 1, 65, 8, abikit::kEmCuda, 0x06006302}).problems,
            (std::vector<std::string>{"unknown SM sm_99"}));
  EXPECT_EQ(cuda().decodeFlags({2, 1, 51, 7, abikit::kEmCuda, 0x8000045a}).problems,
            (std::vector<std::string>{"unknown e_flags bits 0x80000000"}));
  EXPECT_EQ(cuda().decodeFlags({1, 1, 51, 7, abikit::kEmCuda, 0x45a}).problems,
            (std::vector<std::string>{"EF_CUDA_64BIT_ADDRESS does not match the ELF class"}));
  EXPECT_EQ(cuda().decodeFlags({1, 1, 65, 8, abikit::kEmCuda, 0x06005a04}).problems,
            (std::vector<std::string>{"CUDA ELF ABI version 8 objects are ELFCLASS64"}));
}

TEST(NvptxTarget, LinkConflicts) {
  auto info = [](const char* triple, const char* cpu) {
    Target t = nvptx(triple, cpu);
    return decode(t.elf);
  };
  std::vector<std::string> out;
  cuda().linkConflicts(info("nvptx64-nvidia-cuda", "sm_80"), info("nvptx64-nvidia-cuda", "sm_90"),
                       out);
  EXPECT_EQ(out, (std::vector<std::string>{"processor sm_80 vs sm_90"}));
  out.clear();
  cuda().linkConflicts(info("nvptx64-nvidia-cuda", "sm_80"), info("nvptx64-nvidia-cuda", "sm_80"),
                       out);
  EXPECT_TRUE(out.empty());
  out.clear();
  cuda().linkConflicts(info("nvptx64-nvidia-cuda", "sm_70"), info("nvptx-nvidia-cuda", "sm_70"),
                       out);
  EXPECT_EQ(out, (std::vector<std::string>{"address size 64 vs 32 bits"}));
  EXPECT_TRUE(cuda().relocations.empty());
  EXPECT_EQ(cuda().family, Family::NVPTX);
}

TEST(NvptxTarget, Summaries) {
  bool found64 = false, found32 = false;
  for (const TargetSummary& s : knownTargets()) {
    if (s.family != Family::NVPTX) continue;
    if (s.name == "nvptx64-nvidia-cuda") found64 = true;
    if (s.name == "nvptx-nvidia-cuda") found32 = true;
    EXPECT_EQ(s.cpus.size(), nvptxProcessors().size());
  }
  EXPECT_TRUE(found64);
  EXPECT_TRUE(found32);
}

} // namespace
