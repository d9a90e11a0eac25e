// The built-in headers of the C declaration front-end, generated from the context's data model
// the way clang's own headers derive them from its target description: <stdint.h>,
// <stddef.h>, <stdbool.h>, <stdalign.h>, <stdarg.h>, <limits.h>, <float.h>, <uchar.h>,
// <inttypes.h>, <assert.h>, <iso646.h>, <stdnoreturn.h>, <stdatomic.h>, and each header the
// target provides.
// Also the per-language prelude (built-in typedefs, OpenCL vector names, CUDA/HIP macros).
#include "preprocessor.h"

#include <string>

namespace abikit::detail {

namespace {

std::string decimal(unsigned __int128 v) {
  std::string s;
  do {
    s.insert(s.begin(), char('0' + int(v % 10)));
    v /= 10;
  } while (v);
  return s;
}

std::string maxOf(IntKind k, const DataModel& d) {
  unsigned bits = d.of(k).size * 8u;
  unsigned __int128 v = bits >= 128 ? ~(unsigned __int128)0 : (((unsigned __int128)1 << bits) - 1);
  if (intKindSigned(k, d)) v >>= 1;
  return decimal(v) + intConstantSuffix(k, d);
}

// (-MAX-1) for signed kinds.
std::string minOf(IntKind k, const DataModel& d) {
  return "(-" + maxOf(k, d) + "-1)";
}

// The signed kind clang picks for an exact width (char, short, int, long, long long order;
// 64 bits follows int64_type).
IntKind signedOfBits(unsigned bits, const DataModel& d) {
  if (bits == 64) return d.int64_type;
  if (bits == 8) return IntKind::SChar;
  const IntKind order[] = {IntKind::Short, IntKind::Int, IntKind::Long, IntKind::LongLong};
  for (IntKind k : order)
    if (d.of(k).size * 8u == bits) return k;
  return IntKind::Int;
}

// __alignof__ (GCC's preferred alignment): double, long long and unsigned long long are
// naturally aligned even where their ABI alignment is smaller (clang getPreferredTypeAlign).
unsigned preferredAlign(SizeAlign sa, bool natural_if_larger) {
  if (natural_if_larger && sa.size > sa.align) return sa.size;
  return sa.align;
}

void addLine(std::string& out, const std::string& a, const std::string& b) {
  out += "#define ";
  out += a;
  out += ' ';
  out += b;
  out += '\n';
}

std::string stdintHeader(const DataModel& d) {
  std::string o = "#ifndef __ABIKIT_STDINT_H\n#define __ABIKIT_STDINT_H\n";
  for (unsigned bits : {8u, 16u, 32u, 64u}) {
    IntKind s = signedOfBits(bits, d);
    IntKind u = unsignedIntKind(s);
    if (d.of(s).size * 8u != bits) continue;
    std::string n = std::to_string(bits);
    o += "typedef " + std::string(intKindName(s)) + " int" + n + "_t;\n";
    o += "typedef " + std::string(intKindName(u)) + " uint" + n + "_t;\n";
    o += "typedef int" + n + "_t int_least" + n + "_t;\n";
    o += "typedef uint" + n + "_t uint_least" + n + "_t;\n";
    o += "typedef int" + n + "_t int_fast" + n + "_t;\n";
    o += "typedef uint" + n + "_t uint_fast" + n + "_t;\n";
    addLine(o, "INT" + n + "_MAX", maxOf(s, d));
    addLine(o, "INT" + n + "_MIN", minOf(s, d));
    addLine(o, "UINT" + n + "_MAX", maxOf(u, d));
    for (const char* p : {"INT_LEAST", "INT_FAST"}) {
      addLine(o, std::string(p) + n + "_MAX", "INT" + n + "_MAX");
      addLine(o, std::string(p) + n + "_MIN", "INT" + n + "_MIN");
      addLine(o, "U" + std::string(p) + n + "_MAX", "UINT" + n + "_MAX");
    }
    std::string ss = intConstantSuffix(s, d), us = intConstantSuffix(u, d);
    addLine(o, "INT" + n + "_C(v)", ss.empty() ? "v" : "v##" + ss);
    addLine(o, "UINT" + n + "_C(v)", us.empty() ? "v" : "v##" + us);
  }
  IntKind ip = d.intptr_type, up = unsignedIntKind(d.intptr_type);
  o += "typedef " + std::string(intKindName(ip)) + " intptr_t;\n";
  o += "typedef " + std::string(intKindName(up)) + " uintptr_t;\n";
  addLine(o, "INTPTR_MAX", maxOf(ip, d));
  addLine(o, "INTPTR_MIN", minOf(ip, d));
  addLine(o, "UINTPTR_MAX", maxOf(up, d));
  IntKind im = d.intmax_type, um = unsignedIntKind(d.intmax_type);
  o += "typedef " + std::string(intKindName(im)) + " intmax_t;\n";
  o += "typedef " + std::string(intKindName(um)) + " uintmax_t;\n";
  addLine(o, "INTMAX_MAX", maxOf(im, d));
  addLine(o, "INTMAX_MIN", minOf(im, d));
  addLine(o, "UINTMAX_MAX", maxOf(um, d));
  std::string is = intConstantSuffix(im, d), us = intConstantSuffix(um, d);
  addLine(o, "INTMAX_C(v)", is.empty() ? "v" : "v##" + is);
  addLine(o, "UINTMAX_C(v)", us.empty() ? "v" : "v##" + us);
  addLine(o, "PTRDIFF_MAX", maxOf(d.ptrdiff_type, d));
  addLine(o, "PTRDIFF_MIN", minOf(d.ptrdiff_type, d));
  addLine(o, "SIZE_MAX", maxOf(d.size_type, d));
  addLine(o, "SIG_ATOMIC_MAX", maxOf(d.sig_atomic_type, d));
  addLine(o, "SIG_ATOMIC_MIN", minOf(d.sig_atomic_type, d));
  if (intKindSigned(d.wchar_type, d)) {
    addLine(o, "WCHAR_MAX", maxOf(d.wchar_type, d));
    addLine(o, "WCHAR_MIN", minOf(d.wchar_type, d));
  } else {
    addLine(o, "WCHAR_MAX", maxOf(d.wchar_type, d));
    addLine(o, "WCHAR_MIN", std::string("0") + intConstantSuffix(d.wchar_type, d));
  }
  if (intKindSigned(d.wint_type, d)) {
    addLine(o, "WINT_MAX", maxOf(d.wint_type, d));
    addLine(o, "WINT_MIN", minOf(d.wint_type, d));
  } else {
    addLine(o, "WINT_MAX", maxOf(d.wint_type, d));
    addLine(o, "WINT_MIN", std::string("0") + intConstantSuffix(d.wint_type, d));
  }
  o += "#endif\n";
  return o;
}

std::string stddefHeader(const DataModel& d, Language lang) {
  // clang's protocol, which C libraries rely on: a header that defines __need_size_t,
  // __need_ptrdiff_t, __need_wchar_t, __need_NULL or __need_wint_t before including <stddef.h>
  // gets only those (and may include it again for more); without any, everything except wint_t
  // (only on request), once. The guards are clang's (_SIZE_T, ...): C libraries test them.
  std::string o =
      "#if !defined(__STDDEF_H) || defined(__need_ptrdiff_t) || defined(__need_size_t) || "
      "defined(__need_wchar_t) || defined(__need_NULL) || defined(__need_wint_t)\n"
      "#if !defined(__need_ptrdiff_t) && !defined(__need_size_t) && !defined(__need_wchar_t) && "
      "!defined(__need_NULL) && !defined(__need_wint_t)\n"
      "#define __STDDEF_H\n#define __need_ptrdiff_t\n#define __need_size_t\n"
      "#define __need_wchar_t\n#define __need_NULL\n#define __need_STDDEF_H_misc\n#endif\n";
  auto item = [&](const char* need, const char* guard, const std::string& decl) {
    o += std::string("#ifdef ") + need + "\n";
    if (!decl.empty())
      o += std::string("#ifndef ") + guard + "\n#define " + guard + "\n" + decl + "#endif\n";
    o += std::string("#undef ") + need + "\n#endif\n";
  };
  // OpenCL has size_t and ptrdiff_t built in (see the prelude).
  bool cl = lang == Language::OpenCL;
  item("__need_ptrdiff_t", "_PTRDIFF_T",
       cl ? "" : "typedef " + std::string(intKindName(d.ptrdiff_type)) + " ptrdiff_t;\n");
  item("__need_size_t", "_SIZE_T",
       cl ? "" : "typedef " + std::string(intKindName(d.size_type)) + " size_t;\n");
  // rsize_t (C11 Annex K) only when asked for.
  o += "#if defined(__need_STDDEF_H_misc) && defined(__STDC_WANT_LIB_EXT1__) && "
       "__STDC_WANT_LIB_EXT1__ >= 1 && !defined(_RSIZE_T)\n#define _RSIZE_T\ntypedef " +
       std::string(intKindName(d.size_type)) + " rsize_t;\n#endif\n";
  // C++ (CUDA/HIP) has wchar_t built in.
  const bool cxx = isCxx(lang);
  item("__need_wchar_t", "_WCHAR_T",
       cl || cxx ? "" : "typedef " + std::string(intKindName(d.wchar_type)) + " wchar_t;\n");
  o += "#ifdef __need_NULL\n#undef NULL\n#define NULL ((void*)0)\n#undef __need_NULL\n#endif\n";
  o += "#ifdef __need_STDDEF_H_misc\n#ifndef __CLANG_MAX_ALIGN_T_DEFINED\n"
       "#define __CLANG_MAX_ALIGN_T_DEFINED\n";
  // clang's definition: the members carry __alignof__ (the preferred alignment).
  unsigned ll = preferredAlign(d.of(IntKind::LongLong), true);
  unsigned ld = d.of(FloatKind::LongDouble).align;
  // clang's <stddef.h> under _MSC_VER (the Microsoft dialect) makes it double.
  o += "#if defined(_MSC_VER)\ntypedef double max_align_t;\n#else\n";
  o += "typedef struct {\n  long long __clang_max_align_nonce1 __attribute__((__aligned__(" +
       std::to_string(ll) + ")));\n";
  if (d.of(FloatKind::LongDouble).supported())
    o += "  long double __clang_max_align_nonce2 __attribute__((__aligned__(" + std::to_string(ld) +
         ")));\n";
  o += "} max_align_t;\n#endif\n#endif\n";
  o += "#define offsetof(t, d) __builtin_offsetof(t, d)\n#undef __need_STDDEF_H_misc\n#endif\n";
  item("__need_wint_t", "_WINT_T",
       "typedef " + std::string(intKindName(d.wint_type)) + " wint_t;\n");
  o += "#endif\n";
  return o;
}

std::string limitsHeader(const DataModel& d) {
  // As clang's: a C library's <limits.h> that includes this one with #include_next may have
  // defined some of these already; the values here replace them, MB_LEN_MAX excepted.
  std::string o = "#ifndef __ABIKIT_LIMITS_H\n#define __ABIKIT_LIMITS_H\n";
  o += "#ifndef MB_LEN_MAX\n#define MB_LEN_MAX 1\n#endif\n";
  auto def = [&o](const std::string& a, const std::string& b) {
    o += "#undef " + a + "\n";
    addLine(o, a, b);
  };
  def("CHAR_BIT", "8");
  struct Limit {
    const char* name;          // of the signed type's limits
    const char* unsigned_name; // of the unsigned type's maximum
    IntKind kind;
  };
  for (const Limit& l :
       {Limit{"SCHAR", "UCHAR", IntKind::SChar}, Limit{"SHRT", "USHRT", IntKind::Short},
        Limit{"INT", "UINT", IntKind::Int}, Limit{"LONG", "ULONG", IntKind::Long},
        Limit{"LLONG", "ULLONG", IntKind::LongLong}}) {
    def(std::string(l.name) + "_MAX", maxOf(l.kind, d));
    def(std::string(l.name) + "_MIN", minOf(l.kind, d));
    def(std::string(l.unsigned_name) + "_MAX", maxOf(unsignedIntKind(l.kind), d));
  }
  def("CHAR_MAX", d.char_signed ? "SCHAR_MAX" : "UCHAR_MAX");
  def("CHAR_MIN", d.char_signed ? "SCHAR_MIN" : "0");
  def("LONG_LONG_MAX", "LLONG_MAX");
  def("LONG_LONG_MIN", "LLONG_MIN");
  def("ULONG_LONG_MAX", "ULLONG_MAX");
  o += "#endif\n";
  return o;
}

std::string floatHeader() {
  // In terms of the predefined __FLT_*__/__DBL_*__/__LDBL_*__ macros, as clang's <float.h>.
  std::string o = "#ifndef __ABIKIT_FLOAT_H\n#define __ABIKIT_FLOAT_H\n";
  addLine(o, "FLT_RADIX", "__FLT_RADIX__");
  addLine(o, "FLT_EVAL_METHOD", "__FLT_EVAL_METHOD__");
  addLine(o, "DECIMAL_DIG", "__DECIMAL_DIG__");
  const char* kinds[][2] = {{"FLT", "__FLT"}, {"DBL", "__DBL"}, {"LDBL", "__LDBL"}};
  const char* items[][2] = {
      {"_MANT_DIG", "_MANT_DIG__"},
      {"_DIG", "_DIG__"},
      {"_DECIMAL_DIG", "_DECIMAL_DIG__"},
      {"_EPSILON", "_EPSILON__"},
      {"_MAX", "_MAX__"},
      {"_MIN", "_MIN__"},
      {"_TRUE_MIN", "_DENORM_MIN__"},
      {"_MAX_EXP", "_MAX_EXP__"},
      {"_MIN_EXP", "_MIN_EXP__"},
      {"_MAX_10_EXP", "_MAX_10_EXP__"},
      {"_MIN_10_EXP", "_MIN_10_EXP__"},
      {"_HAS_SUBNORM", "_HAS_DENORM__"},
  };
  for (auto& k : kinds)
    for (auto& it : items) addLine(o, std::string(k[0]) + it[0], std::string(k[1]) + it[1]);
  o += "#endif\n";
  return o;
}

std::string inttypesHeader(const DataModel& d) {
  std::string o = "#ifndef __ABIKIT_INTTYPES_H\n#define __ABIKIT_INTTYPES_H\n#include "
                  "<stdint.h>\n";

  auto fmt = [&](const std::string& name, IntKind k) {
    for (char c : {'d', 'i'})
      addLine(o, "PRI" + std::string(1, c) + name,
              std::string("\"") + intFormatModifier(k) + c + "\"");
    for (char c : {'o', 'u', 'x', 'X'})
      addLine(o, "PRI" + std::string(1, c) + name,
              std::string("\"") + intFormatModifier(k) + c + "\"");
    for (char c : {'d', 'i', 'o', 'u', 'x'})
      addLine(o, "SCN" + std::string(1, c) + name,
              std::string("\"") + intFormatModifier(k) + c + "\"");
  };
  for (unsigned bits : {8u, 16u, 32u, 64u}) {
    IntKind s = signedOfBits(bits, d);
    std::string n = std::to_string(bits);
    fmt(n, s);
    fmt("LEAST" + n, s);
    fmt("FAST" + n, s);
  }
  fmt("MAX", d.intmax_type);
  fmt("PTR", d.intptr_type);
  o += "typedef struct { intmax_t quot; intmax_t rem; } imaxdiv_t;\n";
  o += "#endif\n";
  return o;
}

// clang's <stdatomic.h>: the atomic typedefs, memory_order, atomic_flag, and the macros that
// name clang's __c11_atomic builtins (abikit reads no function body, so they are never used).
// clang's #ifdef __cplusplus branches are taken here by the language (`bool`, extern "C").
std::string stdatomicHeader(bool cxx) {
  std::string o = "#ifndef __CLANG_STDATOMIC_H\n#define __CLANG_STDATOMIC_H\n#include "
                  "<stddef.h>\n#include <stdint.h>\n";
  if (cxx) o += "extern \"C\" {\n";
  const char* b = cxx ? "bool" : "_Bool";
  o += R"(#define ATOMIC_BOOL_LOCK_FREE __CLANG_ATOMIC_BOOL_LOCK_FREE
#define ATOMIC_CHAR_LOCK_FREE __CLANG_ATOMIC_CHAR_LOCK_FREE
#define ATOMIC_CHAR16_T_LOCK_FREE __CLANG_ATOMIC_CHAR16_T_LOCK_FREE
#define ATOMIC_CHAR32_T_LOCK_FREE __CLANG_ATOMIC_CHAR32_T_LOCK_FREE
#define ATOMIC_WCHAR_T_LOCK_FREE __CLANG_ATOMIC_WCHAR_T_LOCK_FREE
#define ATOMIC_SHORT_LOCK_FREE __CLANG_ATOMIC_SHORT_LOCK_FREE
#define ATOMIC_INT_LOCK_FREE __CLANG_ATOMIC_INT_LOCK_FREE
#define ATOMIC_LONG_LOCK_FREE __CLANG_ATOMIC_LONG_LOCK_FREE
#define ATOMIC_LLONG_LOCK_FREE __CLANG_ATOMIC_LLONG_LOCK_FREE
#define ATOMIC_POINTER_LOCK_FREE __CLANG_ATOMIC_POINTER_LOCK_FREE
#define ATOMIC_VAR_INIT(value) (value)
#define atomic_init __c11_atomic_init
typedef enum memory_order {
  memory_order_relaxed = __ATOMIC_RELAXED,
  memory_order_consume = __ATOMIC_CONSUME,
  memory_order_acquire = __ATOMIC_ACQUIRE,
  memory_order_release = __ATOMIC_RELEASE,
  memory_order_acq_rel = __ATOMIC_ACQ_REL,
  memory_order_seq_cst = __ATOMIC_SEQ_CST
} memory_order;
#define kill_dependency(y) (y)
void atomic_thread_fence(memory_order);
void atomic_signal_fence(memory_order);
#define atomic_thread_fence(order) __c11_atomic_thread_fence(order)
#define atomic_signal_fence(order) __c11_atomic_signal_fence(order)
#define atomic_is_lock_free(obj) __c11_atomic_is_lock_free(sizeof(*(obj)))
)";
  o += "typedef _Atomic(" + std::string(b) + ") atomic_bool;\n";
  o += R"(typedef _Atomic(char) atomic_char;
typedef _Atomic(signed char) atomic_schar;
typedef _Atomic(unsigned char) atomic_uchar;
typedef _Atomic(short) atomic_short;
typedef _Atomic(unsigned short) atomic_ushort;
typedef _Atomic(int) atomic_int;
typedef _Atomic(unsigned int) atomic_uint;
typedef _Atomic(long) atomic_long;
typedef _Atomic(unsigned long) atomic_ulong;
typedef _Atomic(long long) atomic_llong;
typedef _Atomic(unsigned long long) atomic_ullong;
typedef _Atomic(uint_least16_t) atomic_char16_t;
typedef _Atomic(uint_least32_t) atomic_char32_t;
typedef _Atomic(wchar_t) atomic_wchar_t;
typedef _Atomic(int_least8_t) atomic_int_least8_t;
typedef _Atomic(uint_least8_t) atomic_uint_least8_t;
typedef _Atomic(int_least16_t) atomic_int_least16_t;
typedef _Atomic(uint_least16_t) atomic_uint_least16_t;
typedef _Atomic(int_least32_t) atomic_int_least32_t;
typedef _Atomic(uint_least32_t) atomic_uint_least32_t;
typedef _Atomic(int_least64_t) atomic_int_least64_t;
typedef _Atomic(uint_least64_t) atomic_uint_least64_t;
typedef _Atomic(int_fast8_t) atomic_int_fast8_t;
typedef _Atomic(uint_fast8_t) atomic_uint_fast8_t;
typedef _Atomic(int_fast16_t) atomic_int_fast16_t;
typedef _Atomic(uint_fast16_t) atomic_uint_fast16_t;
typedef _Atomic(int_fast32_t) atomic_int_fast32_t;
typedef _Atomic(uint_fast32_t) atomic_uint_fast32_t;
typedef _Atomic(int_fast64_t) atomic_int_fast64_t;
typedef _Atomic(uint_fast64_t) atomic_uint_fast64_t;
typedef _Atomic(intptr_t) atomic_intptr_t;
typedef _Atomic(uintptr_t) atomic_uintptr_t;
typedef _Atomic(size_t) atomic_size_t;
typedef _Atomic(ptrdiff_t) atomic_ptrdiff_t;
typedef _Atomic(intmax_t) atomic_intmax_t;
typedef _Atomic(uintmax_t) atomic_uintmax_t;
#define atomic_store(object, desired) __c11_atomic_store(object, desired, __ATOMIC_SEQ_CST)
#define atomic_store_explicit __c11_atomic_store
#define atomic_load(object) __c11_atomic_load(object, __ATOMIC_SEQ_CST)
#define atomic_load_explicit __c11_atomic_load
#define atomic_exchange(object, desired) __c11_atomic_exchange(object, desired, __ATOMIC_SEQ_CST)
#define atomic_exchange_explicit __c11_atomic_exchange
#define atomic_compare_exchange_strong(object, expected, desired) __c11_atomic_compare_exchange_strong(object, expected, desired, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST)
#define atomic_compare_exchange_strong_explicit __c11_atomic_compare_exchange_strong
#define atomic_compare_exchange_weak(object, expected, desired) __c11_atomic_compare_exchange_weak(object, expected, desired, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST)
#define atomic_compare_exchange_weak_explicit __c11_atomic_compare_exchange_weak
#define atomic_fetch_add(object, operand) __c11_atomic_fetch_add(object, operand, __ATOMIC_SEQ_CST)
#define atomic_fetch_add_explicit __c11_atomic_fetch_add
#define atomic_fetch_sub(object, operand) __c11_atomic_fetch_sub(object, operand, __ATOMIC_SEQ_CST)
#define atomic_fetch_sub_explicit __c11_atomic_fetch_sub
#define atomic_fetch_or(object, operand) __c11_atomic_fetch_or(object, operand, __ATOMIC_SEQ_CST)
#define atomic_fetch_or_explicit __c11_atomic_fetch_or
#define atomic_fetch_xor(object, operand) __c11_atomic_fetch_xor(object, operand, __ATOMIC_SEQ_CST)
#define atomic_fetch_xor_explicit __c11_atomic_fetch_xor
#define atomic_fetch_and(object, operand) __c11_atomic_fetch_and(object, operand, __ATOMIC_SEQ_CST)
#define atomic_fetch_and_explicit __c11_atomic_fetch_and
typedef struct atomic_flag { atomic_bool _Value; } atomic_flag;
)";
  o += cxx ? "#define ATOMIC_FLAG_INIT {false}\n" : "#define ATOMIC_FLAG_INIT { 0 }\n";
  o += std::string(b) + " atomic_flag_test_and_set(volatile atomic_flag *);\n";
  o += std::string(b) +
       " atomic_flag_test_and_set_explicit(volatile atomic_flag *, memory_order);\n";
  o += R"(void atomic_flag_clear(volatile atomic_flag *);
void atomic_flag_clear_explicit(volatile atomic_flag *, memory_order);
#define atomic_flag_test_and_set(object) __c11_atomic_exchange(&(object)->_Value, 1, __ATOMIC_SEQ_CST)
#define atomic_flag_test_and_set_explicit(object, order) __c11_atomic_exchange(&(object)->_Value, 1, order)
#define atomic_flag_clear(object) __c11_atomic_store(&(object)->_Value, 0, __ATOMIC_SEQ_CST)
#define atomic_flag_clear_explicit(object, order) __c11_atomic_store(&(object)->_Value, 0, order)
)";
  if (cxx) o += "}\n";
  o += "#endif\n";
  return o;
}

} // namespace

