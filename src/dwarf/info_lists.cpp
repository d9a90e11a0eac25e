// Location and range lists (DWARF 5 §2.6.2, §2.17.3: .debug_loclists, .debug_rnglists; DWARF 4:
// .debug_loc, .debug_ranges), code ranges of DIEs, and the names of DIEs and types.
#include "info_internal.h"

namespace abikit::dwarf {

using detail::Cursor;

namespace {

// DW_LLE_* and DW_RLE_* (DWARF 5 §7.7.3, §7.25).
enum : uint8_t {
  kLleEnd = 0,
  kLleBaseAddressx = 1,
  kLleStartxEndx = 2,
  kLleStartxLength = 3,
  kLleOffsetPair = 4,
  kLleDefault = 5,
  kLleBaseAddress = 6,
  kLleStartEnd = 7,
  kLleStartLength = 8,
};
enum : uint8_t {
  kRleEnd = 0,
  kRleBaseAddressx = 1,
  kRleStartxEndx = 2,
  kRleStartxLength = 3,
  kRleOffsetPair = 4,
  kRleBaseAddress = 5,
  kRleStartEnd = 6,
  kRleStartLength = 7,
};

// A list ends within its section: at most one entry per byte, so this bounds every loop.
constexpr unsigned kMaxHops = 16; // abstract_origin / specification / typedef chains

uint64_t addrMax(unsigned size) {
  return size >= 8 ? ~uint64_t(0) : (uint64_t(1) << (8 * size)) - 1;
}

} // namespace

/// Where the list an attribute names starts: a section offset (DW_FORM_sec_offset, or the
/// DWARF 4 data forms) or an index through the offsets table after the unit's base.
static uint64_t listStart(const DebugInfo& info, const Unit& u, const AttrValue& v,
                          const SectionBytes& s, std::string_view name, uint64_t base) {
  if (v.kind == AttrValue::Kind::LocListX || v.kind == AttrValue::Kind::RngListX) {
    const uint64_t size = u.header.offset_size;
    if (base > s.bytes.size() || (s.bytes.size() - base) / size <= v.u)
      info.fail(info.sections().info, ".debug_info", v.offset,
                "list index " + std::to_string(v.u) + " is outside " + std::string(name) +
                    " (base 0x" + Cursor::hex(base) + ")");
    Cursor c(info, s, name, base + v.u * size);
    return base + c.fixed(unsigned(size), "a list offset");
  }
  if (v.kind == AttrValue::Kind::SecOffset ||
      (v.kind == AttrValue::Kind::Constant && u.header.version < 4))
    return v.u;
  info.fail(info.sections().info, ".debug_info", v.offset,
            std::string(attrName(v.name)) + " with form " + std::string(formName(v.form)) +
                " is no list");
}

uint64_t DebugInfo::listOffset(const Unit& u, const AttrValue& v) const {
  const bool ranges = v.name == DW_AT_ranges;
  if (u.header.version >= 5)
    return ranges ? listStart(*this, u, v, s_.rnglists, ".debug_rnglists", u.rnglists_base)
                  : listStart(*this, u, v, s_.loclists, ".debug_loclists", u.loclists_base);
  return ranges ? listStart(*this, u, v, s_.ranges, ".debug_ranges", 0)
                : listStart(*this, u, v, s_.loc, ".debug_loc", 0);
}

void DebugInfo::locationList(const Unit& u, const AttrValue& v, std::vector<LocEntry>& out) const {
  out.clear();
  const unsigned as = u.header.address_size;
  uint64_t base = u.base_address;
  if (u.header.version >= 5) {
    uint64_t off = listStart(*this, u, v, s_.loclists, ".debug_loclists", u.loclists_base);
    Cursor c(*this, s_.loclists, ".debug_loclists", off);
    while (true) {
      LocEntry e;
      e.offset = c.pos();
      const uint8_t kind = c.u8("a location list entry");
      bool has_expr = true;
      switch (kind) {
      case kLleEnd:
        return;
      case kLleBaseAddressx:
        base = readAddrIndex(u, c.uleb("an address index"), v.offset);
        has_expr = false;
        break;
      case kLleStartxEndx:
        e.begin = readAddrIndex(u, c.uleb("an address index"), v.offset);
        e.end = readAddrIndex(u, c.uleb("an address index"), v.offset);
        break;
      case kLleStartxLength:
        e.begin = readAddrIndex(u, c.uleb("an address index"), v.offset);
        e.end = e.begin + c.uleb("a length");
        break;
      case kLleOffsetPair:
        e.begin = base + c.uleb("an offset");
        e.end = base + c.uleb("an offset");
        break;
      case kLleDefault:
        e.is_default = true;
        break;
      case kLleBaseAddress:
        base = c.fixed(as, "a base address");
        has_expr = false;
        break;
      case kLleStartEnd:
        e.begin = c.fixed(as, "an address");
        e.end = c.fixed(as, "an address");
        break;
      case kLleStartLength:
        e.begin = c.fixed(as, "an address");
        e.end = e.begin + c.uleb("a length");
        break;
      default:
        c.fail(e.offset, "unknown location list entry kind 0x" + Cursor::hex(kind));
      }
      if (has_expr) {
        e.expression = c.bytes(c.uleb("an expression length"), "an expression");
        out.push_back(e);
      }
    }
  }
  // DWARF 2-4: pairs of addresses, (0, 0) ends, (max, base) selects a base address.
  uint64_t off = listStart(*this, u, v, s_.loc, ".debug_loc", 0);
  Cursor c(*this, s_.loc, ".debug_loc", off);
  while (true) {
    LocEntry e;
    e.offset = c.pos();
    uint64_t b = c.fixed(as, "a location list entry");
    uint64_t x = c.fixed(as, "a location list entry");
    if (b == 0 && x == 0) return;
    if (b == addrMax(as)) {
      base = x;
      continue;
    }
    e.begin = base + b;
    e.end = base + x;
    e.expression = c.bytes(c.fixed(2, "an expression length"), "an expression");
    out.push_back(e);
  }
}

void DebugInfo::rangeList(const Unit& u, const AttrValue& v, std::vector<PcRange>& out) const {
  const unsigned as = u.header.address_size;
  uint64_t base = u.base_address;
  if (u.header.version >= 5) {
    uint64_t off = listStart(*this, u, v, s_.rnglists, ".debug_rnglists", u.rnglists_base);
    Cursor c(*this, s_.rnglists, ".debug_rnglists", off);
    while (true) {
      const uint64_t at = c.pos();
      const uint8_t kind = c.u8("a range list entry");
      PcRange r;
      switch (kind) {
      case kRleEnd:
        return;
      case kRleBaseAddressx:
        base = readAddrIndex(u, c.uleb("an address index"), v.offset);
        continue;
      case kRleStartxEndx:
        r.begin = readAddrIndex(u, c.uleb("an address index"), v.offset);
        r.end = readAddrIndex(u, c.uleb("an address index"), v.offset);
        break;
      case kRleStartxLength:
        r.begin = readAddrIndex(u, c.uleb("an address index"), v.offset);
        r.end = r.begin + c.uleb("a length");
        break;
      case kRleOffsetPair:
        r.begin = base + c.uleb("an offset");
        r.end = base + c.uleb("an offset");
        break;
      case kRleBaseAddress:
        base = c.fixed(as, "a base address");
        continue;
      case kRleStartEnd:
        r.begin = c.fixed(as, "an address");
        r.end = c.fixed(as, "an address");
        break;
      case kRleStartLength:
        r.begin = c.fixed(as, "an address");
        r.end = r.begin + c.uleb("a length");
        break;
      default:
        c.fail(at, "unknown range list entry kind 0x" + Cursor::hex(kind));
      }
      out.push_back(r);
    }
  }
  uint64_t off = listStart(*this, u, v, s_.ranges, ".debug_ranges", 0);
  Cursor c(*this, s_.ranges, ".debug_ranges", off);
  while (true) {
    uint64_t b = c.fixed(as, "a range list entry");
    uint64_t x = c.fixed(as, "a range list entry");
    if (b == 0 && x == 0) return;
    if (b == addrMax(as)) {
      base = x;
      continue;
    }
    out.push_back({base + b, base + x});
  }
}

void DebugInfo::pcRanges(const Unit& u, const Die& d, std::vector<PcRange>& out) const {
  out.clear();
  std::optional<AttrValue> low, high, ranges;
  Cursor c = dieCursor(u, d);
  for (const AttrSpec& s : u.abbrevs->specsOf(u.abbrevs->abbrevs[d.abbrev])) {
    if (s.name == DW_AT_low_pc)
      low = readValue(u, s, c);
    else if (s.name == DW_AT_high_pc)
      high = readValue(u, s, c);
    else if (s.name == DW_AT_ranges)
      ranges = readValue(u, s, c);
    else
      skipValue(u, s.form, c, d.offset);
  }
  if (ranges) {
    rangeList(u, *ranges, out);
    return;
  }
  if (!low || low->kind != AttrValue::Kind::Address) return;
  if (!high) {
    out.push_back({low->u, low->u + 1});
    return;
  }
  uint64_t end = high->kind == AttrValue::Kind::Address ? high->u : low->u + high->u;
  if (high->kind != AttrValue::Kind::Address && high->kind != AttrValue::Kind::Constant)
    fail(s_.info, ".debug_info", high->offset,
         "DW_AT_high_pc with form " + std::string(formName(high->form)));
  out.push_back({low->u, end});
}

std::optional<AttrValue> DebugInfo::inheritedAttribute(const Unit& unit, const Die& die,
                                                       uint16_t name) const {
  const Unit* u = &unit;
  const Die* d = &die;
  for (unsigned hop = 0; hop < kMaxHops; ++hop) {
    std::optional<AttrValue> origin;
    Cursor c = dieCursor(*u, *d);
    for (const AttrSpec& s : u->abbrevs->specsOf(u->abbrevs->abbrevs[d->abbrev])) {
      if (s.name == name) return readValue(*u, s, c);
      if (s.name == DW_AT_abstract_origin || s.name == DW_AT_specification)
        origin = readValue(*u, s, c);
      else
        skipValue(*u, s.form, c, d->offset);
    }
    uint32_t index = 0;
    if (!origin || origin->kind != AttrValue::Kind::Reference || !findDie(origin->u, u, index))
      return std::nullopt;
    d = &u->dies[index];
  }
  return std::nullopt;
}

std::string_view DebugInfo::name(const Unit& u, const Die& d) const {
  std::optional<AttrValue> v = inheritedAttribute(u, d, DW_AT_name);
  return v && v->kind == AttrValue::Kind::String ? v->str : std::string_view();
}

static std::string typeNameAt(const DebugInfo& info, uint64_t offset, unsigned depth) {
  const Unit* u = nullptr;
  uint32_t i = 0;
  if (depth > kMaxHops || !info.findDie(offset, u, i)) return depth ? "?" : "";
  const Die& d = u->dies[i];
  std::string_view n = info.name(*u, d);
  auto inner = [&] {
    std::optional<AttrValue> t = info.attribute(*u, d, DW_AT_type);
    return t && t->kind == AttrValue::Kind::Reference ? typeNameAt(info, t->u, depth + 1)
                                                      : std::string("void");
  };
  switch (d.tag) {
  case DW_TAG_base_type:
  case DW_TAG_typedef:
  case DW_TAG_unspecified_type:
    return std::string(n);
  case DW_TAG_structure_type:
    return "struct " + std::string(n.empty() ? "<anonymous>" : n);
  case DW_TAG_union_type:
    return "union " + std::string(n.empty() ? "<anonymous>" : n);
  case DW_TAG_enumeration_type:
    return "enum " + std::string(n.empty() ? "<anonymous>" : n);
  case DW_TAG_class_type:
    return "class " + std::string(n.empty() ? "<anonymous>" : n);
  case DW_TAG_pointer_type:
    return inner() + " *";
  case DW_TAG_reference_type:
    return inner() + " &";
  case DW_TAG_const_type:
    return "const " + inner();
  case DW_TAG_volatile_type:
    return "volatile " + inner();
  case DW_TAG_restrict_type:
    return inner() + " restrict";
  case DW_TAG_atomic_type:
    return "_Atomic " + inner();
  case DW_TAG_array_type:
    return inner() + " []";
  case DW_TAG_subroutine_type:
    return inner() + " ()";
  default:
    return std::string(n.empty() ? tagName(d.tag) : n);
  }
}

std::string DebugInfo::typeName(uint64_t die_offset) const {
  return typeNameAt(*this, die_offset, 0);
}

uint64_t DebugInfo::typeSize(uint64_t offset) const {
  for (unsigned hop = 0; hop < kMaxHops; ++hop) {
    const Unit* u = nullptr;
    uint32_t i = 0;
    if (!findDie(offset, u, i)) return 0;
    const Die& d = u->dies[i];
    if (auto s = attribute(*u, d, DW_AT_byte_size); s && s->kind == AttrValue::Kind::Constant)
      return s->u;
    if (d.tag == DW_TAG_pointer_type || d.tag == DW_TAG_reference_type)
      return u->header.address_size;
    std::optional<AttrValue> t = attribute(*u, d, DW_AT_type);
    if (!t || t->kind != AttrValue::Kind::Reference) return 0;
    if (d.tag == DW_TAG_array_type) return 0; // bounds: not computed here
    offset = t->u;
  }
  return 0;
}

} // namespace abikit::dwarf
