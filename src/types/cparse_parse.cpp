// The parser of the C declaration front-end: declarations (typedef, struct/union/enum, bit-fields,
// arrays, pointers, functions, attributes, qualifiers, address spaces), types built in the
// TypeContext, and integer constant expressions evaluated with the layout engine.
#include "cparse_parse.h"

#include "abikit/diag.h"
#include "abikit/layout.h"

#include <algorithm>
#include <bit>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#include <cmath>
#include <cstring>
#include <functional>
#include <limits>
#include <new>
#include <type_traits>

namespace abikit::detail {

namespace {

// How deeply the parser's recursive descents may nest, all kinds together (records,
// declarators, parameter lists, type names, expressions, linkage blocks): see NestGuard.
constexpr unsigned kMaxNesting = 256;
// How deeply types may nest (arrays, pointers, typedefs, records, functions): everything that
// walks a type recursively (layout, spelling, comparison) stays far from the stack's end.
constexpr uint32_t kMaxTypeDepth = 400;

// ----- keywords -------------------------------------------------------------------------------

enum : uint8_t { kLangC = 1, kLangCL = 2, kLangCxx = 4, kLangAll = 7 };

struct KwEntry {
  const char* spelling;
  Kw kw;
  uint8_t langs;
};

constexpr KwEntry kKeywords[] = {
    {"typedef", kKwTypedef, kLangAll},
    {"extern", kKwExtern, kLangAll},
    {"static", kKwStatic, kLangAll},
    {"auto", kKwAuto, kLangC | kLangCL},
    {"register", kKwRegister, kLangAll},
    {"_Thread_local", kKwThreadLocal, kLangAll},
    {"__thread", kKwThreadLocal, kLangAll},
    {"thread_local", kKwThreadLocal, kLangCxx},
    {"inline", kKwInline, kLangAll},
    {"__inline", kKwInline, kLangAll},
    {"__inline__", kKwInline, kLangAll},
    {"_Noreturn", kKwNoreturn, kLangAll},
    {"const", kKwConst, kLangAll},
    {"__const", kKwConst, kLangAll},
    {"__const__", kKwConst, kLangAll},
    {"volatile", kKwVolatile, kLangAll},
    {"__volatile", kKwVolatile, kLangAll},
    {"__volatile__", kKwVolatile, kLangAll},
    {"restrict", kKwRestrict, kLangC | kLangCL},
    {"__restrict", kKwRestrict, kLangAll},
    {"__restrict__", kKwRestrict, kLangAll},
    {"_Atomic", kKwAtomic, kLangAll},
    {"_Nonnull", kKwNullability, kLangAll},
    {"_Nullable", kKwNullability, kLangAll},
    {"_Nullable_result", kKwNullability, kLangAll},
    {"_Null_unspecified", kKwNullability, kLangAll},
    {"void", kKwVoid, kLangAll},
    {"char", kKwChar, kLangAll},
    {"short", kKwShort, kLangAll},
    {"int", kKwInt, kLangAll},
    {"long", kKwLong, kLangAll},
    {"float", kKwFloat, kLangAll},
    {"double", kKwDouble, kLangAll},
    {"signed", kKwSigned, kLangAll},
    {"__signed", kKwSigned, kLangAll},
    {"__signed__", kKwSigned, kLangAll},
    {"unsigned", kKwUnsigned, kLangAll},
    {"_Bool", kKwBool, kLangAll},
    {"bool", kKwBool, kLangCL | kLangCxx},
    {"_Complex", kKwComplex, kLangAll},
    {"__complex", kKwComplex, kLangAll},
    {"__complex__", kKwComplex, kLangAll},
    {"_Imaginary", kKwImaginary, kLangAll},
    {"__int128", kKwInt128, kLangAll},
    {"_BitInt", kKwBitInt, kLangAll},
    {"_ExtInt", kKwBitInt, kLangAll},
    {"_Float16", kKwFloat16, kLangAll},
    {"__fp16", kKwFp16, kLangAll},
    {"half", kKwHalf, kLangCL},
    {"__bf16", kKwBf16, kLangAll},
    {"__float128", kKwFloat128, kLangAll},
    {"struct", kKwStruct, kLangAll},
    {"union", kKwUnion, kLangAll},
    {"enum", kKwEnum, kLangAll},
    {"typeof", kKwTypeof, kLangC | kLangCL},
    {"__typeof", kKwTypeof, kLangAll},
    {"__typeof__", kKwTypeof, kLangAll},
    {"decltype", kKwTypeof, kLangCxx},
    {"__auto_type", kKwAutoType, kLangAll},
    {"_Alignas", kKwAlignas, kLangAll},
    {"alignas", kKwAlignas, kLangCxx},
    {"_Alignof", kKwAlignof, kLangAll},
    {"alignof", kKwAlignof, kLangCxx},
    {"__alignof", kKwGnuAlignof, kLangAll},
    {"__alignof__", kKwGnuAlignof, kLangAll},
    {"sizeof", kKwSizeof, kLangAll},
    {"_Static_assert", kKwStaticAssert, kLangAll},
    {"static_assert", kKwStaticAssert, kLangCxx},
    {"__attribute__", kKwAttribute, kLangAll},
    {"__attribute", kKwAttribute, kLangAll},
    {"__extension__", kKwExtension, kLangAll},
    {"asm", kKwAsm, kLangAll},
    {"__asm", kKwAsm, kLangAll},
    {"__asm__", kKwAsm, kLangAll},
    {"__declspec", kKwDeclspec, kLangAll},
    {"__builtin_offsetof", kKwOffsetof, kLangAll},
    {"__builtin_types_compatible_p", kKwTypesCompatible, kLangC | kLangCL},
    {"__builtin_choose_expr", kKwChooseExpr, kLangAll},
    {"__builtin_constant_p", kKwConstantP, kLangAll},
    {"__builtin_va_arg", kKwVaArg, kLangAll},
    {"_Generic", kKwGeneric, kLangAll},
    {"true", kKwTrue, kLangCL | kLangCxx},
    {"false", kKwFalse, kLangCL | kLangCxx},
    {"__real__", kKwRealImag, kLangAll},
    {"__imag__", kKwRealImag, kLangAll},
    {"__real", kKwRealImag, kLangAll},
    {"__imag", kKwRealImag, kLangAll},
    {"kernel", kKwKernel, kLangCL},
    {"__kernel", kKwKernel, kLangCL},
    {"read_only", kKwReadOnly, kLangCL},
    {"__read_only", kKwReadOnly, kLangCL},
    {"write_only", kKwWriteOnly, kLangCL},
    {"__write_only", kKwWriteOnly, kLangCL},
    {"read_write", kKwReadWrite, kLangCL},
    {"__read_write", kKwReadWrite, kLangCL},
    {"pipe", kKwPipe, kLangCL},
    {"class", kKwCxxOnly, kLangCxx},
    {"template", kKwCxxOnly, kLangCxx},
    {"typename", kKwCxxOnly, kLangCxx},
    {"namespace", kKwCxxOnly, kLangCxx},
    {"using", kKwCxxOnly, kLangCxx},
    {"operator", kKwCxxOnly, kLangCxx},
    {"virtual", kKwCxxOnly, kLangCxx},
    {"friend", kKwCxxOnly, kLangCxx},
    {"public", kKwCxxOnly, kLangCxx},
    {"private", kKwCxxOnly, kLangCxx},
    {"protected", kKwCxxOnly, kLangCxx},
    {"constexpr", kKwCxxOnly, kLangCxx},
    {"mutable", kKwCxxOnly, kLangCxx},
    {"explicit", kKwCxxOnly, kLangCxx},
};

struct CLTypeEntry {
  const char* spelling;
  OpenCLKind kind;
};
constexpr CLTypeEntry kCLTypes[] = {
    {"image1d_t", OpenCLKind::Image1d},
    {"image1d_array_t", OpenCLKind::Image1dArray},
    {"image1d_buffer_t", OpenCLKind::Image1dBuffer},
    {"image2d_t", OpenCLKind::Image2d},
    {"image2d_array_t", OpenCLKind::Image2dArray},
    {"image2d_depth_t", OpenCLKind::Image2dDepth},
    {"image2d_array_depth_t", OpenCLKind::Image2dArrayDepth},
    {"image2d_msaa_t", OpenCLKind::Image2dMsaa},
    {"image2d_array_msaa_t", OpenCLKind::Image2dArrayMsaa},
    {"image2d_msaa_depth_t", OpenCLKind::Image2dMsaaDepth},
    {"image2d_array_msaa_depth_t", OpenCLKind::Image2dArrayMsaaDepth},
    {"image3d_t", OpenCLKind::Image3d},
    {"sampler_t", OpenCLKind::Sampler},
    {"event_t", OpenCLKind::Event},
    {"clk_event_t", OpenCLKind::ClkEvent},
    {"queue_t", OpenCLKind::Queue},
    {"reserve_id_t", OpenCLKind::ReserveId},
};

// ----- attributes -----------------------------------------------------------------------------

enum class ArgStyle : uint8_t { None, Skip, Int, OptInt, Ident };

struct AttrEntry {
  const char* name;
  AttrKind kind;
  ArgStyle args;
};

// Every attribute abikit knows. Ignored ones do not change layout or calling conventions;
// Unsupported ones do and are rejected when used.
constexpr AttrEntry kAttributes[] = {
    {"packed", AttrKind::Packed, ArgStyle::None},
    {"aligned", AttrKind::Aligned, ArgStyle::OptInt},
    {"vector_size", AttrKind::VectorSize, ArgStyle::Int},
    {"ext_vector_type", AttrKind::ExtVectorType, ArgStyle::Int},
    {"mode", AttrKind::Mode, ArgStyle::Ident},
    {"address_space", AttrKind::AddressSpace, ArgStyle::Int},
    {"transparent_union", AttrKind::TransparentUnion, ArgStyle::None},
    {"amdgpu_kernel", AttrKind::Kernel, ArgStyle::None},
    {"nvptx_kernel", AttrKind::Kernel, ArgStyle::None},
    {"global", AttrKind::Kernel, ArgStyle::None}, // CUDA/HIP __global__
    {"colossus_vertex", AttrKind::Vertex, ArgStyle::None},
    {"opencl_global", AttrKind::OpenCLAddrSpace, ArgStyle::None},
    {"opencl_local", AttrKind::OpenCLAddrSpace, ArgStyle::None},
    {"opencl_constant", AttrKind::OpenCLAddrSpace, ArgStyle::None},
    {"opencl_private", AttrKind::OpenCLAddrSpace, ArgStyle::None},
    {"opencl_generic", AttrKind::OpenCLAddrSpace, ArgStyle::None},
    // Change layout or ABI; not implemented.
    {"ms_struct", AttrKind::Unsupported, ArgStyle::None},
    {"scalar_storage_order", AttrKind::Unsupported, ArgStyle::Skip},
    {"randomize_layout", AttrKind::Unsupported, ArgStyle::None},
    {"regparm", AttrKind::Unsupported, ArgStyle::Skip},
    {"ms_abi", AttrKind::Unsupported, ArgStyle::None},
    {"sysv_abi", AttrKind::Unsupported, ArgStyle::None},
    {"stdcall", AttrKind::Unsupported, ArgStyle::None},
    {"fastcall", AttrKind::Unsupported, ArgStyle::None},
    {"thiscall", AttrKind::Unsupported, ArgStyle::None},
    {"vectorcall", AttrKind::Unsupported, ArgStyle::None},
    {"cdecl", AttrKind::Unsupported, ArgStyle::None},
    {"pascal", AttrKind::Unsupported, ArgStyle::None},
    {"pcs", AttrKind::Unsupported, ArgStyle::Skip},
    {"preserve_most", AttrKind::Unsupported, ArgStyle::None},
    {"preserve_all", AttrKind::Unsupported, ArgStyle::None},
    {"swiftcall", AttrKind::Unsupported, ArgStyle::None},
    {"vectorcall", AttrKind::Unsupported, ArgStyle::None},
    {"riscv_vector_cc", AttrKind::Unsupported, ArgStyle::None},
    {"overloadable", AttrKind::Unsupported, ArgStyle::None},
    {"matrix_type", AttrKind::Unsupported, ArgStyle::Skip},
    {"neon_vector_type", AttrKind::Unsupported, ArgStyle::Skip},
    {"neon_polyvector_type", AttrKind::Unsupported, ArgStyle::Skip},
    {"btf_type_tag", AttrKind::Ignored, ArgStyle::Skip},
    // Harmless.
    {"deprecated", AttrKind::Ignored, ArgStyle::Skip},
    {"unavailable", AttrKind::Ignored, ArgStyle::Skip},
    {"availability", AttrKind::Ignored, ArgStyle::Skip},
    {"unused", AttrKind::Ignored, ArgStyle::None},
    {"used", AttrKind::Ignored, ArgStyle::None},
    {"maybe_unused", AttrKind::Ignored, ArgStyle::None},
    {"visibility", AttrKind::Ignored, ArgStyle::Skip},
    {"noreturn", AttrKind::Ignored, ArgStyle::None},
    {"_Noreturn", AttrKind::Ignored, ArgStyle::None},
    {"format", AttrKind::Ignored, ArgStyle::Skip},
    {"format_arg", AttrKind::Ignored, ArgStyle::Skip},
    {"nonnull", AttrKind::Ignored, ArgStyle::Skip},
    {"null_terminated_string_arg", AttrKind::Ignored, ArgStyle::Skip},
    {"warn_unused_result", AttrKind::Ignored, ArgStyle::None},
    {"nodiscard", AttrKind::Ignored, ArgStyle::Skip},
    {"warn_unused", AttrKind::Ignored, ArgStyle::None},
    {"always_inline", AttrKind::Ignored, ArgStyle::None},
    {"noinline", AttrKind::Ignored, ArgStyle::None},
    {"gnu_inline", AttrKind::Ignored, ArgStyle::None},
    {"artificial", AttrKind::Ignored, ArgStyle::None},
    {"flatten", AttrKind::Ignored, ArgStyle::None},
    {"const", AttrKind::Ignored, ArgStyle::None},
    {"pure", AttrKind::Ignored, ArgStyle::None},
    {"malloc", AttrKind::Ignored, ArgStyle::Skip},
    {"section", AttrKind::Ignored, ArgStyle::Skip},
    {"weak", AttrKind::Ignored, ArgStyle::None},
    {"weakref", AttrKind::Ignored, ArgStyle::Skip},
    {"alias", AttrKind::Ignored, ArgStyle::Skip},
    {"ifunc", AttrKind::Ignored, ArgStyle::Skip},
    {"cold", AttrKind::Ignored, ArgStyle::None},
    {"hot", AttrKind::Ignored, ArgStyle::None},
    {"nothrow", AttrKind::Ignored, ArgStyle::None},
    {"leaf", AttrKind::Ignored, ArgStyle::None},
    {"returns_nonnull", AttrKind::Ignored, ArgStyle::None},
    {"returns_twice", AttrKind::Ignored, ArgStyle::None},
    {"access", AttrKind::Ignored, ArgStyle::Skip},
    {"alloc_size", AttrKind::Ignored, ArgStyle::Skip},
    {"alloc_align", AttrKind::Ignored, ArgStyle::Skip},
    {"assume_aligned", AttrKind::Ignored, ArgStyle::Skip},
    {"sentinel", AttrKind::Ignored, ArgStyle::Skip},
    {"may_alias", AttrKind::Ignored, ArgStyle::None},
    {"designated_init", AttrKind::Ignored, ArgStyle::None},
    {"fallthrough", AttrKind::Ignored, ArgStyle::None},
    {"noescape", AttrKind::Ignored, ArgStyle::None},
    {"constructor", AttrKind::Ignored, ArgStyle::Skip},
    {"destructor", AttrKind::Ignored, ArgStyle::Skip},
    {"cleanup", AttrKind::Ignored, ArgStyle::Skip},
    {"no_instrument_function", AttrKind::Ignored, ArgStyle::None},
    {"no_sanitize", AttrKind::Ignored, ArgStyle::Skip},
    {"no_sanitize_address", AttrKind::Ignored, ArgStyle::None},
    {"no_sanitize_thread", AttrKind::Ignored, ArgStyle::None},
    {"no_sanitize_undefined", AttrKind::Ignored, ArgStyle::None},
    {"no_address_safety_analysis", AttrKind::Ignored, ArgStyle::None},
    {"no_stack_protector", AttrKind::Ignored, ArgStyle::None},
    {"no_split_stack", AttrKind::Ignored, ArgStyle::None},
    {"no_profile_instrument_function", AttrKind::Ignored, ArgStyle::None},
    {"optimize", AttrKind::Ignored, ArgStyle::Skip},
    {"target", AttrKind::Ignored, ArgStyle::Skip},
    {"externally_visible", AttrKind::Ignored, ArgStyle::None},
    {"noclone", AttrKind::Ignored, ArgStyle::None},
    {"noipa", AttrKind::Ignored, ArgStyle::None},
    {"no_icf", AttrKind::Ignored, ArgStyle::None},
    {"nonstring", AttrKind::Ignored, ArgStyle::None},
    {"retain", AttrKind::Ignored, ArgStyle::None},
    {"error", AttrKind::Ignored, ArgStyle::Skip},
    {"warning", AttrKind::Ignored, ArgStyle::Skip},
    {"copy", AttrKind::Ignored, ArgStyle::Skip},
    {"tls_model", AttrKind::Ignored, ArgStyle::Skip},
    {"common", AttrKind::Ignored, ArgStyle::None},
    {"nocommon", AttrKind::Ignored, ArgStyle::None},
    {"naked", AttrKind::Ignored, ArgStyle::None},
    {"nodebug", AttrKind::Ignored, ArgStyle::None},
    {"noduplicate", AttrKind::Ignored, ArgStyle::None},
    {"convergent", AttrKind::Ignored, ArgStyle::None},
    {"minsize", AttrKind::Ignored, ArgStyle::None},
    {"optnone", AttrKind::Ignored, ArgStyle::None},
    {"disable_tail_calls", AttrKind::Ignored, ArgStyle::None},
    {"not_tail_called", AttrKind::Ignored, ArgStyle::None},
    {"nocf_check", AttrKind::Ignored, ArgStyle::None},
    {"patchable_function_entry", AttrKind::Ignored, ArgStyle::Skip},
    {"no_reorder", AttrKind::Ignored, ArgStyle::None},
    {"gcc_struct", AttrKind::Ignored, ArgStyle::None},
    {"no_randomize_layout", AttrKind::Ignored, ArgStyle::None},
    {"preserve_access_index", AttrKind::Ignored, ArgStyle::None},
    {"btf_decl_tag", AttrKind::Ignored, ArgStyle::Skip},
    {"btf_tag", AttrKind::Ignored, ArgStyle::Skip},
    {"counted_by", AttrKind::Ignored, ArgStyle::Skip},
    {"flag_enum", AttrKind::Ignored, ArgStyle::None},
    {"enum_extensibility", AttrKind::Ignored, ArgStyle::Skip},
    {"annotate", AttrKind::Ignored, ArgStyle::Skip},
    {"diagnose_if", AttrKind::Ignored, ArgStyle::Skip},
    {"enable_if", AttrKind::Ignored, ArgStyle::Skip},
    {"noderef", AttrKind::Ignored, ArgStyle::None},
    {"nomerge", AttrKind::Ignored, ArgStyle::None},
    {"uninitialized", AttrKind::Ignored, ArgStyle::None},
    {"objc_boxable", AttrKind::Ignored, ArgStyle::None},
    {"returns_nonnull", AttrKind::Ignored, ArgStyle::None},
    {"leaf", AttrKind::Ignored, ArgStyle::None},
    {"zero_call_used_regs", AttrKind::Ignored, ArgStyle::Skip},
    {"function_return", AttrKind::Ignored, ArgStyle::Skip},
    {"indirect_branch", AttrKind::Ignored, ArgStyle::Skip},
    {"interrupt", AttrKind::Unsupported, ArgStyle::Skip},
    // GPU kernel and variable attributes that do not change parameter passing.
    {"device", AttrKind::Ignored, ArgStyle::None},
    {"host", AttrKind::Ignored, ArgStyle::None},
    {"shared", AttrKind::Ignored, ArgStyle::None},
    {"constant", AttrKind::Ignored, ArgStyle::None},
    {"managed", AttrKind::Ignored, ArgStyle::None},
    {"launch_bounds", AttrKind::Ignored, ArgStyle::Skip},
    {"cudart_builtin", AttrKind::Ignored, ArgStyle::None},
    {"device_builtin", AttrKind::Ignored, ArgStyle::None},
    {"reqd_work_group_size", AttrKind::Ignored, ArgStyle::Skip},
    {"work_group_size_hint", AttrKind::Ignored, ArgStyle::Skip},
    {"vec_type_hint", AttrKind::Ignored, ArgStyle::Skip},
    {"intel_reqd_sub_group_size", AttrKind::Ignored, ArgStyle::Skip},
    {"opencl_unroll_hint", AttrKind::Ignored, ArgStyle::Skip},
    {"nosvm", AttrKind::Ignored, ArgStyle::None},
    {"amdgpu_flat_work_group_size", AttrKind::Ignored, ArgStyle::Skip},
    {"amdgpu_waves_per_eu", AttrKind::Ignored, ArgStyle::Skip},
    {"amdgpu_num_sgpr", AttrKind::Ignored, ArgStyle::Skip},
    {"amdgpu_num_vgpr", AttrKind::Ignored, ArgStyle::Skip},
};

const AttrEntry* findAttribute(std::string_view name) {
  for (const AttrEntry& e : kAttributes)
    if (name == e.name) return &e;
  return nullptr;
}

std::string_view normaliseAttrName(std::string_view n) {
  if (n.size() > 4 && n.substr(0, 2) == "__" && n.substr(n.size() - 2) == "__")
    return n.substr(2, n.size() - 4);
  return n;
}

} // namespace

int hasAttribute(std::string_view scope, std::string_view name, bool c2x) {
  name = normaliseAttrName(name);
  if (c2x && scope.empty()) {
    // Standard attributes: the value is the date of the standard that added them.
    if (name == "deprecated" || name == "fallthrough" || name == "maybe_unused") return 201904;
    if (name == "nodiscard") return 202003;
    if (name == "noreturn" || name == "_Noreturn") return 202202;
    return 0;
  }
  if (!scope.empty() && scope != "gnu" && scope != "__gnu__" && scope != "clang" &&
      scope != "_Clang")
    return 0;
  return findAttribute(name) ? 1 : 0;
}

namespace {

// ----- small helpers --------------------------------------------------------------------------

int intRank(IntKind k) {
  switch (k) {
  case IntKind::Bool:
    return 0;
  case IntKind::Char:
  case IntKind::SChar:
  case IntKind::UChar:
    return 1;
  case IntKind::Short:
  case IntKind::UShort:
    return 2;
  case IntKind::Int:
  case IntKind::UInt:
    return 3;
  case IntKind::Long:
  case IntKind::ULong:
    return 4;
  case IntKind::LongLong:
  case IntKind::ULongLong:
    return 5;
  case IntKind::Int128:
  case IntKind::UInt128:
    return 6;
  }
  return 3;
}

IntKind toUnsignedKind(IntKind k) {
  switch (k) {
  case IntKind::Char:
  case IntKind::SChar:
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

/// A small vector with inline storage for trivially copyable elements (no initialisation of
/// the inline slots, so that an empty one costs nothing).
template <class T, size_t N> class SmallVec {
  static_assert(std::is_trivially_copyable_v<T>);

public:
  SmallVec() = default;
  SmallVec(const SmallVec&) = delete;
  SmallVec& operator=(const SmallVec&) = delete;
  void push_back(const T& v) {
    if (size_ < N) {
      std::memcpy(static_cast<void*>(&inline_[size_ * sizeof(T)]), &v, sizeof(T));
      ++size_;
      return;
    }
    if (size_ == N) heap_.assign(data(), data() + N);
    heap_.push_back(v);
    ++size_;
  }
  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  T* data() { return size_ <= N ? std::launder(reinterpret_cast<T*>(inline_)) : heap_.data(); }
  const T* data() const {
    return size_ <= N ? std::launder(reinterpret_cast<const T*>(inline_)) : heap_.data();
  }
  T& operator[](size_t i) { return data()[i]; }
  const T& operator[](size_t i) const { return data()[i]; }
  T& back() { return (*this)[size_ - 1]; }
  void reverse(size_t from) { std::reverse(data() + from, data() + size_); }

private:
  alignas(T) unsigned char inline_[N * sizeof(T)];
  std::vector<T> heap_;
  size_t size_ = 0;
};

// ----- declarations in progress ---------------------------------------------------------------

struct Symbol {
  enum Kind : uint8_t { Typedef, Var, Func, EnumConst, Param } kind;
  unsigned depth = 0;
  QType type;
  TypedefDecl* td = nullptr;
  FunctionDecl* fd = nullptr;
  __int128 value = 0;
  Loc loc;
};

struct TagSym {
  enum Kind : uint8_t { Struct, Union, Enum } kind;
  unsigned depth = 0;
  RecordDecl* rd = nullptr;
  EnumDecl* ed = nullptr;
  const Type* type = nullptr; // the RecordType or EnumType
  // A record's: the pointer to it (address space 0), once a member `struct TAG *NAME;` has made
  // it, so that the next one needs nothing from the record itself (see fastMembers()).
  const Type* pointer = nullptr;
  Loc loc;
};

struct Chunk {
  enum Kind : uint8_t { Pointer, Array, Function } kind = Pointer;
  uint8_t quals = 0;
  bool has_as = false;
  uint32_t as = 0;
  bool incomplete = false; // []
  bool vla = false;        // [n] with n not constant (parameters only)
  uint64_t count = 0;
  FunctionType* fn = nullptr;
  Loc loc;
  Loc size_loc;
  bool type_attrs = false; // pointer-level attributes applied (see pointer_attrs)
  uint32_t attr_index = 0; // index of this chunk's attributes in Declarator::chunk_attrs
  uint32_t attr_count = 0;
};

struct Declarator {
  Ident* name = nullptr;
  Loc name_loc;
  Loc loc;
  SmallVec<Chunk, 4> chunks;     // in the order they apply to the base type
  AttrList attrs;                // after the name / parameter list
  AttrList chunk_attrs;          // attributes written inside pointer declarators
  std::vector<Ident*> knr_names; // identifier-list parameters
  bool has_knr = false;
};

struct DeclSpec {
  Loc loc;
  Kw storage = kKwNone;
  Loc storage_loc;
  bool thread_local_ = false;
  bool inline_ = false;
  bool noreturn = false;
  uint8_t quals = 0;
  bool has_as = false;
  uint32_t as = 0;
  // type specifiers
  enum Base : uint8_t {
    None,
    Void,
    Char,
    Int,
    Float,
    Double,
    Bool,
    Int128,
    BitInt,
    Float16,
    Fp16,
    Bf16,
    Float128,
    Named, // record, enum, typedef, typeof, OpenCL type
  } base = None;
  int longs = 0;
  bool short_ = false;
  int sign = 0; // 1 signed, 2 unsigned
  bool complex_ = false;
  unsigned bitint_bits = 0;
  QType named;
  bool any_type = false; // some type specifier seen
  bool any = false;      // any specifier or qualifier seen
  Loc type_loc;
  bool is_typedef_name = false;
  // _Alignas
  uint64_t alignas_ = 0;
  bool has_alignas = false;
  Loc alignas_loc;
  AttrList attrs;
  // tag declared or defined by these specifiers
  bool tag_decl = false;    // struct/union/enum specifier present
  bool tag_defined = false; // with a body
  bool tag_forward = false; // `struct S` with no body (for `struct S;`)
  RecordDecl* record = nullptr;
  EnumDecl* enum_ = nullptr;
  // OpenCL
  bool kernel = false;
  AccessQual access = AccessQual::None;
  Loc access_loc;
  bool pipe = false;
  bool cxx_extern_c = false;
};

// Specifiers made of basic type keywords and const/volatile only, the usual ones of a member:
// what parseDeclSpec() records for each of those keywords, kept apart from DeclSpec so that
// parseMember() and the member fast path read them with the same rules.
struct BasicSpec {
  uint8_t base = DeclSpec::None;
  uint8_t longs = 0;
  uint8_t sign = 0; // 1 signed, 2 unsigned
  uint8_t quals = 0;
  bool short_ = false;
  bool any_type = false;
  enum Step : uint8_t { Qualifier, TypeSpecifier, Other };
  // Takes keyword `kw`; Other, changing nothing, for any other keyword or one that conflicts
  // with those before (the general loop reports the conflict).
  Step add(unsigned kw) {
    DeclSpec::Base b = DeclSpec::None;
    switch (Kw(kw)) {
    case kKwConst:
      quals |= kQualConst;
      return Qualifier;
    case kKwVolatile:
      quals |= kQualVolatile;
      return Qualifier;
    case kKwVoid:
      b = DeclSpec::Void;
      break;
    case kKwChar:
      b = DeclSpec::Char;
      break;
    case kKwInt:
      b = DeclSpec::Int;
      break;
    case kKwFloat:
      b = DeclSpec::Float;
      break;
    case kKwDouble:
      b = DeclSpec::Double;
      break;
    case kKwBool:
      b = DeclSpec::Bool;
      break;
    case kKwShort:
      if (short_ || longs) return Other;
      short_ = true;
      break;
    case kKwLong:
      if (short_ || longs >= 2) return Other;
      ++longs;
      break;
    case kKwSigned:
    case kKwUnsigned:
      if (sign) return Other;
      sign = kw == kKwSigned ? 1 : 2;
      break;
    default:
      return Other;
    }
    if (b != DeclSpec::None) {
      if (base != DeclSpec::None) return Other;
      base = b;
    }
    any_type = true;
    return TypeSpecifier;
  }
  // An index into Parser::basic_types_.
  uint32_t key() const {
    return uint32_t(base) | uint32_t(longs) << 4 | uint32_t(short_) << 6 | uint32_t(sign) << 7 |
           uint32_t(quals) << 9;
  }
};

enum class DeclContext : uint8_t { File, Member, Param, TypeName };

// A value of a constant expression.
struct Value {
  enum Kind : uint8_t { Int, Float, Ptr, LValue, Unknown } kind = Unknown;
  const Type* type = nullptr; // canonical-ish C type (may carry typedef sugar)
  unsigned __int128 bits = 0; // integer value (two's complement, truncated) or address
  long double f = 0;
  bool known = false;  // value (or address) known at compile time
  bool folded = false; // needed a GNU folding extension (address arithmetic)
  bool is_bitfield = false;
  bool is_string = false;
};

} // namespace

// ----- the parser -----------------------------------------------------------------------------

class Parser {
public:
  Parser(TypeContext& ctx, const LayoutEngine& layout, Preprocessor& pp, IdentTable& ids);
  TranslationUnit run();
  void parseTypeList(const ParseOptions::TypeList& list);
  bool fast_paths = true; // see ParseOptions::fast_paths
  size_t text_bytes = 0;  // the main file's size (sizes the member memo)
  const std::optional<ParseOptions::TypeList>* type_list = nullptr; // see ParseOptions::type_list

private:
  // tokens
  // The common case inline: no lookahead queued, and a token that is not a stray character.
  void consume() {
    prev_.loc = tok_.loc;
    prev_.len = tok_.len;
    prev_.kind = tok_.kind;
    if (!nla_) {
      pp_.next(tok_);
      if (tok_.kind != Tok::Unknown) return;
    }
    consumeSlow();
  }
  void consumeSlow(); // takes the lookahead token; reports stray characters
  const Token& peekTok(unsigned n);
  bool isKw(const Token& t, Kw k) const { return t.kind == Tok::Ident && t.ident->keyword == k; }
  bool isKw(Kw k) const { return isKw(tok_, k); }
  bool tryConsume(Tok k) {
    if (tok_.kind != k) return false;
    consume();
    return true;
  }
  void expect(Tok k, const char* context);
  [[noreturn]] void fail(const Loc& loc, std::string msg, bool unsupported = false) const {
    throw SourceError{loc, std::move(msg), unsupported};
  }
  [[noreturn]] void failUnexpected(const char* expected);
  std::string tokenText(const Token& t) const;
  SourceLoc srcLoc(const Loc& l) const { return SourceLoc{l.file, l.line, l.col}; }
  std::string_view intern(Ident* id) {
    if (id->interned.empty()) id->interned = ctx_.intern(id->name);
    return id->interned;
  }
  std::string typeStr(const Type* t) const { return typeName(t, ctx_); }
  bool builtinLoc(const Loc& l) const { return pp_.isBuiltin(l); }

  // scopes
  void pushScope() { scope_marks_.push_back(undo_.size()); }
  void popScope();
  Symbol* lookup(Ident* id) const { return static_cast<Symbol*>(id->ordinary); }
  TagSym* lookupTag(Ident* id) const { return static_cast<TagSym*>(id->tag); }
  void bind(Ident* id, Symbol* s);
  void bindTag(Ident* id, TagSym* s);
  unsigned depth() const { return unsigned(scope_marks_.size()); }
  Symbol* newSymbol(Symbol::Kind k, const Loc& loc);
  bool isTypeName(const Token& t) const;
  bool startsTypeName(const Token& t) const;
  bool startsDeclSpec(const Token& t) const;

  // attributes
  bool atAttribute() const;
  // Most places have no attribute: the check inline, the parsing out of line.
  void parseAttributes(AttrList& out) {
    if ((tok_.kind == Tok::Ident && tok_.ident->keyword == kKwAttribute) ||
        tok_.kind == Tok::LBracket)
      parseAttributesSlow(out);
  }
  void parseAttributesSlow(AttrList& out);
  void parseGnuAttribute(AttrList& out);
  void parseC2xAttribute(AttrList& out);
  void parseAttributeArgs(Attr& a, ArgStyle style);
  void skipBalanced(Tok open, Tok close);
  void checkUnsupported(const Attr& a) const;
  QType applyTypeAttr(const Attr& a, QType t, bool is_typedef);
  QType applyMode(const Attr& a, QType t);
  uint64_t attrAlignment(const Attr& a) const;

  // declaration specifiers
  void parseDeclSpec(DeclSpec& ds, DeclContext dc);
  void parseDeclSpecRest(DeclSpec& ds, DeclContext dc); // the loop of parseDeclSpec()
  void setBase(DeclSpec& ds, DeclSpec::Base b, const Token& at);
  QType finishDeclSpec(DeclSpec& ds, DeclContext dc);
  // A typedef or tag name with no other specifier: finishDeclSpec() returns ds.named.
  static bool namedAlone(const DeclSpec& ds) {
    return ds.base == DeclSpec::Named && ds.any_type && !ds.short_ && !ds.longs && !ds.sign &&
           !ds.complex_ && !ds.pipe && ds.access == AccessQual::None && !ds.quals && !ds.has_as &&
           ds.attrs.empty() && !dyn<OpenCLType>(ds.named.t);
  }
  void parseTagSpecifier(DeclSpec& ds, DeclContext dc);
  // A new tag of kind `want` named `name` (null: anonymous), declared at `name_loc` in the
  // current scope.
  TagSym* newTag(TagSym::Kind want, Ident* name, const Loc& name_loc);
  // A new struct or union and its tag (which holds both the record and its type).
  TagSym* newRecord(Kw kw, Ident* name, const Loc& name_loc);
  void applyRecordAttrs(RecordDecl* rd, Kw kw, const AttrList& list, bool allow);
  // What a struct, union or enum specifier at `kw_loc` sets in its DeclSpec before the tag is
  // read, and what a struct or union sets once its tag `ts` is known (`body`: it is defined).
  static void startTagSpec(DeclSpec& ds, const Loc& kw_loc);
  static void endRecordSpec(DeclSpec& ds, const TagSym* ts, bool body);
  // The definition of `rd` from its '{' (tok_): the body, the attributes after it, the checks.
  void defineRecord(RecordDecl* rd, Kw kw, const Loc& kw_loc);
  bool fastRecordDefinition();
  enum class NextHead { None, Token, Record };
  NextHead fastNextRecordHead(Kw& kw, Loc& kw_loc, Ident*& name, Loc& name_loc);
  void parseRecordBody(RecordDecl* rd, const Loc& open);
  [[gnu::always_inline]] inline bool fastTagHead(Ident*& name, Loc& name_loc, bool new_tag);
  bool fastTypedefTag();
  // The byte-level paths' shared steps: the lexer they may read from (the preprocessor's own,
  // with no lookahead pending; null otherwise), and the previous and current tokens set as
  // consume() would have made them from the bytes at `at`.
  Lexer* idleDirectLexer() { return nla_ ? nullptr : pp_.directLexer(); }
  void setPrevToken(const Loc& loc, uint32_t len, Tok kind) {
    prev_.loc = loc;
    prev_.len = len;
    prev_.kind = kind;
  }
  void setByteToken(Tok kind, const char* at, uint32_t len, uint8_t flags, Ident* id,
                    const Loc& loc) {
    tok_.kind = kind;
    tok_.ptr = at;
    tok_.len = len;
    tok_.flags = flags;
    tok_.ident = id;
    tok_.loc = loc;
  }
  // The identifier `id`, spelled from `start` to `end` after the gap skipGap() went through
  // (`lines`, `ls`, `flags`), made the current token with the lexer after it; the current one
  // becomes the previous token.
  void takeIdentToken(Lexer* lx, Ident* id, const char* start, const char* end, uint32_t lines,
                      const char* ls, uint8_t flags) {
    setPrevToken(tok_.loc, tok_.len, tok_.kind);
    lx->skipTo(end, lines, ls);
    setByteToken(Tok::Ident, start, uint32_t(end - start), flags, id, lx->locAt(start));
  }
  Ident* id_struct_ = nullptr; // the keywords fastTypedefTag() reads
  Ident* id_union_ = nullptr;
  void parseEnumBody(EnumDecl* ed, const Loc& open);
  void finishEnum(EnumDecl* ed, const Loc& loc);
  void parseTypeof(DeclSpec& ds, bool unqual);
  void parseAlignas(DeclSpec& ds);
  const IntType* intTypeFor(DeclSpec& ds, const Loc& at);

  // declarators
  void parseDeclarator(Declarator& d, DeclContext dc, bool abstract_ok, unsigned level = 0);
  // The parts of parseDeclaratorLevel(): the pointers ('*' and their qualifiers), then the
  // name or parenthesised declarator and its suffixes.
  void parsePointers(Declarator& d, SmallVec<Chunk, 4>& out);
  void parseDirectDeclarator(Declarator& d, SmallVec<Chunk, 4>& out, DeclContext dc,
                             bool abstract_ok, unsigned level);
  // The array and function suffixes after a declarator's name, in the order they apply.
  void parseDeclaratorSuffixes(Declarator& d, SmallVec<Chunk, 4>& out, DeclContext dc,
                               unsigned level);
  void parseDeclaratorLevel(Declarator& d, SmallVec<Chunk, 4>& out, DeclContext dc,
                            bool abstract_ok, unsigned level);
  void parseArraySuffix(Declarator& d, SmallVec<Chunk, 4>& out, DeclContext dc, bool first_dim);
  FunctionType* parseParams(Declarator& d, const Loc& at, unsigned level);
  bool nestedDeclaratorFollows(DeclContext dc, bool abstract_ok) const;
  QType buildType(const DeclSpec& ds, QType base, Declarator& d, DeclContext dc,
                  FunctionType** outer_fn);
  void applyPointer(QType& t, const Chunk& c);
  void applyPointer(QType& t, const Loc& at);
  void applyArray(QType& t, const Chunk& c, const Ident* name, DeclContext dc);
  std::string declName(const Declarator& d) const {
    return d.name ? std::string(d.name->name) : std::string();
  }
  QType parseTypeName(const Loc& at);

  // declarations
  void parseExternalDeclaration();
  void finishExternalDeclaration(DeclSpec& ds);
  void parseStaticAssert();
  void skipAsm();
  void skipInitializer();
  void skipFunctionBody();
  void declare(DeclSpec& ds, QType base, Declarator& d, bool is_definition);
  void declareTypedef(DeclSpec& ds, QType t, Declarator& d);
  void declareFunction(DeclSpec& ds, QType t, Declarator& d, FunctionType* fn, bool is_definition);
  void applyFunctionAttrs(const AttrList& attrs, FunctionType* fn, const Declarator& d);
  void parseMember(RecordDecl* rd);
  // What the member fast path has established about the record body being read: `clean` while
  // every member so far came through fastMembers() with its own name (marked with `stamp` in
  // its Ident: a name seen twice clears it) and no incomplete array type; `depth` the largest
  // nesting depth of their types. checkRecord() skips its member checks for a clean body.
  struct BodyState {
    const RecordDecl* rd = nullptr;
    uint32_t stamp = 0;
    uint32_t depth = 0;
    bool clean = false;
    // A member named `name` of nesting depth `d` read by the fast path.
    void add(Ident* name, uint32_t d) {
      if (name->mark == stamp) clean = false;
      name->mark = stamp;
      depth = std::max(depth, d);
    }
  };
  BodyState last_body_; // of the record body read last (parseRecordBody())
  // `after_open`: tok_ is the body's '{' and the first member is read after it.
  bool fastMembers(BodyState& body, bool after_open = false);
  [[gnu::always_inline]] static inline const char* skipGap(const char* p, uint32_t& lines,
                                                           const char*& ls, uint8_t& flags);
  // The first byte after the blanks (spaces, tabs, ...) at `p`; `flags` takes kTokLeadingSpace
  // if there were any, as the lexer marks the token there.
  [[gnu::always_inline]] static const char* skipBlanks(const char* p, uint8_t& flags) {
    using namespace lexchars;
    if (!(classOf(p) & kSpace)) return p; // the usual case first
    flags |= kTokLeadingSpace;
    return lexchars::skipBlanks(p + 1);
  }
  bool fastIdentToken();
  bool fastSemiToken();
  // The member memo: what fastMembers() made of a member's text (its bytes from the first
  // identifier up to the ';', on one line), kept so that the same text read again becomes the
  // same member without being read token by token. An entry is used only in the
  // IdentTable::memo_epoch it was made in: the epoch changes when an identifier of an entry is
  // defined or undefined as a macro or, for a typedef name or a tag, bound to another
  // declaration (see docs/frontend.md).
  struct alignas(64) MemberMemo {
    char text[32] = {};         // the text, then bytes after it
    const Type* type = nullptr; // the member's type (not in an address space)
    Ident* name = nullptr;      // the member's name
    uint32_t hash = 0;          // MemoKey
    uint32_t epoch = 0;         // 0: empty
    int32_t width = -1;         // bit-field width
    uint8_t len = 0;            // of the text
    uint8_t name_off : 7 = 0;   // where the name starts in it
    uint8_t plain : 1 = 0;      // written in place (see addFastMember())
    uint16_t depth = 0;         // depthOf(type)
  };
  static_assert(sizeof(MemberMemo) == 64, "one cache line");
  std::vector<MemberMemo> memo_;
  struct MemoKey {
    uint32_t hash = 0;
    uint32_t len = 0; // 0: the text has no key (no ';' in its first 32 bytes, too near the end)
    // The text has the shape of `struct TAG *NAME;` or `union TAG *NAME;`: the keyword and a
    // blank first, one '*', no '[' and no ':'. fastMembers() reads such a member without the
    // memo and does not keep it there (the tags differ, the texts seldom repeat), so it does not
    // look it up either: the lookup would load a line of the memo for nothing. (A shortcut only:
    // a text of this shape that the fast path cannot read is read by the general path as it
    // would be after a miss.)
    bool tag_pointer = false;
  };
  static MemoKey memberKey(const char* s, const char* end);
  [[gnu::always_inline]] inline const MemberMemo* memoFind(const char* s, const MemoKey& key) const;
  bool macroIntValue(Macro* m, int32_t& value);
  // The type of each BasicSpec (by key()) that a member's specifiers have had (filled by
  // parseMember(), read by fastMembers()); null: not seen yet.
  std::vector<QType> basic_types_;
  void addMember(const QType& t, Ident* name, const Loc& at, int32_t width, const DeclSpec* ds,
                 const AttrList* dattrs);
  void checkRecord(RecordDecl* rd, const Loc& at, size_t base);
  bool transparentUnionHolds(const RecordDecl* rd) const;
  struct MemberInfo;
  // The member checks of checkRecord() (flexible arrays, duplicate names; the nesting depth).
  void checkMembers(const RecordDecl* rd, const MemberInfo* info, size_t n, uint32_t& depth);
  bool sameType(const Type* a, const Type* b) const;
  bool compatibleFunction(const FunctionType* a, const FunctionType* b) const;
  void handleTagOnlyDecl(DeclSpec& ds);

  // constant expressions
  Value parseExpr(bool eval);
  Value parseAssign(bool eval);
  Value parseConditional(bool eval);
  Value parseBinary(int min_prec, bool eval);
  Value parseCast(bool eval);
  Value parseUnary(bool eval);
  Value parsePostfix(bool eval);
  Value parsePostfixOps(Value v, bool eval); // the postfix operators after the operand v
  Value parsePrimary(bool eval);
  Value parseOffsetof(const Loc& at);
  Value parseSizeofAlignof(Kw which, const Loc& at, bool eval);
  Value parseGeneric(bool eval);
  Value intValue(const Type* t, unsigned __int128 v, bool known = true);
  Value rvalue(const Value& v, const Loc& at);
  Value convert(const Value& v, const Type* to, const Loc& at, bool explicit_cast);
  Value arith(Tok op, const Value& a, const Value& b, const Loc& at, bool eval);
  Value memberAccess(Value base, Ident* name, const Loc& at, bool arrow);
  const Type* promote(const Type* t);
  const Type* usualArith(const Type* a, const Type* b);
  unsigned intBits(const Type* t) const;
  bool intSigned(const Type* t) const;
  unsigned __int128 truncate(unsigned __int128 v, const Type* t) const;
  __int128 signedValue(const Value& v) const;
  bool isZero(const Value& v) const;
  int64_t evalInt(const char* what, const Loc& at, bool strict, __int128* wide = nullptr,
                  const Type** type = nullptr);
  Value literalNumber(const Token& t);
  Value literalChar(const Token& t);
  Value literalString();
  uint64_t sizeOf(const Type* t, const Loc& at, const char* op);
  uint32_t alignOf(const Type* t, const Loc& at, bool preferred);
  bool findField(const RecordDecl* rd, Ident* name, const Type*& type, uint64_t& bit_offset,
                 bool& bitfield, unsigned depth = 0);

  TypeContext& ctx_;
  const LayoutEngine& layout_;
  Preprocessor& pp_;
  IdentTable& ids_;
  Language lang_;
  TranslationUnit tu_;

  Token tok_;
  // What the parser needs of the previous token (its end, for "expected ';' after" messages).
  struct PrevToken {
    Loc loc;
    uint32_t len = 0;
    Tok kind = Tok::Eof;
  } prev_;
  Token la_[4];
  unsigned nla_ = 0;

  std::vector<size_t> scope_marks_;
  struct Undo {
    Ident* id;
    bool tag;
    void* old;
  };
  std::vector<Undo> undo_;
  std::deque<Symbol> symbols_;

  std::unordered_map<const TypedefDecl*, uint32_t> typedef_as_;
  std::unordered_map<const Ident*, uint32_t> as_keywords_;
  std::unordered_map<const Ident*, OpenCLKind> cl_types_;
  std::unordered_map<std::string_view, FunctionDecl*> functions_;
  std::vector<RecordDecl*> pending_anon_; // anonymous records that a typedef may still name
  std::vector<std::pair<const Type*, Loc>> tentative_; // file-scope objects of incomplete type
  // Members of the records being defined (a stack: nested definitions append after their
  // parent's members and are cut off when complete).
  std::vector<FieldDecl> member_stack_;
  struct MemberInfo {
    Loc loc;     // where errors about the member are reported
    Ident* name; // nullptr for unnamed members
  };
  std::vector<MemberInfo> member_info_; // parallel to member_stack_
  // Both vectors are used up to member_n_ (their size is the storage: no per-member push_back).
  size_t member_n_ = 0;
  // The next slot of both vectors, for the caller to fill in place (every field: the slot may
  // hold a member of a record completed earlier).
  // A member read by fastMembers() (no attributes, no _Alignas, a name): what addMember() does
  // for it, with the usual case (a complete object type, not a bit-field) written here, and the
  // body's duplicate-name marks, incomplete-array flag and depth kept up to date.
  // Returns whether the member is of the kind written in place (when there is room).
  bool addFastMember(const QType& t, Ident* name, const Loc& at, int32_t width, BodyState& body) {
    bool incomplete_array = false;
    bool plain = width < 0 && !t.has_as && plainType(t.t, incomplete_array);
    if (incomplete_array) body.clean = false;
    body.add(name, depthOf(t.t));
    if (plain && member_n_ < member_stack_.size())
      writePlainMember(t.t, name, at);
    else
      addMember(t, name, at, width, nullptr, nullptr);
    return plain;
  }
  // A member type addMember() has nothing to check or change in: a complete object type that is
  // not an array of unknown size (`incomplete_array` tells that one).
  static bool plainType(const Type* t, bool& incomplete_array) {
    const Type* c = stripTypedefs(t);
    switch (c->kind) {
    case TypeKind::Int:
    case TypeKind::Float:
    case TypeKind::Pointer:
    case TypeKind::Vector:
    case TypeKind::Complex:
      return true;
    case TypeKind::Array:
      incomplete_array = static_cast<const ArrayType*>(c)->incomplete;
      return !incomplete_array;
    case TypeKind::Record:
      return static_cast<const RecordType*>(c)->decl->complete;
    case TypeKind::Enum:
      return static_cast<const EnumType*>(c)->decl->complete;
    default:
      return false;
    }
  }
  // What addMember() does for a member of plainType(), into the next member slot (there is one).
  void writePlainMember(const Type* t, Ident* name, const Loc& at) {
    MemberInfo& info = member_info_[member_n_];
    info.loc = at;
    info.name = name;
    FieldDecl& f = member_stack_[member_n_++]; // every field written: it may hold an old member
    f.name = intern(name);
    f.type = t;
    f.bit_width = -1;
    f.aligned = 0;
    f.packed = false;
    f.loc = srcLoc(at);
  }
  FieldDecl& pushMember(const Loc& loc, Ident* name) {
    if (member_n_ == member_stack_.size()) {
      size_t n = std::max<size_t>(64, member_n_ * 2);
      member_stack_.resize(n);
      member_info_.resize(n);
    }
    MemberInfo& info = member_info_[member_n_];
    info.loc = loc;
    info.name = name;
    return member_stack_[member_n_++];
  }
  uint32_t mark_ = 0;
  // Nesting depth of the composite types built so far (scalars and enums are 0): Type::nesting.
  static uint32_t depthOf(const Type* t) {
    const Type* u = t->unqualified;
    switch (u->kind) {
    case TypeKind::Void:
    case TypeKind::Int:
    case TypeKind::Float:
    case TypeKind::Enum:
      return 0;
    default:
      return u->nesting;
    }
  }
  void checkDepth(uint32_t d, const Loc& at) const {
    if (d > kMaxTypeDepth)
      fail(at, "type nested too deeply (more than " + std::to_string(kMaxTypeDepth) +
                   " levels of arrays, pointers, typedefs, records and functions)");
  }
  // The nesting depth of a pointer to `pointee` (checked against the limit).
  uint32_t pointerDepth(const Type* pointee, const Loc& at) const {
    uint32_t d = depthOf(pointee) + 1;
    checkDepth(d, at);
    return d;
  }
  static void setDepth(const Type* t, uint32_t d) {
    if (d) t->unqualified->nesting = uint16_t(d); // d <= kMaxTypeDepth (checkDepth)
  }
  // Direct-mapped caches in front of the TypeContext's interning tables.
  struct PtrCacheEntry {
    const Type* pointee = nullptr;
    uint32_t as = 0;
    const Type* result = nullptr;
  };
  std::vector<PtrCacheEntry> ptr_cache_ = std::vector<PtrCacheEntry>(4096);
  const Type* pointerTo(const Type* pointee, uint32_t as) {
    size_t h = ((reinterpret_cast<uintptr_t>(pointee) >> 4) ^ as) & 4095;
    PtrCacheEntry& e = ptr_cache_[h];
    if (e.pointee == pointee && e.as == as && e.result) return e.result;
    e.pointee = pointee;
    e.as = as;
    e.result = ctx_.pointerTo(pointee, as);
    return e.result;
  }
  // Complete array types made by applyArray() (element, count): one made once passes its checks
  // again (a complete element stays complete; the size is the same).
  struct ArrCacheEntry {
    const Type* element = nullptr;
    uint64_t count = 0;
    const Type* result = nullptr;
  };
  std::vector<ArrCacheEntry> arr_cache_ = std::vector<ArrCacheEntry>(1024);
  // Every recursive descent of the parser enters through one guard (NestGuard, shared with the
  // #if evaluator): one counter of the levels entered, one limit (kMaxNesting), so that no mix of
  // constructs (typeof in _Alignas in a parameter list in an enum's underlying type...) can nest
  // deeper and the stack stays bounded.
  class Nest : NestGuard {
  public:
    Nest(Parser& p, const Loc& at, const char* what) : NestGuard(p.nesting_, kMaxNesting) {
      if (tooDeep()) p.fail(at, std::string(what) + " nested too deeply");
    }
  };
  // f() (a subexpression's parse) one expression level deeper.
  template <class F> auto nested(const Loc& at, F&& f) {
    Nest nest(*this, at, "expression");
    return f();
  }
  unsigned nesting_ = 0;
  const Type* size_type_ = nullptr;
  const Type* ptrdiff_type_ = nullptr;
  const Type* int_ = nullptr;
};

// ----- set-up and tokens ----------------------------------------------------------------------

Parser::Parser(TypeContext& ctx, const LayoutEngine& layout, Preprocessor& pp, IdentTable& ids)
    : ctx_(ctx), layout_(layout), pp_(pp), ids_(ids), lang_(ctx.language()) {
  uint8_t mask = lang_ == Language::OpenCL                             ? kLangCL
                 : (lang_ == Language::CUDA || lang_ == Language::HIP) ? kLangCxx
                                                                       : kLangC;
  for (const KwEntry& k : kKeywords)
    if (k.langs & mask) ids_.get(k.spelling)->keyword = uint16_t(k.kw);
  id_struct_ = ids_.get("struct");
  id_union_ = ids_.get("union");
  // Address-space qualifiers from the target.
  for (const AddressSpaceInfo& a : ctx.target().address_spaces) {
    if (a.c_spelling.empty()) continue;
    Ident* id = ids_.getCopy(a.c_spelling);
    id->keyword = kKwAddrSpace;
    as_keywords_[id] = a.number;
  }
  if (lang_ == Language::OpenCL) {
    // OpenCL's qualifiers, with and without "__"; the number is the target's for that
    // spelling, else 0 (clang's default address-space map).
    for (const char* n : {"global", "local", "constant", "private", "generic"}) {
      std::string prefixed = std::string("__") + n;
      uint32_t num = 0;
      for (const AddressSpaceInfo& a : ctx.target().address_spaces)
        if (a.c_spelling == prefixed) num = a.number;
      for (const std::string& s : {std::string(n), prefixed}) {
        Ident* id = ids_.getCopy(s);
        id->keyword = kKwAddrSpace;
        as_keywords_[id] = num;
      }
    }
    for (const CLTypeEntry& e : kCLTypes) {
      Ident* id = ids_.get(e.spelling);
      id->keyword = kKwCLType;
      cl_types_[id] = e.kind;
    }
  }
  const DataModel& d = ctx.data();
  size_type_ = ctx.intType(d.size_type);
  ptrdiff_type_ = ctx.intType(d.ptrdiff_type);
  int_ = ctx.intType(IntKind::Int);
}

void Parser::consumeSlow() {
  if (nla_) {
    tok_ = la_[0];
    for (unsigned i = 1; i < nla_; ++i) la_[i - 1] = la_[i];
    --nla_;
  }
  if (tok_.kind == Tok::Unknown) {
    if (tok_.flags & kTokUnterminated) {
      char q = '"';
      for (char c : tok_.text())
        if (c == '\'' || c == '"') {
          q = c;
          break;
        }
      fail(tok_.loc,
           q == '\'' ? "missing terminating ' character" : "missing terminating '\"' character");
    }
    std::string_view c = "?";
    if (tok_.len) c = tok_.ptr[0] == '\0' ? std::string_view("\\0") : std::string_view(tok_.ptr, 1);
    fail(tok_.loc, "unexpected character '" + std::string(c) + "'");
  }
}

const Token& Parser::peekTok(unsigned n) {
  while (nla_ <= n) {
    pp_.next(la_[nla_]);
    ++nla_;
  }
  return la_[n];
}

std::string Parser::tokenText(const Token& t) const {
  switch (t.kind) {
  case Tok::Eof:
    return "end of file";
  case Tok::Eod:
    return "end of line";
  default:
    return "'" + std::string(t.text()) + "'";
  }
}

void Parser::failUnexpected(const char* expected) {
  fail(tok_.loc, std::string("expected ") + expected + ", found " + tokenText(tok_));
}

void Parser::expect(Tok k, const char* context) {
  if (tok_.kind == k) {
    consume();
    return;
  }
  std::string msg = "expected '" + std::string(punctuatorSpelling(k)) + "'";
  if (context && *context) msg += std::string(" ") + context;
  fail(tok_.loc, msg);
}

void Parser::popScope() {
  size_t mark = scope_marks_.back();
  scope_marks_.pop_back();
  while (undo_.size() > mark) {
    Undo& u = undo_.back();
    if (u.tag)
      u.id->tag = u.old;
    else
      u.id->ordinary = u.old;
    if (u.id->memo & kIdMemoBind) ++ids_.memo_epoch;
    undo_.pop_back();
  }
}

void Parser::bind(Ident* id, Symbol* s) {
  if (depth() > 0) undo_.push_back({id, false, id->ordinary});
  id->ordinary = s;
  if (id->memo & kIdMemoBind) ++ids_.memo_epoch;
}

void Parser::bindTag(Ident* id, TagSym* s) {
  if (depth() > 0) undo_.push_back({id, true, id->tag});
  id->tag = s;
  if (id->memo & kIdMemoBind) ++ids_.memo_epoch;
}

Symbol* Parser::newSymbol(Symbol::Kind k, const Loc& loc) {
  Symbol& s = symbols_.emplace_back();
  s.kind = k;
  s.depth = depth();
  s.loc = loc;
  return &s;
}

bool Parser::isTypeName(const Token& t) const {
  if (t.kind != Tok::Ident) return false;
  Symbol* s = lookup(t.ident);
  if (s) return s->kind == Symbol::Typedef;
  // C++ (CUDA/HIP): a tag name is also a type name.
  if (lang_ == Language::CUDA || lang_ == Language::HIP) return lookupTag(t.ident) != nullptr;
  return false;
}

bool Parser::startsDeclSpec(const Token& t) const {
  if (t.kind != Tok::Ident) return t.kind == Tok::LBracket; // [[ attributes
  switch (t.ident->keyword) {
  case kKwTypedef:
  case kKwExtern:
  case kKwStatic:
  case kKwAuto:
  case kKwRegister:
  case kKwThreadLocal:
  case kKwInline:
  case kKwNoreturn:
  case kKwAttribute:
  case kKwExtension:
  case kKwAlignas:
  case kKwKernel:
  case kKwDeclspec:
    return true;
  default:
    return startsTypeName(t);
  }
}

bool Parser::startsTypeName(const Token& t) const {
  if (t.kind != Tok::Ident) return false;
  switch (t.ident->keyword) {
  case kKwConst:
  case kKwVolatile:
  case kKwRestrict:
  case kKwAtomic:
  case kKwNullability:
  case kKwAddrSpace:
  case kKwVoid:
  case kKwChar:
  case kKwShort:
  case kKwInt:
  case kKwLong:
  case kKwFloat:
  case kKwDouble:
  case kKwSigned:
  case kKwUnsigned:
  case kKwBool:
  case kKwComplex:
  case kKwImaginary:
  case kKwInt128:
  case kKwBitInt:
  case kKwFloat16:
  case kKwFp16:
  case kKwHalf:
  case kKwBf16:
  case kKwFloat128:
  case kKwStruct:
  case kKwUnion:
  case kKwEnum:
  case kKwTypeof:
  case kKwTypeofUnqual:
  case kKwAutoType:
  case kKwReadOnly:
  case kKwWriteOnly:
  case kKwReadWrite:
  case kKwPipe:
  case kKwCLType:
  case kKwAttribute:
  case kKwExtension:
  case kKwAlignas:
    return true;
  case kKwNone:
    return isTypeName(t);
  default:
    return false;
  }
}

// ----- attributes -----------------------------------------------------------------------------

bool Parser::atAttribute() const {
  if (tok_.kind == Tok::Ident) return tok_.ident->keyword == kKwAttribute;
  if (tok_.kind == Tok::LBracket) {
    const Token& n = const_cast<Parser*>(this)->peekTok(0);
    return n.kind == Tok::LBracket;
  }
  return false;
}

void Parser::parseAttributesSlow(AttrList& out) {
  while (atAttribute()) {
    if (tok_.kind == Tok::LBracket)
      parseC2xAttribute(out);
    else
      parseGnuAttribute(out);
  }
}

void Parser::skipBalanced(Tok open, Tok close) {
  // tok_ is `open`.
  Loc at = tok_.loc;
  unsigned depth = 0;
  for (;;) {
    if (tok_.kind == Tok::Eof)
      fail(at, "expected '" + std::string(punctuatorSpelling(close)) + "' to match this '" +
                   std::string(punctuatorSpelling(open)) + "'");
    if (tok_.kind == open)
      ++depth;
    else if (tok_.kind == close && --depth == 0) {
      consume();
      return;
    }
    consume();
  }
}

void Parser::parseAttributeArgs(Attr& a, ArgStyle style) {
  bool paren = tok_.kind == Tok::LParen;
  switch (style) {
  case ArgStyle::None:
    if (paren) {
      // An empty argument list is accepted (clang does too).
      if (peekTok(0).kind == Tok::RParen) {
        consume();
        consume();
        return;
      }
      fail(a.loc, "attribute '" + std::string(a.name) + "' takes no arguments");
    }
    return;
  case ArgStyle::Skip:
    if (paren) skipBalanced(Tok::LParen, Tok::RParen);
    return;
  case ArgStyle::OptInt:
    if (!paren) return;
    [[fallthrough]];
  case ArgStyle::Int: {
    if (!paren) fail(a.loc, "attribute '" + std::string(a.name) + "' takes one argument");
    consume();
    Loc at = tok_.loc;
    __int128 v = 0;
    evalInt("attribute argument", at, false, &v);
    if (v < 0) fail(at, "attribute '" + std::string(a.name) + "' argument must be non-negative");
    if (v > (__int128(1) << 62))
      fail(at, "attribute '" + std::string(a.name) + "' argument is too large");
    a.has_arg = true;
    a.value = uint64_t(v);
    expect(Tok::RParen, "after attribute argument");
    return;
  }
  case ArgStyle::Ident:
    if (!paren) fail(a.loc, "attribute '" + std::string(a.name) + "' takes one argument");
    consume();
    if (tok_.kind != Tok::Ident) failUnexpected("an identifier");
    a.ident = tok_.ident;
    a.has_arg = true;
    consume();
    expect(Tok::RParen, "after attribute argument");
    return;
  }
}

void Parser::checkUnsupported(const Attr& a) const {
  if (a.kind == AttrKind::Unsupported)
    fail(a.loc, "unsupported attribute '" + std::string(a.name) + "'", true);
}

void Parser::parseGnuAttribute(AttrList& out) {
  Loc at = tok_.loc;
  consume(); // __attribute__
  expect(Tok::LParen, "after '__attribute__'");
  expect(Tok::LParen, "after '__attribute__('");
  for (;;) {
    if (tok_.kind == Tok::RParen) break;
    if (tok_.kind == Tok::Comma) {
      consume();
      continue;
    }
    if (tok_.kind != Tok::Ident) failUnexpected("an attribute name");
    Attr a;
    a.name = normaliseAttrName(tok_.ident->name);
    a.loc = tok_.loc;
    const AttrEntry* e = findAttribute(a.name);
    if (!e) fail(a.loc, "unsupported attribute '" + std::string(a.name) + "'", true);
    a.kind = e->kind;
    consume();
    parseAttributeArgs(a, e->args);
    checkUnsupported(a);
    if (a.kind == AttrKind::OpenCLAddrSpace) {
      std::string spelling = "__" + std::string(a.name.substr(7)); // opencl_global -> __global
      a.as = 0;
      for (const AddressSpaceInfo& s : ctx_.target().address_spaces)
        if (s.c_spelling == spelling) a.as = s.number;
    }
    if (a.kind != AttrKind::Ignored) out.push_back(a);
    if (tok_.kind == Tok::Comma) {
      consume();
      continue;
    }
    if (tok_.kind != Tok::RParen) failUnexpected("',' or ')' in the attribute list");
  }
  consume();
  if (tok_.kind != Tok::RParen) fail(at, "expected ')' to close '__attribute__(('");
  consume();
}

void Parser::parseC2xAttribute(AttrList& out) {
  consume(); // [
  consume(); // [
  for (;;) {
    if (tok_.kind == Tok::RBracket) break;
    if (tok_.kind == Tok::Comma) {
      consume();
      continue;
    }
    if (tok_.kind != Tok::Ident) failUnexpected("an attribute name");
    Attr a;
    a.c2x = true;
    a.loc = tok_.loc;
    std::string_view scope;
    std::string_view name = tok_.ident->name;
    consume();
    if (tok_.kind == Tok::ColonColon) {
      consume();
      if (tok_.kind != Tok::Ident) failUnexpected("an attribute name after '::'");
      scope = name;
      name = tok_.ident->name;
      consume();
    }
    a.name = normaliseAttrName(name);
    const AttrEntry* e = nullptr;
    if (scope.empty()) {
      if (hasAttribute("", a.name, true))
        e = findAttribute(a.name == "nodiscard" ? "nodiscard" : a.name);
      if (!e && hasAttribute("", a.name, true)) {
        static const AttrEntry kStd = {"", AttrKind::Ignored, ArgStyle::Skip};
        e = &kStd;
      }
    } else if (hasAttribute(scope, a.name, false)) {
      e = findAttribute(a.name);
    }
    if (!e)
      fail(a.loc,
           "unsupported attribute '" + (scope.empty() ? "" : std::string(scope) + "::") +
               std::string(a.name) + "'",
           true);
    a.kind = e->kind;
    parseAttributeArgs(a, e->args);
    checkUnsupported(a);
    if (a.kind != AttrKind::Ignored) out.push_back(a);
  }
  consume();
  if (tok_.kind != Tok::RBracket) failUnexpected("']]' to close the attribute list");
  consume();
}

uint64_t Parser::attrAlignment(const Attr& a) const {
  uint64_t v = a.has_arg ? a.value : ctx_.data().default_aligned_attr;
  if (v == 0 || (v & (v - 1))) fail(a.loc, "requested alignment is not a power of 2");
  if (v > (uint64_t(1) << 32))
    fail(a.loc, "requested alignment must be 4294967296 bytes or smaller");
  if (v > (uint64_t(1) << 31))
    fail(a.loc, "requested alignment of " + std::to_string(v) + " bytes is not supported", true);
  return v;
}

QType Parser::applyMode(const Attr& a, QType t) {
  std::string_view m = normaliseAttrName(a.ident->name);
  const Type* cur = stripTypedefs(t.t);
  const DataModel& d = ctx_.data();
  unsigned width = 0;
  bool integer = true;
  bool explicit_ld = false;
  if (m.size() == 2 && (m[1] == 'I' || m[1] == 'F')) {
    switch (m[0]) {
    case 'Q':
      width = 8;
      break;
    case 'H':
      width = 16;
      break;
    case 'S':
      width = 32;
      break;
    case 'D':
      width = 64;
      break;
    case 'X':
      width = 96;
      break;
    case 'T':
      width = 128;
      explicit_ld = true;
      break;
    default:
      break;
    }
    integer = m[1] == 'I';
  } else if (m == "word") {
    width = d.pointer.size * 8u; // clang: the register width, which is the pointer width here
  } else if (m == "byte") {
    width = 8;
  } else if (m == "pointer") {
    width = d.pointer.size * 8u;
  } else if (m == "unwind_word") {
    width = d.pointer.size * 8u;
  }
  if (width == 0 || (m.size() == 2 && m[1] == 'C') || (m.size() >= 2 && m[0] == 'V'))
    fail(a.loc, "unsupported machine mode '" + std::string(a.ident->name) + "'", true);
  if (cur->kind == TypeKind::Enum)
    fail(a.loc, "mode attribute on an enumeration type is not supported", true);
  if (cur->kind == TypeKind::Vector)
    fail(a.loc, "mode attribute on a vector type is not supported", true);
  if (cur->kind != TypeKind::Int && cur->kind != TypeKind::Float)
    fail(a.loc, "mode attribute only supported for integer and floating-point types");
  if (integer) {
    if (cur->kind != TypeKind::Int)
      fail(a.loc, "type of machine mode does not match type of base type");
    bool sgn = static_cast<const IntType*>(cur)->is_signed;
    const IntKind order[] = {IntKind::SChar, IntKind::Short, IntKind::Int, IntKind::Long,
                             IntKind::LongLong};
    for (IntKind k : order) {
      if (d.of(k).size * 8u == width) {
        QType r = t;
        r.t = ctx_.qualified(ctx_.intType(sgn ? k : toUnsignedKind(k)), t.t->quals);
        return r;
      }
    }
    if (width == 128 && d.of(IntKind::Int128).supported()) {
      QType r = t;
      r.t = ctx_.qualified(ctx_.intType(sgn ? IntKind::Int128 : IntKind::UInt128), t.t->quals);
      return r;
    }
    fail(a.loc,
         "machine mode '" + std::string(a.ident->name) + "' is not supported on this target");
  }
  if (cur->kind != TypeKind::Float)
    fail(a.loc, "type of machine mode does not match type of base type");
  FloatKind fk;
  bool found = true;
  if (d.of(FloatKind::Float).size * 8u == width)
    fk = FloatKind::Float;
  else if (d.of(FloatKind::Double).size * 8u == width)
    fk = FloatKind::Double;
  else if (width == 96 && d.float_formats[size_t(FloatKind::LongDouble)] == FloatFormat::X87)
    fk = FloatKind::LongDouble;
  else if (width == 128 &&
           (d.float_formats[size_t(FloatKind::LongDouble)] == FloatFormat::IEEEQuad))
    fk = FloatKind::LongDouble;
  else if (width == 128 && d.of(FloatKind::Float128).supported())
    fk = FloatKind::Float128;
  else
    found = false;
  (void)explicit_ld;
  if (!found)
    fail(a.loc,
         "machine mode '" + std::string(a.ident->name) + "' is not supported on this target");
  QType r = t;
  r.t = ctx_.qualified(ctx_.floatType(fk), t.t->quals);
  return r;
}

QType Parser::applyTypeAttr(const Attr& a, QType t, bool is_typedef) {
  switch (a.kind) {
  case AttrKind::AddressSpace:
    if (a.value > 0x7FFFFF)
      fail(a.loc, "address space is larger than the maximum supported (8388587)");
    t.as = uint32_t(a.value);
    t.has_as = true;
    return t;
  case AttrKind::OpenCLAddrSpace:
    t.as = a.as;
    t.has_as = true;
    return t;
  case AttrKind::VectorSize: {
    const Type* e = stripTypedefs(t.t);
    bool ok = (e->kind == TypeKind::Int && static_cast<const IntType*>(e)->ikind != IntKind::Bool &&
               !static_cast<const IntType*>(e)->is_bitint) ||
              e->kind == TypeKind::Float;
    if (!ok) fail(a.loc, "invalid vector element type '" + typeStr(t.t) + "'");
    uint64_t esize = sizeOf(t.t, a.loc, "vector_size");
    if (a.value == 0) fail(a.loc, "zero vector size");
    if (esize == 0 || a.value % esize)
      fail(a.loc, "vector size not an integral multiple of component size");
    if (a.value / esize > 0xFFFFFFFFull) fail(a.loc, "vector size too large");
    QType r = t;
    r.t = ctx_.qualified(ctx_.vectorOf(ctx_.qualified(t.t->unqualified, 0),
                                       uint32_t(a.value / esize), VectorKind::Generic),
                         t.t->quals);
    return r;
  }
  case AttrKind::ExtVectorType: {
    if (!is_typedef) fail(a.loc, "'ext_vector_type' attribute only applies to typedefs");
    const Type* e = stripTypedefs(t.t);
    bool ok = e->kind == TypeKind::Int || e->kind == TypeKind::Float;
    if (!ok) fail(a.loc, "invalid vector element type '" + typeStr(t.t) + "'");
    if (a.value == 0) fail(a.loc, "zero vector size");
    if (a.value > 0xFFFFFFFFull) fail(a.loc, "vector size too large");
    QType r = t;
    r.t = ctx_.qualified(ctx_.vectorOf(t.t->unqualified, uint32_t(a.value), VectorKind::Ext),
                         t.t->quals);
    return r;
  }
  case AttrKind::Mode:
    return applyMode(a, t);
  default:
    return t;
  }
}

// ----- declaration specifiers -----------------------------------------------------------------

void Parser::setBase(DeclSpec& ds, DeclSpec::Base b, const Token& at) {
  if (ds.base != DeclSpec::None) {
    if (ds.tag_defined && prev_.kind == Tok::RBrace) {
      Loc after = prev_.loc;
      after.col += prev_.len;
      after.offset += prev_.len;
      const char* what = ds.record ? (ds.record->is_union ? "union" : "struct") : "enum";
      fail(after, std::string("expected ';' after ") + what);
    }
    fail(at.loc,
         "cannot combine '" + std::string(at.text()) + "' with the previous type specifiers");
  }
  ds.base = b;
  if (!ds.any_type) ds.type_loc = at.loc;
  ds.any_type = true;
  ds.any = true;
}

void Parser::parseDeclSpec(DeclSpec& ds, DeclContext dc) {
  ds.loc = tok_.loc;
  parseDeclSpecRest(ds, dc);
}

void Parser::parseDeclSpecRest(DeclSpec& ds, DeclContext dc) {
  auto conflict = [&](const Token& t) {
    if (ds.tag_defined && prev_.kind == Tok::RBrace) {
      Loc after = prev_.loc;
      after.col += prev_.len;
      after.offset += prev_.len;
      const char* what = ds.record ? (ds.record->is_union ? "union" : "struct") : "enum";
      fail(after, std::string("expected ';' after ") + what);
    }
    fail(t.loc, "cannot combine '" + std::string(t.text()) + "' with the previous type specifiers");
  };
  for (;;) {
    if (atAttribute()) {
      parseAttributes(ds.attrs);
      ds.any = true;
      continue;
    }
    if (tok_.kind != Tok::Ident) break;
    Ident* id = tok_.ident;
    Kw kw = Kw(id->keyword);
    const Token& t = tok_; // only read before the token is consumed
    switch (kw) {
    case kKwTypedef:
    case kKwExtern:
    case kKwStatic:
    case kKwAuto:
    case kKwRegister:
      if (dc == DeclContext::Member || dc == DeclContext::TypeName)
        fail(t.loc, "type name does not allow storage class to be specified");
      if (ds.storage != kKwNone && !(ds.storage == kw))
        fail(t.loc,
             "cannot combine with previous '" + std::string(t.text()) + "' declaration specifier");
      ds.storage = kw;
      ds.storage_loc = t.loc;
      ds.any = true;
      consume();
      if (kw == kKwExtern && tok_.kind == Tok::String &&
          (lang_ == Language::CUDA || lang_ == Language::HIP)) {
        // extern "C" in CUDA/HIP sources.
        if (tok_.text() != "\"C\"" && tok_.text() != "\"C++\"")
          fail(tok_.loc, "unknown linkage language " + std::string(tok_.text()));
        consume();
        ds.cxx_extern_c = true;
      }
      continue;
    case kKwThreadLocal:
      ds.thread_local_ = true;
      ds.any = true;
      consume();
      continue;
    case kKwInline:
      ds.inline_ = true;
      ds.any = true;
      consume();
      continue;
    case kKwNoreturn:
      ds.noreturn = true;
      ds.any = true;
      consume();
      continue;
    case kKwExtension:
      consume();
      continue;
    case kKwConst:
      ds.quals |= kQualConst;
      ds.any = true;
      consume();
      continue;
    case kKwVolatile:
      ds.quals |= kQualVolatile;
      ds.any = true;
      consume();
      continue;
    case kKwRestrict:
      ds.quals |= kQualRestrict;
      ds.any = true;
      consume();
      continue;
    case kKwNullability:
      consume();
      continue;
    case kKwAtomic:
      fail(t.loc, "_Atomic is not supported", true);
    case kKwAddrSpace:
      if (ds.has_as && ds.as != as_keywords_[id])
        fail(t.loc, "multiple address spaces specified for type");
      ds.has_as = true;
      ds.as = as_keywords_[id];
      ds.any = true;
      consume();
      continue;
    case kKwDeclspec:
      fail(t.loc, "'__declspec' is not supported", true);
    case kKwCxxOnly:
      fail(t.loc, "C++ '" + std::string(t.text()) + "' is not supported (C declarations only)",
           true);
    case kKwAutoType:
      fail(t.loc, "'__auto_type' is not supported", true);
    case kKwImaginary:
      fail(t.loc, "_Imaginary is not supported", true);
    case kKwKernel:
      ds.kernel = true;
      ds.any = true;
      consume();
      continue;
    case kKwReadOnly:
    case kKwWriteOnly:
    case kKwReadWrite: {
      AccessQual q = kw == kKwReadOnly    ? AccessQual::ReadOnly
                     : kw == kKwWriteOnly ? AccessQual::WriteOnly
                                          : AccessQual::ReadWrite;
      if (ds.access != AccessQual::None && ds.access != q)
        fail(t.loc, "multiple access qualifiers");
      ds.access = q;
      ds.access_loc = t.loc;
      ds.any = true;
      consume();
      continue;
    }
    case kKwPipe:
      ds.pipe = true;
      ds.any = true;
      consume();
      continue;
    case kKwAlignas:
      parseAlignas(ds);
      ds.any = true;
      continue;
    case kKwVoid:
      setBase(ds, DeclSpec::Void, t);
      consume();
      continue;
    case kKwChar:
      setBase(ds, DeclSpec::Char, t);
      consume();
      continue;
    case kKwInt:
      if (ds.base == DeclSpec::Int) conflict(t);
      if (ds.base != DeclSpec::None) conflict(t);
      ds.base = DeclSpec::Int;
      if (!ds.any_type) ds.type_loc = t.loc;
      ds.any_type = ds.any = true;
      consume();
      continue;
    case kKwFloat:
      setBase(ds, DeclSpec::Float, t);
      consume();
      continue;
    case kKwDouble:
      setBase(ds, DeclSpec::Double, t);
      consume();
      continue;
    case kKwBool:
      setBase(ds, DeclSpec::Bool, t);
      consume();
      continue;
    case kKwInt128:
      setBase(ds, DeclSpec::Int128, t);
      consume();
      continue;
    case kKwFloat16:
      setBase(ds, DeclSpec::Float16, t);
      consume();
      continue;
    case kKwFp16:
    case kKwHalf:
      setBase(ds, DeclSpec::Fp16, t);
      consume();
      continue;
    case kKwBf16:
      setBase(ds, DeclSpec::Bf16, t);
      consume();
      continue;
    case kKwFloat128:
      setBase(ds, DeclSpec::Float128, t);
      consume();
      continue;
    case kKwBitInt: {
      setBase(ds, DeclSpec::BitInt, t);
      consume();
      expect(Tok::LParen, "after '_BitInt'");
      Loc at = tok_.loc;
      __int128 v = 0;
      evalInt("_BitInt width", at, false, &v);
      if (v < 1 || v > 0xFFFF) fail(at, "_BitInt width must be between 1 and 65535");
      ds.bitint_bits = unsigned(v);
      expect(Tok::RParen, "after the _BitInt width");
      continue;
    }
    case kKwShort:
      if (ds.short_ || ds.longs) conflict(t);
      ds.short_ = true;
      if (!ds.any_type) ds.type_loc = t.loc;
      ds.any_type = ds.any = true;
      consume();
      continue;
    case kKwLong:
      if (ds.short_ || ds.longs >= 2) conflict(t);
      ++ds.longs;
      if (!ds.any_type) ds.type_loc = t.loc;
      ds.any_type = ds.any = true;
      consume();
      continue;
    case kKwSigned:
    case kKwUnsigned:
      if (ds.sign) conflict(t);
      ds.sign = kw == kKwSigned ? 1 : 2;
      if (!ds.any_type) ds.type_loc = t.loc;
      ds.any_type = ds.any = true;
      consume();
      continue;
    case kKwComplex:
      if (ds.complex_) conflict(t);
      ds.complex_ = true;
      if (!ds.any_type) ds.type_loc = t.loc;
      ds.any_type = ds.any = true;
      consume();
      continue;
    case kKwStruct:
    case kKwUnion:
    case kKwEnum:
      if (ds.any_type) conflict(t);
      parseTagSpecifier(ds, dc);
      continue;
    case kKwTypeof:
    case kKwTypeofUnqual:
      if (ds.any_type) conflict(t);
      parseTypeof(ds, kw == kKwTypeofUnqual);
      continue;
    case kKwCLType: {
      if (ds.any_type) conflict(t);
      ds.base = DeclSpec::Named;
      ds.named = QType{ctx_.openclType(cl_types_[id])};
      ds.type_loc = t.loc;
      ds.any_type = ds.any = true;
      consume();
      continue;
    }
    case kKwNone: {
      if (ds.any_type) break; // the declarator's name
      Symbol* s = lookup(id);
      if (s && s->kind == Symbol::Typedef) {
        ds.base = DeclSpec::Named;
        ds.named = s->type;
        ds.type_loc = t.loc;
        ds.is_typedef_name = true;
        ds.any_type = ds.any = true;
        consume();
        continue;
      }
      if (!s && (lang_ == Language::CUDA || lang_ == Language::HIP)) {
        if (TagSym* tg = lookupTag(id)) {
          ds.base = DeclSpec::Named;
          ds.named = QType{tg->type};
          ds.type_loc = t.loc;
          ds.any_type = ds.any = true;
          consume();
          continue;
        }
      }
      // An unknown identifier where a type is expected.
      const Token& n = peekTok(0);
      bool looks_like_type = n.kind == Tok::Ident ||
                             (n.kind == Tok::Star && dc != DeclContext::TypeName) ||
                             (dc == DeclContext::Param && !s && n.kind != Tok::Comma &&
                              n.kind != Tok::RParen && n.kind != Tok::LBracket) ||
                             (dc == DeclContext::TypeName);
      if (!s && looks_like_type &&
          !(n.kind == Tok::Ident && n.ident->keyword != kKwNone &&
            n.ident->keyword != kKwAttribute && n.ident->keyword != kKwAsm && !startsTypeName(n)))
        fail(t.loc, "unknown type name '" + std::string(id->name) + "'");
      break;
    }
    default:
      break;
    }
    break;
  }
}

const IntType* Parser::intTypeFor(DeclSpec& ds, const Loc& at) {
  const DataModel& d = ctx_.data();
  IntKind k;
  if (ds.base == DeclSpec::Char) {
    if (ds.short_ || ds.longs) fail(at, "'char' cannot be combined with 'short' or 'long'");
    k = ds.sign == 1 ? IntKind::SChar : ds.sign == 2 ? IntKind::UChar : IntKind::Char;
  } else if (ds.base == DeclSpec::Int128) {
    if (ds.short_ || ds.longs) fail(at, "'__int128' cannot be combined with 'short' or 'long'");
    k = ds.sign == 2 ? IntKind::UInt128 : IntKind::Int128;
  } else {
    if (ds.short_)
      k = IntKind::Short;
    else if (ds.longs == 1)
      k = IntKind::Long;
    else if (ds.longs == 2)
      k = IntKind::LongLong;
    else
      k = IntKind::Int;
    if (ds.sign == 2) k = toUnsignedKind(k);
  }
  if (!d.of(k).supported()) {
    if (k == IntKind::Int128 || k == IntKind::UInt128)
      fail(at, "__int128 is not supported on this target", true);
    fail(at,
         "'" + std::string(k == IntKind::LongLong ? "long long" : "this integer type") +
             "' is not supported on this target",
         true);
  }
  return ctx_.intType(k);
}

QType Parser::finishDeclSpec(DeclSpec& ds, DeclContext dc) {
  // The common case first: a typedef or tag name alone (what the code below returns for it).
  if (namedAlone(ds)) return ds.named;
  const DataModel& d = ctx_.data();
  Loc at = ds.any_type ? ds.type_loc : ds.loc;
  QType r;
  if (!ds.any_type) {
    if (!ds.any) {
      if (dc == DeclContext::Member) failUnexpected("a type name");
      fail(tok_.loc, "expected a type specifier");
    }
    // C89 implicit int (clang warns).
    if (lang_ != Language::C) fail(at, "a type specifier is required for all declarations");
    r.t = int_;
  } else {
    bool intlike = ds.short_ || ds.longs || ds.sign;
    switch (ds.base) {
    case DeclSpec::None:
      if (ds.complex_ && !intlike) {
        // plain _Complex is _Complex double (clang warns)
        r.t = ctx_.complexOf(ctx_.floatType(FloatKind::Double));
        ds.complex_ = false;
        break;
      }
      r.t = intTypeFor(ds, at);
      break;
    case DeclSpec::Int:
    case DeclSpec::Char:
    case DeclSpec::Int128:
      r.t = intTypeFor(ds, at);
      break;
    case DeclSpec::Void:
      if (intlike) fail(at, "'void' cannot be combined with other type specifiers");
      r.t = ctx_.voidType();
      break;
    case DeclSpec::Bool:
      if (intlike) fail(at, "'_Bool' cannot be combined with other type specifiers");
      r.t = ctx_.intType(IntKind::Bool);
      break;
    case DeclSpec::BitInt: {
      if (ds.short_ || ds.longs) fail(at, "'_BitInt' cannot be combined with 'short' or 'long'");
      bool sgn = ds.sign != 2;
      if (d.bitint_max_width == 0) fail(at, "_BitInt is not supported on this target", true);
      if (ds.bitint_bits > d.bitint_max_width)
        fail(at, std::string(sgn ? "signed" : "unsigned") + " _BitInt of bit sizes greater than " +
                     std::to_string(d.bitint_max_width) + " not supported");
      if (sgn && ds.bitint_bits < 2) fail(at, "signed _BitInt must have a bit size of at least 2");
      r.t = ctx_.bitIntType(ds.bitint_bits, sgn);
      break;
    }
    case DeclSpec::Float:
    case DeclSpec::Double:
    case DeclSpec::Float16:
    case DeclSpec::Fp16:
    case DeclSpec::Bf16:
    case DeclSpec::Float128: {
      if (ds.sign || ds.short_ || (ds.longs && ds.base != DeclSpec::Double) || ds.longs > 1)
        fail(at, "invalid combination of floating-point type specifiers");
      FloatKind fk = ds.base == DeclSpec::Float ? FloatKind::Float
                     : ds.base == DeclSpec::Double
                         ? (ds.longs ? FloatKind::LongDouble : FloatKind::Double)
                     : ds.base == DeclSpec::Float16 ? FloatKind::Float16
                     : ds.base == DeclSpec::Fp16    ? FloatKind::Fp16
                     : ds.base == DeclSpec::Bf16    ? FloatKind::BFloat16
                                                    : FloatKind::Float128;
      if (!d.of(fk).supported()) {
        const char* names[] = {"__fp16", "_Float16",    "__bf16",    "float",
                               "double", "long double", "__float128"};
        fail(at, std::string(names[size_t(fk)]) + " is not supported on this target", true);
      }
      r.t = ctx_.floatType(fk);
      break;
    }
    case DeclSpec::Named:
      if (intlike || ds.complex_) fail(at, "cannot combine a type name with other type specifiers");
      r = ds.named;
      break;
    }
    if (ds.complex_) {
      const Type* e = stripTypedefs(r.t);
      if (e->kind != TypeKind::Float && e->kind != TypeKind::Int)
        fail(at, "_Complex requires an arithmetic element type");
      r.t = ctx_.complexOf(r.t);
    }
  }
  if (ds.pipe) {
    r.t = ctx_.openclType(OpenCLKind::Pipe,
                          ds.access == AccessQual::None ? AccessQual::ReadOnly : ds.access, r.t);
  } else if (ds.access != AccessQual::None) {
    auto* ot = dyn<OpenCLType>(stripTypedefs(r.t));
    if (!ot || ot->okind > OpenCLKind::Image3d)
      fail(ds.access_loc, "access qualifier can only be used for pipe and image type");
    r.t = ctx_.openclType(ot->okind, ds.access);
  } else if (auto* ot = dyn<OpenCLType>(r.t)) {
    if (ot->okind <= OpenCLKind::Image3d && ot->access == AccessQual::None)
      r.t = ctx_.openclType(ot->okind, AccessQual::ReadOnly); // images default to read_only
  }
  if (ds.quals) r.t = ctx_.qualified(r.t, ds.quals);
  if (ds.has_as) {
    if (r.has_as && r.as != ds.as) fail(ds.loc, "multiple address spaces specified for type");
    r.as = ds.as;
    r.has_as = true;
  }
  // Type attributes written among the specifiers apply to this type.
  for (const Attr& a : ds.attrs) {
    if (a.kind == AttrKind::VectorSize || a.kind == AttrKind::AddressSpace ||
        a.kind == AttrKind::OpenCLAddrSpace)
      r = applyTypeAttr(a, r, ds.storage == kKwTypedef);
  }
  return r;
}

void Parser::parseTypeof(DeclSpec& ds, bool unqual) {
  Loc at = tok_.loc;
  consume();
  expect(Tok::LParen, "after 'typeof'");
  QType r;
  if (startsTypeName(tok_)) {
    r = parseTypeName(at);
  } else {
    Nest nest(*this, at, "expression");
    Value v = parseExpr(false);
    if (!v.type) fail(at, "cannot take the type of this expression");
    r.t = v.type;
  }
  expect(Tok::RParen, "after the typeof operand");
  if (unqual) r.t = r.t->unqualified;
  ds.base = DeclSpec::Named;
  ds.named = r;
  ds.type_loc = at;
  ds.any_type = ds.any = true;
}

void Parser::parseAlignas(DeclSpec& ds) {
  Loc at = tok_.loc;
  consume();
  expect(Tok::LParen, "after '_Alignas'");
  uint64_t a;
  if (startsTypeName(tok_)) {
    QType t = parseTypeName(at);
    a = alignOf(t.t, at, false);
  } else {
    Loc eat = tok_.loc;
    __int128 v = 0;
    evalInt("alignment", eat, false, &v);
    if (v < 0) fail(eat, "requested alignment is not a power of 2");
    if (v != 0 && (v & (v - 1))) fail(eat, "requested alignment is not a power of 2");
    if (v > (__int128(1) << 32))
      fail(eat, "requested alignment must be 4294967296 bytes or smaller");
    if (v > (__int128(1) << 31))
      fail(eat, "requested alignment of " + std::to_string(uint64_t(v)) + " bytes is not supported",
           true);
    a = uint64_t(v);
  }
  expect(Tok::RParen, "after the _Alignas operand");
  if (a > ds.alignas_) ds.alignas_ = a;
  if (!ds.has_alignas) ds.alignas_loc = at;
  ds.has_alignas = true;
}

// ----- struct, union, enum --------------------------------------------------------------------

namespace {
const char* tagKindName(Kw kw) {
  return kw == kKwStruct ? "struct" : kw == kKwUnion ? "union" : "enum";
}
std::string unterminatedRecord(const RecordDecl* rd) {
  std::string s = std::string("unterminated ") + (rd->is_union ? "union" : "struct");
  if (!rd->name.empty()) s += " '" + std::string(rd->name) + "'";
  return s + " (missing '}')";
}
} // namespace

void Parser::parseTagSpecifier(DeclSpec& ds, DeclContext dc) {
  const Loc kw_loc = tok_.loc;
  Kw kw = Kw(tok_.ident->keyword);
  AttrList attrs;
  Ident* name = nullptr;
  Loc name_loc = kw_loc;
  if (!(fast_paths && kw != kKwEnum && fastTagHead(name, name_loc, false))) {
    consume();
    // Attributes between the keyword and the name (or the body) are the type's. Attributes
    // after the name are not: they belong to the declaration specifiers, and apply to what is
    // declared (`typedef struct S __attribute__((aligned(16))) T;` aligns T, not S), as with
    // clang and GCC; a body after them is an error there too.
    parseAttributes(attrs);
    if (tok_.kind == Tok::Ident && tok_.ident->keyword == kKwNone) {
      name = tok_.ident;
      name_loc = tok_.loc;
      consume();
    }
  }
  startTagSpec(ds, kw_loc);

  // enum E : T (C23 / clang extension). In a member, `enum E : 3` is a bit-field instead.
  const IntType* fixed = nullptr;
  if (kw == kKwEnum && tok_.kind == Tok::Colon &&
      (dc != DeclContext::Member || startsTypeName(peekTok(0)))) {
    consume();
    Loc at = tok_.loc;
    QType ft = parseTypeName(at);
    const Type* c = stripTypedefs(ft.t);
    if (c->kind == TypeKind::Enum) c = static_cast<const EnumType*>(c)->decl->underlying;
    if (!c || c->kind != TypeKind::Int || static_cast<const IntType*>(c)->is_bitint)
      fail(at, "non-integral type '" + typeStr(ft.t) + "' is an invalid underlying type");
    fixed = static_cast<const IntType*>(c->unqualified);
  }

  bool body = tok_.kind == Tok::LBrace;
  if (!name && !body) {
    if (fixed) fail(kw_loc, "declaration of anonymous enum must be a definition");
    failUnexpected((std::string("an identifier or '{' after '") + tagKindName(kw) + "'").c_str());
  }
  TagSym::Kind want = kw == kKwStruct  ? TagSym::Struct
                      : kw == kKwUnion ? TagSym::Union
                                       : TagSym::Enum;
  TagSym* prev = name ? lookupTag(name) : nullptr;
  bool forward =
      !body && tok_.kind == Tok::Semi && dc != DeclContext::Param && dc != DeclContext::TypeName;
  if (prev && prev->kind != want && (body || forward ? prev->depth == depth() : true))
    fail(name_loc, "use of '" + std::string(name->name) +
                       "' with tag type that does not match previous declaration");

  if (kw == kKwEnum) {
    EnumDecl* ed = nullptr;
    const Type* type = nullptr;
    if (prev && (!(body || forward || fixed) || prev->depth == depth())) {
      ed = prev->ed;
      type = prev->type;
      if (body && ed->complete && !(ed->fixed_underlying && ed->enumerators.empty() && fixed))
        fail(name_loc, "redefinition of 'enum " + std::string(name->name) + "'");
      if (fixed && ed->fixed_underlying && ed->underlying != fixed)
        fail(name_loc, "enumeration redeclared with different underlying type");
    } else {
      ed = ctx_.createEnum(name ? intern(name) : std::string_view(), srcLoc(name_loc));
      type = ctx_.enumType(ed);
      TagSym* ts = newTag(want, name, name_loc);
      ts->ed = ed;
      ts->type = type;
    }
    if (fixed) {
      ed->fixed_underlying = true;
      ed->underlying = fixed;
      ed->complete = true;
    }
    for (const Attr& a : attrs) {
      if (a.kind == AttrKind::Packed)
        ed->packed = true;
      else if (a.kind != AttrKind::Ignored)
        fail(a.loc, "'" + std::string(a.name) + "' attribute cannot be applied to an enum");
    }
    if (body) {
      parseEnumBody(ed, kw_loc);
      AttrList after;
      parseAttributes(after);
      for (const Attr& a : after) {
        if (a.kind == AttrKind::Packed)
          ed->packed = true;
        else if (a.kind != AttrKind::Ignored)
          fail(a.loc, "'" + std::string(a.name) + "' attribute cannot be applied to an enum");
      }
      finishEnum(ed, kw_loc);
      ds.tag_defined = true;
    } else if (!ed->complete && !fixed && !forward && dc != DeclContext::Param &&
               dc != DeclContext::TypeName) {
      // Referring to a never-defined enum is fine until its size is needed.
    }
    ds.tag_forward = !body;
    ds.enum_ = ed;
    ds.named = QType{type};
    return;
  }

  TagSym* ts = prev;
  if (prev && (!(body || forward) || prev->depth == depth())) {
    if (body && prev->rd->complete)
      fail(name_loc, "redefinition of '" + std::string(tagKindName(kw)) + " " +
                         std::string(name->name) + "'");
  } else {
    ts = newRecord(kw, name, name_loc);
  }
  RecordDecl* rd = ts->rd;
  // Attributes on a later declaration of a completed record are ignored (clang warns).
  applyRecordAttrs(rd, kw, attrs, !rd->complete);
  if (body) defineRecord(rd, kw, kw_loc);
  endRecordSpec(ds, ts, body);
}

void Parser::startTagSpec(DeclSpec& ds, const Loc& kw_loc) {
  ds.tag_decl = true;
  ds.base = DeclSpec::Named;
  ds.type_loc = kw_loc;
  ds.any_type = ds.any = true;
}

void Parser::endRecordSpec(DeclSpec& ds, const TagSym* ts, bool body) {
  ds.tag_defined |= body;
  ds.tag_forward = !body;
  ds.record = ts->rd;
  ds.named = QType{ts->type};
}

TagSym* Parser::newTag(TagSym::Kind want, Ident* name, const Loc& name_loc) {
  // In the context's storage, next to the record or enum just made there (TagSym is trivially
  // destructible): one stream of new memory rather than two.
  static_assert(std::is_trivially_destructible_v<TagSym>);
  TagSym& ts = *new (ctx_.allocate(sizeof(TagSym), alignof(TagSym))) TagSym();
  ts.kind = want;
  ts.depth = depth();
  ts.loc = name_loc;
  if (name) bindTag(name, &ts);
  return &ts;
}

TagSym* Parser::newRecord(Kw kw, Ident* name, const Loc& name_loc) {
  RecordDecl* rd =
      ctx_.createRecord(name ? intern(name) : std::string_view(), kw == kKwUnion, srcLoc(name_loc));
  TagSym* ts = newTag(kw == kKwUnion ? TagSym::Union : TagSym::Struct, name, name_loc);
  ts->rd = rd;
  ts->type = ctx_.recordType(rd);
  return ts;
}

void Parser::applyRecordAttrs(RecordDecl* rd, Kw kw, const AttrList& list, bool allow) {
  for (const Attr& a : list) {
    switch (a.kind) {
    case AttrKind::Packed:
      if (allow) rd->packed = true;
      break;
    case AttrKind::Aligned:
      if (allow) rd->aligned = std::max<uint32_t>(rd->aligned, uint32_t(attrAlignment(a)));
      break;
    case AttrKind::TransparentUnion:
      if (allow) rd->transparent_union = true;
      break;
    case AttrKind::Ignored:
      break;
    default:
      fail(a.loc,
           "'" + std::string(a.name) + "' attribute cannot be applied to a " + tagKindName(kw));
    }
  }
}

void Parser::defineRecord(RecordDecl* rd, Kw kw, const Loc& kw_loc) {
  rd->max_field_align = pp_.packAlignment();
  size_t base = member_n_;
  parseRecordBody(rd, kw_loc);
  AttrList after;
  parseAttributes(after);
  applyRecordAttrs(rd, kw, after, true);
  checkRecord(rd, kw_loc, base);
  member_n_ = base;
}

// A file-scope declaration that starts with the definition of a new struct or union,
// `struct NAME {` (tok_ being the keyword; see fastTagHead()) with NAME not declared as a tag:
// what parseDeclSpec() does for it without its specifier state, and for the usual end, `};`,
// without that of the declaration either, going on with the next declaration when it is another
// such definition. Anything else is left to the general code: returns false with nothing
// changed.
bool Parser::fastRecordDefinition() {
  Kw kw = Kw(tok_.ident->keyword);
  if (kw != kKwStruct && kw != kKwUnion) return false;
  Loc kw_loc = tok_.loc;
  Ident* name = nullptr;
  Loc name_loc;
  if (!fastTagHead(name, name_loc, true)) return false;
  TagSym* ts;
  for (;;) {
    ts = newRecord(kw, name, name_loc);
    defineRecord(ts->rd, kw, kw_loc);
    if (tok_.kind != Tok::Semi) break;
    // `};`: handleTagOnlyDecl() has nothing to do for a named record.
    switch (fastNextRecordHead(kw, kw_loc, name, name_loc)) {
    case NextHead::Record:
      continue;
    case NextHead::Token:
      return true;
    case NextHead::None:
      consume();
      return true;
    }
  }
  // Declarators (or more specifiers) follow: the DeclSpec parseTagSpecifier() would have made.
  DeclSpec ds;
  ds.loc = kw_loc;
  startTagSpec(ds, kw_loc);
  endRecordSpec(ds, ts, true);
  parseDeclSpecRest(ds, DeclContext::File);
  finishExternalDeclaration(ds);
  return true;
}

// After a declaration's ';' (tok_), the next token when it is an identifier that names no
// macro, made as fastIdentToken() makes it, with `struct` or `union` and a blank recognised by
// their spelling: then the head of a new record's definition read by fastTagHead() (`kw` and
// `kw_loc` set): Record, tok_ being the '{'. Token: tok_ is that identifier (not such a head);
// None: nothing changed (consume() makes the next token).
Parser::NextHead Parser::fastNextRecordHead(Kw& kw, Loc& kw_loc, Ident*& name, Loc& name_loc) {
  using namespace lexchars;
  Lexer* lx = idleDirectLexer();
  if (!lx) return NextHead::None;
  uint32_t lines = 0;
  const char* ls = lx->lineStart();
  uint8_t flags = 0;
  const char* at = skipGap(lx->cur(), lines, ls, flags);
  if (!at) return NextHead::None;
  const char* p = at;
  Ident* id;
  if (std::memcmp(at, "struct", 6) == 0 && (classOf(at + 6) & kSpace)) {
    id = id_struct_;
    p += 6;
  } else if (std::memcmp(at, "union", 5) == 0 && (classOf(at + 5) & kSpace)) {
    id = id_union_;
    p += 5;
  } else {
    id = scanIdentifier(p, ids_);
  }
  if (!id || id->macro) return NextHead::None;
  takeIdentToken(lx, id, at, p, lines, ls, flags);
  if (id != id_struct_ && id != id_union_) return NextHead::Token;
  kw = Kw(id->keyword);
  kw_loc = tok_.loc;
  return fastTagHead(name, name_loc, true) ? NextHead::Record : NextHead::Token;
}

// The head of a struct or union definition, `struct NAME {` with only blanks between the tokens
// (the keyword being tok_): reads NAME and the '{' straight from the bytes of the file, as
// consume() would have made them (a plain identifier that names no macro and is no keyword, and
// the punctuator). On return tok_ is the '{' (its lexer stands after it) and prev_ is NAME.
// Anything else (an attribute, a newline, a comment, a splice, a macro, no body, with `new_tag`
// a NAME already declared as a tag) is left to the general code: returns false with nothing
// changed.
bool Parser::fastTagHead(Ident*& name, Loc& name_loc, bool new_tag) {
  Lexer* lx = idleDirectLexer();
  if (!lx) return false;
  uint8_t name_flags = 0;
  const char* p = skipBlanks(lx->cur(), name_flags);
  if (!name_flags) return false; // the keyword and the name run together, or a newline
  const char* start = p;
  Ident* id = scanIdentifier(p, ids_);
  if (!id || id->keyword != kKwNone || id->macro || (new_tag && lookupTag(id))) return false;
  const size_t n = size_t(p - start);
  uint8_t brace_flags = 0;
  const char* brace = skipBlanks(p, brace_flags);
  if (*brace != '{') return false;
  name = id;
  name_loc = lx->locAt(start);
  setPrevToken(name_loc, uint32_t(n), Tok::Ident);
  setByteToken(Tok::LBrace, brace, 1, brace_flags, nullptr, lx->locAt(brace));
  lx->skipTo(brace + 1);
  return true;
}

// A whole `typedef struct TAG NAME;` (or `union`; tok_ being `typedef`) with only blanks
// between the tokens, TAG declared as a tag of that kind and NAME a plain identifier (no keyword,
// no macro): reads the rest of the line straight from the bytes of the file and declares NAME
// with the DeclSpec and Declarator that parseDeclSpec() and parseDeclarator() make of those
// tokens, tok_ being the ';' and prev_ NAME as they would be, then moves past the ';'. Anything
// else (a comment, a newline, a splice, a macro, an attribute, a pointer, a tag not declared or
// of another kind, no ';') is left to the general code: returns false with nothing changed.
bool Parser::fastTypedefTag() {
  Lexer* lx = idleDirectLexer();
  if (!lx) return false;
  const char* p = lx->cur();
  auto blanks = [&]() { // at least one
    uint8_t flags = 0;
    p = skipBlanks(p, flags);
    return flags != 0;
  };
  if (!blanks()) return false;
  const char* kw_at = p;
  Ident* kw = scanIdentifier(p, ids_);
  if (!kw || (kw != id_struct_ && kw != id_union_) || kw->macro || !blanks()) return false;
  Ident* tag = scanIdentifier(p, ids_);
  if (!tag || tag->keyword != kKwNone || tag->macro || !blanks()) return false;
  const char* name_at = p;
  Ident* name = scanIdentifier(p, ids_);
  if (!name || name->keyword != kKwNone || name->macro) return false;
  const size_t name_len = size_t(p - name_at);
  uint8_t semi_flags = 0;
  p = skipBlanks(p, semi_flags);
  if (*p != ';') return false;
  TagSym* prev = lookupTag(tag);
  if (!prev || prev->kind != (kw == id_struct_ ? TagSym::Struct : TagSym::Union)) return false;

  // parseDeclSpec(): `typedef`, then parseTagSpecifier() for a declared tag without a body.
  DeclSpec ds;
  ds.loc = tok_.loc;
  ds.storage = kKwTypedef;
  ds.storage_loc = tok_.loc;
  ds.any = true;
  ds.tag_decl = true;
  ds.base = DeclSpec::Named;
  ds.type_loc = lx->locAt(kw_at);
  ds.any_type = true;
  ds.tag_forward = true;
  ds.record = prev->rd;
  ds.named = QType{prev->type};
  // parseDeclarator(): the name; tok_ is then the ';'.
  Declarator d;
  d.name = name;
  d.name_loc = lx->locAt(name_at);
  d.loc = d.name_loc;
  setPrevToken(d.name_loc, uint32_t(name_len), Tok::Ident);
  setByteToken(Tok::Semi, p, 1, semi_flags, nullptr, lx->locAt(p));
  lx->skipTo(p + 1);
  QType base = namedAlone(ds) ? ds.named : finishDeclSpec(ds, DeclContext::File);
  FunctionType* fn = nullptr;
  QType t = buildType(ds, base, d, DeclContext::File, &fn);
  declare(ds, t, d, false);
  if (!fastIdentToken()) consume();
  return true;
}

void Parser::parseRecordBody(RecordDecl* rd, const Loc& open) {
  Nest nest(*this, open, "structs");
  size_t base = member_n_;
  BodyState body;
  body.rd = rd;
  body.stamp = ++mark_;
  body.clean = fast_paths;
  if (!(fast_paths && fastMembers(body, true))) consume(); // {
  for (;;) {
    if (tok_.kind == Tok::RBrace) break;
    if (tok_.kind == Tok::Eof) fail(open, unterminatedRecord(rd));
    if (tok_.kind == Tok::Semi) {
      consume();
      continue;
    }
    if (fast_paths && tok_.kind == Tok::Ident && fastMembers(body)) continue;
    body.clean = false;
    if (isKw(kKwStaticAssert)) {
      parseStaticAssert();
      continue;
    }
    parseMember(rd);
  }
  if (!(fast_paths && fastSemiToken())) consume(); // }
  rd->fields =
      FieldList(member_stack_.begin() + ptrdiff_t(base),
                member_stack_.begin() + ptrdiff_t(member_n_), DeclAllocator<FieldDecl>(&ctx_));
  last_body_ = body;
}

// The blanks, newlines and comments from `p` to the next token, as the lexer skips them: returns
// where that token starts, with `lines` and `ls` (the start of the line) moved on by the newlines
// and `flags` (the token's kTok* flags, from what was skipped before `p`) updated; null at
// anything else the lexer would have to look into (a splice, a comment that does not end, the
// end of the text), with `lines`, `ls` and `flags` unspecified.
inline const char* Parser::skipGap(const char* p, uint32_t& lines, const char*& ls,
                                   uint8_t& flags) {
  for (;;) {
    p = skipBlanks(p, flags);
    if (*p == '\n') {
      ++lines;
      ls = ++p;
      flags = kTokAtLineStart;
    } else if (*p == '/' && p[1] == '*') {
      const char* q = p + 2;
      for (;;) {
        q = findCommentStop(q);
        if (*q == '*') {
          if (q[1] == '/') break;
          ++q;
        } else if (*q == '\n') {
          ++lines;
          ls = ++q;
        } else {
          return nullptr; // a NUL or a splice
        }
      }
      p = q + 2;
      flags |= kTokLeadingSpace;
    } else if (*p == '/' && p[1] == '/') {
      while (*p != '\n' && *p != '\0' && *p != '\\') ++p;
      if (*p != '\n') return nullptr;
      flags |= kTokLeadingSpace;
    } else {
      return p;
    }
  }
}

// ----- the member fast path --------------------------------------------------------------
//
// Most members of real headers have one of a few shapes:
//   SPECIFIERS ['*'...] NAME ['[' SIZE ']'] [':' WIDTH] ';'
// SPECIFIERS being a typedef name, `struct`/`union`/`enum` and a tag in scope, or basic type
// keywords with const/volatile (a combination parseMember() has already turned into a type), SIZE
// a decimal int constant or an object-like macro whose body is a plain int constant expression,
// WIDTH a decimal constant, and only blanks between the tokens, all on one line. fastMembers()
// reads a run of such members straight from the bytes of the file, with the blanks, newlines
// and comments between them: no token is made, no specifier or declarator state is built. Each
// member ends as parseMember() ends it for the same tokens: the same type (made by
// applyPointer()/applyArray()), the same FieldDecl and member locations, the same errors
// (addMember() and the apply functions report them). After the run, the lexer stands after the
// last member's ';', which is the previous token, and tok_ holds the token after it. A member of
// any other shape (a macro other than the array size, an attribute, a qualifier after '*', a
// second declarator, a line splice, a directive, ...) ends the run where it starts, and
// parseMember() reads it; returns false if the run is empty (nothing changed). With `after_open`
// the run starts after the '{' (tok_), without a token made for the first member: its text is
// looked up in the member memo first, like any other's.
bool Parser::fastMembers(BodyState& body, bool after_open) {
  using namespace lexchars;
  Lexer* lx = idleDirectLexer();
  if (!lx) return false;
  auto blanks = [](const char* q) { return lexchars::skipBlanks(q); };
  auto ident = [&](const char*& q) { return scanIdentifier(q, ids_); };
  // A decimal int constant without suffix (what literalNumber() makes an int of), or -1.
  auto number = [&](const char*& q) -> int64_t {
    if (!(classOf(q) & kDigit)) return -1;
    if (*q == '0' && (classOf(q + 1) & kNumCont)) return -1; // octal, hex, binary, 0.5, ...
    int64_t v = 0;
    int digits = 0;
    while (classOf(q) & kDigit) {
      v = v * 10 + (*q - '0');
      ++q;
      if (++digits > 10) return -1;
    }
    if ((classOf(q) & kNumCont) || *q == '\'' || *q == '\\' || v > 0x7FFFFFFF) return -1;
    return v;
  };
  // Positions as the lexer reports them: `line` physical lines after the lexer's current one,
  // which starts at `ls`.
  uint32_t line = 0;
  const char* ls = lx->lineStart();
  const uint32_t line0 = lx->physicalLine() + lx->line_delta;
  auto loc = [&](const char* q) {
    Loc l;
    l.file = lx->file;
    l.line = line0 + line;
    l.col = uint32_t(q - ls + 1);
    l.buf = lx->buf();
    l.offset = uint32_t(q - lx->begin());
    return l;
  };

  Ident* first = after_open ? nullptr : tok_.ident; // the member's first token
  const char* p = lx->cur();                        // after it
  const char* semi = nullptr;                       // the last member's ';'
  uint32_t semi_line = 0;                           // and its line
  const char* semi_ls = nullptr;
  if (memo_.empty()) {
    size_t slots = std::clamp<size_t>(text_bytes / 512, 256, 8192);
    memo_.resize(std::bit_ceil(slots));
  }
  // `ms`: where the member's text starts (its first identifier), null if it cannot be looked up
  // in the memo (a splice inside the first token); `first`: that identifier once read, with `p`
  // after it. The first member's first token is the current one, or (`after_open`) still to be
  // read after the '{'.
  const char* ms = nullptr;
  const char* const end = lx->end();
  // Where the blanks, newlines and comments after the last member read end (the next member, or
  // the '}'): the position, line, line start and the flags of the token there.
  const char* gap_end = nullptr;
  uint32_t gap_line = 0;
  const char* gap_ls = nullptr;
  uint8_t gap_flags = 0;
  if (after_open) {
    ms = skipGap(p, line, ls, gap_flags);
    if (!ms) return false;
  } else if (tok_.len == first->name.size() && tok_.ptr + tok_.len == p) {
    ms = tok_.ptr;
  }
  for (;;) {
    // The member memo first: a hit is the member the same text made before.
    MemoKey key;
    if (ms && (classOf(ms) & kIdStart)) {
      key = memberKey(ms, end);
      if (key.len && !key.tag_pointer) {
        if (const MemberMemo* e = memoFind(ms, key)) {
          if (e->plain && member_n_ < member_stack_.size()) {
            // addFastMember() with what the entry knows of the type.
            body.add(e->name, e->depth);
            writePlainMember(e->type, e->name, loc(ms + e->name_off));
          } else {
            addFastMember(QType{e->type}, e->name, loc(ms + e->name_off), e->width, body);
          }
          semi = ms + key.len;
          semi_line = line;
          semi_ls = ls;
          goto next;
        }
      }
    }
    if (!first) {
      p = ms;
      if (key.tag_pointer) {
        // memberKey() has seen `struct` or `union` and a blank: the keyword without a lookup.
        const bool is_struct = *p == 's';
        first = is_struct ? id_struct_ : id_union_;
        p += is_struct ? 6 : 5;
      } else {
        first = ident(p);
      }
      if (!first || first->macro) goto done;
    }
    {
      // The identifiers of the member and what of them it depends on (IdentMemo bits), for the
      // memo if the member is read to the end. Only the array size may be a macro name.
      Ident* deps[6];
      uint8_t dep_bits[6];
      unsigned ndeps = 0;
      bool memo_ok = key.len != 0;
      auto note = [&](Ident* id, uint8_t bits, bool macro_ok = false) {
        if (ndeps == 6 || (!macro_ok && id->macro)) {
          memo_ok = false;
          return;
        }
        deps[ndeps] = id;
        dep_bits[ndeps++] = bits;
      };
      // The specifiers.
      QType base;
      TagSym* tag_sym = nullptr; // `struct TAG`, `union TAG`, `enum TAG`
      switch (Kw(first->keyword)) {
      case kKwNone: {
        Symbol* s = lookup(first);
        if (!s || s->kind != Symbol::Typedef || dyn<OpenCLType>(s->type.t)) goto done;
        base = s->type;
        note(first, kIdMemoMacro | kIdMemoBind);
        break;
      }
      case kKwStruct:
      case kKwUnion:
      case kKwEnum: {
        p = blanks(p);
        Ident* tag = ident(p);
        if (!tag || tag->keyword != kKwNone || tag->macro) goto done;
        TagSym* ts = lookupTag(tag);
        TagSym::Kind want = first->keyword == kKwStruct  ? TagSym::Struct
                            : first->keyword == kKwUnion ? TagSym::Union
                                                         : TagSym::Enum;
        if (!ts || ts->kind != want) goto done;
        tag_sym = ts;
        base = QType{ts->type};
        note(first, kIdMemoMacro);
        note(tag, kIdMemoMacro | kIdMemoBind);
        // A pointer to a record that is not complete yet takes its nesting depth from the
        // record as it is when the pointer is made: not kept.
        if (ts->rd && !ts->rd->complete) memo_ok = false;
        break;
      }
      default: {
        // The keyword loop of parseMember().
        BasicSpec bs;
        Ident* id = first;
        for (;;) {
          if (bs.add(id->keyword) == BasicSpec::Other) goto done;
          note(id, kIdMemoMacro);
          const char* after = blanks(p);
          Ident* next = ident(after);
          if (!next || next->keyword == kKwNone) break; // the declarator
          if (next->macro) goto done;
          id = next;
          p = after;
        }
        if (!bs.any_type || basic_types_.empty()) goto done;
        base = basic_types_[bs.key()];
        if (!base.t) goto done;
        break;
      }
      }

      {
        // The declarator: pointers, the name, one array suffix, a bit-field width, the ';'.
        const char* stars[8];
        unsigned nstars = 0;
        p = blanks(p);
        while (*p == '*') {
          if (nstars == 8) goto done;
          stars[nstars++] = p;
          p = blanks(p + 1);
        }
        const char* name_at = p;
        Ident* name = ident(p);
        if (!name || name->keyword != kKwNone || name->macro) goto done;
        note(name, kIdMemoMacro);
        p = blanks(p);
        const char* open = nullptr;
        const char* size_at = nullptr;
        int64_t count = -1;
        if (*p == '[') {
          open = p;
          size_at = p = blanks(p + 1);
          if (classOf(p) & kDigit) {
            count = number(p);
          } else {
            Ident* m = ident(p);
            int32_t v;
            if (m && m->macro && macroIntValue(m->macro, v)) {
              count = v;
              note(m, kIdMemoMacro, true);
            }
          }
          if (count < 0) goto done;
          p = blanks(p);
          if (*p != ']') goto done;
          p = blanks(p + 1);
        }
        int32_t width = -1;
        if (*p == ':' && p[1] != ':' && p[1] != '>') {
          p = blanks(p + 1);
          int64_t w = number(p);
          if (w < 0) goto done;
          width = int32_t(w);
          p = blanks(p);
        }
        if (*p != ';') goto done;

        // A pointer to a record, `struct TAG *NAME;`: applyPointer() with the pointer kept in
        // the tag, and what addFastMember() does for a pointer. Not kept in the memo: such texts
        // seldom repeat (the tags differ), and this is about as fast as a hit.
        if (tag_sym && tag_sym->rd && nstars == 1 && !open && width < 0 &&
            member_n_ < member_stack_.size()) {
          uint32_t depth = pointerDepth(tag_sym->type, loc(stars[0]));
          if (!tag_sym->pointer) tag_sym->pointer = ctx_.pointerTo(tag_sym->type, 0);
          setDepth(tag_sym->pointer, depth);
          body.add(name, depth);
          writePlainMember(tag_sym->pointer, name, loc(name_at));
          semi = p;
          semi_line = line;
          semi_ls = ls;
          goto next;
        }
        // The member: the same steps as parseMember() (buildType(), then addMember()).
        QType t = base;
        for (unsigned i = 0; i < nstars; ++i) applyPointer(t, loc(stars[i]));
        if (open) {
          Chunk c;
          c.kind = Chunk::Array;
          c.loc = loc(open);
          c.size_loc = loc(size_at);
          c.count = uint64_t(count);
          applyArray(t, c, name, DeclContext::Member);
        }
        bool plain = addFastMember(t, name, loc(name_at), width, body);
        semi = p;
        semi_line = line;
        semi_ls = ls;
        if (memo_ok && p == ms + key.len && !t.has_as) {
          for (unsigned i = 0; i < ndeps; ++i) deps[i]->memo |= dep_bits[i];
          MemberMemo& e = memo_[key.hash & (memo_.size() - 1)];
          std::memcpy(e.text, ms, sizeof e.text); // memberKey(): 32 bytes to read
          e.type = t.t;
          e.name = name;
          e.hash = key.hash;
          e.epoch = ids_.memo_epoch;
          e.width = width;
          e.len = uint8_t(key.len);
          e.name_off = uint8_t(name_at - ms) & 0x7F; // < 31
          e.plain = plain;
          e.depth = uint16_t(depthOf(t.t));
        }
      }
    }

  next:
    // The next member's first identifier, after blanks, newlines and comments.
    {
      uint8_t flags = 0;
      p = skipGap(semi + 1, line, ls, flags);
      if (!p) goto done;
      gap_end = p;
      gap_line = line;
      gap_ls = ls;
      gap_flags = flags;
    }
    ms = p;
    first = nullptr;
  }

done:
  if (!semi) return false;
  line = semi_line;
  ls = semi_ls;
  if (gap_end && *gap_end == '}') {
    // The record's '}' after the last member's ';': made here as the lexer would make it.
    setPrevToken(loc(semi), 1, Tok::Semi);
    line = gap_line;
    ls = gap_ls;
    setByteToken(Tok::RBrace, gap_end, 1, gap_flags, nullptr, loc(gap_end));
    lx->skipTo(gap_end + 1, gap_line, gap_ls);
    return true;
  }
  setByteToken(Tok::Semi, semi, 1, 0, nullptr, loc(semi));
  lx->skipTo(semi + 1, semi_line, semi_ls);
  consume();
  return true;
}

// The next token (tok_'s lexer standing after it) when it is an identifier that names no macro,
// after blanks, newlines and comments: made from the bytes of the file as consume() would make
// it (the `typedef` or `struct` after a declaration's ';'). Anything else is left to consume():
// false, nothing changed.
bool Parser::fastIdentToken() {
  Lexer* lx = idleDirectLexer();
  if (!lx) return false;
  uint32_t lines = 0;
  const char* ls = lx->lineStart();
  uint8_t flags = 0;
  const char* start = skipGap(lx->cur(), lines, ls, flags);
  if (!start) return false;
  const char* p = start;
  Ident* id = scanIdentifier(p, ids_);
  if (!id || id->macro) return false;
  takeIdentToken(lx, id, start, p, lines, ls, flags);
  return true;
}

// The next token when it is a ';' on the same line, after blanks only (the one after a record's
// '}'): made from the bytes as consume() would make it. Anything else is left to consume():
// false, nothing changed.
bool Parser::fastSemiToken() {
  Lexer* lx = idleDirectLexer();
  if (!lx) return false;
  uint8_t flags = 0;
  const char* p = skipBlanks(lx->cur(), flags);
  if (*p != ';') return false;
  setPrevToken(tok_.loc, tok_.len, tok_.kind);
  lx->skipTo(p + 1);
  setByteToken(Tok::Semi, p, 1, flags, nullptr, lx->locAt(p));
  return true;
}

#if !defined(__SSE2__)
namespace {
// Eight bytes as a little-endian word: the first byte in memory is the lowest.
inline uint64_t loadLE8(const char* p) {
  uint64_t w;
  std::memcpy(&w, p, 8);
  if constexpr (std::endian::native == std::endian::big) {
    uint64_t r = 0;
    for (int i = 0; i < 8; ++i) r |= ((w >> (8 * i)) & 0xFF) << (8 * (7 - i));
    w = r;
  }
  return w;
}
} // namespace
#endif

// The key of the member text at `s`: its bytes up to the first ';', which must be one of the
// next 32 bytes (read at once: `s` is at least 24 bytes before the end of the text, which is
// followed by 8 bytes of padding); its length and a hash of its first 24 bytes and its length.
// A NUL or any other byte may be in it: only texts the fast path has read are in the memo.
Parser::MemoKey Parser::memberKey(const char* s, const char* end) {
  if (end - s < 24) return {};
  // No branch depends on the text's length (member texts of varying lengths in turn would be
  // mispredicted): the bytes after the text are masked off.
  uint32_t semis;
  uint64_t w[3];
#if defined(__SSE2__)
  const __m128i semi = _mm_set1_epi8(';');
  __m128i lo = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s));
  __m128i hi = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s + 16));
  semis = uint32_t(_mm_movemask_epi8(_mm_cmpeq_epi8(lo, semi))) |
          uint32_t(_mm_movemask_epi8(_mm_cmpeq_epi8(hi, semi))) << 16;
  // Without a ";" len is 31 here, and there is no key (below).
  uint32_t len = uint32_t(std::countr_zero(semis | (uint32_t(1) << 31)));
  const __m128i n = _mm_set1_epi8(char(len));
  lo = _mm_and_si128(
      lo, _mm_cmpgt_epi8(n, _mm_setr_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15)));
  hi = _mm_and_si128(hi, _mm_cmpgt_epi8(n, _mm_setr_epi8(16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26,
                                                         27, 28, 29, 30, 31)));
  w[0] = uint64_t(_mm_cvtsi128_si64(lo));
  w[1] = uint64_t(_mm_cvtsi128_si64(_mm_unpackhi_epi64(lo, lo)));
  w[2] = uint64_t(_mm_cvtsi128_si64(hi));
