// `abikit dwarf-expr decode --json`: the operations of a DWARF expression.
#include "abikit/emit.h"
#include "json_writer.h"

#include <charconv>

namespace abikit {

std::string dwarfExprJson(const dwarf::Expression& expr, const dwarf::DisplayOptions* display) {
  detail::TextBuffer out;
  detail::JsonWriter<detail::kJsonCompact> j(out);
  j.beginObject();
  j.field("schema", "abikit/1");
  j.key("ops");
  j.beginArray();
  for (size_t i = 0; i < expr.ops.size(); i = expr.endOf(i)) {
    j.beginObject();
    j.field("offset", uint64_t(expr.ops[i].offset));
    j.field("size", uint64_t(expr.ops[i].size));
    j.field("text", display ? dwarf::opDisplay(expr, i, *display) : dwarf::opText(expr, i));
    j.endObject();
  }
  j.endArray();
  j.endObject();
  out.put('\n');
  return out.take();
}

} // namespace abikit

namespace abikit {

namespace {

std::string hex128(dwarf::BitOffset v) {
  uint8_t b[16];
  for (int i = 0; i < 16; ++i) b[i] = uint8_t(v >> (8 * i));
  return hexNumber(b);
}

bool laneBound(const DwarfTargetInfo& t, uint32_t space) {
  const DwarfAddressSpace* s = t.findSpace(space);
  return s && s->scope == DwarfSpaceScope::Lane;
}

template <class W> void location(W& j, const DwarfTargetInfo& t, const dwarf::LocationInfo& l) {
  using K = dwarf::StorageKind;
  j.beginObject();
  switch (l.kind) {
  case K::Undefined:
    j.field("kind", "undefined");
    break;
  case K::Memory:
    j.field("kind", "memory");
    j.field("space", dwarfSpaceName(t, l.space));
    if (laneBound(t, l.space)) j.field("lane", uint64_t(l.lane));
    break;
  case K::Register:
    j.field("kind", "register");
    j.field("reg", uint64_t(l.reg));
    break;
  case K::Implicit:
    j.field("kind", "implicit");
    j.field("bytes", hexBytes(l.bytes));
    break;
  case K::ImplicitPointer:
    j.field("kind", "implicit_pointer");
    j.field("die", hex128(l.die));
    j.field("offset", l.displacement);
    j.field("space", dwarfSpaceName(t, l.space));
    break;
  case K::Composite:
    j.field("kind", "composite");
    break;
  }
  if (l.kind != K::Undefined) j.field("bit_offset", hex128(l.offset));
  if (l.kind == K::Composite) {
    j.key("parts");
    j.beginArray();
    for (const dwarf::LocationPart& p : l.parts) {
      const dwarf::BitOffset bits = p.bits;
      const dwarf::LocationInfo& part = p.location;
      j.beginObject();
      if (bits >> 64)
        j.field("bits", hex128(bits));
      else
        j.field("bits", uint64_t(bits));
      j.key("location");
      location(j, t, part);
      j.endObject();
    }
    j.endArray();
  }
  j.endObject();
}

void locationText(std::string& s, const DwarfTargetInfo& t, const dwarf::LocationInfo& l) {
  using K = dwarf::StorageKind;
  switch (l.kind) {
  case K::Undefined:
    s += "undefined";
    return;
  case K::Memory:
    s += "memory " + dwarfSpaceName(t, l.space);
    if (laneBound(t, l.space)) s += " lane " + std::to_string(l.lane);
    break;
  case K::Register:
    s += "register " + std::to_string(l.reg);
    break;
  case K::Implicit:
    s += "implicit [" + hexBytes(l.bytes) + "]";
    break;
  case K::ImplicitPointer:
    s += "implicit_pointer die " + hex128(l.die) + " offset " + std::to_string(l.displacement) +
         " space " + dwarfSpaceName(t, l.space);
    break;
  case K::Composite:
    s += "composite";
    break;
  }
  s += " bit_offset " + hex128(l.offset);
  if (l.kind == K::Composite) {
    s += " {";
    for (size_t i = 0; i < l.parts.size(); ++i) {
      s += i ? "; " : " ";
      s += hex128(l.parts[i].bits) + " bits: ";
      locationText(s, t, l.parts[i].location);
    }
    s += " }";
  }
}

std::string typeName(const dwarf::BaseType& t) {
  return t.generic() ? "generic" : hex128(t.die);
}

} // namespace

std::string hexBytes(std::span<const uint8_t> bytes) {
  static const char kHex[] = "0123456789abcdef";
  std::string s;
  for (size_t i = 0; i < bytes.size(); ++i) {
    if (i) s += ' ';
    s += kHex[bytes[i] >> 4];
    s += kHex[bytes[i] & 15];
  }
  return s;
}

std::string hexNumber(std::span<const uint8_t> bytes) {
  static const char kHex[] = "0123456789abcdef";
  std::string s;
  for (size_t i = bytes.size(); i-- > 0;) {
    s += kHex[bytes[i] >> 4];
    s += kHex[bytes[i] & 15];
  }
  size_t nz = s.find_first_not_of('0');
  return "0x" + (nz == std::string::npos ? std::string("0") : s.substr(nz));
}

std::string dwarfEvalJson(const DwarfTargetInfo& t, const DwarfEvalReport& r) {
  detail::TextBuffer out;
  detail::JsonWriter<detail::kJsonCompact> j(out);
  j.beginObject();
  j.field("schema", "abikit/1");
  if (r.result.kind == dwarf::ResultKind::Value) {
    j.field("result", r.result.implicit_pointer_value ? "implicit_pointer_value" : "value");
    j.field("type", typeName(r.value.type));
    j.field("value", hexNumber(r.value.bytes));
  } else {
    j.field("result", "location");
    j.key("location");
    location(j, t, r.location);
  }
  auto error = [&](const char* key, const std::string& message) {
    j.key(key);
    j.beginObject();
    j.field("kind", "evaluation-error");
    j.field("message", message);
    j.endObject();
  };
  if (r.has_read) {
    if (r.read_error.empty())
      j.field("read", hexNumber(r.read));
    else
      error("read_error", r.read_error);
  }
  if (r.has_write) {
    if (!r.write_error.empty()) {
      error("write_error", r.write_error);
    } else {
      j.key("written");
      j.beginObject();
      j.key("registers");
      j.beginArray();
      for (const auto& w : r.written.registers) {
        j.beginObject();
        j.field("reg", uint64_t(w.reg));
        j.field("value", hexNumber(w.value));
        j.endObject();
      }
      j.endArray();
      j.key("lanes");
      j.beginArray();
      for (const auto& w : r.written.lanes) {
        j.beginObject();
        j.field("reg", uint64_t(w.reg));
        j.field("lane", uint64_t(w.lane));
        j.field("value", hexNumber(w.value));
        j.endObject();
      }
      j.endArray();
      j.key("memory");
      j.beginArray();
      for (const auto& w : r.written.memory) {
        j.beginObject();
        j.field("space", dwarfSpaceName(t, w.space));
        j.field("address", hex128(w.address));
        j.field("bytes", hexBytes(w.bytes));
        j.endObject();
      }
      j.endArray();
      j.endObject();
    }
  }
  j.endObject();
  out.put('\n');
  return out.take();
}

std::string dwarfEvalText(const DwarfTargetInfo& t, const DwarfEvalReport& r) {
  std::string s;
  if (r.result.kind == dwarf::ResultKind::Value) {
    s += std::string(r.result.implicit_pointer_value ? "implicit pointer value " : "value ") +
         typeName(r.value.type) + " " + hexNumber(r.value.bytes) + "\n";
  } else {
    s += "location ";
    locationText(s, t, r.location);
    s += "\n";
  }
  if (r.has_read)
    s += r.read_error.empty() ? "read " + hexNumber(r.read) + "\n"
                              : "read error: " + r.read_error + "\n";
  if (r.has_write) {
    if (!r.write_error.empty()) s += "write error: " + r.write_error + "\n";
    for (const auto& w : r.written.registers)
      s += "wrote register " + std::to_string(w.reg) + " = " + hexNumber(w.value) + "\n";
    for (const auto& w : r.written.lanes)
      s += "wrote register " + std::to_string(w.reg) + " lane " + std::to_string(w.lane) + " = " +
           hexNumber(w.value) + "\n";
    for (const auto& w : r.written.memory)
      s += "wrote memory " + dwarfSpaceName(t, w.space) + " " + hex128(w.address) + ": " +
           hexBytes(w.bytes) + "\n";
  }
  return s;
}

std::string dwarfCfiJson(const DwarfTargetInfo& t, const DwarfCfiReport& r) {
  detail::TextBuffer out;
  detail::JsonWriter<detail::kJsonCompact> j(out);
  j.beginObject();
  j.field("schema", "abikit/1");
  j.key("cfa");
  location(j, t, r.cfa);
  j.key("registers");
  j.beginArray();
  for (const DwarfCfiReport::Column& c : r.columns) {
    j.beginObject();
    j.field("reg", c.reg);
    j.field("rule", c.rule);
    if (!c.location_error.empty()) {
      j.field("location_error", c.location_error);
    } else {
      j.key("location");
      location(j, t, c.location);
      if (c.has_value)
        j.field("value", hexNumber(c.value));
      else
        j.field("value_error", c.value_error);
    }
    j.endObject();
  }
  j.endArray();
  j.endObject();
  out.put('\n');
  return out.take();
}

std::string dwarfCfiText(const DwarfTargetInfo& t, const DwarfCfiReport& r) {
  std::string s = "CFA: ";
  locationText(s, t, r.cfa);
  s += "\n";
  for (const DwarfCfiReport::Column& c : r.columns) {
    s += "reg " + std::to_string(c.reg) + ": " + c.rule + ": ";
    if (!c.location_error.empty()) {
      s += "error: " + c.location_error + "\n";
      continue;
    }
    locationText(s, t, c.location);
    s += c.has_value ? " = " + hexNumber(c.value) : " (value: " + c.value_error + ")";
    s += "\n";
  }
  return s;
}

} // namespace abikit

