// Internal: tokens, the identifier table and the lexer of the C declaration front-end.
//
// The lexer works on an in-memory buffer and produces tokens whose spelling is a view into that
// buffer (or, for the rare token that contains a line splice, into the preprocessor's string
// arena). Identifiers are interned once in an IdentTable; macros, keywords and the parser's
// bindings hang off the Ident, so no string is hashed twice.
#pragma once

#include <bit>
#include <cstdint>
#include <cstring>
#include <deque>
#include <memory>
#include <string>
#include <string_view>
#include <vector>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace abikit::detail {

enum class Tok : uint8_t {
  Eof,
  Eod,         // end of a directive line
  ArgEnd,      // sentinel closing a macro argument during pre-expansion
  Placemarker, // empty macro argument next to ##
  Ident,
  Number,     // pp-number
  Char,       // character constant (with its prefix)
  String,     // string literal (with its prefix)
  HeaderName, // <...> after #include
  Unknown,    // a stray character or an unterminated literal
  // punctuators
  LParen,
  RParen,
  LBracket,
  RBracket,
  LBrace,
  RBrace,
  Dot,
  Ellipsis,
  Arrow,
  PlusPlus,
  MinusMinus,
  Amp,
  Star,
  Plus,
  Minus,
  Tilde,
  Excl,
  Slash,
  Percent,
  LShift,
  RShift,
  Less,
  Greater,
  LessEq,
  GreaterEq,
  EqEq,
  NotEq,
  Caret,
  Pipe,
  AmpAmp,
  PipePipe,
  Question,
  Colon,
  ColonColon,
  Semi,
  Equal,
  StarEq,
  SlashEq,
  PercentEq,
  PlusEq,
  MinusEq,
  LShiftEq,
  RShiftEq,
  AmpEq,
  CaretEq,
  PipeEq,
  Comma,
  Hash,
  HashHash,
};

/// The spelling of a punctuator kind ("(", "->", ...); "" for the others.
std::string_view punctuatorSpelling(Tok k);

enum TokFlag : uint8_t {
  kTokAtLineStart = 1,   // first token on its line
  kTokLeadingSpace = 2,  // whitespace (or a comment) before it
  kTokNoExpand = 4,      // an identifier that must never be macro-expanded again
  kTokFromMacro = 8,     // produced by a macro expansion
  kTokUnterminated = 16, // Unknown: an unterminated ' or " literal
};

/// A position: `file`/`line`/`col` as reported (after #line), `buf`/`offset` where the token's
/// text physically is (for the source line under the caret).
struct Loc {
  uint32_t file = 0; // TypeContext file id
  uint32_t line = 0;
  uint32_t col = 0;
  uint32_t buf = 0; // preprocessor buffer index
  uint32_t offset = 0;
};

struct Macro;

/// An interned identifier. Everything that is keyed by a name lives here.
struct Ident {
  std::string_view name;
  uint64_t prefix = 0; // the first (up to) 8 bytes of the name, zero-padded
  uint32_t hash = 0;
  uint16_t keyword = 0;   // parser keyword (0 = none), see cparse_parse.cpp
  uint8_t pp_special = 0; // preprocessor special name, see PpSpecial
  uint8_t attr = 0;       // reserved for the parser
  uint32_t mark = 0;      // parser scratch (duplicate-member detection)
  // What the parser's member memo depends on (IdentMemo bits): a change then starts a new
  // IdentTable::memo_epoch.
  uint8_t memo = 0;
  Macro* macro = nullptr; // current macro definition: set through IdentTable::setMacro()
  // Parser bindings (ordinary identifiers and tags), restored when a scope ends.
  void* ordinary = nullptr;
  void* tag = nullptr;
  std::string_view interned; // the name copied into the TypeContext, on first need
};

/// Bytes that must be readable (the first one a NUL) after the end of every buffer a Lexer
/// reads: identifiers are hashed and compared 8 bytes at a time.
inline constexpr size_t kLexPadding = 8;

