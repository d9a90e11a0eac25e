// The debug-information reader: unit headers, abbreviation tables, the DIE index and attribute
// values of every form (DWARF 5 §7.5).
#include "info_internal.h"

#include <algorithm>
#include <charconv>

namespace abikit::dwarf {

using detail::Cursor;

std::string Cursor::hex(uint64_t v) {
  char buf[17];
  auto r = std::to_chars(buf, buf + sizeof buf, v, 16);
  return std::string(buf, r.ptr);
}

namespace {

constexpr uint16_t kMaxDepth = 65535;
constexpr unsigned kMaxIndirect = 8;

} // namespace

std::string_view tagName(uint16_t tag) {
  switch (tag) {
#define ABIKIT_DW_TAG(n, c)                                                                        \
  case c:                                                                                          \
    return "DW_TAG_" #n;
#define ABIKIT_DW_AT(n, c)
#define ABIKIT_DW_FORM(n, c)
#include "abikit/dwarf_constants.def"
  }
  return {};
}

std::string_view attrName(uint16_t attr) {
  switch (attr) {
#define ABIKIT_DW_TAG(n, c)
#define ABIKIT_DW_AT(n, c)                                                                         \
  case c:                                                                                          \
    return "DW_AT_" #n;
#define ABIKIT_DW_FORM(n, c)
#include "abikit/dwarf_constants.def"
  }
  return {};
}

std::string_view formName(uint16_t form) {
  switch (form) {
#define ABIKIT_DW_TAG(n, c)
#define ABIKIT_DW_AT(n, c)
#define ABIKIT_DW_FORM(n, c)                                                                       \
  case c:                                                                                          \
    return "DW_FORM_" #n;
#include "abikit/dwarf_constants.def"
  }
  return {};
}

const Abbrev* AbbrevTable::find(uint64_t code) const {
  if (code - 1 < by_code.size()) {
    uint32_t i = by_code[size_t(code - 1)];
    return i ? &abbrevs[i - 1] : nullptr;
  }
  if (!by_code.empty() || abbrevs.empty()) return nullptr;
  // Sparse codes: abbrevs is sorted by code.
  auto it = std::lower_bound(abbrevs.begin(), abbrevs.end(), code,
                             [](const Abbrev& a, uint64_t c) { return a.code < c; });
  return it != abbrevs.end() && it->code == code ? &*it : nullptr;
}

void DebugInfo::fail(const SectionBytes& section, std::string_view section_name, uint64_t offset,
                     std::string message) const {
  throw Error::atOffset(std::string(section_name) + "+0x" + Cursor::hex(offset) + ": " +
                            std::move(message),
                        s_.file, section.file_offset + offset);
}

std::string_view detail::stringAt(const DebugInfo& info, const SectionBytes& s,
                                  std::string_view name, uint64_t offset, const SectionBytes& from,
                                  std::string_view from_name, uint64_t at) {
  if (offset >= s.bytes.size())
    info.fail(from, from_name, at,
              "string offset 0x" + Cursor::hex(offset) + " is outside " + std::string(name) +
                  " (0x" + Cursor::hex(s.bytes.size()) + " bytes)");
  Cursor c(info, s, name, offset);
  return c.cstring("a string");
}

DebugInfo::DebugInfo(DebugSections sections) : s_(std::move(sections)) {
  Cursor c(*this, s_.info, ".debug_info");
  while (!c.atEnd()) {
    Unit u;
    UnitHeader& h = u.header;
    h.offset = c.pos();
    bool dwarf64 = false;
    h.end = c.initialLength("unit", dwarf64);
    if (dwarf64) h.offset_size = 8;
    h.version = uint16_t(c.fixed(2, "the unit version"));
    if (h.version < 2 || h.version > 5)
      c.fail(h.offset + (h.offset_size == 8 ? 12 : 4),
             "unit version " + std::to_string(h.version) + " (abikit reads 2 to 5)");
    if (h.version >= 5) {
      h.unit_type = c.u8("the unit type");
      h.address_size = c.u8("the address size");
      h.abbrev_offset = c.fixed(h.offset_size, "the abbreviation offset");
      switch (h.unit_type) {
      case DW_UT_compile:
      case DW_UT_partial:
        break;
      case DW_UT_skeleton:
      case DW_UT_split_compile:
        h.dwo_id = c.fixed(8, "the DWO id");
        break;
      case DW_UT_type:
      case DW_UT_split_type:
        h.type_signature = c.fixed(8, "the type signature");
        h.type_offset = c.fixed(h.offset_size, "the type offset");
        break;
      default:
        c.fail(c.pos() - 1 - 1 - h.offset_size, "unknown unit type 0x" + Cursor::hex(h.unit_type));
      }
    } else {
      h.abbrev_offset = c.fixed(h.offset_size, "the abbreviation offset");
      h.address_size = c.u8("the address size");
    }
    if (h.address_size != 1 && h.address_size != 2 && h.address_size != 4 && h.address_size != 8)
      c.fail(c.pos() - 1,
             "address size " + std::to_string(h.address_size) + " (abikit reads 1, 2, 4 or 8)");
    h.first_die = c.pos();
    u.abbrevs = abbrevTable(h.abbrev_offset);
    indexUnit(u);
    units_.push_back(std::move(u));
    c.limit(~uint64_t(0));
    c.seek(h.end);
  }
}

const AbbrevTable* DebugInfo::abbrevTable(uint64_t offset) {
  if (auto it = table_at_.find(offset); it != table_at_.end()) return tables_[it->second].get();
  auto t = std::make_unique<AbbrevTable>();
  t->offset = offset;
  Cursor c(*this, s_.abbrev, ".debug_abbrev");
  if (offset >= s_.abbrev.bytes.size())
    fail(s_.info, ".debug_info", units_.empty() ? 0 : units_.back().header.end,
         "abbreviation offset 0x" + Cursor::hex(offset) + " is outside .debug_abbrev");
  c.seek(offset);
  uint64_t max_code = 0;
  bool sorted = true;
  while (true) {
    Abbrev a;
    a.offset = c.pos();
    a.code = c.uleb("an abbreviation code");
    if (a.code == 0) break;
    uint64_t tag = c.uleb("an abbreviation's tag");
    if (tag == 0 || tag > 0xffff)
      c.fail(a.offset, "abbreviation " + std::to_string(a.code) + ": tag 0x" + Cursor::hex(tag));
    a.tag = uint16_t(tag);
    uint8_t children = c.u8("the children flag");
    if (children > 1)
      c.fail(c.pos() - 1, "abbreviation " + std::to_string(a.code) + ": children flag " +
                              std::to_string(children));
    a.children = children;
    a.first = uint32_t(t->specs.size());
    while (true) {
      uint64_t at = c.pos();
      uint64_t name = c.uleb("an attribute name");
      uint64_t form = c.uleb("an attribute form");
      if (name == 0 && form == 0) break;
      if (name == 0 || name > 0xffff || form == 0 || form > 0xffff)
        c.fail(at, "abbreviation " + std::to_string(a.code) + ": attribute 0x" + Cursor::hex(name) +
                       " with form 0x" + Cursor::hex(form));
      AttrSpec s{uint16_t(name), uint16_t(form), 0};
      if (form == DW_FORM_implicit_const) s.implicit_const = c.sleb("an implicit constant");
      t->specs.push_back(s);
    }
    a.count = uint32_t(t->specs.size() - a.first);
    if (!t->abbrevs.empty() && a.code <= t->abbrevs.back().code) sorted = false;
    max_code = std::max(max_code, a.code);
    t->abbrevs.push_back(a);
  }
  if (max_code <= 4 * t->abbrevs.size() + 64) {
    t->by_code.assign(size_t(max_code), 0);
    for (size_t i = 0; i < t->abbrevs.size(); ++i) {
      uint32_t& slot = t->by_code[size_t(t->abbrevs[i].code - 1)];
      if (slot)
        fail(s_.abbrev, ".debug_abbrev", t->abbrevs[i].offset,
             "abbreviation code " + std::to_string(t->abbrevs[i].code) + " defined twice");
      slot = uint32_t(i + 1);
    }
  } else {
    if (!sorted)
      std::sort(t->abbrevs.begin(), t->abbrevs.end(),
                [](const Abbrev& x, const Abbrev& y) { return x.code < y.code; });
    for (size_t i = 1; i < t->abbrevs.size(); ++i)
      if (t->abbrevs[i].code == t->abbrevs[i - 1].code)
        fail(s_.abbrev, ".debug_abbrev", t->abbrevs[i].offset,
             "abbreviation code " + std::to_string(t->abbrevs[i].code) + " defined twice");
  }
  table_at_.emplace(offset, tables_.size());
  tables_.push_back(std::move(t));
  return tables_.back().get();
}

void DebugInfo::skipValue(const Unit& u, uint16_t form, Cursor& c, uint64_t) const {
  readValue(u, AttrSpec{0, form, 0}, c, false); // one table of form sizes: readValue's
}

void DebugInfo::indexUnit(Unit& u) {
  Cursor c(*this, s_.info, ".debug_info", 0);
  c.limit(u.header.end);
  c.seek(u.header.first_die);
  std::vector<uint32_t> open; // indices of the DIEs whose children are being read
  while (!c.atEnd()) {
    const uint64_t at = c.pos();
    const uint64_t code = c.uleb("an abbreviation code");
    if (code == 0) { // the end of a sibling chain (or padding after the unit DIE's subtree)
      if (!open.empty()) {
        u.dies[open.back()].next = uint32_t(u.dies.size());
        u.dies[open.back()].null_at = at;
        open.pop_back();
      }
      continue;
    }
    if (open.empty() && !u.dies.empty())
      c.fail(at, "a second top-level DIE in the unit at 0x" + Cursor::hex(u.header.offset));
    const Abbrev* a = u.abbrevs->find(code);
    if (!a)
      c.fail(at, "abbreviation code " + std::to_string(code) + " is not in the table at " +
                     ".debug_abbrev+0x" + Cursor::hex(u.abbrevs->offset));
    if (u.dies.size() >= Die::kNone - 1) c.fail(at, "too many DIEs in one unit");
    Die d;
    d.offset = at;
    d.attrs_offset = c.pos();
    d.abbrev = uint32_t(a - u.abbrevs->abbrevs.data());
    d.parent = open.empty() ? Die::kNone : open.back();
    d.tag = a->tag;
    d.depth = uint16_t(open.size());
    d.next = uint32_t(u.dies.size() + 1);
    for (const AttrSpec& s : u.abbrevs->specsOf(*a)) skipValue(u, s.form, c, at);
    u.dies.push_back(d);
    if (a->children) {
      if (open.size() >= kMaxDepth) c.fail(at, "DIEs nested deeper than 65535");
      open.push_back(uint32_t(u.dies.size() - 1));
    }
  }
  while (!open.empty()) { // a unit may end without the final null entries
    u.dies[open.back()].next = uint32_t(u.dies.size());
    open.pop_back();
  }
  if (u.dies.empty()) return;
  // The bases other attributes depend on, then the unit's base address.
  const Die& top = u.dies[0];
  c.seek(top.attrs_offset);
  const Abbrev& a = u.abbrevs->abbrevs[top.abbrev];
  for (const AttrSpec& s : u.abbrevs->specsOf(a)) {
    Cursor p = c;
    skipValue(u, s.form, c, top.offset);
    uint64_t* base = nullptr;
    switch (s.name) {
    case DW_AT_str_offsets_base:
      base = &u.str_offsets_base;
      break;
    case DW_AT_addr_base:
    case DW_AT_GNU_addr_base:
      base = &u.addr_base;
      break;
    case DW_AT_loclists_base:
      base = &u.loclists_base;
      break;
    case DW_AT_rnglists_base:
    case DW_AT_GNU_ranges_base:
      base = &u.rnglists_base;
      break;
    default:
      break;
    }
    if (base) *base = readValue(u, s, p).u;
  }
  if (u.header.version >= 5 && u.str_offsets_base == 0 && !s_.str_offsets.bytes.empty())
    u.str_offsets_base = u.header.offset_size == 8 ? 16 : 8; // after the contribution's header
  if (auto low = attribute(u, top, DW_AT_low_pc); low && low->kind == AttrValue::Kind::Address)
    u.base_address = low->u;
}

/// Where entry `index` of the unit's .debug_addr contribution is, or nullopt outside it.
static std::optional<uint64_t> addrSlot(const Unit& u, uint64_t index, uint64_t section_size) {
  const uint64_t size = u.header.address_size, base = u.addr_base;
  if (base > section_size || (section_size - base) / size <= index) return std::nullopt;
  return base + index * size;
}

uint64_t DebugInfo::readAddrIndex(const Unit& u, uint64_t index, uint64_t at) const {
  std::optional<uint64_t> slot = addrSlot(u, index, s_.addr.bytes.size());
  if (!slot)
    fail(s_.info, ".debug_info", at,
         "address index " + std::to_string(index) + " is outside .debug_addr (base 0x" +
             Cursor::hex(u.addr_base) + ")");
  Cursor c(*this, s_.addr, ".debug_addr", *slot);
  return c.fixed(u.header.address_size, "an address");
}

bool DebugInfo::addressAt(const Unit& u, uint64_t index, uint64_t& out) const {
  if (!addrSlot(u, index, s_.addr.bytes.size())) return false;
  out = readAddrIndex(u, index, 0);
  return true;
}

std::string_view DebugInfo::readStrIndex(const Unit& u, uint64_t index, uint64_t at) const {
  const uint64_t size = u.header.offset_size;
  const uint64_t base = u.str_offsets_base;
  const uint64_t n = s_.str_offsets.bytes.size();
  if (base > n || (n - base) / size <= index)
    fail(s_.info, ".debug_info", at,
         "string index " + std::to_string(index) + " is outside .debug_str_offsets (base 0x" +
             Cursor::hex(base) + ")");
  Cursor c(*this, s_.str_offsets, ".debug_str_offsets", base + index * size);
  uint64_t off = c.fixed(unsigned(size), "a string offset");
  return detail::stringAt(*this, s_.str, ".debug_str", off, s_.str_offsets, ".debug_str_offsets",
                          base + index * size);
}

AttrValue DebugInfo::readValue(const Unit& u, const AttrSpec& spec, Cursor& c, bool resolve) const {
  using K = AttrValue::Kind;
  AttrValue v;
  v.name = spec.name;
  v.form = spec.form;
  v.offset = c.pos();
  uint16_t form = spec.form;
  for (unsigned hops = 0; form == DW_FORM_indirect; ++hops) {
    uint64_t f = c.uleb("an indirect form");
    if (hops >= kMaxIndirect || f == DW_FORM_implicit_const || f > 0xffff)
      c.fail(c.pos() - 1, "indirect form 0x" + Cursor::hex(f));
    form = uint16_t(f);
    v.form = form;
  }
  auto constant = [&](unsigned n) {
    v.kind = K::Constant;
    v.size = uint8_t(n);
    v.u = c.fixed(n, "a constant");
    v.s = n == 8 ? int64_t(v.u) : int64_t(v.u << (64 - 8 * n)) >> (64 - 8 * n);
  };
  auto ref = [&](uint64_t unit_relative) {
    v.kind = K::Reference;
    v.u = u.header.offset + unit_relative;
  };
  switch (form) {
  case DW_FORM_addr:
    v.kind = K::Address;
    v.u = c.fixed(u.header.address_size, "an address");
    break;
  case DW_FORM_addrx:
  case DW_FORM_GNU_addr_index:
    v.kind = K::Address;
    v.u = c.uleb("an address index");
    if (resolve) v.u = readAddrIndex(u, v.u, v.offset);
    break;
  case DW_FORM_addrx1:
  case DW_FORM_addrx2:
  case DW_FORM_addrx3:
  case DW_FORM_addrx4:
    v.kind = K::Address;
    v.u = c.fixed(form - DW_FORM_addrx1 + 1, "an address index");
    if (resolve) v.u = readAddrIndex(u, v.u, v.offset);
    break;
  case DW_FORM_data1:
    constant(1);
    break;
  case DW_FORM_data2:
    constant(2);
    break;
  case DW_FORM_data4:
    constant(4);
    break;
  case DW_FORM_data8:
    constant(8);
    break;
  case DW_FORM_data16:
    v.kind = K::Block;
    v.bytes = c.bytes(16, "a 16-byte constant");
    break;
  case DW_FORM_sdata:
    v.kind = K::Constant;
    v.s = c.sleb("a signed constant");
    v.u = uint64_t(v.s);
    break;
  case DW_FORM_udata:
    v.kind = K::Constant;
    v.u = c.uleb("an unsigned constant");
    v.s = int64_t(v.u);
    break;
  case DW_FORM_implicit_const:
    v.kind = K::Constant;
    v.s = spec.implicit_const;
    v.u = uint64_t(v.s);
    break;
  case DW_FORM_flag:
    v.kind = K::Flag;
    v.u = c.u8("a flag") != 0;
    break;
  case DW_FORM_flag_present:
    v.kind = K::Flag;
    v.u = 1;
    break;
  case DW_FORM_string:
    v.kind = K::String;
    v.str = c.cstring("an inline string");
    break;
  case DW_FORM_strp:
    v.kind = K::String;
    v.u = c.fixed(u.header.offset_size, "a string offset");
    if (resolve)
      v.str = detail::stringAt(*this, s_.str, ".debug_str", v.u, s_.info, ".debug_info", v.offset);
    break;
  case DW_FORM_line_strp:
    v.kind = K::String;
    v.u = c.fixed(u.header.offset_size, "a string offset");
    if (resolve)
      v.str = detail::stringAt(*this, s_.line_str, ".debug_line_str", v.u, s_.info, ".debug_info",
                               v.offset);
    break;
  case DW_FORM_strx:
  case DW_FORM_GNU_str_index:
    v.kind = K::String;
    v.u = c.uleb("a string index");
    if (resolve) v.str = readStrIndex(u, v.u, v.offset);
    break;
  case DW_FORM_strx1:
  case DW_FORM_strx2:
  case DW_FORM_strx3:
  case DW_FORM_strx4:
    v.kind = K::String;
    v.u = c.fixed(form - DW_FORM_strx1 + 1, "a string index");
    if (resolve) v.str = readStrIndex(u, v.u, v.offset);
    break;
  case DW_FORM_ref1:
    ref(c.fixed(1, "a reference"));
    break;
  case DW_FORM_ref2:
    ref(c.fixed(2, "a reference"));
    break;
  case DW_FORM_ref4:
    ref(c.fixed(4, "a reference"));
    break;
  case DW_FORM_ref8:
    ref(c.fixed(8, "a reference"));
    break;
  case DW_FORM_ref_udata:
    ref(c.uleb("a reference"));
    break;
  case DW_FORM_ref_addr:
    v.kind = K::Reference;
    v.u = c.fixed(u.header.version <= 2 ? u.header.address_size : u.header.offset_size,
                  "a reference");
    break;
  case DW_FORM_ref_sig8:
    v.kind = K::Signature;
    v.u = c.fixed(8, "a type signature");
    break;
  case DW_FORM_sec_offset:
    v.kind = K::SecOffset;
    v.u = c.fixed(u.header.offset_size, "a section offset");
    break;
  case DW_FORM_loclistx:
    v.kind = K::LocListX;
    v.u = c.uleb("a location list index");
    break;
  case DW_FORM_rnglistx:
    v.kind = K::RngListX;
    v.u = c.uleb("a range list index");
    break;
  case DW_FORM_exprloc:
    v.kind = K::Exprloc;
    v.bytes = c.bytes(c.uleb("an expression length"), "an expression");
    break;
  case DW_FORM_block1:
    v.kind = K::Block;
    v.bytes = c.bytes(c.fixed(1, "a block length"), "a block");
    break;
  case DW_FORM_block2:
    v.kind = K::Block;
    v.bytes = c.bytes(c.fixed(2, "a block length"), "a block");
    break;
  case DW_FORM_block4:
    v.kind = K::Block;
    v.bytes = c.bytes(c.fixed(4, "a block length"), "a block");
    break;
  case DW_FORM_block:
    v.kind = K::Block;
    v.bytes = c.bytes(c.uleb("a block length"), "a block");
    break;
  case DW_FORM_ref_sup4:
  case DW_FORM_ref_sup8:
  case DW_FORM_strp_sup:
  case DW_FORM_GNU_ref_alt:
  case DW_FORM_GNU_strp_alt: {
    // Values in a supplementary object file, which abikit does not open.
    unsigned n = form == DW_FORM_ref_sup4 ? 4 : form == DW_FORM_ref_sup8 ? 8 : u.header.offset_size;
    v.kind = K::Unreadable;
    v.u = c.fixed(n, "a supplementary-file offset");
    break;
  }
  default:
    c.fail(c.pos(), "unknown form 0x" + Cursor::hex(form) +
                        " (its size is not known, so the rest of the unit cannot be read)");
  }
  return v;
}

Cursor DebugInfo::dieCursor(const Unit& u, const Die& d) const {
  Cursor c(*this, s_.info, ".debug_info", 0);
  c.limit(u.header.end);
  c.seek(d.attrs_offset);
  return c;
}

void DebugInfo::attributes(const Unit& u, const Die& d, std::vector<AttrValue>& out) const {
  out.clear();
  Cursor c = dieCursor(u, d);
  for (const AttrSpec& s : u.abbrevs->specsOf(u.abbrevs->abbrevs[d.abbrev]))
    out.push_back(readValue(u, s, c));
}

std::optional<AttrValue> DebugInfo::attribute(const Unit& u, const Die& d, uint16_t name) const {
  Cursor c = dieCursor(u, d);
  for (const AttrSpec& s : u.abbrevs->specsOf(u.abbrevs->abbrevs[d.abbrev])) {
    if (s.name == name) return readValue(u, s, c);
    skipValue(u, s.form, c, d.offset);
  }
  return std::nullopt;
}

bool DebugInfo::findDie(uint64_t offset, const Unit*& unit, uint32_t& index) const {
  auto it = std::upper_bound(units_.begin(), units_.end(), offset,
                             [](uint64_t o, const Unit& u) { return o < u.header.offset; });
  if (it == units_.begin()) return false;
  const Unit& u = *(it - 1);
  if (offset >= u.header.end) return false;
  auto d = std::lower_bound(u.dies.begin(), u.dies.end(), offset,
                            [](const Die& x, uint64_t o) { return x.offset < o; });
  if (d == u.dies.end() || d->offset != offset) return false;
  unit = &u;
  index = uint32_t(d - u.dies.begin());
  return true;
}

} // namespace abikit::dwarf
