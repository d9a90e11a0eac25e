#include "json_text.h"

#include "abikit/emit.h"

#include <algorithm>
#include <array>

namespace abikit::detail {

TextBuffer::TextBuffer(OutputSink& sink)
    : buf_(&sink.buffer()), sink_(&sink), chunk_(sink.chunk()) {
  base_ = buf_->data();
  p_ = end_ = base_ + buf_->size();
}

void TextBuffer::grow(size_t n) {
  // The string's characters must be initialised before they are written: the writable part
  // grows by slices, zeroed just before they are written (so the pages are touched once, while
  // in cache); past the capacity the allocation doubles.
  constexpr size_t kSlice = size_t(64) << 10;
  size_t used = size();
  size_t want = used + std::max(n, kSlice);
  if (want > buf_->capacity()) buf_->reserve(std::max(want, buf_->capacity() * 2));
  buf_->resize(want);
  base_ = buf_->data();
  p_ = base_ + used;
  end_ = base_ + buf_->size();
}

void TextBuffer::handOn() {
  // The sink's buffer holds the text (no slack) while the sink reads it; it flushes a full
  // chunk, and writing goes on after what it kept.
  commit();
  sink_->drain();
  base_ = buf_->data();
  p_ = end_ = base_ + buf_->size();
}

size_t utf8Sequence(const unsigned char* p, const unsigned char* end, bool& valid) {
  // Unicode's table of well-formed byte sequences (Table 3-7): the lead byte sets the length
  // and the range of the second byte; the others are 80..BF.
  valid = false;
  unsigned char c = p[0];
  size_t len;
  unsigned char lo = 0x80, hi = 0xbf;
  if (c >= 0xc2 && c <= 0xdf) {
    len = 2;
  } else if (c >= 0xe0 && c <= 0xef) {
    len = 3;
    if (c == 0xe0)
      lo = 0xa0; // no overlong forms
    else if (c == 0xed)
      hi = 0x9f; // no surrogates
  } else if (c >= 0xf0 && c <= 0xf4) {
    len = 4;
    if (c == 0xf0)
      lo = 0x90; // no overlong forms
    else if (c == 0xf4)
      hi = 0x8f; // nothing above U+10FFFF
  } else {
    return 1; // a continuation byte, C0, C1 or F5..FF
  }
  if (size_t(end - p) < 2 || p[1] < lo || p[1] > hi) return 1;
  for (size_t k = 2; k < len; ++k)
    if (size_t(end - p) <= k || (p[k] & 0xc0) != 0x80) return k;
  valid = true;
  return len;
}

namespace {

// 1 for the bytes copied as they are in the fast path: printable ASCII but '"' and '\\'.
constexpr auto kPlain = [] {
  std::array<unsigned char, 256> t{};
  for (unsigned c = 0x20; c < 0x80; ++c) t[c] = c != '"' && c != '\\';
  return t;
}();

} // namespace

template <uint32_t ShortEscapes> char* escapeJsonChars(char* p, std::string_view s) {
  static constexpr char kHex[] = "0123456789abcdef";
  // The letter of JSON's short escapes, by control character (a bit of `short_escapes` without
  // one has no effect).
  static constexpr auto kShort = [] {
    std::array<char, 32> t{};
    t['\b'] = 'b', t['\t'] = 't', t['\n'] = 'n', t['\f'] = 'f', t['\r'] = 'r';
    return t;
  }();
  auto* q = reinterpret_cast<const unsigned char*>(s.data());
  auto* end = q + s.size();
  while (q < end) {
    // Eight bytes at a time while they are all plain: no byte >= 0x80 or < 0x20, no '"' or '\\'
    // (a zero byte after XOR marks the character; see "Bit Twiddling Hacks", haszero()).
    if (end - q >= 8) {
      constexpr uint64_t kOnes = 0x0101010101010101ull, kHigh = 0x8080808080808080ull;
      uint64_t w;
      std::memcpy(&w, q, 8);
      auto zero = [](uint64_t x) { return (x - kOnes) & ~x & kHigh; };
      if (((w | (w - kOnes * 0x20)) & kHigh) == 0 && !zero(w ^ (kOnes * '"')) &&
          !zero(w ^ (kOnes * '\\'))) {
        std::memcpy(p, q, 8);
        p += 8;
        q += 8;
        continue;
      }
    }
    unsigned char u = *q;
    if (kPlain[u]) { // ASCII: one table look-up per byte
      *p++ = char(u);
      ++q;
    } else if (u == '"' || u == '\\') {
      *p++ = '\\';
      *p++ = char(u);
      ++q;
    } else if (ShortEscapes != 0 && u < 0x20 && (ShortEscapes >> u & 1) && kShort[u]) {
      *p++ = '\\';
      *p++ = kShort[u];
      ++q;
    } else if (u < 0x20) {
      std::memcpy(p, "\\u00", 4);
      p[4] = kHex[u >> 4];
      p[5] = kHex[u & 15];
      p += 6;
      ++q;
    } else {
      bool valid;
      size_t n = utf8Sequence(q, end, valid);
      if (valid)
        std::memcpy(p, q, n), p += n;
      else
        std::memcpy(p, "\xEF\xBF\xBD", 3), p += 3;
      q += n;
    }
  }
  return p;
}

template char* escapeJsonChars<kShortEscapesNone>(char*, std::string_view);
template char* escapeJsonChars<kShortEscapesLines>(char*, std::string_view);
template char* escapeJsonChars<kShortEscapesAll>(char*, std::string_view);

} // namespace abikit::detail
