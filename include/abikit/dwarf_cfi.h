// abikit — DWARF call frame information (reference dwarf.md §4): the CIEs and FDEs of a
// .debug_frame or .eh_frame section, their call frame instructions, and the table of rows the
// instructions describe (the CFA rule and one rule per register, from each address on).
//
// Data flows bytes → entries and instructions (parseCfi) → rows (buildTable) → text
// (displayCfi: what llvm-dwarfdump-22 --debug-frame / --eh-frame prints). Expressions inside CFI
// are kept as byte ranges of the section: evaluating them (the CFA, a register saved by an
// expression) is the evaluator's work; decode them with the format cfiExprFormat() gives.
// Specification: reference dwarf.md §4, DWARF 5 §6.4, the LSB .eh_frame format; where LLVM and
// abikit differ: docs/dwarf.md, "Call frame information".
#pragma once

#include "abikit/diag.h"
#include "abikit/dwarf.h"
#include "abikit/target.h"

#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace abikit::dwarf {

enum class CfiSectionKind : uint8_t { DebugFrame, EhFrame };
std::string_view cfiSectionName(CfiSectionKind k); // ".debug_frame", ".eh_frame"

/// Everything the bytes of a CFI section depend on besides themselves.
struct CfiFormat {
  CfiSectionKind section = CfiSectionKind::DebugFrame;
  uint64_t section_address = 0; // address of the section's first byte (DW_EH_PE_pcrel)
  uint8_t address_size = 8;     // 4 or 8: CIEs before version 4, .eh_frame's DW_EH_PE_absptr
  Endian endian = Endian::Little;
  std::optional<uint64_t> data_base; // DW_EH_PE_datarel base (absent: such a pointer is an error)
  std::optional<uint64_t> text_base; // DW_EH_PE_textrel base (likewise)
  ExtEncoding encoding = ExtEncoding::User; // DW_OP_LLVM_* in the expressions
};

/// .eh_frame pointer encodings (LSB): the low nibble is the format, 0x70 the application, 0x80
/// indirect.
namespace eh_pe {
inline constexpr uint8_t absptr = 0x00, uleb128 = 0x01, udata2 = 0x02, udata4 = 0x03, udata8 = 0x04,
                         sleb128 = 0x09, sdata2 = 0x0a, sdata4 = 0x0b, sdata8 = 0x0c, pcrel = 0x10,
                         textrel = 0x20, datarel = 0x30, funcrel = 0x40, aligned = 0x50,
                         indirect = 0x80, omit = 0xff;
} // namespace eh_pe

/// What went wrong (reference dwarf.md §2.3): IllFormed — the CFI is wrong (truncated or
/// overlong fields, a bad length or CIE pointer, an unknown instruction, a rule §4.3 forbids);
/// Evaluation — the CFI is fine but cannot be answered with what was given (a DW_EH_PE_datarel
/// pointer without a data base, remember_state nested past kMaxRememberDepth); Unsupported — a
/// construct abikit does not read (DW_EH_PE_indirect for an FDE's address, segment selectors).
enum class CfiErrorKind : uint8_t { IllFormed, Evaluation, Unsupported };
std::string_view cfiErrorKindName(CfiErrorKind k); // "IllFormed", ...

/// An abikit::Error with the kind and the byte offset in the section (Error::offset(), made by
/// Error::atBufferOffset). format(): "abikit: error: IllFormed at byte 36 (0x24) of .eh_frame:
/// DW_CFA_def_cfa_offset: ...".
class CfiError : public Error {
public:
  CfiError(CfiErrorKind kind, CfiSectionKind section, uint64_t offset, std::string detail);
  CfiErrorKind cfiKind() const { return cfi_kind_; }

private:
  CfiErrorKind cfi_kind_;
};

