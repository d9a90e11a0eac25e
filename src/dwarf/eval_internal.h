// Internal: the evaluator's state (reference dwarf.md §2). eval_store.cpp holds the location
// model (storages, composites in canonical form, reading and writing through a location);
// eval.cpp the stack machine and the operations.
#pragma once

#include "abikit/dwarf_eval.h"

#include <optional>
#include <string>
#include <vector>

namespace abikit::dwarf {

using SignedBits = __int128;

struct Part {
  uint32_t storage = 0; // 0: undefined
  BitOffset offset = 0;
  BitOffset bits = 0;
};

struct Storage {
  StorageKind kind = StorageKind::Undefined;
  uint32_t space = 0, lane = 0, reg = 0;
  BitOffset size = 0;  // bits (none for Undefined)
  size_t bytes_at = 0; // Implicit: its bytes in Evaluator::Impl::bytes_
  uint64_t die = 0;    // ImplicitPointer
  int64_t displacement = 0;
  std::vector<Part> parts; // Composite, canonical
  bool complete = false;
};

/// A stack entry: a value (its bits inline when ≤ 64, else in the byte pool), an implicit-pointer
/// value (the implicit-pointer storage it came from) or a single location description.
struct Entry {
  enum Kind : uint8_t { Val, Ipv, Loc } kind = Val;
  uint32_t type = 0;    // Val: index into Impl::types_ (0: generic)
  uint32_t storage = 0; // Ipv, Loc
  uint64_t lo = 0;      // Val ≤ 64 bits: the bits; wider: offset of the bytes in Impl::bytes_
  BitOffset offset = 0; // Loc
};

/// One contiguous run of bits of one storage that a read or write touches.
struct Segment {
  uint32_t storage;
  BitOffset offset;
  uint64_t bits;
};

// Base types (reference dwarf.md §2.1): DW_ATE_address is not integral.
inline bool integral(const BaseType& t) {
  if (t.vector_count != 1) return false;
  switch (t.encoding) {
  case kGenericEncoding:
  case 0x02: // DW_ATE_boolean
  case 0x05: // signed
  case 0x06: // signed_char
  case 0x07: // unsigned
  case 0x08:
    return true; // unsigned_char
  default:
    return t.encoding >= 0x80;
  }
}
inline bool isSigned(const BaseType& t) {
  return t.encoding == kGenericEncoding || t.encoding == 0x05 || t.encoding == 0x06;
}
inline bool isFloat(const BaseType& t) { // DW_ATE_float of 32 or 64 bits
  return t.vector_count == 1 && t.encoding == 0x04 && (t.elem_bits == 32 || t.elem_bits == 64);
}
inline uint64_t mask(uint64_t bits) {
  return bits >= 64 ? ~uint64_t(0) : (uint64_t(1) << bits) - 1;
}
inline int64_t sext(uint64_t v, uint64_t bits) {
  if (bits >= 64) return int64_t(v);
  uint64_t sign = uint64_t(1) << (bits - 1);
  return int64_t(((v & mask(bits)) ^ sign) - sign);
}
/// "0x1f"
std::string hex(BitOffset v);

/// op_offset_ of reads and writes after an evaluation: errors name no operation.
inline constexpr uint64_t kNoOperation = ~uint64_t(0);

void copyBits(uint8_t* dst, uint64_t dbit, const uint8_t* src, uint64_t sbit, uint64_t n);

struct Evaluator::Impl {
  Impl(const Target& t, Machine& m, DieResolver* d);

  const Target& target;
  DwarfTargetInfo info; // the target's, with the lanes of the options
  Machine& machine;
  DieResolver* dies;
  EvalOptions opts;

  std::vector<Storage> storages_; // [0] the undefined storage; reused across reset()
  size_t nstorages_ = 1;
  std::vector<uint8_t> bytes_; // implicit storages' bytes and wide values' bits
  // Memory and register storages by key (kind, space or register, lane): one storage each.
  std::vector<std::pair<uint64_t, uint32_t>> keyed_;
  size_t parts_ = 0; // composite parts made since reset()
  std::vector<BaseType> types_;
  std::vector<Entry> stack_;
  std::vector<Entry> results_;
  std::vector<Segment> segs_;
  std::vector<uint8_t> scratch_; // readSegments()
  std::vector<uint8_t> valbuf_;  // the bits of a value being made
  size_t floor_ = 0;             // entries below belong to an enclosing evaluation
  uint64_t steps_ = 0;
  unsigned depth_ = 0;
  uint64_t op_offset_ = 0; // of the operation being executed (errors)