/// Ident::memo bits: a member the parser keeps in its memo depends on the identifier's macro
/// definition (every identifier of the member), and on its ordinary or tag binding (a typedef
/// name, a tag).
enum IdentMemo : uint8_t { kIdMemoMacro = 1, kIdMemoBind = 2 };

class IdentTable {
public:
  IdentTable();
  /// Defines (or, with null, undefines) `id` as a macro.
  void setMacro(Ident* id, Macro* m) {
    id->macro = m;
    if (id->memo) ++memo_epoch;
  }
  /// Changes when an identifier a memo entry depends on is defined or undefined as a macro, or
  /// bound to another declaration (see Ident::memo): entries of an older epoch are not used.
  uint32_t memo_epoch = 1;
  /// Sizes the table for a text of `bytes` bytes (a typical header has about one new
  /// identifier per 100 to 150 bytes), so that it does not grow and rehash while it is read.
  /// Does nothing after the first insertion.
  void reserveForText(size_t bytes);
  /// The identifier `name` (the bytes must stay valid as long as the table).
  Ident* get(std::string_view name) {
    uint64_t w0 = prefixOf(name.data(), name.size());
    return lookup(name.data(), name.size(), hashOf(name.data(), name.size(), w0), w0);
  }
  /// The identifier of the n bytes at s, which lie in a buffer with kLexPadding readable bytes
  /// after its end (the name's first 8 bytes are read as one word).
  Ident* lookupPadded(const char* s, size_t n) {
    uint64_t w0 = load8(s);
    if (n < 8) w0 &= (uint64_t(1) << (8 * n)) - 1;
    return lookup(s, n, hashOf(s, n, w0), w0);
  }
  /// Copies `name` into the table's own storage first (for names that do not live in a buffer).
  Ident* getCopy(std::string_view name);
  /// The core lookup: `w0` and `hash` as computed by prefixOf/hashOf.
  Ident* lookup(const char* s, size_t n, uint32_t hash, uint64_t w0) {
    // The first probe inline (it usually hits); collisions and insertions out of line. A name of
    // 9 to 16 bytes is compared as its first and last 8 bytes (both inside the name).
    const Slot& slot = slots_[hash & (slots_.size() - 1)];
    if (slot.hash == hash && slot.id && slot.id->prefix == w0 && slot.id->name.size() == n &&
        (n <= 8 || (n <= 16 && load8(s + n - 8) == load8(slot.id->name.data() + n - 8))))
      return slot.id;
    return lookupSlow(s, n, hash, w0);
  }

  /// The first min(n, 8) bytes as a little-endian word, zero-padded (no over-read).
  static uint64_t prefixOf(const char* p, size_t n) {
    if (n >= 8) return load8(p);
    uint64_t w = 0;
    for (size_t i = 0; i < n; ++i) w |= uint64_t(static_cast<unsigned char>(p[i])) << (8 * i);
    return w;
  }
  /// Hash of the n bytes at p whose prefix word is w0. Reads only inside [p, p + n).
  static uint32_t hashOf(const char* p, size_t n, uint64_t w0) {
    uint64_t h = (uint64_t(n) * 0x9E3779B97F4A7C15ull) ^ w0;
    h *= 0xFF51AFD7ED558CCDull;
    if (n > 8) {
      for (size_t i = 8; i + 8 < n; i += 8) {
        h = (h ^ load8(p + i)) * 0xC4CEB9FE1A85EC53ull;
        h ^= h >> 31;
      }
      h = (h ^ load8(p + n - 8)) * 0xC4CEB9FE1A85EC53ull;
    }
    // murmur3's finaliser: every input bit reaches the low bits the table indexes with.
    h ^= h >> 33;
    h *= 0xFF51AFD7ED558CCDull;
    h ^= h >> 33;
    return uint32_t(h);
  }
  static uint64_t load8(const char* p) {
    uint64_t w;
    std::memcpy(&w, p, 8);
    return w;
  }

private:
  struct Slot {
    uint32_t hash = 0;
    Ident* id = nullptr;
  };
  Ident* lookupSlow(const char* s, size_t n, uint32_t hash, uint64_t w0);
  void grow();
  Ident& newIdent();
  std::vector<Slot> slots_;
  size_t count_ = 0;
  // Identifiers in blocks that never move (a deque would allocate a block per 6 of them).
  static constexpr size_t kIdentBlock = 512;
  std::vector<std::unique_ptr<Ident[]>> ident_blocks_;
  size_t ident_left_ = 0;
  std::deque<std::string> names_;
};

