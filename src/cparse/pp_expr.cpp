// The preprocessor's #if expressions: integer arithmetic in intmax_t/uintmax_t as C says,
// defined(), __has_include and the other __has_* queries, character constants.
#include "abikit/diag.h"
#include "int_arith.h"
#include "preprocessor.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>

namespace abikit::detail {

// ----- #if expressions ------------------------------------------------------------------------

namespace {

// A value of an integer constant expression in intmax_t or uintmax_t (#if), or in int (a macro's
// value: never unsigned).
struct PPVal {
  uint64_t v = 0;
  bool is_unsigned = false;
};

// Thrown by an IntExpr in Int mode where the expression is not one it takes.
struct NotConstant {};

// The integer constant expressions of the preprocessor, on tokens ending in an Eod:
//  - IfMode: a #if expression after `defined` is done and macros are expanded, in intmax_t and
//    uintmax_t as C says (identifiers left are 0; an overflow wraps, as clang folds it after a
//    warning; a shift by a negative count or past the width folds too); errors are reported;
//  - IntMode: a macro body as the parser would read it in a constant expression, where every
//    literal is an int without suffix and every operation stays in int: anything else (another
//    token, an overflow, a division by zero, a bad shift) throws NotConstant, leaving the body
//    to the parser.
struct IntExpr {
  enum Mode : uint8_t { IfMode, IntMode };
  const std::vector<Token>& toks;
  const Preprocessor& pp;
  Mode mode = IfMode;
  unsigned bits = 64; // of intmax_t (IfMode) or int (IntMode)
  unsigned wchar_bits = 32;
  bool char_signed = true;
  size_t i = 0;
  unsigned depth = 0;

  const Token& peek() const { return toks[std::min(i, toks.size() - 1)]; }
  bool at(Tok k) const { return i < toks.size() - 1 && toks[i].kind == k; }

  [[noreturn]] void fail(const Token& t, const std::string& msg) const {
    if (mode == IntMode) throw NotConstant{};
    pp.error(t.loc, msg);
  }
  IntArith arith(bool is_unsigned) const { return IntArith{bits, !is_unsigned}; }
  // What an operation gave: in IfMode, every result (folded); in IntMode, only an exact one.
  uint64_t result(IntStatus st, IntArith::U r) const {
    if (st != IntStatus::Ok && mode == IntMode) throw NotConstant{};
    return uint64_t(r);
  }
  static IntArith::U wide(const PPVal& x) {
    return x.is_unsigned ? IntArith::U(x.v) : IntArith::U(IntArith::S(int64_t(x.v)));
  }

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
      if (mode == IntMode &&
          (info.is_unsigned || info.longs || r.v > uint64_t(arith(false).highest())))
        throw NotConstant{}; // not an int
      break;
    }
    case Tok::Char: {
      if (mode == IntMode) throw NotConstant{};
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
      if (mode == IntMode) throw NotConstant{};
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
    case Tok::Minus: {
      ++i;
      r = primary(eval);
      IntArith::U n;
      IntStatus st = arith(r.is_unsigned).negate(wide(r), n);
      r.v = result(st, n);
      break;
    }
    case Tok::Tilde:
      ++i;
      r = primary(eval);
      r.v = uint64_t(arith(r.is_unsigned).complement(wide(r)));
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
      PPVal r;
      IntArith::U v = 0;
      IntStatus st;
      if (op.kind == Tok::LShift || op.kind == Tok::RShift) {
        // The type of the left operand; the count in its own.
        r.is_unsigned = lhs.is_unsigned;
        IntArith a = arith(lhs.is_unsigned);
        IntArith::S count = IntArith::S(wide(rhs));
        st = a.shift(op.kind, wide(lhs), count, v);
        if ((st == IntStatus::NegativeShift || st == IntStatus::WideShift) && mode == IfMode) {
          // clang warns and folds: a negative count shifts the other way, and past the width
          // every bit is shifted out.
          Tok dir = op.kind;
          if (count < 0) dir = dir == Tok::LShift ? Tok::RShift : Tok::LShift, count = -count;
          st = a.shift(dir, wide(lhs), count, v);
          if (st != IntStatus::Ok)
            v = dir == Tok::RShift && a.is_signed && int64_t(lhs.v) < 0 ? a.complement(0) : 0;
          st = IntStatus::Ok;
        }
      } else {
        bool u = lhs.is_unsigned || rhs.is_unsigned;
        r.is_unsigned = u;
        IntArith a = arith(u); // the usual conversions: both in the common type
        st = a.binary(op.kind, a.truncate(wide(lhs)), a.truncate(wide(rhs)), v);
        if (st == IntStatus::DivideByZero && eval)
          fail(op, op.kind == Tok::Slash ? "division by zero in preprocessor expression"
                                         : "remainder by zero in preprocessor expression");
        if (st == IntStatus::DivideByZero || (st == IntStatus::Overflow && !eval))
          st = IntStatus::Ok; // not evaluated (the operand of a short circuit)
        if (isComparison(op.kind)) r.is_unsigned = false; // int
      }
      r.v = result(st, v);
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
      if (mode == IntMode) throw NotConstant{}; // not in a C constant expression
      ++i;
      v = conditional(eval);
    }
    return v;
  }
};

} // namespace

bool Preprocessor::macroIntValue(const Macro& m, int64_t& value) const {
  if (m.function_like || m.builtin || m.disabled || m.body.empty()) return false;
  std::vector<Token> toks(m.body);
  Token end = toks.back();
  end.kind = Tok::Eod;
  toks.push_back(end);
  IntExpr e{toks, *this, IntExpr::IntMode, unsigned(ctx_.data().of(IntKind::Int).size) * 8};
  try {
    PPVal v = e.expr(true);
    if (e.i != toks.size() - 1) return false;
    value = int64_t(v.v);
    return true;
  } catch (const NotConstant&) {
    return false;
  }
}

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
  IntExpr e{toks, *this, IntExpr::IfMode, 64, wcharBits(), ctx_.data().char_signed};
  PPVal v = e.expr(true);
  if (e.i != toks.size() - 1)
    error(toks[e.i].loc, "token is not a valid binary operator in a preprocessor subexpression");
  return v.v != 0;
}

} // namespace abikit::detail
