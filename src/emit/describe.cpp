// `abikit targets` and `abikit describe`: text and JSON views of the target model.
#include "abikit/emit.h"

#include <cstdio>
#include <nlohmann/json.hpp>

namespace abikit {

using nlohmann::ordered_json;

namespace {

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
  ordered_json doc;
  doc["schema"] = "abikit/1";
  ordered_json list = ordered_json::array();
  for (const TargetSummary& t : targets) {
    ordered_json j;
    j["name"] = t.name;
    j["family"] = std::string(familyName(t.family));
    j["description"] = t.description;
    j["cpus"] = t.cpus;
    j["abis"] = t.abis;
    list.push_back(std::move(j));
  }
  doc["targets"] = std::move(list);
  return doc.dump(2, ' ', false, ordered_json::error_handler_t::replace) + "\n";
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
  ordered_json doc;
  doc["schema"] = "abikit/1";
  doc["target"] = t.spelling;
  doc["family"] = std::string(familyName(t.family));
  doc["triple"] = t.triple;
  doc["arch"] = t.arch;
  doc["cpu"] = t.cpu;
  doc["abi_variant"] = t.abi_variant == AbiVariant::Compiler ? "compiler" : "documented";

  ordered_json dm;
  dm["endian"] = d.endian == Endian::Little ? "little" : "big";
  dm["char_signed"] = d.char_signed;
  ordered_json types;
  for (size_t i = 0; i < kNumIntKinds; ++i) {
    const SizeAlign& sa = d.ints[i];
    types[intKindName(IntKind(i))] =
        sa.supported() ? ordered_json{{"size", sa.size}, {"align", sa.align}} : ordered_json();
  }
  for (size_t i = 0; i < kNumFloatKinds; ++i) {
    const SizeAlign& sa = d.floats[i];
    types[floatKindName(FloatKind(i))] =
        sa.supported() ? ordered_json{{"size", sa.size},
                                      {"align", sa.align},
                                      {"format", formatName(d.float_formats[i])}}
                       : ordered_json();
  }
  types["void *"] = {{"size", d.pointer.size}, {"align", d.pointer.align}};
  types["void (*)(void)"] = {{"size", d.function_pointer.size},
                             {"align", d.function_pointer.align}};
  types["va_list"] = {{"size", d.va_list.size},
                      {"align", d.va_list.align},
                      {"kind", d.va_list_kind == VaListKind::VoidPtr ? "void *" : "char *"}};
  dm["types"] = std::move(types);
  ordered_json tds;
  for (const TypedefRow& r : typedefRows(d)) tds[r.name] = intKindName(r.kind);
  dm["typedefs"] = std::move(tds);
  dm["max_vector_align"] = d.max_vector_align;
  dm["biggest_alignment"] = d.biggest_alignment;
  dm["default_aligned_attribute"] = d.default_aligned_attr;
  dm["max_align_t_align"] = d.max_align_t_align;
  dm["bitint_max_width"] = d.bitint_max_width;
  dm["bitint_max_align"] = d.bitint_max_align;
  dm["max_atomic_inline_bits"] = d.max_atomic_inline_bits;
  dm["bitfields"] = {
      {"type_alignment", d.bitfield_type_alignment},
      {"unnamed_and_zero_width_raise_record_alignment", d.zero_length_bitfield_alignment}};
  doc["data_model"] = std::move(dm);

  ordered_json regs = ordered_json::array();
  for (const RegisterInfo& r : t.registers) {
    ordered_json j;
    j["name"] = std::string(r.name);
    if (!r.alias.empty()) j["alias"] = std::string(r.alias);
    j["file"] = std::string(r.file);
    j["bits"] = r.bits;
    j["dwarf"] = r.dwarf >= 0 ? ordered_json(r.dwarf) : ordered_json();
    j["roles"] = roleList(r.roles);
    if (!r.components.empty()) j["components"] = splitSpaces(r.components);
    if (!r.note.empty()) j["note"] = std::string(r.note);
    regs.push_back(std::move(j));
  }
  doc["registers"] = std::move(regs);

