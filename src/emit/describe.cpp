// `abikit targets` and `abikit describe`: text and JSON views of the target model.
#include "abikit/elf_constants.h"
#include "abikit/emit.h"
#include "json_writer.h"

#include <cstdio>
#include <optional>

namespace abikit {

namespace {

using Json = detail::JsonWriter<detail::kJsonPretty>;

// Empty text is null in the JSON view.
std::optional<std::string_view> orNull(std::string_view s) {
  return s.empty() ? std::nullopt : std::optional(s);
}

std::string hex(uint64_t v, int digits) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "0x%0*llx", digits, static_cast<unsigned long long>(v));
  return buf;
}

const char* formatName(FloatFormat f) {
  switch (f) {
  case FloatFormat::None:
    return "none";
  case FloatFormat::IEEEHalf:
    return "ieee-half";
  case FloatFormat::BFloat:
    return "bfloat16";
  case FloatFormat::IEEESingle:
    return "ieee-single";
  case FloatFormat::IEEEDouble:
    return "ieee-double";
  case FloatFormat::IEEEQuad:
    return "ieee-quad";
  case FloatFormat::X87:
    return "x87-extended";
  }
  return "?";
}

std::vector<std::string> roleList(uint32_t roles) {
  std::vector<std::string> out;
  for (uint32_t bit = 1; bit && bit <= kRoleSpecialInput; bit <<= 1)
    if (roles & bit) out.emplace_back(roleName(static_cast<RegRole>(bit)));
  return out;
}

std::vector<std::string> splitSpaces(std::string_view s) {
  std::vector<std::string> out;
  size_t i = 0;
  while (i < s.size()) {
    size_t j = s.find(' ', i);
    if (j == std::string_view::npos) j = s.size();
    if (j > i) out.emplace_back(s.substr(i, j - i));
    i = j + 1;
  }
  return out;
}

struct TypedefRow {
  const char* name;
  IntKind kind;
};

std::vector<TypedefRow> typedefRows(const DataModel& d) {
  return {{"size_t", d.size_type},     {"ptrdiff_t", d.ptrdiff_type},
          {"intptr_t", d.intptr_type}, {"intmax_t", d.intmax_type},
          {"int64_t", d.int64_type},   {"wchar_t", d.wchar_type},
          {"wint_t", d.wint_type},     {"char16_t", d.char16_type},
          {"char32_t", d.char32_type}, {"sig_atomic_t", d.sig_atomic_type}};
}

} // namespace

// ---------------------------------------------------------------------------------------------

std::string targetsJson(const std::vector<TargetSummary>& targets) {
  detail::TextBuffer out;
  Json j(out);
  j.beginObject();
  j.field("schema", "abikit/1");
  j.key("targets");
  j.beginArray();
  for (const TargetSummary& t : targets) {
    j.beginObject();
    j.field("name", t.name);
    j.field("family", familyName(t.family));
    j.field("description", t.description);
    j.field("cpus", t.cpus);
    j.field("abis", t.abis);
    j.endObject();
  }
  j.endArray();
  j.endObject();
  out.put('\n');
  return out.take();
}

std::string targetsText(const std::vector<TargetSummary>& targets) {
  std::string out;
  for (const TargetSummary& t : targets) {
    out += t.name + "\n    " + t.description + "\n";
    if (!t.abis.empty()) {
      out += "    ABIs: ";
      for (size_t i = 0; i < t.abis.size(); ++i) out += (i ? ", " : "") + t.abis[i];
      out += "\n";
    }
    if (!t.cpus.empty()) {
      std::string line = "    CPUs: ";
      for (size_t i = 0; i < t.cpus.size(); ++i) {
        std::string item = (i ? ", " : "") + t.cpus[i];
        if (line.size() + item.size() > 96) {
          out += line + ",\n";
          line = "          " + t.cpus[i];
        } else {
          line += item;
        }
      }
      out += line + "\n";
    }
  }
  return out;
}

