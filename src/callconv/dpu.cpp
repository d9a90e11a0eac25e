// UPMEM DPU calling convention (reference/dpu.md §2–3; docs/targets/dpu.md).
//
// Two argument classes after clang's DefaultABIInfo and soft-float legalisation: W (32-bit:
// int, pointers, float, promoted small integers, the pointer standing for an aggregate) takes
// the lowest free register of r0..r7 (back-filling); L (64-bit: long, long long, double, long
// double) takes the first of d0/d2/d4/d6 whose two halves are free. Otherwise a stack slot
// (4/4 or 8/8) in argument order. Extra arguments of a variadic call always go to the stack.
// Aggregates are passed as a pointer to a caller-made copy; aggregate returns use a hidden
// pointer in r0.
#include "core.h"

namespace abikit::detail {
namespace {

constexpr std::string_view kWordRegs[] = {"r0", "r1", "r2", "r3", "r4", "r5", "r6", "r7"};
constexpr std::string_view kPairNames[] = {"d0", "d2", "d4", "d6"};

enum class Class { Word, Long };

struct State {
  RegFile regs{kWordRegs};
  StackArea stack;
};

/// Size class of a non-aggregate value after legalisation; throws for what the DPU compiler's
/// behaviour is not known for.
Class classify(const LayoutEngine& layout, const FunctionDecl& fn, const Type* t) {
  const Type* c = stripTypedefs(t);
  if (c->kind == TypeKind::Vector)
    unsupported(fn, "vector types are not supported on the DPU (the vendor compiler's "
                    "convention for them is not known)");
  uint64_t size = layout.of(t).size;
  if (size <= 4) return Class::Word;
  if (size == 8) return Class::Long;
  unsupported(fn, "no DPU convention for a " + std::to_string(size) + "-byte scalar");
}

void assignFixed(State& s, Class cls, uint32_t size, ArgLowering& a) {
  if (cls == Class::Word) {
    int r = s.regs.takeFirstFree();
    if (r >= 0)
      a.parts.push_back(regPart(0, size, kWordRegs[r]));
    else
      a.parts.push_back(stackPart(0, size, s.stack.allocate(4, 4)));
    return;
  }
  int first = s.regs.takeAligned(2, 2);
  if (first >= 0)
    a.parts.push_back(regPart(0, 8, kPairNames[first / 2]));
  else
    a.parts.push_back(stackPart(0, 8, s.stack.allocate(8, 8)));
}

void assignStack(State& s, Class cls, uint32_t size, ArgLowering& a) {
  if (cls == Class::Word)
    a.parts.push_back(stackPart(0, size, s.stack.allocate(4, 4)));
  else
    a.parts.push_back(stackPart(0, 8, s.stack.allocate(8, 8)));
}

void lower(const LayoutEngine& layout, const FunctionDecl& fn, FunctionLowering& out) {
  const DataModel& d = layout.context().data();
  const bool documented = layout.context().target().abi_variant == AbiVariant::Documented;
  State s;

  // Return value.
  ArgLowering& ret = out.ret;
  const Type* rt = stripTypedefs(ret.type);
  if (rt->kind == TypeKind::Void) {
    ret.kind = ArgKind::Ignore;
  } else if (isAggregate(rt)) {
    ret.kind = ArgKind::Indirect;
    ret.sret = true;
    ret.align = layout.of(rt).align;
    s.regs.take(0); // the hidden destination pointer is the first argument, in r0
    ret.parts.push_back(regPart(0, 4, "r0"));
  } else {
    Class cls = classify(layout, fn, rt);
    uint32_t size = uint32_t(layout.of(rt).size);
    ret.extend = promotionExtension(rt, d);
    ret.kind = ret.extend != ExtendKind::None ? ArgKind::Extend : ArgKind::Direct;
    ret.parts.push_back(cls == Class::Word ? regPart(0, size, "r0") : regPart(0, 8, "d0"));
  }

  bool fixed_on_stack = false;
  for (ArgLowering& a : out.params) {
    const Type* t = stripTypedefs(a.type);
    if (isAggregate(t)) {
      TypeLayout tl = layout.of(t);
      if (a.variadic && documented) {
        // Seed text: composite varargs go on the stack by value, with their size and alignment.
        a.kind = ArgKind::Direct;
        a.parts.push_back(stackPart(0, uint32_t(tl.size),
                                    s.stack.allocate(tl.size, std::max<uint32_t>(tl.align, 4))));
        continue;
      }
      a.kind = ArgKind::Indirect;
      a.byval = true;
      a.align = tl.align;
      if (a.variadic)
        assignStack(s, Class::Word, 4, a);
      else
        assignFixed(s, Class::Word, 4, a);
      if (!a.variadic && a.parts.back().loc.kind == ArgLocation::Kind::Stack)
        out.notes.push_back(
            "an aggregate argument whose pointer is passed on the stack: the DPU compiler's "
            "caller stores a pointer there but its callee reads the object itself (see "
            "docs/targets/dpu.md); abikit follows the caller");
      continue;
    }
    Class cls = classify(layout, fn, t);
    uint32_t size = uint32_t(layout.of(t).size);
    a.extend = promotionExtension(t, d);
    a.kind = a.extend != ExtendKind::None ? ArgKind::Extend : ArgKind::Direct;
    if (a.variadic)
      assignStack(s, cls, size, a);
    else
      assignFixed(s, cls, size, a);
    if (!a.variadic && a.parts.back().loc.kind == ArgLocation::Kind::Stack) fixed_on_stack = true;
  }
  if (out.variadic && fixed_on_stack)
    out.notes.push_back("a variadic function with fixed arguments on the stack: the DPU "
                        "compiler's va_start does not skip them (see docs/targets/dpu.md)");
  out.stack_bytes = s.stack.size();
}

} // namespace

const CallconvInfo kDpuCallconv = {Family::DPU, lower};

} // namespace abikit::detail
