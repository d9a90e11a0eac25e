// NVPTX (nvptx-nvidia-cuda, nvptx64-nvidia-cuda): the SM table, data model, state spaces,
// macros and the EM_CUDA cubin identity. Sources: seeds/002 (PTX ISA chapter 7),
// reference/gpu.md Parts 1 and 3, clang-14/llc-14 and ptxas 13.0 (see docs/targets/nvptx.md).
#include "family.h"

#include <cstdio>

namespace abikit::detail {
namespace {

// ----- processors -----------------------------------------------------------------------------

// min_ptx: the lowest `.version` ptxas 13.0 accepts for the `.target` (probed with
// `.address_size 64`, which needs 2.3). llvm14_ptx, llvm19_ptx, llvm22_ptx: the `.version`
// llc-14, llc-19 and llc-22 write for -mcpu (0: unknown to that LLVM). LLVM 22 also knows sm_101
// and sm_101a, CUDA 12's names of sm_110 and sm_110a, which ptxas 13.0 rejects: not listed.
constexpr NvptxProcessor kProcessors[] = {
    {"sm_20", 20, 0, 23, 32, 32, 32, false, "Fermi; LLVM 14's default processor"},
    {"sm_21", 21, 0, 23, 32, 32, 32, false, "Fermi"},
    {"sm_30", 30, 0, 30, 32, 60, 32, false, "Kepler"},
    {"sm_32", 32, 0, 40, 40, 40, 40, false, "Kepler"},
    {"sm_35", 35, 0, 31, 32, 32, 32, false, "Kepler"},
    {"sm_37", 37, 0, 41, 41, 41, 41, false, "Kepler"},
    {"sm_50", 50, 0, 40, 40, 40, 40, false, "Maxwell"},
    {"sm_52", 52, 0, 41, 41, 41, 41, false, "Maxwell"},
    {"sm_53", 53, 0, 42, 42, 42, 42, false, "Maxwell"},
    {"sm_60", 60, 0, 50, 50, 50, 50, false, "Pascal"},
    {"sm_61", 61, 0, 50, 50, 50, 50, false, "Pascal"},
    {"sm_62", 62, 0, 50, 50, 50, 50, false, "Pascal"},
    {"sm_70", 70, 0, 60, 60, 60, 60, false, "Volta"},
    {"sm_72", 72, 0, 61, 61, 61, 61, false, "Volta"},
    {"sm_75", 75, 0, 63, 63, 63, 63, true, "Turing; ptxas 13 default"},
    {"sm_80", 80, 0, 70, 70, 70, 70, true, "Ampere"},
    {"sm_86", 86, 0, 71, 71, 71, 71, true, "Ampere"},
    {"sm_87", 87, 0, 74, 0, 74, 74, true, "Ampere"},
    {"sm_88", 88, 0, 73, 0, 0, 90, true, "ptxas 13 accepts `.target sm_88` from PTX 7.3"},
    {"sm_89", 89, 0, 78, 0, 78, 78, true, "Ada"},
    {"sm_90", 90, 0, 78, 0, 78, 78, true, "Hopper"},
    {"sm_90a", 90, 'a', 80, 0, 80, 80, true, "Hopper, architecture-specific features"},
    {"sm_100", 100, 0, 86, 0, 0, 86, true, "Blackwell"},
    {"sm_100a", 100, 'a', 86, 0, 0, 86, true, "Blackwell, architecture-specific features"},
    {"sm_100f", 100, 'f', 88, 0, 0, 88, true, "Blackwell, family-specific features"},
    {"sm_103", 103, 0, 88, 0, 0, 88, true, "Blackwell"},
    {"sm_103a", 103, 'a', 88, 0, 0, 88, true, "Blackwell, architecture-specific features"},
    {"sm_103f", 103, 'f', 88, 0, 0, 88, true, "Blackwell, family-specific features"},
    {"sm_110", 110, 0, 90, 0, 0, 90, true, "Blackwell (sm_101 before CUDA 13)"},
    {"sm_110a", 110, 'a', 90, 0, 0, 90, true, "Blackwell, architecture-specific features"},
    {"sm_110f", 110, 'f', 90, 0, 0, 90, true, "Blackwell, family-specific features"},
    {"sm_120", 120, 0, 87, 0, 0, 87, true, "Blackwell"},
    {"sm_120a", 120, 'a', 87, 0, 0, 87, true, "Blackwell, architecture-specific features"},
    {"sm_120f", 120, 'f', 88, 0, 0, 88, true, "Blackwell, family-specific features"},
    {"sm_121", 121, 0, 88, 0, 0, 88, true, "Blackwell"},
    {"sm_121a", 121, 'a', 88, 0, 0, 88, true, "Blackwell, architecture-specific features"},
    {"sm_121f", 121, 'f', 88, 0, 0, 88, true, "Blackwell, family-specific features"},
};

const NvptxProcessor* processorBySm(unsigned sm, char suffix) {
  for (const NvptxProcessor& p : kProcessors)
    if (p.sm == sm && p.suffix == suffix) return &p;
  return nullptr;
}

std::string versionText(unsigned v) {
  return std::to_string(v / 10) + "." + std::to_string(v % 10);
}

// ----- state spaces ---------------------------------------------------------------------------

// The OpenCL spellings are clang's mapping on NVPTX (__private and __generic both map to 0).
constexpr AddressSpaceInfo kSpaces64[] = {
    {0, "generic", "__generic", 64, 0, true, 0,
     "generic addressing; OpenCL __private also maps here"},
    {1, "global", "__global", 64, 0, true, 0, ".global state space"},
    {3, "shared", "__local", 64, 0, true, 0,
     ".shared state space (CUDA __shared__); 32-bit only in the non-default short-pointer mode"},
    {4, "const", "__constant", 64, 0, true, 0,
     ".const state space (CUDA __constant__); 32-bit only in the non-default short-pointer mode"},
    {5, "local", "", 64, 0, true, 0,
     ".local state space (per-thread stack); 32-bit only in the non-default short-pointer mode"},
    {101, "param", "", 64, 0, false, 0,
     ".param state space: kernel and function parameters; used inside LLVM only"},
};
constexpr AddressSpaceInfo kSpaces32[] = {
    {0, "generic", "__generic", 32, 0, true, 0,
     "generic addressing; OpenCL __private also maps here"},
    {1, "global", "__global", 32, 0, true, 0, ".global state space"},
    {3, "shared", "__local", 32, 0, true, 0, ".shared state space (CUDA __shared__)"},
    {4, "const", "__constant", 32, 0, true, 0, ".const state space (CUDA __constant__)"},
    {5, "local", "", 32, 0, true, 0, ".local state space (per-thread stack)"},
    {101, "param", "", 32, 0, false, 0,
     ".param state space: kernel and function parameters; used inside LLVM only"},
};

// ----- ELF (EM_CUDA cubins) -------------------------------------------------------------------

constexpr uint8_t kAbiV1 = 7; // ELFABIVERSION_CUDA_V1
constexpr uint8_t kAbiV2 = 8; // ELFABIVERSION_CUDA_V2

// Layout of ABI version 7 (LLVM's EF_CUDA_* constants).
constexpr uint32_t kV1Sm = 0xff;
constexpr uint32_t kV1TexUnified = 0x100;
constexpr uint32_t kV1TexIndependent = 0x200;
constexpr uint32_t kV1Addr64 = 0x400;
constexpr uint32_t kV1Accelerators = 0x800;
constexpr uint32_t kV1SwFlagV2 = 0x1000;
constexpr uint32_t kVirtualSm = 0xff0000;
// Layout of ABI version 8: SM in bits 8..15, the "a" flag in bit 3 (LLVM's newer constants);
// the other bits are undocumented (ptxas 13.0 writes 0x04/0x02 in the low byte, 0x06 in the top
// byte, 0x0b there with -g).
constexpr uint32_t kV2SmMask = 0xff00;
constexpr uint32_t kV2Accelerators = 0x8;

/// e_flags and identity of the cubin ptxas 13.0 writes for this processor (64-bit only).
uint32_t ptxas13Flags(unsigned sm) {
  return 0x06000000u | (uint32_t(sm) << 8) | (sm >= 100 ? 0x02u : 0x04u);
}

std::string hexText(uint32_t v) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "0x%x", v);
  return buf;
}

