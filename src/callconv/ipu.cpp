// Graphcore IPU (Colossus) calling convention (reference/ipu.md §2–3; docs/targets/ipu.md
// "Calling convention").
//
// Compiler variant (default). Front end: ColossusABIInfo is clang's DefaultABIInfo (it overrides
// only va_arg): aggregates (struct, union, _Complex, any size) indirect byval as arguments and
// sret as returns, _BitInt(N > 64) likewise, small integers and _BitInt(N < 32) extended, the rest
// direct; a transparent union is passed as its first member. Back end (ColossusCallingConv.td,
// ColossusISelLowering.cpp): after type legalisation every value is a sequence of legal pieces —
// i32/v2i16 (one $m), f32/f16/v2f16 (one $a, worker mode only), v2i32/v4i16 (an aligned $m pair),
// v2f32/v4f16 (an aligned $a pair, worker only); i64 and f64 (softened) become two i32 halves, low
// first, each assigned on its own; wider vectors are split into those pieces. $m0-$m3 and $a0-$a5
// are counted separately; a register is taken with its aliases, so a later single back-fills a
// register skipped by a pair. Otherwise a 4/4 stack slot (8/8 for the pairs), offsets from the
// caller's SP upwards in argument order. A variadic callee gets every argument on the stack in 4/4
// slots (CCIfVarArg), and only i32/f32 pieces are handled there. Returns use RetCC_Colossus; a
// value that does not fit is demoted to a hidden sret pointer (CanLowerReturn). Vertex functions
// take no arguments and turn their return value into the exit status.
//
// Documented variant (--abi-variant=documented): the seed's text (Poplar ABI chapter 14.3), see
// lowerDocumented().
#include "core.h"

