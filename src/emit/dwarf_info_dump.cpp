// `abikit dwarf --debug-info`: the units and DIEs of .debug_info laid out as llvm-dwarfdump-22
// prints them (DWARFUnit/DWARFDie/DWARFFormValue dump, non-verbose), and the same as JSON
// (cli-contract.md "dwarf"). Both read one rendering of each attribute (Rendered): the text
// prints it between the parentheses, the JSON gives its parts.
#include "abikit/dwarf.h"
#include "abikit/dwarf_info.h"
#include "abikit/dwarf_line.h"
#include "abikit/emit.h"
#include "dump_text.h"
#include "json_writer.h"

#include <array>
#include <bit>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <unordered_map>

namespace abikit {

using detail::decTo;
using detail::escapedTo;
using detail::hexStr;
using detail::hexTo;
using detail::nameOr;
using detail::unknownNameTo;

namespace {

using dwarf::AttrValue;
using AK = dwarf::AttrValue::Kind;

bool mayHaveLocationList(uint16_t a) {
  using namespace dwarf;
  switch (a) {
  case DW_AT_location:
  case DW_AT_string_length:
  case DW_AT_return_addr:
  case DW_AT_data_member_location:
  case DW_AT_frame_base:
  case DW_AT_static_link:
  case DW_AT_segment:
  case DW_AT_use_location:
  case DW_AT_vtable_elem_location:
    return true;
  default:
    return false;
  }
}

bool mayHaveLocationExpr(uint16_t a) {
  using namespace dwarf;
  switch (a) {
  case DW_AT_location:
  case DW_AT_byte_size:
  case DW_AT_bit_offset:
  case DW_AT_bit_size:
  case DW_AT_string_length:
  case DW_AT_lower_bound:
  case DW_AT_return_addr:
  case DW_AT_bit_stride:
  case DW_AT_upper_bound:
  case DW_AT_count:
  case DW_AT_data_member_location:
  case DW_AT_frame_base:
  case DW_AT_segment:
  case DW_AT_static_link:
  case DW_AT_use_location:
  case DW_AT_vtable_elem_location:
  case DW_AT_allocated:
  case DW_AT_associated:
  case DW_AT_data_location:
  case DW_AT_byte_stride:
  case DW_AT_rank:
  case DW_AT_call_value:
  case DW_AT_call_origin:
  case DW_AT_call_target:
  case DW_AT_call_target_clobbered:
  case DW_AT_call_data_location:
  case DW_AT_call_data_value:
  case DW_AT_GNU_call_site_value:
  case DW_AT_GNU_call_site_target:
    return true;
  default:
    return false;
  }
}

bool isBlockForm(uint16_t f) {
  using namespace dwarf;
  return f == DW_FORM_block || f == DW_FORM_block1 || f == DW_FORM_block2 || f == DW_FORM_block4;
}

// The unsigned constant llvm-dwarfdump reads from a constant or flag form (not sdata).
std::optional<uint64_t> unsignedConstant(const AttrValue& v) {
  if ((v.kind == AK::Constant || v.kind == AK::Flag) && v.form != dwarf::DW_FORM_sdata) return v.u;
  return std::nullopt;
}

// Section-offset class (DWARF 5 §7.5.5, and data4/data8 before DWARF 4).
bool isSectionOffset(const AttrValue& v, unsigned version) {
  using namespace dwarf;
  return v.kind == AK::SecOffset || v.kind == AK::LocListX || v.kind == AK::RngListX ||
         ((v.form == DW_FORM_data4 || v.form == DW_FORM_data8) && version <= 3);
}

struct Range {
  uint64_t begin = 0, end = 0;
  bool is_default = false;
  std::string expression; // location lists
};

// One attribute as llvm-dwarfdump renders it.
struct Rendered {
  std::string text;       // what the text dump prints between the parentheses
  std::string expression; // an exprloc (or location block), display form
  bool has_expression = false;
  bool has_list = false; // a location list (ranges hold its entries) or a range list
  uint64_t list_offset = 0;
  std::vector<Range> ranges;
  std::string extra;      // the name after a reference (type, origin), unquoted
  std::string value_name; // the name shown instead of a constant (DW_LANG_C11, a file path)
};

class BaseTypes final : public dwarf::BaseTypeNames {
public:
  BaseTypes(const dwarf::DebugInfo& info, const dwarf::Unit& unit) : info_(info), unit_(unit) {}
  bool baseType(uint64_t offset, uint64_t& at, std::string_view& name) const override {
    const dwarf::Unit* u = nullptr;
    uint32_t i = 0;
    at = unit_.header.offset + offset;
    if (!info_.findDie(at, u, i) || u != &unit_ || u->dies[i].tag != dwarf::DW_TAG_base_type)
      return false;
    std::optional<AttrValue> n = info_.attribute(*u, u->dies[i], dwarf::DW_AT_name);
    name = n && n->kind == AK::String ? n->str : std::string_view();
    return true;
  }

private:
  const dwarf::DebugInfo& info_;
  const dwarf::Unit& unit_;
};

class Renderer {
public:
  Renderer(const Target& target, const dwarf::DebugInfo& info, const DwarfDumpOptions& options)
      : target_(target), info_(info), hetero_(dwarf::heteroAttrCodes(options.attribute_codes)) {}

