// The preprocessor's #if expressions: integer arithmetic in intmax_t/uintmax_t as C says,
// defined(), __has_include and the other __has_* queries, character constants.
#include "abikit/diag.h"
#include "preprocessor.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>

namespace abikit::detail {

// ----- #if expressions ------------------------------------------------------------------------

namespace {

struct PPVal {
  uint64_t v = 0;
  bool is_unsigned = false;
};

struct PPExpr {
  const std::vector<Token>& toks;
  size_t i = 0;
  const Preprocessor& pp;
  unsigned wchar_bits;
  bool char_signed;
  unsigned depth = 0;

  const Token& peek() const { return toks[std::min(i, toks.size() - 1)]; }
  bool at(Tok k) const { return i < toks.size() - 1 && toks[i].kind == k; }

  [[noreturn]] void fail(const Token& t, const std::string& msg) const { pp.error(t.loc, msg); }

  PPVal primary(bool eval) {
    NestGuard nest(depth, kMaxExprDepth);
    if (nest.tooDeep()) fail(peek(), "#if expression nested too deeply");
    const Token& t = peek();
    PPVal r;
    switch (t.kind) {
    case Tok::Number: {
      ++i;
      unsigned __int128 v = 0;
      IntLiteralInfo info;
      std::string err = parseIntegerLiteral(t.text(), v, info);
      if (!err.empty()) fail(t, err);
      if (info.is_float) fail(t, "floating point literal in preprocessor expression");
      if (v > UINT64_MAX)
        fail(t, "integer literal is too large to be represented in any integer type");
      r.v = uint64_t(v);
      r.is_unsigned = info.is_unsigned || v > uint64_t(INT64_MAX);
      break;
    }
    case Tok::Char: {
      ++i;
      LiteralPrefix prefix;
      std::vector<uint32_t> units;
      std::string err = decodeLiteral(t.text(), wchar_bits, prefix, units);
      if (!err.empty()) fail(t, err);
      if (units.empty()) fail(t, "empty character constant");
      if (prefix == LiteralPrefix::None) {
        // int value; one char is sign-extended when char is signed.
        uint32_t v = 0;
        for (uint32_t u : units) v = (v << 8) | (u & 0xFF);
        if (units.size() == 1 && char_signed && (v & 0x80))
          r.v = uint64_t(int64_t(int8_t(v)));
        else
          r.v = uint64_t(int64_t(int32_t(v)));
      } else {
        r.v = units.back();
      }
      break;
    }
    case Tok::Ident:
      ++i;
      r.v = 0; // identifiers left after expansion are 0 (true/false too in C)
      break;
    case Tok::LParen: {
      ++i;
      r = expr(eval);
      if (!at(Tok::RParen)) fail(peek(), "missing ')' in preprocessor expression");
      ++i;
      break;
    }
    case Tok::Plus:
      ++i;
      r = primary(eval);
      break;
    case Tok::Minus:
      ++i;
      r = primary(eval);
      r.v = 0 - r.v;
      break;
    case Tok::Tilde:
      ++i;
      r = primary(eval);
      r.v = ~r.v;
      break;
    case Tok::Excl:
      ++i;
      r = primary(eval);
      r.v = r.v == 0;
      r.is_unsigned = false;
      break;
    case Tok::Eod:
    case Tok::Eof:
      fail(t, "expected value in preprocessor expression");
    case Tok::String:
      fail(t, "string literal in preprocessor expression");
    default:
      fail(t, "invalid token at start of a preprocessor expression");
    }
    return r;
  }

