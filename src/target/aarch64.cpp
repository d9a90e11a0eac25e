// AArch64 hosts: aarch64-linux-gnu (AAPCS64 with the Linux data model): data model, layout
// rules, registers, stack, ELF identity and predefined macros, per compiler. Sources:
// reference/hosts.md and each compiler's own answers (`-E -dM`, sizeof/_Alignof of every type);
// docs/targets/aarch64.md lists what differs between the compilers. The calling convention is not
// modelled (`abikit call` refuses it).
#include "family.h"

namespace abikit::detail {
namespace {

// ----- registers (AAPCS64 §6.1; DWARF numbers from "DWARF for the Arm 64-bit Architecture") ---

constexpr uint32_t kArg = kRoleArgument | kRoleCallerSaved;
constexpr uint32_t kArgRet = kRoleArgument | kRoleReturn | kRoleCallerSaved;
constexpr uint32_t kTemp = kRoleCallerSaved;
constexpr uint32_t kSaved = kRoleCalleeSaved;

constexpr RegisterInfo kRegisters[] = {
    {"x0", "w0", "gpr", 64, 0, kArgRet, "", "argument 1; result"},
    {"x1", "w1", "gpr", 64, 1, kArgRet, "", "argument 2; second result word"},
    {"x2", "w2", "gpr", 64, 2, kArgRet, "", "argument 3; results of up to 8 words"},
    {"x3", "w3", "gpr", 64, 3, kArgRet, "", "argument 4"},
    {"x4", "w4", "gpr", 64, 4, kArgRet, "", "argument 5"},
    {"x5", "w5", "gpr", 64, 5, kArgRet, "", "argument 6"},
    {"x6", "w6", "gpr", 64, 6, kArgRet, "", "argument 7"},
    {"x7", "w7", "gpr", 64, 7, kArgRet, "", "argument 8"},
    {"x8", "w8", "gpr", 64, 8, kArg, "", "indirect result location (address of a large result)"},
    {"x9", "w9", "gpr", 64, 9, kTemp, "", ""},
    {"x10", "w10", "gpr", 64, 10, kTemp, "", ""},
    {"x11", "w11", "gpr", 64, 11, kTemp, "", ""},
    {"x12", "w12", "gpr", 64, 12, kTemp, "", ""},
    {"x13", "w13", "gpr", 64, 13, kTemp, "", ""},
    {"x14", "w14", "gpr", 64, 14, kTemp, "", ""},
    {"x15", "w15", "gpr", 64, 15, kTemp, "", ""},
    {"x16", "ip0", "gpr", 64, 16, kTemp, "", "intra-procedure-call scratch (veneers, PLT)"},
    {"x17", "ip1", "gpr", 64, 17, kTemp, "", "intra-procedure-call scratch (veneers, PLT)"},
    {"x18", "w18", "gpr", 64, 18, kTemp, "", "platform register; a temporary on Linux"},
    {"x19", "w19", "gpr", 64, 19, kSaved, "", ""},
    {"x20", "w20", "gpr", 64, 20, kSaved, "", ""},
    {"x21", "w21", "gpr", 64, 21, kSaved, "", ""},
    {"x22", "w22", "gpr", 64, 22, kSaved, "", ""},
    {"x23", "w23", "gpr", 64, 23, kSaved, "", ""},
    {"x24", "w24", "gpr", 64, 24, kSaved, "", ""},
    {"x25", "w25", "gpr", 64, 25, kSaved, "", ""},
    {"x26", "w26", "gpr", 64, 26, kSaved, "", ""},
    {"x27", "w27", "gpr", 64, 27, kSaved, "", ""},
    {"x28", "w28", "gpr", 64, 28, kSaved, "", ""},
    {"x29", "fp", "gpr", 64, 29, kSaved | kRoleFramePointer, "", "frame pointer"},
    {"x30", "lr", "gpr", 64, 30, kRoleReturnAddress | kRoleCallerSaved, "", "link register"},
    {"sp", "", "gpr", 64, 31, kRoleStackPointer | kRoleReserved, "", "stack pointer"},
    {"xzr", "wzr", "gpr", 64, -1, kRoleZero | kRoleReadOnly, "", "zero register (encoding 31)"},
    {"pc", "", "pc", 64, 32, kRoleReserved, "", "program counter"},
    {"v0", "q0", "fpsimd", 128, 64, kArgRet, "", "argument 1; result (HFA/HVA members 1..4)"},
    {"v1", "q1", "fpsimd", 128, 65, kArgRet, "", "argument 2; result"},
    {"v2", "q2", "fpsimd", 128, 66, kArgRet, "", "argument 3; result"},
    {"v3", "q3", "fpsimd", 128, 67, kArgRet, "", "argument 4; result"},
    {"v4", "q4", "fpsimd", 128, 68, kArg, "", "argument 5"},
    {"v5", "q5", "fpsimd", 128, 69, kArg, "", "argument 6"},
    {"v6", "q6", "fpsimd", 128, 70, kArg, "", "argument 7"},
    {"v7", "q7", "fpsimd", 128, 71, kArg, "", "argument 8"},
    {"v8", "q8", "fpsimd", 128, 72, kSaved, "", "only the low 64 bits (d8) are preserved"},
    {"v9", "q9", "fpsimd", 128, 73, kSaved, "", "only the low 64 bits (d9) are preserved"},
    {"v10", "q10", "fpsimd", 128, 74, kSaved, "", "only the low 64 bits (d10) are preserved"},
    {"v11", "q11", "fpsimd", 128, 75, kSaved, "", "only the low 64 bits (d11) are preserved"},
    {"v12", "q12", "fpsimd", 128, 76, kSaved, "", "only the low 64 bits (d12) are preserved"},
    {"v13", "q13", "fpsimd", 128, 77, kSaved, "", "only the low 64 bits (d13) are preserved"},
    {"v14", "q14", "fpsimd", 128, 78, kSaved, "", "only the low 64 bits (d14) are preserved"},
    {"v15", "q15", "fpsimd", 128, 79, kSaved, "", "only the low 64 bits (d15) are preserved"},
    {"v16", "q16", "fpsimd", 128, 80, kTemp, "", ""},
    {"v17", "q17", "fpsimd", 128, 81, kTemp, "", ""},
    {"v18", "q18", "fpsimd", 128, 82, kTemp, "", ""},
    {"v19", "q19", "fpsimd", 128, 83, kTemp, "", ""},
    {"v20", "q20", "fpsimd", 128, 84, kTemp, "", ""},
    {"v21", "q21", "fpsimd", 128, 85, kTemp, "", ""},
    {"v22", "q22", "fpsimd", 128, 86, kTemp, "", ""},
    {"v23", "q23", "fpsimd", 128, 87, kTemp, "", ""},
    {"v24", "q24", "fpsimd", 128, 88, kTemp, "", ""},
    {"v25", "q25", "fpsimd", 128, 89, kTemp, "", ""},
    {"v26", "q26", "fpsimd", 128, 90, kTemp, "", ""},
    {"v27", "q27", "fpsimd", 128, 91, kTemp, "", ""},
    {"v28", "q28", "fpsimd", 128, 92, kTemp, "", ""},
    {"v29", "q29", "fpsimd", 128, 93, kTemp, "", ""},
    {"v30", "q30", "fpsimd", 128, 94, kTemp, "", ""},
    {"v31", "q31", "fpsimd", 128, 95, kTemp, "", ""},
};

using M = DwarfRegMode;
constexpr DwarfRegisterRange kDwarf[] = {
    {0, 31, 64, M::Any, "x", 0, true, 0},
    {31, 1, 64, M::Any, "sp", 0, false, 0},
    {32, 1, 64, M::Any, "pc", 0, false, 0},
    {33, 1, 64, M::Any, "elr_mode", 0, false, 0},
    {34, 1, 64, M::Any, "ra_sign_state", 0, false, 0},
    {64, 32, 128, M::Any, "v", 0, true, 0},
};
constexpr DwarfAddressSpace kSpaces[] = {{0, 1, "global", 64, DwarfSpaceScope::Process, false}};

DwarfTargetInfo dwarfInfo() {
  DwarfTargetInfo d;
  d.registers = kDwarf;
  d.spaces = kSpaces;
  d.lanes = 1;
  d.address_bits = 64;
  // The CIE clang writes (.eh_frame): return address x30, code alignment 1, data alignment -4.
  d.return_address_column = 30;
  d.code_alignment = 1;
  d.data_alignment = -4;
  d.default_same_value = false;
  return d;
}

constexpr std::string_view kArgArea =
    "offset N is [sp, #N] at the call (sp on entry to the callee): the first stack-passed "
    "argument is at 0 and later ones at higher addresses; each slot is a multiple of 8 bytes, "
    "aligned to the argument's alignment (8 or 16)";

// ----- what differs between the compilers abikit models (docs/targets/aarch64.md) ------------

struct Aarch64CompilerFacts {
  Compiler compiler;
  bool bfloat16;              // __bf16 as a type (clang 17 and later)
  uint16_t bitint_max_align;  // bytes: _BitInt(65..128) is 16-aligned from clang 18
  uint8_t sync_cas_max_bytes; // __GCC_HAVE_SYNC_COMPARE_AND_SWAP_16 from clang 15 (or so)
  std::string_view acle;      // __ARM_ACLE
  bool acle_version_macro;    // __ARM_ACLE_VERSION(year, quarter, patch)
  bool neon_sve_bridge;       // __ARM_NEON_SVE_BRIDGE
  bool prefetch_range;        // __ARM_PREFETCH_RANGE
  bool sme_state_macros;      // __ARM_STATE_ZA, __ARM_STATE_ZT0
  bool fp_fast_fma;           // __FP_FAST_FMA, __FP_FAST_FMAF
  bool asm_flag_outputs;      // __GCC_ASM_FLAG_OUTPUTS__
  uint32_t fmv_level;         // __FUNCTION_MULTI_VERSIONING_SUPPORT_LEVEL; 0: not defined
  uint16_t destructive_size;  // __GCC_DESTRUCTIVE_SIZE where the target sets its own; 0: not
};

// Read from each compiler: `-E -dM -x c /dev/null` and sizeof/_Alignof of every scalar type
// (tests/differential/diff_host_datamodel.cpp runs every one of them).
constexpr Aarch64CompilerFacts kAarch64CompilerFacts[] = {
    {.compiler = Compiler::Clang22,
     .bfloat16 = true,
     .bitint_max_align = 16,
     .sync_cas_max_bytes = 16,
     .acle = "202420",
     .acle_version_macro = true,
     .neon_sve_bridge = true,
     .prefetch_range = true,
     .sme_state_macros = true,
     .fp_fast_fma = true,
     .asm_flag_outputs = true,
     .fmv_level = 202430,
     .destructive_size = 256},
    {.compiler = Compiler::Clang19,
     .bfloat16 = true,
     .bitint_max_align = 16,
     .sync_cas_max_bytes = 16,
     .acle = "200",
     .acle_version_macro = false,
     .neon_sve_bridge = false,
     .prefetch_range = false,
     .sme_state_macros = true,
     .fp_fast_fma = true,
     .asm_flag_outputs = true,
     .fmv_level = 0,
     .destructive_size = 0},
    {.compiler = Compiler::Clang14,
     .bfloat16 = false,
     .bitint_max_align = 8,
     .sync_cas_max_bytes = 8,
     .acle = "200",
     .acle_version_macro = false,
     .neon_sve_bridge = false,
     .prefetch_range = false,
     .sme_state_macros = false,
     .fp_fast_fma = false,
     .asm_flag_outputs = false,
     .fmv_level = 0,
     .destructive_size = 0},
};
constexpr Compiler kAarch64Compilers[] = {Compiler::Clang22, Compiler::Clang19, Compiler::Clang14};

const Aarch64CompilerFacts& compilerFacts(Compiler c) {
  for (const Aarch64CompilerFacts& f : kAarch64CompilerFacts)
    if (f.compiler == c) return f;
  return kAarch64CompilerFacts[0]; // unreachable: selectCompiler admits only kAarch64Compilers
}

// ----- resolution -----------------------------------------------------------------------------

bool handles(const Triple& t) {
  return t.arch == "aarch64" || t.arch == "arm64" || t.arch == "aarch64_be";
}

void resolve(const TargetOptions& o, const Triple& t, Target& out) {
  if (o.code_object_version) targetError("-mcode-object-version is an AMDGPU option");
  if (o.wavefront_size) targetError("-m[no-]wavefrontsize64 is an AMDGPU option");
  if (o.msupervisor || o.mworker) targetError("-msupervisor/-mworker are IPU options");
  if (t.arch == "aarch64_be")
    targetError("abikit models little-endian AArch64 (aarch64-linux-gnu), not aarch64_be");
  // aarch64-linux-gnu, aarch64-unknown-linux-gnu
  const bool linux_gnu =
      (t.vendor == "linux" && t.os == "gnu" && t.env.empty()) ||
      ((t.vendor == "unknown" || t.vendor.empty()) && t.os == "linux" && t.env == "gnu");
  if (!linux_gnu)
    targetError("unknown AArch64 triple '" + t.text +
                "' (known: aarch64-linux-gnu; Apple, Windows and bare-metal AArch64 are not "
                "modelled)");
  if (!o.march.empty() || !o.mcpu.empty())
    targetError("abikit models the default AArch64 processor (generic, Armv8-A); -march/-mcpu "
                "are not modelled yet");
  rejectUnusedOption("AArch64", "-mabi", o.mabi);
  rejectUnusedOption("AArch64", "-mcmodel", o.mcmodel);
  const Aarch64CompilerFacts& cc = compilerFacts(out.compiler);

  out.triple = "aarch64-linux-gnu";
  out.arch = "aarch64";
  out.cpu = "generic";
  out.spelling = out.triple;

  DataModel& d = out.data;
  d.endian = Endian::Little;
  d.char_signed = false; // AAPCS64: plain char is unsigned
  d.of(IntKind::Bool) = {1, 1};
  d.of(IntKind::Char) = d.of(IntKind::SChar) = d.of(IntKind::UChar) = {1, 1};
  d.of(IntKind::Short) = d.of(IntKind::UShort) = {2, 2};
  d.of(IntKind::Int) = d.of(IntKind::UInt) = {4, 4};
  d.of(IntKind::Long) = d.of(IntKind::ULong) = {8, 8};
  d.of(IntKind::LongLong) = d.of(IntKind::ULongLong) = {8, 8};
  d.of(IntKind::Int128) = d.of(IntKind::UInt128) = {16, 16};
  d.of(FloatKind::Fp16) = d.of(FloatKind::Float16) = {2, 2};
  d.float_formats[size_t(FloatKind::Fp16)] = FloatFormat::IEEEHalf;
  d.float_formats[size_t(FloatKind::Float16)] = FloatFormat::IEEEHalf;
  if (cc.bfloat16) {
    d.of(FloatKind::BFloat16) = {2, 2};
    d.float_formats[size_t(FloatKind::BFloat16)] = FloatFormat::BFloat;
  }
  d.of(FloatKind::Float) = {4, 4};
  d.of(FloatKind::Double) = {8, 8};
  d.of(FloatKind::LongDouble) = {16, 16};
  d.float_formats[size_t(FloatKind::Float)] = FloatFormat::IEEESingle;
  d.float_formats[size_t(FloatKind::Double)] = FloatFormat::IEEEDouble;
  d.float_formats[size_t(FloatKind::LongDouble)] = FloatFormat::IEEEQuad;
  // No __float128: long double is already IEEE quad.
  d.pointer = d.function_pointer = {8, 8};
  d.size_type = IntKind::ULong;
  d.ptrdiff_type = d.intptr_type = d.intmax_type = d.int64_type = IntKind::Long;
  d.wchar_type = IntKind::UInt;
  d.wint_type = IntKind::UInt;
  d.char16_type = IntKind::UShort;
  d.char32_type = IntKind::UInt;
  d.sig_atomic_type = IntKind::Int;
  d.va_list_kind = VaListKind::Aapcs64;
  d.va_list = {32, 8};
  d.max_vector_align = 16; // AAPCS64: vectors are at most 16-aligned
  d.biggest_alignment = 16;
  d.default_aligned_attr = 16;
  d.max_align_t_align = 16;
  d.bitint_max_width = 128;
  d.bitint_max_align = cc.bitint_max_align;
  d.max_atomic_inline_bits = 128;
  d.max_atomic_promote_bits = 128;
  d.has_sync_cas = true;
  d.sync_cas_max_bytes = cc.sync_cas_max_bytes;
  // AAPCS64 §10.1.5 (clang UseZeroLengthBitfieldAlignment): unnamed and zero-width bit-fields
  // raise the record's alignment to their declared type's.
  d.zero_length_bitfield_alignment = true;

  out.stack.grows_down = true;
  out.stack.alignment = 16;
  out.stack.stack_pointer = "sp";
  out.stack.return_address = "x30";
  out.stack.frame_pointer = "x29";
  out.stack.argument_area = kArgArea;
  out.registers = kRegisters;
  out.dwarf = dwarfInfo();
  out.address_spaces = {};
  out.memory = {};
  out.elf = {kElfClass64, kElfData2Lsb, kOsabiNone, 0, kEmAarch64, 0, true, kEmAarch64Name};

  // Predefined macros (clang AArch64TargetInfo::getTargetDefines for the generic processor, and
  // the Linux OS defines).
  auto& m = out.macros;
  m.clear();
  auto def = [&](const char* name, std::string value = "1") {
    m.emplace_back(name, std::move(value));
  };
  for (const char* n :
       {"__aarch64__", "__AARCH64EL__", "__AARCH64_CMODEL_SMALL__", "__ARM_64BIT_STATE",
        "__ARM_ARCH_ISA_A64", "__ARM_FEATURE_CLZ", "__ARM_FEATURE_DIRECTED_ROUNDING",
        "__ARM_FEATURE_DIV", "__ARM_FEATURE_FMA", "__ARM_FEATURE_IDIV",
        "__ARM_FEATURE_NUMERIC_MAXMIN", "__ARM_FEATURE_UNALIGNED", "__ARM_FP16_ARGS",
        "__ARM_FP16_FORMAT_IEEE", "__ARM_NEON", "__ARM_PCS_AAPCS64"})
    def(n);
  def("__ARM_ACLE", std::string(cc.acle));
  if (cc.acle_version_macro)
    def("__ARM_ACLE_VERSION(year,quarter,patch)", "(100 * (year) + 10 * (quarter) + (patch))");
  def("__ARM_ALIGN_MAX_STACK_PWR", "4");
  def("__ARM_ARCH", "8");
  def("__ARM_ARCH_PROFILE", "'A'");
  def("__ARM_FEATURE_LDREX", "0xF");
  def("__ARM_FP", "0xE");
  def("__ARM_NEON_FP", "0xE");
  def("__ARM_SIZEOF_MINIMAL_ENUM", "4");
  def("__ARM_SIZEOF_WCHAR_T", "4");
  if (cc.neon_sve_bridge) def("__ARM_NEON_SVE_BRIDGE");
  if (cc.prefetch_range) def("__ARM_PREFETCH_RANGE");
  if (cc.sme_state_macros) {
    def("__ARM_STATE_ZA");
    def("__ARM_STATE_ZT0");
  }
  if (cc.fp_fast_fma) {
    def("__FP_FAST_FMA");
    def("__FP_FAST_FMAF");
  }
  if (cc.asm_flag_outputs) def("__GCC_ASM_FLAG_OUTPUTS__");
  if (cc.fmv_level) def("__FUNCTION_MULTI_VERSIONING_SUPPORT_LEVEL", std::to_string(cc.fmv_level));
  if (cc.destructive_size) def("__GCC_DESTRUCTIVE_SIZE", std::to_string(cc.destructive_size));
  def("__ELF__");
  addLinuxOsMacros(out.macros);

  // What clang's driver options make (-fPIE, -mcmodel), which a device compilation of this
  // host does not get.
  static constexpr HostDriverMacro kDriverMacros[] = {
      {"__PIC__", ""},
      {"__PIE__", ""},
      {"__pic__", ""},
      {"__pie__", ""},
      {"__AARCH64_CMODEL_SMALL__", "__AARCH64_CMODEL___"},
  };
  const HostTarget host{"AAPCS64", "linux", kDriverMacros};
  auto& p = out.properties;
  p.clear();
  p.push_back({"psabi", std::string(host.psabi), {}, false});
  p.push_back({"os", std::string(host.os), {}, false});
  out.detail = host;
}

void summaries(std::vector<TargetSummary>& out) {
  TargetSummary s;
  s.family = Family::AArch64;
  s.name = "aarch64-linux-gnu";
  s.description = "AArch64 Linux host (AAPCS64; layout only, no calling convention)";
  s.cpus = {"generic"};
  out.push_back(std::move(s));
}

} // namespace

const FamilyInfo kAarch64Family = {Family::AArch64, "aarch64", "AArch64", handles,
                                   resolve,         summaries, nullptr,   kAarch64Compilers};

} // namespace abikit::detail
