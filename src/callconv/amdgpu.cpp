// AMDGPU (amdgcn) calling convention (docs/targets/amdgpu.md "Calling convention"; reference/gpu.md
// §2.13-2.14). Every rule was checked with clang-14/llc-14 for gfx906
// (tests/differential/diff_callconv_amdgpu.cpp).
//
// Front end: clang-14's AMDGPUABIInfo for non-kernel functions. A budget of 16 32-bit registers
// (MaxNumRegsForArgsRet) is shared by the arguments in order. A transparent union is its first
// member. Aggregates (struct, union, _Complex): empty ones are ignored; a single-element struct is
// its element; one with a flexible array member, and one too big for what is left of the budget,
// is passed byval (clang-14 DefaultABIInfo); otherwise up to 16 bits become an i16, up to 32 an
// i32, up to 64 an [2 x i32] (taking ceil(bits/32) of the budget even when it is used up), and
// larger ones are passed as their IR struct, flattened into its elements (numRegsForType of the
// budget). Scalars: small integers (and _BitInt narrower than int) are extended by signedness,
// the rest direct; they take numRegsForType of the budget. Returns: the same, except that an
// aggregate above 64 bits is direct only when numRegsForType <= 16 and otherwise returned through
// an sret pointer (generic address space, 64-bit) passed first.
//
// Back end: LLVM 14's CC_AMDGPU_Func for gfx906 (SITargetLowering's calling-convention register
// types): every IR value is split into 32-bit register units — i8/i16/half/i32/float and 32-bit
// pointers one each, 64-bit scalars and pointers two, iN ceil(N/32), vectors of 16-bit elements
// two per unit (processors with 16-bit instructions; one each otherwise), vectors of 8-bit
// elements one unit per element, wider elements as scalars. Units take v0-v30 in order (v31
// carries the work-item ids); the rest go to the stack in 4-byte slots at s32 + offset. byval
// aggregates are copied by the caller into the outgoing stack area (4-byte minimum size and
// alignment, more when the type needs it) and take no register. Returns use v0-v31; a return
// that needs more units is demoted by LLVM to a hidden pointer to private memory, passed in v0.
// Variadic calls are rejected by llc-14.
//
// Kernels: their arguments live in the kernarg segment (abikit/kernarg.h); each parameter's part
// is {"kernarg": offset}.
#include "abikit/kernarg.h"
#include "amdgpu_ir.h"

namespace abikit::detail {
namespace {

using amdgpu::IrTypes;
using amdgpu::Leaf;

constexpr std::string_view kVgprs[] = {"v0",  "v1",  "v2",  "v3",  "v4",  "v5",  "v6",  "v7",
                                       "v8",  "v9",  "v10", "v11", "v12", "v13", "v14", "v15",
                                       "v16", "v17", "v18", "v19", "v20", "v21", "v22", "v23",
                                       "v24", "v25", "v26", "v27", "v28", "v29", "v30", "v31"};
constexpr unsigned kArgRegs = 31;      // v0-v30; v31 holds the packed work-item ids
constexpr unsigned kRetRegs = 32;      // v0-v31
constexpr uint64_t kClangBudget = 16;  // AMDGPUABIInfo::MaxNumRegsForArgsRet
constexpr size_t kMaxUnits = 1u << 16; // beyond this no real call is described

/// Bytes [offset, offset + size) of a value held by one 32-bit register unit.
struct Unit {
  uint32_t offset;
  uint32_t size;
};

std::string describe(const ArgLowering* a) {
  if (!a) return "the return value";
  if (a->name.empty()) return "a parameter";
  return "parameter '" + std::string(a->name) + "'";
}

struct Lowerer {
  const LayoutEngine& layout;
  const FunctionDecl& fn;
  IrTypes ir;
  bool has16; // 16-bit instructions (GFX8 and later): v2i16/v2f16 register types
  std::vector<Leaf> leaves;
  std::vector<Unit> units;

  Lowerer(const LayoutEngine& l, const FunctionDecl& f) : layout(l), fn(f), ir(l) {
    const AmdgpuTarget& amd = l.context().target().amdgpu();
    has16 =
        amd.processor && amd.processor->generation != "GFX6" && amd.processor->generation != "GFX7";
  }

  [[noreturn]] void fail(const ArgLowering* a, const std::string& message) const {
    unsupported(fn, describe(a) + ": " + message);
  }

  void push(uint64_t offset, uint64_t size) {
    if (units.size() >= kMaxUnits)
      throw Error(ErrorKind::Unsupported,
                  "more than " + std::to_string(kMaxUnits) + " register-sized pieces in one value");
    units.push_back({uint32_t(offset), uint32_t(size)});
  }