std::string describeJson(const Target& t) {
  const DataModel& d = t.data;
  detail::TextBuffer out;
  Json j(out);
  j.beginObject();
  j.field("schema", "abikit/1");
  j.field("target", t.spelling);
  j.field("family", familyName(t.family));
  j.field("triple", t.triple);
  j.field("arch", t.arch);
  j.field("cpu", t.cpu);
  j.field("abi_variant", t.abi_variant == AbiVariant::Compiler ? "compiler" : "documented");
  j.field("compiler", compilerInfo(t.compiler).name);

  j.key("data_model");
  j.beginObject();
  j.field("endian", d.endian == Endian::Little ? "little" : "big");
  j.field("char_signed", d.char_signed);
  j.key("types");
  j.beginObject();
  auto sizeAlign = [&j](const SizeAlign& sa) {
    j.field("size", sa.size);
    j.field("align", sa.align);
  };
  for (size_t i = 0; i < kNumIntKinds; ++i) {
    const SizeAlign& sa = d.ints[i];
    j.key(intKindName(IntKind(i)));
    if (sa.supported()) {
      j.beginObject();
      sizeAlign(sa);
      j.endObject();
    } else {
      j.null();
    }
  }
  for (size_t i = 0; i < kNumFloatKinds; ++i) {
    const SizeAlign& sa = d.floats[i];
    j.key(floatKindName(FloatKind(i)));
    if (sa.supported()) {
      j.beginObject();
      sizeAlign(sa);
      j.field("format", formatName(d.float_formats[i]));
      j.endObject();
    } else {
      j.null();
    }
  }
  j.key("void *");
  j.beginObject();
  sizeAlign(d.pointer);
  j.endObject();
  j.key("void (*)(void)");
  j.beginObject();
  sizeAlign(d.function_pointer);
  j.endObject();
  j.key("va_list");
  j.beginObject();
  sizeAlign(d.va_list);
  j.field("kind", vaListKindName(d.va_list_kind));
  j.endObject();
  j.endObject();
  j.key("typedefs");
  j.beginObject();
  for (const TypedefRow& r : typedefRows(d)) j.field(r.name, intKindName(r.kind));
  j.endObject();
  j.field("max_vector_align", d.max_vector_align);
  j.field("biggest_alignment", d.biggest_alignment);
  j.field("default_aligned_attribute", d.default_aligned_attr);
  j.field("max_align_t_align", d.max_align_t_align);
  j.field("bitint_max_width", d.bitint_max_width);
  j.field("bitint_max_align", d.bitint_max_align);
  j.field("max_atomic_inline_bits", d.max_atomic_inline_bits);
  j.key("bitfields");
  j.beginObject();
  j.field("type_alignment", d.bitfield_type_alignment);
  j.field("unnamed_and_zero_width_raise_record_alignment", d.zero_length_bitfield_alignment);
  j.endObject();
  j.endObject();

  j.key("registers");
  j.beginArray();
  for (const RegisterInfo& r : t.registers) {
    j.beginObject();
    j.field("name", r.name);
    if (!r.alias.empty()) j.field("alias", r.alias);
    j.field("file", r.file);
    j.field("bits", r.bits);
    j.field("dwarf", r.dwarf >= 0 ? std::optional(r.dwarf) : std::nullopt);
    j.field("roles", roleList(r.roles));
    if (!r.components.empty()) j.field("components", splitSpaces(r.components));
    if (!r.note.empty()) j.field("note", r.note);
    j.endObject();
  }
  j.endArray();

  j.key("stack");
  j.beginObject();
  j.field("grows", t.stack.grows_down ? "down" : "up");
  j.field("alignment", t.stack.alignment);
  j.field("stack_pointer", t.stack.stack_pointer);
  j.field("return_address", orNull(t.stack.return_address));
  j.field("frame_pointer", orNull(t.stack.frame_pointer));
  j.field("argument_area", t.stack.argument_area);
  j.endObject();

  j.key("address_spaces");
  j.beginArray();
  for (const AddressSpaceInfo& a : t.address_spaces) {
    j.beginObject();
    j.field("number", a.number);
    j.field("name", a.name);
    j.field("c_spelling", orNull(a.c_spelling));
    j.field("pointer_bits", a.pointer_bits);
    j.field("address_bits", a.address_bits ? a.address_bits : a.pointer_bits);
    j.field("null_value", a.null_known ? std::optional(hex(a.null_value, (a.pointer_bits + 3) / 4))
                                       : std::nullopt);
    if (!a.note.empty()) j.field("note", a.note);
    j.endObject();
  }
  j.endArray();

  j.key("memory");
  j.beginArray();
  for (const MemoryRegion& m : t.memory) {
    j.beginObject();
    j.field("name", m.name);
    j.field("base", m.base);
    j.field("base_hex", hex(m.base, 8));
    j.field("size", m.size ? std::optional(m.size) : std::nullopt);
    if (!m.note.empty()) j.field("note", m.note);
    j.endObject();
  }
  j.endArray();

  j.key("elf");
  if (t.elf.machine == 0) {
    j.null(); // the target's objects are not ELF (Windows: COFF)
  } else {
    j.beginObject();
    j.field("class", t.elf.elf_class == kElfClass64 ? "ELFCLASS64" : "ELFCLASS32");
    j.field("data", t.elf.data == kElfData2Msb ? "ELFDATA2MSB" : "ELFDATA2LSB");
    j.field("osabi", t.elf.osabi);
    j.field("abi_version", t.elf.abi_version);
    j.field("e_machine", t.elf.machine);
    j.field("machine_name", t.elf.machine_name);
    j.field("e_flags", t.elf.flags);
    j.field("e_flags_hex", hex(t.elf.flags, 8));
    j.field("relocations", t.elf.rela ? "RELA" : "REL");
    j.endObject();
  }

  // Each key once, at its first place, with its last value (as a JSON object holds them).
  j.key("details");
  if (t.properties.empty()) {
    j.null();
  } else {
    j.beginObject();
    for (size_t i = 0; i < t.properties.size(); ++i) {
      const std::string& k = t.properties[i].key;
      bool seen = false;
      for (size_t e = 0; e < i && !seen; ++e) seen = t.properties[e].key == k;
      if (seen) continue;
      const TargetProperty* p = &t.properties[i];
      for (size_t l = i + 1; l < t.properties.size(); ++l)
        if (t.properties[l].key == k) p = &t.properties[l];
      j.key(k);
      if (!p->list.empty())
        j.value(p->list);
      else if (p->is_number)
        j.value(std::stoll(p->value));
      else
        j.value(p->value);
    }
    j.endObject();
  }
  j.endObject();
  out.put('\n');
  return out.take();
}

