// Where variables live at a code address: the scopes covering it (DWARF 5 §3.3, §3.5: subprogram,
// inlined subroutine, lexical blocks), their variables and parameters, and the location
// expression of each there; and DIEs for the evaluator.
#include "info_internal.h"

namespace abikit::dwarf {

namespace {

bool covers(const std::vector<PcRange>& ranges, uint64_t pc) {
  for (const PcRange& r : ranges)
    if (r.begin <= pc && pc < r.end) return true;
  return false;
}

bool isScope(uint16_t tag) {
  return tag == DW_TAG_lexical_block || tag == DW_TAG_inlined_subroutine;
}

} // namespace

ExprFormat exprFormat(const Unit& unit, Endian endian, ExtEncoding encoding) {
  ExprFormat f;
  f.encoding = encoding;
  f.address_size = unit.header.address_size;
  f.offset_size = unit.header.offset_size;
  f.endian = endian;
  return f;
}

bool locationAt(const DebugInfo& info, const Unit& unit, const AttrValue& v, uint64_t pc,
                std::vector<LocEntry>& scratch, std::span<const uint8_t>& out, bool& from_list,
                std::optional<uint64_t> entry_pc) {
  from_list = false;
  if (v.kind == AttrValue::Kind::Exprloc ||
      (v.kind == AttrValue::Kind::Block && unit.header.version <= 3)) {
    out = v.bytes;
    return true;
  }
  info.locationList(unit, v, scratch);
  from_list = true;
  const LocEntry* fallback = nullptr;
  for (const LocEntry& e : scratch) {
    if (e.is_default) {
      fallback = &e;
      continue;
    }
    if ((e.begin <= pc && pc < e.end) ||
        (entry_pc && e.begin == e.end && e.begin == pc && pc == *entry_pc)) {
      out = e.expression;
      return true;
    }
  }
  if (fallback) {
    out = fallback->expression;
    return true;
  }
  return false;
}

static void fillDieInfo(const DebugInfo& info, const Unit& u, const Die& d, uint64_t pc,
                        std::vector<LocEntry>& scratch, DieInfo& out) {
  out = DieInfo{};
  out.tag = d.tag;
  if (auto loc = info.attribute(u, d, DW_AT_location)) {
    out.has_location = true;
    bool list = false;
    std::span<const uint8_t> bytes;
    if (locationAt(info, u, *loc, pc, scratch, bytes, list)) out.location = bytes;
    out.location_is_list = list;
  }
  if (auto cv = info.inheritedAttribute(u, d, DW_AT_const_value)) {
    out.has_const_value = true;
    if (cv->kind == AttrValue::Kind::Block) out.const_value = cv->bytes;
  }
  if (d.tag == DW_TAG_base_type) {
    auto size = info.attribute(u, d, DW_AT_byte_size);
    auto bits = info.attribute(u, d, DW_AT_bit_size);
    auto enc = info.attribute(u, d, DW_AT_encoding);
    out.base_type.die = d.offset - u.header.offset;
    out.base_type.elem_bits = bits ? uint32_t(bits->u) : size ? uint32_t(size->u * 8) : uint32_t(0);
    out.base_type.encoding = enc ? uint8_t(enc->u) : uint8_t(0);
  }
}

bool DebugInfoResolver::byUnitOffset(uint64_t offset, DieInfo& out) {
  const Unit* u = nullptr;
  uint32_t i = 0;
  if (offset >= unit_.header.end - unit_.header.offset ||
      !info_.findDie(unit_.header.offset + offset, u, i) || u != &unit_)
    return false;
  fillDieInfo(info_, *u, u->dies[i], pc_, entries_, out);
  return true;
}

bool DebugInfoResolver::bySectionOffset(uint64_t offset, DieInfo& out) {
  const Unit* u = nullptr;
  uint32_t i = 0;
  if (!info_.findDie(offset, u, i)) return false;
  fillDieInfo(info_, *u, u->dies[i], pc_, entries_, out);
  return true;
}

VariablesAt variablesAt(const DebugInfo& info, uint64_t pc) {
  VariablesAt r;
  r.address = pc;
  std::vector<PcRange> ranges;
  std::vector<LocEntry> scratch;
  for (const Unit& u : info.units()) {
    if (u.dies.empty() ||
        (u.dies[0].tag != DW_TAG_compile_unit && u.dies[0].tag != DW_TAG_partial_unit))
      continue;
    info.pcRanges(u, u.dies[0], ranges);
    if (!ranges.empty() && !covers(ranges, pc)) continue;
    // The subprogram covering pc, then the scopes inside it down to the innermost. A scope
    // without code ranges is transparent: its DIEs belong to the scope around it (as gdb reads
    // them).
    uint32_t function = Die::kNone;
    for (uint32_t i = 0; i < u.dies.size(); ++i) {
      if (u.dies[i].tag != DW_TAG_subprogram) continue;
      info.pcRanges(u, u.dies[i], ranges);
      if (covers(ranges, pc)) {
        function = i;
        break;
      }
      // Subprograms nest only in C++ classes and namespaces; a nested one is visited in turn.
    }
    if (function == Die::kNone) continue;
    std::vector<uint32_t> chain{function}; // scopes from the function inwards
    for (uint32_t scope = function;;) {
      uint32_t next = Die::kNone;
      for (uint32_t i = scope + 1; i < u.dies[scope].next && next == Die::kNone;) {
        const Die& d = u.dies[i];
        if (isScope(d.tag)) {
          info.pcRanges(u, d, ranges);
          if (ranges.empty() && d.tag == DW_TAG_lexical_block) {
            ++i; // transparent: look inside it
            continue;
          }
          if (covers(ranges, pc)) next = i;
        }
        i = d.next;
      }
      if (next == Die::kNone) break;
      chain.push_back(next);
      scope = next;
    }
    // The innermost function: an inlined subroutine starts a frame of its own.
    size_t first = 0;
    for (size_t k = 0; k < chain.size(); ++k)
      if (u.dies[chain[k]].tag == DW_TAG_inlined_subroutine) first = k;
    const Die& fn = u.dies[chain[first]];
    r.found = true;
    r.unit = &u;
    r.function = std::string(info.name(u, fn));
    r.function_die = fn.offset;
    std::optional<uint64_t> entry_pc;
    if (auto e = info.attribute(u, fn, DW_AT_entry_pc); e && e->kind == AttrValue::Kind::Address)
      entry_pc = e->u;
    else if (info.pcRanges(u, fn, ranges); !ranges.empty())
      entry_pc = ranges[0].begin;
    if (auto fb = info.attribute(u, u.dies[function], DW_AT_frame_base)) {
      bool list = false;
      r.has_frame_base = locationAt(info, u, *fb, pc, scratch, r.frame_base, list);
    }
    for (size_t k = chain.size(); k-- > first;) {
      const uint32_t scope = chain[k];
      // Direct children, and those of transparent blocks; not those of nested real scopes.
      for (uint32_t i = scope + 1; i < u.dies[scope].next;) {
        const Die& d = u.dies[i];
        if (d.tag == DW_TAG_lexical_block) {
          info.pcRanges(u, d, ranges);
          if (ranges.empty()) {
            ++i;
            continue;
          }
        }
        if (d.tag == DW_TAG_variable || d.tag == DW_TAG_formal_parameter) {
          VariableAt v;
          v.name = std::string(info.name(u, d));
          v.parameter = d.tag == DW_TAG_formal_parameter;
          v.die = d.offset;
          if (auto t = info.inheritedAttribute(u, d, DW_AT_type);
              t && t->kind == AttrValue::Kind::Reference) {
            v.type_die = t->u;
            v.type = info.typeName(t->u);
          }
          if (auto loc = info.attribute(u, d, DW_AT_location)) {
            if (locationAt(info, u, *loc, pc, scratch, v.expression, v.from_list, entry_pc))
              v.kind = VariableAt::Kind::Expression;
          } else if (auto cv = info.inheritedAttribute(u, d, DW_AT_const_value)) {
            v.kind = VariableAt::Kind::Constant;
            if (cv->kind == AttrValue::Kind::Block) {
              v.constant.assign(cv->bytes.begin(), cv->bytes.end());
            } else {
              uint64_t size = v.type_die ? info.typeSize(v.type_die) : 0;
              if (size == 0 || size > 8) size = cv->size ? cv->size : 8;
              const bool big = info.sections().endian == Endian::Big;
              for (uint64_t b = 0; b < size; ++b)
                v.constant.push_back(uint8_t(cv->u >> (8 * (big ? size - 1 - b : b))));
            }
          }
          if (!(d.tag == DW_TAG_variable && info.attribute(u, d, DW_AT_declaration)))
            r.variables.push_back(std::move(v));
        }
        i = d.next;
      }
    }
    return r;
  }
  return r;
}

} // namespace abikit::dwarf