namespace abikit::detail {
namespace {

constexpr std::string_view kM[] = {"$m0", "$m1", "$m2", "$m3"};
constexpr std::string_view kMPair[] = {"$m0:1", "$m2:3"};
constexpr std::string_view kA[] = {"$a0", "$a1", "$a2", "$a3", "$a4", "$a5"};
constexpr std::string_view kAPair[] = {"$a0:1", "$a2:3", "$a4:5"};

/// Bound on the elements of one vector value (it becomes up to two pieces per element), so that a
/// hostile vector_size cannot make the lowering allocate without limit.
constexpr uint32_t kMaxVectorElements = 65536;

/// A legal value as CC_Colossus sees it.
enum class Piece : uint8_t {
  M,     // i32, v2i16 (and i8/i16, promoted): $m0-$m3, else a 4/4 slot
  A,     // f32, f16, v2f16 (worker mode): $a0-$a5, else a 4/4 slot
  MPair, // v2i32, v4i16: $m0:1 or $m2:3, else an 8/8 slot
  APair, // v2f32, v4f16 (worker mode): $a0:1, $a2:3 or $a4:5, else an 8/8 slot
};

struct PieceAt {
  uint32_t offset;
  uint32_t size;
  Piece kind;
};

struct Ctx {
  const LayoutEngine& layout;
  const FunctionDecl& fn;
  const FunctionLowering& out;
  bool worker; // the $a file exists (worker mode)
};

struct State {
  RegFile m{kM};
  RegFile a{kA};
  StackArea stack;
  std::vector<PieceAt> pieces; // scratch, reused for every value
  bool straddle = false;       // a value split between registers and the stack
  bool empty_byval = false;    // a size-0 aggregate passed byval
  bool float_scalar = false;   // a float parameter or return value
};

std::string describe(const ArgLowering* a) {
  if (!a) return "the return value";
  if (a->variadic) return "an extra argument";
  if (a->name.empty()) return "a parameter";
  return "parameter '" + std::string(a->name) + "'";
}

/// Rejects the signature: "function 'f': MESSAGE", positioned at the declaration of parameter `a`
/// when it has one, else at the function.
[[noreturn]] void fail(const Ctx& c, const ArgLowering* a, const std::string& message) {
  SourceLoc loc = c.fn.loc;
  for (size_t i = 0; i < c.out.params.size() && i < c.fn.type->params.size(); ++i)
    if (&c.out.params[i] == a) loc = c.fn.type->params[i].loc;
  unsupportedAt(c.layout.context(), loc, "function '" + std::string(c.fn.name) + "': " + message);
}

/// clang's useFirstFieldIfTransparentUnion.
const Type* passedType(const Type* t) {
  if (auto* rt = dyn<RecordType>(stripTypedefs(t)))
    if (rt->decl->is_union && rt->decl->transparent_union && !rt->decl->fields.empty())
      return rt->decl->fields.front().type;
  return t;
}

const FloatType* asFloat(const Type* t) {
  return dyn<FloatType>(stripTypedefs(t));
}

bool isFloatKind(const Type* t, FloatKind k) {
  const FloatType* f = asFloat(t);
  return f && f->fkind == k;
}

/// _BitInt(N) with N > 64: DefaultABIInfo passes it indirect byval and returns it through sret
/// (the comparison is with long long because the target has no __int128).
bool isWideBitInt(const Type* t) {
  const IntType* it = dyn<IntType>(stripTypedefs(t));
  return it && it->is_bitint && it->bits > 64;
}

/// Extend for clang's isPromotableIntegerTypeForABI: the promotable C integers and _BitInt(N)
/// narrower than int; by the C type's signedness.
ExtendKind extensionFor(const Type* t, const DataModel& d) {
  ExtendKind e = promotionExtension(t, d);
  if (e != ExtendKind::None) return e;
  const IntType* it = asInteger(t);
  if (it && it->is_bitint && it->bits < 8u * d.of(IntKind::Int).size)
    return it->is_signed ? ExtendKind::Sign : ExtendKind::Zero;
  return ExtendKind::None;
}

[[noreturn]] void halfOutsideWorker(const Ctx& c, const ArgLowering* what) {
  fail(c, what,
       describe(what) + " has type half (__fp16), which is allowed as a parameter or return "
                        "type only in worker mode (the driver passes "
                        "-fallow-half-arguments-and-returns only there)");
}

/// The pieces of a scalar at byte `base` of the value.
void scalarPieces(const Ctx& c, const Type* t, uint32_t base, const ArgLowering* what,
                  std::vector<PieceAt>& out) {
  if (const FloatType* f = asFloat(t)) {
    switch (f->fkind) {
    case FloatKind::Fp16: // f16 in one $a register (low 16 bits) or the first 2 bytes of a slot
      if (!c.worker) halfOutsideWorker(c, what);
      out.push_back({base, 2, Piece::A});
      return;
    case FloatKind::Float: // f32: $a in worker mode; softened to i32 ($m) otherwise
      out.push_back({base, 4, c.worker ? Piece::A : Piece::M});
      return;
    case FloatKind::Double: // f64 has no register class: softened to i64, then two i32 halves
    case FloatKind::LongDouble:
      out.push_back({base, 4, Piece::M});
      out.push_back({base + 4, 4, Piece::M});
      return;
    default:
      fail(c, what,
           describe(what) + ": the floating type " + typeName(t, c.layout.context()) +
               " is not supported on the IPU");
    }
  }
  uint64_t size = c.layout.of(t).size;
  if (size <= 4) {
    out.push_back({base, uint32_t(size), Piece::M});
  } else if (size == 8) { // i64 (long long, _BitInt(33..64)): low half first
    out.push_back({base, 4, Piece::M});
    out.push_back({base + 4, 4, Piece::M});
  } else {
    fail(c, what,
         describe(what) + ": no IPU convention for a " + std::to_string(size) + "-byte scalar");
  }
}

/// The pieces of a vector after LLVM's type legalisation with the Colossus legal types
/// (i32, v2i16, v2i32, v4i16 in every mode; f32, f16, v2f16, v2f32, v4f16 in worker mode):
/// wider vectors are split into legal halves, vectors of 64-bit elements are scalarised and each
/// element expanded into two i32. `char_vectors_by_size` places vectors of 8-bit elements like
/// 16-bit ones of the same size (used only for the documented variant's stack slots).
void vectorPieces(const Ctx& c, const VectorType* vt, const ArgLowering* what,
                  std::vector<PieceAt>& out, bool char_vectors_by_size = false) {
  const Type* elem = stripTypedefs(vt->element);
  const uint32_t count = vt->count;
  const uint32_t esize = uint32_t(c.layout.of(elem).size);
  if (count > kMaxVectorElements)
    fail(c, what,
         describe(what) + ": a vector of " + std::to_string(count) +
             " elements; abikit lowers vectors of up to " + std::to_string(kMaxVectorElements) +
             " elements");
  if (count == 0 || (count & (count - 1)) != 0)
    fail(c, what,
         describe(what) + ": a vector of " + std::to_string(count) +
             " elements: the IPU convention for vectors whose element count is not "
             "a power of two is not established (LLVM widens or splits them)");
  if (count == 1) { // v1T is scalarised
    scalarPieces(c, elem, 0, what, out);
    return;
  }
  if (const FloatType* f = asFloat(elem)) {
    switch (f->fkind) {
    case FloatKind::Double:
    case FloatKind::LongDouble:
      for (uint32_t i = 0; i < count; ++i) scalarPieces(c, elem, i * esize, what, out);
      return;
    case FloatKind::Float:
    case FloatKind::Fp16:
      if (!c.worker)
        fail(c, what,
             describe(what) + ": " + typeName(vt, c.layout.context()) +
                 " outside worker mode: supervisor and \"both\" code has no $a "
                 "registers and the compiler's handling of float and half vectors "
                 "there is not established");
      if (f->fkind == FloatKind::Fp16 && count == 2) {
        out.push_back({0, 4, Piece::A}); // v2f16
        return;
      }
      for (uint32_t off = 0; off < count * esize; off += 8)
        out.push_back({off, 8, Piece::APair}); // v2f32 / v4f16 halves
      return;
    default:
      fail(c, what,
           describe(what) + ": vectors of " + typeName(elem, c.layout.context()) +
               " are not supported on the IPU");
    }
  }
  if (!asInteger(elem))
    fail(c, what,
         describe(what) + ": vectors of " + typeName(elem, c.layout.context()) +
             " are not supported on the IPU");
  const uint32_t bytes = count * esize;
  if (esize == 1 && !char_vectors_by_size)
    fail(c, what,
         describe(what) + ": " + typeName(vt, c.layout.context()) +
             ": vectors of 8-bit integers (char2, char4, ...) are passed in a way "
             "the reference leaves unverified (LLVM would promote them to 16-bit "
             "lanes); abikit does not guess it");
  if (esize == 8) { // v2i64, ...: each element two i32 halves
    for (uint32_t i = 0; i < count; ++i) scalarPieces(c, elem, i * esize, what, out);
    return;
  }
  if (bytes <= 4) { // v2i16 (or, by size, v2i8/v4i8): one $m
    out.push_back({0, bytes, Piece::M});
    return;
  }
  for (uint32_t off = 0; off < bytes; off += 8)
    out.push_back({off, 8, Piece::MPair}); // v2i32 / v4i16 halves
}

/// The pieces of a non-aggregate value, replacing `out`'s contents.
void pieces(const Ctx& c, const Type* t, const ArgLowering* what, std::vector<PieceAt>& out) {
  out.clear();
  if (auto* vt = dyn<VectorType>(stripTypedefs(t)))
    vectorPieces(c, vt, what, out);
  else
    scalarPieces(c, stripTypedefs(t), 0, what, out);
}

bool isVector(const Type* t) {
  return stripTypedefs(t)->kind == TypeKind::Vector;
}

/// CC_Colossus_VarArg knows only i32 and f32: a vector or half anywhere in a call to a variadic
/// function reaches the backend as an unhandled type.
void checkVariadicCall(const Ctx& c, const FunctionLowering& out) {
  for (const ArgLowering& a : out.params) {
    const Type* t = stripTypedefs(passedType(a.type));
    if (isVector(t) || isFloatKind(t, FloatKind::Fp16))
      fail(c, &a,
           describe(&a) + " has type " + typeName(a.type, c.layout.context()) +
               ": a call to a variadic function cannot pass vectors or half on the "
               "IPU (only 32-bit integer and float pieces can go to the stack slots "
               "of a variadic call; the compiler fails with \"unhandled type\")");
  }
}

// ----- compiler variant -----------------------------------------------------------------------

/// CC_Colossus_NonVarArg for one piece: CCAssignToReg takes the first register of the list that is
/// not allocated together with its aliases; else CCAssignToStack.
void assignPiece(State& s, const PieceAt& p, ArgLowering& a) {
  int r = -1;
  switch (p.kind) {
  case Piece::M:
    if ((r = s.m.takeFirstFree()) >= 0) return a.parts.push_back(regPart(p.offset, p.size, kM[r]));
    break;
  case Piece::A:
    if ((r = s.a.takeFirstFree()) >= 0) return a.parts.push_back(regPart(p.offset, p.size, kA[r]));
    break;
  case Piece::MPair:
    if ((r = s.m.takeAligned(2, 2)) >= 0)
      return a.parts.push_back(regPart(p.offset, p.size, kMPair[r / 2]));
    break;
  case Piece::APair:
    if ((r = s.a.takeAligned(2, 2)) >= 0)
      return a.parts.push_back(regPart(p.offset, p.size, kAPair[r / 2]));
    break;
  }
  bool pair = p.kind == Piece::MPair || p.kind == Piece::APair;
  a.parts.push_back(stackPart(p.offset, p.size, s.stack.allocate(pair ? 8 : 4, pair ? 8 : 4)));
}

/// CC_Colossus_VarArg: every argument of a call to a variadic function, named ones included, in a
/// 4-byte slot aligned to 4 (no 8-byte realignment for 64-bit values).
void assignVarArgPiece(State& s, const PieceAt& p, ArgLowering& a) {
  a.parts.push_back(stackPart(p.offset, p.size, s.stack.allocate(4, 4)));
}

void assign(State& s, bool variadic_fn, const PieceAt& p, ArgLowering& a) {
  if (variadic_fn)
    assignVarArgPiece(s, p, a);
  else
    assignPiece(s, p, a);
}

/// RetCC_Colossus over the pieces; false when a piece finds no register (CanLowerReturn fails).
bool assignReturn(const std::vector<PieceAt>& ps, ArgLowering& ret) {
  RegFile m{kM}, a{kA};
  for (const PieceAt& p : ps) {
    int r = -1;
    switch (p.kind) {
    case Piece::M:
      if ((r = m.takeFirstFree()) >= 0) ret.parts.push_back(regPart(p.offset, p.size, kM[r]));
      break;
    case Piece::A:
      if ((r = a.takeFirstFree()) >= 0) ret.parts.push_back(regPart(p.offset, p.size, kA[r]));
      break;
    case Piece::MPair:
      if ((r = m.takeAligned(2, 2)) >= 0)
        ret.parts.push_back(regPart(p.offset, p.size, kMPair[r / 2]));
      break;
    case Piece::APair:
      if ((r = a.takeAligned(2, 2)) >= 0)
        ret.parts.push_back(regPart(p.offset, p.size, kAPair[r / 2]));
      break;
    }
    if (r < 0) {
      ret.parts.clear();
      return false;
    }
  }
  return true;
}

/// The hidden return pointer: the first argument (clang's sret, or LLVM's demotion).
void hiddenReturnPointer(const Ctx& c, State& s, bool variadic_fn, const Type* rt,
                         ArgLowering& ret) {
  ret.kind = ArgKind::Indirect;
  ret.sret = true;
  ret.align = c.layout.of(rt).align;
  ret.parts.clear();
  assign(s, variadic_fn, PieceAt{0, 4, Piece::M}, ret);
}

void lowerCompiler(const Ctx& c, FunctionLowering& out, State& s) {
  const DataModel& d = c.layout.context().data();
  const bool varfn = out.variadic;
  if (varfn) checkVariadicCall(c, out);

  // Return value.
  ArgLowering& ret = out.ret;
  const Type* rt = stripTypedefs(ret.type);
  if (rt->kind == TypeKind::Void) {
    ret.kind = ArgKind::Ignore;
  } else if (isAggregate(rt) || isWideBitInt(rt)) {
    hiddenReturnPointer(c, s, varfn, rt, ret);
  } else {
    pieces(c, rt, nullptr, s.pieces);
    s.float_scalar = s.float_scalar || isFloatKind(rt, FloatKind::Float);
    if (assignReturn(s.pieces, ret)) {
      ret.extend = extensionFor(rt, d);
      ret.kind = ret.extend != ExtendKind::None ? ArgKind::Extend : ArgKind::Direct;
    } else {
      hiddenReturnPointer(c, s, varfn, rt, ret);
      out.notes.push_back(
          "the return value does not fit the return registers ($m0-$m3, $a0-$a5): LLVM "
          "demotes it to a hidden pointer passed as the first argument (CanLowerReturn); "
          "derived from the backend sources, no fork test covers it");
    }
  }

  for (ArgLowering& a : out.params) {
    const Type* t = stripTypedefs(passedType(a.type));
    if (isAggregate(t) || isWideBitInt(t)) {
      // DefaultABIInfo: byval with the natural alignment; LowerCall copies the object into the
      // caller's frame and passes the copy's address like an i32.
      TypeLayout tl = c.layout.of(t);
      a.kind = ArgKind::Indirect;
      a.byval = true;
      a.align = tl.align;
      if (tl.size == 0) s.empty_byval = true;
      assign(s, varfn, PieceAt{0, 4, Piece::M}, a);
      continue;
    }
    // (in a variadic call a float is in a 4-byte slot in every mode)
    s.float_scalar = s.float_scalar || (!varfn && isFloatKind(t, FloatKind::Float));
    a.extend = extensionFor(t, d);
    a.kind = a.extend != ExtendKind::None ? ArgKind::Extend : ArgKind::Direct;
    pieces(c, t, &a, s.pieces);
    for (const PieceAt& p : s.pieces) assign(s, varfn, p, a);
    bool in_reg = false, on_stack = false;
    for (const ArgPart& p : a.parts)
      (p.loc.kind == ArgLocation::Kind::Stack ? on_stack : in_reg) = true;
    if (in_reg && on_stack) s.straddle = true;
  }

  if (s.straddle)
    out.notes.push_back("a value split between registers and the stack (its low half in the "
                        "last free register, the rest in stack slots): generic LLVM behaviour "
                        "for split values, no fork test covers it");
  if (s.empty_byval)
    out.notes.push_back("an empty aggregate is passed as a pointer to a size-0 copy: no fork "
                        "test covers byval objects of size 0");
}

// ----- documented variant ---------------------------------------------------------------------

/// A value as the seed's text places it: one register of its file, an aligned pair (64 bits) or
/// an aligned quad (128 bits).
enum class Unit : uint8_t { M, A, MPair, APair, MQuad, AQuad };

/// Seed 14.3.1: integer values in $m, floating-point values in $a; 64- and 128-bit values in
/// aligned pairs and quads. Supervisor and "both" code has no $a file: the compiler's treatment
/// (float values in $m) is kept there, and half and float vectors stay errors.
Unit documentedUnit(const Ctx& c, const Type* t, const ArgLowering* what) {
  const Type* scalar = t;
  if (auto* vt = dyn<VectorType>(t)) scalar = stripTypedefs(vt->element);
  bool is_float = asFloat(scalar) != nullptr;
  if (is_float && !c.worker) {
    if (isFloatKind(scalar, FloatKind::Fp16) && !isVector(t)) halfOutsideWorker(c, what);
    if (isVector(t) &&
        (isFloatKind(scalar, FloatKind::Fp16) || isFloatKind(scalar, FloatKind::Float)))
      fail(c, what,
           describe(what) + ": " + typeName(t, c.layout.context()) +
               " outside worker mode: supervisor and \"both\" code has no $a "
               "registers and the compiler's handling of float and half vectors "
               "there is not established");
    is_float = false;
  }
  if (const FloatType* f = asFloat(scalar);
      f && f->fkind != FloatKind::Fp16 && f->fkind != FloatKind::Float &&
      f->fkind != FloatKind::Double && f->fkind != FloatKind::LongDouble)
    fail(c, what,
         describe(what) + ": the floating type " + typeName(scalar, c.layout.context()) +
             " is not supported on the IPU");
  uint64_t size = c.layout.of(t).size;
  if (size <= 4) return is_float ? Unit::A : Unit::M;
  if (size == 8) return is_float ? Unit::APair : Unit::MPair;
  if (size == 16) return is_float ? Unit::AQuad : Unit::MQuad;
  fail(c, what,
       describe(what) +
           ": the seed's convention covers values of up to 128 bits "
           "(registers, pairs, quads); a " +
           std::to_string(size) + "-byte value is not specified");
}

/// The compiler's stack slots for a value of this size (the seed does not describe the stack):
/// up to 4 bytes one 4/4 slot; vectors of elements narrower than 64 bits in 8/8 slots; scalars
/// and vectors of 64-bit elements in 4/4 slots, low word first.
void documentedStack(const Ctx& c, State& s, const Type* t, ArgLowering& a) {
  uint32_t size = uint32_t(c.layout.of(t).size);
  if (size <= 4) {
    a.parts.push_back(stackPart(0, size, s.stack.allocate(4, 4)));
    return;
  }
  bool chunks8 = false;
  if (auto* vt = dyn<VectorType>(t)) chunks8 = c.layout.of(vt->element).size < 8;
  for (uint32_t off = 0; off < size; off += chunks8 ? 8 : 4)
    a.parts.push_back(
        stackPart(off, chunks8 ? 8 : 4, s.stack.allocate(chunks8 ? 8 : 4, chunks8 ? 8 : 4)));
}

/// "Proceeding arguments can only be passed in the remaining consecutive registers": no
/// back-filling. Takes `n` registers at the first index that is a multiple of `n` and not below
/// every register taken so far; -1 when they do not fit.
int takeAfter(RegFile& f, unsigned n) {
  unsigned i = (f.nextIndex() + n - 1) / n * n;
  if (i + n > f.size()) return -1;
  for (unsigned k = 0; k < n; ++k) f.take(i + k);
  return int(i);
}

/// Registers for a unit, or false (the caller puts the value on the stack).
bool documentedRegs(State& s, Unit u, uint32_t size, ArgLowering& a) {
  int r = -1;
  switch (u) {
  case Unit::M:
    if ((r = takeAfter(s.m, 1)) < 0) return false;
    a.parts.push_back(regPart(0, size, kM[r]));
    return true;
  case Unit::A:
    if ((r = takeAfter(s.a, 1)) < 0) return false;
    a.parts.push_back(regPart(0, size, kA[r]));
    return true;
  case Unit::MPair:
    if ((r = takeAfter(s.m, 2)) < 0) return false;
    a.parts.push_back(regPart(0, 8, kMPair[r / 2]));
    return true;
  case Unit::APair:
    if ((r = takeAfter(s.a, 2)) < 0) return false;
    a.parts.push_back(regPart(0, 8, kAPair[r / 2]));
    return true;
  // A quad is listed as its two pairs: the MRF has no quad register, and the ARF quads are
  // reserved units in the register table (the compiler never passes values in them).
  case Unit::MQuad: // $m0-$m3
    if ((r = takeAfter(s.m, 4)) < 0) return false;
    a.parts.push_back(regPart(0, 8, kMPair[0]));
    a.parts.push_back(regPart(8, 8, kMPair[1]));
    return true;
  case Unit::AQuad: // $a0:3
    if ((r = takeAfter(s.a, 4)) < 0) return false;
    a.parts.push_back(regPart(0, 8, kAPair[0]));
    a.parts.push_back(regPart(8, 8, kAPair[1]));
    return true;
  }
  return false;
}

/// Seed 14.3.1/14.3.2: "An aggregate containing a single member is passed [returned] as if it was
/// an argument of that member type." Returns the member type (looking through nested single-member
/// aggregates and one-element arrays), or nullptr when the aggregate is passed by pointer. A
/// single bit-field, or a member smaller than the aggregate (padding, alignment), is not specified
/// by the seed: an error.
const Type* singleMember(const Ctx& c, const Type* t, const ArgLowering* what) {
  for (;;) {
    const Type* ty = stripTypedefs(t);
    if (auto* rt = dyn<RecordType>(ty)) {
      if (rt->decl->fields.size() != 1) return nullptr;
      const FieldDecl& f = rt->decl->fields.front();
      if (f.isBitField())
        fail(c, what,
             describe(what) + ": " + typeName(ty, c.layout.context()) +
                 " has a single bit-field member; the seed's single-member rule "
                 "does not say how it is passed");
      if (c.layout.of(ty).size != c.layout.of(f.type).size)
        fail(c, what,
             describe(what) + ": " + typeName(ty, c.layout.context()) +
                 " has a single member but a different size (padding or "
                 "alignment); the seed's single-member rule does not cover it");
      t = f.type;
      continue;
    }
    if (auto* at = dyn<ArrayType>(ty)) {
      if (at->incomplete || at->count != 1)
        fail(c, what,
             describe(what) + ": the only member is the array " + typeName(ty, c.layout.context()) +
                 "; the seed's single-member rule does not say how it is passed");
      t = at->element;
      continue;
    }
    if (ty->kind == TypeKind::Complex) return nullptr; // two parts: by pointer
    return ty;
  }
}

/// The seed's text, where it speaks; the compiler where it is silent (docs/targets/ipu.md lists
/// each difference):
///  - integer values in $m0-$m3, floating-point values in $a0-$a5 (worker mode); 64-bit values in
///    an aligned pair of their file, 128-bit values in an aligned quad; no back-filling;
///  - a single-member aggregate is passed and returned as its member, other aggregates as a
///    pointer to a copy / through a hidden pointer in $m0;
///  - only the extra arguments of a variadic call go on the stack;
///  - returns: integers in $m0-$m3, floating point in $a0-$a3.
void lowerDocumented(const Ctx& c, FunctionLowering& out, State& s) {
  const DataModel& d = c.layout.context().data();
  if (out.variadic) checkVariadicCall(c, out);

  ArgLowering& ret = out.ret;
  const Type* rt = stripTypedefs(ret.type);
  if (rt->kind == TypeKind::Void) {
    ret.kind = ArgKind::Ignore;
  } else {
    const Type* vt = isAggregate(rt) ? singleMember(c, rt, nullptr) : rt;
    if (!vt) {
      // "the caller passes as an implicit parameter the address of the return destination":
      // the first parameter, an integer one.
      ret.kind = ArgKind::Indirect;
      ret.sret = true;
      ret.align = c.layout.of(rt).align;
      takeAfter(s.m, 1);
      ret.parts.push_back(regPart(0, 4, kM[0]));
    } else {
      s.float_scalar = s.float_scalar || isFloatKind(vt, FloatKind::Float);
      Unit u = documentedUnit(c, vt, nullptr);
      uint32_t size = uint32_t(c.layout.of(vt).size);
      ret.extend = extensionFor(vt, d);
      ret.kind = ret.extend != ExtendKind::None ? ArgKind::Extend : ArgKind::Direct;
      State rs; // return registers start from $m0 / $a0, independently of the arguments
      documentedRegs(rs, u, size, ret);
    }
  }

  for (ArgLowering& a : out.params) {
    const Type* t = stripTypedefs(passedType(a.type));
    if (isAggregate(t)) {
      const Type* m = singleMember(c, t, &a);
      if (!m) {
        TypeLayout tl = c.layout.of(t);
        a.kind = ArgKind::Indirect;
        a.byval = true;
        a.align = tl.align;
        int r = a.variadic ? -1 : takeAfter(s.m, 1);
        if (r >= 0)
          a.parts.push_back(regPart(0, 4, kM[r]));
        else
          a.parts.push_back(stackPart(0, 4, s.stack.allocate(4, 4)));
        continue;
      }
      t = stripTypedefs(m);
    }
    s.float_scalar = s.float_scalar || isFloatKind(t, FloatKind::Float);
    Unit u = documentedUnit(c, t, &a);
    a.extend = extensionFor(t, d);
    a.kind = a.extend != ExtendKind::None ? ArgKind::Extend : ArgKind::Direct;
    if (a.variadic || !documentedRegs(s, u, uint32_t(c.layout.of(t).size), a))
      documentedStack(c, s, t, a);
  }
}

// ----- vertex functions -----------------------------------------------------------------------

/// Colossus_Vertex: no parameters (LowerFormalArguments aborts otherwise); the return value becomes
/// the exit status (RetCC_Colossus_Vertex accepts a single i32; LowerReturn emits an exit
/// instruction on it), nothing is returned in a register.
void lowerVertex(const Ctx& c, FunctionLowering& out) {
  if (!out.params.empty() || out.variadic)
    fail(c, out.params.empty() ? nullptr : &out.params.front(),
         "a vertex function (colossus_vertex) takes no parameters: its state is "
         "reached through $mvertex_base; the backend aborts with \"Unexpected "
         "argument to vertex function\"");
  ArgLowering& ret = out.ret;
  const Type* rt = stripTypedefs(ret.type);
  out.notes.push_back("vertex function: called by the supervisor with $mvertex_base ($m13) "
                      "holding the vertex state address and $mworker_base ($m12) the worker "
                      "scratch base; no callee-saved registers; its stack pointer is derived "
                      "from $mworker_base");
  if (rt->kind == TypeKind::Void) {
    ret.kind = ArgKind::Ignore;
    out.notes.push_back("vertex function returning void: it exits with status true (success) "
                        "(exitz $m15)");
    return;
  }
  const IntType* it = asInteger(rt);
  bool pointer = rt->kind == TypeKind::Pointer;
  if ((!it && !pointer) || c.layout.of(rt).size > 4)
    fail(c, nullptr,
         "a vertex function returns void or a 32-bit integer (its exit status); "
         "the return type " +
             typeName(ret.type, c.layout.context()) +
             " does not fit RetCC_Colossus_Vertex and would need a hidden pointer "
             "argument, which vertex functions cannot have");
  ret.extend = extensionFor(rt, c.layout.context().data());
  ret.kind = ret.extend != ExtendKind::None ? ArgKind::Extend : ArgKind::Direct;
  out.notes.push_back("vertex function: the return value is the exit status, not returned in a "
                      "register: a constant exits with exitnz $m15 when it is zero (false) and "
                      "exitz $m15 otherwise (true); another value exits through "
                      "exitnz/exitz/exitpos/exitneg on it");
}

void lower(const LayoutEngine& layout, const FunctionDecl& fn, FunctionLowering& out) {
  const Target& target = layout.context().target();
  Ctx c{layout, fn, out, target.ipu().hasArf()};
  if (fn.type->fkind == FunctionKind::Kernel)
    fail(c, nullptr,
         "kernel functions do not exist on the IPU (codelets are vertex functions: "
         "__attribute__((colossus_vertex)))");
  if (fn.type->fkind == FunctionKind::Vertex) {
    lowerVertex(c, out);
    return;
  }
  State s;
  if (target.abi_variant == AbiVariant::Documented)
    lowerDocumented(c, out, s);
  else
    lowerCompiler(c, out, s);
  if (s.float_scalar)
    out.notes.push_back(
        c.worker ? "float travels in $a registers in worker code but in $m registers in "
                   "supervisor and \"both\" code; a direct call between modes disagrees "
                   "silently (the compiler's mode checks are off by default)"
                 : "float is soft-float in $m registers in supervisor and \"both\" code but "
                   "travels in $a registers in worker code; a direct call between modes "
                   "disagrees silently (the compiler's mode checks are off by default)");
  out.stack_bytes = s.stack.size();
}

} // namespace

const CallconvInfo kIpuCallconv = {Family::IPU, lower};

} // namespace abikit::detail