/// The call frame instructions (DWARF 5 §7.24, GNU 0x2e/0x2f, LLVM 0x30/0x31). The three primary
/// ones (advance_loc, offset, restore) carry their first operand in the opcode's low 6 bits.
enum class Cfa : uint8_t {
  nop = 0x00,
  set_loc = 0x01,
  advance_loc1 = 0x02,
  advance_loc2 = 0x03,
  advance_loc4 = 0x04,
  offset_extended = 0x05,
  restore_extended = 0x06,
  undefined = 0x07,
  same_value = 0x08,
  register_ = 0x09,
  remember_state = 0x0a,
  restore_state = 0x0b,
  def_cfa = 0x0c,
  def_cfa_register = 0x0d,
  def_cfa_offset = 0x0e,
  def_cfa_expression = 0x0f,
  expression = 0x10,
  offset_extended_sf = 0x11,
  def_cfa_sf = 0x12,
  def_cfa_offset_sf = 0x13,
  val_offset = 0x14,
  val_offset_sf = 0x15,
  val_expression = 0x16,
  GNU_args_size = 0x2e,
  GNU_negative_offset_extended = 0x2f,
  LLVM_def_aspace_cfa = 0x30,
  LLVM_def_aspace_cfa_sf = 0x31,
  advance_loc = 0x40,
  offset = 0x80,
  restore = 0xc0,
};

/// What an operand is (how it is coded follows from it and the instruction).
enum class CfaOperand : uint8_t {
  None,
  Register,     // ULEB128 (the low 6 bits for offset and restore)
  Address,      // set_loc: an address (.debug_frame) or a pointer in the FDE encoding (.eh_frame)
  CodeDelta,    // advance_loc*: × code alignment factor
  Offset,       // a ULEB128 byte offset, not factored (def_cfa, def_cfa_offset, GNU_args_size)
  FactoredU,    // ULEB128 × data alignment factor
  FactoredS,    // SLEB128 × data alignment factor
  FactoredNeg,  // GNU_negative_offset_extended: −(ULEB128 × data alignment factor)
  AddressSpace, // ULEB128 DW_ASPACE_* id
  Expression,   // ULEB128 length + that many bytes of a DWARF expression
};

struct CfaInfo {
  Cfa op;
  std::string_view name; // "DW_CFA_def_cfa"
  CfaOperand operand[3];
};
/// The instruction of opcode byte `code` (primary opcodes by their top two bits), or nullptr.
const CfaInfo* cfaInfo(uint8_t code);
const CfaInfo& cfaInfo(Cfa op);

/// One decoded instruction. Operands are as coded: registers, addresses and unsigned values
/// as read, SLEB128s as two's complement (operandSigned); factors are applied when rows are made.
struct CfiInstruction {
  Cfa op = Cfa::nop;
  uint64_t offset = 0; // byte offset of the opcode in the section
  uint64_t operand[3] = {0, 0, 0};
  uint64_t expr_offset = 0; // Expression operand: its bytes in the section
  uint64_t expr_size = 0;
  int64_t operandSigned(int i) const { return int64_t(operand[i]); }
};

struct CfiCie {
  uint64_t offset = 0; // of the length field
  uint64_t length = 0; // the unit length (the bytes after the length field)
  bool dwarf64 = false;
  uint8_t version = 0;
  std::string_view augmentation;
  /// false: an augmentation abikit does not understand. Per DWARF (reference dwarf.md §4.1) only
  /// length, CIE id, version and augmentation are read; FDEs that use this CIE keep length and
  /// CIE pointer (and, in .debug_frame, address and range), and no instructions are read.
  bool understood = true;
  uint8_t address_size = 8;          // version 4's field, else CfiFormat::address_size
  uint8_t segment_selector_size = 0; // version 4 (only 0 is supported)
  uint64_t code_alignment_factor = 0;
  int64_t data_alignment_factor = 0;
  uint64_t return_address_register = 0;
  bool z_augmentation = false;                // "z...": FDEs carry augmentation data too
  std::span<const uint8_t> augmentation_data; // "z...": the bytes after the length
  uint8_t fde_encoding = eh_pe::absptr;       // 'R'
  uint8_t lsda_encoding = eh_pe::omit;        // 'L'
  uint8_t personality_encoding = eh_pe::omit; // 'P'
  std::optional<uint64_t> personality;        // 'P': the pointer (its address if indirect)
  bool signal_frame = false;                  // 'S'
  std::optional<uint64_t> eh_data;            // "eh" (GCC 2): the pointer after the string
  uint64_t instructions_offset = 0, instructions_size = 0; // initial instructions (section)
  uint32_t first_instruction = 0, instruction_count = 0;   // in CfiSection::instructions
};

