// abikit — reading DWARF debugging information: units, DIEs and their attributes, location and
// range lists, and where each variable lives at a code address.
//
// The reader works over byte spans (DebugSections) and copies nothing it does not have to: a
// unit's DIEs are indexed once (offset, tag, depth, tree links), attribute values are decoded on
// demand from the bytes. Every read is bounded; malformed data throws abikit::Error with the file
// offset of the offending byte. Units of DWARF 2-5, 32- and 64-bit; every DWARF 5 form and the
// GNU split-DWARF forms a linked file can hold. Specification: DWARF 5 §7; what abikit does where
// producers and readers differ: docs/dwarf.md.
#pragma once

#include "abikit/diag.h"
#include "abikit/dwarf.h"
#include "abikit/dwarf_eval.h"
#include "abikit/target.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace abikit::dwarf {

namespace detail {
class Cursor;
}

/// DW_TAG_*, DW_AT_*, DW_FORM_* codes (abikit/dwarf_constants.def).
enum Tag : uint16_t {
#define ABIKIT_DW_TAG(n, c) DW_TAG_##n = c,
#define ABIKIT_DW_AT(n, c)
#define ABIKIT_DW_FORM(n, c)
#include "abikit/dwarf_constants.def"
};
enum Attr : uint16_t {
#define ABIKIT_DW_TAG(n, c)
#define ABIKIT_DW_AT(n, c) DW_AT_##n = c,
#define ABIKIT_DW_FORM(n, c)
#include "abikit/dwarf_constants.def"
};
enum Form : uint16_t {
#define ABIKIT_DW_TAG(n, c)
#define ABIKIT_DW_AT(n, c)
#define ABIKIT_DW_FORM(n, c) DW_FORM_##n = c,
#include "abikit/dwarf_constants.def"
};
/// "DW_TAG_variable"; empty when abikit has no name for the code.
std::string_view tagName(uint16_t tag);
std::string_view attrName(uint16_t attr);
std::string_view formName(uint16_t form);
/// The name llvm-dwarfdump gives a constant of an enumerated attribute ("DW_LANG_C11" for
/// DW_AT_language 0x1d, DW_ATE_*, DW_CC_*, DW_INL_*, ...: abikit/dwarf_values.def); empty when the
/// attribute is not enumerated or the value has no name.
std::string_view attrValueName(uint16_t attr, uint64_t value);
/// The default lower bound of arrays in a DW_LANG_* language (C: 0, Fortran: 1); none if unknown.
std::optional<uint64_t> languageLowerBound(uint64_t language);

/// The codes of the heterogeneous-debugging attributes (reference dwarf.md §1.6): not stable, so
/// they come from a table. Llvm: what upstream LLVM assigned and llvm-dwarfdump-22 names
/// (memory_space 0x3e0f ... vector_size 0x3e13); RocmLegacy: the ROCm tools' 0x3e08-0x3e0c
/// (codes upstream LLVM gives to pointer-authentication attributes); None: not recognised. A code
/// of 0 is not assigned.
enum class HeteroAttrPreset : uint8_t { Llvm, RocmLegacy, None };
struct HeteroAttrCodes {
  uint16_t lanes = 0, lane_pc = 0, active_lane = 0, vector_size = 0, augmentation = 0,
           iterations = 0, address_space = 0, memory_space = 0;
  /// "DW_AT_LLVM_lanes" for the code of lanes, ...; empty for any other code.
  std::string_view nameOf(uint16_t attr) const;
};
HeteroAttrCodes heteroAttrCodes(HeteroAttrPreset preset);

/// One debug section: its bytes and where they start in the file (for error offsets).
struct SectionBytes {
  std::span<const uint8_t> bytes;
  uint64_t file_offset = 0;
  uint64_t address = 0; // sh_addr (.eh_frame's pc-relative pointers)
};

/// The debug sections of one file (any of them may be empty).
struct DebugSections {
  std::string file; // named in errors
  Endian endian = Endian::Little;
  SectionBytes info, abbrev, str, line_str, str_offsets, addr, loclists, loc, rnglists, ranges,
      line, frame, eh_frame, names;
  /// The bytes of sections that are not the file's own: a relocatable object's debug sections
  /// with their relocations applied (abikit::debugSections). The spans above point into them;
  /// shared, so that copies and moves of DebugSections keep them alive.
  std::vector<std::shared_ptr<const std::vector<uint8_t>>> owned;
};

