// UPMEM DPU calling convention (reference/dpu.md §2–3; docs/targets/dpu.md "Calling convention").
//
// Front end: clang's DefaultABIInfo (the fork does not change clang's TargetInfo.cpp): scalars
// direct, small integers extended by their C signedness, aggregates (struct, union, _Complex, of
// any size) indirect byval as arguments and sret as returns, a transparent union as its first
// member. Back end (DPUCallingConv.td CC_DPU / CC_DPU_VarArg / RetCC_DPU, DPUTargetLowering.cpp):
// soft-float legalisation leaves two classes, W (i32) and L (i64). W takes the lowest free
// register of r0..r7 (back-filling); L takes the first of d0/d2/d4/d6 whose two halves are free;
// otherwise a 4/4 or 8/8 stack slot at the next offset of one running counter. Extra arguments of
// a variadic call always go to the stack. Returns: W in r0, L in d0, aggregates through a hidden
// pointer passed first (r0).
#include "core.h"

namespace abikit::detail {
namespace {

constexpr std::string_view kWordRegs[] = {"r0", "r1", "r2", "r3", "r4", "r5", "r6", "r7"};
constexpr std::string_view kPairNames[] = {"d0", "d2", "d4", "d6"};

/// Bound on the pieces of one vector value (one per element), so that a hostile vector_size
/// cannot make the lowering allocate without limit.
constexpr uint32_t kMaxVectorElements = 65536;

// W: i32 (int, pointers, float, extended small integers, the pointer standing for an aggregate);
// L: i64 (long, long long, double, long double).
enum class Class : uint8_t { Word, Long };

struct State {
  RegFile regs{kWordRegs};
  StackArea stack;
  bool fixed_on_stack = false;     // a fixed argument took a stack slot (va_start caveat)
  bool byval_ptr_on_stack = false; // an aggregate's pointer took a stack slot (callee caveat)
  bool vector = false;             // a vector was split into its elements
};

bool isDocumented(const LayoutEngine& layout) {
  return layout.context().target().abi_variant == AbiVariant::Documented;
}

/// clang's useFirstFieldIfTransparentUnion: an argument of a transparent union type is passed as
/// its first member.
const Type* passedType(const Type* t) {
  if (auto* rt = dyn<RecordType>(stripTypedefs(t)))
    if (rt->decl->is_union && rt->decl->transparent_union && !rt->decl->fields.empty())
      return rt->decl->fields.front().type;
  return t;
}

/// How an error message names an argument (nullptr: the return value); built only on failure.
std::string describe(const ArgLowering* a) {
  if (!a) return "the return value";
  if (a->variadic) return "an extra argument";
  if (a->name.empty()) return "a parameter";
  return "parameter '" + std::string(a->name) + "'";
}

struct Ctx {
  const LayoutEngine& layout;
  const FunctionDecl& fn;
  const FunctionLowering& out;
};

/// Rejects the signature: "function 'f': MESSAGE", positioned at the declaration of parameter `a`
/// when it has one, else at the function.
[[noreturn]] void fail(const Ctx& c, const ArgLowering* a, const std::string& message) {
  SourceLoc loc = c.fn.loc;
  for (size_t i = 0; i < c.out.params.size() && i < c.fn.type->params.size(); ++i)
    if (&c.out.params[i] == a) loc = c.fn.type->params[i].loc;
  unsupportedAt(c.layout.context(), loc, "function '" + std::string(c.fn.name) + "': " + message);
}

bool isFp16(const Type* t) {
  auto* f = dyn<FloatType>(stripTypedefs(t));
  return f && f->fkind == FloatKind::Fp16;
}

/// The class of a scalar of `size` bytes after legalisation (i8/i16 are promoted to i32, f32 and
/// f64 are softened to i32 and i64).
Class scalarClass(const Ctx& c, uint64_t size, const ArgLowering* what) {
  if (size <= 4) return Class::Word;
  if (size == 8) return Class::Long;
  fail(c, what,
       describe(what) + ": no DPU convention for a " + std::to_string(size) +
           "-byte scalar (the backend has only 32- and 64-bit argument registers)");
}

/// The pieces a non-aggregate value is passed in: one for a scalar; one per element for a vector
/// (LLVM's type legalisation scalarises vectors because the DPU has no vector registers: every
/// element is an i32 or i64 piece of its own).
template <class Emit>
void forEachPiece(const Ctx& c, const Type* t, const ArgLowering* what, State& s, Emit&& emit) {
  const Type* ty = stripTypedefs(t);
  if (auto* vt = dyn<VectorType>(ty)) {
    const Type* elem = stripTypedefs(vt->element);
    if (isFp16(elem))
      fail(c, what, describe(what) + ": vectors of __fp16 are not supported on the DPU");
    if (vt->count > kMaxVectorElements)
      fail(c, what,
           describe(what) + ": a vector of " + std::to_string(vt->count) + " elements would be " +
               std::to_string(vt->count) + " separate pieces; abikit lowers vectors of up to " +
               std::to_string(kMaxVectorElements) + " elements");
    uint32_t esize = uint32_t(c.layout.of(elem).size);
    Class cls = scalarClass(c, esize, what);
    s.vector = true;
    for (uint32_t i = 0; i < vt->count; ++i) emit(i * esize, esize, cls);
    return;
  }
  uint32_t size = uint32_t(c.layout.of(ty).size);
  emit(0u, size, scalarClass(c, size, what));
}

/// CC_DPU: a W takes the lowest free of r0..r7 (back-filling a register skipped by a pair); an L
/// takes the first of d0/d2/d4/d6 with both halves free (MarkAllocated marks a register with its
/// aliases); otherwise a 4/4 or 8/8 stack slot. The two classes do not constrain each other.
void assignFixed(State& s, Class cls, uint32_t offset, uint32_t size, ArgLowering& a) {
  if (cls == Class::Word) {
    int r = s.regs.takeFirstFree();
    if (r >= 0) {
      a.parts.push_back(regPart(offset, size, kWordRegs[r]));
      return;
    }
    a.parts.push_back(stackPart(offset, size, s.stack.allocate(4, 4)));
  } else {
    int first = s.regs.takeAligned(2, 2);
    if (first >= 0) {
      a.parts.push_back(regPart(offset, size, kPairNames[first / 2]));
      return;
    }
    a.parts.push_back(stackPart(offset, size, s.stack.allocate(8, 8)));
  }
  s.fixed_on_stack = true;
}

/// CC_DPU_VarArg: every extra argument of a variadic call is on the stack, 4/4 or 8/8.
void assignVariadic(State& s, Class cls, uint32_t offset, uint32_t size, ArgLowering& a) {
  if (cls == Class::Word)
    a.parts.push_back(stackPart(offset, size, s.stack.allocate(4, 4)));
  else
    a.parts.push_back(stackPart(offset, size, s.stack.allocate(8, 8)));
}

void lowerReturn(const Ctx& c, ArgLowering& ret, State& s) {
  const LayoutEngine& layout = c.layout;
  const Type* rt = stripTypedefs(ret.type);
  if (rt->kind == TypeKind::Void) {
    ret.kind = ArgKind::Ignore;
    return;
  }
  if (isAggregate(rt)) {
    // DefaultABIInfo: every aggregate is returned through an sret pointer, the first IR
    // parameter: a W, so r0, and the real arguments start at r1. The callee does not hand the
    // address back (clang's sret functions return void).
    ret.kind = ArgKind::Indirect;
    ret.sret = true;
    ret.align = layout.of(rt).align;
    s.regs.take(0);
    ret.parts.push_back(regPart(0, 4, kWordRegs[0]));
    return;
  }
  if (isFp16(rt))
    fail(c, nullptr,
         "the return type __fp16 is not allowed: clang rejects __fp16 return values "
         "unless the target allows half arguments and returns, which the DPU does not");
  if (auto* vt = dyn<VectorType>(rt); vt && vt->count != 1)
    fail(c, nullptr,
         "a vector return value cannot be lowered on the DPU: it becomes one "
         "register per element, RetCC_DPU has only r0 (32-bit) and d0 (64-bit), and "
         "the backend does not demote returns to memory (LLVM aborts)");
  ret.extend = promotionExtension(rt, layout.context().data());
  ret.kind = ret.extend != ExtendKind::None ? ArgKind::Extend : ArgKind::Direct;
  // RetCC_DPU: i32 in r0, i64 in d0 (r0 = bits 63..32, r1 = bits 31..0).
  forEachPiece(c, rt, nullptr, s, [&](uint32_t off, uint32_t size, Class cls) {
    ret.parts.push_back(regPart(off, size, cls == Class::Word ? kWordRegs[0] : kPairNames[0]));
  });
}

void lower(const LayoutEngine& layout, const FunctionDecl& fn, FunctionLowering& out) {
  const Ctx c{layout, fn, out};
  if (fn.type->fkind != FunctionKind::Normal)
    fail(c, nullptr, "kernel and vertex functions do not exist on the DPU");
  const DataModel& d = layout.context().data();
  const bool documented = isDocumented(layout);
  State s;

  lowerReturn(c, out.ret, s);

  for (ArgLowering& a : out.params) {
    const Type* t = stripTypedefs(passedType(a.type));
    if (isAggregate(t)) {
      TypeLayout tl = layout.of(t);
      if (a.variadic && documented) {
        if (tl.size > UINT32_MAX)
          fail(c, &a,
               describe(&a) + ": an aggregate of " + std::to_string(tl.size) +
                   " bytes cannot be placed by value on the stack");
        // Seed ("Variable Argument"): composite varargs are assigned to the stack "respecting
        // their sizes and alignments" — the object itself, at least word-aligned like every
        // stack argument (setMinStackArgumentAlignment(4)).
        a.kind = ArgKind::Direct;
        a.parts.push_back(stackPart(0, uint32_t(tl.size),
                                    s.stack.allocate(tl.size, std::max<uint32_t>(tl.align, 4))));
        continue;
      }
      // DefaultABIInfo: byval with the natural alignment. LowerCall copies the object into the
      // caller's frame and passes the copy's address as a W (register or 4-byte slot).
      a.kind = ArgKind::Indirect;
      a.byval = true;
      a.align = tl.align;
      if (a.variadic) {
        assignVariadic(s, Class::Word, 0, 4, a);
      } else {
        assignFixed(s, Class::Word, 0, 4, a);
        if (a.parts.back().loc.kind == ArgLocation::Kind::Stack) s.byval_ptr_on_stack = true;
      }
      continue;
    }
    if (isFp16(t))
      fail(c, &a,
           describe(&a) + " has type __fp16: clang rejects __fp16 parameters unless the "
                          "target allows half arguments and returns, which the DPU does not");
    a.extend = promotionExtension(t, d);
    a.kind = a.extend != ExtendKind::None ? ArgKind::Extend : ArgKind::Direct;
    forEachPiece(c, t, &a, s, [&](uint32_t off, uint32_t size, Class cls) {
      if (a.variadic)
        assignVariadic(s, cls, off, size, a);
      else
        assignFixed(s, cls, off, size, a);
    });
  }

  if (s.byval_ptr_on_stack)
    out.notes.push_back(
        "an aggregate argument whose pointer is passed on the stack: the DPU compiler's caller "
        "stores a pointer to its copy there, but its callee (LowerFormalArguments) reads the "
        "object itself from the slot; abikit follows the caller (reference/dpu.md section 7 Q3)");
  if (out.variadic && s.fixed_on_stack)
    out.notes.push_back(
        "a variadic function with fixed arguments on the stack: the DPU compiler's va_start "
        "always starts at entry SP - 8 (offset 0) and does not skip them, so the callee reads "
        "its first extra argument from a fixed one; abikit follows the caller "
        "(reference/dpu.md section 7 Q4)");
  if (s.vector)
    out.notes.push_back(
        "vectors are split into their elements, one i32 or i64 piece each, by LLVM's type "
        "legalisation (the DPU backend registers only i32 and i64); derived from the backend "
        "sources, not observed in compiler output");
  out.stack_bytes = s.stack.size();
}

} // namespace

const CallconvInfo kDpuCallconv = {Family::DPU, lower};

} // namespace abikit::detail
