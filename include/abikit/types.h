// abikit — the C type model.
//
// Types live in a TypeContext (an arena bound to one target and source language). Scalar,
// pointer, array, vector, complex and qualified types are interned: asking twice gives the same
// pointer. Records, enums, typedefs and function types are created once per declaration.
// Nothing here knows sizes: layout.h computes them from the target's data model.
#pragma once

#include "abikit/target.h"

#include <cstdint>
#include <deque>
#include <memory>
#include <new>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace abikit {

struct SourceLoc {
  uint32_t file = 0; // index into TypeContext::fileName()
  uint32_t line = 0; // 1-based; 0 = no location (built-in)
  uint32_t col = 0;  // 1-based
};

enum class TypeKind : uint8_t {
  Void,
  Int,   // _Bool, char, short, int, long, long long, __int128, _BitInt(N), and unsigned forms
  Float, // __fp16/half, _Float16, __bf16, float, double, long double, __float128
  Pointer,
  Array,
  Vector,
  Complex,
  Enum,
  Record, // struct or union
  Function,
  Typedef, // a typedef name: sugar that may carry an alignment override
  OpenCL,  // OpenCL built-in opaque types: image*_t, sampler_t, event_t, queue_t, pipe, ...
  Atomic,  // _Atomic(T): T's value, laid out as the target's atomics want it (layout.md)
};

enum Qualifier : uint8_t {
  kQualConst = 1,
  kQualVolatile = 2,
  kQualRestrict = 4,
};

struct Type {
  TypeKind kind;
  uint8_t quals = 0; // Qualifier bits
  /// Levels of arrays, pointers, typedefs, records and functions in this type, kept on the
  /// unqualified type by the C front-end (which rejects absurdly deep types) as it builds them;
  /// 0 for scalars, enums and types it has not built.
  mutable uint16_t nesting = 0;
  /// This type's size and alignment once a LayoutEngine of its context has computed them (every
  /// engine of the context computes the same: the context's data model decides); 0 until then.
  /// Kept for types whose layout does not come from a record's (records, and arrays and
  /// typedefs of them, are cached by each engine). Read and written by the engines only.
  mutable uint32_t layout_bits = 0;
  const Type* unqualified = nullptr; // this type without qualifiers (itself when quals == 0)

  Type() : Type(TypeKind::Void) {}
  explicit Type(TypeKind k) : kind(k), unqualified(this) {}
  Type(const Type&) = delete;
  Type& operator=(const Type&) = delete;

  bool isConst() const { return quals & kQualConst; }
  bool isVolatile() const { return quals & kQualVolatile; }
  bool isRestrict() const { return quals & kQualRestrict; }

  /// Strips qualifiers and typedef sugar (but note: a typedef may change alignment; layout
  /// code must look at the sugar, see TypedefDecl::aligned).
  const Type* canonical() const;
};

// ----- scalars

/// An integer type. For the ordinary kinds the width comes from the data model; for
/// `_BitInt(N)` (is_bitint) it is `bits`.
struct IntType : Type {
  IntKind ikind = IntKind::Int; // for _BitInt: Int (signed) or UInt (unsigned)
  bool is_signed = true;        // resolved signedness (plain char depends on the target)
  bool is_bitint = false;
  uint32_t bits = 0; // _BitInt width; 0 for ordinary kinds
  IntType() : Type(TypeKind::Int) {}
};

struct FloatType : Type {
  FloatKind fkind = FloatKind::Float;
  FloatType() : Type(TypeKind::Float) {}
};

struct PointerType : Type {
  const Type* pointee = nullptr;
  uint32_t address_space = 0; // LLVM address-space number of the pointee
  /// The pointee is a function type (through typedefs and qualifiers): set by the TypeContext,
  /// so that layout knows a pointer's size without loading its pointee.
  bool to_function = false;
  PointerType() : Type(TypeKind::Pointer) {}
};

struct ArrayType : Type {
  const Type* element = nullptr;
  uint64_t count = 0;
  bool incomplete = false; // `T x[]`: flexible array member or unsized declaration
  ArrayType() : Type(TypeKind::Array) {}
};