ElfFlagsInfo decodeCudaFlags(const ElfHeaderFacts& h) {
  ElfFlagsInfo info;
  info.target = h.elf_class == kElfClass32 ? "nvptx-nvidia-cuda" : "nvptx64-nvidia-cuda";
  unsigned sm = 0;
  bool accel = false;
  unsigned virtual_sm = 0;
  unsigned address_bits = h.elf_class == kElfClass32 ? 32 : 64;
  if (h.abi_version == kAbiV2) {
    info.properties.emplace_back("cuda_elf_abi", "2");
    if (h.osabi != kOsabiCudaV2)
      info.problems.push_back("CUDA ELF ABI version 8 with OSABI " + std::to_string(h.osabi) +
                              " (expected 65)");
    sm = (h.flags & kV2SmMask) >> 8;
    accel = h.flags & kV2Accelerators;
    virtual_sm = (h.flags & kVirtualSm) >> 16;
    info.flag_names.push_back("EF_CUDA_SM" + std::to_string(sm));
    if (accel) info.flag_names.push_back("EF_CUDA_ACCELERATORS");
    if (virtual_sm)
      info.flag_names.push_back("EF_CUDA_VIRTUAL_SM(" + std::to_string(virtual_sm) + ")");
    if (uint32_t other = h.flags & ~(kV2SmMask | kV2Accelerators | kVirtualSm))
      info.flag_names.push_back("undocumented bits " + hexText(other));
    if (h.elf_class != kElfClass64)
      info.problems.push_back("CUDA ELF ABI version 8 objects are ELFCLASS64");
  } else if (h.abi_version == kAbiV1) {
    info.properties.emplace_back("cuda_elf_abi", "1");
    if (h.osabi != kOsabiCuda)
      info.problems.push_back("CUDA ELF ABI version 7 with OSABI " + std::to_string(h.osabi) +
                              " (expected 51)");
    sm = h.flags & kV1Sm;
    accel = h.flags & kV1Accelerators;
    virtual_sm = (h.flags & kVirtualSm) >> 16;
    info.flag_names.push_back("EF_CUDA_SM" + std::to_string(sm));
    if (h.flags & kV1TexUnified) info.flag_names.push_back("EF_CUDA_TEXMODE_UNIFIED");
    if (h.flags & kV1TexIndependent) info.flag_names.push_back("EF_CUDA_TEXMODE_INDEPENDANT");
    if (h.flags & kV1Addr64) info.flag_names.push_back("EF_CUDA_64BIT_ADDRESS");
    if (accel) info.flag_names.push_back("EF_CUDA_ACCELERATORS");
    if (h.flags & kV1SwFlagV2) info.flag_names.push_back("EF_CUDA_SW_FLAG_V2");
    if (virtual_sm)
      info.flag_names.push_back("EF_CUDA_VIRTUAL_SM(" + std::to_string(virtual_sm) + ")");
    address_bits = (h.flags & kV1Addr64) ? 64 : 32;
    if ((address_bits == 64) != (h.elf_class == kElfClass64))
      info.problems.push_back("EF_CUDA_64BIT_ADDRESS does not match the ELF class");
    if (uint32_t unknown = h.flags & ~(kV1Sm | 0x1f00u | kVirtualSm))
      info.problems.push_back("unknown e_flags bits " + hexText(unknown));
  } else {
    info.properties.emplace_back("cuda_elf_abi", "unknown");
    info.problems.push_back("unknown CUDA ELF ABI version " + std::to_string(h.abi_version) +
                            " (known: 7, 8)");
    return info;
  }
  info.target = address_bits == 32 ? "nvptx-nvidia-cuda" : "nvptx64-nvidia-cuda";
  const NvptxProcessor* p = processorBySm(sm, accel ? 'a' : 0);
  if (p) {
    info.processor = std::string(p->name);
  } else {
    info.processor = "sm_" + std::to_string(sm) + (accel ? "a" : "");
    info.problems.push_back("unknown SM " + info.processor);
  }
  info.properties.emplace_back("sm", std::to_string(sm));
  info.properties.emplace_back("arch_specific", accel ? "yes" : "no");
  info.properties.emplace_back("address_size", std::to_string(address_bits));
  info.properties.emplace_back("virtual_sm",
                               virtual_sm ? "compute_" + std::to_string(virtual_sm) : "none");
  return info;
}

