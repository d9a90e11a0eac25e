// `abikit dwarf --debug-line`: every line table of .debug_line laid out as llvm-dwarfdump-22
// prints it (DWARFDebugLine's Prologue::dump, Row::dumpTableHeader and Row::dump), and the same
// as JSON (cli-contract.md "dwarf": "lines").
#include "abikit/dwarf_line.h"
#include "abikit/emit.h"
#include "dump_text.h"
#include "json_writer.h"

namespace abikit {

using detail::decTo;
using detail::escapedTo;
using detail::hexTo;
using detail::unknownNameTo;

namespace {

constexpr std::string_view kStandardOpcodes[] = {"DW_LNS_copy",
                                                 "DW_LNS_advance_pc",
                                                 "DW_LNS_advance_line",
                                                 "DW_LNS_set_file",
                                                 "DW_LNS_set_column",
                                                 "DW_LNS_negate_stmt",
                                                 "DW_LNS_set_basic_block",
                                                 "DW_LNS_const_add_pc",
                                                 "DW_LNS_fixed_advance_pc",
                                                 "DW_LNS_set_prologue_end",
                                                 "DW_LNS_set_epilogue_begin",
                                                 "DW_LNS_set_isa"};

void padded(std::string& out, uint64_t v, size_t width) {
  std::string d;
  decTo(d, v);
  if (d.size() < width) out.append(width - d.size(), ' ');
  out += d;
}

void quoted(std::string& out, std::string_view s) {
  out += '"';
  escapedTo(out, s);
  out += '"';
}

std::string md5Text(const std::array<uint8_t, 16>& m) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string s;
  for (uint8_t b : m) {
    s += kDigits[b >> 4];
    s += kDigits[b & 15];
  }
  return s;
}

void prologueText(const dwarf::LineTableHeader& h, std::string& t) {
  const int width = h.dwarf64 ? 16 : 8;
  t += "Line table prologue:\n    total_length: ";
  hexTo(t, h.end - h.offset - (h.dwarf64 ? 12 : 4), width);
  t += h.dwarf64 ? "\n          format: DWARF64\n" : "\n          format: DWARF32\n";
  t += "         version: ";
  decTo(t, uint64_t(h.version));
  t += '\n';
  if (h.version >= 5) {
    t += "    address_size: ";
    decTo(t, uint64_t(h.address_size));
    t += "\n seg_select_size: ";
    decTo(t, uint64_t(h.segment_selector_size));
    t += '\n';
  }
  t += " prologue_length: ";
  hexTo(t, h.header_length, width);
  t += "\n min_inst_length: ";
  decTo(t, uint64_t(h.min_inst_length));
  t += '\n';
  if (h.version >= 4) {
    t += "max_ops_per_inst: ";
    decTo(t, uint64_t(h.max_ops_per_inst));
    t += '\n';
  }
  t += " default_is_stmt: ";
  decTo(t, uint64_t(h.default_is_stmt));
  t += "\n       line_base: ";
  decTo(t, int64_t(h.line_base));
  t += "\n      line_range: ";
  decTo(t, uint64_t(h.line_range));
  t += "\n     opcode_base: ";
  decTo(t, uint64_t(h.opcode_base));
  t += '\n';
  for (size_t i = 0; i < h.standard_opcode_lengths.size(); ++i) {
    t += "standard_opcode_lengths[";
    if (i < std::size(kStandardOpcodes)) {
      t += kStandardOpcodes[i];
    } else { // LLVM's format of an unnamed DW_LNS value
      unknownNameTo(t, "DW_LNS", i + 1);
    }
    t += "] = ";
    decTo(t, uint64_t(h.standard_opcode_lengths[i]));
    t += '\n';
  }
  const uint64_t base = h.version >= 5 ? 0 : 1;
  for (size_t i = 0; i < h.include_directories.size(); ++i) {
    t += "include_directories[";
    padded(t, i + base, 3);
    t += "] = ";
    quoted(t, h.include_directories[i]);
    t += '\n';
  }
  for (size_t i = 0; i < h.file_names.size(); ++i) {
    const dwarf::LineFileEntry& e = h.file_names[i];
    t += "file_names[";
    padded(t, i + base, 3);
    t += "]:\n           name: ";
    quoted(t, e.name);
    t += "\n      dir_index: ";
    decTo(t, e.dir_index);
    t += '\n';
    if (h.has_md5)
      t += "   md5_checksum: " + (e.md5 ? md5Text(*e.md5) : std::string(32, '0')) + '\n';
    if (h.has_mtime) {
      t += "       mod_time: ";
      hexTo(t, e.mtime, 8);
      t += '\n';
    }
    if (h.has_length) {
      t += "         length: ";
      hexTo(t, e.length, 8);
      t += '\n';
    }
    if (h.has_source && e.source && !e.source->empty()) {
      t += "         source: ";
      quoted(t, *e.source);
      t += '\n';
    }
  }
}

void rowText(const dwarf::LineRow& r, std::string& t) {
  hexTo(t, r.address, 16);
  t += ' ';
  padded(t, r.line, 6);
  t += ' ';
  padded(t, r.column, 6);
  t += ' ';
  padded(t, r.file, 6);
  t += ' ';
  padded(t, r.isa, 3);
  t += ' ';
  padded(t, r.discriminator, 13);
  t += ' ';
  padded(t, r.op_index, 7);
  t += ' ';
  if (r.is_stmt) t += " is_stmt";
  if (r.basic_block) t += " basic_block";
  if (r.prologue_end) t += " prologue_end";
  if (r.epilogue_begin) t += " epilogue_begin";
  if (r.end_sequence) t += " end_sequence";
  t += '\n';
}

} // namespace