struct Token {
  const char* ptr = nullptr; // spelling
  uint32_t len = 0;
  Tok kind = Tok::Eof;
  uint8_t flags = 0;
  Ident* ident = nullptr; // identifiers (and keywords) only
  Loc loc;

  std::string_view text() const { return {ptr, len}; }
  bool is(Tok k) const { return kind == k; }
  bool atLineStart() const { return flags & kTokAtLineStart; }
  bool leadingSpace() const { return flags & kTokLeadingSpace; }
};

/// The precedence of a binary operator token in C (10: * / %, down to 1: ||), -1 for anything
/// else: the one table of the parser's constant expressions and the #if evaluator.
inline int binaryPrecedence(Tok k) {
  switch (k) {
  case Tok::Star:
  case Tok::Slash:
  case Tok::Percent:
    return 10;
  case Tok::Plus:
  case Tok::Minus:
    return 9;
  case Tok::LShift:
  case Tok::RShift:
    return 8;
  case Tok::Less:
  case Tok::Greater:
  case Tok::LessEq:
  case Tok::GreaterEq:
    return 7;
  case Tok::EqEq:
  case Tok::NotEq:
    return 6;
  case Tok::Amp:
    return 5;
  case Tok::Caret:
    return 4;
  case Tok::Pipe:
    return 3;
  case Tok::AmpAmp:
    return 2;
  case Tok::PipePipe:
    return 1;
  default:
    return -1;
  }
}

/// The front-end's one guard on recursion. Each recursive descent (the parser's: records,
/// declarators, parameter lists, type names, expressions, linkage blocks; the #if evaluator's)
/// keeps one counter of the levels it is in and enters each level through a NestGuard; past the
/// limit tooDeep() is true and the caller reports "... nested too deeply". The level is left when
/// the guard dies, also when that report throws.
class NestGuard {
public:
  NestGuard(unsigned& depth, unsigned limit) : depth_(depth), too_deep_(++depth > limit) {}
  ~NestGuard() { --depth_; }
  NestGuard(const NestGuard&) = delete;
  NestGuard& operator=(const NestGuard&) = delete;
  bool tooDeep() const { return too_deep_; }

private:
  unsigned& depth_;
  bool too_deep_;
};

/// Storage for text made during preprocessing (cleaned spellings, pastes, stringized
/// arguments). Views stay valid until the arena dies.
class StringArena {
public:
  std::string_view copy(std::string_view s);
  char* allocate(size_t n);

private:
  std::vector<std::unique_ptr<char[]>> blocks_;
  char* cur_ = nullptr;
  size_t left_ = 0;
};

