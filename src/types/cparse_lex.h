// Internal: tokens, the identifier table and the lexer of the C declaration front-end.
//
// The lexer works on an in-memory buffer and produces tokens whose spelling is a view into that
// buffer (or, for the rare token that contains a line splice, into the preprocessor's string
// arena). Identifiers are interned once in an IdentTable; macros, keywords and the parser's
// bindings hang off the Ident, so no string is hashed twice.
#pragma once

#include <cstdint>
#include <cstring>
#include <deque>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

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
  uint32_t hash = 0;
  uint16_t keyword = 0;   // parser keyword (0 = none), see cparse_parse.cpp
  uint8_t pp_special = 0; // preprocessor special name, see PpSpecial
  uint8_t attr = 0;       // reserved for the parser
  uint32_t mark = 0;      // parser scratch (duplicate-member detection)
  Macro* macro = nullptr; // current macro definition
  // Parser bindings (ordinary identifiers and tags), restored when a scope ends.
  void* ordinary = nullptr;
  void* tag = nullptr;
  std::string_view interned; // the name copied into the TypeContext, on first need
};

class IdentTable {
public:
  IdentTable();
  Ident* get(std::string_view name, uint32_t hash);
  Ident* get(std::string_view name) { return get(name, hashOf(name)); }
  /// Copies `name` into the table's own storage first (for names that do not live in a buffer).
  Ident* getCopy(std::string_view name);

  static uint32_t hashOf(std::string_view s) { return hashBytes(s.data(), s.size()); }
  static uint32_t hashBytes(const char* p, size_t n) {
    uint64_t h = uint64_t(n) * 0x9E3779B97F4A7C15ull;
    while (n >= 8) {
      uint64_t w;
      std::memcpy(&w, p, 8);
      h = (h ^ w) * 0xFF51AFD7ED558CCDull;
      h ^= h >> 32;
      p += 8;
      n -= 8;
    }
    if (n) {
      uint64_t w = 0;
      for (size_t i = 0; i < n; ++i) w |= uint64_t(static_cast<unsigned char>(p[i])) << (8 * i);
      h = (h ^ w) * 0xC4CEB9FE1A85EC53ull;
    }
    h ^= h >> 29;
    return uint32_t(h);
  }

private:
  void grow();
  std::vector<Ident*> slots_;
  size_t count_ = 0;
  std::deque<Ident> idents_;
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

/// Lexes one buffer. The buffer must stay alive while tokens refer to it, and the byte at `end`
/// must be a NUL (the scanners use it as a sentinel).
class Lexer {
public:
  Lexer(const char* begin, const char* end, uint32_t buf, uint32_t file, IdentTable& idents,
        StringArena& arena);

  /// The next token. In directive mode a newline ends the directive (Tok::Eod).
  void lex(Token& t);
  /// After `#include`: lexes `<...>` as one HeaderName token, else behaves like lex().
  void lexIncludeName(Token& t);
  /// Skips the rest of the current line (directive mode); returns its raw text.
  std::string_view restOfLine();
  /// In a skipped #if group: advances to the next line that starts with '#' and positions the
  /// lexer on that '#'. Returns false at the end of the buffer.
  bool skipToNextDirectiveLine();

  bool in_directive = false;
  /// #line: the reported line is physical line + line_delta; `file` is the reported file.
  int64_t line_delta = 0;
  uint32_t file;

  const char* begin() const { return begin_; }
  const char* end() const { return end_; }
  const char* cur() const { return cur_; }
  uint32_t buf() const { return buf_; }
  uint32_t physicalLine() const { return line_; }
  Loc locAt(const char* p) const;

private:
  bool skipSpace(uint8_t& flags); // false: reached a newline in directive mode
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
