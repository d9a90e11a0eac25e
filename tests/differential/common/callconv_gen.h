// A seeded generator of random C prototypes for calling-convention differential tests, and the
// C programs that let a compiler show where every argument and the return value travel.
//
// A generated prototype holds its declarations in a neutral form: records as layout_gen
// programs (random records from layout_gen's generator and small records built here to
// exercise flattening: one or two reals, real + integer, bit-fields, zero-width bit-fields,
// empty members, arrays, complex members, nested, packed and over-aligned ones), enums,
// vector and aligned typedefs, and the return, parameter and extra-argument types. It can be
// rendered as C text for a compiler and built directly into an abikit TypeContext (so that the
// lowering is checked independently of the C front-end).
//
// The probe programs (renderCallees / renderCallers) are target-neutral C:
//  * callee `f<k>` stores every parameter with __builtin_memcpy into `abk_out + offset` and
//    returns a value copied from `abk_in + offset`;
//  * caller `c<k>` copies every argument from `abk_in + offset` and calls `f<k>`.
// Offsets are in ProbeLayout. An asm reader for the target (e.g. callconv_riscv_asm.h) then
// says which register or stack byte each stored byte came from.
#pragma once

#include "layout_gen.h"

#include <cstdint>
#include <string>
#include <vector>

namespace abikit::difftest {

/// The type of a parameter, an extra argument or the return value.
struct PType {
  enum Kind : uint8_t {
    Void,
    Int,
    BitInt,
    Float,
    ComplexFloat,
    ComplexInt,
    Pointer,
    Enum,   // proto.enums[ref]
    Record, // proto.decls[prog].records[ref]
    Vector, // a typedef of `count` elements of `elem_int`/`elem_float`
  };
  Kind kind = Int;
  IntKind ik = IntKind::Int;
  FloatKind fk = FloatKind::Float;
  uint16_t bits = 0; // _BitInt width
  bool is_signed = true;
  int prog = -1;
  int ref = -1;
  // Vector
  bool ext_vector = false;
  bool elem_float = false;
  uint32_t count = 0;
  // Wrapped in `typedef T name __attribute__((aligned(N)))` when non-zero.
  uint32_t typedef_align = 0;
};

struct Proto {
  uint64_t seed = 0;
  std::string prefix; // "p12_": names of its declarations
  int index = 0;      // f<index>, c<index>
  std::vector<GProgram> decls;
  std::vector<GEnum> enums;
  PType ret;
  std::vector<PType> params;
  bool variadic = false;
  std::vector<PType> extra; // extra arguments of the variadic call
  // Set by renderDeclarations: the lines of its enums, typedefs and prototype.
  uint32_t first_line = 0, last_line = 0;

  std::string callee() const { return "f" + std::to_string(index); }
  std::string caller() const { return "c" + std::to_string(index); }
};

struct ProtoOptions {
  OracleKind oracle = OracleKind::Clang;
  unsigned max_params = 12;
  bool allow_float16 = true; // _Float16 as a type of its own (clang: yes; GCC 12 RISC-V: no)
  bool allow_bitint = true;  // _BitInt (clang-14)
  bool allow_int128 = true;  // when the data model has it
  bool allow_long_double = true;
  unsigned layout_gen_pct = 20; // share of record types taken from layout_gen's generator
};

Proto generateProto(uint64_t seed, int index, const Target& target, const ProtoOptions& options);

/// Every single-step simplification of `p` (a parameter or extra argument removed, the return
/// made void, a type replaced by int, a record simplified), for shrinking a failing case.
std::vector<Proto> shrinkProto(const Proto& p, const DataModel& d);

/// Where the probe programs keep each value: byte offsets in abk_out (callee stores) and abk_in
/// (caller loads, callee return).
struct ProbeLayout {
  std::vector<uint64_t> param_offsets; // params then extra arguments
  uint64_t ret_offset = 0;
  uint64_t out_size = 0, in_size = 0;
};

/// The C text of the declarations and prototypes of a batch (records via layout_gen's render,
/// then per prototype its enums, typedefs and prototype). Fills GRecord::line and the
/// `first_line`/`last_line` of every decl program.
std::string renderDeclarations(std::vector<Proto>& protos);
/// The spelling of a type as declared by renderDeclarations.
std::string typeSpelling(const Proto& p, const PType& t, size_t position);

/// Probe programs: `declarations` (from renderDeclarations) followed by the callee definitions
/// / the caller functions, with the offsets of `layouts` (parallel to `protos`). `lines`
/// receives the first and last line of each prototype's function.
using LineRanges = std::vector<std::pair<uint32_t, uint32_t>>;
std::string renderCallees(const std::vector<Proto>& protos, const std::string& declarations,
                          const std::vector<ProbeLayout>& layouts, LineRanges& lines);
std::string renderCallers(const std::vector<Proto>& protos, const std::string& declarations,
                          const std::vector<ProbeLayout>& layouts, LineRanges& lines);

/// The prototype a line of a rendered batch belongs to (declarations or a probe function), or
/// protos.size().
size_t protoAtLine(const std::vector<Proto>& protos, const LineRanges& bodies, uint32_t line);

/// The abikit side of one prototype.
struct BuiltProto {
  FunctionDecl* fn = nullptr;
  std::vector<const Type*> extra; // extra argument types as written (before promotion)
  std::vector<const Type*> params;
  const Type* ret = nullptr;
};
BuiltProto buildProto(const Proto& p, TypeContext& ctx, uint32_t file);

/// Offsets for the probe programs: every value at a multiple of max(16, its alignment).
ProbeLayout probeLayout(const BuiltProto& b, const LayoutEngine& layout);

std::string protoText(const Proto& p); // the prototype and its declarations, for messages

/// Probe functions for a function declared in C text (the text keeps its declaration): the
/// callee definition, and a caller `caller` that passes extra arguments of `extra` types.
/// Types are spelled with abikit's typeName().
std::string renderCalleeFor(const FunctionDecl& fn, const TypeContext& ctx, const ProbeLayout& l);
std::string renderCallerFor(const FunctionDecl& fn, const std::vector<const Type*>& extra,
                            const TypeContext& ctx, const ProbeLayout& l,
                            const std::string& caller);
/// The declarations of abk_in and abk_out the probe functions use.
std::string probeHeader();

} // namespace abikit::difftest
