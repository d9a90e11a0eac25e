// Line tables (abikit/dwarf_line.h): the header (DWARF 2-4 include directories and file names as
// strings, DWARF 5 as entries of the formats the header gives, §6.2.4.1) and the line-number
// program's state machine (§6.2.5).
#include "abikit/dwarf_line.h"
#include "info_internal.h"

#include <algorithm>

namespace abikit::dwarf {

namespace {

using detail::Cursor;

constexpr uint64_t kLnctPath = 1, kLnctDirectoryIndex = 2, kLnctTimestamp = 3, kLnctSize = 4,
                   kLnctMd5 = 5, kLnctLlvmSource = 0x2001;
constexpr uint64_t kMaxEntries = uint64_t(1) << 24; // far more than any table has

struct Value {
  uint64_t u = 0;
  std::string_view str;
  std::span<const uint8_t> bytes;
  bool is_string = false;
};

// One value of a DWARF 5 entry in `form`.
Value readForm(const DebugInfo& info, Cursor& c, uint64_t form, const LineTableHeader& h,
               const Unit* unit) {
  const SectionBytes& line = info.sections().line;
  Value v;
  const uint64_t at = c.pos();
  const unsigned osize = h.dwarf64 ? 8 : 4;
  switch (form) {
  case DW_FORM_string:
    v.str = c.cstring("a string");
    v.is_string = true;
    break;
  case DW_FORM_line_strp:
  case DW_FORM_strp: {
    const uint64_t off = c.fixed(osize, "a string offset");
    const bool ls = form == DW_FORM_line_strp;
    v.str = detail::stringAt(info, ls ? info.sections().line_str : info.sections().str,
                             ls ? ".debug_line_str" : ".debug_str", off, line, ".debug_line", at);
    v.is_string = true;
    break;
  }
  case DW_FORM_strx:
  case DW_FORM_strx1:
  case DW_FORM_strx2:
  case DW_FORM_strx3:
  case DW_FORM_strx4: {
    const uint64_t index = form == DW_FORM_strx
                               ? c.uleb("a string index")
                               : c.fixed(unsigned(form - DW_FORM_strx1 + 1), "a string index");
    const SectionBytes& so = info.sections().str_offsets;
    const uint64_t base = unit ? unit->str_offsets_base : 0;
    if (!unit || base > so.bytes.size() || (so.bytes.size() - base) / osize <= index)
      c.fail(at, "string index " + std::to_string(index) + " is outside .debug_str_offsets");
    Cursor s(info, so, ".debug_str_offsets", base + index * osize);
    v.str = detail::stringAt(info, info.sections().str, ".debug_str",
                             s.fixed(osize, "a string offset"), line, ".debug_line", at);
    v.is_string = true;
    break;
  }
  case DW_FORM_udata:
    v.u = c.uleb("a value");
    break;
  case DW_FORM_data1:
  case DW_FORM_data2:
  case DW_FORM_data4:
  case DW_FORM_data8: {
    static constexpr unsigned kSize[] = {0, 0, 0, 0, 0, 2, 4, 8, 0, 0, 0, 1}; // by form code
    v.u = c.fixed(kSize[form], "a value");
    break;
  }
  case DW_FORM_data16:
    v.bytes = c.bytes(16, "a 16-byte value");
    break;
  case DW_FORM_block:
    v.bytes = c.bytes(c.uleb("a block length"), "a block");
    break;
  case DW_FORM_block1:
    v.bytes = c.bytes(c.u8("a block length"), "a block");
    break;
  case DW_FORM_block2:
    v.bytes = c.bytes(c.fixed(2, "a block length"), "a block");
    break;
  case DW_FORM_block4:
    v.bytes = c.bytes(c.fixed(4, "a block length"), "a block");
    break;
  case DW_FORM_sec_offset:
    v.u = c.fixed(osize, "an offset");
    break;
  default:
    c.fail(at, "line table entry form 0x" + Cursor::hex(form) + " is not one abikit reads");
  }
  return v;
}

struct Format {
  uint64_t content = 0, form = 0;
};

std::vector<Format> readFormats(Cursor& c, const char* what) {
  std::vector<Format> f(c.u8(what));
  for (Format& x : f) {
    x.content = c.uleb("a content type code");
    x.form = c.uleb("a form code");
  }
  return f;
}

} // namespace

LineTableHeader readLineTableHeader(const DebugInfo& info, uint64_t offset, const Unit* unit) {
  const SectionBytes& line = info.sections().line;
  Cursor c(info, line, ".debug_line");
  if (offset >= line.bytes.size())
    c.fail(offset, "line table offset 0x" + Cursor::hex(offset) + " is outside .debug_line");
  c.seek(offset);
  LineTableHeader h;
  h.offset = offset;
  h.end = c.initialLength("line table", h.dwarf64);
  h.version = uint16_t(c.fixed(2, "the line table's version"));
  if (h.version < 2 || h.version > 5)
    c.fail(c.pos() - 2,
           "line table version " + std::to_string(h.version) + " (abikit reads 2 to 5)");
  if (h.version >= 5) {
    h.address_size = c.u8("the address size");
    h.segment_selector_size = c.u8("the segment selector size");
  }
  const unsigned osize = h.dwarf64 ? 8 : 4;
  h.header_length = c.fixed(osize, "the header length");
  if (h.header_length > c.left())
    c.fail(c.pos() - osize,
           "header length 0x" + Cursor::hex(h.header_length) + " runs past the line table's end");
  h.program_offset = c.pos() + h.header_length;
  c.limit(h.program_offset);
  h.min_inst_length = c.u8("the minimum instruction length");
  if (h.version >= 4) h.max_ops_per_inst = c.u8("the maximum operations per instruction");
  h.default_is_stmt = c.u8("default_is_stmt");
  h.line_base = int8_t(c.u8("line_base"));
  h.line_range = c.u8("line_range");
  h.opcode_base = c.u8("opcode_base");
  if (h.opcode_base > 0) {
    std::span<const uint8_t> l = c.bytes(h.opcode_base - 1u, "the standard opcode lengths");
    h.standard_opcode_lengths.assign(l.begin(), l.end());
  }
  if (h.version < 5) {
    while (true) {
      std::string_view d = c.cstring("an include directory");
      if (d.empty()) break;
      h.include_directories.push_back(d);
    }
    while (true) {
      LineFileEntry e;
      e.name = c.cstring("a file name");
      if (e.name.empty()) break;
      e.dir_index = c.uleb("a directory index");
      e.mtime = c.uleb("a modification time");
      e.length = c.uleb("a file length");
      h.file_names.push_back(e);
    }
    h.has_mtime = h.has_length = true;
    return h;
  }
  const std::vector<Format> dir_formats = readFormats(c, "the directory entry format count");
  uint64_t n = c.uleb("the directory count");
  if (n > kMaxEntries || (n && dir_formats.empty() && n > c.left()))
    c.fail(c.pos(), std::to_string(n) + " directories");
  for (uint64_t i = 0; i < n; ++i) {
    std::string_view dir;
    for (const Format& f : dir_formats) {
      Value v = readForm(info, c, f.form, h, unit);
      if (f.content == kLnctPath) dir = v.str;
    }
    h.include_directories.push_back(dir);
  }
  const std::vector<Format> file_formats = readFormats(c, "the file name entry format count");
  for (const Format& f : file_formats) {
    h.has_mtime |= f.content == kLnctTimestamp;
    h.has_length |= f.content == kLnctSize;
    h.has_md5 |= f.content == kLnctMd5;
    h.has_source |= f.content == kLnctLlvmSource;
  }
  n = c.uleb("the file name count");
  if (n > kMaxEntries || (n && file_formats.empty() && n > c.left()))
    c.fail(c.pos(), std::to_string(n) + " file names");
  for (uint64_t i = 0; i < n; ++i) {
    LineFileEntry e;
    for (const Format& f : file_formats) {
      Value v = readForm(info, c, f.form, h, unit);
      switch (f.content) {
      case kLnctPath:
        e.name = v.str;
        break;
      case kLnctDirectoryIndex:
        e.dir_index = v.u;
        break;
      case kLnctTimestamp:
        e.mtime = v.u;
        break;
      case kLnctSize:
        e.length = v.u;
        break;
      case kLnctMd5:
        if (v.bytes.size() == 16) {
          e.md5.emplace();
          std::copy(v.bytes.begin(), v.bytes.end(), e.md5->begin());
        }
        break;
      case kLnctLlvmSource:
        if (v.is_string) e.source = v.str;
        break;
      default:
        break; // a content type abikit does not know: skipped, as DWARF 5 allows
      }
    }
    h.file_names.push_back(e);
  }
  return h;
}

namespace {

constexpr uint8_t kLnsCopy = 1, kLnsAdvancePc = 2, kLnsAdvanceLine = 3, kLnsSetFile = 4,
                  kLnsSetColumn = 5, kLnsNegateStmt = 6, kLnsSetBasicBlock = 7, kLnsConstAddPc = 8,
                  kLnsFixedAdvancePc = 9, kLnsSetPrologueEnd = 10, kLnsSetEpilogueBegin = 11,
                  kLnsSetIsa = 12;
constexpr uint8_t kLneEndSequence = 1, kLneSetAddress = 2, kLneDefineFile = 3,
                  kLneSetDiscriminator = 4;

// The registers of the state machine (§6.2.2) and what each opcode does to them.
class LineMachine {
public:
  explicit LineMachine(LineTable& t) : t_(t), h_(t.header) { reset(); }