void cudaLinkConflicts(const ElfFlagsInfo& a, const ElfFlagsInfo& b,
                       std::vector<std::string>& out) {
  if (a.processor != b.processor) out.push_back("processor " + a.processor + " vs " + b.processor);
  if (a.property("address_size") != b.property("address_size"))
    out.push_back("address size " + std::string(a.property("address_size")) + " vs " +
                  std::string(b.property("address_size")) + " bits");
}

// No public document lists the R_CUDA_* relocation types: the table stays empty.
const ElfMachineInfo kElf = {kEmCuda,           kEmCudaName, Family::NVPTX, {}, decodeCudaFlags,
                             cudaLinkConflicts, {}};

// ----- what differs between the compilers abikit models (docs/targets/nvptx.md) --------------

struct NvptxCompilerFacts {
  Compiler compiler;
  std::string_view default_cpu;         // clang's and llc's processor without -mcpu
  uint16_t NvptxProcessor::*ptx_column; // the .version its back end writes per processor
  bool half_types;                      // _Float16 and __bf16 exist (HasFloat16, bf16)
  bool lock_free_atomics;     // up to the pointer's width; else every __GCC_ATOMIC_*_LOCK_FREE is 1
  bool elf_and_no_math_errno; // __ELF__; __NO_MATH_ERRNO__ (-cuda) and __CUDA_ARCH__ (-march) in C
  uint32_t offload_copies;    // what a CUDA device takes from its host
  uint8_t opencl3_features;   // OpenCL C 3.0's optional features (OpenCLFeature)
  NvptxCallRules call;
};