namespace lexchars {
enum : uint8_t {
  kIdStart = 1,
  kIdCont = 2,
  kDigit = 4,
  kSpace = 8,
  kNumCont = 16,
  kLitPrefix = 32, // L, U, u: may start a character constant or string literal
};

struct CharTable {
  uint8_t c[256] = {};
  constexpr CharTable() {
    for (int i = 'a'; i <= 'z'; ++i) c[i] = kIdStart | kIdCont | kNumCont;
    for (int i = 'A'; i <= 'Z'; ++i) c[i] = kIdStart | kIdCont | kNumCont;
    for (int i = '0'; i <= '9'; ++i) c[i] = kIdCont | kDigit | kNumCont;
    for (int i = 0x80; i < 256; ++i) c[i] = kIdStart | kIdCont; // UTF-8 in identifiers
    c[unsigned('L')] |= kLitPrefix;
    c[unsigned('U')] |= kLitPrefix;
    c[unsigned('u')] |= kLitPrefix;
    c[unsigned('_')] = kIdStart | kIdCont | kNumCont;
    c[unsigned('$')] = kIdStart | kIdCont | kNumCont;
    c[unsigned('.')] = kNumCont;
    c[unsigned(' ')] = c[unsigned('\t')] = c[unsigned('\r')] = c[unsigned('\f')] =
        c[unsigned('\v')] = kSpace;
  }
};
inline constexpr CharTable kChars;
/// The class bits of the byte at p.
inline uint8_t classOf(const char* p) {
  return kChars.c[static_cast<unsigned char>(*p)];
}
/// The first byte after the blanks (spaces, tabs, form feeds, ...) at `p`.
[[gnu::always_inline]] inline const char* skipBlanks(const char* p) {
  while (classOf(p) & kSpace) ++p;
  return p;
}

/// The first byte at or after `p` that cannot continue an identifier (letters, digits, `_`, `$`,
/// bytes from 0x80: kIdCont). `p` lies in a padded buffer (kLexPadding readable bytes after its
/// end, the first a NUL). Eight bytes are classified at once, so that the end of an identifier
/// is not a branch per byte whose exit depends on the name's length; the scalar loop where
/// SSE2 is not there.
[[gnu::always_inline]] inline const char* skipIdentCont(const char* p) {
#if defined(__SSE2__)
  for (;;) {
    // Eight bytes (never past the padding: the NUL stops the scan before its end).
    __m128i v = _mm_loadl_epi64(reinterpret_cast<const __m128i*>(p));
    __m128i a = _mm_sub_epi8(_mm_or_si128(v, _mm_set1_epi8(0x20)), _mm_set1_epi8('a'));
    __m128i d = _mm_sub_epi8(v, _mm_set1_epi8('0'));
    __m128i in = _mm_or_si128(_mm_cmpeq_epi8(_mm_min_epu8(a, _mm_set1_epi8(25)), a),
                              _mm_cmpeq_epi8(_mm_min_epu8(d, _mm_set1_epi8(9)), d));
    in = _mm_or_si128(in, _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('_')),
                                       _mm_cmpeq_epi8(v, _mm_set1_epi8('$'))));
    in = _mm_or_si128(in, _mm_cmplt_epi8(v, _mm_setzero_si128())); // 0x80 and above
    unsigned stop = ~unsigned(_mm_movemask_epi8(in)) & 0xFF;
    if (stop) return p + std::countr_zero(stop);
    p += 8;
  }
#else
  while (kChars.c[static_cast<unsigned char>(*p)] & kIdCont) ++p;
  return p;
#endif
}

// Punctuators that are always one character (no longer token starts with them).
struct SingleTable {
  Tok k[256] = {};
  constexpr SingleTable() {
    k[unsigned('(')] = Tok::LParen;
    k[unsigned(')')] = Tok::RParen;
    k[unsigned('[')] = Tok::LBracket;
    k[unsigned(']')] = Tok::RBracket;
    k[unsigned('{')] = Tok::LBrace;
    k[unsigned('}')] = Tok::RBrace;
    k[unsigned(';')] = Tok::Semi;
    k[unsigned(',')] = Tok::Comma;
    k[unsigned('?')] = Tok::Question;
    k[unsigned('~')] = Tok::Tilde;
  }
};
inline constexpr SingleTable kSingle;
} // namespace lexchars

/// Lexes one buffer. The buffer must stay alive while tokens refer to it, and kLexPadding bytes
/// after `end` must be readable, the first of them a NUL (the scanners use it as a sentinel).
class Lexer {
public:
  Lexer(const char* begin, const char* end, uint32_t buf, uint32_t file, IdentTable& idents,
        StringArena& arena);

  /// The next token. In directive mode a newline ends the directive (Tok::Eod).
  [[gnu::always_inline]] inline void lex(Token& t);
  /// After `#include`: lexes `<...>` as one HeaderName token, else behaves like lex().
  void lexIncludeName(Token& t);
  /// Skips the rest of the current line (directive mode); returns its raw text.
  std::string_view restOfLine();
  /// In a skipped #if group: advances to the next line that starts with '#' and positions the
  /// lexer on that '#'. Returns false at the end of the buffer.
  bool skipToNextDirectiveLine();

  bool in_directive = false;
  /// #line: the reported line is physical line + line_delta (modulo 2^32); `file` is the
  /// reported file.
  uint32_t line_delta = 0;
  uint32_t file;