bool builtinHeaderText(const TypeContext& ctx, std::string_view name, std::string& out) {
  const DataModel& d = ctx.data();
  if (name == "stdint.h") {
    out = stdintHeader(d);
  } else if (name == "stddef.h") {
    out = stddefHeader(d, ctx.language());
  } else if (name == "stdbool.h") {
    out = "#ifndef __ABIKIT_STDBOOL_H\n#define __ABIKIT_STDBOOL_H\n#define bool _Bool\n#define "
          "true 1\n#define false 0\n#define __bool_true_false_are_defined 1\n#endif\n";
  } else if (name == "stdalign.h") {
    out = "#ifndef __ABIKIT_STDALIGN_H\n#define __ABIKIT_STDALIGN_H\n#define alignas "
          "_Alignas\n#define alignof _Alignof\n#define __alignas_is_defined 1\n#define "
          "__alignof_is_defined 1\n#endif\n";
  } else if (name == "stdarg.h") {
    // clang's guards: C libraries test _VA_LIST and __GNUC_VA_LIST.
    out = "#ifndef __STDARG_H\n#define __STDARG_H\n"
          "#ifndef _VA_LIST\ntypedef __builtin_va_list va_list;\n#define _VA_LIST\n#endif\n"
          "#define va_start(ap, param) __builtin_va_start(ap, param)\n"
          "#define va_end(ap) __builtin_va_end(ap)\n"
          "#define va_arg(ap, type) __builtin_va_arg(ap, type)\n"
          "#define __va_copy(d, s) __builtin_va_copy(d, s)\n"
          "#define va_copy(dest, src) __builtin_va_copy(dest, src)\n"
          "#ifndef __GNUC_VA_LIST\n#define __GNUC_VA_LIST 1\n"
          "typedef __builtin_va_list __gnuc_va_list;\n#endif\n"
          "#endif\n";
  } else if (name == "limits.h") {
    out = limitsHeader(d);
  } else if (name == "float.h") {
    out = floatHeader();
  } else if (name == "uchar.h") {
    // C++ (CUDA/HIP) has char16_t and char32_t built in.
    const bool cxx = isCxx(ctx.language());
    out = "#ifndef __ABIKIT_UCHAR_H\n#define __ABIKIT_UCHAR_H\n";
    if (!cxx)
      out += "typedef " + std::string(intKindName(d.char16_type)) + " char16_t;\ntypedef " +
             std::string(intKindName(d.char32_type)) + " char32_t;\n";
    out += "#endif\n";
  } else if (name == "inttypes.h") {
    out = inttypesHeader(d);
  } else if (name == "assert.h") {
    out = "#undef assert\n#define assert(e) ((void)0)\n#ifndef static_assert\n#define "
          "static_assert _Static_assert\n#endif\n";
  } else if (name == "iso646.h") {
    out = "#ifndef __ABIKIT_ISO646_H\n#define __ABIKIT_ISO646_H\n#define and &&\n#define and_eq "
          "&=\n#define bitand &\n#define bitor |\n#define compl ~\n#define not !\n#define not_eq "
          "!=\n#define or ||\n#define or_eq |=\n#define xor ^\n#define xor_eq ^=\n#endif\n";
  } else if (name == "stdatomic.h") {
    out = stdatomicHeader(isCxx(ctx.language()));
  } else if (name == "stdnoreturn.h") {
    out = "#ifndef __ABIKIT_STDNORETURN_H\n#define __ABIKIT_STDNORETURN_H\n#define noreturn "
          "_Noreturn\n#endif\n";
  } else {
    for (const BuiltinHeader& h : ctx.target().headers) {
      if (h.name == name) {
        out = std::string(h.text);
        return true;
      }
    }
    return false;
  }
  return true;
}