// What a CUDA device compilation copies from its host (clang-14's NVPTXTargetInfo constructor
// and driver; clang 19 and later add the host's record layout and declare __float128).
constexpr uint32_t kCudaCopies14 = kOffloadInts | kOffloadFloats | kOffloadBitFieldRules |
                                   kOffloadAtomics | kOffloadDialect | kOffloadAlignedAttr |
                                   kOffloadFloat16 | kOffloadInt128;
constexpr uint32_t kCudaCopies19 = kCudaCopies14 | kOffloadRecordRules | kOffloadAnyFloat128;

// Read from each compiler's -dM output, its -S output and its llc (tests/differential/diff_ptx.cpp
// and diff_gpu_datamodel.cpp run every one).
constexpr NvptxCompilerFacts kNvptxCompilerFacts[] = {
    {.compiler = Compiler::Clang22,
     .default_cpu = "sm_30",
     .ptx_column = &NvptxProcessor::llvm22_ptx,
     .half_types = true,
     .lock_free_atomics = true,
     .elf_and_no_math_errno = true,
     .offload_copies = kCudaCopies19,
     .opencl3_features = kClGenericAddressSpace,
     .call = {.backend = "llc-22",
              .byval_min_align = 1,
              .byval_ir_align = true,
              .local_array_align = 16,
              .variadic_buffer = true,
              .max_odd_bitint_bits = 127,
              .odd_int_aggregates = true,
              .i128_arrays_and_vectors = true,
              .bitfield_records = false,
              .vector_bugs = false,
              .kernel_pointers = NvptxKernelPointers::AlignOne}},
    {.compiler = Compiler::Clang19,
     .default_cpu = "sm_30",
     .ptx_column = &NvptxProcessor::llvm19_ptx,
     .half_types = true,
     .lock_free_atomics = true,
     .elf_and_no_math_errno = true,
     .offload_copies = kCudaCopies19,
     .opencl3_features = 0,
     .call = {.backend = "llc-19",
              .byval_min_align = 1,
              .byval_ir_align = true,
              .local_array_align = 16,
              .variadic_buffer = true,
              .max_odd_bitint_bits = 64,
              .odd_int_aggregates = true,
              .i128_arrays_and_vectors = false,
              .bitfield_records = false,
              .vector_bugs = true,
              .kernel_pointers = NvptxKernelPointers::NvclAlignOne}},
    {.compiler = Compiler::Clang14,
     .default_cpu = "sm_20",
     .ptx_column = &NvptxProcessor::llvm14_ptx,
     .half_types = false,
     .lock_free_atomics = false,
     .elf_and_no_math_errno = false,
     .offload_copies = kCudaCopies14,
     .opencl3_features = 0,
     .call = {.backend = "llc-14",
              .byval_min_align = 4,
              .byval_ir_align = false,
              .local_array_align = 0,
              .variadic_buffer = false,
              .max_odd_bitint_bits = 16,
              .odd_int_aggregates = false,
              .i128_arrays_and_vectors = false,
              .bitfield_records = true,
              .vector_bugs = false,
              .kernel_pointers = NvptxKernelPointers::NvclPointeeAlign}},
};
// The first is the default: the newest clang abikit models (docs/compilers.md).
constexpr Compiler kNvptxCompilers[] = {Compiler::Clang22, Compiler::Clang19, Compiler::Clang14};