#else
  semis = 0;
  for (unsigned i = 0; i < 32; ++i) semis |= uint32_t(s[i] == ';') << i;
  uint32_t len = uint32_t(std::countr_zero(semis | (uint32_t(1) << 31)));
  for (uint32_t k = 0; k < 3; ++k) {
    // The bytes of word k (bytes 8k to 8k + 7) that are in the text.
    uint32_t in = std::clamp<int32_t>(int32_t(len) - int32_t(8 * k), 0, 8);
    w[k] = in ? loadLE8(s + 8 * k) & (~uint64_t(0) >> (64 - 8 * in)) : 0;
  }
#endif
  if (len == 0 || !semis) return {};
  uint64_t h = (w[0] ^ len) * 0x9E3779B97F4A7C15ull;
  h ^= w[1] * 0xC4CEB9FE1A85EC53ull;
  h ^= w[2] * 0xFF51AFD7ED558CCDull;
  h ^= h >> 32;
  h *= 0xFF51AFD7ED558CCDull;
  h ^= h >> 29;
  MemoKey key{uint32_t(h), len};
  // `struct` or `union` and a blank (the bytes after the text are 0 in w[0]).
  constexpr auto word = [](const char* t, unsigned n) {
    uint64_t v = 0;
    for (unsigned i = 0; i < n; ++i) v |= uint64_t(uint8_t(t[i])) << (8 * i);
    return v;
  };
  const uint64_t blank6 = w[0] >> 48 & 0xFF, blank5 = w[0] >> 40 & 0xFF;
  if (((w[0] & 0xFFFFFFFFFFFF) == word("struct", 6) && (blank6 == ' ' || blank6 == '\t')) ||
      ((w[0] & 0xFFFFFFFFFF) == word("union", 5) && (blank5 == ' ' || blank5 == '\t'))) {
    uint32_t stars = 0, others = 0;
#if defined(__SSE2__)
    const __m128i star = _mm_set1_epi8('*'), open = _mm_set1_epi8('['), colon = _mm_set1_epi8(':');
    stars = uint32_t(_mm_movemask_epi8(_mm_cmpeq_epi8(lo, star))) |
            uint32_t(_mm_movemask_epi8(_mm_cmpeq_epi8(hi, star))) << 16;
    others =
        uint32_t(
            _mm_movemask_epi8(_mm_or_si128(_mm_cmpeq_epi8(lo, open), _mm_cmpeq_epi8(lo, colon)))) |
        uint32_t(
            _mm_movemask_epi8(_mm_or_si128(_mm_cmpeq_epi8(hi, open), _mm_cmpeq_epi8(hi, colon))))
            << 16;
#else
    for (uint32_t i = 0; i < len; ++i) {
      stars |= uint32_t(s[i] == '*') << i;
      others |= uint32_t(s[i] == '[' || s[i] == ':') << i;
    }
#endif
    key.tag_pointer = stars != 0 && (stars & (stars - 1)) == 0 && others == 0; // one '*'
  }
  return key;
}

