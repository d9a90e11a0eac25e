// NVPTX calling convention (reference/gpu.md §1.3–1.4; docs/targets/nvptx.md "Calling
// convention"). Every value travels in a PTX `.param` variable: the callee's parameters are
// `<function>_param_<k>` (k = the IR argument index, which is the C parameter index: NVPTX has no
// hidden arguments) and the return value is `func_retval0`.
//
// Front end (clang-14's NVPTXABIInfo):
//  - returns: void is ignored; every non-scalar (struct, union, _Complex, vector) is returned
//    directly as its IR type, never through an sret pointer; promotable integers (and _BitInt
//    narrower than int) are extended by their signedness; the rest is direct;
//  - arguments: every aggregate (struct, union, _Complex) is byval with its C alignment; a
//    _BitInt wider than 64 bits is byval when the target has no __int128 (32-bit nvptx);
//    promotable integers are extended; the rest (scalars, vectors, __int128) is direct.
//  - kernels (CUDA __global__, OpenCL __kernel, __attribute__((nvptx_kernel))) are classified
//    the same way and must return void.
// Back end (LLVM 14's NVPTX back end): a byval aggregate's `.param` holds the object itself
// (sizeof bytes); a direct vector, __int128 or returned aggregate is a `.param` byte array with
// the IR type's alloc size and ABI alignment; scalars are `.param .b32/.b64`. How they are
// printed is src/emit/ptx.cpp's business.
//
// Rejected (the compilers cannot build it, checked with clang-14/llc-14): variadic and
// unprototyped functions, __fp16 parameters and returns, _BitInt widths llc-14 cannot select,
// vectors of __int128 or of odd integers, aggregates holding an integer llc-14 cannot load or
// store as a unit (a bit-field run or _BitInt of an odd width).
#include "core.h"
#include "ir_layout.h"

