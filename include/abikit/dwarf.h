// abikit — DWARF operation expressions: decoding, encoding and the two text forms.
//
// Data flows bytes → operations → text. decode() turns the bytes of a DWARF expression into a
// list of operations, each with its byte offset and operands; encode() is its inverse (minimal
// LEB128s); toText() prints the canonical, round-trippable text form and parseText() reads it
// back; toDisplay() prints what llvm-dwarfdump-22 prints for an exprloc, with the target's
// register names. The operation table (DWARF 5 and every DW_OP_LLVM_* extension, with its code in
// each of the three extension encodings) is data: abikit/dwarf_ops.def. Specification:
// reference dwarf.md §1; what abikit does where LLVM and the seed differ: docs/dwarf.md.
#pragma once

#include "abikit/diag.h"
#include "abikit/target.h"

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace abikit::dwarf {

/// The operations, DWARF 5 then the LLVM extensions, in the order of dwarf_ops.def. Names that
/// are C++ keywords carry a trailing underscore (Op::and_, Op::not_, Op::or_, Op::xor_).
enum class Op : uint16_t {
#define ABIKIT_DW_OP(E, name, code, a, b) E,
#define ABIKIT_DW_OP_LLVM(E, name, user, legacy, seed, a, b) E,
#include "abikit/dwarf_ops.def"
};

/// The DWARF 5 operation a GNU extension stands for (DW_OP_GNU_entry_value: DW_OP_entry_value,
/// ...), read and evaluated as that one and printed by its own name; any other operation itself.
constexpr Op standardOp(Op op) {
  switch (op) {
  case Op::GNU_push_tls_address:
    return Op::form_tls_address;
  case Op::GNU_implicit_pointer:
    return Op::implicit_pointer;
  case Op::GNU_entry_value:
    return Op::entry_value;
  case Op::GNU_const_type:
    return Op::const_type;
  case Op::GNU_regval_type:
    return Op::regval_type;
  case Op::GNU_deref_type:
    return Op::deref_type;
  case Op::GNU_convert:
    return Op::convert;
  case Op::GNU_reinterpret:
    return Op::reinterpret;
  case Op::GNU_addr_index:
    return Op::addrx;
  case Op::GNU_const_index:
    return Op::constx;
  default:
    return op;
  }
}

/// How an operand is coded (reference dwarf.md §1.1).
enum class OperandKind : uint8_t {
  None,
  U1,
  S1,
  U2,
  S2,
  U4,
  S4,
  U8,
  S8,
  Uleb,
  Sleb,
  Addr,    // address_size bytes
  Ref,     // offset_size bytes (4 in 32-bit DWARF, 8 in 64-bit DWARF)
  Block,   // ULEB128 length, then that many bytes (DW_OP_implicit_value)
  BlockU1, // one-byte length, then that many bytes (DW_OP_const_type's constant)
  Expr,    // ULEB128 length, then a nested expression of that many bytes (DW_OP_entry_value)
};

/// How the DW_OP_LLVM_* extensions are coded (reference dwarf.md §1.3). The caller says which:
/// byte 0xe9 means three different things.
enum class ExtEncoding : uint8_t {
  User,      // DW_OP_LLVM_user (0xe9) + ULEB128 sub-opcode: upstream LLVM and ROCm today
  Legacy,    // single bytes 0xe1-0xec: LLVM/ROCm before the prefix, libdwarf
  SeedDraft, // the three bytes the 2020 AMDGPUUsage draft assigns (0xe7, 0xe9, 0xea)
};
std::string_view extEncodingName(ExtEncoding e); // "user", "legacy", "seed-draft"

/// Everything the bytes of an expression depend on besides themselves.
struct ExprFormat {
  ExtEncoding encoding = ExtEncoding::User;
  uint8_t address_size = 8; // DW_OP_addr's operand: 4 or 8
  uint8_t offset_size = 4;  // DW_OP_call_ref, implicit pointers: 4 (DWARF32) or 8 (DWARF64)
  Endian endian = Endian::Little;
};

/// Throws Error unless the format's sizes are ones DWARF has (address size 4 or 8, offset size 4
/// or 8).
void checkFormat(const ExprFormat& format);
/// The bytes of a fixed-size operand in `format` (BlockU1: its one-byte length); 0 for LEB128s
/// and blocks with a LEB128 length.
unsigned fixedOperandSize(OperandKind kind, const ExprFormat& format);

/// The table row of one operation.
struct OpInfo {
  Op op;
  std::string_view name; // "DW_OP_bregx", "DW_OP_LLVM_offset"
  bool extension;        // a DW_OP_LLVM_* operation
  int16_t code;          // DWARF 5: the opcode byte; extensions: -1
  int16_t user;          // extensions: sub-opcode after DW_OP_LLVM_user, -1 if none
  int16_t legacy;        // extensions: legacy byte, -1 if none
  int16_t seed_draft;    // extensions: the seed draft's byte, -1 if none
  OperandKind operand[2];
};
const OpInfo& opInfo(Op op);
std::span<const OpInfo> allOps();
/// The code of an extension operation in an encoding (-1: none assigned there).
int extensionCode(const OpInfo& info, ExtEncoding encoding);
/// The operation named `name` ("DW_OP_lit3"), or nullptr.
const OpInfo* findOp(std::string_view name);
inline constexpr uint8_t kLlvmUser = 0xe9; // DW_OP_LLVM_user

/// One decoded operation. Operand i (dwarf_ops.def order) is u[i] when unsigned; the one signed
/// operand an operation may have is `s`. A Block/BlockU1 operand keeps its length in u[i] and its
/// bytes in Expression::blocks at [block, block + u[i]). DW_OP_entry_value keeps the byte length
/// of its nested expression in u[0] and the number of operations in it (at any depth) in u[1]:
/// those operations follow it in Expression::ops with depth + 1. The list is flat, so that
/// nesting costs neither recursion nor an allocation per level.
struct Operation {
  Op op = Op::nop;
  uint32_t depth = 0; // entry_value nesting level
  uint64_t u[2] = {0, 0};
  int64_t s = 0;
  uint32_t block = 0;
  uint32_t offset = 0; // byte position in the decoded buffer (encoded position after encode())
  uint32_t size = 0;   // bytes, nested operations included
};

struct Expression {
  std::vector<Operation> ops;
  std::vector<uint8_t> blocks; // the bytes of Block/BlockU1 operands
  std::span<const uint8_t> blockOf(const Operation& op, int operand) const {
    return {blocks.data() + op.block, size_t(op.u[operand])};
  }
  /// One past the last operation nested in ops[i] (i + 1 for all but entry_value).
  size_t endOf(size_t i) const {
    return standardOp(ops[i].op) == Op::entry_value ? i + 1 + ops[i].u[1] : i + 1;
  }
  void clear() {
    ops.clear();
    blocks.clear();
  }
};

/// What went wrong, as the CLI names it.
enum class ExprErrorKind : uint8_t {
  Truncated,         // an operand (or a nested expression) runs past the end of its bytes
  Overflow,          // a LEB128 whose value does not fit in 64 bits
  UnknownOpcode,     // a byte that is no operation in this encoding
  ReservedSubOpcode, // DW_OP_LLVM_user with sub-opcode 0
  UnknownSubOpcode,  // DW_OP_LLVM_user with a sub-opcode LLVM has not assigned
  Unencodable,       // the encoding has no code for the operation, or an operand is out of range
  Syntax,            // the text is not the canonical form
};
std::string_view exprErrorKindName(ExprErrorKind k); // "Truncated", ...

/// An abikit::Error with the DWARF error kind and where: a byte offset into the expression
/// (decoding; also the Error's offset(), made by Error::atBufferOffset), a 1-based column of the
/// text (parsing), or an operation's index (encoding).
/// format(): "abikit: error: Truncated at byte 3: ...", "abikit: error: Syntax at column 7: ...",
/// "abikit: error: Unencodable at operation 2: ...".
class ExprError : public Error {
public:
  enum class Where : uint8_t { Byte, Column, Operation };
  ExprError(ExprErrorKind kind, Where where, uint64_t position, std::string detail);
  ExprErrorKind exprKind() const { return expr_kind_; }
  Where where() const { return where_; }
  uint64_t position() const { return position_; }

private:
  ExprErrorKind expr_kind_;
  Where where_;
  uint64_t position_;
};

/// Decodes `bytes` (linear time; memory proportional to the input). Throws ExprError.
Expression decode(std::span<const uint8_t> bytes, const ExprFormat& format);
/// The same into `out` (cleared first), reusing its memory.
void decode(std::span<const uint8_t> bytes, const ExprFormat& format, Expression& out);

/// Encodes with minimal LEB128s. Operation::offset and size are ignored (and not updated).
/// Throws ExprError (Unencodable) for an operation the encoding has no code for or an operand
/// that does not fit its field.
std::vector<uint8_t> encode(const Expression& expr, const ExprFormat& format);
void encode(const Expression& expr, const ExprFormat& format, std::vector<uint8_t>& out);

/// The canonical text (reference dwarf.md §1.5): "DW_OP_bregx 0x5 -8, DW_OP_deref".
std::string toText(const Expression& expr);
/// The canonical text of ops[i] alone (with its nested expression for entry_value).
std::string opText(const Expression& expr, size_t i);
/// The same appended to `out` (not cleared first): with a reused string, no allocation once it
/// has the capacity.
void toText(const Expression& expr, std::string& out);
void opText(const Expression& expr, size_t i, std::string& out);
/// Reads the canonical text. Throws ExprError (Syntax, with the 1-based column).
Expression parseText(std::string_view text);

/// The canonical text to operations with the byte offsets and sizes decode() gives them in
/// `format` (what evaluation needs: branches go to byte offsets). Throws ExprError.
Expression assemble(std::string_view text, const ExprFormat& format);

/// What the display form needs to know: the target's DWARF register names and the encoding
/// (DW_OP_LLVM_user operations print with the "DW_OP_LLVM_user " prefix, as llvm-dwarfdump-22).
/// The base types a display names (DW_OP_convert, DW_OP_regval_type, ...): a unit's DIEs.
class BaseTypeNames {
public:
  virtual ~BaseTypeNames() = default;
  /// The DIE at unit-relative `offset`: false when no DW_TAG_base_type starts there; else its
  /// .debug_info offset and its DW_AT_name ("" for none).
  virtual bool baseType(uint64_t offset, uint64_t& section_offset,
                        std::string_view& name) const = 0;
};

struct DisplayOptions {
  std::span<const DwarfRegisterName> registers;
  ExtEncoding encoding = ExtEncoding::User;
  const BaseTypeNames* base_types = nullptr; // null: references print as in a unit at offset 0
};
DisplayOptions displayOptionsFor(const Target& target, ExtEncoding encoding);
/// What llvm-dwarfdump-22 prints for an exprloc, e.g. "DW_OP_breg2 X2+8, DW_OP_deref" ("<empty>"
/// for no operation). Not parsed back. Base-type references print as llvm-dwarfdump prints a
/// valid one in a unit at offset 0: "(0x0000000d)".
std::string toDisplay(const Expression& expr, const DisplayOptions& options);
std::string opDisplay(const Expression& expr, size_t i, const DisplayOptions& options);
/// The same appended to `out` (not cleared first): with a reused string, no allocation once it
/// has the capacity.
void toDisplay(const Expression& expr, const DisplayOptions& options, std::string& out);
void opDisplay(const Expression& expr, size_t i, const DisplayOptions& options, std::string& out);
/// The name llvm-dwarfdump-22 gives DWARF register `reg` ("" when it prints the number).
std::string registerDisplayName(std::span<const DwarfRegisterName> names, uint64_t reg);

} // namespace abikit::dwarf