  ordered_json st;
  st["grows"] = t.stack.grows_down ? "down" : "up";
  st["alignment"] = t.stack.alignment;
  st["stack_pointer"] = std::string(t.stack.stack_pointer);
  st["return_address"] =
      t.stack.return_address.empty() ? ordered_json() : ordered_json(t.stack.return_address);
  st["frame_pointer"] =
      t.stack.frame_pointer.empty() ? ordered_json() : ordered_json(t.stack.frame_pointer);
  st["argument_area"] = std::string(t.stack.argument_area);
  doc["stack"] = std::move(st);

  ordered_json spaces = ordered_json::array();
  for (const AddressSpaceInfo& a : t.address_spaces) {
    ordered_json j;
    j["number"] = a.number;
    j["name"] = std::string(a.name);
    j["c_spelling"] = a.c_spelling.empty() ? ordered_json() : ordered_json(a.c_spelling);
    j["pointer_bits"] = a.pointer_bits;
    j["address_bits"] = a.address_bits ? a.address_bits : a.pointer_bits;
    j["null_value"] =
        a.null_known ? ordered_json(hex(a.null_value, (a.pointer_bits + 3) / 4)) : ordered_json();
    if (!a.note.empty()) j["note"] = std::string(a.note);
    spaces.push_back(std::move(j));
  }
  doc["address_spaces"] = std::move(spaces);

  ordered_json mem = ordered_json::array();
  for (const MemoryRegion& m : t.memory) {
    ordered_json j;
    j["name"] = std::string(m.name);
    j["base"] = m.base;
    j["base_hex"] = hex(m.base, 8);
    j["size"] = m.size ? ordered_json(m.size) : ordered_json();
    if (!m.note.empty()) j["note"] = std::string(m.note);
    mem.push_back(std::move(j));
  }
  doc["memory"] = std::move(mem);

  ordered_json elf;
  elf["class"] = t.elf.elf_class == 2 ? "ELFCLASS64" : "ELFCLASS32";
  elf["data"] = t.elf.data == 2 ? "ELFDATA2MSB" : "ELFDATA2LSB";
  elf["osabi"] = t.elf.osabi;
  elf["abi_version"] = t.elf.abi_version;
  elf["e_machine"] = t.elf.machine;
  elf["machine_name"] = std::string(t.elf.machine_name);
  elf["e_flags"] = t.elf.flags;
  elf["e_flags_hex"] = hex(t.elf.flags, 8);
  elf["relocations"] = t.elf.rela ? "RELA" : "REL";
  doc["elf"] = std::move(elf);

  ordered_json props;
  for (const TargetProperty& p : t.properties) {
    if (!p.list.empty())
      props[p.key] = p.list;
    else if (p.is_number)
      props[p.key] = std::stoll(p.value);
    else
      props[p.key] = p.value;
  }
  doc["details"] = std::move(props);
  return doc.dump(2, ' ', false, ordered_json::error_handler_t::replace) + "\n";
}

std::string describeText(const Target& t) {
  const DataModel& d = t.data;
  std::string out;
  auto line = [&](const std::string& s) { out += s + "\n"; };
  line("target:    " + t.spelling);
  line("family:    " + std::string(familyName(t.family)) + "   triple: " + t.triple +
       "   cpu: " + t.cpu);
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
  row("va_list", d.va_list, d.va_list_kind == VaListKind::VoidPtr ? "void *" : "char *");
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
  line("ELF: " + std::string(t.elf.elf_class == 2 ? "ELFCLASS64" : "ELFCLASS32") + ", " +
       (t.elf.data == 2 ? "big-endian" : "little-endian") + ", OSABI " +
       std::to_string(t.elf.osabi) + ", ABI version " + std::to_string(t.elf.abi_version) +
       ", e_machine " + std::to_string(t.elf.machine) + " (" + std::string(t.elf.machine_name) +
       "), e_flags " + hex(t.elf.flags, 8) + ", " + (t.elf.rela ? "RELA" : "REL"));
  return out;
}

} // namespace abikit