enum class VectorKind : uint8_t {
  Generic, // GCC __attribute__((vector_size(N)))
  Ext,     // clang ext_vector_type(N) and the OpenCL built-in vectors (float4, uchar3, ...)
};

struct VectorType : Type {
  const Type* element = nullptr;
  uint32_t count = 0; // number of elements as declared (3 for float3)
  VectorKind vkind = VectorKind::Generic;
  VectorType() : Type(TypeKind::Vector) {}
};

struct ComplexType : Type {
  const Type* element = nullptr; // a FloatType (or IntType for the GNU _Complex int)
  ComplexType() : Type(TypeKind::Complex) {}
};

/// `_Atomic(T)` and `_Atomic T`: the value type is complete and neither an array, a function,
/// qualified nor atomic (the C front-end checks it).
struct AtomicType : Type {
  const Type* value = nullptr;
  AtomicType() : Type(TypeKind::Atomic) {}
};

// ----- declarations

struct FieldDecl {
  std::string_view name; // empty: unnamed bit-field or anonymous struct/union member
  const Type* type = nullptr;
  int32_t bit_width = -1; // -1: not a bit-field
  uint32_t aligned = 0;   // __attribute__((aligned(N))) / _Alignas on the field; 0 = none
  bool packed = false;    // __attribute__((packed)) on the field
  SourceLoc loc;

  bool isBitField() const { return bit_width >= 0; }
  bool isUnnamedBitField() const { return bit_width >= 0 && name.empty(); }
};

class TypeContext;
/// Storage for the declarations of a TypeContext: what the C front-end reads lives in the
/// context's own blocks (no allocation per record; freed with the context), anything built
/// with a default-constructed allocator, or copied, on the heap.
template <class T> struct DeclAllocator {
  using value_type = T;
  TypeContext* ctx = nullptr; // null: the heap
  DeclAllocator() noexcept = default;
  explicit DeclAllocator(TypeContext* c) noexcept : ctx(c) {}
  template <class U> DeclAllocator(const DeclAllocator<U>& o) noexcept : ctx(o.ctx) {}
  T* allocate(size_t n);
  void deallocate(T* p, size_t n) noexcept {
    if (!ctx) std::allocator<T>().deallocate(p, n);
  }
  DeclAllocator select_on_container_copy_construction() const { return {}; }
  using propagate_on_container_copy_assignment = std::false_type;
  using propagate_on_container_move_assignment = std::true_type;
  using propagate_on_container_swap = std::true_type;
  friend bool operator==(const DeclAllocator& a, const DeclAllocator& b) { return a.ctx == b.ctx; }
};
using FieldList = std::vector<FieldDecl, DeclAllocator<FieldDecl>>;

struct RecordDecl {
  uint32_t id = 0;               // dense index within its TypeContext (for side tables)
  std::string_view name;         // tag; empty if anonymous
  std::string_view typedef_name; // typedef that names an anonymous record, if any
  /// That typedef's type: C code names the record through it, and `_Alignof` of it gives the
  /// typedef's alignment (an aligned attribute on the typedef replaces the record's).
  const Type* typedef_type = nullptr;
  bool is_union = false;
  bool complete = false; // has a body
  bool packed = false;   // __attribute__((packed)) on the record
  bool transparent_union = false;
  uint32_t aligned = 0;         // __attribute__((aligned(N))) on the record; 0 = none
  uint32_t max_field_align = 0; // #pragma pack(N) in effect at the definition; 0 = none
  bool ms_struct = false;  // __attribute__((ms_struct)), or #pragma ms_struct on at the definition
  bool gcc_struct = false; // __attribute__((gcc_struct)) where the compiler honours it
  FieldList fields;
  SourceLoc loc;

  /// "struct S", "union U", the typedef name of an anonymous record, or
  /// "struct (anonymous at FILE:LINE:COL)".
  std::string displayName(const class TypeContext& ctx) const;
};

struct RecordType : Type {
  RecordDecl* decl = nullptr;
  /// TypeContext::pointerTo(this) in address space 0, once made (kept here rather than in the
  /// interning table: headers point to many records, each a few times).
  mutable const PointerType* pointer = nullptr;
  RecordType() : Type(TypeKind::Record) {}
};

struct Enumerator {
  std::string_view name;
  __int128 value = 0;
  SourceLoc loc;
};