// The entry the memo holds for the text at `s`, if it is the same text and was made in this
// epoch.
inline const Parser::MemberMemo* Parser::memoFind(const char* s, const MemoKey& key) const {
  const MemberMemo& e = memo_[key.hash & (memo_.size() - 1)];
  if (e.hash != key.hash || e.len != key.len || e.epoch != ids_.memo_epoch) return nullptr;
#if defined(__SSE2__)
  // The text at `s` has 32 bytes to read (memberKey()).
  uint32_t eq = uint32_t(_mm_movemask_epi8(
                    _mm_cmpeq_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(s)),
                                   _mm_load_si128(reinterpret_cast<const __m128i*>(e.text))))) |
                uint32_t(_mm_movemask_epi8(
                    _mm_cmpeq_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(s + 16)),
                                   _mm_load_si128(reinterpret_cast<const __m128i*>(e.text + 16)))))
                    << 16;
  if (~eq & ((uint32_t(1) << key.len) - 1)) return nullptr;
#else
  if (std::memcmp(s, e.text, key.len) != 0) return nullptr;
#endif
  return &e;
}

// The value of an object-like macro used as an array size, when its body is a plain int constant
// expression the fast path can evaluate as the general one does: decimal int constants without
// suffix, parentheses, unary and binary '+' '-', binary '*', every intermediate value an int
// (an overflow is left to the general path, which reports it). Cached in the Macro.
bool Parser::macroIntValue(Macro* m, int32_t& value) {
  if (m->int_state == 0) {
    m->int_state = 2;
    if (m->function_like || m->builtin || m->disabled || m->body.empty()) return false;
    const Token* toks = m->body.data();
    const size_t n = m->body.size();
    size_t i = 0;
    bool ok = true;
    auto fits = [&](int64_t v) {
      if (v < INT32_MIN || v > INT32_MAX) ok = false;
      return v;
    };
    // expr := term (('+' | '-') term)*; term := unary ('*' unary)*;
    // unary := ('+' | '-') unary | '(' expr ')' | constant
    std::function<int64_t(unsigned)> expr;
    std::function<int64_t(unsigned)> unary = [&](unsigned depth) -> int64_t {
      if (!ok || i >= n || depth > 32) return ok = false, 0;
      const Token& t = toks[i++];
      if (t.kind == Tok::Plus) return unary(depth + 1);
      if (t.kind == Tok::Minus) return fits(-unary(depth + 1));
      if (t.kind == Tok::LParen) {
        int64_t v = expr(depth + 1);
        if (i >= n || toks[i].kind != Tok::RParen) return ok = false, 0;
        ++i;
        return v;
      }
      if (t.kind != Tok::Number) return ok = false, 0;
      const char* q = t.ptr;
      const char* end = t.ptr + t.len;
      if (t.len == 0 || t.len > 10 || (*q == '0' && t.len > 1)) return ok = false, 0;
      int64_t v = 0;
      for (; q < end; ++q) {
        if (*q < '0' || *q > '9') return ok = false, 0;
        v = v * 10 + (*q - '0');
      }
      return fits(v);
    };
    auto term = [&](unsigned depth) -> int64_t {
      int64_t v = unary(depth);
      while (ok && i < n && toks[i].kind == Tok::Star) {
        ++i;
        v = fits(v * unary(depth));
      }
      return v;
    };
    expr = [&](unsigned depth) -> int64_t {
      int64_t v = term(depth);
      while (ok && i < n && (toks[i].kind == Tok::Plus || toks[i].kind == Tok::Minus)) {
        bool plus = toks[i++].kind == Tok::Plus;
        int64_t r = term(depth);
        v = fits(plus ? v + r : v - r);
      }
      return v;
    };
    int64_t v = expr(0);
    if (!ok || i != n) return false;
    m->int_value = int32_t(v);
    m->int_state = 1;
  }
  value = m->int_value;
  return m->int_state == 1;
}