  std::string_view attrName(uint16_t a, std::string& scratch) const {
    std::string_view n = hetero_.nameOf(a);
    if (n.empty()) n = dwarf::attrName(a);
    if (!n.empty()) return n;
    scratch.clear();
    unknownNameTo(scratch, "DW_AT", a);
    return scratch;
  }

  void startUnit(const dwarf::Unit& u) {
    unit_ = &u;
    lines_ = dwarf::unitLines(info_, u);
    files_.clear();
    base_types_.emplace(info_, u);
    format_ = dwarf::exprFormat(u, info_.sections().endian);
    display_ = dwarf::displayOptionsFor(target_, format_.encoding);
    display_.base_types = &*base_types_;
  }

  /// `attrs`: all of the DIE's attributes (DW_AT_high_pc reads DW_AT_low_pc there). The text
  /// goes to `t` (the output itself, for the text dump); with `parts_` the JSON's parts are kept
  /// in `r` too.
  void render(const dwarf::Die& die, std::span<const AttrValue> attrs, const AttrValue& v,
              Rendered& r, std::string& t) {
    using namespace dwarf;
    r.expression.clear();
    r.extra.clear();
    r.value_name.clear();
    r.ranges.clear();
    r.has_expression = r.has_list = false;
    r.list_offset = 0;
    const unsigned version = unit_->header.version;
    const unsigned as = unit_->header.address_size;
    std::string_view name;
    std::string file;
    if (v.name == DW_AT_decl_file || v.name == DW_AT_call_file) {
      if (std::optional<uint64_t> k = unsignedConstant(v)) {
        if (const std::string* f = fileName(*k)) {
          if (parts_) r.value_name = *f;
          file = '"' + *f + '"';
          name = file;
        }
      }
    } else if (std::optional<uint64_t> k = unsignedConstant(v)) {
      name = attrValueName(v.name, *k);
      r.value_name = name;
    }
    if (!name.empty()) {
      t += name;
    } else if (v.name == DW_AT_decl_line || v.name == DW_AT_decl_column ||
               v.name == DW_AT_call_line || v.name == DW_AT_call_column) {
      if (std::optional<uint64_t> k = unsignedConstant(v))
        decTo(t, *k);
      else
        formValue(v, t);
    } else if (v.name == DW_AT_low_pc && v.kind == AK::Address &&
               v.u == (as >= 8 ? ~uint64_t(0) : (uint64_t(1) << (8 * as)) - 1)) {
      t += "dead code";
    } else if (v.name == DW_AT_high_pc && unsignedConstant(v)) {
      const AttrValue* low = nullptr;
      for (const AttrValue& a : attrs)
        if (a.name == DW_AT_low_pc) {
          low = &a;
          break;
        }
      const uint64_t tomb = as >= 8 ? ~uint64_t(0) : (uint64_t(1) << (8 * as)) - 1;
      if (low && low->kind == AK::Address && low->u != tomb)
        hexTo(t, low->u + v.u, int(2 * as));
      else
        formValue(v, t);
    } else if (mayHaveLocationList(v.name) && isSectionOffset(v, version)) {
      locationList(v, r, t);
    } else if (v.kind == AK::Exprloc || (mayHaveLocationExpr(v.name) && isBlockForm(v.form))) {
      r.has_expression = true;
      if (parts_) {
        expression(v.bytes, r.expression, false);
        t += r.expression;
      } else {
        expression(v.bytes, t, false);
      }
    } else {
      formValue(v, t);
    }

    if (v.name == DW_AT_specification || v.name == DW_AT_abstract_origin ||
        v.name == DW_AT_call_origin) {
      if (v.kind == AK::Reference) {
        std::string_view n = cachedLinkageName(v.u);
        if (!n.empty()) {
          if (parts_) r.extra = n;
          t += " \"";
          t += n;
          t += '"';
        }
      }
    } else if (v.name == DW_AT_type || v.name == DW_AT_containing_type) {
      if (v.kind == AK::Reference) {
        if (const std::string* n = typeName(v.u)) {
          if (parts_) r.extra = *n;
          t += " \"";
          t += *n;
          t += '"';
        }
      }
    } else if (v.name == DW_AT_ranges) {
      rangeList(die, v, r, t);
    }
  }

private:
  const Target& target_;
  const dwarf::DebugInfo& info_;
  dwarf::HeteroAttrCodes hetero_;
  const dwarf::Unit* unit_ = nullptr;
  std::optional<BaseTypes> base_types_;
  dwarf::ExprFormat format_;
  dwarf::DisplayOptions display_;
  dwarf::Expression expr_;
  std::vector<dwarf::LocEntry> locs_;
  std::vector<dwarf::PcRange> pcs_;
  std::optional<dwarf::UnitLines> lines_;         // the unit's line table, for DW_AT_decl_file
  std::vector<std::optional<std::string>> files_; // its paths, made when first named

