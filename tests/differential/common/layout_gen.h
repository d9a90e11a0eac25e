// A seeded generator of random C records for the layout differential test. A generated case is
// a small program (enums, typedefs, records) held in a neutral form that can be rendered as C
// text for a compiler and built directly into an abikit TypeContext, so that the layout engine
// is checked independently of the C front-end.
#pragma once

#include "abikit/layout.h"
#include "abikit/types.h"

#include <cstdint>
#include <string>
#include <vector>

namespace abikit::difftest {

/// Which compiler checks the cases: it decides which constructs may be generated.
enum class OracleKind : uint8_t {
  Clang, // clang-14: everything
  Gcc,   // GCC: no ext_vector_type, no _BitInt, no __fp16/_Float16, power-of-two vector sizes,
         // no arrays of over-aligned typedefs (GCC rejects them)
};

/// A type before array dimensions.
struct GBase {
  enum Kind : uint8_t {
    Int,
    BitInt,
    Float,
    ComplexInt,
    ComplexFloat,
    Pointer,     // `void *` or `char *` (in address space `address_space`)
    FuncPointer, // `void (*)(void)`
    Enum,
    Record,
    Typedef,
  };
  Kind kind = Int;
  IntKind ik = IntKind::Int;
  FloatKind fk = FloatKind::Float;
  uint16_t bits = 0; // _BitInt width
  bool is_signed = true;
  bool char_pointee = false;
  uint32_t address_space = 0;
  int ref = -1;        // index of the enum, record or typedef
  bool atomic = false; // _Atomic(base) (fields only; never a _BitInt or an array typedef)
};

struct GTypedef {
  enum Vec : uint8_t { None, VectorSize, ExtVector };
  std::string name;
  GBase base;
  std::vector<uint64_t> dims; // typedef T name[d0][d1]
  Vec vec = None;
  uint32_t vec_count = 0;
  uint32_t aligned = 0;
};

struct GField {
  std::string name; // empty: unnamed bit-field or anonymous member record
  GBase base;
  std::vector<uint64_t> dims;
  bool flexible = false; // name[] followed by dims
  int bit_width = -1;
  uint32_t aligned = 0;
  bool packed = false;
  int anon = -1; // anonymous member: index of its (inline) record
};

struct GRecord {
  std::string name; // empty for anonymous member records
  bool is_union = false;
  bool packed = false;
  uint32_t aligned = 0;
  uint32_t pack = 0;      // #pragma pack in effect (inherited by inline anonymous records)
  bool ms_struct = false; // #pragma ms_struct on at the definition (inherited likewise)
  std::vector<GField> fields;
  // Set by render(): where the `struct`/`union` keyword is.
  uint32_t line = 0, col = 0;
};

struct GEnum {
  std::string name;
  bool packed = false;
  std::vector<int64_t> values;
  IntKind underlying = IntKind::UInt;
};

struct GDecl {
  enum Kind : uint8_t { Enum, Typedef, Record };
  Kind kind;
  int index;
};

/// One generated case.
struct GProgram {
  uint64_t seed = 0;
  std::string prefix; // unique name prefix within a batch ("c12_")
  std::vector<GEnum> enums;
  std::vector<GTypedef> typedefs;
  std::vector<GRecord> records;
  std::vector<GDecl> order;               // top-level declarations in source order
  uint32_t first_line = 0, last_line = 0; // set by render()

  bool isNamed(int record) const { return !records[size_t(record)].name.empty(); }
};

/// Generates one case from a seed for a target (its data model decides which types exist)
/// and an oracle; with `ms_struct`, about one record in ten is under `#pragma ms_struct on`
/// (clang oracles only: the layout tests; abikit's call lowerings refuse such records). `lang`
/// is the source language's data model (CUDA/HIP: the device's with its host) and dialect. With
/// `atomics` (clang oracles, targets whose _Atomic layout is known), about one field in ten is
/// `_Atomic(T)`; the choice comes from a stream of its own, so the rest of the case is the one
/// generated without it.
GProgram generateCase(uint64_t seed, const std::string& prefix, const Target& target,
                      OracleKind oracle, bool ms_struct = false, Language lang = Language::C,
                      bool atomics = false);

/// The C text of a list of cases; fills GRecord::line/col (1-based, counting from the first
/// line of the returned text).
std::string render(std::vector<GProgram>& programs);

/// The C spelling of a record as it appears in the text ("struct c3_s1").
std::string recordSpelling(const GRecord& r);

/// Builds the declarations of `p` into `ctx`, located in file `file` (as rendered).
/// Returns the RecordDecl of every record of `p`, parallel to p.records.
std::vector<RecordDecl*> build(const GProgram& p, TypeContext& ctx, uint32_t file);

/// Every single-step simplification of `p` (a field or declaration attribute removed, a field
/// removed, array dimensions dropped, ...), for shrinking a failing case.
std::vector<GProgram> shrinkCandidates(const GProgram& p, const DataModel& d);

/// How often each construct occurs in a set of cases (printed by the test to show coverage).
struct Coverage {
  uint64_t records = 0, unions = 0, packed_records = 0, aligned_records = 0, pragma_pack = 0,
           ms_struct = 0, anonymous_members = 0, fields = 0, bitfields = 0, zero_width = 0,
           unnamed_bitfields = 0, packed_fields = 0, aligned_fields = 0, flexible_arrays = 0,
           arrays = 0, vectors = 0, ext_vectors = 0, complex = 0, enums = 0, packed_enums = 0,
           bitints = 0, aligned_typedefs = 0, address_space_pointers = 0, function_pointers = 0,
           int128 = 0, atomics = 0;
  void add(const GProgram& p);
  std::string text() const;
};

/// The underlying type clang-14 gives an enum with these values (C rules; the Microsoft
/// dialect: int) on this data model.
IntKind enumUnderlying(const std::vector<int64_t>& values, bool packed, const DataModel& d);

} // namespace abikit::difftest
