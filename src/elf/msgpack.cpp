// MessagePack documents (AMDGPU code-object metadata): decoded with msgpack-cxx's visitor parser
// into a flat pre-order tree, and printed as YAML the way llvm-readelf prints them (LLVM's YAML
// writer for msgpack::Document). The rules of that writer are listed in docs/elf.md.
#include "abikit/diag.h"
#include "abikit/elf.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <msgpack.hpp>

namespace abikit {

namespace {

constexpr size_t kMaxDepth = 64;
constexpr size_t kMaxNodes = size_t(1) << 22;

using Kind = MsgPackNode::Kind;

/// Builds the node tree from msgpack-cxx's parse events. Returning false stops the parser; the
/// reason is kept in `error`.
struct TreeBuilder : msgpack::null_visitor {
  std::vector<MsgPackNode>& nodes;
  const char* base;
  std::vector<size_t> open; // indices of the containers being filled
  size_t key_start = 0;
  std::string error;
  size_t error_pos = 0; // byte position for `error`, when known
  bool has_error_pos = false;

  TreeBuilder(std::vector<MsgPackNode>& n, const char* b) : nodes(n), base(b) {}

  bool add(MsgPackNode n) {
    if (nodes.size() >= kMaxNodes) {
      error = "more than " + std::to_string(kMaxNodes) + " MessagePack values";
      return false;
    }
    nodes.push_back(n);
    return true;
  }
  bool visit_nil() { return add({}); }
  bool visit_boolean(bool v) {
    MsgPackNode n;
    n.kind = Kind::Bool;
    n.b = v;
    return add(n);
  }
  bool visit_positive_integer(uint64_t v) {
    MsgPackNode n;
    n.kind = Kind::UInt;
    n.u = v;
    return add(n);
  }
  bool visit_negative_integer(int64_t v) {
    MsgPackNode n;
    n.kind = Kind::Int;
    n.i = v;
    return add(n);
  }
  bool visit_float32(float v) { return visit_float64(double(v)); }
  bool visit_float64(double v) {
    MsgPackNode n;
    n.kind = Kind::Float;
    n.f = v;
    return add(n);
  }
  bool visit_str(const char* v, uint32_t size) {
    MsgPackNode n;
    n.kind = Kind::String;
    n.str = std::string_view(v, size);
    return add(n);
  }
  bool visit_bin(const char* v, uint32_t size) {
    MsgPackNode n;
    n.kind = Kind::Binary;
    n.str = std::string_view(v, size);
    return add(n);
  }
  bool visit_ext(const char* v, uint32_t size) {
    error = "MessagePack extension types are not valid in AMDGPU metadata";
    error_pos = size_t(v - base);
    has_error_pos = v != nullptr;
    return false;
  }
  bool startContainer(Kind k, uint32_t count) {
    if (open.size() >= kMaxDepth) {
      error = "MessagePack values nested deeper than " + std::to_string(kMaxDepth) + " levels";
      return false;
    }
    MsgPackNode n;
    n.kind = k;
    n.count = count;
    if (!add(n)) return false;
    open.push_back(nodes.size() - 1);
    return true;
  }
  bool endContainer() {
    size_t i = open.back();
    open.pop_back();
    nodes[i].subtree = uint32_t(nodes.size() - i);
    return true;
  }
  bool start_array(uint32_t n) { return startContainer(Kind::Array, n); }
  bool end_array() { return endContainer(); }
  bool start_map(uint32_t n) { return startContainer(Kind::Map, n); }
  bool end_map() { return endContainer(); }
  bool start_map_key() {
    key_start = nodes.size();
    return true;
  }
  bool end_map_key() {
    Kind k = nodes[key_start].kind;
    if (k == Kind::Array || k == Kind::Map) {
      error = "a MessagePack map key is not a scalar";
      return false;
    }
    return true;
  }
  // msgpack-cxx's own errors come back as its parse_return; the positions are taken from there.
  void parse_error(size_t, size_t) {}
  void insufficient_bytes(size_t, size_t) {}
};

// ----- YAML, as LLVM's writer prints a msgpack::Document ---------------------------------------

// Order of map keys in LLVM's document (DocNode::operator<): by kind Int < UInt < Nil < Boolean <
// Float < String < Binary, then by value.
int kindRank(Kind k) {
  switch (k) {
  case Kind::Int:
    return 0;
  case Kind::UInt:
    return 1;
  case Kind::Nil:
    return 2;
  case Kind::Bool:
    return 3;
  case Kind::Float:
    return 4;
  case Kind::String:
    return 5;
  case Kind::Binary:
    return 6;
  case Kind::Array:
    return 7;
  case Kind::Map:
    return 8;
  }
  return 9;
}

bool keyLess(const MsgPackNode& a, const MsgPackNode& b) {
  int ra = kindRank(a.kind), rb = kindRank(b.kind);
  if (ra != rb) return ra < rb;
  switch (a.kind) {
  case Kind::Int:
    return a.i < b.i;
  case Kind::UInt:
    return a.u < b.u;
  case Kind::Bool:
    return a.b < b.b;
  case Kind::Float:
    return a.f < b.f;
  case Kind::String:
  case Kind::Binary:
    return a.str < b.str;
  default:
    return false;
  }
}

bool keyEqual(const MsgPackNode& a, const MsgPackNode& b) {
  return !keyLess(a, b) && !keyLess(b, a);
}

/// The scalar as LLVM's DocNode::toString() spells it.
std::string scalarString(const MsgPackNode& n) {
  char buf[64];
  switch (n.kind) {
  case Kind::String:
  case Kind::Binary:
    return std::string(n.str);
  case Kind::Nil:
    return {};
  case Kind::Bool:
    return n.b ? "true" : "false";
  case Kind::Int:
    std::snprintf(buf, sizeof buf, "%lld", static_cast<long long>(n.i));
    return buf;
  case Kind::UInt:
    std::snprintf(buf, sizeof buf, "%llu", static_cast<unsigned long long>(n.u));
    return buf;
  case Kind::Float:
    if (std::isnan(n.f)) return "nan";
    if (std::isinf(n.f)) return std::signbit(n.f) ? "-INF" : "INF";
    std::snprintf(buf, sizeof buf, "%.6e", n.f);
    return buf;
  default:
    return {};
  }
}

// LLVM's integer parsing with automatic radix (0x, 0b, 0o, leading 0 = octal); the whole text
// must be consumed and the value must fit.
bool parseUnsignedAuto(std::string_view s, uint64_t& out) {
  unsigned radix = 10;
  if (s.size() >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
    radix = 16;
    s.remove_prefix(2);
  } else if (s.size() >= 2 && s[0] == '0' && (s[1] == 'b' || s[1] == 'B')) {
    radix = 2;
    s.remove_prefix(2);
  } else if (s.size() >= 2 && s[0] == '0' && s[1] == 'o') {
    radix = 8;
    s.remove_prefix(2);
  } else if (s.size() >= 2 && s[0] == '0' && s[1] >= '0' && s[1] <= '9') {
    radix = 8;
    s.remove_prefix(1);
  }
  if (s.empty()) return false;
  uint64_t v = 0;
  for (char c : s) {
    unsigned d;
    if (c >= '0' && c <= '9')
      d = unsigned(c - '0');
    else if (c >= 'a' && c <= 'z')
      d = unsigned(c - 'a') + 10;
    else if (c >= 'A' && c <= 'Z')
      d = unsigned(c - 'A') + 10;
    else
      return false;
    if (d >= radix) return false;
    if (v > (~uint64_t(0) - d) / radix) return false;
    v = v * radix + d;
  }
  out = v;
  return true;
}

bool parseSignedAuto(std::string_view s, int64_t& out) {
  uint64_t u;
  if (!s.empty() && s[0] == '-') {
    if (!parseUnsignedAuto(s.substr(1), u) || u > uint64_t(1) << 63) return false;
    out = int64_t(0 - u);
    return true;
  }
  if (!parseUnsignedAuto(s, u) || u > uint64_t(INT64_MAX)) return false;
  out = int64_t(u);
  return true;
}

// The words LLVM 22's YAML reader takes for booleans (YAML 1.2). LLVM 19 and older also took
// y/n/yes/no/on/off in three casings, and their llvm-readelf tags such strings !str
// (docs/elf.md).
bool parseYamlBool(std::string_view s) {
  static constexpr std::string_view kWords[] = {"true", "True", "TRUE", "false", "False", "FALSE"};
  for (std::string_view w : kWords)
    if (s == w) return true;
  return false;
}

// strtod over the C string (it stops at an embedded NUL, as LLVM's to_float does).
bool parseFloatC(const std::string& s) {
  char* end = nullptr;
  (void)std::strtod(s.c_str(), &end);
  return end && *end == '\0';
}

/// The kind a plain scalar with this text would be read back as (LLVM's DocNode::fromString).
Kind kindFromText(const std::string& text) {
  uint64_t u;
  int64_t i;
  if (parseUnsignedAuto(text, u)) return Kind::UInt;
  if (parseSignedAuto(text, i)) return Kind::Int;
  if (parseYamlBool(text)) return Kind::Bool;
  if (parseFloatC(text)) return Kind::Float;
  return Kind::String;
}

std::string_view yamlTag(const MsgPackNode& n, const std::string& text) {
  if (n.kind == Kind::Nil) return "!nil";
  Kind back = kindFromText(text);
  if (back == n.kind) return {};
  if (n.kind == Kind::Int && back == Kind::UInt) return {};
  switch (n.kind) {
  case Kind::String:
    return "!str";
  case Kind::Int:
  case Kind::UInt:
    return "!int";
  case Kind::Bool:
    return "!bool";
  case Kind::Float:
    return "!float";
  default:
    return {};
  }
}

bool isYamlNumeric(std::string_view s) {
  auto skipDigits = [](std::string_view x) {
    size_t i = 0;
    while (i < x.size() && x[i] >= '0' && x[i] <= '9') ++i;
    return x.substr(i);
  };
  if (s.empty() || s == "+" || s == "-") return false;
  if (s == ".nan" || s == ".NaN" || s == ".NAN") return true;
  std::string_view tail = (s[0] == '-' || s[0] == '+') ? s.substr(1) : s;
  if (tail == ".inf" || tail == ".Inf" || tail == ".INF") return true;
  if (s.substr(0, 2) == "0o")
    return s.size() > 2 && s.find_first_not_of("01234567", 2) == std::string_view::npos;
  if (s.substr(0, 2) == "0x")
    return s.size() > 2 &&
           s.find_first_not_of("0123456789abcdefABCDEF", 2) == std::string_view::npos;
  s = tail;
  if (!s.empty() && s[0] == '.' && (s.size() == 1 || !(s[1] >= '0' && s[1] <= '9'))) return false;
  if (!s.empty() && (s[0] == 'e' || s[0] == 'E')) return false;
  s = skipDigits(s);
  if (s.empty()) return true;
  bool dot = false;
  if (s[0] == '.') {
    dot = true;
    s = skipDigits(s.substr(1));
    if (s.empty()) return true;
  }
  if (s[0] != 'e' && s[0] != 'E') return false;
  (void)dot;
  s.remove_prefix(1);
  if (s.empty()) return false;
  if (s[0] == '+' || s[0] == '-') {
    s.remove_prefix(1);
    if (s.empty()) return false;
  }
  return skipDigits(s).empty();
}

enum class Quote { None, Single, Double };

/// LLVM's yaml::needsQuotes.
Quote needsQuotes(std::string_view s) {
  if (s.empty()) return Quote::Single;
  Quote q = Quote::None;
  auto isSpace = [](char c) { return std::strchr(" \t\n\v\f\r", c) != nullptr && c != 0; };
  if (isSpace(s.front()) || isSpace(s.back())) q = Quote::Single;
  if (s == "null" || s == "Null" || s == "NULL" || s == "~") q = Quote::Single;
  if (s == "true" || s == "True" || s == "TRUE" || s == "false" || s == "False" || s == "FALSE")
    q = Quote::Single;
  if (isYamlNumeric(s)) q = Quote::Single;
  static constexpr std::string_view kIndicators = "-?:\\,[]{}#&*!|>'\"%@`";
  if (kIndicators.find(s.front()) != std::string_view::npos) q = Quote::Single;
  for (unsigned char c : s) {
    if ((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')) continue;
    switch (c) {
    case '_':
    case '-':
    case '^':
    case '.':
    case ',':
    case ' ':
    case '\t':
      continue;
    case '\n':
    case '\r':
      q = Quote::Double;
      continue;
    case 0x7f:
      return Quote::Double;
    default:
      if (c <= 0x1f || (c & 0x80)) return Quote::Double;
      if (q == Quote::None) q = Quote::Single;
    }
  }
  return q;
}

/// Decodes one UTF-8 sequence at s[i]: {code point, length}, length 0 when invalid.
std::pair<uint32_t, size_t> decodeUtf8(std::string_view s, size_t i) {
  auto cont = [&](size_t k) { return i + k < s.size() && (uint8_t(s[i + k]) & 0xc0) == 0x80; };
  uint8_t c = uint8_t(s[i]);
  if ((c & 0xe0) == 0xc0 && cont(1)) {
    uint32_t cp = (uint32_t(c & 0x1f) << 6) | (uint8_t(s[i + 1]) & 0x3f);
    if (cp >= 0x80) return {cp, 2};
  }
  if ((c & 0xf0) == 0xe0 && cont(1) && cont(2)) {
    uint32_t cp = (uint32_t(c & 0x0f) << 12) | (uint32_t(uint8_t(s[i + 1]) & 0x3f) << 6) |
                  (uint8_t(s[i + 2]) & 0x3f);
    if (cp >= 0x800 && (cp < 0xd800 || cp > 0xdfff)) return {cp, 3};
  }
  if ((c & 0xf8) == 0xf0 && cont(1) && cont(2) && cont(3)) {
    uint32_t cp = (uint32_t(c & 0x07) << 18) | (uint32_t(uint8_t(s[i + 1]) & 0x3f) << 12) |
                  (uint32_t(uint8_t(s[i + 2]) & 0x3f) << 6) | (uint8_t(s[i + 3]) & 0x3f);
    if (cp >= 0x10000 && cp <= 0x10ffff) return {cp, 4};
  }
  return {0, 0};
}

/// LLVM's yaml::escape without escaping printable characters. Invalid UTF-8 ends the string
/// with U+FFFD, as LLVM's writer does.
void escapeDouble(std::string_view s, std::string& out) {
  static const char kHex[] = "0123456789ABCDEF";
  for (size_t i = 0; i < s.size(); ++i) {
    unsigned char c = uint8_t(s[i]);
    switch (c) {
    case '\\':
      out += "\\\\";
      continue;
    case '"':
      out += "\\\"";
      continue;
    case 0:
      out += "\\0";
      continue;
    case 7:
      out += "\\a";
      continue;
    case 8:
      out += "\\b";
      continue;
    case 9:
      out += "\\t";
      continue;
    case 10:
      out += "\\n";
      continue;
    case 11:
      out += "\\v";
      continue;
    case 12:
      out += "\\f";
      continue;
    case 13:
      out += "\\r";
      continue;
    case 0x1b:
      out += "\\e";
      continue;
    default:
      break;
    }
    if (c < 0x20) {
      out += "\\x";
      out += kHex[c >> 4];
      out += kHex[c & 15];
    } else if (c & 0x80) {
      auto [cp, len] = decodeUtf8(s, i);
      if (len == 0) {
        out += "\xEF\xBF\xBD";
        return;
      }
      if (cp == 0x85)
        out += "\\N";
      else if (cp == 0xa0)
        out += "\\_";
      else if (cp == 0x2028)
        out += "\\L";
      else if (cp == 0x2029)
        out += "\\P";
      else
        out.append(s.substr(i, len));
      i += len - 1;
    } else {
      out += char(c);
    }
  }
}

void writeQuoted(std::string_view s, std::string& out) {
  switch (needsQuotes(s)) {
  case Quote::None:
    out.append(s);
    return;
  case Quote::Single:
    out += '\'';
    for (char c : s) {
      if (c == '\'') out += '\'';
      out += c;
    }
    out += '\'';
    return;
  case Quote::Double:
    out += '"';
    escapeDouble(s, out);
    out += '"';
    return;
  }
}

class YamlWriter {
public:
  YamlWriter(const std::vector<MsgPackNode>& n, std::string& o) : nodes_(n), out_(o) {}

  void document() {
    out_ += "---";
    const MsgPackNode& r = nodes_[0];
    if (r.kind == Kind::Map && r.count) {
      out_ += '\n';
      map(0, 0, false);
    } else if (r.kind == Kind::Array && r.count) {
      out_ += '\n';
      sequence(0, 0, false);
    } else if (r.kind == Kind::Map || r.kind == Kind::Array) {
      out_ += '\n';
      out_ += r.kind == Kind::Map ? "{}" : "[]";
      out_ += '\n';
    } else {
      out_ += ' ';
      scalar(r);
      out_ += '\n';
    }
    out_ += "...\n";
  }

private:
  static bool inlineValue(const MsgPackNode& n) {
    return (n.kind != Kind::Map && n.kind != Kind::Array) || n.count == 0;
  }

  void indent(size_t n) { out_.append(n, ' '); }

  void scalar(const MsgPackNode& n) {
    if (n.kind == Kind::Map) {
      out_ += "{}";
      return;
    }
    if (n.kind == Kind::Array) {
      out_ += "[]";
      return;
    }
    std::string text = scalarString(n);
    std::string_view tag = yamlTag(n, text);
    if (!tag.empty()) {
      out_ += tag;
      out_ += ' ';
    }
    if (n.kind == Kind::String || n.kind == Kind::Nil)
      writeQuoted(text, out_);
    else
      out_ += text;
  }

  void map(size_t m, size_t col, bool first_inline) {
    std::vector<std::pair<size_t, size_t>> pairs; // key, value
    pairs.reserve(nodes_[m].count);
    size_t i = m + 1;
    for (uint32_t k = 0; k < nodes_[m].count; ++k) {
      size_t key = i;
      size_t value = key + nodes_[key].subtree;
      pairs.emplace_back(key, value);
      i = value + nodes_[value].subtree;
    }
    std::stable_sort(pairs.begin(), pairs.end(), [&](const auto& a, const auto& b) {
      return keyLess(nodes_[a.first], nodes_[b.first]);
    });
    bool first = true;
    for (const auto& [key, value] : pairs) {
      if (!(first && first_inline)) indent(col);
      first = false;
      std::string k = scalarString(nodes_[key]);
      out_ += k;
      out_ += ':';
      const MsgPackNode& v = nodes_[value];
      if (inlineValue(v)) {
        if (k.size() < 16)
          out_.append(16 - k.size(), ' ');
        else
          out_ += ' ';
        scalar(v);
        out_ += '\n';
      } else if (v.kind == Kind::Map) {
        out_ += '\n';
        map(value, col + 2, false);
      } else {
        out_ += '\n';
        sequence(value, col + 2, false);
      }
    }
  }

  void sequence(size_t a, size_t col, bool first_inline) {
    size_t i = a + 1;
    for (uint32_t k = 0; k < nodes_[a].count; ++k) {
      if (!(k == 0 && first_inline)) indent(col);
      out_ += "- ";
      const MsgPackNode& v = nodes_[i];
      if (inlineValue(v)) {
        scalar(v);
        out_ += '\n';
      } else if (v.kind == Kind::Map) {
        map(i, col + 2, true);
      } else {
        sequence(i, col + 2, true);
      }
      i += v.subtree;
    }
  }

  const std::vector<MsgPackNode>& nodes_;
  std::string& out_;
};

} // namespace

MsgPackDocument MsgPackDocument::parse(std::span<const uint8_t> bytes, const std::string& file,
                                       uint64_t base_offset) {
  MsgPackDocument doc;
  const char* data = reinterpret_cast<const char*>(bytes.data());
  if (bytes.empty())
    throw Error::atOffset("empty MessagePack data (expected one value)", file, base_offset);
  doc.nodes_.reserve(std::min<size_t>(bytes.size(), 4096));
  TreeBuilder b(doc.nodes_, data);
  size_t off = 0;
  msgpack::parse_return ret;
  try {
    msgpack::detail::parse_helper<TreeBuilder> h(b);
    ret = h.execute(data, bytes.size(), off);
  } catch (const std::bad_alloc&) {
    throw;
  } catch (const std::exception& e) {
    throw Error::atOffset(std::string("malformed MessagePack data: ") + e.what(), file,
                          base_offset + off);
  }
  switch (ret) {
  case msgpack::PARSE_SUCCESS:
    if (off != bytes.size())
      throw Error::atOffset(std::to_string(bytes.size() - off) +
                                " bytes of data after the MessagePack value",
                            file, base_offset + off);
    break;
  case msgpack::PARSE_CONTINUE:
    throw Error::atOffset("truncated MessagePack data (the value needs more bytes than the " +
                              std::to_string(bytes.size()) + " there are)",
                          file, base_offset + bytes.size());
  case msgpack::PARSE_STOP_VISITOR:
    throw Error::atOffset(b.error.empty() ? "malformed MessagePack data" : b.error, file,
                          base_offset + (b.has_error_pos ? b.error_pos : off));
  default:
    throw Error::atOffset("malformed MessagePack data (invalid type byte)", file,
                          base_offset + off);
  }
  // Duplicate keys make an ambiguous map (LLVM's reader rejects them).
  std::vector<size_t> keys;
  for (size_t m = 0; m < doc.nodes_.size(); ++m) {
    if (doc.nodes_[m].kind != Kind::Map || doc.nodes_[m].count < 2) continue;
    keys.clear();
    size_t i = m + 1;
    for (uint32_t k = 0; k < doc.nodes_[m].count; ++k) {
      keys.push_back(i);
      i += doc.nodes_[i].subtree;
      i += doc.nodes_[i].subtree;
    }
    std::sort(keys.begin(), keys.end(),
              [&](size_t x, size_t y) { return keyLess(doc.nodes_[x], doc.nodes_[y]); });
    for (size_t k = 1; k < keys.size(); ++k)
      if (keyEqual(doc.nodes_[keys[k - 1]], doc.nodes_[keys[k]])) {
        const MsgPackNode& dup = doc.nodes_[keys[k]];
        uint64_t at = dup.kind == Kind::String ? uint64_t(dup.str.data() - data) : 0;
        throw Error::atOffset("duplicate key '" + scalarString(dup) + "' in a MessagePack map",
                              file, base_offset + at);
      }
  }
  return doc;
}

std::string MsgPackDocument::toYaml() const {
  std::string out;
  YamlWriter(nodes_, out).document();
  return out;
}

size_t MsgPackDocument::find(size_t map, std::string_view key) const {
  if (map >= nodes_.size() || nodes_[map].kind != Kind::Map) return 0;
  size_t i = map + 1;
  for (uint32_t k = 0; k < nodes_[map].count; ++k) {
    size_t value = i + nodes_[i].subtree;
    if (nodes_[i].kind == Kind::String && nodes_[i].str == key) return value;
    i = value + nodes_[value].subtree;
  }
  return 0;
}

} // namespace abikit