  void reset() {
    row_ = LineRow{};
    row_.file = 1;
    row_.is_stmt = h_.default_is_stmt != 0;
  }
  void emit() {
    t_.rows.push_back(row_);
    row_.discriminator = 0;
    row_.basic_block = row_.prologue_end = row_.epilogue_begin = false;
  }
  // Advances the address and op_index by `ops` operations (§6.2.5.1).
  void advance(uint64_t ops) {
    const uint64_t max_ops = h_.max_ops_per_inst ? h_.max_ops_per_inst : 1;
    if (max_ops == 1) {
      row_.address += h_.min_inst_length * ops;
      return;
    }
    const uint64_t total = row_.op_index + ops;
    row_.address += h_.min_inst_length * (total / max_ops);
    row_.op_index = uint8_t(total % max_ops);
  }
  uint64_t adjusted(uint8_t opcode) const { return uint64_t(opcode - h_.opcode_base); }

  void special(uint8_t opcode) {
    const uint64_t adj = adjusted(opcode);
    advance(adj / h_.line_range);
    row_.line += uint64_t(int64_t(h_.line_base) + int64_t(adj % h_.line_range));
    emit();
  }

  LineRow& row() { return row_; }

private:
  LineTable& t_;
  LineTableHeader& h_;
  LineRow row_;
};

} // namespace

LineTable readLineTable(const DebugInfo& info, uint64_t offset, const Unit* unit) {
  LineTable t;
  t.header = readLineTableHeader(info, offset, unit);
  LineTableHeader& h = t.header;
  Cursor c(info, info.sections().line, ".debug_line");
  c.limit(h.end);
  c.seek(h.program_offset);
  if (h.line_range == 0 && h.program_offset < h.end)
    c.fail(h.offset, "line table with line_range 0 has a program (special opcodes divide by it)");
  const unsigned address_size = h.address_size;
  LineMachine m(t);
  while (!c.atEnd()) {
    const uint64_t at = c.pos();
    const uint8_t op = c.u8("an opcode");
    if (h.opcode_base && op >= h.opcode_base) {
      m.special(op);
      continue;
    }
    LineRow& r = m.row();
    switch (op) {
    case 0: { // extended
      const uint64_t len = c.uleb("an extended opcode's length");
      if (len == 0) c.fail(at, "extended opcode of length 0");
      if (len > c.left()) c.fail(at, "extended opcode runs past the line table's end");
      const uint64_t end = c.pos() + len;
      const uint8_t sub = c.u8("an extended opcode");
      switch (sub) {
      case kLneEndSequence:
        r.end_sequence = true;
        m.emit();
        m.reset();
        break;
      case kLneSetAddress: {
        const uint64_t n = len - 1;
        if (n != 1 && n != 2 && n != 4 && n != 8)
          c.fail(at, "DW_LNE_set_address with a " + std::to_string(n) + "-byte operand");
        if (address_size && n != address_size)
          c.fail(at, "DW_LNE_set_address with a " + std::to_string(n) +
                         "-byte operand in a table of " + std::to_string(address_size) +
                         "-byte addresses");
        r.address = c.fixed(unsigned(n), "an address");
        r.op_index = 0;
        break;
      }
      case kLneDefineFile: {
        LineFileEntry e;
        e.name = c.cstring("a file name");
        e.dir_index = c.uleb("a directory index");
        e.mtime = c.uleb("a modification time");
        e.length = c.uleb("a file length");
        h.file_names.push_back(e);
        break;
      }
      case kLneSetDiscriminator:
        r.discriminator = c.uleb("a discriminator");
        break;
      default:
        break; // skipped by its length, below
      }
      if (c.pos() > end) c.fail(at, "extended opcode longer than its length says");
      c.seek(end);
      break;
    }
    case kLnsCopy:
      m.emit();
      break;
    case kLnsAdvancePc:
      m.advance(c.uleb("an address advance"));
      break;
    case kLnsAdvanceLine:
      r.line += uint64_t(c.sleb("a line advance"));
      break;
    case kLnsSetFile:
      r.file = c.uleb("a file index");
      break;
    case kLnsSetColumn:
      r.column = c.uleb("a column");
      break;
    case kLnsNegateStmt:
      r.is_stmt = !r.is_stmt;
      break;
    case kLnsSetBasicBlock:
      r.basic_block = true;
      break;
    case kLnsConstAddPc:
      m.advance(m.adjusted(255) / h.line_range);
      break;
    case kLnsFixedAdvancePc:
      r.address += c.fixed(2, "an address advance");
      r.op_index = 0;
      break;
    case kLnsSetPrologueEnd:
      r.prologue_end = true;
      break;
    case kLnsSetEpilogueBegin:
      r.epilogue_begin = true;
      break;
    case kLnsSetIsa:
      r.isa = c.uleb("an ISA");
      break;
    default: // a standard opcode beyond DWARF 5's (13 <= op < opcode_base): ULEB128 operands
      // With opcode_base 0 no standard opcode has an operand count: the header gave none.
      if (op - 1u >= h.standard_opcode_lengths.size())
        c.fail(at, "opcode " + std::to_string(op) + " has no operand count in the header " +
                       "(opcode_base " + std::to_string(h.opcode_base) + ")");
      for (uint8_t i = 0; i < h.standard_opcode_lengths[op - 1u]; ++i) c.uleb("an operand");
      break;
    }
  }
  return t;
}

std::vector<LineTable> readLineTables(const DebugInfo& info) {
  std::vector<LineTable> out;
  const SectionBytes& line = info.sections().line;
  // The unit that names each table, for the string offsets of strx forms.
  std::vector<std::pair<uint64_t, const Unit*>> owners;
  for (const Unit& u : info.units()) {
    if (u.dies.empty()) continue;
    std::optional<AttrValue> s = info.attribute(u, u.dies[0], DW_AT_stmt_list);
    if (s && (s->kind == AttrValue::Kind::SecOffset || s->kind == AttrValue::Kind::Constant))
      owners.emplace_back(s->u, &u);
  }
  std::sort(owners.begin(), owners.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });
  uint64_t offset = 0;
  while (offset < line.bytes.size()) {
    auto it = std::lower_bound(owners.begin(), owners.end(), offset,
                               [](const auto& o, uint64_t v) { return o.first < v; });
    const Unit* unit = it != owners.end() && it->first == offset ? it->second : nullptr;
    out.push_back(readLineTable(info, offset, unit));
    offset = out.back().header.end;
  }
  return out;
}