namespace abikit::detail {
namespace {

// LLVM 14's NVPTX data layout "e-[p:32:32-]i64:64-i128:128-v16:16-v32:32-n16:32:64" on top of
// LLVM's defaults (i1:8, i8:8, i16:16, i32:32, f16:16, f32:32, f64:64, v64:64, v128:128).
constexpr IrDataLayout::Entry kInts[] = {{1, 1}, {8, 1}, {16, 2}, {32, 4}, {64, 8}, {128, 16}};
constexpr IrDataLayout::Entry kVectors[] = {{16, 2}, {32, 4}, {64, 8}, {128, 16}};
// Pointers are as large as the C pointer (no table); every floating type has an IR type.
const IrDataLayout kDataLayout = {.ints = kInts,
                                  .vectors = kVectors,
                                  .half_align = 2,
                                  .float_align = 4,
                                  .double_align = 8,
                                  .fp128_align = 16,
                                  .pointers = {},
                                  .no_ir_type = nullptr};

/// How an error message or note names a value (nullptr: the return value).
std::string describe(const ArgLowering* a, size_t index) {
  if (!a) return "the return value";
  if (a->name.empty()) return "parameter " + std::to_string(index + 1);
  return "parameter '" + std::string(a->name) + "'";
}

struct State {
  const LayoutEngine& layout;
  const FunctionDecl& fn;
  IrTypes ir;
  bool kernel = false;
  bool is64 = true;
  std::vector<std::string>& notes;
  bool floor_note = false;
};

void addNote(State& s, std::string note) {
  for (const std::string& n : s.notes)
    if (n == note) return;
  s.notes.push_back(std::move(note));
}

ArgPart paramPart(uint32_t size, std::string name) {
  ArgPart p;
  p.offset = 0;
  p.size = size;
  p.loc.kind = ArgLocation::Kind::Param;
  p.loc.param = std::move(name);
  return p;
}

/// _BitInt widths llc-14 handles in parameters, returns and calls: up to 16 bits (promoted to
/// 32 bits), 32, 64 and 128. Other widths fail in instruction selection (StoreParam /
/// StoreRetval of a non-simple type), or in the front end above 64 bits.
bool bitIntWidthOk(unsigned bits) {
  return bits <= 16 || bits == 32 || bits == 64 || bits == 128;
}

void checkAlignment(State& s, const std::string& what, uint32_t align) {
  // ptxas limits the alignment of a .func's parameters and return value to 128; a kernel's
  // parameters may have any power of two.
  if (align > 128 && !(s.kernel && what != "the return value"))
    addNote(s, what + " is a .param aligned to " + std::to_string(align) +
                   " bytes: llc-14 prints it, but ptxas accepts .func parameter alignments only "
                   "up to 128");
}

void lowerAggregate(State& s, const Type* c, ArgLowering& a, const ArgLowering* named, size_t index,
                    std::string param) {
  TypeLayout tl = s.layout.of(c);
  IrType it = s.ir.of(c);
  // A kernel parameter is only ever read by the kernel (ld.param at offsets): llc-14 lowers it
  // whatever its IR type holds. Calls and returns copy the value leaf by leaf.
  if (it.odd_int_bits && !(s.kernel && named))
    unsupported(s.fn, describe(named, index) + " has type '" +
                          typeName(a.type, s.layout.context()) + "', whose IR type holds an i" +
                          std::to_string(it.odd_int_bits) +
                          " (a bit-field run or _BitInt of that width): llc-14 cannot pass or "
                          "return it (\"Cannot select\" on its StoreParam/StoreRetval/LoadParam)");
  if (it.i128_in_array && !(s.kernel && named))
    unsupported(s.fn, describe(named, index) + " has type '" +
                          typeName(a.type, s.layout.context()) +
                          "', whose IR type holds an array of i128: llc-14 cannot pass or "
                          "return it (it splits an i128 into two i64 only outside arrays; "
                          "calls crash, returns fail with \"Cannot select\")");
  a.parts.push_back(paramPart(uint32_t(tl.size), std::move(param)));
  if (!named) {
    // Returned directly as clang's IR type: the .param has that type's ABI alignment.
    a.kind = ArgKind::Direct;
    a.align = it.align;
    if (it.align != tl.align)
      addNote(s, "the return value's .param is aligned to " + std::to_string(it.align) +
                     " (the ABI alignment of clang's IR type for '" +
                     typeName(a.type, s.layout.context()) + "'), not to its C alignment " +
                     std::to_string(tl.align));
    if (tl.size == 0)
      addNote(s, "the return value is empty: llc-14 declares func_retval0[0], which ptxas "
                 "rejects (\"Output parameter cannot be an incomplete array\")");
    checkAlignment(s, "the return value", it.align);
    return;
  }
  // byval with the C alignment (getNaturalAlignIndirect).
  a.kind = ArgKind::Indirect;
  a.byval = true;
  a.align = tl.align;
  if (!s.kernel && tl.align < 4 && !s.floor_note) {
    s.floor_note = true;
    addNote(s, "LLVM 14 declares the .param of a byval aggregate of a non-kernel function with "
               "an alignment of at least 4 (a workaround for an old ptxas bug)");
  }
  if (tl.size == 0)
    addNote(s, describe(named, index) +
                   " is empty: llc-14 declares a [0] .param array, which ptxas reads as an "
                   "unsized array (PTX ISA 6.0 and sm_30 or later)");
  checkAlignment(s, describe(named, index), std::max<uint32_t>(tl.align, s.kernel ? 1 : 4));
}

void lowerValue(State& s, ArgLowering& a, const ArgLowering* named, size_t index,
                std::string param) {
  const TypeContext& ctx = s.layout.context();
  const Type* c = stripTypedefs(a.type);
  const std::string what = describe(named, index);
  switch (c->kind) {
  case TypeKind::Record:
  case TypeKind::Complex:
    lowerAggregate(s, c, a, named, index, std::move(param));
    return;
  case TypeKind::Vector: {
    auto* vt = static_cast<const VectorType*>(c);
    const Type* el = stripTypedefs(vt->element);
    const bool kernel_param = s.kernel && named; // never called or returned: see above
    if (const IntType* ie = asInteger(el)) {
      unsigned bits = ie->is_bitint ? ie->bits : unsigned(ctx.data().of(ie->ikind).size) * 8u;
      if (bits == 128 && !kernel_param)
        unsupported(s.fn, what + " is a vector of 128-bit integers: llc-14 cannot pass or "
                                 "return it (\"Cannot select\")");
    }
    IrType it = s.ir.of(c);
    if (it.odd_int_bits && !kernel_param)
      unsupported(s.fn, what + " is a vector of " + std::to_string(it.odd_int_bits) +
                            "-bit integers: llc-14 cannot lower it");
    a.kind = ArgKind::Direct;
    a.align = it.align;
    a.parts.push_back(paramPart(uint32_t(it.size), std::move(param)));
    checkAlignment(s, what, it.align);
    return;
  }
  case TypeKind::Int:
  case TypeKind::Enum: {
    const IntType* it = asInteger(c);
    TypeLayout tl = s.layout.of(c);
    if (it->is_bitint) {
      // Kernel parameters are only read by the kernel: every width up to 64 bits compiles
      // (ptxas then rejects the .uN llc-14 declares for odd widths); wider ones crash clang-14.
      bool ok = s.kernel && named ? it->bits <= 64 || it->bits == 128 : bitIntWidthOk(it->bits);
      if (!ok || (!s.is64 && it->bits > 64 && it->bits < 128))
        unsupported(s.fn, what + " has type '" + typeName(a.type, ctx) +
                              "': llc-14 handles _BitInt parameters and return values of at "
                              "most 16 bits and of 32, 64 and 128 bits only (kernel "
                              "parameters: at most 64 bits, and 128)");
      if (s.kernel && named && it->bits != 1 && it->bits != 8 && it->bits != 16 && it->bits != 32 &&
          it->bits != 64 && it->bits != 128)
        addNote(s, what + " has type '" + typeName(a.type, ctx) + "': llc-14 declares it .u" +
                       std::to_string(it->bits) + ", which ptxas rejects");
      if (named && !s.is64 && it->bits > 64) {
        // No __int128 on 32-bit nvptx: clang passes a wide _BitInt byval.
        a.kind = ArgKind::Indirect;
        a.byval = true;
        a.align = tl.align;
        a.parts.push_back(paramPart(uint32_t(tl.size), std::move(param)));
        return;
      }
      if (it->bits == 128) {
        IrType t = s.ir.integer(128);
        a.kind = ArgKind::Direct;
        a.align = t.align;
        a.parts.push_back(paramPart(uint32_t(t.size), std::move(param)));
        return;
      }
      // isPromotableIntegerTypeForABI: a _BitInt narrower than int is extended.
      if (it->bits < ctx.data().of(IntKind::Int).size * 8u) {
        a.kind = ArgKind::Extend;
        a.extend = it->is_signed ? ExtendKind::Sign : ExtendKind::Zero;
      } else {
        a.kind = ArgKind::Direct;
      }
      a.parts.push_back(paramPart(uint32_t(tl.size), std::move(param)));
      return;
    }
    if (tl.size == 16) { // __int128: a .param byte array of i128
      IrType t = s.ir.integer(128);
      a.kind = ArgKind::Direct;
      a.align = t.align;
      a.parts.push_back(paramPart(uint32_t(t.size), std::move(param)));
      return;
    }
    a.extend = promotionExtension(c, ctx.data());
    a.kind = a.extend != ExtendKind::None ? ArgKind::Extend : ArgKind::Direct;
    a.parts.push_back(paramPart(uint32_t(tl.size), std::move(param)));
    return;
  }
  case TypeKind::Float: {
    auto* ft = static_cast<const FloatType*>(c);
    if (ft->fkind == FloatKind::Fp16)
      unsupported(s.fn, what + " has type '" + typeName(a.type, ctx) +
                            "': clang-14 rejects half-precision parameters and return values "
                            "on NVPTX (the target does not allow half arguments and returns)");
    TypeLayout tl = s.layout.of(c); // rejects the types the target lacks
    a.kind = ArgKind::Direct;
    a.parts.push_back(paramPart(uint32_t(tl.size), std::move(param)));
    return;
  }
  case TypeKind::Pointer: {
    TypeLayout tl = s.layout.of(c);
    a.kind = ArgKind::Direct;
    a.parts.push_back(paramPart(uint32_t(tl.size), std::move(param)));
    return;
  }
  case TypeKind::OpenCL:
    unsupported(s.fn, what + " has the OpenCL type '" + typeName(a.type, ctx) +
                          "': images, samplers, pipes, events and queues are not modelled for "
                          "NVPTX");
  case TypeKind::Void:
  case TypeKind::Array:
  case TypeKind::Function:
  case TypeKind::Typedef:
    break;
  }
  unsupported(s.fn, what + " has type '" + typeName(a.type, ctx) + "', which cannot be passed");
}

void lower(const LayoutEngine& layout, const FunctionDecl& fn, FunctionLowering& out) {
  const FunctionType* ft = fn.type;
  if (ft->fkind == FunctionKind::Vertex)
    unsupported(fn, "vertex functions are a Graphcore IPU concept and do not exist on NVPTX");
  if (ft->variadic)
    unsupported(fn, "variadic functions cannot be used on NVPTX with LLVM 14: the back end "
                    "drops '...' from the declaration and passes the extra arguments as extra "
                    ".params at the call, which ptxas rejects (\"Call has wrong number of "
                    "parameters\"), and clang-14 crashes on va_start in a definition");
  if (!ft->prototyped)
    unsupported(fn, "a function without a prototype is variadic at the IR level ('(...)'), "
                    "which LLVM 14's NVPTX back end cannot call with arguments; declare its "
                    "parameters (or '(void)')");
  const Target& target = layout.context().target();
  State s{layout,
          fn,
          IrTypes(layout, kDataLayout),
          ft->fkind == FunctionKind::Kernel,
          target.nvptx().is64,
          out.notes};

  const Type* rt = stripTypedefs(out.ret.type);
  if (rt->kind == TypeKind::Void) {
    out.ret.kind = ArgKind::Ignore;
  } else {
    if (s.kernel)
      unsupported(fn, "a kernel must return void (it returns '" +
                          typeName(out.ret.type, layout.context()) + "')");
    lowerValue(s, out.ret, nullptr, 0, "func_retval0");
  }
  std::string prefix = std::string(fn.name) + "_param_";
  for (size_t k = 0; k < out.params.size(); ++k) {
    ArgLowering& a = out.params[k];
    lowerValue(s, a, &a, k, prefix + std::to_string(k));
  }
  out.stack_bytes = 0;
}

} // namespace

const CallconvInfo kNvptxCallconv = {Family::NVPTX, lower};

} // namespace abikit::detail

namespace abikit {

uint32_t ptxPointeeAlign(const LayoutEngine& layout, const Type* pointee) {
  const Type* c = stripTypedefs(pointee);
  if (c->kind == TypeKind::Function) return uint32_t(layout.context().data().pointer.align);
  if (c->kind == TypeKind::Void) return 1; // i8
  return detail::IrTypes(layout, detail::kDataLayout).of(c).opencl_align;
}

} // namespace abikit
