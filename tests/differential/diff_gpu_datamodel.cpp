// NVPTX and AMDGPU target model against the real tools:
//  - predefinedMacros(target, C) against `clang-N -target T [-mcpu=X] -nogpulib -E -dM -x c`
//    (NVPTX: every modelled clang; AMDGPU: clang-14);
//  - sizeof/_Alignof of every scalar type and of pointers in every address space, as
//    generated _Static_asserts compiled by the same clang (and unsupported types must be
//    rejected);
//  - AMDGPU e_flags / OSABI / ABI version against objects written by llc-14 for every
//    processor LLVM 14 knows and many feature / code-object-version combinations;
//  - the PTX version each LLVM writes for each -mcpu, and EM_CUDA cubin identity against ptxas
//    for every processor ptxas accepts (skipped with a message when ptxas is absent).
#include "abikit/elf_target.h"
#include "abikit/target.h"
#include "oracle.h"

#include <cstring>
#include <gtest/gtest.h>
#include <map>
#include <set>
#include <string>
#include <vector>

using namespace abikit;

namespace {

const char* const kClang = "clang-14";
const char* const kLlc = "llc-14";
const char* const kPtxas = "/usr/local/cuda/bin/ptxas";

struct Case {
  std::string triple;
  std::string mcpu;                  // abikit -mcpu and clang -mcpu
  std::string compiler = "clang-14"; // abikit --compiler and the clang run
};

Target resolve(const Case& c) {
  TargetOptions o;
  o.triple = c.triple;
  o.mcpu = c.mcpu;
  o.compiler = c.compiler;
  return resolveTarget(o);
}

std::string describeCase(const Case& c) {
  return c.triple + (c.mcpu.empty() ? "" : " -mcpu=" + c.mcpu) + " " + c.compiler;
}

/// The NVPTX cases once per modelled clang that is installed.
std::vector<Case> withNvptxClangs(std::vector<Case> cases) {
  std::vector<Case> out;
  for (const Case& c : cases) {
    if (c.triple.rfind("nvptx", 0) != 0) {
      out.push_back(c);
      continue;
    }
    for (const std::string& cc : oracle::modelledClangs(c.triple)) {
      Case x = c;
      x.compiler = cc;
      out.push_back(x);
    }
  }
  return out;
}

/// How clang takes the processor: -march for NVPTX with clang 19 and later (they refuse -mcpu
/// there; clang-14 ignores -mcpu for NVPTX in plain C and refuses -march for processors it does
/// not know).
std::string cpuOption(const Case& c) {
  return (c.triple.rfind("nvptx", 0) == 0 && c.compiler != "clang-14" ? "-march=" : "-mcpu=") +
         c.mcpu;
}

/// The `.version` the selected compiler's LLVM writes for a processor (0: unknown to it).
uint16_t llvmPtx(const NvptxProcessor& p, const std::string& compiler) {
  return compiler == "clang-22"   ? p.llvm22_ptx
         : compiler == "clang-19" ? p.llvm19_ptx
                                  : p.llvm14_ptx;
}

bool haveTool(const char* name) {
  return !oracle::findProgram(name).empty();
}

const std::set<std::string>& kClangOnly = oracle::kUnmodelledClangMacros;
// Macros abikit defines that clang does not.
const std::set<std::string> kAbikitOnly = {"__abikit__"};

// Macros both must define (the ones this family's files set, and the data-model basics).
const std::vector<std::string> kKeyCommon = {
    "__SIZEOF_POINTER__",    "__SIZEOF_LONG__",   "__SIZEOF_LONG_DOUBLE__",
    "__SIZE_TYPE__",         "__PTRDIFF_TYPE__",  "__INTPTR_TYPE__",
    "__WCHAR_TYPE__",        "__WINT_TYPE__",     "__INT64_TYPE__",
    "__BIGGEST_ALIGNMENT__", "__CHAR_BIT__",      "__LDBL_MANT_DIG__",
    "__BYTE_ORDER__",        "__POINTER_WIDTH__", "__GCC_ATOMIC_INT_LOCK_FREE",
};

std::map<std::string, std::string> clangMacros(const Case& c) {
  std::vector<std::string> argv = {c.compiler, "-target", c.triple, "-nogpulib"};
  if (!c.mcpu.empty()) argv.push_back(cpuOption(c));
  return oracle::compilerMacros(argv);
}

const std::vector<Case>& macroCases() {
  static const std::vector<Case> k = withNvptxClangs({
      {"nvptx64-nvidia-cuda", ""},
      {"nvptx-nvidia-cuda", ""},
      {"nvptx64-nvidia-cuda", "sm_70"},
      {"nvptx64-nvidia-nvcl", "sm_86"},
      {"amdgcn-amd-amdhsa", ""},
      {"amdgcn-amd-amdhsa", "gfx600"},
      {"amdgcn-amd-amdhsa", "gfx700"},
      {"amdgcn-amd-amdhsa", "fiji"},
      {"amdgcn-amd-amdhsa", "gfx801:xnack-"},
      {"amdgcn-amd-amdhsa", "gfx906"},
      {"amdgcn-amd-amdhsa", "gfx906:xnack+:sramecc-"},
      {"amdgcn-amd-amdhsa", "gfx908:sramecc+"},
      {"amdgcn-amd-amdhsa", "gfx90a:xnack+"},
      {"amdgcn-amd-amdhsa", "gfx90c"},
      {"amdgcn-amd-amdhsa", "gfx1010"},
      {"amdgcn-amd-amdhsa", "gfx1013:xnack-"},
      {"amdgcn-amd-amdhsa", "gfx1030"},
      {"amdgcn-amd-amdhsa", "gfx1035"},
  });
  return k;
}

TEST(GpuDifferential, PredefinedMacrosMatchClang) {
  if (!haveTool(kClang)) GTEST_SKIP() << "clang-14 not found";
  for (const Case& c : macroCases()) {
    SCOPED_TRACE(describeCase(c));
    std::map<std::string, std::string> clang = clangMacros(c);
    ASSERT_FALSE(clang.empty());
    std::map<std::string, std::string> ours;
    for (auto& [k, v] : predefinedMacros(resolve(c), Language::C)) ours[k] = v;
    for (const auto& [name, value] : clang) {
      auto it = ours.find(name);
      if (it == ours.end()) {
        EXPECT_TRUE(kClangOnly.count(name)) << "clang defines " << name << " " << value;
        continue;
      }
      EXPECT_EQ(it->second, value) << name;
    }
    for (const auto& [name, value] : ours) {
      if (!clang.count(name)) {
        EXPECT_TRUE(kAbikitOnly.count(name)) << "abikit defines " << name << " " << value;
      }
    }
    for (const std::string& key : kKeyCommon) {
      EXPECT_TRUE(clang.count(key)) << key;
      EXPECT_TRUE(ours.count(key)) << key;
    }
  }
}

// CUDA device compilation adds __CUDA_ARCH__ (Target::language_macros); each clang knows the
// processors its LLVM knows.
TEST(GpuDifferential, CudaArchMacroMatchesClang) {
  for (const std::string& cc : oracle::modelledClangs("nvptx64-nvidia-cuda"))
    for (const NvptxProcessor& p : nvptxProcessors()) {
      if (!llvmPtx(p, cc)) continue;
      SCOPED_TRACE(std::string(p.name) + " " + cc);
      oracle::RunResult r =
          oracle::run({cc, "-x", "cuda", "--cuda-device-only", "-Wno-unknown-cuda-version",
                       "--cuda-gpu-arch=" + std::string(p.name), "-nocudainc", "-nocudalib", "-E",
                       "-dM", "/dev/null"});
      // clang-22's CUDA driver has no family-specific ("f") processors (llc-22 has them).
      if (r.exit_code != 0 &&
          r.err.find("unsupported CUDA gpu architecture") != std::string::npos && p.suffix == 'f')
        continue;
      ASSERT_EQ(r.exit_code, 0) << r.err;
      std::string value;
      for (auto& [k, v] : predefinedMacros(
               resolve({"nvptx64-nvidia-cuda", std::string(p.name), cc}), Language::CUDA))
        if (k == "__CUDA_ARCH__") value = v;
      EXPECT_NE(r.out.find("#define __CUDA_ARCH__ " + value + "\n"), std::string::npos) << value;
      EXPECT_FALSE(value.empty());
    }
}

// ----- sizes and alignments -------------------------------------------------------------------

oracle::RunResult compileC(const Case& c, const oracle::ScratchDir& dir, const std::string& text) {
  dir.write("t.c", text);
  std::vector<std::string> argv = {c.compiler, "-target", c.triple};
  if (!c.mcpu.empty()) argv.push_back(cpuOption(c));
  for (const char* a : {"-nogpulib", "-fsyntax-only", "-std=c17", "-Wno-gnu"}) argv.push_back(a);
  argv.push_back(dir.file("t.c"));
  return oracle::run(argv);
}

std::string assertSizeAlign(const std::string& type, unsigned size, unsigned align,
                            const std::string& tag) {
  return "_Static_assert(sizeof(" + type + ") == " + std::to_string(size) + ", \"sizeof " + tag +
         "\");\n_Static_assert(_Alignof(" + type + ") == " + std::to_string(align) +
         ", \"_Alignof " + tag + "\");\n";
}

const std::vector<Case>& layoutCases() {
  static const std::vector<Case> k = withNvptxClangs({
      {"nvptx64-nvidia-cuda", ""},
      {"nvptx-nvidia-cuda", ""},
      {"nvptx64-nvidia-cuda", "sm_90"},
      {"amdgcn-amd-amdhsa", "gfx906"},
      {"amdgcn-amd-amdhsa", "gfx1030"},
      {"amdgcn-amd-amdhsa", "gfx90a"},
      {"amdgcn-amd-amdhsa", ""},
  });
  return k;
}

TEST(GpuDifferential, ScalarAndPointerLayoutMatchesClang) {
  if (!haveTool(kClang)) GTEST_SKIP() << "clang-14 not found";
  oracle::ScratchDir dir;
  for (const Case& c : layoutCases()) {
    SCOPED_TRACE(describeCase(c));
    Target t = resolve(c);
    const DataModel& d = t.data;
    std::string src = "#include <stddef.h>\n";
    std::vector<std::string> unsupported;
    for (size_t i = 0; i < kNumIntKinds; ++i) {
      const SizeAlign& sa = d.ints[i];
      if (sa.supported())
        src += assertSizeAlign(intKindName(IntKind(i)), sa.size, sa.align, intKindName(IntKind(i)));
      else
        unsupported.push_back(intKindName(IntKind(i)));
    }
    for (size_t i = 0; i < kNumFloatKinds; ++i) {
      const SizeAlign& sa = d.floats[i];
      if (sa.supported())
        src += assertSizeAlign(floatKindName(FloatKind(i)), sa.size, sa.align,
                               floatKindName(FloatKind(i)));
      else
        unsupported.push_back(floatKindName(FloatKind(i)));
    }
    src += assertSizeAlign("void *", d.pointer.size, d.pointer.align, "void *");
    src += assertSizeAlign("void (*)(void)", d.function_pointer.size, d.function_pointer.align,
                           "function pointer");
    src += assertSizeAlign("__builtin_va_list", d.va_list.size, d.va_list.align, "va_list");
    src += assertSizeAlign("float _Complex", 2 * d.of(FloatKind::Float).size,
                           d.of(FloatKind::Float).align, "float _Complex");
    src += assertSizeAlign("double _Complex", 2 * d.of(FloatKind::Double).size,
                           d.of(FloatKind::Double).align, "double _Complex");
    src += "_Static_assert(_Alignof(max_align_t) == " + std::to_string(d.max_align_t_align) +
           ", \"max_align_t\");\n";
    src += "struct __attribute__((aligned)) DefaultAligned { char c; };\n"
           "_Static_assert(_Alignof(struct DefaultAligned) == " +
           std::to_string(d.default_aligned_attr) + ", \"aligned attribute\");\n";
    src += "_Static_assert(_Alignof(_BitInt(" + std::to_string(d.bitint_max_width) +
           ")) == " + std::to_string(std::min<unsigned>(16, d.bitint_max_align)) +
           ", \"_BitInt max\");\n";
    // Vectors: aligned to their size unless capped.
    for (unsigned bytes : {8u, 16u, 64u, 128u}) {
      unsigned align = d.max_vector_align ? std::min<unsigned>(bytes, d.max_vector_align) : bytes;
      src += assertSizeAlign("float __attribute__((vector_size(" + std::to_string(bytes) + ")))",
                             bytes, align, "vector " + std::to_string(bytes));
    }
    // Typedefs behind the standard names.
    src += "_Static_assert(sizeof(size_t) == " + std::to_string(d.of(d.size_type).size) +
           ", \"size_t\");\n";
    src += "_Static_assert(sizeof(wchar_t) == " + std::to_string(d.of(d.wchar_type).size) +
           ", \"wchar_t\");\n";
    // Pointers in every address space, as C sees them.
    for (const AddressSpaceInfo& as : t.address_spaces) {
      std::string type = "__attribute__((address_space(" + std::to_string(as.number) + "))) int *";
      src += "_Static_assert(sizeof(" + type + ") * 8 == " + std::to_string(as.pointer_bits) +
             ", \"pointer bits in address space " + std::to_string(as.number) + "\");\n";
    }
    oracle::RunResult r = compileC(c, dir, src);
    EXPECT_EQ(r.exit_code, 0) << r.err << "\n" << src;
    // Every type abikit calls unsupported must be rejected by clang.
    for (const std::string& type : unsupported) {
      oracle::RunResult u = compileC(c, dir, type + " x;\n");
      EXPECT_NE(u.exit_code, 0) << type << " is accepted by clang";
    }
    oracle::RunResult big =
        compileC(c, dir, "_BitInt(" + std::to_string(d.bitint_max_width + 1) + ") x;\n");
    EXPECT_NE(big.exit_code, 0) << "_BitInt above the maximum width is accepted";
  }
}

// ----- AMDGPU e_flags against llc-14 ----------------------------------------------------------

struct ObjHeader {
  bool ok = false;
  uint8_t elf_class = 0, osabi = 0, abi_version = 0;
  uint16_t machine = 0;
  uint32_t flags = 0;
};

ObjHeader readHeader(const std::string& path) {
  std::string bytes = oracle::readFile(path);
  ObjHeader h;
  if (bytes.size() < 52 || bytes.compare(0, 4,
                                         "\x7f"
                                         "ELF") != 0)
    return h;
  auto u8 = [&](size_t o) { return uint8_t(bytes[o]); };
  h.elf_class = u8(4);
  h.osabi = u8(7);
  h.abi_version = u8(8);
  h.machine = uint16_t(u8(18) | (u8(19) << 8));
  size_t fo = h.elf_class == 2 ? 48 : 36;
  if (bytes.size() < fo + 4) return h;
  h.flags = uint32_t(u8(fo)) | uint32_t(u8(fo + 1)) << 8 | uint32_t(u8(fo + 2)) << 16 |
            uint32_t(u8(fo + 3)) << 24;
  h.ok = true;
  return h;
}

const char* const kKernelIr = "define amdgpu_kernel void @k() {\n  ret void\n}\n";

struct LlcResult {
  bool ran = false;
  std::string err;
  ObjHeader header;
};

LlcResult runLlc(const oracle::ScratchDir& dir, const std::string& cpu, const std::string& mattr,
                 unsigned cov) {
  std::vector<std::string> argv = {kLlc, "-mtriple=amdgcn-amd-amdhsa", "-mcpu=" + cpu,
                                   "--amdhsa-code-object-version=" + std::to_string(cov),
                                   "-filetype=obj"};
  if (!mattr.empty()) argv.push_back("-mattr=" + mattr);
  argv.push_back(dir.file("k.ll"));
  argv.push_back("-o");
  argv.push_back(dir.file("k.o"));
  oracle::RunResult r = oracle::run(argv);
  LlcResult out;
  out.err = r.err;
  if (r.exit_code != 0) return out;
  out.ran = true;
  out.header = readHeader(dir.file("k.o"));
  return out;
}

std::string settingSuffix(FeatureSetting s) {
  return s == FeatureSetting::On ? "+" : s == FeatureSetting::Off ? "-" : "";
}

TEST(GpuDifferential, AmdgpuElfFlagsMatchLlc) {
  if (!haveTool(kLlc)) GTEST_SKIP() << "llc-14 not found";
  oracle::ScratchDir dir;
  dir.write("k.ll", kKernelIr);
  unsigned compared = 0;
  for (const AmdgpuProcessor& p : amdgpuProcessors()) {
    if (!p.in_llvm14) continue;
    SCOPED_TRACE(std::string(p.name));
    std::vector<FeatureSetting> xs = {FeatureSetting::Unsupported};
    std::vector<FeatureSetting> ss = {FeatureSetting::Unsupported};
    if (p.supports_xnack) xs = {FeatureSetting::Any, FeatureSetting::On, FeatureSetting::Off};
    if (p.supports_sramecc) ss = {FeatureSetting::Any, FeatureSetting::On, FeatureSetting::Off};
    for (FeatureSetting x : xs)
      for (FeatureSetting s : ss) {
        std::string id = std::string(p.name);
        std::string mattr;
        if (!settingSuffix(s).empty()) {
          id += ":sramecc" + settingSuffix(s);
          mattr += settingSuffix(s) + "sramecc";
        }
        if (!settingSuffix(x).empty()) {
          id += ":xnack" + settingSuffix(x);
          mattr += (mattr.empty() ? "" : ",") + settingSuffix(x) + "xnack";
        }
        const bool all_defaults = mattr.empty();
        for (unsigned cov : {2u, 3u, 4u, 5u}) {
          // Versions 2, 3 and 5 once per processor (defaults and one explicit setting).
          if (cov != 4 && !(all_defaults || (x != FeatureSetting::Any && s != FeatureSetting::Any)))
            continue;
          SCOPED_TRACE(id + " code object v" + std::to_string(cov));
          LlcResult llc = runLlc(dir, std::string(p.name), mattr, cov);
          if (!llc.ran) {
            // LLVM 14 refuses code object V2 for processors newer than its V2 ISA table.
            EXPECT_TRUE(cov == 2 && llc.err.find("does not support processor") != std::string::npos)
                << llc.err;
            continue;
          }
          ASSERT_TRUE(llc.header.ok);
          if (cov >= 4) {
            TargetOptions o;
            o.triple = "amdgcn-amd-amdhsa";
            o.mcpu = id;
            o.code_object_version = int(cov);
            Target t = resolveTarget(o);
            EXPECT_EQ(t.elf.flags, llc.header.flags);
            EXPECT_EQ(t.elf.osabi, llc.header.osabi);
            EXPECT_EQ(t.elf.abi_version, llc.header.abi_version);
            EXPECT_EQ(t.elf.elf_class, llc.header.elf_class);
            EXPECT_EQ(t.elf.machine, llc.header.machine);
          } else {
            EXPECT_EQ(amdgpuElfFlags(p, x, s, cov), llc.header.flags);
            EXPECT_EQ(llc.header.abi_version, cov - 2);
          }
          // The decoder reads the real object back to the same processor and settings.
          const ElfMachineInfo* m = findElfMachine(llc.header.machine);
          ASSERT_NE(m, nullptr);
          ElfFlagsInfo info =
              m->decodeFlags({llc.header.elf_class, 1, llc.header.osabi, llc.header.abi_version,
                              llc.header.machine, llc.header.flags});
          EXPECT_EQ(info.processor, p.name);
          EXPECT_TRUE(info.problems.empty()) << info.problems.front();
          if (cov >= 4) {
            EXPECT_EQ(info.property("xnack"), featureSettingName(x));
            EXPECT_EQ(info.property("sramecc"), featureSettingName(s));
          }
          ++compared;
        }
      }
  }
  // Aliases resolve to their processor exactly as llc does.
  for (const char* alias : {"tahiti", "hawaii", "fiji", "polaris10", "carrizo", "stoney"}) {
    SCOPED_TRACE(alias);
    LlcResult llc = runLlc(dir, alias, "", 4);
    ASSERT_TRUE(llc.ran) << llc.err;
    Target t = resolve({"amdgcn-amd-amdhsa", alias});
    EXPECT_EQ(t.elf.flags, llc.header.flags);
  }
  // No -mcpu: EF_AMDGPU_MACH_NONE.
  {
    std::vector<std::string> argv = {
        kLlc,           "-mtriple=amdgcn-amd-amdhsa", "-filetype=obj", dir.file("k.ll"), "-o",
        dir.file("k.o")};
    ASSERT_EQ(oracle::run(argv).exit_code, 0);
    EXPECT_EQ(resolve({"amdgcn-amd-amdhsa", ""}).elf.flags, readHeader(dir.file("k.o")).flags);
  }
  EXPECT_GT(compared, 150u);
  std::printf("compared %u AMDGPU objects\n", compared);
}

// ----- NVPTX: PTX versions and cubins ---------------------------------------------------------

TEST(GpuDifferential, NvptxPtxVersionMatchesLlc) {
  oracle::ScratchDir dir;
  dir.write("f.ll", "define void @f() {\n  ret void\n}\n");
  for (const std::string& cc : oracle::modelledClangs("nvptx64-nvidia-cuda")) {
    const std::string llc = "llc-" + cc.substr(6);
    // The default processor.
    oracle::RunResult r = oracle::run({llc, "-march=nvptx64", dir.file("f.ll"), "-o", "-"});
    Target t = resolve({"nvptx64-nvidia-cuda", "", cc});
    EXPECT_NE(r.out.find(".target " + t.cpu + "\n"), std::string::npos) << cc << "\n" << r.out;
    unsigned v = t.nvptx().ptx_version;
    EXPECT_NE(
        r.out.find(".version " + std::to_string(v / 10) + "." + std::to_string(v % 10) + "\n"),
        std::string::npos)
        << cc << "\n"
        << r.out;
  }
  for (const std::string& cc : oracle::modelledClangs("nvptx64-nvidia-cuda"))
    for (const NvptxProcessor& p : nvptxProcessors()) {
      const std::string llc = "llc-" + cc.substr(6);
      if (!llvmPtx(p, cc)) {
        // A processor that LLVM does not know: llc rejects it.
        oracle::RunResult r = oracle::run(
            {llc, "-march=nvptx64", "-mcpu=" + std::string(p.name), dir.file("f.ll"), "-o", "-"});
        EXPECT_TRUE(r.exit_code != 0 ||
                    r.err.find("not a recognized processor") != std::string::npos)
            << llc << " knows " << p.name;
        continue;
      }
      for (const char* arch : {"nvptx64", "nvptx"}) {
        SCOPED_TRACE(std::string(arch) + " " + std::string(p.name) + " " + cc);
        oracle::RunResult r =
            oracle::run({llc, std::string("-march=") + arch, "-mcpu=" + std::string(p.name),
                         dir.file("f.ll"), "-o", "-"});
        ASSERT_EQ(r.exit_code, 0) << r.err;
        Target t = resolve({std::string(arch) + "-nvidia-cuda", std::string(p.name), cc});
        unsigned v = t.nvptx().ptx_version;
        std::string version = std::to_string(v / 10) + "." + std::to_string(v % 10);
        EXPECT_NE(r.out.find(".version " + version + "\n"), std::string::npos) << r.out;
        EXPECT_NE(r.out.find(".target " + std::string(p.name) + "\n"), std::string::npos);
        EXPECT_NE(r.out.find(std::string(".address_size ") + (t.nvptx().is64 ? "64" : "32")),
                  std::string::npos);
      }
    }
}

std::string ptxModule(unsigned version, const std::string& target) {
  return ".version " + std::to_string(version / 10) + "." + std::to_string(version % 10) +
         "\n.target " + target + "\n.address_size 64\n.visible .entry k() { ret; }\n";
}

TEST(GpuDifferential, CubinIdentityMatchesPtxas) {
  if (oracle::findProgram(kPtxas).empty()) GTEST_SKIP() << kPtxas << " not found: cubins skipped";
  oracle::ScratchDir dir;
  unsigned compared = 0;
  for (const NvptxProcessor& p : nvptxProcessors()) {
    SCOPED_TRACE(std::string(p.name));
    const std::string name(p.name);
    // The lowest accepted PTX version, and that the one below is rejected.
    std::string arch = p.ptxas13 ? name : "sm_75";
    dir.write("k.ptx", ptxModule(p.min_ptx, name));
    oracle::RunResult ok =
        oracle::run({kPtxas, "-arch=" + arch, dir.file("k.ptx"), "-o", dir.file("k.cubin")});
    EXPECT_EQ(ok.exit_code, 0) << ok.err;
    if (p.min_ptx > 23) {
      // PTX versions skip numbers (4.3 -> 5.0): take the previous one that exists.
      unsigned below = 0;
      const unsigned kVersions[] = {23, 30, 31, 32, 40, 41, 42, 43, 50, 60, 61, 62,
                                    63, 64, 65, 70, 71, 72, 73, 74, 75, 76, 77, 78,
                                    80, 81, 82, 83, 84, 85, 86, 87, 88, 90};
      for (unsigned v : kVersions)
        if (v < p.min_ptx) below = v;
      dir.write("b.ptx", ptxModule(below, name));
      oracle::RunResult bad =
          oracle::run({kPtxas, "-arch=" + arch, dir.file("b.ptx"), "-o", dir.file("b.cubin")});
      EXPECT_NE(bad.exit_code, 0) << "PTX " << below << " accepted";
    }
    if (!p.ptxas13) continue;
    // The cubin header against Target::elf.
    dir.write("k.ptx", ptxModule(90, name));
    oracle::RunResult r =
        oracle::run({kPtxas, "-arch=" + name, dir.file("k.ptx"), "-o", dir.file("k.cubin")});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    ObjHeader h = readHeader(dir.file("k.cubin"));
    ASSERT_TRUE(h.ok);
    Target t = resolve({"nvptx64-nvidia-cuda", name});
    EXPECT_EQ(t.elf.flags, h.flags);
    EXPECT_EQ(t.elf.osabi, h.osabi);
    EXPECT_EQ(t.elf.abi_version, h.abi_version);
    EXPECT_EQ(t.elf.elf_class, h.elf_class);
    EXPECT_EQ(t.elf.machine, h.machine);
    const ElfMachineInfo* m = findElfMachine(h.machine);
    ASSERT_NE(m, nullptr);
    ElfFlagsInfo info =
        m->decodeFlags({h.elf_class, 1, h.osabi, h.abi_version, h.machine, h.flags});
    // The "a"/"f" suffixes are not in e_flags: the cubin decodes to the base processor.
    EXPECT_EQ(info.processor, "sm_" + std::to_string(p.sm));
    EXPECT_TRUE(info.problems.empty()) << info.problems.front();
    EXPECT_EQ(info.property("address_size"), "64");
    ++compared;
  }
  // ptxas refuses processors abikit says it does not accept.
  for (const NvptxProcessor& p : nvptxProcessors()) {
    if (p.ptxas13) continue;
    dir.write("k.ptx", ptxModule(p.min_ptx, std::string(p.name)));
    oracle::RunResult r = oracle::run(
        {kPtxas, "-arch=" + std::string(p.name), dir.file("k.ptx"), "-o", dir.file("k.cubin")});
    EXPECT_NE(r.exit_code, 0) << p.name << " accepted by ptxas";
  }
  EXPECT_GT(compared, 20u);
  std::printf("compared %u cubins\n", compared);
}

} // namespace