void Parser::parseMember(RecordDecl* rd) {
  DeclSpec ds;
  bool basic = false; // the specifiers are basic type keywords and const/volatile only: bs
  BasicSpec bs;
  Loc start = tok_.loc;
  Symbol* s =
      tok_.kind == Tok::Ident && tok_.ident->keyword == kKwNone ? lookup(tok_.ident) : nullptr;
  if (s && s->kind == Symbol::Typedef) {
    // A member whose type is a typedef name: what parseDeclSpec() does for that name; a '*' or
    // the member's name after it ends the specifiers, anything else goes to the general loop.
    ds.loc = ds.type_loc = start;
    ds.base = DeclSpec::Named;
    ds.named = s->type;
    ds.is_typedef_name = true;
    ds.any_type = ds.any = true;
    consume();
    if (tok_.kind != Tok::Star && !(tok_.kind == Tok::Ident && tok_.ident->keyword == kKwNone))
      parseDeclSpecRest(ds, DeclContext::Member);
  } else if (tok_.kind == Tok::Ident) {
    // Basic type keywords and const/volatile, with what parseDeclSpec() does for each; a
    // keyword that conflicts with the ones before and anything else go to the general loop,
    // which reads on from the same state (and reports the conflict).
    ds.loc = start;
    while (tok_.kind == Tok::Ident) {
      BasicSpec::Step step = bs.add(tok_.ident->keyword);
      if (step == BasicSpec::Other) break; // not handled here (or a conflict)
      if (step == BasicSpec::TypeSpecifier && !ds.any_type) {
        ds.type_loc = tok_.loc;
        ds.any_type = true;
      }
      ds.any = true;
      consume();
    }
    ds.base = DeclSpec::Base(bs.base);
    ds.longs = bs.longs;
    ds.short_ = bs.short_;
    ds.sign = bs.sign;
    ds.quals = bs.quals;
    if (!(ds.any_type &&
          (tok_.kind == Tok::Star || (tok_.kind == Tok::Ident && tok_.ident->keyword == kKwNone))))
      parseDeclSpecRest(ds, DeclContext::Member);
    else
      basic = true;
  } else {
    parseDeclSpec(ds, DeclContext::Member);
  }
  if (!ds.any) {
    if (tok_.kind == Tok::Ident && tok_.ident->keyword == kKwNone)
      fail(tok_.loc, "unknown type name '" + std::string(tok_.ident->name) + "'");
    if (tok_.kind == Tok::Eof) fail(start, unterminatedRecord(rd));
    failUnexpected("a member declaration");
  }
  if (ds.kernel) fail(start, "'kernel' can only be used with functions");
  QType base = namedAlone(ds) ? ds.named : finishDeclSpec(ds, DeclContext::Member);
  if (basic) {
    if (basic_types_.empty()) basic_types_.resize(1u << 11);
    basic_types_[bs.key()] = base;
  }
  if (tok_.kind == Tok::Semi) {
    // An anonymous struct or union member, or a declaration that declares no member.
    if (ds.record && ds.tag_defined && ds.record->name.empty() && ds.record != rd) {
      FieldDecl f;
      f.type = base.t;
      f.loc = srcLoc(ds.type_loc);
      for (const Attr& a : ds.attrs) {
        if (a.kind == AttrKind::Packed) f.packed = true;
        if (a.kind == AttrKind::Aligned)
          f.aligned = std::max<uint32_t>(f.aligned, uint32_t(attrAlignment(a)));
      }
      if (ds.has_alignas && ds.alignas_)
        f.aligned = std::max<uint32_t>(f.aligned, uint32_t(ds.alignas_));
      pushMember(ds.type_loc, nullptr) = f;
    }
    consume();
    return;
  }
  for (;;) {
    Declarator d;
    d.loc = tok_.loc;
    if (tok_.kind == Tok::Ident && tok_.ident->keyword == kKwNone) {
      // A declarator that starts with its name: what parseDeclarator() does for it.
      d.name = tok_.ident;
      d.name_loc = tok_.loc;
      consume();
      if (tok_.kind == Tok::LBracket || tok_.kind == Tok::LParen)
        parseDeclaratorSuffixes(d, d.chunks, DeclContext::Member, 0);
    } else if (tok_.kind == Tok::Star) {
      // Pointers, then (usually) the name: the same steps as parseDeclarator().
      parsePointers(d, d.chunks);
      if (tok_.kind == Tok::Ident && tok_.ident->keyword == kKwNone) {
        d.name = tok_.ident;
        d.name_loc = tok_.loc;
        consume();
        if (tok_.kind == Tok::LBracket || tok_.kind == Tok::LParen)
          parseDeclaratorSuffixes(d, d.chunks, DeclContext::Member, 0);
      } else {
        parseDirectDeclarator(d, d.chunks, DeclContext::Member, false, 0);
      }
    } else if (tok_.kind != Tok::Colon) {
      parseDeclarator(d, DeclContext::Member, false);
    }
    parseAttributes(d.attrs);
    int32_t width = -1;
    Loc width_loc;
    // clang reports bit-field errors at the name (at the type for an unnamed bit-field).
    const Loc field_at = d.name ? d.name_loc : ds.type_loc;
    if (tok_.kind == Tok::Colon) {
      consume();
      width_loc = tok_.loc;
      __int128 w = 0;
      const Type* wt = nullptr;
      evalInt("bit-field width", width_loc, false, &w, &wt);
      auto fname = [&]() {
        return d.name ? "'" + std::string(d.name->name) + "' " : std::string();
      };
      if (w < 0) {
        std::string ws =
            w < -(__int128(1) << 62) ? std::string("huge") : std::to_string(int64_t(w));
        fail(field_at, "bit-field " + fname() + "has negative width (" + ws + ")");
      }
      if (w > 0x7FFFFFFF) fail(field_at, "bit-field " + fname() + "is too wide");
      width = int32_t(w);
      parseAttributes(d.attrs);
    }
    FunctionType* fn = nullptr;
    // A plain name has the specifiers' type (buildType() returns it at once).
    QType t = d.chunks.empty() && ds.attrs.empty() && d.attrs.empty()
                  ? base
                  : buildType(ds, base, d, DeclContext::Member, &fn);
    addMember(t, d.name, field_at, width, &ds, &d.attrs);
    if (tok_.kind == Tok::Comma) {
      consume();
      continue;
    }
    if (tok_.kind == Tok::Semi) {
      consume();
      return;
    }
    if (tok_.kind == Tok::Eof) fail(prev_.loc, unterminatedRecord(rd));
    failUnexpected("';' at end of declaration list");
  }
}

