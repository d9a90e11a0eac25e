// Internal: the LLVM IR types clang-14 gives C types in memory, and what an LLVM DataLayout says
// about them. One record lowering for every family whose rules depend on the IR type: the family
// supplies its DataLayout as data (IrDataLayout) and reads the lowered records.
//
// Several back ends decide from the IR type, not from the C type: NVPTX prints a returned
// aggregate's `.param` with the ABI alignment of clang's IR struct type, which differs from the
// C alignment when clang had to make the struct packed or when an `aligned` attribute raised
// the C alignment only; AMDGPU splits the IR struct's elements into registers. This file
// reproduces, for C (no C++ bases), clang-14's CodeGenTypes::ConvertTypeForMem and
// CGRecordLowering (fields in order, runs of contiguous bit-fields stored as one iN with N
// rounded up to bytes, storage that would overlap the next member or the record's end clipped to
// an [N x i8], the packed decision, [N x i8] padding wherever the next member is not at the
// naturally aligned offset, unions' storage member) and LLVM 14's DataLayout queries
// (getABITypeAlign, getTypeAllocSize) on the result.
#pragma once

#include "abikit/layout.h"

#include <cstdint>
#include <span>
#include <unordered_map>
#include <vector>

namespace abikit::detail {

/// The parts of an LLVM DataLayout string the lowering needs (alignments in bytes), and which C
/// types have no IR type on the family.
struct IrDataLayout {
  struct Entry {
    uint32_t bits;
    uint32_t align;
  };
  struct PointerSpace {
    uint32_t address_space;
    uint32_t bits; // size and ABI alignment ("p3:32:32")
  };
  /// Integer ABI alignments, ascending by width ("i1:8-i8:8-i16:16-i32:32-i64:64-..."). A width
  /// without an entry takes the next larger entry's alignment, or the largest entry's.
  std::span<const Entry> ints;
  /// Vector types with an explicit alignment (by total width); the others are naturally
  /// aligned (the element size times the count, rounded up to a power of two).
  std::span<const Entry> vectors;
  /// Floating-point ABI alignments by IR type; 0: the family has no such IR type.
  uint32_t half_align = 2; // half, and bfloat
  uint32_t float_align = 4;
  uint32_t double_align = 8;
  uint32_t fp128_align = 16;
  /// Pointer sizes by address space. Empty: every pointer is as large as the C pointer and
  /// aligned to its size; otherwise a space without an entry has no IR pointer type.
  std::span<const PointerSpace> pointers;
  /// Throws abikit::Error for a type without an IR type here (a floating type or pointer the
  /// tables lack, an OpenCL type, void, a function), with the family's message; nullptr: the
  /// generic message.
  void (*no_ir_type)(const Type* t, const LayoutEngine& layout) = nullptr;
};

/// One element of a lowered record (CGRecordLowering's MemberInfo with data).
struct IrMember {
  enum class Kind : uint8_t {
    Field,   // an ordinary field: `type` (its memory type)
    Storage, // the storage of a run of bit-fields, or a union bit-field: i<bits>
    Bytes,   // padding or clipped bit-field storage: [bytes x i8] (one i8 when bytes == 1)
  };
  Kind kind = Kind::Field;
  uint64_t offset = 0; // bytes from the start of the record
  const Type* type = nullptr;
  uint32_t bits = 0;
  uint64_t bytes = 0;
  uint64_t size = 0;  // DataLayout alloc size of the element, bytes
  uint32_t align = 1; // its DataLayout ABI alignment
};

/// A record's IR struct type.
struct IrRecord {
  std::vector<IrMember> members; // the IR struct's elements, in order
  bool packed = false;           // an LLVM packed struct (<{ ... }>)
  uint32_t align = 1;            // its DataLayout ABI alignment
};

/// One IR type, summarised.
struct IrType {
  uint64_t size = 0;  // DataLayout::getTypeAllocSize, bytes
  uint32_t align = 1; // DataLayout::getABITypeAlign, bytes
  /// The first integer leaf (through structs, arrays and vector elements) that is not a simple
  /// machine type: an integer that is not i1, i8, i16, i32, i64 or i128, or a vector element
  /// that is not i8, i16, i32 or i64. Its width in bits; 0 when there is none.
  uint32_t odd_int_bits = 0;
  bool has_i128 = false;          // an i128 leaf
  bool i128_in_array = false;     // an i128 leaf inside an array (of at least one element)
  bool has_wide_int = false;      // an integer leaf wider than 64 bits
  bool wide_int_in_array = false; // such a leaf inside an array (of at least one element)
  /// A record with a named bit-field (also nested, or as an array element). clang 19 and later
  /// give bit-fields other storage members ("access units"), which this file does not model:
  /// such a record's IR type is clang-14's only.
  bool has_bitfields = false;
  /// NVPTX's getOpenCLAlignment: the preferred alignment of a single-value type (integers,
  /// floats, pointers, vectors), an array's element value, and the largest element value of a
  /// struct (even a packed one).
  uint32_t opencl_align = 1;
  bool packed = false; // an IR struct type with the packed flag (clang's `<{ ... }>`)
};

/// The IR types of one LayoutEngine's C types under one DataLayout, with records lowered once.
class IrTypes {
public:
  IrTypes(const LayoutEngine& layout, const IrDataLayout& dl);

  const LayoutEngine& layout() const { return layout_; }

  /// clang's ConvertTypeForMem(t): _Bool is i8, _BitInt(N) is iN, enums their underlying
  /// integer, records their lowered struct type, _Complex T `{T, T}`, vectors `<N x T>`.
  /// Throws abikit::Error for types without a memory representation (void, functions).
  IrType of(const Type* t) const;

  /// The lowered IR struct of a complete record (the reference stays valid).
  const IrRecord& record(const RecordDecl& rd) const;

  /// The integer type iN.
  IrType integer(uint32_t bits) const;

  /// The size in bits of a pointer into `address_space`; 0 when the DataLayout has none.
  uint32_t pointerBits(uint32_t address_space) const;

private:
  struct Lowered {
    IrRecord record;
    IrType summary;
  };
  const Lowered& lowered(const RecordDecl& rd) const;
  void lowerStruct(const RecordDecl& rd, const RecordLayout& rl, IrRecord& r) const;
  void lowerUnion(const RecordDecl& rd, const RecordLayout& rl, IrRecord& r) const;
  IrType summarise(const IrRecord& r, uint64_t size) const;
  IrMember field(uint64_t offset, const Type* t) const;
  IrMember storage(uint64_t offset, uint64_t bits) const;
  uint32_t intAlign(uint32_t bits) const;
  /// The width in bits of a scalar IR type (for vector sizes); 0 when not a scalar.
  uint32_t scalarBits(const Type* canon) const;
  [[noreturn]] void noIrType(const Type* t, const char* why) const;

  const LayoutEngine& layout_;
  const IrDataLayout& dl_;
  mutable std::unordered_map<const RecordDecl*, Lowered> records_;
};

} // namespace abikit::detail