enum UnitType : uint8_t {
  DW_UT_compile = 1,
  DW_UT_type = 2,
  DW_UT_partial = 3,
  DW_UT_skeleton = 4,
  DW_UT_split_compile = 5,
  DW_UT_split_type = 6,
};

struct UnitHeader {
  uint64_t offset = 0; // of the unit's length field in .debug_info
  uint64_t end = 0;    // one past the unit
  uint16_t version = 0;
  uint8_t unit_type = DW_UT_compile; // DWARF 2-4 compile units say DW_UT_compile
  uint8_t address_size = 0;
  uint8_t offset_size = 4; // 8: 64-bit DWARF
  uint64_t abbrev_offset = 0;
  uint64_t dwo_id = 0;         // skeleton and split units
  uint64_t type_signature = 0; // type units
  uint64_t type_offset = 0;    // type units: unit-relative offset of the type's DIE
  uint64_t first_die = 0;      // .debug_info offset of the unit DIE
};

/// One debugging information entry, indexed: the attribute values stay in the section bytes.
struct Die {
  uint64_t offset = 0;       // in .debug_info
  uint64_t attrs_offset = 0; // first attribute value
  uint32_t abbrev = 0;       // index into the unit's AbbrevTable::abbrevs
  uint32_t parent = kNone;   // index in Unit::dies
  uint32_t next = 0;         // index one past this DIE's subtree (its next sibling, if any)
  uint16_t tag = 0;
  uint16_t depth = 0;
  uint64_t null_at = 0; // a DIE with children: offset of the null entry that ends them (0: none)
  static constexpr uint32_t kNone = 0xffffffffu;
};

struct AttrSpec {
  uint16_t name = 0;
  uint16_t form = 0;
  int64_t implicit_const = 0;
};

struct Abbrev {
  uint64_t code = 0;
  uint16_t tag = 0;
  bool children = false;
  uint32_t first = 0, count = 0; // its specs in AbbrevTable::specs
  uint64_t offset = 0;           // in .debug_abbrev
};

/// The abbreviations at one .debug_abbrev offset (shared by the units that name it).
struct AbbrevTable {
  uint64_t offset = 0;
  std::vector<Abbrev> abbrevs;
  std::vector<AttrSpec> specs;
  std::vector<uint32_t> by_code; // dense codes: index + 1 per code, 0 for none
  /// The abbreviation with `code`, or null.
  const Abbrev* find(uint64_t code) const;
  std::span<const AttrSpec> specsOf(const Abbrev& a) const {
    return {specs.data() + a.first, a.count};
  }
};

/// A decoded attribute value. `kind` says which fields mean something.
struct AttrValue {
  enum class Kind : uint8_t {
    Address,   // u: the address (addrx forms resolved through .debug_addr)
    Constant,  // u: the bits; s: sign-extended from the form's size (sdata: the value)
    Block,     // bytes (block forms, data16)
    Exprloc,   // bytes: a DWARF expression
    Flag,      // u: 0 or 1
    String,    // str
    Reference, // u: .debug_info offset of the DIE (unit-relative forms resolved)
    Signature, // u: a type signature (ref_sig8)
    SecOffset, // u: an offset into another section (line, loclists, rnglists, macros, ...)
    LocListX,  // u: index into the unit's location list offsets (loclistx)
    RngListX,  // u: index into the unit's range list offsets (rnglistx)
    Unreadable // a form this reader cannot resolve here (strp_sup, GNU_ref_alt): u raw
  };
  uint16_t name = 0;
  uint16_t form = 0;
  Kind kind = Kind::Constant;
  uint8_t size = 0;    // bytes of a fixed-size constant form (1, 2, 4, 8), 0 for LEBs
  uint64_t offset = 0; // of the value in .debug_info
  uint64_t u = 0;
  int64_t s = 0;
  std::span<const uint8_t> bytes;
  std::string_view str;
};

struct Unit {
  UnitHeader header;
  const AbbrevTable* abbrevs = nullptr;
  std::vector<Die> dies; // pre-order; dies[0] is the unit DIE
  // Bases from the unit DIE (DWARF 5 §3.1.1); 0 when absent.
  uint64_t str_offsets_base = 0, addr_base = 0, loclists_base = 0, rnglists_base = 0;
  uint64_t base_address = 0; // DW_AT_low_pc of the unit DIE (the base of its lists)
  bool dwarf64() const { return header.offset_size == 8; }
};