// The checks and the FieldDecl of one member declarator of type `t` (`name` null for an unnamed
// bit-field or member; `width` -1 if not a bit-field), errors reported at `at`. `ds` and `dattrs`
// (the specifiers and the declarator's attributes) may be null: none.
void Parser::addMember(const QType& t, Ident* name, const Loc& at, int32_t width,
                       const DeclSpec* ds, const AttrList* dattrs) {
  auto shown = [&]() { return name ? "'" + std::string(name->name) + "' " : std::string(); };
  if (t.has_as) fail(at, "field may not be qualified with an address space");
  const Type* c = stripTypedefs(t.t);
  if (c->kind == TypeKind::Function) fail(at, "field " + shown() + "declared as a function");
  if (c->kind == TypeKind::Void) fail(at, "field " + shown() + "has incomplete type 'void'");
  if (auto* r = dyn<RecordType>(c); r && !r->decl->complete)
    fail(at, "field " + shown() + "has incomplete type '" + typeStr(t.t) + "'");
  if (auto* e = dyn<EnumType>(c); e && !e->decl->complete)
    fail(at, "field " + shown() + "has incomplete type '" + typeStr(t.t) + "'");
  if (c->kind == TypeKind::OpenCL)
    fail(at, "the OpenCL type '" + typeStr(t.t) + "' cannot be used for a field");
  uint32_t aligned = 0;
  bool packed = false;
  if (width >= 0) {
    if (c->kind != TypeKind::Int && c->kind != TypeKind::Enum)
      fail(at, "bit-field " + shown() + "has non-integral type '" + typeStr(t.t) + "'");
    unsigned bits = intBits(c);
    if (c->kind == TypeKind::Int && static_cast<const IntType*>(c)->ikind == IntKind::Bool &&
        !static_cast<const IntType*>(c)->is_bitint)
      bits = 1;
    if (unsigned(width) > bits)
      fail(at, "bit-field " + shown() + "is wider than its type (" + std::to_string(width) +
                   " bits > " + std::to_string(bits) + ")");
    if (width == 0 && name)
      fail(at, "named bit-field '" + std::string(name->name) + "' has zero width");
  }
  if ((ds && !ds->attrs.empty()) || (dattrs && !dattrs->empty()))
    for (const AttrList* list : {ds ? &ds->attrs : nullptr, dattrs}) {
      if (!list || list->empty()) continue;
      for (const Attr& a : *list) {
        switch (a.kind) {
        case AttrKind::Packed:
          packed = true;
          break;
        case AttrKind::Aligned:
          aligned = std::max<uint32_t>(aligned, uint32_t(attrAlignment(a)));
          break;
        case AttrKind::Kernel:
        case AttrKind::Vertex:
          fail(a.loc, "'" + std::string(a.name) + "' attribute only applies to functions");
        case AttrKind::TransparentUnion:
          fail(a.loc, "'transparent_union' attribute only applies to unions and typedefs");
        default:
          break;
        }
      }
    }
  if (ds && ds->has_alignas) {
    if (width >= 0) fail(ds->alignas_loc, "'_Alignas' attribute cannot be applied to a bit-field");
    if (ds->alignas_) {
      uint32_t natural = alignOf(t.t, ds->alignas_loc, false);
      if (ds->alignas_ < natural)
        fail(ds->alignas_loc, "requested alignment is less than minimum alignment of " +
                                  std::to_string(natural) + " for type '" + typeStr(t.t) + "'");
      aligned = std::max<uint32_t>(aligned, uint32_t(ds->alignas_));
    }
  }
  FieldDecl& f = pushMember(at, name); // every field written: the slot may hold an old member
  f.name = name ? intern(name) : std::string_view();
  f.type = t.t;
  f.bit_width = width;
  f.aligned = aligned;
  f.packed = packed;
  f.loc = srcLoc(at);
}

// transparent_union: clang drops it (with a warning) unless `rd` is a union with members, every
// member has the first member's size and at most its alignment, and the first member is not
// floating-point.
bool Parser::transparentUnionHolds(const RecordDecl* rd) const {
  if (!rd->is_union || rd->fields.empty()) return false;
  const Type* first = stripTypedefs(rd->fields[0].type);
  if (first->kind == TypeKind::Float || first->kind == TypeKind::Vector) return false;
  bool keep = true;
  TypeLayout fl = layout_.of(rd->fields[0].type);
  for (const FieldDecl& f : rd->fields) { // every member's layout asked for (it may fail)
    TypeLayout l = layout_.of(f.type);
    if (l.size != fl.size || l.align > fl.align) keep = false;
  }
  return keep;
}

void Parser::checkRecord(RecordDecl* rd, const Loc& at, size_t base) {
  const MemberInfo* info = member_info_.data() + base;
  size_t n = rd->fields.size();
  uint32_t depth = 0;
  // The common case in one pass: no flexible array member, no anonymous struct/union member,
  // no duplicate name. Anything else (before an error can be reported) goes to the checks
  // below, which report the same first error as always.
  bool checked = false;
  if (last_body_.rd == rd && last_body_.clean) {
    // Every member came through the fast path, which has made these checks.
    checked = true;
    depth = last_body_.depth;
    last_body_.rd = nullptr;
  } else if (fast_paths) {
    uint32_t stamp = ++mark_;
    const FieldDecl* fields = rd->fields.data();
    size_t i = 0;
    for (; i < n; ++i) {
      const FieldDecl& f = fields[i];
      const Type* u = f.type->unqualified;
      if (u->kind == TypeKind::Array || u->kind == TypeKind::Typedef) {
        auto* arr = dyn<ArrayType>(stripTypedefs(f.type));
        if (arr && arr->incomplete) break;
      }
      Ident* id = info[i].name;
      if (id) {
        if (id->mark == stamp) break;
        id->mark = stamp;
      } else if (f.name.empty() && f.bit_width < 0) {
        break;
      }
      depth = std::max(depth, depthOf(f.type));
    }
    checked = i == n;
  }
  if (!checked) checkMembers(rd, info, n, depth);
  checkDepth(depth + 1, at);
  setDepth(ctx_.recordType(rd), depth + 1);
  rd->complete = true;
  if (rd->transparent_union) {
    rd->transparent_union = transparentUnionHolds(rd);
  }
  if (!rd->name.empty() && !builtinLoc(at))
    tu_.records.push_back(rd);
  else if (rd->name.empty() && !builtinLoc(at))
    pending_anon_.push_back(rd);
}

void Parser::checkMembers(const RecordDecl* rd, const MemberInfo* info, size_t n, uint32_t& depth) {
  // Flexible array members.
  for (size_t i = 0; i < n; ++i) {
    const FieldDecl& f = rd->fields[i];
    if (f.type->unqualified->kind != TypeKind::Array &&
        f.type->unqualified->kind != TypeKind::Typedef)
      continue;
    auto* arr = dyn<ArrayType>(stripTypedefs(f.type));
    if (!arr || !arr->incomplete) continue;
    std::string fname = std::string(f.name);
    const Loc& l = info[i].loc;
    if (rd->is_union) fail(l, "flexible array member '" + fname + "' in a union is not allowed");
    if (i + 1 != n)
      fail(l, "flexible array member '" + fname + "' with type '" + typeStr(f.type) +
                  "' is not at the end of " + rd->displayName(ctx_));
    bool others = false;
    for (size_t j = 0; j < i; ++j)
      if (!rd->fields[j].isUnnamedBitField()) others = true;
    if (!others)
      fail(l, "flexible array member '" + fname + "' not allowed in otherwise empty " +
                  std::string(rd->is_union ? "union" : "struct"));
  }
  // Duplicate member names, looking through anonymous members: each name's Ident is marked
  // with this record's stamp.
  uint32_t stamp = ++mark_;
  auto seen = [&](Ident* id, size_t i) {
    if (id->mark == stamp) fail(info[i].loc, "duplicate member '" + std::string(id->name) + "'");
    id->mark = stamp;
  };
  for (size_t i = 0; i < n; ++i) {
    const FieldDecl& f = rd->fields[i];
    if (info[i].name) {
      seen(info[i].name, i);
      continue;
    }
    if (!f.name.empty() || f.bit_width >= 0) continue;
    auto* rt = dyn<RecordType>(stripTypedefs(f.type));
    if (!rt) continue;
    std::vector<const RecordDecl*> stack{rt->decl};
    while (!stack.empty()) {
      const RecordDecl* r = stack.back();
      stack.pop_back();
      for (const FieldDecl& g : r->fields) {
        if (!g.name.empty())
          seen(ids_.get(g.name), i);
        else if (g.bit_width < 0)
          if (auto* inner = dyn<RecordType>(stripTypedefs(g.type))) stack.push_back(inner->decl);
      }
    }
  }
  depth = 0;
  for (const FieldDecl& f : rd->fields) depth = std::max(depth, depthOf(f.type));
}

void Parser::parseEnumBody(EnumDecl* ed, const Loc& open) {
  consume(); // {
  __int128 next = 0;
  bool first = true;
  const __int128 kMin = -(__int128(1) << 63);
  const __int128 kMax = (__int128(1) << 64) - 1;
  for (;;) {
    if (tok_.kind == Tok::RBrace) break;
    if (tok_.kind == Tok::Eof) fail(open, "unterminated enum (missing '}')");
    if (tok_.kind != Tok::Ident || tok_.ident->keyword != kKwNone)
      failUnexpected("an enumerator name");
    Ident* name = tok_.ident;
    Loc at = tok_.loc;
    consume();
    AttrList attrs;
    parseAttributes(attrs);
    __int128 value;
    const Type* vt = nullptr;
    if (tok_.kind == Tok::Equal) {
      consume();
      Loc eat = tok_.loc;
      evalInt("enumerator value", eat, false, &value, &vt);
      if (ed->fixed_underlying) {
        unsigned bits = intBits(ed->underlying);
        bool sgn = ed->underlying->is_signed;
        __int128 lo = sgn ? -(__int128(1) << (bits - 1)) : 0;
        __int128 hi = sgn ? (__int128(1) << (bits - 1)) - 1 : (__int128(1) << bits) - 1;
        if (value < lo || value > hi)
          fail(eat, "enumerator value is not representable in the underlying type '" +
                        typeStr(ed->underlying) + "'");
      }
    } else {
      value = first ? 0 : next;
      if (value > kMax) fail(at, "enumerator value is not representable in any integer type");
      if (ed->fixed_underlying) {
        unsigned bits = intBits(ed->underlying);
        bool sgn = ed->underlying->is_signed;
        __int128 hi = sgn ? (__int128(1) << (bits - 1)) - 1 : (__int128(1) << bits) - 1;
        if (value > hi) fail(at, "enumerator value is not representable in the underlying type");
      } else if (!first && value == (__int128(1) << 31) && vt == nullptr) {
        // clang C: the value after INT_MAX overflows int ("overflow in enumeration value").
      }
    }
    if (value < kMin || value > kMax)
      fail(at, "enumerator value is not representable in any integer type");
    first = false;
    next = value + 1;
    Symbol* old = lookup(name);
    if (old && old->depth == depth()) {
      if (old->kind == Symbol::EnumConst)
        fail(at, "redefinition of enumerator '" + std::string(name->name) + "'");
      fail(at, "redefinition of '" + std::string(name->name) + "' as different kind of symbol");
    }
    Symbol* s = newSymbol(Symbol::EnumConst, at);
    s->value = value;
    // While the enum is being defined an enumerator has the type of its value.
    const DataModel& d = ctx_.data();
    auto fits = [&](IntKind k) {
      unsigned bits = d.of(k).size * 8u;
      bool sgn = k == IntKind::Int || k == IntKind::Long || k == IntKind::LongLong;
      __int128 lo = sgn ? -(__int128(1) << (bits - 1)) : 0;
      __int128 hi = sgn ? (__int128(1) << (bits - 1)) - 1 : (__int128(1) << bits) - 1;
      return value >= lo && value <= hi;
    };
    const Type* st = int_;
    if (ed->fixed_underlying)
      st = ed->underlying;
    else if (!fits(IntKind::Int)) {
      for (IntKind k : {IntKind::Long, IntKind::LongLong, IntKind::ULongLong})
        if (fits(k)) {
          st = ctx_.intType(k);
          break;
        }
    }
    s->type = QType{st};
    bind(name, s);
    ed->enumerators.push_back({intern(name), value, srcLoc(at)});
    if (tok_.kind == Tok::Comma) {
      consume();
      continue;
    }
    if (tok_.kind == Tok::RBrace) break;
    if (tok_.kind == Tok::Eof) fail(open, "unterminated enum (missing '}')");
    failUnexpected("',' or '}' after an enumerator");
  }
  consume(); // }
  if (ed->enumerators.empty()) fail(open, "use of empty enum");
}

void Parser::finishEnum(EnumDecl* ed, const Loc& at) {
  const DataModel& d = ctx_.data();
  if (!ed->fixed_underlying) {
    unsigned neg_bits = 0, pos_bits = 0;
    for (const Enumerator& e : ed->enumerators) {
      __int128 v = e.value;
      if (v >= 0) {
        unsigned b = 0;
        for (unsigned __int128 u = (unsigned __int128)v; u; u >>= 1) ++b;
        pos_bits = std::max(pos_bits, b);
      } else {
        // minimum signed bits: bits of ~v plus the sign bit
        unsigned b = 1;
        for (unsigned __int128 u = (unsigned __int128)(~v); u; u >>= 1) ++b;
        neg_bits = std::max(neg_bits, b);
      }
    }
    const unsigned cw = 8, sw = d.of(IntKind::Short).size * 8u, iw = d.of(IntKind::Int).size * 8u,
                   lw = d.of(IntKind::Long).size * 8u, llw = d.of(IntKind::LongLong).size * 8u;
    IntKind k;
    bool packed = ed->packed;
    if (neg_bits) {
      if (packed && neg_bits <= cw && pos_bits < cw)
        k = IntKind::SChar;
      else if (packed && neg_bits <= sw && pos_bits < sw)
        k = IntKind::Short;
      else if (neg_bits <= iw && pos_bits < iw)
        k = IntKind::Int;
      else if (neg_bits <= lw && pos_bits < lw)
        k = IntKind::Long;
      else {
        if (neg_bits > llw || pos_bits >= llw)
          fail(at, "enumeration values exceed the range of the largest integer type");
        k = IntKind::LongLong;
      }
    } else {
      if (packed && pos_bits <= cw)
        k = IntKind::UChar;
      else if (packed && pos_bits <= sw)
        k = IntKind::UShort;
      else if (pos_bits <= iw)
        k = IntKind::UInt;
      else if (pos_bits <= lw)
        k = IntKind::ULong;
      else if (pos_bits <= llw)
        k = IntKind::ULongLong;
      else
        fail(at, "enumeration values exceed the range of the largest integer type");
    }
    ed->underlying = ctx_.intType(k);
  }
  ed->complete = true;
  // Enumerator types after the definition: C gives int when the value fits, else the enum's
  // integer type; C++ gives the enum type itself; a fixed type gives that type.
  bool cxx = lang_ == Language::CUDA || lang_ == Language::HIP;
  unsigned iw = ctx_.data().of(IntKind::Int).size * 8u;
  for (const Enumerator& e : ed->enumerators) {
    Ident* id = ids_.get(e.name);
    Symbol* s = lookup(id);
    if (!s || s->kind != Symbol::EnumConst) continue;
    bool fits_int = e.value >= -(__int128(1) << (iw - 1)) && e.value < (__int128(1) << (iw - 1));
    if (cxx)
      s->type = QType{ctx_.enumType(ed)};
    else if (ed->fixed_underlying)
      s->type = QType{ed->underlying};
    else
      s->type = QType{fits_int ? int_ : static_cast<const Type*>(ed->underlying)};
  }
  if (!builtinLoc(at)) tu_.enums.push_back(ed);
}

// ----- declarators ----------------------------------------------------------------------------

void Parser::parseDeclarator(Declarator& d, DeclContext dc, bool abstract_ok, unsigned level) {
  d.loc = tok_.loc;
  parseDeclaratorLevel(d, d.chunks, dc, abstract_ok, level);
}

bool Parser::nestedDeclaratorFollows(DeclContext dc, bool abstract_ok) const {
  // tok_ is '('.
  if (!abstract_ok) return true;
  const Token& n = const_cast<Parser*>(this)->peekTok(0);
  switch (n.kind) {
  case Tok::Star:
  case Tok::Caret:
  case Tok::LBracket:
    return true;
  case Tok::LParen:
    return true;
  case Tok::Ident:
    if (n.ident->keyword == kKwAttribute) return true;
    if (startsDeclSpec(n)) return false;
    return dc != DeclContext::TypeName;
  default:
    return false;
  }
}

void Parser::parseDeclaratorLevel(Declarator& d, SmallVec<Chunk, 4>& out, DeclContext dc,
                                  bool abstract_ok, unsigned level) {
  // The chunks of this level go to `out` in the order they apply to the base type: the
  // pointers left to right, then the suffixes right to left, then the nested declarator's.
  (void)level;
  Nest nest(*this, tok_.loc, "declarator");
  parsePointers(d, out);
  parseDirectDeclarator(d, out, dc, abstract_ok, level);
}

void Parser::parsePointers(Declarator& d, SmallVec<Chunk, 4>& out) {
  while (tok_.kind == Tok::Star || tok_.kind == Tok::Caret) {
    if (tok_.kind == Tok::Caret) fail(tok_.loc, "blocks ('^') are not supported", true);
    if (out.size() > 4 * kMaxNesting) fail(tok_.loc, "declarator nested too deeply");
    Chunk c;
    c.kind = Chunk::Pointer;
    c.loc = tok_.loc;
    consume();
    for (;;) {
      if (atAttribute()) {
        AttrList attrs;
        parseAttributes(attrs);
        for (const Attr& a : attrs) {
          if (a.kind == AttrKind::AddressSpace || a.kind == AttrKind::OpenCLAddrSpace) {
            c.has_as = true;
            c.as = a.kind == AttrKind::AddressSpace ? uint32_t(a.value) : a.as;
          } else if (a.kind == AttrKind::VectorSize || a.kind == AttrKind::Mode ||
                     a.kind == AttrKind::ExtVectorType) {
            fail(a.loc, "'" + std::string(a.name) + "' attribute cannot be applied to a pointer");
          } else if (a.kind == AttrKind::Kernel || a.kind == AttrKind::Vertex) {
            d.chunk_attrs.push_back(a);
          }
        }
        continue;
      }
      if (tok_.kind != Tok::Ident) break;
      Kw kw = Kw(tok_.ident->keyword);
      if (kw == kKwConst)
        c.quals |= kQualConst;
      else if (kw == kKwVolatile)
        c.quals |= kQualVolatile;
      else if (kw == kKwRestrict)
        c.quals |= kQualRestrict;
      else if (kw == kKwNullability || kw == kKwExtension) {
      } else if (kw == kKwAtomic) {
        fail(tok_.loc, "_Atomic is not supported", true);
      } else if (kw == kKwAddrSpace) {
        c.has_as = true;
        c.as = as_keywords_[tok_.ident];
      } else {
        break;
      }
      consume();
    }
    out.push_back(c);
  }
}

