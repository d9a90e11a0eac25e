// `abikit kernarg`: the kernarg segments of AMDGPU kernels as a text table, as JSON
// (cli-contract.md) and as the `.amdgpu_metadata` YAML LLVM 14 prints.
#include "abikit/emit.h"
#include "json_writer.h"

#include <array>
#include <cctype>
#include <cstdlib>

namespace abikit {

namespace {

// ----- YAML scalars as llvm::yaml::Output prints a msgpack::Document -------------------------

bool allOf(std::string_view s, std::string_view chars) {
  return s.find_first_not_of(chars) == std::string_view::npos;
}

std::string_view skipDigits(std::string_view s) {
  size_t n = s.find_first_not_of("0123456789");
  return s.substr(n == std::string_view::npos ? s.size() : n);
}

// llvm::yaml::isNumeric.
bool isNumeric(std::string_view s) {
  if (s.empty() || s == "+" || s == "-") return false;
  if (s == ".nan" || s == ".NaN" || s == ".NAN") return true;
  std::string_view tail = s.front() == '-' || s.front() == '+' ? s.substr(1) : s;
  if (tail == ".inf" || tail == ".Inf" || tail == ".INF") return true;
  if (s.substr(0, 2) == "0o") return s.size() > 2 && allOf(s.substr(2), "01234567");
  if (s.substr(0, 2) == "0x") return s.size() > 2 && allOf(s.substr(2), "0123456789abcdefABCDEF");
  s = tail;
  if (s.front() == '.' && (s.size() == 1 || !std::isdigit(static_cast<unsigned char>(s[1]))))
    return false;
  if (s.front() == 'e' || s.front() == 'E') return false;
  s = skipDigits(s);
  if (s.empty()) return true;
  bool exponent = false;
  if (s.front() == '.') {
    s = skipDigits(s.substr(1));
    if (s.empty()) return true;
  }
  if (s.front() == 'e' || s.front() == 'E') {
    exponent = true;
    s = s.substr(1);
  }
  if (!exponent || s.empty()) return false;
  if (s.front() == '+' || s.front() == '-') {
    s = s.substr(1);
    if (s.empty()) return false;
  }
  return skipDigits(s).empty();
}

enum class Quote : uint8_t { None, Single, Double };

// llvm::yaml::needsQuotes (LLVM 14).
Quote needsQuotes(std::string_view s) {
  if (s.empty()) return Quote::Single;
  Quote q = Quote::None;
  if (std::isspace(static_cast<unsigned char>(s.front())) ||
      std::isspace(static_cast<unsigned char>(s.back())))
    q = Quote::Single;
  if (s == "null" || s == "Null" || s == "NULL" || s == "~") q = Quote::Single;
  if (s == "true" || s == "True" || s == "TRUE" || s == "false" || s == "False" || s == "FALSE")
    q = Quote::Single;
  if (isNumeric(s)) q = Quote::Single;
  static constexpr std::string_view kIndicators = "-?:\\,[]{}#&*!|>'\"%@`";
  if (kIndicators.find(s.front()) != std::string_view::npos) q = Quote::Single;
  for (unsigned char c : s) {
    if (std::isalnum(c)) continue;
    switch (c) {
    case '_':
    case '-':
    case '^':
    case '.':
    case ',':
    case ' ':
    case 0x9:
      continue;
    case 0xA:
    case 0xD:
      q = Quote::Single;
      continue;
    case 0x7F:
      return Quote::Double;
    default:
      if (c <= 0x1F || (c & 0x80)) return Quote::Double;
      q = Quote::Single;
    }
  }
  return q;
}

// Would msgpack::DocNode::fromString read this text back as something other than a string (an
// unsigned or signed integer, a YAML boolean, a floating-point number)? Then LLVM tags it !str.
bool readsAsNonString(std::string_view s) {
  if (s.empty()) return false;
  static constexpr std::string_view kBools[] = {
      "y", "Y", "yes", "Yes", "YES", "true",  "True",  "TRUE",  "on",  "On",  "ON",
      "n", "N", "no",  "No",  "NO",  "false", "False", "FALSE", "off", "Off", "OFF"};
  for (std::string_view b : kBools)
    if (s == b) return true;
  std::string text(s);
  if (std::isspace(static_cast<unsigned char>(text.front()))) return false;
  char* end = nullptr;
  // getAsUnsignedInteger / getAsSignedInteger with radix 0: 0x, 0b, 0o and 0 prefixes.
  std::string digits = text;
  bool neg = !digits.empty() && digits.front() == '-';
  if (neg) digits = digits.substr(1);
  if (!digits.empty() && std::isdigit(static_cast<unsigned char>(digits.front()))) {
    int radix = 10;
    std::string body = digits;
    if (body.size() > 1 && body[0] == '0' && (body[1] == 'x' || body[1] == 'X'))
      radix = 16, body = body.substr(2);
    else if (body.size() > 1 && body[0] == '0' && (body[1] == 'b' || body[1] == 'B'))
      radix = 2, body = body.substr(2);
    else if (body.size() > 1 && body[0] == '0' && (body[1] == 'o' || body[1] == 'O'))
      radix = 8, body = body.substr(2);
    else if (body.size() > 1 && body[0] == '0')
      radix = 8, body = body.substr(1);
    if (!body.empty()) {
      std::strtoull(body.c_str(), &end, radix);
      if (end && *end == '\0') return true;
    }
  }
  // to_float: strtod over the whole text.
  std::strtod(text.c_str(), &end);
  return end && end != text.c_str() && *end == '\0';
}

std::string yamlString(std::string_view s) {
  std::string out;
  if (readsAsNonString(s)) out = "!str ";
  switch (needsQuotes(s)) {
  case Quote::None:
    out += s;
    break;
  case Quote::Single: {
    out += '\'';
    for (char c : s) {
      if (c == '\'') out += '\'';
      out += c;
    }
    out += '\'';
    break;
  }
  case Quote::Double: {
    out += '"';
    static const char* kHex = "0123456789ABCDEF";
    for (unsigned char c : s) {
      if (c == '"' || c == '\\') {
        out += '\\';
        out += char(c);
      } else if (c < 0x20 || c == 0x7F) {
        out += "\\x";
        out += kHex[c >> 4];
        out += kHex[c & 15];
      } else {
        out += char(c);
      }
    }
    out += '"';
    break;
  }
  }
  return out;
}

/// "key:" padded as llvm::yaml::Output::paddedKey does (values start 16 columns after the key
/// when the key is shorter than that), then the value.
void yamlKey(std::string& out, std::string_view indent, std::string_view key,
             std::string_view value) {
  out += indent;
  out += key;
  out += ':';
  out += key.size() < 16 ? std::string(16 - key.size(), ' ') : std::string(" ");
  out += value;
  out += '\n';
}

void yamlArg(std::string& out, const KernelArgument& a) {
  // Keys in the msgpack map's (sorted) order.
  bool first = true;
  auto key = [&](std::string_view k, const std::string& v) {
    yamlKey(out, first ? "      - " : "        ", k, v);
    first = false;
  };
  if (a.access != KernargAccess::None) key(".access", std::string(kernargAccessName(a.access)));
  if (a.address_space != KernargAddressSpace::None)
    key(".address_space", std::string(kernargAddressSpaceName(a.address_space)));
  if (a.is_const) key(".is_const", "true");
  if (a.is_pipe) key(".is_pipe", "true");
  if (a.is_restrict) key(".is_restrict", "true");
  if (a.is_volatile) key(".is_volatile", "true");
  if (!a.name.empty()) key(".name", yamlString(a.name));
  key(".offset", std::to_string(a.offset));
  if (a.pointee_align) key(".pointee_align", std::to_string(a.pointee_align));
  key(".size", std::to_string(a.size));
  if (!a.type_name.empty()) key(".type_name", yamlString(a.type_name));
  key(".value_kind", std::string(kernargValueKindName(a.value_kind)));
}

std::string targetId(const Target& t) {
  // The target spelling after "-mcpu=" is the canonical target id.
  size_t at = t.spelling.find("-mcpu=");
  if (at == std::string::npos) return {};
  std::string id = t.spelling.substr(at + 6);
  return id.substr(0, id.find(' '));
}

} // namespace

std::string kernargYaml(const Target& target, std::span<const KernelArguments> kernels) {
  std::string out = "---\n";
  if (kernels.empty()) {
    out += "amdhsa.kernels:  []\n";
  } else {
    out += "amdhsa.kernels:\n";
    for (const KernelArguments& k : kernels) {
      if (!k.error.empty()) continue; // reported as an error (stderr)
      if (k.args.empty()) {
        yamlKey(out, "  - ", ".args", "[]");
      } else {
        out += "  - .args:\n";
        for (const KernelArgument& a : k.args) yamlArg(out, a);
      }
      yamlKey(out, "    ", ".kernarg_segment_align", std::to_string(k.kernarg_segment_align));
      yamlKey(out, "    ", ".kernarg_segment_size", std::to_string(k.kernarg_segment_size));
      if (!k.language.empty()) {
        yamlKey(out, "    ", ".language", yamlString(k.language));
        out += "    .language_version:\n";
        for (unsigned v : k.language_version) out += "      - " + std::to_string(v) + "\n";
      }
      yamlKey(out, "    ", ".name", yamlString(k.name));
      yamlKey(out, "    ", ".symbol", yamlString(std::string(k.name) + ".kd"));
    }
  }
  std::string id = targetId(target);
  if (!id.empty()) yamlKey(out, "", "amdhsa.target", yamlString("amdgcn-amd-amdhsa--" + id));
  unsigned minor =
      target.family == Family::AMDGPU && target.amdgpu().code_object_version >= 5 ? 2 : 1;
  out += "amdhsa.version:\n  - 1\n  - " + std::to_string(minor) + "\n...\n";
  return out;
}

std::string kernargJson(const Target& target, std::span<const KernelArguments> kernels) {
  detail::TextBuffer out;
  detail::JsonWriter<detail::kJsonPretty> j(out);
  j.beginObject();
  j.field("schema", "abikit/1");
  j.field("target", target.spelling);
  j.key("kernels");
  j.beginArray();
  for (const KernelArguments& k : kernels) {
    j.beginObject();
    j.field("name", k.name);
    if (!k.error.empty()) {
      j.field("error", k.error);
      j.endObject();
      continue;
    }
    j.field("kernarg_segment_size", k.kernarg_segment_size);
    j.field("kernarg_segment_align", k.kernarg_segment_align);
    j.key("args");
    j.beginArray();
    for (const KernelArgument& a : k.args) {
      j.beginObject();
      if (!a.name.empty()) j.field("name", a.name);
      if (!a.type_name.empty()) j.field("type_name", a.type_name);
      j.field("offset", a.offset);
      j.field("size", a.size);
      j.field("value_kind", kernargValueKindName(a.value_kind));
      if (a.address_space != KernargAddressSpace::None)
        j.field("address_space", kernargAddressSpaceName(a.address_space));
      if (a.pointee_align) j.field("pointee_align", a.pointee_align);
      if (a.access != KernargAccess::None) j.field("access", kernargAccessName(a.access));
      if (a.is_const) j.field("is_const", true);
      if (a.is_restrict) j.field("is_restrict", true);
      if (a.is_volatile) j.field("is_volatile", true);
      if (a.is_pipe) j.field("is_pipe", true);
      j.endObject();
    }
    j.endArray();
    if (!k.notes.empty()) j.field("notes", k.notes);
    j.endObject();
  }
  j.endArray();
  j.endObject();
  out.put('\n');
  return out.take();
}

std::string kernargText(const Target& target, const TypeContext& ctx,
                        std::span<const KernelArguments> kernels) {
  std::string out = "target: " + target.spelling + "\n";
  for (const KernelArguments& k : kernels) {
    if (!k.error.empty()) continue; // reported as an error (stderr)
    out += "\n" + std::string(k.name) + ": kernarg segment " +
           std::to_string(k.kernarg_segment_size) + " bytes, align " +
           std::to_string(k.kernarg_segment_align) + " (explicit arguments " +
           std::to_string(k.explicit_size) + " bytes)\n";
    std::vector<std::array<std::string, 6>> rows;
    rows.push_back({"offset", "size", "value kind", "name", "type", "details"});
    for (const KernelArgument& a : k.args) {
      std::string details;
      auto add = [&](std::string s) {
        if (!details.empty()) details += ", ";
        details += s;
      };
      if (a.address_space != KernargAddressSpace::None)
        add(std::string(kernargAddressSpaceName(a.address_space)));
      if (a.access != KernargAccess::None) add(std::string(kernargAccessName(a.access)));
      if (a.pointee_align) add("pointee align " + std::to_string(a.pointee_align));
      if (a.is_const) add("const");
      if (a.is_restrict) add("restrict");
      if (a.is_volatile) add("volatile");
      if (a.is_pipe) add("pipe");
      // The C type of an explicit argument (its OpenCL type name when it has one).
      std::string type = a.type_name;
      if (type.empty() && a.type) type = typeName(a.type, ctx);
      rows.push_back({std::to_string(a.offset), std::to_string(a.size),
                      std::string(kernargValueKindName(a.value_kind)), a.name, type, details});
    }
    size_t w[6] = {};
    for (const auto& r : rows)
      for (size_t i = 0; i < 6; ++i) w[i] = std::max(w[i], r[i].size());
    for (const auto& r : rows) {
      std::string line = "  ";
      for (size_t i = 0; i < 6; ++i) {
        line += r[i];
        if (i + 1 < 6) line += std::string(w[i] - r[i].size() + 2, ' ');
      }
      while (!line.empty() && line.back() == ' ') line.pop_back();
      out += line + "\n";
    }
    for (const std::string& n : k.notes) out += "  note: " + n + "\n";
  }
  return out;
}

} // namespace abikit
