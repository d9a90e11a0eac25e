// abikit — evaluating DWARF expressions (reference dwarf.md §2).
//
// One stack holds values, implicit-pointer values and location descriptions. A location is a
// storage and a bit offset; storages are memory (one per address space and lane binding),
// registers, implicit values, implicit pointers, composites of pieces, and the undefined storage.
// The evaluator reads the machine through the Machine interface (registers per DWARF number,
// memory per physical address space after the target's mapping) and DIEs through DieResolver;
// everything it knows about the target is Target::dwarf. Errors are EvalError: ill-formed DWARF
// (a static property of the expression) or an evaluation error (this machine state cannot answer),
// each with the byte offset of the operation. Evaluation always ends: at most kMaxSteps
// operations, kMaxStack stack entries and kMaxCallDepth nested calls.
//
// Storages and locations live in the Evaluator until reset(): a Location from one evaluate() can
// be the initial stack or the object of the next (CFI: registers located relative to the CFA).
#pragma once

#include "abikit/diag.h"
#include "abikit/dwarf.h"
#include "abikit/target.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace abikit::dwarf {

/// Seed: the 2020 AMDGPUUsage semantics with its defects repaired; Newest: the rules marked [N]
/// (reference dwarf.md §0).
enum class Profile : uint8_t { Seed, Newest };
enum class ResultKind : uint8_t { Location, Value, Unspecified };

using BitOffset = unsigned __int128;

/// A DWARF base type (DW_TAG_base_type); `die` 0 with encoding kGenericEncoding is the generic
/// type (integral, the address size of the default address space).
inline constexpr uint8_t kGenericEncoding = 0;
struct BaseType {
  uint64_t die = 0;
  uint32_t elem_bits = 64;
  uint8_t encoding = kGenericEncoding; // DW_ATE_*
  uint32_t vector_count = 1;           // DW_AT_LLVM_vector_size
  uint64_t totalBits() const { return uint64_t(elem_bits) * vector_count; }
  bool generic() const { return encoding == kGenericEncoding; }
  bool operator==(const BaseType&) const = default;
};

/// The machine state: a debugger, a core file or a test's JSON file implements it. Bytes are in
/// target order, least significant first. A false return means "not available" (an evaluation
/// error where it is needed).
class Machine {
public:
  virtual ~Machine() = default;
  /// `out.size()` bytes of register `reg` starting at byte `byte_offset` (vector registers hold
  /// every lane: lane L's 4-byte element at byte 4L).
  virtual bool readRegister(uint32_t reg, uint64_t byte_offset, std::span<uint8_t> out) = 0;
  virtual bool writeRegister(uint32_t reg, uint64_t byte_offset, std::span<const uint8_t> in) = 0;
  /// Bytes of a physical address space (after DwarfTargetInfo::map).
  virtual bool readMemory(uint32_t space, uint64_t address, std::span<uint8_t> out) = 0;
  virtual bool writeMemory(uint32_t space, uint64_t address, std::span<const uint8_t> in) = 0;
  /// The size of a register whose size the target does not fix (bits; 0: unknown).
  virtual uint32_t registerBits(uint32_t /*reg*/) { return 0; }
  /// The value register `reg` had on entry to the current subprogram (DW_OP_entry_value with a
  /// register), `out.size()` bytes.
  virtual bool entryValue(uint32_t /*reg*/, std::span<uint8_t> /*out*/) { return false; }
  /// DW_OP_form_tls_address: the address of thread-local offset `offset` (false: unsupported).
  virtual bool tlsAddress(uint64_t /*offset*/, uint64_t& /*address*/) { return false; }
  /// Where `.debug_addr` entry `index` of the current unit points (DW_OP_addrx, DW_OP_constx).
  virtual bool debugAddr(uint64_t /*index*/, uint64_t& /*value*/) { return false; }
};

/// What writes through a location changed, as a Machine may record it: whole registers, lanes of
/// vector registers, runs of memory bytes (physical spaces).
struct MachineWrites {
  struct Reg {
    uint32_t reg;
    std::vector<uint8_t> value;
  };
  struct Lane {
    uint32_t reg, lane;
    std::vector<uint8_t> value;
  };
  struct Mem {
    uint32_t space;
    uint64_t address;
    std::vector<uint8_t> bytes;
  };
  std::vector<Reg> registers;
  std::vector<Lane> lanes;
  std::vector<Mem> memory;
};

/// What a DW_OP_call*, DW_OP_*_type or implicit pointer needs of a DIE.
struct DieInfo {
  uint16_t tag = 0;                     // DW_TAG_*
  bool has_location = false;            // DW_AT_location
  bool location_is_list = false;        // a location list: `location` is the matching entry
  std::span<const uint8_t> location;    // expression bytes (empty: no matching list entry)
  bool has_const_value = false;         // DW_AT_const_value
  std::span<const uint8_t> const_value; // its bytes
  BaseType base_type;                   // for DW_TAG_base_type
};
inline constexpr uint16_t kTagBaseType = 0x24, kTagDwarfProcedure = 0x36, kTagVariable = 0x34;

