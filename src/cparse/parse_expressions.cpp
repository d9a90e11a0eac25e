// Constant expressions: the parse (conditional, binary, cast, unary, postfix, primary),
// sizeof, _Alignof, offsetof, _Generic.
#include "parser.h"

namespace abikit::detail {

Value Parser::parseExpr(bool eval) {
  Value v = parseAssign(eval);
  while (tok_.kind == Tok::Comma) {
    consume();
    Value w = parseAssign(eval);
    w.folded |= v.folded;
    v = w;
  }
  return v;
}

Value Parser::parseAssign(bool eval) {
  Value v = parseConditional(eval);
  switch (tok_.kind) {
  case Tok::Equal:
  case Tok::StarEq:
  case Tok::SlashEq:
  case Tok::PercentEq:
  case Tok::PlusEq:
  case Tok::MinusEq:
  case Tok::LShiftEq:
  case Tok::RShiftEq:
  case Tok::AmpEq:
  case Tok::CaretEq:
  case Tok::PipeEq:
    fail(tok_.loc, "assignment is not allowed in a constant expression");
  default:
    return v;
  }
}

Value Parser::parseConditional(bool eval) {
  // Fast path: a lone number (array sizes, bit-field widths and enumerator values mostly are).
  if (tok_.kind == Tok::Number) {
    switch (peekTok(0).kind) {
    case Tok::RBracket:
    case Tok::RParen:
    case Tok::Comma:
    case Tok::Semi:
    case Tok::Colon:
    case Tok::RBrace: {
      Value v = literalNumber(tok_);
      consume();
      return v;
    }
    default:
      break;
    }
  }
  Nest nest(*this, tok_.loc, "expression");
  Value c = parseBinary(1, eval);
  if (tok_.kind != Tok::Question) return c;
  Loc at = tok_.loc;
  consume();
  Value cv = rvalue(c, at);
  if (cv.kind == Value::Unknown)
    fail(at,
         "used type '" + (cv.type ? typeStr(cv.type) : "void") + "' where a scalar is required");
  bool take_true = cv.known && !isZero(cv);
  bool take_false = cv.known && isZero(cv);
  Value a;
  if (tok_.kind == Tok::Colon)
    a = cv; // GNU x ?: y
  else
    a = rvalue(parseExpr(eval && !take_false), at);
  expect(Tok::Colon, "in the conditional expression");
  Value b = rvalue(parseConditional(eval && !take_true), at);
  Value r;
  r.folded = cv.folded || a.folded || b.folded;
  bool arith_a = a.kind == Value::Int || a.kind == Value::Float;
  bool arith_b = b.kind == Value::Int || b.kind == Value::Float;
  if (arith_a && arith_b) {
    const Type* t = usualArith(a.type, b.type);
    Value x = convert(a, t, at, false), y = convert(b, t, at, false);
    r = cv.known ? (take_true ? x : y) : x;
    r.known = cv.known && (take_true ? x.known : y.known);
    r.type = t;
  } else if (a.kind == Value::Ptr || b.kind == Value::Ptr) {
    r = cv.known ? (take_true ? a : b) : (a.kind == Value::Ptr ? a : b);
    r.type = a.kind == Value::Ptr ? a.type : b.type;
    r.kind = Value::Ptr;
    r.known = cv.known && (take_true ? a.known : b.known);
  } else {
    r = take_true ? a : b;
    r.known = false;
  }
  r.folded |= cv.folded || a.folded || b.folded;
  return r;
}

Value Parser::parseBinary(int min_prec, bool eval) {
  Value lhs;
  if (tok_.kind == Tok::Number) {
    // What parseCast() gives for a number, without the calls down to parsePrimary().
    lhs = literalNumber(tok_);
    consume();
    lhs = parsePostfixOps(lhs, eval);
  } else {
    lhs = parseCast(eval);
  }
  for (;;) {
    int p = binaryPrecedence(tok_.kind);
    if (p < min_prec) return lhs;
    Tok op = tok_.kind;
    Loc at = tok_.loc;
    consume();
    if (op == Tok::AmpAmp || op == Tok::PipePipe) {
      Value l = rvalue(lhs, at);
      if (l.kind == Value::Unknown)
        fail(at, "invalid operand to '" + std::string(punctuatorSpelling(op)) + "'");
      bool sc = l.known && (op == Tok::AmpAmp ? isZero(l) : !isZero(l));
      Value r = rvalue(parseBinary(p + 1, eval && !sc), at);
      if (r.kind == Value::Unknown)
        fail(at, "invalid operand to '" + std::string(punctuatorSpelling(op)) + "'");
      Value res;
      if (sc)
        res = intValue(int_, op == Tok::PipePipe ? 1 : 0, true);
      else if (l.known && r.known)
        res = intValue(int_, !isZero(r), true);
      else
        res = intValue(int_, 0, false);
      res.folded = l.folded || (!sc && r.folded);
      lhs = res;
      continue;
    }
    Value rhs = parseBinary(p + 1, eval);
    lhs = arith(op, rvalue(lhs, at), rvalue(rhs, at), at, eval);
  }
}

Value Parser::parseCast(bool eval) {
  if (tok_.kind == Tok::LParen && startsTypeName(peekTok(0))) {
    Loc at = tok_.loc;
    consume();
    QType t = parseTypeName(at);
    expect(Tok::RParen, "after the type name");
    if (tok_.kind == Tok::LBrace)
      fail(tok_.loc, "compound literals are not supported in constant expressions", true);
    Value v = nested(at, [&] { return parseCast(eval); });
    const Type* c = stripTypedefs(t.t);
    if (c->kind == TypeKind::Array || c->kind == TypeKind::Function || c->kind == TypeKind::Record)
      fail(at,
           "cast to '" + typeStr(t.t) + "' is not allowed (arithmetic or pointer type required)");
    Value r = convert(rvalue(v, at), t.t, at, true);
    return r;
  }
  return parseUnary(eval);
}

Value Parser::parseSizeofAlignof(Kw which, const Loc& at, bool eval) {
  (void)eval;
  consume();
  const Type* t = nullptr;
  bool bitfield = false;
  if (tok_.kind == Tok::LParen && startsTypeName(peekTok(0))) {
    consume();
    t = parseTypeName(at).t;
    expect(Tok::RParen, "after the type name");
    if (tok_.kind == Tok::LBrace)
      fail(tok_.loc, "compound literals are not supported in constant expressions", true);
  } else {
    Value v = nested(at, [&] { return parseUnary(false); });
    t = v.type;
    bitfield = v.is_bitfield;
    if (!t) fail(at, "invalid operand");
  }
  if (bitfield)
    fail(at, std::string("invalid application of '") + (which == kKwSizeof ? "sizeof" : "alignof") +
                 "' to bit-field");
  uint64_t n;
  if (which == kKwSizeof)
    n = sizeOf(t, at, "sizeof");
  else
    n = alignOf(t, at, which == kKwGnuAlignof);
  return intValue(size_type_, n);
}

Value Parser::parseUnary(bool eval) {
  Loc at = tok_.loc;
  switch (tok_.kind) {
  case Tok::Plus:
  case Tok::Minus:
  case Tok::Tilde:
  case Tok::Excl: {
    Tok op = tok_.kind;
    consume();
    Value v = nested(at, [&] { return rvalue(parseCast(eval), at); });
    if (op == Tok::Excl) {
      if (v.kind == Value::Unknown) fail(at, "invalid argument type to unary '!'");
      Value r = intValue(int_, isZero(v), v.known);
      r.folded = v.folded;
      return r;
    }
    if (v.kind == Value::Float) {
      if (op == Tok::Tilde)
        fail(at, "invalid argument type '" + typeStr(v.type) + "' to unary '~'");
      if (op == Tok::Minus) v.f = -v.f;
      return v;
    }
    if (v.kind != Value::Int)
      fail(at, "invalid argument type '" + (v.type ? typeStr(v.type) : "void") +
                   "' to unary expression");
    const Type* t = promote(v.type);
    Value x = convert(v, t, at, false);
    if (op == Tok::Plus) return x;
    Value r = intValue(t, 0, x.known);
    r.folded = x.folded;
    if (!x.known) return r;
    IntArith arith = intArith(t);
    if (op == Tok::Tilde) {
      r.bits = arith.complement(x.bits);
    } else if (arith.negate(x.bits, r.bits) == IntStatus::Overflow && eval) {
      fail(at, "integer overflow in constant expression (the result does not fit in '" +
                   typeStr(t) + "')");
    }
    return r;
  }
  case Tok::Amp: {
    consume();
    Value v = nested(at, [&] { return parseCast(eval); });
    if (v.kind != Value::LValue) fail(at, "cannot take the address of an rvalue");
    if (v.is_bitfield) fail(at, "address of bit-field requested");
    Value r;
    r.kind = Value::Ptr;
    r.type = ctx_.pointerTo(v.type, lvalueAddressSpace(v));
    r.bits = v.bits;
    r.known = v.known && !v.is_string;
    r.folded = true;
    return r;
  }
  case Tok::Star: {
    consume();
    Value v = nested(at, [&] { return rvalue(parseCast(eval), at); });
    if (v.kind != Value::Ptr) fail(at, "indirection requires pointer operand");
    const Type* pe = static_cast<const PointerType*>(stripTypedefs(v.type))->pointee;
    Value r;
    r.kind = Value::LValue;
    r.type = pe;
    r.bits = v.bits;
    r.known = v.known;
    r.folded = true;
    return r;
  }
  case Tok::PlusPlus:
  case Tok::MinusMinus:
    fail(at, "increment and decrement are not allowed in a constant expression");
  default:
    break;
  }
  if (tok_.kind == Tok::Ident) {
    Kw kw = Kw(tok_.ident->keyword);
    if (kw == kKwSizeof || kw == kKwAlignof || kw == kKwGnuAlignof)
      return parseSizeofAlignof(kw, at, eval);
    if (kw == kKwExtension) {
      consume();
      return parseCast(eval);
    }
    if (kw == kKwRealImag) fail(at, "'" + std::string(tok_.text()) + "' is not supported", true);
  }
  return parsePostfix(eval);
}

bool Parser::findField(const RecordDecl* rd, Ident* name, const Type*& type, uint64_t& bit_offset,
                       bool& bitfield, unsigned depth) {
  if (!rd->complete || depth > kMaxNesting) return false;
  const RecordLayout& rl = layout_.of(*rd);
  for (size_t i = 0; i < rd->fields.size(); ++i) {
    const FieldDecl& f = rd->fields[i];
    if (!f.name.empty()) {
      if (f.name == name->name) {
        type = f.type;
        bit_offset = rl.fields[i].bit_offset;
        bitfield = f.isBitField();
        return true;
      }
    } else if (!f.isBitField()) {
      if (auto* rt = dyn<RecordType>(stripTypedefs(f.type))) {
        if (findField(rt->decl, name, type, bit_offset, bitfield, depth + 1)) {
          bit_offset += rl.fields[i].bit_offset;
          return true;
        }
      }
    }
  }
  return false;
}

void Parser::memberOf(const RecordDecl* rd, Ident* name, const Type* owner, const Loc& at,
                      const Type*& type, uint64_t& bit, bool& bitfield) {
  bool found;
  try {
    found = findField(rd, name, type, bit, bitfield);
  } catch (const Error& e) {
    if (e.hasSourcePosition()) throw;
    fail(at, e.message(), e.kind() == ErrorKind::Unsupported);
  }
  if (!found)
    fail(at, "no member named '" + std::string(name->name) + "' in '" + typeStr(owner) + "'");
}

Value Parser::memberAccess(Value base, Ident* name, const Loc& at, bool arrow) {
  const Type* c = stripTypedefs(base.type);
  auto* rt = dyn<RecordType>(c);
  if (!rt)
    fail(at, std::string("member reference ") + (arrow ? "base type '" : "type '") +
                 typeStr(base.type) + "' is not a " + (arrow ? "pointer to a " : "") +
                 "structure or union");
  if (!rt->decl->complete) fail(at, "incomplete definition of type '" + typeStr(base.type) + "'");
  const Type* ft = nullptr;
  uint64_t bit = 0;
  bool bf = false;
  memberOf(rt->decl, name, base.type, at, ft, bit, bf);
  Value r;
  r.kind = Value::LValue;
  r.type = base.type->quals ? ctx_.qualified(ft, base.type->quals) : ft;
  r.bits = base.bits + bit / 8;
  r.known = base.known;
  r.folded = base.folded;
  r.is_bitfield = bf;
  return r;
}

Value Parser::parsePostfix(bool eval) {
  return parsePostfixOps(parsePrimary(eval), eval);
}

Value Parser::parsePostfixOps(Value v, bool eval) {
  for (;;) {
    Loc at = tok_.loc;
    switch (tok_.kind) {
    case Tok::LBracket: {
      consume();
      Value idx = parseExpr(eval);
      expect(Tok::RBracket, "after the subscript");
      Value a = rvalue(v, at), b = rvalue(idx, at);
      if (a.kind != Value::Ptr) std::swap(a, b);
      if (a.kind != Value::Ptr || b.kind != Value::Int)
        fail(at, "subscripted value is not an array or pointer");
      Value p = arith(Tok::Plus, a, b, at, eval);
      Value r;
      r.kind = Value::LValue;
      r.type = static_cast<const PointerType*>(stripTypedefs(a.type))->pointee;
      r.bits = p.bits;
      r.known = p.known;
      r.folded = p.folded || v.folded;
      v = r;
      continue;
    }
    case Tok::Dot:
    case Tok::Arrow: {
      bool arrow = tok_.kind == Tok::Arrow;
      consume();
      if (tok_.kind != Tok::Ident) failUnexpected("a member name");
      Ident* name = tok_.ident;
      consume();
      Value base = v;
      if (arrow) {
        Value p = rvalue(v, at);
        if (p.kind != Value::Ptr)
          fail(at, "member reference type '" + (p.type ? typeStr(p.type) : "void") +
                       "' is not a pointer");
        base.kind = Value::LValue;
        base.type = static_cast<const PointerType*>(stripTypedefs(p.type))->pointee;
        base.bits = p.bits;
        base.known = p.known;
        base.folded = true;
      } else if (v.kind != Value::LValue) {
        fail(at, "member access on a value that is not an object");
      }
      v = memberAccess(base, name, at, arrow);
      v.folded = true;
      continue;
    }
    case Tok::LParen: {
      // A call: its value is never constant, but its type is known (sizeof(f(x))).
      Value f = rvalue(v, at);
      const FunctionType* ft = nullptr;
      if (f.kind == Value::Ptr)
        ft = dyn<FunctionType>(
            stripTypedefs(static_cast<const PointerType*>(stripTypedefs(f.type))->pointee));
      if (!ft) fail(at, "called object is not a function or function pointer");
      skipBalanced(Tok::LParen, Tok::RParen);
      Value r = rvalue(Value{Value::LValue, ft->result}, at);
      r.known = false;
      v = r;
      continue;
    }
    case Tok::PlusPlus:
    case Tok::MinusMinus:
      fail(at, "increment and decrement are not allowed in a constant expression");
    default:
      return v;
    }
  }
}

Value Parser::literalNumber(const Token& t) {
  // The common case first: a short decimal constant without suffix (at most 9 digits, so no
  // overflow) that fits in int has type int (C11 6.4.4.1).
  if (t.len >= 1 && t.len <= 9 && (t.ptr[0] != '0' || t.len == 1)) {
    uint64_t small = 0;
    uint32_t i = 0;
    for (; i < t.len && t.ptr[i] >= '0' && t.ptr[i] <= '9'; ++i)
      small = small * 10 + uint64_t(t.ptr[i] - '0');
    if (i == t.len) {
      unsigned int_bits = ctx_.data().of(IntKind::Int).size * 8u;
      if (int_bits > 32 || small < (uint64_t(1) << (int_bits - 1))) {
        // intValue(int_, small) without the truncation: the value fits in int.
        Value r;
        r.kind = Value::Int;
        r.type = int_;
        r.bits = small;
        r.known = true;
        return r;
      }
    }
  }
  unsigned __int128 v = 0;
  IntLiteralInfo info;
  std::string err = parseIntegerLiteral(t.text(), v, info);
  const DataModel& d = ctx_.data();
  if (info.is_float) {
    std::string s(t.text());
    FloatKind fk = FloatKind::Double;
    if (s.size() > 3 && (s.substr(s.size() - 3) == "f16" || s.substr(s.size() - 3) == "F16")) {
      fk = FloatKind::Float16;
      s.resize(s.size() - 3);
    } else if (!s.empty() && (s.back() == 'f' || s.back() == 'F') &&
               !(s.size() > 2 && (s[1] == 'x' || s[1] == 'X') &&
                 s.find_first_of("pP") == std::string::npos)) {
      fk = FloatKind::Float;
      s.pop_back();
    } else if (!s.empty() && (s.back() == 'l' || s.back() == 'L')) {
      fk = FloatKind::LongDouble;
      s.pop_back();
    }
    char* end = nullptr;
    long double f = std::strtold(s.c_str(), &end);
    if (!end || *end != '\0' || s.empty())
      fail(t.loc, "invalid floating constant '" + std::string(t.text()) + "'");
    if (!d.of(fk).supported())
      fail(t.loc, "floating constant of an unsupported type on this target", true);
    Value r;
    r.kind = Value::Float;
    r.type = ctx_.floatType(fk);
    r.f = roundTo(f, r.type, d);
    r.known = true;
    return r;
  }
  if (!err.empty()) fail(t.loc, err);
  auto fits = [&](IntKind k) {
    if (!d.of(k).supported()) return false;
    unsigned bits = d.of(k).size * 8u;
    bool sgn =
        k == IntKind::Int || k == IntKind::Long || k == IntKind::LongLong || k == IntKind::Int128;
    unsigned __int128 max =
        bits >= 128 ? ~(unsigned __int128)0 : ((unsigned __int128)1 << bits) - 1;
    if (sgn) max >>= 1;
    return v <= max;
  };
  // The candidate types in order (C11 6.4.4.1).
  bool u = info.is_unsigned;
  for (int l = info.longs; l <= 2; ++l) {
    IntKind k = l == 0 ? IntKind::Int : l == 1 ? IntKind::Long : IntKind::LongLong;
    if (!u && fits(k)) return intValue(ctx_.intType(k), v);
    if ((u || !info.is_decimal) && fits(unsignedIntKind(k)))
      return intValue(ctx_.intType(unsignedIntKind(k)), v);
  }
  // clang: a decimal literal too large for long long is unsigned long long (with a warning).
  if (fits(IntKind::ULongLong)) return intValue(ctx_.intType(IntKind::ULongLong), v);
  fail(t.loc, "integer literal is too large to be represented in any integer type");
}

Value Parser::literalChar(const Token& t) {
  LiteralPrefix prefix;
  std::vector<uint32_t> units;
  std::string err = decodeLiteral(t.text(), pp_.wcharBits(), prefix, units);
  if (!err.empty()) fail(t.loc, err);
  if (units.empty()) fail(t.loc, "empty character constant");
  const DataModel& d = ctx_.data();
  switch (prefix) {
  case LiteralPrefix::None:
  case LiteralPrefix::Utf8: {
    if (units.size() == 1) {
      uint32_t c = units[0] & 0xFF;
      if (prefix == LiteralPrefix::None && d.char_signed && (c & 0x80))
        return intValue(int_, (unsigned __int128)(__int128)(int8_t)c);
      return intValue(prefix == LiteralPrefix::Utf8 ? ctx_.intType(IntKind::Char) : int_, c);
    }
    if (units.size() > 4) fail(t.loc, "character constant too long for its type");
    uint32_t v = 0;
    for (uint32_t c : units) v = (v << 8) | (c & 0xFF);
    return intValue(int_, (unsigned __int128)(__int128)(int32_t)v);
  }
  case LiteralPrefix::Wide:
    return intValue(ctx_.intType(d.wchar_type), units[0]);
  case LiteralPrefix::Utf16:
    return intValue(ctx_.intType(d.char16_type), units[0]);
  case LiteralPrefix::Utf32:
    return intValue(ctx_.intType(d.char32_type), units[0]);
  }
  return intValue(int_, 0);
}

Value Parser::literalString() {
  LiteralPrefix kind = LiteralPrefix::None;
  uint64_t len = 0;
  while (tok_.kind == Tok::String) {
    LiteralPrefix prefix;
    std::vector<uint32_t> units;
    std::string err = decodeLiteral(tok_.text(), pp_.wcharBits(), prefix, units);
    if (!err.empty()) fail(tok_.loc, err);
    if (prefix != LiteralPrefix::None && prefix != LiteralPrefix::Utf8) {
      if (kind != LiteralPrefix::None && kind != prefix)
        fail(tok_.loc, "unsupported non-standard concatenation of string literals");
      kind = prefix;
    }
    len += units.size();
    consume();
  }
  const DataModel& d = ctx_.data();
  const Type* elem = kind == LiteralPrefix::Wide    ? ctx_.intType(d.wchar_type)
                     : kind == LiteralPrefix::Utf16 ? ctx_.intType(d.char16_type)
                     : kind == LiteralPrefix::Utf32 ? ctx_.intType(d.char32_type)
                                                    : ctx_.intType(IntKind::Char);
  Value r;
  r.kind = Value::LValue;
  r.type = ctx_.arrayOf(elem, len + 1);
  r.is_string = true;
  return r;
}

Value Parser::parseOffsetof(const Loc& at) {
  consume();
  expect(Tok::LParen, "after '__builtin_offsetof'");
  QType t = parseTypeName(at);
  expect(Tok::Comma, "after the type in '__builtin_offsetof'");
  const Type* cur = t.t;
  uint64_t off = 0;
  bool first = true;
  for (;;) {
    Loc mat = tok_.loc;
    if (first || tok_.kind == Tok::Dot) {
      if (!first) consume();
      first = false;
      if (tok_.kind != Tok::Ident) failUnexpected("a member name");
      Ident* name = tok_.ident;
      mat = tok_.loc;
      consume();
      auto* rt = dyn<RecordType>(stripTypedefs(cur));
      if (!rt)
        fail(mat, "offsetof requires struct, union, or class type, '" + typeStr(cur) + "' invalid");
      if (!rt->decl->complete) fail(mat, "offsetof of incomplete type '" + typeStr(cur) + "'");
      const Type* ft = nullptr;
      uint64_t bit = 0;
      bool bf = false;
      memberOf(rt->decl, name, cur, mat, ft, bit, bf);
      if (bf) fail(mat, "cannot compute offset of bit-field '" + std::string(name->name) + "'");
      off += bit / 8;
      cur = ft;
      continue;
    }
    if (tok_.kind == Tok::LBracket) {
      consume();
      Loc iat = tok_.loc;
      __int128 idx = 0;
      evalInt("array index", iat, false, &idx);
      expect(Tok::RBracket, "after the array index");
      auto* arr = dyn<ArrayType>(stripTypedefs(cur));
      if (!arr) fail(iat, "subscripted value is not an array");
      uint64_t esz = sizeOf(arr->element, iat, "offsetof");
      off += uint64_t(idx * (__int128)esz);
      cur = arr->element;
      continue;
    }
    break;
  }
  expect(Tok::RParen, "after '__builtin_offsetof'");
  return intValue(size_type_, off);
}

Value Parser::parseGeneric(bool eval) {
  Loc at = tok_.loc;
  consume();
  expect(Tok::LParen, "after '_Generic'");
  Value ctrl = rvalue(parseAssign(false), at);
  const Type* ct = ctrl.type ? ctrl.type->unqualified : nullptr;
  Value chosen, fallback;
  bool have = false, have_default = false;
  while (tok_.kind == Tok::Comma) {
    consume();
    if (tok_.kind == Tok::Ident && tok_.ident->name == "default" && peekTok(0).kind == Tok::Colon) {
      consume();
      consume();
      fallback = parseAssign(eval);
      have_default = true;
      continue;
    }
    QType t = parseTypeName(tok_.loc);
    expect(Tok::Colon, "after the type in '_Generic'");
    Value v = parseAssign(eval);
    if (!have && ct && sameType(t.t->unqualified, ct)) {
      chosen = v;
      have = true;
    }
  }
  expect(Tok::RParen, "after '_Generic'");
  if (have) return chosen;
  if (have_default) return fallback;
  fail(at, "controlling expression type '" + (ct ? typeStr(ct) : std::string("void")) +
               "' not compatible with any generic association type");
}

Value Parser::parsePrimary(bool eval) {
  Loc at = tok_.loc;
  switch (tok_.kind) {
  case Tok::Number: {
    Value v = literalNumber(tok_);
    consume();
    return v;
  }
  case Tok::Char: {
    Value v = literalChar(tok_);
    consume();
    return v;
  }
  case Tok::String:
    return literalString();
  case Tok::LParen: {
    consume();
    if (tok_.kind == Tok::LBrace) fail(at, "statement expressions are not supported", true);
    Value v = nested(at, [&] { return parseExpr(eval); });
    if (tok_.kind != Tok::RParen) {
      if (tok_.kind == Tok::Eof) fail(at, "expected ')' to match this '('");
      failUnexpected("')'");
    }
    consume();
    return v;
  }
  case Tok::Ident:
    break;
  default:
    failUnexpected("an expression");
  }
  Ident* id = tok_.ident;
  switch (Kw(id->keyword)) {
  case kKwNone:
    break;
  case kKwTrue:
  case kKwFalse: {
    bool v = id->keyword == kKwTrue;
    consume();
    return intValue(lang_ == Language::OpenCL ? int_ : ctx_.intType(IntKind::Bool), v);
  }
  case kKwOffsetof:
    return parseOffsetof(at);
  case kKwTypesCompatible: {
    consume();
    expect(Tok::LParen, "after '__builtin_types_compatible_p'");
    QType a = parseTypeName(at);
    expect(Tok::Comma, "in '__builtin_types_compatible_p'");
    QType b = parseTypeName(at);
    expect(Tok::RParen, "after '__builtin_types_compatible_p'");
    return intValue(int_, sameType(a.t->unqualified, b.t->unqualified) ? 1 : 0);
  }
  case kKwChooseExpr: {
    consume();
    expect(Tok::LParen, "after '__builtin_choose_expr'");
    __int128 c = 0;
    evalInt("'__builtin_choose_expr' condition", tok_.loc, false, &c);
    expect(Tok::Comma, "in '__builtin_choose_expr'");
    Value a = parseAssign(eval && c != 0);
    expect(Tok::Comma, "in '__builtin_choose_expr'");
    Value b = parseAssign(eval && c == 0);
    expect(Tok::RParen, "after '__builtin_choose_expr'");
    return c != 0 ? a : b;
  }
  case kKwConstantP: {
    consume();
    expect(Tok::LParen, "after '__builtin_constant_p'");
    Value v = rvalue(parseAssign(false), at);
    expect(Tok::RParen, "after '__builtin_constant_p'");
    return intValue(int_, v.known && (v.kind == Value::Int || v.kind == Value::Float) ? 1 : 0);
  }
  case kKwGeneric:
    return parseGeneric(eval);
  case kKwVaArg:
    fail(at, "'__builtin_va_arg' is not allowed in a constant expression");
  default:
    if (startsTypeName(tok_))
      fail(at, "unexpected type name '" + std::string(id->name) + "': expected expression");
    failUnexpected("an expression");
  }
  Symbol* s = lookup(id);
  if (!s) {
    if (id->name.substr(0, 10) == "__builtin_")
      fail(at, "builtin '" + std::string(id->name) + "' is not supported in constant expressions",
           true);
    fail(at, "use of undeclared identifier '" + std::string(id->name) + "'");
  }
  consume();
  Value r;
  switch (s->kind) {
  case Symbol::EnumConst:
    return intValue(s->type.t, (unsigned __int128)s->value);
  case Symbol::Typedef:
    fail(at, "unexpected type name '" + std::string(id->name) + "': expected expression");
  case Symbol::Func:
  case Symbol::Var:
  case Symbol::Param:
    r.kind = Value::LValue;
    r.type = s->type.t;
    r.known = false;
    return r;
  }
  return r;
}

int64_t Parser::evalInt(const char* what, const Loc& at, bool strict, __int128* wide,
                        const Type** type) {
  Value v = rvalue(parseConditional(true), at);
  if (v.kind == Value::Float)
    fail(at, std::string(what) + " has non-integer type '" + typeStr(v.type) + "'");
  if (v.kind != Value::Int || !v.known)
    fail(at, std::string(what) + " is not an integer constant expression");
  if (strict && v.folded) fail(at, std::string(what) + " is not an integer constant expression");
  __int128 w = intSigned(v.type) ? signedValue(v) : (__int128)v.bits;
  if (!intSigned(v.type) && (v.bits >> 127)) fail(at, std::string(what) + " is too large");
  if (wide) *wide = w;
  if (type) *type = v.type;
  if (w > INT64_MAX) return INT64_MAX;
  if (w < INT64_MIN) return INT64_MIN;
  return int64_t(w);
}

uint64_t Parser::sizeOf(const Type* t, const Loc& at, const char* op) {
  const Type* c = stripTypedefs(t);
  // The message prefix is built only when there is an error to report.
  auto what = [&]() {
    return std::string_view(op) == "sizeof" ? std::string("invalid application of 'sizeof' to ")
                                            : std::string("'") + op + "' of ";
  };
  if (c->kind == TypeKind::Function) fail(at, what() + "a function type");
  if (c->kind == TypeKind::Void) fail(at, what() + "an incomplete type 'void'");
  if (auto* r = dyn<RecordType>(c); r && !r->decl->complete)
    fail(at, what() + "an incomplete type '" + typeStr(t) + "'");
  if (auto* e = dyn<EnumType>(c); e && !e->decl->complete)
    fail(at, what() + "an incomplete type '" + typeStr(t) + "'");
  if (auto* a = dyn<ArrayType>(c); a && a->incomplete)
    fail(at, what() + "an incomplete type '" + typeStr(t) + "'");
  try {
    return layout_.of(t).size;
  } catch (const Error& e) {
    if (e.hasSourcePosition()) throw;
    fail(at, e.message(), e.kind() == ErrorKind::Unsupported);
  }
}

uint32_t Parser::alignOf(const Type* t, const Loc& at, bool preferred) {
  const Type* c = stripTypedefs(t);
  const char* op = preferred ? "__alignof__" : "_Alignof";
  if (c->kind == TypeKind::Function)
    fail(at, std::string("invalid application of '") + op + "' to a function type");
  if (c->kind == TypeKind::Void)
    fail(at, std::string("invalid application of '") + op + "' to an incomplete type 'void'");
  if (auto* r = dyn<RecordType>(c); r && !r->decl->complete)
    fail(at, std::string("invalid application of '") + op + "' to an incomplete type '" +
                 typeStr(t) + "'");
  if (auto* e = dyn<EnumType>(c); e && !e->decl->complete)
    fail(at, std::string("invalid application of '") + op + "' to an incomplete type '" +
                 typeStr(t) + "'");
  uint32_t abi;
  try {
    abi = layout_.of(t).align;
  } catch (const Error& e) {
    if (e.hasSourcePosition()) throw;
    fail(at, e.message(), e.kind() == ErrorKind::Unsupported);
  }
  if (!preferred) return abi;
  // GCC's __alignof__ is clang's preferred alignment: double, long long and unsigned long long
  // (also inside arrays, _Complex and enums) are naturally aligned, unless an aligned typedef
  // fixed the alignment.
  const Type* e = t;
  for (;;) {
    const Type* u = e->unqualified;
    if (u->kind == TypeKind::Typedef) {
      const TypedefDecl* td = static_cast<const TypedefType*>(u)->decl;
      if (td->aligned) return abi;
      e = td->underlying;
      continue;
    }
    if (u->kind == TypeKind::Array) {
      e = static_cast<const ArrayType*>(u)->element;
      continue;
    }
    break;
  }
  const Type* b = stripTypedefs(e);
  if (b->kind == TypeKind::Record) return abi;
  if (auto* cx = dyn<ComplexType>(b)) b = stripTypedefs(cx->element);
  if (auto* en = dyn<EnumType>(b)) b = en->decl->underlying;
  const DataModel& d = ctx_.data();
  if (auto* ft = dyn<FloatType>(b); ft && ft->fkind == FloatKind::Double)
    return std::max<uint32_t>(abi, d.of(FloatKind::Double).size);
  if (auto* it = dyn<IntType>(b);
      it && !it->is_bitint && (it->ikind == IntKind::LongLong || it->ikind == IntKind::ULongLong))
    return std::max<uint32_t>(abi, d.of(IntKind::LongLong).size);
  return abi;
}

} // namespace abikit::detail