void Parser::parseDirectDeclarator(Declarator& d, SmallVec<Chunk, 4>& out, DeclContext dc,
                                   bool abstract_ok, unsigned level) {
  std::unique_ptr<SmallVec<Chunk, 4>> inner; // only for a parenthesised declarator
  if (tok_.kind == Tok::Ident && tok_.ident->keyword == kKwNone && dc != DeclContext::TypeName) {
    d.name = tok_.ident;
    d.name_loc = tok_.loc;
    consume();
  } else if (tok_.kind == Tok::LParen && nestedDeclaratorFollows(dc, abstract_ok)) {
    Loc open = tok_.loc;
    consume();
    AttrList attrs;
    parseAttributes(attrs); // e.g. void (__attribute__((noreturn)) *f)(void)
    for (const Attr& a : attrs)
      if (a.kind == AttrKind::Kernel || a.kind == AttrKind::Vertex) d.chunk_attrs.push_back(a);
    inner = std::make_unique<SmallVec<Chunk, 4>>();
    parseDeclaratorLevel(d, *inner, dc, abstract_ok, level + 1);
    if (tok_.kind != Tok::RParen) {
      if (tok_.kind == Tok::Eof) fail(open, "expected ')' to match this '('");
      failUnexpected("')'");
    }
    consume();
  } else if (!abstract_ok) {
    if (tok_.kind == Tok::Ident && tok_.ident->keyword != kKwNone)
      fail(tok_.loc, "expected identifier or '(' (found the keyword '" +
                         std::string(tok_.ident->name) + "')");
    failUnexpected("an identifier or '('");
  }
  parseDeclaratorSuffixes(d, out, dc, level);
  if (inner)
    for (size_t i = 0; i < inner->size(); ++i) out.push_back((*inner)[i]);
}

void Parser::parseDeclaratorSuffixes(Declarator& d, SmallVec<Chunk, 4>& out, DeclContext dc,
                                     unsigned level) {
  size_t suffix_start = out.size();
  bool first_dim = true;
  for (;;) {
    if (tok_.kind == Tok::LBracket && !atAttribute()) {
      parseArraySuffix(d, out, dc, first_dim);
      first_dim = false;
      if (out.size() > 4 * kMaxNesting) fail(tok_.loc, "declarator nested too deeply");
    } else if (tok_.kind == Tok::LParen) {
      Chunk c;
      c.kind = Chunk::Function;
      c.loc = tok_.loc;
      c.fn = parseParams(d, tok_.loc, level);
      out.push_back(c);
    } else {
      break;
    }
  }
  if (out.size() - suffix_start > 1) out.reverse(suffix_start);
}

void Parser::parseArraySuffix(Declarator& d, SmallVec<Chunk, 4>& out, DeclContext dc,
                              bool first_dim) {
  Chunk c;
  c.kind = Chunk::Array;
  c.loc = tok_.loc;
  consume(); // [
  if (dc == DeclContext::Param && first_dim) {
    // C99: int a[static 4], int a[const]
    for (;;) {
      if (isKw(kKwStatic))
        consume();
      else if (isKw(kKwConst))
        c.quals |= kQualConst, consume();
      else if (isKw(kKwVolatile))
        c.quals |= kQualVolatile, consume();
      else if (isKw(kKwRestrict))
        c.quals |= kQualRestrict, consume();
      else
        break;
    }
  }
  c.size_loc = tok_.loc;
  if (tok_.kind == Tok::RBracket) {
    c.incomplete = true;
  } else if (tok_.kind == Tok::Star && peekTok(0).kind == Tok::RBracket) {
    if (dc != DeclContext::Param)
      fail(tok_.loc, "star modifier used outside of function prototype");
    consume();
    c.vla = true;
  } else {
    Nest nest(*this, c.size_loc, "expression");
    Value v = parseAssign(true);
    v = rvalue(v, c.size_loc);
    if (v.kind == Value::Float)
      fail(c.size_loc, "size of array has non-integer type '" + typeStr(v.type) + "'");
    if (v.kind != Value::Int || !v.known) {
      if (dc != DeclContext::Param)
        fail(c.size_loc, "array size is not an integer constant expression (variable length "
                         "arrays are not supported here)");
      c.vla = true;
    } else {
      __int128 n = signedValue(v);
      if (intSigned(v.type) && n < 0) {
        std::string what = d.name ? "array '" + std::string(d.name->name) + "'" : "array";
        fail(c.size_loc, what + " has negative size");
      } else {
        unsigned __int128 u = intSigned(v.type) ? (unsigned __int128)n : v.bits;
        if (u > (unsigned __int128)UINT64_MAX) fail(c.size_loc, "array is too large");
        c.count = uint64_t(u);
      }
    }
  }
  if (tok_.kind != Tok::RBracket) failUnexpected("']'");
  consume();
  out.push_back(c);
}

FunctionType* Parser::parseParams(Declarator& d, const Loc& at, unsigned level) {
  Nest nest(*this, tok_.loc, "parameter list");
  consume(); // (
  FunctionType* fn = ctx_.createFunctionType();
  if (tok_.kind == Tok::RParen) {
    consume();
    // C17: () declares a function without a prototype; C++ (CUDA/HIP): no parameters.
    fn->prototyped = lang_ == Language::CUDA || lang_ == Language::HIP || lang_ == Language::OpenCL;
    return fn;
  }
  // K&R identifier list (only meaningful in a definition).
  if (tok_.kind == Tok::Ident && tok_.ident->keyword == kKwNone && !isTypeName(tok_) &&
      (peekTok(0).kind == Tok::Comma || peekTok(0).kind == Tok::RParen) && lang_ == Language::C) {
    Symbol* s = lookup(tok_.ident);
    if (!s || s->kind != Symbol::Typedef) {
      fn->prototyped = false;
      d.knr_names.clear();
      for (;;) {
        if (tok_.kind != Tok::Ident || tok_.ident->keyword != kKwNone)
          failUnexpected("an identifier in the parameter list");
        d.knr_names.push_back(tok_.ident);
        consume();
        if (tok_.kind == Tok::Comma) {
          consume();
          continue;
        }
        if (tok_.kind == Tok::RParen) break;
        failUnexpected("',' or ')' in the parameter list");
      }
      consume();
      d.has_knr = true;
      return fn;
    }
  }
  pushScope();
  for (;;) {
    if (tok_.kind == Tok::Ellipsis) {
      if (fn->params.empty()) fail(tok_.loc, "ISO C requires a named parameter before '...'");
      fn->variadic = true;
      consume();
      if (tok_.kind != Tok::RParen) failUnexpected("')' after '...'");
      break;
    }
    Loc pstart = tok_.loc;
    DeclSpec ps;
    parseDeclSpec(ps, DeclContext::Param);
    if (!ps.any) {
      if (tok_.kind == Tok::Ident && tok_.ident->keyword == kKwNone)
        fail(tok_.loc, "unknown type name '" + std::string(tok_.ident->name) + "'");
      if (tok_.kind == Tok::Eof) fail(at, "expected ')' to match this '('");
      failUnexpected("a parameter declaration");
    }
    if (ps.storage != kKwNone && ps.storage != kKwRegister)
      fail(ps.storage_loc, "invalid storage class specifier in function declarator");
    QType pb = finishDeclSpec(ps, DeclContext::Param);
    Declarator pd;
    parseDeclarator(pd, DeclContext::Param, true, level + 1);
    parseAttributes(pd.attrs);
    FunctionType* inner_fn = nullptr;
    QType pt = buildType(ps, pb, pd, DeclContext::Param, &inner_fn);
    Loc ploc = pd.name ? pd.name_loc : pstart;
    const Type* c = stripTypedefs(pt.t);
    if (c->kind == TypeKind::Void) {
      if (fn->params.empty() && !pd.name && tok_.kind == Tok::RParen && pt.t->quals == 0 &&
          pd.chunks.empty()) {
        break; // (void)
      }
      if (pd.name) fail(ploc, "argument may not have 'void' type");
      fail(ploc, "'void' must be the first and only parameter if specified");
    }
    if (pt.has_as && c->kind != TypeKind::Array)
      fail(ploc, "parameter may not be qualified with an address space");
    ParamDecl p;
    p.name = pd.name ? intern(pd.name) : std::string_view();
    p.type = pt.t;
    p.loc = srcLoc(ploc);
    if (pd.name) {
      Symbol* old = lookup(pd.name);
      if (old && old->depth == depth())
        fail(pd.name_loc, "redefinition of parameter '" + std::string(pd.name->name) + "'");
      Symbol* s = newSymbol(Symbol::Param, pd.name_loc);
      s->type = pt;
      bind(pd.name, s);
    }
    if (fn->params.size() > 100000) fail(ploc, "too many parameters");
    fn->params.push_back(p);
    if (tok_.kind == Tok::Comma) {
      consume();
      continue;
    }
    if (tok_.kind == Tok::RParen) break;
    if (tok_.kind == Tok::Eof) fail(at, "expected ')' to match this '('");
    failUnexpected("',' or ')' in the parameter list");
  }
  popScope();
  consume(); // )
  return fn;
}

// One pointer declarator chunk applied to `t`.
void Parser::applyPointer(QType& t, const Chunk& c) {
  applyPointer(t, c.loc);
  t.has_as = c.has_as;
  t.as = c.as;
  if (c.quals) t.t = ctx_.qualified(t.t, c.quals);
}

// A '*' at `at` without qualifiers or address space applied to `t`.
void Parser::applyPointer(QType& t, const Loc& at) {
  uint32_t depth = pointerDepth(t.t, at);
  t.t = pointerTo(t.t, t.has_as ? t.as : 0);
  setDepth(t.t, depth);
  t.has_as = false;
  t.as = 0;
}

// One array declarator chunk applied to `t` (`name`: the declarator's, for messages).
void Parser::applyArray(QType& t, const Chunk& c, const Ident* name, DeclContext dc) {
  ArrCacheEntry* cached = nullptr;
  if (!c.incomplete && !c.vla) {
    size_t h = ((reinterpret_cast<uintptr_t>(t.t) >> 4) ^ (c.count * 0x9E3779B97F4A7C15ull >> 50)) &
               (arr_cache_.size() - 1);
    cached = &arr_cache_[h];
    if (cached->element == t.t && cached->count == c.count && cached->result) {
      t.t = cached->result;
      if (c.quals && dc == DeclContext::Param) t.t = ctx_.qualified(t.t, c.quals);
      return;
    }
  }
  auto who = [&]() {
    return name ? "'" + std::string(name->name) + "'" : std::string("type name");
  };
  uint32_t depth = depthOf(t.t) + 1;
  checkDepth(depth, c.loc);
  const Type* e = stripTypedefs(t.t);
  if (e->kind == TypeKind::Function) fail(c.loc, who() + " declared as array of functions");
  if (e->kind == TypeKind::Void) fail(c.loc, "array has incomplete element type 'void'");
  if (auto* r = dyn<RecordType>(e); r && !r->decl->complete)
    fail(c.loc, "array has incomplete element type '" + typeStr(t.t) + "'");
  if (auto* en = dyn<EnumType>(e); en && !en->decl->complete)
    fail(c.loc, "array has incomplete element type '" + typeStr(t.t) + "'");
  if (auto* a = dyn<ArrayType>(e); a && a->incomplete)
    fail(c.loc, "array has incomplete element type '" + typeStr(t.t) + "'");
  if (c.incomplete || c.vla) {
    t.t = ctx_.incompleteArrayOf(t.t);
  } else {
    if (c.count) {
      uint64_t esize = sizeOf(t.t, c.loc, "array");
      unsigned max_bits = std::min(61u, unsigned(ctx_.data().of(ctx_.data().size_type).size) * 8u);
      unsigned __int128 total = (unsigned __int128)esize * c.count;
      if (total >= ((unsigned __int128)1 << max_bits))
        fail(c.size_loc, "array is too large (" + std::to_string(c.count) + " elements)");
    }
    const Type* element = t.t;
    t.t = ctx_.arrayOf(element, c.count);
    if (cached) *cached = {element, c.count, t.t};
  }
  setDepth(t.t, depth);
  if (c.quals && dc == DeclContext::Param) {
    // int a[const 3]: the qualifiers go to the adjusted pointer; keep them on the array.
    t.t = ctx_.qualified(t.t, c.quals);
  }
}

QType Parser::buildType(const DeclSpec& ds, QType base, Declarator& d, DeclContext dc,
                        FunctionType** outer_fn) {
  if (d.chunks.empty() && ds.attrs.empty() && d.attrs.empty()) {
    // A plain name: the type is the specifiers' (what the code below returns for it).
    if (outer_fn) *outer_fn = nullptr;
    return base;
  }
  QType t = base;
  FunctionType* last_fn = nullptr;
  for (size_t i = 0; i < d.chunks.size(); ++i) {
    const Chunk& c = d.chunks[i];
    last_fn = nullptr;
    switch (c.kind) {
    case Chunk::Pointer:
      applyPointer(t, c);
      break;
    case Chunk::Array:
      applyArray(t, c, d.name, dc);
      break;
    case Chunk::Function: {
      const Type* r = stripTypedefs(t.t);
      if (r->kind == TypeKind::Function) fail(c.loc, "function cannot return function type");
      if (r->kind == TypeKind::Array) fail(c.loc, "function cannot return array type");
      if (t.has_as && t.as != 0) fail(c.loc, "return type cannot be qualified with address space");
      uint32_t depth = depthOf(t.t);
      for (const ParamDecl& pd : c.fn->params) depth = std::max(depth, depthOf(pd.type));
      checkDepth(depth + 1, c.loc);
      setDepth(c.fn, depth + 1);
      c.fn->result = t.t;
      t = QType{c.fn};
      last_fn = c.fn;
      break;
    }
    }
  }
  bool is_typedef = ds.storage == kKwTypedef;
  // Attributes after the declarator apply to the declared type (type attributes) or to the
  // declaration; mode and ext_vector_type are declaration attributes that change the type.
  for (const Attr& a : ds.attrs)
    if (a.kind == AttrKind::Mode || a.kind == AttrKind::ExtVectorType)
      t = applyTypeAttr(a, t, is_typedef);
  for (const Attr& a : d.attrs)
    if (a.kind == AttrKind::Mode || a.kind == AttrKind::ExtVectorType ||
        a.kind == AttrKind::VectorSize || a.kind == AttrKind::AddressSpace ||
        a.kind == AttrKind::OpenCLAddrSpace)
      t = applyTypeAttr(a, t, is_typedef);
  if (outer_fn) *outer_fn = last_fn;
  return t;
}

QType Parser::parseTypeName(const Loc& at) {
  Nest nest(*this, tok_.loc, "type name");
  DeclSpec ds;
  parseDeclSpec(ds, DeclContext::TypeName);
  if (!ds.any) failUnexpected("a type name");
  QType base = finishDeclSpec(ds, DeclContext::TypeName);
  Declarator d;
  parseDeclarator(d, DeclContext::TypeName, true);
  parseAttributes(d.attrs);
  (void)at;
  return buildType(ds, base, d, DeclContext::TypeName, nullptr);
}

// ----- declarations ---------------------------------------------------------------------------

void Parser::skipAsm() {
  consume(); // asm
  while (tok_.kind == Tok::Ident &&
         (isKw(kKwVolatile) || isKw(kKwInline) || tok_.ident->name == "goto"))
    consume();
  if (tok_.kind != Tok::LParen) failUnexpected("'(' after 'asm'");
  skipBalanced(Tok::LParen, Tok::RParen);
}

void Parser::skipInitializer() {
  Loc at = tok_.loc;
  int depth = 0;
  for (;;) {
    switch (tok_.kind) {
    case Tok::Eof:
      fail(at, "expected ';' after the initializer");
    case Tok::LParen:
    case Tok::LBracket:
    case Tok::LBrace:
      ++depth;
      break;
    case Tok::RParen:
    case Tok::RBracket:
    case Tok::RBrace:
      if (--depth < 0) failUnexpected("an expression");
      break;
    case Tok::Comma:
    case Tok::Semi:
      if (depth == 0) return;
      break;
    default:
      break;
    }
    consume();
  }
}

void Parser::skipFunctionBody() {
  Loc open = tok_.loc;
  unsigned depth = 0;
  for (;;) {
    if (tok_.kind == Tok::Eof) fail(open, "expected '}' to end the function body");
    if (tok_.kind == Tok::LBrace)
      ++depth;
    else if (tok_.kind == Tok::RBrace && --depth == 0) {
      consume();
      return;
    }
    consume();
  }
}

void Parser::parseStaticAssert() {
  Loc at = tok_.loc;
  consume();
  expect(Tok::LParen, "after '_Static_assert'");
  Loc eat = tok_.loc;
  Value v = parseConditional(true);
  v = rvalue(v, eat);
  std::string msg;
  if (tok_.kind == Tok::Comma) {
    consume();
    if (tok_.kind != Tok::String) failUnexpected("a string literal");
    while (tok_.kind == Tok::String) {
      LiteralPrefix prefix;
      std::vector<uint32_t> units;
      std::string err = decodeLiteral(tok_.text(), pp_.wcharBits(), prefix, units);
      if (!err.empty()) fail(tok_.loc, err);
      for (uint32_t u : units) msg += u < 0x80 ? char(u) : '?';
      consume();
    }
  }
  expect(Tok::RParen, "after the static assertion");
  if (v.kind != Value::Int || !v.known || v.folded)
    fail(eat, "static assertion expression is not an integral constant expression");
  if (isZero(v))
    fail(at,
         msg.empty() ? std::string("static assertion failed") : "static assertion failed: " + msg);
  if (tok_.kind != Tok::Semi) failUnexpected("';' after the static assertion");
  consume();
}

void Parser::applyFunctionAttrs(const AttrList& attrs, FunctionType* fn, const Declarator& d) {
  for (const Attr& a : attrs) {
    if (a.kind == AttrKind::Kernel) {
      if (!fn) fail(a.loc, "'" + std::string(a.name) + "' attribute only applies to functions");
      fn->fkind = FunctionKind::Kernel;
    } else if (a.kind == AttrKind::Vertex) {
      if (!fn) fail(a.loc, "'" + std::string(a.name) + "' attribute only applies to functions");
      fn->fkind = FunctionKind::Vertex;
    }
  }
  (void)d;
}

bool Parser::sameType(const Type* a, const Type* b) const {
  if (a == b) return true;
  if (!a || !b) return false;
  if (a->quals != b->quals) {
    // Typedef sugar may carry the qualifiers on either side.
    const Type* ca = stripTypedefs(a);
    const Type* cb = stripTypedefs(b);
    uint8_t qa = a->quals, qb = b->quals;
    for (const Type* t = a; t->unqualified->kind == TypeKind::Typedef;) {
      t = static_cast<const TypedefType*>(t->unqualified)->decl->underlying;
      qa |= t->quals;
    }
    for (const Type* t = b; t->unqualified->kind == TypeKind::Typedef;) {
      t = static_cast<const TypedefType*>(t->unqualified)->decl->underlying;
      qb |= t->quals;
    }
    if (qa != qb) return false;
    return sameType(ca, cb);
  }
  const Type* ca = stripTypedefs(a);
  const Type* cb = stripTypedefs(b);
  if (ca == cb) return true;
  if (ca->kind != cb->kind) return false;
  switch (ca->kind) {
  case TypeKind::Pointer: {
    auto* pa = static_cast<const PointerType*>(ca);
    auto* pb = static_cast<const PointerType*>(cb);
    return pa->address_space == pb->address_space && sameType(pa->pointee, pb->pointee);
  }
  case TypeKind::Array: {
    auto* aa = static_cast<const ArrayType*>(ca);
    auto* ab = static_cast<const ArrayType*>(cb);
    return aa->incomplete == ab->incomplete && aa->count == ab->count &&
           sameType(aa->element, ab->element);
  }
  case TypeKind::Vector: {
    auto* va = static_cast<const VectorType*>(ca);
    auto* vb = static_cast<const VectorType*>(cb);
    return va->count == vb->count && va->vkind == vb->vkind && sameType(va->element, vb->element);
  }
  case TypeKind::Complex:
    return sameType(static_cast<const ComplexType*>(ca)->element,
                    static_cast<const ComplexType*>(cb)->element);
  case TypeKind::Function:
    return compatibleFunction(static_cast<const FunctionType*>(ca),
                              static_cast<const FunctionType*>(cb));
  case TypeKind::Int: {
    auto* ia = static_cast<const IntType*>(ca);
    auto* ib = static_cast<const IntType*>(cb);
    return ia->ikind == ib->ikind && ia->is_bitint == ib->is_bitint && ia->bits == ib->bits &&
           ia->is_signed == ib->is_signed;
  }
  case TypeKind::OpenCL: {
    auto* oa = static_cast<const OpenCLType*>(ca);
    auto* ob = static_cast<const OpenCLType*>(cb);
    return oa->okind == ob->okind && oa->access == ob->access &&
           (oa->pipe_element == ob->pipe_element || sameType(oa->pipe_element, ob->pipe_element));
  }
  default:
    return false;
  }
}

bool Parser::compatibleFunction(const FunctionType* a, const FunctionType* b) const {
  if (!sameType(a->result->unqualified, b->result->unqualified) && !sameType(a->result, b->result))
    return false;
  if (!a->prototyped || !b->prototyped) return true;
  if (a->variadic != b->variadic || a->params.size() != b->params.size()) return false;
  auto adjust = [this](const Type* t) -> const Type* {
    const Type* c = stripTypedefs(t);
    if (auto* arr = dyn<ArrayType>(c))
      return const_cast<TypeContext&>(ctx_).pointerTo(arr->element);
    if (c->kind == TypeKind::Function) return const_cast<TypeContext&>(ctx_).pointerTo(c);
    return t;
  };
  for (size_t i = 0; i < a->params.size(); ++i) {
    const Type* pa = adjust(a->params[i].type);
    const Type* pb = adjust(b->params[i].type);
    if (!sameType(pa->unqualified, pb->unqualified) &&
        !sameType(stripTypedefs(pa)->unqualified, stripTypedefs(pb)->unqualified))
      return false;
  }
  return true;
}

void Parser::declareTypedef(DeclSpec& ds, QType t, Declarator& d) {
  Ident* name = d.name;
  if (ds.has_alignas) fail(ds.alignas_loc, "'_Alignas' attribute cannot be applied to a typedef");
  if (ds.kernel) fail(ds.loc, "'kernel' can only be used with functions");
  uint32_t aligned = 0;
  bool transparent = false;
  for (const AttrList* list : {&ds.attrs, &d.attrs}) {
    for (const Attr& a : *list) {
      if (a.kind == AttrKind::Aligned)
        aligned = std::max<uint32_t>(aligned, uint32_t(attrAlignment(a)));
      else if (a.kind == AttrKind::TransparentUnion)
        transparent = true;
      else if (a.kind == AttrKind::Kernel || a.kind == AttrKind::Vertex)
        fail(a.loc, "'" + std::string(a.name) + "' attribute only applies to functions");
    }
  }
  Symbol* old = lookup(name);
  if (old && old->depth == depth()) {
    if (old->kind != Symbol::Typedef)
      fail(d.name_loc,
           "redefinition of '" + std::string(name->name) + "' as different kind of symbol");
    const Type* prev = old->td->underlying;
    if (!sameType(prev, t.t) || old->type.as != t.as || old->td->aligned != aligned)
      fail(d.name_loc, "typedef redefinition with different types ('" + typeStr(t.t) + "' vs '" +
                           typeStr(prev) + "')");
    return; // C11: the same typedef may be repeated
  }
  uint32_t depth = depthOf(t.t) + 1;
  checkDepth(depth, d.name_loc);
  TypedefDecl* td = ctx_.createTypedef(intern(name), t.t, srcLoc(d.name_loc));
  td->aligned = aligned;
  td->builtin = builtinLoc(d.name_loc);
  if (t.has_as) typedef_as_[td] = t.as;
  Symbol* s = newSymbol(Symbol::Typedef, d.name_loc);
  s->td = td;
  s->type = QType{ctx_.typedefType(td), t.as, t.has_as};
  setDepth(s->type.t, depth);
  bind(name, s);
  // A typedef names the anonymous struct, union or enum it declares.
  if (ds.record && ds.tag_defined && ds.record->name.empty() && ds.record->typedef_name.empty() &&
      t.t == ctx_.recordType(ds.record)) {
    ds.record->typedef_name = td->name;
    ds.record->typedef_type = s->type.t;
    auto it = std::find(pending_anon_.begin(), pending_anon_.end(), ds.record);
    if (it != pending_anon_.end()) {
      pending_anon_.erase(it);
      tu_.records.push_back(ds.record);
    }
  }
  if (ds.enum_ && ds.tag_defined && ds.enum_->name.empty() && ds.enum_->typedef_name.empty() &&
      t.t == ctx_.enumType(ds.enum_))
    ds.enum_->typedef_name = td->name;
  if (transparent) {
    auto* rt = dyn<RecordType>(stripTypedefs(t.t));
    if (rt && rt->decl->is_union && rt->decl->complete && transparentUnionHolds(rt->decl))
      rt->decl->transparent_union = true;
  }
  if (!td->builtin) tu_.typedefs.push_back(td);
}

void Parser::declareFunction(DeclSpec& ds, QType t, Declarator& d, FunctionType* fn,
                             bool is_definition) {
  (void)t;
  if (ds.kernel) fn->fkind = FunctionKind::Kernel;
  applyFunctionAttrs(ds.attrs, fn, d);
  applyFunctionAttrs(d.attrs, fn, d);
  applyFunctionAttrs(d.chunk_attrs, fn, d);
  if (ds.has_alignas) fail(ds.alignas_loc, "'_Alignas' attribute cannot be applied to a function");
  Ident* name = d.name;
  Symbol* old = lookup(name);
  if (old && old->depth == depth()) {
    if (old->kind != Symbol::Func)
      fail(d.name_loc,
           "redefinition of '" + std::string(name->name) + "' as different kind of symbol");
    FunctionDecl* fd = old->fd;
    if (!compatibleFunction(fd->type, fn))
      fail(d.name_loc, "conflicting types for '" + std::string(name->name) + "'");
    if (is_definition && fd->is_definition)
      fail(d.name_loc, "redefinition of '" + std::string(name->name) + "'");
    if (fn->fkind == FunctionKind::Normal && fd->type->fkind != FunctionKind::Normal)
      fn->fkind = fd->type->fkind;
    // Keep the most informative type: a prototype over none, a definition's names.
    if (is_definition || !fd->type->prototyped) {
      if (!fn->prototyped && fd->type->prototyped) {
        // K&R definition after a prototype: the prototype decides the calling convention.
      } else {
        fd->type = fn;
      }
    }
    if (is_definition) fd->is_definition = true;
    if (ds.storage == kKwStatic) fd->is_static = true;
    return;
  }
  FunctionDecl* fd = ctx_.createFunction(intern(name), fn, srcLoc(d.name_loc));
  fd->is_definition = is_definition;
  fd->is_static = ds.storage == kKwStatic;
  Symbol* s = newSymbol(Symbol::Func, d.name_loc);
  s->fd = fd;
  s->type = QType{fn};
  bind(name, s);
  if (!builtinLoc(d.name_loc)) tu_.functions.push_back(fd);
}

void Parser::declare(DeclSpec& ds, QType t, Declarator& d, bool is_definition) {
  if (!d.name) fail(d.loc, "declaration does not declare anything");
  FunctionType* fn = dyn<FunctionType>(stripTypedefs(t.t))
                         ? const_cast<FunctionType*>(dyn<FunctionType>(stripTypedefs(t.t)))
                         : nullptr;
  if (ds.storage == kKwTypedef) {
    declareTypedef(ds, t, d);
    return;
  }
  if (fn) {
    if (fn != dyn<FunctionType>(t.t)) {
      // Declared through a typedef of a function type: copy it so the declaration owns it.
      FunctionType* copy = ctx_.createFunctionType();
      copy->result = fn->result;
      copy->params = fn->params;
      copy->variadic = fn->variadic;
      copy->prototyped = fn->prototyped;
      copy->fkind = fn->fkind;
      fn = copy;
    }
    declareFunction(ds, t, d, fn, is_definition);
    return;
  }
  if (ds.kernel) fail(ds.loc, "'kernel' can only be used with functions");
  for (const AttrList* list : {&ds.attrs, &d.attrs, &d.chunk_attrs})
    for (const Attr& a : *list)
      if (a.kind == AttrKind::Kernel || a.kind == AttrKind::Vertex)
        fail(a.loc, "'" + std::string(a.name) + "' attribute only applies to functions");
  Symbol* old = lookup(d.name);
  if (old && old->depth == depth() && old->kind != Symbol::Var)
    fail(d.name_loc,
         "redefinition of '" + std::string(d.name->name) + "' as different kind of symbol");
  if (old && old->depth == depth()) {
    // A compatible redeclaration completes an incomplete array type.
    if (auto* a = dyn<ArrayType>(stripTypedefs(old->type.t)); a && a->incomplete) old->type = t;
    return;
  }
  Symbol* s = newSymbol(Symbol::Var, d.name_loc);
  s->type = t;
  bind(d.name, s);
  if (ds.storage != kKwExtern && depth() == 0) {
    const Type* c = stripTypedefs(t.t);
    if ((c->kind == TypeKind::Record && !static_cast<const RecordType*>(c)->decl->complete) ||
        (c->kind == TypeKind::Enum && !static_cast<const EnumType*>(c)->decl->complete))
      tentative_.emplace_back(t.t, d.name_loc);
  }
}

void Parser::handleTagOnlyDecl(DeclSpec& ds) {
  // `struct S;`, `enum E {...};`, or a declaration that declares nothing (clang warns).
  (void)ds;
}

void Parser::parseExternalDeclaration() {
  if (tok_.kind == Tok::Semi) {
    consume();
    return;
  }
  if (isKw(kKwStaticAssert)) {
    parseStaticAssert();
    return;
  }
  if (isKw(kKwAsm)) {
    skipAsm();
    if (tok_.kind != Tok::Semi) failUnexpected("';' after top-level asm");
    consume();
    return;
  }
  if ((lang_ == Language::CUDA || lang_ == Language::HIP) && isKw(kKwExtern) &&
      peekTok(0).kind == Tok::String && peekTok(1).kind == Tok::LBrace) {
    consume();
    if (tok_.text() != "\"C\"" && tok_.text() != "\"C++\"")
      fail(tok_.loc, "unknown linkage language " + std::string(tok_.text()));
    consume();
    Loc open = tok_.loc;
    consume();
    Nest nest(*this, open, "linkage specifications");
    while (tok_.kind != Tok::RBrace) {
      if (tok_.kind == Tok::Eof) fail(open, "expected '}' to end the linkage specification");
      parseExternalDeclaration();
    }
    consume();
    return;
  }
  if (fast_paths && isKw(kKwTypedef) && fastTypedefTag()) return;
  if (fast_paths && tok_.kind == Tok::Ident && fastRecordDefinition()) return;
  DeclSpec ds;
  parseDeclSpec(ds, DeclContext::File);
  finishExternalDeclaration(ds);
}