struct CfiFde {
  uint64_t offset = 0;
  uint64_t length = 0;
  bool dwarf64 = false;
  uint64_t cie_pointer = 0; // as coded (.eh_frame: relative to the field)
  uint32_t cie = 0;         // index in CfiSection::cies
  bool opaque = false;      // its CIE is not understood: no address (.eh_frame), no instructions
  uint64_t initial_location = 0;
  uint64_t address_range = 0;
  std::optional<uint64_t> lsda;               // 'L' in the CIE: the LSDA pointer
  std::span<const uint8_t> augmentation_data; // "z...": the bytes after the length
  uint64_t instructions_offset = 0, instructions_size = 0;
  uint32_t first_instruction = 0, instruction_count = 0;
  /// Whether `pc` is in [initial_location, initial_location + address_range) (an opaque FDE of
  /// .eh_frame has no range).
  bool contains(uint64_t pc) const { return pc - initial_location < address_range; }
};

enum class CfiEntryKind : uint8_t { Cie, Fde, Terminator };
struct CfiEntry {
  CfiEntryKind kind = CfiEntryKind::Cie;
  uint32_t index = 0;  // in cies or fdes
  uint64_t offset = 0; // in the section
};

/// A parsed section. It views the bytes given to parseCfi(): they must outlive it.
struct CfiSection {
  CfiFormat format;
  std::span<const uint8_t> bytes;
  std::vector<CfiCie> cies;
  std::vector<CfiFde> fdes;
  std::vector<CfiInstruction> instructions; // grouped by entry (CIEs first): see instructionsOf
  std::vector<CfiEntry> entries;            // in section order; a zero terminator ends them

  std::span<const CfiInstruction> instructionsOf(const CfiCie& c) const {
    return {instructions.data() + c.first_instruction, c.instruction_count};
  }
  std::span<const CfiInstruction> instructionsOf(const CfiFde& f) const {
    return {instructions.data() + f.first_instruction, f.instruction_count};
  }
  std::span<const uint8_t> expressionOf(const CfiInstruction& i) const {
    return bytes.subspan(size_t(i.expr_offset), size_t(i.expr_size));
  }
  const CfiCie& cieOf(const CfiFde& f) const { return cies[f.cie]; }
  /// The FDE whose range holds `pc` (the first one in section order), or nullptr.
  const CfiFde* findFde(uint64_t pc) const;
};

/// Parses a whole section. Linear in its size; memory proportional to it. Every CIE and FDE is
/// checked (lengths, CIE pointers, augmentations, pointer encodings) and every instruction and
/// expression decoded. Throws CfiError at the first problem, with its byte offset.
CfiSection parseCfi(std::span<const uint8_t> bytes, const CfiFormat& format);

/// How the expressions of an entry are coded (address size of its CIE, 32/64-bit DWARF of the
/// entry, the section's byte order and extension encoding).
ExprFormat cfiExprFormat(const CfiSection& s, const CfiCie& cie, bool dwarf64);

// ---------------------------------------------------------------------------------------------
// Rows (reference dwarf.md §4.2, §4.3)