std::string dwarfLineText(std::span<const dwarf::LineTable> tables) {
  std::string t;
  for (const dwarf::LineTable& table : tables) {
    t += "debug_line[";
    hexTo(t, table.header.offset, 8);
    t += "]\n";
    prologueText(table.header, t);
    if (!table.rows.empty()) {
      t += "\nAddress            Line   Column File   ISA Discriminator OpIndex Flags\n"
           "------------------ ------ ------ ------ --- ------------- ------- -------------\n";
      for (const dwarf::LineRow& r : table.rows) rowText(r, t);
    }
    t += '\n';
  }
  return t;
}

std::string dwarfLineJson(std::span<const dwarf::LineTable> tables) {
  detail::TextBuffer out;
  detail::JsonWriter<detail::kJsonCompact> j(out);
  j.beginArray();
  for (const dwarf::LineTable& table : tables) {
    const dwarf::LineTableHeader& h = table.header;
    j.beginObject();
    j.field("offset", h.offset);
    j.field("version", unsigned(h.version));
    j.field("format", h.dwarf64 ? "dwarf64" : "dwarf32");
    if (h.version >= 5) j.field("address_size", unsigned(h.address_size));
    j.field("min_inst_length", unsigned(h.min_inst_length));
    j.field("max_ops_per_inst", unsigned(h.max_ops_per_inst));
    j.field("default_is_stmt", h.default_is_stmt != 0);
    j.field("line_base", int(h.line_base));
    j.field("line_range", unsigned(h.line_range));
    j.field("opcode_base", unsigned(h.opcode_base));
    j.key("include_directories");
    j.beginArray();
    for (std::string_view d : h.include_directories) j.value(d);
    j.endArray();
    j.key("file_names");
    j.beginArray();
    for (const dwarf::LineFileEntry& e : h.file_names) {
      j.beginObject();
      j.field("name", e.name);
      j.field("dir_index", e.dir_index);
      if (h.has_mtime) j.field("mod_time", e.mtime);
      if (h.has_length) j.field("length", e.length);
      if (e.md5) j.field("md5", md5Text(*e.md5));
      if (e.source) j.field("source", *e.source);
      j.endObject();
    }
    j.endArray();
    j.key("rows");
    j.beginArray();
    std::string a;
    for (const dwarf::LineRow& r : table.rows) {
      j.beginObject();
      a.clear();
      hexTo(a, r.address, 1);
      j.field("address", a);
      j.field("line", r.line);
      j.field("column", r.column);
      j.field("file", r.file);
      if (r.isa) j.field("isa", r.isa);
      if (r.discriminator) j.field("discriminator", r.discriminator);
      if (r.op_index) j.field("op_index", unsigned(r.op_index));
      j.key("flags");
      j.beginArray();
      if (r.is_stmt) j.value("is_stmt");
      if (r.basic_block) j.value("basic_block");
      if (r.prologue_end) j.value("prologue_end");
      if (r.epilogue_begin) j.value("epilogue_begin");
      if (r.end_sequence) j.value("end_sequence");
      j.endArray();
      j.endObject();
    }
    j.endArray();
    j.endObject();
  }
  j.endArray();
  return out.take();
}

} // namespace abikit
