// x86 hosts: x86_64-linux-gnu (System V AMD64 psABI), i386-linux-gnu (System V i386 psABI),
// x86_64-pc-windows-msvc (Microsoft x64: LLP64, Microsoft record layout) and
// x86_64-w64-windows-gnu (MinGW-w64: LLP64, ms_struct bit-fields): data model, layout rules,
// registers, stack, object identity and predefined macros, per compiler.
// Sources: reference/hosts.md and each compiler's own answers (`-E -dM`, sizeof/_Alignof of
// every type); docs/targets/x86.md lists what differs between the compilers. The calling
// conventions of the hosts are not modelled (`abikit call` refuses them).
#include "family.h"

namespace abikit::detail {
namespace {

// ----- registers (psABI DWARF numbering: AMD64 Figure 3.36, i386 Table 2.14) ----------------

constexpr uint32_t kArg = kRoleArgument | kRoleCallerSaved;
constexpr uint32_t kRet = kRoleReturn | kRoleCallerSaved;
constexpr uint32_t kArgRet = kRoleArgument | kRoleReturn | kRoleCallerSaved;
constexpr uint32_t kSaved = kRoleCalleeSaved;

constexpr RegisterInfo kRegisters64[] = {
    {"rax", "", "gpr", 64, 0, kRet, "",
     "return value; number of vector registers of a varargs call"},
    {"rdx", "", "gpr", 64, 1, kArgRet, "", "argument 3; second return word"},
    {"rcx", "", "gpr", 64, 2, kArg, "", "argument 4"},
    {"rbx", "", "gpr", 64, 3, kSaved, "", ""},
    {"rsi", "", "gpr", 64, 4, kArg, "", "argument 2"},
    {"rdi", "", "gpr", 64, 5, kArg, "", "argument 1"},
    {"rbp", "", "gpr", 64, 6, kSaved | kRoleFramePointer, "", "frame pointer when one is kept"},
    {"rsp", "", "gpr", 64, 7, kRoleStackPointer | kRoleReserved, "", "stack pointer"},
    {"r8", "", "gpr", 64, 8, kArg, "", "argument 5"},
    {"r9", "", "gpr", 64, 9, kArg, "", "argument 6"},
    {"r10", "", "gpr", 64, 10, kRoleCallerSaved, "", "static chain pointer"},
    {"r11", "", "gpr", 64, 11, kRoleCallerSaved, "", "scratch"},
    {"r12", "", "gpr", 64, 12, kSaved, "", ""},
    {"r13", "", "gpr", 64, 13, kSaved, "", ""},
    {"r14", "", "gpr", 64, 14, kSaved, "", ""},
    {"r15", "", "gpr", 64, 15, kSaved, "", ""},
    {"rip", "", "pc", 64, 16, kRoleReturnAddress | kRoleReserved, "",
     "DWARF column 16 is the return address (pushed on the stack by call)"},
    {"xmm0", "", "sse", 128, 17, kArgRet, "", "argument 1; return value"},
    {"xmm1", "", "sse", 128, 18, kArgRet, "", "argument 2; second return word"},
    {"xmm2", "", "sse", 128, 19, kArg, "", "argument 3"},
    {"xmm3", "", "sse", 128, 20, kArg, "", "argument 4"},
    {"xmm4", "", "sse", 128, 21, kArg, "", "argument 5"},
    {"xmm5", "", "sse", 128, 22, kArg, "", "argument 6"},
    {"xmm6", "", "sse", 128, 23, kArg, "", "argument 7"},
    {"xmm7", "", "sse", 128, 24, kArg, "", "argument 8"},
    {"xmm8", "", "sse", 128, 25, kRoleCallerSaved, "", ""},
    {"xmm9", "", "sse", 128, 26, kRoleCallerSaved, "", ""},
    {"xmm10", "", "sse", 128, 27, kRoleCallerSaved, "", ""},
    {"xmm11", "", "sse", 128, 28, kRoleCallerSaved, "", ""},
    {"xmm12", "", "sse", 128, 29, kRoleCallerSaved, "", ""},
    {"xmm13", "", "sse", 128, 30, kRoleCallerSaved, "", ""},
    {"xmm14", "", "sse", 128, 31, kRoleCallerSaved, "", ""},
    {"xmm15", "", "sse", 128, 32, kRoleCallerSaved, "", ""},
    {"st0", "", "x87", 80, 33, kRet, "", "long double return value"},
    {"st1", "", "x87", 80, 34, kRet, "", "imaginary part of a complex long double return"},
    {"st2", "", "x87", 80, 35, kRoleCallerSaved, "", ""},
    {"st3", "", "x87", 80, 36, kRoleCallerSaved, "", ""},
    {"st4", "", "x87", 80, 37, kRoleCallerSaved, "", ""},
    {"st5", "", "x87", 80, 38, kRoleCallerSaved, "", ""},
    {"st6", "", "x87", 80, 39, kRoleCallerSaved, "", ""},
    {"st7", "", "x87", 80, 40, kRoleCallerSaved, "", ""},
    {"rflags", "", "flags", 64, 49, kRoleCallerSaved, "", "direction flag clear at calls"},
    {"fs", "", "segment", 16, 54, kRoleThreadPointer | kRoleReserved, "",
     "its base (DWARF 58) points at the thread control block"},
    {"gs", "", "segment", 16, 55, kRoleReserved, "", ""},
};

constexpr RegisterInfo kRegisters32[] = {
    {"eax", "", "gpr", 32, 0, kRet, "", "return value"},
    {"ecx", "", "gpr", 32, 1, kRoleCallerSaved, "", "scratch"},
    {"edx", "", "gpr", 32, 2, kRet, "", "second return word"},
    {"ebx", "", "gpr", 32, 3, kSaved, "", "GOT pointer in position-independent code"},
    {"esp", "", "gpr", 32, 4, kRoleStackPointer | kRoleReserved, "", "stack pointer"},
    {"ebp", "", "gpr", 32, 5, kSaved | kRoleFramePointer, "", "frame pointer when one is kept"},
    {"esi", "", "gpr", 32, 6, kSaved, "", ""},
    {"edi", "", "gpr", 32, 7, kSaved, "", ""},
    {"eip", "", "pc", 32, 8, kRoleReturnAddress | kRoleReserved, "",
     "DWARF column 8 is the return address (pushed on the stack by call)"},
    {"eflags", "", "flags", 32, 9, kRoleCallerSaved, "", "direction flag clear at calls"},
    {"st0", "", "x87", 80, 11, kRet, "", "float, double and long double return value"},
    {"st1", "", "x87", 80, 12, kRoleCallerSaved, "", ""},
    {"st2", "", "x87", 80, 13, kRoleCallerSaved, "", ""},
    {"st3", "", "x87", 80, 14, kRoleCallerSaved, "", ""},
    {"st4", "", "x87", 80, 15, kRoleCallerSaved, "", ""},
    {"st5", "", "x87", 80, 16, kRoleCallerSaved, "", ""},
    {"st6", "", "x87", 80, 17, kRoleCallerSaved, "", ""},
    {"st7", "", "x87", 80, 18, kRoleCallerSaved, "", ""},
    {"gs", "", "segment", 16, 45, kRoleThreadPointer | kRoleReserved, "",
     "its base points at the thread control block"},
};

// DWARF register numbers (the same psABI tables), named as in `describe`. The vector, x87 and
// MMX files are runs; the rest are single registers.
using M = DwarfRegMode;
constexpr DwarfRegisterRange kDwarf64[] = {
    {0, 1, 64, M::Any, "rax", 0, false, 0},      {1, 1, 64, M::Any, "rdx", 0, false, 0},
    {2, 1, 64, M::Any, "rcx", 0, false, 0},      {3, 1, 64, M::Any, "rbx", 0, false, 0},
    {4, 1, 64, M::Any, "rsi", 0, false, 0},      {5, 1, 64, M::Any, "rdi", 0, false, 0},
    {6, 1, 64, M::Any, "rbp", 0, false, 0},      {7, 1, 64, M::Any, "rsp", 0, false, 0},
    {8, 8, 64, M::Any, "r", 8, true, 0},         {16, 1, 64, M::Any, "rip", 0, false, 0},
    {17, 16, 128, M::Any, "xmm", 0, true, 0},    {33, 8, 80, M::Any, "st", 0, true, 0},
    {41, 8, 64, M::Any, "mm", 0, true, 0},       {49, 1, 64, M::Any, "rflags", 0, false, 0},
    {50, 1, 16, M::Any, "es", 0, false, 0},      {51, 1, 16, M::Any, "cs", 0, false, 0},
    {52, 1, 16, M::Any, "ss", 0, false, 0},      {53, 1, 16, M::Any, "ds", 0, false, 0},
    {54, 1, 16, M::Any, "fs", 0, false, 0},      {55, 1, 16, M::Any, "gs", 0, false, 0},
    {58, 1, 64, M::Any, "fs.base", 0, false, 0}, {59, 1, 64, M::Any, "gs.base", 0, false, 0},
};
constexpr DwarfRegisterRange kDwarf32[] = {
    {0, 1, 32, M::Any, "eax", 0, false, 0}, {1, 1, 32, M::Any, "ecx", 0, false, 0},
    {2, 1, 32, M::Any, "edx", 0, false, 0}, {3, 1, 32, M::Any, "ebx", 0, false, 0},
    {4, 1, 32, M::Any, "esp", 0, false, 0}, {5, 1, 32, M::Any, "ebp", 0, false, 0},
    {6, 1, 32, M::Any, "esi", 0, false, 0}, {7, 1, 32, M::Any, "edi", 0, false, 0},
    {8, 1, 32, M::Any, "eip", 0, false, 0}, {9, 1, 32, M::Any, "eflags", 0, false, 0},
    {11, 8, 80, M::Any, "st", 0, true, 0},  {21, 8, 128, M::Any, "xmm", 0, true, 0},
    {29, 8, 64, M::Any, "mm", 0, true, 0},  {40, 1, 16, M::Any, "es", 0, false, 0},
    {41, 1, 16, M::Any, "cs", 0, false, 0}, {42, 1, 16, M::Any, "ss", 0, false, 0},
    {43, 1, 16, M::Any, "ds", 0, false, 0}, {44, 1, 16, M::Any, "fs", 0, false, 0},
    {45, 1, 16, M::Any, "gs", 0, false, 0},
};
constexpr DwarfAddressSpace kSpaces64[] = {{0, 1, "global", 64, DwarfSpaceScope::Process, false}};
constexpr DwarfAddressSpace kSpaces32[] = {{0, 1, "global", 32, DwarfSpaceScope::Process, false}};

DwarfTargetInfo dwarfInfo(bool is64) {
  DwarfTargetInfo d;
  if (is64) {
    d.registers = kDwarf64;
    d.spaces = kSpaces64;
  } else {
    d.registers = kDwarf32;
    d.spaces = kSpaces32;
  }
  d.lanes = 1;
  d.address_bits = is64 ? 64 : 32;
  // The CIE GCC and clang write: return address column rip/eip, code alignment 1, data
  // alignment -8 (x86-64) or -4 (i386).
  d.return_address_column = is64 ? 16 : 8;
  d.code_alignment = 1;
  d.data_alignment = is64 ? -8 : -4;
  d.default_same_value = false;
  return d;
}

constexpr std::string_view kArgArea64 =
    "offset N is N(%rsp) at the call instruction (8(%rsp) on entry to the callee, above the "
    "return address): the first stack-passed argument is at 0 and later ones at higher "
    "addresses; each slot is a multiple of 8 bytes";
constexpr std::string_view kArgArea32 =
    "offset N is N(%esp) at the call instruction (4(%esp) on entry to the callee, above the "
    "return address): every argument is on the stack, the first at 0 and later ones at higher "
    "addresses; each slot is a multiple of 4 bytes";

// ----- what differs between the compilers abikit models (docs/targets/x86.md) ----------------

struct X86CompilerFacts {
  Compiler compiler;
  bool float16_x86_64;  // _Float16 with SSE2 (clang 15 and later); i386's i686 has no SSE2
  bool bfloat16_x86_64; // __bf16 as an arithmetic type (clang 17 and later)
  uint32_t bitint_max;  // __BITINT_MAXWIDTH__
  // Windows: the MSVC version the msvc target claims (-fms-compatibility-version's default),
  // and the macros that came and went with it.
  const char* msc_ver;       // _MSC_VER
  const char* msc_full_ver;  // _MSC_FULL_VER
  bool msvc_fp_macros;       // _MSVC_CONSTEXPR_ATTRIBUTE, _M_FP_CONTRACT, _M_FP_PRECISE
  bool iso_volatile;         // _ISO_VOLATILE (clang 19 only)
  bool crt_builtin_offsetof; // _CRT_USE_BUILTIN_OFFSETOF (clang 22)
  bool typeinfo_equality;    // __GXX_TYPEINFO_EQUALITY_INLINE 0 on MinGW (clang 19 and later)
};

// Read from each compiler: `-E -dM -x c /dev/null` and sizeof/_Alignof of every scalar type
// (tests/differential/diff_host_datamodel.cpp runs every one of them).
constexpr X86CompilerFacts kX86CompilerFacts[] = {
    {.compiler = Compiler::Clang22,
     .float16_x86_64 = true,
     .bfloat16_x86_64 = true,
     .bitint_max = 8388608,
     .msc_ver = "1933",
     .msc_full_ver = "193300000",
     .msvc_fp_macros = true,
     .iso_volatile = false,
     .crt_builtin_offsetof = true,
     .typeinfo_equality = true},
    {.compiler = Compiler::Clang19,
     .float16_x86_64 = true,
     .bfloat16_x86_64 = true,
     .bitint_max = 8388608,
     .msc_ver = "1933",
     .msc_full_ver = "193300000",
     .msvc_fp_macros = true,
     .iso_volatile = true,
     .crt_builtin_offsetof = false,
     .typeinfo_equality = true},
    {.compiler = Compiler::Clang14,
     .float16_x86_64 = false,
     .bfloat16_x86_64 = false,
     .bitint_max = 128,
     .msc_ver = "1920",
     .msc_full_ver = "192000000",
     .msvc_fp_macros = false,
     .iso_volatile = false,
     .crt_builtin_offsetof = false,
     .typeinfo_equality = false},
};
constexpr Compiler kX86Compilers[] = {Compiler::Clang22, Compiler::Clang19, Compiler::Clang14};

const X86CompilerFacts& compilerFacts(Compiler c) {
  for (const X86CompilerFacts& f : kX86CompilerFacts)
    if (f.compiler == c) return f;
  return kX86CompilerFacts[0]; // unreachable: selectCompiler admits only kX86Compilers
}

// ----- resolution -----------------------------------------------------------------------------

bool handles(const Triple& t) {
  return t.arch == "x86_64" || t.arch == "amd64" || t.arch == "i386" || t.arch == "i486" ||
         t.arch == "i586" || t.arch == "i686";
}

// The OS and environment of the triple: "linux-gnu" from x86_64-linux-gnu,
// x86_64-pc-linux-gnu and x86_64-unknown-linux-gnu alike.
std::string osEnv(const Triple& t) {
  if (t.vendor == "linux") return t.vendor + (t.os.empty() ? "" : "-" + t.os);
  if (t.vendor == "pc" || t.vendor == "unknown" || t.vendor.empty())
    return t.os + (t.env.empty() ? "" : "-" + t.env);
  return t.vendor + "-" + t.os + (t.env.empty() ? "" : "-" + t.env);
}

// The operating systems (and C ABIs) abikit models on x86.
enum class X86Os : uint8_t { Linux, WindowsMsvc, WindowsGnu };

// The Windows OS macros (clang's WindowsTargetInfo and MicrosoftX86_64/MinGWX86_64 TargetInfo).
template <class Def> void addWindowsMacros(X86Os os, const X86CompilerFacts& cc, Def def) {
  def("_WIN32");
  def("_WIN64");
  if (os == X86Os::WindowsGnu) def("__SIZEOF_FLOAT128__", "16");
  for (const char* n : {"__PIC__", "__pic__"}) def(n, "2");
  if (os == X86Os::WindowsMsvc) {
    def("_INTEGRAL_MAX_BITS", "64");
    def("_MSC_BUILD");
    def("_MSC_EXTENSIONS");
    def("_MSC_VER", cc.msc_ver);
    def("_MSC_FULL_VER", cc.msc_full_ver);
    def("_MSVC_EXECUTION_CHARACTER_SET", "65001");
    def("_M_AMD64", "100");
    def("_M_X64", "100");
    def("__STDC_NO_THREADS__");
    if (cc.msvc_fp_macros) {
      def("_MSVC_CONSTEXPR_ATTRIBUTE");
      def("_M_FP_CONTRACT");
      def("_M_FP_PRECISE");
    }
    if (cc.iso_volatile) def("_ISO_VOLATILE");
    if (cc.crt_builtin_offsetof) def("_CRT_USE_BUILTIN_OFFSETOF");
    return;
  }
  for (const char* n :
       {"WIN32", "WIN64", "WINNT", "__WIN32", "__WIN32__", "__WIN64", "__WIN64__", "__WINNT",
        "__WINNT__", "__MINGW32__", "__MINGW64__", "__MSVCRT__", "__SEH__"})
    def(n);
  if (cc.typeinfo_equality) def("__GXX_TYPEINFO_EQUALITY_INLINE", "0");
  def("__declspec(a)", "__attribute__((a))");
  for (const char* cc_name : {"cdecl", "fastcall", "pascal", "stdcall", "thiscall"}) {
    const std::string value = std::string("__attribute__((__") + cc_name + "__))";
    def(("__" + std::string(cc_name)).c_str(), value.c_str());
    def(("_" + std::string(cc_name)).c_str(), value.c_str());
  }
}

// The OS of a triple, spelled as clang normalises it: "linux-gnu", "windows-msvc" (also
// "windows" alone, clang's default environment there), "w64-windows-gnu" (also the
// "w64-mingw32" spelling and a "pc" vendor); false for anything else.
bool x86Os(const std::string& env, X86Os& os) {
  if (env == "linux-gnu") {
    os = X86Os::Linux;
  } else if (env == "windows-msvc" || env == "windows") {
    os = X86Os::WindowsMsvc;
  } else if (env == "w64-windows-gnu" || env == "w64-mingw32" || env == "windows-gnu" ||
             env == "mingw32") {
    os = X86Os::WindowsGnu;
  } else {
    return false;
  }
  return true;
}

// The macros clang's driver options make on these hosts (addLinuxOsMacros' -fPIE ones, MinGW's
// SEH exceptions, the code model), which a device compilation of the host does not get.
constexpr HostDriverMacro kDriverMacros[] = {
    {"__PIC__", ""}, {"__PIE__", ""}, {"__pic__", ""},
    {"__pie__", ""}, {"__SEH__", ""}, {"__code_model_small__", "__code_model___"},
};

void resolve(const TargetOptions& o, const Triple& t, Target& out) {
  if (o.code_object_version) targetError("-mcode-object-version is an AMDGPU option");
  if (o.wavefront_size) targetError("-m[no-]wavefrontsize64 is an AMDGPU option");
  if (o.msupervisor || o.mworker) targetError("-msupervisor/-mworker are IPU options");
  const bool is64 = t.arch == "x86_64" || t.arch == "amd64";
  if (t.arch == "i486" || t.arch == "i586")
    targetError("abikit models i386-linux-gnu and i686-linux-gnu (processor i686), not " + t.arch +
                " yet");
  X86Os os = X86Os::Linux;
  if (!x86Os(osEnv(t), os))
    targetError("unknown x86 triple '" + t.text +
                "' (known: x86_64-linux-gnu, i386-linux-gnu, i686-linux-gnu, "
                "x86_64-pc-windows-msvc, x86_64-w64-windows-gnu)");
  const bool windows = os != X86Os::Linux;
  if (windows && !is64)
    targetError("abikit models 64-bit Windows only (x86_64-pc-windows-msvc, "
                "x86_64-w64-windows-gnu), not '" +
                t.text + "'");
  if (!o.march.empty() || !o.mcpu.empty())
    targetError("abikit models the default x86 processor (" +
                std::string(is64 ? "x86-64" : "i686") + "); -march/-mcpu are not modelled yet");
  rejectUnusedOption("x86", "-mabi", o.mabi);
  rejectUnusedOption("x86", "-mcmodel", o.mcmodel);
  const X86CompilerFacts& cc = compilerFacts(out.compiler);

  out.triple = os == X86Os::WindowsMsvc  ? "x86_64-pc-windows-msvc"
               : os == X86Os::WindowsGnu ? "x86_64-w64-windows-gnu"
               : is64                    ? "x86_64-linux-gnu"
                                         : "i386-linux-gnu";
  out.arch = is64 ? "x86_64" : "i386";
  out.cpu = is64 ? "x86-64" : "i686";
  out.spelling = out.triple;

  DataModel& d = out.data;
  d.endian = Endian::Little;
  d.char_signed = true;
  d.of(IntKind::Bool) = {1, 1};
  d.of(IntKind::Char) = d.of(IntKind::SChar) = d.of(IntKind::UChar) = {1, 1};
  d.of(IntKind::Short) = d.of(IntKind::UShort) = {2, 2};
  d.of(IntKind::Int) = d.of(IntKind::UInt) = {4, 4};
  d.of(FloatKind::Fp16) = {2, 2}; // a storage format on every clang target
  d.float_formats[size_t(FloatKind::Fp16)] = FloatFormat::IEEEHalf;
  d.of(FloatKind::Float) = {4, 4};
  d.float_formats[size_t(FloatKind::Float)] = FloatFormat::IEEESingle;
  d.float_formats[size_t(FloatKind::Double)] = FloatFormat::IEEEDouble;
  d.float_formats[size_t(FloatKind::LongDouble)] = FloatFormat::X87;
  d.of(FloatKind::Float128) = {16, 16};
  d.float_formats[size_t(FloatKind::Float128)] = FloatFormat::IEEEQuad;
  d.wchar_type = IntKind::Int;
  d.wint_type = IntKind::UInt;
  d.char16_type = IntKind::UShort;
  d.char32_type = IntKind::UInt;
  d.sig_atomic_type = IntKind::Int;
  d.max_vector_align = 0; // vectors are aligned to their size
  d.biggest_alignment = 16;
  d.default_aligned_attr = 16;
  d.bitint_max_width = cc.bitint_max;
  d.max_atomic_inline_bits = 64;
  d.max_atomic_promote_bits = is64 ? 128 : 64;
  d.has_sync_cas = true;
  if (is64) {
    d.of(IntKind::Long) = d.of(IntKind::ULong) = {8, 8};
    d.of(IntKind::LongLong) = d.of(IntKind::ULongLong) = {8, 8};
    d.of(IntKind::Int128) = d.of(IntKind::UInt128) = {16, 16};
    d.of(FloatKind::Double) = {8, 8};
    d.of(FloatKind::LongDouble) = {16, 16};
    if (cc.float16_x86_64) {
      d.of(FloatKind::Float16) = {2, 2};
      d.float_formats[size_t(FloatKind::Float16)] = FloatFormat::IEEEHalf;
    }
    if (cc.bfloat16_x86_64) {
      d.of(FloatKind::BFloat16) = {2, 2};
      d.float_formats[size_t(FloatKind::BFloat16)] = FloatFormat::BFloat;
    }
    d.pointer = d.function_pointer = {8, 8};
    d.size_type = IntKind::ULong;
    d.ptrdiff_type = d.intptr_type = d.intmax_type = d.int64_type = IntKind::Long;
    d.va_list_kind = VaListKind::X86_64Tag;
    d.va_list = {24, 8};
    d.max_align_t_align = 16;
    d.bitint_max_align = 8;
    if (windows) {
      // LLP64: long stays 32-bit; 64-bit types are long long; wchar_t is UTF-16; va_list is a
      // plain pointer.
      d.of(IntKind::Long) = d.of(IntKind::ULong) = {4, 4};
      d.size_type = IntKind::ULongLong;
      d.ptrdiff_type = d.intptr_type = d.intmax_type = d.int64_type = IntKind::LongLong;
      d.wchar_type = d.wint_type = IntKind::UShort;
      d.va_list_kind = VaListKind::CharPtr;
      d.va_list = {8, 8};
    }
    if (os == X86Os::WindowsMsvc) {
      // Microsoft: long double is double; max_align_t is double (clang's <stddef.h> under
      // _MSC_VER); records follow the Microsoft rules in the Microsoft C dialect.
      d.of(FloatKind::LongDouble) = {8, 8};
      d.float_formats[size_t(FloatKind::LongDouble)] = FloatFormat::IEEEDouble;
      d.max_align_t_align = 8;
      d.record_rules = RecordRules::Microsoft;
      d.ms_extensions = true;
      d.ms_enums = true;
      d.of(FloatKind::Float128) = {}; // MinGW keeps __float128 (without __FLOAT128__)
      d.float_formats[size_t(FloatKind::Float128)] = FloatFormat::None;
    }
    if (os == X86Os::WindowsGnu) d.ms_bitfields = true; // clang's -mms-bitfields default
  } else {
    // i386: double and long long are 4-aligned in records and as _Alignof; __alignof__ (the
    // preferred alignment) is 8 (the parser's rule for every target).
    d.of(IntKind::Long) = d.of(IntKind::ULong) = {4, 4};
    d.of(IntKind::LongLong) = d.of(IntKind::ULongLong) = {8, 4};
    d.of(FloatKind::Double) = {8, 4};
    d.of(FloatKind::LongDouble) = {12, 4};
    d.pointer = d.function_pointer = {4, 4};
    d.size_type = IntKind::UInt;
    d.ptrdiff_type = d.intptr_type = IntKind::Int;
    d.intmax_type = d.int64_type = IntKind::LongLong;
    d.va_list_kind = VaListKind::CharPtr;
    d.va_list = {4, 4};
    d.max_align_t_align = 8;
    d.bitint_max_align = 4;
    d.flt_eval_method = 2; // i686 has no SSE: float and double arithmetic happens on the x87
  }

  out.stack.grows_down = true;
  out.stack.alignment = 16;
  out.stack.stack_pointer = is64 ? "rsp" : "esp";
  out.stack.return_address = "";
  out.stack.frame_pointer = is64 ? "rbp" : "ebp";
  out.stack.argument_area = is64 ? kArgArea64 : kArgArea32;
  if (is64)
    out.registers = kRegisters64;
  else
    out.registers = kRegisters32;
  out.dwarf = dwarfInfo(is64);
  out.address_spaces = {};
  out.memory = {};

  out.elf = {is64 ? kElfClass64 : kElfClass32,
             kElfData2Lsb,
             kOsabiNone,
             0,
             is64 ? kEmX86_64 : kEm386,
             0,
             is64, // x86-64 uses RELA relocations, i386 REL
             is64 ? kEmX86_64Name : kEm386Name};
  if (windows) out.elf = {}; // Windows objects are COFF: no ELF identity (machine 0)
  // OpenCL C 3.0's optional features: X86TargetInfo enables them all (clang 14 to 22).
  out.opencl3_features = kClAllFeatures;

  // Predefined macros (clang X86TargetInfo::getTargetDefines for the default processor, and the
  // Linux OS defines).
  auto& m = out.macros;
  m.clear();
  auto def = [&](const char* name, const char* value = "1") { m.emplace_back(name, value); };
  if (is64) {
    for (const char* n :
         {"__amd64", "__amd64__", "__x86_64", "__x86_64__", "__k8", "__k8__", "__tune_k8__",
          "__MMX__", "__SSE__", "__SSE2__", "__SSE_MATH__", "__SSE2_MATH__", "__FXSR__"})
      def(n);
  } else {
    for (const char* n :
         {"i386", "__i386", "__i386__", "__i686", "__i686__", "__pentiumpro", "__pentiumpro__",
          "__tune_i686__", "__tune_pentiumpro__", "__LAHF_SAHF__"})
      def(n);
  }
  def("__code_model_small__");
  def("__REGISTER_PREFIX__", "");
  def("__NO_MATH_INLINES");
  def("__GCC_ASM_FLAG_OUTPUTS__");
  def("__SEG_FS");
  def("__SEG_GS");
  def("__seg_fs", "__attribute__((address_space(257)))");
  def("__seg_gs", "__attribute__((address_space(256)))");
  if (windows) {
    addWindowsMacros(os, cc, def);
  } else {
    def("__FLOAT128__");
    def("__SIZEOF_FLOAT128__", "16");
    def("__ELF__");
    addLinuxOsMacros(out.macros);
  }

  const HostTarget host{os == X86Os::WindowsMsvc  ? "Microsoft x64"
                        : os == X86Os::WindowsGnu ? "Microsoft x64 (MinGW-w64)"
                        : is64                    ? "System V AMD64 psABI"
                                                  : "System V i386 psABI",
                        windows ? "windows" : "linux", kDriverMacros};
  auto& p = out.properties;
  p.clear();
  p.push_back({"psabi", std::string(host.psabi), {}, false});
  p.push_back({"os", std::string(host.os), {}, false});
  out.headers = x86IntrinsicHeaders();
  out.detail = host;
}

void summaries(std::vector<TargetSummary>& out) {
  struct Row {
    const char* name;
    const char* cpu;
    const char* description;
  };
  static constexpr Row kRows[] = {
      {"x86_64-linux-gnu", "x86-64",
       "x86-64 Linux host (System V AMD64 psABI; layout only, no calling convention)"},
      {"i386-linux-gnu", "i686",
       "32-bit x86 Linux host (System V i386 psABI, processor i686; layout only)"},
      {"x86_64-pc-windows-msvc", "x86-64",
       "x86-64 Windows host, MSVC ABI (LLP64, Microsoft record layout; layout only)"},
      {"x86_64-w64-windows-gnu", "x86-64",
       "x86-64 Windows host, MinGW-w64 (LLP64, ms_struct bit-fields; layout only)"},
  };
  for (const Row& r : kRows) {
    TargetSummary t;
    t.family = Family::X86;
    t.name = r.name;
    t.description = r.description;
    t.cpus = {r.cpu};
    out.push_back(std::move(t));
  }
}

} // namespace

const FamilyInfo kX86Family = {Family::X86, "x86",     "x86",   handles,
                               resolve,     summaries, nullptr, kX86Compilers};

} // namespace abikit::detail
