// The member fast path: common member declarations read straight from the bytes (the only code
// of the parser that reads raw bytes); the same result, errors included, as the general path.
#include "parser.h"

namespace abikit::detail {

// ----- the member fast path --------------------------------------------------------------
//
// Most members of real headers have one of a few shapes:
//   SPECIFIERS ['*'...] NAME ['[' SIZE ']'] [':' WIDTH] ';'
// SPECIFIERS being a typedef name, `struct`/`union`/`enum` and a tag in scope, or basic type
// keywords with const/volatile (a combination parseMember() has already turned into a type), SIZE
// a decimal int constant or an object-like macro whose body is a plain int constant expression,
// WIDTH a decimal constant, and only blanks between the tokens, all on one line. fastMembers()
// reads a run of such members straight from the bytes of the file, with the blanks, newlines
// and comments between them: no token is made, no specifier or declarator state is built. Each
// member ends as parseMember() ends it for the same tokens: the same type (made by
// applyPointer()/applyArray()), the same FieldDecl and member locations, the same errors
// (addMember() and the apply functions report them). After the run, the lexer stands after the
// last member's ';', which is the previous token, and tok_ holds the token after it. A member of
// any other shape (a macro other than the array size, an attribute, a qualifier after '*', a
// second declarator, a line splice, a directive, ...) ends the run where it starts, and
// parseMember() reads it; returns false if the run is empty (nothing changed). With `after_open`
// the run starts after the '{' (tok_), without a token made for the first member: its text is
// looked up in the member memo first, like any other's.
bool Parser::fastMembers(BodyState& body, bool after_open) {
  using namespace lexchars;
  Lexer* lx = idleDirectLexer();
  if (!lx) return false;
  auto blanks = [](const char* q) { return lexchars::skipBlanks(q); };
  auto ident = [&](const char*& q) { return scanIdentifier(q, ids_); };
  // A decimal int constant without suffix (what literalNumber() makes an int of), or -1.
  auto number = [&](const char*& q) -> int64_t {
    if (!(classOf(q) & kDigit)) return -1;
    if (*q == '0' && (classOf(q + 1) & kNumCont)) return -1; // octal, hex, binary, 0.5, ...
    int64_t v = 0;
    int digits = 0;
    while (classOf(q) & kDigit) {
      v = v * 10 + (*q - '0');
      ++q;
      if (++digits > 10) return -1;
    }
    if ((classOf(q) & kNumCont) || *q == '\'' || *q == '\\' || v > 0x7FFFFFFF) return -1;
    return v;
  };
  // Positions as the lexer reports them: `line` physical lines after the lexer's current one,
  // which starts at `ls`.
  uint32_t line = 0;
  const char* ls = lx->lineStart();
  const uint32_t line0 = lx->physicalLine() + lx->line_delta;
  auto loc = [&](const char* q) {
    Loc l;
    l.file = lx->file;
    l.line = line0 + line;
    l.col = uint32_t(q - ls + 1);
    l.buf = lx->buf();
    l.offset = uint32_t(q - lx->begin());
    return l;
  };

  Ident* first = after_open ? nullptr : tok_.ident; // the member's first token
  const char* p = lx->cur();                        // after it
  const char* semi = nullptr;                       // the last member's ';'
  uint32_t semi_line = 0;                           // and its line
  const char* semi_ls = nullptr;
  if (memo_.empty()) {
    size_t slots = std::clamp<size_t>(text_bytes / 512, 256, 8192);
    memo_.resize(std::bit_ceil(slots));
  }
  // `ms`: where the member's text starts (its first identifier), null if it cannot be looked up
  // in the memo (a splice inside the first token); `first`: that identifier once read, with `p`
  // after it. The first member's first token is the current one, or (`after_open`) still to be
  // read after the '{'.
  const char* ms = nullptr;
  const char* const end = lx->end();
  // Where the blanks, newlines and comments after the last member read end (the next member, or
  // the '}'): the position, line, line start and the flags of the token there.
  const char* gap_end = nullptr;
  uint32_t gap_line = 0;
  const char* gap_ls = nullptr;
  uint8_t gap_flags = 0;
  if (after_open) {
    ms = skipGap(p, line, ls, gap_flags);
    if (!ms) return false;
  } else if (tok_.len == first->name.size() && tok_.ptr + tok_.len == p) {
    ms = tok_.ptr;
  }
  for (;;) {
    // The member memo first: a hit is the member the same text made before.
    MemoKey key;
    if (ms && (classOf(ms) & kIdStart)) {
      key = memberKey(ms, end);
      if (key.len && !key.tag_pointer) {
        if (const MemberMemo* e = memoFind(ms, key)) {
          if (e->plain && member_n_ < member_stack_.size()) {
            // addFastMember() with what the entry knows of the type.
            body.add(e->name, e->depth);
            writePlainMember(e->type, e->name, loc(ms + e->name_off));
          } else {
            addFastMember(QType{e->type}, e->name, loc(ms + e->name_off), e->width, body);
          }
          semi = ms + key.len;
          semi_line = line;
          semi_ls = ls;
          goto next;
        }
      }
    }
    if (!first) {
      p = ms;
      if (key.tag_pointer) {
        // memberKey() has seen `struct` or `union` and a blank: the keyword without a lookup.
        const bool is_struct = *p == 's';
        first = is_struct ? id_struct_ : id_union_;
        p += is_struct ? 6 : 5;
      } else {
        first = ident(p);
      }
      if (!first || first->macro) goto done;
    }
    {
      // The identifiers of the member and what of them it depends on (IdentMemo bits), for the
      // memo if the member is read to the end. Only the array size may be a macro name.
      Ident* deps[6];
      uint8_t dep_bits[6];
      unsigned ndeps = 0;
      bool memo_ok = key.len != 0;
      auto note = [&](Ident* id, uint8_t bits, bool macro_ok = false) {
        if (ndeps == 6 || (!macro_ok && id->macro)) {
          memo_ok = false;
          return;
        }
        deps[ndeps] = id;
        dep_bits[ndeps++] = bits;
      };
      // The specifiers.
      QType base;
      TagSym* tag_sym = nullptr; // `struct TAG`, `union TAG`, `enum TAG`
      switch (Kw(first->keyword)) {
      case kKwNone: {
        Symbol* s = lookup(first);
        if (!s || s->kind != Symbol::Typedef || dyn<OpenCLType>(s->type.t)) goto done;
        base = s->type;
        note(first, kIdMemoMacro | kIdMemoBind);
        break;
      }
      case kKwStruct:
      case kKwUnion:
      case kKwEnum: {
        p = blanks(p);
        Ident* tag = ident(p);
        if (!tag || tag->keyword != kKwNone || tag->macro) goto done;
        TagSym* ts = lookupTag(tag);
        TagSym::Kind want = first->keyword == kKwStruct  ? TagSym::Struct
                            : first->keyword == kKwUnion ? TagSym::Union
                                                         : TagSym::Enum;
        if (!ts || ts->kind != want) goto done;
        tag_sym = ts;
        base = QType{ts->type};
        note(first, kIdMemoMacro);
        note(tag, kIdMemoMacro | kIdMemoBind);
        // A pointer to a record that is not complete yet takes its nesting depth from the
        // record as it is when the pointer is made: not kept.
        if (ts->rd && !ts->rd->complete) memo_ok = false;
        break;
      }
      default: {
        // The keyword loop of parseMember().
        SpecSet spec;
        Ident* id = first;
        for (;;) {
          if (spec.addBasic(id->keyword) == SpecSet::Other) goto done;
          note(id, kIdMemoMacro);
          const char* after = blanks(p);
          Ident* next = ident(after);
          if (!next || next->keyword == kKwNone) break; // the declarator
          if (next->macro) goto done;
          id = next;
          p = after;
        }
        if (!spec.any() || basic_types_.empty()) goto done;
        base = basic_types_[spec.basicKey()];
        if (!base.t) goto done;
        break;
      }
      }

      {
        // The declarator: pointers, the name, one array suffix, a bit-field width, the ';'.
        const char* stars[8];
        unsigned nstars = 0;
        p = blanks(p);
        while (*p == '*') {
          if (nstars == 8) goto done;
          stars[nstars++] = p;
          p = blanks(p + 1);
        }
        const char* name_at = p;
        Ident* name = ident(p);
        if (!name || name->keyword != kKwNone || name->macro) goto done;
        note(name, kIdMemoMacro);
        p = blanks(p);
        const char* open = nullptr;
        const char* size_at = nullptr;
        int64_t count = -1;
        if (*p == '[') {
          open = p;
          size_at = p = blanks(p + 1);
          if (classOf(p) & kDigit) {
            count = number(p);
          } else {
            Ident* m = ident(p);
            int32_t v;
            if (m && m->macro && macroIntValue(m->macro, v)) {
              count = v;
              note(m, kIdMemoMacro, true);
            }
          }
          if (count < 0) goto done;
          p = blanks(p);
          if (*p != ']') goto done;
          p = blanks(p + 1);
        }
        int32_t width = -1;
        if (*p == ':' && p[1] != ':' && p[1] != '>') {
          p = blanks(p + 1);
          int64_t w = number(p);
          if (w < 0) goto done;
          width = int32_t(w);
          p = blanks(p);
        }
        if (*p != ';') goto done;

        // A pointer to a record, `struct TAG *NAME;`: applyPointer() with the pointer kept in
        // the tag, and what addFastMember() does for a pointer. Not kept in the memo: such texts
        // seldom repeat (the tags differ), and this is about as fast as a hit.
        if (tag_sym && tag_sym->rd && nstars == 1 && !open && width < 0 &&
            member_n_ < member_stack_.size()) {
          uint32_t depth = pointerDepth(tag_sym->type, loc(stars[0]));
          if (!tag_sym->pointer)
            tag_sym->pointer = ctx_.pointerTo(tag_sym->type, ctx_.defaultPointeeAddressSpace());
          setDepth(tag_sym->pointer, depth);
          body.add(name, depth);
          writePlainMember(tag_sym->pointer, name, loc(name_at));
          semi = p;
          semi_line = line;
          semi_ls = ls;
          goto next;
        }
        // The member: the same steps as parseMember() (buildType(), then addMember()).
        QType t = base;
        for (unsigned i = 0; i < nstars; ++i) applyPointer(t, loc(stars[i]));
        if (open) {
          Chunk c;
          c.kind = Chunk::Array;
          c.loc = loc(open);
          c.size_loc = loc(size_at);
          c.count = uint64_t(count);
          applyArray(t, c, name, DeclContext::Member);
        }
        bool plain = addFastMember(t, name, loc(name_at), width, body);
        semi = p;
        semi_line = line;
        semi_ls = ls;
        if (memo_ok && p == ms + key.len && !t.has_as) {
          for (unsigned i = 0; i < ndeps; ++i) deps[i]->memo |= dep_bits[i];
          MemberMemo& e = memo_[key.hash & (memo_.size() - 1)];
          std::memcpy(e.text, ms, sizeof e.text); // memberKey(): 32 bytes to read
          e.type = t.t;
          e.name = name;
          e.hash = key.hash;
          e.epoch = ids_.memo_epoch;
          e.width = width;
          e.len = uint8_t(key.len);
          e.name_off = uint8_t(name_at - ms) & 0x7F; // < 31
          e.plain = plain;
          e.depth = uint16_t(depthOf(t.t));
        }
      }
    }

  next:
    // The next member's first identifier, after blanks, newlines and comments.
    {
      uint8_t flags = 0;
      p = skipGap(semi + 1, line, ls, flags);
      if (!p) goto done;
      gap_end = p;
      gap_line = line;
      gap_ls = ls;
      gap_flags = flags;
    }
    ms = p;
    first = nullptr;
  }

done:
  if (!semi) return false;
  line = semi_line;
  ls = semi_ls;
  if (gap_end && *gap_end == '}') {
    // The record's '}' after the last member's ';': made here as the lexer would make it.
    setPrevToken(loc(semi), 1, Tok::Semi);
    line = gap_line;
    ls = gap_ls;
    setByteToken(Tok::RBrace, gap_end, 1, gap_flags, nullptr, loc(gap_end));
    lx->skipTo(gap_end + 1, gap_line, gap_ls);
    return true;
  }
  setByteToken(Tok::Semi, semi, 1, 0, nullptr, loc(semi));
  lx->skipTo(semi + 1, semi_line, semi_ls);
  consume();
  return true;
}

// The next token (tok_'s lexer standing after it) when it is an identifier that names no macro,
// after blanks, newlines and comments: made from the bytes of the file as consume() would make
// it (the `typedef` or `struct` after a declaration's ';'). Anything else is left to consume():
// false, nothing changed.
bool Parser::fastIdentToken() {
  Lexer* lx = idleDirectLexer();
  if (!lx) return false;
  uint32_t lines = 0;
  const char* ls = lx->lineStart();
  uint8_t flags = 0;
  const char* start = skipGap(lx->cur(), lines, ls, flags);
  if (!start) return false;
  const char* p = start;
  Ident* id = scanIdentifier(p, ids_);
  if (!id || id->macro) return false;
  takeIdentToken(lx, id, start, p, lines, ls, flags);
  return true;
}

// The next token when it is a ';' on the same line, after blanks only (the one after a record's
// '}'): made from the bytes as consume() would make it. Anything else is left to consume():
// false, nothing changed.
bool Parser::fastSemiToken() {
  Lexer* lx = idleDirectLexer();
  if (!lx) return false;
  uint8_t flags = 0;
  const char* p = skipBlanks(lx->cur(), flags);
  if (*p != ';') return false;
  setPrevToken(tok_.loc, tok_.len, tok_.kind);
  lx->skipTo(p + 1);
  setByteToken(Tok::Semi, p, 1, flags, nullptr, lx->locAt(p));
  return true;
}

#if !defined(__SSE2__)
namespace {
// Eight bytes as a little-endian word: the first byte in memory is the lowest.
inline uint64_t loadLE8(const char* p) {
  uint64_t w;
  std::memcpy(&w, p, 8);
  if constexpr (std::endian::native == std::endian::big) {
    uint64_t r = 0;
    for (int i = 0; i < 8; ++i) r |= ((w >> (8 * i)) & 0xFF) << (8 * (7 - i));
    w = r;
  }
  return w;
}
} // namespace
#endif

// The key of the member text at `s`: its bytes up to the first ';', which must be one of the
// next 32 bytes (read at once: `s` is at least 24 bytes before the end of the text, which is
// followed by 8 bytes of padding); its length and a hash of its first 24 bytes and its length.
// A NUL or any other byte may be in it: only texts the fast path has read are in the memo.
Parser::MemoKey Parser::memberKey(const char* s, const char* end) {
  if (end - s < 24) return {};
  // No branch depends on the text's length (member texts of varying lengths in turn would be
  // mispredicted): the bytes after the text are masked off.
  uint32_t semis;
  uint64_t w[3];
#if defined(__SSE2__)
  const __m128i semi = _mm_set1_epi8(';');
  __m128i lo = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s));
  __m128i hi = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s + 16));
  semis = uint32_t(_mm_movemask_epi8(_mm_cmpeq_epi8(lo, semi))) |
          uint32_t(_mm_movemask_epi8(_mm_cmpeq_epi8(hi, semi))) << 16;
  // Without a ";" len is 31 here, and there is no key (below).
  uint32_t len = uint32_t(std::countr_zero(semis | (uint32_t(1) << 31)));
  const __m128i n = _mm_set1_epi8(char(len));
  lo = _mm_and_si128(
      lo, _mm_cmpgt_epi8(n, _mm_setr_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15)));
  hi = _mm_and_si128(hi, _mm_cmpgt_epi8(n, _mm_setr_epi8(16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26,
                                                         27, 28, 29, 30, 31)));
  w[0] = uint64_t(_mm_cvtsi128_si64(lo));
  w[1] = uint64_t(_mm_cvtsi128_si64(_mm_unpackhi_epi64(lo, lo)));
  w[2] = uint64_t(_mm_cvtsi128_si64(hi));
