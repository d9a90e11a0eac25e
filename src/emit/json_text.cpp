#include "json_text.h"

#include <algorithm>
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

void TextBuffer::grow(size_t n) {
  // The string's characters must be initialised before they are written: the writable part
  // grows by slices, zeroed just before they are written (so the pages are touched once, while
  // in cache); past the capacity the allocation doubles.
  constexpr size_t kSlice = size_t(64) << 10;
  size_t used = size();
  size_t want = used + std::max(n, kSlice);
  if (want > buf_.capacity()) buf_.reserve(std::max(want, buf_.capacity() * 2));
  buf_.resize(want);
  p_ = buf_.data() + used;
  end_ = buf_.data() + buf_.size();
}

void TextBuffer::jsonChars(std::string_view s) {
  // Every character takes at most six bytes (\u00XX).
  char* p = room(s.size() * 6);
  static constexpr char kHex[] = "0123456789abcdef";
  for (char c : s) {
    unsigned char u = static_cast<unsigned char>(c);
    if (u >= 0x20 && c != '"' && c != '\\') {
      *p++ = c;
    } else if (u >= 0x20) {
      *p++ = '\\';
      *p++ = c;
    } else {
      std::memcpy(p, "\\u00", 4);
      p[4] = kHex[u >> 4];
      p[5] = kHex[u & 15];
      p += 6;
    }
  }
  p_ = p;
}

} // namespace abikit::detail