  std::optional<Location> frame_base_, object_, cfa_;
  std::vector<std::unique_ptr<Expression>> exprs_; // decoded DIE expressions, one per call depth

  // ----- errors
  [[noreturn]] void illFormed(const std::string& m) const;
  [[noreturn]] void evalError(const std::string& m) const;
  [[noreturn]] void unsupported(const std::string& m) const;

  // ----- storages (eval_store.cpp)
  void reset();
  uint32_t newStorage(StorageKind k);
  uint32_t memory(uint32_t space, uint32_t lane);
  uint32_t registerStorage(uint32_t reg);
  uint32_t implicit(const uint8_t* data, uint64_t bits);
  uint32_t implicitPointer(uint64_t die, int64_t disp, uint32_t space);
  uint32_t composite();
  uint32_t keyed(uint64_t key) const;
  void addKey(uint64_t key, uint32_t id);
  void charge(size_t bytes, size_t parts);
  const DwarfAddressSpace* space(uint32_t id) const;
  unsigned addressBits(uint32_t space) const;
  uint32_t lanes() const;
  const DwarfRegisterRange* registerRange(uint32_t reg) const;
  uint32_t registerBits(uint32_t reg);
  BitOffset sizeOf(uint32_t storage) const;
  bool isIncomplete(const Entry& e) const;
  Location offsetBy(const Location& l, SignedBits d) const;
  void checkPart(const Location& l, BitOffset bits) const;
  void appendPart(uint32_t composite, const Part& p);
  /// The runs of storage bits that `bits` bits at `l` cover (reference dwarf.md §2.6).
  void segments(const Location& l, uint64_t bits, std::vector<Segment>& out) const;
  void storageBytes(const Storage& s, uint64_t first, size_t n, uint8_t* out);
  void readSegments(std::span<const Segment> segs, uint8_t* out);
  void writeBits(const Location& l, uint64_t bits, const uint8_t* in);
  LocationInfo describe(const Location& l) const;

  // ----- values (eval.cpp)
  uint32_t typeFor(uint64_t die);
  const BaseType& typeOf(const Entry& e) const { return types_[e.type]; }
  uint64_t bitsOf(const Entry& e) const { return types_[e.type].totalBits(); }
  Entry makeValue(uint32_t type, const uint8_t* data);
  Entry makeInt(uint32_t type, uint64_t v);
  void valueBytes(const Entry& e, std::vector<uint8_t>& out) const;

  // ----- evaluation (eval.cpp)
  EvalResult evaluate(const Expression& e, ResultKind kind, std::span<const Location> initial);
  void run(const Expression& e, size_t begin, size_t end);
  void step(const Expression& e, size_t& i, size_t begin, size_t end);
  Entry finish(ResultKind kind);
  Location separate(const Expression& e, size_t begin, size_t end);
  Location evalDieLocation(std::span<const uint8_t> bytes);
  Location runDieExpression(std::span<const uint8_t> bytes, bool same_stack);
  Location frameBase();
  Location contextLocation(std::optional<Location>& cache, const std::optional<Expression>& e,
                           const char* what);
  size_t depthOfStack() const { return stack_.size() - floor_; }
  Entry pop();
  Entry& top();
  void push(const Entry& e);
  Entry popValue();
  uint64_t popIntegral(const char* what, uint32_t* type = nullptr);
  Location popLocation();
  Location ipvTarget(uint32_t ip_storage);
  Location toLocation(const Entry& e);
  void pushLocation(const Location& l);
  void deref(uint32_t type, uint64_t read_bits);
  void piece(BitOffset bits, std::optional<SignedBits> bit_offset);
  void call(uint64_t die, bool unit_relative);
};

} // namespace abikit::dwarf