namespace {

bool absolute(std::string_view p) {
  return p.starts_with('/') || p.starts_with('\\') ||
         (p.size() >= 3 && p[1] == ':' && (p[2] == '\\' || p[2] == '/'));
}

// sys::path::append: components joined by '/', empty ones skipped.
void append(std::string& path, std::string_view part) {
  if (part.empty()) return;
  if (!path.empty() && path.back() != '/' && !part.starts_with('/')) path += '/';
  path += part;
}

} // namespace

std::optional<std::string> lineFileName(const LineTableHeader& h, uint64_t index,
                                        std::string_view comp_dir) {
  const bool v5 = h.version >= 5;
  if (v5 ? index >= h.file_names.size() : (index == 0 || index > h.file_names.size()))
    return std::nullopt;
  const LineFileEntry& e = h.file_names[size_t(v5 ? index : index - 1)];
  if (absolute(e.name)) return std::string(e.name);
  std::string_view dir;
  if (v5) {
    if (e.dir_index < h.include_directories.size()) dir = h.include_directories[e.dir_index];
  } else if (e.dir_index > 0 && e.dir_index <= h.include_directories.size()) {
    dir = h.include_directories[e.dir_index - 1];
  }
  std::string path;
  if ((!v5 || e.dir_index != 0) && !comp_dir.empty() && !absolute(dir)) append(path, comp_dir);
  append(path, dir);
  append(path, e.name);
  return path;
}

std::optional<UnitLines> unitLines(const DebugInfo& info, const Unit& unit) {
  if (unit.dies.empty()) return std::nullopt;
  std::optional<AttrValue> stmt = info.attribute(unit, unit.dies[0], DW_AT_stmt_list);
  if (!stmt ||
      (stmt->kind != AttrValue::Kind::SecOffset && stmt->kind != AttrValue::Kind::Constant))
    return std::nullopt;
  UnitLines l;
  l.header = readLineTableHeader(info, stmt->u, &unit);
  if (std::optional<AttrValue> d = info.attribute(unit, unit.dies[0], DW_AT_comp_dir);
      d && d->kind == AttrValue::Kind::String)
    l.comp_dir = d->str;
  return l;
}

} // namespace abikit::dwarf