struct EnumDecl {
  std::string_view name;
  std::string_view typedef_name;
  bool complete = false;
  bool packed = false;                 // __attribute__((packed)): smallest fitting type
  bool fixed_underlying = false;       // C23 / clang `enum E : T`
  const IntType* underlying = nullptr; // integer type chosen by the C rules for this target
  std::vector<Enumerator> enumerators;
  SourceLoc loc;
};

struct EnumType : Type {
  EnumDecl* decl = nullptr;
  EnumType() : Type(TypeKind::Enum) {}
};

struct TypedefDecl {
  std::string_view name;
  const Type* underlying = nullptr;
  uint32_t aligned = 0; // aligned(N) on the typedef: replaces the alignment (may lower it)
  SourceLoc loc;
  bool builtin = false; // from a built-in header (<stdint.h>, OpenCL vector names, ...)
};

struct TypedefType : Type {
  TypedefDecl* decl = nullptr;
  TypedefType() : Type(TypeKind::Typedef) {}
};

/// Calling convention / kind of a function as written in the source.
enum class FunctionKind : uint8_t {
  Normal,
  Kernel, // OpenCL __kernel, CUDA/HIP __global__, __attribute__((amdgpu_kernel / nvptx_kernel))
  Vertex, // Graphcore __attribute__((colossus_vertex))
};

struct ParamDecl {
  std::string_view name;      // may be empty
  const Type* type = nullptr; // as declared (arrays and functions not yet adjusted)
  SourceLoc loc;
};

struct FunctionType : Type {
  const Type* result = nullptr;
  std::vector<ParamDecl> params;
  bool variadic = false;
  bool prototyped = true; // false for K&R `int f()`
  FunctionKind fkind = FunctionKind::Normal;
  FunctionType() : Type(TypeKind::Function) {}
};

enum class OpenCLKind : uint8_t {
  Image1d,
  Image1dArray,
  Image1dBuffer,
  Image2d,
  Image2dArray,
  Image2dDepth,
  Image2dArrayDepth,
  Image2dMsaa,
  Image2dArrayMsaa,
  Image2dMsaaDepth,
  Image2dArrayMsaaDepth,
  Image3d,
  Sampler,
  Event,
  ClkEvent,
  Queue,
  ReserveId,
  Pipe,
};

enum class AccessQual : uint8_t { None, ReadOnly, WriteOnly, ReadWrite };

struct OpenCLType : Type {
  OpenCLKind okind = OpenCLKind::Image2d;
  AccessQual access = AccessQual::None; // images and pipes
  const Type* pipe_element = nullptr;   // pipes
  OpenCLType() : Type(TypeKind::OpenCL) {}
};

struct FunctionDecl {
  std::string_view name;
  const FunctionType* type = nullptr;
  SourceLoc loc;
  bool is_definition = false; // had a body (skipped)
  bool is_static = false;
};

/// What a parsed header declared, in source order.
struct TranslationUnit {
  std::vector<const RecordDecl*> records; // complete records that have a name or typedef name
  std::vector<const EnumDecl*> enums;
  std::vector<const TypedefDecl*> typedefs; // user typedefs (not built-in ones)
  std::vector<const FunctionDecl*> functions;
  std::vector<const Type*> type_list; // ParseOptions::type_list, in order

  /// Accepts "S", "struct S", "union U", or a typedef name of a record.
  const RecordDecl* findRecord(std::string_view name, const class TypeContext& ctx) const;
  const FunctionDecl* findFunction(std::string_view name) const;
};

/// C's adjustment of a parameter's type: an array becomes a pointer to its element, a function
/// a pointer to the function.
const Type* adjustParameterType(class TypeContext& ctx, const Type* t);
/// Throws an Unsupported error about `loc` (with its source line when the file can be read
/// again), or without a position when `loc` has none.
[[noreturn]] void unsupportedAt(const class TypeContext& ctx, SourceLoc loc, std::string message);

// ----- the context

class TypeContext {
public:
  TypeContext(const Target& target, LanguageMode mode);
  ~TypeContext();
  TypeContext(const TypeContext&) = delete;
  TypeContext& operator=(const TypeContext&) = delete;