  const char* begin() const { return begin_; }
  const char* end() const { return end_; }
  const char* cur() const { return cur_; }
  uint32_t buf() const { return buf_; }
  uint32_t physicalLine() const { return line_; }
  Loc locAt(const char* p) const {
    Loc l;
    l.file = file;
    l.line = line_ + line_delta;
    l.col = uint32_t(p - line_start_ + 1);
    l.buf = buf_;
    l.offset = uint32_t(p - begin_);
    return l;
  }
  const char* lineStart() const { return line_start_; }
  /// Moves the cursor to `p`, after tokens of the same buffer, for a caller that has scanned the
  /// bytes in between itself: they hold `newlines` newlines (no splice), the last of them ending
  /// just before `line_start`.
  void skipTo(const char* p, uint32_t newlines = 0, const char* line_start = nullptr) {
    cur_ = p;
    at_line_start_ = false;
    if (newlines) {
      line_ += newlines;
      line_start_ = line_start;
    }
  }

private:
  void lexSlow(Token& t, uint8_t flags); // flags: what the blanks already skipped gave
  bool skipSpace(uint8_t& flags);        // false: reached a newline in directive mode
  void lexIdentifier(Token& t, const char* start);
  void lexNumber(Token& t, const char* start);
  void lexQuoted(Token& t, const char* start, char quote, Tok kind);
  void finish(Token& t, const char* start, Tok kind, bool dirty);
  void newline(const char* after) {
    ++line_;
    line_start_ = after;
  }
  // A splice is a backslash, optional horizontal space, and a newline. Returns its length (0 if
  // `p` does not start one).
  size_t spliceLength(const char* p) const;
  // The character at p after skipping splices; sets `next` past it.
  char peekChar(const char* p, const char*& next) const;
  // Accounts for the newlines in [from, to) (splices inside a token or comment).
  void commit(const char* from, const char* to);

  const char* begin_;
  const char* end_;
  const char* cur_;
  const char* line_start_;
  uint32_t line_ = 1;
  uint32_t buf_;
  bool at_line_start_ = true;
  IdentTable& idents_;
  StringArena& arena_;
};

// The common tokens (an identifier or a one-character punctuator after blanks on the same
// line) are lexed here; everything else by lexSlow().
inline void Lexer::lex(Token& t) {
  using namespace lexchars;
  const char* p = cur_;
  uint8_t flags = at_line_start_ ? kTokAtLineStart : 0;
  for (;;) {
    if (kChars.c[static_cast<unsigned char>(*p)] & kSpace) {
      do ++p;
      while (kChars.c[static_cast<unsigned char>(*p)] & kSpace);
      flags |= kTokLeadingSpace;
    }
    if (*p != '\n' || in_directive) break;
    ++p;
    newline(p);
    at_line_start_ = true;
    flags = kTokAtLineStart;
  }
  unsigned char c = static_cast<unsigned char>(*p);
  const uint8_t cls = kChars.c[c];
  bool ident = (cls & kIdStart) && !((cls & kLitPrefix) &&
                                     (p[1] == '\'' || p[1] == '"' ||
                                      (c == 'u' && p[1] == '8' && (p[2] == '\'' || p[2] == '"'))));
  Tok single = Tok::Eof;
  if (!ident) {
    single = kSingle.k[c];
    // '*', ':' and '=' are one-character tokens unless the next character extends them.
    if (single == Tok::Eof) {
      if (c == '*' && p[1] != '=' && p[1] != '\\')
        single = Tok::Star;
      else if (c == ':' && p[1] != ':' && p[1] != '>' && p[1] != '\\')
        single = Tok::Colon;
      else if (c == '=' && p[1] != '=' && p[1] != '\\')
        single = Tok::Equal;
    }
  }
  if (!ident && single == Tok::Eof) {
    cur_ = p; // blanks and newlines skipped (at_line_start_ is up to date)
    lexSlow(t, flags);
    return;
  }
  const char* start = p;
  if (ident) {
    p = skipIdentCont(p + 1);
    if (*p == '\\' && p < end_) {
      cur_ = start;
      lexSlow(t, flags); // a line splice may continue the identifier
      return;
    }
  } else {
    ++p;
  }
  cur_ = p;
  t.flags = flags;
  at_line_start_ = false;
  t.loc.file = file;
  t.loc.line = line_ + line_delta;
  t.loc.col = uint32_t(start - line_start_ + 1);
  t.loc.buf = buf_;
  t.loc.offset = uint32_t(start - begin_);
  t.ptr = start;
  if (!ident) {
    t.kind = single;
    t.len = 1;
    t.ident = nullptr;
    return;
  }
  size_t n = size_t(p - start);
  t.kind = Tok::Ident;
  t.len = uint32_t(n);
  t.ident = idents_.lookupPadded(start, n);
}

