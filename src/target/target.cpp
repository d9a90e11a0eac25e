// Target-independent parts of the target model: names, lookups, the language adjustment of the
// data model and the predefined macros derived from it (as clang's InitPreprocessor does).
#include "abikit/target.h"

#include "family.h"

#include <algorithm>
#include <cstdio>
#include <map>

namespace abikit {

std::string_view familyName(Family f) {
  switch (f) {
#define ABIKIT_FAMILY(E, name, Prefix)                                                             \
  case Family::E:                                                                                  \
    return name;
#include "abikit/families.def"
  }
  return "?";
}

std::string_view vaListKindName(VaListKind k) {
  switch (k) {
  case VaListKind::VoidPtr:
    return "void *";
  case VaListKind::CharPtr:
    return "char *";
  case VaListKind::X86_64Tag:
    return "struct __va_list_tag[1]";
  case VaListKind::Aapcs64:
    return "struct __va_list";
  }
  return "?";
}

std::string_view roleName(RegRole r) {
  switch (r) {
  case kRoleArgument:
    return "argument";
  case kRoleReturn:
    return "return";
  case kRoleCallerSaved:
    return "caller-saved";
  case kRoleCalleeSaved:
    return "callee-saved";
  case kRoleStackPointer:
    return "stack-pointer";
  case kRoleReturnAddress:
    return "return-address";
  case kRoleFramePointer:
    return "frame-pointer";
  case kRoleReserved:
    return "reserved";
  case kRoleReadOnly:
    return "read-only";
  case kRoleZero:
    return "zero";
  case kRoleGlobalPointer:
    return "global-pointer";
  case kRoleThreadPointer:
    return "thread-pointer";
  case kRoleBasePointer:
    return "base-pointer";
  case kRoleSpecialInput:
    return "special-input";
  }
  return "?";
}

const RegisterInfo* Target::findRegister(std::string_view name) const {
  for (const RegisterInfo& r : registers)
    if (r.name == name || (!r.alias.empty() && r.alias == name)) return &r;
  return nullptr;
}

const AddressSpaceInfo* Target::findAddressSpace(uint32_t number) const {
  for (const AddressSpaceInfo& a : address_spaces)
    if (a.number == number) return &a;
  return nullptr;
}

namespace {

bool modeValid(DwarfRegMode mode, const DwarfTargetInfo& d) {
  switch (mode) {
  case DwarfRegMode::Any:
    return true;
  case DwarfRegMode::Wave32:
    return d.lanes == 32;
  case DwarfRegMode::Wave64:
    return d.lanes == 64;
  case DwarfRegMode::Proc32:
    return d.address_bits == 32;
  case DwarfRegMode::Proc64:
    return d.address_bits == 64;
  }
  return false;
}

} // namespace

const DwarfRegisterRange* DwarfTargetInfo::findRegister(uint64_t number) const {
  for (const DwarfRegisterRange& r : registers)
    if (number >= r.first && number - r.first < r.count && modeValid(r.mode, *this)) return &r;
  return nullptr;
}

const DwarfAddressSpace* DwarfTargetInfo::findSpace(uint64_t id) const {
  for (const DwarfAddressSpace& s : spaces) {
    if (id < s.first || id - s.first >= s.count) continue;
    // A fixed-lane space exists only for the lanes of the wave (reference dwarf.md §3.2).
    if (s.scope == DwarfSpaceScope::FixedLane && id - s.first >= lanes) return nullptr;
    return &s;
  }
  return nullptr;
}

std::string dwarfRegisterName(const DwarfRegisterRange& r, uint64_t number) {
  std::string name(r.prefix);
  if (r.numbered) name += std::to_string(r.index0 + (number - r.first));
  return name;
}

namespace {

// A CUDA/HIP device compilation: what the device family's Target::offload says it takes from the
// host's data model (docs/offload.md). The formats of the device's floating types stay its own.
void adoptHost(DataModel& d, const DataModel& h, uint32_t copies) {
  if (copies & kOffloadInts) {
    for (IntKind k : {IntKind::Bool, IntKind::Int, IntKind::UInt, IntKind::Long, IntKind::ULong,
                      IntKind::LongLong, IntKind::ULongLong})
      d.of(k) = h.of(k);
    d.pointer = h.pointer;
    d.char_signed = h.char_signed;
    d.size_type = h.size_type;
    d.ptrdiff_type = h.ptrdiff_type;
    d.intptr_type = h.intptr_type;
    d.intmax_type = h.intmax_type;
    d.int64_type = h.int64_type;
    d.wchar_type = h.wchar_type;
    d.wint_type = h.wint_type;
    d.char16_type = h.char16_type;
    d.char32_type = h.char32_type;
    d.sig_atomic_type = h.sig_atomic_type;
    // The device caps _BitInt at long long's alignment (now the host's); a host's own larger
    // cap (clang 18 and later: x86-64 and AArch64 16) is its target's, not copied.
    d.bitint_max_align = d.of(IntKind::LongLong).align;
  }
  if (copies & kOffloadFloats)
    for (FloatKind k : {FloatKind::Float, FloatKind::Double}) d.of(k) = h.of(k);
  if (copies & kOffloadBitFieldRules) {
    d.bitfield_type_alignment = h.bitfield_type_alignment;
    d.zero_length_bitfield_alignment = h.zero_length_bitfield_alignment;
  }
  if (copies & kOffloadAtomics) {
    d.max_atomic_inline_bits = h.max_atomic_inline_bits;
  }
  if (copies & kOffloadDialect) d.ms_extensions = h.ms_extensions;
  if (copies & kOffloadAlignLimits) {
    d.biggest_alignment = h.biggest_alignment;
    d.max_vector_align = h.max_vector_align;
  }
  if (copies & kOffloadAlignedAttr) d.default_aligned_attr = h.default_aligned_attr;
  if (copies & kOffloadFloat16) {
    d.of(FloatKind::Float16) = {2, 2};
    d.float_formats[size_t(FloatKind::Float16)] = FloatFormat::IEEEHalf;
  }
  if (copies & kOffloadInt128) d.of(IntKind::Int128) = d.of(IntKind::UInt128) = {16, 16};
  if (copies & kOffloadAnyFloat128) {
    d.of(FloatKind::Float128) = {16, 16};
    d.float_formats[size_t(FloatKind::Float128)] = FloatFormat::IEEEQuad;
  }
  if (copies & kOffloadRecordRules) d.record_rules = h.record_rules; // (MSVC hosts: refused)
  if (copies & kOffloadLongDoubleSize) d.of(FloatKind::LongDouble) = h.of(FloatKind::LongDouble);
  if (copies & kOffloadFloat128) {
    // The host's size and alignment (or none), in the device's double format (clang-14's
    // AMDGPUTargetInfo::setAuxTarget: Float128Format = DoubleFormat).
    d.of(FloatKind::Float128) = h.of(FloatKind::Float128);
    d.float_formats[size_t(FloatKind::Float128)] = h.of(FloatKind::Float128).supported()
                                                       ? d.float_formats[size_t(FloatKind::Double)]
                                                       : FloatFormat::None;
  }
}

} // namespace

uint16_t parseOpenCLStandard(std::string_view value) {
  static constexpr std::pair<std::string_view, uint16_t> kStandards[] = {
      {"cl", 100},    {"CL", 100},    {"cl1.0", 100}, {"CL1.0", 100},
      {"cl1.1", 110}, {"CL1.1", 110}, {"cl1.2", 120}, {"CL1.2", 120},
      {"cl2.0", 200}, {"CL2.0", 200}, {"cl3.0", 300}, {"CL3.0", 300}};
  for (const auto& [name, version] : kStandards)
    if (name == value) return version;
  if (value.substr(0, 3) == "clc" || value.substr(0, 3) == "CLC")
    throw Error(ErrorKind::Input, "-cl-std=" + std::string(value) +
                                      ": C++ for OpenCL is not supported (C declarations only)");
  throw Error(ErrorKind::Input, "invalid value '" + std::string(value) +
                                    "' in '-cl-std'; expected CL1.0, CL1.1, CL1.2, CL2.0 or CL3.0");
}

uint32_t openclAddressSpace(const Target& target, std::string_view spelling) {
  for (const AddressSpaceInfo& a : target.address_spaces)
    if (a.c_spelling == spelling) return a.number;
  return 0;
}

uint8_t openclFeatures(const Target& target, LanguageMode mode) {
  if (mode.lang != Language::OpenCL) return 0;
  if (mode.opencl_version < 200) return kClImages;
  return mode.opencl_version == 200 ? uint8_t(kClAllFeatures) : target.opencl3_features;
}

DataModel dataModelFor(const Target& target, Language lang) {
  DataModel d = target.data;
  switch (lang) {
  case Language::C:
    break;
  case Language::CUDA:
  case Language::HIP:
    if (target.offload.host) adoptHost(d, target.offload.host->data, target.offload.copies);
    break;
  case Language::OpenCL: {
    // OpenCL C fixes these widths whatever the target's C data model is (clang
    // TargetInfo::adjust): long 64, long long 128, half 16, long double 128 (IEEE quad).
    d.of(IntKind::Int) = d.of(IntKind::UInt) = {4, 4};
    d.of(IntKind::Long) = d.of(IntKind::ULong) = {8, 8};
    d.of(IntKind::LongLong) = d.of(IntKind::ULongLong) = {16, 16};
    d.of(FloatKind::Fp16) = {2, 2};
    d.float_formats[size_t(FloatKind::Fp16)] = FloatFormat::IEEEHalf;
    d.of(FloatKind::Float) = {4, 4};
    d.of(FloatKind::Double) = {8, 8};
    d.of(FloatKind::LongDouble) = {16, 16};
    d.float_formats[size_t(FloatKind::LongDouble)] = FloatFormat::IEEEQuad;
    bool is32 = d.pointer.size == 4;
    d.size_type = is32 ? IntKind::UInt : IntKind::ULong;
    d.ptrdiff_type = is32 ? IntKind::Int : IntKind::Long;
    d.intptr_type = is32 ? IntKind::Int : IntKind::Long;
    d.intmax_type = IntKind::LongLong;
    d.int64_type = IntKind::Long;
    break;
  }
  }
  return d;
}

// ---------------------------------------------------------------------------------------------
// Integer and floating kinds.

const char* intKindName(IntKind k) {
  switch (k) {
  case IntKind::Bool:
    return "_Bool";
  case IntKind::Char:
    return "char";
  case IntKind::SChar:
    return "signed char";
  case IntKind::UChar:
    return "unsigned char";
  case IntKind::Short:
    return "short";
  case IntKind::UShort:
    return "unsigned short";
  case IntKind::Int:
    return "int";
  case IntKind::UInt:
    return "unsigned int";
  case IntKind::Long:
    return "long";
  case IntKind::ULong:
    return "unsigned long";
  case IntKind::LongLong:
    return "long long";
  case IntKind::ULongLong:
    return "unsigned long long";
  case IntKind::Int128:
    return "__int128";
  case IntKind::UInt128:
    return "unsigned __int128";
  }
  return "?";
}

const char* floatKindName(FloatKind k) {
  switch (k) {
  case FloatKind::Fp16:
    return "__fp16";
  case FloatKind::Float16:
    return "_Float16";
  case FloatKind::BFloat16:
    return "__bf16";
  case FloatKind::Float:
    return "float";
  case FloatKind::Double:
    return "double";
  case FloatKind::LongDouble:
    return "long double";
  case FloatKind::Float128:
    return "__float128";
  }
  return "?";
}

bool intKindSigned(IntKind k, const DataModel& d) {
  switch (k) {
  case IntKind::Char:
    return d.char_signed;
  case IntKind::SChar:
  case IntKind::Short:
  case IntKind::Int:
  case IntKind::Long:
  case IntKind::LongLong:
  case IntKind::Int128:
    return true;
  default:
    return false;
  }
}

IntKind unsignedIntKind(IntKind k) {
  switch (k) {
  case IntKind::SChar:
  case IntKind::Char:
    return IntKind::UChar;
  case IntKind::Short:
    return IntKind::UShort;
  case IntKind::Int:
    return IntKind::UInt;
  case IntKind::Long:
    return IntKind::ULong;
  case IntKind::LongLong:
    return IntKind::ULongLong;
  case IntKind::Int128:
    return IntKind::UInt128;
  default:
    return k;
  }
}

const char* intConstantSuffix(IntKind k, const DataModel& d) {
  switch (k) {
  case IntKind::UInt:
    return "U";
  case IntKind::Long:
    return "L";
  case IntKind::ULong:
    return "UL";
  case IntKind::LongLong:
    return "LL";
  case IntKind::ULongLong:
    return "ULL";
  case IntKind::UChar:
  case IntKind::UShort:
    // Promotes to int unless as wide as int.
    return d.of(k).size == d.of(IntKind::Int).size ? "U" : "";
  default:
    return "";
  }
}

const char* intFormatModifier(IntKind k) {
  switch (k) {
  case IntKind::Char:
  case IntKind::SChar:
  case IntKind::UChar:
    return "hh";
  case IntKind::Short:
  case IntKind::UShort:
    return "h";
  case IntKind::Long:
  case IntKind::ULong:
    return "l";
  case IntKind::LongLong:
  case IntKind::ULongLong:
    return "ll";
  default:
    return "";
  }
}

// ---------------------------------------------------------------------------------------------
// Predefined macros derived from the data model.

namespace {

// The spelling clang uses in __*_TYPE__ macros: intKindName() but for the long kinds.
const char* clangTypeName(IntKind k) {
  switch (k) {
  case IntKind::Long:
    return "long int";
  case IntKind::ULong:
    return "long unsigned int";
  case IntKind::LongLong:
    return "long long int";
  case IntKind::ULongLong:
    return "long long unsigned int";
  default:
    return intKindName(k);
  }
}

std::string maxValue(IntKind k, const DataModel& d) {
  unsigned bits = d.of(k).size * 8u;
  bool sgn = intKindSigned(k, d);
  unsigned __int128 v = bits >= 128 ? ~(unsigned __int128)0 : (((unsigned __int128)1 << bits) - 1);
  if (sgn) v >>= 1;
  std::string s;
  do {
    s.insert(s.begin(), char('0' + int(v % 10)));
    v /= 10;
  } while (v);
  return s + intConstantSuffix(k, d);
}

struct MacroList {
  std::vector<std::pair<std::string, std::string>>& out;
  void def(std::string name, std::string value) {
    out.emplace_back(std::move(name), std::move(value));
  }
};

// The smallest standard kind of exactly `bytes` bytes, preferring the order clang uses.
IntKind intOfSize(unsigned bytes, bool sgn, const DataModel& d, IntKind int64) {
  if (bytes == 8) return sgn ? int64 : unsignedIntKind(int64);
  const IntKind order[] = {IntKind::SChar, IntKind::Short, IntKind::Int, IntKind::Long,
                           IntKind::LongLong};
  for (IntKind k : order)
    if (d.of(k).size == bytes) return sgn ? k : unsignedIntKind(k);
  return IntKind::Int;
}

// The first standard kind of at least `bytes` bytes (clang's getLeastIntTypeByWidth, used for
// the [u]int_leastN_t and [u]int_fastN_t macros; it ignores the target's int64 type).
IntKind leastOfSize(unsigned bytes, const DataModel& d) {
  const IntKind order[] = {IntKind::SChar, IntKind::Short, IntKind::Int, IntKind::Long,
                           IntKind::LongLong};
  for (IntKind k : order)
    if (d.of(k).size >= bytes) return k;
  return IntKind::LongLong;
}

struct FloatChars {
  const char *decimal_dig, *denorm_min, *dig, *epsilon, *mant_dig, *max_10_exp, *max_exp, *max,
      *min_10_exp, *min_exp, *min;
};

const FloatChars* floatChars(FloatFormat f) {
  static const FloatChars kHalf = {
      "5",     "5.9604644775390625e-8", "3", "9.765625e-4", "11", "4", "16", "6.5504e+4", "(-4)",
      "(-13)", "6.103515625e-5"};
  static const FloatChars kSingle = {"9",
                                     "1.40129846e-45",
                                     "6",
                                     "1.19209290e-7",
                                     "24",
                                     "38",
                                     "128",
                                     "3.40282347e+38",
                                     "(-37)",
                                     "(-125)",
                                     "1.17549435e-38"};
  static const FloatChars kDouble = {"17",
                                     "4.9406564584124654e-324",
                                     "15",
                                     "2.2204460492503131e-16",
                                     "53",
                                     "308",
                                     "1024",
                                     "1.7976931348623157e+308",
                                     "(-307)",
                                     "(-1021)",
                                     "2.2250738585072014e-308"};
  static const FloatChars kQuad = {"36",
                                   "6.47517511943802511092443895822764655e-4966",
                                   "33",
                                   "1.92592994438723585305597794258492732e-34",
                                   "113",
                                   "4932",
                                   "16384",
                                   "1.18973149535723176508575932662800702e+4932",
                                   "(-4931)",
                                   "(-16381)",
                                   "3.36210314311209350626267781732175260e-4932"};
  static const FloatChars kX87 = {"21",
                                  "3.64519953188247460253e-4951",
                                  "18",
                                  "1.08420217248550443401e-19",
                                  "64",
                                  "4932",
                                  "16384",
                                  "1.18973149535723176502e+4932",
                                  "(-4931)",
                                  "(-16381)",
                                  "3.36210314311209350626e-4932"};
  switch (f) {
  case FloatFormat::IEEEHalf:
    return &kHalf;
  case FloatFormat::IEEESingle:
    return &kSingle;
  case FloatFormat::IEEEDouble:
    return &kDouble;
  case FloatFormat::IEEEQuad:
    return &kQuad;
  case FloatFormat::X87:
    return &kX87;
  default:
    return nullptr;
  }
}

void defineFloat(MacroList& m, const std::string& prefix, const std::string& suffix, FloatFormat f,
                 bool norm_max) {
  const FloatChars* c = floatChars(f);
  if (!c) return;
  if (norm_max) m.def(prefix + "_NORM_MAX__", std::string(c->max) + suffix);
  m.def(prefix + "_DENORM_MIN__", std::string(c->denorm_min) + suffix);
  m.def(prefix + "_HAS_DENORM__", "1");
  m.def(prefix + "_DIG__", c->dig);
  m.def(prefix + "_DECIMAL_DIG__", c->decimal_dig);
  m.def(prefix + "_EPSILON__", std::string(c->epsilon) + suffix);
  m.def(prefix + "_HAS_INFINITY__", "1");
  m.def(prefix + "_HAS_QUIET_NAN__", "1");
  m.def(prefix + "_MANT_DIG__", c->mant_dig);
  m.def(prefix + "_MAX_10_EXP__", c->max_10_exp);
  m.def(prefix + "_MAX_EXP__", c->max_exp);
  m.def(prefix + "_MAX__", std::string(c->max) + suffix);
  m.def(prefix + "_MIN_10_EXP__", c->min_10_exp);
  m.def(prefix + "_MIN_EXP__", c->min_exp);
  m.def(prefix + "_MIN__", std::string(c->min) + suffix);
}

void defineIntTypeMacros(MacroList& m, const std::string& prefix, IntKind k, const DataModel& d,
                         bool with_width, bool with_suffix, bool c_macro = false) {
  m.def(prefix + "_TYPE__", clangTypeName(k));
  m.def(prefix + "_MAX__", maxValue(k, d));
  if (with_width) m.def(prefix + "_WIDTH__", std::to_string(d.of(k).size * 8));
  std::string mod = intFormatModifier(k);
  if (intKindSigned(k, d)) {
    m.def(prefix + "_FMTd__", "\"" + mod + "d\"");
    m.def(prefix + "_FMTi__", "\"" + mod + "i\"");
  } else {
    for (char c : {'o', 'u', 'x', 'X'}) m.def(prefix + "_FMT" + c + "__", "\"" + mod + c + "\"");
  }
  if (with_suffix) m.def(prefix + "_C_SUFFIX__", intConstantSuffix(k, d));
  if (with_suffix && c_macro) {
    std::string suffix = intConstantSuffix(k, d);
    m.def(prefix + "_C(c)", suffix.empty() ? "c" : "c##" + suffix);
  }
}

} // namespace

namespace {

// The macros of `target` compiling `lang` on its own (predefinedMacros() adds a device's host).
std::vector<std::pair<std::string, std::string>> ownMacros(const Target& target,
                                                           LanguageMode mode) {
  const Language lang = mode.lang;
  std::vector<std::pair<std::string, std::string>> out;
  MacroList m{out};
  const DataModel d = dataModelFor(target, lang);
  auto sz = [&](IntKind k) { return std::to_string(d.of(k).size); };
  auto bits = [&](IntKind k) { return std::to_string(d.of(k).size * 8); };

  const CompilerInfo& cc = compilerInfo(target.compiler);
  // Language and compiler identity (as the selected clang does). The Microsoft dialect is not
  // strict ISO C (no __STDC__) and not GNU C (no __GNUC__, __GCC_ATOMIC_*).
  const bool gnu = !d.ms_extensions;
  if (gnu) m.def("__STDC__", "1");
  m.def("__STDC_HOSTED__", "1");
  m.def("__STDC_UTF_16__", "1");
  m.def("__STDC_UTF_32__", "1");
  if (lang == Language::OpenCL) {
    m.def("__OPENCL_C_VERSION__", std::to_string(mode.opencl_version));
    m.def("CL_VERSION_1_0", "100");
    m.def("CL_VERSION_1_1", "110");
    m.def("CL_VERSION_1_2", "120");
    m.def("CL_VERSION_2_0", "200");
    m.def("CL_VERSION_3_0", "300");
    if (d.endian == Endian::Little) m.def("__ENDIAN_LITTLE__", "1");
    // OpenCL C 2.0's (opencl-c-base.h), or 3.0's where the target enables it (clang).
    if (openclGenericAddressSpace(target, mode)) m.def("__opencl_c_generic_address_space", "1");
    m.def("__kernel_exec(X, typen)", "__kernel __attribute__((work_group_size_hint(X, 1, 1))) "
                                     "__attribute__((vec_type_hint(typen)))");
  } else {
    m.def("__STDC_VERSION__", "201710L");
  }
  if (lang == Language::CUDA) m.def("__CUDA__", "1");
  if (lang == Language::HIP) {
    m.def("__HIP__", "1");
    m.def("__HIPCC__", "1");
    const char* kScopes[] = {"SINGLETHREAD", "WAVEFRONT", "WORKGROUP", "AGENT", "SYSTEM"};
    for (unsigned i = 0; i < std::size(kScopes); ++i)
      m.def(std::string("__HIP_MEMORY_SCOPE_") + kScopes[i], std::to_string(i + 1));
    if (target.offload.copies) m.def("__HIP_DEVICE_COMPILE__", "1");
  }
  if (gnu) {
    m.def("__GNUC__", "4");
    m.def("__GNUC_MINOR__", "2");
    m.def("__GNUC_PATCHLEVEL__", "1");
    m.def("__GNUC_STDC_INLINE__", "1");
    m.def("__GXX_ABI_VERSION", "1002");
  }
  m.def("__clang__", "1");
  m.def("__clang_major__", std::to_string(cc.major));
  m.def("__clang_minor__", std::to_string(cc.minor));
  m.def("__clang_patchlevel__", std::to_string(cc.patch));
  m.def("__llvm__", "1");
  m.def("__NO_INLINE__", "1");
  m.def("__FINITE_MATH_ONLY__", "0");
  m.def("__USER_LABEL_PREFIX__", "");
  m.def("__CHAR_BIT__", "8");
  m.def("__abikit__", "1");

  // Endianness and data-model names.
  m.def("__ORDER_LITTLE_ENDIAN__", "1234");
  m.def("__ORDER_BIG_ENDIAN__", "4321");
  m.def("__ORDER_PDP_ENDIAN__", "3412");
  if (d.endian == Endian::Little) {
    m.def("__BYTE_ORDER__", "__ORDER_LITTLE_ENDIAN__");
    m.def("__LITTLE_ENDIAN__", "1");
  } else {
    m.def("__BYTE_ORDER__", "__ORDER_BIG_ENDIAN__");
    m.def("__BIG_ENDIAN__", "1");
  }
  if (d.pointer.size == 8 && d.of(IntKind::Long).size == 8 && d.of(IntKind::Int).size == 4) {
    m.def("_LP64", "1");
    m.def("__LP64__", "1");
  }
  if (d.pointer.size == 4 && d.of(IntKind::Long).size == 4 && d.of(IntKind::Int).size == 4) {
    m.def("_ILP32", "1");
    m.def("__ILP32__", "1");
  }
  if (d.char_signed == false) m.def("__CHAR_UNSIGNED__", "1");
  if (!intKindSigned(d.wchar_type, d)) m.def("__WCHAR_UNSIGNED__", "1");
  if (!intKindSigned(d.wint_type, d)) m.def("__WINT_UNSIGNED__", "1");

  // Limits and widths.
  m.def("__SCHAR_MAX__", maxValue(IntKind::SChar, d));
  m.def("__SHRT_MAX__", maxValue(IntKind::Short, d));
  m.def("__INT_MAX__", maxValue(IntKind::Int, d));
  m.def("__LONG_MAX__", maxValue(IntKind::Long, d));
  m.def("__LONG_LONG_MAX__", maxValue(IntKind::LongLong, d));
  m.def("__WCHAR_MAX__", maxValue(d.wchar_type, d));
  m.def("__WINT_MAX__", maxValue(d.wint_type, d));
  m.def("__SIZE_MAX__", maxValue(d.size_type, d));
  m.def("__PTRDIFF_MAX__", maxValue(d.ptrdiff_type, d));
  m.def("__INTPTR_MAX__", maxValue(d.intptr_type, d));
  m.def("__UINTPTR_MAX__", maxValue(unsignedIntKind(d.intptr_type), d));
  m.def("__SIG_ATOMIC_MAX__", maxValue(d.sig_atomic_type, d));
  m.def("__BOOL_WIDTH__", cc.bool_width_is_value_bits ? "1" : bits(IntKind::Bool));
  m.def("__SHRT_WIDTH__", bits(IntKind::Short));
  m.def("__INT_WIDTH__", bits(IntKind::Int));
  m.def("__LONG_WIDTH__", bits(IntKind::Long));
  m.def("__LLONG_WIDTH__", bits(IntKind::LongLong));
  if (d.bitint_max_width) m.def("__BITINT_MAXWIDTH__", std::to_string(d.bitint_max_width));
  m.def("__WCHAR_WIDTH__", bits(d.wchar_type));
  m.def("__WINT_WIDTH__", bits(d.wint_type));
  m.def("__INTMAX_WIDTH__", bits(d.intmax_type));
  m.def("__SIZE_WIDTH__", bits(d.size_type));
  m.def("__UINTMAX_WIDTH__", bits(d.intmax_type));
  m.def("__PTRDIFF_WIDTH__", bits(d.ptrdiff_type));
  m.def("__INTPTR_WIDTH__", bits(d.intptr_type));
  m.def("__UINTPTR_WIDTH__", bits(d.intptr_type));
  m.def("__SIG_ATOMIC_WIDTH__", bits(d.sig_atomic_type));
  m.def("__POINTER_WIDTH__", std::to_string(d.pointer.size * 8));
  m.def("__BIGGEST_ALIGNMENT__", std::to_string(d.biggest_alignment));

  // sizeof macros.
  m.def("__SIZEOF_INT__", sz(IntKind::Int));
  m.def("__SIZEOF_LONG__", sz(IntKind::Long));
  m.def("__SIZEOF_LONG_LONG__", sz(IntKind::LongLong));
  m.def("__SIZEOF_SHORT__", sz(IntKind::Short));
  m.def("__SIZEOF_FLOAT__", std::to_string(d.of(FloatKind::Float).size));
  m.def("__SIZEOF_DOUBLE__", std::to_string(d.of(FloatKind::Double).size));
  m.def("__SIZEOF_LONG_DOUBLE__", std::to_string(d.of(FloatKind::LongDouble).size));
  m.def("__SIZEOF_POINTER__", std::to_string(d.pointer.size));
  m.def("__SIZEOF_SIZE_T__", sz(d.size_type));
  m.def("__SIZEOF_WCHAR_T__", sz(d.wchar_type));
  m.def("__SIZEOF_WINT_T__", sz(d.wint_type));
  m.def("__SIZEOF_PTRDIFF_T__", sz(d.ptrdiff_type));
  if (target.data.of(IntKind::Int128).supported()) m.def("__SIZEOF_INT128__", sz(IntKind::Int128));

  // Type macros.
  defineIntTypeMacros(m, "__INTMAX", d.intmax_type, d, false, true, cc.int_c_macros);
  defineIntTypeMacros(m, "__UINTMAX", unsignedIntKind(d.intmax_type), d, false, true,
                      cc.int_c_macros);
  m.def("__PTRDIFF_TYPE__", clangTypeName(d.ptrdiff_type));
  m.def("__PTRDIFF_FMTd__", std::string("\"") + intFormatModifier(d.ptrdiff_type) + "d\"");
  m.def("__PTRDIFF_FMTi__", std::string("\"") + intFormatModifier(d.ptrdiff_type) + "i\"");
  m.def("__INTPTR_TYPE__", clangTypeName(d.intptr_type));
  m.def("__INTPTR_FMTd__", std::string("\"") + intFormatModifier(d.intptr_type) + "d\"");
  m.def("__INTPTR_FMTi__", std::string("\"") + intFormatModifier(d.intptr_type) + "i\"");
  m.def("__SIZE_TYPE__", clangTypeName(d.size_type));
  for (char c : {'o', 'u', 'x', 'X'})
    m.def(std::string("__SIZE_FMT") + c + "__",
          std::string("\"") + intFormatModifier(d.size_type) + c + "\"");
  m.def("__WCHAR_TYPE__", clangTypeName(d.wchar_type));
  m.def("__WINT_TYPE__", clangTypeName(d.wint_type));
  m.def("__CHAR16_TYPE__", clangTypeName(d.char16_type));
  m.def("__CHAR32_TYPE__", clangTypeName(d.char32_type));
  m.def("__UINTPTR_TYPE__", clangTypeName(unsignedIntKind(d.intptr_type)));
  for (char c : {'o', 'u', 'x', 'X'})
    m.def(std::string("__UINTPTR_FMT") + c + "__",
          std::string("\"") + intFormatModifier(d.intptr_type) + c + "\"");

  for (unsigned n : {8u, 16u, 32u, 64u}) {
    std::string ns = std::to_string(n);
    IntKind s = intOfSize(n / 8, true, d, d.int64_type);
    IntKind u = unsignedIntKind(s);
    defineIntTypeMacros(m, "__INT" + ns, s, d, false, true, cc.int_c_macros);
    defineIntTypeMacros(m, "__UINT" + ns, u, d, false, true, cc.int_c_macros);
    IntKind ls = leastOfSize(n / 8, d);
    IntKind lu = unsignedIntKind(ls);
    defineIntTypeMacros(m, "__INT_LEAST" + ns, ls, d, true, false);
    defineIntTypeMacros(m, "__UINT_LEAST" + ns, lu, d, false, false);
    defineIntTypeMacros(m, "__INT_FAST" + ns, ls, d, true, false);
    defineIntTypeMacros(m, "__UINT_FAST" + ns, lu, d, false, false);
  }

  // Floating point.
  if (cc.flt_eval_method_macro) m.def("__FLT_EVAL_METHOD__", std::to_string(d.flt_eval_method));
  m.def("__FLT_RADIX__", "2");
  m.def("__DECIMAL_DIG__", "__LDBL_DECIMAL_DIG__");
  const bool nm = cc.norm_max_macros;
  // The target's own types (target.data): CUDA declaring _Float16 and __int128 for host code
  // (kOffloadFloat16, kOffloadInt128) does not make the device have them.
  if (target.data.of(FloatKind::Float16).supported())
    defineFloat(m, "__FLT16", "F16", FloatFormat::IEEEHalf, nm);
  defineFloat(m, "__FLT", "F", d.float_formats[size_t(FloatKind::Float)], nm);
  defineFloat(m, "__DBL", "", d.float_formats[size_t(FloatKind::Double)], nm);
  defineFloat(m, "__LDBL", "L", d.float_formats[size_t(FloatKind::LongDouble)], nm);
  if (cc.fpclass_macros) {
    const char* kClasses[] = {"SNAN",    "QNAN",    "NEGINF",       "NEGNORMAL", "NEGSUBNORMAL",
                              "NEGZERO", "POSZERO", "POSSUBNORMAL", "POSNORMAL", "POSINF"};
    for (unsigned i = 0; i < std::size(kClasses); ++i) {
      char hex[8];
      std::snprintf(hex, sizeof hex, "0x%04x", 1u << i);
      m.def(std::string("__FPCLASS_") + kClasses[i], hex);
    }
  }
  if (cc.embed_macros) {
    m.def("__STDC_EMBED_NOT_FOUND__", "0");
    m.def("__STDC_EMBED_FOUND__", "1");
    m.def("__STDC_EMBED_EMPTY__", "2");
  }
  if (cc.interference_size) {
    m.def("__GCC_CONSTRUCTIVE_SIZE", std::to_string(cc.interference_size));
    m.def("__GCC_DESTRUCTIVE_SIZE", std::to_string(cc.interference_size));
  }

  // Atomics.
  m.def("__ATOMIC_RELAXED", "0");
  m.def("__ATOMIC_CONSUME", "1");
  m.def("__ATOMIC_ACQUIRE", "2");
  m.def("__ATOMIC_RELEASE", "3");
  m.def("__ATOMIC_ACQ_REL", "4");
  m.def("__ATOMIC_SEQ_CST", "5");
  const char* kScopes[] = {"SYSTEM", "DEVICE", "WRKGRP", "WVFRNT", "SINGLE", "CLUSTR"};
  for (unsigned i = 0; i < cc.memory_scopes && i < std::size(kScopes); ++i)
    m.def(std::string("__MEMORY_SCOPE_") + kScopes[i], std::to_string(i));
  m.def("__OPENCL_MEMORY_SCOPE_WORK_ITEM", "0");
  m.def("__OPENCL_MEMORY_SCOPE_WORK_GROUP", "1");
  m.def("__OPENCL_MEMORY_SCOPE_DEVICE", "2");
  m.def("__OPENCL_MEMORY_SCOPE_ALL_SVM_DEVICES", "3");
  m.def("__OPENCL_MEMORY_SCOPE_SUB_GROUP", "4");
  auto lockFree = [&](SizeAlign sa) {
    const bool natural = !cc.lock_free_needs_natural_align || sa.align == sa.size;
    return std::string(sa.size * 8u <= d.max_atomic_inline_bits && natural ? "2" : "1");
  };
  const std::pair<const char*, SizeAlign> kAtomics[] = {
      {"BOOL", d.of(IntKind::Bool)},      {"CHAR", d.of(IntKind::Char)},
      {"CHAR16_T", d.of(d.char16_type)},  {"CHAR32_T", d.of(d.char32_type)},
      {"WCHAR_T", d.of(d.wchar_type)},    {"SHORT", d.of(IntKind::Short)},
      {"INT", d.of(IntKind::Int)},        {"LONG", d.of(IntKind::Long)},
      {"LLONG", d.of(IntKind::LongLong)}, {"POINTER", d.pointer},
  };
  for (const auto& [name, sa] : kAtomics) {
    m.def(std::string("__CLANG_ATOMIC_") + name + "_LOCK_FREE", lockFree(sa));
    if (gnu) m.def(std::string("__GCC_ATOMIC_") + name + "_LOCK_FREE", lockFree(sa));
  }
  if (gnu) m.def("__GCC_ATOMIC_TEST_AND_SET_TRUEVAL", "1");
  if (d.has_sync_cas)
    for (unsigned n : {1u, 2u, 4u, 8u, 16u})
      if (n * 8 <= d.max_atomic_inline_bits && n <= d.sync_cas_max_bytes)
        m.def("__GCC_HAVE_SYNC_COMPARE_AND_SWAP_" + std::to_string(n), "1");

  // The family's own macros last (they may refine the ones above).
  auto refine = [&](const std::string& name, const std::string& value) {
    auto it = std::find_if(out.begin(), out.end(), [&](auto& p) { return p.first == name; });
    if (it != out.end())
      it->second = value;
    else
      out.emplace_back(name, value);
  };
  // clang-14 compiles CUDA and HIP as strict ISO C++ (but under the Microsoft dialect): the
  // plain spellings of clang's DefineStd names (`linux` beside `__linux__`, `unix`, `i386`) are
  // missing.
  const bool strict = isCxx(lang) && gnu && cc.offload_strict_ansi;
  if (strict) m.def("__STRICT_ANSI__", "1");
  auto gnuOnly = [&](const std::string& name) {
    return name[0] != '_' && std::any_of(target.macros.begin(), target.macros.end(), [&](auto& o) {
             return o.first.size() == name.size() + 4 && o.first.starts_with("__") &&
                    o.first.ends_with("__") && o.first.compare(2, name.size(), name) == 0;
           });
  };
  for (const auto& [name, value] : target.macros)
    if (!strict || !gnuOnly(name)) refine(name, value);
  for (const LanguageMacro& lm : target.language_macros)
    if (lm.lang == lang) refine(lm.name, lm.value);
  // In the order made (deterministic; not sorted: every CLI run defines these, and sorting
  // them cost a third of the instructions of a run on a small header).
  return out;
}

} // namespace

std::vector<std::pair<std::string, std::string>> predefinedMacros(const Target& target,
                                                                  LanguageMode mode) {
  const Language lang = mode.lang;
  std::vector<std::pair<std::string, std::string>> own = ownMacros(target, mode);
  if (!isCxx(lang) || !target.offload.host) return own;
  // A CUDA/HIP device compilation predefines its host's macros, then its own over them (clang's
  // InitializePreprocessor with an aux target).
  std::vector<std::pair<std::string, std::string>> out;
  std::map<std::string, size_t, std::less<>> at;
  // The host's driver-option macros are not the device compilation's (HostDriverMacro).
  std::span<const HostDriverMacro> driver = target.offload.host->host().driver_macros;
  for (auto& macro : ownMacros(*target.offload.host, mode)) {
    auto d = std::find_if(driver.begin(), driver.end(),
                          [&](const HostDriverMacro& m) { return m.name == macro.first; });
    if (d != driver.end() && d->device_name.empty()) continue;
    std::string key = d != driver.end() ? std::string(d->device_name) : macro.first;
    at.emplace(key, out.size());
    out.emplace_back(std::move(key), std::move(macro.second));
  }
  for (auto& [name, value] : own) {
    auto it = at.find(name);
    if (it != at.end())
      out[it->second].second = std::move(value);
    else
      out.emplace_back(std::move(name), std::move(value));
  }
  return out;
}

} // namespace abikit