class DieResolver {
public:
  virtual ~DieResolver() = default;
  /// The DIE at unit offset `offset` (DW_OP_call2/4, base-type references); false: none there.
  virtual bool byUnitOffset(uint64_t offset, DieInfo& out) = 0;
  /// The DIE at `.debug_info` offset `offset` (DW_OP_call_ref, implicit pointers).
  virtual bool bySectionOffset(uint64_t offset, DieInfo& out) = 0;
};

/// A single location description: a storage of the Evaluator and a bit offset in it.
struct Location {
  uint32_t storage = 0; // 0: the undefined storage
  BitOffset offset = 0;
};

enum class StorageKind : uint8_t {
  Undefined,
  Memory,
  Register,
  Implicit,
  ImplicitPointer,
  Composite
};

/// A value on the stack or a result: its type and bits (totalBits() of them).
struct ValueInfo {
  BaseType type;
  std::vector<uint8_t> bytes; // least significant first; the last byte's unused bits are 0
  uint64_t low() const;       // the first 8 bytes as a number
};

struct LocationPart;
/// A location, described for printing (reference cli-contract "LD").
struct LocationInfo {
  StorageKind kind = StorageKind::Undefined;
  BitOffset offset = 0;
  uint32_t space = 0;              // Memory, ImplicitPointer
  uint32_t lane = 0;               // Memory of a lane-scoped space: the bound lane
  uint32_t reg = 0;                // Register
  std::vector<uint8_t> bytes;      // Implicit
  uint64_t implicit_bits = 0;      // Implicit: size in bits
  uint64_t die = 0;                // ImplicitPointer
  int64_t displacement = 0;        // ImplicitPointer
  std::vector<LocationPart> parts; // Composite
};
struct LocationPart {
  BitOffset bits = 0;
  LocationInfo location;
};

struct EvalOptions {
  Profile profile = Profile::Seed;
  ExprFormat format;             // how the bytes of DIE expressions are coded
  uint32_t lanes = 0;            // lanes per thread (wavefront size); 0: the target's
  std::optional<uint32_t> lane;  // the focused lane
  uint32_t subprogram_lanes = 0; // DW_AT_LLVM_lanes of the current subprogram; 0: not SIMT
  std::vector<DwarfAperture> apertures;
  /// Location expressions for the frame base, the object and the CFA (reference dwarf.md §2.9),
  /// evaluated on demand in the same state; unset: that context element is missing.
  std::optional<Expression> frame_base, object_address, cfa;
  bool cfi = false; // an expression of call frame information (reference dwarf.md §4.4)
};

/// What went wrong: ill-formed DWARF, an evaluation error, or an unsupported feature (an
/// evaluation error too, reference dwarf.md §2.3).
enum class EvalErrorKind : uint8_t { IllFormed, Evaluation, Unsupported };
class EvalError : public Error {
public:
  EvalError(EvalErrorKind kind, std::string message, uint64_t byte_offset);
  EvalErrorKind evalKind() const { return eval_kind_; }

private:
  EvalErrorKind eval_kind_;
};

struct EvalResult {
  ResultKind kind = ResultKind::Location; // Location or Value
  Location location;
  uint32_t value = 0; // a value: pass to valueInfo()
  bool implicit_pointer_value = false;
};

class Evaluator {
public:
  Evaluator(const Target& target, Machine& machine, DieResolver* dies = nullptr);
  ~Evaluator();
  Evaluator(const Evaluator&) = delete;
  Evaluator& operator=(const Evaluator&) = delete;

  EvalOptions& options();
  /// Forgets every storage and value of earlier evaluations (their memory is kept for reuse).
  void reset();

  /// Evaluates `expr` for `kind` with `initial` pushed first. Throws EvalError.
  EvalResult evaluate(const Expression& expr, ResultKind kind,
                      std::span<const Location> initial = {});

  ValueInfo valueInfo(const EvalResult& r) const;
  LocationInfo describe(const Location& loc) const;
  /// Reads `bits` bits from `loc` (reference dwarf.md §2.6) into `out` (ceil(bits/8) bytes).
  void read(const Location& loc, uint64_t bits, std::vector<uint8_t>& out);
  /// Writes `bits` bits of `in` at `loc`: every affected part is checked before anything changes.
  void write(const Location& loc, uint64_t bits, std::span<const uint8_t> in);

  static constexpr uint64_t kMaxSteps = 1'000'000;
  static constexpr size_t kMaxStack = 10'000;
  static constexpr unsigned kMaxCallDepth = 64;
  static constexpr uint64_t kMaxValueBits = 1u << 16; // widest value or read

private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

} // namespace abikit::dwarf
