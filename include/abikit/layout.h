// abikit — type and record layout.
//
// One engine for every target: the target's rules come in as parameters (its DataModel for the
// source language). Record layouts are computed once per engine and cached by RecordDecl::id;
// the size and alignment of any other type, once computed, are kept in the type itself
// (Type::layout_bits), for every engine of its context. So a declaration must not change once
// a type built on it has been laid out (a typedef's alignment, an enum's underlying type).
#pragma once

#include "abikit/types.h"

#include <cstdint>
#include <deque>
#include <memory>
#include <span>
#include <vector>

namespace abikit {

namespace detail {
class RecordBuilder;
}

struct TypeLayout {
  uint64_t size = 0;  // bytes (sizeof)
  uint32_t align = 1; // bytes (_Alignof)
};

struct FieldLayout {
  uint64_t bit_offset = 0; // from the start of the record
  uint64_t size = 0;       // bytes of the declared type (0 for a flexible array member)
  uint32_t align = 1;      // bit-fields: the declared type's alignment (after typedef aligned);
                           // other members: the alignment they were placed with (the type's,
                           // raised by aligned(N), 1 if packed, capped by #pragma pack)
  int32_t bit_width = -1;  // -1: not a bit-field
};

struct RecordLayout {
  uint64_t size = 0;
  uint32_t align = 1;
  uint64_t data_size = 0; // bytes up to the end of the last field (before tail padding)
  /// Microsoft rules: the alignment that `aligned`/`__declspec(align)` on the record or on its
  /// members demands, which neither `#pragma pack` nor `packed` lowers where the record is a
  /// member of another (clang's RequiredAlignment). 0 under the generic rules.
  uint32_t required_align = 0;
  /// Parallel to RecordDecl::fields; the storage is the LayoutEngine's (it lives as long as
  /// the engine, like the RecordLayout).
  std::span<const FieldLayout> fields;
  bool has_flexible_array = false;
  /// Its bit-fields are laid out in whole units of their declared types (ms_struct, the
  /// Microsoft rules; docs/layout.md), not as runs of bits.
  bool unit_bitfields = false;
};

/// Computes layouts for the types of one TypeContext. Throws abikit::Error (Unsupported) for a
/// type that has no layout on the target (incomplete record, __int128 where it does not exist,
/// ...), naming the construct.
class LayoutEngine {
public:
  explicit LayoutEngine(const TypeContext& ctx);
  ~LayoutEngine();

  TypeLayout of(const Type* t) const;
  const RecordLayout& of(const RecordDecl& rd) const;
  /// The layout of `rd` as a type (size/align), cached.
  TypeLayout recordType(const RecordDecl& rd) const;

  const TypeContext& context() const { return ctx_; }

  /// Throws (ErrorKind::Input) when the target's compiler rejects an array of `element`:
  /// clang 19 and later and GCC require the element's size to be a multiple of its alignment
  /// (DataModel::array_element_size_multiple_of_align). Returns the element's layout.
  TypeLayout arrayElement(const Type* element) const;

private:
  friend class detail::RecordBuilder;

  // Layouts of derived types (typedef, array, vector, complex, enum) that are not kept in the
  // type (Type::layout_bits: a layout from a record's, or a size of 64 MiB or more), cached by
  // the interned type's address: open addressing with linear probing, a power-of-two number of
  // slots.
  struct CachedType {
    const Type* type = nullptr; // nullptr: empty slot
    TypeLayout layout;
  };
  bool quick(const Type* t, TypeLayout& out) const;
  TypeLayout compute(const Type* t) const;
  void remember(const Type* t, TypeLayout l) const;

  const TypeContext& ctx_;
  mutable std::vector<const RecordLayout*> cache_; // indexed by RecordDecl::id
  mutable std::deque<RecordLayout> layouts_;       // the cached layouts (stable addresses)
  mutable std::vector<uint8_t> in_progress_;
  mutable std::vector<CachedType> type_cache_;
  mutable size_t type_cache_used_ = 0;
  // The fields of the cached layouts: blocks from which each record takes one run (no
  // allocation per record).
  FieldLayout* allocateFields(size_t n) const;
  mutable std::vector<std::unique_ptr<FieldLayout[]>> field_blocks_;
  mutable FieldLayout* field_next_ = nullptr;
  mutable size_t field_left_ = 0;
};

} // namespace abikit