namespace abikit::dwarf {

namespace {

/// Classifies ops [first, end) (no piece among them).
Place placeOf(const Expression& e, size_t first, size_t end, const DwarfTargetInfo* target) {
  // A compiler's address-space marker at the end: the rest is the address.
  if (target && end - first >= 4 && e.ops[end - 1].op == Op::xderef &&
      e.ops[end - 2].op == Op::swap && uint16_t(e.ops[end - 3].op) >= uint16_t(Op::lit0) &&
      uint16_t(e.ops[end - 3].op) <= uint16_t(Op::lit31)) {
    const uint32_t marker = uint32_t(uint16_t(e.ops[end - 3].op) - uint16_t(Op::lit0));
    for (const DwarfSpaceMarker& m : target->xderef_markers) {
      if (m.marker != marker) continue;
      Place a = placeOf(e, first, end - 3, nullptr);
      if (a.kind != Place::Kind::Memory) break;
      a.space = m.space;
      a.first = first;
      a.end = end;
      return a;
    }
  }
  Place p;
  p.first = first;
  p.end = end;
  const size_t n = end - first;
  if (n == 0) return p; // OptimizedOut
  const Operation& a = e.ops[first];
  const Op op = a.op;
  const auto between = [](Op x, Op lo, Op hi) {
    return uint16_t(x) >= uint16_t(lo) && uint16_t(x) <= uint16_t(hi);
  };
  p.kind = Place::Kind::Expression;
  if (n == 1) {
    if (between(op, Op::reg0, Op::reg31)) {
      p.kind = Place::Kind::Register;
      p.reg = uint32_t(uint16_t(op) - uint16_t(Op::reg0));
    } else if (op == Op::regx) {
      p.kind = Place::Kind::Register;
      p.reg = uint32_t(a.u[0]);
    } else if (op == Op::fbreg) {
      p.kind = Place::Kind::Memory;
      p.frame_base = true;
      p.offset = a.s;
    } else if (between(op, Op::breg0, Op::breg31)) {
      p.kind = Place::Kind::Memory;
      p.has_reg = true;
      p.reg = uint32_t(uint16_t(op) - uint16_t(Op::breg0));
      p.offset = a.s;
    } else if (op == Op::bregx) {
      p.kind = Place::Kind::Memory;
      p.has_reg = true;
      p.reg = uint32_t(a.u[0]);
      p.offset = a.s;
    } else if (op == Op::addr) {
      p.kind = Place::Kind::Memory;
      p.address = a.u[0];
    } else if (op == Op::implicit_value) {
      p.kind = Place::Kind::Implicit;
      std::span<const uint8_t> b = e.blockOf(a, 0);
      p.bytes.assign(b.begin(), b.end());
    }
    return p;
  }
  if (n == 2 && e.ops[first + 1].op == Op::stack_value) {
    if (between(op, Op::lit0, Op::lit31)) {
      p.kind = Place::Kind::Value;
      p.address = uint64_t(uint16_t(op) - uint16_t(Op::lit0));
    } else if (op == Op::constu || op == Op::const1u || op == Op::const2u || op == Op::const4u ||
               op == Op::const8u) {
      p.kind = Place::Kind::Value;
      p.address = a.u[0];
    } else if (op == Op::consts || op == Op::const1s || op == Op::const2s || op == Op::const4s ||
               op == Op::const8s) {
      p.kind = Place::Kind::Value;
      p.address = uint64_t(a.s);
    }
  }
  return p;
}

} // namespace

std::vector<Place> places(const Expression& e, const DwarfTargetInfo* target) {
  std::vector<Place> out;
  size_t start = 0;
  bool pieces = false;
  for (size_t i = 0; i < e.ops.size(); i = e.endOf(i)) {
    const Operation& o = e.ops[i];
    if (o.op != Op::piece && o.op != Op::bit_piece) continue;
    Place p = placeOf(e, start, i, target);
    p.bits = o.op == Op::piece ? o.u[0] * 8 : o.u[0];
    out.push_back(std::move(p));
    start = i + 1;
    pieces = true;
  }
  if (!pieces || start < e.ops.size()) {
    Place p = placeOf(e, start, e.ops.size(), target);
    if (pieces && p.kind == Place::Kind::OptimizedOut) return out;
    out.push_back(std::move(p));
  }
  return out;
}

} // namespace abikit::dwarf