#else
  semis = 0;
  for (unsigned i = 0; i < 32; ++i) semis |= uint32_t(s[i] == ';') << i;
  uint32_t len = uint32_t(std::countr_zero(semis | (uint32_t(1) << 31)));
  for (uint32_t k = 0; k < 3; ++k) {
    // The bytes of word k (bytes 8k to 8k + 7) that are in the text.
    uint32_t in = std::clamp<int32_t>(int32_t(len) - int32_t(8 * k), 0, 8);
    w[k] = in ? loadLE8(s + 8 * k) & (~uint64_t(0) >> (64 - 8 * in)) : 0;
  }
#endif
  if (len == 0 || !semis) return {};
  uint64_t h = (w[0] ^ len) * 0x9E3779B97F4A7C15ull;
  h ^= w[1] * 0xC4CEB9FE1A85EC53ull;
  h ^= w[2] * 0xFF51AFD7ED558CCDull;
  h ^= h >> 32;
  h *= 0xFF51AFD7ED558CCDull;
  h ^= h >> 29;
  MemoKey key{uint32_t(h), len};
  // `struct` or `union` and a blank (the bytes after the text are 0 in w[0]).
  constexpr auto word = [](const char* t, unsigned n) {
    uint64_t v = 0;
    for (unsigned i = 0; i < n; ++i) v |= uint64_t(uint8_t(t[i])) << (8 * i);
    return v;
  };
  const uint64_t blank6 = w[0] >> 48 & 0xFF, blank5 = w[0] >> 40 & 0xFF;
  if (((w[0] & 0xFFFFFFFFFFFF) == word("struct", 6) && (blank6 == ' ' || blank6 == '\t')) ||
      ((w[0] & 0xFFFFFFFFFF) == word("union", 5) && (blank5 == ' ' || blank5 == '\t'))) {
    uint32_t stars = 0, others = 0;
#if defined(__SSE2__)
    const __m128i star = _mm_set1_epi8('*'), open = _mm_set1_epi8('['), colon = _mm_set1_epi8(':');
    stars = uint32_t(_mm_movemask_epi8(_mm_cmpeq_epi8(lo, star))) |
            uint32_t(_mm_movemask_epi8(_mm_cmpeq_epi8(hi, star))) << 16;
    others =
        uint32_t(
            _mm_movemask_epi8(_mm_or_si128(_mm_cmpeq_epi8(lo, open), _mm_cmpeq_epi8(lo, colon)))) |
        uint32_t(
            _mm_movemask_epi8(_mm_or_si128(_mm_cmpeq_epi8(hi, open), _mm_cmpeq_epi8(hi, colon))))
            << 16;
#else
    for (uint32_t i = 0; i < len; ++i) {
      stars |= uint32_t(s[i] == '*') << i;
      others |= uint32_t(s[i] == '[' || s[i] == ':') << i;
    }
#endif
    key.tag_pointer = stars != 0 && (stars & (stars - 1)) == 0 && others == 0; // one '*'
  }
  return key;
}

