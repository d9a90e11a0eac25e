// Streaming JSON text for the writers that produce large documents (layout, call): appends to one
// std::string instead of building a DOM.
#pragma once

#include <charconv>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

namespace abikit::detail {

// Every JSON writer escapes text the same way (docs/cli.md, "JSON output"): valid UTF-8 is copied
// as it is, '"' and '\\' get a backslash, control characters become \u00XX, and each maximal
// subpart of an ill-formed UTF-8 sequence (Unicode 15, section 3.9; what Python's
// errors='replace' and nlohmann-json's error_handler_t::replace do) becomes one U+FFFD.

/// The UTF-8 sequence that starts at `p` (`p < end`, *p >= 0x80): the number of bytes it takes,
/// with `valid` set when they are one well-formed character; otherwise the length of the maximal
/// subpart (1 to 3 bytes), which is replaced by one U+FFFD.
size_t utf8Sequence(const unsigned char* p, const unsigned char* end, bool& valid);
/// Writes the characters of `s` escaped for the inside of a JSON string literal to `p`, which
/// has room for 6 * s.size() bytes; returns the end of what was written.
char* escapeJsonChars(char* p, std::string_view s);

/// Appends `s` as a JSON string literal (quotes and escapes added).
void appendJsonString(std::string& out, std::string_view s);
/// Appends a decimal number.
void appendNumber(std::string& out, uint64_t v);
void appendSigned(std::string& out, int64_t v);

/// One growing output buffer for documents of many megabytes: room() makes space for a known
/// number of bytes once, then the writer stores through a plain pointer (no capacity check and
/// no call per piece). take() hands the text over as a std::string without copying it.
class TextBuffer {
public:
  /// `reserve`: the expected size (allocated at once, but not touched before it is written).
  explicit TextBuffer(size_t reserve = 0) {
    buf_.reserve(reserve);
    p_ = end_ = buf_.data();
  }
  TextBuffer(const TextBuffer&) = delete;
  TextBuffer& operator=(const TextBuffer&) = delete;

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
    p_ = std::to_chars(p, p + 20, v).ptr;
  }
  /// `s` as a JSON string literal (quotes and escapes added).
  void jsonString(std::string_view s) {
    put('"');
    jsonChars(s);
    put('"');
  }
  /// The characters of `s` escaped for the inside of a JSON string literal.
  void jsonChars(std::string_view s) {
    // Every byte takes at most six bytes (\u00XX; U+FFFD takes three for one or more bytes).
    p_ = escapeJsonChars(room(s.size() * 6), s);
  }

  size_t size() const { return size_t(p_ - buf_.data()); }
  std::string take() {
    buf_.resize(size());
    std::string s;
    s.swap(buf_);
    p_ = end_ = buf_.data();
    return s;
  }

private:
  void grow(size_t n);

  std::string buf_;         // its size is the capacity in use; the text is [data, p_)
  char* p_ = buf_.data();   // next byte to write
  char* end_ = buf_.data(); // end of the writable bytes
};

} // namespace abikit::detail
