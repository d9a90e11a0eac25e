// The text every JSON document is written into (detail::TextBuffer: one growing std::string, or
// the buffer of an OutputSink handed on in chunks) and the escaping of JSON strings. The writer
// of the documents' structure is detail::JsonWriter (json_writer.h).
#pragma once

#include <charconv>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

namespace abikit {
class OutputSink;
}

namespace abikit::detail {

// Every JSON writer escapes text the same way (docs/cli.md, "JSON output"): valid UTF-8 is copied
// as it is, '"' and '\\' get a backslash, control characters become \u00XX, and each maximal
// subpart of an ill-formed UTF-8 sequence (Unicode 15, section 3.9; what Python's
// errors='replace' and nlohmann-json's error_handler_t::replace do) becomes one U+FFFD.

/// The UTF-8 sequence that starts at `p` (`p < end`, *p >= 0x80): the number of bytes it takes,
/// with `valid` set when they are one well-formed character; otherwise the length of the maximal
/// subpart (1 to 3 bytes), which is replaced by one U+FFFD.
size_t utf8Sequence(const unsigned char* p, const unsigned char* end, bool& valid);

/// Which control characters get a two-character escape (a bit per character: bit 10 for '\n')
/// rather than \u00XX. The documents of nlohmann-json's dump() use all five of JSON's short
/// forms, the ELF document those of the line breaks and the tab, layout and call none.
inline constexpr uint32_t kShortEscapesNone = 0;
inline constexpr uint32_t kShortEscapesLines = 1u << '\t' | 1u << '\n' | 1u << '\r';
inline constexpr uint32_t kShortEscapesAll = kShortEscapesLines | 1u << '\b' | 1u << '\f';

/// Writes the characters of `s` escaped for the inside of a JSON string literal to `p`, which
/// has room for 6 * s.size() bytes; returns the end of what was written. `ShortEscapes` is one
/// of the kShortEscapes* constants (each is compiled apart: the common case tests nothing more).
template <uint32_t ShortEscapes = kShortEscapesNone>
char* escapeJsonChars(char* p, std::string_view s);
extern template char* escapeJsonChars<kShortEscapesNone>(char*, std::string_view);
extern template char* escapeJsonChars<kShortEscapesLines>(char*, std::string_view);
extern template char* escapeJsonChars<kShortEscapesAll>(char*, std::string_view);

/// Appends `s` as a JSON string literal (quotes and escapes added).
template <uint32_t ShortEscapes = kShortEscapesNone>
void appendJsonString(std::string& out, std::string_view s) {
  size_t old = out.size();
  out.resize(old + 2 + s.size() * 6);
  char* p = out.data() + old;
  *p++ = '"';
  p = escapeJsonChars<ShortEscapes>(p, s);
  *p++ = '"';
  out.resize(size_t(p - out.data()));
}

/// Writes `v` in decimal at `p`, which has room for 20 bytes; returns the end. Sizes,
/// alignments and offsets are mostly one or two digits: those are written without a call.
[[gnu::always_inline]] inline char* putDecimal(char* p, uint64_t v) {
  if (v < 10) {
    *p = char('0' + v);
    return p + 1;
  }
  if (v < 100) {
    p[0] = char('0' + v / 10);
    p[1] = char('0' + v % 10);
    return p + 2;
  }
  return std::to_chars(p, p + 20, v).ptr;
}

/// One growing output buffer for documents of many megabytes: room() makes space for a known
/// number of bytes once, then the writer stores through a plain pointer (no capacity check and
/// no call per piece). take() hands the text over as a std::string without copying it.
///
/// Attached to an OutputSink, it appends to the sink's buffer() instead, and drain() (called
/// between items) hands each full chunk on: memory stays bounded by the chunk and the largest
/// item. The sink's buffer() holds exactly the text written once drain() has handed a chunk on
/// and once the TextBuffer is destroyed.
class TextBuffer {
public:
  /// `reserve`: the expected size (allocated at once, but not touched before it is written).
  explicit TextBuffer(size_t reserve = 0) : buf_(&own_) {
    own_.reserve(reserve);
    p_ = end_ = base_ = own_.data();
  }
  explicit TextBuffer(OutputSink& sink);
  ~TextBuffer() {
    if (sink_) commit();
  }
  TextBuffer(const TextBuffer&) = delete;
  TextBuffer& operator=(const TextBuffer&) = delete;

  /// Between items: with a sink, hands a full chunk on.
  void drain() {
    if (sink_ && size() >= chunk_) handOn();
  }

  /// At least `n` writable bytes at the returned pointer; finish with advance().
  char* room(size_t n) {
    if (size_t(end_ - p_) < n) grow(n);
    return p_;
  }
  void advance(char* p) { p_ = p; }

  void put(char c) { *room(1) = c, ++p_; }
  void put(std::string_view s) {
    char* p = room(s.size());
    if (s.size() <= 16) { // names and short spellings: no call
      for (char c : s) *p++ = c;
      p_ = p;
      return;
    }
    std::memcpy(p, s.data(), s.size());
    p_ = p + s.size();
  }
  /// A string literal (its length known at compile time).
  template <size_t N> void lit(const char (&s)[N]) {
    char* p = room(N - 1);
    std::memcpy(p, s, N - 1);
    p_ = p + (N - 1);
  }
  void spaces(size_t n) {
    if (n <= 64) { // indentation and column padding: one fixed-size store
      char* p = room(64);
      std::memset(p, ' ', 64);
      p_ = p + n;
      return;
    }
    char* p = room(n);
    std::memset(p, ' ', n);
    p_ = p + n;
  }
  void number(uint64_t v) {
    char* p = room(20);
    p_ = putDecimal(p, v);
  }
  size_t size() const { return size_t(p_ - base_); }
  /// The text (not with a sink).
  std::string take() {
    commit();
    std::string s;
    s.swap(own_);
    p_ = end_ = base_ = own_.data();
    return s;
  }

private:
  void grow(size_t n);
  void commit() {
    buf_->resize(size());
    base_ = buf_->data();
    p_ = end_ = base_ + buf_->size();
  }
  void handOn();

  std::string own_;            // the text when there is no sink
  std::string* buf_;           // own_ or the sink's buffer: its size is the capacity in use
  OutputSink* sink_ = nullptr; // where full chunks go
  size_t chunk_ = ~size_t(0);  // the sink's chunk
  char* p_ = nullptr;          // next byte to write; the text is [base_, p_)
  char* end_ = nullptr;        // end of the writable bytes
  char* base_ = nullptr;       // buf_->data()
};

} // namespace abikit::detail