const NvptxCompilerFacts& compilerFacts(Compiler c) {
  for (const NvptxCompilerFacts& f : kNvptxCompilerFacts)
    if (f.compiler == c) return f;
  return kNvptxCompilerFacts[0]; // unreachable: selectCompiler admits only kNvptxCompilers
}

constexpr std::string_view kArgumentArea =
    "none: PTX hides the stack; every argument and the return value is a .param variable "
    "(callee: <function>_param_<i> and func_retval0; caller: param<i> and retval0), and the "
    "per-thread stack (local depot, .local state space) is managed by ptxas";
constexpr std::string_view kArgumentAreaVariadic =
    "none for fixed arguments: PTX hides the stack; every fixed argument and the return value is "
    "a .param variable (callee: <function>_param_<i> and func_retval0; caller: param<i> and "
    "retval0), and the per-thread stack (local depot, .local state space) is managed by ptxas. "
    "The extra arguments of a variadic call are stored in a buffer on the caller's stack (stack+N "
    "is an offset in it), whose generic address is the .param after the fixed ones";

// ----- resolution -----------------------------------------------------------------------------

bool handles(const Triple& t) {
  return t.arch == "nvptx" || t.arch == "nvptx64";
}

std::string knownCpuList() {
  std::string s;
  for (const NvptxProcessor& p : kProcessors) s += (s.empty() ? "" : ", ") + std::string(p.name);
  return s;
}