  const Target& target() const { return *target_; }
  Language language() const { return mode_.lang; }
  LanguageMode languageMode() const { return mode_; }
  /// The address space of a pointee written without one: OpenCL C's generic or private (see
  /// openclGenericAddressSpace()), as the target numbers them; 0 in other languages.
  uint32_t defaultPointeeAddressSpace() const { return default_pointee_as_; }
  /// The address space of a parameter declared as an array once it is adjusted to a pointer:
  /// OpenCL C's private (the parameter's own), 0 in other languages.
  uint32_t arrayParameterAddressSpace() const { return array_param_as_; }
  /// The address space of a string literal: OpenCL C's __constant, 0 in other languages.
  uint32_t stringLiteralAddressSpace() const { return string_literal_as_; }
  const DataModel& data() const { return data_; }

  // Interned types.
  const Type* voidType();
  const IntType* intType(IntKind k);
  const IntType* bitIntType(unsigned bits, bool is_signed);
  const FloatType* floatType(FloatKind k);
  const PointerType* pointerTo(const Type* pointee, uint32_t address_space = 0);
  const ArrayType* arrayOf(const Type* element, uint64_t count);
  const ArrayType* incompleteArrayOf(const Type* element);
  const VectorType* vectorOf(const Type* element, uint32_t count, VectorKind vk);
  const ComplexType* complexOf(const Type* element);
  const AtomicType* atomicOf(const Type* value);
  /// The same type with `quals` added (ORed to the existing qualifiers).
  const Type* qualified(const Type* t, uint8_t quals);
  const OpenCLType* openclType(OpenCLKind k, AccessQual access = AccessQual::None,
                               const Type* pipe_element = nullptr);

  // Declarations (owned by the context, never interned).
  RecordDecl* createRecord(std::string_view name, bool is_union, SourceLoc loc);
  const RecordType* recordType(RecordDecl* decl);
  EnumDecl* createEnum(std::string_view name, SourceLoc loc);
  const EnumType* enumType(EnumDecl* decl);
  TypedefDecl* createTypedef(std::string_view name, const Type* underlying, SourceLoc loc);
  const TypedefType* typedefType(TypedefDecl* decl);
  FunctionType* createFunctionType();
  FunctionDecl* createFunction(std::string_view name, const FunctionType* type, SourceLoc loc);

  /// Copies a string into the context's storage; the view stays valid as long as the context.
  std::string_view intern(std::string_view s);
  /// `bytes` of the context's storage (aligned to `align`, a power of two), valid as long as the
  /// context.
  void* allocate(size_t bytes, size_t align);
  uint32_t addFile(std::string_view path);
  std::string_view fileName(uint32_t id) const;
  size_t recordCount() const { return records_.size(); }

private:
  template <class T> T* make();

  const Target* target_;
  LanguageMode mode_;
  DataModel data_;
  uint32_t default_pointee_as_ = 0;
  uint32_t array_param_as_ = 0;
  uint32_t string_literal_as_ = 0;

  struct Arena;
  std::unique_ptr<Arena> arena_;
  struct RecordBlock; // a record with its type, allocated together
  std::vector<RecordBlock*> records_;
  std::deque<std::string> files_; // stable: file_index_ views them
  std::unordered_map<std::string_view, uint32_t> file_index_;

  // The interning table, keyed by a packed description of the type (two words): open
  // addressing with linear probing, no allocation per entry.
  class InternTable {
  public:
    const Type* find(uint64_t k0, uint64_t k1) const {
      size_t mask = slots_.size() - 1;
      for (size_t i = index(k0, k1) & mask;; i = (i + 1) & mask) {
        const Slot& s = slots_[i];
        if (!s.type) return nullptr;
        if (s.k0 == k0 && s.k1 == k1) return s.type;
      }
    }
    /// Adds a key that find() did not return.
    void insert(uint64_t k0, uint64_t k1, const Type* t);