/// The first byte from `p` on that is '\n', '*', '\\' or NUL: the bytes a block comment's scan
/// must look at. `p` lies in a padded buffer (kLexPadding readable bytes after its end, the first
/// a NUL) at or before its end; the bytes are read eight at a time, never past that padding (the
/// scan stops at the NUL).
[[gnu::always_inline]] inline const char* findCommentStop(const char* p) {
  constexpr uint64_t k01 = 0x0101010101010101ull, k7f = 0x7F7F7F7F7F7F7F7Full;
  // The top bit of each byte of x that is zero (exact for every byte: no borrow between them).
  auto zeros = [](uint64_t x) { return ~(((x & k7f) + k7f) | x | k7f); };
  for (;;) {
    uint64_t w = IdentTable::load8(p);
    uint64_t m =
        zeros(w) | zeros(w ^ (k01 * '\n')) | zeros(w ^ (k01 * '*')) | zeros(w ^ (k01 * '\\'));
    if (m) {
      if constexpr (std::endian::native == std::endian::little)
        return p + (std::countr_zero(m) >> 3);
      else
        return p + (std::countl_zero(m) >> 3);
    }
    p += 8;
  }
}

/// The identifier at `p` in a padded buffer, as Lexer::lex() reads it, with `p` moved past it;
/// nullptr (p somewhere after its start) when there is none there or the lexer's slow path
/// would read it (a line splice in it, or a literal prefix such as L"...").
[[gnu::always_inline]] inline Ident* scanIdentifier(const char*& p, IdentTable& ids) {
  using namespace lexchars;
  const char* start = p;
  if (!(kChars.c[static_cast<unsigned char>(*p)] & kIdStart)) return nullptr;
  p = skipIdentCont(p + 1);
  if (*p == '\\' || *p == '\'' || *p == '"') return nullptr;
  return ids.lookupPadded(start, size_t(p - start));
}

/// An error at a source position, thrown inside the front-end and turned into an abikit::Error
/// (with the file name and the source line) at the API boundary.
struct SourceError {
  Loc loc;
  std::string message;
  bool unsupported = false; // ErrorKind::Unsupported rather than Input
};

/// The prefix of a character constant or string literal.
enum class LiteralPrefix : uint8_t { None, Wide, Utf8, Utf16, Utf32 };

/// Decodes a character constant or string literal spelling (with its prefix and quotes):
/// the prefix and the code units (escapes resolved; UTF-8 source text is decoded to code points
/// for the u/U/L prefixes). `unit_bits` is the width of one code unit (8 for plain and u8
/// literals, the wchar_t width for L). Returns an error message, or "" on success.
std::string decodeLiteral(std::string_view spelling, unsigned wchar_bits, LiteralPrefix& prefix,
                          std::vector<uint32_t>& units);

struct IntLiteralInfo {
  bool is_float = false; // a floating constant: not parsed here
  bool is_unsigned = false;
  uint8_t longs = 0; // 0, 1 (l) or 2 (ll)
  bool is_decimal = true;
};

/// Parses an integer constant (decimal, octal, hex, binary; suffixes u, l, ll). Returns an
/// error message, or "" on success (with info.is_float set for floating constants).
std::string parseIntegerLiteral(std::string_view s, unsigned __int128& value, IntLiteralInfo& info);

} // namespace abikit::detail
