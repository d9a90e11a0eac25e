// Internal: the shared assignment core every calling-convention file builds on.
//
//  - RegFile: an ordered list of argument registers (32-bit "units" or whole registers) with
//    allocation that tracks aliases: a register pair is usable only when both halves are free,
//    taking a pair marks both halves, and later single-register requests may back-fill a hole.
//  - StackArea: the outgoing argument area: aligned slots in argument order, holes allowed.
//  - Type helpers shared by the rule files (promotion, extension, scalar classification).
//
// One rule file per target family (src/callconv/<family>.cpp) defines a CallconvInfo; the table
// in registry.cpp maps families to them.
#pragma once

#include "abikit/callconv.h"
#include "abikit/diag.h"

#include <cstdint>
#include <span>
#include <string_view>

namespace abikit::detail {

class RegFile {
public:
  explicit RegFile(std::span<const std::string_view> names) : names_(names) {}

  unsigned size() const { return unsigned(names_.size()); }
  std::string_view name(unsigned i) const { return names_[i]; }
  bool isFree(unsigned i) const { return i < names_.size() && !(used_ & (uint64_t(1) << i)); }
  void take(unsigned i) { used_ |= uint64_t(1) << i; }
  void takeAll() { used_ = ~uint64_t(0); }
  unsigned freeCount() const;

  /// The lowest-numbered free register (back-fills holes); -1 when none is left.
  int takeFirstFree();
  /// The first free register after every register taken so far (no back-filling, like a
  /// counter); -1 when none is left.
  int takeNext();
  /// `n` consecutive free registers whose first index is a multiple of `align` (aligned pairs
  /// and quads); the first index, or -1.
  int takeAligned(unsigned n, unsigned align);
  /// Index of the first register not yet taken after the highest taken one (what takeNext
  /// would return), or size().
  unsigned nextIndex() const;

private:
  std::span<const std::string_view> names_;
  uint64_t used_ = 0;
};

class StackArea {
public:
  /// Places `size` bytes at the next offset aligned to `align`; returns the offset.
  int64_t allocate(uint64_t size, uint64_t align);
  uint64_t size() const { return offset_; }
  void alignTo(uint64_t align);

private:
  uint64_t offset_ = 0;
};

inline ArgPart regPart(uint32_t offset, uint32_t size, std::string_view reg) {
  ArgPart p;
  p.offset = offset;
  p.size = size;
  p.loc.kind = ArgLocation::Kind::Register;
  p.loc.reg = reg;
  return p;
}

inline ArgPart stackPart(uint32_t offset, uint32_t size, int64_t stack_offset) {
  ArgPart p;
  p.offset = offset;
  p.size = size;
  p.loc.kind = ArgLocation::Kind::Stack;
  p.loc.stack_offset = stack_offset;
  return p;
}

// ----- type helpers ---------------------------------------------------------------------------

/// The integer type a value of `t` is after looking through typedefs and enums (nullptr if it is
/// not an integer or enum).
const IntType* asInteger(const Type* t);

/// clang's isPromotableIntegerType: _Bool, the char types, short, unsigned short (and enums /
/// typedefs of them); never _BitInt.
bool isPromotableInteger(const Type* t, const DataModel& d);

/// Sign or zero extension for a promotable integer (by its signedness); None otherwise.
ExtendKind promotionExtension(const Type* t, const DataModel& d);

/// The C default argument promotions applied to an extra argument of a variadic call:
/// float and __fp16 -> double, promotable integers -> int (or unsigned int), everything else
/// unchanged.
const Type* defaultArgumentPromotion(TypeContext& ctx, const Type* t);

/// An error for a signature the target cannot express.
[[noreturn]] void unsupported(const FunctionDecl& fn, std::string message);

// ----- dispatch -------------------------------------------------------------------------------

/// A target's rules. On entry `out` holds the function name, `variadic`, the return type and
/// one ArgLowering per parameter followed by the extra arguments of a variadic call (types
/// already adjusted and promoted; `variadic` set on the extra ones). The rule file fills every
/// kind/extend/byval/sret/align/parts, `stack_bytes` and `notes`.
using LowerFn = void (*)(const LayoutEngine& layout, const FunctionDecl& fn, FunctionLowering& out);

struct CallconvInfo {
  Family family;
  LowerFn lower;
};

/// The lowering of a host target (x86, AArch64): abikit models the hosts' layouts, not their
/// calling conventions, and says so in one message naming the target.
[[noreturn]] void refuseHostCallingConvention(const LayoutEngine& layout, const FunctionDecl& fn,
                                              FunctionLowering& out);

#define ABIKIT_FAMILY(E, name, Prefix) extern const CallconvInfo k##Prefix##Callconv;
#include "abikit/families.def"

} // namespace abikit::detail