// The rest of a file-scope declaration after its specifiers `ds`.
void Parser::finishExternalDeclaration(DeclSpec& ds) {
  if (!ds.any) {
    if (tok_.kind == Tok::Ident && tok_.ident->keyword == kKwNone) {
      Symbol* s = lookup(tok_.ident);
      if (!s) fail(tok_.loc, "unknown type name '" + std::string(tok_.ident->name) + "'");
      fail(tok_.loc, "expected a declaration (found '" + std::string(tok_.ident->name) + "')");
    }
    if (tok_.kind == Tok::RBrace) fail(tok_.loc, "extraneous closing brace ('}')");
    failUnexpected("a declaration");
  }
  QType base = namedAlone(ds) ? ds.named : finishDeclSpec(ds, DeclContext::File);
  if (tok_.kind == Tok::Semi) {
    handleTagOnlyDecl(ds);
    if (!(fast_paths && fastIdentToken())) consume();
    return;
  }
  if (ds.tag_defined) {
    // After a struct/union/enum body only a declarator or ';' may follow.
    bool declarator_start =
        tok_.kind == Tok::Star || tok_.kind == Tok::LParen || tok_.kind == Tok::Caret ||
        (tok_.kind == Tok::Ident &&
         (tok_.ident->keyword == kKwNone || tok_.ident->keyword == kKwAttribute ||
          tok_.ident->keyword == kKwConst || tok_.ident->keyword == kKwVolatile)) ||
        atAttribute();
    if (!declarator_start) {
      Loc after = prev_.loc;
      after.col += prev_.len;
      after.offset += prev_.len;
      const char* what = ds.record ? (ds.record->is_union ? "union" : "struct") : "enum";
      fail(after, std::string("expected ';' after ") + what);
    }
  }
  for (;;) {
    Declarator d;
    parseDeclarator(d, DeclContext::File, false);
    for (;;) {
      if (atAttribute()) {
        parseAttributes(d.attrs);
        continue;
      }
      if (isKw(kKwAsm)) {
        skipAsm(); // asm label
        continue;
      }
      break;
    }
    FunctionType* fn = nullptr;
    QType t = buildType(ds, base, d, DeclContext::File, &fn);
    bool knr_body = fn && d.has_knr && startsDeclSpec(tok_);
    if (fn && (tok_.kind == Tok::LBrace || knr_body)) {
      if (ds.storage == kKwTypedef) fail(tok_.loc, "function definition declared 'typedef'");
      if (d.has_knr) {
        // K&R parameter declarations, then the body.
        std::vector<std::pair<Ident*, const Type*>> decls;
        while (tok_.kind != Tok::LBrace) {
          if (tok_.kind == Tok::Eof) failUnexpected("'{' to begin the function body");
          DeclSpec ps;
          parseDeclSpec(ps, DeclContext::Param);
          if (!ps.any) failUnexpected("a parameter declaration");
          QType pb = finishDeclSpec(ps, DeclContext::Param);
          for (;;) {
            Declarator pd;
            parseDeclarator(pd, DeclContext::Param, false);
            QType pt = buildType(ps, pb, pd, DeclContext::Param, nullptr);
            if (std::find(d.knr_names.begin(), d.knr_names.end(), pd.name) == d.knr_names.end())
              fail(pd.name_loc, "parameter named '" + std::string(pd.name->name) +
                                    "' is missing from the identifier list");
            decls.emplace_back(pd.name, pt.t);
            if (tok_.kind == Tok::Comma) {
              consume();
              continue;
            }
            break;
          }
          if (tok_.kind != Tok::Semi) failUnexpected("';' after the parameter declaration");
          consume();
        }
        for (Ident* n : d.knr_names) {
          const Type* pt = int_; // undeclared parameters default to int
          for (auto& [id, ty] : decls)
            if (id == n) pt = ty;
          fn->params.push_back({intern(n), pt, srcLoc(d.name_loc)});
        }
      }
      declare(ds, t, d, true);
      skipFunctionBody();
      return;
    }
    if (d.has_knr)
      fail(d.name_loc, "a parameter list without types is only allowed in a function definition");
    if (tok_.kind == Tok::Equal) {
      if (ds.storage == kKwTypedef)
        fail(tok_.loc, "illegal initializer (only variables can be initialized)");
      if (fn) fail(tok_.loc, "illegal initializer (only variables can be initialized)");
      consume();
      skipInitializer();
    }
    declare(ds, t, d, false);
    if (tok_.kind == Tok::Comma) {
      consume();
      continue;
    }
    if (tok_.kind == Tok::Semi) {
      consume();
      return;
    }
    if (tok_.kind == Tok::Eof || (tok_.flags & kTokAtLineStart)) {
      Loc after = prev_.loc;
      after.col += prev_.len;
      after.offset += prev_.len;
      fail(after, "expected ';' after top level declarator");
    }
    failUnexpected("';' after top level declarator");
  }
}

// ----- constant expressions -------------------------------------------------------------------

unsigned Parser::intBits(const Type* t) const {
  t = stripTypedefs(t);
  if (t->kind == TypeKind::Enum) {
    const IntType* u = static_cast<const EnumType*>(t)->decl->underlying;
    t = u ? static_cast<const Type*>(u) : int_;
  }
  if (t->kind != TypeKind::Int) return 0;
  auto* it = static_cast<const IntType*>(t);
  if (it->is_bitint) return it->bits;
  return ctx_.data().of(it->ikind).size * 8u;
}

bool Parser::intSigned(const Type* t) const {
  t = stripTypedefs(t);
  if (t->kind == TypeKind::Enum) {
    const IntType* u = static_cast<const EnumType*>(t)->decl->underlying;
    return u ? u->is_signed : true;
  }
  if (t->kind == TypeKind::Int) return static_cast<const IntType*>(t)->is_signed;
  return false;
}

unsigned __int128 Parser::truncate(unsigned __int128 v, const Type* t) const {
  unsigned bits = intBits(t);
  if (bits == 0 || bits >= 128) return v;
  unsigned __int128 mask = ((unsigned __int128)1 << bits) - 1;
  v &= mask;
  if (intSigned(t) && ((v >> (bits - 1)) & 1)) v |= ~mask;
  return v;
}

__int128 Parser::signedValue(const Value& v) const {
  return (__int128)v.bits;
}

bool Parser::isZero(const Value& v) const {
  if (v.kind == Value::Float) return v.f == 0;
  return v.bits == 0;
}

Value Parser::intValue(const Type* t, unsigned __int128 v, bool known) {
  Value r;
  r.kind = Value::Int;
  r.type = t;
  r.bits = truncate(v, t);
  r.known = known;
  return r;
}

const Type* Parser::promote(const Type* t) {
  const Type* c = stripTypedefs(t);
  if (c->kind == TypeKind::Enum) {
    const IntType* u = static_cast<const EnumType*>(c)->decl->underlying;
    c = u ? static_cast<const Type*>(u) : int_;
  }
  if (c->kind != TypeKind::Int) return c;
  auto* it = static_cast<const IntType*>(c->unqualified);
  if (it->is_bitint) return it;
  if (intRank(it->ikind) < intRank(IntKind::Int)) {
    unsigned bits = intBits(it);
    unsigned ib = intBits(int_);
    if (bits < ib || (bits == ib && it->is_signed) || it->ikind == IntKind::Bool) return int_;
    return ctx_.intType(IntKind::UInt);
  }
  return it;
}

const Type* Parser::usualArith(const Type* a, const Type* b) {
  const Type* ca = stripTypedefs(a);
  const Type* cb = stripTypedefs(b);
  if (ca->kind == TypeKind::Float || cb->kind == TypeKind::Float) {
    auto rank = [](const Type* t) {
      if (t->kind != TypeKind::Float) return -1;
      switch (static_cast<const FloatType*>(t)->fkind) {
      case FloatKind::Fp16:
      case FloatKind::Float16:
      case FloatKind::BFloat16:
        return 0;
      case FloatKind::Float:
        return 1;
      case FloatKind::Double:
        return 2;
      case FloatKind::LongDouble:
        return 3;
      case FloatKind::Float128:
        return 4;
      }
      return 1;
    };
    const Type* r = rank(ca) >= rank(cb) ? ca : cb;
    if (static_cast<const FloatType*>(r)->fkind == FloatKind::Fp16)
      r = ctx_.floatType(FloatKind::Float);
    return r->unqualified;
  }
  const IntType* ia = static_cast<const IntType*>(promote(a));
  const IntType* ib = static_cast<const IntType*>(promote(b));
  if (ia == ib) return ia;
  auto rank = [&](const IntType* t) {
    return t->is_bitint ? int(t->bits) * 16 : intRank(t->ikind) * 1000;
  };
  if (ia->is_signed == ib->is_signed) return rank(ia) >= rank(ib) ? ia : ib;
  const IntType* u = ia->is_signed ? ib : ia;
  const IntType* s = ia->is_signed ? ia : ib;
  if (rank(u) >= rank(s)) return u;
  if (intBits(s) > intBits(u)) return s;
  if (s->is_bitint) return ctx_.bitIntType(s->bits, false);
  return ctx_.intType(toUnsignedKind(s->ikind));
}

namespace {
long double roundTo(long double v, const Type* t, const DataModel& d) {
  auto* ft = dyn<FloatType>(stripTypedefs(t));
  if (!ft) return v;
  FloatFormat f = d.float_formats[size_t(ft->fkind)];
  if (f == FloatFormat::IEEESingle) return (long double)(float)v;
  if (f == FloatFormat::IEEEDouble) return (long double)(double)v;
  return v;
}
} // namespace

Value Parser::rvalue(const Value& v, const Loc& at) {
  (void)at;
  if (v.kind != Value::LValue) return v;
  const Type* c = stripTypedefs(v.type);
  Value r;
  r.folded = v.folded;
  if (auto* arr = dyn<ArrayType>(c)) {
    r.kind = Value::Ptr;
    r.type = ctx_.pointerTo(arr->element);
    r.bits = v.bits;
    r.known = v.known && !v.is_string;
    return r;
  }
  if (c->kind == TypeKind::Function) {
    r.kind = Value::Ptr;
    r.type = ctx_.pointerTo(c);
    r.known = false;
    return r;
  }
  // The value of an object is not a constant.
  r.type = v.type->unqualified;
  r.kind = c->kind == TypeKind::Int || c->kind == TypeKind::Enum ? Value::Int
           : c->kind == TypeKind::Float                          ? Value::Float
           : c->kind == TypeKind::Pointer                        ? Value::Ptr
                                                                 : Value::Unknown;
  r.known = false;
  return r;
}

Value Parser::convert(const Value& v, const Type* to, const Loc& at, bool explicit_cast) {
  const Type* c = stripTypedefs(to);
  Value r;
  r.type = to;
  r.folded = v.folded;
  switch (c->kind) {
  case TypeKind::Void:
    r.kind = Value::Unknown;
    return r;
  case TypeKind::Int:
  case TypeKind::Enum: {
    r.kind = Value::Int;
    if (c->kind == TypeKind::Enum && !static_cast<const EnumType*>(c)->decl->complete)
      fail(at, "cast to incomplete type '" + typeStr(to) + "'");
    bool is_bool = c->kind == TypeKind::Int &&
                   static_cast<const IntType*>(c)->ikind == IntKind::Bool &&
                   !static_cast<const IntType*>(c)->is_bitint;
    if (v.kind == Value::Int) {
      r.known = v.known;
      r.bits = is_bool ? (v.bits != 0) : truncate(v.bits, to);
      return r;
    }
    if (v.kind == Value::Float) {
      r.known = v.known;
      if (!v.known) return r;
      if (is_bool) {
        r.bits = v.f != 0;
        return r;
      }
      long double t = std::trunc(v.f);
      unsigned bits = intBits(to);
      bool sgn = intSigned(to);
      long double lo = sgn ? -std::ldexp(1.0L, int(bits) - 1) : 0.0L;
      long double hi = sgn ? std::ldexp(1.0L, int(bits) - 1) : std::ldexp(1.0L, int(bits));
      if (!(t >= lo && t < hi) || std::isnan(v.f))
        fail(at, "floating-point value is out of range of '" + typeStr(to) + "'");
      if (t < 0)
        r.bits = truncate((unsigned __int128)(__int128)(long long)t, to);
      else
        r.bits = truncate((unsigned __int128)(unsigned long long)t, to);
      if (bits > 64) {
        // Split large values exactly.
        long double hi_part = std::floor(std::fabs(t) / std::ldexp(1.0L, 64));
        long double lo_part = std::fabs(t) - hi_part * std::ldexp(1.0L, 64);
        unsigned __int128 mag =
            ((unsigned __int128)(unsigned long long)hi_part << 64) | (unsigned long long)lo_part;
        r.bits = truncate(t < 0 ? (unsigned __int128)(-(__int128)mag) : mag, to);
      }
      return r;
    }
    if (v.kind == Value::Ptr) {
      if (!explicit_cast) fail(at, "incompatible pointer to integer conversion");
      r.known = v.known;
      r.folded = true;
      r.bits = is_bool ? (v.bits != 0) : truncate(v.bits, to);
      return r;
    }
    fail(at, "operand of type '" + (v.type ? typeStr(v.type) : std::string("void")) +
                 "' where arithmetic or pointer type is required");
  }
  case TypeKind::Float: {
    r.kind = Value::Float;
    if (v.kind == Value::Int) {
      r.known = v.known;
      if (intSigned(v.type))
        r.f = (long double)signedValue(v);
      else
        r.f = (long double)v.bits;
      r.f = roundTo(r.f, to, ctx_.data());
      return r;
    }
    if (v.kind == Value::Float) {
      r.known = v.known;
      r.f = roundTo(v.f, to, ctx_.data());
      return r;
    }
    fail(at, "operand of type '" + (v.type ? typeStr(v.type) : std::string("void")) +
                 "' cannot be converted to a floating type");
  }
  case TypeKind::Pointer:
    r.kind = Value::Ptr;
    if (v.kind == Value::Int || v.kind == Value::Ptr) {
      r.known = v.known;
      r.bits = v.bits & (ctx_.data().pointer.size >= 8
                             ? ~(unsigned __int128)0 >> 64
                             : ((unsigned __int128)1 << (ctx_.data().pointer.size * 8)) - 1);
      if (v.kind == Value::Int && intSigned(v.type))
        r.bits = (unsigned __int128)(uint64_t)(int64_t)signedValue(v) &
                 (ctx_.data().pointer.size >= 8
                      ? ~(unsigned __int128)0 >> 64
                      : ((unsigned __int128)1 << (ctx_.data().pointer.size * 8)) - 1);
      return r;
    }
    fail(at, "operand of type '" + (v.type ? typeStr(v.type) : std::string("void")) +
                 "' cannot be converted to a pointer");
  default:
    fail(at, "used type '" + typeStr(to) + "' where arithmetic or pointer type is required");
  }
}

Value Parser::arith(Tok op, const Value& a, const Value& b, const Loc& at, bool eval) {
  // The common case first: two known 32-bit int operands and a result that fits in int (what
  // the code below computes for them; overflow and division by zero take the long way).
  if (a.kind == Value::Int && b.kind == Value::Int && a.type == int_ && b.type == int_ && a.known &&
      b.known && !a.is_bitfield && !b.is_bitfield && ctx_.data().of(IntKind::Int).size == 4) {
    const int64_t p = int32_t(uint32_t(a.bits)), q = int32_t(uint32_t(b.bits));
    int64_t res = 0;
    bool done = true;
    switch (op) {
    case Tok::Plus:
      res = p + q;
      break;
    case Tok::Minus:
      res = p - q;
      break;
    case Tok::Star:
      res = p * q;
      break;
    case Tok::Slash:
    case Tok::Percent:
      done = q != 0 && !(p == INT32_MIN && q == -1);
      if (done) res = op == Tok::Slash ? p / q : p % q;
      break;
    case Tok::Amp:
      res = p & q;
      break;
    case Tok::Pipe:
      res = p | q;
      break;
    case Tok::Caret:
      res = p ^ q;
      break;
    default:
      done = false;
      break;
    }
    if (done && res >= INT32_MIN && res <= INT32_MAX) {
      Value r;
      r.kind = Value::Int;
      r.type = int_;
      r.bits = (unsigned __int128)(__int128)res;
      r.known = true;
      r.folded = a.folded || b.folded;
      return r;
    }
  }
  const Type* ca = a.type ? stripTypedefs(a.type) : nullptr;
  const Type* cb = b.type ? stripTypedefs(b.type) : nullptr;
  bool folded = a.folded || b.folded;
  auto invalid = [&]() -> Value {
    fail(at, "invalid operands to binary expression ('" + (a.type ? typeStr(a.type) : "void") +
                 "' and '" + (b.type ? typeStr(b.type) : "void") + "')");
  };
  if (!ca || !cb || a.kind == Value::Unknown || b.kind == Value::Unknown) invalid();
  bool comparison = op == Tok::Less || op == Tok::Greater || op == Tok::LessEq ||
                    op == Tok::GreaterEq || op == Tok::EqEq || op == Tok::NotEq;
  // Pointers.
  if (a.kind == Value::Ptr || b.kind == Value::Ptr) {
    Value r;
    r.folded = true;
    if (comparison) {
      r = intValue(int_, 0, a.known && b.known);
      r.folded = true;
      uint64_t x = uint64_t(a.bits), y = uint64_t(b.bits);
      bool v = op == Tok::Less        ? x < y
               : op == Tok::Greater   ? x > y
               : op == Tok::LessEq    ? x <= y
               : op == Tok::GreaterEq ? x >= y
               : op == Tok::EqEq      ? x == y
                                      : x != y;
      r.bits = v;
      return r;
    }
    if (op == Tok::Plus || op == Tok::Minus) {
      if (a.kind == Value::Ptr && b.kind == Value::Ptr) {
        if (op != Tok::Minus) invalid();
        const Type* pe = static_cast<const PointerType*>(ca)->pointee;
        uint64_t sz =
            stripTypedefs(pe)->kind == TypeKind::Void ? 1 : sizeOf(pe, at, "pointer arithmetic");
        if (sz == 0) fail(at, "pointer arithmetic on a zero-sized type");
        Value r2 = intValue(ptrdiff_type_, 0, a.known && b.known);
        r2.bits = truncate((unsigned __int128)((int64_t)(uint64_t)(a.bits - b.bits) / (int64_t)sz),
                           ptrdiff_type_);
        r2.folded = true;
        return r2;
      }
      Value p = a.kind == Value::Ptr ? a : b;
      Value i = a.kind == Value::Ptr ? b : a;
      if (i.kind != Value::Int || (op == Tok::Minus && b.kind == Value::Ptr)) invalid();
      const Type* pe = static_cast<const PointerType*>(stripTypedefs(p.type))->pointee;
      uint64_t sz =
          stripTypedefs(pe)->kind == TypeKind::Void ? 1 : sizeOf(pe, at, "pointer arithmetic");
      __int128 off = (intSigned(i.type) ? signedValue(i) : (__int128)i.bits) * (__int128)sz;
      if (op == Tok::Minus) off = -off;
      Value r2 = p;
      r2.bits = (p.bits + (unsigned __int128)off) & ((unsigned __int128)UINT64_MAX);
      r2.known = p.known && i.known;
      r2.folded = true;
      return r2;
    }
    invalid();
  }
  // Floating point.
  if (a.kind == Value::Float || b.kind == Value::Float) {
    if (op == Tok::Percent || op == Tok::LShift || op == Tok::RShift || op == Tok::Amp ||
        op == Tok::Pipe || op == Tok::Caret)
      invalid();
    const Type* t = usualArith(a.type, b.type);
    Value x = convert(a, t, at, false), y = convert(b, t, at, false);
    bool known = x.known && y.known;
    if (comparison) {
      bool v = op == Tok::Less        ? x.f < y.f
               : op == Tok::Greater   ? x.f > y.f
               : op == Tok::LessEq    ? x.f <= y.f
               : op == Tok::GreaterEq ? x.f >= y.f
               : op == Tok::EqEq      ? x.f == y.f
                                      : x.f != y.f;
      Value r = intValue(int_, v, known);
      r.folded = folded;
      return r;
    }
    Value r;
    r.kind = Value::Float;
    r.type = t;
    r.known = known;
    r.folded = folded;
    if (known) {
      switch (op) {
      case Tok::Plus:
        r.f = x.f + y.f;
        break;
      case Tok::Minus:
        r.f = x.f - y.f;
        break;
      case Tok::Star:
        r.f = x.f * y.f;
        break;
      case Tok::Slash:
        if (y.f == 0 && eval) fail(at, "floating-point division by zero in a constant expression");
        r.f = y.f == 0 ? 0 : x.f / y.f;
        break;
      default:
        invalid();
      }
      auto* ft = dyn<FloatType>(stripTypedefs(t));
      FloatFormat f = ft ? ctx_.data().float_formats[size_t(ft->fkind)] : FloatFormat::IEEEDouble;
      if (f != FloatFormat::IEEESingle && f != FloatFormat::IEEEDouble)
        fail(at, "arithmetic on '" + typeStr(t) + "' in constant expressions is not supported",
             true);
      r.f = roundTo(r.f, t, ctx_.data());
    }
    return r;
  }
  if (a.kind != Value::Int || b.kind != Value::Int) invalid();
  bool known = a.known && b.known;
  // Shifts: the type of the promoted left operand.
  if (op == Tok::LShift || op == Tok::RShift) {
    const Type* t = promote(a.type);
    Value x = convert(a, t, at, false);
    __int128 s = intSigned(b.type) ? signedValue(b) : (__int128)b.bits;
    unsigned bits = intBits(t);
    Value r = intValue(t, 0, known);
    r.folded = folded;
    if (!known) return r;
    if (s < 0) {
      if (eval) fail(at, "shift count is negative");
      return r;
    }
    if (s >= bits) {
      if (eval)
        fail(at, "shift count >= width of type ('" + typeStr(t) + "' has " + std::to_string(bits) +
                     " bits)");
      return r;
    }
    if (op == Tok::LShift)
      r.bits = truncate(x.bits << unsigned(s), t);
    else if (intSigned(t))
      r.bits = truncate((unsigned __int128)(signedValue(x) >> unsigned(s)), t);
    else
      r.bits = truncate(x.bits >> unsigned(s), t);
    return r;
  }
  const Type* t = usualArith(a.type, b.type);
  Value x = convert(a, t, at, false), y = convert(b, t, at, false);
  bool sgn = intSigned(t);
  unsigned bits = intBits(t);
  if (comparison) {
    bool v;
    if (sgn) {
      __int128 p = signedValue(x), q = signedValue(y);
      v = op == Tok::Less        ? p < q
          : op == Tok::Greater   ? p > q
          : op == Tok::LessEq    ? p <= q
          : op == Tok::GreaterEq ? p >= q
          : op == Tok::EqEq      ? p == q
                                 : p != q;
    } else {
      unsigned __int128 p = x.bits, q = y.bits;
      v = op == Tok::Less        ? p < q
          : op == Tok::Greater   ? p > q
          : op == Tok::LessEq    ? p <= q
          : op == Tok::GreaterEq ? p >= q
          : op == Tok::EqEq      ? p == q
                                 : p != q;
    }
    Value r = intValue(int_, v, known);
    r.folded = folded;
    return r;
  }
  Value r = intValue(t, 0, known);
  r.folded = folded;
  if (!known) return r;
  auto overflow = [&]() {
    if (eval)
      fail(at, "integer overflow in constant expression (the result does not fit in '" +
                   typeStr(t) + "')");
  };
  __int128 lo = bits >= 128 ? std::numeric_limits<__int128>::min() : -(__int128(1) << (bits - 1));
  __int128 hi =
      bits >= 128 ? std::numeric_limits<__int128>::max() : (__int128(1) << (bits - 1)) - 1;
  switch (op) {
  case Tok::Plus:
  case Tok::Minus:
  case Tok::Star: {
    if (sgn) {
      __int128 p = signedValue(x), q = signedValue(y), res;
      bool ov = op == Tok::Plus    ? __builtin_add_overflow(p, q, &res)
                : op == Tok::Minus ? __builtin_sub_overflow(p, q, &res)
                                   : __builtin_mul_overflow(p, q, &res);
      if (ov || res < lo || res > hi) overflow();
      r.bits = truncate((unsigned __int128)res, t);
    } else {
      unsigned __int128 p = x.bits, q = y.bits;
      r.bits = truncate(op == Tok::Plus ? p + q : op == Tok::Minus ? p - q : p * q, t);
    }
    break;
  }
  case Tok::Slash:
  case Tok::Percent:
    if (y.bits == 0) {
      if (eval)
        fail(at, op == Tok::Slash ? "division by zero in constant expression"
                                  : "remainder by zero in constant expression");
      r.known = false;
      break;
    }
    if (sgn) {
      __int128 p = signedValue(x), q = signedValue(y);
      if (p == lo && q == -1) {
        overflow();
        r.bits = op == Tok::Slash ? truncate((unsigned __int128)p, t) : 0;
        break;
      }
      r.bits = truncate((unsigned __int128)(op == Tok::Slash ? p / q : p % q), t);
    } else {
      r.bits = truncate(op == Tok::Slash ? x.bits / y.bits : x.bits % y.bits, t);
    }
    break;
  case Tok::Amp:
    r.bits = truncate(x.bits & y.bits, t);
    break;
  case Tok::Pipe:
    r.bits = truncate(x.bits | y.bits, t);
    break;
  case Tok::Caret:
    r.bits = truncate(x.bits ^ y.bits, t);
    break;
  default:
    invalid();
  }
  return r;
}

Value Parser::parseExpr(bool eval) {
  Value v = parseAssign(eval);
  while (tok_.kind == Tok::Comma) {
    consume();
    Value w = parseAssign(eval);
    w.folded |= v.folded;
    v = w;
  }
  return v;
}

Value Parser::parseAssign(bool eval) {
  Value v = parseConditional(eval);
  switch (tok_.kind) {
  case Tok::Equal:
  case Tok::StarEq:
  case Tok::SlashEq:
  case Tok::PercentEq:
  case Tok::PlusEq:
  case Tok::MinusEq:
  case Tok::LShiftEq:
  case Tok::RShiftEq:
  case Tok::AmpEq:
  case Tok::CaretEq:
  case Tok::PipeEq:
    fail(tok_.loc, "assignment is not allowed in a constant expression");
  default:
    return v;
  }
}

Value Parser::parseConditional(bool eval) {
  // Fast path: a lone number (array sizes, bit-field widths and enumerator values mostly are).
  if (tok_.kind == Tok::Number) {
    switch (peekTok(0).kind) {
    case Tok::RBracket:
    case Tok::RParen:
    case Tok::Comma:
    case Tok::Semi:
    case Tok::Colon:
    case Tok::RBrace: {
      Value v = literalNumber(tok_);
      consume();
      return v;
    }
    default:
      break;
    }
  }
  Nest nest(*this, tok_.loc, "expression");
  Value c = parseBinary(1, eval);
  if (tok_.kind != Tok::Question) return c;
  Loc at = tok_.loc;
  consume();
  Value cv = rvalue(c, at);
  if (cv.kind == Value::Unknown)
    fail(at,
         "used type '" + (cv.type ? typeStr(cv.type) : "void") + "' where a scalar is required");
  bool take_true = cv.known && !isZero(cv);
  bool take_false = cv.known && isZero(cv);
  Value a;
  if (tok_.kind == Tok::Colon)
    a = cv; // GNU x ?: y
  else
    a = rvalue(parseExpr(eval && !take_false), at);
  expect(Tok::Colon, "in the conditional expression");
  Value b = rvalue(parseConditional(eval && !take_true), at);
  Value r;
  r.folded = cv.folded || a.folded || b.folded;
  bool arith_a = a.kind == Value::Int || a.kind == Value::Float;
  bool arith_b = b.kind == Value::Int || b.kind == Value::Float;
  if (arith_a && arith_b) {
    const Type* t = usualArith(a.type, b.type);
    Value x = convert(a, t, at, false), y = convert(b, t, at, false);
    r = cv.known ? (take_true ? x : y) : x;
    r.known = cv.known && (take_true ? x.known : y.known);
    r.type = t;
  } else if (a.kind == Value::Ptr || b.kind == Value::Ptr) {
    r = cv.known ? (take_true ? a : b) : (a.kind == Value::Ptr ? a : b);
    r.type = a.kind == Value::Ptr ? a.type : b.type;
    r.kind = Value::Ptr;
    r.known = cv.known && (take_true ? a.known : b.known);
  } else {
    r = take_true ? a : b;
    r.known = false;
  }
  r.folded |= cv.folded || a.folded || b.folded;
  return r;
}

namespace {
int binaryPrecedence(Tok k) {
  switch (k) {
  case Tok::Star:
  case Tok::Slash:
  case Tok::Percent:
    return 10;
  case Tok::Plus:
  case Tok::Minus:
    return 9;
  case Tok::LShift:
  case Tok::RShift:
    return 8;
  case Tok::Less:
  case Tok::Greater:
  case Tok::LessEq:
  case Tok::GreaterEq:
    return 7;
  case Tok::EqEq:
  case Tok::NotEq:
    return 6;
  case Tok::Amp:
    return 5;
  case Tok::Caret:
    return 4;
  case Tok::Pipe:
    return 3;
  case Tok::AmpAmp:
    return 2;
  case Tok::PipePipe:
    return 1;
  default:
    return -1;
  }
}
} // namespace

Value Parser::parseBinary(int min_prec, bool eval) {
  Value lhs;
  if (tok_.kind == Tok::Number) {
    // What parseCast() gives for a number, without the calls down to parsePrimary().
    lhs = literalNumber(tok_);
    consume();
    lhs = parsePostfixOps(lhs, eval);
  } else {
    lhs = parseCast(eval);
  }
  for (;;) {
    int p = binaryPrecedence(tok_.kind);
    if (p < min_prec) return lhs;
    Tok op = tok_.kind;
    Loc at = tok_.loc;
    consume();
    if (op == Tok::AmpAmp || op == Tok::PipePipe) {
      Value l = rvalue(lhs, at);
      if (l.kind == Value::Unknown)
        fail(at, "invalid operand to '" + std::string(punctuatorSpelling(op)) + "'");
      bool sc = l.known && (op == Tok::AmpAmp ? isZero(l) : !isZero(l));
      Value r = rvalue(parseBinary(p + 1, eval && !sc), at);
      if (r.kind == Value::Unknown)
        fail(at, "invalid operand to '" + std::string(punctuatorSpelling(op)) + "'");
      Value res;
      if (sc)
        res = intValue(int_, op == Tok::PipePipe ? 1 : 0, true);
      else if (l.known && r.known)
        res = intValue(int_, !isZero(r), true);
      else
        res = intValue(int_, 0, false);
      res.folded = l.folded || (!sc && r.folded);
      lhs = res;
      continue;
    }
    Value rhs = parseBinary(p + 1, eval);
    lhs = arith(op, rvalue(lhs, at), rvalue(rhs, at), at, eval);
  }
}