enum class CfaRuleKind : uint8_t { Unspecified, RegisterOffset, Expression };
/// The CFA rule: register + offset in an address space (≡ DW_OP_constu AS;
/// DW_OP_LLVM_aspace_bregx R, B), or an expression (its bytes in the section).
struct CfaRule {
  CfaRuleKind kind = CfaRuleKind::Unspecified;
  uint64_t reg = 0;
  int64_t offset = 0;
  uint64_t address_space = 0;     // DW_ASPACE_*; 0, the default space, unless set by 0x30/0x31
  bool has_address_space = false; // set by DW_CFA_LLVM_def_aspace_cfa(_sf)
  uint64_t expr_offset = 0, expr_size = 0;
  bool operator==(const CfaRule&) const = default;
};

enum class RegisterRuleKind : uint8_t {
  Undefined,     // no previous value (the return-address column: no caller)
  SameValue,     // the register itself
  Offset,        // saved at CFA + offset
  ValOffset,     // the value CFA + offset
  Register,      // saved in register `reg`
  Expression,    // saved at the location the expression computes (initial stack: [CFA])
  ValExpression, // the value the expression computes (initial stack: [CFA])
};
std::string_view registerRuleKindName(RegisterRuleKind k); // "undefined", "same value", ...

struct RegisterRule {
  RegisterRuleKind kind = RegisterRuleKind::Undefined;
  int64_t offset = 0; // Offset, ValOffset: bytes (factored already)
  uint64_t reg = 0;   // Register
  uint64_t expr_offset = 0, expr_size = 0;
  bool operator==(const RegisterRule&) const = default;
};

/// One row: from `address` on (until the next row's address), the CFA rule and the rules of the
/// registers an instruction named. Every other register has the target's default rule (rule()).
struct CfiRow {
  uint64_t address = 0;
  bool has_address = true; // false in the table of a CIE alone
  CfaRule cfa;
  std::map<uint64_t, RegisterRule> rules;
  /// The rule of `reg`: its own, else the target's default: same value where
  /// DwarfTargetInfo::default_same_value (AMDGPU, reference dwarf.md §4.1), else undefined.
  RegisterRule rule(uint64_t reg, const DwarfTargetInfo& target) const;
};

/// The bytes of an expression rule (DW_CFA_def_cfa_expression, DW_CFA_expression,
/// DW_CFA_val_expression), in the section; decode them with cfiExprFormat().
inline std::span<const uint8_t> expressionOf(const CfiSection& s, const CfaRule& r) {
  return s.bytes.subspan(size_t(r.expr_offset), size_t(r.expr_size));
}
inline std::span<const uint8_t> expressionOf(const CfiSection& s, const RegisterRule& r) {
  return s.bytes.subspan(size_t(r.expr_offset), size_t(r.expr_size));
}

/// The rows of one FDE (its CIE's initial instructions, then its own) or of a CIE alone. A row
/// starts at every advance_loc*/set_loc (as llvm-dwarfdump-22 lists them, an advance by 0
/// included) and one more holds the state after the last instruction. Stored as the changes
/// from row to row: memory and time linear in the instructions, however many columns.
class CfiTable {
public:
  size_t size() const { return rows_.size(); }
  bool empty() const { return rows_.empty(); }
  uint64_t address(size_t i) const { return rows_[i].address; }
  /// The FDE's range [begin, end) (a CIE's table: 0, 0).
  uint64_t begin() const { return begin_; }
  uint64_t end() const { return end_; }
  /// Row i, replayed from the first (linear in the changes before it).
  CfiRow row(size_t i) const;
  /// The row that applies at `pc` (the last one whose address ≤ pc), if pc is in the FDE's range.
  std::optional<CfiRow> rowAt(uint64_t pc) const;
  /// Every row, materialised (memory: rows × columns).
  std::vector<CfiRow> rows() const;
  /// Calls visit(row) for each row in order, each made from the one before (linear time).
  template <typename F> void forEachRow(F&& visit) const {
    CfiRow r;
    r.has_address = has_address_;
    size_t applied = 0;
    for (const Mark& m : rows_) {
      applyChanges(r, applied, m.changes_end);
      applied = m.changes_end;
      r.address = m.address;
      r.cfa = m.cfa;
      visit(static_cast<const CfiRow&>(r));
    }
  }

private:
  friend class CfiTableBuilder;
  struct Change {
    uint64_t reg = 0;
    bool erase = false;
    RegisterRule rule;
  };
  struct Mark {
    uint64_t address = 0;
    CfaRule cfa;
    size_t changes_end = 0;
  };
  void applyChanges(CfiRow& r, size_t from, size_t to) const;
  std::vector<Mark> rows_;
  std::vector<Change> changes_;
  uint64_t begin_ = 0, end_ = 0;
  bool has_address_ = true;
};

