// The one integer arithmetic of the front-end's constant expressions (src/cparse/int_arith.h),
// against exact arithmetic: for every width a C type or #if uses and random operands, each
// result is the exact one reduced to the type, and Overflow is reported exactly when the exact
// signed result is out of range.
#include "../../src/cparse/int_arith.h"

#include <gtest/gtest.h>
#include <random>

namespace {

using abikit::detail::IntArith;
using abikit::detail::IntStatus;
using abikit::detail::Tok;
using S = __int128;
using U = unsigned __int128;

// A random value of the type: small ones, the edges and anything between.
U pick(std::mt19937_64& rng, const IntArith& a) {
  switch (rng() % 4) {
  case 0:
    return a.truncate(U(S(int64_t(rng() % 9) - 4)));
  case 1:
    return a.truncate(rng() % 2 ? U(a.highest()) : U(a.lowest()));
  default:
    return a.truncate(U(rng()) << 64 | U(rng()));
  }
}

TEST(IntArith, AgreesWithExactArithmetic) {
  std::mt19937_64 rng(2026);
  const unsigned widths[] = {8, 16, 32, 64};
  int overflows = 0, checked = 0;
  for (unsigned bits : widths) {
    for (bool sgn : {true, false}) {
      IntArith a{bits, sgn};
      for (int i = 0; i < 20000; ++i) {
        U x = pick(rng, a), y = pick(rng, a);
        // Values of the type fit in 65 bits (as __int128): signed sums, differences and
        // products of 64-bit values are exact there; the result reduced to the type is exact
        // in unsigned __int128 arithmetic (modulo 2^128) for both signednesses.
        S ex = S(x), ey = S(y);
        EXPECT_EQ(a.truncate(x), x);
        for (Tok op : {Tok::Plus, Tok::Minus, Tok::Star}) {
          U wrapped = op == Tok::Plus ? x + y : op == Tok::Minus ? x - y : x * y;
          U r;
          IntStatus st = a.binary(op, x, y, r);
          EXPECT_EQ(r, a.truncate(wrapped));
          S exact = 0;
          if (sgn) exact = op == Tok::Plus ? ex + ey : op == Tok::Minus ? ex - ey : ex * ey;
          bool out = sgn && (exact < a.lowest() || exact > a.highest());
          EXPECT_EQ(st, out ? IntStatus::Overflow : IntStatus::Ok);
          overflows += out;
          ++checked;
        }
        for (Tok op : {Tok::Slash, Tok::Percent}) {
          U r;
          IntStatus st = a.binary(op, x, y, r);
          if (y == 0) {
            EXPECT_EQ(st, IntStatus::DivideByZero);
            continue;
          }
          S exact = op == Tok::Slash ? ex / ey : ex % ey; // C: towards zero
          EXPECT_EQ(r, a.truncate(U(exact)));
          // The lowest value by -1: the quotient does not fit, and clang reports the remainder
          // too (undefined in C).
          bool out = sgn && ex == a.lowest() && ey == -1;
          EXPECT_EQ(st, out ? IntStatus::Overflow : IntStatus::Ok);
        }
        for (Tok op :
             {Tok::Less, Tok::Greater, Tok::LessEq, Tok::GreaterEq, Tok::EqEq, Tok::NotEq}) {
          U r;
          EXPECT_EQ(a.binary(op, x, y, r), IntStatus::Ok);
          bool want = op == Tok::Less        ? ex < ey
                      : op == Tok::Greater   ? ex > ey
                      : op == Tok::LessEq    ? ex <= ey
                      : op == Tok::GreaterEq ? ex >= ey
                      : op == Tok::EqEq      ? ex == ey
                                             : ex != ey;
          EXPECT_EQ(r, U(want));
        }
        U n;
        IntStatus st = a.negate(x, n);
        EXPECT_EQ(n, a.truncate(U(-ex)));
        EXPECT_EQ(st, sgn && ex == a.lowest() ? IntStatus::Overflow : IntStatus::Ok);
        EXPECT_EQ(a.complement(a.complement(x)), x);
        // Shifts: a count in range multiplies or divides (rounding down) by a power of two.
        S count = S(rng() % (bits + 2)) - 1;
        U r;
        IntStatus ss = a.shift(Tok::LShift, x, count, r);
        if (count < 0) {
          EXPECT_EQ(ss, IntStatus::NegativeShift);
        } else if (count >= S(bits)) {
          EXPECT_EQ(ss, IntStatus::WideShift);
        } else {
          EXPECT_EQ(r, a.truncate(x * (U(1) << unsigned(count))));
          a.shift(Tok::RShift, x, count, r);
          S p = S(1) << unsigned(count);
          S q = ex >= 0 ? ex / p : -((-ex + p - 1) / p);
          EXPECT_EQ(r, a.truncate(U(q)));
        }
      }
    }
  }
  EXPECT_GT(overflows, 1000); // both sides of the overflow test are reached
  EXPECT_GT(checked, 100000);
}

TEST(IntArith, BitwiseKeepsValuesInTheType) {
  IntArith s32{32, true}, u32{32, false};
  U m1 = s32.truncate(~U(0)), r;
  EXPECT_EQ(S(m1), -1);
  s32.binary(Tok::Amp, m1, s32.truncate(U(0x80000000u)), r);
  EXPECT_EQ(S(r), S(INT32_MIN));
  u32.binary(Tok::Pipe, 0, u32.truncate(~U(0)), r);
  EXPECT_EQ(r, U(0xffffffffu));
  EXPECT_EQ(u32.complement(0), U(0xffffffffu));
}

} // namespace