// The entry the memo holds for the text at `s`, if it is the same text and was made in this
// epoch.
inline const Parser::MemberMemo* Parser::memoFind(const char* s, const MemoKey& key) const {
  const MemberMemo& e = memo_[key.hash & (memo_.size() - 1)];
  if (e.hash != key.hash || e.len != key.len || e.epoch != ids_.memo_epoch) return nullptr;
#if defined(__SSE2__)
  // The text at `s` has 32 bytes to read (memberKey()).
  uint32_t eq = uint32_t(_mm_movemask_epi8(
                    _mm_cmpeq_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(s)),
                                   _mm_load_si128(reinterpret_cast<const __m128i*>(e.text))))) |
                uint32_t(_mm_movemask_epi8(
                    _mm_cmpeq_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(s + 16)),
                                   _mm_load_si128(reinterpret_cast<const __m128i*>(e.text + 16)))))
                    << 16;
  if (~eq & ((uint32_t(1) << key.len) - 1)) return nullptr;
#else
  if (std::memcmp(s, e.text, key.len) != 0) return nullptr;
#endif
  return &e;
}

// The value of an object-like macro used as an array size, when its body is a plain int constant
// expression the fast path can evaluate as the general one does: decimal int constants without
// suffix, parentheses, unary and binary '+' '-', binary '*', every intermediate value an int
// The value of an object-like macro used as an array size, when its body is an int constant
// expression the general path would evaluate to the same int (Preprocessor::macroIntValue).
// Cached in the Macro.
bool Parser::macroIntValue(Macro* m, int32_t& value) {
  if (m->int_state == 0) {
    int64_t v = 0;
    m->int_state = pp_.macroIntValue(*m, v) ? 1 : 2;
    m->int_value = int32_t(v);
  }
  value = m->int_value;
  return m->int_state == 1;
}