/// An address range [begin, end).
struct PcRange {
  uint64_t begin = 0, end = 0;
};

/// One entry of a location list, bounded to [begin, end) (or the default location).
struct LocEntry {
  uint64_t begin = 0, end = 0;
  bool is_default = false;
  std::span<const uint8_t> expression;
  uint64_t offset = 0; // of the entry in its section
};

class DebugInfo {
public:
  /// Indexes every unit of .debug_info. Throws abikit::Error for malformed units, abbreviations
  /// or DIEs (the file offset and what is wrong).
  explicit DebugInfo(DebugSections sections);

  const DebugSections& sections() const { return s_; }
  std::span<const Unit> units() const { return units_; }

  /// The attributes of a DIE, decoded, in the order of its abbreviation.
  void attributes(const Unit& unit, const Die& die, std::vector<AttrValue>& out) const;
  /// One attribute (the first with that name), or nullopt.
  std::optional<AttrValue> attribute(const Unit& unit, const Die& die, uint16_t name) const;

  /// The unit holding the DIE at .debug_info offset `offset`, and the DIE's index in it.
  /// Returns false when no DIE starts there.
  bool findDie(uint64_t offset, const Unit*& unit, uint32_t& index) const;

  /// Entry `index` of the unit's .debug_addr contribution (DW_OP_addrx, DW_OP_constx); false
  /// when it is outside the section.
  bool addressAt(const Unit& unit, uint64_t index, uint64_t& out) const;

  /// The code ranges of a DIE (DW_AT_low_pc/high_pc or DW_AT_ranges); empty when it has none.
  void pcRanges(const Unit& unit, const Die& die, std::vector<PcRange>& out) const;
  /// Where the list a loclist- or rnglist-class attribute names starts in its section
  /// (.debug_loclists/.debug_loc; .debug_rnglists/.debug_ranges for DW_AT_ranges).
  uint64_t listOffset(const Unit& unit, const AttrValue& value) const;
  /// The entries of a location list (a DW_AT_location of class loclist).
  void locationList(const Unit& unit, const AttrValue& value, std::vector<LocEntry>& out) const;
  /// A DW_AT_name, following DW_AT_abstract_origin and DW_AT_specification (bounded).
  std::string_view name(const Unit& unit, const Die& die) const;
  /// An attribute of the DIE or of its abstract origin / specification (bounded).
  std::optional<AttrValue> inheritedAttribute(const Unit& unit, const Die& die,
                                              uint16_t name) const;
  /// A C-like name of the type a DW_AT_type reference names ("int", "struct s *"), "" for none.
  std::string typeName(uint64_t die_offset) const;
  /// The name llvm-dwarfdump-22 prints after a reference to the type DIE at `die_offset`
  /// ("S_t *", "int[4]", "structure " for an unnamed struct), appended to `out`.
  void dumpTypeName(uint64_t die_offset, std::string& out) const;
  /// DW_AT_byte_size of a type, following typedefs and qualifiers; 0 when unknown.
  uint64_t typeSize(uint64_t die_offset) const;

  /// Throws abikit::Error naming the section and the file offset of `offset` in it.
  [[noreturn]] void fail(const SectionBytes& section, std::string_view section_name,
                         uint64_t offset, std::string message) const;

private:
  void indexUnit(Unit& unit);
  const AbbrevTable* abbrevTable(uint64_t offset);
  void skipValue(const Unit& unit, uint16_t form, detail::Cursor& c, uint64_t die_offset) const;
  /// `resolve` false: the value's bytes are passed over; strings and .debug_addr entries are not
  /// looked up (skipValue, the DIE index).
  AttrValue readValue(const Unit& unit, const AttrSpec& spec, detail::Cursor& c,
                      bool resolve = true) const;
  detail::Cursor dieCursor(const Unit& unit, const Die& die) const;
  uint64_t readAddrIndex(const Unit& unit, uint64_t index, uint64_t at) const;
  std::string_view readStrIndex(const Unit& unit, uint64_t index, uint64_t at) const;
  void rangeList(const Unit& unit, const AttrValue& value, std::vector<PcRange>& out) const;

  DebugSections s_;
  std::vector<Unit> units_;
  std::vector<std::unique_ptr<AbbrevTable>> tables_;
  std::unordered_map<uint64_t, size_t> table_at_; // .debug_abbrev offset -> index in tables_
};