  /// SITargetLowering::getRegisterTypeForCallingConv / getNumRegistersForCallingConv.
  void split(const Leaf& l) {
    switch (l.kind) {
    case Leaf::Kind::Int: {
      uint64_t bytes = l.storeBytes();
      if (l.bits <= 32) {
        push(l.offset, bytes);
        return;
      }
      for (uint64_t k = 0; k < bytes; k += 4) push(l.offset + k, std::min<uint64_t>(4, bytes - k));
      return;
    }
    case Leaf::Kind::Half:
      if (!has16)
        throw Error(ErrorKind::Unsupported,
                    "half-precision values on a processor without 16-bit instructions (llc-14 "
                    "passes them converted to single precision)");
      push(l.offset, 2);
      return;
    case Leaf::Kind::Float:
      push(l.offset, 4);
      return;
    case Leaf::Kind::Double:
      push(l.offset, 4);
      push(l.offset + 4, 4);
      return;
    case Leaf::Kind::Pointer:
      push(l.offset, 4);
      if (l.bits == 64) push(l.offset + 4, 4);
      return;
    case Leaf::Kind::Vector: {
      const uint64_t eb = l.bits / 8;
      if (l.bits == 16) {
        if (has16) {
          uint64_t bytes = 2 * uint64_t(l.count);
          for (uint64_t k = 0; k < bytes; k += 4)
            push(l.offset + k, std::min<uint64_t>(4, bytes - k));
          return;
        }
        if (l.float_elem)
          throw Error(ErrorKind::Unsupported,
                      "vectors of half on a processor without 16-bit instructions (llc-14 "
                      "passes the elements converted to single precision)");
      }
      if (l.bits != 8 && l.bits != 16 && l.bits != 32 && l.bits != 64)
        throw Error(ErrorKind::Unsupported,
                    "a vector of " + std::to_string(l.bits) + "-bit elements");
      for (uint64_t i = 0; i < l.count; ++i) {
        uint64_t at = l.offset + i * eb;
        if (l.bits <= 32) {
          push(at, eb);
        } else {
          push(at, 4);
          push(at + 4, 4);
        }
      }
      return;
    }
    }
  }

  void splitLeaves() {
    for (const Leaf& l : leaves) split(l);
  }

  /// Units of a non-aggregate value (ConvertType: `_Bool` is i1).
  void valueUnits(const Type* t) {
    units.clear();
    split(ir.valueLeaf(t));
  }

  /// Units of an aggregate passed as its IR type (flattened struct or first-class aggregate).
  void memoryUnits(const Type* t) {
    units.clear();
    leaves.clear();
    ir.memoryLeaves(t, 0, leaves);
    splitLeaves();
  }