  const std::string* fileName(uint64_t index) {
    if (!lines_) return nullptr;
    const size_t n = lines_->header.file_names.size() + 1;
    if (index >= n) return nullptr;
    if (files_.empty()) files_.resize(n);
    if (!files_[size_t(index)])
      files_[size_t(index)] =
          dwarf::lineFileName(lines_->header, index, lines_->comp_dir).value_or(std::string());
    return files_[size_t(index)]->empty() ? nullptr : &*files_[size_t(index)];
  }

  // Names by DIE offset: the same types and origins are named again and again.
  std::unordered_map<uint64_t, std::string> type_names_;
  std::unordered_map<uint64_t, std::string_view> origin_names_;

  const std::string* typeName(uint64_t offset) {
    auto it = type_names_.find(offset);
    if (it == type_names_.end()) {
      const dwarf::Unit* u = nullptr;
      uint32_t i = 0;
      if (!info_.findDie(offset, u, i)) return nullptr;
      std::string n;
      info_.dumpTypeName(offset, n);
      it = type_names_.emplace(offset, std::move(n)).first;
    }
    return &it->second;
  }

  std::string_view cachedLinkageName(uint64_t offset) {
    auto it = origin_names_.find(offset);
    if (it == origin_names_.end()) it = origin_names_.emplace(offset, linkageName(offset)).first;
    return it->second;
  }

  int addrWidth() const { return int(2 * unit_->header.address_size); }

  void expression(std::span<const uint8_t> bytes, std::string& out, bool in_list) {
    dwarf::ExprFormat f = format_;
    if (in_list) f.offset_size = 4; // llvm-dwarfdump reads list expressions as DWARF32
    try {
      dwarf::decode(bytes, f, expr_);
    } catch (const Error&) {
      // llvm-dwarfdump prints what it decoded, then "<decoding error>" and the bytes left; abikit
      // decodes all or nothing.
      out += "<decoding error>";
      for (uint8_t b : bytes) {
        char x[4];
        std::snprintf(x, sizeof x, " %02x", b);
        out += x;
      }
      return;
    }
    dwarf::toDisplay(expr_, display_, out);
  }

  std::string_view linkageName(uint64_t offset) const {
    using namespace dwarf;
    const Unit* u = nullptr;
    uint32_t i = 0;
    if (!info_.findDie(offset, u, i)) return {};
    for (uint16_t a : {uint16_t(DW_AT_MIPS_linkage_name), uint16_t(DW_AT_linkage_name)})
      if (auto n = info_.inheritedAttribute(*u, u->dies[i], a); n && n->kind == AK::String)
        return n->str;
    return info_.name(*u, u->dies[i]);
  }