/// Where one variable or parameter lives at an address.
struct VariableAt {
  std::string name;
  bool parameter = false;
  uint64_t die = 0;      // .debug_info offset
  uint64_t type_die = 0; // its DW_AT_type (0: none)
  std::string type;      // typeName(type_die)
  enum class Kind : uint8_t {
    Expression,  // `expression` holds its location there (exprloc or the matching list entry)
    Constant,    // DW_AT_const_value: `constant` (bytes, target order) or `constant_value`
    OptimizedOut // no location at this address
  } kind = Kind::OptimizedOut;
  std::span<const uint8_t> expression;
  bool from_list = false;
  std::vector<uint8_t> constant;
};

struct VariablesAt {
  uint64_t address = 0;
  bool found = false;        // a subprogram covers the address
  std::string function;      // the innermost subprogram or inlined subroutine
  uint64_t function_die = 0; // .debug_info offset of that DIE
  const Unit* unit = nullptr;
  std::span<const uint8_t> frame_base; // the subprogram's DW_AT_frame_base at the address
  bool has_frame_base = false;
  std::vector<VariableAt> variables; // innermost scope first, in DIE order within a scope
};

/// DIEs for the evaluator (DW_OP_call*, typed operations, implicit pointers) from a DebugInfo:
/// unit-relative offsets in `unit`; location lists matched at `pc`.
class DebugInfoResolver : public DieResolver {
public:
  DebugInfoResolver(const DebugInfo& info, const Unit& unit, uint64_t pc)
      : info_(info), unit_(unit), pc_(pc) {}
  bool byUnitOffset(uint64_t offset, DieInfo& out) override;
  bool bySectionOffset(uint64_t offset, DieInfo& out) override;

private:
  const DebugInfo& info_;
  const Unit& unit_;
  uint64_t pc_;
  std::vector<LocEntry> entries_;
};

/// The expression of a location attribute at `pc`: an exprloc (or DWARF 2-3 block) itself, or
/// the first list entry covering pc (a default entry when none does). False: no location there.
/// With `entry_pc` (the function's entry), an empty entry [entry_pc, entry_pc) covers entry_pc:
/// GCC's location views put the value a parameter has on entry there, and gdb reads it so.
bool locationAt(const DebugInfo& info, const Unit& unit, const AttrValue& value, uint64_t pc,
                std::vector<LocEntry>& scratch, std::span<const uint8_t>& out, bool& from_list,
                std::optional<uint64_t> entry_pc = std::nullopt);

/// The expression format of a unit's expressions.
ExprFormat exprFormat(const Unit& unit, Endian endian, ExtEncoding encoding = ExtEncoding::User);

/// Where a location expression puts a variable, read from the expression alone: one place per
/// piece (one for an expression without pieces). What is not one of the simple forms below is
/// kind Expression: ops [first, end) say which operations to show.
struct Place {
  enum class Kind : uint8_t {
    Register,     // reg
    Memory,       // at frame base + offset (frame_base), reg + offset (has_reg), or address
    Value,        // DW_OP_stack_value of a constant: value
    Implicit,     // DW_OP_implicit_value: bytes
    OptimizedOut, // an empty piece or expression
    Expression    // anything else: the operations
  };
  Kind kind = Kind::OptimizedOut;
  uint64_t bits = 0; // the piece's size in bits; 0: the whole variable (no piece)
  uint32_t reg = 0;
  bool has_reg = false, frame_base = false;
  int64_t offset = 0;
  uint64_t address = 0; // Memory at an address; Value: the constant
  uint32_t space = 0;   // Memory: the DWARF address space (a compiler's xderef marker, read)
  std::vector<uint8_t> bytes;
  size_t first = 0, end = 0;
};
/// With `target`, `address, DW_OP_lit<N>, DW_OP_swap, DW_OP_xderef` (N one of the target's
/// xderef_markers) is memory in that address space, as the compilers that write it mean.
std::vector<Place> places(const Expression& expr, const DwarfTargetInfo* target = nullptr);

/// Every variable and parameter in scope at `address` in the innermost function (subprogram or
/// inlined subroutine) covering it, as gdb's `info locals` and `info args` see them.
VariablesAt variablesAt(const DebugInfo& info, uint64_t address);

} // namespace abikit::dwarf