std::string describeText(const Target& t) {
  const DataModel& d = t.data;
  std::string out;
  auto line = [&](const std::string& s) { out += s + "\n"; };
  line("target:    " + t.spelling);
  line("family:    " + std::string(familyName(t.family)) + "   triple: " + t.triple +
       "   cpu: " + t.cpu);
  line("compiler:  " + std::string(compilerInfo(t.compiler).name) +
       (t.abi_variant == AbiVariant::Documented ? " (--abi-variant=documented: the ABI document "
                                                  "where the two differ)"
                                                : ""));
  for (const TargetProperty& p : t.properties) {
    std::string v = p.value;
    if (!p.list.empty()) {
      v.clear();
      for (size_t i = 0; i < p.list.size(); ++i) v += (i ? " " : "") + p.list[i];
    }
    char buf[40];
    std::snprintf(buf, sizeof buf, "  %-20s ", p.key.c_str());
    line(buf + v);
  }

  line("");
  line("data model (" + std::string(d.endian == Endian::Little ? "little" : "big") +
       "-endian, char is " + (d.char_signed ? "signed" : "unsigned") + "):");
  auto row = [&](const std::string& name, const SizeAlign& sa, const std::string& extra) {
    char buf[128];
    if (sa.supported())
      std::snprintf(buf, sizeof buf, "  %-22s size %2u  align %2u  %s", name.c_str(), sa.size,
                    sa.align, extra.c_str());
    else
      std::snprintf(buf, sizeof buf, "  %-22s not supported", name.c_str());
    line(buf);
  };
  for (size_t i = 0; i < kNumIntKinds; ++i) row(intKindName(IntKind(i)), d.ints[i], "");
  for (size_t i = 0; i < kNumFloatKinds; ++i)
    row(floatKindName(FloatKind(i)), d.floats[i], formatName(d.float_formats[i]));
  row("void *", d.pointer, "");
  row("function pointer", d.function_pointer, "");
  row("va_list", d.va_list, std::string(vaListKindName(d.va_list_kind)));
  std::string tds = "  typedefs:";
  for (const TypedefRow& r : typedefRows(d))
    tds += std::string(" ") + r.name + "=" + intKindName(r.kind) + ";";
  line(tds);
  line("  __BIGGEST_ALIGNMENT__ " + std::to_string(d.biggest_alignment) +
       ", aligned attribute default " + std::to_string(d.default_aligned_attr) + ", max_align_t " +
       std::to_string(d.max_align_t_align) + ", vector alignment cap " +
       (d.max_vector_align ? std::to_string(d.max_vector_align) : std::string("none")) +
       ", _BitInt max width " + std::to_string(d.bitint_max_width));
  if (d.zero_length_bitfield_alignment)
    line("  unnamed and zero-width bit-fields raise the record alignment");

  line("");
  line("registers:");
  for (const RegisterInfo& r : t.registers) {
    std::string roles;
    for (const std::string& role : roleList(r.roles)) roles += (roles.empty() ? "" : ",") + role;
    char buf[256];
    std::snprintf(buf, sizeof buf, "  %-8s %-6s %3u bits  dwarf %-5s %-40s %s",
                  std::string(r.name).c_str(), std::string(r.file).c_str(), r.bits,
                  r.dwarf >= 0 ? std::to_string(r.dwarf).c_str() : "-", roles.c_str(),
                  std::string(r.note).c_str());
    std::string s = buf;
    while (!s.empty() && s.back() == ' ') s.pop_back();
    line(s);
  }

  line("");
  line("stack: grows " + std::string(t.stack.grows_down ? "down" : "up") + ", aligned to " +
       std::to_string(t.stack.alignment) + " bytes" +
       (t.stack.stack_pointer.empty() ? ", no stack-pointer register"
                                      : ", SP " + std::string(t.stack.stack_pointer)) +
       (t.stack.return_address.empty() ? "" : ", RA " + std::string(t.stack.return_address)) +
       (t.stack.frame_pointer.empty() ? "" : ", FP " + std::string(t.stack.frame_pointer)));
  line("  argument area: " + std::string(t.stack.argument_area));

  if (!t.address_spaces.empty()) {
    line("");
    line("address spaces:");
    for (const AddressSpaceInfo& a : t.address_spaces) {
      char buf[256];
      std::snprintf(buf, sizeof buf, "  %3u %-14s %-12s pointer %2u bits  null %s  %s", a.number,
                    std::string(a.name).c_str(), std::string(a.c_spelling).c_str(), a.pointer_bits,
                    a.null_known ? hex(a.null_value, (a.pointer_bits + 3) / 4).c_str() : "-",
                    std::string(a.note).c_str());
      std::string s = buf;
      while (!s.empty() && s.back() == ' ') s.pop_back();
      line(s);
    }
  }
  if (!t.memory.empty()) {
    line("");
    line("memory:");
    for (const MemoryRegion& m : t.memory) {
      char buf[256];
      std::snprintf(buf, sizeof buf, "  %-14s base %s  size %s  %s", std::string(m.name).c_str(),
                    hex(m.base, 8).c_str(), m.size ? std::to_string(m.size).c_str() : "-",
                    std::string(m.note).c_str());
      line(buf);
    }
  }
  line("");
  if (t.elf.machine == 0) {
    line("ELF: none (this target's objects are not ELF)");
    return out;
  }
  line("ELF: " + std::string(t.elf.elf_class == kElfClass64 ? "ELFCLASS64" : "ELFCLASS32") + ", " +
       (t.elf.data == kElfData2Msb ? "big-endian" : "little-endian") + ", OSABI " +
       std::to_string(t.elf.osabi) + ", ABI version " + std::to_string(t.elf.abi_version) +
       ", e_machine " + std::to_string(t.elf.machine) + " (" + std::string(t.elf.machine_name) +
       "), e_flags " + hex(t.elf.flags, 8) + ", " + (t.elf.rela ? "RELA" : "REL"));
  return out;
}

} // namespace abikit