  void locationList(const AttrValue& v, Rendered& r, std::string& t) {
    if (v.form == dwarf::DW_FORM_loclistx) {
      t += "indexed (";
      hexTo(t, v.u, 1);
      t += ") loclist = ";
    }
    r.has_list = true;
    r.list_offset = info_.listOffset(*unit_, v);
    info_.locationList(*unit_, v, locs_);
    hexTo(t, r.list_offset, 8);
    t += ": ";
    const size_t indent = size_t(13 + 4 + indent_);
    for (const dwarf::LocEntry& e : locs_) {
      t += '\n';
      t.append(indent, ' ');
      if (e.is_default) {
        t += "<default>";
      } else {
        t += '[';
        hexTo(t, e.begin, addrWidth());
        t += ", ";
        hexTo(t, e.end, addrWidth());
        t += ')';
      }
      t += ": ";
      if (parts_) {
        Range g;
        g.begin = e.begin;
        g.end = e.end;
        g.is_default = e.is_default;
        expression(e.expression, g.expression, true);
        t += g.expression;
        r.ranges.push_back(std::move(g));
      } else {
        expression(e.expression, t, true);
      }
    }
  }

  void rangeList(const dwarf::Die& die, const AttrValue& v, Rendered& r, std::string& t) {
    // llvm-dwarfdump prints the list's offset as a DWARF32 sec_offset, in 64-bit units too.
    if (v.form == dwarf::DW_FORM_rnglistx) hexTo(t, info_.listOffset(*unit_, v), 8);
    r.has_list = true;
    info_.pcRanges(*unit_, die, pcs_);
    const size_t indent = size_t(13 + 4 + indent_);
    for (const dwarf::PcRange& p : pcs_) {
      t += '\n';
      t.append(indent, ' ');
      t += '[';
      hexTo(t, p.begin, addrWidth());
      t += ", ";
      hexTo(t, p.end, addrWidth());
      t += ')';
      if (parts_) r.ranges.push_back({p.begin, p.end, false, {}});
    }
  }

