// abikit — DWARF line tables (.debug_line, DWARF 5 §6.2): the header ("prologue") of a unit's
// table, versions 2 to 5, 32- and 64-bit: its fields, include directories and file names
// (DWARF 5 entry formats with every form a producer writes, MD5 sums, DW_LNCT_LLVM_source), and
// the path of a file as llvm-dwarfdump prints it for DW_AT_decl_file; and the line-number
// program run to its rows (DWARF 5 §6.2.5). Every read is bounded; malformed data throws
// abikit::Error with the file offset.
#pragma once

#include "abikit/dwarf_info.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace abikit::dwarf {

struct LineFileEntry {
  std::string_view name;
  uint64_t dir_index = 0;
  uint64_t mtime = 0, length = 0;
  std::optional<std::array<uint8_t, 16>> md5;
  std::optional<std::string_view> source; // DW_LNCT_LLVM_source
};

struct LineTableHeader {
  uint64_t offset = 0; // of the unit length in .debug_line
  uint64_t end = 0;    // one past the table
  bool dwarf64 = false;
  uint16_t version = 0;
  uint8_t address_size = 0, segment_selector_size = 0; // DWARF 5
  uint64_t header_length = 0;
  uint64_t program_offset = 0; // where the line-number program starts
  uint8_t min_inst_length = 0, max_ops_per_inst = 1, default_is_stmt = 0;
  int8_t line_base = 0;
  uint8_t line_range = 0, opcode_base = 0;
  std::vector<uint8_t> standard_opcode_lengths;
  std::vector<std::string_view> include_directories; // DWARF 5: index 0 is the unit's directory
  std::vector<LineFileEntry> file_names;             // DWARF 5: 0-based; before: 1-based
  // Which fields the file entries carry (DWARF 5: the entry format; before: time and length).
  bool has_mtime = false, has_length = false, has_md5 = false, has_source = false;
};

/// One row of the line-number matrix (DWARF 5 §6.2.2).
struct LineRow {
  uint64_t address = 0;
  uint64_t line = 1, column = 0, file = 1;
  uint64_t discriminator = 0, isa = 0;
  uint8_t op_index = 0;
  bool is_stmt = false, basic_block = false, end_sequence = false, prologue_end = false,
       epilogue_begin = false;
};

/// A line table: its header and the rows its program makes, in program order. DW_LNE_define_file
/// (DWARF 2-4) adds to header.file_names.
struct LineTable {
  LineTableHeader header;
  std::vector<LineRow> rows;
};

/// The header of the line table at `offset` of .debug_line. `unit` gives the string-offsets base
/// for strx forms (may be null when the table uses none).
LineTableHeader readLineTableHeader(const DebugInfo& info, uint64_t offset,
                                    const Unit* unit = nullptr);

/// The line table at `offset` of .debug_line, its program run (`unit` as for the header).
/// Opcodes beyond opcode_base's standard ones are skipped by their operand counts, unknown
/// extended opcodes by their length; a program that runs past the table is an error.
LineTable readLineTable(const DebugInfo& info, uint64_t offset, const Unit* unit = nullptr);

/// Every line table of .debug_line, from its start to its end, each with the unit whose
/// DW_AT_stmt_list names it (for strx forms).
std::vector<LineTable> readLineTables(const DebugInfo& info);

/// The path of file `index` as llvm-dwarfdump prints it for DW_AT_decl_file (LLVM's
/// getFileNameByIndex with AbsoluteFilePath): an absolute name as it is; otherwise the
/// compilation directory (not for a DWARF 5 file of directory 0), the include directory and the
/// name joined with '/'. nullopt when there is no such file.
std::optional<std::string> lineFileName(const LineTableHeader& header, uint64_t index,
                                        std::string_view comp_dir);

/// The unit's line table (DW_AT_stmt_list) and its DW_AT_comp_dir, for lineFileName; nullopt
/// when the unit has no line table.
struct UnitLines {
  LineTableHeader header;
  std::string_view comp_dir;
};
std::optional<UnitLines> unitLines(const DebugInfo& info, const Unit& unit);

} // namespace abikit::dwarf