Value Parser::parseCast(bool eval) {
  if (tok_.kind == Tok::LParen && startsTypeName(peekTok(0))) {
    Loc at = tok_.loc;
    consume();
    QType t = parseTypeName(at);
    expect(Tok::RParen, "after the type name");
    if (tok_.kind == Tok::LBrace)
      fail(tok_.loc, "compound literals are not supported in constant expressions", true);
    Value v = nested(at, [&] { return parseCast(eval); });
    const Type* c = stripTypedefs(t.t);
    if (c->kind == TypeKind::Array || c->kind == TypeKind::Function || c->kind == TypeKind::Record)
      fail(at,
           "cast to '" + typeStr(t.t) + "' is not allowed (arithmetic or pointer type required)");
    Value r = convert(rvalue(v, at), t.t, at, true);
    return r;
  }
  return parseUnary(eval);
}

Value Parser::parseSizeofAlignof(Kw which, const Loc& at, bool eval) {
  (void)eval;
  consume();
  const Type* t = nullptr;
  bool bitfield = false;
  if (tok_.kind == Tok::LParen && startsTypeName(peekTok(0))) {
    consume();
    t = parseTypeName(at).t;
    expect(Tok::RParen, "after the type name");
    if (tok_.kind == Tok::LBrace)
      fail(tok_.loc, "compound literals are not supported in constant expressions", true);
  } else {
    Value v = nested(at, [&] { return parseUnary(false); });
    t = v.type;
    bitfield = v.is_bitfield;
    if (!t) fail(at, "invalid operand");
  }
  if (bitfield)
    fail(at, std::string("invalid application of '") + (which == kKwSizeof ? "sizeof" : "alignof") +
                 "' to bit-field");
  uint64_t n;
  if (which == kKwSizeof)
    n = sizeOf(t, at, "sizeof");
  else
    n = alignOf(t, at, which == kKwGnuAlignof);
  return intValue(size_type_, n);
}

Value Parser::parseUnary(bool eval) {
  Loc at = tok_.loc;
  switch (tok_.kind) {
  case Tok::Plus:
  case Tok::Minus:
  case Tok::Tilde:
  case Tok::Excl: {
    Tok op = tok_.kind;
    consume();
    Value v = nested(at, [&] { return rvalue(parseCast(eval), at); });
    if (op == Tok::Excl) {
      if (v.kind == Value::Unknown) fail(at, "invalid argument type to unary '!'");
      Value r = intValue(int_, isZero(v), v.known);
      r.folded = v.folded;
      return r;
    }
    if (v.kind == Value::Float) {
      if (op == Tok::Tilde)
        fail(at, "invalid argument type '" + typeStr(v.type) + "' to unary '~'");
      if (op == Tok::Minus) v.f = -v.f;
      return v;
    }
    if (v.kind != Value::Int)
      fail(at, "invalid argument type '" + (v.type ? typeStr(v.type) : "void") +
                   "' to unary expression");
    const Type* t = promote(v.type);
    Value x = convert(v, t, at, false);
    if (op == Tok::Plus) return x;
    Value r = intValue(t, 0, x.known);
    r.folded = x.folded;
    if (!x.known) return r;
    if (op == Tok::Tilde) {
      r.bits = truncate(~x.bits, t);
    } else {
      if (intSigned(t)) {
        unsigned bits = intBits(t);
        __int128 lo =
            bits >= 128 ? std::numeric_limits<__int128>::min() : -(__int128(1) << (bits - 1));
        if (signedValue(x) == lo && eval)
          fail(at, "integer overflow in constant expression (the result does not fit in '" +
                       typeStr(t) + "')");
      }
      r.bits = truncate(0 - x.bits, t);
    }
    return r;
  }
  case Tok::Amp: {
    consume();
    Value v = nested(at, [&] { return parseCast(eval); });
    if (v.kind != Value::LValue) fail(at, "cannot take the address of an rvalue");
    if (v.is_bitfield) fail(at, "address of bit-field requested");
    Value r;
    r.kind = Value::Ptr;
    r.type = ctx_.pointerTo(v.type);
    r.bits = v.bits;
    r.known = v.known && !v.is_string;
    r.folded = true;
    return r;
  }
  case Tok::Star: {
    consume();
    Value v = nested(at, [&] { return rvalue(parseCast(eval), at); });
    if (v.kind != Value::Ptr) fail(at, "indirection requires pointer operand");
    const Type* pe = static_cast<const PointerType*>(stripTypedefs(v.type))->pointee;
    Value r;
    r.kind = Value::LValue;
    r.type = pe;
    r.bits = v.bits;
    r.known = v.known;
    r.folded = true;
    return r;
  }
  case Tok::PlusPlus:
  case Tok::MinusMinus:
    fail(at, "increment and decrement are not allowed in a constant expression");
  default:
    break;
  }
  if (tok_.kind == Tok::Ident) {
    Kw kw = Kw(tok_.ident->keyword);
    if (kw == kKwSizeof || kw == kKwAlignof || kw == kKwGnuAlignof)
      return parseSizeofAlignof(kw, at, eval);
    if (kw == kKwExtension) {
      consume();
      return parseCast(eval);
    }
    if (kw == kKwRealImag) fail(at, "'" + std::string(tok_.text()) + "' is not supported", true);
  }
  return parsePostfix(eval);
}

bool Parser::findField(const RecordDecl* rd, Ident* name, const Type*& type, uint64_t& bit_offset,
                       bool& bitfield, unsigned depth) {
  if (!rd->complete || depth > kMaxNesting) return false;
  const RecordLayout& rl = layout_.of(*rd);
  for (size_t i = 0; i < rd->fields.size(); ++i) {
    const FieldDecl& f = rd->fields[i];
    if (!f.name.empty()) {
      if (f.name == name->name) {
        type = f.type;
        bit_offset = rl.fields[i].bit_offset;
        bitfield = f.isBitField();
        return true;
      }
    } else if (!f.isBitField()) {
      if (auto* rt = dyn<RecordType>(stripTypedefs(f.type))) {
        if (findField(rt->decl, name, type, bit_offset, bitfield, depth + 1)) {
          bit_offset += rl.fields[i].bit_offset;
          return true;
        }
      }
    }
  }
  return false;
}

Value Parser::memberAccess(Value base, Ident* name, const Loc& at, bool arrow) {
  const Type* c = stripTypedefs(base.type);
  auto* rt = dyn<RecordType>(c);
  if (!rt)
    fail(at, std::string("member reference ") + (arrow ? "base type '" : "type '") +
                 typeStr(base.type) + "' is not a " + (arrow ? "pointer to a " : "") +
                 "structure or union");
  if (!rt->decl->complete) fail(at, "incomplete definition of type '" + typeStr(base.type) + "'");
  const Type* ft = nullptr;
  uint64_t bit = 0;
  bool bf = false;
  bool found;
  try {
    found = findField(rt->decl, name, ft, bit, bf);
  } catch (const Error& e) {
    if (e.hasSourcePosition()) throw;
    fail(at, e.message(), e.kind() == ErrorKind::Unsupported);
  }
  if (!found)
    fail(at, "no member named '" + std::string(name->name) + "' in '" + typeStr(base.type) + "'");
  Value r;
  r.kind = Value::LValue;
  r.type = base.type->quals ? ctx_.qualified(ft, base.type->quals) : ft;
  r.bits = base.bits + bit / 8;
  r.known = base.known;
  r.folded = base.folded;
  r.is_bitfield = bf;
  return r;
}

Value Parser::parsePostfix(bool eval) {
  return parsePostfixOps(parsePrimary(eval), eval);
}

Value Parser::parsePostfixOps(Value v, bool eval) {
  for (;;) {
    Loc at = tok_.loc;
    switch (tok_.kind) {
    case Tok::LBracket: {
      consume();
      Value idx = parseExpr(eval);
      expect(Tok::RBracket, "after the subscript");
      Value a = rvalue(v, at), b = rvalue(idx, at);
      if (a.kind != Value::Ptr) std::swap(a, b);
      if (a.kind != Value::Ptr || b.kind != Value::Int)
        fail(at, "subscripted value is not an array or pointer");
      Value p = arith(Tok::Plus, a, b, at, eval);
      Value r;
      r.kind = Value::LValue;
      r.type = static_cast<const PointerType*>(stripTypedefs(a.type))->pointee;
      r.bits = p.bits;
      r.known = p.known;
      r.folded = p.folded || v.folded;
      v = r;
      continue;
    }
    case Tok::Dot:
    case Tok::Arrow: {
      bool arrow = tok_.kind == Tok::Arrow;
      consume();
      if (tok_.kind != Tok::Ident) failUnexpected("a member name");
      Ident* name = tok_.ident;
      consume();
      Value base = v;
      if (arrow) {
        Value p = rvalue(v, at);
        if (p.kind != Value::Ptr)
          fail(at, "member reference type '" + (p.type ? typeStr(p.type) : "void") +
                       "' is not a pointer");
        base.kind = Value::LValue;
        base.type = static_cast<const PointerType*>(stripTypedefs(p.type))->pointee;
        base.bits = p.bits;
        base.known = p.known;
        base.folded = true;
      } else if (v.kind != Value::LValue) {
        fail(at, "member access on a value that is not an object");
      }
      v = memberAccess(base, name, at, arrow);
      v.folded = true;
      continue;
    }
    case Tok::LParen: {
      // A call: its value is never constant, but its type is known (sizeof(f(x))).
      Value f = rvalue(v, at);
      const FunctionType* ft = nullptr;
      if (f.kind == Value::Ptr)
        ft = dyn<FunctionType>(
            stripTypedefs(static_cast<const PointerType*>(stripTypedefs(f.type))->pointee));
      if (!ft) fail(at, "called object is not a function or function pointer");
      skipBalanced(Tok::LParen, Tok::RParen);
      Value r = rvalue(Value{Value::LValue, ft->result}, at);
      r.known = false;
      v = r;
      continue;
    }
    case Tok::PlusPlus:
    case Tok::MinusMinus:
      fail(at, "increment and decrement are not allowed in a constant expression");
    default:
      return v;
    }
  }
}

Value Parser::literalNumber(const Token& t) {
  // The common case first: a short decimal constant without suffix (at most 9 digits, so no
  // overflow) that fits in int has type int (C11 6.4.4.1).
  if (t.len >= 1 && t.len <= 9 && (t.ptr[0] != '0' || t.len == 1)) {
    uint64_t small = 0;
    uint32_t i = 0;
    for (; i < t.len && t.ptr[i] >= '0' && t.ptr[i] <= '9'; ++i)
      small = small * 10 + uint64_t(t.ptr[i] - '0');
    if (i == t.len) {
      unsigned int_bits = ctx_.data().of(IntKind::Int).size * 8u;
      if (int_bits > 32 || small < (uint64_t(1) << (int_bits - 1))) {
        // intValue(int_, small) without the truncation: the value fits in int.
        Value r;
        r.kind = Value::Int;
        r.type = int_;
        r.bits = small;
        r.known = true;
        return r;
      }
    }
  }
  unsigned __int128 v = 0;
  IntLiteralInfo info;
  std::string err = parseIntegerLiteral(t.text(), v, info);
  const DataModel& d = ctx_.data();
  if (info.is_float) {
    std::string s(t.text());
    FloatKind fk = FloatKind::Double;
    if (s.size() > 3 && (s.substr(s.size() - 3) == "f16" || s.substr(s.size() - 3) == "F16")) {
      fk = FloatKind::Float16;
      s.resize(s.size() - 3);
    } else if (!s.empty() && (s.back() == 'f' || s.back() == 'F') &&
               !(s.size() > 2 && (s[1] == 'x' || s[1] == 'X') &&
                 s.find_first_of("pP") == std::string::npos)) {
      fk = FloatKind::Float;
      s.pop_back();
    } else if (!s.empty() && (s.back() == 'l' || s.back() == 'L')) {
      fk = FloatKind::LongDouble;
      s.pop_back();
    }
    char* end = nullptr;
    long double f = std::strtold(s.c_str(), &end);
    if (!end || *end != '\0' || s.empty())
      fail(t.loc, "invalid floating constant '" + std::string(t.text()) + "'");
    if (!d.of(fk).supported())
      fail(t.loc, "floating constant of an unsupported type on this target", true);
    Value r;
    r.kind = Value::Float;
    r.type = ctx_.floatType(fk);
    r.f = roundTo(f, r.type, d);
    r.known = true;
    return r;
  }
  if (!err.empty()) fail(t.loc, err);
  auto fits = [&](IntKind k) {
    if (!d.of(k).supported()) return false;
    unsigned bits = d.of(k).size * 8u;
    bool sgn =
        k == IntKind::Int || k == IntKind::Long || k == IntKind::LongLong || k == IntKind::Int128;
    unsigned __int128 max =
        bits >= 128 ? ~(unsigned __int128)0 : ((unsigned __int128)1 << bits) - 1;
    if (sgn) max >>= 1;
    return v <= max;
  };
  // The candidate types in order (C11 6.4.4.1).
  bool u = info.is_unsigned;
  for (int l = info.longs; l <= 2; ++l) {
    IntKind k = l == 0 ? IntKind::Int : l == 1 ? IntKind::Long : IntKind::LongLong;
    if (!u && fits(k)) return intValue(ctx_.intType(k), v);
    if ((u || !info.is_decimal) && fits(toUnsignedKind(k)))
      return intValue(ctx_.intType(toUnsignedKind(k)), v);
  }
  // clang: a decimal literal too large for long long is unsigned long long (with a warning).
  if (fits(IntKind::ULongLong)) return intValue(ctx_.intType(IntKind::ULongLong), v);
  fail(t.loc, "integer literal is too large to be represented in any integer type");
}

Value Parser::literalChar(const Token& t) {
  LiteralPrefix prefix;
  std::vector<uint32_t> units;
  std::string err = decodeLiteral(t.text(), pp_.wcharBits(), prefix, units);
  if (!err.empty()) fail(t.loc, err);
  if (units.empty()) fail(t.loc, "empty character constant");
  const DataModel& d = ctx_.data();
  switch (prefix) {
  case LiteralPrefix::None:
  case LiteralPrefix::Utf8: {
    if (units.size() == 1) {
      uint32_t c = units[0] & 0xFF;
      if (prefix == LiteralPrefix::None && d.char_signed && (c & 0x80))
        return intValue(int_, (unsigned __int128)(__int128)(int8_t)c);
      return intValue(prefix == LiteralPrefix::Utf8 ? ctx_.intType(IntKind::Char) : int_, c);
    }
    if (units.size() > 4) fail(t.loc, "character constant too long for its type");
    uint32_t v = 0;
    for (uint32_t c : units) v = (v << 8) | (c & 0xFF);
    return intValue(int_, (unsigned __int128)(__int128)(int32_t)v);
  }
  case LiteralPrefix::Wide:
    return intValue(ctx_.intType(d.wchar_type), units[0]);
  case LiteralPrefix::Utf16:
    return intValue(ctx_.intType(d.char16_type), units[0]);
  case LiteralPrefix::Utf32:
    return intValue(ctx_.intType(d.char32_type), units[0]);
  }
  return intValue(int_, 0);
}

Value Parser::literalString() {
  LiteralPrefix kind = LiteralPrefix::None;
  uint64_t len = 0;
  while (tok_.kind == Tok::String) {
    LiteralPrefix prefix;
    std::vector<uint32_t> units;
    std::string err = decodeLiteral(tok_.text(), pp_.wcharBits(), prefix, units);
    if (!err.empty()) fail(tok_.loc, err);
    if (prefix != LiteralPrefix::None && prefix != LiteralPrefix::Utf8) {
      if (kind != LiteralPrefix::None && kind != prefix)
        fail(tok_.loc, "unsupported non-standard concatenation of string literals");
      kind = prefix;
    }
    len += units.size();
    consume();
  }
  const DataModel& d = ctx_.data();
  const Type* elem = kind == LiteralPrefix::Wide    ? ctx_.intType(d.wchar_type)
                     : kind == LiteralPrefix::Utf16 ? ctx_.intType(d.char16_type)
                     : kind == LiteralPrefix::Utf32 ? ctx_.intType(d.char32_type)
                                                    : ctx_.intType(IntKind::Char);
  Value r;
  r.kind = Value::LValue;
  r.type = ctx_.arrayOf(elem, len + 1);
  r.is_string = true;
  return r;
}

Value Parser::parseOffsetof(const Loc& at) {
  consume();
  expect(Tok::LParen, "after '__builtin_offsetof'");
  QType t = parseTypeName(at);
  expect(Tok::Comma, "after the type in '__builtin_offsetof'");
  const Type* cur = t.t;
  uint64_t off = 0;
  bool first = true;
  for (;;) {
    Loc mat = tok_.loc;
    if (first || tok_.kind == Tok::Dot) {
      if (!first) consume();
      first = false;
      if (tok_.kind != Tok::Ident) failUnexpected("a member name");
      Ident* name = tok_.ident;
      mat = tok_.loc;
      consume();
      auto* rt = dyn<RecordType>(stripTypedefs(cur));
      if (!rt)
        fail(mat, "offsetof requires struct, union, or class type, '" + typeStr(cur) + "' invalid");
      if (!rt->decl->complete) fail(mat, "offsetof of incomplete type '" + typeStr(cur) + "'");
      const Type* ft = nullptr;
      uint64_t bit = 0;
      bool bf = false;
      bool found;
      try {
        found = findField(rt->decl, name, ft, bit, bf);
      } catch (const Error& e) {
        if (e.hasSourcePosition()) throw;
        fail(mat, e.message(), e.kind() == ErrorKind::Unsupported);
      }
      if (!found)
        fail(mat, "no member named '" + std::string(name->name) + "' in '" + typeStr(cur) + "'");
      if (bf) fail(mat, "cannot compute offset of bit-field '" + std::string(name->name) + "'");
      off += bit / 8;
      cur = ft;
      continue;
    }
    if (tok_.kind == Tok::LBracket) {
      consume();
      Loc iat = tok_.loc;
      __int128 idx = 0;
      evalInt("array index", iat, false, &idx);
      expect(Tok::RBracket, "after the array index");
      auto* arr = dyn<ArrayType>(stripTypedefs(cur));
      if (!arr) fail(iat, "subscripted value is not an array");
      uint64_t esz = sizeOf(arr->element, iat, "offsetof");
      off += uint64_t(idx * (__int128)esz);
      cur = arr->element;
      continue;
    }
    break;
  }
  expect(Tok::RParen, "after '__builtin_offsetof'");
  return intValue(size_type_, off);
}

Value Parser::parseGeneric(bool eval) {
  Loc at = tok_.loc;
  consume();
  expect(Tok::LParen, "after '_Generic'");
  Value ctrl = rvalue(parseAssign(false), at);
  const Type* ct = ctrl.type ? ctrl.type->unqualified : nullptr;
  Value chosen, fallback;
  bool have = false, have_default = false;
  while (tok_.kind == Tok::Comma) {
    consume();
    if (tok_.kind == Tok::Ident && tok_.ident->name == "default" && peekTok(0).kind == Tok::Colon) {
      consume();
      consume();
      fallback = parseAssign(eval);
      have_default = true;
      continue;
    }
    QType t = parseTypeName(tok_.loc);
    expect(Tok::Colon, "after the type in '_Generic'");
    Value v = parseAssign(eval);
    if (!have && ct && sameType(t.t->unqualified, ct)) {
      chosen = v;
      have = true;
    }
  }
  expect(Tok::RParen, "after '_Generic'");
  if (have) return chosen;
  if (have_default) return fallback;
  fail(at, "controlling expression type '" + (ct ? typeStr(ct) : std::string("void")) +
               "' not compatible with any generic association type");
}

Value Parser::parsePrimary(bool eval) {
  Loc at = tok_.loc;
  switch (tok_.kind) {
  case Tok::Number: {
    Value v = literalNumber(tok_);
    consume();
    return v;
  }
  case Tok::Char: {
    Value v = literalChar(tok_);
    consume();
    return v;
  }
  case Tok::String:
    return literalString();
  case Tok::LParen: {
    consume();
    if (tok_.kind == Tok::LBrace) fail(at, "statement expressions are not supported", true);
    Value v = nested(at, [&] { return parseExpr(eval); });
    if (tok_.kind != Tok::RParen) {
      if (tok_.kind == Tok::Eof) fail(at, "expected ')' to match this '('");
      failUnexpected("')'");
    }
    consume();
    return v;
  }
  case Tok::Ident:
    break;
  default:
    failUnexpected("an expression");
  }
  Ident* id = tok_.ident;
  switch (Kw(id->keyword)) {
  case kKwNone:
    break;
  case kKwTrue:
  case kKwFalse: {
    bool v = id->keyword == kKwTrue;
    consume();
    return intValue(lang_ == Language::OpenCL ? int_ : ctx_.intType(IntKind::Bool), v);
  }
  case kKwOffsetof:
    return parseOffsetof(at);
  case kKwTypesCompatible: {
    consume();
    expect(Tok::LParen, "after '__builtin_types_compatible_p'");
    QType a = parseTypeName(at);
    expect(Tok::Comma, "in '__builtin_types_compatible_p'");
    QType b = parseTypeName(at);
    expect(Tok::RParen, "after '__builtin_types_compatible_p'");
    return intValue(int_, sameType(a.t->unqualified, b.t->unqualified) ? 1 : 0);
  }
  case kKwChooseExpr: {
    consume();
    expect(Tok::LParen, "after '__builtin_choose_expr'");
    __int128 c = 0;
    evalInt("'__builtin_choose_expr' condition", tok_.loc, false, &c);
    expect(Tok::Comma, "in '__builtin_choose_expr'");
    Value a = parseAssign(eval && c != 0);
    expect(Tok::Comma, "in '__builtin_choose_expr'");
    Value b = parseAssign(eval && c == 0);
    expect(Tok::RParen, "after '__builtin_choose_expr'");
    return c != 0 ? a : b;
  }
  case kKwConstantP: {
    consume();
    expect(Tok::LParen, "after '__builtin_constant_p'");
    Value v = rvalue(parseAssign(false), at);
    expect(Tok::RParen, "after '__builtin_constant_p'");
    return intValue(int_, v.known && (v.kind == Value::Int || v.kind == Value::Float) ? 1 : 0);
  }
  case kKwGeneric:
    return parseGeneric(eval);
  case kKwVaArg:
    fail(at, "'__builtin_va_arg' is not allowed in a constant expression");
  default:
    if (startsTypeName(tok_))
      fail(at, "unexpected type name '" + std::string(id->name) + "': expected expression");
    failUnexpected("an expression");
  }
  Symbol* s = lookup(id);
  if (!s) {
    if (id->name.substr(0, 10) == "__builtin_")
      fail(at, "builtin '" + std::string(id->name) + "' is not supported in constant expressions",
           true);
    fail(at, "use of undeclared identifier '" + std::string(id->name) + "'");
  }
  consume();
  Value r;
  switch (s->kind) {
  case Symbol::EnumConst:
    return intValue(s->type.t, (unsigned __int128)s->value);
  case Symbol::Typedef:
    fail(at, "unexpected type name '" + std::string(id->name) + "': expected expression");
  case Symbol::Func:
  case Symbol::Var:
  case Symbol::Param:
    r.kind = Value::LValue;
    r.type = s->type.t;
    r.known = false;
    return r;
  }
  return r;
}

int64_t Parser::evalInt(const char* what, const Loc& at, bool strict, __int128* wide,
                        const Type** type) {
  Value v = rvalue(parseConditional(true), at);
  if (v.kind == Value::Float)
    fail(at, std::string(what) + " has non-integer type '" + typeStr(v.type) + "'");
  if (v.kind != Value::Int || !v.known)
    fail(at, std::string(what) + " is not an integer constant expression");
  if (strict && v.folded) fail(at, std::string(what) + " is not an integer constant expression");
  __int128 w = intSigned(v.type) ? signedValue(v) : (__int128)v.bits;
  if (!intSigned(v.type) && (v.bits >> 127)) fail(at, std::string(what) + " is too large");
  if (wide) *wide = w;
  if (type) *type = v.type;
  if (w > INT64_MAX) return INT64_MAX;
  if (w < INT64_MIN) return INT64_MIN;
  return int64_t(w);
}

uint64_t Parser::sizeOf(const Type* t, const Loc& at, const char* op) {
  const Type* c = stripTypedefs(t);
  // The message prefix is built only when there is an error to report.
  auto what = [&]() {
    return std::string_view(op) == "sizeof" ? std::string("invalid application of 'sizeof' to ")
                                            : std::string("'") + op + "' of ";
  };
  if (c->kind == TypeKind::Function) fail(at, what() + "a function type");
  if (c->kind == TypeKind::Void) fail(at, what() + "an incomplete type 'void'");
  if (auto* r = dyn<RecordType>(c); r && !r->decl->complete)
    fail(at, what() + "an incomplete type '" + typeStr(t) + "'");
  if (auto* e = dyn<EnumType>(c); e && !e->decl->complete)
    fail(at, what() + "an incomplete type '" + typeStr(t) + "'");
  if (auto* a = dyn<ArrayType>(c); a && a->incomplete)
    fail(at, what() + "an incomplete type '" + typeStr(t) + "'");
  try {
    return layout_.of(t).size;
  } catch (const Error& e) {
    if (e.hasSourcePosition()) throw;
    fail(at, e.message(), e.kind() == ErrorKind::Unsupported);
  }
}

uint32_t Parser::alignOf(const Type* t, const Loc& at, bool preferred) {
  const Type* c = stripTypedefs(t);
  const char* op = preferred ? "__alignof__" : "_Alignof";
  if (c->kind == TypeKind::Function)
    fail(at, std::string("invalid application of '") + op + "' to a function type");
  if (c->kind == TypeKind::Void)
    fail(at, std::string("invalid application of '") + op + "' to an incomplete type 'void'");
  if (auto* r = dyn<RecordType>(c); r && !r->decl->complete)
    fail(at, std::string("invalid application of '") + op + "' to an incomplete type '" +
                 typeStr(t) + "'");
  if (auto* e = dyn<EnumType>(c); e && !e->decl->complete)
    fail(at, std::string("invalid application of '") + op + "' to an incomplete type '" +
                 typeStr(t) + "'");
  uint32_t abi;
  try {
    abi = layout_.of(t).align;
  } catch (const Error& e) {
    if (e.hasSourcePosition()) throw;
    fail(at, e.message(), e.kind() == ErrorKind::Unsupported);
  }
  if (!preferred) return abi;
  // GCC's __alignof__ is clang's preferred alignment: double, long long and unsigned long long
  // (also inside arrays, _Complex and enums) are naturally aligned, unless an aligned typedef
  // fixed the alignment.
  const Type* e = t;
  for (;;) {
    const Type* u = e->unqualified;
    if (u->kind == TypeKind::Typedef) {
      const TypedefDecl* td = static_cast<const TypedefType*>(u)->decl;
      if (td->aligned) return abi;
      e = td->underlying;
      continue;
    }
    if (u->kind == TypeKind::Array) {
      e = static_cast<const ArrayType*>(u)->element;
      continue;
    }
    break;
  }
  const Type* b = stripTypedefs(e);
  if (b->kind == TypeKind::Record) return abi;
  if (auto* cx = dyn<ComplexType>(b)) b = stripTypedefs(cx->element);
  if (auto* en = dyn<EnumType>(b)) b = en->decl->underlying;
  const DataModel& d = ctx_.data();
  if (auto* ft = dyn<FloatType>(b); ft && ft->fkind == FloatKind::Double)
    return std::max<uint32_t>(abi, d.of(FloatKind::Double).size);
  if (auto* it = dyn<IntType>(b);
      it && !it->is_bitint && (it->ikind == IntKind::LongLong || it->ikind == IntKind::ULongLong))
    return std::max<uint32_t>(abi, d.of(IntKind::LongLong).size);
  return abi;
}

// ----- the translation unit -------------------------------------------------------------------

// Type names read after the main file, in its scope, from a text of their own in which no
// directive is recognised: the type names are parsed as such, never spliced into the file.
void Parser::parseTypeList(const ParseOptions::TypeList& list) {
  pp_.enterTextAfterEnd("<" + list.origin + ">", list.text);
  fast_paths = false;
  consume();
  for (;;) {
    Loc at = tok_.loc;
    if (tok_.kind == Tok::Ident && !tok_.ident->keyword && !startsTypeName(tok_))
      fail(at, "unknown type name '" + std::string(tok_.text()) + "'");
    if (tok_.kind == Tok::Eof || !startsTypeName(tok_)) failUnexpected("a type name");
    tu_.type_list.push_back(parseTypeName(at).t);
    if (tok_.kind == Tok::Eof) break;
    if (tok_.kind != Tok::Comma) failUnexpected("',' or the end of the type list");
    consume();
  }
}

TranslationUnit Parser::run() {
  try {
    consume();
    while (tok_.kind != Tok::Eof) parseExternalDeclaration();
    for (const auto& [t, loc] : tentative_) {
      const Type* c = stripTypedefs(t);
      bool incomplete =
          (c->kind == TypeKind::Record && !static_cast<const RecordType*>(c)->decl->complete) ||
          (c->kind == TypeKind::Enum && !static_cast<const EnumType*>(c)->decl->complete);
      if (incomplete)
        fail(loc, "tentative definition has type '" + typeStr(t) + "' that is never completed");
    }
    if (type_list && *type_list) parseTypeList(**type_list);
  } catch (const Error& e) {
    // A layout question without a position (e.g. a type the target cannot lay out): report it
    // where the parser is.
    if (e.hasSourcePosition()) throw;
    fail(tok_.loc, e.message(), e.kind() == ErrorKind::Unsupported);
  }
  return std::move(tu_);
}

namespace {

// The main file is entered by `enter(pp)`: an owned string or a borrowed padded text.
template <class Enter>
TranslationUnit parseWith(TypeContext& ctx, const LayoutEngine& layout, const ParseOptions& options,
                          size_t bytes, Enter enter) {
  IdentTable idents;
  idents.reserveForText(bytes);
  StringArena arena;
  PpQueries q;
  q.has_attribute = [](std::string_view scope, std::string_view n, bool c2x) {
    return hasAttribute(scope, n, c2x);
  };
  Preprocessor pp(ctx, options, idents, arena, std::move(q));
  try {
    enter(pp);
    Parser parser(ctx, layout, pp, idents);
    parser.fast_paths = options.fast_paths;
    parser.text_bytes = bytes;
    parser.type_list = &options.type_list;
    return parser.run();
  } catch (const SourceError& e) {
    throw Error::atSource(e.unsupported ? ErrorKind::Unsupported : ErrorKind::Input, e.message,
                          std::string(ctx.fileName(e.loc.file)), e.loc.line, e.loc.col,
                          pp.sourceLine(e.loc));
  }
}

} // namespace

TranslationUnit runParser(TypeContext& ctx, const LayoutEngine& layout, std::string_view name,
                          std::string text, const ParseOptions& options) {
  return parseWith(ctx, layout, options, text.size(),
                   [&](Preprocessor& pp) { pp.enterMainFile(std::string(name), std::move(text)); });
}

TranslationUnit runParserBorrowed(TypeContext& ctx, const LayoutEngine& layout,
                                  std::string_view name, std::string_view padded,
                                  const ParseOptions& options) {
  return parseWith(ctx, layout, options, padded.size(),
                   [&](Preprocessor& pp) { pp.enterMainFileBorrowed(std::string(name), padded); });
}

} // namespace abikit::detail
