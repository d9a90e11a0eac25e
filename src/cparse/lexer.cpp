// The lexer of the C declaration front-end: tokens as views into the buffer, identifiers
// interned once, line splices and comments handled in place.
#include "lexer.h"

#include <algorithm>
#include <cctype>
#include <cstring>

namespace abikit::detail {

// ----- identifier table -----------------------------------------------------------------------

IdentTable::IdentTable() : slots_(4096) {}

void IdentTable::reserveForText(size_t bytes) {
  // One slot per 64 bytes (a power of two, capped at 2^24): one new identifier per 128 bytes
  // fits with the table at most half full (the benchmark header has one per 130 bytes).
  size_t want = std::min<size_t>(bytes / 64, size_t(1) << 24);
  size_t n = slots_.size();
  while (n < want) n *= 2;
  if (n != slots_.size() && count_ == 0) slots_.assign(n, Slot{});
}

Ident& IdentTable::newIdent() {
  if (ident_left_ == 0) {
    ident_blocks_.emplace_back(new Ident[kIdentBlock]);
    ident_left_ = kIdentBlock;
  }
  return ident_blocks_.back()[kIdentBlock - ident_left_--];
}

Ident* IdentTable::lookupSlow(const char* s, size_t n, uint32_t hash, uint64_t w0) {
  size_t mask = slots_.size() - 1;
  size_t i = hash & mask;
  for (;; i = (i + 1) & mask) {
    Slot& slot = slots_[i];
    if (!slot.id) break;
    if (slot.hash != hash) continue;
    Ident* id = slot.id;
    if (id->prefix == w0 && id->name.size() == n &&
        (n <= 8 || std::memcmp(id->name.data() + 8, s + 8, n - 8) == 0))
      return id;
  }
  Ident& id = newIdent();
  id.name = std::string_view(s, n);
  id.hash = hash;
  id.prefix = w0;
  slots_[i] = {hash, &id};
  if (++count_ * 2 > slots_.size()) grow();
  return &id;
}

Ident* IdentTable::getCopy(std::string_view name) {
  uint64_t w0 = prefixOf(name.data(), name.size());
  uint32_t h = hashOf(name.data(), name.size(), w0);
  size_t mask = slots_.size() - 1;
  for (size_t i = h & mask; slots_[i].id; i = (i + 1) & mask)
    if (slots_[i].hash == h && slots_[i].id->name == name) return slots_[i].id;
  const std::string& copy = names_.emplace_back(name);
  return lookup(copy.data(), copy.size(), h, w0);
}

void IdentTable::grow() {
  std::vector<Slot> old(slots_.size() * 2);
  old.swap(slots_);
  size_t mask = slots_.size() - 1;
  for (const Slot& s : old) {
    if (!s.id) continue;
    size_t i = s.hash & mask;
    while (slots_[i].id) i = (i + 1) & mask;
    slots_[i] = s;
  }
}

// ----- string arena ---------------------------------------------------------------------------

char* StringArena::allocate(size_t n) {
  if (n > left_) {
    size_t size = n > 32768 ? n : 32768;
    blocks_.emplace_back(new char[size]);
    cur_ = blocks_.back().get();
    left_ = size;
  }
  char* p = cur_;
  cur_ += n;
  left_ -= n;
  return p;
}

std::string_view StringArena::copy(std::string_view s) {
  // Followed by kLexPadding NULs: the copy can be lexed.
  char* p = allocate(s.size() + kLexPadding);
  std::memcpy(p, s.data(), s.size());
  std::memset(p + s.size(), 0, kLexPadding);
  return {p, s.size()};
}

// ----- punctuators ----------------------------------------------------------------------------

std::string_view punctuatorSpelling(Tok k) {
  switch (k) {
  case Tok::LParen:
    return "(";
  case Tok::RParen:
    return ")";
  case Tok::LBracket:
    return "[";
  case Tok::RBracket:
    return "]";
  case Tok::LBrace:
    return "{";
  case Tok::RBrace:
    return "}";
  case Tok::Dot:
    return ".";
  case Tok::Ellipsis:
    return "...";
  case Tok::Arrow:
    return "->";
  case Tok::PlusPlus:
    return "++";
  case Tok::MinusMinus:
    return "--";
  case Tok::Amp:
    return "&";
  case Tok::Star:
    return "*";
  case Tok::Plus:
    return "+";
  case Tok::Minus:
    return "-";
  case Tok::Tilde:
    return "~";
  case Tok::Excl:
    return "!";
  case Tok::Slash:
    return "/";
  case Tok::Percent:
    return "%";
  case Tok::LShift:
    return "<<";
  case Tok::RShift:
    return ">>";
  case Tok::Less:
    return "<";
  case Tok::Greater:
    return ">";
  case Tok::LessEq:
    return "<=";
  case Tok::GreaterEq:
    return ">=";
  case Tok::EqEq:
    return "==";
  case Tok::NotEq:
    return "!=";
  case Tok::Caret:
    return "^";
  case Tok::Pipe:
    return "|";
  case Tok::AmpAmp:
    return "&&";
  case Tok::PipePipe:
    return "||";
  case Tok::Question:
    return "?";
  case Tok::Colon:
    return ":";
  case Tok::ColonColon:
    return "::";
  case Tok::Semi:
    return ";";
  case Tok::Equal:
    return "=";
  case Tok::StarEq:
    return "*=";
  case Tok::SlashEq:
    return "/=";
  case Tok::PercentEq:
    return "%=";
  case Tok::PlusEq:
    return "+=";
  case Tok::MinusEq:
    return "-=";
  case Tok::LShiftEq:
    return "<<=";
  case Tok::RShiftEq:
    return ">>=";
  case Tok::AmpEq:
    return "&=";
  case Tok::CaretEq:
    return "^=";
  case Tok::PipeEq:
    return "|=";
  case Tok::Comma:
    return ",";
  case Tok::Hash:
    return "#";
  case Tok::HashHash:
    return "##";
  default:
    return "";
  }
}

// ----- lexer ----------------------------------------------------------------------------------

namespace {

using lexchars::kChars;
using lexchars::kIdCont;
using lexchars::kIdStart;
using lexchars::kNumCont;
using lexchars::kSingle;
using lexchars::kSpace;

inline bool isIdCont(char ch) {
  return kChars.c[static_cast<unsigned char>(ch)] & kIdCont;
}
inline bool isHSpace(char ch) {
  return kChars.c[static_cast<unsigned char>(ch)] & kSpace;
}

} // namespace

Lexer::Lexer(const char* begin, const char* end, uint32_t buf, uint32_t file_id, IdentTable& idents,
             StringArena& arena)
    : file(file_id), begin_(begin), end_(end), cur_(begin), line_start_(begin), buf_(buf),
      idents_(idents), arena_(arena) {}

size_t Lexer::spliceLength(const char* p) const {
  if (p >= end_ || *p != '\\') return 0;
  const char* q = p + 1;
  while (q < end_ && isHSpace(*q)) ++q;
  if (q < end_ && *q == '\n') return size_t(q + 1 - p);
  return 0;
}

char Lexer::peekChar(const char* p, const char*& next) const {
  while (p < end_ && *p == '\\') {
    size_t n = spliceLength(p);
    if (!n) break;
    p += n;
  }
  if (p >= end_) {
    next = end_;
    return '\0';
  }
  next = p + 1;
  return *p;
}

void Lexer::commit(const char* from, const char* to) {
  for (const char* p = from; p < to; ++p)
    if (*p == '\n') newline(p + 1);
}

bool Lexer::skipSpace(uint8_t& flags) {
  const char* p = cur_;
  for (;;) {
    if (isHSpace(*p)) {
      do ++p;
      while (isHSpace(*p));
      flags |= kTokLeadingSpace;
    }
    if (p >= end_) break;
    char c = *p;
    if (c == '\n') {
      if (in_directive) {
        cur_ = p;
        return false;
      }
      ++p;
      newline(p);
      at_line_start_ = true;
      flags = uint8_t((flags | kTokAtLineStart) & ~kTokLeadingSpace);
      continue;
    }
    if (c == '\\') {
      size_t n = spliceLength(p);
      if (!n) break;
      p += n;
      newline(p);
      continue;
    }
    if (c == '/') {
      const char* q;
      char c2 = peekChar(p + 1, q);
      if (c2 == '*') {
        Loc open_loc = locAt(p);
        commit(p, q);
        p = q;
        bool closed = false;
        for (;;) {
          // Only '\n', '*', '\\' and NUL need a look (the NUL after the buffer ends the scan).
          p = findCommentStop(p);
          if (p >= end_) break;
          char d = *p++;
          if (d == '\n') {
            newline(p);
          } else if (d == '*') {
            const char* r;
            if (peekChar(p, r) == '/') {
              commit(p, r);
              p = r;
              closed = true;
              break;
            }
          } else if (d == '\\') {
            size_t n = spliceLength(p - 1);
            if (n) {
              p += n - 1;
              newline(p);
            }
          }
        }
        if (!closed) throw SourceError{open_loc, "unterminated /* comment", false};
        flags |= kTokLeadingSpace;
        continue;
      }
      if (c2 == '/') {
        commit(p, q);
        p = q;
        while (p < end_ && *p != '\n') {
          if (*p == '\\') {
            size_t n = spliceLength(p);
            if (n) {
              p += n;
              newline(p);
              continue;
            }
          }
          ++p;
        }
        flags |= kTokLeadingSpace;
        continue;
      }
    }
    break;
  }
  cur_ = p;
  return true;
}

void Lexer::finish(Token& t, const char* start, Tok kind, bool dirty) {
  t.kind = kind;
  if (!dirty) {
    t.ptr = start;
    t.len = uint32_t(cur_ - start);
    return;
  }
  // Remove line splices from the spelling.
  size_t n = size_t(cur_ - start);
  char* out = arena_.allocate(n);
  size_t k = 0;
  for (const char* p = start; p < cur_;) {
    if (*p == '\\') {
      size_t s = spliceLength(p);
      if (s) {
        p += s;
        continue;
      }
    }
    out[k++] = *p++;
  }
  t.ptr = out;
  t.len = uint32_t(k);
  commit(start, cur_);
}

void Lexer::lexIdentifier(Token& t, const char* start) {
  // The buffer ends with a NUL, which is not an identifier character: no bounds check.
  const char* p = start + 1;
  while (isIdCont(*p)) ++p;
  if (*p != '\\' || !spliceLength(p) || p >= end_) {
    cur_ = p;
    size_t n = size_t(p - start);
    t.kind = Tok::Ident;
    t.ptr = start;
    t.len = uint32_t(n);
    t.ident = idents_.lookupPadded(start, n);
    return;
  }
  // Slow path: line splices inside the identifier.
  bool dirty = false;
  while (p < end_) {
    char c = *p;
    if (isIdCont(c)) {
      ++p;
      continue;
    }
    if (c == '\\' && spliceLength(p)) {
      const char* q;
      char d = peekChar(p, q);
      if (q > p && isIdCont(d)) {
        dirty = true;
        p = q - 1;
        continue;
      }
    }
    break;
  }
  cur_ = p;
  finish(t, start, Tok::Ident, dirty);
  t.ident = idents_.get(t.text());
}

void Lexer::lexNumber(Token& t, const char* start) {
  const char* p = start + 1;
  bool dirty = false;
  char prev = *start;
  while (p < end_) {
    char c = *p;
    const char* next = p + 1;
    if (c == '\\') {
      const char* q;
      char d = peekChar(p, q);
      if (q == p + 1) break; // not a splice
      c = d;
      next = q;
      dirty = true;
    }
    bool take =
        (kChars.c[static_cast<unsigned char>(c)] & kNumCont) ||
        ((c == '+' || c == '-') && (prev == 'e' || prev == 'E' || prev == 'p' || prev == 'P'));
    if (!take || c == '\0') break;
    prev = c;
    p = next;
  }
  cur_ = p;
  finish(t, start, Tok::Number, dirty);
}

void Lexer::lexQuoted(Token& t, const char* start, char quote, Tok kind) {
  // `start` is at the prefix (if any); find the opening quote.
  const char* p = start;
  while (*p != quote) ++p;
  ++p;
  bool dirty = false;
  while (p < end_) {
    char c = *p;
    if (c == quote) {
      cur_ = p + 1;
      finish(t, start, kind, dirty);
      return;
    }
    if (c == '\n') break;
    if (c == '\\') {
      size_t n = spliceLength(p);
      if (n) {
        p += n;
        dirty = true;
        continue;
      }
      // The escaped character (after any splices) may itself be a quote or a backslash.
      const char* q;
      char d = peekChar(p + 1, q);
      if (q > p + 2) dirty = true;
      if (d == '\n' || q >= end_ + 1) {
        p = q - 1;
        continue;
      }
      p = q;
      continue;
    }
    ++p;
  }
  // Unterminated: the token runs to the end of the line.
  cur_ = p;
  finish(t, start, Tok::Unknown, dirty);
  t.flags |= kTokUnterminated;
}

void Lexer::lexSlow(Token& t, uint8_t flags) {
  t.ident = nullptr;
  // Fast path over blanks and newlines; comments and splices go through skipSpace().
  const char* p0 = cur_;
  for (;;) {
    unsigned char c0 = static_cast<unsigned char>(*p0);
    if (kChars.c[c0] & kSpace) {
      do ++p0;
      while (kChars.c[static_cast<unsigned char>(*p0)] & kSpace);
      flags |= kTokLeadingSpace;
      c0 = static_cast<unsigned char>(*p0);
    }
    if (c0 != '\n' || in_directive) break;
    ++p0;
    newline(p0);
    at_line_start_ = true;
    flags = kTokAtLineStart;
  }
  cur_ = p0;
  if ((*p0 == '/' || *p0 == '\\' || *p0 == '\n') && !skipSpace(flags)) {
    t.flags = flags;
    t.loc = locAt(cur_);
    t.kind = Tok::Eod;
    t.ptr = cur_;
    t.len = 0;
    return;
  }
  t.flags = flags;
  at_line_start_ = false;
  const char* start = cur_;
  t.loc.file = file;
  t.loc.line = line_ + line_delta;
  t.loc.col = uint32_t(start - line_start_ + 1);
  t.loc.buf = buf_;
  t.loc.offset = uint32_t(start - begin_);
  unsigned char first = static_cast<unsigned char>(*start);
  // Identifiers (the common case) and single-character punctuators first.
  if ((kChars.c[first] & kIdStart) &&
      !((first == 'L' || first == 'U' || first == 'u') &&
        (start[1] == '\'' || start[1] == '"' ||
         (first == 'u' && start[1] == '8' && (start[2] == '\'' || start[2] == '"'))))) {
    lexIdentifier(t, start);
    return;
  }
  if (Tok single = kSingle.k[first]; single != Tok::Eof) {
    cur_ = start + 1;
    t.kind = single;
    t.ptr = start;
    t.len = 1;
    return;
  }
  if (start >= end_) {
    t.kind = in_directive ? Tok::Eod : Tok::Eof;
    t.ptr = end_;
    t.len = 0;
    return;
  }
  char c = *start;
  const char* p = start + 1;
  auto punct = [&](Tok k, const char* after) {
    cur_ = after;
    finish(t, start, k, after - start > 1 && std::memchr(start, '\\', size_t(after - start)));
  };
  // Next character after p, looking through splices.
  const char* q;
  switch (c) {
  case 'L':
  case 'U':
  case 'u': {
    // Character and string prefixes: L U u u8.
    const char* r = p;
    if (c == 'u' && r < end_ && *r == '8') ++r;
    if (r < end_ && (*r == '\'' || *r == '"')) {
      lexQuoted(t, start, *r, *r == '"' ? Tok::String : Tok::Char);
      return;
    }
    lexIdentifier(t, start);
    return;
  }
  case '\'':
    lexQuoted(t, start, '\'', Tok::Char);
    return;
  case '"':
    lexQuoted(t, start, '"', Tok::String);
    return;
  case '0':
  case '1':
  case '2':
  case '3':
  case '4':
  case '5':
  case '6':
  case '7':
  case '8':
  case '9':
    lexNumber(t, start);
    return;
  case '.': {
    char d = peekChar(p, q);
    if (d >= '0' && d <= '9') {
      lexNumber(t, start);
      return;
    }
    if (d == '.') {
      const char* r;
      if (peekChar(q, r) == '.') return punct(Tok::Ellipsis, r);
    }
    return punct(Tok::Dot, p);
  }
  case '(':
    return punct(Tok::LParen, p);
  case ')':
    return punct(Tok::RParen, p);
  case '[':
    return punct(Tok::LBracket, p);
  case ']':
    return punct(Tok::RBracket, p);
  case '{':
    return punct(Tok::LBrace, p);
  case '}':
    return punct(Tok::RBrace, p);
  case ';':
    return punct(Tok::Semi, p);
  case ',':
    return punct(Tok::Comma, p);
  case '?':
    return punct(Tok::Question, p);
  case '~':
    return punct(Tok::Tilde, p);
  case ':': {
    char d = peekChar(p, q);
    if (d == ':') return punct(Tok::ColonColon, q);
    if (d == '>') return punct(Tok::RBracket, q); // digraph :>
    return punct(Tok::Colon, p);
  }
  case '-': {
    char d = peekChar(p, q);
    if (d == '-') return punct(Tok::MinusMinus, q);
    if (d == '>') return punct(Tok::Arrow, q);
    if (d == '=') return punct(Tok::MinusEq, q);
    return punct(Tok::Minus, p);
  }
  case '+': {
    char d = peekChar(p, q);
    if (d == '+') return punct(Tok::PlusPlus, q);
    if (d == '=') return punct(Tok::PlusEq, q);
    return punct(Tok::Plus, p);
  }
  case '&': {
    char d = peekChar(p, q);
    if (d == '&') return punct(Tok::AmpAmp, q);
    if (d == '=') return punct(Tok::AmpEq, q);
    return punct(Tok::Amp, p);
  }
  case '|': {
    char d = peekChar(p, q);
    if (d == '|') return punct(Tok::PipePipe, q);
    if (d == '=') return punct(Tok::PipeEq, q);
    return punct(Tok::Pipe, p);
  }
  case '*':
    return peekChar(p, q) == '=' ? punct(Tok::StarEq, q) : punct(Tok::Star, p);
  case '/':
    return peekChar(p, q) == '=' ? punct(Tok::SlashEq, q) : punct(Tok::Slash, p);
  case '^':
    return peekChar(p, q) == '=' ? punct(Tok::CaretEq, q) : punct(Tok::Caret, p);
  case '=':
    return peekChar(p, q) == '=' ? punct(Tok::EqEq, q) : punct(Tok::Equal, p);
  case '!':
    return peekChar(p, q) == '=' ? punct(Tok::NotEq, q) : punct(Tok::Excl, p);
  case '%': {
    char d = peekChar(p, q);
    if (d == '=') return punct(Tok::PercentEq, q);
    if (d == '>') return punct(Tok::RBrace, q); // %>
    if (d == ':') {                             // %: and %:%:
      const char* r;
      const char* s;
      if (peekChar(q, r) == '%' && peekChar(r, s) == ':') return punct(Tok::HashHash, s);
      return punct(Tok::Hash, q);
    }
    return punct(Tok::Percent, p);
  }
  case '<': {
    char d = peekChar(p, q);
    if (d == '<') {
      const char* r;
      if (peekChar(q, r) == '=') return punct(Tok::LShiftEq, r);
      return punct(Tok::LShift, q);
    }
    if (d == '=') return punct(Tok::LessEq, q);
    if (d == ':') return punct(Tok::LBracket, q); // <:
    if (d == '%') return punct(Tok::LBrace, q);   // <%
    return punct(Tok::Less, p);
  }
  case '>': {
    char d = peekChar(p, q);
    if (d == '>') {
      const char* r;
      if (peekChar(q, r) == '=') return punct(Tok::RShiftEq, r);
      return punct(Tok::RShift, q);
    }
    if (d == '=') return punct(Tok::GreaterEq, q);
    return punct(Tok::Greater, p);
  }
  case '#':
    return peekChar(p, q) == '#' ? punct(Tok::HashHash, q) : punct(Tok::Hash, p);
  default:
    break;
  }
  if (kChars.c[static_cast<unsigned char>(c)] & kIdStart) {
    lexIdentifier(t, start);
    return;
  }
  // A stray character (e.g. '@', '`', a lone backslash or a NUL byte).
  cur_ = p;
  finish(t, start, Tok::Unknown, false);
}

void Lexer::lexIncludeName(Token& t) {
  uint8_t flags = 0;
  if (!skipSpace(flags) || cur_ >= end_ || *cur_ != '<') {
    lex(t);
    return;
  }
  const char* start = cur_;
  t.flags = flags;
  t.ident = nullptr;
  t.loc = locAt(start);
  const char* p = start + 1;
  while (p < end_ && *p != '>' && *p != '\n') ++p;
  if (p < end_ && *p == '>') {
    cur_ = p + 1;
    finish(t, start, Tok::HeaderName, false);
    return;
  }
  cur_ = p;
  finish(t, start, Tok::Unknown, false);
  t.flags |= kTokUnterminated;
}

std::string_view Lexer::restOfLine() {
  const char* start = cur_;
  const char* p = cur_;
  while (p < end_ && *p != '\n') {
    if (*p == '\\') {
      size_t n = spliceLength(p);
      if (n) {
        p += n;
        newline(p);
        continue;
      }
    }
    ++p;
  }
  cur_ = p;
  return {start, size_t(p - start)};
}

namespace {
// The bytes skipToNextDirectiveLine() looks at; any other byte only ends the line's start.
struct SkipTable {
  bool special[256] = {};
  constexpr SkipTable() {
    for (unsigned char c : {'\0', '\n', '\\', '/', '"', '\'', '#', '%'}) special[c] = true;
    for (int i = 0; i < 256; ++i)
      if (lexchars::kChars.c[i] & lexchars::kSpace) special[i] = true;
  }
};
inline constexpr SkipTable kSkip;
} // namespace

bool Lexer::skipToNextDirectiveLine() {
  const char* p = cur_;
  bool at_start = false;
  while (p < end_) {
    if (!kSkip.special[static_cast<unsigned char>(*p)]) {
      // A run of ordinary bytes (the padding NUL after end_ stops it).
      do ++p;
      while (!kSkip.special[static_cast<unsigned char>(*p)]);
      at_start = false;
      continue;
    }
    char c = *p;
    if (c == '\n') {
      ++p;
      newline(p);
      at_start = true;
      continue;
    }
    if (isHSpace(c)) {
      ++p;
      continue;
    }
    if (c == '\\') {
      size_t n = spliceLength(p);
      if (n) {
        p += n;
        newline(p);
        continue;
      }
      ++p;
      at_start = false;
      continue;
    }
    if (c == '/' && p + 1 < end_ && p[1] == '*') {
      p += 2;
      while (p < end_ && !(*p == '*' && p + 1 < end_ && p[1] == '/')) {
        if (*p == '\n') newline(p + 1);
        ++p;
      }
      p = p < end_ ? p + 2 : end_;
      continue;
    }
    if (c == '/' && p + 1 < end_ && p[1] == '/') {
      while (p < end_ && *p != '\n') {
        size_t n = *p == '\\' ? spliceLength(p) : 0;
        if (n) {
          p += n;
          newline(p);
        } else {
          ++p;
        }
      }
      continue;
    }
    if (at_start && (c == '#' || (c == '%' && p + 1 < end_ && p[1] == ':'))) {
      cur_ = p;
      at_line_start_ = true;
      return true;
    }
    at_start = false;
    if (c == '"' || c == '\'') {
      ++p;
      while (p < end_ && *p != c && *p != '\n') {
        if (*p == '\\' && p + 1 < end_) {
          size_t n = spliceLength(p);
          if (n) {
            p += n;
            newline(p);
            continue;
          }
          if (p[1] != '\n') ++p;
        }
        ++p;
      }
      if (p < end_ && *p == c) ++p;
      continue;
    }
    ++p;
  }
  cur_ = end_;
  return false;
}

} // namespace abikit::detail
