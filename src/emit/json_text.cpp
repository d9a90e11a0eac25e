#include "json_text.h"

#include <charconv>
#include <cstdio>

namespace abikit::detail {

void appendNumber(std::string& out, uint64_t v) {
  char buf[24];
  auto r = std::to_chars(buf, buf + sizeof buf, v);
  out.append(buf, r.ptr);
}

void appendSigned(std::string& out, int64_t v) {
  char buf[24];
  auto r = std::to_chars(buf, buf + sizeof buf, v);
  out.append(buf, r.ptr);
}

void appendJsonString(std::string& out, std::string_view s) {
  out += '"';
  size_t plain = 0; // characters that need no escape, copied in one go
  while (plain < s.size()) {
    unsigned char u = static_cast<unsigned char>(s[plain]);
    if (u < 0x20 || u == '"' || u == '\\') break;
    ++plain;
  }
  out.append(s.data(), plain);
  for (char c : s.substr(plain)) {
    unsigned char u = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (u < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", u);
      out += buf;
    } else {
      out += c;
    }
  }
  out += '"';
}

} // namespace abikit::detail