void setDataModel(DataModel& d, bool is64, const NvptxCompilerFacts& cc) {
  d.endian = Endian::Little;
  d.char_signed = true;
  d.of(IntKind::Bool) = {1, 1};
  d.of(IntKind::Char) = d.of(IntKind::SChar) = d.of(IntKind::UChar) = {1, 1};
  d.of(IntKind::Short) = d.of(IntKind::UShort) = {2, 2};
  d.of(IntKind::Int) = d.of(IntKind::UInt) = {4, 4};
  d.of(IntKind::Long) = d.of(IntKind::ULong) = is64 ? SizeAlign{8, 8} : SizeAlign{4, 4};
  d.of(IntKind::LongLong) = d.of(IntKind::ULongLong) = {8, 8};
  // __int128 exists only with 64-bit pointers (clang-14: "__int128 is not supported on this
  // target" for nvptx).
  d.of(IntKind::Int128) = d.of(IntKind::UInt128) = is64 ? SizeAlign{16, 16} : SizeAlign{};
  d.floats = {};
  d.float_formats = {};
  d.of(FloatKind::Fp16) = {2, 2}; // storage only
  d.float_formats[size_t(FloatKind::Fp16)] = FloatFormat::IEEEHalf;
  if (cc.half_types) { // clang-14 rejects _Float16 and __bf16 on NVPTX
    d.of(FloatKind::Float16) = d.of(FloatKind::BFloat16) = {2, 2};
    d.float_formats[size_t(FloatKind::Float16)] = FloatFormat::IEEEHalf;
    d.float_formats[size_t(FloatKind::BFloat16)] = FloatFormat::BFloat;
  }
  d.of(FloatKind::Float) = {4, 4};
  d.float_formats[size_t(FloatKind::Float)] = FloatFormat::IEEESingle;
  d.of(FloatKind::Double) = {8, 8};
  d.float_formats[size_t(FloatKind::Double)] = FloatFormat::IEEEDouble;
  d.of(FloatKind::LongDouble) = {8, 8};
  d.float_formats[size_t(FloatKind::LongDouble)] = FloatFormat::IEEEDouble;
  d.pointer = d.function_pointer = is64 ? SizeAlign{8, 8} : SizeAlign{4, 4};
  d.size_type = is64 ? IntKind::ULong : IntKind::UInt;
  d.ptrdiff_type = is64 ? IntKind::Long : IntKind::Int;
  d.intptr_type = is64 ? IntKind::Long : IntKind::Int;
  d.intmax_type = IntKind::LongLong;
  d.int64_type = IntKind::LongLong;
  d.wchar_type = IntKind::Int;
  d.wint_type = IntKind::Int;
  d.char16_type = IntKind::UShort;
  d.char32_type = IntKind::UInt;
  d.sig_atomic_type = IntKind::Int;
  d.va_list_kind = VaListKind::CharPtr;
  d.va_list = d.pointer;
  d.max_vector_align = 0; // vectors are aligned to their (power-of-two) size
  d.biggest_alignment = 8;
  d.default_aligned_attr = 16;
  d.max_align_t_align = 8;
  d.bitint_max_width = 128;
  d.bitint_max_align = 8;
  d.max_atomic_inline_bits = cc.lock_free_atomics ? (is64 ? 64 : 32) : 0;
  d.max_atomic_promote_bits = 0; // _Atomic(T) is laid out as T (clang-14/19/22)
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

void resolve(const TargetOptions& o, const Triple& t, Target& out) {
  if (!o.march.empty())
    targetError("option '-march=" + o.march +
                "' is not used by NVPTX targets (select the processor with -mcpu=sm_XX)");
  rejectUnusedOption("NVPTX", "-mabi", o.mabi);
  rejectUnusedOption("NVPTX", "-mcmodel", o.mcmodel);
  if (o.code_object_version) targetError("-mcode-object-version is an AMDGPU option");
  if (o.wavefront_size) targetError("-m[no-]wavefrontsize64 is an AMDGPU option");
  if (o.msupervisor || o.mworker) targetError("-msupervisor/-mworker are IPU options");

  const bool is64 = t.arch == "nvptx64";
  const bool vendor_ok = t.vendor.empty() || t.vendor == "nvidia" || t.vendor == "unknown";
  const bool os_ok = t.os.empty() || t.os == "cuda" || t.os == "nvcl" || t.os == "unknown";
  if (!vendor_ok || !os_ok || !t.env.empty())
    targetError("unknown NVPTX triple '" + t.text + "' (expected " + t.arch + "-nvidia-cuda or " +
                t.arch + "-nvidia-nvcl)");
  const std::string os = t.os == "nvcl" ? "nvcl" : "cuda";

  const NvptxCompilerFacts& cc = compilerFacts(out.compiler);
  std::string cpu = o.mcpu.empty() ? std::string(cc.default_cpu) : o.mcpu;
  const NvptxProcessor* p = findNvptxProcessor(cpu);
  if (!p) targetError("unknown NVPTX processor '" + cpu + "' (known: " + knownCpuList() + ")");

  NvptxTarget nv;
  nv.is64 = is64;
  nv.sm = p->sm;
  nv.arch_specific = p->suffix == 'a';
  nv.family_specific = p->suffix == 'f';
  const uint16_t llvm_ptx = p->*cc.ptx_column;
  nv.ptx_version = llvm_ptx ? llvm_ptx : p->min_ptx;
  nv.processor = p;
  nv.call = cc.call;

  out.arch = t.arch;
  out.triple = t.arch + "-nvidia-" + os;
  out.cpu = std::string(p->name);
  out.spelling = out.triple + " -mcpu=" + out.cpu;
  setDataModel(out.data, is64, cc);

  // PTX has no physical registers: parameters live in the .param state space and registers
  // are virtual, allocated by ptxas.
  out.registers = {};
  out.dwarf = nvptxDwarfInfo(is64, p->sm);
  out.stack.grows_down = false; // LLVM's NVPTXFrameLowering: StackGrowsUp, 8-byte aligned
  out.stack.alignment = 8;
  out.stack.stack_pointer = "";
  out.stack.return_address = "";
  out.stack.frame_pointer = "";
  out.stack.argument_area = cc.call.variadic_buffer ? kArgumentAreaVariadic : kArgumentArea;
  out.address_spaces = is64 ? std::span<const AddressSpaceInfo>(kSpaces64)
                            : std::span<const AddressSpaceInfo>(kSpaces32);
  out.memory = {};

  // The cubin `ptxas` writes for this processor. CUDA 13 (ABI version 8) only targets sm_75 and
  // later and 64-bit code; older processors and 32-bit code come from older toolkits (ABI
  // version 7), whose e_flags are predicted only in the fields LLVM documents.
  const bool cuda13 = p->ptxas13 && is64;
  if (cuda13) {
    out.elf = {kElfClass64, kElfData2Lsb,        kOsabiCudaV2, kAbiV2,
               kEmCuda,     ptxas13Flags(p->sm), true,         kEmCudaName};
  } else {
    uint32_t flags = p->sm | (is64 ? kV1Addr64 : 0u) | (p->suffix == 'a' ? kV1Accelerators : 0u);
    out.elf = {is64 ? kElfClass64 : kElfClass32,
               kElfData2Lsb,
               kOsabiCuda,
               kAbiV1,
               kEmCuda,
               flags,
               true,
               kEmCudaName};
  }

  // A CUDA device compilation takes parts of its host's data model (kCudaCopies14/19: clang's
  // NVPTXTargetInfo constructor, and its driver: the Microsoft dialect, char's sign); long
  // double and the vector and biggest alignments stay the device's. The driver pairs a 32-bit
  // host with nvptx-nvidia-cuda, a 64-bit one with nvptx64 (docs/offload.md).
  out.offload.copies = cc.offload_copies;
  out.opencl3_features = cc.opencl3_features;
  out.offload.default_host = is64 ? "x86_64-linux-gnu" : "i386-linux-gnu";

  out.macros = {{"__NVPTX__", "1"}, {"__PTX__", "1"}};
  // clang 19 and later: cubins are ELF, and the CUDA toolchain's -fno-math-errno applies to
  // every language (not to the -nvcl OS).
  if (cc.elf_and_no_math_errno) {
    out.macros.push_back({"__ELF__", "1"});
    if (os == "cuda") out.macros.push_back({"__NO_MATH_ERRNO__", "1"});
  }
  // __CUDA_ARCH__ = SM x 10: in CUDA always; clang 19 and later also in C and OpenCL when the
  // processor is named (-march), as NVPTXTargetInfo defines it without a host target.
  const std::string arch = std::to_string(p->sm * 10);
  if (cc.elf_and_no_math_errno && !o.mcpu.empty())
    out.macros.push_back({"__CUDA_ARCH__", arch});
  else
    out.language_macros.push_back({Language::CUDA, "__CUDA_ARCH__", arch});
  // The CUDA toolchain's defaults: -fno-math-errno; DWARF CFI directives (whatever the host).
  if (!cc.elf_and_no_math_errno || os != "cuda")
    out.language_macros.push_back({Language::CUDA, "__NO_MATH_ERRNO__", "1"});
  out.language_macros.push_back({Language::CUDA, "__GCC_HAVE_DWARF2_CFI_ASM", "1"});

  addProperty(out, "sm", std::to_string(p->sm), true);
  if (p->suffix) addProperty(out, "sm_suffix", std::string(1, p->suffix));
  addProperty(out, "ptx_version", versionText(nv.ptx_version));
  addProperty(out, "min_ptx_version", versionText(p->min_ptx));
  addProperty(out, "address_size", is64 ? "64" : "32", true);
  addProperty(out, "known_to_" + std::string(cc.call.backend), llvm_ptx ? "yes" : "no");
  addProperty(out, "ptxas13_accepts", cuda13 ? "yes" : "no");
  addProperty(out, "cubin_e_flags",
              cuda13 ? "exact (ptxas 13.0, CUDA ELF ABI version 8)"
                     : "EF_CUDA_SM and EF_CUDA_64BIT_ADDRESS only (CUDA ELF ABI version 7; "
                       "texture-mode and virtual-SM bits depend on the toolkit)");
  if (!p->note.empty()) addProperty(out, "processor_note", std::string(p->note));
  out.detail = nv;
}

void summaries(std::vector<TargetSummary>& out) {
  for (const char* arch : {"nvptx64", "nvptx"}) {
    TargetSummary s;
    s.family = Family::NVPTX;
    s.name = std::string(arch) + "-nvidia-cuda";
    s.description = std::string("NVIDIA PTX, ") + (arch[5] == '6' ? "64" : "32") +
                    "-bit addresses (default -mcpu=sm_30; clang-14: sm_20)";
    for (const NvptxProcessor& p : kProcessors) s.cpus.emplace_back(p.name);
    out.push_back(std::move(s));
  }
}

} // namespace

const FamilyInfo kNvptxFamily = {Family::NVPTX, "nvptx",   "NVPTX", handles,
                                 resolve,       summaries, &kElf,   kNvptxCompilers};

} // namespace abikit::detail

namespace abikit {

std::span<const NvptxProcessor> nvptxProcessors() {
  return detail::kProcessors;
}

const NvptxProcessor* findNvptxProcessor(std::string_view name) {
  for (const NvptxProcessor& p : detail::kProcessors)
    if (p.name == name) return &p;
  return nullptr;
}

} // namespace abikit
