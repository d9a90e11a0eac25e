// Internal: the LLVM IR types clang-14 gives C types in memory, summarised by what an LLVM
// DataLayout says about them.
//
// Several back ends decide from the IR type, not from the C type: NVPTX prints a returned
// aggregate's `.param` with the ABI alignment of clang's IR struct type, which differs from the
// C alignment when clang had to make the struct packed or when an `aligned` attribute raised
// the C alignment only. This file reproduces, for C (no C++ bases), clang-14's
// CodeGenTypes::ConvertTypeForMem and CGRecordLowering (bit-field storage runs, clipping of
// storage into tail padding, the packed decision, unions' storage type) and LLVM 14's
// DataLayout queries (getABITypeAlign, getTypeAllocSize) on the result.
#pragma once

#include "abikit/layout.h"

#include <cstdint>
#include <span>
#include <vector>

namespace abikit::detail {

/// The parts of an LLVM DataLayout string the summaries need (alignments in bytes).
struct IrDataLayout {
  struct Entry {
    uint32_t bits;
    uint32_t align;
  };
  /// Integer ABI alignments, ascending by width ("i1:8-i8:8-i16:16-i32:32-i64:64-..."). A width
  /// without an entry takes the next larger entry's alignment, or the largest entry's.
  std::span<const Entry> ints;
  /// Vector types with an explicit alignment (by total width); the others are naturally
  /// aligned (the element alloc size times the count, rounded up to a power of two).
  std::span<const Entry> vectors;
  uint32_t half_align = 2;
  uint32_t float_align = 4;
  uint32_t double_align = 8;
  uint32_t fp128_align = 16;
};

/// One IR type, summarised.
struct IrType {
  uint64_t size = 0;  // DataLayout::getTypeAllocSize, bytes
  uint32_t align = 1; // DataLayout::getABITypeAlign, bytes
  /// The first integer leaf (through structs, arrays and vector elements) that is not a simple
  /// machine type: an integer that is not i1, i8, i16, i32, i64 or i128, or a vector element
  /// that is not i8, i16, i32 or i64. Its width in bits; 0 when there is none.
  uint32_t odd_int_bits = 0;
  bool has_i128 = false;      // an i128 leaf
  bool i128_in_array = false; // an i128 leaf inside an array (of at least one element)
  /// NVPTX's getOpenCLAlignment: the preferred alignment of a single-value type (integers,
  /// floats, pointers, vectors), an array's element value, and the largest element value of a
  /// struct (even a packed one).
  uint32_t opencl_align = 1;
  bool packed = false; // an IR struct type with the packed flag (clang's `<{ ... }>`)
};

/// The IR types of one LayoutEngine's C types, with record results cached.
class IrTypes {
public:
  IrTypes(const LayoutEngine& layout, const IrDataLayout& dl);

  /// clang's ConvertTypeForMem(t): _Bool is i8, _BitInt(N) is iN, enums their underlying
  /// integer, records their lowered struct type, _Complex T `{T, T}`, vectors `<N x T>`.
  /// Throws abikit::Error for types without a memory representation (void, functions).
  IrType of(const Type* t) const;

  /// The integer type iN.
  IrType integer(uint32_t bits) const;
  /// The vector type <count x element>, with the element's summary.
  IrType vector(const IrType& element, uint32_t element_bits, uint32_t count, bool element_int,
                uint32_t element_int_bits) const;

private:
  IrType record(const RecordDecl& rd) const;
  IrType structOf(const RecordDecl& rd, const RecordLayout& rl) const;
  IrType unionOf(const RecordDecl& rd, const RecordLayout& rl) const;
  uint32_t intAlign(uint32_t bits) const;
  /// The width in bits of a scalar IR type (for vector sizes); 0 when not a scalar.
  uint32_t scalarBits(const Type* canon) const;

  const LayoutEngine& layout_;
  const IrDataLayout& dl_;
  mutable std::vector<IrType> cache_;
  mutable std::vector<uint8_t> cached_;
};

} // namespace abikit::detail