// A file-scope declaration that starts with the definition of a new struct or union,
// `struct NAME {` (tok_ being the keyword; see fastTagHead()) with NAME not declared as a tag:
// what parseDeclSpec() does for it without its specifier state, and for the usual end, `};`,
// without that of the declaration either, going on with the next declaration when it is another
// such definition. Anything else is left to the general code: returns false with nothing
// changed.
bool Parser::fastRecordDefinition() {
  Kw kw = Kw(tok_.ident->keyword);
  if (kw != kKwStruct && kw != kKwUnion) return false;
  Loc kw_loc = tok_.loc;
  Ident* name = nullptr;
  Loc name_loc;
  if (!fastTagHeadInline(name, name_loc, true)) return false;
  TagSym* ts;
  for (;;) {
    ts = newRecord(kw, name, name_loc);
    defineRecord(ts->rd, kw, kw_loc);
    if (tok_.kind != Tok::Semi) break;
    // `};`: handleTagOnlyDecl() has nothing to do for a named record.
    switch (fastNextRecordHead(kw, kw_loc, name, name_loc)) {
    case NextHead::Record:
      continue;
    case NextHead::Token:
      return true;
    case NextHead::None:
      consume();
      return true;
    }
  }
  // Declarators (or more specifiers) follow: the DeclSpec parseTagSpecifier() would have made.
  DeclSpec ds;
  ds.loc = kw_loc;
  startTagSpec(ds, kw_loc);
  endRecordSpec(ds, ts, true);
  parseDeclSpecRest(ds, DeclContext::File);
  finishExternalDeclaration(ds);
  return true;
}