  /// Units of an aggregate coerced to i16, i32 or [2 x i32].
  void packedUnits(uint64_t bytes) {
    units.clear();
    push(0, std::min<uint64_t>(bytes, 4));
    if (bytes > 4) push(4, bytes - 4);
  }
};

/// Extension of a scalar (DefaultABIInfo: isPromotableIntegerTypeForABI, which in clang-14 also
/// covers _BitInt narrower than int).
ExtendKind extensionOf(const Type* t, const DataModel& d) {
  ExtendKind e = promotionExtension(t, d);
  if (e != ExtendKind::None) return e;
  const IntType* it = asInteger(t);
  if (it && it->is_bitint && it->bits < d.of(IntKind::Int).size * 8u)
    return it->is_signed ? ExtendKind::Sign : ExtendKind::Zero;
  return ExtendKind::None;
}

/// clang-14 rejects __fp16 parameters and return values outside OpenCL ("parameters cannot have
/// __fp16 type"); OpenCL's `half` is the same type and allowed there.
void checkHalf(const LayoutEngine& layout, const FunctionDecl& fn, const Type* t,
               const ArgLowering* a) {
  auto* f = dyn<FloatType>(stripTypedefs(t));
  if (f && f->fkind == FloatKind::Fp16 && layout.context().language() != Language::OpenCL)
    unsupported(fn, describe(a) + " has type __fp16: clang-14 rejects __fp16 parameters and "
                                  "return values (use _Float16)");
}

void checkLanguage(const LayoutEngine& layout, const FunctionDecl& fn, const Type* t,
                   const ArgLowering* a) {
  Language lang = layout.context().language();
  if (!isCxx(lang)) return;
  if (isRecord(t) && amdgpu::isEmptyRecord(t))
    unsupported(fn, describe(a) + ": an empty struct in C++ (HIP): how clang passes an empty "
                                  "class is not modelled");
}

// ----- kernels ------------------------------------------------------------------------------

void lowerKernel(const LayoutEngine& layout, const FunctionDecl& fn, FunctionLowering& out) {
  KernargOptions options;
  options.hidden = HiddenArgs::None;
  KernelArguments ka = computeKernelArguments(layout, fn, options);
  out.ret.kind = ArgKind::Ignore;
  for (size_t i = 0; i < out.params.size() && i < ka.explicit_count; ++i) {
    const KernelArgument& k = ka.args[i];
    ArgLowering& a = out.params[i];
    a.kind = ArgKind::Direct;
    ArgPart p;
    p.offset = 0;
    p.size = uint32_t(k.size);
    p.loc.kind = ArgLocation::Kind::Kernarg;
    p.loc.stack_offset = int64_t(k.offset);
    a.parts.push_back(p);
  }
  out.stack_bytes = 0;
  out.notes.push_back("a kernel: its arguments are read from the kernarg segment (offsets shown "
                      "as {\"kernarg\": N}; explicit segment " +
                      std::to_string(ka.explicit_size) +
                      " bytes); hidden arguments and the segment size: abikit kernarg");
}

// ----- device functions ---------------------------------------------------------------------

void lower(const LayoutEngine& layout, const FunctionDecl& fn, FunctionLowering& out) {
  if (fn.type->fkind == FunctionKind::Kernel) {
    lowerKernel(layout, fn, out);
    return;
  }
  if (fn.type->fkind != FunctionKind::Normal)
    unsupported(fn, "vertex functions do not exist on AMDGPU");
  if (fn.type->variadic)
    unsupported(fn, "variadic functions: llc-14 rejects calls to them on AMDGPU (\"unsupported "
                    "call to variadic function\")");
  const DataModel& d = layout.context().data();
  Lowerer lw(layout, fn);

  // ----- the return value (classifyReturnType, then RetCC_AMDGPU_Func)
  ArgLowering& ret = out.ret;
  enum class RetHow : uint8_t { Ignore, Regs, ClangSret } how = RetHow::Regs;
  const Type* rt = stripTypedefs(ret.type);
  try {
    if (rt->kind == TypeKind::Void) {
      how = RetHow::Ignore;
    } else if (isAggregate(rt)) {
      checkLanguage(layout, fn, rt, nullptr);
      const uint64_t bits = layout.of(rt).size * 8;
      if (amdgpu::isEmptyRecord(rt)) {
        how = RetHow::Ignore;
      } else if (const Type* elem = amdgpu::singleElement(layout, rt)) {
        lw.valueUnits(elem);
      } else if (amdgpu::hasFlexibleArray(rt)) {
        how = RetHow::ClangSret;
      } else if (bits <= 64) {
        lw.packedUnits(bits / 8);
      } else if (amdgpu::numRegsForType(layout, rt) <= kClangBudget) {
        lw.memoryUnits(rt);
      } else {
        how = RetHow::ClangSret;
      }
    } else {
      checkHalf(layout, fn, rt, nullptr);
      ret.extend = extensionOf(rt, d);
      lw.valueUnits(rt);
    }
  } catch (const Error& e) {
    if (e.kind() != ErrorKind::Unsupported || e.hasSourcePosition()) throw;
    if (e.message().rfind("function '", 0) == 0) throw;
    lw.fail(nullptr, e.message());
  }

  unsigned next = 0; // next free VGPR
  if (how == RetHow::Ignore) {
    ret.kind = ArgKind::Ignore;
  } else if (how == RetHow::ClangSret) {
    // DefaultABIInfo: sret, a flat (64-bit) pointer passed as the first argument.
    ret.kind = ArgKind::Indirect;
    ret.sret = true;
    ret.align = layout.of(rt).align;
    ret.parts.push_back(regPart(0, 4, kVgprs[0]));
    ret.parts.push_back(regPart(4, 4, kVgprs[1]));
    next = 2;
  } else if (lw.units.size() > kRetRegs) {
    // CanLowerReturn fails: LLVM demotes the return to a hidden pointer into the caller's frame
    // (private address space, 32-bit), passed first.
    ret.kind = ArgKind::Indirect;
    ret.sret = true;
    ret.extend = ExtendKind::None;
    ret.align = std::max<uint32_t>(lw.ir.align(rt), isAggregate(rt) ? 8 : 1);
    ret.parts.push_back(regPart(0, 4, kVgprs[0]));
    next = 1;
    out.notes.push_back("the return value needs " + std::to_string(lw.units.size()) +
                        " VGPRs, more than v0-v31: llc-14 returns it through a hidden pointer "
                        "into the caller's frame (private address space) passed in v0");
  } else {
    ret.kind = ret.extend != ExtendKind::None ? ArgKind::Extend : ArgKind::Direct;
    for (size_t i = 0; i < lw.units.size(); ++i)
      ret.parts.push_back(regPart(lw.units[i].offset, lw.units[i].size, kVgprs[i]));
  }

  // ----- the arguments (classifyArgumentType, then CC_AMDGPU_Func)
  StackArea stack;
  uint64_t budget = kClangBudget;
  bool any_stack = false;
  std::string byval_names;
  auto assign = [&](ArgLowering& a) {
    for (const Unit& u : lw.units) {
      if (next < kArgRegs) {
        a.parts.push_back(regPart(u.offset, u.size, kVgprs[next++]));
      } else {
        a.parts.push_back(stackPart(u.offset, u.size, stack.allocate(4, 4)));
        any_stack = true;
      }
    }
  };
  for (ArgLowering& a : out.params) {
    try {
      if (auto* u = dyn<RecordType>(stripTypedefs(a.type));
          u && u->decl->transparent_union &&
          extensionOf(amdgpu::passedType(a.type), d) != ExtendKind::None)
        lw.fail(&a, "a transparent union whose first member is a small integer: clang-14 "
                    "emits invalid IR for it (a sign/zero extension attribute on the union "
                    "type, rejected by the IR verifier)");
      const Type* t = stripTypedefs(amdgpu::passedType(a.type));
      if (isAggregate(t)) {
        checkLanguage(layout, fn, t, &a);
        const TypeLayout tl = layout.of(t);
        const uint64_t bits = tl.size * 8;
        bool byval = false;
        if (amdgpu::isEmptyRecord(t)) {
          a.kind = ArgKind::Ignore;
          continue;
        } else if (const Type* elem = amdgpu::singleElement(layout, t)) {
          lw.valueUnits(elem);
        } else if (amdgpu::hasFlexibleArray(t)) {
          byval = true;
        } else if (bits <= 64) {
          budget -= std::min<uint64_t>(budget, (bits + 31) / 32);
          lw.packedUnits(tl.size);
        } else if (uint64_t n = amdgpu::numRegsForType(layout, t); budget > 0 && n <= budget) {
          budget -= n;
          lw.memoryUnits(t);
        } else {
          byval = true;
        }
        a.kind = ArgKind::Direct;
        if (byval) {
          // CCPassByVal<4, 4>: the caller copies the object into the outgoing area.
          // The lowering stays Direct (the object itself is in the argument area; no pointer
          // is passed); `byval` and `align` record clang's byval attribute and alignment.
          if (tl.size > UINT32_MAX)
            lw.fail(&a, "a byval aggregate of " + std::to_string(tl.size) +
                            " bytes (more than the 4 GiB a part can describe)");
          uint64_t size = std::max<uint64_t>(tl.size, 4);
          uint64_t align = std::max<uint64_t>(tl.align, 4);
          a.byval = true;
          a.align = tl.align;
          a.parts.push_back(stackPart(0, uint32_t(tl.size), stack.allocate(size, align)));
          any_stack = true;
          if (!byval_names.empty()) byval_names += ", ";
          byval_names += a.name.empty() ? std::string("(unnamed)") : std::string(a.name);
          continue;
        }
        assign(a);
        continue;
      }
      if (t->kind == TypeKind::Void) lw.fail(&a, "type 'void'");
      checkHalf(layout, fn, t, &a);
      a.extend = extensionOf(t, d);
      a.kind = a.extend != ExtendKind::None ? ArgKind::Extend : ArgKind::Direct;
      lw.valueUnits(t);
      budget -= std::min<uint64_t>(budget, amdgpu::numRegsForType(layout, t));
      assign(a);
    } catch (const Error& e) {
      if (e.kind() != ErrorKind::Unsupported || e.hasSourcePosition()) throw;
      if (e.message().rfind("function '", 0) == 0) throw;
      lw.fail(&a, e.message());
    }
  }
  out.stack_bytes = stack.size();
  if (!byval_names.empty())
    out.notes.push_back(
        "passed byval (clang-14: byval in the private address space): " + byval_names +
        "; the caller copies each object into the outgoing argument area at the "
        "offset shown, no register holds its address");
  if (any_stack)
    out.notes.push_back("stack offsets are from the caller's s32 (the callee's incoming stack "
                        "pointer); each register-sized piece takes a 4-byte slot; v31 carries "
                        "the work-item ids and is never an argument register");
}

} // namespace

const CallconvInfo kAmdgpuCallconv = {Family::AMDGPU, lower};

} // namespace abikit::detail