  PPVal binary(int min_prec, bool eval) {
    PPVal lhs = primary(eval);
    for (;;) {
      const Token& op = peek();
      int p = i < toks.size() - 1 ? binaryPrecedence(op.kind) : -1;
      if (p < min_prec || p < 0) return lhs;
      ++i;
      if (op.kind == Tok::AmpAmp || op.kind == Tok::PipePipe) {
        bool lv = lhs.v != 0;
        bool short_circuit = op.kind == Tok::AmpAmp ? !lv : lv;
        PPVal rhs = binary(p + 1, eval && !short_circuit);
        lhs.v = op.kind == Tok::AmpAmp ? (lv && rhs.v) : (lv || rhs.v);
        lhs.is_unsigned = false;
        continue;
      }
      PPVal rhs = binary(p + 1, eval);
      bool u = lhs.is_unsigned || rhs.is_unsigned;
      int64_t a = int64_t(lhs.v), b = int64_t(rhs.v);
      PPVal r;
      r.is_unsigned = u;
      switch (op.kind) {
      case Tok::Star:
        r.v = lhs.v * rhs.v;
        break;
      case Tok::Slash:
      case Tok::Percent:
        if (rhs.v == 0) {
          if (eval)
            fail(op, op.kind == Tok::Slash ? "division by zero in preprocessor expression"
                                           : "remainder by zero in preprocessor expression");
          r.v = 0;
          break;
        }
        if (u)
          r.v = op.kind == Tok::Slash ? lhs.v / rhs.v : lhs.v % rhs.v;
        else if (a == INT64_MIN && b == -1)
          r.v = op.kind == Tok::Slash ? lhs.v : 0;
        else
          r.v = uint64_t(op.kind == Tok::Slash ? a / b : a % b);
        break;
      case Tok::Plus:
        r.v = lhs.v + rhs.v;
        break;
      case Tok::Minus:
        r.v = lhs.v - rhs.v;
        break;
      case Tok::LShift:
      case Tok::RShift: {
        r.is_unsigned = lhs.is_unsigned;
        bool neg = !rhs.is_unsigned && b < 0;
        uint64_t s = rhs.v;
        if (neg || s >= 64) {
          // clang warns and folds: shifting out every bit.
          bool left = op.kind == Tok::LShift;
          if (neg) left = !left, s = uint64_t(-b);
          if (s >= 64)
            r.v = (!left && !lhs.is_unsigned && a < 0) ? uint64_t(-1) : 0;
          else
            r.v = left ? lhs.v << s : (lhs.is_unsigned ? lhs.v >> s : uint64_t(a >> s));
          break;
        }
        if (op.kind == Tok::LShift)
          r.v = lhs.v << s;
        else
          r.v = lhs.is_unsigned ? lhs.v >> s : uint64_t(a >> s);
        break;
      }
      case Tok::Less:
        r.v = u ? lhs.v < rhs.v : a < b;
        r.is_unsigned = false;
        break;
      case Tok::Greater:
        r.v = u ? lhs.v > rhs.v : a > b;
        r.is_unsigned = false;
        break;
      case Tok::LessEq:
        r.v = u ? lhs.v <= rhs.v : a <= b;
        r.is_unsigned = false;
        break;
      case Tok::GreaterEq:
        r.v = u ? lhs.v >= rhs.v : a >= b;
        r.is_unsigned = false;
        break;
      case Tok::EqEq:
        r.v = lhs.v == rhs.v;
        r.is_unsigned = false;
        break;
      case Tok::NotEq:
        r.v = lhs.v != rhs.v;
        r.is_unsigned = false;
        break;
      case Tok::Amp:
        r.v = lhs.v & rhs.v;
        break;
      case Tok::Caret:
        r.v = lhs.v ^ rhs.v;
        break;
      case Tok::Pipe:
        r.v = lhs.v | rhs.v;
        break;
      default:
        break;
      }
      lhs = r;
    }
  }

  PPVal conditional(bool eval) {
    NestGuard nest(depth, kMaxExprDepth);
    if (nest.tooDeep()) fail(peek(), "#if expression nested too deeply");
    PPVal c = binary(1, eval);
    if (at(Tok::Question)) {
      ++i;
      bool cv = c.v != 0;
      PPVal a = expr(eval && cv);
      if (!at(Tok::Colon)) fail(peek(), "expected ':' in preprocessor expression");
      ++i;
      PPVal b = conditional(eval && !cv);
      c.v = cv ? a.v : b.v;
      c.is_unsigned = a.is_unsigned || b.is_unsigned;
    }
    return c;
  }

  PPVal expr(bool eval) {
    PPVal v = conditional(eval);
    while (at(Tok::Comma)) {
      ++i;
      v = conditional(eval);
    }
    return v;
  }
};

} // namespace

bool Preprocessor::evalCondition(const Token& directive) {
  std::vector<Token> toks;
  in_if_expression_ = true;
  for (;;) {
    Token t;
    next(t);
    if (t.kind == Tok::Eod) {
      toks.push_back(t);
      break;
    }
    if (t.kind == Tok::Ident && t.ident == id_defined_) {
      Token n;
      lexUnexpanded(n);
      bool paren = n.kind == Tok::LParen;
      if (paren) lexUnexpanded(n);
      if (n.kind != Tok::Ident) error(n.loc, "macro name must be an identifier");
      bool v = n.ident->macro != nullptr;
      if (paren) {
        Token c;
        lexUnexpanded(c);
        if (c.kind != Tok::RParen) error(c.loc, "missing ')' after 'defined'");
      }
      Token r = t;
      makeToken(r, v ? "1" : "0", t.loc);
      toks.push_back(r);
      continue;
    }
    toks.push_back(t);
    if (toks.size() > (size_t(1) << 24)) error(directive.loc, "#if expression is too long");
  }
  in_if_expression_ = false;
  while (!exp_.empty()) popContext();
  if (toks.size() == 1) error(toks[0].loc, "#if with no expression");
  PPExpr e{toks, 0, *this, wcharBits(), ctx_.data().char_signed};
  PPVal v = e.expr(true);
  if (e.i != toks.size() - 1)
    error(toks[e.i].loc, "token is not a valid binary operator in a preprocessor subexpression");
  return v.v != 0;
}

} // namespace abikit::detail