namespace abikit {

namespace {

// The assembler name of the register with DWARF number `reg` ("a0", "s33", "v7"), else its
// DWARF name ("VGPR300", "csr5"), else "reg<N>".
std::string registerName(const Target& t, uint32_t reg) {
  for (const RegisterInfo& r : t.registers)
    if (r.dwarf >= 0 && uint32_t(r.dwarf) == reg) return std::string(r.name);
  const DwarfRegisterRange* r = t.dwarf.findRegister(reg);
  return r ? dwarfRegisterName(*r, reg) : "reg" + std::to_string(reg);
}

std::string hex64(uint64_t v) {
  char buf[24];
  auto r = std::to_chars(buf, buf + sizeof buf, v, 16);
  return "0x" + std::string(buf, r.ptr);
}

template <class J>
void placeJson(J& j, const Target& t, const dwarf::Place& p, const std::string& text) {
  using K = dwarf::Place::Kind;
  j.beginObject();
  switch (p.kind) {
  case K::Register:
    j.field("kind", "register");
    j.field("reg", registerName(t, p.reg));
    break;
  case K::Memory:
    j.field("kind", "memory");
    j.field("space", dwarfSpaceName(t.dwarf, p.space));
    if (p.frame_base) {
      j.field("frame_base_offset", p.offset);
    } else if (p.has_reg) {
      j.field("reg", registerName(t, p.reg));
      j.field("offset", p.offset);
    } else {
      j.field("address", hex64(p.address));
    }
    break;
  case K::Value:
    j.field("kind", "constant");
    j.field("value", hex64(p.address));
    break;
  case K::Implicit:
    j.field("kind", "constant");
    j.field("bytes", hexBytes(p.bytes));
    break;
  case K::OptimizedOut:
    j.field("kind", "optimized_out");
    break;
  case K::Expression:
    j.field("kind", "expression");
    j.field("expression", text);
    break;
  }
  if (p.bits) j.field("bits", p.bits);
  j.endObject();
}

std::string placeText(const Target& t, const dwarf::Place& p, const std::string& text) {
  using K = dwarf::Place::Kind;
  std::string s;
  switch (p.kind) {
  case K::Register:
    s = "register " + registerName(t, p.reg);
    break;
  case K::Memory:
    s = "memory " + dwarfSpaceName(t.dwarf, p.space) + " ";
    if (p.frame_base)
      s += "frame_base" + std::string(p.offset < 0 ? "" : "+") + std::to_string(p.offset);
    else if (p.has_reg)
      s += registerName(t, p.reg) + (p.offset < 0 ? "" : "+") + std::to_string(p.offset);
    else
      s += hex64(p.address);
    break;
  case K::Value:
    s = "constant " + hex64(p.address);
    break;
  case K::Implicit:
    s = "constant [" + hexBytes(p.bytes) + "]";
    break;
  case K::OptimizedOut:
    s = "optimized out";
    break;
  case K::Expression:
    s = "computed: " + text;
    break;
  }
  if (p.bits) s += " (" + std::to_string(p.bits) + " bits)";
  return s;
}

} // namespace

std::string dwarfVariablesJson(const Target& t, const DwarfVariablesReport& r) {
  using VK = dwarf::VariableAt::Kind;
  detail::TextBuffer out;
  detail::JsonWriter<detail::kJsonCompact> j(out);
  j.beginObject();
  j.field("schema", "abikit/1");
  j.field("address", hex64(r.address));
  j.field("function", r.function);
  j.key("variables");
  j.beginArray();
  for (const DwarfVariablesReport::Variable& v : r.variables) {
    j.beginObject();
    j.field("name", v.name);
    if (!v.type.empty()) j.field("type", v.type);
    j.field("parameter", v.parameter);
    j.field("die", hex64(v.die));
    j.key("where");
    j.beginArray();
    if (v.kind == VK::Expression) {
      for (size_t i = 0; i < v.places.size(); ++i) placeJson(j, t, v.places[i], v.place_text[i]);
    } else if (v.kind == VK::Constant) {
      j.beginObject();
      j.field("kind", "constant");
      j.field("bytes", hexBytes(v.constant));
      j.endObject();
    } else {
      j.beginObject();
      j.field("kind", "optimized_out");
      j.endObject();
    }
    j.endArray();
    if (v.kind == VK::Expression) j.field("expression", v.expression);
    j.endObject();
  }
  j.endArray();
  j.endObject();
  out.put('\n');
  return out.take();
}

std::string dwarfVariablesText(const Target& t, const DwarfVariablesReport& r) {
  using VK = dwarf::VariableAt::Kind;
  std::string s = hex64(r.address) + " in " + (r.function.empty() ? "?" : r.function) + "\n";
  for (const DwarfVariablesReport::Variable& v : r.variables) {
    s += "  " + std::string(v.parameter ? "parameter " : "") + v.name;
    if (!v.type.empty()) s += " (" + v.type + ")";
    s += ": ";
    if (v.kind == VK::Expression) {
      for (size_t i = 0; i < v.places.size(); ++i)
        s += (i ? "; " : "") + placeText(t, v.places[i], v.place_text[i]);
      s += "   [" + v.expression + "]";
    } else if (v.kind == VK::Constant) {
      s += "constant [" + hexBytes(v.constant) + "]";
    } else {
      s += "optimized out";
    }
    s += "\n";
  }
  return s;
}

} // namespace abikit