  // DWARFFormValue::dump, non-verbose.
  void formValue(const AttrValue& v, std::string& t) {
    using namespace dwarf;
    const int offw = int(2 * unit_->header.offset_size);
    switch (v.form) {
    case DW_FORM_addr:
    case DW_FORM_addrx:
    case DW_FORM_addrx1:
    case DW_FORM_addrx2:
    case DW_FORM_addrx3:
    case DW_FORM_addrx4:
    case DW_FORM_GNU_addr_index:
      hexTo(t, v.u, addrWidth());
      return;
    case DW_FORM_flag_present:
      t += "true";
      return;
    case DW_FORM_flag:
    case DW_FORM_data1:
      hexTo(t, v.u & 0xff, 2);
      return;
    case DW_FORM_data2:
      hexTo(t, v.u & 0xffff, 4);
      return;
    case DW_FORM_data4:
      hexTo(t, v.u & 0xffffffffu, 8);
      return;
    case DW_FORM_data8:
    case DW_FORM_ref_sig8:
    case DW_FORM_ref_addr:
      hexTo(t, v.u, 16);
      return;
    case DW_FORM_data16:
      for (uint8_t b : v.bytes) {
        char x[3];
        std::snprintf(x, sizeof x, "%02x", b);
        t += x;
      }
      return;
    case DW_FORM_exprloc:
    case DW_FORM_block:
    case DW_FORM_block1:
    case DW_FORM_block2:
    case DW_FORM_block4:
      if (!v.bytes.empty()) {
        const size_t n = v.bytes.size();
        t += '<';
        hexTo(t, n,
              v.form == DW_FORM_block1   ? 2
              : v.form == DW_FORM_block2 ? 4
              : v.form == DW_FORM_block4 ? 8
                                         : 1);
        t += "> ";
        for (uint8_t b : v.bytes) {
          char x[4];
          std::snprintf(x, sizeof x, "%02x ", b);
          t += x;
        }
      }
      return;
    case DW_FORM_sdata:
    case DW_FORM_implicit_const:
      decTo(t, v.s);
      return;
    case DW_FORM_udata:
      decTo(t, v.u);
      return;
    case DW_FORM_string:
    case DW_FORM_strp:
    case DW_FORM_line_strp:
    case DW_FORM_strx:
    case DW_FORM_strx1:
    case DW_FORM_strx2:
    case DW_FORM_strx3:
    case DW_FORM_strx4:
    case DW_FORM_GNU_str_index:
      if (v.kind == AK::String) {
        t += '"';
        escapedTo(t, v.str);
        t += '"';
      }
      return;
    case DW_FORM_ref1:
    case DW_FORM_ref2:
    case DW_FORM_ref4:
    case DW_FORM_ref8:
    case DW_FORM_ref_udata:
      hexTo(t, v.u, 8);
      return;
    case DW_FORM_GNU_ref_alt:
      t += "<alt " + hexStr(v.u) + ">";
      return;
    case DW_FORM_rnglistx:
      t += "indexed (" + hexStr(v.u) + ") rangelist = ";
      return;
    case DW_FORM_loclistx:
      t += "indexed (" + hexStr(v.u) + ") loclist = ";
      return;
    case DW_FORM_sec_offset:
      hexTo(t, v.u, offw);
      return;
    default:
      t += "DW_FORM(" + hexStr(v.form, 4) + ")";
      return;
    }
  }

public:
  unsigned indent_ = 0;
  bool parts_ = false; // JSON: keep each part of the rendering in Rendered
};

void unitHeaderText(const dwarf::DebugInfo& info, const dwarf::Unit& u, std::string& t) {
  using namespace dwarf;
  const UnitHeader& h = u.header;
  const bool type_unit = h.unit_type == DW_UT_type || h.unit_type == DW_UT_split_type;
  hexTo(t, h.offset, 8);
  t += type_unit ? ": Type Unit:" : ": Compile Unit:";
  t += " length = ";
  const uint64_t length = h.end - h.offset - (h.offset_size == 8 ? 12 : 4);
  hexTo(t, length, 2 * h.offset_size);
  t += h.offset_size == 8 ? ", format = DWARF64" : ", format = DWARF32";
  t += ", version = ";
  hexTo(t, h.version, 4);
  if (h.version >= 5) {
    static constexpr std::string_view kUt[] = {"",
                                               "DW_UT_compile",
                                               "DW_UT_type",
                                               "DW_UT_partial",
                                               "DW_UT_skeleton",
                                               "DW_UT_split_compile",
                                               "DW_UT_split_type"};
    t += ", unit_type = ";
    t += h.unit_type < 7 ? kUt[h.unit_type] : std::string_view("DW_UT_unknown");
  }
  t += ", abbr_offset = ";
  hexTo(t, h.abbrev_offset, 4);
  t += ", addr_size = ";
  hexTo(t, h.address_size, 2);
  if (type_unit) {
    t += ", name = '";
    const Unit* tu = nullptr;
    uint32_t i = 0;
    if (info.findDie(h.offset + h.type_offset, tu, i)) t += info.name(*tu, tu->dies[i]);
    t += "', type_signature = ";
    hexTo(t, h.type_signature, 16);
    t += ", type_offset = ";
    hexTo(t, h.type_offset, 4);
  } else if (h.version >= 5 &&
             (h.unit_type == DW_UT_skeleton || h.unit_type == DW_UT_split_compile)) {
    t += ", DWO_id = ";
    hexTo(t, h.dwo_id, 16);
  }
  t += " (next unit at ";
  hexTo(t, h.end, 8);
  t += ")\n";
}

void tagText(uint16_t tag, std::string& t) {
  std::string_view n = dwarf::tagName(tag);
  if (!n.empty())
    t += n;
  else
    unknownNameTo(t, "DW_TAG", tag);
}

// Walks the DIEs of a unit in order, with the null entries that end each list of children.
template <class Begin, class End> void walk(const dwarf::Unit& u, Begin&& begin, End&& end) {
  std::vector<uint32_t> open;
  for (uint32_t i = 0; i < u.dies.size(); ++i) {
    while (!open.empty() && u.dies[open.back()].next <= i) {
      end(u.dies[open.back()]);
      open.pop_back();
    }
    const dwarf::Die& d = u.dies[i];
    begin(d);
    if (u.abbrevs->abbrevs[d.abbrev].children) open.push_back(i);
  }
  while (!open.empty()) {
    end(u.dies[open.back()]);
    open.pop_back();
  }
}

// Reads everything the dump of units [first, end) reads, throwing what the dump would throw.
// (Checking first and then streaming is faster than holding the text: tens of megabytes of it
// cost more in page faults and copies than a second reading of the attributes.)
void checkUnits(const dwarf::DebugInfo& info, size_t first) {
  std::vector<AttrValue> attrs;
  std::vector<dwarf::LocEntry> locs;
  std::vector<dwarf::PcRange> ranges;
  std::span<const dwarf::Unit> units = info.units();
  for (size_t k = first; k < units.size(); ++k) {
    const dwarf::Unit& u = units[k];
    (void)dwarf::unitLines(info, u); // DW_AT_decl_file names come from the line table
    for (const dwarf::Die& d : u.dies) {
      info.attributes(u, d, attrs);
      for (const AttrValue& v : attrs) {
        if (v.name == dwarf::DW_AT_ranges) {
          if (v.kind == AK::RngListX) (void)info.listOffset(u, v);
          info.pcRanges(u, d, ranges);
        } else if (mayHaveLocationList(v.name) && isSectionOffset(v, u.header.version)) {
          (void)info.listOffset(u, v);
          info.locationList(u, v, locs);
        }
      }
    }
  }
}

} // namespace

void checkDwarfInfoDump(const dwarf::DebugInfo& info) {
  checkUnits(info, 0);
}

void dwarfInfoText(const Target& target, const dwarf::DebugInfo& info,
                   const DwarfDumpOptions& options, OutputSink& sink) {
  std::string& t = sink.buffer();
  t += ".debug_info contents:\n";
  Renderer r(target, info, options);
  std::vector<AttrValue> attrs;
  Rendered rendered;
  std::string scratch;
  for (const dwarf::Unit& u : info.units()) {
    unitHeaderText(info, u, t);
    r.startUnit(u);
    walk(
        u,
        [&](const dwarf::Die& d) {
          t += '\n';
          hexTo(t, d.offset, 8);
          t += ": ";
          t.append(size_t(2 * d.depth), ' ');
          tagText(d.tag, t);
          t += '\n';
          r.indent_ = 2 * d.depth;
          info.attributes(u, d, attrs);
          for (const AttrValue& v : attrs) {
            t.append(size_t(12 + 2 * d.depth + 2), ' ');
            t += r.attrName(v.name, scratch);
            t += "\t(";
            r.render(d, attrs, v, rendered, t);
            t += ")\n";
          }
          sink.drain();
        },
        [&](const dwarf::Die& d) {
          if (!d.null_at) return;
          t += '\n';
          hexTo(t, d.null_at, 8);
          t += ": ";
          t.append(size_t(2 * d.depth + 2), ' ');
          t += "NULL\n";
        });
  }
}

std::string dwarfInfoText(const Target& target, const dwarf::DebugInfo& info,
                          const DwarfDumpOptions& options) {
  checkDwarfInfoDump(info);
  OutputSink sink; // keeps everything
  dwarfInfoText(target, info, options, sink);
  return std::move(sink.buffer());
}

std::string dwarfInfoJson(const Target& target, const dwarf::DebugInfo& info,
                          const DwarfDumpOptions& options, bool units,
                          std::span<const std::string> frames, std::string_view lines,
                          std::string_view names) {
  detail::TextBuffer out;
  detail::JsonWriter<detail::kJsonCompact> j(out);
  Renderer r(target, info, options);
  r.parts_ = true;
  std::vector<AttrValue> attrs;
  Rendered rendered;
  std::string scratch;
  j.beginObject();
  j.field("schema", "abikit/1");
  j.field("file", info.sections().file);
  if (!frames.empty()) {
    j.key("frames");
    j.beginArray();
    for (const std::string& f : frames) j.value(detail::RawJson{f});
    j.endArray();
  }
  if (!lines.empty()) {
    j.key("lines");
    j.value(detail::RawJson{lines});
  }
  if (!names.empty()) {
    j.key("names");
    j.value(detail::RawJson{names});
  }
  if (!units) {
    j.endObject();
    out.put('\n');
    return out.take();
  }
  j.key("units");
  j.beginArray();
  for (const dwarf::Unit& u : info.units()) {
    const dwarf::UnitHeader& h = u.header;
    static constexpr std::string_view kUt[] = {"",         "compile",       "type",      "partial",
                                               "skeleton", "split_compile", "split_type"};
    j.beginObject();
    j.field("offset", h.offset);
    j.field("version", unsigned(h.version));
    j.field("format", h.offset_size == 8 ? "dwarf64" : "dwarf32");
    j.field("unit_type", h.unit_type < 7 ? kUt[h.unit_type] : std::string_view("unknown"));
    j.field("address_size", unsigned(h.address_size));
    j.field("abbrev_offset", h.abbrev_offset);
    j.key("dies");
    j.beginArray();
    r.startUnit(u);
    walk(
        u,
        [&](const dwarf::Die& d) {
          j.beginObject();
          j.field("offset", hexStr(d.offset));
          std::string tag;
          tagText(d.tag, tag);
          j.field("tag", tag);
          j.key("attributes");
          j.beginArray();
          r.indent_ = 2 * d.depth;
          info.attributes(u, d, attrs);
          for (const AttrValue& v : attrs) {
            rendered.text.clear();
            r.render(d, attrs, v, rendered, rendered.text);
            j.beginObject();
            j.field("name", r.attrName(v.name, scratch));
            j.field("form", nameOr(dwarf::formName(v.form), "DW_FORM", v.form));
            if (rendered.has_expression) {
              j.field("expression", rendered.expression);
            } else if (rendered.has_list && v.name != dwarf::DW_AT_ranges) {
              j.field("list_offset", hexStr(rendered.list_offset));
              j.key("locations");
              j.beginArray();
              for (const Range& g : rendered.ranges) {
                j.beginObject();
                if (g.is_default) {
                  j.field("default", true);
                } else {
                  j.field("begin", hexStr(g.begin));
                  j.field("end", hexStr(g.end));
                }
                j.field("expression", g.expression);
                j.endObject();
              }
              j.endArray();
            } else {
              switch (v.kind) {
              case AK::String:
                j.field("value", v.str);
                break;
              case AK::Flag:
                j.field("value", v.u != 0);
                break;
              case AK::Constant:
                if (v.form == dwarf::DW_FORM_sdata || v.form == dwarf::DW_FORM_implicit_const)
                  j.field("value", v.s);
                else if (v.form == dwarf::DW_FORM_data16)
                  j.field("value", rendered.text);
                else
                  j.field("value", v.u);
                break;
              case AK::Block:
              case AK::Exprloc: {
                std::string b;
                for (uint8_t x : v.bytes) {
                  char s[4];
                  std::snprintf(s, sizeof s, b.empty() ? "%02x" : " %02x", x);
                  b += s;
                }
                j.field("value", b);
                break;
              }
              default:
                j.field("value", hexStr(v.u));
                break;
              }
              // What llvm-dwarfdump shows besides the value: an enumerator or file name, the
              // referenced type's or origin's name, the ranges.
              if (!rendered.value_name.empty()) j.field("text", rendered.value_name);
              if (!rendered.extra.empty()) j.field("names", rendered.extra);
              if (v.name == dwarf::DW_AT_ranges) {
                j.key("ranges");
                j.beginArray();
                for (const Range& g : rendered.ranges) {
                  j.beginObject();
                  j.field("begin", hexStr(g.begin));
                  j.field("end", hexStr(g.end));
                  j.endObject();
                }
                j.endArray();
              }
            }
            j.endObject();
          }
          j.endArray();
          if (info.units().empty() || !u.abbrevs->abbrevs[d.abbrev].children) {
            j.endObject();
          } else {
            j.key("children");
            j.beginArray();
          }
        },
        [&](const dwarf::Die&) {
          j.endArray();
          j.endObject();
        });
    j.endArray();
    j.endObject();
  }
  j.endArray();
  j.endObject();
  out.put('\n');
  return out.take();
}

} // namespace abikit