std::string languagePrelude(const TypeContext& ctx) {
  const DataModel& d = ctx.data();
  std::string o;
  switch (d.va_list_kind) { // clang's BuiltinVaListKind declarations
  case VaListKind::VoidPtr:
    o += "typedef void *__builtin_va_list;\n";
    break;
  case VaListKind::CharPtr:
    o += "typedef char *__builtin_va_list;\n";
    break;
  case VaListKind::X86_64Tag:
    o += "typedef struct __va_list_tag { unsigned int gp_offset; unsigned int fp_offset; "
         "void *overflow_arg_area; void *reg_save_area; } __builtin_va_list[1];\n";
    break;
  case VaListKind::Aapcs64:
    o += "typedef struct __va_list { void *__stack; void *__gr_top; void *__vr_top; "
         "int __gr_offs; int __vr_offs; } __builtin_va_list;\n";
    break;
  }
  if (d.of(IntKind::Int128).supported()) {
    o += "typedef __int128 __int128_t;\n";
    o += "typedef unsigned __int128 __uint128_t;\n";
  }
  switch (ctx.language()) {
  case Language::C:
    break;
  case Language::OpenCL: {
    // opencl-c-base.h
    o += "typedef unsigned char uchar;\ntypedef unsigned short ushort;\n"
         "typedef unsigned int uint;\ntypedef unsigned long ulong;\n";
    o += "typedef " + std::string(intKindName(d.size_type)) + " size_t;\n";
    o += "typedef " + std::string(intKindName(d.ptrdiff_type)) + " ptrdiff_t;\n";
    o += "typedef " + std::string(intKindName(d.intptr_type)) + " intptr_t;\n";
    o += "typedef " + std::string(intKindName(unsignedIntKind(d.intptr_type))) + " uintptr_t;\n";
    std::vector<const char*> elems = {"char", "uchar", "short", "ushort", "int",
                                      "uint", "long",  "ulong", "float"};
    if (d.of(FloatKind::Double).supported()) elems.push_back("double");
    if (d.of(FloatKind::Fp16).supported()) elems.push_back("half");
    for (const char* e : elems)
      for (int n : {2, 3, 4, 8, 16})
        o += "typedef " + std::string(e) + " " + e + std::to_string(n) +
             " __attribute__((ext_vector_type(" + std::to_string(n) + ")));\n";
    break;
  }
  case Language::CUDA:
  case Language::HIP:
    // As clang's CUDA/HIP runtime wrapper headers define them.
    o += "#define __host__ __attribute__((host))\n"
         "#define __device__ __attribute__((device))\n"
         "#define __global__ __attribute__((global))\n"
         "#define __shared__ __attribute__((shared))\n"
         "#define __constant__ __attribute__((constant))\n"
         "#define __managed__ __attribute__((managed))\n"
         "#define __launch_bounds__(...) __attribute__((launch_bounds(__VA_ARGS__)))\n"
         "#define __forceinline__ __inline__ __attribute__((always_inline))\n"
         "#define __noinline__ __attribute__((noinline))\n"
         "#define __align__(n) __attribute__((aligned(n)))\n"
         "#define __restrict__ __restrict\n";
    break;
  }
  return o;
}

} // namespace abikit::detail