// After a declaration's ';' (tok_), the next token when it is an identifier that names no
// macro, made as fastIdentToken() makes it, with `struct` or `union` and a blank recognised by
// their spelling: then the head of a new record's definition read by fastTagHead() (`kw` and
// `kw_loc` set): Record, tok_ being the '{'. Token: tok_ is that identifier (not such a head);
// None: nothing changed (consume() makes the next token).
Parser::NextHead Parser::fastNextRecordHead(Kw& kw, Loc& kw_loc, Ident*& name, Loc& name_loc) {
  using namespace lexchars;
  Lexer* lx = idleDirectLexer();
  if (!lx) return NextHead::None;
  uint32_t lines = 0;
  const char* ls = lx->lineStart();
  uint8_t flags = 0;
  const char* at = skipGap(lx->cur(), lines, ls, flags);
  if (!at) return NextHead::None;
  const char* p = at;
  Ident* id;
  if (std::memcmp(at, "struct", 6) == 0 && (classOf(at + 6) & kSpace)) {
    id = id_struct_;
    p += 6;
  } else if (std::memcmp(at, "union", 5) == 0 && (classOf(at + 5) & kSpace)) {
    id = id_union_;
    p += 5;
  } else {
    id = scanIdentifier(p, ids_);
  }
  if (!id || id->macro) return NextHead::None;
  takeIdentToken(lx, id, at, p, lines, ls, flags);
  if (id != id_struct_ && id != id_union_) return NextHead::Token;
  kw = Kw(id->keyword);
  kw_loc = tok_.loc;
  return fastTagHeadInline(name, name_loc, true) ? NextHead::Record : NextHead::Token;
}

