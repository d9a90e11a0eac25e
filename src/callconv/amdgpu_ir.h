// Internal: the LLVM IR types clang-14 gives C types on amdgcn, as far as calling conventions and
// kernel arguments need them (docs/targets/amdgpu.md "Calling convention", "Kernel arguments").
//
//  - Records are lowered by the shared record lowering (ir_layout.h: CGRecordLowering with
//    padding) under the AMDGPU DataLayout of LLVM 14 (reference/gpu.md §2.1, kept as data in
//    amdgpu_ir.cpp): integers without an entry take the alignment of the next larger listed one
//    (i1, i8, i16, i32, i64) or of i64, so i128 and every bit-field storage wider than 64 bits
//    are 8-aligned; pointers into address spaces 3 and 5 are 32-bit; vectors are aligned to
//    their size rounded up to a power of two.
//  - Leaves: the scalars (integers, half/float/double, pointers) and vectors a value is made of
//    once records, arrays and _Complex are taken apart, with their byte offsets — what the
//    backend splits into registers.
#pragma once

#include "core.h"
#include "ir_layout.h"

#include <cstdint>
#include <vector>

namespace abikit::detail::amdgpu {

using detail::IrMember;
using detail::IrRecord;

/// A scalar or vector of the IR value, with its byte offset within the whole value.
struct Leaf {
  enum class Kind : uint8_t { Int, Half, Float, Double, Pointer, Vector };
  Kind kind = Kind::Int;
  uint64_t offset = 0;
  uint32_t bits = 0;       // Int: width; Pointer: pointer size; Vector: element width
  uint32_t count = 1;      // Vector: elements as declared (3 for float3)
  bool float_elem = false; // Vector: floating-point elements
  uint64_t storeBytes() const {
    return kind == Kind::Vector ? uint64_t(bits) / 8 * count : (uint64_t(bits) + 7) / 8;
  }
};

/// What the ABI rules need to know about C types on amdgcn, with records lowered once. Throws
/// abikit::Error (Unsupported) for a type this model does not describe (the message names the
/// construct; callers add which argument it was).
class IrTypes {
public:
  explicit IrTypes(const LayoutEngine& layout);

  const LayoutEngine& layout() const { return layout_; }

  /// The lowered IR struct of a complete record.
  const IrRecord& record(const RecordDecl& rd);

  /// DataLayout ABI alignment of the memory type clang gives `t` (ConvertTypeForMem).
  uint32_t align(const Type* t);

  /// DataLayout alloc size of that memory type. It is the C size except for arrays, whose IR
  /// type is [N x element] without the C rounding up to an over-aligned element typedef's
  /// alignment.
  uint64_t allocSize(const Type* t);

  /// The leaves of the memory representation of `t`, placed at `base`.
  void memoryLeaves(const Type* t, uint64_t base, std::vector<Leaf>& out);

  /// The leaf of a scalar or vector as an argument or return value (ConvertType: `_Bool` is i1,
  /// not i8). `t` must not be an aggregate.
  Leaf valueLeaf(const Type* t);

  /// Pointer size in bits of a pointer into `address_space` in the IR (the C size for every
  /// space clang and LLVM agree on); 0 when they disagree (2, 6) or the space is unknown.
  static uint32_t pointerBits(uint32_t address_space);

  /// The IR pointer an OpenCL built-in type is: {address space, bits}.
  static std::pair<uint32_t, uint32_t> openclPointer(OpenCLKind k);

private:
  void scalarLeaf(const Type* t, uint64_t base, bool as_value, std::vector<Leaf>& out);

  const LayoutEngine& layout_;
  detail::IrTypes ir_; // the shared lowering under the AMDGPU DataLayout
};

// ----- clang's record predicates (CodeGen/TargetInfo.cpp) ---------------------------------------

/// clang's useFirstFieldIfTransparentUnion.
const Type* passedType(const Type* t);

/// isEmptyRecord(T, AllowArrays = true) for C records.
bool isEmptyRecord(const Type* t);

/// isSingleElementStruct: the one non-empty element of a record (looking through one-element
/// arrays and nested single-element records) when it fills the record; nullptr otherwise.
const Type* singleElement(const LayoutEngine& layout, const Type* t);

/// RecordDecl::hasFlexibleArrayMember: the last field is an incomplete array, or a field is a
/// record that has one (clang's Sema propagates the flag).
bool hasFlexibleArray(const Type* t);

/// clang AMDGPUABIInfo::numRegsForType: the 32-bit registers clang-14 estimates for a type.
uint64_t numRegsForType(const LayoutEngine& layout, const Type* t);

} // namespace abikit::detail::amdgpu
