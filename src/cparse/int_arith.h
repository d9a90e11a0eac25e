// Internal: the integer arithmetic of C constant expressions, written once for every evaluator of
// the front-end: the parser's constant expressions (in the operands' common type), `#if`
// (intmax_t and uintmax_t) and the integer values of macros (int). Each operator gives its
// result in an integer type of a given width (at most 128 bits) and signedness, in two's
// complement, with what went wrong; the caller reports it or folds it as its language says
// (clang reports an overflow in a constant expression but only warns in `#if`).
#pragma once

#include "lexer.h"

#include <cstdint>
#include <limits>

namespace abikit::detail {

enum class IntStatus : uint8_t {
  Ok,
  Overflow,      // a signed result out of range: the wrapped value is given
  DivideByZero,  // '/' or '%' by zero: 0 is given
  NegativeShift, // a shift count below zero: 0 is given
  WideShift,     // a shift count not below the width: 0 is given
};

inline bool isComparison(Tok op) {
  return op == Tok::Less || op == Tok::Greater || op == Tok::LessEq || op == Tok::GreaterEq ||
         op == Tok::EqEq || op == Tok::NotEq;
}

// Comparison `op` of two values of one C type (integers, addresses or floating values).
template <class T> bool compareAs(Tok op, T a, T b) {
  return op == Tok::Less        ? a < b
         : op == Tok::Greater   ? a > b
         : op == Tok::LessEq    ? a <= b
         : op == Tok::GreaterEq ? a >= b
         : op == Tok::EqEq      ? a == b
                                : a != b;
}

// Values are held in unsigned __int128: truncated to the type, sign-extended when it is signed.
struct IntArith {
  using U = unsigned __int128;
  using S = __int128;
  unsigned bits = 64; // 1 to 128
  bool is_signed = true;

  U truncate(U v) const {
    if (bits >= 128) return v;
    U mask = (U(1) << bits) - 1;
    v &= mask;
    if (is_signed && ((v >> (bits - 1)) & 1)) v |= ~mask;
    return v;
  }
  S lowest() const { return bits >= 128 ? std::numeric_limits<S>::min() : -(S(1) << (bits - 1)); }
  S highest() const {
    return bits >= 128 ? std::numeric_limits<S>::max() : (S(1) << (bits - 1)) - 1;
  }

  // Unary '-'.
  IntStatus negate(U a, U& r) const {
    r = truncate(0 - a);
    return is_signed && S(a) == lowest() ? IntStatus::Overflow : IntStatus::Ok;
  }
  // Unary '~'.
  U complement(U a) const { return truncate(~a); }

  // '<<' or '>>' of `a` (of this type) by `count` (in the count's own type).
  IntStatus shift(Tok op, U a, S count, U& r) const {
    r = 0;
    if (count < 0) return IntStatus::NegativeShift;
    if (count >= S(bits)) return IntStatus::WideShift;
    if (count >= 128) { // _BitInt wider than 128 bits: every bit shifted out
      r = op == Tok::RShift && is_signed && S(a) < 0 ? ~U(0) : 0;
      return IntStatus::Ok;
    }
    unsigned s = unsigned(count);
    if (op == Tok::LShift)
      r = truncate(a << s);
    else
      r = is_signed ? truncate(U(S(a) >> s)) : a >> s;
    return IntStatus::Ok;
  }

  // A comparison ('<', '>', '<=', '>=', '==', '!=') of two values of this type.
  bool compare(Tok op, U a, U b) const {
    return is_signed ? compareAs(op, S(a), S(b)) : compareAs(op, a, b);
  }

  // A binary operator of C but '&&', '||' and ',' on two values of this type (a shift count too:
  // it is read in this type); a comparison gives 0 or 1.
  IntStatus binary(Tok op, U a, U b, U& r) const {
    switch (op) {
    case Tok::Plus:
    case Tok::Minus:
    case Tok::Star: {
      if (!is_signed) {
        r = truncate(op == Tok::Plus ? a + b : op == Tok::Minus ? a - b : a * b);
        return IntStatus::Ok;
      }
      S res;
      bool ov = op == Tok::Plus    ? __builtin_add_overflow(S(a), S(b), &res)
                : op == Tok::Minus ? __builtin_sub_overflow(S(a), S(b), &res)
                                   : __builtin_mul_overflow(S(a), S(b), &res);
      r = truncate(U(res));
      return ov || res < lowest() || res > highest() ? IntStatus::Overflow : IntStatus::Ok;
    }
    case Tok::Slash:
    case Tok::Percent:
      r = 0;
      if (b == 0) return IntStatus::DivideByZero;
      if (!is_signed) {
        r = op == Tok::Slash ? a / b : a % b;
        return IntStatus::Ok;
      }
      if (S(a) == lowest() && S(b) == -1) {
        r = op == Tok::Slash ? a : 0;
        return IntStatus::Overflow;
      }
      r = truncate(U(op == Tok::Slash ? S(a) / S(b) : S(a) % S(b)));
      return IntStatus::Ok;
    case Tok::LShift:
    case Tok::RShift:
      return shift(op, a, is_signed ? S(b) : b >= bits ? S(bits) : S(b), r);
    case Tok::Amp:
      r = a & b;
      return IntStatus::Ok;
    case Tok::Pipe:
      r = a | b;
      return IntStatus::Ok;
    case Tok::Caret:
      r = a ^ b;
      return IntStatus::Ok;
    default: // a comparison
      r = compare(op, a, b);
      return IntStatus::Ok;
    }
  }
};

} // namespace abikit::detail