// The head of a struct or union definition, `struct NAME {` with only blanks between the tokens
// (the keyword being tok_): reads NAME and the '{' straight from the bytes of the file, as
// consume() would have made them (a plain identifier that names no macro and is no keyword, and
// the punctuator). On return tok_ is the '{' (its lexer stands after it) and prev_ is NAME.
// Anything else (an attribute, a newline, a comment, a splice, a macro, no body, with `new_tag`
// a NAME already declared as a tag) is left to the general code: returns false with nothing
// changed.
bool Parser::fastTagHead(Ident*& name, Loc& name_loc, bool new_tag) {
  return fastTagHeadInline(name, name_loc, new_tag);
}

inline bool Parser::fastTagHeadInline(Ident*& name, Loc& name_loc, bool new_tag) {
  Lexer* lx = idleDirectLexer();
  if (!lx) return false;
  uint8_t name_flags = 0;
  const char* p = skipBlanks(lx->cur(), name_flags);
  if (!name_flags) return false; // the keyword and the name run together, or a newline
  const char* start = p;
  Ident* id = scanIdentifier(p, ids_);
  if (!id || id->keyword != kKwNone || id->macro || (new_tag && lookupTag(id))) return false;
  const size_t n = size_t(p - start);
  uint8_t brace_flags = 0;
  const char* brace = skipBlanks(p, brace_flags);
  if (*brace != '{') return false;
  name = id;
  name_loc = lx->locAt(start);
  setPrevToken(name_loc, uint32_t(n), Tok::Ident);
  setByteToken(Tok::LBrace, brace, 1, brace_flags, nullptr, lx->locAt(brace));
  lx->skipTo(brace + 1);
  return true;
}

