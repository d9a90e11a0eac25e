// The one JSON writer of the emitters: objects, arrays, keys and typed values streamed into a
// TextBuffer (a growing string, or an OutputSink's buffer handed on in chunks), never a DOM.
// Each document's layout of whitespace is a JsonStyle; separators, indentation, escaping and
// number formatting are written here only.
#pragma once

#include "json_text.h"

#include <cassert>
#include <cmath>
#include <concepts>
#include <cstdio>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

namespace abikit::detail {

/// How a document is laid out. Every style writes "{}" and "[]" for empty containers and
/// formats numbers the same way (integers in decimal; floating-point numbers with 17
/// significant digits, NaN and infinities as the strings "nan", "inf", "-inf").
struct JsonStyle {
  /// > 0: nlohmann-json's dump(indent): each member and element on a line of its own, indented
  /// `indent` spaces a level, the closing bracket of a non-empty container on a line of its own.
  /// 0: items follow each other on one line, except where the writer is told to breakLine().
  unsigned indent = 0;
  /// ", " between the items of a line and ": " after a key; false: "," and ":".
  bool spaced = true;
  /// The control characters written with a short escape (kShortEscapes*).
  uint32_t short_escapes = kShortEscapesNone;
};

/// `targets`, `describe`, `kernarg`: as nlohmann-json's dump(2) wrote them.
inline constexpr JsonStyle kJsonPretty{2, true, kShortEscapesAll};
/// `layout`, `call`: one record, field, function or argument a line (cli-contract.md).
inline constexpr JsonStyle kJsonLines{0, true, kShortEscapesNone};
/// `elf`: no whitespace at all (documents of gigabytes).
inline constexpr JsonStyle kJsonCompact{0, false, kShortEscapesLines};

template <class T> inline constexpr bool kIsOptional = false;
template <class T> inline constexpr bool kIsOptional<std::optional<T>> = true;

/// A value already written as JSON text (a string literal made once by JsonWriter::literal(),
/// written often).
struct RawJson {
  std::string_view text;
};

#define ABIKIT_JSON_INLINE [[gnu::always_inline]] inline

/// Writes one document in style S. Items (a member's key, or a value that is not a member's) get
/// their separator from the writer; keys and string values spelled as literals in the source are
/// written as they are (they must need no escape), every other string is escaped. A member
/// (field()) is written with one capacity check for its key and a scalar value.
template <JsonStyle S> class JsonWriter {
public:
  explicit JsonWriter(TextBuffer& out) : out_(out) {}
  JsonWriter(const JsonWriter&) = delete;
  JsonWriter& operator=(const JsonWriter&) = delete;

  TextBuffer& out() { return out_; }
  /// Between items: with a sink, hands a full chunk on.
  void drain() { out_.drain(); }

  ABIKIT_JSON_INLINE void beginObject() { open('{'); }
  ABIKIT_JSON_INLINE void endObject() { close('}'); }
  ABIKIT_JSON_INLINE void beginArray() { open('['); }
  ABIKIT_JSON_INLINE void endArray() { close(']'); }

  /// A member's key; its value follows.
  void key(std::string_view k) {
    if (k.size() > kPiece) [[unlikely]] {
      longString(k);
      out_.advance(colon(out_.room(2)));
    } else {
      out_.advance(colon(quoted(next(k.size() * 6 + 4), k)));
    }
    next_ = kAfterKey;
  }
  template <size_t N> ABIKIT_JSON_INLINE void key(const char (&k)[N]) {
    out_.advance(literalKey(next(N + 3), k));
    next_ = kAfterKey;
  }

  /// A scalar: a string (escaped), a string literal (as it is), a bool, an integer, a
  /// floating-point number, RawJson, nullptr, or a std::optional of one (null when empty).
  template <class V> ABIKIT_JSON_INLINE void value(const V& v) {
    if constexpr (std::is_same_v<V, std::vector<std::string>>) {
      beginArray();
      for (const std::string& s : v) value(std::string_view(s));
      endArray();
    } else {
      if constexpr (kIsText<V>)
        if (std::string_view(v).size() > kPiece) [[unlikely]]
          return longString(v);
      out_.advance(put(next(bound(v)), v));
    }
  }
  void null() { value(nullptr); }

  /// A member: its key, then its value (a scalar or a list of strings).
  template <class V> void field(std::string_view k, const V& v) {
    key(k);
    value(v);
  }
  template <size_t N, class V> ABIKIT_JSON_INLINE void field(const char (&k)[N], const V& v) {
    if constexpr (std::is_same_v<V, std::vector<std::string>>) {
      key(k);
      value(v);
    } else {
      if constexpr (kIsText<V>)
        if (std::string_view(v).size() > kPiece) [[unlikely]] {
          key(k);
          return longString(v);
        }
      char* p = literalKey(next(N + 3 + bound(v)), k);
      out_.advance(put(p, v));
    }
  }

  /// `s` as a JSON string literal of this style, for RawJson.
  static std::string literal(std::string_view s) {
    std::string out;
    appendJsonString<S.short_escapes>(out, s);
    return out;
  }
  /// A string value written in pieces: beginString(), chars()..., endString().
  void beginString() {
    char* p = next(1);
    *p = '"';
    out_.advance(p + 1);
  }
  void chars(std::string_view s) {
    out_.advance(escapeJsonChars<S.short_escapes>(out_.room(s.size() * 6), s));
  }
  template <size_t N> void chars(const char (&s)[N]) {
    assert(plain(s));
    out_.lit(s);
  }
  void endString() { out_.put('"'); }
  /// Members written into room reserved once (the rows of large tables: one capacity check
  /// for the row): at most `count` of them, with literal keys of at most 38 characters, scalar
  /// values of at most 20 bytes (numbers, bools, literals), and strings or RawJson whose
  /// bound(), added up, is `text`. They end when the object returned goes out of scope.
  class Members {
  public:
    Members(const Members&) = delete;
    Members& operator=(const Members&) = delete;
    ~Members() {
      w_.out_.advance(p_);
      w_.next_ = kNext;
    }
    template <size_t N, class V> ABIKIT_JSON_INLINE void field(const char (&k)[N], const V& v) {
      static_assert(N <= 39, "a short key");
      if (sep_) {
        *p_++ = ',';
        if constexpr (S.spaced) *p_++ = ' ';
      }
      sep_ = true;
      p_ = put(literalKey(p_, k), v);
      assert(p_ <= limit_);
    }

  private:
    friend JsonWriter;
    Members(JsonWriter& w, bool sep, size_t bytes)
        : w_(w), p_(w.out_.room(bytes)), limit_(p_ + bytes), sep_(sep) {}
    JsonWriter& w_;
    char* p_;
    [[maybe_unused]] char* limit_;
    bool sep_;
  };
  Members members(size_t count, size_t text = 0) {
    static_assert(S.indent == 0, "an indented style starts each member on a line");
    bool sep = false;
    if (next_ < kBreak)
      sep = next_ == kNext;
    else
      newLine();
    return Members(*this, sep, count * 64 + text);
  }
  /// The most a string, a literal or RawJson `v` takes as a value.
  template <class V> static size_t bound(const V& v) {
    if constexpr (kIsOptional<V>)
      return v ? bound(*v) : 4;
    else if constexpr (std::is_array_v<V>)
      return sizeof(V) + 1;
    else if constexpr (std::is_same_v<V, bool>)
      return 5;
    else if constexpr (std::is_integral_v<V>)
      return 20;
    else if constexpr (std::is_floating_point_v<V>)
      return 32;
    else if constexpr (std::is_same_v<V, std::nullptr_t>)
      return 4;
    else if constexpr (std::is_same_v<V, RawJson>)
      return v.text.size();
    else
      return std::string_view(v).size() * 6 + 2;
  }

  /// kJsonLines: the next item (a key or an element) starts a new line, at column `column`.
  void breakLine(unsigned column) {
    static_assert(S.indent == 0, "an indented style breaks every line itself");
    next_ = (next_ & 3) | (column + 1) * kBreak;
  }

private:
  enum : unsigned { kFirst, kNext, kAfterKey, kBreak = 4 };

  // A string longer than this is escaped a piece at a time: the room made for it (six bytes a
  // byte) stays small, and so does what an OutputSink's buffer is grown and zeroed by.
  static constexpr size_t kPiece = 8192;
  // A string not spelled as a literal (the values that are escaped).
  template <class V>
  static constexpr bool kIsText =
      !(std::is_array_v<V> || std::is_arithmetic_v<V> || kIsOptional<V> ||
        std::is_same_v<V, std::nullptr_t> || std::is_same_v<V, RawJson>);
  // With its separator. The pieces end before a byte that no UTF-8 sequence continues with (not
  // 80..BF), so that they are escaped and replaced as the whole would be.
  void longString(std::string_view s) {
    char* p = next(1);
    *p = '"';
    out_.advance(p + 1);
    while (s.size() > kPiece) {
      size_t n = kPiece;
      for (size_t k = 0; k < 4; ++k)
        if ((uint8_t(s[kPiece - k]) & 0xc0) != 0x80) {
          n = kPiece - k;
          break;
        }
      out_.advance(escapeJsonChars<S.short_escapes>(out_.room(n * 6), s.substr(0, n)));
      s.remove_prefix(n);
    }
    out_.advance(escapeJsonChars<S.short_escapes>(out_.room(s.size() * 6 + 1), s));
    out_.put('"');
  }
  // The value written at `p` (bound(v) bytes at most). A char array is a string literal.
  template <class V> ABIKIT_JSON_INLINE static char* put(char* p, const V& v) {
    if constexpr (kIsOptional<V>) {
      return v ? put(p, *v) : put(p, nullptr);
    } else if constexpr (std::is_array_v<V>) {
      assert(plain(v));
      *p++ = '"';
      std::memcpy(p, v, sizeof(V) - 1);
      p += sizeof(V) - 1;
      *p++ = '"';
      return p;
    } else if constexpr (std::is_same_v<V, bool>) {
      std::memcpy(p, v ? "true" : "false", 5);
      return p + (v ? 4 : 5);
    } else if constexpr (std::is_integral_v<V>) {
      if constexpr (std::is_signed_v<V>) {
        if (v < 0) return std::to_chars(p, p + 20, int64_t(v)).ptr;
      }
      return putDecimal(p, uint64_t(v));
    } else if constexpr (std::is_floating_point_v<V>) {
      return number(p, double(v));
    } else if constexpr (std::is_same_v<V, std::nullptr_t>) {
      std::memcpy(p, "null", 4);
      return p + 4;
    } else if constexpr (std::is_same_v<V, RawJson>) {
      if (v.text.size() <= 16) { // a type's name: no call
        for (char c : v.text) *p++ = c;
        return p;
      }
      std::memcpy(p, v.text.data(), v.text.size());
      return p + v.text.size();
    } else {
      return quoted(p, std::string_view(v));
    }
  }
  static char* number(char* p, double d) {
    // NaN and the infinities are not JSON numbers: strings.
    if (std::isnan(d)) return put(p, "nan");
    if (std::isinf(d)) return d < 0 ? put(p, "-inf") : put(p, "inf");
    return p + std::snprintf(p, 32, "%.17g", d);
  }

  static bool plain(std::string_view s) {
    for (char c : s)
      if (c < 0x20 || c == '"' || c == '\\' || c == 0x7f) return false;
    return true;
  }

  // Room for `n` bytes after the separator of the next item, which is written.
  ABIKIT_JSON_INLINE char* next(size_t n) {
    if constexpr (S.indent == 0) {
      if (next_ < kBreak) {
        char* p = out_.room(n + 2);
        if (next_ == kNext) {
          *p++ = ',';
          if constexpr (S.spaced) *p++ = ' ';
        }
        next_ = kNext;
        return p;
      }
    }
    newLine();
    return out_.room(n);
  }
  // The separator of an item that starts a line, the line break and the indentation.
  void newLine() {
    unsigned was = next_ & 3, column = next_ / kBreak - 1;
    next_ = kNext;
    if (was == kAfterKey) return;
    if constexpr (S.indent > 0) {
      if (depth_ == 0) return; // the document itself
      column = depth_ * S.indent;
    }
    if (was == kNext)
      out_.lit(",\n");
    else
      out_.put('\n');
    out_.spaces(column);
  }
  template <size_t N> ABIKIT_JSON_INLINE static char* literalKey(char* p, const char (&k)[N]) {
    assert(plain(k));
    *p++ = '"';
    std::memcpy(p, k, N - 1);
    p += N - 1;
    *p++ = '"';
    return colon(p);
  }
  ABIKIT_JSON_INLINE static char* colon(char* p) {
    *p++ = ':';
    if constexpr (S.spaced) *p++ = ' ';
    return p;
  }
  static char* quoted(char* p, std::string_view s) {
    *p++ = '"';
    p = escapeJsonChars<S.short_escapes>(p, s);
    *p++ = '"';
    return p;
  }
  ABIKIT_JSON_INLINE void open(char bracket) {
    char* p = next(1);
    *p = bracket;
    out_.advance(p + 1);
    if constexpr (S.indent > 0) ++depth_;
    next_ = kFirst;
  }
  ABIKIT_JSON_INLINE void close(char bracket) {
    if constexpr (S.indent > 0) {
      --depth_;
      if (next_ != kFirst) {
        out_.put('\n');
        out_.spaces(size_t(depth_) * S.indent);
      }
    }
    out_.put(bracket);
    next_ = kNext;
  }

  TextBuffer& out_;
  // What comes before the next item: its state (kFirst, kNext, kAfterKey) and, from kBreak up,
  // the column of the line it starts + 1 (one load and compare when no line is broken).
  unsigned next_ = kFirst;
  unsigned depth_ = 0;
};

#undef ABIKIT_JSON_INLINE

} // namespace abikit::detail