/// remember_state nesting deeper than this is an Evaluation error.
inline constexpr size_t kMaxRememberDepth = 1024;

/// Executes the CIE's initial instructions, then the FDE's. With a target that lists its DWARF
/// address spaces, an address space it does not list is IllFormed (§4.3). Throws CfiError at
/// the instruction that breaks a rule: def_cfa_register/def_cfa_offset(_sf) without a
/// register+offset CFA rule, restore_state without remember_state, restore in a CIE, set_loc not
/// past the current address, a zero alignment factor where one is used.
CfiTable buildTable(const CfiSection& s, const CfiFde& fde,
                    const DwarfTargetInfo* target = nullptr);
/// The CIE's initial instructions alone (rows without addresses).
CfiTable buildTable(const CfiSection& s, const CfiCie& cie,
                    const DwarfTargetInfo* target = nullptr);
/// The CFA rule of a row as an expression the evaluator takes (EvalOptions::cfa; reference
/// dwarf.md §4.3): "DW_OP_bregx R, B" in the default address space, "DW_OP_constu AS,
/// DW_OP_LLVM_aspace_bregx R, B" for an address space set by DW_CFA_LLVM_def_aspace_cfa(_sf), or
/// the rule's own expression (to be evaluated for a location, with an empty stack). nullopt when
/// the CFA is unspecified. `cie` and `dwarf64` are the row's FDE's (cieOf(fde), fde.dwarf64).
std::optional<Expression> cfaExpression(const CfiSection& s, const CfiRow& row, const CfiCie& cie,
                                        bool dwarf64);
/// The row that applies at `pc`: the FDE that holds it, its table, the row. nullopt when no FDE
/// covers pc.
std::optional<CfiRow> rowForPc(const CfiSection& s, uint64_t pc,
                               const DwarfTargetInfo* target = nullptr);

// ---------------------------------------------------------------------------------------------
// Text: what llvm-dwarfdump-22 prints (registers by the target's DWARF names, "reg%u" otherwise;
// expressions in the display form of toDisplay()).

/// The whole section as llvm-dwarfdump-22 prints it after ".debug_frame contents:" (or
/// ".eh_frame contents:"): a blank line, then each CIE and FDE with its instructions and rows.
/// An entry whose rows cannot be made gets no rows (as llvm-dwarfdump-22); its CfiError is
/// appended to `row_errors` when given.
std::string displayCfi(const CfiSection& s, const DisplayOptions& d,
                       std::vector<CfiError>* row_errors = nullptr);
/// One instruction, "DW_CFA_offset: X1 -8" (no indentation, no newline). `address`: the row
/// address before it (advance_loc prints "to 0x..." and moves it, set_loc sets it); none in a CIE.
std::string displayCfiInstruction(const CfiSection& s, const CfiInstruction& insn,
                                  const CfiCie& cie, const DisplayOptions& d,
                                  std::optional<uint64_t>& address, bool dwarf64);
/// One row, "0x4: CFA=X2+16: X1=[CFA-8]" (no indentation, no newline).
std::string displayCfiRow(const CfiSection& s, const CfiRow& row, const CfiCie& cie,
                          const DisplayOptions& d, bool dwarf64);
/// The register as the CFI printer names it: the target's DWARF name, else "reg" + number.
std::string cfiRegisterName(const DisplayOptions& d, uint64_t reg);

} // namespace abikit::dwarf
