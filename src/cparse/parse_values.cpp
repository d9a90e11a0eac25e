// Values of constant expressions: integer and floating types, conversions, arithmetic.
#include "parser.h"

namespace abikit::detail {

// ----- constant expressions -------------------------------------------------------------------

unsigned Parser::intBits(const Type* t) const {
  t = stripTypedefs(t);
  if (t->kind == TypeKind::Enum) {
    const IntType* u = static_cast<const EnumType*>(t)->decl->underlying;
    t = u ? static_cast<const Type*>(u) : int_;
  }
  if (t->kind != TypeKind::Int) return 0;
  auto* it = static_cast<const IntType*>(t);
  if (it->is_bitint) return it->bits;
  return ctx_.data().of(it->ikind).size * 8u;
}

bool Parser::intSigned(const Type* t) const {
  t = stripTypedefs(t);
  if (t->kind == TypeKind::Enum) {
    const IntType* u = static_cast<const EnumType*>(t)->decl->underlying;
    return u ? u->is_signed : true;
  }
  if (t->kind == TypeKind::Int) return static_cast<const IntType*>(t)->is_signed;
  return false;
}

IntArith Parser::intArith(const Type* t) const {
  unsigned bits = intBits(t);
  return IntArith{bits == 0 || bits >= 128 ? 128 : bits, intSigned(t)};
}

unsigned __int128 Parser::truncate(unsigned __int128 v, const Type* t) const {
  return intArith(t).truncate(v);
}

__int128 Parser::signedValue(const Value& v) const {
  return (__int128)v.bits;
}

bool Parser::isZero(const Value& v) const {
  if (v.kind == Value::Float) return v.f == 0;
  return v.bits == 0;
}

Value Parser::intValue(const Type* t, unsigned __int128 v, bool known) {
  Value r;
  r.kind = Value::Int;
  r.type = t;
  r.bits = truncate(v, t);
  r.known = known;
  return r;
}

const Type* Parser::promote(const Type* t) {
  const Type* c = stripTypedefs(t);
  if (c->kind == TypeKind::Enum) {
    const IntType* u = static_cast<const EnumType*>(c)->decl->underlying;
    c = u ? static_cast<const Type*>(u) : int_;
  }
  if (c->kind != TypeKind::Int) return c;
  auto* it = static_cast<const IntType*>(c->unqualified);
  if (it->is_bitint) return it;
  if (intRank(it->ikind) < intRank(IntKind::Int)) {
    unsigned bits = intBits(it);
    unsigned ib = intBits(int_);
    if (bits < ib || (bits == ib && it->is_signed) || it->ikind == IntKind::Bool) return int_;
    return ctx_.intType(IntKind::UInt);
  }
  return it;
}

const Type* Parser::usualArith(const Type* a, const Type* b) {
  const Type* ca = stripTypedefs(a);
  const Type* cb = stripTypedefs(b);
  if (ca->kind == TypeKind::Float || cb->kind == TypeKind::Float) {
    auto rank = [](const Type* t) {
      if (t->kind != TypeKind::Float) return -1;
      switch (static_cast<const FloatType*>(t)->fkind) {
      case FloatKind::Fp16:
      case FloatKind::Float16:
      case FloatKind::BFloat16:
        return 0;
      case FloatKind::Float:
        return 1;
      case FloatKind::Double:
        return 2;
      case FloatKind::LongDouble:
        return 3;
      case FloatKind::Float128:
        return 4;
      }
      return 1;
    };
    const Type* r = rank(ca) >= rank(cb) ? ca : cb;
    if (static_cast<const FloatType*>(r)->fkind == FloatKind::Fp16)
      r = ctx_.floatType(FloatKind::Float);
    return r->unqualified;
  }
  const IntType* ia = static_cast<const IntType*>(promote(a));
  const IntType* ib = static_cast<const IntType*>(promote(b));
  if (ia == ib) return ia;
  auto rank = [&](const IntType* t) {
    return t->is_bitint ? int(t->bits) * 16 : intRank(t->ikind) * 1000;
  };
  if (ia->is_signed == ib->is_signed) return rank(ia) >= rank(ib) ? ia : ib;
  const IntType* u = ia->is_signed ? ib : ia;
  const IntType* s = ia->is_signed ? ia : ib;
  if (rank(u) >= rank(s)) return u;
  if (intBits(s) > intBits(u)) return s;
  if (s->is_bitint) return ctx_.bitIntType(s->bits, false);
  return ctx_.intType(unsignedIntKind(s->ikind));
}

Value Parser::rvalue(const Value& v, const Loc& at) {
  (void)at;
  if (v.kind != Value::LValue) return v;
  const Type* c = stripTypedefs(v.type);
  Value r;
  r.folded = v.folded;
  if (auto* arr = dyn<ArrayType>(c)) {
    r.kind = Value::Ptr;
    r.type = ctx_.pointerTo(arr->element, lvalueAddressSpace(v));
    r.bits = v.bits;
    r.known = v.known && !v.is_string;
    return r;
  }
  if (c->kind == TypeKind::Function) {
    r.kind = Value::Ptr;
    r.type = ctx_.pointerTo(c);
    r.known = false;
    return r;
  }
  // The value of an object is not a constant.
  r.type = v.type->unqualified;
  r.kind = c->kind == TypeKind::Int || c->kind == TypeKind::Enum ? Value::Int
           : c->kind == TypeKind::Float                          ? Value::Float
           : c->kind == TypeKind::Pointer                        ? Value::Ptr
                                                                 : Value::Unknown;
  r.known = false;
  return r;
}

Value Parser::convert(const Value& v, const Type* to, const Loc& at, bool explicit_cast) {
  const Type* c = stripTypedefs(to);
  Value r;
  r.type = to;
  r.folded = v.folded;
  switch (c->kind) {
  case TypeKind::Void:
    r.kind = Value::Unknown;
    return r;
  case TypeKind::Int:
  case TypeKind::Enum: {
    r.kind = Value::Int;
    if (c->kind == TypeKind::Enum && !static_cast<const EnumType*>(c)->decl->complete)
      fail(at, "cast to incomplete type '" + typeStr(to) + "'");
    bool is_bool = c->kind == TypeKind::Int &&
                   static_cast<const IntType*>(c)->ikind == IntKind::Bool &&
                   !static_cast<const IntType*>(c)->is_bitint;
    if (v.kind == Value::Int) {
      r.known = v.known;
      r.bits = is_bool ? (v.bits != 0) : truncate(v.bits, to);
      return r;
    }
    if (v.kind == Value::Float) {
      r.known = v.known;
      if (!v.known) return r;
      if (is_bool) {
        r.bits = v.f != 0;
        return r;
      }
      long double t = std::trunc(v.f);
      unsigned bits = intBits(to);
      bool sgn = intSigned(to);
      long double lo = sgn ? -std::ldexp(1.0L, int(bits) - 1) : 0.0L;
      long double hi = sgn ? std::ldexp(1.0L, int(bits) - 1) : std::ldexp(1.0L, int(bits));
      if (!(t >= lo && t < hi) || std::isnan(v.f))
        fail(at, "floating-point value is out of range of '" + typeStr(to) + "'");
      if (t < 0)
        r.bits = truncate((unsigned __int128)(__int128)(long long)t, to);
      else
        r.bits = truncate((unsigned __int128)(unsigned long long)t, to);
      if (bits > 64) {
        // Split large values exactly.
        long double hi_part = std::floor(std::fabs(t) / std::ldexp(1.0L, 64));
        long double lo_part = std::fabs(t) - hi_part * std::ldexp(1.0L, 64);
        unsigned __int128 mag =
            ((unsigned __int128)(unsigned long long)hi_part << 64) | (unsigned long long)lo_part;
        r.bits = truncate(t < 0 ? (unsigned __int128)(-(__int128)mag) : mag, to);
      }
      return r;
    }
    if (v.kind == Value::Ptr) {
      if (!explicit_cast) fail(at, "incompatible pointer to integer conversion");
      r.known = v.known;
      r.folded = true;
      r.bits = is_bool ? (v.bits != 0) : truncate(v.bits, to);
      return r;
    }
    fail(at, "operand of type '" + (v.type ? typeStr(v.type) : std::string("void")) +
                 "' where arithmetic or pointer type is required");
  }
  case TypeKind::Float: {
    r.kind = Value::Float;
    if (v.kind == Value::Int) {
      r.known = v.known;
      if (intSigned(v.type))
        r.f = (long double)signedValue(v);
      else
        r.f = (long double)v.bits;
      r.f = roundTo(r.f, to, ctx_.data());
      return r;
    }
    if (v.kind == Value::Float) {
      r.known = v.known;
      r.f = roundTo(v.f, to, ctx_.data());
      return r;
    }
    fail(at, "operand of type '" + (v.type ? typeStr(v.type) : std::string("void")) +
                 "' cannot be converted to a floating type");
  }
  case TypeKind::Pointer:
    r.kind = Value::Ptr;
    if (v.kind == Value::Int || v.kind == Value::Ptr) {
      r.known = v.known;
      r.bits = v.bits & (ctx_.data().pointer.size >= 8
                             ? ~(unsigned __int128)0 >> 64
                             : ((unsigned __int128)1 << (ctx_.data().pointer.size * 8)) - 1);
      if (v.kind == Value::Int && intSigned(v.type))
        r.bits = (unsigned __int128)(uint64_t)(int64_t)signedValue(v) &
                 (ctx_.data().pointer.size >= 8
                      ? ~(unsigned __int128)0 >> 64
                      : ((unsigned __int128)1 << (ctx_.data().pointer.size * 8)) - 1);
      return r;
    }
    fail(at, "operand of type '" + (v.type ? typeStr(v.type) : std::string("void")) +
                 "' cannot be converted to a pointer");
  default:
    fail(at, "used type '" + typeStr(to) + "' where arithmetic or pointer type is required");
  }
}

Value Parser::arith(Tok op, const Value& a, const Value& b, const Loc& at, bool eval) {
  // The common case first: two known int operands and a result in int without a diagnostic
  // (what the code below computes for them; the others take the long way).
  if (a.kind == Value::Int && b.kind == Value::Int && a.type == int_ && b.type == int_ && a.known &&
      b.known && !a.is_bitfield && !b.is_bitfield) {
    IntArith::U res;
    if (IntArith{int_bits_, true}.binary(op, a.bits, b.bits, res) == IntStatus::Ok) {
      Value r;
      r.kind = Value::Int;
      r.type = int_;
      r.bits = res;
      r.known = true;
      r.folded = a.folded || b.folded;
      return r;
    }
  }
  const Type* ca = a.type ? stripTypedefs(a.type) : nullptr;
  const Type* cb = b.type ? stripTypedefs(b.type) : nullptr;
  bool folded = a.folded || b.folded;
  auto invalid = [&]() -> Value {
    fail(at, "invalid operands to binary expression ('" + (a.type ? typeStr(a.type) : "void") +
                 "' and '" + (b.type ? typeStr(b.type) : "void") + "')");
  };
  if (!ca || !cb || a.kind == Value::Unknown || b.kind == Value::Unknown) invalid();
  bool comparison = isComparison(op);
  // Pointers.
  if (a.kind == Value::Ptr || b.kind == Value::Ptr) {
    Value r;
    r.folded = true;
    if (comparison) {
      r = intValue(int_, 0, a.known && b.known);
      r.folded = true;
      r.bits = compareAs(op, uint64_t(a.bits), uint64_t(b.bits));
      return r;
    }
    if (op == Tok::Plus || op == Tok::Minus) {
      if (a.kind == Value::Ptr && b.kind == Value::Ptr) {
        if (op != Tok::Minus) invalid();
        const Type* pe = static_cast<const PointerType*>(ca)->pointee;
        uint64_t sz =
            stripTypedefs(pe)->kind == TypeKind::Void ? 1 : sizeOf(pe, at, "pointer arithmetic");
        if (sz == 0) fail(at, "pointer arithmetic on a zero-sized type");
        Value r2 = intValue(ptrdiff_type_, 0, a.known && b.known);
        r2.bits = truncate((unsigned __int128)((int64_t)(uint64_t)(a.bits - b.bits) / (int64_t)sz),
                           ptrdiff_type_);
        r2.folded = true;
        return r2;
      }
      Value p = a.kind == Value::Ptr ? a : b;
      Value i = a.kind == Value::Ptr ? b : a;
      if (i.kind != Value::Int || (op == Tok::Minus && b.kind == Value::Ptr)) invalid();
      const Type* pe = static_cast<const PointerType*>(stripTypedefs(p.type))->pointee;
      uint64_t sz =
          stripTypedefs(pe)->kind == TypeKind::Void ? 1 : sizeOf(pe, at, "pointer arithmetic");
      __int128 off = (intSigned(i.type) ? signedValue(i) : (__int128)i.bits) * (__int128)sz;
      if (op == Tok::Minus) off = -off;
      Value r2 = p;
      r2.bits = (p.bits + (unsigned __int128)off) & ((unsigned __int128)UINT64_MAX);
      r2.known = p.known && i.known;
      r2.folded = true;
      return r2;
    }
    invalid();
  }
  // Floating point.
  if (a.kind == Value::Float || b.kind == Value::Float) {
    if (op == Tok::Percent || op == Tok::LShift || op == Tok::RShift || op == Tok::Amp ||
        op == Tok::Pipe || op == Tok::Caret)
      invalid();
    const Type* t = usualArith(a.type, b.type);
    Value x = convert(a, t, at, false), y = convert(b, t, at, false);
    bool known = x.known && y.known;
    if (comparison) {
      Value r = intValue(int_, compareAs(op, x.f, y.f), known);
      r.folded = folded;
      return r;
    }
    Value r;
    r.kind = Value::Float;
    r.type = t;
    r.known = known;
    r.folded = folded;
    if (known) {
      switch (op) {
      case Tok::Plus:
        r.f = x.f + y.f;
        break;
      case Tok::Minus:
        r.f = x.f - y.f;
        break;
      case Tok::Star:
        r.f = x.f * y.f;
        break;
      case Tok::Slash:
        if (y.f == 0 && eval) fail(at, "floating-point division by zero in a constant expression");
        r.f = y.f == 0 ? 0 : x.f / y.f;
        break;
      default:
        invalid();
      }
      auto* ft = dyn<FloatType>(stripTypedefs(t));
      FloatFormat f = ft ? ctx_.data().float_formats[size_t(ft->fkind)] : FloatFormat::IEEEDouble;
      if (f != FloatFormat::IEEESingle && f != FloatFormat::IEEEDouble)
        fail(at, "arithmetic on '" + typeStr(t) + "' in constant expressions is not supported",
             true);
      r.f = roundTo(r.f, t, ctx_.data());
    }
    return r;
  }
  if (a.kind != Value::Int || b.kind != Value::Int) invalid();
  bool known = a.known && b.known;
  // Shifts: the type of the promoted left operand, the count in its own.
  if (op == Tok::LShift || op == Tok::RShift) {
    const Type* t = promote(a.type);
    Value x = convert(a, t, at, false);
    Value r = intValue(t, 0, known);
    r.folded = folded;
    if (!known) return r;
    unsigned bits = intBits(t);
    IntStatus st = intArith(t).shift(op, x.bits,
                                     intSigned(b.type) ? signedValue(b) : __int128(b.bits), r.bits);
    if (st == IntStatus::NegativeShift && eval) fail(at, "shift count is negative");
    if (st == IntStatus::WideShift && eval)
      fail(at, "shift count >= width of type ('" + typeStr(t) + "' has " + std::to_string(bits) +
                   " bits)");
    return r;
  }
  const Type* t = usualArith(a.type, b.type);
  Value x = convert(a, t, at, false), y = convert(b, t, at, false);
  if (comparison) {
    Value r = intValue(int_, intArith(t).compare(op, x.bits, y.bits), known);
    r.folded = folded;
    return r;
  }
  if (op != Tok::Plus && op != Tok::Minus && op != Tok::Star && op != Tok::Slash &&
      op != Tok::Percent && op != Tok::Amp && op != Tok::Pipe && op != Tok::Caret)
    invalid();
  Value r = intValue(t, 0, known);
  r.folded = folded;
  if (!known) return r;
  switch (intArith(t).binary(op, x.bits, y.bits, r.bits)) {
  case IntStatus::Ok:
    break;
  case IntStatus::Overflow:
    if (eval)
      fail(at, "integer overflow in constant expression (the result does not fit in '" +
                   typeStr(t) + "')");
    break;
  default: // DivideByZero
    if (eval)
      fail(at, op == Tok::Slash ? "division by zero in constant expression"
                                : "remainder by zero in constant expression");
    r.known = false;
    break;
  }
  return r;
}

} // namespace abikit::detail