  private:
    struct Slot {
      uint64_t k0 = 0, k1 = 0;
      const Type* type = nullptr; // nullptr: empty
    };
    static size_t index(uint64_t k0, uint64_t k1) {
      uint64_t h = (k0 * 0x9E3779B97F4A7C15ull) ^ k1;
      h ^= h >> 29;
      h *= 0xBF58476D1CE4E5B9ull;
      return size_t(h ^ (h >> 32));
    }
    std::vector<Slot> slots_ = std::vector<Slot>(256);
    size_t count_ = 0;
  };
  InternTable interned_;
  const Type* void_ = nullptr;
  const IntType* ints_[kNumIntKinds] = {};
  const FloatType* floats_[kNumFloatKinds] = {};
};

/// The OpenCL spelling of an OpenCL built-in type ("image2d_t", "sampler_t", "pipe").
const char* openclTypeName(OpenCLKind k);
/// The C spelling of a type, as a compiler would print it: "unsigned int", "const char *",
/// "struct S", "int (*)(int, ...)", "float4", "uint32_t" (typedef names are kept).
std::string typeName(const Type* t, const TypeContext& ctx);

/// Helpers that look through typedefs and qualifiers.
inline const Type* stripTypedefs(const Type* t) { // also drops qualifiers
  while (t) {
    t = t->unqualified;
    if (t->kind != TypeKind::Typedef) return t;
    t = static_cast<const TypedefType*>(t)->decl->underlying;
  }
  return t;
}
inline bool isRecord(const Type* t) {
  return stripTypedefs(t)->kind == TypeKind::Record;
}
/// Aggregates for calling-convention purposes: struct, union, array, and _Complex.
bool isAggregate(const Type* t);
/// Whether an object of type `t` holds an _Atomic value: `t` is atomic, or a record (through
/// its fields) or an array of one that does; not through pointers.
bool containsAtomic(const Type* t);

template <class T> const T* dyn(const Type* t);
template <> inline const IntType* dyn<IntType>(const Type* t) {
  return t && t->kind == TypeKind::Int ? static_cast<const IntType*>(t) : nullptr;
}
template <> inline const FloatType* dyn<FloatType>(const Type* t) {
  return t && t->kind == TypeKind::Float ? static_cast<const FloatType*>(t) : nullptr;
}
template <> inline const PointerType* dyn<PointerType>(const Type* t) {
  return t && t->kind == TypeKind::Pointer ? static_cast<const PointerType*>(t) : nullptr;
}
template <> inline const ArrayType* dyn<ArrayType>(const Type* t) {
  return t && t->kind == TypeKind::Array ? static_cast<const ArrayType*>(t) : nullptr;
}
template <> inline const VectorType* dyn<VectorType>(const Type* t) {
  return t && t->kind == TypeKind::Vector ? static_cast<const VectorType*>(t) : nullptr;
}
template <> inline const ComplexType* dyn<ComplexType>(const Type* t) {
  return t && t->kind == TypeKind::Complex ? static_cast<const ComplexType*>(t) : nullptr;
}
template <> inline const AtomicType* dyn<AtomicType>(const Type* t) {
  return t && t->kind == TypeKind::Atomic ? static_cast<const AtomicType*>(t) : nullptr;
}
template <> inline const RecordType* dyn<RecordType>(const Type* t) {
  return t && t->kind == TypeKind::Record ? static_cast<const RecordType*>(t) : nullptr;
}
template <> inline const EnumType* dyn<EnumType>(const Type* t) {
  return t && t->kind == TypeKind::Enum ? static_cast<const EnumType*>(t) : nullptr;
}
template <> inline const FunctionType* dyn<FunctionType>(const Type* t) {
  return t && t->kind == TypeKind::Function ? static_cast<const FunctionType*>(t) : nullptr;
}
template <> inline const TypedefType* dyn<TypedefType>(const Type* t) {
  return t && t->kind == TypeKind::Typedef ? static_cast<const TypedefType*>(t) : nullptr;
}
template <> inline const OpenCLType* dyn<OpenCLType>(const Type* t) {
  return t && t->kind == TypeKind::OpenCL ? static_cast<const OpenCLType*>(t) : nullptr;
}

template <class T> T* DeclAllocator<T>::allocate(size_t n) {
  if (!ctx) return std::allocator<T>().allocate(n);
  if (n > size_t(-1) / sizeof(T)) throw std::bad_array_new_length();
  return static_cast<T*>(ctx->allocate(n * sizeof(T), alignof(T)));
}

} // namespace abikit