// A whole `typedef struct TAG NAME;` (or `union`; tok_ being `typedef`) with only blanks
// between the tokens, TAG declared as a tag of that kind and NAME a plain identifier (no keyword,
// no macro): reads the rest of the line straight from the bytes of the file and declares NAME
// with the DeclSpec and Declarator that parseDeclSpec() and parseDeclarator() make of those
// tokens, tok_ being the ';' and prev_ NAME as they would be, then moves past the ';'. Anything
// else (a comment, a newline, a splice, a macro, an attribute, a pointer, a tag not declared or
// of another kind, no ';') is left to the general code: returns false with nothing changed.
bool Parser::fastTypedefTag() {
  Lexer* lx = idleDirectLexer();
  if (!lx) return false;
  const char* p = lx->cur();
  auto blanks = [&]() { // at least one
    uint8_t flags = 0;
    p = skipBlanks(p, flags);
    return flags != 0;
  };
  if (!blanks()) return false;
  const char* kw_at = p;
  Ident* kw = scanIdentifier(p, ids_);
  if (!kw || (kw != id_struct_ && kw != id_union_) || kw->macro || !blanks()) return false;
  Ident* tag = scanIdentifier(p, ids_);
  if (!tag || tag->keyword != kKwNone || tag->macro || !blanks()) return false;
  const char* name_at = p;
  Ident* name = scanIdentifier(p, ids_);
  if (!name || name->keyword != kKwNone || name->macro) return false;
  const size_t name_len = size_t(p - name_at);
  uint8_t semi_flags = 0;
  p = skipBlanks(p, semi_flags);
  if (*p != ';') return false;
  TagSym* prev = lookupTag(tag);
  if (!prev || prev->kind != (kw == id_struct_ ? TagSym::Struct : TagSym::Union)) return false;

  // parseDeclSpec(): `typedef`, then parseTagSpecifier() for a declared tag without a body.
  DeclSpec ds;
  ds.loc = tok_.loc;
  ds.storage = kKwTypedef;
  ds.storage_loc = tok_.loc;
  ds.any = true;
  ds.tag_decl = true;
  ds.setNamed(QType{prev->type}, lx->locAt(kw_at));
  ds.tag_forward = true;
  ds.record = prev->rd;
  // parseDeclarator(): the name; tok_ is then the ';'.
  Declarator d;
  d.name = name;
  d.name_loc = lx->locAt(name_at);
  d.loc = d.name_loc;
  setPrevToken(d.name_loc, uint32_t(name_len), Tok::Ident);
  setByteToken(Tok::Semi, p, 1, semi_flags, nullptr, lx->locAt(p));
  lx->skipTo(p + 1);
  QType base = namedAlone(ds) ? ds.named : finishDeclSpec(ds, DeclContext::File);
  FunctionType* fn = nullptr;
  QType t = buildType(ds, base, d, DeclContext::File, &fn);
  declare(ds, t, d, false);
  if (!fastIdentToken()) consume();
  return true;
}

// The blanks, newlines and comments from `p` to the next token, as the lexer skips them: returns
// where that token starts, with `lines` and `ls` (the start of the line) moved on by the newlines
// and `flags` (the token's kTok* flags, from what was skipped before `p`) updated; null at
// anything else the lexer would have to look into (a splice, a comment that does not end, the
// end of the text), with `lines`, `ls` and `flags` unspecified.
inline const char* Parser::skipGap(const char* p, uint32_t& lines, const char*& ls,
                                   uint8_t& flags) {
  for (;;) {
    p = skipBlanks(p, flags);
    if (*p == '\n') {
      ++lines;
      ls = ++p;
      flags = kTokAtLineStart;
    } else if (*p == '/' && p[1] == '*') {
      const char* q = p + 2;
      for (;;) {
        q = findCommentStop(q);
        if (*q == '*') {
          if (q[1] == '/') break;
          ++q;
        } else if (*q == '\n') {
          ++lines;
          ls = ++q;
        } else {
          return nullptr; // a NUL or a splice
        }
      }
      p = q + 2;
      flags |= kTokLeadingSpace;
    } else if (*p == '/' && p[1] == '/') {
      while (*p != '\n' && *p != '\0' && *p != '\\') ++p;
      if (*p != '\n') return nullptr;
      flags |= kTokLeadingSpace;
    } else {
      return p;
    }
  }
}

} // namespace abikit::detail
